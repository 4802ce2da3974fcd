// SPDX-License-Identifier: GPL-2.0
/*
 * The same router, several ways: one traffic through a 4x4 torus of the
 * card's router model in the native lockstep fabric of whole cards
 * (tests/emu/lockstep.h) and in loom-sim, which steps the same router
 * model and the same link units between routers, each packet injected at
 * the cycle its head was on the card's router's host input.  Every packet
 * must take exactly as many cycles from the source router's host input
 * (head) to the destination router's host output (tail) in both.  What is
 * compared and how: Documentation/sim/threeway.rst.
 *
 * Built with THREEWAY_RTL (make -C fpga_bitstreams rtl-threeway), it runs
 * the same packets a third time through loom-sim whose routers are the
 * Verilated RTL router (rtl_fabric.h) and compares that run too.
 */
#include "lockstep.h"
#include "tap.h"

#include "sim.h"
#ifdef THREEWAY_RTL
#include "rtl_fabric.h"
#define CHECKS		7
#else
#define CHECKS		5
#endif

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define SIDE		4
#define NODES		(SIDE * SIDE)
#define PORTS		4
#define CTX		2
#define KEY		0x3e3u
#define SEG		(64u * 1024)
#define RAM		(4u << 20)
#define PUT_LEN		(4u * 1024 + 100)	/* 17 packets, the last one short */
#define GET_LEN		(2u * 1024)
#define MAX_CYCLES	20000000ull
#define MAX_PKTS	(1u << 14)

/* Destinations of card i's puts and the card it gets from: crossing paths, both dimensions. */
static const unsigned int put_step[] = { 1, 4, 6, 11 };
#define GET_STEP	9

/* The packets the cards sent, in the order their heads entered the routers. */
struct card_run {
	struct lockstep ls;
	struct fh_ctx ctx[NODES];
	unsigned int ops, done, bad;
};

/* The same packets through one loom-sim fabric. */
struct sim_run {
	const struct ls_packet *pk;	/* the cards' records */
	unsigned int n;
	uint64_t *in, *out;		/* loom-sim's head-in and tail-out cycles per record */
	int *out_node;
	uint8_t *hops;
	unsigned int *next_in;		/* per node: the next record it injects */
	unsigned int unknown;		/* events no record matches */
};

/* Same packet: every header byte but flags and hops, which the routers rewrite. */
static bool same_packet(const uint8_t *a, const uint8_t *b)
{
	return !memcmp(a, b, 6) && !memcmp(a + 8, b + 8, LOOM_PKT_HDR_SIZE - 8);
}

static void sim_packet(void *opaque, int node, const uint8_t *hdr, uint64_t cycle, bool ejected)
{
	struct sim_run *r = opaque;

	if (!ejected) {
		/* a node injects its records in order */
		for (unsigned int k = r->next_in[node]; k < r->n; k++) {
			if (r->pk[k].in_card != node)
				continue;
			r->next_in[node] = k + 1;
			if (!same_packet(r->pk[k].hdr, hdr))
				break;
			r->in[k] = cycle;
			return;
		}
		r->unknown++;
		return;
	}
	/* the oldest record of this packet not yet out */
	for (unsigned int k = 0; k < r->n; k++) {
		if (r->out[k] || !r->in[k] || !same_packet(r->pk[k].hdr, hdr))
			continue;
		r->out[k] = cycle;
		r->out_node[k] = node;
		r->hops[k] = hdr[7];
		return;
	}
	r->unknown++;
}

static uint8_t pattern(unsigned int src, uint32_t off)
{
	return (uint8_t)(src * 29 + off * 13 + (off >> 8));
}

/* Program card @i with loom-sim's tables for router @i: the registers loom-fm's plan writes. */
static void program_card(struct card *c, const struct sim *s, unsigned int i)
{
	unsigned int words1 = (s->rt_entries + 31) / 32;
	int row = s->row[i];

	for (unsigned int k = 0; k < 2 * s->rt_entries; k++)
		card_wr32(c, CARD_OFF_ROUTER + LOOM_ROUTER_RT + 4 * k,
			  sim_tables_rt(&s->tables, row)[k]);
	for (unsigned int p = 0; p < LOOM_MAX_PORTS; p++)
		card_wr32(c, CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4 * p,
			  sim_tables_port_cfg(&s->tables, row)[p]);
	for (unsigned int w = 0; w < words1; w++)
		card_wr32(c, CARD_OFF_VCT + LOOM_VCT_START_VC1 + 4 * w,
			  sim_tables_start_vc1(&s->tables, row)[w]);
	card_save_boot_config(c);
}

/* (b) the cards: cabled as loom-sim's graph, its tables, puts and gets; false on setup failure. */
static bool run_cards(struct card_run *r, const struct sim *s, const struct card_params *cp)
{
	struct lockstep *ls = &r->ls;
	char err[256];
	uint64_t start;

	if (ls_init(ls, NODES, PORTS, RAM, cp, err, sizeof(err))) {
		tap_diag("lockstep: %s", err);
		return false;
	}
	for (int k = 0; k < s->nodes * s->ports; k++) {
		const struct sim_line *l = &s->lines[k];

		if (l->a < 0 || l->b * s->ports + l->pb < k)
			continue;
		if (ls_cable(ls, (unsigned int)l->a, (unsigned int)l->pa, (unsigned int)l->b,
			     (unsigned int)l->pb, s->cfg.seed + (uint64_t)k, err, sizeof(err))) {
			tap_diag("lockstep: %s", err);
			return false;
		}
	}
	for (unsigned int i = 0; i < NODES; i++)
		program_card(&ls->c[i]->card, s, i);
	if (!ls_train(ls, 1000000)) {
		tap_diag("card links not up after %llu cycles", (unsigned long long)ls->cycle);
		return false;
	}
	for (unsigned int i = 0; i < NODES; i++) {
		int e = fh_ctx_create(&ls->c[i]->fh, &r->ctx[i], CTX, KEY, 8, 9, SEG);

		if (e != LOOM_ADMIN_E_OK) {
			tap_diag("card %u: context enable failed (%d)", i, e);
			return false;
		}
		for (uint32_t o = 0; o < SEG; o++)
			r->ctx[i].segp[o] = pattern(i, o);
	}
	ls_trace(ls, MAX_PKTS);
	for (unsigned int i = 0; i < NODES; i++) {
		for (unsigned int k = 0; k < sizeof(put_step) / sizeof(put_step[0]); k++) {
			struct loom_cmd put = {
				.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX,
				.dst_node = (uint16_t)((i + put_step[k]) % NODES), .tag = k,
				.local_off = 0, .remote_off = 8192 + k * 8192, .length = PUT_LEN,
				.key = KEY,
			};

			if (!fh_submit(&r->ctx[i], &put))
				return false;
			r->ops++;
		}
		struct loom_cmd get = {
			.opcode = LOOM_OP_GET, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX,
			.dst_node = (uint16_t)((i + GET_STEP) % NODES), .tag = 0x100,
			.local_off = 48 * 1024, .remote_off = 0, .length = GET_LEN, .key = KEY,
		};

		if (!fh_submit(&r->ctx[i], &get))
			return false;
		r->ops++;
	}
	start = ls->cycle;
	while (r->done < r->ops && ls->cycle - start < MAX_CYCLES) {
		struct loom_cqe e;

		ls_run(ls, 1000, true);
		for (unsigned int i = 0; i < NODES; i++) {
			while (fh_poll_cqe(&r->ctx[i], &e) == 1) {
				r->done++;
				if (e.status != LOOM_CQE_ST_OK && r->bad++ < 4)
					tap_diag("card %u: tag 0x%llx status %u", i,
						 (unsigned long long)e.tag, e.status);
			}
		}
		if (ls_next_event(ls) == UINT64_MAX && r->done < r->ops)
			break;
	}
	return true;
}

/* loom-sim's fabric: torus:4x4, dor, the card's router and links; false with a diagnostic. */
static bool build_sim(struct sim *s, const struct card_params *cp, unsigned int rt_entries,
		      struct sim_run *sr)
{
	static char depth[32];
	struct sim_config c;
	char err[512];

	sim_config_default(&c);
	c.topology = "torus:4x4";
	c.engine = "dor";
	c.router = "card";
	/* the card's buffers hold CARD_VC_PACKETS of the largest packet */
	snprintf(depth, sizeof(depth), "BUF_DEPTH=%u", cp->router.buf_depth);
	c.params[c.nparams++] = depth;
	c.rt_entries = rt_entries;
	c.card_links = &cp->link;
	c.packet_fn = sim_packet;
	c.packet_opaque = sr;
	if (sim_build(s, &c, err, sizeof(err))) {
		tap_diag("loom-sim: %s", err);
		return false;
	}
	if (s->nodes != NODES || s->ports != PORTS) {
		tap_diag("loom-sim: %d nodes of %d ports, not %d of %d", s->nodes, s->ports, NODES,
			 PORTS);
		return false;
	}
	if (memcmp(&s->params, &cp->router, sizeof(cp->router))) {
		tap_diag("loom-sim's router parameters differ from the card's");
		return false;
	}
	return true;
}

/* Inject the cards' packets into @s as they entered the cards' routers and run; one check. */
static bool run_sim(struct sim *s, struct sim_run *sr, const struct card_run *cr,
		    struct sim_inject *inj, const char *what)
{
	unsigned int n = cr->ls.n_pkts;
	char err[512];
	bool ok;

	sr->pk = cr->ls.pkts;
	sr->n = n;
	sr->in = calloc(n, sizeof(*sr->in));
	sr->out = calloc(n, sizeof(*sr->out));
	sr->out_node = calloc(n, sizeof(*sr->out_node));
	sr->hops = calloc(n, 1);
	sr->next_in = calloc(NODES, sizeof(*sr->next_in));
	ok = sr->in && sr->out && sr->out_node && sr->hops && sr->next_in;
	if (!ok)
		snprintf(err, sizeof(err), "out of memory for %u packets", n);
	ok = ok && !sim_inject_set(s, inj, n, err, sizeof(err)) &&
	     !sim_run(s, err, sizeof(err));
	if (!ok)
		tap_diag("%s: %s", what, err);
	return tap_ok(ok && !s->deadlocked && !sr->unknown && s->st.measured_done == n &&
		      !s->st.misdelivered,
		      "%s: the %u packets delivered by cycle %llu (%llu delivered, %u events "
		      "matching no packet, %llu misdelivered%s)", what, n,
		      (unsigned long long)s->now, (unsigned long long)s->st.measured_done,
		      sr->unknown, (unsigned long long)s->st.misdelivered,
		      s->deadlocked ? ", deadlocked" : "");
}

/* Packet for packet, cycle for cycle: @sr against the cards; one check. */
static void compare(const struct sim_run *sr, const struct card_run *cr, const char *what)
{
	unsigned int n = cr->ls.n_pkts, diff = 0, waited = 0;
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0;

	for (unsigned int k = 0; k < n; k++) {
		const struct ls_packet *p = &cr->ls.pkts[k];
		uint64_t lat_card = p->tail_out - p->head_in, lat_sim = sr->out[k] - sr->in[k];

		if (sr->in[k] == p->head_in && sr->out[k] == p->tail_out &&
		    sr->out_node[k] == p->out_card) {
			sum += lat_card;
			lo = lat_card < lo ? lat_card : lo;
			hi = lat_card > hi ? lat_card : hi;
			continue;
		}
		if (diff++ < 6)
			tap_diag("packet %u: %u.%u -> %u type %u op %u offset %llu: cards: in at "
				 "node %u cycle %llu, out at node %u cycle %llu, latency %llu; "
				 "%s: in cycle %llu, out at node %d cycle %llu, latency %lld",
				 k, p->src_node, p->src_ctx, p->dst_node, p->type, p->op_id,
				 (unsigned long long)p->offset, p->in_card,
				 (unsigned long long)p->head_in, p->out_card,
				 (unsigned long long)p->tail_out, (unsigned long long)lat_card,
				 what, (unsigned long long)sr->in[k], sr->out_node[k],
				 (unsigned long long)sr->out[k],
				 sr->out[k] ? (long long)lat_sim : -1LL);
	}
	/* packets slower than the fastest of their hop count and size met others */
	for (unsigned int k = 0; k < n; k++) {
		const struct ls_packet *p = &cr->ls.pkts[k];
		uint64_t lat = p->tail_out - p->head_in;

		for (unsigned int j = 0; j < n; j++) {
			const struct ls_packet *q = &cr->ls.pkts[j];

			if (sr->hops[j] == sr->hops[k] && !memcmp(q->hdr + 2, p->hdr + 2, 2) &&
			    q->tail_out - q->head_in < lat) {
				waited++;
				break;
			}
		}
	}
	tap_ok(!diff && waited,
	       "per-packet latency, host input (head) to host output (tail), is the same in "
	       "%s as in the cards: %u packets, %u differ; the others' min %llu, mean %.1f, "
	       "max %llu cycles; %u packets met others (slower than the fastest of their hops "
	       "and size)", what, n, diff, (unsigned long long)(lo == UINT64_MAX ? 0 : lo),
	       n > diff ? (double)sum / (n - diff) : 0.0, (unsigned long long)hi, waited);
}

static void sim_run_free(struct sim_run *sr)
{
	free(sr->in);
	free(sr->out);
	free(sr->out_node);
	free(sr->hops);
	free(sr->next_in);
}

/* Scheduled injection and the card's links go together; each refused alone. */
static void check_refusals(const struct card_params *cp)
{
	static struct sim s;
	struct sim_run sr = { 0 };
	struct sim_inject one = { .cycle = 20, .node = 0 };
	char e1[512] = "", e2[512] = "";
	bool r1 = false, r2 = false;

	if (build_sim(&s, cp, LOOM_MAX_NODES, &sr)) {
		r1 = sim_run(&s, e1, sizeof(e1)) == -1 && strstr(e1, "sim_inject_set");
		sim_free(&s);
	}
	if (build_sim(&s, cp, LOOM_MAX_NODES, &sr)) {
		s.cfg.card_links = NULL;
		r2 = sim_inject_set(&s, &one, 1, e2, sizeof(e2)) == -1 && strstr(e2, "card_links");
		sim_free(&s);
	}
	tap_ok(r1 && r2, "refused: a run on the card's links without scheduled injection (\"%s\"), "
	       "scheduled injection without them (\"%s\")", e1, e2);
}

#ifdef THREEWAY_RTL
/*
 * (c) loom-sim whose routers are the Verilated RTL: built with the RTL's
 * routing table size, the same tables written through each RTL router's
 * configuration port; two checks.
 */
static void run_rtl(const struct card_params *cp, const struct card_run *cr,
		    struct sim_inject *inj)
{
	static struct sim s;
	static struct sim_router_ops ops = {
		.cycle = rtl_fabric_cycle, .port_up = rtl_fabric_port_up,
	};
	struct sim_run sr = { 0 };
	struct rtl_fabric *f;
	char err[512];
	bool ok = build_sim(&s, cp, LOOM_MAX_NODES, &sr);

	f = ok ? rtl_fabric_new(NODES, &s.params, err, sizeof(err)) : NULL;
	if (ok && !f)
		tap_diag("RTL: %s", err);
	sim_free(&s);
	ok = f && build_sim(&s, cp, rtl_fabric_rt_entries(f), &sr);
	if (ok) {
		for (int i = 0; i < NODES; i++)
			rtl_fabric_tables(f, i, sim_tables_rt(&s.tables, s.row[i]),
					  sim_tables_port_cfg(&s.tables, s.row[i]),
					  sim_tables_start_vc1(&s.tables, s.row[i]));
		s.cfg.router_ops = &ops;
		s.cfg.router_opaque = f;
	}
	if (ok && run_sim(&s, &sr, cr, inj, "loom-sim with RTL routers"))
		compare(&sr, cr, "loom-sim with RTL routers");
	while (tap.run < CHECKS)
		tap_ok(false, "not run: an earlier step failed");
	sim_run_free(&sr);
	sim_free(&s);
	rtl_fabric_free(f);
}
#endif

int main(void)
{
	static struct card_run cr;
	static struct sim s;
	struct card_params cp;
	struct sim_run sr = { 0 };
	struct sim_inject *inj = NULL;
	unsigned int undelivered = 0, n = 0;
	uint64_t first = UINT64_MAX, last = 0;
	bool ok;

	tap_plan(CHECKS);
	card_params_default(&cp, 0, PORTS);
	ok = tap_ok(build_sim(&s, &cp, LOOM_MAX_NODES, &sr),
		    "loom-sim builds torus:4x4 (dor) of the card's router (BUF_DEPTH %u) and "
		    "link units (WIRE_LATENCY %u, %u lanes of %u bytes)", cp.router.buf_depth,
		    cp.link.wire_latency, cp.link.lanes, cp.link.lane_bytes);
	/* (b) the cards */
	ok = ok && run_cards(&cr, &s, &cp);
	n = cr.ls.n_pkts;
	for (unsigned int k = 0; k < n; k++) {
		const struct ls_packet *p = &cr.ls.pkts[k];

		if (!p->delivered || !p->tail_out)
			undelivered++;
		first = p->head_in < first ? p->head_in : first;
		last = p->head_in > last ? p->head_in : last;
	}
	ok = tap_ok(ok && cr.done == cr.ops && !cr.bad && n && n < MAX_PKTS && !undelivered,
		    "cards: %u puts and gets completed (%u wrong); %u packets, %u not delivered, "
		    "injected in cycles %llu..%llu", cr.done, cr.bad, n, undelivered,
		    (unsigned long long)first, (unsigned long long)last);
	inj = ok ? calloc(n, sizeof(*inj)) : NULL;
	/* (a) loom-sim: the same packets at the same cycles at the same host ports */
	for (unsigned int k = 0; inj && k < n; k++) {
		const struct ls_packet *p = &cr.ls.pkts[k];

		inj[k].cycle = p->head_in;
		inj[k].node = p->in_card;
		memcpy(inj[k].hdr, p->hdr, sizeof(inj[k].hdr));
	}
	if (inj && run_sim(&s, &sr, &cr, inj, "loom-sim"))
		compare(&sr, &cr, "loom-sim");
	while (tap.run < 4)
		tap_ok(false, "not run: an earlier step failed");
	check_refusals(&cp);
#ifdef THREEWAY_RTL
	/* (c) the Verilated routers */
	if (inj)
		run_rtl(&cp, &cr, inj);
	while (tap.run < CHECKS)
		tap_ok(false, "not run: an earlier step failed");
#endif
	free(inj);
	sim_run_free(&sr);
	ls_free(&cr.ls);
	sim_free(&s);
	return tap_exit_status();
}
