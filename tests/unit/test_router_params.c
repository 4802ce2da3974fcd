// SPDX-License-Identifier: GPL-2.0
/*
 * The router's parameters and its behaviour at the edges: impossible
 * configurations refused with the parameter named; the documentation's
 * parameter table equals the one table; presets are valid; the drop
 * interface (no route, hop limit, malformed, disabled, dead by the
 * forward-progress timer) with the header of each dropped packet;
 * a deeper downstream buffer held at what CREDIT_BITS counts;
 * malformed flits counted and never stored; idle skipping (quiescent,
 * next event, blocked).
 */
#include "router_fabric.h"
#include "tap.h"

#include <libgen.h>

TAP_DEFINE;

static void refuse(const char *what, void (*mutate)(struct router_params *), const char *name)
{
	struct router_params p;
	char err[512] = "";
	int rc;

	router_preset_card(&p, 8);
	mutate(&p);
	rc = router_params_check(&p, err, sizeof(err));
	tap_ok(rc == -1 && strstr(err, name), "refused: %s: \"%s\"", what, err);
}

static void m_vcs0(struct router_params *p) { p->vcs = 0; p->vc_model = 0; }
static void m_vct_small(struct router_params *p) { p->buf_depth = 18; }
static void m_grid(struct router_params *p) { p->ports = 12; p->host_ports = 0; p->vc_model = 0; }
static void m_lat0(struct router_params *p) { p->lat_rc = 0; }
static void m_flit(struct router_params *p) { p->flit_bytes = 12; }
static void m_card_vcs(struct router_params *p) { p->vcs = 4; }
static void m_worm(struct router_params *p) { p->vcs = 2; p->vc_model = 0; p->wormhole_vcs = 4; }
static void m_ports(struct router_params *p) { p->ports = 65; }
static void m_arb(struct router_params *p) { p->arb_sa_out = 9; }
static void m_fp_bits(struct router_params *p) { p->fp_timer_bits = 8; p->fp_timeout = 300; }
static void m_credit_bits(struct router_params *p) { p->credit_bits = 4; }

static void params(void)
{
	struct router_params p;
	char err[256];
	const char *presets[] = { "card", "yarc", "xbar", "fbx" };
	int bad = 0;

	refuse("zero VCs", m_vcs0, "VCS");
	refuse("VCT buffer smaller than a packet", m_vct_small, "BUF_DEPTH");
	refuse("more ports than the grid", m_grid, "ROWS x COLS");
	refuse("stage latency 0", m_lat0, "LAT_RC");
	refuse("flit not a multiple of 8", m_flit, "FLIT_BYTES");
	refuse("card VC model with 4 VCs", m_card_vcs, "VCS");
	refuse("wormhole bit of a missing VC", m_worm, "WORMHOLE_VCS");
	refuse("65 ports", m_ports, "PORTS");
	refuse("unknown arbiter policy", m_arb, "ARB_SA_OUT");
	refuse("a timeout wider than the timer", m_fp_bits, "FP_TIMER_BITS");
	refuse("a buffer deeper than the credit counts", m_credit_bits, "CREDIT_BITS");
	for (unsigned int i = 0; i < 4; i++) {
		router_preset(&p, presets[i]);
		if (router_params_check(&p, err, sizeof(err))) {
			tap_diag("preset %s: %s", presets[i], err);
			bad++;
		}
	}
	router_params_default(&p);
	bad += router_params_set(&p, "lat_va", 3) || router_params_get(&p, "LAT_VA") != 3;
	bad += router_params_set(&p, "NO_SUCH", 1) != -1;
	tap_ok(!bad, "presets card/yarc/xbar/fbx are valid; parameters set and read by name");
}

/* The csv-table of Documentation/hw/router-model.rst equals the table. */
static void doc_table(void)
{
	char path[512], line[1024], src[512];
	unsigned int seen = 0, bad = 0;
	FILE *f;

	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(path, sizeof(path), "%s/../../Documentation/hw/router-model.rst", dirname(src));
	f = fopen(path, "r");
	if (!f) {
		tap_ok(0, "documentation table: cannot open %s", path);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char name[64];
		unsigned int def, min, max;

		if (sscanf(line, " \"``%63[A-Z_]``\", %u, %u, %u,", name, &def, &min, &max) != 4)
			continue;
		seen++;
		for (unsigned int i = 0; i < router_param_count; i++) {
			const struct router_param_desc *d = &router_param_table[i];

			if (strcmp(d->name, name))
				continue;
			if (d->def != def || d->min != min || d->max != max || !strstr(line, d->desc)) {
				tap_diag("doc row %s: %u %u %u, table: %u %u %u \"%s\"", name, def, min,
					 max, d->def, d->min, d->max, d->desc);
				bad++;
			}
			break;
		}
	}
	fclose(f);
	tap_ok(seen == router_param_count && !bad,
	       "documentation table: %u rows (table has %u), %u differ", seen, router_param_count,
	       bad);
}

/* A card router (host + 2 network ports): terminals everywhere. */
static struct fab *card_fabric(void)
{
	static const unsigned int nodes[] = { 10, 11, 1 };	/* the host: node 1 */
	struct router_params p;

	router_preset_card(&p, 2);
	p.fp_timeout = 200;
	return fab_single(&p, nodes);
}

static void drops(void)
{
	struct fab *f = card_fabric();
	struct router *r = f->r[0];
	struct router_drop d;
	struct loom_pkt_hdr h;
	int id, got = 0;

	/* no route: node 12 has no entry */
	id = fab_send(f, 10, 12, LOOM_VC_REQ0, LOOM_CLASS_REQ, 100, 0);
	fab_run(f, 60);
	got = router_drop_pop(r, &d);
	memcpy(&h, d.hdr, sizeof(h));
	tap_ok(got && d.reason == ROUTE_DROP_NO_ROUTE && d.in_port == 0 && d.hdr_bytes == 48 &&
	       h.op_id == (uint32_t)id && h.src_node == 10 && router_in_vc_fill(r, 0, 0) == 0,
	       "drop: no route: reason %s, in port %u, %u header bytes, op %u (want %d), buffer drained",
	       route_drop_name((enum route_drop)d.reason), d.in_port, d.hdr_bytes, h.op_id, id);
	/* hop limit */
	id = fab_send(f, 10, 11, LOOM_VC_REQ0, LOOM_CLASS_REQ, 0, f->now);
	f->pkts[id].bytes[7] = LOOM_PKT_MAX_HOPS;
	fab_run(f, 60);
	got = router_drop_pop(r, &d);
	tap_ok(got && d.reason == ROUTE_DROP_HOP_LIMIT,
	       "drop: hop limit: %s", got ? route_drop_name((enum route_drop)d.reason) : "none");
	/* class on the wrong VC: malformed */
	fab_send(f, 10, 11, LOOM_VC_RESP0, LOOM_CLASS_REQ, 0, f->now);
	fab_run(f, 60);
	got = router_drop_pop(r, &d);
	tap_ok(got && d.reason == ROUTE_DROP_MALFORMED,
	       "drop: a request on a response VC is malformed: %s",
	       got ? route_drop_name((enum route_drop)d.reason) : "none");
	/* disabled output */
	router_set_port_disabled(r, 1, true);
	fab_send(f, 10, 11, LOOM_VC_REQ0, LOOM_CLASS_REQ, 32, f->now);
	fab_run(f, 60);
	got = router_drop_pop(r, &d);
	tap_ok(got && d.reason == ROUTE_DROP_DISABLED && d.out_port == 1,
	       "drop: disabled output: %s toward port %u",
	       got ? route_drop_name((enum route_drop)d.reason) : "none", d.out_port);
	router_set_port_disabled(r, 1, false);
	fab_free(f);
}

/* Port 1's sink of @f returns no credits for 600 cycles: the cycle port 1
 * is declared dead, 0 if never; the flits that left on port 1 in @flits. */
static uint64_t starve_port1(struct fab *f, unsigned int *flits)
{
	struct router *r = f->r[0];
	uint64_t dead_at = 0;

	for (unsigned int i = 0; i < 8; i++)
		fab_send(f, 10, 11, LOOM_VC_REQ0, LOOM_CLASS_REQ, 256, 0);
	for (unsigned int c = 0; c < 600; c++) {
		memset(f->term[1].credit_back, 0, CHAN_VCS_MAX);
		fab_term_drive(f, &f->term[0]);
		router_cycle(r);
		f->now++;
		*flits += router_out(r, 1)->fwd.valid;
		fab_term_read(f, &f->term[0]);
		fab_term_read(f, &f->term[1]);
		f->term[1].credit_back[LOOM_VC_REQ0] = 0;
		if (!dead_at && router_port_dead(r, 1))
			dead_at = f->now;
	}
	return dead_at;
}

/* The card router of 2 network ports with timers of @fp_bits and credit
 * counts of @credit_bits, nodes 10 (port 0) and 11 (port 1). */
static struct fab *card2(unsigned int fp_bits, unsigned int credit_bits)
{
	static const unsigned int nodes[] = { 10, 11, 1 };
	struct router_params p;

	router_preset_card(&p, 2);
	p.fp_timer_bits = fp_bits;
	p.credit_bits = credit_bits;
	return fab_single(&p, nodes);
}

/* A timeout above what FP_TIMER_BITS holds is held at its most: 1000
 * cycles with an 8-bit timer are 255, with a 32-bit one 1000. */
static void fp_timer_bits(void)
{
	uint64_t dead_at[2];
	unsigned int flits = 0;

	for (unsigned int i = 0; i < 2; i++) {
		struct fab *f = card2(i ? 32 : 8, 16);

		router_set_fp_timeout(f->r[0], 1000);
		dead_at[i] = starve_port1(f, &flits);
		fab_free(f);
	}
	tap_ok(dead_at[0] > 255 && dead_at[0] < 300 && !dead_at[1],
	       "forward progress: a timeout of 1000 with FP_TIMER_BITS 8 is held at 255: dead at cycle %llu (want 256 .. 299); with 32 bits not dead in 600 cycles (%llu)",
	       (unsigned long long)dead_at[0], (unsigned long long)dead_at[1]);
}

/* A downstream depth above what CREDIT_BITS holds is held at its most:
 * port 1's depth set to 100 flits, its sink returning no credits, packets
 * of 19 flits (virtual cut-through, each admitted with credits for all of
 * its flits): with 5-bit counts the depth is 31, one packet leaves; with
 * 16 bits five. */
static void credit_bits(void)
{
	unsigned int flits[2] = { 0, 0 };

	for (unsigned int i = 0; i < 2; i++) {
		struct fab *f = card2(32, i ? 16 : 5);

		router_set_out_depth(f->r[0], 1, LOOM_VC_REQ0, 100);
		starve_port1(f, &flits[i]);
		fab_free(f);
	}
	tap_ok(flits[0] == 19 && flits[1] == 95,
	       "credit counts: a depth of 100 with CREDIT_BITS 5 is held at 31: %u flits out with no credit back (want 19, one packet); with 16 bits %u (want 95)",
	       flits[0], flits[1]);
}

static void forward_progress(void)
{
	struct fab *f = card_fabric();
	struct router *r = f->r[0];
	struct router_drop d;
	unsigned int n = 0, flits = 0;
	uint64_t dead_at = starve_port1(f, &flits);

	while (router_drop_pop(r, &d))
		n += d.reason == ROUTE_DROP_DEAD;
	tap_ok(dead_at && (router_take_port_events(r) & 2) && n >= 1,
	       "forward progress: port 1 without credits declared dead at cycle %llu (timeout 200), %u packets dropped as dead",
	       (unsigned long long)dead_at, n);
	router_clear_dead(r);
	tap_ok(!router_port_dead(r, 1), "forward progress: cleared by router_clear_dead");
	fab_free(f);
}

static void malformed(void)
{
	struct fab *f = card_fabric();
	struct router *r = f->r[0];
	struct chan *in = router_in(r, 0);
	const struct router_port_counters *pc = router_port_counters(r, 0);
	uint64_t before = pc->malformed;

	/* a body flit with no packet, a flit on VC 9 */
	memset(&in->fwd, 0, sizeof(in->fwd));
	in->fwd.valid = true;
	in->fwd.vc = LOOM_VC_REQ0;
	router_cycle(r);
	in->fwd.valid = true;
	in->fwd.head = true;
	in->fwd.vc = 9;
	router_cycle(r);
	router_cycle(r);
	tap_ok(pc->malformed - before == 2 && router_in_vc_fill(r, 0, LOOM_VC_REQ0) == 0 &&
	       router_quiescent(r),
	       "malformed flits: %llu counted, nothing stored, router quiescent",
	       (unsigned long long)(pc->malformed - before));
	fab_free(f);
}

static void idle(void)
{
	struct fab *f = card_fabric();
	struct router *r = f->r[0];
	bool quiet_before, busy_during, skipped;
	uint64_t ev_idle;

	for (unsigned int i = 0; i < 5; i++)
		fab_step(f);
	quiet_before = router_quiescent(r);
	ev_idle = router_next_event(r);
	fab_send(f, 10, 11, LOOM_VC_REQ0, LOOM_CLASS_REQ, 64, f->now);
	fab_step(f);
	busy_during = !router_quiescent(r) && router_next_event(r) == router_now(r);
	fab_run(f, 100);
	for (unsigned int i = 0; i < 5; i++)
		fab_step(f);
	skipped = router_skip_to(r, router_now(r) + 1000000) && router_now(r) > 1000000;
	tap_ok(quiet_before && ev_idle == ROUTER_NEVER && busy_during && router_quiescent(r) &&
	       router_next_event(r) == ROUTER_NEVER && skipped && f->delivered == 1,
	       "idle: quiescent %d, next event %s, busy while a packet crosses %d, quiescent after, skip ahead %d",
	       quiet_before, ev_idle == ROUTER_NEVER ? "never" : "soon", busy_during, skipped);
	fab_free(f);
}

/* A packet waits only for the stage stamps: next_event names the cycle. */
static void next_event_exact(void)
{
	struct router_params p;
	struct fab *f;
	uint64_t ev;
	bool ok = true;

	router_preset_xbar(&p, 3, 2);
	p.lat_rc = 5;
	f = fab_new(1, &p);
	fab_terminal(f, 0, 0, 0);
	fab_terminal(f, 0, 1, 1);
	fab_route(f, 0, 1, 1);
	fab_send(f, 0, 1, 0, LOOM_CLASS_REQ, 0, 0);
	fab_step(f);	/* head written */
	fab_step(f);	/* credit of the write-side cycle, if any */
	while (router_next_event(f->r[0]) == router_now(f->r[0]) && f->now < 50)
		fab_step(f);
	ev = router_next_event(f->r[0]);
	if (ev == ROUTER_NEVER || ev <= router_now(f->r[0]))
		ok = false;
	else
		ok = router_skip_to(f->r[0], ev) && !router_skip_to(f->r[0], ROUTER_NEVER - 1);
	f->now = router_now(f->r[0]);
	ok = ok && fab_run(f, 50);
	tap_ok(ok, "idle skipping: a routing stage of 5 cycles is a future event (%llu), skipping to it delivers the packet",
	       (unsigned long long)ev);
	fab_free(f);
}

int main(void)
{
	tap_plan(24);
	params();
	doc_table();
	drops();
	forward_progress();
	fp_timer_bits();
	credit_bits();
	malformed();
	idle();
	next_event_exact();
	return tap_exit_status();
}
