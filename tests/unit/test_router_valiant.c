// SPDX-License-Identifier: GPL-2.0
/*
 * Valiant and UGAL in the card's router (LOOM_RT_W0_VALIANT, _UGAL): the
 * source router draws the intermediate from its LFSR among 0..VAL_LAST,
 * rewrites the header into phase 0 (intermediate in dst_node bits 15:8,
 * LOOM_PKT_F_VAL_PHASE) and routes toward it on VC0; the intermediate
 * switches the packet to phase 1 (final destination back in dst_node, no
 * flag) on VC1; transit without the flag travels on VC1; an intermediate
 * that is the source itself, or an ordered packet, goes minimal without
 * a draw; a host may not set the phase flag; a UGAL entry leaves the
 * choice to VA, which weighs (occupancy + flits) x hops.  On a line of
 * four routers every packet arrives intact, some of them the long way.
 */
#include "router_fabric.h"
#include "tap.h"

TAP_DEFINE;

#define NODES	4

/* Router @i of a line of NODES: port 0 toward i + 1, port 1 toward i - 1, host 2. */
static void line_table(uint32_t *rt, unsigned int i, bool ugal)
{
	for (unsigned int d = 0; d < NODES; d++) {
		unsigned int hops = d > i ? d - i : i - d;

		if (d == i) {
			rt[2 * d] = router_entry_w0(LOOM_RT_PORT_HOST) | LOOM_RT_W0_VALIANT;
			rt[2 * d + 1] = d;
			continue;
		}
		rt[2 * d] = router_entry_w0(d > i ? 0 : 1) | LOOM_RT_W0_VALIANT |
			    (ugal ? LOOM_RT_W0_UGAL : 0) | hops << LOOM_RT_W0_HOPS_SHIFT;
		rt[2 * d + 1] = d | (NODES - 1) << LOOM_RT_W1_VAL_LAST_SHIFT;
	}
}

static void cfg_card(struct route_cfg *c, uint16_t *lfsr)
{
	memset(c, 0, sizeof(*c));
	c->n_net = 2;
	c->host_port = 2;
	c->vcs = LOOM_NUM_VCS;
	c->card_vcs = true;
	c->flit_bytes = 16;
	c->max_flits = 32;
	c->lfsr = lfsr;
}

static struct route_hdr hdr(unsigned int dst, uint8_t flags)
{
	return (struct route_hdr){ .type = LOOM_PKT_PUT, .class = LOOM_CLASS_REQ, .len = 16,
				   .dst_node = (uint16_t)dst, .flags = flags };
}

/* Injection at router 1 toward 3: 64 draws, each Valiant toward its intermediate or minimal. */
static void injection(void)
{
	uint32_t rt[2 * NODES];
	struct route_view v = { .rt = rt, .rt_entries = NODES };
	struct route_cfg c;
	struct route_result r;
	struct route_hdr h = hdr(3, 0);
	uint16_t lfsr = 0x1234, want_lfsr = 0x1234;
	unsigned int seen = 0, bad = 0;

	line_table(rt, 1, false);
	cfg_card(&c, &lfsr);
	for (int k = 0; k < 64; k++) {
		unsigned int inter;
		bool ok;

		want_lfsr = route_lfsr_next(want_lfsr);
		inter = route_val_draw(want_lfsr, NODES - 1);
		seen |= 1u << inter;
		route_compute(&c, &v, 2, LOOM_VC_REQ0, &h, &r);
		if (inter == 1)	/* the source itself: minimal, phase 1 */
			ok = !r.rewrite && r.port == 0 && r.vc == LOOM_VC_REQ1 && r.vc1;
		else
			ok = r.rewrite && r.dst_node == (inter << 8 | 3) &&
			     r.flags == LOOM_PKT_F_VAL_PHASE && r.port == (inter > 1 ? 0 : 1) &&
			     r.vc == LOOM_VC_REQ0 && !r.vc1;
		if (!ok && !bad++)
			tap_diag("draw %d: intermediate %u, got rewrite %d dst 0x%04x flags 0x%02x "
				 "port %u vc %u", k, inter, r.rewrite, r.dst_node, r.flags, r.port,
				 r.vc);
	}
	tap_ok(!bad && lfsr == want_lfsr && seen == (1u << NODES) - 1,
	       "injection: 64 draws routed to their intermediates on VC0 (%u wrong), LFSR 0x%04x "
	       "(want 0x%04x), intermediates drawn 0x%x (want 0x%x)", bad, lfsr, want_lfsr, seen,
	       (1u << NODES) - 1);
}

/* Phase 0 in transit, the switch at the intermediate, phase 1 in transit. */
static void phases(void)
{
	uint32_t rt[2 * NODES];
	struct route_view v = { .rt = rt, .rt_entries = NODES };
	struct route_cfg c;
	struct route_result r0, r1, r2;
	struct route_hdr h0 = hdr(3 << 8 | 0, LOOM_PKT_F_VAL_PHASE);
	struct route_hdr h1 = hdr(2 << 8 | 0, LOOM_PKT_F_VAL_PHASE | LOOM_PKT_F_REMOTE_CQE);
	struct route_hdr h2 = hdr(0, LOOM_PKT_F_VC1);
	uint16_t lfsr = 0x1234;

	line_table(rt, 2, false);
	cfg_card(&c, &lfsr);
	/* at router 2, arriving from 1 (port 1): toward intermediate 3 */
	route_compute(&c, &v, 1, LOOM_VC_REQ0, &h0, &r0);
	/* intermediate 2 is here: switch to destination 0 */
	route_compute(&c, &v, 0, LOOM_VC_REQ0, &h1, &r1);
	/* phase 1 toward 0 */
	route_compute(&c, &v, 0, LOOM_VC_REQ1, &h2, &r2);
	tap_ok(!r0.rewrite && r0.port == 0 && r0.vc == LOOM_VC_REQ0 && r1.rewrite &&
	       r1.dst_node == 0 && r1.flags == LOOM_PKT_F_REMOTE_CQE && r1.port == 1 &&
	       r1.vc == LOOM_VC_REQ1 && r1.vc1 && !r2.rewrite && r2.port == 1 &&
	       r2.vc == LOOM_VC_REQ1 && lfsr == 0x1234,
	       "phases: transit phase 0 port %u vc %u (want 0, %u); switch rewrite %d dst %u "
	       "flags 0x%02x port %u vc %u (want 1, 0, 0x%02x, 1, %u); phase 1 port %u vc %u; "
	       "LFSR untouched 0x%04x", r0.port, r0.vc, LOOM_VC_REQ0, r1.rewrite, r1.dst_node,
	       r1.flags, r1.port, r1.vc, LOOM_PKT_F_REMOTE_CQE, LOOM_VC_REQ1, r2.port, r2.vc,
	       lfsr);
}

/*
 * The host may not set the flag toward a Valiant intermediate; toward a
 * plain one the flag means nothing; ordered packets and plain entries draw
 * nothing.
 */
static void refusals(void)
{
	uint32_t rt[2 * NODES];
	struct route_view v = { .rt = rt, .rt_entries = NODES };
	struct route_cfg c;
	struct route_result rf, rn, ro, rp;
	struct route_hdr hf = hdr(2 << 8 | 3, LOOM_PKT_F_VAL_PHASE);
	struct route_hdr hn = hdr(0, LOOM_PKT_F_VAL_PHASE), ho = hdr(3, LOOM_PKT_F_ORDERED);
	struct route_hdr hp = hdr(0, 0);
	uint16_t lfsr = 0x1234;

	line_table(rt, 1, false);
	rt[0] = router_entry_w0(1);	/* destination 0: a plain entry */
	cfg_card(&c, &lfsr);
	route_compute(&c, &v, 2, LOOM_VC_REQ0, &hf, &rf);
	route_compute(&c, &v, 2, LOOM_VC_REQ0, &hn, &rn);
	route_compute(&c, &v, 2, LOOM_VC_REQ0, &ho, &ro);
	route_compute(&c, &v, 2, LOOM_VC_REQ0, &hp, &rp);
	tap_ok(rf.drop == ROUTE_DROP_MALFORMED && !rn.drop && !rn.rewrite && rn.port == 1 &&
	       rn.vc == LOOM_VC_REQ0 && !ro.drop && !ro.rewrite && ro.port == 0 &&
	       ro.vc == LOOM_VC_REQ1 && !rp.rewrite && rp.port == 1 && rp.vc == LOOM_VC_REQ0 &&
	       lfsr == 0x1234,
	       "phase flag from the host toward a Valiant intermediate dropped (%s), toward a "
	       "plain one routed by dst_node (port %u vc %u, want 1, %u); ordered: minimal port "
	       "%u vc %u (want 0, %u); plain entry port %u vc %u; LFSR 0x%04x (want 0x1234)",
	       route_drop_name((enum route_drop)rf.drop), rn.port, rn.vc, LOOM_VC_REQ0,
	       ro.port, ro.vc, LOOM_VC_REQ1, rp.port, rp.vc, lfsr);
}

/* UGAL: RC routes minimal with the intermediate in the header; the weights. */
static void ugal(void)
{
	uint32_t rt[2 * NODES];
	struct route_view v = { .rt = rt, .rt_entries = NODES };
	struct route_cfg c;
	struct route_result r;
	struct route_hdr h = hdr(3, 0);
	uint16_t lfsr = 0x1234;
	unsigned int inter;

	line_table(rt, 0, true);
	cfg_card(&c, &lfsr);
	/* draw until an intermediate other than router 0 itself */
	do {
		inter = route_val_draw(route_lfsr_next(lfsr), NODES - 1);
		route_compute(&c, &v, 2, LOOM_VC_REQ0, &h, &r);
	} while (inter == 0);
	tap_ok(r.ugal == ROUTE_UGAL_PENDING && r.rewrite && r.dst_node == (inter << 8 | 3) &&
	       r.flags == 0 && r.port == 0 && r.vc == LOOM_VC_REQ1 && r.hops_left == 3,
	       "ugal: pending %d, dst 0x%04x (want 0x%04x), flags 0x%02x, minimal port %u vc %u "
	       "(want 0, %u), hops %u", r.ugal, r.dst_node, inter << 8 | 3, r.flags, r.port, r.vc,
	       LOOM_VC_REQ1, r.hops_left);
	/* (occ + flits) x hops: 10x2=20 vs 4x4=16 Valiant; a tie minimal; unusable loses */
	tap_ok(route_ugal_pick(8, 2, true, 0, 4, true, 2) &&
	       !route_ugal_pick(6, 2, true, 2, 4, true, 2) &&
	       !route_ugal_pick(0, 2, true, 0, 3, true, 1) &&
	       route_ugal_pick(0, 1, false, 50, 6, true, 1) &&
	       !route_ugal_pick(50, 6, true, 0, 1, false, 1),
	       "route_ugal_pick: weights, tie minimal, an unusable port loses");
}

/* A line of NODES routers with hosts; every host sends to every other. */
static struct fab *line_fab(bool ugal)
{
	struct router_params p;
	struct fab *f;

	router_preset_card(&p, 2);
	f = fab_new(NODES, &p);
	for (unsigned int i = 0; i < NODES; i++) {
		fab_terminal(f, i, 2, i);
		line_table(f->rt[i], i, ugal);
		router_seed_lfsr(f->r[i], (uint16_t)(0x100 + i));
	}
	for (unsigned int i = 0; i + 1 < NODES; i++)
		fab_link(f, i, 0, i + 1, 1, 2);
	return f;
}

static void fabric(bool ugal, unsigned int per_pair, uint64_t gap)
{
	struct fab *f = line_fab(ugal);
	unsigned int longer = 0, flagged = 0, n = 0;
	bool ok;

	for (unsigned int k = 0; k < per_pair; k++)
		for (unsigned int s = 0; s < NODES; s++)
			for (unsigned int d = 0; d < NODES; d++)
				if (s != d)
					fab_send(f, s, d, LOOM_VC_REQ0, LOOM_CLASS_REQ, 32,
						 k * gap);
	ok = fab_run(f, 200000);
	for (unsigned int i = 0; i < f->n_pkts; i++) {
		const struct fab_pkt *k = &f->pkts[i];
		int min = (int)(k->dst > k->src ? k->dst - k->src : k->src - k->dst);

		if (!k->delivered)
			continue;
		n++;
		longer += k->hops > min;
		flagged += (k->flags & LOOM_PKT_F_VAL_PHASE) != 0;
	}
	tap_ok(ok && n == f->n_pkts && longer > 0 && !flagged,
	       "%s on a line of %d: %u of %u packets delivered intact (dst_node restored)%s%s, "
	       "%u of them longer than minimal (want some), %u still flagged phase 0",
	       ugal ? "ugal" : "valiant", NODES, n, f->n_pkts, f->errors ? ": " : "", f->err,
	       longer, flagged);
	fab_free(f);
}

int main(void)
{
	tap_plan(7);
	injection();
	phases();
	refusals();
	ugal();
	fabric(false, 20, 50);
	/* UGAL detours only under load: back to back */
	fabric(true, 60, 0);
	return tap_exit_status();
}
