// SPDX-License-Identifier: GPL-2.0
/*
 * Table-based multicast on 4 cards in lockstep (a ring: port 0 of card i
 * to port 1 of card i+1).  Card 0's host multicasts a put of 21 packets
 * to group 5, whose tree branches at the root: one copy toward card 1
 * (port 0), one toward card 3 (port 1); card 1 keeps a copy for its host
 * and forwards one to card 2.  Every member's bytes land in its entry's
 * context, and the root posts one LOCAL completion, after the last of
 * the members' acknowledgements.  Refused at the root: a group beyond the
 * table, an entry not valid, dst_ctx not 0, the flag on a GET.  A member
 * whose context is in another partition answers REMOTE_KEY and nothing
 * is written there.  A member card drops a multicast packet that is not
 * a PUT request, or whose group has no valid entry with a host copy, and
 * counts it.
 */
#include "lockstep.h"
#include "mcast.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

/* Setup failed: say why and stop (the plan is not followed: a failure). */
#define setup_fail(...) do { tap_diag(__VA_ARGS__); return 1; } while (0)

#define CARDS		4
#define KEY		0x10c5u
#define OTHER_KEY	0x2222u
#define SEG		(1u << 18)
#define LEN		(20u * 256 + 100)	/* 21 packets, the last one short */
#define SRC_OFF		4096
#define DST_OFF		65536
#define GROUP		5
#define RAM		(4u << 20)
#define MAX_CYCLES	20000000ull

static const unsigned int member_ctx[CARDS] = { 2, 3, 4, 3 };

static uint8_t pattern(uint32_t off, unsigned int round)
{
	return (uint8_t)(off * 7 + (off >> 8) + round * 91 + 1);
}

static struct lockstep ls;
static struct fh_ctx ctx[CARDS];

static void set_entry(unsigned int card, unsigned int group, uint32_t ports, bool host,
		      unsigned int members)
{
	struct mcast_entry e = {
		.valid = true, .host = host, .ports = ports,
		.host_ctx = (uint16_t)member_ctx[card], .members = (uint16_t)members,
	};

	mcast_set(&ls.c[card]->card, group, &e);
}

/* Run until card 0 has a completion (or @max cycles); how many it got. */
static unsigned int root_completions(struct loom_cqe *out, unsigned int max_n, uint64_t max)
{
	uint64_t start = ls.cycle;
	unsigned int n = 0;

	while (ls.cycle - start < max) {
		ls_run(&ls, 1000, true);
		while (n < max_n && fh_poll_cqe(&ctx[0], &out[n]) == 1)
			n++;
		if (ls_next_event(&ls) == UINT64_MAX)
			break;
	}
	return n;
}

/* Bytes of member @card's segment at DST_OFF that differ from round @round. */
static unsigned int member_diff(unsigned int card, unsigned int round, uint32_t *first)
{
	unsigned int bad = 0;

	for (uint32_t o = 0; o < LEN; o++)
		if (ctx[card].segp[DST_OFF + o] != pattern(o, round) && !bad++)
			*first = o;
	return bad;
}

static struct loom_cmd mput(unsigned int group, uint64_t tag)
{
	struct loom_cmd m = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL | LOOM_CMD_F_MCAST,
		.dst_node = group, .tag = tag, .local_off = SRC_OFF, .remote_off = DST_OFF,
		.length = LEN,
	};

	return m;
}

/*
 * The put to group 5: run in steps of 10 cycles; when the root's
 * completion appears, every member must already have all its bytes (they
 * land before the member acknowledges).
 */
static void multicast_ok(void)
{
	struct loom_cqe e[4];
	unsigned int n = 0, bad = 0, at_done[CARDS] = { 0 };
	uint32_t first = 0;
	uint64_t start = ls.cycle, done_at = 0;

	while (!n && ls.cycle - start < MAX_CYCLES && ls_next_event(&ls) != UINT64_MAX) {
		ls_run(&ls, 10, false);
		if (fh_poll_cqe(&ctx[0], &e[0]) == 1) {
			n = 1;
			done_at = ls.cycle - start;
			for (unsigned int m = 1; m < CARDS; m++)
				at_done[m] = member_diff(m, 0, &first);
		}
	}
	n += root_completions(e + 1, 3, 200000);
	for (unsigned int m = 1; m < CARDS; m++) {
		unsigned int d = member_diff(m, 0, &first);

		if (d) {
			tap_diag("member card %u context %u: %u bytes wrong, the first at %u: 0x%02x, not 0x%02x",
				 m, member_ctx[m], d, first, ctx[m].segp[DST_OFF + first],
				 pattern(first, 0));
			bad++;
		}
	}
	tap_ok(!bad, "group 5: the %u bytes in every member's segment (cards 1, 2, 3)", LEN);
	tap_ok(n == 1 && e[0].tag == 0x51 && e[0].status == LOOM_CQE_ST_OK &&
	       e[0].value == (uint64_t)LEN * 3 && e[0].kind == LOOM_CQE_LOCAL,
	       "one LOCAL completion at the root: %u completions, tag 0x%llx status %u value %llu (want OK, %u bytes x 3 members)",
	       n, n ? (unsigned long long)e[0].tag : 0ull, n ? e[0].status : 0,
	       n ? (unsigned long long)e[0].value : 0ull, LEN);
	tap_ok(n && !at_done[1] && !at_done[2] && !at_done[3],
	       "when it appeared (cycle %llu) every member had its bytes: %u, %u, %u bytes missing at cards 1, 2, 3",
	       (unsigned long long)done_at, at_done[1], at_done[2], at_done[3]);
}

/* Each command refused at the root with @want, nothing sent. */
static void refused(const char *what, const struct loom_cmd *cmd, uint8_t want)
{
	struct loom_cqe e;
	unsigned int n;
	uint64_t pkts = router_port_counters(ls.c[0]->card.router, ls.c[0]->card.host_port)->pkts_in;

	if (!fh_submit(&ctx[0], cmd)) {
		tap_ok(0, "%s: command ring full", what);
		return;
	}
	n = root_completions(&e, 1, 2000000);
	tap_ok(n == 1 && e.status == want &&
	       router_port_counters(ls.c[0]->card.router, ls.c[0]->card.host_port)->pkts_in == pkts,
	       "%s: completion status %d (want %u), packets into the router %llu", what,
	       n ? e.status : -1, want,
	       (unsigned long long)(router_port_counters(ls.c[0]->card.router,
							 ls.c[0]->card.host_port)->pkts_in - pkts));
}

/* A crafted multicast packet delivered at card 3's host port: dropped and counted. */
static void member_drops(const char *what, uint8_t type, uint8_t class, uint16_t group,
			 uint32_t counter)
{
	struct card *c = &ls.c[3]->card;
	uint8_t payload[64];
	struct loom_pkt_hdr h = {
		.type = type, .class = class, .len = sizeof(payload), .dst_node = group,
		.flags = LOOM_PKT_F_MCAST, .src_node = 0, .src_ctx = (uint16_t)member_ctx[0],
		.key = KEY, .op_id = 77, .offset = DST_OFF, .op_len = sizeof(payload),
		.aux = DST_OFF,
	};
	uint32_t before = card_rd32(c, CARD_OFF_COUNTERS + counter);
	uint64_t injected = c->hp.injected;
	uint8_t seg0 = ctx[3].segp[DST_OFF];

	memset(payload, 0xee, sizeof(payload));
	card_host_deliver(c, &h, payload, sizeof(payload));
	ls_run(&ls, 20000, true);
	tap_ok(card_rd32(c, CARD_OFF_COUNTERS + counter) == before + 1 &&
	       c->hp.injected == injected && ctx[3].segp[DST_OFF] == seg0,
	       "%s: counted (%u -> %u), %llu answers sent, segment byte 0x%02x (was 0x%02x)", what,
	       before, card_rd32(c, CARD_OFF_COUNTERS + counter),
	       (unsigned long long)(c->hp.injected - injected), ctx[3].segp[DST_OFF], seg0);
}

int main(void)
{
	char err[256];
	struct loom_cmd cmd;
	struct loom_cqe e[2];
	unsigned int n;
	uint32_t first = 0;

	tap_plan(12);
	if (ls_init(&ls, CARDS, 2, RAM, NULL, err, sizeof(err)) || ls_ring(&ls, err, sizeof(err)))
		setup_fail("lockstep: %s", err);
	if (!ls_train(&ls, 1000000))
		setup_fail("links not up after %llu cycles", (unsigned long long)ls.cycle);
	for (unsigned int i = 0; i < CARDS; i++) {
		if (fh_ctx_create(&ls.c[i]->fh, &ctx[i], member_ctx[i], KEY, 8, 9, SEG) !=
		    LOOM_ADMIN_E_OK)
			setup_fail("card %u: context %u enable failed", i, member_ctx[i]);
		memset(ctx[i].segp, 0, SEG);
	}
	for (uint32_t o = 0; o < LEN; o++)
		ctx[0].segp[SRC_OFF + o] = pattern(o, 0);
	/* the tree of group 5: 0 -> {1, 3}, 1 -> {host, 2}, 2 -> host, 3 -> host */
	set_entry(0, GROUP, 1u << 0 | 1u << 1, false, 3);
	set_entry(1, GROUP, 1u << 0, true, 0);
	set_entry(2, GROUP, 0, true, 0);
	set_entry(3, GROUP, 0, true, 0);
	cmd = mput(GROUP, 0x51);
	if (!fh_submit(&ctx[0], &cmd))
		setup_fail("command ring full");
	multicast_ok();

	cmd = mput(CARD_MCAST_GROUPS, 0x60);
	refused("group 256 (beyond the 256-entry table)", &cmd, LOOM_CQE_ST_UNREACHABLE);
	cmd = mput(9, 0x61);
	refused("group 9 (entry not valid)", &cmd, LOOM_CQE_ST_UNREACHABLE);
	cmd = mput(GROUP, 0x62);
	cmd.dst_ctx = 3;
	refused("dst_ctx 3", &cmd, LOOM_CQE_ST_BAD_DESC);
	cmd = mput(GROUP, 0x63);
	cmd.opcode = LOOM_OP_GET;
	refused("the flag on a GET", &cmd, LOOM_CQE_ST_BAD_DESC);

	/* card 2's member context in another partition: REMOTE_KEY, nothing written there */
	fh_admin(&ls.c[2]->fh, LOOM_ADMIN_CMD_CTX_DISABLE, member_ctx[2], 1000);
	if (fh_ctx_create(&ls.c[2]->fh, &ctx[2], member_ctx[2], OTHER_KEY, 8, 9, SEG) !=
	    LOOM_ADMIN_E_OK)
		setup_fail("card 2: context %u enable in partition 0x%x failed", member_ctx[2],
			 OTHER_KEY);
	memset(ctx[2].segp, 0, SEG);
	for (uint32_t o = 0; o < LEN; o++)
		ctx[0].segp[SRC_OFF + o] = pattern(o, 1);
	cmd = mput(GROUP, 0x70);
	if (!fh_submit(&ctx[0], &cmd))
		setup_fail("command ring full");
	n = root_completions(e, 2, MAX_CYCLES);
	tap_ok(n == 1 && e[0].tag == 0x70 && e[0].status == LOOM_CQE_ST_REMOTE_KEY &&
	       e[0].value == (uint64_t)LEN * 2,
	       "card 2's context in another partition: %u completions, status %d value %llu (want REMOTE_KEY, %u bytes x 2 members)",
	       n, n ? e[0].status : -1, n ? (unsigned long long)e[0].value : 0ull, LEN);
	{
		unsigned int zero = 0;

		for (uint32_t o = 0; o < SEG; o++)
			zero += ctx[2].segp[o] == 0;
		tap_ok(zero == SEG && !member_diff(1, 1, &first) && !member_diff(3, 1, &first),
		       "nothing written at card 2 (%u of %u bytes still zero); cards 1 and 3 have the bytes",
		       zero, SEG);
	}

	member_drops("a multicast GET request", LOOM_PKT_GET_REQ, LOOM_CLASS_REQ, GROUP,
		     LOOM_CNT_DROP_MALFORMED);
	member_drops("a multicast PUT_ACK", LOOM_PKT_PUT_ACK, LOOM_CLASS_RESP, GROUP,
		     LOOM_CNT_DROP_MALFORMED);
	member_drops("a multicast PUT of group 9 (no valid entry)", LOOM_PKT_PUT, LOOM_CLASS_REQ, 9,
		     LOOM_CNT_DROP_NO_ROUTE);
	ls_free(&ls);
	return tap_exit_status();
}
