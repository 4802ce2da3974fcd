// SPDX-License-Identifier: GPL-2.0
/*
 * The performance counters block (LOOM_BLK_PERF) read through the
 * registers as a driver reads them, on 2 cards in lockstep: an idle card
 * has a running cycle counter and no stall, starvation or occupancy; a
 * burst of puts from card 0 to card 1 shows up as exactly its packets and
 * flits on every port it crosses (host port in, network port out, network
 * port in, host port out); the link, slower than the router, withholds
 * credits, so the sender's output VC is credit-starved and its host port's
 * input VC stalls; once idle again every buffer is empty and its
 * high-water mark stays within the buffer.
 */
#include "lockstep.h"
#include "tap.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

TAP_DEFINE;

#define CTX		3
#define KEY		0x9e2fu
#define SEG		(1u << 20)
#define RAM		(8u << 20)
#define PUTS		32
#define PUT_LEN		4096u
#define MAX_CYCLES	20000000ull

/* a failure that leaves nothing to check after it */
#define BAIL(...) do { tap_diag(__VA_ARGS__); return 1; } while (0)

static struct lockstep ls;

struct perf_port {
	uint64_t flits_in, flits_out, pkts_in, pkts_out;
	uint32_t occ[LOOM_NUM_VCS], occ_max[LOOM_NUM_VCS];
	uint64_t stall[LOOM_NUM_VCS], starved[LOOM_NUM_VCS];
};

struct perf {
	uint32_t n_ports, n_vcs, host;
	uint64_t cycles, va_conflicts, sa_conflicts;
	struct perf_port port[LOOM_MAX_PORTS + 1];
};

static uint32_t rd(unsigned int card, uint32_t off)
{
	return fh_rd32(&ls.c[card]->fh, CARD_OFF_PERF + off);
}

static uint64_t rd64(unsigned int card, uint32_t off)
{
	return rd(card, off) | (uint64_t)rd(card, off + 4) << 32;
}

/* Ask card @card for a snapshot and read the block as a driver would. */
static bool snapshot(unsigned int card, struct perf *s)
{
	static uint32_t seq = 0x5e90;
	struct fakehost *fh = &ls.c[card]->fh;

	memset(s, 0, sizeof(*s));
	fh_wr32(fh, CARD_OFF_PERF + LOOM_PERF_SNAP_SEQ, ++seq);
	fh_kick(fh, LOOM_KICK_ADMIN);
	if (rd(card, LOOM_PERF_SNAP_ACK) != seq) {
		tap_diag("card %u: SNAP_ACK %#x after SNAP_SEQ %#x and a kick", card,
			 rd(card, LOOM_PERF_SNAP_ACK), seq);
		return false;
	}
	s->n_ports = rd(card, LOOM_PERF_N_PORTS);
	s->n_vcs = rd(card, LOOM_PERF_N_VCS);
	s->host = rd(card, LOOM_PERF_HOST_PORT);
	if (s->n_ports < 1 || s->n_ports > LOOM_MAX_PORTS + 1 || !s->n_vcs ||
	    s->n_vcs > LOOM_NUM_VCS || s->host != s->n_ports - 1 ||
	    rd(card, LOOM_PERF_PORT_STRIDE) != LOOM_PERF_PORT_REC_SIZE) {
		tap_diag("card %u: geometry N_PORTS %u N_VCS %u HOST_PORT %u STRIDE %#x", card,
			 s->n_ports, s->n_vcs, s->host, rd(card, LOOM_PERF_PORT_STRIDE));
		return false;
	}
	s->cycles = rd64(card, LOOM_PERF_CYCLES);
	s->va_conflicts = rd64(card, LOOM_PERF_VA_CONFLICTS);
	s->sa_conflicts = rd64(card, LOOM_PERF_SA_CONFLICTS);
	for (unsigned int p = 0; p < s->n_ports; p++) {
		uint32_t b = LOOM_PERF_PORT_BASE + p * LOOM_PERF_PORT_REC_SIZE;
		struct perf_port *pp = &s->port[p];

		pp->flits_in = rd64(card, b + LOOM_PERFP_FLITS_IN);
		pp->flits_out = rd64(card, b + LOOM_PERFP_FLITS_OUT);
		pp->pkts_in = rd64(card, b + LOOM_PERFP_PKTS_IN);
		pp->pkts_out = rd64(card, b + LOOM_PERFP_PKTS_OUT);
		for (unsigned int v = 0; v < s->n_vcs; v++) {
			uint32_t r = b + LOOM_PERFP_VC_BASE + v * LOOM_PERF_VC_REC_SIZE;

			pp->occ[v] = rd(card, r + LOOM_PERFV_OCCUPANCY);
			pp->occ_max[v] = rd(card, r + LOOM_PERFV_OCCUPANCY_MAX);
			pp->stall[v] = rd64(card, r + LOOM_PERFV_STALL_CYCLES);
			pp->starved[v] = rd64(card, r + LOOM_PERFV_CREDIT_STARVED);
		}
	}
	return true;
}

/* Sum of a per-VC field over every (port, VC); the worst one in @where. */
static uint64_t vc_sum(const struct perf *s, size_t field_off, bool wide, char *where,
		       size_t len)
{
	uint64_t sum = 0, worst = 0;

	snprintf(where, len, "none");
	for (unsigned int p = 0; p < s->n_ports; p++)
		for (unsigned int v = 0; v < s->n_vcs; v++) {
			const uint8_t *base = (const uint8_t *)&s->port[p] + field_off;
			uint64_t x = wide ? ((const uint64_t *)(const void *)base)[v] :
					    ((const uint32_t *)(const void *)base)[v];

			sum += x;
			if (x > worst) {
				worst = x;
				snprintf(where, len, "port %u VC %u: %" PRIu64, p, v, x);
			}
		}
	return sum;
}

/* The network port of card @card that card @card's routes use toward @dst. */
static unsigned int route_port(unsigned int card, unsigned int dst)
{
	return fh_rd32(&ls.c[card]->fh, CARD_OFF_ROUTER + LOOM_ROUTER_RT +
		       dst * LOOM_ROUTER_RT_ENTRY_SIZE) & LOOM_RT_W0_PORT_MASK;
}

int main(void)
{
	struct fh_ctx ctx[2];
	struct perf idle, idle2, busy;
	char err[256], w1[96], w2[96], w3[96];
	unsigned int got = 0, bad = 0, fb, pkt_flits, out0, in1, resp1;
	uint64_t pkts, flits, start, steps;

	tap_plan(9);
	if (ls_init(&ls, 2, 2, RAM, NULL, err, sizeof(err)) || ls_ring(&ls, err, sizeof(err)))
		BAIL("lockstep: %s", err);
	if (!ls_train(&ls, 1000000))
		BAIL("links not up after %llu cycles", (unsigned long long)ls.cycle);
	for (unsigned int i = 0; i < 2; i++)
		if (fh_ctx_create(&ls.c[i]->fh, &ctx[i], CTX, KEY, 8, 9, SEG) != LOOM_ADMIN_E_OK)
			BAIL("card %u: context enable failed", i);

	/* idle */
	if (!snapshot(0, &idle))
		BAIL("no snapshot of the idle card");
	steps = ls.steps;
	ls_run(&ls, 12345, false);
	if (!snapshot(0, &idle2))
		BAIL("no second snapshot of the idle card");
	tap_ok(idle.cycles == ls.cycle - 12345 && idle2.cycles == ls.cycle &&
	       ls.steps - steps < 12345,
	       "cycle counter is the card's clock, skipped idle cycles included: %" PRIu64
	       " then %" PRIu64 " after 12345 more cycles, %" PRIu64 " of them clocked (clock %" PRIu64 ")",
	       idle.cycles, idle2.cycles, (uint64_t)(ls.steps - steps), (uint64_t)ls.cycle);
	{
		uint64_t st = vc_sum(&idle2, offsetof(struct perf_port, stall), true, w1, sizeof(w1));
		uint64_t sv = vc_sum(&idle2, offsetof(struct perf_port, starved), true, w2,
				     sizeof(w2));
		uint64_t oc = vc_sum(&idle2, offsetof(struct perf_port, occ), false, w3, sizeof(w3));

		tap_ok(!st && !sv && !oc && !idle2.va_conflicts && !idle2.sa_conflicts,
		       "idle card: no stall cycles (%" PRIu64 ", worst %s), no credit-starved cycles (%" PRIu64
		       ", worst %s), nothing buffered (%" PRIu64 ", worst %s), no allocator conflicts (VA %" PRIu64
		       ", SA %" PRIu64 ")", st, w1, sv, w2, oc, w3, idle2.va_conflicts,
		       idle2.sa_conflicts);
	}

	/* a burst of puts, card 0 to card 1 */
	for (uint32_t o = 0; o < PUT_LEN; o++)
		ctx[0].segp[o] = (uint8_t)(o * 7);
	for (unsigned int i = 0; i < PUTS; i++) {
		struct loom_cmd put = {
			.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX,
			.dst_node = 1, .tag = i, .local_off = 0, .remote_off = i * PUT_LEN,
			.length = PUT_LEN, .key = KEY,
		};

		if (!fh_submit(&ctx[0], &put))
			BAIL("card 0: command ring full at put %u", i);
	}
	start = ls.cycle;
	while (got < PUTS && ls.cycle - start < MAX_CYCLES) {
		struct loom_cqe e;

		ls_run(&ls, 1000, true);
		while (fh_poll_cqe(&ctx[0], &e) == 1) {
			got++;
			if (e.status != LOOM_CQE_ST_OK && bad++ < 4)
				tap_diag("put %llu: status %u", (unsigned long long)e.tag, e.status);
		}
		if (ls_next_event(&ls) == UINT64_MAX && got < PUTS)
			break;
	}
	ls_run(&ls, 100000, true);	/* every acknowledgement and credit home */
	tap_ok(got == PUTS && !bad, "%u of %u puts of %u bytes completed OK", got - bad, PUTS,
	       PUT_LEN);
	if (!snapshot(0, &busy) || !snapshot(1, &idle))
		BAIL("no snapshot after the burst");

	fb = ls.c[0]->card.p.router.flit_bytes;
	pkt_flits = (LOOM_PKT_HDR_SIZE + LOOM_PKT_MAX_PAYLOAD + fb - 1) / fb;
	pkts = (uint64_t)PUTS * (PUT_LEN / LOOM_PKT_MAX_PAYLOAD);
	flits = pkts * pkt_flits;
	/* the ring of 2 (ls_ring): port p of one card is cabled to port 1 - p of the other */
	out0 = route_port(0, 1);
	in1 = 1 - out0;
	resp1 = route_port(1, 0);
	{
		const struct perf_port *h0 = &busy.port[busy.host], *n0 = &busy.port[out0];
		const struct perf_port *n1 = &idle.port[in1], *h1 = &idle.port[idle.host];
		const struct perf_port *r1 = &idle.port[resp1], *r0 = &busy.port[1 - resp1];

		tap_ok(h0->pkts_in == pkts && h0->flits_in == flits && n0->pkts_out == pkts &&
		       n0->flits_out == flits,
		       "card 0: %" PRIu64 " packets of %u flits in at the host port (%" PRIu64 ", %" PRIu64
		       " flits) and out at network port %u (%" PRIu64 ", %" PRIu64 " flits)",
		       pkts, pkt_flits, h0->pkts_in, h0->flits_in, out0, n0->pkts_out,
		       n0->flits_out);
		tap_ok(n1->pkts_in == pkts && n1->flits_in == flits && h1->pkts_out == pkts &&
		       h1->flits_out == flits,
		       "card 1: the same %" PRIu64 " packets, %" PRIu64 " flits in at network port %u (%" PRIu64
		       ", %" PRIu64 ") and out at the host port (%" PRIu64 ", %" PRIu64 ")",
		       pkts, flits, in1, n1->pkts_in, n1->flits_in, h1->pkts_out, h1->flits_out);
		tap_ok(r1->pkts_out == pkts && r0->pkts_in == pkts && r1->flits_out == r0->flits_in &&
		       h1->pkts_in == pkts && h0->pkts_out == pkts,
		       "responses, one per packet: card 1's host sent %" PRIu64 ", its port %u %" PRIu64
		       " (%" PRIu64 " flits), card 0's port %u received %" PRIu64 " (%" PRIu64
		       " flits) and delivered %" PRIu64 " to its host",
		       h1->pkts_in, resp1, r1->pkts_out, r1->flits_out, 1 - resp1, r0->pkts_in,
		       r0->flits_in, h0->pkts_out);
		tap_ok(busy.cycles > idle2.cycles + (flits / 2),
		       "cycle counter advanced by %" PRIu64 " over the burst of %" PRIu64 " flits",
		       busy.cycles - idle2.cycles, flits);
	}
	{
		uint64_t oc = vc_sum(&busy, offsetof(struct perf_port, occ), false, w1, sizeof(w1));
		uint64_t mx = vc_sum(&busy, offsetof(struct perf_port, occ_max), false, w2,
				     sizeof(w2));
		unsigned int depth = ls.c[0]->card.p.router.buf_depth, over = 0;

		for (unsigned int p = 0; p < busy.n_ports; p++)
			for (unsigned int v = 0; v < busy.n_vcs; v++)
				over += busy.port[p].occ_max[v] > depth;
		tap_ok(!oc && mx > 0 && !over,
		       "idle after the burst: buffers empty (%" PRIu64 ", worst %s); high-water marks %s, none above the depth %u (%u above)",
		       oc, w1, w2, depth, over);
	}
	{
		uint64_t sv = vc_sum(&busy, offsetof(struct perf_port, starved), true, w1, sizeof(w1));
		uint64_t st = vc_sum(&busy, offsetof(struct perf_port, stall), true, w2, sizeof(w2));
		uint64_t sv_out = 0, st_host = 0;

		for (unsigned int v = 0; v < busy.n_vcs; v++) {
			sv_out += busy.port[out0].starved[v];
			st_host += busy.port[busy.host].stall[v];
		}
		tap_ok(sv_out > 0 && sv_out == sv && st_host > 0 && st <= busy.cycles * busy.n_ports *
		       busy.n_vcs,
		       "the link withholds credits: card 0's network port %u credit-starved %" PRIu64
		       " cycles (all ports: %" PRIu64 ", worst %s); its host port's input stalled %" PRIu64
		       " cycles (all: %" PRIu64 ", worst %s)",
		       out0, sv_out, sv, w1, st_host, st, w2);
	}
	ls_free(&ls);
	return tap_exit_status();
}
