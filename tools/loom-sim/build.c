// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim: building the fabric.  The graph comes from loom-fm (a shape or
 * a topology file, loom-fm's parser), the routes from a loom-fm engine,
 * checked as loom-fm checks them (every pair routed, no channel dependency
 * cycle); the tables are what loom-fm's programming plan writes to each
 * card's ROUTER and VCT blocks, applied to per-router register arrays that
 * the routers read through their struct route_view.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fabric.h"
#include "program.h"
#include "topo_file.h"

/* where the plan's fake cards have their blocks (any two distinct offsets) */
#define SIM_ROUTER_BASE	0x1000u
#define SIM_VCT_BASE	0x8000u

void sim_config_default(struct sim_config *c)
{
	memset(c, 0, sizeof(*c));
	c->topology = "torus:4x4";
	engine_default_opts(&c->engine_opts);
	c->router = "card";
	c->link_latency = 1;
	c->pattern = "uniform";
	c->load = 0.1;
	c->warmup = 1000;
	c->measure = 10000;
	c->drain_max = 100000;
	c->deadlock_cycles = 5000;
	c->outstanding = 8;
	c->resp_queue = 4;
	c->ranks = 1;
}

static bool is_shape(const char *t)
{
	static const char *const kinds[] = {
		"ring:", "mesh:", "torus:", "hyperx:", "fattree:", "dragonfly:",
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(t, kinds[i], strlen(kinds[i])))
			return true;
	return false;
}

/*
 * A router's parameters: the preset sized for @ports network ports and
 * @host host ports, then the overrides.  The card preset lays out its
 * tile grid for the host port too; a switch's router is that router
 * without the host port (the grid holds it).
 */
static int router_params_for(struct sim *s, struct router_params *p, int ports, bool host,
			     char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;

	if (!strcmp(c->router, "card")) {
		if (ports > LOOM_MAX_PORTS) {
			snprintf(err, errlen, "%s needs %d network ports per router; the card router "
				 "has at most %d: use --router xbar or fbx", s->g->name, ports,
				 LOOM_MAX_PORTS);
			return -1;
		}
		router_preset_card(p, (unsigned int)ports);
		if (!host) {
			p->ports = (unsigned int)ports;
			p->host_ports = 0;
		}
	} else if (!strcmp(c->router, "xbar") || !strcmp(c->router, "fbx")) {
		if (c->router[0] == 'x')
			router_preset_xbar(p, (unsigned int)ports + host, 2);
		else
			router_preset_fbx(p, (unsigned int)ports + host, 2);
		p->host_ports = host;
	} else {
		snprintf(err, errlen, "unknown router '%s': use card, xbar or fbx", c->router);
		return -1;
	}
	for (int i = 0; i < c->nparams; i++) {
		const char *eq = strchr(c->params[i], '=');
		char name[32], *end;
		unsigned long v;

		if (!eq || eq == c->params[i] || (size_t)(eq - c->params[i]) >= sizeof(name)) {
			snprintf(err, errlen, "--param '%s': expected NAME=VALUE", c->params[i]);
			return -1;
		}
		snprintf(name, sizeof(name), "%.*s", (int)(eq - c->params[i]), c->params[i]);
		v = strtoul(eq + 1, &end, 0);
		if (!eq[1] || *end || eq[1] == '-' || v > UINT32_MAX) {
			snprintf(err, errlen, "--param %s: '%s' is not a number", name, eq + 1);
			return -1;
		}
		if (!strcasecmp(name, "PORTS") || !strcasecmp(name, "HOST_PORTS")) {
			snprintf(err, errlen, "--param %s: the topology sets the ports (%d network "
				 "ports, and the host port where a node has a terminal)", name,
				 s->ports);
			return -1;
		}
		if (router_params_set(p, name, (uint32_t)v)) {
			snprintf(err, errlen, "--param %s: no such router parameter (see "
				 "router-model.rst, 'Parameters')", name);
			return -1;
		}
	}
	if (router_params_check(p, err, errlen))
		return -1;
	return 0;
}

/*
 * The network ports of a terminal's router: the graph's where every node
 * is a terminal; beside switches, the ports the terminals' cables use.
 */
static int terminal_ports(const struct fm_graph *g)
{
	int used = 0;

	if (!g->terminals)
		return g->ports;
	for (int t = 0; t < g->terminals; t++)
		for (int p = used; p < g->ports; p++)
			if (graph_peer(g, t, p)->node != FM_NO_PEER)
				used = p + 1;
	return used ? used : 1;
}

/*
 * The routers' parameters: a terminal's router has the host port beside
 * its network ports, a switch's none, so that a router's ROUTER_PORTS_MAX
 * ports are 63 network ports of a node with a terminal and 64 of a switch.
 */
static int build_params(struct sim *s, char *err, size_t errlen)
{
	char why[512];

	s->term_ports = terminal_ports(s->g);
	if (s->term_ports + 1 > ROUTER_PORTS_MAX) {
		int node = 0;

		while (node + 1 < graph_terminals(s->g) &&
		       graph_peer(s->g, node, s->term_ports - 1)->node == FM_NO_PEER)
			node++;
		snprintf(err, errlen, "%s: node %d has a terminal and %d network ports, but a "
			 "router has at most %d ports: a node with a terminal has at most %d "
			 "network ports beside its host port (a switch, a node without a "
			 "terminal such as a fat tree's, has up to %d)", s->g->name, node,
			 s->term_ports, ROUTER_PORTS_MAX, ROUTER_PORTS_MAX - 1, ROUTER_PORTS_MAX);
		return -1;
	}
	if (router_params_for(s, &s->params, s->term_ports, true, err, errlen))
		return -1;
	s->switch_params = s->params;
	if (s->terminals < s->nodes &&
	    router_params_for(s, &s->switch_params, s->ports, false, why, sizeof(why))) {
		snprintf(err, errlen, "%s: the switches' routers (%d network ports, no host "
			 "port): %s", s->g->name, s->ports, why);
		return -1;
	}
	return 0;
}

static int build_graph(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	int max_ports = FM_MAX_PORTS;

	if (!strcmp(c->router, "card"))
		max_ports = LOOM_MAX_PORTS;
	if (is_shape(c->topology))
		s->g = graph_from_shape(c->topology, err, errlen);
	else
		s->g = topo_load_ports(c->topology, max_ports, err, errlen);
	return s->g ? 0 : -1;
}

/*
 * The routing class's demands on the router, and what the router makes of
 * the tables (one VC per class cannot hold the dateline classes apart),
 * for every block of the tables alike.
 */
static int routes_fit(struct sim *s, const struct fm_engine *e, struct fm_routes *r, char *err,
		      size_t errlen)
{
	/* DimWAR's deroutes travel on VC1 */
	if (r->dimwar && !s->params.vc_model && s->params.vcs < 2) {
		snprintf(err, errlen, "engine %s: deroutes travel on VC1, but the router has "
			 "VCS=%u: use --param VCS=2 or more, or the card's VC model",
			 e->name, s->params.vcs);
		return -1;
	}
	/* Valiant's phases travel on VC0 and VC1 */
	if (r->valiant && !s->params.vc_model && s->params.vcs < 2) {
		snprintf(err, errlen, "engine %s: phase 0 travels on VC0 and phase 1 on VC1, but "
			 "the router has VCS=%u: use --param VCS=2 or more, or the card's VC "
			 "model", e->name, s->params.vcs);
		return -1;
	}
	if (!s->params.vc_model && s->params.vcs < 2)
		r->uses_vcs = false;
	if (r->uses_vcs && s->g->ports > LOOM_MAX_PORTS) {
		snprintf(err, errlen, "%s: datelines on %d ports, but the VC table holds %d port "
			 "entries (a torus of at most %d dimensions)", s->g->name, s->g->ports,
			 LOOM_MAX_PORTS, LOOM_MAX_PORTS / 2);
		return -1;
	}
	return 0;
}

/* Destinations per block of the tables: whole words of start VCs, about 16 M entries. */
static int block_dests(int rows, int nodes)
{
	long d = (16L << 20) / (rows ? rows : 1) / 32 * 32;

	return d < 32 ? 32 : d > nodes ? nodes : (int)d;
}

/* The routes of rows [@row_lo, @row_hi) toward [@d0, @d1): a block, or the whole tables. */
static struct fm_routes *routes_block(struct sim *s, const struct fm_engine *e, int row_lo,
				      int row_hi, int d0, int d1, char *err, size_t errlen)
{
	struct fm_engine_opts eo = s->cfg.engine_opts;
	struct fm_routes *r;

	if (s->routes)
		return s->routes;
	eo.generic_vcs = s->params.vc_model ? 0 : (int)s->params.vcs;
	r = engine_run_block(e, s->g, &eo, row_lo, row_hi, d0, d1, err, errlen);
	if (r && routes_fit(s, e, r, err, errlen)) {
		routes_free(r);
		return NULL;
	}
	return r;
}

static void routes_done(struct sim *s, struct fm_routes *r)
{
	if (r != s->routes)
		routes_free(r);
}

/* Apply one part of loom-fm's plan to the register arrays (this process's rows). */
static void apply_plan(struct sim *s, const struct fm_plan *plan)
{
	unsigned int words1 = (s->rt_entries + 31) / 32;

	for (int i = 0; i < plan->n; i++) {
		const struct fm_write *w = &plan->w[i];
		uint32_t off, *rt;
		int row;

		if (w->card < 0 || w->card >= s->nodes || !sim_here(s, w->card))
			continue;
		row = s->row[w->card];
		switch (w->kind) {
		case FM_W_RT_PHYS:
		case FM_W_RT_ENTRY:
			off = (w->addr - SIM_ROUTER_BASE - LOOM_ROUTER_RT) / 4;
			if (off >= 2 * s->rt_entries)
				break;
			rt = sim_tables_rt(&s->tables, row);
			sim_tables_set(&rt[off], w->value);
			/*
			 * an entry without a route is its W0 alone: its W1 reads
			 * 0, as in a table written from zero, whatever the
			 * template of a shared row holds there
			 */
			if (w->kind == FM_W_RT_ENTRY && !(w->value & LOOM_RT_W0_VALID))
				sim_tables_set(&rt[off + 1], 0);
			break;
		case FM_W_VCT_PORT:
			off = (w->addr - SIM_VCT_BASE - LOOM_VCT_PORT_CFG) / 4;
			if (off < LOOM_MAX_PORTS)
				sim_tables_set(&sim_tables_port_cfg(&s->tables, row)[off], w->value);
			break;
		case FM_W_VCT_START:
			off = (w->addr - SIM_VCT_BASE - LOOM_VCT_START_VC1) / 4;
			if (off < words1)
				sim_tables_set(&sim_tables_start_vc1(&s->tables, row)[off],
					       w->value);
			break;
		case FM_W_LOGICAL:
		case FM_W_MCAST_W1:	/* groups are planned by loom-fm configure only */
		case FM_W_MCAST_W0:
			break;
		}
	}
}

/* Cards planned at once: the plan holds two writes per entry of each. */
#define SIM_PLAN_CARDS	16

/*
 * The next run of consecutive nodes this process steps, from mine[*@k]
 * on: [@lo, @hi); false after the last.
 */
static bool next_run(const struct sim *s, int *k, int *lo, int *hi)
{
	if (*k >= s->nmine)
		return false;
	*lo = s->mine[(*k)++];
	*hi = *lo + 1;
	while (*k < s->nmine && s->mine[*k] == *hi) {
		(*k)++;
		(*hi)++;
	}
	return true;
}

/*
 * Write loom-fm's plan for cards [@c0, @c1), all this process's, for the
 * entries @r holds, into the register arrays, a few cards at a time (a
 * whole plan of a large fabric would be larger than the tables it
 * writes).
 */
static int plan_tables(struct sim *s, const struct fm_routes *r, int c0, int c1, char *err,
		       size_t errlen)
{
	struct fm_plan plan;

	for (int lo = c0; lo < c1; lo += SIM_PLAN_CARDS) {
		int hi = lo + SIM_PLAN_CARDS < c1 ? lo + SIM_PLAN_CARDS : c1;

		if (plan_build_cards(s->cards, s->nodes, r, lo, hi, &plan, err, errlen))
			return -1;
		apply_plan(s, &plan);
		plan_free(&plan);
	}
	return 0;
}

/*
 * Before the rows of a block of the tables @r are written: the sample
 * rows' entries, and the template of the shared rows learned from them
 * (tables.h), so that a shared row copies only the pages where it
 * differs from the others.
 */
static int plan_samples(struct sim *s, const struct fm_routes *r, char *err, size_t errlen)
{
	if (!s->tables.nshared)
		return 0;
	for (int k = 0; k < SIM_TABLES_SAMPLES; k++) {
		int node = s->mine[s->tables.sample[k]];

		if (plan_tables(s, r, node, node + 1, err, errlen))
			return -1;
	}
	sim_tables_learn(&s->tables);
	return 0;
}

/*
 * The checks of what is refused: every destination reachable from every
 * node, no channel dependency cycle.  Over ranks (cfg.dist) each rank
 * walks toward its share of the destinations, a block of their columns
 * at a time, and the ranks combine the counts, the lowest unreachable
 * pair and the dependency graph (an OR of edge bitmaps: the graph of all
 * destinations together), so that every rank refuses alike and with the
 * message one process gives.  A process whose routers are every node
 * programs its tables from the same blocks (*@planned).
 */
static int check_routes_ranks(struct sim *s, const struct fm_engine *e, bool *planned,
			      char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	int n = s->nodes, d0 = 0, d1 = n, step = block_dests(n, n);
	struct fm_reach_check rc;
	struct fm_cdg_check cc = { 0 };
	struct fm_cdg_acc acc = { 0 };
	struct fm_routes *r;
	int rv = -1;

	*planned = s->nmine == n;
	if (c->dist) {
		d0 = sim_rank_lo(n, c->ranks, c->rank);
		d1 = sim_rank_lo(n, c->ranks, c->rank + 1);
	}
	check_reach_init(&rc);
	r = routes_block(s, e, 0, n, 0, 1, err, errlen);
	if (!r)
		return -1;
	if (cdg_acc_init(&acc, s->g, r)) {
		routes_done(s, r);
		snprintf(err, errlen, "out of memory checking the channel dependencies");
		return -1;
	}
	routes_done(s, r);
	for (int b0 = d0; b0 < d1; b0 += step) {
		int b1 = b0 + step < d1 ? b0 + step : d1;

		r = routes_block(s, e, 0, n, b0, b1, err, errlen);
		if (!r)
			goto out;
		if (check_reach(s->g, r, b0, b1, &rc) || cdg_acc_add(&acc, s->g, r, b0, b1)) {
			routes_done(s, r);
			snprintf(err, errlen, "out of memory checking the routes");
			goto out;
		}
		if (*planned && (!s->routes || b0 == d0) &&
		    (plan_samples(s, r, err, errlen) || plan_tables(s, r, 0, n, err, errlen))) {
			routes_done(s, r);
			goto out;
		}
		routes_done(s, r);
	}
	if (c->dist) {
		int64_t sum[2] = { rc.routes, rc.bad };
		/* the lowest (src, dest) as the highest complement; ids < 2^16 */
		uint64_t first = rc.bad ? UINT64_MAX - ((uint64_t)rc.first.src << 34 |
							(uint64_t)rc.first.dest << 18 |
							(uint64_t)rc.first.at << 2 |
							(uint64_t)-rc.first.why) : 0;

		c->dist->allreduce(sum, 2, &first);
		c->dist->or_bits(acc.edges, acc.nwords, acc.used, acc.nused);
		rc.routes = sum[0];
		rc.bad = sum[1];
		if (rc.bad) {
			first = UINT64_MAX - first;
			rc.first = (struct fm_bad_pair){ (int)(first >> 34),
							 (int)(first >> 18 & 0xffff),
							 -(int)(first & 3),
							 (int)(first >> 2 & 0xffff) };
		}
	}
	if (rc.bad) {
		const struct fm_bad_pair *b = &rc.first;

		snprintf(err, errlen, "%s: engine %s leaves %ld of %ld routes unusable, e.g. node "
			 "%d cannot reach %d (%s at node %d): refusing to simulate unreachable "
			 "destinations", s->g->name, e->name, rc.bad, rc.routes, b->src, b->dest,
			 check_walk_reason(b->why), b->at);
		s->refused_alike = true;
		goto out;
	}
	if (cdg_acc_check(&acc, s->g, &cc)) {
		snprintf(err, errlen, "out of memory checking the channel dependencies");
		goto out;
	}
	if (cc.cycle_len && !c->allow_deadlock) {
		size_t k = (size_t)snprintf(err, errlen, "%s: engine %s gives a channel dependency "
					    "cycle of %d channels, so the fabric can deadlock:",
					    s->g->name, e->name, cc.cycle_len);

		for (int i = 0; i < cc.cycle_len && k < errlen; i++)
			k += (size_t)snprintf(err + k, errlen - k, " %d:%d/vc%d ->",
					      cc.cycle[i].node, cc.cycle[i].port, cc.cycle[i].vc);
		if (k < errlen)
			snprintf(err + k, errlen - k, " (back to the first); --allow-deadlock runs "
				 "it anyway");
		s->refused_alike = true;
		goto out;
	}
	rv = 0;
out:
	cdg_check_free(&cc);
	cdg_acc_free(&acc);
	return rv;
}

/*
 * The routes: an engine that computes any block of the tables gives this
 * process the rows of its routers only (and the columns its checks walk),
 * a block at a time, so that no process holds the tables of the whole
 * fabric; other engines, and the worstcase pattern (it walks every
 * route), the whole tables.
 */
static int build_routes(struct sim *s, bool *planned, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	const char *name = c->engine ? c->engine : engine_default_name(s->g);
	const struct fm_engine *e = engine_find(name);
	struct fm_engine_opts eo;

	if (!e) {
		size_t n = (size_t)snprintf(err, errlen, "unknown engine '%s': use", name);

		for (int i = 0; fm_engines[i] && n < errlen; i++)
			n += (size_t)snprintf(err + n, errlen - n, "%s %s", i ? "," : "",
					      fm_engines[i]->name);
		return -1;
	}
	s->engine_name = e->name;
	eo = c->engine_opts;
	/* omniwar: a distance class per generic VC, or the card's three */
	eo.generic_vcs = s->params.vc_model ? 0 : (int)s->params.vcs;
	if (!engine_can_block(e, s->g, &eo) || !strcmp(c->pattern, "worstcase")) {
		s->routes = engine_run(e, s->g, &eo, err, errlen);
		if (!s->routes)
			return -1;
		if (routes_fit(s, e, s->routes, err, errlen))
			return -1;
	}
	return check_routes_ranks(s, e, planned, err, errlen);
}

/*
 * The register arrays of this process's routers: the plan of their rows
 * of the tables, unless the checks planned them already (@planned).  A
 * block of the tables spans this process's routers, from the first to the
 * last, and a block of destinations at a time; each run of consecutive
 * routers in it is planned from it.  An engine such as updown computes a
 * destination's routes over the whole graph whichever rows it keeps, so a
 * block per run (a partition by pods or boxes has many) would compute
 * every destination once per run; the rows between the runs cost only
 * their entries.
 */
static int build_tables(struct sim *s, bool planned, char *err, size_t errlen)
{
	const struct fm_engine *e = engine_find(s->engine_name);

	if (!planned && s->nmine) {
		int lo = s->mine[0], hi = s->mine[s->nmine - 1] + 1;
		int step = block_dests(hi - lo, s->nodes);

		/* the whole tables (s->routes): every row in one pass */
		for (int d0 = 0; d0 < s->nodes && (!s->routes || !d0); d0 += step) {
			int d1 = d0 + step < s->nodes ? d0 + step : s->nodes;
			struct fm_routes *r = routes_block(s, e, lo, hi, d0, d1, err, errlen);
			int k = 0, run_lo, run_hi;

			if (!r)
				return -1;
			if (plan_samples(s, r, err, errlen)) {
				routes_done(s, r);
				return -1;
			}
			while (next_run(s, &k, &run_lo, &run_hi))
				if (plan_tables(s, r, run_lo, run_hi, err, errlen)) {
					routes_done(s, r);
					return -1;
				}
			routes_done(s, r);
		}
	}
	for (int m = 0; m < s->nmine; m++) {
		s->views[m] = (struct route_view){
			.rt = sim_tables_rt(&s->tables, m),
			.rt_entries = s->rt_entries,
			.port_cfg = sim_tables_port_cfg(&s->tables, m),
			.start_vc1 = sim_tables_start_vc1(&s->tables, m),
			.start_vc1_bits = s->rt_entries,
			/* above 15 network ports the plan writes wide entries */
			.wide_ports = sim_router_ports(s, s->mine[m]) > LOOM_RT_PORT_HOST,
		};
	}
	return 0;
}

/* The cards loom-fm's plan describes: node i is card i, logical id i. */
static int build_cards(struct sim *s, char *err, size_t errlen)
{
	int rows = s->nmine;

	s->cards = calloc((size_t)s->nodes, sizeof(*s->cards));
	if (!s->cards) {
		snprintf(err, errlen, "out of memory for the programming plan");
		return -1;
	}
	for (int i = 0; i < s->nodes; i++) {
		struct fm_card *c = &s->cards[i];
		int ports = sim_router_ports(s, i);

		c->node = (uint32_t)i;
		c->logical = (uint32_t)i;
		c->router = SIM_ROUTER_BASE;
		c->vct = SIM_VCT_BASE;
		c->n_ports = (uint32_t)ports;
		c->rt_entries = s->rt_entries;
		c->vct_ports = (uint32_t)(ports < LOOM_MAX_PORTS ? ports : LOOM_MAX_PORTS);
	}
	/* the rows of their own memory first: the shared rows find it in the template */
	for (int shared = 0; shared < 2; shared++) {
		for (int row = 0; row < rows; row++) {
			uint32_t *port_cfg = sim_tables_port_cfg(&s->tables, row);

			if (s->tables.shared[row] != shared)
				continue;
			for (int i = 0; i < LOOM_MAX_PORTS; i++)
				sim_tables_set(&port_cfg[i], LOOM_VCT_PORT_DIM_NONE);
		}
		if (!shared)
			sim_tables_learn(&s->tables);
	}
	return 0;
}

static int build_packets(struct sim *s, char *err, size_t errlen)
{
	unsigned int fb = s->params.flit_bytes;
	unsigned int min_flits = (LOOM_PKT_HDR_SIZE + fb - 1) / fb;
	unsigned int max_flits = router_max_packet_flits(fb);
	unsigned int n = s->cfg.packet_flits ? s->cfg.packet_flits : min_flits;
	uint64_t weights = 0;
	double flits = 0;

	for (unsigned int k = 0; k < s->cfg.n_sizes || k == 0; k++) {
		if (s->cfg.n_sizes)
			n = s->cfg.sizes[k];
		if (n < min_flits || n > max_flits) {
			snprintf(err, errlen, "--packet-flits %u: with %u-byte flits a packet has "
				 "%u..%u flits (the %d-byte header, up to %d payload bytes); "
				 "FLIT_BYTES=64 allows one-flit packets", n, fb, min_flits,
				 max_flits, LOOM_PKT_HDR_SIZE, LOOM_PKT_MAX_PAYLOAD);
			return -1;
		}
		if (s->cfg.n_sizes) {
			weights += s->cfg.size_weight[k];
			s->size_cum[k] = weights;
			flits += (double)n * s->cfg.size_weight[k];
		}
	}
	if (s->cfg.n_sizes)
		n = s->cfg.sizes[0];
	s->mean_flits = s->cfg.n_sizes ? flits / (double)weights : n;
	s->packet_flits = n;
	s->payload = n * fb - LOOM_PKT_HDR_SIZE;
	if (s->payload > LOOM_PKT_MAX_PAYLOAD)
		s->payload = LOOM_PKT_MAX_PAYLOAD;
	/* requests enter on REQ0 (the card's VCs) or VC0 (generic): both 0 */
	if (sim_requests_build(s, err, errlen))
		return -1;
	if (!(s->cfg.load > 0 && s->cfg.load <= 1)) {
		snprintf(err, errlen, "--load %g: the offered load is flits per node per cycle, "
			 "more than 0 and at most 1 (one flit per cycle enters a router's host port)",
			 s->cfg.load);
		return -1;
	}
	if (s->cfg.burst_on > 0 &&
	    s->cfg.load * (s->cfg.burst_on + s->cfg.burst_off) / s->cfg.burst_on > 1) {
		snprintf(err, errlen, "--burst %g:%g with --load %g: the on periods would have to "
			 "carry %.3g flits per cycle, but a host port takes at most 1 (lower the "
			 "load or the off share)", s->cfg.burst_on, s->cfg.burst_off, s->cfg.load,
			 s->cfg.load * (s->cfg.burst_on + s->cfg.burst_off) / s->cfg.burst_on);
		return -1;
	}
	if (s->cfg.measure == 0 && !s->cfg.nreplay) {
		snprintf(err, errlen, "--cycles 0: the measurement window needs at least one cycle");
		return -1;
	}
	return 0;
}

static void *zalloc(size_t n, size_t size, bool *oom)
{
	void *p = calloc(n ? n : 1, size);

	if (!p)
		*oom = true;
	return p;
}

/*
 * The card's links instead of channel lines: a link unit per cabled
 * port, built with the card's link parameters and the router's flit
 * width, VCs and buffer depth (as card_params_check() makes them), and a
 * wire per cable, whose carriers rise now; the ports stay down until
 * their links train, as the card's do.
 */
static int build_card_links(struct sim *s, char *err, size_t errlen)
{
	int n = s->nodes, P = s->ports;
	struct link_params lp = *s->cfg.card_links;
	bool oom = false;

	if (s->cfg.ranks > 1) {
		snprintf(err, errlen, "the card's links over %d ranks: they run in one process",
			 s->cfg.ranks);
		return -1;
	}
	lp.flit_bytes = s->params.flit_bytes;
	lp.vcs = s->params.vcs;
	lp.buf_depth = s->params.buf_depth;
	if (!link_params_check(&lp, err, errlen))
		return -1;
	s->lu = zalloc((size_t)n * (size_t)P, sizeof(*s->lu), &oom);
	s->lu_up = zalloc((size_t)n * (size_t)P, sizeof(*s->lu_up), &oom);
	s->wires = zalloc((size_t)n * (size_t)P, sizeof(*s->wires), &oom);
	if (oom) {
		snprintf(err, errlen, "out of memory for the links of %d routers", n);
		return -1;
	}
	for (int k = 0; k < n * P; k++) {
		if (s->lines[k].a < 0)
			continue;
		if (!link_unit_init(&s->lu[k], &lp, err, errlen))
			return -1;
		link_unit_set_identity(&s->lu[k], (uint32_t)(k / P), (uint32_t)(k % P));
		router_set_port_up(s->r[k / P], (unsigned int)(k % P), false);
	}
	for (int k = 0; k < n * P; k++) {
		const struct sim_line *l = &s->lines[k];
		int peer = l->b * P + l->pb;

		/* one wire per cable: from its lower end */
		if (l->a < 0 || peer < k)
			continue;
		if (!link_wire_init(&s->wires[s->nwires], &s->lu[k], &s->lu[peer],
				    s->cfg.seed + (uint64_t)k, err, errlen))
			return -1;
		s->nwires++;
	}
	return 0;
}

int sim_inject_set(struct sim *s, const struct sim_inject *v, size_t n, char *err,
		   size_t errlen)
{
	size_t *at = calloc((size_t)s->nodes + 1, sizeof(*at));
	unsigned int fb = s->params.flit_bytes;

	if (!s->cfg.card_links) {
		free(at);
		snprintf(err, errlen, "scheduled injection needs the card's links (card_links)");
		return -1;
	}
	free(s->inj_order);
	s->inj_order = calloc(n ? n : 1, sizeof(*s->inj_order));
	if (!at || !s->inj_order) {
		free(at);
		snprintf(err, errlen, "out of memory for %zu scheduled packets", n);
		return -1;
	}
	for (size_t k = 0; k < n; k++) {
		unsigned int len = (unsigned int)(v[k].hdr[2] | v[k].hdr[3] << 8);

		if (v[k].node < 0 || v[k].node >= s->terminals) {
			snprintf(err, errlen, "scheduled packet %zu: node %d, but the fabric's "
				 "terminals are 0..%d", k, v[k].node, s->terminals - 1);
			free(at);
			return -1;
		}
		if (len > LOOM_PKT_MAX_PAYLOAD ||
		    (LOOM_PKT_HDR_SIZE + len + fb - 1) / fb > s->params.buf_depth) {
			snprintf(err, errlen, "scheduled packet %zu: a payload of %u bytes (at most "
				 "%d, and the packet within BUF_DEPTH = %u flits)", k, len,
				 LOOM_PKT_MAX_PAYLOAD, s->params.buf_depth);
			free(at);
			return -1;
		}
		at[v[k].node + 1]++;
	}
	for (int i = 0; i < s->nodes; i++)
		at[i + 1] += at[i];
	for (int i = 0; i < s->nodes; i++) {
		s->term[i].inj = (struct sim_injector){ .next = at[i], .end = at[i + 1] };
		s->term[i].inj.back.ready = true;
	}
	for (size_t k = 0; k < n; k++) {
		size_t pos = at[v[k].node]++;

		if (pos > s->term[v[k].node].inj.next &&
		    v[s->inj_order[pos - 1]].cycle > v[k].cycle) {
			snprintf(err, errlen, "scheduled packet %zu: cycle %llu at node %d, after "
				 "one of cycle %llu: give each node's packets in order", k,
				 (unsigned long long)v[k].cycle, v[k].node,
				 (unsigned long long)v[s->inj_order[pos - 1]].cycle);
			free(at);
			return -1;
		}
		s->inj_order[pos] = k;
	}
	free(at);
	s->inj = v;
	s->n_inj = n;
	s->cfg.warmup = 0;
	s->cfg.measure = 1;
	for (size_t k = 0; k < n; k++)
		if (v[k].cycle + 1 > s->cfg.measure)
			s->cfg.measure = v[k].cycle + 1;
	s->st.created = s->st.total_created = n;
	return 0;
}

static int build_fabric(struct sim *s, char *err, size_t errlen)
{
	int n = s->nodes, P = s->ports;
	bool oom = false;

	s->r = zalloc((size_t)n, sizeof(*s->r), &oom);
	s->term = zalloc((size_t)n, sizeof(*s->term), &oom);
	s->lines = zalloc((size_t)n * (size_t)P, sizeof(*s->lines), &oom);
	s->line_store = zalloc((size_t)n * (size_t)P, sizeof(*s->line_store), &oom);
	s->act = zalloc((size_t)n, sizeof(int), &oom);
	s->act_next = zalloc((size_t)n, sizeof(int), &oom);
	s->listed = zalloc((size_t)n, sizeof(uint64_t), &oom);
	s->pending = zalloc((size_t)n, sizeof(int), &oom);
	s->in_pending = zalloc((size_t)n, sizeof(bool), &oom);
	s->wake = zalloc((size_t)n, sizeof(uint64_t), &oom);
	s->busy = zalloc((size_t)n * (size_t)P, sizeof(int), &oom);
	s->busy_next = zalloc((size_t)n * (size_t)P, sizeof(int), &oom);
	s->st.hist = zalloc(SIM_HIST_BINS, sizeof(uint64_t), &oom);
	s->st.chan_flits = zalloc((size_t)n * (size_t)P, sizeof(uint64_t), &oom);
	if (sim_answers(s)) {
		s->st.rtt_hist = zalloc(SIM_HIST_BINS, sizeof(uint64_t), &oom);
		for (int i = 0; i < n && !oom; i++) {
			struct sim_term *T = &s->term[i];

			T->resp.q = zalloc(s->cfg.resp_queue, sizeof(struct sim_pkt), &oom);
			T->resp.cap = s->cfg.resp_queue;
			for (unsigned int v = 0; v < s->params.vcs; v++)
				T->ej[v].f = zalloc(s->params.buf_depth, sizeof(struct flit), &oom);
		}
	}
	if (oom) {
		snprintf(err, errlen, "out of memory for a fabric of %d routers", n);
		return -1;
	}
	s->cuts = zalloc((size_t)n * (size_t)P, sizeof(int), &oom);
	s->out = zalloc((size_t)s->cfg.ranks, sizeof(*s->out), &oom);
	if (oom) {
		snprintf(err, errlen, "out of memory for a fabric of %d routers", n);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		bool here = sim_here(s, i);

		/* other ranks' routers are not built here */
		if (here) {
			s->r[i] = router_new(sim_has_terminal(s, i) ? &s->params : &s->switch_params,
					     &s->views[s->row[i]], err, errlen);
			if (!s->r[i])
				return -1;
			/* Valiant's draws: per router, reproducible from the seed */
			router_seed_lfsr(s->r[i], (uint16_t)((s->cfg.seed + (uint64_t)i + 1) *
							     0x9e3779b97f4a7c15ull >> 48));
		}
		for (int p = 0; p < P; p++) {
			const struct fm_port_end *e = graph_peer(s->g, i, p);
			struct sim_line *l = &s->lines[i * P + p];
			bool there;

			if (e->node == FM_NO_PEER) {
				if (here && p < sim_router_ports(s, i))
					router_set_port_up(s->r[i], (unsigned int)p, false);
				l->a = -1;
				continue;
			}
			there = sim_here(s, e->node);
			*l = (struct sim_line){ .a = i, .pa = p, .b = e->node, .pb = e->port,
						.cut = here != there,
						.line = &s->line_store[i * P + p] };
			if (l->cut)
				s->cuts[s->ncuts++] = i * P + p;
			/* only the lines stepped here (both ends here) carry anything */
			if (here && there ? chan_line_init(l->line, s->cfg.link_latency) :
					    s->cfg.link_latency > CHAN_LINE_MAX_LATENCY) {
				snprintf(err, errlen, s->cfg.link_latency > CHAN_LINE_MAX_LATENCY ?
					 "--link-latency %u: at most %d cycles" :
					 "--link-latency %u: out of memory for the channel lines (%d slots each at most)",
					 s->cfg.link_latency, CHAN_LINE_MAX_LATENCY);
				return -1;
			}
		}
		sim_rng_seed(&s->term[i].rng, s->cfg.seed, (uint64_t)i + 1);
		for (unsigned int v = 0; v < s->params.vcs; v++)
			s->term[i].credits[v] = s->params.buf_depth;
	}
	/* the wires of the lines stepped here (both ends here): both routers exist now */
	for (int m = 0; m < s->nmine; m++) {
		int i = s->mine[m], host = sim_host_port(s, i);

		/* a switch has no terminal: nothing is on its host wires */
		if (host >= 0) {
			s->term[i].in = router_in(s->r[i], (unsigned int)host);
			s->term[i].out = router_out(s->r[i], (unsigned int)host);
		}
		for (int k = i * P; k < (i + 1) * P; k++) {
			struct sim_line *l = &s->lines[k];

			if (l->a >= 0 && !l->cut) {
				l->tx = router_out(s->r[l->a], (unsigned int)l->pa);
				l->rx = router_in(s->r[l->b], (unsigned int)l->pb);
			}
		}
	}
	if (s->cfg.card_links && build_card_links(s, err, errlen))
		return -1;
	for (int h = 0; h <= SIM_MAX_HOPS; h++)
		s->st.by_hops[h].min = UINT64_MAX;
	s->st.all.min = UINT64_MAX;
	s->st.rtt.min = UINT64_MAX;
	return 0;
}

/*
 * The partition (partition.h): every node's rank, this process's nodes
 * and their rows, checked over the ranks (each router stepped by exactly
 * one rank, every rank with the same map).  0, or -1 with @err.
 */
static int build_partition(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	int n = s->nodes;
	bool oom = false;
	int64_t *sums;
	uint64_t none = 0;
	int rc;

	s->owner = zalloc((size_t)n, sizeof(int), &oom);
	s->mine = zalloc((size_t)n, sizeof(int), &oom);
	s->row = zalloc((size_t)n, sizeof(int), &oom);
	sums = zalloc(2 * (size_t)n, sizeof(*sums), &oom);
	if (oom) {
		free(sums);
		snprintf(err, errlen, "out of memory for the partition of %d routers", n);
		return -1;
	}
	sim_partition_build(s->g, c->ranks, c->partition, s->owner, s->partition_how,
			    sizeof(s->partition_how));
	for (int i = 0; i < n; i++) {
		bool here = s->owner[i] == c->rank;

		s->row[i] = here ? s->nmine : -1;
		if (here)
			s->mine[s->nmine++] = i;
		/* one process (the unit tests' ranks): the others as the map says */
		sums[i] = c->dist ? here : 1;
		sums[n + i] = c->dist ? s->owner[i] : (int64_t)c->ranks * s->owner[i];
	}
	if (c->dist)
		c->dist->allreduce(sums, 2 * n, &none);
	rc = sim_partition_check(s->owner, n, c->ranks, sums, sums + n, err, errlen);
	if (!rc && sim_partition_quality(s->g, s->owner, c->ranks, &s->part)) {
		snprintf(err, errlen, "out of memory for the partition of %d routers", n);
		rc = -1;
	}
	free(sums);
	return rc;
}

/* A failure of sim_build() that every rank meets alike. */
static int refused_alike(struct sim *s)
{
	s->refused_alike = true;
	return -1;
}

int sim_build(struct sim *s, const struct sim_config *c, char *err, size_t errlen)
{
	bool oom = false, planned = false, *alike;
	int rows;

	memset(s, 0, sizeof(*s));
	s->cfg = *c;
	if (build_graph(s, err, errlen))
		return refused_alike(s);
	s->nodes = s->g->nodes;
	s->ports = s->g->ports;
	if (c->ranks < 1 || c->rank < 0 || c->rank >= c->ranks || c->ranks > s->nodes) {
		snprintf(err, errlen, "%d ranks for %d routers: at most one rank per router",
			 c->ranks, s->nodes);
		return refused_alike(s);
	}
	if (c->ranks > 1 && c->link_latency < 1) {
		snprintf(err, errlen, "--link-latency 0 over %d ranks: the ranks need a link "
			 "latency of at least 1 cycle (their lookahead)", c->ranks);
		return refused_alike(s);
	}
	if (build_partition(s, err, errlen))
		return -1;
	s->terminals = graph_terminals(s->g);
	/* the entries loom-fm manages: the node count rounded up to FM_RT_SPAN */
	s->rt_entries = (unsigned int)((s->nodes + FM_RT_SPAN - 1) / FM_RT_SPAN * FM_RT_SPAN);
	if (c->rt_entries) {
		if (c->rt_entries < (unsigned int)s->nodes) {
			snprintf(err, errlen, "--rt-entries %u: %s has %d nodes, each a logical id, "
				 "but a card with %u routing entries addresses only %u (the card "
				 "has %d): give at least %d", c->rt_entries, s->g->name, s->nodes,
				 c->rt_entries, c->rt_entries, LOOM_MAX_NODES, s->nodes);
			return refused_alike(s);
		}
		s->rt_entries = c->rt_entries;
	}
	if (traffic_precheck(c->pattern, s->g, err, errlen) || build_params(s, err, errlen))
		return refused_alike(s);
	/* this process's rows of the tables */
	rows = s->nmine;
	alike = zalloc((size_t)rows, sizeof(*alike), &oom);
	/* a card with one network port: every entry but its own names that port */
	for (int m = 0; alike && m < rows; m++)
		alike[m] = sim_router_ports(s, s->mine[m]) == 1;
	if (!oom && sim_tables_init(&s->tables, rows, s->rt_entries, alike, c->own_tables, err,
				    errlen)) {
		free(alike);
		return -1;
	}
	free(alike);
	s->views = zalloc((size_t)rows, sizeof(*s->views), &oom);
	if (oom) {
		snprintf(err, errlen, "out of memory for the tables of %d routers", rows);
		return -1;
	}
	if (build_cards(s, err, errlen) || build_routes(s, &planned, err, errlen) ||
	    build_packets(s, err, errlen))
		return -1;
	if (traffic_init(&s->traffic, c->pattern, s->g, s->routes, c->seed, err, errlen))
		return -1;
	if (c->nreplay) {
		if (replay_load(s, err, errlen))
			return -1;
		if (!s->cfg.measure)
			s->cfg.measure = s->replay_end ? s->replay_end : 1;
	}
	if (build_tables(s, planned, err, errlen) || build_fabric(s, err, errlen))
		return -1;
	/* the routers read the tables now: loom-fm's copy can go */
	routes_free(s->routes);
	s->routes = NULL;
	free(s->cards);
	s->cards = NULL;
	return 0;
}

void sim_free(struct sim *s)
{
	replay_free(s);
	for (int i = 0; s->r && i < s->nodes; i++)
		router_free(s->r[i]);
	for (int i = 0; s->term && i < s->nodes; i++) {
		free(s->term[i].src.q);
		free(s->term[i].resp.q);
		for (int v = 0; v < CHAN_VCS_MAX; v++)
			free(s->term[i].ej[v].f);
	}
	for (int w = 0; w < s->nwires; w++)
		link_wire_free(&s->wires[w]);
	for (int k = 0; s->lu && k < s->nodes * s->ports; k++)
		if (s->lines[k].a >= 0)
			link_unit_free(&s->lu[k]);
	free(s->wires);
	free(s->lu);
	free(s->lu_up);
	free(s->inj_order);
	free(s->r);
	free(s->term);
	for (int i = 0; s->line_store && i < s->nodes * s->ports; i++)
		chan_line_free(&s->line_store[i]);
	free(s->lines);
	free(s->line_store);
	free(s->act);
	free(s->act_next);
	free(s->listed);
	free(s->pending);
	free(s->in_pending);
	free(s->wake);
	free(s->busy);
	free(s->busy_next);
	free(s->cuts);
	for (int r = 0; s->out && r < s->cfg.ranks; r++)
		free(s->out[r].m);
	free(s->out);
	free(s->in.m);
	free(s->st.hist);
	free(s->st.chan_flits);
	free(s->st.rtt_hist);
	sim_tables_free(&s->tables);
	free(s->views);
	free(s->owner);
	free(s->mine);
	free(s->row);
	free(s->cards);
	traffic_free(&s->traffic);
	routes_free(s->routes);
	graph_free(s->g);
	memset(s, 0, sizeof(*s));
}
