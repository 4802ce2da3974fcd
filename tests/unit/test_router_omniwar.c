// SPDX-License-Identifier: GPL-2.0
/*
 * OmniWAR in the card's route computation (LOOM_RT_W0_OMNIWAR): the first
 * router-to-router hop takes distance class 0 and every later one the
 * class after the one the packet arrived on (the card's VC0, VC1 and
 * adaptive VC; VC k with generic VCs); a packet with no class left is
 * dropped; candidates are the minimal ports of every unaligned dimension
 * and, while the classes left exceed the minimal hops left, the other
 * ports of those dimensions; ordered packets take the W0 port alone; the
 * choice weighs (occupancy + flits) x hops as DimWAR's.  Walking every
 * pair of a HyperX with the most deroutes the entries allow takes exactly
 * N + M hops, each on its class, and never more.  In the router, a stuck
 * minimal port sends requests to the deroute on their class's VC, counted
 * ADAPTIVE, ordered ones and those without classes to spare wait, and one
 * with no class left is dropped.
 */
#include <string.h>

#include "route.h"
#include "router_fabric.h"
#include "tap.h"

TAP_DEFINE;

#define MAXN	27	/* nodes of the largest HyperX walked (3x3x3) */
#define HOST	6	/* the host's router port */

/* A HyperX of 3 routers per dimension, @dims dimensions: ports 2k, 2k + 1 in dimension k. */
struct hx {
	unsigned int dims, nodes, classes;
	uint32_t rt[MAXN][2 * MAXN];
	uint32_t port_cfg[LOOM_MAX_PORTS];
};

static unsigned int coord(unsigned int n, unsigned int k)
{
	for (unsigned int i = 0; i < k; i++)
		n /= 3;
	return n % 3;
}

/* The port of a router at coordinate @c of a dimension toward coordinate @to. */
static unsigned int hx_port(unsigned int k, unsigned int c, unsigned int to)
{
	return 2 * k + (to < c ? to : to - 1);
}

/* The entries loom-fm's omniwar engine writes: dimension order's port, the minimal ports. */
static void hx_build(struct hx *x, unsigned int dims, unsigned int classes)
{
	memset(x, 0, sizeof(*x));
	x->dims = dims;
	x->classes = classes;
	x->nodes = dims == 2 ? 9 : 27;
	for (unsigned int p = 0; p < LOOM_MAX_PORTS; p++)
		x->port_cfg[p] = p < 2 * dims ? p / 2 : LOOM_VCT_PORT_DIM_NONE;
	for (unsigned int n = 0; n < x->nodes; n++)
		for (unsigned int d = 0; d < x->nodes; d++) {
			unsigned int hops = 0, first = LOOM_RT_PORT_HOST, min = 0;

			for (unsigned int k = 0; k < dims; k++) {
				unsigned int c = coord(n, k), t = coord(d, k);

				if (c == t)
					continue;
				if (!hops)
					first = hx_port(k, c, t);
				min |= 1u << hx_port(k, c, t);
				hops++;
			}
			x->rt[n][2 * d] = router_entry_w0(first);
			x->rt[n][2 * d + 1] = d;
			if (!hops)
				continue;
			x->rt[n][2 * d] |= LOOM_RT_W0_OMNIWAR | hops << LOOM_RT_W0_HOPS_SHIFT |
					   classes << LOOM_RT_W0_CLASSES_SHIFT;
			x->rt[n][2 * d + 1] |= min << LOOM_RT_W1_ADAPT_PORTS_SHIFT;
		}
}

/* The router across port @p of node @n. */
static unsigned int hx_peer(unsigned int n, unsigned int p)
{
	unsigned int k = p / 2, c = coord(n, k), j = p % 2, to = j < c ? j : j + 1, w = 1;

	for (unsigned int i = 0; i < k; i++)
		w *= 3;
	return n - c * w + to * w;
}

static void cfg_init(struct route_cfg *c, bool card_vcs, unsigned int vcs)
{
	memset(c, 0, sizeof(*c));
	c->n_net = HOST;
	c->host_port = HOST;
	c->vcs = vcs;
	c->card_vcs = card_vcs;
	c->flit_bytes = 16;
	c->max_flits = 32;
}

static struct route_hdr hdr(unsigned int dst, uint8_t cls, uint8_t flags)
{
	return (struct route_hdr){ .type = LOOM_PKT_PUT, .class = cls, .len = 16,
				   .dst_node = (uint16_t)dst, .flags = flags };
}

/* Route computation at node @n of @x for a packet to @dst arriving on @in_port, @in_vc. */
static void rc(const struct hx *x, const struct route_cfg *c, unsigned int n, unsigned int in_port,
	       unsigned int in_vc, const struct route_hdr *h, struct route_result *r)
{
	struct route_view v = { .rt = x->rt[n], .rt_entries = x->nodes,
				.port_cfg = x->port_cfg };

	route_compute(c, &v, in_port, in_vc, h, r);
}

/*
 * Valid outputs, classes and the deroute budget at node 0 (0,0) of a
 * 3x3 HyperX with 3 classes (the card): toward 4 (1,1), 2 hops, the
 * minimal ports 0 and 2, the deroutes 1 and 3 while 3 - k > 2; toward
 * 1 (1,0), 1 hop, minimal port 0 and the deroute 1 (dimension 1 is
 * aligned: never its ports) while 3 - k > 1.
 */
static void outputs(void)
{
	static const struct {
		unsigned int dst, in_port, in_vc;
		uint8_t cls, flags;
		int vc;		/* -1: dropped (hop limit) */
		uint8_t min, der;
	} t[] = {
		{ 4, HOST, LOOM_VC_REQ0, LOOM_CLASS_REQ, 0, LOOM_VC_REQ0, 0x05, 0x0a },
		{ 4, 1, LOOM_VC_REQ0, LOOM_CLASS_REQ, 0, LOOM_VC_REQ1, 0x05, 0 },
		{ 4, 3, LOOM_VC_REQ1, LOOM_CLASS_REQ, 0, LOOM_VC_REQ_ADAPT, 0x05, 0 },
		{ 4, 1, LOOM_VC_REQ_ADAPT, LOOM_CLASS_REQ, 0, -1, 0, 0 },
		{ 4, HOST, LOOM_VC_REQ0, LOOM_CLASS_REQ, LOOM_PKT_F_ORDERED, LOOM_VC_REQ0, 0x01, 0 },
		{ 1, HOST, LOOM_VC_RESP0, LOOM_CLASS_RESP, 0, LOOM_VC_RESP0, 0x01, 0x02 },
		{ 1, 2, LOOM_VC_RESP0, LOOM_CLASS_RESP, 0, LOOM_VC_RESP1, 0x01, 0x02 },
		{ 1, 1, LOOM_VC_RESP1, LOOM_CLASS_RESP, 0, LOOM_VC_RESP_ADAPT, 0x01, 0 },
	};
	static struct hx x;
	struct route_cfg c;
	char what[256] = "";
	unsigned int bad = 0;

	hx_build(&x, 2, 3);
	cfg_init(&c, true, LOOM_NUM_VCS);
	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct route_hdr h = hdr(t[i].dst, t[i].cls, t[i].flags);
		struct route_result r;
		bool ok;

		rc(&x, &c, 0, t[i].in_port, t[i].in_vc, &h, &r);
		if (t[i].vc < 0)
			ok = r.drop == ROUTE_DROP_HOP_LIMIT;
		else
			ok = !r.drop && r.omniwar && r.vc == t[i].vc && r.min_mask == t[i].min &&
			     r.adapt_mask == t[i].der && r.port == 0 && r.hops_left == (t[i].dst == 4 ? 2 : 1);
		if (!ok && !bad++)
			snprintf(what, sizeof(what),
				 ": case %u (to %u in on port %u VC %u): drop %u, VC %u, minimal 0x%02x, "
				 "deroutes 0x%02x; want %s VC %d, minimal 0x%02x, deroutes 0x%02x",
				 i, t[i].dst, t[i].in_port, t[i].in_vc, r.drop, r.vc, r.min_mask,
				 r.adapt_mask, t[i].vc < 0 ? "a drop," : "", t[i].vc, t[i].min, t[i].der);
	}
	tap_ok(!bad, "omniwar outputs: class 0 from the host, the next class per hop, deroutes "
	       "while classes left > hops left, hop limit past the last class, ordered: W0 port "
	       "only (%zu cases)%s", sizeof(t) / sizeof(t[0]), what);
}

/* Generic VCs: class k on VC k, the last class the entry's, the VCs' limit too. */
static void generic(void)
{
	static struct hx x;
	struct route_cfg c;
	struct route_hdr h = hdr(26, LOOM_CLASS_REQ, 0);
	struct route_result r[7], small;

	hx_build(&x, 3, 6);
	cfg_init(&c, false, 8);
	for (unsigned int k = 0; k < 7; k++)
		rc(&x, &c, 0, k ? 1 : HOST, k ? k - 1 : 0, &h, &r[k]);
	cfg_init(&c, false, 4);
	rc(&x, &c, 0, 1, 3, &h, &small);
	/* 0 (0,0,0) -> 26 (2,2,2): minimal ports 1, 3, 5, deroutes 0, 2, 4 */
	tap_ok(!r[0].drop && r[0].vc == 0 && r[2].vc == 2 && r[5].vc == 5 && !r[5].drop &&
	       r[2].adapt_mask == 0x15 && !r[3].adapt_mask &&
	       r[6].drop == ROUTE_DROP_HOP_LIMIT && small.drop == ROUTE_DROP_HOP_LIMIT,
	       "omniwar generic VCs: VC %u, %u, %u for classes 0, 2, 5 (3 hops left: deroutes "
	       "0x%02x at class 2, want 0x15, 0x%02x at class 3), past class 5 of 6 or VCS=4: "
	       "drop %u, %u (want %u)", r[0].vc, r[2].vc, r[5].vc, r[2].adapt_mask,
	       r[3].adapt_mask, r[6].drop, small.drop, ROUTE_DROP_HOP_LIMIT);
}

/* The route word round trip: omniwar, minimal ports, deroutes, hops, VC, counted. */
static void packing(void)
{
	struct route_result r = { 0 }, u;

	r.port = 2;
	r.vc = LOOM_VC_REQ_ADAPT;
	r.omniwar = true;
	r.min_mask = 0x14;
	r.adapt_mask = 0x28;
	r.hops_left = 2;
	r.flits = 3;
	route_unpack(route_pack(&r), &u);
	route_unpack_ext(route_pack_ext(&r), &u);
	route_unpack_up(route_pack_up(&r), &u);
	tap_ok(u.omniwar && u.min_mask == 0x14 && u.adapt_mask == 0x28 && u.hops_left == 2 &&
	       u.vc == LOOM_VC_REQ_ADAPT && u.port == 2 && u.counted && !u.uproute && !u.dimwar,
	       "omniwar route packs and unpacks: omniwar %d, minimal 0x%02x, deroutes 0x%02x, "
	       "hops %u, VC %u, counted %d", u.omniwar, u.min_mask, u.adapt_mask, u.hops_left, u.vc,
	       u.counted);
}

/* The weights: (occupancy + flits) x hops for minimal ports, x (hops + 1) for deroutes. */
static void weights(void)
{
	static const struct {
		uint32_t occ[4];
		uint32_t usable;
		unsigned int want;
	} t[] = {
		{ { 0, 0, 0, 0 }, 0xf, 0 },	/* idle: the W0 port */
		{ { 2, 0, 1, 0 }, 0xf, 2 },	/* the other minimal: 8 < 10 */
		{ { 6, 0, 6, 0 }, 0xf, 1 },	/* a deroute: 9 < 18 */
		{ { 3, 1, 3, 1 }, 0xf, 0 },	/* 12, 12 and 4 x 3 = 12: a tie, W0 */
		{ { 9, 9, 9, 0 }, 0xb, 3 },	/* port 2 not usable: the deroute 3 */
		{ { 0, 0, 0, 0 }, 0xe, 2 },	/* W0 not usable: the other minimal */
	};
	char what[160] = "";
	unsigned int bad = 0;

	for (unsigned int i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		/* W0 port 0, minimal 0 and 2, deroutes 1 and 3, 3 flits, 2 hops */
		unsigned int got = route_omniwar_pick(0, 0x5, 0xa, t[i].usable, t[i].occ, 3, 2, 4, 0);

		if (got != t[i].want && !bad++)
			snprintf(what, sizeof(what), ": case %u: port %u, want %u", i, got, t[i].want);
	}
	tap_ok(!bad, "omniwar weights: minimal ports x hops, deroutes x (hops + 1), ties to the "
	       "W0 port, unusable ports never%s", what);
}

/*
 * Walk every pair of @x from its source's host: at each router the most
 * deroutes the entries allow (@greedy: the first deroute port while there
 * is one), else the highest minimal port.  Counts pairs whose hops are
 * not @want (N + M greedy, the minimal hops otherwise) or whose hop k is
 * not on class k's VC, or that do not arrive.
 */
static unsigned int walk(const struct hx *x, const struct route_cfg *c, bool greedy,
			 char *what, size_t len)
{
	unsigned int bad = 0;

	for (unsigned int s = 0; s < x->nodes; s++)
		for (unsigned int d = 0; d < x->nodes; d++) {
			struct route_hdr h = hdr(d, LOOM_CLASS_REQ, 0);
			unsigned int n = s, in_port = HOST, in_vc = 0, hops = 0, min = 0, want;
			bool ok = true;

			for (unsigned int k = 0; k < x->dims; k++)
				min += coord(s, k) != coord(d, k);
			want = greedy && min ? x->classes : min;
			for (;;) {
				struct route_result r;
				unsigned int p;
				int class_vc = route_omni_vc(c->card_vcs, c->vcs, h.class, hops);

				rc(x, c, n, in_port, in_vc, &h, &r);
				if (r.drop || r.port == HOST) {
					ok = !r.drop && n == d;
					break;
				}
				if (r.vc != class_vc || hops > x->classes) {
					ok = false;
					break;
				}
				if (greedy && r.adapt_mask)
					p = (unsigned int)__builtin_ctz(r.adapt_mask);
				else
					p = 31 - (unsigned int)__builtin_clz(r.min_mask);
				in_port = p ^ 1;	/* the peer's port back toward n */
				in_vc = r.vc;
				n = hx_peer(n, p);
				hops++;
			}
			if ((!ok || hops != want) && !bad++)
				snprintf(what, len, ": %u -> %u: %s after %u hops (want %u, %u classes)",
					 s, d, ok ? "arrived" : "lost or off class", hops, want,
					 x->classes);
		}
	return bad;
}

static void walks(void)
{
	static struct hx x2, x3;
	struct route_cfg card, gen;
	char w1[160] = "", w2[160] = "", w3[160] = "";
	unsigned int b1, b2, b3;

	hx_build(&x2, 2, 3);
	hx_build(&x3, 3, 6);
	cfg_init(&card, true, LOOM_NUM_VCS);
	cfg_init(&gen, false, 6);
	b1 = walk(&x2, &card, true, w1, sizeof(w1));
	b2 = walk(&x3, &gen, true, w2, sizeof(w2));
	b3 = walk(&x3, &gen, false, w3, sizeof(w3));
	tap_ok(!b1 && !b2, "omniwar walks with every deroute allowed: 3x3 (card, 3 classes) and "
	       "3x3x3 (VCS=6, 6 classes) take exactly N + M hops, hop k on class k (%u, %u pairs "
	       "wrong)%s%s", b1, b2, w1, w2);
	tap_ok(!b3, "omniwar walks on minimal ports, dimensions in any order: minimal hops "
	       "(%u pairs wrong)%s", b3, w3);
}

/*
 * VC allocation: a card with ports 0 and 1 in one dimension and the host
 * (node 2); the entry for node 0 says 2 hops by port 0, which is stuck.
 * Once a packet held there outweighs a deroute, requests from the host
 * deroute on port 1 on class 0 (REQ0), counted ADAPTIVE; ordered ones
 * wait; one that arrived on class 1 (1 class left after its hop's, for 2
 * hops) waits; one that arrived on class 2 is dropped (hop limit).
 */
static void allocation(void)
{
	static const unsigned int nodes[] = { 0, 1, 2 };
	const struct router_port_counters *c1;
	struct router_params p;
	struct fab_tally t;
	struct fab *f;
	int waits, last;

	router_preset_card(&p, 2);
	f = fab_single(&p, nodes);
	f->rt[0][0] |= LOOM_RT_W0_OMNIWAR | 2u << LOOM_RT_W0_HOPS_SHIFT |
		       3u << LOOM_RT_W0_CLASSES_SHIFT;
	fab_stuck_dimension(f);
	waits = fab_send(f, 1, 0, LOOM_VC_REQ1, LOOM_CLASS_REQ, 64, 600);
	last = fab_send(f, 1, 0, LOOM_VC_REQ_ADAPT, LOOM_CLASS_REQ, 64, 650);
	t = fab_tally(f, 0, 1, 900, LOOM_VC_REQ0, 1);
	c1 = router_port_counters(f->r[0], 1);
	tap_ok(t.on_vc >= 1 && !t.other && !t.ordered && !t.from && c1->adaptive == t.on_vc &&
	       !f->pkts[waits].delivered && !f->pkts[last].delivered &&
	       router_counters(f->r[0])->drops[ROUTE_DROP_HOP_LIMIT] == 1,
	       "omniwar allocation: with the minimal port stuck, %u requests deroute on port 1 / "
	       "REQ0 (want >= 1, ADAPTIVE counts %llu), %u on another VC, %u ordered ones, %u from "
	       "class 1 or 2 (want 0 each); hop-limit drops %llu (want 1)", t.on_vc,
	       (unsigned long long)c1->adaptive, t.other, t.ordered, t.from,
	       (unsigned long long)router_counters(f->r[0])->drops[ROUTE_DROP_HOP_LIMIT]);
	fab_free(f);
}

int main(void)
{
	tap_plan(7);
	outputs();
	generic();
	packing();
	weights();
	walks();
	allocation();
	return tap_exit_status();
}
