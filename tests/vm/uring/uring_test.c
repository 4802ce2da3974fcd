// SPDX-License-Identifier: GPL-2.0
/*
 * Guest program of test_uring.sh: loom.ko's io_uring commands
 * (LOOM_URING_WAIT_CQ, LOOM_URING_CANCEL) and libloom's completion mode
 * io_uring, against /dev/loom0.  Prints TAP.
 *
 *   uring_test          the checks
 *   uring_test hold N   submits N waits of 30 s, prints "held", then one
 *                       line "res R" per completion (the card is unbound
 *                       meanwhile: R must be -EIO)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include <linux/loom.h>
#include <loom.h>

#include "uring_util.h"

/*
 * How many waits the card's debugfs "uring" lists ("waiting N torn_down
 * M"), mounting debugfs if need be; -1 if it cannot be read.
 */
static int card_waits(void)
{
	static const char path[] = "/sys/kernel/debug/loom/loom0/uring";
	FILE *f = fopen(path, "r");
	char line[128];
	int n = -1;

	if (!f && errno == ENOENT && !mount("none", "/sys/kernel/debug", "debugfs", 0, NULL))
		f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "waiting %d torn_down", &n) == 1)
			break;
	fclose(f);
	return n;
}

/* Poll card_waits() for up to @timeout_s until it says @want; the last. */
static int card_waits_until(int want, double timeout_s)
{
	double t0 = now_s();
	int n;

	while ((n = card_waits()) != want && now_s() - t0 < timeout_s)
		usleep(20000);
	return n;
}

static void prep_wait(struct io_uring *ring, int fd, uint32_t ctx_index,
		      uint64_t timeout_ns, uint64_t user_id)
{
	struct io_uring_sqe *sqe = uring_cmd_prep(ring, fd, LOOM_URING_WAIT_CQ, user_id);
	struct loom_uring_wait *w = (struct loom_uring_wait *)(void *)sqe->cmd;

	w->ctx_index = ctx_index;
	w->timeout_ns = timeout_ns;
	w->user_id = user_id;
}

static int ring_init(struct io_uring *ring, unsigned int entries,
		     unsigned int flags)
{
	struct io_uring_params p = { .flags = flags | IORING_SETUP_CQSIZE,
				     .cq_entries = entries * 2 };
	int err = io_uring_queue_init_params(entries, ring, &p);

	if (err) {
		fprintf(stderr, "uring_test: io_uring_queue_init(%u): %s\n",
			entries, strerror(-err));
		exit(1);
	}
	return 0;
}

/*
 * Reap everything, then give the card time to take the consumer index
 * (CQ_CI is write-only: the kernel's test reads the card's CQ_CI_SEEN,
 * which the lab card updates within a few ms).
 */
static void drain(struct loom_ctx *ctx)
{
	struct loom_completion c[16];

	while (loom_poll(ctx, c, 16) > 0)
		;
	usleep(50000);
}

static int hold(int n)
{
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	struct io_uring ring;
	int i, fd;

	if (loom_dev_open(NULL, &dev) || loom_ctx_create(dev, NULL, &ctx)) {
		fprintf(stderr, "uring_test hold: cannot open a context\n");
		return 1;
	}
	fd = loom_ctx_fd(ctx);
	ring_init(&ring, 256, IORING_SETUP_SQE128);
	for (i = 0; i < n; i++)
		prep_wait(&ring, fd, loom_ctx_index(ctx), 30000000000ull, 1);
	if (io_uring_submit(&ring) != n) {
		fprintf(stderr, "uring_test hold: submit failed\n");
		return 1;
	}
	printf("held\n");
	fflush(stdout);
	for (i = 0; i < n; i++) {
		uint64_t data;
		int res;

		if (uring_reap(&ring, 60, &res, &data)) {
			printf("reap: timeout\n");
			return 1;
		}
		printf("res %d\n", res);
	}
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	struct loom_ctx_attr uattr = { .flags = LOOM_CTX_ATTR_URING };
	struct loom_completion comp[4];
	struct io_uring ring, ring64;
	struct loom_dev *dev;
	struct loom_ctx *ctx, *uctx;
	uint32_t idx;
	int fd, res, i, n, ok, ebusy, zero, canceled;
	uint64_t data;
	double t0, dt;

	if (argc == 3 && !strcmp(argv[1], "hold"))
		return hold(atoi(argv[2]));

	printf("1..19\n");
	if (loom_dev_open(NULL, &dev) || loom_ctx_create(dev, NULL, &ctx)) {
		printf("Bail out! cannot open /dev/loom0 and create a context\n");
		return 1;
	}
	fd = loom_ctx_fd(ctx);
	idx = loom_ctx_index(ctx);
	ring_init(&ring, 2048, IORING_SETUP_SQE128);

	/* without SQE128 */
	ring_init(&ring64, 8, 0);
	uring_cmd_prep(&ring64, fd, LOOM_URING_WAIT_CQ, 1);
	res = uring_submit_one(&ring64, 5);
	check(res == -EINVAL, "WAIT_CQ on a ring without SQE128: -EINVAL (got %d)", res);
	io_uring_queue_exit(&ring64);

	prep_wait(&ring, fd, idx + 1, 1000000000ull, 1);
	res = uring_submit_one(&ring, 5);
	check(res == -EINVAL, "WAIT_CQ on a context not of this file: -EINVAL (got %d)", res);
	{
		struct io_uring_sqe *sqe = uring_cmd_prep(&ring, fd, LOOM_URING_WAIT_CQ, 2);
		struct loom_uring_wait *w = (struct loom_uring_wait *)(void *)sqe->cmd;

		w->ctx_index = idx;
		w->flags = 1;
		w->timeout_ns = 1000000000ull;
	}
	res = uring_submit_one(&ring, 5);
	check(res == -EINVAL, "WAIT_CQ with unknown flags: -EINVAL (got %d)", res);
	prep_wait(&ring, fd, idx, LOOM_URING_MAX_TIMEOUT_NS + 1, 2);
	res = uring_submit_one(&ring, 5);
	check(res == -EINVAL, "WAIT_CQ with a timeout above 60 s: -EINVAL (got %d)", res);
	uring_cmd_prep(&ring, fd, 0x4cff, 3);
	res = uring_submit_one(&ring, 5);
	check(res == -ENOTTY, "unknown cmd_op: -ENOTTY (got %d)", res);

	/* timeout */
	t0 = now_s();
	prep_wait(&ring, fd, idx, 300000000ull, 4);
	res = uring_submit_one(&ring, 10);
	dt = now_s() - t0;
	check(res == -ETIME && dt >= 0.29 && dt < 5,
	      "a wait with no completion times out with -ETIME after 300 ms (got %d after %.3f s)", res, dt);

	/* completion from the interrupt */
	prep_wait(&ring, fd, idx, 20000000000ull, 5);
	io_uring_submit(&ring);
	usleep(100000);
	t0 = now_s();
	loom_nop(ctx, 42);
	res = uring_reap(&ring, 15, &res, &data) ? -999 : res;
	dt = now_s() - t0;
	check(res == 0 && dt < 10,
	      "a wait completes with 0 when a NOP completion arrives (got %d after %.3f s)", res, dt);
	n = loom_poll(ctx, comp, 4);
	check(n == 1 && comp[0].tag == 42, "the NOP completion is there to reap (%d)", n);

	/* an entry already there: completes at once; timeout 0 tests once */
	loom_nop(ctx, 43);
	usleep(200000);
	prep_wait(&ring, fd, idx, 20000000000ull, 6);
	res = uring_submit_one(&ring, 5);
	prep_wait(&ring, fd, idx, 0, 7);
	n = uring_submit_one(&ring, 5);
	drain(ctx);
	prep_wait(&ring, fd, idx, 0, 8);
	i = uring_submit_one(&ring, 5);
	check(res == 0 && n == 0 && i == -ETIME,
	      "an entry already there completes at once; timeout 0 tests once (%d %d %d)", res, n, i);

	/* cancel */
	for (i = 0; i < 3; i++)
		prep_wait(&ring, fd, idx, 20000000000ull, 77);
	prep_wait(&ring, fd, idx, 20000000000ull, 78);
	io_uring_submit(&ring);
	usleep(100000);
	uring_prep_cancel(&ring, fd, 77, 1077);
	io_uring_submit(&ring);
	ok = 1;
	canceled = 0;
	n = -1;
	for (i = 0; i < 4; i++) {
		if (uring_reap(&ring, 5, &res, &data)) {
			ok = 0;
			break;
		}
		if (data == 1077)
			n = res;
		else if (data == 77 && res == -ECANCELED)
			canceled++;
		else
			ok = 0;
	}
	check(ok && n == 3 && canceled == 3,
	      "CANCEL of user_id 77 returns 3 and those waits complete with -ECANCELED (cancel %d, %d cancelled)",
	      n, canceled);
	uring_prep_cancel(&ring, fd, 78, 1078);
	io_uring_submit(&ring);
	n = -1;
	canceled = 0;
	for (i = 0; i < 2; i++) {
		if (uring_reap(&ring, 5, &res, &data))
			break;
		if (data == 1078)
			n = res;
		else if (data == 78 && res == -ECANCELED)
			canceled++;
	}
	check(n == 1 && canceled == 1, "the other user_id is cancelled apart (%d, %d)", n, canceled);

	/* 200 outstanding waits, one completion */
	for (i = 0; i < 200; i++)
		prep_wait(&ring, fd, idx, 20000000000ull, 200);
	io_uring_submit(&ring);
	usleep(200000);
	t0 = now_s();
	loom_nop(ctx, 44);
	zero = 0;
	for (i = 0; i < 200; i++) {
		if (uring_reap(&ring, 15, &res, &data))
			break;
		zero += res == 0;
	}
	dt = now_s() - t0;
	check(zero == 200, "200 outstanding waits all complete with 0 on one completion (%d, %.3f s)", zero, dt);
	drain(ctx);

	/* the per-file bound */
	for (i = 0; i < LOOM_URING_MAX_WAITS + 1; i++)
		prep_wait(&ring, fd, idx, 20000000000ull, 300);
	io_uring_submit(&ring);
	ebusy = 0;
	for (;;) {
		if (uring_reap(&ring, 1, &res, &data))
			break;
		ebusy += res == -EBUSY;
	}
	uring_prep_cancel(&ring, fd, 300, 1300);
	io_uring_submit(&ring);
	n = -1;
	canceled = 0;
	for (i = 0; i < LOOM_URING_MAX_WAITS + 1; i++) {
		if (uring_reap(&ring, 5, &res, &data))
			break;
		if (data == 1300)
			n = res;
		else if (res == -ECANCELED)
			canceled++;
	}
	check(ebusy == 1 && n == LOOM_URING_MAX_WAITS && canceled == LOOM_URING_MAX_WAITS,
	      "wait %d of a file gets -EBUSY; cancel reaps the %d others (%d -EBUSY, cancel %d, %d cancelled)",
	      LOOM_URING_MAX_WAITS + 1, LOOM_URING_MAX_WAITS, ebusy, n, canceled);

	/* destroying the context completes its waits */
	{
		struct loom_ctx *c2;
		int ret = loom_ctx_create(dev, NULL, &c2);

		for (i = 0; !ret && i < 5; i++)
			prep_wait(&ring, fd, loom_ctx_index(c2), 20000000000ull, 400);
		io_uring_submit(&ring);
		usleep(100000);
		if (!ret)
			loom_ctx_destroy(c2);
		canceled = 0;
		for (i = 0; i < 5; i++) {
			if (uring_reap(&ring, 5, &res, &data))
				break;
			canceled += res == -ECANCELED;
		}
		check(!ret && canceled == 5, "destroying a context completes its 5 waits with -ECANCELED (%d)", canceled);
	}

	/* closing the device file with waits outstanding */
	{
		struct loom_ctx_create cr = { .argsz = sizeof(cr), .cmdq_entries = 16,
					      .cq_entries = 16, .seg_size = 4096 };
		int fd2 = open("/dev/loom0", O_RDWR);
		int ret = fd2 < 0 ? -1 : ioctl(fd2, LOOM_IOC_CTX_CREATE, &cr);

		for (i = 0; !ret && i < 5; i++)
			prep_wait(&ring, fd2, cr.index, 300000000ull, 500);
		io_uring_submit(&ring);
		if (fd2 >= 0)
			close(fd2);
		n = 0;
		for (i = 0; i < 5; i++) {
			if (uring_reap(&ring, 5, &res, &data))
				break;
			n += res == -ETIME;
		}
		check(!ret && n == 5, "waits on a closed file still complete (-ETIME, %d of 5)", n);
	}

	/*
	 * closing the ring with waits of 10 s outstanding returns, and the
	 * module ends them (io_uring on 6.1 does not tell it: it looks every
	 * 100 ms), which the card's debugfs shows
	 */
	{
		struct io_uring r2;
		int before, after;

		ring_init(&r2, 8, IORING_SETUP_SQE128);
		for (i = 0; i < 4; i++)
			prep_wait(&r2, fd, idx, 10000000000ull, 600);
		io_uring_submit(&r2);
		before = card_waits_until(4, 2);
		t0 = now_s();
		io_uring_queue_exit(&r2);
		dt = now_s() - t0;
		check(dt < 5, "closing a ring with 4 waits outstanding returns (%.3f s)", dt);
		after = card_waits_until(0, 3);
		check(before == 4 && after == 0,
		      "the module ends the 4 waits of a torn-down ring within %.1f s (debugfs listed %d before, %d after)",
		      now_s() - t0, before, after);
	}

	/* a process exiting with waits outstanding: exits once they time out */
	{
		pid_t pid;
		int status = -1;

		t0 = now_s();
		pid = fork();
		if (pid == 0) {
			struct io_uring r3;

			ring_init(&r3, 8, IORING_SETUP_SQE128);
			for (i = 0; i < 4; i++)
				prep_wait(&r3, fd, idx, 500000000ull, 700);
			_exit(io_uring_submit(&r3) == 4 ? 0 : 1);
		}
		if (pid > 0)
			waitpid(pid, &status, 0);
		dt = now_s() - t0;
		check(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0 && dt < 5,
		      "a process exiting with 4 waits of 500 ms outstanding exits (%.3f s)", dt);
	}

	/* libloom's completion mode io_uring */
	if (loom_ctx_create(dev, &uattr, &uctx)) {
		check(0, "a context with LOOM_CTX_ATTR_URING is created");
	} else {
		t0 = now_s();
		res = loom_wait(uctx, comp, 4, 300);
		dt = now_s() - t0;
		loom_nop(uctx, 99);
		n = loom_wait(uctx, comp, 4, 10000);
		check(res == -ETIMEDOUT && dt >= 0.29 && n == 1 && comp[0].tag == 99,
		      "LOOM_CTX_ATTR_URING: loom_wait times out (%d after %.3f s), then reaps a NOP (%d)",
		      res, dt, n);
		loom_ctx_destroy(uctx);
	}

	io_uring_queue_exit(&ring);
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	return test_failed ? 1 : 0;
}
