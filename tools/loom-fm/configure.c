// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm configure: discover the fabric, compute routes with an engine,
 * refuse anything incomplete or cyclic, then program every card's logical
 * id, routing table and VC table by maintenance writes (only what
 * differs) and read a sample back.
 */
#include "live.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "logical.h"
#include "mcast.h"
#include "program.h"
#include "topo_file.h"
#include "verdict.h"

long live_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* Print each line of a memstream's text with a prefix, to stderr. */
static void print_prefixed(const char *prefix, const char *text)
{
	while (text && *text) {
		int n = (int)strcspn(text, "\n");

		fprintf(stderr, "%s%.*s\n", prefix, n, text);
		text += n + (text[n] == '\n');
	}
}

static void compare_with_file(const struct live_opts *o, const struct fm_fabric *fab,
			      const struct fm_graph *g, const struct fm_graph *expected)
{
	char *text = NULL, prefix[512];
	size_t len;
	FILE *f;
	int diffs;

	f = open_memstream(&text, &len);
	if (!f)
		return;
	diffs = fabric_compare(f, fab, g, expected);
	fclose(f);
	snprintf(prefix, sizeof(prefix), "loom-fm: warning: against %s: ", o->topology);
	print_prefixed(prefix, text);
	if (!diffs && o->verbose)
		fprintf(stderr, "loom-fm: the fabric matches %s\n", o->topology);
	free(text);
}

/*
 * The shape's graph minus the cables the fabric lacks: cards must be
 * nodes 0..N-1 of the shape, and every usable cable one of the shape's.
 * NULL with a message in err.
 */
static struct fm_graph *shape_graph(const char *shape, const struct fm_fabric *fab,
				    const struct fm_graph *g, char *err, size_t errlen)
{
	struct fm_graph *sg = graph_from_shape(shape, err, errlen);

	if (!sg)
		return NULL;
	if (fab->ncards != sg->nodes) {
		snprintf(err, errlen, "found %d cards, shape %s has %d nodes", fab->ncards, shape,
			 sg->nodes);
		goto bad;
	}
	for (int i = 0; i < fab->ncards; i++)
		if (fab->card[i].node != (uint32_t)i || (int)fab->card[i].n_ports > sg->ports) {
			snprintf(err, errlen, "node %u (%u ports) is not a node of shape %s (ids 0..%d, "
				 "%d ports)", fab->card[i].node, fab->card[i].n_ports, shape,
				 sg->nodes - 1, sg->ports);
			goto bad;
		}
	for (int i = 0; i < g->nodes; i++)
		for (int p = 0; p < g->ports; p++) {
			const struct fm_port_end *d = graph_peer(g, i, p);
			const struct fm_port_end *e = graph_peer(sg, i, p);

			if (d->node != FM_NO_PEER && (e->node != d->node || e->port != d->port)) {
				snprintf(err, errlen, "cable %d:%d %d:%d is not one of shape %s", i, p,
					 d->node, d->port, shape);
				goto bad;
			}
		}
	for (int i = 0; i < sg->nodes; i++)
		for (int p = 0; p < sg->ports; p++) {
			const struct fm_port_end *e = graph_peer(sg, i, p);
			char ferr[128];

			if (e->node != FM_NO_PEER && (p >= g->ports || graph_peer(g, i, p)->node == FM_NO_PEER))
				graph_fail_port(sg, i, p, ferr, sizeof(ferr));
		}
	return sg;
bad:
	graph_free(sg);
	return NULL;
}

/* Why a verdict is not good enough, on stderr. */
static void print_refusal(const struct fm_engine *e, const struct fm_fabric *fab,
			  const struct fm_verdict *v)
{
	const struct fm_route_check *rc = &v->routes_check;

	if (!verdict_complete(v)) {
		fprintf(stderr, "loom-fm: engine %s: %ld of %ld routes do not work, e.g.:\n",
			e->name, rc->bad, rc->routes);
		for (int k = 0; k < rc->nreported && k < 4; k++)
			fprintf(stderr, "loom-fm:   node %u -> node %u: %s at node %u\n",
				fab->card[rc->reported[k].src].node,
				fab->card[rc->reported[k].dest].node,
				check_walk_reason(rc->reported[k].why),
				fab->card[rc->reported[k].at].node);
	}
	if (!verdict_acyclic(v)) {
		fprintf(stderr, "loom-fm: engine %s: the channel dependency graph has a cycle of %d "
			"channels:", e->name, v->cdg.cycle_len);
		for (int k = 0; k < v->cdg.cycle_len && k < 8; k++)
			fprintf(stderr, " %u:%d/vc%d", fab->card[v->cdg.cycle[k].node].node,
				v->cdg.cycle[k].port, v->cdg.cycle[k].vc);
		fprintf(stderr, "%s\n", v->cdg.cycle_len > 8 ? " ..." : "");
	}
}

/*
 * The multicast trees of the group file on the routes r of graph rg (node
 * i = card i), their writes appended to the plan, and printed to say.
 * 0, or -1 with a message in err.
 */
static int plan_groups(struct fm_maint *m, const struct live_opts *o, struct fm_fabric *fab,
		       const struct fm_graph *rg, const struct fm_routes *r, struct fm_plan *plan,
		       FILE *say, char *err, size_t errlen)
{
	struct fm_mcast_trees t = { 0 };
	struct fm_mcast_groups gs;
	char why[512];
	uint32_t *ids;
	int rc = -1;

	if (mcast_load(o->groups, &gs, err, errlen))
		return -1;
	ids = malloc((size_t)fab->ncards * sizeof(*ids));
	if (!ids) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < fab->ncards; i++)
		ids[i] = fab->card[i].node;
	/* the file names physical node ids; the trees are computed on card indices */
	for (int k = 0; k < gs.n; k++) {
		struct fm_mcast_group *grp = &gs.g[k];

		for (int j = -1; j < grp->nmembers; j++) {
			int *node = j < 0 ? &grp->root : &grp->m[j].node;
			int card = fabric_find(fab, (uint32_t)*node);

			if (card < 0) {
				snprintf(err, errlen, "%s:%d: group %d: node %d is not in the fabric",
					 o->groups, grp->line, grp->id, *node);
				goto out;
			}
			*node = card;
		}
	}
	if (mcast_trees(rg, r, &gs, &t, why, sizeof(why))) {
		snprintf(err, errlen, "%s: %s", o->groups, why);
		goto out;
	}
	if (fabric_find_mcast(m, fab, err, errlen) || plan_add_mcast(fab, &t, plan, err, errlen))
		goto out;
	fprintf(say, "multicast groups of %s:\n", o->groups);
	mcast_print_trees(say, &t, ids);
	rc = 0;
out:
	mcast_trees_free(&t);
	mcast_groups_free(&gs);
	free(ids);
	return rc;
}

static int count_failed_ports(const struct fm_fabric *fab, const struct fm_graph *g)
{
	int n = 0;

	for (int i = 0; i < fab->ncards; i++)
		for (uint32_t p = 0; p < fab->card[i].n_ports; p++) {
			uint32_t st = fab->card[i].port[p].status;

			if (((st & LOOM_PORT_ST_CABLED) || (st & LOOM_PORT_ST_DISABLED)) &&
			    graph_peer(g, i, (int)p)->node == FM_NO_PEER)
				n++;
		}
	return n;
}

int live_configure(struct fm_maint *m, const struct live_opts *o, bool fallback,
		   bool log_changes, struct fm_fabric *fab, struct live_result *res)
{
	long t0 = live_now_ms(), reads0 = m->reads;
	const struct fm_engine *e;
	struct fm_graph *g = NULL, *sg = NULL;
	const struct fm_graph *rg;
	struct fm_graph *expected = NULL;
	struct fm_transition tr = { 0 };
	FILE *say = o->json ? stderr : stdout;
	struct fm_apply_stats st;
	struct fm_verdict v;
	struct fm_plan plan;
	char err[1024];
	int rc = -1;

	memset(res, 0, sizeof(*res));
	memset(&v, 0, sizeof(v));
	memset(&plan, 0, sizeof(plan));
	e = engine_find(o->engine ? o->engine : o->shape ? "dor" : "updown");
	if (fabric_discover(m, fab, stderr, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: %s\n", err);
		return -1;
	}
	g = fabric_graph(fab);
	if (!g) {
		fprintf(stderr, "loom-fm: out of memory\n");
		return -1;
	}
	if (o->topology) {
		expected = topo_load(o->topology, err, sizeof(err));
		if (!expected)
			fprintf(stderr, "loom-fm: warning: %s\n", err);
		else
			compare_with_file(o, fab, g, expected);
	}
	if (expected && topo_fits_tables(expected, fabric_min_rt_entries(fab),
					 o->logical == FM_LOGICAL_IDENTITY, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: %s; nothing written\n", err);
		rc = 1;
		goto out;
	}
	if (logical_assign(fab, o->logical, expected, o->topology, stderr, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: %s; nothing written\n", err);
		rc = 1;
		goto out;
	}
	rg = g;
	if (o->shape) {
		sg = shape_graph(o->shape, fab, g, err, sizeof(err));
		if (!sg && !fallback) {
			fprintf(stderr, "loom-fm: the fabric is not %s: %s; nothing programmed\n",
				o->shape, err);
			rc = 1;
			goto out;
		}
		if (!sg) {
			fprintf(stderr, "loom-fm: the fabric is no longer %s (%s): routing it with "
				"updown\n", o->shape, err);
			e = &fm_engine_updown;
		}
		rg = sg ? sg : g;
	}
	if (verdict_run(e, rg, &o->eopts, &v, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: engine %s: %s\n", e->name, err);
		rc = 1;
		goto out;
	}
	if ((!verdict_complete(&v) || !verdict_acyclic(&v)) && fallback && e != &fm_engine_updown) {
		print_refusal(e, fab, &v);
		fprintf(stderr, "loom-fm: falling back to engine updown on the fabric as it is\n");
		verdict_free(&v);
		e = &fm_engine_updown;
		rg = g;
		if (verdict_run(e, rg, &o->eopts, &v, err, sizeof(err))) {
			fprintf(stderr, "loom-fm: engine %s: %s\n", e->name, err);
			memset(&v, 0, sizeof(v));
			rc = 1;
			goto out;
		}
	}
	if (!verdict_complete(&v) || !verdict_acyclic(&v)) {
		print_refusal(e, fab, &v);
		fprintf(stderr, "loom-fm: refusing to program these tables; nothing written\n");
		rc = 1;
		goto out;
	}
	if (plan_build(fab, v.routes, &plan, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: %s; nothing written\n", err);
		rc = 1;
		goto out;
	}
	if (o->groups && plan_groups(m, o, fab, rg, v.routes, &plan, say, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: %s; nothing written\n", err);
		rc = 1;
		goto out;
	}
	if (plan_snapshot(m, fab, &plan, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: %s; nothing written\n", err);
		goto out;
	}
	if (transition_plan(fab, g, &plan, o->force, 0, &tr, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: %s; nothing written\n", err);
		goto out;
	}
	logical_print(say, fab);
	transition_print(say, fab, &tr);
	fflush(say);
	if (tr.how == FM_TR_REFUSED) {
		fprintf(stderr, "loom-fm: refusing to reprogram without a deadlock-free order; "
			"nothing written\n");
		rc = 1;
		goto out;
	}
	if (plan_apply(m, fab, &plan, tr.step, tr.nsteps, &st, log_changes ? stdout : NULL, err,
		       sizeof(err))) {
		fprintf(stderr, "loom-fm: programming failed: %s\n", err);
		goto out;
	}
	if (plan_verify(m, fab, &plan, &res->verified, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: verification failed: %s\n", err);
		goto out;
	}
	res->engine = e->name;
	res->cards = fab->ncards;
	res->cables = graph_cable_count(g);
	res->failed_ports = count_failed_ports(fab, g);
	res->routes_changed = st.routes_changed;
	res->written = st.written;
	res->cards_changed = st.cards_changed;
	res->reads = m->reads - reads0;
	res->ms = live_now_ms() - t0;
	res->how = tr.how;
	res->states_checked = tr.states_checked;
	res->nsteps = tr.nsteps;
	memcpy(res->order, tr.step, (size_t)tr.nsteps * sizeof(tr.step[0]));
	rc = 0;
out:
	transition_free(&tr);
	graph_free(expected);
	plan_free(&plan);
	if (v.routes)
		verdict_free(&v);
	graph_free(sg);
	graph_free(g);
	return rc;
}
