// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Unit test of libloom's LOOM_0.2 operations against rings in ordinary
 * memory and a fake card thread: the descriptors loom_get(),
 * loom_put_counted(), loom_atomic() and loom_put_mcast() write and the
 * arguments they refuse; loom_fence() fences exactly the next command; the library's own
 * completions never reach the caller but return their credits; loom_quiet()
 * returns once every earlier operation completed and keeps their
 * completions, in order, for loom_poll(); the counters page and
 * loom_counter_wait(); the new status texts.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <loom.h>

#include "../../lib/src/ctx_internal.h"

static int n_test, n_fail;

#define CHECK(cond, ...) do {						\
	n_test++;							\
	if (cond) {							\
		printf("ok %d - ", n_test);				\
	} else {							\
		n_fail++;						\
		printf("not ok %d - ", n_test);				\
	}								\
	printf(__VA_ARGS__);						\
	printf("\n");							\
	fflush(stdout);							\
} while (0)

#define CMDQ_LOG2 4
#define CQ_LOG2 5
#define N_CNT 512

static struct loom_dev dev;
static struct loom_ctx ctx;
static uint32_t doorbell[1024];
static uint32_t kick;
static uint64_t counters[N_CNT];
static uint32_t cq_pi, cmd_ci;		/* the fake card's indices */
static int card_running;
static pthread_t card_thread;

static void setup(void)
{
	memset(&ctx, 0, sizeof(ctx));
	dev.fd = eventfd(1, EFD_CLOEXEC);	/* always readable: no real sleeping */
	ctx.dev = &dev;
	ctx.cmdq_log2 = CMDQ_LOG2;
	ctx.cmd_credits = 1u << CMDQ_LOG2;
	ctx.cmdq = calloc(1u << CMDQ_LOG2, sizeof(struct loom_cmd));
	ctx.cq_log2 = CQ_LOG2;
	ctx.cq = calloc(1u << CQ_LOG2, sizeof(struct loom_cqe));
	ctx.doorbell = doorbell;
	ctx.kick = &kick;
	ctx.segment_size = 65536;
	ctx.counters = counters;
	ctx.n_counters = N_CNT;
}

/* The last command posted. */
static struct loom_cmd *last_cmd(void)
{
	return &ctx.cmdq[(ctx.cmd_pi - 1) & ((1u << CMDQ_LOG2) - 1)];
}

/* Complete every command posted and not completed yet; returns how many. */
static int card_complete(void)
{
	uint32_t pi = __atomic_load_n(&doorbell[LOOM_DB_CMD_PI / 4], __ATOMIC_ACQUIRE);
	int n = 0;

	while (cmd_ci != pi) {
		struct loom_cmd c = ctx.cmdq[cmd_ci & ((1u << CMDQ_LOG2) - 1)];
		struct loom_cqe *e = &ctx.cq[cq_pi & ((1u << CQ_LOG2) - 1)];
		uint32_t ci = __atomic_load_n(&doorbell[LOOM_DB_CQ_CI / 4], __ATOMIC_ACQUIRE);

		if (cq_pi - ci >= (1u << CQ_LOG2))
			break;
		cmd_ci++;
		e->tag = c.tag;
		e->value = c.opcode == LOOM_OP_ATOMIC ? 0x1234 : c.length;
		e->src_node = c.dst_node;
		e->kind = c.opcode == LOOM_OP_COUNTER_WAIT ? LOOM_CQE_COUNTER : LOOM_CQE_LOCAL;
		e->status = 0;
		e->opcode = c.opcode;
		__atomic_store_n(&e->flags, loom_cq_phase(cq_pi, CQ_LOG2), __ATOMIC_RELEASE);
		cq_pi++;
		n++;
	}
	return n;
}

static void *card_main(void *arg)
{
	(void)arg;
	while (__atomic_load_n(&card_running, __ATOMIC_ACQUIRE)) {
		card_complete();
		/* counter 7 climbs by 10 per round */
		__atomic_fetch_add(&counters[7], 10, __ATOMIC_RELEASE);
		usleep(1000);
	}
	return NULL;
}

static void card_start(void)
{
	__atomic_store_n(&card_running, 1, __ATOMIC_RELEASE);
	pthread_create(&card_thread, NULL, card_main, NULL);
}

static void card_stop(void)
{
	__atomic_store_n(&card_running, 0, __ATOMIC_RELEASE);
	pthread_join(card_thread, NULL);
}

static void test_descriptors(void)
{
	struct loom_remote r = { .node = 3, .ctx = 9, .key = 0xabc };
	struct loom_cmd *c;
	int rc;

	rc = loom_get(&ctx, &r, 0x500, 0x100, 3000, 0, 77);
	c = last_cmd();
	CHECK(rc == 0 && c->opcode == LOOM_OP_GET && c->flags == LOOM_CMD_F_SIGNAL &&
	      c->dst_node == 3 && c->dst_ctx == 9 && c->key == 0 && c->tag == 77 &&
	      c->local_off == 0x100 && c->remote_off == 0x500 && c->length == 3000 &&
	      doorbell[LOOM_DB_CMD_PI / 4] == ctx.cmd_pi, "loom_get writes a GET descriptor (no key) and rings");
	CHECK(loom_get(&ctx, &r, 0, 0, 0, 0, 1) == -EINVAL &&
	      loom_get(&ctx, &r, 0, 0, 8, LOOM_PUT_REMOTE_EVENT, 1) == -EINVAL &&
	      loom_get(&ctx, &r, 0, 65000, 1000, 0, 1) == -ERANGE,
	      "loom_get: 0 bytes or flags -> EINVAL, local range past the segment -> ERANGE");

	rc = loom_put_counted(&ctx, &r, 64, 0, 100, 511, LOOM_PUT_REMOTE_EVENT, 78);
	c = last_cmd();
	CHECK(rc == 0 && c->opcode == LOOM_OP_PUT_COUNTED && c->aux == 511 &&
	      c->flags == (LOOM_CMD_F_SIGNAL | LOOM_CMD_F_REMOTE_CQE) && c->length == 100,
	      "loom_put_counted writes the counter id in aux");
	CHECK(loom_put_counted(&ctx, &r, 0, 0, 8, LOOM_COUNTERS_MAX, 0, 1) == -EINVAL &&
	      loom_put_counted(&ctx, &r, LOOM_COUNTED_OFF_LIMIT, 0, 8, 0, 0, 1) == -EINVAL,
	      "loom_put_counted: counter id or remote offset out of range -> EINVAL");

	rc = loom_atomic(&ctx, &r, 0x40, LOOM_ATOMIC_CSWAP, 5, 4, 79);
	c = last_cmd();
	CHECK(rc == 0 && c->opcode == LOOM_OP_ATOMIC && c->aux == LOOM_AMO_CSWAP &&
	      c->operand == 5 && c->compare == 4 && c->length == 8 && c->remote_off == 0x40,
	      "loom_atomic writes op, operand, compare and length 8");
	CHECK(loom_atomic(&ctx, &r, 0x44, LOOM_ATOMIC_SWAP, 0, 0, 1) == -EINVAL &&
	      loom_atomic(&ctx, &r, 0, 0, 0, 0, 1) == -EINVAL &&
	      loom_atomic(&ctx, &r, 0, 4, 0, 0, 1) == -EINVAL,
	      "loom_atomic: misaligned offset or unknown op -> EINVAL");

	rc = loom_put_mcast(&ctx, 200, 0x300, 0x40, 1000, 0, 82);
	c = last_cmd();
	CHECK(rc == 0 && c->opcode == LOOM_OP_PUT &&
	      c->flags == (LOOM_CMD_F_SIGNAL | LOOM_CMD_F_MCAST) && c->dst_node == 200 &&
	      c->dst_ctx == 0 && c->key == 0 && c->tag == 82 && c->local_off == 0x40 &&
	      c->remote_off == 0x300 && c->length == 1000 &&
	      doorbell[LOOM_DB_CMD_PI / 4] == ctx.cmd_pi,
	      "loom_put_mcast writes a PUT with the MCAST flag, the group in dst_node, dst_ctx 0 "
	      "(flags %#x node %u ctx %u)", c->flags, c->dst_node, c->dst_ctx);
	CHECK(loom_put_mcast(NULL, 1, 0, 0, 8, 0, 1) == -EINVAL &&
	      loom_put_mcast(&ctx, 1, 0, 0, 0, 0, 1) == -EINVAL &&
	      loom_put_mcast(&ctx, 1, 0, 0, 8, LOOM_PUT_REMOTE_EVENT, 1) == -EINVAL &&
	      loom_put_mcast(&ctx, 65536, 0, 0, 8, 0, 1) == -EINVAL &&
	      loom_put_mcast(&ctx, 1, 0, 65000, 1000, 0, 1) == -ERANGE &&
	      loom_put_mcast(&ctx, 1, 0, UINT64_MAX, 2, 0, 1) == -ERANGE &&
	      last_cmd() == c,
	      "loom_put_mcast: NULL context, 0 bytes, flags or a group above 65535 -> EINVAL, "
	      "local range past the segment -> ERANGE, and nothing queued");

	loom_fence(&ctx);
	loom_put(&ctx, &r, 0, 0, 8, 0, 80);
	rc = last_cmd()->flags & LOOM_CMD_F_FENCE;
	loom_put(&ctx, &r, 0, 0, 8, 0, 81);
	CHECK(rc && !(last_cmd()->flags & LOOM_CMD_F_FENCE),
	      "loom_fence fences exactly the next command");
}

static void test_completions(void)
{
	struct loom_completion out[32];
	int n, got_atomic = 0;

	n = card_complete();
	CHECK(n == 6, "the fake card completed the 6 commands posted (%d)", n);
	n = loom_poll(&ctx, out, 32);
	for (int i = 0; i < n; i++)
		got_atomic |= out[i].opcode == LOOM_OP_ATOMIC && out[i].value == 0x1234;
	CHECK(n == 6 && got_atomic && ctx.cmd_credits == 1u << CMDQ_LOG2,
	      "loom_poll returns them, the atomic's fetched value included; credits are back");

	/* a library-internal completion is consumed, its credit returned */
	ctx.internal_seq = 5;	/* as if the library had issued tags 1..5 */
	loom_nop(&ctx, LOOM_TAG_INTERNAL(5));
	loom_counter_notify(&ctx, 3, 1, 99);
	card_complete();
	n = loom_poll(&ctx, out, 32);
	CHECK(n == 1 && out[0].kind == LOOM_COMPLETION_COUNTER && out[0].tag == 99 &&
	      ctx.cmd_credits == 1u << CMDQ_LOG2 && ctx.quiet_done == 5,
	      "an internal NOP's completion is consumed; a COUNTER completion is returned; credits back");
	CHECK(loom_counter_notify(&ctx, 3, 1, LOOM_TAG_RESERVED | 1) == -EINVAL &&
	      loom_counter_notify(&ctx, N_CNT, 1, 1) == -EINVAL,
	      "loom_counter_notify refuses reserved tags and counters beyond the page");
}

static void test_quiet(void)
{
	struct loom_remote r = { .node = 1, .ctx = 1, .key = 1 };
	struct loom_completion out[32];
	int rc, n, in_order = 1;

	for (uint64_t t = 1; t <= 3; t++)
		loom_put(&ctx, &r, 0, 0, 8, 0, 100 + t);
	card_start();
	rc = loom_quiet(&ctx, 5000);
	card_stop();
	n = loom_poll(&ctx, out, 32);
	for (int i = 0; i < n; i++)
		in_order &= out[i].tag == 101u + (unsigned int)i && out[i].opcode == LOOM_OP_PUT;
	CHECK(rc == 0 && n == 3 && in_order,
	      "loom_quiet returns after the 3 puts; loom_poll then gives their 3 completions in order (%d, %d)",
	      rc, n);
	CHECK(ctx.cmd_credits == 1u << CMDQ_LOG2, "every credit is back after quiet");

	loom_put(&ctx, &r, 0, 0, 8, 0, 200);
	rc = loom_quiet(&ctx, 50);
	CHECK(rc == -ETIMEDOUT, "loom_quiet with nothing completing: ETIMEDOUT (%d)", rc);
	card_complete();
	n = loom_poll(&ctx, out, 32);
	CHECK(n == 1 && out[0].tag == 200, "the late put completion still reaches loom_poll, the NOP does not");
}

static void test_counters(void)
{
	uint64_t v = 0;
	int rc;

	counters[3] = 100;
	CHECK(loom_counter_read(&ctx, 3, &v) == 0 && v == 100 &&
	      loom_counter_read(&ctx, N_CNT, &v) == -EINVAL && loom_ctx_counters(&ctx) == N_CNT,
	      "loom_counter_read reads the page; a counter beyond it -> EINVAL");
	CHECK(loom_counter_wait(&ctx, 3, 100, 0) == 0, "loom_counter_wait on a reached value returns at once");
	counters[7] = 0;
	card_start();
	rc = loom_counter_wait(&ctx, 7, 200, 5000);
	card_stop();
	CHECK(rc == 0 && counters[7] >= 200, "loom_counter_wait returns once the counter gets there (%d)", rc);
	CHECK(loom_counter_wait(&ctx, 3, 1000, 30) == -ETIMEDOUT,
	      "loom_counter_wait on a counter that does not move: ETIMEDOUT");
	card_complete();
	{
		struct loom_completion out[32];

		CHECK(loom_poll(&ctx, out, 32) == 0 && ctx.cmd_credits == 1u << CMDQ_LOG2,
		      "the waits' own COUNTER_WAIT completions never reach the caller");
	}
	ctx.counters = NULL;
	CHECK(loom_counter_read(&ctx, 3, &v) == -EOPNOTSUPP &&
	      loom_counter_wait(&ctx, 3, 1, 0) == -EOPNOTSUPP,
	      "without a counters page: EOPNOTSUPP");
	ctx.counters = counters;
}

int main(void)
{
	setup();
	test_descriptors();
	test_completions();
	test_quiet();
	test_counters();
	CHECK(strstr(loom_strerror(LOOM_STATUS_COUNTER), "counter") &&
	      strstr(loom_strerror(LOOM_STATUS_DISCARDED), "disabled") &&
	      strstr(loom_strerror(LOOM_STATUS_BUSY), "counter"),
	      "loom_strerror knows DISCARDED, COUNTER and BUSY");
	printf("1..%d\n", n_test);
	free(ctx.stash);
	free(ctx.cmdq);
	free(ctx.cq);
	close(dev.fd);
	return n_fail ? 1 : 0;
}
