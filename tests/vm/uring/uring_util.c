// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the io_uring guest programs: see uring_util.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/loom.h>

#include "uring_util.h"

int test_n, test_failed;

void check(int ok, const char *what, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++test_n);
	va_start(ap, what);
	vprintf(what, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		test_failed++;
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct io_uring_sqe *uring_cmd_prep(struct io_uring *ring, int fd, uint32_t op,
				    uint64_t user_data)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe) {
		fprintf(stderr, "uring test: submission queue full\n");
		exit(1);
	}
	memset(sqe, 0, (ring->flags & IORING_SETUP_SQE128) ? 128 : 64);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	sqe->user_data = user_data;
	return sqe;
}

void uring_prep_cancel(struct io_uring *ring, int fd, uint64_t user_id, uint64_t user_data)
{
	struct io_uring_sqe *sqe = uring_cmd_prep(ring, fd, LOOM_URING_CANCEL, user_data);
	struct loom_uring_cancel *c = (struct loom_uring_cancel *)(void *)sqe->cmd;

	c->user_id = user_id;
}

int uring_reap(struct io_uring *ring, double timeout_s, int *res, uint64_t *data)
{
	struct __kernel_timespec ts = {
		.tv_sec = (long long)timeout_s,
		.tv_nsec = (long long)((timeout_s - (double)(long long)timeout_s) * 1e9),
	};
	struct io_uring_cqe *cqe;
	int err;

	do
		err = io_uring_wait_cqe_timeout(ring, &cqe, &ts);
	while (err == -EINTR);
	if (err)
		return err;
	*res = cqe->res;
	*data = cqe->user_data;
	io_uring_cqe_seen(ring, cqe);
	return 0;
}

int uring_submit_one(struct io_uring *ring, double timeout_s)
{
	uint64_t data;
	int res;

	if (io_uring_submit(ring) < 0 || uring_reap(ring, timeout_s, &res, &data))
		return -999;
	return res;
}

int uring_reap_n(struct io_uring *ring, int n, int want, double timeout_s)
{
	int got = 0;

	for (int i = 0; i < n; i++) {
		uint64_t data;
		int res;

		if (uring_reap(ring, timeout_s, &res, &data))
			break;
		got += res == want;
	}
	return got;
}
