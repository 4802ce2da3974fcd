// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Unit test of loom_wait()'s adaptive busy polling against a completion
 * ring in ordinary memory: the ceiling from LOOM_BUSY_POLL and its bad
 * values, loom_ctx_set_busy_poll()'s range, the window halving after waits
 * longer than the ceiling and doubling after waits within it, and a
 * completion posted while loom_wait() polls being met by polling (the
 * fake device cannot wake a sleeper: a sleeping loom_wait() sees it only
 * when its poll(2) times out).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <loom.h>

#include "../../lib/src/ctx_internal.h"
#include "tap.h"

TAP_DEFINE;

#define CQ_LOG2 4

static struct loom_dev dev = { .fd = -1 };
static struct loom_ctx ctx;
static uint32_t doorbell[1024];
static uint32_t cq_pi;

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void post_completion(uint64_t tag)
{
	struct loom_cqe *e = &ctx.cq[cq_pi & ((1u << CQ_LOG2) - 1)];

	e->tag = tag;
	e->kind = LOOM_CQE_LOCAL;
	__atomic_store_n(&e->flags, loom_cq_phase(cq_pi, CQ_LOG2), __ATOMIC_RELEASE);
	cq_pi++;
	/* the card takes the consumer index at once (no loom_cq_sync wait) */
	doorbell[LOOM_DB_CQ_CI_SEEN / 4] = doorbell[LOOM_DB_CQ_CI / 4];
}

static void *post_later(void *arg)
{
	struct timespec ts = { 0, 5 * 1000 * 1000 };

	(void)arg;
	nanosleep(&ts, NULL);
	post_completion(7);
	return NULL;
}

/* loom_wait() for a completion posted 5 ms after it starts; its duration in us */
static int64_t timed_wait(int *n, uint64_t *tag)
{
	struct loom_completion c = { 0 };
	pthread_t t;
	int64_t t0 = now_us();

	pthread_create(&t, NULL, post_later, NULL);
	*n = loom_wait(&ctx, &c, 1, 1500);
	pthread_join(t, NULL);
	*tag = c.tag;
	return now_us() - t0;
}

static int init_with_env(const char *value)
{
	if (value)
		setenv("LOOM_BUSY_POLL", value, 1);
	else
		unsetenv("LOOM_BUSY_POLL");
	return loom_busy_poll_init(&ctx);
}

int main(void)
{
	static const char *const bad[] = { "abc", "-1", "100001", "", "12us", "99999999999999999999" };
	int64_t start, took;
	uint64_t tag;
	uint32_t seen[12];
	int n, rc, bad_ok = 1;

	tap_plan(9);
	ctx.dev = &dev;
	ctx.cq_log2 = CQ_LOG2;
	ctx.cq = calloc(1u << CQ_LOG2, sizeof(struct loom_cqe));
	ctx.doorbell = doorbell;

	rc = init_with_env(NULL);
	tap_ok(rc == 0 && loom_ctx_busy_poll(&ctx) == LOOM_BUSY_POLL_DEFAULT_US &&
	      ctx.busy_cur_us == LOOM_BUSY_POLL_DEFAULT_US,
	      "without LOOM_BUSY_POLL the ceiling is the default, %d us (got %d, rc %d)",
	      LOOM_BUSY_POLL_DEFAULT_US, loom_ctx_busy_poll(&ctx), rc);
	rc = init_with_env("200");
	tap_ok(rc == 0 && loom_ctx_busy_poll(&ctx) == 200,
	      "LOOM_BUSY_POLL=200 sets a 200 us ceiling (got %d, rc %d)", loom_ctx_busy_poll(&ctx), rc);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rc = init_with_env(bad[i]);
		if (rc != -EINVAL) {
			printf("# LOOM_BUSY_POLL='%s': rc %d, expected -EINVAL\n", bad[i], rc);
			bad_ok = 0;
		}
	}
	tap_ok(bad_ok, "a malformed or out-of-range LOOM_BUSY_POLL is -EINVAL");
	unsetenv("LOOM_BUSY_POLL");

	tap_ok(loom_ctx_set_busy_poll(&ctx, -1) == -EINVAL &&
	      loom_ctx_set_busy_poll(&ctx, LOOM_BUSY_POLL_MAX_US + 1) == -EINVAL &&
	      loom_ctx_set_busy_poll(NULL, 10) == -EINVAL && loom_ctx_busy_poll(NULL) == -EINVAL &&
	      loom_ctx_set_busy_poll(&ctx, LOOM_BUSY_POLL_MAX_US) == 0 &&
	      loom_ctx_set_busy_poll(&ctx, 0) == 0 && loom_ctx_busy_poll(&ctx) == 0,
	      "loom_ctx_set_busy_poll takes 0 .. %d us and refuses the rest", LOOM_BUSY_POLL_MAX_US);

	/* waits longer than the ceiling: the window halves down to 0 */
	loom_ctx_set_busy_poll(&ctx, 100);
	for (int i = 0; i < 7; i++) {
		loom_busy_poll_slept(&ctx, (now_us() - 1000) * 1000);
		seen[i] = ctx.busy_cur_us;
	}
	tap_ok(seen[0] == 50 && seen[1] == 25 && seen[2] == 12 && seen[3] == 6 && seen[4] == 3 &&
	      seen[5] == 0 && seen[6] == 0,
	      "waits of 1 ms against a 100 us ceiling halve the window to 0 (%u %u %u %u %u %u %u)",
	      seen[0], seen[1], seen[2], seen[3], seen[4], seen[5], seen[6]);
	/* waits within the ceiling: it grows again, up to the ceiling */
	for (int i = 0; i < 6; i++) {
		loom_busy_poll_slept(&ctx, (now_us() - 20) * 1000);
		seen[i] = ctx.busy_cur_us;
	}
	tap_ok(seen[0] == 8 && seen[1] == 16 && seen[2] == 32 && seen[3] == 64 && seen[4] == 100 &&
	      seen[5] == 100,
	      "waits of 20 us grow it back to the ceiling (%u %u %u %u %u %u)",
	      seen[0], seen[1], seen[2], seen[3], seen[4], seen[5]);

	/* a completion already there: no waiting at all */
	post_completion(3);
	start = now_us();
	{
		struct loom_completion c;

		n = loom_wait(&ctx, &c, 1, 1000);
		tag = c.tag;
	}
	took = now_us() - start;
	tap_ok(n == 1 && tag == 3 && took < 100000,
	      "a waiting completion is returned at once (n %d, tag %llu, %lld us)", n,
	      (unsigned long long)tag, (long long)took);

	/* posted while loom_wait() polls: met by polling, well before the timeout */
	loom_ctx_set_busy_poll(&ctx, LOOM_BUSY_POLL_MAX_US);
	took = timed_wait(&n, &tag);
	tap_ok(n == 1 && tag == 7 && took < 500000,
	      "busy polling meets a completion posted 5 ms into the wait (n %d, %lld us, timeout 1.5 s)",
	      n, (long long)took);

	/* busy polling off: loom_wait() sleeps at once, only its timeout wakes it */
	loom_ctx_set_busy_poll(&ctx, 0);
	took = timed_wait(&n, &tag);
	tap_ok(n == 1 && tag == 7 && took >= 1000000,
	      "with busy polling off the same wait sleeps until poll(2) times out (n %d, %lld us)",
	      n, (long long)took);

	free(ctx.cq);
	return tap_exit_status();
}
