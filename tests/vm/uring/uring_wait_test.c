// SPDX-License-Identifier: GPL-2.0
/*
 * Guest program of test_uring.sh: the waits for BSUs and counters, against
 * /dev/loom0 of a card whose BSU trees are at power-on (every unit a
 * barrier of this host alone, so OP_BAR completes at once and raises the
 * event interrupt).  Prints TAP.
 *
 *   LOOM_URING_WAIT_BSU      completion by a barrier and by a eureka,
 *                            timeout, test-once, errors (-EACCES, -EINVAL),
 *                            100 outstanding, cancel
 *   LOOM_URING_WAIT_COUNTER  completion by a counted put to myself,
 *                            timeout, errors, 50 outstanding
 *   LOOM_IOC_BSU_WAIT        sleep woken by a barrier, deadline, errors,
 *                            a signal (-EINTR), the context destroyed
 *                            meanwhile (-ECANCELED)
 *   libloom                  loom_bsu_set_mode() interrupt and uring,
 *                            loom_counter_wait() in completion mode io_uring
 *
 *   uring_wait_test remote-counter BYTES
 *       creates context 50 (key 0xc0c0, 1 MiB, as counted_test's target),
 *       prints "armed", then waits with one LOOM_URING_WAIT_COUNTER of 30 s
 *       for counter 3 to reach BYTES, which another host's counted puts
 *       bring there ("counted_test source"): they post no completion here,
 *       so only the card's counter interrupt can end the wait early.
 *       Prints "res R after T s counter V".
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include <linux/loom.h>
#include <loom.h>
#include <loom_hw/regs.h>

#include "uring_util.h"

#define PLAN		21
#define UNIT		5	/* the raw unit; UNIT + 1 is libloom's */
#define COUNTER		5
#define SEC		1000000000ull

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * SEC + (uint64_t)ts.tv_nsec;
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

/* ---- a BSU unit through the raw ABI ------------------------------------ */

struct unit {
	int fd;
	uint32_t ctx;
	uint32_t unit;
	void *pages;
	size_t len;
	volatile uint32_t *regs;
	void *kick_page;
	volatile uint32_t *kick;
	uint32_t kick_value;
};

static int unit_open(int fd, uint32_t unit, struct unit *u)
{
	struct loom_ctx_create cr = {
		.argsz = sizeof(cr), .cmdq_entries = 16, .cq_entries = 16,
		.seg_size = 4096, .bsu_mask = 1u << unit,
	};
	void *p;

	memset(u, 0, sizeof(*u));
	if (ioctl(fd, LOOM_IOC_CTX_CREATE, &cr) < 0 || !cr.bsu_token)
		return -1;
	u->fd = fd;
	u->ctx = cr.index;
	u->unit = unit;
	u->len = (size_t)(unit + 1) * LOOM_BSU_PAGE_SIZE;
	p = mmap(NULL, u->len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)cr.bsu_token);
	if (p == MAP_FAILED)
		return -1;
	u->pages = p;
	u->regs = (volatile uint32_t *)((char *)p + (size_t)unit * LOOM_BSU_PAGE_SIZE);
	if (cr.out_flags & LOOM_CTX_OUT_KICK) {
		p = mmap(NULL, LOOM_DB_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			 (off_t)cr.kick_token);
		if (p == MAP_FAILED)
			return -1;
		u->kick_page = p;
		u->kick = (volatile uint32_t *)((char *)p + cr.kick_offset);
		u->kick_value = (cr.kick_value & 0xffff0000u) | LOOM_KICK_BSU;
	}
	return 0;
}

static void unit_close(struct unit *u)
{
	struct loom_ctx_destroy d = { .argsz = sizeof(d), .index = u->ctx };

	if (u->kick_page)
		munmap(u->kick_page, LOOM_DB_PAGE_SIZE);
	if (u->pages)
		munmap(u->pages, u->len);
	ioctl(u->fd, LOOM_IOC_CTX_DESTROY, &d);
}

static uint32_t unit_rd(const struct unit *u, uint32_t field)
{
	return __atomic_load_n(&u->regs[field / 4], __ATOMIC_ACQUIRE);
}

/* Write @op once the card took the previous one, then kick. */
static void unit_op(struct unit *u, uint32_t op)
{
	double t0 = now_s();

	while (unit_rd(u, LOOM_BSUP_OP) && now_s() - t0 < 5)
		sleep_ms(1);
	__atomic_store_n(&u->regs[LOOM_BSUP_OP / 4], op, __ATOMIC_RELEASE);
	if (u->kick) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		*u->kick = u->kick_value;
	}
}

/* Wait up to 5 s for the unit to be back in S_BAR (barrier of one). */
static int unit_settle(const struct unit *u)
{
	double t0 = now_s();

	while (unit_rd(u, LOOM_BSUP_STATE) != LOOM_BSU_S_BAR || unit_rd(u, LOOM_BSUP_OP)) {
		if (now_s() - t0 > 5)
			return -1;
		sleep_ms(1);
	}
	return 0;
}

/* ---- io_uring ---------------------------------------------------------- */

static struct loom_uring_wait_bsu *prep_bsu(struct io_uring *ring, const struct unit *u,
					    uint32_t cond, uint32_t value, uint64_t timeout_ns,
					    uint64_t user_id)
{
	struct io_uring_sqe *sqe = uring_cmd_prep(ring, u->fd, LOOM_URING_WAIT_BSU, user_id);
	struct loom_uring_wait_bsu *w = (struct loom_uring_wait_bsu *)(void *)sqe->cmd;

	w->ctx_index = u->ctx;
	w->unit = u->unit;
	w->cond = cond;
	w->value = value;
	w->timeout_ns = timeout_ns;
	w->user_id = user_id;
	return w;
}

static struct loom_uring_wait_counter *prep_counter(struct io_uring *ring, int fd, uint32_t ctx,
						    uint32_t id, uint64_t value,
						    uint64_t timeout_ns, uint64_t user_id)
{
	struct io_uring_sqe *sqe = uring_cmd_prep(ring, fd, LOOM_URING_WAIT_COUNTER, user_id);
	struct loom_uring_wait_counter *w = (struct loom_uring_wait_counter *)(void *)sqe->cmd;

	w->ctx_index = ctx;
	w->counter = id;
	w->value = value;
	w->timeout_ns = timeout_ns;
	w->user_id = user_id;
	return w;
}

static int bsu_ioctl(const struct unit *u, uint32_t unit, uint32_t cond, uint32_t value,
		     uint64_t deadline)
{
	struct loom_bsu_wait w = {
		.argsz = sizeof(w), .ctx_index = u->ctx, .unit = unit, .cond = cond,
		.value = value, .deadline_ns = deadline,
	};

	return ioctl(u->fd, LOOM_IOC_BSU_WAIT, &w) < 0 ? -errno : 0;
}

/* ---- helper threads ----------------------------------------------------- */

static void on_alarm(int sig)
{
	(void)sig;
}

struct later {
	unsigned int ms;
	struct unit *gone;		/* destroy it, or */
	struct unit *u;			/* OP_BAR on it, or */
	struct loom_ctx *from;		/* a counted put of 64 bytes from it */
	struct loom_remote to;
	int err;
};

static void *later_main(void *arg)
{
	struct later *l = arg;

	sleep_ms(l->ms);
	if (l->gone)
		unit_close(l->gone);
	else if (l->u)
		unit_op(l->u, LOOM_BSU_OP_BAR);
	else
		l->err = loom_put_counted(l->from, &l->to, 0, 0, 64, COUNTER, 0, 1);
	return NULL;
}

/* ---- the checks ---------------------------------------------------------- */

static void uring_bsu(struct io_uring *ring, struct unit *u, uint32_t other)
{
	struct loom_uring_wait_bsu *w;
	uint32_t c0 = unit_rd(u, LOOM_BSUP_COMPLETIONS), e0;
	int res, a, b, n, canceled;
	double t0, dt;
	uint64_t data;

	/* a barrier (of one) completes a pending COMPLETIONS_NE wait */
	prep_bsu(ring, u, LOOM_BSU_COND_COMPLETIONS_NE, c0, 20 * SEC, 1);
	io_uring_submit(ring);
	res = uring_reap(ring, 0.2, &res, &data) ? -999 : res;
	t0 = now_s();
	unit_op(u, LOOM_BSU_OP_BAR);
	a = uring_reap(ring, 15, &b, &data) ? -999 : b;
	dt = now_s() - t0;
	check(res == -999 && a == 0 && unit_rd(u, LOOM_BSUP_COMPLETIONS) != c0 && dt < 10,
	      "WAIT_BSU COMPLETIONS_NE stays pending, then completes with 0 on a barrier (%d, %d after %.3f s)",
	      res, a, dt);
	unit_settle(u);

	/* a eureka completes EUREKAS_NE and STATE_EQ EUR */
	e0 = unit_rd(u, LOOM_BSUP_EUREKAS);
	prep_bsu(ring, u, LOOM_BSU_COND_EUREKAS_NE, e0, 20 * SEC, 2);
	prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_EUR, 20 * SEC, 2);
	io_uring_submit(ring);
	sleep_ms(100);
	unit_op(u, LOOM_BSU_OP_EUR);
	n = uring_reap_n(ring, 2, 0, 15);
	check(n == 2 && unit_rd(u, LOOM_BSUP_STATE) == LOOM_BSU_S_EUR,
	      "a eureka completes EUREKAS_NE and STATE_EQ S_EUR waits (%d of 2)", n);
	/* STATE_NE S_EUR: the barrier after the eureka */
	prep_bsu(ring, u, LOOM_BSU_COND_STATE_NE, LOOM_BSU_S_EUR, 20 * SEC, 3);
	io_uring_submit(ring);
	sleep_ms(100);
	unit_op(u, LOOM_BSU_OP_BAR);
	n = uring_reap_n(ring, 1, 0, 15);
	check(n == 1 && unit_settle(u) == 0, "the barrier after it completes a STATE_NE S_EUR wait");

	/* timeout, test once */
	t0 = now_s();
	prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_EUR, 300000000ull, 4);
	res = uring_submit_one(ring, 10);
	dt = now_s() - t0;
	prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_BAR, 0, 5);
	a = uring_submit_one(ring, 5);
	prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_EUR, 0, 5);
	b = uring_submit_one(ring, 5);
	check(res == -ETIME && dt >= 0.29 && dt < 5 && a == 0 && b == -ETIME,
	      "WAIT_BSU times out with -ETIME after 300 ms (%d, %.3f s); timeout 0 tests once (%d, %d)",
	      res, dt, a, b);

	/* errors */
	w = prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, 0, SEC, 6);
	w->unit = UNIT + 2;
	a = uring_submit_one(ring, 5);
	w = prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, 0, SEC, 6);
	w->unit = 40;
	b = uring_submit_one(ring, 5);
	check(a == -EACCES && b == -EINVAL,
	      "WAIT_BSU on a unit not granted: -EACCES (%d); on a unit the card lacks: -EINVAL (%d)",
	      a, b);
	{
		int r[5];

		w = prep_bsu(ring, u, 9, 0, SEC, 7);
		r[0] = uring_submit_one(ring, 5);
		w = prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, 0, SEC, 7);
		w->flags = 1;
		r[1] = uring_submit_one(ring, 5);
		w = prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, 0, SEC, 7);
		w->pad = 1;
		r[2] = uring_submit_one(ring, 5);
		w = prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, 0, SEC, 7);
		w->ctx_index = other;
		r[3] = uring_submit_one(ring, 5);
		w = prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, 0, LOOM_URING_MAX_TIMEOUT_NS + 1, 7);
		r[4] = uring_submit_one(ring, 5);
		check(r[0] == -EINVAL && r[1] == -EINVAL && r[2] == -EINVAL && r[3] == -EINVAL &&
		      r[4] == -EINVAL,
		      "WAIT_BSU: unknown cond, flags, pad, context of another file, timeout > 60 s: -EINVAL (%d %d %d %d %d)",
		      r[0], r[1], r[2], r[3], r[4]);
	}

	/* many outstanding, one barrier */
	c0 = unit_rd(u, LOOM_BSUP_COMPLETIONS);
	for (int i = 0; i < 100; i++)
		prep_bsu(ring, u, LOOM_BSU_COND_COMPLETIONS_NE, c0, 20 * SEC, 8);
	io_uring_submit(ring);
	sleep_ms(200);
	unit_op(u, LOOM_BSU_OP_BAR);
	n = uring_reap_n(ring, 100, 0, 15);
	check(n == 100, "100 outstanding WAIT_BSU all complete with 0 on one barrier (%d)", n);
	unit_settle(u);

	/* cancel */
	for (int i = 0; i < 3; i++)
		prep_bsu(ring, u, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_EUR, 20 * SEC, 90);
	io_uring_submit(ring);
	sleep_ms(100);
	uring_prep_cancel(ring, u->fd, 90, 1090);
	io_uring_submit(ring);
	n = -1;
	canceled = 0;
	for (int i = 0; i < 4; i++) {
		if (uring_reap(ring, 5, &res, &data))
			break;
		if (data == 1090)
			n = res;
		else if (res == -ECANCELED)
			canceled++;
	}
	check(n == 3 && canceled == 3, "CANCEL ends 3 WAIT_BSU with -ECANCELED (cancel %d, %d)", n,
	      canceled);
}

static void uring_counter(struct io_uring *ring, struct loom_dev *dev, struct loom_ctx *ctx,
			  uint32_t other_ctx)
{
	int fd = loom_ctx_fd(ctx);
	uint32_t idx = loom_ctx_index(ctx);
	struct loom_remote me = { .node = loom_ctx_node(ctx), .ctx = idx, .key = 0 };
	struct loom_uring_wait_counter *w;
	struct loom_completion comp[4];
	uint64_t v = 0, data;
	int res, a, b, n, r[4];
	double t0, dt;

	(void)dev;
	prep_counter(ring, fd, idx, COUNTER, 100, 20 * SEC, 20);
	io_uring_submit(ring);
	a = uring_reap(ring, 0.2, &res, &data) ? -999 : res;
	t0 = now_s();
	b = loom_put_counted(ctx, &me, 0, 0, 100, COUNTER, 0, 1);
	res = uring_reap(ring, 15, &res, &data) ? -999 : res;
	dt = now_s() - t0;
	loom_counter_read(ctx, COUNTER, &v);
	check(a == -999 && b == 0 && res == 0 && v == 100 && dt < 10,
	      "WAIT_COUNTER >= 100 stays pending, then completes with 0 on a counted put of 100 bytes (%d %d %d, counter %llu, %.3f s)",
	      a, b, res, (unsigned long long)v, dt);
	loom_wait(ctx, comp, 4, 5000);

	t0 = now_s();
	prep_counter(ring, fd, idx, COUNTER, 1ull << 40, 300000000ull, 21);
	res = uring_submit_one(ring, 10);
	dt = now_s() - t0;
	prep_counter(ring, fd, idx, COUNTER, 100, 0, 22);
	a = uring_submit_one(ring, 5);
	check(res == -ETIME && dt >= 0.29 && dt < 5 && a == 0,
	      "WAIT_COUNTER times out with -ETIME after 300 ms (%d, %.3f s); a reached one completes at once (%d)",
	      res, dt, a);

	prep_counter(ring, fd, idx, LOOM_CTX_COUNTERS, 1, SEC, 23);
	r[0] = uring_submit_one(ring, 5);
	prep_counter(ring, fd, other_ctx, COUNTER, 1, SEC, 23);
	r[1] = uring_submit_one(ring, 5);
	w = prep_counter(ring, fd, idx, COUNTER, 1, SEC, 23);
	w->flags = 1;
	r[2] = uring_submit_one(ring, 5);
	w = prep_counter(ring, fd, idx, COUNTER, 1, SEC, 23);
	w->pad = 1;
	r[3] = uring_submit_one(ring, 5);
	check(r[0] == -EINVAL && r[1] == -EINVAL && r[2] == -EINVAL && r[3] == -EINVAL,
	      "WAIT_COUNTER: counter 512, context of another file, flags, pad: -EINVAL (%d %d %d %d)",
	      r[0], r[1], r[2], r[3]);

	for (int i = 0; i < 50; i++)
		prep_counter(ring, fd, idx, COUNTER, 200, 20 * SEC, 24);
	io_uring_submit(ring);
	sleep_ms(200);
	b = loom_put_counted(ctx, &me, 0, 0, 100, COUNTER, 0, 2);
	n = uring_reap_n(ring, 50, 0, 15);
	check(b == 0 && n == 50, "50 outstanding WAIT_COUNTER complete with 0 on one counted put (%d)", n);
	loom_wait(ctx, comp, 4, 5000);
}

static void ioctl_bsu(struct unit *u, uint32_t other)
{
	struct later l = { .ms = 200, .u = u };
	uint32_t c0 = unit_rd(u, LOOM_BSUP_COMPLETIONS);
	pthread_t th;
	int res, a, b, r[4];
	double t0, dt;

	pthread_create(&th, NULL, later_main, &l);
	t0 = now_s();
	res = bsu_ioctl(u, u->unit, LOOM_BSU_COND_COMPLETIONS_NE, c0, now_ns() + 20 * SEC);
	dt = now_s() - t0;
	pthread_join(th, NULL);
	check(res == 0 && dt >= 0.15 && dt < 10,
	      "LOOM_IOC_BSU_WAIT sleeps until a barrier completes (%d after %.3f s)", res, dt);
	unit_settle(u);

	t0 = now_s();
	res = bsu_ioctl(u, u->unit, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_EUR, now_ns() + 300000000ull);
	dt = now_s() - t0;
	a = bsu_ioctl(u, u->unit, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_BAR, 0);
	b = bsu_ioctl(u, u->unit, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_EUR, 0);
	check(res == -ETIME && dt >= 0.29 && dt < 5 && a == 0 && b == -ETIME,
	      "LOOM_IOC_BSU_WAIT: -ETIME at the deadline (%d, %.3f s); deadline 0 tests once (%d %d)",
	      res, dt, a, b);

	r[0] = bsu_ioctl(u, UNIT + 2, LOOM_BSU_COND_STATE_EQ, 0, 0);
	r[1] = bsu_ioctl(u, 40, LOOM_BSU_COND_STATE_EQ, 0, 0);
	r[2] = bsu_ioctl(u, u->unit, 9, 0, 0);
	{
		struct loom_bsu_wait w = {
			.argsz = sizeof(w), .ctx_index = other, .unit = u->unit,
		};

		r[3] = ioctl(u->fd, LOOM_IOC_BSU_WAIT, &w) < 0 ? -errno : 0;
	}
	check(r[0] == -EACCES && r[1] == -EINVAL && r[2] == -EINVAL && r[3] == -EINVAL,
	      "LOOM_IOC_BSU_WAIT: unit not granted -EACCES, no such unit / cond / context of another file -EINVAL (%d %d %d %d)",
	      r[0], r[1], r[2], r[3]);

	/* a signal without SA_RESTART ends the sleep with EINTR */
	{
		struct sigaction sa = { .sa_handler = on_alarm };
		struct itimerval it = { .it_value = { 0, 200000 } };

		sigaction(SIGALRM, &sa, NULL);
		setitimer(ITIMER_REAL, &it, NULL);
		t0 = now_s();
		res = bsu_ioctl(u, u->unit, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_EUR,
				now_ns() + 10 * SEC);
		dt = now_s() - t0;
		check(res == -EINTR && dt < 5,
		      "LOOM_IOC_BSU_WAIT: a signal ends it with -EINTR (%d after %.3f s)", res, dt);
	}

	/* the context destroyed by another thread during the sleep */
	{
		struct unit v;
		struct later g = { .ms = 200, .gone = &v };

		if (unit_open(u->fd, UNIT + 3, &v)) {
			check(0, "a second unit through the raw ABI");
			return;
		}
		pthread_create(&th, NULL, later_main, &g);
		t0 = now_s();
		res = bsu_ioctl(&v, v.unit, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_EUR,
				now_ns() + 20 * SEC);
		dt = now_s() - t0;
		pthread_join(th, NULL);
		check(res == -ECANCELED && dt < 10,
		      "LOOM_IOC_BSU_WAIT: its context destroyed meanwhile: -ECANCELED (%d after %.3f s)",
		      res, dt);
	}
}

static void lib_bsu(struct loom_dev *dev)
{
	static const char *const names[] = { "poll", "interrupt", "uring" };
	struct loom_bsu *b;

	if (loom_bsu_open(dev, UNIT + 1, &b)) {
		for (int i = 0; i < 3; i++)
			check(0, "loom_bsu_open of unit %d", UNIT + 1);
		return;
	}
	check(loom_bsu_set_mode(b, 7) == -EINVAL && loom_bsu_mode(b) == LOOM_BSU_MODE_POLL,
	      "loom_bsu_set_mode(7): -EINVAL, the handle stays in poll mode");
	for (unsigned int m = LOOM_BSU_MODE_INTERRUPT; m <= LOOM_BSU_MODE_URING; m++) {
		int set = loom_bsu_set_mode(b, m), bar = -999, eur = -999, nbar = 0;
		double t0, dt = 0;

		if (!set) {
			for (nbar = 0; nbar < 20; nbar++) {
				bar = loom_barrier(b, 5000);
				if (bar)
					break;
			}
			t0 = now_s();
			eur = loom_eureka_wait(b, 300);
			dt = now_s() - t0;
		}
		check(!set && loom_bsu_mode(b) == m && nbar == 20 && eur == -ETIMEDOUT &&
		      dt >= 0.29 && dt < 5,
		      "libloom BSU mode %s: 20 barriers (%d: %d), loom_eureka_wait times out (%d after %.3f s)",
		      names[m], nbar, bar, eur, dt);
	}
	loom_bsu_close(b);
}

static void lib_counter(struct loom_dev *dev, struct loom_ctx *from)
{
	struct loom_ctx_attr ua = { .flags = LOOM_CTX_ATTR_URING };
	struct loom_completion comp[4];
	struct loom_ctx *uctx;
	struct later l = { .ms = 200, .from = from };
	pthread_t th;
	int res, t;
	double t0, dt, dt2;

	if (loom_ctx_create(dev, &ua, &uctx)) {
		check(0, "a LOOM_CTX_ATTR_URING context is created");
		return;
	}
	l.to = (struct loom_remote){ .node = loom_ctx_node(uctx), .ctx = loom_ctx_index(uctx) };
	t0 = now_s();
	t = loom_counter_wait(uctx, COUNTER, 1, 300);
	dt = now_s() - t0;
	pthread_create(&th, NULL, later_main, &l);
	t0 = now_s();
	res = loom_counter_wait(uctx, COUNTER, 64, 20000);
	dt2 = now_s() - t0;
	pthread_join(th, NULL);
	check(t == -ETIMEDOUT && dt >= 0.29 && res == 0 && l.err == 0 && dt2 >= 0.15 && dt2 < 10,
	      "io_uring mode: loom_counter_wait times out (%d after %.3f s), then wakes on a counted put (%d after %.3f s)",
	      t, dt, res, dt2);
	loom_wait(from, comp, 4, 5000);
	loom_ctx_destroy(uctx);
}

static int remote_counter(uint64_t bytes)
{
	struct loom_ctx_attr a = {
		.flags = LOOM_CTX_ATTR_INDEX, .index = 50, .key = 0xc0c0u,
		.segment_size = 1u << 20,
	};
	struct io_uring_params p = { .flags = IORING_SETUP_SQE128 };
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	struct io_uring ring;
	uint64_t v = 0, data;
	double t0;
	int res;

	if (loom_dev_open(NULL, &dev) || loom_ctx_create(dev, &a, &ctx) ||
	    io_uring_queue_init_params(8, &ring, &p)) {
		printf("cannot create context 50 and a ring\n");
		return 1;
	}
	prep_counter(&ring, loom_ctx_fd(ctx), 50, 3, bytes, 30 * SEC, 1);
	t0 = now_s();
	io_uring_submit(&ring);
	printf("armed\n");
	fflush(stdout);
	res = uring_reap(&ring, 60, &res, &data) ? -999 : res;
	loom_counter_read(ctx, 3, &v);
	printf("res %d after %.3f s counter %llu\n", res, now_s() - t0, (unsigned long long)v);
	io_uring_queue_exit(&ring);
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	return res == 0 && v >= bytes ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	struct io_uring ring;
	struct io_uring_params p = { .flags = IORING_SETUP_SQE128 | IORING_SETUP_CQSIZE,
				     .cq_entries = 1024 };
	struct loom_ctx_create other = { .argsz = sizeof(other), .cmdq_entries = 16,
					 .cq_entries = 16, .seg_size = 4096 };
	struct unit u;
	int fd2;

	if (argc == 3 && !strcmp(argv[1], "remote-counter"))
		return remote_counter(strtoull(argv[2], NULL, 0));
	printf("1..%d\n", PLAN);
	if (loom_dev_open(NULL, &dev) || loom_ctx_create(dev, NULL, &ctx)) {
		printf("Bail out! cannot open /dev/loom0 and create a context\n");
		return 1;
	}
	if (unit_open(loom_ctx_fd(ctx), UNIT, &u) || unit_settle(&u)) {
		printf("Bail out! cannot claim BSU %d in S_BAR through the raw ABI: %s\n", UNIT,
		       strerror(errno));
		return 1;
	}
	/* a context of another file: its index is no context of ours */
	fd2 = open("/dev/loom0", O_RDWR);
	if (fd2 < 0 || ioctl(fd2, LOOM_IOC_CTX_CREATE, &other) < 0) {
		printf("Bail out! cannot create a context on a second file\n");
		return 1;
	}
	if (io_uring_queue_init_params(512, &ring, &p)) {
		printf("Bail out! io_uring_queue_init\n");
		return 1;
	}
	uring_bsu(&ring, &u, other.index);
	uring_counter(&ring, dev, ctx, other.index);
	ioctl_bsu(&u, other.index);
	lib_bsu(dev);
	lib_counter(dev, ctx);

	io_uring_queue_exit(&ring);
	close(fd2);
	unit_close(&u);
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	if (test_n != PLAN)
		printf("# ran %d checks, planned %d\n", test_n, PLAN);
	return test_failed || test_n != PLAN ? 1 : 0;
}
