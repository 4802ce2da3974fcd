// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libloom completion mode io_uring (LOOM_CTX_ATTR_URING): the context owns
 * a small IORING_SETUP_SQE128 ring and loom_wait() sleeps on a
 * LOOM_URING_WAIT_CQ command of /dev/loomN instead of poll(),
 * loom_counter_wait() on LOOM_URING_WAIT_COUNTER; a BSU handle in that
 * mode has a ring of its own for LOOM_URING_WAIT_BSU (bsu.c).
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
#define URING_CMD_BYTES		80		/* sqe->cmd with SQE128 */

struct loom_uring {
	struct io_uring ring;
	uint64_t next_id;
};

struct loom_uring *loom_uring_new(int *err)
{
	struct loom_uring *u = calloc(1, sizeof(*u));
	int e;

	if (!u) {
		*err = -ENOMEM;
		return NULL;
	}
	e = io_uring_queue_init(URING_ENTRIES, &u->ring, IORING_SETUP_SQE128);
	if (e < 0) {
		free(u);
		*err = e;
		return NULL;
	}
	return u;
}

void loom_uring_free(struct loom_uring *u)
{
	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u);
}

int loom_uring_open(struct loom_ctx *ctx)
{
	int err = 0;

	ctx->uring = loom_uring_new(&err);
	return ctx->uring ? 0 : err;
}

void loom_uring_close(struct loom_ctx *ctx)
{
	loom_uring_free(ctx->uring);
	ctx->uring = NULL;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t loom_uring_next_id(struct loom_uring *u)
{
	return ++u->next_id;
}

int loom_uring_cmd(struct loom_uring *u, int fd, uint32_t cmd_op, uint64_t id,
		   const void *payload, size_t len)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe *sqe;
	int err, res;

	if (len > URING_CMD_BYTES)
		return -EINVAL;
	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return -EBUSY;	/* cannot happen: one command at a time */
	memset(sqe, 0, 128);	/* SQE128: 64 bytes + the 80-byte cmd area */
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = cmd_op;
	sqe->user_data = id;
	memcpy(sqe->cmd, payload, len);

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

uint64_t loom_uring_slice(int64_t deadline_ns)
{
	uint64_t now;

	if (deadline_ns < 0)
		return URING_SLICE_NS;
	now = now_ns();
	if (now >= (uint64_t)deadline_ns)
		return 0;
	return (uint64_t)deadline_ns - now < URING_SLICE_NS ?
	       (uint64_t)deadline_ns - now : URING_SLICE_NS;
}

/* One LOOM_URING_WAIT_CQ of at most @timeout_ns; returns its result. */
static int uring_wait_once(struct loom_ctx *ctx, uint64_t timeout_ns)
{
	struct loom_uring *u = ctx->uring;
	uint64_t id = loom_uring_next_id(u);
	struct loom_uring_wait w = {
		.ctx_index = ctx->index,
		.timeout_ns = timeout_ns,
		.user_id = id,
	};

	return loom_uring_cmd(u, ctx->dev->fd, LOOM_URING_WAIT_CQ, id, &w, sizeof(w));
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
		 * index (as the card took it from the doorbell page) is valid,
		 * so there is no lost wake-up between loom_poll() and the wait.
		 */
		loom_cq_sync(ctx);
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
