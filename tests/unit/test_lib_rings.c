// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * Unit test of libloom's data path against rings in ordinary memory: the
 * descriptor a put writes, the doorbell and kick it rings, command credits,
 * and completion reaping with phase bits across several ring wraps.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
} while (0)

#define CMDQ_LOG2 4
#define CQ_LOG2 4

struct fake_card {
	struct loom_dev dev;
	struct loom_ctx ctx;
	uint32_t doorbell[1024];
	uint32_t kick;
	uint32_t cq_pi;		/* card's producer index */
	uint32_t cmd_ci;	/* card's consumer index */
};

static void fake_init(struct fake_card *f)
{
	memset(f, 0, sizeof(*f));
	f->dev.fd = -1;
	f->ctx.dev = &f->dev;
	f->ctx.cmdq_log2 = CMDQ_LOG2;
	f->ctx.cmd_credits = 1u << CMDQ_LOG2;
	f->ctx.cmdq = calloc(1u << CMDQ_LOG2, sizeof(struct loom_cmd));
	f->ctx.cq_log2 = CQ_LOG2;
	f->ctx.cq = calloc(1u << CQ_LOG2, sizeof(struct loom_cqe));
	f->ctx.doorbell = f->doorbell;
	f->ctx.kick = &f->kick;
	f->ctx.kick_value = 0xabcd;
	f->ctx.segment_size = 65536;
}

/* the card posts a completion for every command it has not completed yet */
static int fake_complete(struct fake_card *f, uint8_t status)
{
	int n = 0;

	while (f->cmd_ci != f->doorbell[LOOM_DB_CMD_PI / 4]) {
		struct loom_cmd *c = &f->ctx.cmdq[f->cmd_ci++ & ((1u << CMDQ_LOG2) - 1)];
		struct loom_cqe *e = &f->ctx.cq[f->cq_pi & ((1u << CQ_LOG2) - 1)];
		uint32_t ci = f->doorbell[LOOM_DB_CQ_CI / 4];

		if (f->cq_pi - ci >= (1u << CQ_LOG2))
			return -1;	/* the library did not return slots */
		e->tag = c->tag;
		e->value = c->length;
		e->src_node = c->dst_node;
		e->kind = LOOM_CQE_LOCAL;
		e->status = status;
		e->flags = loom_cq_phase(f->cq_pi, CQ_LOG2);
		f->cq_pi++;
		n++;
	}
	return n;
}

int main(void)
{
	const struct loom_remote dst = { .node = 3, .ctx = 7, .key = 0x99 };
	struct loom_completion out[64];
	struct fake_card f;
	uint64_t next_tag = 0, reaped = 0;
	int i, n, bad_tags = 0;
	uint32_t pi0;

	printf("1..16\n");
	fake_init(&f);

	CHECK(loom_put(&f.ctx, &dst, 128, 64, 1000, LOOM_PUT_REMOTE_EVENT, 42) == 0,
	      "put is accepted");
	{
		struct loom_cmd *c = &f.ctx.cmdq[0];

		CHECK(c->opcode == LOOM_OP_PUT && c->dst_node == 3 && c->dst_ctx == 7 &&
		      c->key == 0 && c->remote_off == 128 && c->local_off == 64 &&
		      c->length == 1000 && c->tag == 42 &&
		      c->flags == (LOOM_CMD_F_SIGNAL | LOOM_CMD_F_REMOTE_CQE),
		      "descriptor carries every field of the put, and no key (the card stamps the context's)");
	}
	CHECK(f.doorbell[LOOM_DB_CMD_PI / 4] == 1 && f.kick == 0xabcd,
	      "doorbell producer index advanced and the lab kick was written");
	CHECK(loom_poll(&f.ctx, out, 8) == 0, "no completion before the card posts one");
	CHECK(fake_complete(&f, 0) == 1 && loom_poll(&f.ctx, out, 8) == 1 &&
	      out[0].tag == 42 && out[0].value == 1000 && out[0].kind == LOOM_COMPLETION_LOCAL,
	      "the completion is reaped with its tag and length");
	CHECK(f.doorbell[LOOM_DB_CQ_CI / 4] == 1, "consumed completions are returned to the card");

	/* fill the command ring: the 17th put must be refused until credits return */
	for (i = 0; i < 16; i++)
		loom_put(&f.ctx, &dst, 0, 0, 8, 0, 100 + i);
	CHECK(loom_put(&f.ctx, &dst, 0, 0, 8, 0, 999) == -EAGAIN,
	      "a full command ring answers -EAGAIN");
	fake_complete(&f, 0);
	CHECK(loom_poll(&f.ctx, out, 64) == 16 && loom_put(&f.ctx, &dst, 0, 0, 8, 0, 1) == 0,
	      "credits come back with completions");
	fake_complete(&f, 0);
	loom_poll(&f.ctx, out, 64);

	/* many wraps of both rings: every completion seen exactly once, in order */
	next_tag = 1000;
	for (int round = 0; round < 50; round++) {
		for (i = 0; i < 1 + round % 16; i++)
			if (loom_put(&f.ctx, &dst, 0, 0, 8, 0, next_tag + i))
				bad_tags++;
		next_tag += i;
		fake_complete(&f, 0);
		n = loom_poll(&f.ctx, out, 64);
		for (i = 0; i < n; i++)
			if (out[i].tag != 1000 + reaped + (uint64_t)i)
				bad_tags++;
		reaped += (uint64_t)n;
	}
	CHECK(bad_tags == 0 && reaped == next_tag - 1000,
	      "50 rounds across ring wraps: %llu completions, each once and in order",
	      (unsigned long long)reaped);

	CHECK(loom_put(&f.ctx, &dst, 0, 65000, 1000, 0, 1) == -ERANGE,
	      "a put beyond the local segment is refused before it reaches the card");
	CHECK(loom_put(&f.ctx, &dst, 0, 0, 0, 0, 1) == -EINVAL, "a zero-length put is refused");
	CHECK(loom_put(&f.ctx, &dst, 0, 0, 8, 0x80, 1) == -EINVAL, "unknown put flags are refused");
	fake_complete(&f, LOOM_STATUS_REMOTE_KEY);
	CHECK(loom_poll(&f.ctx, out, 64) == 0, "refused puts reached no ring slot");
	CHECK(strstr(loom_strerror(LOOM_STATUS_REMOTE_KEY), "key") &&
	      strcmp(loom_strerror(-ENOENT), strerror(ENOENT)) == 0 &&
	      loom_strerror(200) != NULL,
	      "loom_strerror explains statuses and errno values");

	CHECK(loom_nop(&f.ctx, 77) == 0 &&
	      f.ctx.cmdq[(f.ctx.cmd_pi - 1) & 15].opcode == LOOM_OP_NOP &&
	      fake_complete(&f, 0) == 1 && loom_poll(&f.ctx, out, 64) == 1 && out[0].tag == 77,
	      "a NOP is posted and completes with its tag");

	/* a card that completes commands nobody posted grants no credit */
	for (i = 0; i < 3; i++) {
		for (int k = 0; k < 8; k++) {
			struct loom_cqe *e = &f.ctx.cq[f.cq_pi & ((1u << CQ_LOG2) - 1)];

			memset(e, 0, sizeof(*e));
			e->kind = LOOM_CQE_LOCAL;
			e->status = 200;
			e->flags = loom_cq_phase(f.cq_pi++, CQ_LOG2);
		}
		loom_poll(&f.ctx, out, 64);
	}
	pi0 = f.ctx.cmd_pi;
	for (i = 0; i < 16; i++)
		loom_put(&f.ctx, &dst, 0, 0, 8, 0, 500 + i);
	CHECK(loom_put(&f.ctx, &dst, 0, 0, 8, 0, 999) == -EAGAIN &&
	      f.ctx.cmdq[pi0 & ((1u << CMDQ_LOG2) - 1)].tag == 500,
	      "24 completions of commands nobody posted do not let a 17th command overwrite an unfetched one (credits %u)",
	      f.ctx.cmd_credits);

	free(f.ctx.cmdq);
	free(f.ctx.cq);
	return n_fail ? 1 : 0;
}
