// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libloom: barrier/eureka units (BSUs).  A handle owns a small context of
 * its own on the card (the kernel grants units per context), maps the
 * unit's user page and, in the VM lab, the kick page.  Operations are
 * stores to the page's OP register; completion is read from its STATE and
 * COMPLETIONS registers (Documentation/hw/bsu.rst).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/loom.h>
#include <loom.h>

#include "ctx_internal.h"

/* the handle's own context: the smallest rings and segment there are */
#define BSU_CTX_RING_ENTRIES	16
#define BSU_CTX_SEGMENT		4096
/* an op waits at most this long for the card to take the previous one */
#define BSU_OP_TIMEOUT_MS	1000
/* waits spin this long before they start sleeping between looks */
#define BSU_SPIN_NS		50000
#define BSU_NAP_NS		20000

struct loom_bsu {
	struct loom_dev *dev;
	unsigned int unit;
	uint32_t ctx_index;
	void *pages;			/* mapping of units 0..unit (only ours present) */
	size_t pages_len;
	volatile uint32_t *regs;	/* our unit's page */
	void *kick_page;
	volatile uint32_t *kick;	/* lab: kick register, else NULL */
	uint32_t kick_value;
	uint32_t joined_at;		/* COMPLETIONS when we last joined */
	int joined;			/* a join is outstanding */
};

static uint32_t rd(const struct loom_bsu *b, uint32_t field)
{
	return __atomic_load_n(&b->regs[field / 4], __ATOMIC_ACQUIRE);
}

static void destroy_ctx(struct loom_dev *dev, uint32_t index)
{
	struct loom_ctx_destroy d = { .argsz = sizeof(d), .index = index };

	(void)ioctl(dev->fd, LOOM_IOC_CTX_DESTROY, &d);
}

int loom_bsu_open(struct loom_dev *dev, unsigned int unit, struct loom_bsu **bsup)
{
	struct loom_ctx_create req = {
		.argsz = sizeof(req),
		.cmdq_entries = BSU_CTX_RING_ENTRIES,
		.cq_entries = BSU_CTX_RING_ENTRIES,
		.seg_size = BSU_CTX_SEGMENT,
	};
	struct loom_bsu *b;
	void *p;
	int err;

	if (!dev || !bsup || unit >= LOOM_BSU_COUNT)
		return -EINVAL;
	req.bsu_mask = 1u << unit;
	if (ioctl(dev->fd, LOOM_IOC_CTX_CREATE, &req) < 0)
		return -errno;
	if (!req.bsu_token) {
		/* a kernel of ABI 0.1 ignores bsu_mask */
		destroy_ctx(dev, req.index);
		return -EOPNOTSUPP;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		err = -ENOMEM;
		goto err_ctx;
	}
	b->dev = dev;
	b->unit = unit;
	b->ctx_index = req.index;
	b->pages_len = (size_t)(unit + 1) * LOOM_BSU_PAGE_SIZE;
	p = mmap(NULL, b->pages_len, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
		 (off_t)req.bsu_token);
	if (p == MAP_FAILED) {
		err = -errno;
		goto err_free;
	}
	b->pages = p;
	b->regs = (volatile uint32_t *)((char *)p + (size_t)unit * LOOM_BSU_PAGE_SIZE);
	if (req.out_flags & LOOM_CTX_OUT_KICK) {
		if (req.kick_offset > LOOM_DB_PAGE_SIZE - sizeof(uint32_t) || (req.kick_offset & 3)) {
			err = -EPROTO;
			goto err_unmap;
		}
		p = mmap(NULL, LOOM_DB_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, dev->fd,
			 (off_t)req.kick_token);
		if (p == MAP_FAILED) {
			err = -errno;
			goto err_unmap;
		}
		b->kick_page = p;
		b->kick = (volatile uint32_t *)((char *)p + req.kick_offset);
		/* kick_value is peer << 16 | vector: ring the BSU vector instead */
		b->kick_value = (req.kick_value & 0xffff0000u) | LOOM_KICK_BSU;
	}
	*bsup = b;
	return 0;

err_unmap:
	munmap(b->pages, b->pages_len);
err_free:
	free(b);
err_ctx:
	destroy_ctx(dev, req.index);
	return err;
}

void loom_bsu_close(struct loom_bsu *b)
{
	if (!b)
		return;
	if (b->kick_page)
		munmap(b->kick_page, LOOM_DB_PAGE_SIZE);
	munmap(b->pages, b->pages_len);
	destroy_ctx(b->dev, b->ctx_index);
	free(b);
}

unsigned int loom_bsu_unit(const struct loom_bsu *b)
{
	return b->unit;
}

int loom_bsu_state(const struct loom_bsu *b)
{
	uint32_t s;

	if (!b)
		return -EINVAL;
	s = rd(b, LOOM_BSUP_STATE);
	if (s < LOOM_BSU_S_BAR || s > LOOM_BSU_S_EUR)
		return -EIO;	/* not a state: the card is gone or broken */
	return (int)s;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Pause between looks at the page: spin first, then sleep a little. */
static void backoff(int64_t since)
{
	if (now_ns() - since < BSU_SPIN_NS) {
		sched_yield();
	} else {
		struct timespec ts = { 0, BSU_NAP_NS };

		nanosleep(&ts, NULL);
	}
}

/* Store @op once the card took the previous one, and tell the card. */
static int issue(struct loom_bsu *b, uint32_t op)
{
	int64_t t0 = now_ns();

	while (rd(b, LOOM_BSUP_OP)) {
		if (now_ns() - t0 > (int64_t)BSU_OP_TIMEOUT_MS * 1000000)
			return -ETIMEDOUT;
		backoff(t0);
	}
	__atomic_store_n(&b->regs[LOOM_BSUP_OP / 4], op, __ATOMIC_RELEASE);
	if (b->kick) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		*b->kick = b->kick_value;
	}
	return 0;
}

int loom_barrier_join(struct loom_bsu *b)
{
	int s = loom_bsu_state(b);
	int err;

	if (s < 0)
		return s;
	if (s == LOOM_BSU_S_ARM)
		return -EALREADY;
	b->joined_at = rd(b, LOOM_BSUP_COMPLETIONS);
	err = issue(b, LOOM_BSU_OP_BAR);
	if (!err)
		b->joined = 1;
	return err;
}

int loom_barrier_test(struct loom_bsu *b)
{
	if (!b)
		return -EINVAL;
	if (!b->joined)
		return -EINVAL;
	if (rd(b, LOOM_BSUP_COMPLETIONS) == b->joined_at)
		return 0;
	b->joined = 0;
	return 1;
}

int loom_barrier_wait(struct loom_bsu *b, int timeout_ms)
{
	int64_t t0 = now_ns();
	int r;

	while (!(r = loom_barrier_test(b))) {
		if (timeout_ms >= 0 && now_ns() - t0 > (int64_t)timeout_ms * 1000000)
			return -ETIMEDOUT;
		backoff(t0);
	}
	return r < 0 ? r : 0;
}

int loom_barrier(struct loom_bsu *b, int timeout_ms)
{
	int err = loom_barrier_join(b);

	return err ? err : loom_barrier_wait(b, timeout_ms);
}

int loom_eureka_signal(struct loom_bsu *b, unsigned int flags)
{
	int s = loom_bsu_state(b);
	int err;

	if (s < 0)
		return s;
	if (flags & ~LOOM_EUREKA_JOIN)
		return -EINVAL;
	if (s == LOOM_BSU_S_ARM)
		return -EALREADY;
	if (!(flags & LOOM_EUREKA_JOIN))
		return issue(b, LOOM_BSU_OP_EUR);
	b->joined_at = rd(b, LOOM_BSUP_COMPLETIONS);
	err = issue(b, LOOM_BSU_OP_EUR_B);
	if (!err)
		b->joined = 1;
	return err;
}

int loom_eureka_test(struct loom_bsu *b)
{
	int s = loom_bsu_state(b);

	return s < 0 ? s : s == LOOM_BSU_S_EUR;
}

int loom_eureka_wait(struct loom_bsu *b, int timeout_ms)
{
	int64_t t0 = now_ns();
	int r;

	while (!(r = loom_eureka_test(b))) {
		if (timeout_ms >= 0 && now_ns() - t0 > (int64_t)timeout_ms * 1000000)
			return -ETIMEDOUT;
		backoff(t0);
	}
	return r < 0 ? r : 0;
}
