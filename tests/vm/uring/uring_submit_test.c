// SPDX-License-Identifier: GPL-2.0
/*
 * Guest program of test_uring.sh: LOOM_URING_SUBMIT, command descriptors
 * through io_uring, against /dev/loom0 (a context of 16-entry rings made
 * through the raw ABI, its completion ring reaped by hand).  Prints TAP.
 *
 *   a batch of NOPs completes in order; a PUT to myself moves the bytes;
 *   the doorbell is published once per batch, when the submitter's task
 *   runs its task work (shown with IORING_SETUP_DEFER_TASKRUN: nothing
 *   reaches the card before the submitter waits; CMD_PI is write-only,
 *   so what the card executed is seen by the completions); a 17th descriptor in one
 *   batch finds the ring full (-ENOBUFS); every descriptor the card would
 *   refuse is refused with its errno.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include <linux/loom.h>
#include <loom_hw/regs.h>
#include <loom_hw/ring.h>

#include "uring_util.h"

#define PLAN		7
#define ENTRIES		16
#define SEG		65536
#define KEY		0x5b17u

struct rctx {
	int fd;
	struct loom_ctx_create cr;
	struct loom_cqe *cq;
	volatile uint32_t *db;
	uint8_t *seg;
	uint32_t ci;
};

static void *map(int fd, size_t len, uint64_t token)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)token);

	return p == MAP_FAILED ? NULL : p;
}

static int rctx_open(int fd, struct rctx *r)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->cr = (struct loom_ctx_create){
		.argsz = sizeof(r->cr), .key = KEY, .cmdq_entries = ENTRIES,
		.cq_entries = ENTRIES, .seg_size = SEG,
	};
	if (ioctl(fd, LOOM_IOC_CTX_CREATE, &r->cr) < 0)
		return -1;
	r->cq = map(fd, ENTRIES * LOOM_CQE_SIZE, r->cr.cq_token);
	r->db = map(fd, LOOM_DB_PAGE_SIZE, r->cr.doorbell_token);
	r->seg = map(fd, SEG, r->cr.seg_token);
	return r->cq && r->db && r->seg ? 0 : -1;
}

/* Reap up to @max completions within @timeout_s; their tags and statuses. */
static int rctx_reap(struct rctx *r, uint64_t *tags, uint8_t *st, int max, double timeout_s)
{
	double t0 = now_s();
	int n = 0;

	while (n < max && now_s() - t0 < timeout_s) {
		struct loom_cqe *e = &r->cq[r->ci & (ENTRIES - 1)];
		uint32_t flags = __atomic_load_n(&e->flags, __ATOMIC_ACQUIRE);

		if ((flags & LOOM_CQE_PHASE) != loom_cq_phase(r->ci, 4)) {
			struct timespec ts = { 0, 1000000 };

			nanosleep(&ts, NULL);
			continue;
		}
		tags[n] = e->tag;
		st[n] = e->status;
		n++;
		r->ci++;
		__atomic_store_n(&r->db[LOOM_DB_CQ_CI / 4], r->ci, __ATOMIC_RELEASE);
	}
	return n;
}

static struct loom_uring_submit *prep(struct io_uring *ring, const struct rctx *r, uint64_t ud)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct loom_uring_submit *s;

	if (!sqe) {
		fprintf(stderr, "uring_submit_test: submission queue full\n");
		exit(1);
	}
	memset(sqe, 0, 128);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = r->fd;
	sqe->cmd_op = LOOM_URING_SUBMIT;
	sqe->user_data = ud;
	s = (struct loom_uring_submit *)(void *)sqe->cmd;
	s->ctx_index = r->cr.index;
	return s;
}

static struct loom_cmd *desc(struct loom_uring_submit *s)
{
	return (struct loom_cmd *)(void *)s->desc;
}

static void prep_nop(struct io_uring *ring, const struct rctx *r, uint64_t tag)
{
	struct loom_cmd *d = desc(prep(ring, r, tag));

	d->opcode = LOOM_OP_NOP;
	d->flags = LOOM_CMD_F_SIGNAL;
	d->tag = tag;
}

/* Reap @n CQEs: how many had res @want (others printed). */
static int reap_res(struct io_uring *ring, int n, int want)
{
	int got = 0;

	for (int i = 0; i < n; i++) {
		struct __kernel_timespec ts = { .tv_sec = 10 };
		struct io_uring_cqe *cqe;
		int err;

		do
			err = io_uring_wait_cqe_timeout(ring, &cqe, &ts);
		while (err == -EINTR);
		if (err)
			break;
		if (cqe->res == want)
			got++;
		else
			printf("# user_data %llu: res %d\n", (unsigned long long)cqe->user_data,
			       cqe->res);
		io_uring_cqe_seen(ring, cqe);
	}
	return got;
}

/* Submit one prepared descriptor and reap it: its res. */
static int one(struct io_uring *ring)
{
	struct __kernel_timespec ts = { .tv_sec = 10 };
	struct io_uring_cqe *cqe;
	int res;

	if (io_uring_submit(ring) != 1 || io_uring_wait_cqe_timeout(ring, &cqe, &ts))
		return -999;
	res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return res;
}

static void errors(struct io_uring *ring, const struct rctx *r, uint32_t other)
{
	struct loom_uring_submit *s;
	struct loom_cmd *d;
	int e[11];

	d = desc(prep(ring, r, 100));
	d->flags = 0x80;
	e[0] = one(ring);
	d = desc(prep(ring, r, 101));
	d->opcode = 99;
	e[1] = one(ring);
	d = desc(prep(ring, r, 102));
	d->opcode = LOOM_OP_PUT;
	d->length = 0;
	e[2] = one(ring);
	d = desc(prep(ring, r, 103));
	d->opcode = LOOM_OP_PUT;
	d->local_off = SEG - 8;
	d->length = 16;
	e[3] = one(ring);
	d = desc(prep(ring, r, 104));
	d->opcode = LOOM_OP_ATOMIC;
	d->length = 4;
	d->aux = LOOM_AMO_FETCH_ADD;
	e[4] = one(ring);
	d = desc(prep(ring, r, 105));
	d->opcode = LOOM_OP_COUNTER_WAIT;
	d->aux = LOOM_CTX_COUNTERS;
	e[5] = one(ring);
	d = desc(prep(ring, r, 106));
	d->opcode = LOOM_OP_BARRIER;
	e[6] = one(ring);
	d = desc(prep(ring, r, 107));
	d->opcode = LOOM_OP_GET;
	d->length = 8;
	d->dst_node = LOOM_MAX_NODES;
	e[7] = one(ring);
	s = prep(ring, r, 108);
	s->ctx_index = other;
	e[8] = one(ring);
	s = prep(ring, r, 109);
	s->flags = 1;
	e[9] = one(ring);
	s = prep(ring, r, 110);
	s->reserved = 1;
	e[10] = one(ring);
	check(e[0] == -EINVAL && e[1] == -EINVAL && e[2] == -EINVAL && e[3] == -ERANGE &&
	      e[4] == -EINVAL && e[5] == -EINVAL && e[6] == -EOPNOTSUPP && e[7] == -EINVAL &&
	      e[8] == -EINVAL && e[9] == -EINVAL && e[10] == -EINVAL,
	      "refused: unknown flag, opcode, PUT of 0 bytes -EINVAL, outside the segment -ERANGE, ATOMIC of 4 bytes, counter 512 -EINVAL, BARRIER -EOPNOTSUPP, node 1024, another file's context, flags, reserved -EINVAL (%d %d %d %d %d %d %d %d %d %d %d)",
	      e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7], e[8], e[9], e[10]);
}

int main(void)
{
	struct io_uring_params p = { .flags = IORING_SETUP_SQE128 };
	struct loom_ctx_create other = { .argsz = sizeof(other), .cmdq_entries = 16,
					 .cq_entries = 16, .seg_size = 4096 };
	uint64_t tags[ENTRIES];
	uint8_t st[ENTRIES];
	struct io_uring ring;
	struct rctx r;
	int fd, fd2, n, ok;

	printf("1..%d\n", PLAN);
	fd = open("/dev/loom0", O_RDWR);
	fd2 = open("/dev/loom0", O_RDWR);
	if (fd < 0 || fd2 < 0 || rctx_open(fd, &r) || ioctl(fd2, LOOM_IOC_CTX_CREATE, &other) < 0 ||
	    io_uring_queue_init_params(64, &ring, &p)) {
		printf("Bail out! cannot open /dev/loom0, create contexts and a ring\n");
		return 1;
	}

	/* a batch of 8 NOPs */
	for (int i = 0; i < 8; i++)
		prep_nop(&ring, &r, (uint64_t)i + 1);
	n = io_uring_submit(&ring);
	ok = reap_res(&ring, 8, 0) == 8;
	n = n == 8 ? rctx_reap(&r, tags, st, 8, 10) : -1;
	for (int i = 0; i < n; i++)
		ok &= tags[i] == (uint64_t)i + 1 && st[i] == 0;
	check(ok && n == 8 && rctx_reap(&r, tags, st, 1, 0.2) == 0,
	      "a batch of 8 NOPs: 8 submissions complete with 0, 8 completions in order, no more (%d)",
	      n);

	/* a PUT to myself */
	for (int i = 0; i < 4096; i++)
		r.seg[i] = (uint8_t)(i * 7 + 3);
	{
		struct loom_cmd *d = desc(prep(&ring, &r, 50));

		d->opcode = LOOM_OP_PUT;
		d->flags = LOOM_CMD_F_SIGNAL;
		d->dst_node = r.cr.node_id;
		d->dst_ctx = (uint16_t)r.cr.index;
		d->key = KEY;
		d->local_off = 0;
		d->remote_off = 8192;
		d->length = 4096;
		d->tag = 50;
	}
	ok = one(&ring) == 0;
	n = rctx_reap(&r, tags, st, 1, 10);
	ok = ok && n == 1 && tags[0] == 50 && st[0] == 0 && !memcmp(r.seg, r.seg + 8192, 4096);
	check(ok, "a PUT of 4 KiB to my own segment through LOOM_URING_SUBMIT lands (%d, status %d)",
	      n, n ? st[0] : -1);

	/* the 17th descriptor of one batch finds the ring full */
	for (int i = 0; i < ENTRIES + 1; i++)
		prep_nop(&ring, &r, 200 + (uint64_t)i);
	io_uring_submit(&ring);
	ok = reap_res(&ring, ENTRIES + 1, 0);
	n = rctx_reap(&r, tags, st, ENTRIES, 10);
	check(ok == ENTRIES && n == ENTRIES,
	      "17 NOPs in one batch on a 16-entry ring: 16 complete, the 17th -ENOBUFS (%d, %d completions)",
	      ok, n);

	errors(&ring, &r, other.index);
	io_uring_queue_exit(&ring);

	/* deferred task work: nothing reaches the card before we wait */
	{
		struct io_uring_params dp = {
			.flags = IORING_SETUP_SQE128 | IORING_SETUP_SINGLE_ISSUER |
				 IORING_SETUP_DEFER_TASKRUN,
		};
		struct io_uring dr;
		struct timespec ts = { 0, 300000000 };
		int early, got;

		if (io_uring_queue_init_params(16, &dr, &dp)) {
			check(0, "a ring with IORING_SETUP_DEFER_TASKRUN");
			check(0, "a ring with IORING_SETUP_DEFER_TASKRUN");
		} else {
			for (int i = 0; i < 4; i++)
				prep_nop(&dr, &r, 300 + (uint64_t)i);
			io_uring_submit(&dr);
			nanosleep(&ts, NULL);
			early = rctx_reap(&r, tags, st, 4, 0.2);
			check(early == 0,
			      "DEFER_TASKRUN: after submitting 4 NOPs the doorbell is not published yet (%d completions after 0.5 s)",
			      early);
			got = reap_res(&dr, 4, 0);
			n = rctx_reap(&r, tags, st, 4, 10);
			check(got == 4 && n == 4 && tags[0] == 300 && tags[3] == 303,
			      "... waiting runs the task work: the 4 NOPs are published and complete (%d, %d)",
			      got, n);
			io_uring_queue_exit(&dr);
		}
	}

	/* the card fetches in order: a last NOP completes only after all */
	{
		struct io_uring lr;
		struct io_uring_params lp = { .flags = IORING_SETUP_SQE128 };
		int got = -1;

		n = -1;
		if (!io_uring_queue_init_params(4, &lr, &lp)) {
			prep_nop(&lr, &r, 400);
			io_uring_submit(&lr);
			got = reap_res(&lr, 1, 0);
			n = rctx_reap(&r, tags, st, 2, 1);
			io_uring_queue_exit(&lr);
		}
		check(got == 1 && n == 1 && tags[0] == 400,
		      "every descriptor published was executed: a last NOP is the only completion left (%d, %d, tag %llu)",
		      got, n, n > 0 ? (unsigned long long)tags[0] : 0ull);
	}

	close(fd2);
	close(fd);
	if (test_n != PLAN)
		printf("# ran %d checks, planned %d\n", test_n, PLAN);
	return test_failed || test_n != PLAN ? 1 : 0;
}
