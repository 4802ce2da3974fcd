// SPDX-License-Identifier: GPL-2.0
/*
 * Guest program of test_uring.sh: on an IORING_SETUP_DEFER_TASKRUN ring
 * every kind of LOOM_URING_* command completes exactly once, counted kind
 * by kind, and a completion that loom.ko hands to the submitter's task
 * (io_uring_cmd_complete_in_task(): from the wait's timer, from a cancel,
 * from the completion interrupt's scan, from CTX_DESTROY, and every
 * LOOM_URING_SUBMIT and counting LOOM_URING_CANCEL) is posted when, and
 * only when, the submitter enters io_uring_enter() with
 * IORING_ENTER_GETEVENTS.  A reaper that only peeks at the completion
 * ring (as liburing's io_uring_peek_cqe() and io_uring_wait_cqe*() with a
 * completion already there do) never sees those.
 *
 * One batch of 4 commands of each kind below, in two passes: issued
 * inline, then with IOSQE_ASYNC (io-wq).  Inline, after 0.5 s of peeking
 * only, exactly the kinds io_uring completes inline are there; then,
 * waiting with GETEVENTS, every command completes once with the result
 * of its kind and nothing more comes within 0.3 s.
 *
 *   uring_defer_test [DEVICE]      default /dev/loom0
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include <linux/loom.h>
#include <loom_hw/ring.h>

#include "uring_util.h"

#define PER_KIND	4
#define MS		1000000ull
#define SEC		(1000 * MS)
#define CANCEL_ID	7
#define BSU_UNIT	3

enum kind {
	K_CQ_NOW,	/* WAIT_CQ, timeout 0, empty ring: -ETIME inline */
	K_CQ_TIMER,	/* WAIT_CQ, 100 ms: -ETIME from the timer */
	K_CNT_MET,	/* WAIT_COUNTER already met: 0 inline */
	K_CNT_TIMER,	/* WAIT_COUNTER not met, 100 ms: -ETIME from the timer */
	K_BSU_TIMER,	/* WAIT_BSU not met, 100 ms: -ETIME from the timer */
	K_CANCELLED,	/* WAIT_CQ, 20 s, user_id 7: -ECANCELED by the cancel */
	K_CANCEL,	/* CANCEL of user_id 7: counts them, in task work */
	K_CANCEL_NONE,	/* CANCEL of nothing: 0 inline */
	K_SUBMIT,	/* SUBMIT of a NOP: 0 in task work */
	K_UNKNOWN,	/* unknown cmd_op: -ENOTTY inline */
	K_DESTROYED,	/* WAIT_CQ, 20 s, context destroyed: -ECANCELED */
	K_CARD,		/* WAIT_CQ, 5 s, a signalled NOP: 0 from the interrupt */
	K_SIGNAL,	/* SUBMIT of that signalled NOP: 0 in task work */
	K_COUNT
};

static const struct {
	const char *name;
	int res;
	int inline_done;	/* completed by ->uring_cmd() itself */
	int n;			/* how many of the batch */
} kinds[K_COUNT] = {
	[K_CQ_NOW]	= { "WAIT_CQ timeout 0", -ETIME, 1, PER_KIND },
	[K_CQ_TIMER]	= { "WAIT_CQ timer", -ETIME, 0, PER_KIND },
	[K_CNT_MET]	= { "WAIT_COUNTER met", 0, 1, PER_KIND },
	[K_CNT_TIMER]	= { "WAIT_COUNTER timer", -ETIME, 0, PER_KIND },
	[K_BSU_TIMER]	= { "WAIT_BSU timer", -ETIME, 0, PER_KIND },
	[K_CANCELLED]	= { "WAIT_CQ cancelled", -ECANCELED, 0, PER_KIND },
	[K_CANCEL]	= { "CANCEL of 4", PER_KIND, 0, 1 },
	[K_CANCEL_NONE]	= { "CANCEL of none", 0, 1, PER_KIND },
	[K_SUBMIT]	= { "SUBMIT", 0, 0, PER_KIND },
	[K_UNKNOWN]	= { "unknown cmd_op", -ENOTTY, 1, PER_KIND },
	[K_DESTROYED]	= { "WAIT_CQ context destroyed", -ECANCELED, 0, PER_KIND },
	[K_CARD]	= { "WAIT_CQ card completion", 0, 0, PER_KIND },
	[K_SIGNAL]	= { "SUBMIT signalled", 0, 0, 1 },
};

struct tally {
	int seen[K_COUNT][PER_KIND];	/* completions per command */
	int wrong[K_COUNT];		/* of them, with another result */
	int last_res[K_COUNT];		/* the last other result */
	int stray;			/* user_data of nothing submitted */
};

static const char *dev_path = "/dev/loom0";

static int ctx_create(int fd, uint32_t bsu_mask)
{
	struct loom_ctx_create cr = {
		.argsz = sizeof(cr), .key = 0x5a7e, .cmdq_entries = 16,
		.cq_entries = 16, .seg_size = 4096, .bsu_mask = bsu_mask,
	};

	if (ioctl(fd, LOOM_IOC_CTX_CREATE, &cr) < 0)
		return -errno;
	return (int)cr.index;
}

static struct io_uring_sqe *prep(struct io_uring *ring, int fd, uint32_t op, enum kind k,
				 int i, int async)
{
	struct io_uring_sqe *sqe = uring_cmd_prep(ring, fd, op, (uint64_t)k << 8 | (uint64_t)i);

	if (async)
		sqe->flags |= IOSQE_ASYNC;
	return sqe;
}

static void prep_wait_cq(struct io_uring *ring, int fd, enum kind k, int i, int async,
			 uint32_t idx, uint64_t timeout_ns, uint64_t user_id)
{
	struct loom_uring_wait *w =
		(void *)prep(ring, fd, LOOM_URING_WAIT_CQ, k, i, async)->cmd;

	w->ctx_index = idx;
	w->timeout_ns = timeout_ns;
	w->user_id = user_id;
}

static void prep_wait_counter(struct io_uring *ring, int fd, enum kind k, int i, int async,
			      uint32_t idx, uint64_t value, uint64_t timeout_ns)
{
	struct loom_uring_wait_counter *w =
		(void *)prep(ring, fd, LOOM_URING_WAIT_COUNTER, k, i, async)->cmd;

	w->ctx_index = idx;
	w->counter = 1;
	w->value = value;
	w->timeout_ns = timeout_ns;
}

static void prep_submit_nop(struct io_uring *ring, int fd, enum kind k, int i, int async,
			    uint32_t idx, uint8_t flags)
{
	struct loom_uring_submit *s =
		(void *)prep(ring, fd, LOOM_URING_SUBMIT, k, i, async)->cmd;
	struct loom_cmd d = { .opcode = LOOM_OP_NOP, .flags = flags, .tag = (uint32_t)i };

	s->ctx_index = idx;
	memcpy(s->desc, &d, sizeof(d));
}

static void prep_cancel(struct io_uring *ring, int fd, enum kind k, int i, int async,
			uint64_t user_id)
{
	struct loom_uring_cancel *c =
		(void *)prep(ring, fd, LOOM_URING_CANCEL, k, i, async)->cmd;

	c->user_id = user_id;
}

static void record(struct tally *t, uint64_t data, int res)
{
	unsigned int k = (unsigned int)(data >> 8), i = (unsigned int)(data & 0xff);

	if (k >= K_COUNT || i >= (unsigned int)kinds[k].n) {
		t->stray++;
		return;
	}
	t->seen[k][i]++;
	if (res != kinds[k].res) {
		t->wrong[k]++;
		t->last_res[k] = res;
	}
}

/* Take what is in the completion ring without entering the kernel. */
static int peek_all(struct io_uring *ring, struct tally *t)
{
	struct io_uring_cqe *cqe;
	int n = 0;

	while (!io_uring_peek_cqe(ring, &cqe)) {
		record(t, cqe->user_data, cqe->res);
		io_uring_cqe_seen(ring, cqe);
		n++;
	}
	return n;
}

static int total_seen(const struct tally *t)
{
	int n = 0;

	for (int k = 0; k < K_COUNT; k++)
		for (int i = 0; i < kinds[k].n; i++)
			n += t->seen[k][i];
	return n;
}

static int expected_total(void)
{
	int n = 0;

	for (int k = 0; k < K_COUNT; k++)
		n += kinds[k].n;
	return n;
}

/* Enter with GETEVENTS until @want completions are in, or @limit_s passed. */
static void wait_all(struct io_uring *ring, struct tally *t, int want, double limit_s)
{
	double t0 = now_s();

	while (total_seen(t) + t->stray < want && now_s() - t0 < limit_s) {
		struct __kernel_timespec ts = { .tv_nsec = 100 * (long long)MS };
		struct io_uring_cqe *cqe;

		io_uring_get_events(ring);
		io_uring_wait_cqe_timeout(ring, &cqe, &ts);
		peek_all(ring, t);
	}
}

/* "name: n/N res R" for each kind that is not exactly once with its result */
static int describe(const struct tally *t, char *buf, size_t len)
{
	size_t off = 0;
	int bad = 0;

	buf[0] = 0;
	for (int k = 0; k < K_COUNT; k++) {
		int once = 0, twice = 0;

		for (int i = 0; i < kinds[k].n; i++) {
			once += t->seen[k][i] == 1;
			twice += t->seen[k][i] > 1;
		}
		if (once == kinds[k].n && !twice && !t->wrong[k])
			continue;
		bad++;
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0,
					"%s%s: %d of %d once, %d more than once, %d with a result other than %d",
					bad > 1 ? "; " : "", kinds[k].name, once, kinds[k].n,
					twice, t->wrong[k], kinds[k].res);
		if (t->wrong[k])
			off += (size_t)snprintf(buf + off, off < len ? len - off : 0,
						" (last %d)", t->last_res[k]);
	}
	if (t->stray)
		snprintf(buf + off, off < len ? len - off : 0, "%s%d for nothing submitted",
			 bad ? "; " : "", t->stray);
	return bad || t->stray;
}

/* One pass: the batch issued inline (@async 0) or from io-wq. */
static void pass(int async)
{
	struct io_uring_params p = {
		.flags = IORING_SETUP_SQE128 | IORING_SETUP_SINGLE_ISSUER |
			 IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_CQSIZE,
		.cq_entries = 256,
	};
	const char *way = async ? "IOSQE_ASYNC" : "inline";
	struct loom_ctx_destroy d = { .argsz = sizeof(d) };
	struct tally t;
	struct io_uring ring;
	int fd, a, b, c, i, err;
	char why[1024];

	memset(&t, 0, sizeof(t));
	fd = open(dev_path, O_RDWR | O_CLOEXEC);
	a = fd < 0 ? -errno : ctx_create(fd, 1u << BSU_UNIT);
	b = fd < 0 ? -1 : ctx_create(fd, 0);
	c = fd < 0 ? -1 : ctx_create(fd, 0);
	err = io_uring_queue_init_params(128, &ring, &p);
	if (a < 0 || b < 0 || c < 0 || err) {
		check(0, "%s: a file with 3 contexts (%d %d %d) and a DEFER_TASKRUN ring (%d)",
		      way, a, b, c, err);
		if (!async)
			check(0, "inline: every command completes once");
		if (fd >= 0)
			close(fd);
		return;
	}

	/* context a: waits; b: the card's completion; c: destroyed */
	for (i = 0; i < PER_KIND; i++) {
		struct loom_uring_wait_bsu *w;

		prep_wait_cq(&ring, fd, K_CQ_NOW, i, async, (uint32_t)a, 0, 0);
		prep_wait_cq(&ring, fd, K_CQ_TIMER, i, async, (uint32_t)a, 100 * MS, 0);
		prep_wait_counter(&ring, fd, K_CNT_MET, i, async, (uint32_t)a, 0, SEC);
		prep_wait_counter(&ring, fd, K_CNT_TIMER, i, async, (uint32_t)a, 1, 100 * MS);
		w = (void *)prep(&ring, fd, LOOM_URING_WAIT_BSU, K_BSU_TIMER, i, async)->cmd;
		w->ctx_index = (uint32_t)a;
		w->unit = BSU_UNIT;
		w->cond = LOOM_BSU_COND_STATE_EQ;
		w->value = 0xffffffffu;	/* no state the unit takes */
		w->timeout_ns = 100 * MS;
		prep_wait_cq(&ring, fd, K_CANCELLED, i, async, (uint32_t)a, 20 * SEC, CANCEL_ID);
		prep_cancel(&ring, fd, K_CANCEL_NONE, i, async, 1000 + (uint64_t)i);
		prep_submit_nop(&ring, fd, K_SUBMIT, i, async, (uint32_t)b, 0);
		prep(&ring, fd, 0x4c7f, K_UNKNOWN, i, async);
		prep_wait_cq(&ring, fd, K_DESTROYED, i, async, (uint32_t)c, 20 * SEC, 0);
		prep_wait_cq(&ring, fd, K_CARD, i, async, (uint32_t)b, 5 * SEC, 0);
	}
	io_uring_submit(&ring);
	/* every wait is queued (io-wq too) before the cancel and the destroy */
	usleep(300000);
	prep_cancel(&ring, fd, K_CANCEL, 0, async, CANCEL_ID);
	/* the doorbell of this one (and the NOPs above) rings in task work */
	prep_submit_nop(&ring, fd, K_SIGNAL, 0, async, (uint32_t)b, LOOM_CMD_F_SIGNAL);
	io_uring_submit(&ring);
	d.index = (uint32_t)c;
	if (ioctl(fd, LOOM_IOC_CTX_DESTROY, &d))
		printf("# %s: CTX_DESTROY of context %d: %s\n", way, c, strerror(errno));
	usleep(500000);

	if (!async) {
		int missing_inline = 0, early_deferred = 0;
		size_t off = 0;

		peek_all(&ring, &t);
		why[0] = 0;
		for (int k = 0; k < K_COUNT; k++) {
			int got = 0;

			for (i = 0; i < kinds[k].n; i++)
				got += t.seen[k][i];
			if (kinds[k].inline_done ? got == kinds[k].n : got == 0)
				continue;
			if (kinds[k].inline_done)
				missing_inline++;
			else
				early_deferred++;
			off += (size_t)snprintf(why + off, off < sizeof(why) ? sizeof(why) - off : 0,
						" %s: %d of %d;", kinds[k].name, got, kinds[k].n);
		}
		check(!missing_inline && !early_deferred,
		      "%s: peeking without GETEVENTS for 0.5 s shows exactly the inline completions (%d of %d; timers, cancels, SUBMIT, CTX_DESTROY and the card's completion wait for GETEVENTS)%s",
		      way, total_seen(&t), expected_total(), why);
	}
	wait_all(&ring, &t, expected_total(), 8);
	{
		/* then nothing more */
		double t0 = now_s();

		while (now_s() - t0 < 0.3) {
			struct __kernel_timespec ts = { .tv_nsec = 100 * (long long)MS };
			struct io_uring_cqe *cqe;

			io_uring_get_events(&ring);
			io_uring_wait_cqe_timeout(&ring, &cqe, &ts);
			peek_all(&ring, &t);
		}
	}
	err = describe(&t, why, sizeof(why));
	check(!err, "%s: waiting with GETEVENTS, every command of %d kinds completes exactly once with its result (%d completions)%s%s",
	      way, K_COUNT, total_seen(&t) + t.stray, err ? ": " : "", err ? why : "");
	io_uring_queue_exit(&ring);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		dev_path = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("1..3\n");
	pass(0);
	pass(1);
	return test_failed ? 1 : 0;
}
