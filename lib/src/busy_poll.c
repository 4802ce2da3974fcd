// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Adaptive busy polling before loom_wait() sleeps, in the manner of the
 * kernel's busy_poll and KVM's halt polling: loom_wait() first polls the
 * completion ring for up to a window; only when nothing came in it does it
 * sleep on the card's interrupt.  The window adapts to what the waits see:
 * a completion that came after the window closed but within the ceiling
 * (a longer window would have caught it) doubles the window; a completion
 * that came later than the ceiling (the polling was wasted) halves it.
 *
 * The ceiling is LOOM_BUSY_POLL_DEFAULT_US, LOOM_BUSY_POLL from the
 * environment when the context is created, or loom_ctx_set_busy_poll();
 * 0 turns busy polling off.
 */
#include <errno.h>
#include <stdlib.h>

#include <loom.h>

#include "ctx_internal.h"

/* the window a grow starts from when it was 0 */
#define BUSY_POLL_GROW_START_US	8
/* a window shrunk below this is 0 */
#define BUSY_POLL_MIN_US	2

int loom_busy_poll_init(struct loom_ctx *ctx)
{
	const char *env = getenv("LOOM_BUSY_POLL");
	unsigned long us = LOOM_BUSY_POLL_DEFAULT_US;

	if (env) {
		char *end;

		errno = 0;
		us = strtoul(env, &end, 10);
		if (errno || end == env || *end || *env == '-' || us > LOOM_BUSY_POLL_MAX_US)
			return -EINVAL;
	}
	ctx->busy_max_us = (uint32_t)us;
	ctx->busy_cur_us = (uint32_t)us;
	return 0;
}

int loom_ctx_set_busy_poll(struct loom_ctx *ctx, int usec)
{
	if (!ctx || usec < 0 || usec > LOOM_BUSY_POLL_MAX_US)
		return -EINVAL;
	ctx->busy_max_us = (uint32_t)usec;
	ctx->busy_cur_us = (uint32_t)usec;
	return 0;
}

int loom_ctx_busy_poll(const struct loom_ctx *ctx)
{
	return ctx ? (int)ctx->busy_max_us : -EINVAL;
}

int loom_busy_poll(struct loom_ctx *ctx, struct loom_completion *out, int max,
		   int64_t deadline_ms, int64_t *start_ns)
{
	int64_t end;
	int n;

	*start_ns = loom_now_ns();
	end = *start_ns + (int64_t)ctx->busy_cur_us * 1000;
	if (deadline_ms >= 0 && end > deadline_ms * 1000000)
		end = deadline_ms * 1000000;
	do {
		n = loom_poll(ctx, out, max);
		if (n)
			return n;
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#endif
	} while (loom_now_ns() < end);
	return 0;
}

void loom_busy_poll_slept(struct loom_ctx *ctx, int64_t start_ns)
{
	int64_t waited_us = (loom_now_ns() - start_ns) / 1000;
	uint32_t cur = ctx->busy_cur_us;

	if (waited_us <= (int64_t)ctx->busy_max_us) {
		cur = cur ? 2 * cur : BUSY_POLL_GROW_START_US;
		if (cur > ctx->busy_max_us)
			cur = ctx->busy_max_us;
	} else {
		cur /= 2;
		if (cur < BUSY_POLL_MIN_US)
			cur = 0;
	}
	ctx->busy_cur_us = cur;
}
