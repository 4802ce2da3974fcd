// SPDX-License-Identifier: GPL-2.0
/*
 * All-to-all put and get workload (see alltoall.h).
 */
#include "alltoall.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define A2A_CTX		1
#define A2A_KEY		0xa2a00000u	/* one partition: every context */
/* tag: kind (1 put, 2 get) << 24 | round << 16 | source << 8 | destination */
#define A2A_TAG(kind, r, s, d)	((uint64_t)(kind) << 24 | (uint64_t)(r) << 16 | (s) << 8 | (d))
#define A2A_PUT		1
#define A2A_GET		2

struct a2a_op {
	uint8_t kind, round, dst;
	uint32_t len;
};

struct a2a_card {
	struct fh_ctx ctx;
	bool enabled;
	struct a2a_op *ops;
	unsigned int n_ops, next;	/* next op to submit */
};

struct a2a_run {
	const struct alltoall_cfg *cfg;
	unsigned int n;
	struct a2a_card card[FABRIC_MAX_CARDS];
	/* arrivals seen at [dst][src][round] */
	uint8_t seen[FABRIC_MAX_CARDS][FABRIC_MAX_CARDS][ALLTOALL_MAX_ROUNDS];
	struct alltoall *r;
	unsigned int put_ok;	/* puts completed OK: each owes one arrival */
};

static uint8_t a2a_pattern(unsigned int src, uint64_t off)
{
	uint64_t x = (off + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)(src + 1) * 0xc2b2ae3d27d4eb4full;

	return (uint8_t)(x >> 29);
}

static uint64_t a2a_mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x7fb5d329728ea185ull;
	x ^= x >> 27;
	x *= 0x81dadef4bc2dd44dull;
	return x ^ (x >> 33);
}

/* Put length of (source, destination, round): @len, or 1..@len with a seed. */
static uint32_t a2a_len(const struct alltoall_cfg *cfg, unsigned int s, unsigned int d,
			unsigned int round)
{
	if (!cfg->seed)
		return cfg->len;
	return 1 + (uint32_t)(a2a_mix(cfg->seed ^ A2A_TAG(A2A_PUT, round, s, d)) % cfg->len);
}

/*
 * Segment: [0, len) my pattern; put slot (s, r) at (1 + s * rounds + r) *
 * len receives round r of node s; get slot d after the put slots.
 */
static uint64_t a2a_put_slot(const struct a2a_run *w, unsigned int src, unsigned int round)
{
	return (uint64_t)(1 + src * w->cfg->rounds + round) * w->cfg->len;
}

static uint64_t a2a_get_slot(const struct a2a_run *w, unsigned int dst)
{
	return (uint64_t)(1 + w->n * w->cfg->rounds + dst) * w->cfg->len;
}

static uint64_t a2a_seg_size(const struct a2a_run *w)
{
	return a2a_get_slot(w, w->n);
}

static void a2a_local(struct a2a_run *w, unsigned int i, const struct loom_cqe *e)
{
	unsigned int kind = (unsigned int)(e->tag >> 24), round = (e->tag >> 16) & 0xff;
	unsigned int s = (e->tag >> 8) & 0xff, d = e->tag & 0xff;
	bool ok = e->status == LOOM_CQE_ST_OK && s == i && d < w->n &&
		  round < w->cfg->rounds &&
		  ((kind == A2A_PUT && e->opcode == LOOM_OP_PUT &&
		    e->value == a2a_len(w->cfg, s, d, round)) ||
		   (kind == A2A_GET && e->opcode == LOOM_OP_GET && e->value == w->cfg->len));

	ok ? w->r->local_ok++ : w->r->local_bad++;
	if (ok && kind == A2A_PUT)
		w->put_ok++;
	if (!ok)
		tap_diag("card %u: LOCAL tag 0x%llx opcode %u status %u value %llu", i,
			 (unsigned long long)e->tag, e->opcode, e->status,
			 (unsigned long long)e->value);
}

static void a2a_arrival(struct a2a_run *w, unsigned int i, const struct loom_cqe *e)
{
	unsigned int s = e->src_node, rounds = w->cfg->rounds;
	uint64_t slot = e->tag / w->cfg->len - 1;
	unsigned int round = (unsigned int)(slot % rounds);
	bool ok = e->kind == LOOM_CQE_ARRIVAL && s < w->n && e->tag % w->cfg->len == 0 &&
		  slot / rounds == s && e->value == a2a_len(w->cfg, s, i, round) &&
		  e->src_ctx == A2A_CTX && e->status == LOOM_CQE_ST_OK &&
		  !w->seen[i][s][round]++;

	ok ? w->r->arrival_ok++ : w->r->arrival_bad++;
	if (!ok)
		tap_diag("card %u: kind %u tag 0x%llx value %llu from %u.%u status %u", i, e->kind,
			 (unsigned long long)e->tag, (unsigned long long)e->value, e->src_node,
			 e->src_ctx, e->status);
}

/* Handle every completion card @i has now; how many there were. */
static unsigned int a2a_reap(struct a2a_run *w, unsigned int i)
{
	struct loom_cqe e;
	unsigned int got = 0;

	while (fh_poll_cqe(&w->card[i].ctx, &e) == 1) {
		if (e.kind == LOOM_CQE_LOCAL)
			a2a_local(w, i, &e);
		else
			a2a_arrival(w, i, &e);
		got++;
	}
	return got;
}

/* Submit what the command ring takes of card @i's remaining operations. */
static void a2a_submit(struct a2a_run *w, unsigned int i)
{
	struct a2a_card *c = &w->card[i];

	while (c->next < c->n_ops) {
		const struct a2a_op *op = &c->ops[c->next];
		struct loom_cmd cmd = {
			.opcode = op->kind == A2A_PUT ? LOOM_OP_PUT : LOOM_OP_GET,
			.flags = LOOM_CMD_F_SIGNAL | (op->kind == A2A_PUT ? LOOM_CMD_F_REMOTE_CQE : 0),
			.dst_ctx = A2A_CTX,
			.dst_node = op->dst,
			.tag = A2A_TAG(op->kind, op->round, i, op->dst),
			.local_off = op->kind == A2A_PUT ? 0 : a2a_get_slot(w, op->dst),
			.remote_off = op->kind == A2A_PUT ? a2a_put_slot(w, i, op->round) : 0,
			.length = op->len,
		};

		if (!fh_submit(&c->ctx, &cmd))
			return;
		c->next++;
	}
}

/* Card @i's operations: puts (shuffled with a seed), then gets. */
static int a2a_plan(struct a2a_run *w, unsigned int i)
{
	const struct alltoall_cfg *cfg = w->cfg;
	unsigned int n_puts = w->n * cfg->rounds, k = 0;
	struct a2a_card *c = &w->card[i];
	uint64_t rnd = a2a_mix(cfg->seed + i + 1);

	c->ops = calloc(n_puts + w->n, sizeof(*c->ops));
	if (!c->ops)
		return -1;
	for (unsigned int round = 0; round < cfg->rounds; round++)
		for (unsigned int step = 0; step < w->n; step++) {
			unsigned int d = cfg->shifted ? (i + step) % w->n : step;

			c->ops[k++] = (struct a2a_op){ A2A_PUT, (uint8_t)round, (uint8_t)d,
						       a2a_len(cfg, i, d, round) };
		}
	for (unsigned int j = n_puts; cfg->seed && j > 1; j--) {	/* Fisher-Yates */
		unsigned int m;
		struct a2a_op t;

		rnd = a2a_mix(rnd);
		m = (unsigned int)(rnd % j);
		t = c->ops[j - 1];
		c->ops[j - 1] = c->ops[m];
		c->ops[m] = t;
	}
	for (unsigned int d = 0; cfg->gets && d < w->n; d++)
		c->ops[k++] = (struct a2a_op){ A2A_GET, 0, (uint8_t)d, cfg->len };
	c->n_ops = k;
	for (unsigned int j = 0; j < k; j++) {
		if (c->ops[j].kind == A2A_PUT) {
			w->r->puts++;
			w->r->put_bytes += c->ops[j].len;
		} else {
			w->r->gets++;
		}
	}
	return 0;
}

static bool a2a_check_bytes(unsigned int node, const char *what, unsigned int peer,
			    const uint8_t *p, uint32_t len)
{
	for (uint32_t o = 0; o < len; o++) {
		if (p[o] != a2a_pattern(peer, o)) {
			tap_diag("node %u, %s %u: first bad byte at %u: 0x%02x != 0x%02x", node,
				 what, peer, o, p[o], a2a_pattern(peer, o));
			return false;
		}
	}
	return true;
}

static bool a2a_check_data(struct a2a_run *w)
{
	bool ok = true;

	for (unsigned int d = 0; d < w->n; d++) {
		const uint8_t *seg = w->card[d].ctx.segp;

		for (unsigned int s = 0; s < w->n; s++) {
			for (unsigned int round = 0; round < w->cfg->rounds; round++)
				ok &= a2a_check_bytes(d, "data put by", s, seg + a2a_put_slot(w, s, round),
						      a2a_len(w->cfg, s, d, round));
			if (w->cfg->gets)
				ok &= a2a_check_bytes(d, "data read from", s, seg + a2a_get_slot(w, s),
						      w->cfg->len);
		}
	}
	return ok;
}

static int a2a_setup(struct a2a_run *w, struct fabric *f)
{
	for (unsigned int i = 0; i < w->n; i++) {
		struct fh_ctx *ctx = &w->card[i].ctx;
		int rc = fh_ctx_create(&f->fh[i], ctx, A2A_CTX, A2A_KEY, 8, 10, a2a_seg_size(w));

		if (rc != LOOM_ADMIN_E_OK) {
			tap_diag("card %u: context enable (segment %llu bytes) returned %d", i,
				 (unsigned long long)a2a_seg_size(w), rc);
			return -1;
		}
		w->card[i].enabled = true;
		for (uint64_t o = 0; o < w->cfg->len; o++)
			ctx->segp[o] = a2a_pattern(i, o);
		memset(ctx->segp + w->cfg->len, 0xee, a2a_seg_size(w) - w->cfg->len);
		if (a2a_plan(w, i)) {
			tap_diag("out of memory for the operations of card %u", i);
			return -1;
		}
	}
	return 0;
}

static bool a2a_done(const struct a2a_run *w)
{
	const struct alltoall *r = w->r;

	/* every op completed and every successful put arrived (a failed one may not) */
	return r->local_ok + r->local_bad >= r->puts + r->gets &&
	       r->arrival_ok + r->arrival_bad >= w->put_ok;
}

int alltoall_run_cfg(struct fabric *f, unsigned int n, const struct alltoall_cfg *cfg,
		     struct alltoall *r)
{
	static struct a2a_run w;
	uint64_t t0, deadline;
	int rc = -1;

	memset(&w, 0, sizeof(w));
	memset(r, 0, sizeof(*r));
	w.cfg = cfg;
	w.n = n;
	w.r = r;
	if (n > FABRIC_MAX_CARDS || !cfg->len || !cfg->rounds || cfg->rounds > ALLTOALL_MAX_ROUNDS) {
		tap_diag("all-to-all: %u cards, %u rounds of %u bytes is not a workload", n,
			 cfg->rounds, cfg->len);
		return -1;
	}
	if (a2a_setup(&w, f))
		goto out;
	t0 = fh_now_ms();
	deadline = t0 + (uint64_t)cfg->timeout_ms;
	while (!a2a_done(&w) && fh_now_ms() < deadline) {
		unsigned int got = 0;

		for (unsigned int i = 0; i < n; i++) {
			a2a_submit(&w, i);
			got += a2a_reap(&w, i);
		}
		if (!got)
			usleep(1000);
	}
	r->elapsed_ms = fh_now_ms() - t0;
	/* anything extra (a duplicate completion) shows up within a moment */
	for (unsigned int k = 0; k < 20; k++) {
		usleep(10000);
		for (unsigned int i = 0; i < n; i++)
			a2a_reap(&w, i);
	}
	r->data_ok = a2a_check_data(&w);
	rc = 0;
out:
	/* context 1 free for the next workload (operations all ended or timed out) */
	for (unsigned int i = 0; i < n; i++) {
		if (w.card[i].enabled &&
		    fh_admin(&f->fh[i], LOOM_ADMIN_CMD_CTX_DISABLE, A2A_CTX, 5000) != LOOM_ADMIN_E_OK)
			tap_diag("card %u: context %u disable failed", i, A2A_CTX);
		free(w.card[i].ops);
	}
	return rc;
}

int alltoall_run(struct fabric *f, unsigned int n, uint32_t len, int timeout_ms,
		 struct alltoall *r)
{
	struct alltoall_cfg cfg = { .len = len, .rounds = 1, .timeout_ms = timeout_ms };

	return alltoall_run_cfg(f, n, &cfg, r);
}

bool alltoall_perfect(const struct alltoall *r, unsigned int n)
{
	return r->puts >= n * n && r->local_ok == r->puts + r->gets && !r->local_bad &&
	       r->arrival_ok == r->puts && !r->arrival_bad && r->data_ok;
}
