// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libloom completion mode io_uring (LOOM_CTX_ATTR_URING): the context owns
 * a small IORING_SETUP_SQE128 ring and loom_wait() sleeps on a
 * LOOM_URING_WAIT_CQ command of /dev/loomN instead of poll().
 *
 * Every wait carries a timeout of at most URING_SLICE_NS: Linux 6.1 cannot
 * cancel a driver's io_uring command, so a process that dies while one is
 * outstanding exits only once it completes.  loom_wait() always reaps its
 * command before it returns, so none is outstanding between calls.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <liburing.h>

#include <linux/loom.h>
#include <loom.h>

#include "ctx_internal.h"

#define URING_ENTRIES		4
#define URING_SLICE_NS		1000000000ull	/* 1 s */

struct loom_uring {
	struct io_uring ring;
	uint64_t next_id;
};

int loom_uring_open(struct loom_ctx *ctx)
{
	struct loom_uring *u = calloc(1, sizeof(*u));
	int err;

	if (!u)
		return -ENOMEM;
	err = io_uring_queue_init(URING_ENTRIES, &u->ring, IORING_SETUP_SQE128);
	if (err < 0) {
		free(u);
		return err;
	}
	ctx->uring = u;
	return 0;
}

void loom_uring_close(struct loom_ctx *ctx)
{
	if (!ctx->uring)
		return;
	io_uring_queue_exit(&ctx->uring->ring);
	free(ctx->uring);
	ctx->uring = NULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* One LOOM_URING_WAIT_CQ of at most @timeout_ns; returns its result. */
static int uring_wait_once(struct loom_ctx *ctx, uint64_t timeout_ns)
{
	struct loom_uring *u = ctx->uring;
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	struct loom_uring_wait *w;
	uint64_t id = ++u->next_id;
	int err, res;

	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return -EBUSY;	/* cannot happen: one command at a time */
	memset(sqe, 0, 128);	/* SQE128: 64 bytes + the 80-byte cmd area */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = ctx->dev->fd;
	sqe->cmd_op = LOOM_URING_WAIT_CQ;
	sqe->user_data = id;
	w = (struct loom_uring_wait *)(void *)sqe->cmd;
	w->ctx_index = ctx->index;
	w->timeout_ns = timeout_ns;
	w->user_id = id;

	err = io_uring_submit(&u->ring);
	if (err < 0)
		return err;
	for (;;) {
		/* the command is in the kernel now: reap it whatever happens */
		err = io_uring_wait_cqe(&u->ring, &cqe);
		if (err == -EINTR)
			continue;
		if (err < 0)
			return err;
		res = cqe->res;
		io_uring_cqe_seen(&u->ring, cqe);
		if (cqe->user_data == id)
			return res;
	}
}

int loom_uring_wait(struct loom_ctx *ctx, struct loom_completion *out, int max,
		    int timeout_ms)
{
	uint64_t deadline = timeout_ms < 0 ? 0 :
			    now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		uint64_t slice = URING_SLICE_NS;
		int n = loom_poll(ctx, out, max);

		if (n)
			return n;
		if (deadline) {
			uint64_t now = now_ns();

			if (now >= deadline)
				return -ETIMEDOUT;
			if (deadline - now < slice)
				slice = deadline - now;
		}
		/*
		 * The kernel completes the wait when the entry at our consumer
		 * index (published in the doorbell page) is valid, so there is
		 * no lost wake-up between loom_poll() and the wait.
		 */
		n = uring_wait_once(ctx, slice);
		switch (n) {
		case 0:		/* an entry is there */
		case -ETIME:	/* the slice ended */
		case -ECANCELED:
			continue;
		default:
			return n;	/* -EIO: the card went away */
		}
	}
}
