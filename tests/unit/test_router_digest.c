// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour digests: long random scenarios over every organisation,
 * parameter and register of the router (card VCs with adaptive routing,
 * datelines and barriers, generic VCs, wormhole, speedup, uneven stages,
 * every arbiter policy with IWA weights, fully buffered crossbar, YARC,
 * lines and rings of routers over channel lines, malformed flits, ready
 * held low, links going down, fault masks, the forward-progress timer,
 * idle skipping) whose every observable output is hashed cycle by cycle:
 * each flit on each output wire (port, VC, head/tail, all its bytes),
 * each credit returned upstream, router_next_event(), drop events, port
 * events, and every VC's state and fill and every counter at intervals.
 * The hashes at 16 checkpoints per scenario are checked in
 * (tests/unit/golden/router_digest.txt); a change of one cycle anywhere
 * changes them.  The golden traces show small cases in full; these cover
 * the corners at scale.
 *
 * When a change of timing is intended, rewrite the digests on purpose:
 *
 *   LOOM_GOLDEN_UPDATE=1 build/tests/unit/test_router_digest
 *
 * To find where two builds differ, print one scenario's events and diff
 * the files of both builds:
 *
 *   LOOM_DIGEST_DUMP=NAME=FILE build/tests/unit/test_router_digest
 */
#include "router/chan_line.h"
#include "router/router.h"
#include "tap.h"

#include <inttypes.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define DG_MAX_ROUTERS	4
#define DG_NODES	256
#define DG_CHECKPOINTS	16
#define DG_DELAY	4	/* sink credit return: 1 .. DG_DELAY - 1 cycles later */

/* scenario features */
#define DG_MALFORMED	(1u << 0)	/* bad VCs, stray body flits, heads inside packets, ... */
#define DG_READY	(1u << 1)	/* sinks drop ready now and then */
#define DG_FAULTS	(1u << 2)	/* links down, fault masks, fp timer, clear dead */
#define DG_SKIP		(1u << 3)	/* bursts, and idle skipping between them */
#define DG_WEIGHTS	(1u << 4)	/* random IWA weights */
#define DG_SHORT	(1u << 5)	/* packets declared longer than sent, or sent longer */
#define DG_ONEFLIT	(1u << 6)	/* payloads of at most FLIT_BYTES - 48 bytes */

struct dg_scn {
	const char *name;
	void (*params)(struct router_params *p);
	unsigned int routers;	/* 1: one router; more: a line (ring if @ring) */
	bool ring;
	unsigned int link_lat;
	unsigned int cycles;
	unsigned int load;	/* packet starts per 1024 cycles and terminal */
	uint32_t flags;
};

struct dg_vcsrc {
	bool open;
	unsigned int flit, flits;
	uint8_t pkt[512];
};

struct dg_term {
	unsigned int router, port, node;
	int credits[CHAN_VCS_MAX];
	struct dg_vcsrc vc[CHAN_VCS_MAX];
	unsigned int rr;
	uint8_t ret[DG_DELAY][CHAN_VCS_MAX];	/* credits to return, by cycle mod DG_DELAY */
	bool ready;
};

struct dg {
	const struct dg_scn *s;
	struct router_params p;
	unsigned int n_net;
	struct router *r[DG_MAX_ROUTERS];
	uint32_t rt[DG_MAX_ROUTERS][DG_NODES * 2];
	uint32_t port_cfg[DG_MAX_ROUTERS][LOOM_MAX_PORTS];
	uint32_t start_vc1[DG_MAX_ROUTERS][DG_NODES / 32];
	struct chan_line lines[DG_MAX_ROUTERS][2];	/* router i port 1 -> router i+1 port 0, back */
	unsigned int n_lines;
	struct dg_term term[DG_MAX_ROUTERS * ROUTER_PORTS_MAX];
	unsigned int n_terms;
	uint64_t rng, now, quiet_until, hash;
	FILE *dump;
};

static uint64_t dg_rnd(struct dg *g)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return g->rng;
}

/* true with probability @per / 1024 */
static bool dg_chance(struct dg *g, unsigned int per)
{
	return (dg_rnd(g) & 1023) < per;
}

static void dg_mix(struct dg *g, uint64_t x)
{
	g->hash = (g->hash ^ x) * 0x100000001b3ull;
	g->hash ^= g->hash >> 29;
}

static void __attribute__((format(printf, 2, 3))) dg_dump(struct dg *g, const char *fmt, ...)
{
	va_list ap;

	if (!g->dump)
		return;
	va_start(ap, fmt);
	vfprintf(g->dump, fmt, ap);
	va_end(ap);
}

/* ---- the fabric ------------------------------------------------------------ */

static unsigned int dg_node(unsigned int router, unsigned int port)
{
	return router * 64 + port;
}

static void dg_set_route(struct dg *g, unsigned int i, unsigned int dst, unsigned int port,
			 uint32_t adapt_ports, bool adaptive)
{
	bool wide = g->n_net > LOOM_RT_PORT_HOST;
	uint32_t w0;

	if ((int)port == (int)g->p.ports - 1 && g->p.host_ports)
		w0 = wide ? router_entry_w0_wide(LOOM_RT_WIDE_PORT_HOST) :
			    router_entry_w0(LOOM_RT_PORT_HOST);
	else
		w0 = wide ? router_entry_w0_wide(port) : router_entry_w0(port);
	if (adaptive)
		w0 |= LOOM_RT_W0_ADAPTIVE;
	g->rt[i][2 * dst] = w0;
	g->rt[i][2 * dst + 1] = dst | adapt_ports << LOOM_RT_W1_ADAPT_PORTS_SHIFT;
}

/* Output port of router @i toward router @j in a line or ring of @n. */
static unsigned int dg_dir(const struct dg *g, unsigned int i, unsigned int j)
{
	unsigned int n = g->s->routers, right = (j + n - i) % n;

	if (!g->s->ring)
		return j < i ? 0 : 1;
	return right <= n / 2 ? 1 : 0;
}

static void dg_build(struct dg *g)
{
	const struct dg_scn *s = g->s;
	unsigned int n = s->routers, first_term = n > 1 ? 2 : 0;
	char err[256];

	for (unsigned int i = 0; i < n; i++) {
		struct route_view v = {
			.rt = g->rt[i], .rt_entries = DG_NODES - 8,
			.port_cfg = g->port_cfg[i],
			.start_vc1 = g->start_vc1[i], .start_vc1_bits = DG_NODES,
			.wide_ports = g->n_net > LOOM_RT_PORT_HOST,
		};

		for (unsigned int k = 0; k < LOOM_MAX_PORTS; k++)
			g->port_cfg[i][k] = LOOM_VCT_PORT_DIM_NONE;
		if (n > 1) {
			/* one dimension; the ring's dateline on router 0's right port */
			g->port_cfg[i][0] = 0;
			g->port_cfg[i][1] = 0 | (i == 0 && s->ring ? LOOM_VCT_PORT_DATELINE : 0);
		}
		for (unsigned int w = 0; w < DG_NODES / 32; w++)
			g->start_vc1[i][w] = (uint32_t)dg_rnd(g) & 0x11111111u;
		g->r[i] = router_new(&g->p, &v, err, sizeof(err));
		if (!g->r[i]) {
			fprintf(stderr, "router_new: %s\n", err);
			exit(2);
		}
		for (unsigned int port = first_term; port < g->p.ports; port++) {
			struct dg_term *t = &g->term[g->n_terms++];

			t->router = i;
			t->port = port;
			t->node = dg_node(i, port);
			t->ready = true;
			for (unsigned int c = 0; c < CHAN_VCS_MAX; c++)
				t->credits[c] = (int)g->p.buf_depth;
		}
	}
	/* routes: every terminal node from every router; some adaptive */
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int k = 0; k < g->n_terms; k++) {
			const struct dg_term *t = &g->term[k];
			bool adaptive = g->p.vc_model == 1 && (t->node % 3) != 0;
			unsigned int port;
			uint32_t mask;

			if (t->router == i) {
				port = t->port;
				mask = port < g->n_net && port < 8 ? 1u << port : 0;
				if (port < g->n_net && t->node % 5 == 1)
					mask |= 1u << ((port + 1) % (g->n_net < 8 ? g->n_net : 8));
			} else {
				port = dg_dir(g, i, t->router);
				mask = 1u << port;
				if (s->ring && t->node % 2)
					mask = 3;
			}
			dg_set_route(g, i, t->node, port, mask, adaptive);
		}
	for (unsigned int i = 0; n > 1 && i < n; i++) {
		if (i + 1 == n && !s->ring)
			break;
		chan_line_init(&g->lines[i][0], s->link_lat);
		chan_line_init(&g->lines[i][1], s->link_lat);
		g->n_lines++;
	}
	/*
	 * 400 weights each router's IWA arbiters take (a draw naming no IWA
	 * arbiter or a requester beyond it is refused and drawn again), so
	 * that the patterns' weights differ and the pattern each stage
	 * gives its arbiter shows in the digests.
	 */
	if (s->flags & DG_WEIGHTS)
		for (unsigned int i = 0; i < n; i++)
			for (unsigned int k = 0, set = 0; k < 100000 && set < 400; k++)
				set += router_set_arb_weight(g->r[i], (enum router_arb_unit)(dg_rnd(g) % 5),
							     (unsigned int)(dg_rnd(g) % 80),
							     (unsigned int)(dg_rnd(g) % 64),
							     (unsigned int)(dg_rnd(g) % 2),
							     (unsigned int)(dg_rnd(g) % 32)) == 0;
	if (s->flags & DG_FAULTS)
		router_set_out_depth(g->r[0], 0, 0, g->p.buf_depth - 1);
}

/* ---- terminals -------------------------------------------------------------- */

static unsigned int dg_class_of(struct dg *g, unsigned int vc)
{
	int c;

	if (g->p.vc_model != 1)
		return (unsigned int)(dg_rnd(g) % 2);
	c = route_class_of_vc(vc);
	if (c < 0 || ((g->s->flags & DG_MALFORMED) && dg_chance(g, 8)))
		return (unsigned int)(dg_rnd(g) % 4);
	return (unsigned int)c;
}

/* A new packet on VC @vc of terminal @t. */
static void dg_new_packet(struct dg *g, struct dg_term *t, unsigned int vc)
{
	static const unsigned int lens[] = { 0, 0, 8, 16, 40, 64, 64, 100, 200, 256 };
	struct dg_vcsrc *q = &t->vc[vc];
	struct loom_pkt_hdr h = { .type = LOOM_PKT_PUT };
	const struct dg_term *d = &g->term[dg_rnd(g) % g->n_terms];
	unsigned int len = lens[dg_rnd(g) % 10], fb = g->p.flit_bytes;

	if (g->s->flags & DG_ONEFLIT)
		len = fb > LOOM_PKT_HDR_SIZE ? (unsigned int)(dg_rnd(g) % (fb - LOOM_PKT_HDR_SIZE + 1)) : 0;
	h.class = (uint8_t)dg_class_of(g, vc);
	h.dst_node = (uint16_t)d->node;
	if (g->p.vc_model == 1 && h.class == LOOM_CLASS_BARRIER)
		h.dst_node = (uint16_t)(dg_rnd(g) % (g->n_net + 2));
	if (dg_chance(g, 6))
		h.dst_node = (uint16_t)(DG_NODES - 16 + dg_rnd(g) % 16);	/* no route */
	if (dg_chance(g, 4))
		h.hops = (uint8_t)(LOOM_PKT_MAX_HOPS - dg_rnd(g) % 2);
	if (dg_chance(g, 200))
		h.flags |= LOOM_PKT_F_ORDERED;
	if (dg_chance(g, 100))
		h.flags |= LOOM_PKT_F_VC1;
	if ((g->s->flags & DG_MALFORMED) && dg_chance(g, 4))
		len = LOOM_PKT_MAX_PAYLOAD + 8;
	h.len = (uint16_t)len;
	h.src_node = (uint16_t)t->node;
	h.op_id = (uint32_t)dg_rnd(g);
	memcpy(q->pkt, &h, sizeof(h));
	for (unsigned int i = LOOM_PKT_HDR_SIZE; i < sizeof(q->pkt); i++)
		q->pkt[i] = (uint8_t)dg_rnd(g);
	q->open = true;
	q->flit = 0;
	q->flits = (LOOM_PKT_HDR_SIZE + len + fb - 1) / fb;
	if ((g->s->flags & DG_SHORT) && dg_chance(g, 60))
		q->flits = q->flits > 1 ? q->flits - 1 - (unsigned int)(dg_rnd(g) % (q->flits - 1)) : 1;
	else if ((g->s->flags & DG_SHORT) && dg_chance(g, 30))
		q->flits += 1 + (unsigned int)(dg_rnd(g) % 2);
}

/* A malformed flit on @in instead of a regular one. */
static bool dg_malformed(struct dg *g, struct dg_term *t, struct chan *in)
{
	unsigned int kind = (unsigned int)(dg_rnd(g) % 4), vc = (unsigned int)(dg_rnd(g) % CHAN_VCS_MAX);

	memset(&in->fwd, 0, sizeof(in->fwd));
	for (unsigned int i = 0; i < g->p.flit_bytes; i++)
		in->fwd.data[i] = (uint8_t)dg_rnd(g);
	in->fwd.valid = true;
	in->fwd.vc = (uint8_t)vc;
	switch (kind) {
	case 0:	/* a VC the router does not have, or any VC */
		in->fwd.vc = (uint8_t)(g->p.vcs + dg_rnd(g) % (CHAN_VCS_MAX - g->p.vcs + 1));
		if (in->fwd.vc >= CHAN_VCS_MAX)
			in->fwd.vc = CHAN_VCS_MAX - 1;
		break;
	case 1:	/* a body flit on a VC without an open packet (or with one) */
		in->fwd.tail = dg_chance(g, 512);
		break;
	case 2:	/* a head flit while a packet may be open */
		in->fwd.head = true;
		in->fwd.data[1] = (uint8_t)dg_class_of(g, vc);
		in->fwd.data[2] = 0;
		in->fwd.data[3] = 0;
		break;
	default:	/* a flit without a credit */
		if (t->vc[vc].open || vc >= g->p.vcs)
			return false;
		in->fwd.head = true;
		in->fwd.tail = true;
		break;
	}
	if (in->fwd.vc < g->p.vcs && kind != 3)
		t->credits[in->fwd.vc]--;
	return true;
}

static void dg_term_drive(struct dg *g, struct dg_term *t)
{
	struct router *r = g->r[t->router];
	struct chan *in = router_in(r, t->port), *out = router_out(r, t->port);
	unsigned int slot = (unsigned int)(g->now % DG_DELAY), vc = CHAN_VCS_MAX;
	bool burst = !(g->s->flags & DG_SKIP) || g->now >= g->quiet_until;
	struct dg_vcsrc *q;

	memcpy(out->back.credits, t->ret[slot], CHAN_VCS_MAX);
	memset(t->ret[slot], 0, CHAN_VCS_MAX);
	if ((g->s->flags & DG_READY) && dg_chance(g, t->ready ? 30 : 120))
		t->ready = !t->ready;
	out->back.ready = t->ready;
	if ((g->s->flags & DG_MALFORMED) && burst && dg_chance(g, 12) && dg_malformed(g, t, in))
		return;
	if (burst && dg_chance(g, g->s->load)) {
		unsigned int v = (unsigned int)(dg_rnd(g) % g->p.vcs);

		if (!t->vc[v].open)
			dg_new_packet(g, t, v);
	}
	for (unsigned int i = 0; i < g->p.vcs; i++) {
		unsigned int v = (t->rr + i) % g->p.vcs;

		if (t->vc[v].open && t->credits[v] > 0) {
			vc = v;
			break;
		}
	}
	if (vc == CHAN_VCS_MAX)
		return;
	t->rr = vc + 1;
	q = &t->vc[vc];
	in->fwd.valid = true;
	in->fwd.head = q->flit == 0;
	in->fwd.tail = q->flit + 1 == q->flits;
	in->fwd.vc = (uint8_t)vc;
	memcpy(in->fwd.data, q->pkt + q->flit * g->p.flit_bytes, g->p.flit_bytes);
	t->credits[vc]--;
	if (++q->flit == q->flits)
		q->open = false;
}

static void dg_term_read(struct dg *g, struct dg_term *t)
{
	struct router *r = g->r[t->router];
	struct chan *in = router_in(r, t->port);
	const struct flit *f = &router_out(r, t->port)->fwd;

	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		t->credits[v] += in->back.credits[v];
	if (f->valid) {
		unsigned int d = 1 + (unsigned int)(dg_rnd(g) % (DG_DELAY - 1));

		t->ret[(g->now + d) % DG_DELAY][f->vc]++;
		if ((g->s->flags & DG_MALFORMED) && dg_chance(g, 2))
			t->ret[(g->now + d) % DG_DELAY][f->vc]++;	/* a credit it never got */
	}
}

/* ---- hashing what the routers show -------------------------------------------- */

static void dg_observe(struct dg *g)
{
	struct router_drop d;

	for (unsigned int i = 0; i < g->s->routers; i++) {
		struct router *r = g->r[i];
		uint64_t ev = router_next_event(r), pe;

		for (unsigned int p = 0; p < g->p.ports; p++) {
			const struct flit *f = &router_out(r, p)->fwd;
			const uint8_t *cr = router_in(r, p)->back.credits;
			uint64_t c;

			if (f->valid) {
				dg_mix(g, 1 | (uint64_t)i << 8 | (uint64_t)p << 16 | (uint64_t)f->vc << 24 |
					  (uint64_t)f->head << 32 | (uint64_t)f->tail << 33);
				for (unsigned int b = 0; b < g->p.flit_bytes; b += 8) {
					memcpy(&c, f->data + b, 8);
					dg_mix(g, c);
				}
				dg_dump(g, "%" PRIu64 " r%u out%u vc%u %c%c %02x%02x%02x%02x%02x%02x%02x%02x\n",
					g->now, i, p, f->vc, f->head ? 'H' : '-', f->tail ? 'T' : '-',
					f->data[0], f->data[1], f->data[2], f->data[3], f->data[4],
					f->data[5], f->data[6], f->data[7]);
			}
			memcpy(&c, cr, 8);
			if (c) {
				dg_mix(g, 2 | (uint64_t)i << 8 | (uint64_t)p << 16);
				dg_mix(g, c);
				dg_dump(g, "%" PRIu64 " r%u in%u credits %016" PRIx64 "\n", g->now, i, p, c);
			}
		}
		dg_mix(g, ev == ROUTER_NEVER ? ~0ull : ev - router_now(r));
		dg_dump(g, "%" PRIu64 " r%u next %" PRId64 "\n", g->now, i,
			ev == ROUTER_NEVER ? -1 : (int64_t)(ev - router_now(r)));
		while ((g->now & 1023) < 900 && router_drop_pop(r, &d)) {
			uint64_t h;

			memcpy(&h, d.hdr, 8);
			dg_mix(g, 3 | (uint64_t)d.reason << 8 | (uint64_t)d.in_port << 16 |
				  (uint64_t)d.out_port << 24 | (uint64_t)d.vc << 32 |
				  (uint64_t)d.hdr_bytes << 40);
			dg_mix(g, h);
			dg_mix(g, d.cycle);
			dg_dump(g, "%" PRIu64 " r%u drop %u in%u out%u vc%u bytes %u cycle %" PRIu64 "\n",
				g->now, i, d.reason, d.in_port, d.out_port, d.vc, d.hdr_bytes, d.cycle);
		}
		pe = router_take_port_events(r);
		if (pe) {
			dg_mix(g, 4 | pe << 8);
			dg_dump(g, "%" PRIu64 " r%u port events %" PRIx64 "\n", g->now, i, pe);
		}
	}
}

/* Every VC's state and fill, every counter. */
static void dg_observe_state(struct dg *g)
{
	for (unsigned int i = 0; i < g->s->routers; i++) {
		struct router *r = g->r[i];
		const struct router_counters *c = router_counters(r);

		for (unsigned int p = 0; p < g->p.ports; p++) {
			const struct router_port_counters *pc = router_port_counters(r, p);
			uint64_t st = 0;

			for (unsigned int v = 0; v < g->p.vcs; v++)
				st = st << 8 | router_in_vc_state(r, p, v) << 5 |
				     (router_in_vc_fill(r, p, v) & 31);
			dg_mix(g, st);
			dg_mix(g, pc->flits_in ^ pc->flits_out << 20 ^ pc->pkts_in << 40);
			dg_mix(g, pc->pkts_out ^ pc->malformed << 16 ^ pc->credit_errors << 32);
			dg_mix(g, pc->adaptive ^ pc->deterministic << 24 ^ pc->credit_stall_cycles << 40);
			dg_mix(g, router_port_dead(r, p));
			dg_dump(g, "%" PRIu64 " r%u port%u states %016" PRIx64 " in %" PRIu64 "/%" PRIu64
				" out %" PRIu64 "/%" PRIu64 " malformed %" PRIu64 " credit_errors %" PRIu64
				" adaptive %" PRIu64 " det %" PRIu64 " stall %" PRIu64 "\n",
				g->now, i, p, st, pc->flits_in, pc->pkts_in, pc->flits_out, pc->pkts_out,
				pc->malformed, pc->credit_errors, pc->adaptive, pc->deterministic,
				pc->credit_stall_cycles);
		}
		dg_mix(g, c->cycles);
		for (unsigned int k = 0; k < ROUTE_DROP_REASONS; k++)
			dg_mix(g, c->drops[k]);
		dg_mix(g, c->drop_events_lost ^ c->va_conflicts << 20 ^ c->sa_conflicts << 40);
		dg_mix(g, router_quiescent(r));
		dg_dump(g, "%" PRIu64 " r%u cycles %" PRIu64 " va_conflicts %" PRIu64
			" sa_conflicts %" PRIu64 " lost %" PRIu64 " quiescent %d\n", g->now, i,
			c->cycles, c->va_conflicts, c->sa_conflicts, c->drop_events_lost,
			router_quiescent(r));
	}
}

/* ---- faults and skipping -------------------------------------------------------- */

static void dg_faults(struct dg *g)
{
	struct router *r = g->r[dg_rnd(g) % g->s->routers];
	unsigned int port = (unsigned int)(dg_rnd(g) % (g->n_net + 1));

	switch (dg_rnd(g) % 8) {
	case 0:
		router_set_port_up(r, port, false);
		break;
	case 1:
	case 2:
		router_set_port_up(r, port, true);
		break;
	case 3:
		router_set_port_disabled(r, port, dg_chance(g, 400));
		break;
	case 4:
		router_set_fp_timeout(r, dg_chance(g, 300) ? 0 : 20 + (uint32_t)(dg_rnd(g) % 200));
		break;
	case 5:
		router_clear_dead(r);
		break;
	default:
		for (unsigned int k = 0; k <= g->n_net; k++)
			router_set_port_disabled(r, k, false);
		break;
	}
	dg_dump(g, "%" PRIu64 " fault\n", g->now);
}

/* Nothing arrives until @until: may the single router skip? */
static bool dg_inputs_idle(const struct dg *g)
{
	for (unsigned int k = 0; k < g->n_terms; k++) {
		const struct dg_term *t = &g->term[k];

		for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
			if (t->vc[v].open && t->credits[v] > 0)
				return false;
		for (unsigned int s = 0; s < DG_DELAY; s++) {
			uint64_t c;

			memcpy(&c, t->ret[s], 8);
			if (c)
				return false;
		}
	}
	return true;
}

static void dg_skip(struct dg *g)
{
	struct router *r = g->r[0];
	uint64_t ev, to;

	if (g->now >= g->quiet_until) {
		if (dg_chance(g, 40))
			g->quiet_until = g->now + 50 + dg_rnd(g) % 400;
		return;
	}
	if (!dg_inputs_idle(g))
		return;
	ev = router_next_event(r);
	to = ev < g->quiet_until ? ev : g->quiet_until;
	if (to <= g->now + 1)
		return;
	if (!router_skip_to(r, to)) {
		dg_mix(g, 0xbad);
		dg_dump(g, "%" PRIu64 " skip to %" PRIu64 " refused\n", g->now, to);
		return;
	}
	dg_mix(g, 5 | (to - g->now) << 8);
	dg_dump(g, "%" PRIu64 " skip to %" PRIu64 "\n", g->now, to);
	g->now = to;
}

/* ---- one scenario -------------------------------------------------------------- */

static void dg_step(struct dg *g)
{
	const struct dg_scn *s = g->s;

	if ((s->flags & DG_FAULTS) && dg_chance(g, 6))
		dg_faults(g);
	for (unsigned int k = 0; k < g->n_terms; k++)
		dg_term_drive(g, &g->term[k]);
	for (unsigned int i = 0; i < s->routers; i++)
		router_cycle(g->r[i]);
	dg_observe(g);
	for (unsigned int i = 0; i < g->n_lines; i++) {
		unsigned int j = (i + 1) % s->routers;

		chan_line_step(&g->lines[i][0], router_out(g->r[i], 1), router_in(g->r[j], 0));
		chan_line_step(&g->lines[i][1], router_out(g->r[j], 0), router_in(g->r[i], 1));
	}
	for (unsigned int k = 0; k < g->n_terms; k++)
		dg_term_read(g, &g->term[k]);
	g->now++;
	if ((g->now & 63) == 0)
		dg_observe_state(g);
	if (s->flags & DG_SKIP)
		dg_skip(g);
}

/* Run scenario @s; @sums gets the hash at each checkpoint. */
static void dg_run(const struct dg_scn *s, uint64_t *sums, FILE *dump)
{
	struct dg *g = calloc(1, sizeof(*g));
	unsigned int cp = 0;

	if (!g)
		exit(2);
	g->s = s;
	g->dump = dump;
	g->rng = 0x243f6a8885a308d3ull ^ (uint64_t)strlen(s->name) * 0x9e3779b97f4a7c15ull;
	for (const char *c = s->name; *c; c++)
		g->rng = (g->rng ^ (uint8_t)*c) * 0x100000001b3ull + 1;
	g->hash = 0xcbf29ce484222325ull;
	s->params(&g->p);
	g->n_net = g->p.ports - g->p.host_ports;
	dg_build(g);
	while (cp < DG_CHECKPOINTS) {
		dg_step(g);
		while (cp < DG_CHECKPOINTS && g->now >= (uint64_t)s->cycles * (cp + 1) / DG_CHECKPOINTS)
			sums[cp++] = g->hash;
	}
	dg_observe_state(g);
	sums[DG_CHECKPOINTS - 1] = g->hash;
	for (unsigned int i = 0; i < s->routers; i++)
		router_free(g->r[i]);
	for (unsigned int i = 0; i < g->n_lines; i++) {
		chan_line_free(&g->lines[i][0]);
		chan_line_free(&g->lines[i][1]);
	}
	free(g);
}

/* ---- the scenarios ----------------------------------------------------------- */

static void p_card(struct router_params *p)
{
	router_preset_card(p, 8);
}

static void p_card4(struct router_params *p)
{
	router_preset_card(p, 4);
	p->fp_timeout = 300;
}

static void p_card_bench(struct router_params *p)
{
	router_preset_card(p, 6);
	p->vc_model = 0;
	p->vcs = 4;
}

static void p_tiled_mixed(struct router_params *p)
{
	router_preset_card(p, 5);
	p->vc_model = 0;
	p->vcs = 3;
	p->wormhole_vcs = 5;
	p->speedup = 2;
	p->lat_bw = 2;
	p->lat_rc = 2;
	p->lat_va = 1;
	p->lat_sa = 2;
	p->lat_row = 3;
	p->lat_sub = 1;
	p->lat_col = 2;
	p->lat_out = 2;
	p->lat_lt = 3;
	p->row_depth = 3;
	p->col_depth = 2;
	p->arb_sa_in = ARB_MATRIX;
	p->arb_sa_out = ARB_T3E;
	p->arb_out = ARB_IWA;
	p->arb_va_in = ARB_IWA;
	p->arb_va_out = ARB_MATRIX;
}

static void p_tiled_t3e(struct router_params *p)
{
	router_preset_card(p, 7);
	p->arb_sa_in = ARB_T3E;
	p->arb_sa_out = ARB_IWA;
	p->arb_out = ARB_T3E;
	p->arb_va_in = ARB_T3E;
	p->arb_va_out = ARB_IWA;
	p->iwa_bits = 3;
	p->row_depth = 5;
	p->col_depth = 4;
	p->speedup = 3;
}

static void p_xbar(struct router_params *p)
{
	router_preset_xbar(p, 8, 4);
	p->wormhole_vcs = 0xa;
	p->buf_depth = 32;
	p->arb_sa_in = ARB_IWA;
	p->arb_sa_out = ARB_MATRIX;
	p->arb_va_in = ARB_MATRIX;
	p->arb_va_out = ARB_T3E;
}

static void p_xbar_speedup(struct router_params *p)
{
	router_preset_xbar(p, 6, 4);
	p->speedup = 2;
	p->col_depth = 3;
	p->lat_st = 2;
	p->lat_sa = 2;
	p->lat_lt = 2;
	p->lat_va = 3;
	p->arb_sa_out = ARB_IWA;
	p->arb_sa_in = ARB_T3E;
}

static void p_xbar_card(struct router_params *p)
{
	router_preset_card(p, 6);
	p->org = ROUTER_ORG_XBAR;
	p->wormhole_vcs = 0x30;
}

static void p_fbx(struct router_params *p)
{
	router_preset_fbx(p, 8, 2);
	p->buf_depth = 40;
}

static void p_yarc(struct router_params *p)
{
	router_preset_yarc(p);
	p->buf_depth = 40;
}

static void p_line(struct router_params *p)
{
	router_preset_card(p, 4);
}

static void p_ring(struct router_params *p)
{
	router_preset_xbar(p, 4, 2);
	p->buf_depth = 24;
	p->wormhole_vcs = 2;
}

static void p_narrow(struct router_params *p)
{
	router_preset_card(p, 3);
	p->vc_model = 0;
	p->vcs = 1;
	p->flit_bytes = 8;
	p->buf_depth = 4;
	p->wormhole_vcs = 1;
	p->row_depth = 2;
	p->col_depth = 1;
}

static void p_oneflit(struct router_params *p)
{
	router_preset_card(p, 6);
	p->vc_model = 0;
	p->vcs = 3;
	p->flit_bytes = 64;
	p->buf_depth = 8;
}

/* long stages: credits and stamps mature many cycles after the last change */
static void p_tiled_slow(struct router_params *p)
{
	router_preset_card(p, 3);
	p->vc_model = 0;
	p->vcs = 2;
	p->lat_bw = 3;
	p->lat_rc = 2;
	p->lat_va = 3;
	p->lat_sa = 2;
	p->lat_row = 6;
	p->lat_sub = 3;
	p->lat_col = 5;
	p->lat_out = 4;
	p->lat_lt = 2;
	p->row_depth = 4;
	p->col_depth = 3;
}

static void p_xbar_slow(struct router_params *p)
{
	router_preset_xbar(p, 4, 2);
	p->wormhole_vcs = 1;
	p->lat_bw = 4;
	p->lat_rc = 3;
	p->lat_va = 2;
	p->lat_sa = 3;
	p->lat_st = 5;
	p->lat_lt = 4;
}

static const struct dg_scn scenarios[] = {
	{ "card", p_card, 1, false, 0, 20000, 70, DG_READY },
	{ "card_faults", p_card4, 1, false, 0, 20000, 60,
	  DG_MALFORMED | DG_READY | DG_FAULTS | DG_SHORT },
	{ "card_skip", p_card, 1, false, 0, 20000, 80, DG_SKIP },
	{ "tiled_bench", p_card_bench, 1, false, 0, 20000, 120, 0 },
	{ "tiled_mixed", p_tiled_mixed, 1, false, 0, 15000, 90,
	  DG_WEIGHTS | DG_READY | DG_SHORT | DG_MALFORMED },
	{ "tiled_t3e", p_tiled_t3e, 1, false, 0, 15000, 70, DG_WEIGHTS | DG_FAULTS },
	{ "xbar", p_xbar, 1, false, 0, 15000, 80, DG_WEIGHTS | DG_READY | DG_SHORT },
	{ "xbar_speedup", p_xbar_speedup, 1, false, 0, 15000, 110,
	  DG_WEIGHTS | DG_MALFORMED | DG_FAULTS },
	{ "xbar_card", p_xbar_card, 1, false, 0, 15000, 60, DG_READY | DG_SKIP },
	{ "fbx", p_fbx, 1, false, 0, 10000, 80, DG_READY },
	{ "yarc", p_yarc, 1, false, 0, 3000, 40, 0 },
	{ "line", p_line, 3, false, 2, 15000, 50, DG_FAULTS | DG_SHORT },
	{ "ring", p_ring, 4, true, 1, 15000, 80, 0 },
	{ "narrow", p_narrow, 1, false, 0, 10000, 80, DG_MALFORMED | DG_READY },
	{ "oneflit", p_oneflit, 1, false, 0, 20000, 500, DG_ONEFLIT },
	{ "oneflit_skip", p_oneflit, 1, false, 0, 20000, 300, DG_ONEFLIT | DG_SKIP | DG_READY },
	{ "tiled_slow", p_tiled_slow, 1, false, 0, 15000, 25, DG_SKIP | DG_READY | DG_FAULTS },
	{ "xbar_slow", p_xbar_slow, 1, false, 0, 15000, 25, DG_SKIP | DG_READY },
};

#define N_SCN (sizeof(scenarios) / sizeof(scenarios[0]))

static const char *golden_path(void)
{
	static char path[600];
	char src[512];

	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(path, sizeof(path), "%s/golden/router_digest.txt", dirname(src));
	return path;
}

/* The checked-in sums of @name; false if absent. */
static bool golden_load(const char *name, uint64_t *want)
{
	FILE *fp = fopen(golden_path(), "r");
	char line[1024];
	bool found = false;

	if (!fp)
		return false;
	while (!found && fgets(line, sizeof(line), fp)) {
		char n[64];
		int off = 0, k;

		if (line[0] == '#' || sscanf(line, "%63s%n", n, &off) != 1 || strcmp(n, name))
			continue;
		found = true;
		for (k = 0; k < DG_CHECKPOINTS; k++) {
			int used = 0;

			if (sscanf(line + off, " %" SCNx64 "%n", &want[k], &used) != 1) {
				found = false;
				break;
			}
			off += used;
		}
	}
	fclose(fp);
	return found;
}

int main(void)
{
	uint64_t sums[N_SCN][DG_CHECKPOINTS];
	const char *upd = getenv("LOOM_GOLDEN_UPDATE"), *dump = getenv("LOOM_DIGEST_DUMP");

	tap_plan((int)N_SCN);
	for (unsigned int i = 0; i < N_SCN; i++) {
		const struct dg_scn *s = &scenarios[i];
		size_t nl = strlen(s->name);
		uint64_t want[DG_CHECKPOINTS];
		FILE *df = NULL;
		int bad = -1;

		if (dump && !strncmp(dump, s->name, nl) && dump[nl] == '=') {
			df = fopen(dump + nl + 1, "w");
			if (!df)
				perror(dump + nl + 1);
		}
		dg_run(s, sums[i], df);
		if (df)
			fclose(df);
		if (upd) {
			tap_ok(1, "digest %s: %u cycles recorded", s->name, s->cycles);
			continue;
		}
		if (!golden_load(s->name, want)) {
			tap_ok(0, "digest %s: no checked-in sums in %s", s->name, golden_path());
			continue;
		}
		for (int k = 0; k < DG_CHECKPOINTS && bad < 0; k++)
			if (want[k] != sums[i][k])
				bad = k;
		if (bad < 0) {
			tap_ok(1, "digest %s: %u cycles, all %d checkpoints match", s->name, s->cycles,
			       DG_CHECKPOINTS);
			continue;
		}
		tap_ok(0, "digest %s: the behaviour changed between cycle %u and %u", s->name,
		       bad ? s->cycles * (unsigned int)bad / DG_CHECKPOINTS : 0,
		       s->cycles * (unsigned int)(bad + 1) / DG_CHECKPOINTS);
		tap_diag("checkpoint %d: want %016" PRIx64 ", got %016" PRIx64, bad, want[bad],
			 sums[i][bad]);
		tap_diag("events of both builds: LOOM_DIGEST_DUMP=%s=FILE %s, then diff", s->name,
			 "build/tests/unit/test_router_digest");
		tap_diag("if the timing change is intended: LOOM_GOLDEN_UPDATE=1 %s",
			 "build/tests/unit/test_router_digest");
	}
	if (upd) {
		FILE *fp = fopen(golden_path(), "w");

		if (!fp) {
			perror(golden_path());
			return 1;
		}
		fprintf(fp, "# router behaviour digests: scenario, then the hash at each of %d checkpoints\n",
			DG_CHECKPOINTS);
		fprintf(fp, "# written by LOOM_GOLDEN_UPDATE=1 build/tests/unit/test_router_digest\n");
		for (unsigned int i = 0; i < N_SCN; i++) {
			fprintf(fp, "%s", scenarios[i].name);
			for (int k = 0; k < DG_CHECKPOINTS; k++)
				fprintf(fp, " %016" PRIx64, sums[i][k]);
			fprintf(fp, "\n");
		}
		fclose(fp);
	}
	return tap_exit_status();
}
