// SPDX-License-Identifier: GPL-2.0
/*
 * BSUs in memory.  First the state machine alone (bsu_local_op,
 * bsu_wire_in): barrier, eureka, eureka+barrier, illegal ops ignored and
 * counted, packets that do not fit the tree refused.  Then four whole
 * cards in one process (the lockstep harness: router, link units and
 * in-process wires, one clock), driven through their registers exactly as
 * a driver would (minus kicks: the test runs service rounds):
 *
 *        card 0 (root)
 *    port 0 /    \ port 1
 *   port 1 /      \ port 1
 *     card 1      card 2
 *    port 0 |
 *   port 1  |
 *     card 3
 *
 * Barrier rounds with every join order, no completion before the last
 * join, eureka from each card, eureka+barrier, reuse, a port that is down
 * holding barrier packets (delayed, not lost), malformed barrier packets.
 * Partitions: units owned in one partition complete (a router that only
 * passes the barrier on need not own it); a card holding the unit in
 * another partition refuses the packets, counts them, changes nothing, and
 * the senders' subtree ends its round with the error (REFUSED + 1).
 */
#include "bsu.h"
#include "card.h"
#include "lockstep.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define N_CARDS	4
#define BSU	5	/* the unit the fabric tests use */

/* ---- the state machine alone ---------------------------------------- */

static const struct bsu_tree host_only = { LOOM_BSU_CHILD_HOST, LOOM_BSU_ROOT };

static void test_logic(void)
{
	struct bsu_tree mid = { LOOM_BSU_CHILD_HOST | 1u << 2, 0 };	/* parent port 0 */
	struct bsu_unit u;
	struct bsu_out out;
	bool ok;

	bsu_unit_reset(&u);
	ok = u.state == LOOM_BSU_S_BAR && bsu_local_op(&u, host_only, LOOM_BSU_OP_BAR, &out) &&
	     u.state == LOOM_BSU_S_BAR && u.completions == 1 && out.host_event && out.n == 0;
	tap_ok(ok, "logic: a barrier of one completes at once (S_BAR -> S_ARM -> S_BAR)");

	bsu_unit_reset(&u);
	ok = bsu_local_op(&u, mid, LOOM_BSU_OP_BAR, &out) && u.state == LOOM_BSU_S_ARM &&
	     out.n == 0 && u.arrived == LOOM_BSU_CHILD_HOST;
	ok = ok && bsu_wire_in(&u, mid, 2, LOOM_BSU_WIRE_BAR_UP, &out) && out.n == 1 &&
	     out.msg[0].op == LOOM_BSU_WIRE_BAR_UP && out.msg[0].ports == 1u && u.arrived == 0 &&
	     u.state == LOOM_BSU_S_ARM;
	ok = ok && bsu_wire_in(&u, mid, 0, LOOM_BSU_WIRE_BAR_DOWN, &out) && out.n == 1 &&
	     out.msg[0].op == LOOM_BSU_WIRE_BAR_DOWN && out.msg[0].ports == 1u << 2 &&
	     u.state == LOOM_BSU_S_BAR && u.completions == 1;
	tap_ok(ok, "logic: inner router joins upward only when host and child joined, completion flows down");

	bsu_unit_reset(&u);
	ok = bsu_local_op(&u, mid, LOOM_BSU_OP_EUR, &out) && u.state == LOOM_BSU_S_EUR &&
	     out.n == 1 && out.msg[0].op == LOOM_BSU_WIRE_EUR_UP;
	ok = ok && bsu_wire_in(&u, mid, 2, LOOM_BSU_WIRE_EUR_UP, &out) && out.n == 0;
	ok = ok && bsu_local_op(&u, mid, LOOM_BSU_OP_EUR, &out) && out.n == 0 && !u.illegal;
	ok = ok && bsu_wire_in(&u, mid, 0, LOOM_BSU_WIRE_EUR_DOWN, &out) && out.n == 1 &&
	     out.msg[0].op == LOOM_BSU_WIRE_EUR_DOWN && u.eurekas == 1 && u.state == LOOM_BSU_S_EUR;
	ok = ok && bsu_local_op(&u, mid, LOOM_BSU_OP_BAR, &out) && u.state == LOOM_BSU_S_ARM;
	ok = ok && bsu_wire_in(&u, mid, 2, LOOM_BSU_WIRE_BAR_UP, &out) &&
	     bsu_wire_in(&u, mid, 0, LOOM_BSU_WIRE_BAR_DOWN, &out) && u.state == LOOM_BSU_S_BAR &&
	     !u.eureka && u.completions == 1;
	tap_ok(ok, "logic: eureka goes up once per round (a second one is absorbed), comes down, barrier resets it");

	bsu_unit_reset(&u);
	ok = bsu_local_op(&u, host_only, LOOM_BSU_OP_EUR_B, &out) && u.state == LOOM_BSU_S_BAR &&
	     u.eurekas == 1 && u.completions == 1;
	tap_ok(ok, "logic: OP_EUR_B = eureka and join (root with the host alone: both complete)");

	bsu_unit_reset(&u);
	ok = bsu_local_op(&u, mid, LOOM_BSU_OP_BAR, &out) &&
	     !bsu_local_op(&u, mid, LOOM_BSU_OP_BAR, &out) &&
	     !bsu_local_op(&u, mid, LOOM_BSU_OP_EUR, &out) &&
	     !bsu_local_op(&u, mid, LOOM_BSU_OP_EUR_B, &out) && u.illegal == 3 &&
	     u.state == LOOM_BSU_S_ARM && u.arrived == LOOM_BSU_CHILD_HOST && out.n == 0;
	bsu_unit_reset(&u);
	ok = ok && !bsu_local_op(&u, mid, 0, &out) && !bsu_local_op(&u, mid, 4, &out) &&
	     !bsu_local_op(&u, mid, 0xffffffffu, &out) && u.illegal == 3 && u.state == LOOM_BSU_S_BAR;
	bsu_unit_reset(&u);
	mid.children = 1u << 2;	/* the host is not in the tree */
	ok = ok && !bsu_local_op(&u, mid, LOOM_BSU_OP_BAR, &out) && u.illegal == 1 &&
	     u.state == LOOM_BSU_S_BAR && !u.arrived;
	mid.children |= LOOM_BSU_CHILD_HOST;
	tap_ok(ok, "logic: illegal ops (join twice, eureka when armed, unknown, not in the tree) ignored and counted");

	bsu_unit_reset(&u);
	ok = !bsu_wire_in(&u, mid, 3, LOOM_BSU_WIRE_BAR_UP, &out) &&	/* not a child */
	     !bsu_wire_in(&u, mid, 0, LOOM_BSU_WIRE_BAR_UP, &out) &&	/* the parent */
	     !bsu_wire_in(&u, mid, 2, LOOM_BSU_WIRE_BAR_DOWN, &out) &&	/* not the parent */
	     !bsu_wire_in(&u, host_only, 0, LOOM_BSU_WIRE_EUR_DOWN, &out) && /* root */
	     !bsu_wire_in(&u, mid, 2, 0, &out) && !bsu_wire_in(&u, mid, 2, 6, &out) &&
	     !bsu_wire_in(&u, mid, 99, LOOM_BSU_WIRE_BAR_UP, &out);
	ok = ok && !u.arrived && !u.eureka && u.state == LOOM_BSU_S_BAR && !u.completions;
	tap_ok(ok, "logic: packets off the tree or with unknown ops refused without effect");

	/* REFUSED from the parent ends the round below; from a child: nothing */
	bsu_unit_reset(&u);
	ok = bsu_local_op(&u, mid, LOOM_BSU_OP_BAR, &out) &&
	     bsu_wire_in(&u, mid, 2, LOOM_BSU_WIRE_BAR_UP, &out) && u.state == LOOM_BSU_S_ARM;
	ok = ok && bsu_wire_in(&u, mid, 0, LOOM_BSU_WIRE_REFUSED, &out) && out.n == 1 &&
	     out.msg[0].op == LOOM_BSU_WIRE_REFUSED && out.msg[0].ports == 1u << 2 &&
	     out.host_event && u.state == LOOM_BSU_S_BAR && u.completions == 1 && u.refused == 1 &&
	     !u.arrived && !u.eureka;
	ok = ok && bsu_wire_in(&u, mid, 2, LOOM_BSU_WIRE_REFUSED, &out) && out.n == 0 &&
	     !out.host_event && u.refused == 1 && u.completions == 1;
	ok = ok && !bsu_wire_in(&u, mid, 5, LOOM_BSU_WIRE_REFUSED, &out) && u.refused == 1;
	tap_ok(ok, "logic: REFUSED from the parent ends the round with the error and goes on down; from a child nothing; off the tree refused");
}

/* ---- four cards in lockstep, cabled by in-process wires ---------------- */

static struct lockstep ls;
static uint8_t *regs[N_CARDS];
#define CARD(i)	(&ls.c[i]->card)
#define WIRE_1_3	2	/* the cable between card 1 port 0 and card 3 port 1 */

static void wr(unsigned int c, uint32_t off, uint32_t v) { memcpy(regs[c] + off, &v, 4); }
static uint32_t rd(unsigned int c, uint32_t off) { uint32_t v; memcpy(&v, regs[c] + off, 4); return v; }

static uint32_t page(unsigned int b, uint32_t field)
{
	return CARD_BSU_AREA + b * LOOM_BSU_PAGE_SIZE + field;
}

static uint32_t tree(unsigned int b, uint32_t field)
{
	return CARD_OFF_BSU + LOOM_BSU_TREE_BASE + b * LOOM_BSU_TREE_SIZE + field;
}

/* Service rounds (the BSU pages were written) and run the fabric until idle. */
static void settle(void)
{
	for (int round = 0; round < 4; round++) {
		for (unsigned int c = 0; c < N_CARDS; c++)
			card_service(CARD(c));
		ls_run(&ls, 4000000, true);
	}
}

static void op(unsigned int c, unsigned int b, uint32_t o)
{
	wr(c, page(b, LOOM_BSUP_OP), o);
}

static uint32_t state(unsigned int c, unsigned int b) { return rd(c, page(b, LOOM_BSUP_STATE)); }
static uint32_t done(unsigned int c, unsigned int b) { return rd(c, page(b, LOOM_BSUP_COMPLETIONS)); }
static uint32_t eur(unsigned int c, unsigned int b) { return rd(c, page(b, LOOM_BSUP_EUREKAS)); }

static void set_tree(unsigned int c, unsigned int b, uint32_t children, uint32_t parent)
{
	wr(c, tree(b, LOOM_BSUT_CHILDREN), children);
	wr(c, tree(b, LOOM_BSUT_PARENT), parent);
}

static bool setup_cards(void)
{
	static const unsigned int cable[3][4] = { { 0, 0, 1, 1 }, { 0, 1, 2, 1 }, { 1, 0, 3, 1 } };
	char err[256];

	if (ls_init(&ls, N_CARDS, 2, 1u << 20, NULL, err, sizeof(err))) {
		tap_diag("%s", err);
		return false;
	}
	for (unsigned int w = 0; w < 3; w++)
		if (ls_cable(&ls, cable[w][0], cable[w][1], cable[w][2], cable[w][3], w + 1, err,
			     sizeof(err))) {
			tap_diag("%s", err);
			return false;
		}
	if (!ls_train(&ls, 1000000)) {
		tap_diag("links not up after %llu cycles", (unsigned long long)ls.cycle);
		return false;
	}
	for (unsigned int c = 0; c < N_CARDS; c++)
		regs[c] = ls.c[c]->regs;
	set_tree(0, BSU, LOOM_BSU_CHILD_HOST | 3u, LOOM_BSU_ROOT);
	set_tree(1, BSU, LOOM_BSU_CHILD_HOST | 1u, 1);
	set_tree(2, BSU, LOOM_BSU_CHILD_HOST, 1);
	set_tree(3, BSU, LOOM_BSU_CHILD_HOST, 1);
	return true;
}

static bool chain_has_bsu(unsigned int c)
{
	uint32_t off = 0;

	for (int i = 0; i < LOOM_BLK_MAX_CHAIN && off + LOOM_BLK_HDR_SIZE <= CARD_REGS_MIN; i++) {
		if (rd(c, off + LOOM_BLK_TYPE) == LOOM_BLK_BSU)
			return rd(c, off + LOOM_BLK_VERSION) == LOOM_BSU_VERSION &&
			       rd(c, off + LOOM_BSU_N_UNITS) == LOOM_BSU_COUNT &&
			       rd(c, off + LOOM_BSU_PAGE_AREA) == CARD_BSU_AREA &&
			       CARD_BSU_AREA % LOOM_BSU_PAGE_SIZE == 0 &&
			       rd(c, off + LOOM_BSU_PAGE_STRIDE) == LOOM_BSU_PAGE_SIZE &&
			       CARD_REGS_MIN <= LOOM_LAB_SHM_SIZE;
		off = rd(c, off + LOOM_BLK_NEXT);
		if (!off)
			break;
	}
	return false;
}

/* One barrier round, cards joining in @order; checks nobody completes early. */
static bool barrier_round(const unsigned int order[N_CARDS], const char **why)
{
	uint32_t before[N_CARDS];

	for (unsigned int c = 0; c < N_CARDS; c++)
		before[c] = done(c, BSU);
	for (unsigned int i = 0; i < N_CARDS; i++) {
		op(order[i], BSU, LOOM_BSU_OP_BAR);
		settle();
		for (unsigned int c = 0; c < N_CARDS; c++) {
			bool last = i == N_CARDS - 1;
			uint32_t want = before[c] + (last ? 1 : 0);

			if (done(c, BSU) != want) {
				*why = last ? "a card did not complete" : "a card completed early";
				return false;
			}
		}
		if (i < N_CARDS - 1 && state(order[i], BSU) != LOOM_BSU_S_ARM) {
			*why = "a joined card is not in S_ARM";
			return false;
		}
	}
	for (unsigned int c = 0; c < N_CARDS; c++)
		if (state(c, BSU) != LOOM_BSU_S_BAR || rd(c, tree(BSU, LOOM_BSUT_ARRIVED))) {
			*why = "a card is not back in S_BAR with an empty arrived set";
			return false;
		}
	return true;
}

/* Put unit @b of card @c in partition @key (or none), as the driver does. */
static void own(unsigned int c, unsigned int b, bool owned, uint32_t key)
{
	uint32_t bits = rd(c, CARD_OFF_BSU + LOOM_BSU_OWNED);

	wr(c, CARD_OFF_BSU + LOOM_BSU_KEY_BASE + 4 * b, key);
	wr(c, CARD_OFF_BSU + LOOM_BSU_OWNED, owned ? bits | 1u << b : bits & ~(1u << b));
}

static uint32_t refused(unsigned int c, unsigned int b) { return rd(c, page(b, LOOM_BSUP_REFUSED)); }
static uint32_t bsu_key_drops(unsigned int c) { return rd(c, CARD_OFF_COUNTERS + LOOM_CNT_DROP_BSU_KEY); }

#define PART_A	0x0a0a0001u
#define PART_B	0x0b0b0002u

static void test_partitions(void)
{
	static const unsigned int order[N_CARDS] = { 3, 2, 1, 0 };
	uint32_t d0[N_CARDS], r0[N_CARDS], k0[N_CARDS];
	const char *why = "";
	bool ok;

	/* one partition on every card: the barrier works as before */
	for (unsigned int c = 0; c < N_CARDS; c++)
		own(c, BSU, true, PART_A);
	ok = barrier_round(order, &why);
	/* card 1 only passes it on (its host leaves the tree): not owned */
	set_tree(1, BSU, 1u, 1);
	own(1, BSU, false, 0);
	for (unsigned int c = 0; c < N_CARDS; c++)
		d0[c] = done(c, BSU);
	op(3, BSU, LOOM_BSU_OP_BAR);
	op(2, BSU, LOOM_BSU_OP_BAR);
	op(0, BSU, LOOM_BSU_OP_BAR);
	settle();
	ok = ok && done(0, BSU) == d0[0] + 1 && done(2, BSU) == d0[2] + 1 &&
	     done(3, BSU) == d0[3] + 1;
	set_tree(1, BSU, LOOM_BSU_CHILD_HOST | 1u, 1);
	own(1, BSU, true, PART_A);
	tap_ok(ok, "partitions: units owned in one partition complete; a router that only passes the barrier on needs no partition (%s)",
	       ok ? "ok" : why);

	/* card 2 in partition B: its join is refused by card 0 (partition A) */
	own(2, BSU, true, PART_B);
	for (unsigned int c = 0; c < N_CARDS; c++) {
		d0[c] = done(c, BSU);
		r0[c] = refused(c, BSU);
		k0[c] = bsu_key_drops(c);
	}
	op(2, BSU, LOOM_BSU_OP_BAR);
	settle();
	ok = bsu_key_drops(0) == k0[0] + 1 && !rd(0, tree(BSU, LOOM_BSUT_ARRIVED)) &&
	     state(0, BSU) == LOOM_BSU_S_BAR && done(0, BSU) == d0[0] && refused(0, BSU) == r0[0];
	tap_ok(ok, "partitions: card 0 refuses card 2's join: DROP_BSU_KEY +1, its unit untouched (ARRIVED 0x%x, state %u)",
	       rd(0, tree(BSU, LOOM_BSUT_ARRIVED)), state(0, BSU));
	ok = state(2, BSU) == LOOM_BSU_S_BAR && done(2, BSU) == d0[2] + 1 &&
	     refused(2, BSU) == r0[2] + 1;
	tap_ok(ok, "partitions: card 2 sees its round end with the error: S_BAR, COMPLETIONS +1, REFUSED +1");
	/* partition A's own round cannot complete without card 2 (its child) */
	op(0, BSU, LOOM_BSU_OP_BAR);
	op(1, BSU, LOOM_BSU_OP_BAR);
	op(3, BSU, LOOM_BSU_OP_BAR);
	settle();
	ok = done(0, BSU) == d0[0] && state(0, BSU) == LOOM_BSU_S_ARM &&
	     rd(0, tree(BSU, LOOM_BSUT_ARRIVED)) == (LOOM_BSU_CHILD_HOST | 1u) &&
	     refused(0, BSU) == r0[0] && refused(1, BSU) == r0[1] && refused(3, BSU) == r0[3];
	tap_ok(ok, "partitions: partition A's round waits for the child it lacks; no error on its side (ARRIVED 0x%x)",
	       rd(0, tree(BSU, LOOM_BSUT_ARRIVED)));
	/* card 2 back in A: the waiting round completes */
	own(2, BSU, true, PART_A);
	op(2, BSU, LOOM_BSU_OP_BAR);
	settle();
	ok = true;
	for (unsigned int c = 0; c < N_CARDS; c++)
		ok = ok && state(c, BSU) == LOOM_BSU_S_BAR;
	ok = ok && done(0, BSU) == d0[0] + 1 && done(2, BSU) == d0[2] + 2;
	if (!ok)
		tap_diag("after card 2 rejoined A: states %u %u %u %u, done(0) %u (was %u), done(2) %u (was %u)",
			 state(0, BSU), state(1, BSU), state(2, BSU), state(3, BSU), done(0, BSU), d0[0],
			 done(2, BSU), d0[2]);

	/* the root in B: card 1's subtree (1 and 3, in A) is refused, both see it */
	own(0, BSU, true, PART_B);
	for (unsigned int c = 0; c < N_CARDS; c++) {
		d0[c] = done(c, BSU);
		r0[c] = refused(c, BSU);
	}
	op(3, BSU, LOOM_BSU_OP_BAR);
	op(1, BSU, LOOM_BSU_OP_BAR);
	settle();
	ok = ok && refused(1, BSU) == r0[1] + 1 && refused(3, BSU) == r0[3] + 1 &&
	     done(1, BSU) == d0[1] + 1 && done(3, BSU) == d0[3] + 1 &&
	     state(1, BSU) == LOOM_BSU_S_BAR && state(3, BSU) == LOOM_BSU_S_BAR &&
	     !rd(1, tree(BSU, LOOM_BSUT_ARRIVED)) && !rd(0, tree(BSU, LOOM_BSUT_ARRIVED)) &&
	     refused(0, BSU) == r0[0] && done(0, BSU) == d0[0];
	if (!ok)
		tap_diag("refused %u %u %u (were %u %u %u), done %u %u %u (were %u %u %u), states %u %u, arrived %x %x",
			 refused(0, BSU), refused(1, BSU), refused(3, BSU), r0[0], r0[1], r0[3],
			 done(0, BSU), done(1, BSU), done(3, BSU), d0[0], d0[1], d0[3], state(1, BSU),
			 state(3, BSU), rd(1, tree(BSU, LOOM_BSUT_ARRIVED)),
			 rd(0, tree(BSU, LOOM_BSUT_ARRIVED)));
	tap_ok(ok, "partitions: a refusal from above ends the round on the whole subtree below (cards 1 and 3), the root untouched");
	own(0, BSU, true, PART_A);
	/* a REFUSED of another partition is refused too, and never answered */
	{
		struct loom_pkt_hdr h = {
			.type = LOOM_PKT_BARRIER, .class = LOOM_CLASS_BARRIER, .key = PART_B,
			.aux = BSU | LOOM_BSU_WIRE_REFUSED << 8 | LOOM_BSU_WIRE_BAR_UP << 16,
		};
		uint32_t k = bsu_key_drops(1), r = refused(1, BSU);

		unsigned int queued = CARD(1)->hp.q[0].count;

		h.dst_node = 1;				/* from its parent, card 0, on port 1 */
		card_host_deliver(CARD(1), &h, NULL, 0);
		ok = CARD(1)->hp.q[0].count == queued && bsu_key_drops(1) == k + 1 &&
		     refused(1, BSU) == r;
		settle();
		tap_ok(ok, "partitions: a REFUSED packet of another partition is itself refused (counted, no answer, no effect)");
	}
}

static void test_cards(void)
{
	unsigned int order[N_CARDS];
	const char *why = "";
	bool ok = true;
	uint32_t e0[N_CARDS], d0[N_CARDS];
	struct loom_pkt_hdr bad;
	int rounds = 0;

	if (!tap_ok(setup_cards(), "cards: four cards initialised over register windows"))
		exit(1);
	tap_ok(chain_has_bsu(0), "cards: BSU block in the chain: 32 units, page aligned user pages inside the lab window");
	tap_ok(state(0, 0) == LOOM_BSU_S_BAR && rd(0, tree(0, LOOM_BSUT_CHILDREN)) == LOOM_BSU_CHILD_HOST &&
	       rd(0, tree(0, LOOM_BSUT_PARENT)) == LOOM_BSU_ROOT,
	       "cards: power-on state S_BAR, tree = the local host alone, root");

	/* every permutation of the join order, 5 times over (reuse) */
	for (int rep = 0; rep < 5 && ok; rep++) {
		for (unsigned int p = 0; p < 24 && ok; p++) {
			unsigned int pool[N_CARDS] = { 0, 1, 2, 3 }, k = p, n = N_CARDS;

			for (unsigned int i = 0; i < N_CARDS; i++) {
				unsigned int j = k % n;

				k /= n;
				order[i] = pool[j];
				memmove(&pool[j], &pool[j + 1], (n - j - 1) * sizeof(pool[0]));
				n--;
			}
			ok = barrier_round(order, &why);
			rounds++;
		}
	}
	tap_ok(ok, "cards: %d barrier rounds over every join order, no early completion (%s)", rounds,
	       ok ? "all completed" : why);

	ok = true;
	for (unsigned int src = 0; src < N_CARDS && ok; src++) {
		for (unsigned int c = 0; c < N_CARDS; c++) {
			e0[c] = eur(c, BSU);
			d0[c] = done(c, BSU);
		}
		op(src, BSU, LOOM_BSU_OP_EUR);
		settle();
		for (unsigned int c = 0; c < N_CARDS; c++)
			ok = ok && state(c, BSU) == LOOM_BSU_S_EUR && eur(c, BSU) == e0[c] + 1;
		for (unsigned int c = 0; c < N_CARDS; c++) {
			op(c, BSU, LOOM_BSU_OP_BAR);
			settle();
		}
		for (unsigned int c = 0; c < N_CARDS; c++)
			ok = ok && state(c, BSU) == LOOM_BSU_S_BAR && done(c, BSU) == d0[c] + 1 &&
			     !(rd(c, tree(BSU, LOOM_BSUT_FLAGS)) & LOOM_BSUT_F_EUREKA);
	}
	tap_ok(ok, "cards: eureka from each card reaches all (S_EUR, one eureka each), the barrier after it resets all");

	ok = true;
	for (unsigned int c = 0; c < N_CARDS; c++) {
		e0[c] = eur(c, BSU);
		d0[c] = done(c, BSU);
	}
	op(3, BSU, LOOM_BSU_OP_EUR_B);
	op(2, BSU, LOOM_BSU_OP_EUR);	/* a second finder in the same round */
	settle();
	ok = state(3, BSU) == LOOM_BSU_S_ARM && state(0, BSU) == LOOM_BSU_S_EUR &&
	     state(1, BSU) == LOOM_BSU_S_EUR && state(2, BSU) == LOOM_BSU_S_EUR;
	for (unsigned int c = 0; c < 3; c++) {
		op(c, BSU, LOOM_BSU_OP_BAR);
		settle();
	}
	for (unsigned int c = 0; c < N_CARDS; c++)
		ok = ok && state(c, BSU) == LOOM_BSU_S_BAR && eur(c, BSU) == e0[c] + 1 &&
		     done(c, BSU) == d0[c] + 1;
	tap_ok(ok, "cards: OP_EUR_B (and a second eureka in the same round): one eureka each, then one barrier");

	/* illegal op through the registers */
	op(1, BSU, LOOM_BSU_OP_BAR);
	settle();
	op(1, BSU, LOOM_BSU_OP_BAR);
	settle();
	op(1, BSU, 9);
	settle();
	ok = rd(1, page(BSU, LOOM_BSUP_ILLEGAL)) == 2 && state(1, BSU) == LOOM_BSU_S_ARM &&
	     rd(1, page(BSU, LOOM_BSUP_OP)) == 0;
	for (unsigned int c = 0; c < N_CARDS; c++)
		if (c != 1)
			op(c, BSU, LOOM_BSU_OP_BAR);
	settle();
	for (unsigned int c = 0; c < N_CARDS; c++)
		ok = ok && state(c, BSU) == LOOM_BSU_S_BAR;
	tap_ok(ok, "cards: illegal ops through the OP register consumed, counted in ILLEGAL, barrier unharmed");

	/* a down link holds barrier packets; they go when it comes back */
	for (unsigned int c = 0; c < N_CARDS; c++)
		d0[c] = done(c, BSU);
	op(3, BSU, LOOM_BSU_OP_BAR);	/* card 3 joins; its join reaches card 1 */
	settle();
	link_wire_cut(&ls.wire[WIRE_1_3]);	/* then the cable to card 3 goes down */
	ls_run(&ls, 1000, false);
	for (unsigned int c = 0; c < 3; c++)
		op(c, BSU, LOOM_BSU_OP_BAR);
	settle();
	ok = done(0, BSU) == d0[0] + 1 && done(1, BSU) == d0[1] + 1 && done(3, BSU) == d0[3] &&
	     state(3, BSU) == LOOM_BSU_S_ARM;
	if (!ok)
		tap_diag("port down: completions %u %u %u (before %u %u %u), card 3 state %u",
			 done(0, BSU), done(1, BSU), done(3, BSU), d0[0], d0[1], d0[3], state(3, BSU));
	link_wire_restore(&ls.wire[WIRE_1_3]);
	ls_train(&ls, 1000000);
	settle();
	if (done(3, BSU) != d0[3] + 1 || state(3, BSU) != LOOM_BSU_S_BAR)
		tap_diag("port up again: card 3 completions %u (before %u), state %u", done(3, BSU),
			 d0[3], state(3, BSU));
	ok = ok && done(3, BSU) == d0[3] + 1 && state(3, BSU) == LOOM_BSU_S_BAR;
	tap_ok(ok, "cards: completion held while the port to card 3 is down, delivered when it is up");

	/* other units are independent: unit 7 still host-only on every card */
	d0[0] = done(0, 7);
	op(0, 7, LOOM_BSU_OP_BAR);
	settle();
	tap_ok(done(0, 7) == d0[0] + 1 && done(1, 7) == 0 && state(1, BSU) == LOOM_BSU_S_BAR,
	       "cards: another unit with the power-on tree completes alone");

	test_partitions();
	for (unsigned int c = 0; c < N_CARDS; c++)
		own(c, BSU, false, 0);

	/* malformed barrier packets are dropped and counted */
	memset(&bad, 0, sizeof(bad));
	bad.type = LOOM_PKT_BARRIER;
	bad.class = LOOM_CLASS_BARRIER;
	bad.aux = BSU | LOOM_BSU_WIRE_BAR_DOWN << 8;
	card_host_deliver(CARD(1), &bad, NULL, 0);		/* down from a child port */
	bad.aux = 40 | LOOM_BSU_WIRE_BAR_UP << 8;	/* no unit 40 */
	card_host_deliver(CARD(0), &bad, NULL, 0);
	bad.aux = BSU | LOOM_BSU_WIRE_BAR_UP << 8 | 1ull << 40;	/* junk in aux */
	card_host_deliver(CARD(0), &bad, NULL, 0);
	bad.aux = BSU | LOOM_BSU_WIRE_BAR_UP << 8;
	bad.type = LOOM_PKT_PUT;			/* wrong type in the class */
	card_host_deliver(CARD(0), &bad, NULL, 0);
	bad.type = LOOM_PKT_BARRIER;
	bad.len = 8;					/* barrier packets carry nothing */
	card_host_deliver(CARD(0), &bad, NULL, 0);
	bad.len = 0;
	bad.aux = BSU | LOOM_BSU_WIRE_REFUSED << 8;	/* a refusal of no op */
	card_host_deliver(CARD(0), &bad, NULL, 0);
	settle();
	ok = rd(1, CARD_OFF_BSU + LOOM_BSU_BAD_PKTS) == 1 && rd(0, CARD_OFF_BSU + LOOM_BSU_BAD_PKTS) == 5 &&
	     !rd(0, tree(BSU, LOOM_BSUT_ARRIVED)) && state(1, BSU) == LOOM_BSU_S_BAR;
	tap_ok(ok, "cards: malformed or off-tree barrier packets dropped, counted in BAD_PKTS, no effect");

	/* reset clears the units and restores the power-on trees */
	op(2, BSU, LOOM_BSU_OP_BAR);
	settle();
	own(2, BSU, true, PART_B);
	card_reset(CARD(2));
	ok = state(2, BSU) == LOOM_BSU_S_BAR && done(2, BSU) == 0 &&
	     rd(2, tree(BSU, LOOM_BSUT_CHILDREN)) == LOOM_BSU_CHILD_HOST &&
	     rd(2, tree(BSU, LOOM_BSUT_PARENT)) == LOOM_BSU_ROOT &&
	     !rd(2, CARD_OFF_BSU + LOOM_BSU_OWNED) && !rd(2, CARD_OFF_BSU + LOOM_BSU_KEY_BASE + 4 * BSU);
	tap_ok(ok, "cards: reset puts every unit in S_BAR, the tree back to power-on, no unit in a partition");

	ls_free(&ls);
}

int main(void)
{
	tap_plan(24);
	test_logic();
	test_cards();
	return tap.failed ? 1 : 0;
}
