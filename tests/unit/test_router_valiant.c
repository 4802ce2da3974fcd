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
 * On a ring (LOOM_RT_W0_VAL_DATELINES, generic VCs) each phase takes its
 * own dateline pair, phase 0 VC0/VC1 and phase 1 VC2/VC3, and a router
 * without four generic VCs drops toward such entries; a ring of crossbar
 * routers with wormhole VCs under tornado traffic delivers everything,
 * where the same tables without the bit on one VC deadlock.
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
	{
		/* the Valiant route VA weighs, read at RC, through the buffer's packing */
		struct route_result u;
		unsigned int want_port = inter > 0 ? 0 : 1;

		route_unpack(route_pack(&r), &u);
		route_unpack_ext(route_pack_ext(&r), &u);
		route_unpack_up(route_pack_up(&r), &u);
		tap_ok(r.ugal_port == want_port && r.ugal_hops == inter && !r.ugal_vc1 &&
		       u.ugal == ROUTE_UGAL_PENDING && u.ugal_port == r.ugal_port &&
		       u.ugal_hops == r.ugal_hops && u.ugal_vc1 == r.ugal_vc1 && !u.uproute &&
		       !u.omniwar,
		       "ugal: RC reads the intermediate's entry: port %u hops %u vc1 %d (want %u, %u, "
		       "0); packed and unpacked: pending %d port %u hops %u vc1 %d up-route %d",
		       r.ugal_port, r.ugal_hops, r.ugal_vc1, want_port, inter, u.ugal == ROUTE_UGAL_PENDING,
		       u.ugal_port, u.ugal_hops, u.ugal_vc1, u.uproute);
	}
	/* (occ + flits) x hops: 10x2=20 vs 4x4=16 Valiant; a tie minimal; unusable loses */
	tap_ok(route_ugal_pick(8, 2, true, 0, 4, true, 2) &&
	       !route_ugal_pick(6, 2, true, 2, 4, true, 2) &&
	       !route_ugal_pick(0, 2, true, 0, 3, true, 1) &&
	       route_ugal_pick(0, 1, false, 50, 6, true, 1) &&
	       !route_ugal_pick(50, 6, true, 0, 1, false, 1),
	       "route_ugal_pick: weights, tie minimal, an unusable port loses");
}

/*
 * Router @i of a ring of @n: port 0 toward i + 1, port 1 toward i - 1,
 * host 2, the shorter way (a tie +); entries Valiant with @flags.
 */
static void ring_table(uint32_t *rt, unsigned int i, unsigned int n, uint32_t flags)
{
	for (unsigned int d = 0; d < n; d++) {
		unsigned int fwd = (d + n - i) % n, hops = fwd <= n / 2 ? fwd : n - fwd;

		rt[2 * d] = router_entry_w0(d == i ? LOOM_RT_PORT_HOST : fwd <= n / 2 ? 0 : 1) |
			    LOOM_RT_W0_VALIANT | flags | hops << LOOM_RT_W0_HOPS_SHIFT;
		rt[2 * d + 1] = d | (n - 1) << LOOM_RT_W1_VAL_LAST_SHIFT;
	}
}

/* Router @i's PORT_CFG on a ring of @n: dimension 0, the wrap-around channels datelines. */
static void ring_port_cfg(uint32_t *cfg, unsigned int i, unsigned int n)
{
	cfg[0] = 0 | (i == n - 1 ? LOOM_VCT_PORT_DATELINE : 0);
	cfg[1] = 0 | (i == 0 ? LOOM_VCT_PORT_DATELINE : 0);
}

/*
 * The VCs on a ring of 4 with generic VCs: phase 0 through router 3's
 * dateline, the switch at intermediate 1 (START_VC1 of destination 0
 * set), phase 1 through router 0's dateline, injection; the card's VCs and
 * two generic VCs drop; the route survives packing.
 */
static void torus_vcs(void)
{
	uint32_t rt[4][2 * NODES], cfg[4][LOOM_MAX_PORTS], start[4] = { 0, 1, 0, 0 };
	struct route_view v[4];
	struct route_cfg c;
	struct route_result r0, r1, r2, ri, rc, r2v, u;
	struct route_hdr h0 = hdr(1 << 8 | 2, LOOM_PKT_F_VAL_PHASE);
	struct route_hdr h1 = hdr(1 << 8 | 0, LOOM_PKT_F_VAL_PHASE | LOOM_PKT_F_VC1);
	struct route_hdr h2 = hdr(3, 0), hi = hdr(3, 0);
	uint16_t lfsr = 0x1234, want = route_lfsr_next(0x1234);
	unsigned int inter = route_val_draw(want, NODES - 1);
	bool inj_ok;

	for (unsigned int i = 0; i < 4; i++) {
		ring_table(rt[i], i, 4, LOOM_RT_W0_VAL_DATELINES);
		for (unsigned int k = 0; k < LOOM_MAX_PORTS; k++)
			cfg[i][k] = LOOM_VCT_PORT_DIM_NONE;
		ring_port_cfg(cfg[i], i, 4);
		v[i] = (struct route_view){ .rt = rt[i], .rt_entries = NODES, .port_cfg = cfg[i],
					    .start_vc1 = &start[i], .start_vc1_bits = 32 };
	}
	cfg_card(&c, &lfsr);
	c.card_vcs = false;
	c.vcs = 4;
	/* router 3, from 2 (port 1) toward intermediate 1: + through the dateline */
	route_compute(&c, &v[3], 1, 0, &h0, &r0);
	/* router 1 is the intermediate: to 0 (-), as injected: START_VC1 */
	route_compute(&c, &v[1], 1, 1, &h1, &r1);
	/* router 0, from 1 (port 0) toward 3: - through router 0's dateline */
	h2.flags = 0;
	route_compute(&c, &v[0], 0, 2, &h2, &r2);
	/* injection at router 2 toward 3 */
	route_compute(&c, &v[2], 2, 0, &hi, &ri);
	if (inter == 2)
		inj_ok = !ri.rewrite && ri.port == 0 && ri.vc == 2 && ri.val_dl;
	else
		inj_ok = ri.rewrite && ri.dst_node == (inter << 8 | 3) && ri.vc == 0 &&
			 ri.val_dl && ri.port == ((inter + 2) % 4 <= 2 ? 0 : 1);
	tap_ok(!r0.drop && r0.val_dl && r0.port == 0 && r0.vc == 1 && r0.vc1 && !r1.drop &&
	       r1.rewrite && r1.dst_node == 0 && r1.port == 1 && r1.vc == 3 && !r2.drop &&
	       r2.port == 1 && r2.vc == 3 && r2.vc1 && inj_ok && lfsr == want,
	       "ring, generic VCs: phase 0 past the dateline port %u vc %u (want 0, 1); switch "
	       "at the intermediate dst %u port %u vc %u (want 0, 1, 3: START_VC1); phase 1 past "
	       "the dateline port %u vc %u (want 1, 3); injection toward intermediate %u: "
	       "rewrite %d dst 0x%04x port %u vc %u", r0.port, r0.vc, r1.dst_node, r1.port, r1.vc,
	       r2.port, r2.vc, inter, ri.rewrite, ri.dst_node, ri.port, ri.vc);
	/* the card's VC model, and two generic VCs: no VCs for it */
	c.vcs = 2;
	route_compute(&c, &v[3], 1, 0, &h0, &r2v);
	cfg_card(&c, &lfsr);
	route_compute(&c, &v[3], 1, LOOM_VC_REQ0, &h0, &rc);
	tap_ok(r2v.drop == ROUTE_DROP_NO_ROUTE && rc.drop == ROUTE_DROP_NO_ROUTE,
	       "ring: VCS=2 drops (%s), the card's VCs drop (%s), want no route",
	       route_drop_name((enum route_drop)r2v.drop),
	       route_drop_name((enum route_drop)rc.drop));
	route_unpack(route_pack(&r0), &u);
	route_unpack_ext(route_pack_ext(&r0), &u);
	route_unpack_up(route_pack_up(&r0), &u);
	tap_ok(u.val_dl && u.vc == 1 && route_vc_step(&u, 2, 8) == 4 &&
	       route_vc_step(&r2v, 2, 8) == 2,
	       "ring: the route packs with val_dl (%d, vc %u), its VCs step by %u (want 4)",
	       u.val_dl, u.vc, route_vc_step(&u, 2, 8));
}

/*
 * A ring of RING crossbar routers with a host port and @vcs wormhole VCs
 * of 4 flits, every node sending long packets half way round (tornado):
 * Valiant tables with @flags; delivered all, or deadlocked (every router
 * blocked for 100 cycles with packets left).
 */
#define RING	6

static bool ring_valiant(uint32_t flags, unsigned int vcs, unsigned int *delivered,
			 unsigned int *sent)
{
	struct router_params p;
	bool deadlocked;
	struct fab *f;

	router_preset_xbar(&p, 3, vcs);
	p.host_ports = 1;	/* port 2: the host, whose packets draw intermediates */
	p.wormhole_vcs = (1u << vcs) - 1;
	p.buf_depth = 4;
	f = fab_new(RING, &p);
	for (unsigned int i = 0; i < RING; i++) {
		fab_terminal(f, i, 2, i);
		ring_table(f->rt[i], i, RING, flags);
		ring_port_cfg(f->port_cfg[i], i, RING);
		router_seed_lfsr(f->r[i], (uint16_t)(0x100 + i));
		fab_link(f, i, 0, (i + 1) % RING, 1, 2);
	}
	for (unsigned int k = 0; k < 40; k++)
		for (unsigned int i = 0; i < RING; i++)
			fab_send(f, i, (i + RING / 2 - 1) % RING, 0, LOOM_CLASS_REQ, 256, 0);
	deadlocked = fab_run_deadlock(f, 100000);
	*delivered = f->delivered;
	*sent = f->n_pkts;
	if (f->errors)
		tap_diag("fabric error: %s", f->err);
	fab_free(f);
	return deadlocked;
}

static void torus_fabric(void)
{
	unsigned int got, sent, got2, sent2;
	bool dl = ring_valiant(LOOM_RT_W0_VAL_DATELINES, 4, &got, &sent);
	bool dl2 = ring_valiant(0, 1, &got2, &sent2);

	tap_ok(!dl && got == sent,
	       "ring of %d, Valiant with a dateline pair per phase: %u of %u delivered, deadlock "
	       "%s", RING, got, sent, dl ? "detected" : "none");
	tap_ok(dl2 && got2 < sent2,
	       "ring of %d, the same tables without VAL_DATELINES on one VC (no phase or "
	       "dateline VCs): deadlock %s, %u of %u delivered", RING,
	       dl2 ? "detected" : "not detected", got2, sent2);
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
	tap_plan(13);
	injection();
	phases();
	refusals();
	ugal();
	fabric(false, 20, 50);
	/* UGAL detours only under load: back to back */
	fabric(true, 60, 0);
	torus_vcs();
	torus_fabric();
	return tap_exit_status();
}
