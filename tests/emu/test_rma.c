// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test, 8 cards in a 2x2x2 torus: remote memory operations
 * end to end.  All-to-all PUTs and GETs checked byte by byte; 8 cards
 * fetch-add one remote word (final value 8N, fetched values exactly
 * {0..8N-1}); compare-and-swap contention (8K successes, final value 8K);
 * swap; counted puts from 3 cards to one (counter and counters page ==
 * bytes landed) with threshold completions that fire exactly once; a
 * context of another partition (whose descriptors carry the target's key:
 * forged, ignored), bounds, counter id and a stopped context give error
 * completions, write and leak nothing and advance the target's DROP_*
 * counters; a card killed
 * under a stream of GETs and atomics three hops away: every operation
 * still completes exactly once (OK or an error), new ones fail at once.
 */
#include "card.h"
#include "rma_torus.h"
#include "tap.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

TAP_DEFINE;

#define N_CARDS		RMA_TORUS_CARDS
#define CTX		1
#define KEY		0x5a5a0000u	/* one partition: every context */
#define ALIEN_KEY	(KEY ^ 1)	/* another partition */
#define ALIEN_CTX	(CTX + 2)
#define LEN		3000u		/* not a multiple of the packet payload */
#define OFF_PUTS	4096u		/* slot s: data put by node s */
#define OFF_GETS	32768u		/* slot s: data read from node s */
#define OFF_FADD	65536u
#define OFF_CAS		65544u
#define OFF_SWAP	65552u
#define OFF_CNT		69632u		/* counted puts: area per source */
#define CNT_AREA	16384u
#define SEG		(128u << 10)
#define N_FADD		100u		/* fetch-adds per card */
#define K_CAS		20u		/* successful cswaps per card */
#define CNT_ID		5u
#define CNT_OPS		10u
#define TIMEOUT_MS	20000

static struct fabric f;
static struct fh_ctx ctx[N_CARDS];
static volatile uint64_t *cnt[N_CARDS];

static uint8_t pattern(unsigned int node, uint64_t off)
{
	uint64_t x = (off + 7) * 0x9e3779b97f4a7c15ull ^ (uint64_t)(node + 3) * 0xc2b2ae3d27d4eb4full;

	return (uint8_t)(x >> 31);
}

/* ---- completion plumbing ---- */

typedef void (*cqe_fn)(unsigned int card, const struct loom_cqe *e);
static cqe_fn on_cqe;
static unsigned int n_cqes;

/* Take one completion of @card without waiting; 1 if there was one. */
static int poll_cqe(unsigned int card, struct loom_cqe *out)
{
	struct fh_ctx *x = &ctx[card];
	struct fakehost *fh = x->fh;
	uint32_t entries = 1u << x->cq_log2;
	uint8_t *slot = fh->ram + x->cq + (uint64_t)(x->ci & (entries - 1)) * LOOM_CQE_SIZE;
	uint32_t flags = __atomic_load_n((uint32_t *)(void *)(slot + offsetof(struct loom_cqe, flags)),
					 __ATOMIC_ACQUIRE);

	if ((flags & LOOM_CQE_PHASE) != loom_cq_phase(x->ci, x->cq_log2))
		return 0;
	memcpy(out, slot, sizeof(*out));
	x->ci++;
	fh_wr32(fh, fh->db_area + x->idx * LOOM_DB_PAGE_SIZE + LOOM_DB_CQ_CI, x->ci);
	fh_kick(fh, LOOM_KICK_DOORBELL);
	return 1;
}

/* Deliver every completion there is now; returns how many. */
static unsigned int pump(void)
{
	unsigned int got = 0;
	struct loom_cqe e;

	for (unsigned int i = 0; i < N_CARDS; i++) {
		while (poll_cqe(i, &e)) {
			got++;
			n_cqes++;
			on_cqe(i, &e);
		}
	}
	if (!got)
		usleep(200);
	return got;
}

/* Pump until n_cqes reaches @want or the deadline; then a moment for extras. */
static bool pump_until(unsigned int want)
{
	uint64_t deadline = fh_now_ms() + TIMEOUT_MS;

	while (n_cqes < want && fh_now_ms() < deadline)
		pump();
	for (int k = 0; k < 50; k++)
		pump();
	if (n_cqes != want)
		tap_diag("%u completions, expected %u", n_cqes, want);
	return n_cqes == want;
}

static void submit(unsigned int card, const struct loom_cmd *c)
{
	uint64_t deadline = fh_now_ms() + TIMEOUT_MS;

	while (!fh_submit(&ctx[card], c) && fh_now_ms() < deadline)
		pump();
}

static struct loom_cmd cmd(uint8_t opcode, unsigned int dst, uint64_t tag, uint64_t local_off,
			   uint64_t remote_off, uint64_t len)
{
	struct loom_cmd c = {
		.opcode = opcode, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX, .dst_node = dst,
		.tag = tag, .local_off = local_off, .remote_off = remote_off, .length = len,
	};

	return c;
}

static struct loom_cmd amo(unsigned int dst, uint64_t tag, uint32_t op, uint64_t off,
			   uint64_t operand, uint64_t compare)
{
	struct loom_cmd c = cmd(LOOM_OP_ATOMIC, dst, tag, 0, off, 8);

	c.aux = op;
	c.operand = operand;
	c.compare = compare;
	return c;
}

static uint64_t rd64(unsigned int card, uint64_t off)
{
	return __atomic_load_n((uint64_t *)(void *)(ctx[card].segp + off), __ATOMIC_ACQUIRE);
}

static void wr64(unsigned int card, uint64_t off, uint64_t v)
{
	__atomic_store_n((uint64_t *)(void *)(ctx[card].segp + off), v, __ATOMIC_RELEASE);
}

/* ---- completion checkers: count good ones, report bad ones ---- */

static unsigned int good, bad;
static uint8_t expect_opcode;
static uint64_t expect_value;

static void check_local(unsigned int card, const struct loom_cqe *e)
{
	if (e->kind == LOOM_CQE_LOCAL && e->status == LOOM_CQE_ST_OK &&
	    e->opcode == expect_opcode && e->value == expect_value && (e->tag >> 8) == card) {
		good++;
		return;
	}
	bad++;
	tap_diag("card %u: kind %u opcode %u tag 0x%llx status %u value %llu", card, e->kind,
		 e->opcode, (unsigned long long)e->tag, e->status, (unsigned long long)e->value);
}

static bool data_ok(unsigned int card, uint64_t off, unsigned int src, const char *what)
{
	for (uint64_t o = 0; o < LEN; o++) {
		if (ctx[card].segp[off + o] != pattern(src, o)) {
			tap_diag("%s: node %u, data of node %u: byte %llu is 0x%02x, expected 0x%02x",
				 what, card, src, (unsigned long long)o, ctx[card].segp[off + o],
				 pattern(src, o));
			return false;
		}
	}
	return true;
}

static void test_alltoall(void)
{
	bool ok = true;

	n_cqes = good = bad = 0;
	on_cqe = check_local;
	expect_opcode = LOOM_OP_PUT;
	expect_value = LEN;
	for (unsigned int i = 0; i < N_CARDS; i++)
		for (unsigned int d = 0; d < N_CARDS; d++) {
			struct loom_cmd c = cmd(LOOM_OP_PUT, d, i << 8 | d, 0, OFF_PUTS + i * LEN, LEN);

			submit(i, &c);
		}
	ok = pump_until(N_CARDS * N_CARDS) && good == N_CARDS * N_CARDS && !bad;
	for (unsigned int d = 0; d < N_CARDS; d++)
		for (unsigned int s = 0; s < N_CARDS; s++)
			ok &= data_ok(d, OFF_PUTS + s * LEN, s, "put");
	tap_ok(ok, "all-to-all PUT of %u bytes: 64 LOCAL OK, every byte landed", LEN);

	n_cqes = good = bad = 0;
	expect_opcode = LOOM_OP_GET;
	for (unsigned int i = 0; i < N_CARDS; i++)
		for (unsigned int d = 0; d < N_CARDS; d++) {
			struct loom_cmd c = cmd(LOOM_OP_GET, d, i << 8 | d, OFF_GETS + d * LEN, 0, LEN);

			submit(i, &c);
		}
	ok = pump_until(N_CARDS * N_CARDS) && good == N_CARDS * N_CARDS && !bad;
	for (unsigned int i = 0; i < N_CARDS; i++)
		for (unsigned int d = 0; d < N_CARDS; d++)
			ok &= data_ok(i, OFF_GETS + d * LEN, d, "get");
	tap_ok(ok, "all-to-all GET of %u bytes: 64 LOCAL OK (value = bytes), every byte read", LEN);
}

/* ---- atomics ---- */

#define FADD_TARGET	5u
static uint8_t *fadd_seen;

static void check_fadd(unsigned int card, const struct loom_cqe *e)
{
	if (e->kind == LOOM_CQE_LOCAL && e->status == LOOM_CQE_ST_OK &&
	    e->opcode == LOOM_OP_ATOMIC && e->value < N_CARDS * N_FADD && !fadd_seen[e->value]++) {
		good++;
		return;
	}
	bad++;
	tap_diag("card %u: fetch-add: kind %u status %u fetched %llu (seen before: %s)", card,
		 e->kind, e->status, (unsigned long long)e->value,
		 e->value < N_CARDS * N_FADD && fadd_seen[e->value] > 1 ? "yes" : "no");
}

static void test_fetch_add(void)
{
	bool ok;

	fadd_seen = calloc(N_CARDS * N_FADD, 1);
	n_cqes = good = bad = 0;
	on_cqe = check_fadd;
	wr64(FADD_TARGET, OFF_FADD, 0);
	for (unsigned int k = 0; k < N_FADD; k++)
		for (unsigned int i = 0; i < N_CARDS; i++) {
			struct loom_cmd c = amo(FADD_TARGET, i << 8, LOOM_AMO_FETCH_ADD, OFF_FADD, 1, 0);

			submit(i, &c);
		}
	ok = pump_until(N_CARDS * N_FADD) && good == N_CARDS * N_FADD && !bad;
	tap_ok(ok, "%u fetch-adds from 8 cards: fetched values are exactly {0..%u}",
	       N_CARDS * N_FADD, N_CARDS * N_FADD - 1);
	tap_ok(rd64(FADD_TARGET, OFF_FADD) == N_CARDS * N_FADD,
	       "the remote word is %u afterwards (it is %llu)", N_CARDS * N_FADD,
	       (unsigned long long)rd64(FADD_TARGET, OFF_FADD));
	free(fadd_seen);
}

#define CAS_TARGET	6u
static unsigned int cas_wins[N_CARDS];
static uint64_t cas_guess[N_CARDS];
static uint8_t cas_seen[N_CARDS * K_CAS];
static unsigned int cas_tries;

static void cas_issue(unsigned int card)
{
	struct loom_cmd c = amo(CAS_TARGET, card << 8, LOOM_AMO_CSWAP, OFF_CAS, cas_guess[card] + 1,
				cas_guess[card]);

	cas_tries++;
	submit(card, &c);
}

static void check_cas(unsigned int card, const struct loom_cqe *e)
{
	if (e->kind != LOOM_CQE_LOCAL || e->status != LOOM_CQE_ST_OK || e->opcode != LOOM_OP_ATOMIC) {
		bad++;
		tap_diag("card %u: cswap: kind %u status %u", card, e->kind, e->status);
		return;
	}
	if (e->value == cas_guess[card]) {	/* it swapped: guess -> guess + 1 */
		if (e->value >= N_CARDS * K_CAS || cas_seen[e->value]++) {
			bad++;
			tap_diag("card %u: cswap won with old value %llu twice or out of range",
				 card, (unsigned long long)e->value);
			return;
		}
		good++;
		cas_wins[card]++;
		cas_guess[card] = e->value + 1;
	} else {
		cas_guess[card] = e->value;
	}
	if (cas_wins[card] < K_CAS)
		cas_issue(card);
}

static void test_cswap(void)
{
	uint64_t deadline = fh_now_ms() + TIMEOUT_MS;
	bool ok;

	n_cqes = good = bad = 0;
	on_cqe = check_cas;
	wr64(CAS_TARGET, OFF_CAS, 0);
	for (unsigned int i = 0; i < N_CARDS; i++)
		cas_issue(i);
	while (good < N_CARDS * K_CAS && !bad && fh_now_ms() < deadline)
		pump();
	for (int k = 0; k < 50; k++)
		pump();
	ok = good == N_CARDS * K_CAS && !bad && n_cqes == cas_tries;
	tap_diag("cswap: %u attempts for %u wins", cas_tries, good);
	tap_ok(ok, "compare-and-swap contention: %u wins, each old value won once",
	       N_CARDS * K_CAS);
	tap_ok(rd64(CAS_TARGET, OFF_CAS) == N_CARDS * K_CAS, "the cswap word is %u (it is %llu)",
	       N_CARDS * K_CAS, (unsigned long long)rd64(CAS_TARGET, OFF_CAS));
}

static struct loom_cqe last;

static void keep_last(unsigned int card, const struct loom_cqe *e)
{
	(void)card;
	last = *e;
}

static void test_swap(void)
{
	struct loom_cmd c = amo(3, 2 << 8, LOOM_AMO_SWAP, OFF_SWAP, 0x1234, 0);

	n_cqes = 0;
	on_cqe = keep_last;
	wr64(3, OFF_SWAP, 0xfeedull << 32);
	submit(2, &c);
	tap_ok(pump_until(1) && last.status == LOOM_CQE_ST_OK && last.value == 0xfeedull << 32 &&
	       rd64(3, OFF_SWAP) == 0x1234, "swap returns the old value and stores the new one");
}

/* ---- counted puts and counter thresholds ---- */

#define CNT_TARGET	0u
static unsigned int counter_cqes[2], local_ok, local_bad;
static uint64_t thresholds[2];

static void check_counted(unsigned int card, const struct loom_cqe *e)
{
	if (e->kind == LOOM_CQE_COUNTER && card == CNT_TARGET && e->tag < 2 &&
	    e->value >= thresholds[e->tag] && e->src_ctx == CNT_ID &&
	    e->opcode == LOOM_OP_COUNTER_WAIT) {
		counter_cqes[e->tag]++;
		return;
	}
	if (e->kind == LOOM_CQE_LOCAL && e->status == LOOM_CQE_ST_OK &&
	    e->opcode == LOOM_OP_PUT_COUNTED) {
		local_ok++;
		return;
	}
	local_bad++;
	tap_diag("card %u: kind %u opcode %u tag %llu status %u value %llu", card, e->kind,
		 e->opcode, (unsigned long long)e->tag, e->status, (unsigned long long)e->value);
}

static uint64_t counted_len(unsigned int k)
{
	return 1000 + 37 * k;
}

static void test_counted(void)
{
	uint64_t total = 0;
	struct loom_cmd c;
	bool ok = true;

	for (unsigned int k = 0; k < CNT_OPS; k++)
		total += counted_len(k);
	total *= 3;
	thresholds[0] = total / 2;
	thresholds[1] = total;
	n_cqes = 0;
	on_cqe = check_counted;
	for (unsigned int t = 0; t < 2; t++) {
		c = cmd(LOOM_OP_COUNTER_WAIT, CNT_TARGET, t, 0, 0, 0);
		c.aux = CNT_ID;
		c.operand = thresholds[t];
		submit(CNT_TARGET, &c);
	}
	for (int k = 0; k < 50; k++)
		pump();
	ok = n_cqes == 0;
	for (unsigned int s = 1; s <= 3; s++) {
		uint64_t off = 0;

		for (unsigned int k = 0; k < CNT_OPS; k++) {
			c = cmd(LOOM_OP_PUT_COUNTED, CNT_TARGET, 100 + k, off,
				OFF_CNT + s * CNT_AREA + off, counted_len(k));
			c.aux = CNT_ID;
			submit(s, &c);
			off += counted_len(k);
		}
	}
	ok &= pump_until(3 * CNT_OPS + 2) && local_ok == 3 * CNT_OPS && !local_bad;
	tap_ok(ok && counter_cqes[0] == 1 && counter_cqes[1] == 1,
	       "counted puts from 3 cards: 30 LOCAL OK; thresholds %llu and %llu fired once each (%u, %u)",
	       (unsigned long long)thresholds[0], (unsigned long long)thresholds[1],
	       counter_cqes[0], counter_cqes[1]);
	tap_ok(cnt[CNT_TARGET][CNT_ID] == total,
	       "counter %u on the counters page == %llu bytes landed (it is %llu)", CNT_ID,
	       (unsigned long long)total, (unsigned long long)cnt[CNT_TARGET][CNT_ID]);
	ok = true;
	for (unsigned int s = 1; s <= 3; s++)
		ok &= memcmp(ctx[CNT_TARGET].segp + OFF_CNT + s * CNT_AREA, ctx[s].segp,
			     total / 3) == 0;
	for (unsigned int id = 0; id < LOOM_CTX_COUNTERS; id++)
		ok &= id == CNT_ID || cnt[CNT_TARGET][id] == 0;
	tap_ok(ok, "counted data landed byte-exact; no other counter moved");

	/* a threshold already reached completes at once */
	n_cqes = 0;
	on_cqe = keep_last;
	c = cmd(LOOM_OP_COUNTER_WAIT, CNT_TARGET, 77, 0, 0, 0);
	c.aux = CNT_ID;
	c.operand = total;
	submit(CNT_TARGET, &c);
	tap_ok(pump_until(1) && last.kind == LOOM_CQE_COUNTER && last.tag == 77 &&
	       last.value == total, "COUNTER_WAIT on a reached threshold completes at once");
}

/* ---- refusals ---- */

#define ERR_SRC		1u
#define ERR_DST		6u	/* three hops away */

static uint32_t drops(unsigned int card, uint32_t field)
{
	return fh_rd32(&f.fh[card], CARD_OFF_COUNTERS + field);
}

static bool expect_status(struct loom_cmd c, uint8_t status, const char *what)
{
	n_cqes = 0;
	on_cqe = keep_last;
	submit(ERR_SRC, &c);
	if (!pump_until(1) || last.kind != LOOM_CQE_LOCAL || last.status != status ||
	    last.tag != c.tag) {
		tap_diag("%s: kind %u tag %llu status %u, expected status %u", what, last.kind,
			 (unsigned long long)last.tag, last.status, status);
		return false;
	}
	return true;
}

/* @c from the other partition's context: one LOCAL completion with REMOTE_KEY */
static bool expect_alien(struct fh_ctx *alien, struct loom_cmd c, const char *what)
{
	struct loom_cqe e = { 0 };

	c.key = KEY;	/* the target's key, forged into the descriptor */
	if (!fh_submit(alien, &c) || fh_wait_cqe(alien, &e, TIMEOUT_MS) != 1 ||
	    e.kind != LOOM_CQE_LOCAL || e.status != LOOM_CQE_ST_REMOTE_KEY || e.tag != c.tag) {
		tap_diag("%s: kind %u tag %llu status %u, expected status %u (REMOTE_KEY)", what,
			 e.kind, (unsigned long long)e.tag, e.status, LOOM_CQE_ST_REMOTE_KEY);
		return false;
	}
	return true;
}

static void test_refusals(void)
{
	uint32_t key0 = drops(ERR_DST, LOOM_CNT_DROP_KEY);
	uint32_t bounds0 = drops(ERR_DST, LOOM_CNT_DROP_BOUNDS);
	uint32_t noctx0 = drops(ERR_DST, LOOM_CNT_DROP_NO_CTX);
	uint64_t counters_before = cnt[ERR_DST][CNT_ID];
	struct fh_ctx alien;
	struct loom_cmd c;
	bool ok, leaked = false;

	memset(ctx[ERR_DST].segp + OFF_CNT, 0xc5, CNT_AREA);
	ok = fh_ctx_create(&f.fh[ERR_SRC], &alien, ALIEN_CTX, ALIEN_KEY, 4, 6, SEG) ==
	     LOOM_ADMIN_E_OK;
	c = cmd(LOOM_OP_PUT, ERR_DST, 1, 0, OFF_CNT, 600);	/* 3 packets */
	ok = ok && expect_alien(&alien, c, "put from another partition");
	c = cmd(LOOM_OP_GET, ERR_DST, 2, OFF_GETS, 0, 300);	/* 2 requests */
	ok = ok && expect_alien(&alien, c, "get from another partition");
	c = amo(ERR_DST, 3, LOOM_AMO_FETCH_ADD, OFF_CNT, 1, 0);
	ok = ok && expect_alien(&alien, c, "atomic from another partition");
	c = cmd(LOOM_OP_PUT_COUNTED, ERR_DST, 10, 0, OFF_CNT + 1000, 300);	/* 2 packets */
	c.aux = CNT_ID;
	ok = ok && expect_alien(&alien, c, "counted put from another partition");
	/* the get brought nothing of the target's segment into the alien's */
	for (unsigned int o = 0; o < 300; o++)
		leaked |= alien.segp[OFF_GETS + o] != 0;
	tap_ok(ok && !leaked && drops(ERR_DST, LOOM_CNT_DROP_KEY) - key0 == 8,
	       "another partition (descriptor key forged to the target's): PUT, GET, ATOMIC, COUNTED_PUT -> REMOTE_KEY, nothing read; target DROP_KEY +8 (one per packet): +%u",
	       drops(ERR_DST, LOOM_CNT_DROP_KEY) - key0);

	ok = true;
	c = cmd(LOOM_OP_PUT, ERR_DST, 4, 0, SEG - 100, 200);
	ok &= expect_status(c, LOOM_CQE_ST_REMOTE_BOUNDS, "put past the segment");
	c = cmd(LOOM_OP_GET, ERR_DST, 5, OFF_GETS, SEG - 8, 16);
	ok &= expect_status(c, LOOM_CQE_ST_REMOTE_BOUNDS, "get past the segment");
	c = amo(ERR_DST, 6, LOOM_AMO_SWAP, SEG, 1, 0);
	ok &= expect_status(c, LOOM_CQE_ST_REMOTE_BOUNDS, "atomic past the segment");
	c = cmd(LOOM_OP_PUT_COUNTED, ERR_DST, 7, 0, OFF_CNT, 100);
	c.aux = LOOM_CTX_COUNTERS + 88;
	ok &= expect_status(c, LOOM_CQE_ST_COUNTER, "counted put to counter 600");
	tap_ok(ok && drops(ERR_DST, LOOM_CNT_DROP_BOUNDS) - bounds0 == 4,
	       "bounds: PUT, GET, ATOMIC -> REMOTE_BOUNDS, counter 600 -> COUNTER; DROP_BOUNDS +4: +%u",
	       drops(ERR_DST, LOOM_CNT_DROP_BOUNDS) - bounds0);

	c = cmd(LOOM_OP_PUT, ERR_DST, 8, 0, 0, 10);
	c.dst_ctx = CTX + 5;
	ok = expect_status(c, LOOM_CQE_ST_NO_CTX, "put to a stopped context");
	c = cmd(LOOM_OP_GET, ERR_DST, 9, OFF_GETS, 0, 10);
	c.dst_ctx = CTX + 5;
	ok &= expect_status(c, LOOM_CQE_ST_NO_CTX, "get from a stopped context");
	tap_ok(ok && drops(ERR_DST, LOOM_CNT_DROP_NO_CTX) - noctx0 == 2,
	       "stopped context: NO_CTX; DROP_NO_CTX +2: +%u",
	       drops(ERR_DST, LOOM_CNT_DROP_NO_CTX) - noctx0);

	ok = cnt[ERR_DST][CNT_ID] == counters_before;
	for (unsigned int o = 0; o < CNT_AREA; o++)
		ok &= ctx[ERR_DST].segp[OFF_CNT + o] == 0xc5;
	tap_ok(ok, "refused operations wrote nothing at the target");
}

/* ---- forward progress across a card's death ---- */

#define DEAD		7u
#define DEATH_OPS	12u
static uint8_t death_seen[2][DEATH_OPS];

static void check_death(unsigned int card, const struct loom_cqe *e)
{
	unsigned int src = card == 0 ? 0 : 1, k = (unsigned int)(e->tag & 0xff);
	bool st_ok = e->status == LOOM_CQE_ST_OK || e->status == LOOM_CQE_ST_LINK ||
		     e->status == LOOM_CQE_ST_DISCARDED || e->status == LOOM_CQE_ST_UNREACHABLE;

	if (e->kind == LOOM_CQE_LOCAL && (card == 0 || card == 2) && k < DEATH_OPS && st_ok &&
	    !death_seen[src][k]++) {
		good++;
		if (e->status != LOOM_CQE_ST_OK)
			bad++;	/* here: failed ones, which are fine */
		return;
	}
	tap_diag("card %u: kind %u tag 0x%llx status %u (seen %u)", card, e->kind,
		 (unsigned long long)e->tag, e->status, k < DEATH_OPS ? death_seen[src][k] : 0);
}

static void test_card_death(void)
{
	uint64_t t0;
	bool ok;

	n_cqes = good = bad = 0;
	on_cqe = check_death;
	for (unsigned int k = 0; k < DEATH_OPS; k++) {
		for (unsigned int i = 0; i <= 2; i += 2) {
			struct loom_cmd c = k % 3 == 2 ?
				amo(DEAD, k, LOOM_AMO_FETCH_ADD, OFF_FADD, 1, 0) :
				cmd(LOOM_OP_GET, DEAD, k, 0, 0, 100000);

			submit(i, &c);
		}
	}
	usleep(3000);
	kill(f.pid[DEAD], SIGKILL);
	waitpid(f.pid[DEAD], NULL, 0);
	f.pid[DEAD] = 0;
	t0 = fh_now_ms();
	ok = pump_until(2 * DEATH_OPS) && good == 2 * DEATH_OPS;
	tap_ok(ok, "card %u killed under 24 GETs and atomics from 3 hops: each completed once (%u with an error) in %llu ms",
	       DEAD, bad, (unsigned long long)(fh_now_ms() - t0));

	n_cqes = 0;
	on_cqe = keep_last;
	{
		struct loom_cmd c = cmd(LOOM_OP_GET, DEAD, 99, 0, 0, 64);

		submit(0, &c);
	}
	t0 = fh_now_ms();
	ok = pump_until(1) && last.tag == 99 && last.status != LOOM_CQE_ST_OK &&
	     fh_now_ms() - t0 < HIF_OP_TIMEOUT_MS;
	tap_ok(ok, "a new GET to the dead card fails without waiting for the op timer (status %u)",
	       last.status);
}

int main(void)
{
	bool up;

	tap_plan(19);
	up = fabric_init(&f, 120) == 0;
	/* bad descriptors (keys, bounds, counter ids) reach the cards: sanitized cards */
	f.sanitized_card = true;
	up = up && rma_torus_start(&f) == 0;
	for (unsigned int i = 0; up && i < N_CARDS; i++) {
		up = rma_ctx_create(&f, i, &ctx[i], CTX, KEY, SEG, &cnt[i]) == LOOM_ADMIN_E_OK;
		for (uint64_t o = 0; up && o < LEN; o++)
			ctx[i].segp[o] = pattern(i, o);
	}
	if (!tap_ok(up, "2x2x2 torus of 8 cards up, a context with a counters page on each")) {
		for (unsigned int i = 0; i < N_CARDS; i++)
			fabric_dump_log(&f, i);
		return 1;
	}
	test_alltoall();
	test_fetch_add();
	test_cswap();
	test_swap();
	test_counted();
	test_refusals();
	{
		bool alive = true;

		for (unsigned int i = 0; i < N_CARDS; i++)
			alive &= fabric_card_alive(&f, i) != 0;
		tap_ok(alive, "every card still running");
	}
	test_card_death();
	if (tap.failed)
		for (unsigned int i = 0; i < N_CARDS; i++)
			fabric_dump_log(&f, i);
	fabric_stop();
	return tap.failed ? 1 : 0;
}
