// SPDX-License-Identifier: GPL-2.0
/*
 * defer_linger [SECONDS]: a reproducer of a Linux 6.1 io_uring behaviour,
 * with no driver involved.  Three threads each use a DEFER_TASKRUN ring
 * for NOPs (some IOSQE_ASYNC, some linked, some IOSQE_ASYNC linked to a
 * read that fails at once) and tear it down every 50 batches or so with
 * requests in flight, going on with a new ring.  With
 * tests/debug/iou_inspect loaded twice a few seconds apart while it runs,
 * many of the rings being torn down at the first look are still being
 * torn down at the second (io_ring_exit_work() waits for their requests);
 * with test_iface_fuzz.sh's command mix on the debug kernel such
 * teardowns last past the five minutes after which Linux warns.
 * Documentation/testing.rst (the debug-kernel campaign's findings) has
 * the commands and the figures.
 * Prints the teardowns of each thread; runs SECONDS (default 30).
 */
#include <liburing.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int seconds;
static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int open_ring(struct io_uring *r)
{
	struct io_uring_params p = { .flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN };
	return io_uring_queue_init_params(64, r, &p);
}

static void *worker(void *arg)
{
	unsigned int seed = (unsigned int)(unsigned long)arg;
	struct io_uring r;
	struct io_uring_cqe *cqe;
	double end = now_s() + seconds;
	long teardowns = 0;

	if (open_ring(&r))
		return NULL;
	while (now_s() < end) {
		int n = 1 + rand_r(&seed) % 4;
		for (int i = 0; i < n && io_uring_sq_space_left(&r) >= 2; i++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&r);
			int way = rand_r(&seed) % 4;

			io_uring_prep_nop(sqe);
			if (way == 3) {
				sqe->flags = IOSQE_ASYNC | IOSQE_IO_LINK;
				sqe = io_uring_get_sqe(&r);
				/* a request that fails inline: read from a bad descriptor */
				io_uring_prep_read(sqe, -1, NULL, 0, 0);
			} else if (way == 1) {
				sqe->flags = IOSQE_ASYNC;
			} else if (way == 2 && i + 1 < n) {
				sqe->flags = IOSQE_IO_LINK;
			}
		}
		io_uring_submit(&r);
		if (rand_r(&seed) % 2)
			io_uring_get_events(&r);
		while (!io_uring_peek_cqe(&r, &cqe))
			io_uring_cqe_seen(&r, cqe);
		if (rand_r(&seed) % 50 == 0) {
			io_uring_queue_exit(&r);
			teardowns++;
			if (open_ring(&r))
				return NULL;
		}
	}
	io_uring_queue_exit(&r);
	printf("thread: %ld teardowns\n", teardowns);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[3];

	seconds = argc > 1 ? atoi(argv[1]) : 30;
	if (seconds < 1 || seconds > 3600) {
		fprintf(stderr, "usage: defer_linger [SECONDS] (1 to 3600, default 30)\n");
		return 2;
	}
	for (long i = 0; i < 3; i++)
		pthread_create(&th[i], NULL, worker, (void *)(i + 1));
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	return 0;
}
