// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libloom: barrier/eureka units (BSUs).  A handle owns a small context of
 * its own on the card (the kernel grants units per context), maps the
 * unit's user page and, in the VM lab, the kick page.  Operations are
 * stores to the page's OP register; completion is read from its STATE and
 * COMPLETIONS registers (Documentation/hw/bsu.rst).  Waits poll the page
 * (LOOM_BSU_MODE_POLL), sleep in LOOM_IOC_BSU_WAIT (LOOM_BSU_MODE_INTERRUPT)
 * or on a LOOM_URING_WAIT_BSU command of the handle's own ring
 * (LOOM_BSU_MODE_URING); the kernel compares the register with the value
 * read before the op, so no completion is missed between test and sleep.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
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
/* longest single sleep of the interrupt mode (a signal restarts it) */
#define BSU_SLEEP_SLICE_NS	1000000000ll

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
	uint32_t refused_at;		/* REFUSED when we last joined */
	int joined;			/* a join is outstanding */
	unsigned int mode;		/* LOOM_BSU_MODE_* */
	struct loom_uring *uring;	/* LOOM_BSU_MODE_URING */
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
	return loom_bsu_open_key(dev, unit, 0, bsup);
}

int loom_bsu_open_key(struct loom_dev *dev, unsigned int unit, uint32_t key,
		      struct loom_bsu **bsup)
{
	/* the unit joins the partition of the context that holds it */
	struct loom_ctx_create req = {
		.argsz = sizeof(req),
		.key = key,
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
	loom_uring_free(b->uring);
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

/* Store @op once the card took the previous one, and tell the card. */
static int issue(struct loom_bsu *b, uint32_t op)
{
	int64_t t0 = loom_now_ns();

	while (rd(b, LOOM_BSUP_OP)) {
		if (loom_now_ns() - t0 > (int64_t)BSU_OP_TIMEOUT_MS * 1000000)
			return -ETIMEDOUT;
		loom_backoff(t0, BSU_SPIN_NS, BSU_NAP_NS);
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
	b->refused_at = rd(b, LOOM_BSUP_REFUSED);
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
	/* the card writes REFUSED before COMPLETIONS */
	return rd(b, LOOM_BSUP_REFUSED) == b->refused_at ? 1 : -EACCES;
}

/* One LOOM_IOC_BSU_WAIT: 0 met, -ETIME at @deadline, -errno. */
static int bsu_sleep_ioctl(struct loom_bsu *b, uint32_t cond, uint32_t value, int64_t deadline)
{
	struct loom_bsu_wait w = {
		.argsz = sizeof(w),
		.ctx_index = b->ctx_index,
		.unit = b->unit,
		.cond = cond,
		.value = value,
		.deadline_ns = (uint64_t)deadline,
	};

	return ioctl(b->dev->fd, LOOM_IOC_BSU_WAIT, &w) < 0 ? -errno : 0;
}

/* One LOOM_URING_WAIT_BSU of at most @slice ns: 0 met, -ETIME, -errno. */
static int bsu_sleep_uring(struct loom_bsu *b, uint32_t cond, uint32_t value, uint64_t slice)
{
	uint64_t id = loom_uring_next_id(b->uring);
	struct loom_uring_wait_bsu w = {
		.ctx_index = b->ctx_index,
		.timeout_ns = slice,
		.user_id = id,
		.unit = b->unit,
		.cond = cond,
		.value = value,
	};

	return loom_uring_cmd(b->uring, b->dev->fd, LOOM_URING_WAIT_BSU, id, &w, sizeof(w));
}

/*
 * Sleep until @cond holds on the unit (see LOOM_BSU_COND_*) or
 * @timeout_ms passes, in the handle's mode (not POLL): 0, -ETIMEDOUT,
 * -EIO when the card went away, -errno.
 */
static int bsu_sleep(struct loom_bsu *b, uint32_t cond, uint32_t value, int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : loom_now_ns() + (int64_t)timeout_ms * 1000000;

	for (;;) {
		int r;

		if (b->mode == LOOM_BSU_MODE_URING) {
			uint64_t slice = loom_uring_slice(deadline);

			if (!slice)
				return -ETIMEDOUT;
			r = bsu_sleep_uring(b, cond, value, slice);
		} else {
			int64_t until = loom_now_ns() + BSU_SLEEP_SLICE_NS;

			if (deadline >= 0 && deadline < until)
				until = deadline;
			r = bsu_sleep_ioctl(b, cond, value, until);
			if (r == -ETIME && deadline >= 0 && until == deadline)
				return -ETIMEDOUT;
		}
		switch (r) {
		case 0:
			return 0;
		case -ETIME:		/* a slice ended */
		case -ECANCELED:
		case -EINTR:
			continue;
		default:
			return r;
		}
	}
}

int loom_bsu_set_mode(struct loom_bsu *b, unsigned int mode)
{
	struct loom_uring *u = NULL;
	int err;

	if (!b || mode > LOOM_BSU_MODE_URING)
		return -EINVAL;
	if (mode == LOOM_BSU_MODE_URING && !b->uring) {
		u = loom_uring_new(&err);
		if (!u)
			return err;
	}
	/* does this kernel have the wait?  test once without sleeping */
	if (mode == LOOM_BSU_MODE_INTERRUPT) {
		err = bsu_sleep_ioctl(b, LOOM_BSU_COND_STATE_EQ, 0, 0);
	} else if (mode == LOOM_BSU_MODE_URING) {
		struct loom_uring *keep = b->uring;

		b->uring = u ? u : keep;
		err = bsu_sleep_uring(b, LOOM_BSU_COND_STATE_EQ, 0, 0);
		b->uring = keep;
	} else {
		err = -ETIME;
	}
	if (err != -ETIME && err != 0) {
		loom_uring_free(u);
		return err == -ENOTTY || err == -EINVAL ? -EOPNOTSUPP : err;
	}
	if (u)
		b->uring = u;
	b->mode = mode;
	return 0;
}

unsigned int loom_bsu_mode(const struct loom_bsu *b)
{
	return b->mode;
}

int loom_barrier_wait(struct loom_bsu *b, int timeout_ms)
{
	int64_t t0 = loom_now_ns();
	int r;

	if (b && b->mode != LOOM_BSU_MODE_POLL) {
		r = loom_barrier_test(b);
		if (r)
			return r < 0 ? r : 0;
		r = bsu_sleep(b, LOOM_BSU_COND_COMPLETIONS_NE, b->joined_at, timeout_ms);
		if (r)
			return r;
		r = loom_barrier_test(b);
		return r < 0 ? r : 0;
	}
	while (!(r = loom_barrier_test(b))) {
		if (timeout_ms >= 0 && loom_now_ns() - t0 > (int64_t)timeout_ms * 1000000)
			return -ETIMEDOUT;
		loom_backoff(t0, BSU_SPIN_NS, BSU_NAP_NS);
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
	b->refused_at = rd(b, LOOM_BSUP_REFUSED);
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
	int64_t t0 = loom_now_ns();
	int r;

	if (b && b->mode != LOOM_BSU_MODE_POLL) {
		r = loom_eureka_test(b);
		if (r)
			return r < 0 ? r : 0;
		return bsu_sleep(b, LOOM_BSU_COND_STATE_EQ, LOOM_BSU_S_EUR, timeout_ms);
	}

	while (!(r = loom_eureka_test(b))) {
		if (timeout_ms >= 0 && loom_now_ns() - t0 > (int64_t)timeout_ms * 1000000)
			return -ETIMEDOUT;
		loom_backoff(t0, BSU_SPIN_NS, BSU_NAP_NS);
	}
	return r < 0 ? r : 0;
}
