// SPDX-License-Identifier: GPL-2.0
/*
 * Route computation inside the cycle-level router, with the card's VCs:
 * barrier packets go hop by hop (network port -> host port, host port ->
 * the network port named in dst_node) without touching hops; adaptive
 * packets take the adaptive VC of the least loaded minimal port with room
 * for the whole packet and are marked ADAPTIVE, ORDERED ones never adapt;
 * a packet that continues in its dimension through a dateline port is
 * marked VC1 and counted on VC1, one that enters the dimension there keeps
 * its start VC; DimWAR weighs the minimal port against the deroutes of its
 * dimension and deroutes at most once; an adaptive up-route takes the
 * least occupied up port with a free VC, on the deterministic VC.
 */
#include "router_fabric.h"
#include "tap.h"

TAP_DEFINE;

/* Host + 2 network ports: node 0 on port 0, node 1 on port 1, node 2 the host. */
static struct fab *card3(void)
{
	static const unsigned int nodes[] = { 0, 1, 2 };
	struct router_params p;

	router_preset_card(&p, 2);
	return fab_single(&p, nodes);
}

static void barrier(void)
{
	struct fab *f = card3();
	int in, out;

	/* from the network: to the host port whatever dst_node says */
	in = fab_send(f, 0, 2, LOOM_VC_BARRIER, LOOM_CLASS_BARRIER, 0, 0);
	/* from the host: out of the port in dst_node (0) */
	out = fab_send(f, 2, 0, LOOM_VC_BARRIER, LOOM_CLASS_BARRIER, 0, 0);
	fab_run(f, 100);
	tap_ok(f->pkts[in].delivered && f->pkts[out].delivered && f->pkts[in].hops == 0 &&
	       f->pkts[out].hops == 0 && !f->errors,
	       "barrier packets hop by hop: network -> host port %s, host -> port 0 %s, hops kept (%d, %d)%s%s",
	       f->pkts[in].delivered ? "delivered" : "lost",
	       f->pkts[out].delivered ? "delivered" : "lost", f->pkts[in].hops, f->pkts[out].hops,
	       f->errors ? ": " : "", f->err);
	fab_free(f);
}

static void adaptive(void)
{
	struct fab *f = card3();
	const struct router_port_counters *c0, *c1;
	struct loom_pkt_hdr h;
	unsigned int adaptive_on_1 = 0, ordered_on_1 = 0;

	/* node 0: table port 0, adaptive over ports 0 and 1 */
	f->rt[0][0] |= LOOM_RT_W0_ADAPTIVE;
	f->rt[0][1] |= 0x3u << LOOM_RT_W1_ADAPT_PORTS_SHIFT;
	router_out(f->r[0], 0)->back.ready = false;	/* port 0 is stuck */
	for (unsigned int i = 0; i < 6; i++) {
		int id = fab_send(f, 2, 0, LOOM_VC_REQ0, LOOM_CLASS_REQ, 64, 40 * i);

		if (i >= 3)
			f->pkts[id].bytes[6] = LOOM_PKT_F_ORDERED;
	}
	for (unsigned int c = 0; c < 300; c++) {
		struct flit *fl;

		fab_step(f);
		fl = &router_out(f->r[0], 1)->fwd;
		if (fl->valid && fl->head) {
			memcpy(&h, fl->data, 8);
			adaptive_on_1 += fl->vc == LOOM_VC_REQ_ADAPT && (h.flags & LOOM_PKT_F_ADAPTIVE);
			ordered_on_1 += (h.flags & LOOM_PKT_F_ORDERED) != 0;
		}
	}
	c0 = router_port_counters(f->r[0], 0);
	c1 = router_port_counters(f->r[0], 1);
	tap_ok(adaptive_on_1 == 2 && !ordered_on_1 && c1->adaptive == 2 && c0->adaptive == 1 &&
	       !f->pkts[3].delivered && !f->pkts[4].delivered && !f->pkts[5].delivered,
	       "adaptive: with port 0 stuck, %u of 3 packets leave port 1 on the adaptive VC marked ADAPTIVE (the first ties to the table port), %u ordered ones do (want 0); adaptive grants port 0 %llu, port 1 %llu",
	       adaptive_on_1, ordered_on_1, (unsigned long long)c0->adaptive,
	       (unsigned long long)c1->adaptive);
	fab_free(f);
}

/* The VC and flags of a request from node src to node 1 through port 1, a dateline. */
static bool dateline_hop(unsigned int src, int *vc, int *flags)
{
	struct fab *f = card3();
	bool delivered;
	int id;

	*vc = *flags = -1;
	f->port_cfg[0][0] = 0;
	f->port_cfg[0][1] = 0 | LOOM_VCT_PORT_DATELINE;
	id = fab_send(f, src, 1, LOOM_VC_REQ0, LOOM_CLASS_REQ, 0, 0);
	for (unsigned int c = 0; c < 100; c++) {
		const struct flit *fl;

		fab_step(f);
		fl = &router_out(f->r[0], 1)->fwd;
		if (fl->valid && fl->head) {
			*vc = fl->vc;
			*flags = fl->data[6];
		}
	}
	delivered = id >= 0 && f->pkts[id].delivered;
	fab_free(f);
	return delivered;
}

static void dateline(void)
{
	int vc, flags, vc_h, flags_h;
	bool through = dateline_hop(0, &vc, &flags), from_host = dateline_hop(2, &vc_h, &flags_h);

	tap_ok(through && vc == LOOM_VC_REQ1 && (flags & LOOM_PKT_F_VC1) && from_host &&
	       vc_h == LOOM_VC_REQ0 && !(flags_h & LOOM_PKT_F_VC1),
	       "dateline: a request continuing in its dimension through a dateline port goes on "
	       "VC %d (want %d), flags 0x%x (VC1 0x%x); one injected there keeps its start VC: "
	       "VC %d (want %d), flags 0x%x", vc, LOOM_VC_REQ1, flags, LOOM_PKT_F_VC1, vc_h,
	       LOOM_VC_REQ0, flags_h);
}

/* DimWAR's weights: (occupancy + flits) x hops against x (hops + 1). */
static void dimwar_weights(void)
{
	static const struct {
		uint32_t occ0, occ1;
		unsigned int hops, want;
	} c[] = {
		{ 0, 0, 1, 0 },		/* idle: minimal */
		{ 3, 0, 1, 0 },		/* 6 vs 6: a tie is minimal */
		{ 4, 0, 1, 1 },		/* 7 vs 6: deroute */
		{ 4, 0, 2, 1 },		/* 14 vs 9 */
		{ 2, 0, 3, 1 },		/* 15 vs 12 */
		{ 9, 5, 1, 0 },		/* 12 vs 16 */
	};
	char what[256] = "";
	unsigned int bad = 0;

	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		uint32_t occ[2] = { c[i].occ0, c[i].occ1 };
		unsigned int want = c[i].want, got;

		got = route_dimwar_pick(0, 0x2, 0x3, occ, 3, c[i].hops, 2, 0);
		if (got != want && !bad++)
			snprintf(what, sizeof(what), ": occupancy %u/%u, hops %u: port %u, want %u",
				 occ[0], occ[1], c[i].hops, got, want);
	}
	{
		uint32_t occ[2] = { 0, 50 };

		/* an unusable minimal port loses to any usable deroute */
		if (route_dimwar_pick(0, 0x2, 0x2, occ, 3, 1, 2, 0) != 1 && !bad++)
			snprintf(what, sizeof(what), ": minimal port down, deroute not taken");
		/* a deroute that is not usable is never taken */
		occ[0] = 100;
		if (route_dimwar_pick(0, 0x2, 0x1, occ, 3, 1, 2, 0) != 0 && !bad++)
			snprintf(what, sizeof(what), ": unusable deroute taken");
	}
	tap_ok(!bad, "dimwar weights: (occupancy + flits) x hops, ties minimal%s", what);
}

/*
 * DimWAR in the router: ports 0 and 1 in one dimension, the minimal port 0
 * stuck.  Once its queue outweighs a deroute, requests leave port 1 on
 * VC1 (REQ1); ordered ones never do; a packet that arrives on VC1 (it
 * derouted already) goes minimal whatever the load.
 */
static void dimwar(void)
{
	struct fab *f = card3();
	struct fab_tally t;
	int again;

	/* two hops left: one packet held at the minimal port outweighs a deroute */
	f->rt[0][0] |= LOOM_RT_W0_DIMWAR | 2u << LOOM_RT_W0_HOPS_SHIFT;
	fab_stuck_dimension(f);
	/* from port 1 on VC1: derouted already, so no second deroute */
	again = fab_send(f, 1, 0, LOOM_VC_REQ1, LOOM_CLASS_REQ, 64, 600);
	t = fab_tally(f, 0, 1, 900, LOOM_VC_REQ1, 1);
	tap_ok(t.on_vc >= 1 && !t.other && !t.ordered && !t.from && !f->pkts[again].delivered,
	       "dimwar: with the minimal port stuck, %u requests deroute on port 1 / VC1 (want >= 1), %u leave port 1 on another VC (want 0), %u ordered ones deroute (want 0), the packet that arrived on VC1 derouted %u times (want 0)",
	       t.on_vc, t.other, t.ordered, t.from);
	fab_free(f);
}

static void uproute_pick(void)
{
	static const struct {
		unsigned int port, first;
		uint64_t usable;
		uint32_t occ[4];
		unsigned int rr, want;
	} c[] = {
		{ 2, 2, 0xc, { 0, 0, 0, 0 }, 0, 2 },	/* a tie: the W0 port */
		{ 2, 2, 0xc, { 0, 0, 5, 1 }, 0, 3 },	/* fewer flits outstanding */
		{ 2, 2, 0x8, { 0, 0, 0, 9 }, 0, 3 },	/* W0 port not usable */
		{ 2, 2, 0x4, { 0, 0, 9, 0 }, 0, 2 },	/* no other usable: W0 */
		{ 0, 1, 0xe, { 0, 4, 4, 4 }, 1, 2 },	/* W0 port 0 unusable, a tie from rr */
		{ 0, 1, 0xf, { 9, 9, 9, 9 }, 0, 0 },	/* W0 below the up ports, a tie */
		{ 1, 4, 0xf, { 5, 0, 0, 0 }, 0, 1 },	/* no up port within the radix */
	};
	char what[160] = "";
	unsigned int bad = 0;

	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		unsigned int got = route_uproute_pick(c[i].port, c[i].first, c[i].usable, c[i].occ,
						      4, c[i].rr);

		if (got != c[i].want && !bad++)
			snprintf(what, sizeof(what), ": case %u: port %u, want %u", i, got,
				 c[i].want);
	}
	tap_ok(!bad, "up-route choice: fewest flits outstanding among usable ports, ties to the W0 port%s",
	       what);
}

/*
 * An adaptive up-route in the router: node 0's entry names port 0 with
 * the up ports from port 1 on.  With port 0 stuck, requests after the
 * first (a tie: port 0) leave port 1, on their own VC (REQ0, not the
 * adaptive VC); ordered ones wait for port 0.
 */
static void uproute(void)
{
	struct fab *f = card3();
	unsigned int on_1 = 0, other_vc = 0, ordered_1 = 0;
	struct loom_pkt_hdr h;

	f->rt[0][0] |= LOOM_RT_W0_UPROUTE;
	f->rt[0][1] |= 1u << LOOM_RT_W1_UP_FIRST_SHIFT;
	router_out(f->r[0], 0)->back.ready = false;	/* port 0 is stuck */
	for (unsigned int i = 0; i < 6; i++) {
		int id = fab_send(f, 2, 0, LOOM_VC_REQ0, LOOM_CLASS_REQ, 64, 40 * i);

		if (i >= 3)
			f->pkts[id].bytes[6] = LOOM_PKT_F_ORDERED;
	}
	for (unsigned int c = 0; c < 400; c++) {
		struct flit *fl;

		fab_step(f);
		fl = &router_out(f->r[0], 1)->fwd;
		if (fl->valid && fl->head) {
			memcpy(&h, fl->data, 8);
			on_1++;
			other_vc += fl->vc != LOOM_VC_REQ0;
			ordered_1 += (h.flags & LOOM_PKT_F_ORDERED) != 0;
		}
	}
	tap_ok(on_1 == 2 && !other_vc && !ordered_1 && !f->pkts[0].delivered,
	       "up-route: with port 0 stuck, %u of 3 requests leave up port 1 (want 2: the first ties to port 0), %u on a VC other than REQ0 (want 0), %u ordered ones (want 0)",
	       on_1, other_vc, ordered_1);
	fab_free(f);
}

int main(void)
{
	tap_plan(7);
	barrier();
	adaptive();
	dateline();
	dimwar_weights();
	dimwar();
	uproute_pick();
	uproute();
	return tap_exit_status();
}
