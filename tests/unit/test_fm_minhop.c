// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm engine minhop: minimal paths with adaptivity.  Entries toward a
 * destination reachable through several minimal ports are adaptive, with
 * exactly those ports in their mask; entries with one minimal port are not.
 * The deterministic escape paths stay minimal, and acyclic on rings, tori,
 * meshes and HyperX (dimension order, datelines on tori); without datelines
 * a ring is cyclic and the check names the cycle; --no-adaptive (adaptive
 * off) leaves no adaptive entry.  Programmed into a fake fabric, an
 * adaptive entry has LOOM_RT_W0_ADAPTIVE and its ports in word 1.
 */
#include <stdlib.h>

#include "tap.h"
#include "graph.h"
#include "verdict.h"
#include "fabric.h"
#include "program.h"
#include "test_fm_fakefab.h"

TAP_DEFINE;

static int run_opts(const char *shape, const struct fm_engine_opts *o, struct fm_graph **g,
		    struct fm_verdict *v)
{
	char err[256];

	*g = graph_from_shape(shape, err, sizeof(err));
	if (!*g || verdict_run(&fm_engine_minhop, *g, o, v, err, sizeof(err))) {
		tap_diag("%s: %s", shape, err);
		graph_free(*g);
		*g = NULL;
		return -1;
	}
	return 0;
}

static int run(const char *shape, struct fm_graph **g, struct fm_verdict *v)
{
	struct fm_engine_opts o;

	engine_default_opts(&o);
	return run_opts(shape, &o, g, v);
}

static unsigned int adapt(const struct fm_routes *r, int node, int dest)
{
	return r->adapt_ports[node * r->nodes + dest];
}

/*
 * Every entry against the minimal ports found here by BFS: the escape port
 * is one of them; the entry is adaptive with exactly them when there are
 * two or more, else not.  Counts the adaptive and the single-port entries.
 */
static bool masks_right(const struct fm_graph *g, const struct fm_routes *r, int *n_adaptive,
			int *n_single)
{
	int *dist = malloc((size_t)g->nodes * sizeof(*dist));
	int *queue = malloc((size_t)g->nodes * sizeof(*queue));
	bool ok = dist && queue;

	*n_adaptive = *n_single = 0;
	for (int dest = 0; ok && dest < g->nodes; dest++) {
		graph_bfs(g, dest, dist, queue);
		for (int n = 0; n < g->nodes; n++) {
			unsigned int minimal = 0;
			int port = routes_port(r, n, dest);

			if (n == dest)
				continue;
			for (int p = 0; p < g->ports; p++) {
				int m = graph_peer(g, n, p)->node;

				if (m != FM_NO_PEER && dist[m] == dist[n] - 1)
					minimal |= 1u << p;
			}
			if (port < 0 || !(minimal & (1u << port))) {
				tap_diag("%d -> %d: escape port %d is not minimal (%#x)", n, dest,
					 port, minimal);
				ok = false;
			} else if (minimal & (minimal - 1)) {
				(*n_adaptive)++;
				if (adapt(r, n, dest) != minimal) {
					tap_diag("%d -> %d: adaptive ports %#x, minimal %#x", n, dest,
						 adapt(r, n, dest), minimal);
					ok = false;
				}
			} else {
				(*n_single)++;
				if (adapt(r, n, dest)) {
					tap_diag("%d -> %d: one minimal port but adaptive %#x", n,
						 dest, adapt(r, n, dest));
					ok = false;
				}
			}
		}
	}
	free(dist);
	free(queue);
	return ok;
}

static bool none_adaptive(const struct fm_routes *r)
{
	for (int i = 0; i < r->nodes * r->nodes; i++)
		if (r->adapt_ports[i])
			return false;
	return true;
}

int main(void)
{
	struct fm_engine_opts o;
	struct fm_verdict v;
	struct fm_graph *g;
	int na, ns;
	bool m;

	tap_plan(17);
	if (!run("ring:5", &g, &v)) {
		tap_ok(verdict_complete(&v) && verdict_minimal(&v) && verdict_acyclic(&v) &&
		       v.routes_check.max_hops == 2,
		       "minhop ring:5: complete, minimal (2 hops), acyclic with datelines");
		m = masks_right(g, v.routes, &na, &ns);
		tap_ok(m && na == 0 && ns == 20,
		       "ring:5: one minimal port everywhere, nothing adaptive (%d adaptive)", na);
		verdict_free(&v);
		graph_free(g);
	} else {
		tap_ok(0, "minhop ring:5 routed");
		tap_ok(0, "minhop ring:5 masks");
	}
	engine_default_opts(&o);
	o.datelines = false;
	if (!run_opts("ring:5", &o, &g, &v)) {
		bool same_direction = true;

		tap_ok(!verdict_acyclic(&v), "minhop ring:5 without datelines: cyclic");
		for (int i = 1; i < v.cdg.cycle_len; i++)
			if (v.cdg.cycle[i].port != v.cdg.cycle[0].port ||
			    v.cdg.cycle[i].node != (v.cdg.cycle[i - 1].node + (v.cdg.cycle[0].port ? 4 : 1)) % 5)
				same_direction = false;
		tap_ok(v.cdg.cycle_len == 5 && same_direction,
		       "the cycle is the 5 channels of one direction round the ring (%d)",
		       v.cdg.cycle_len);
		verdict_free(&v);
		graph_free(g);
	} else {
		tap_ok(0, "minhop ring:5 without datelines routed");
		tap_ok(0, "minhop ring:5 without datelines: the cycle");
	}
	if (!run("torus:4x4", &g, &v)) {
		tap_ok(verdict_complete(&v) && verdict_minimal(&v) && verdict_acyclic(&v),
		       "minhop torus:4x4: complete, escape paths minimal and acyclic");
		m = masks_right(g, v.routes, &na, &ns);
		tap_ok(m && na > 0 && ns > 0,
		       "torus:4x4: adaptive exactly where several minimal ports exist (%d adaptive, %d single)",
		       na, ns);
		/* 0 = (0,0): to 5 = (1,1) +X or +Y; to 2 = (2,0) +X or -X (half way);
		 * to 1 = (1,0) only +X
		 */
		tap_ok(adapt(v.routes, 0, 5) == 0x3 && routes_port(v.routes, 0, 5) == 0 &&
		       adapt(v.routes, 0, 2) == 0x5 && routes_port(v.routes, 0, 2) == 0 &&
		       adapt(v.routes, 0, 1) == 0 && routes_port(v.routes, 0, 1) == 0,
		       "torus:4x4 node 0: ->5 ports {0,1}, ->2 ports {0,2}, ->1 port 0 only; escape +X");
		tap_ok(v.routes->uses_vcs && v.routes->dateline[3 * 4 + 0] &&
		       v.routes->dateline[0 * 4 + 2] && !v.routes->dateline[1 * 4 + 0],
		       "torus:4x4: datelines on the wrap-around channels");
		verdict_free(&v);
		graph_free(g);
	} else {
		for (int i = 0; i < 4; i++)
			tap_ok(0, "minhop torus:4x4 routed");
	}
	if (!run("torus:3x3x3", &g, &v)) {
		m = masks_right(g, v.routes, &na, &ns);
		tap_ok(verdict_complete(&v) && verdict_minimal(&v) && verdict_acyclic(&v) &&
		       m && na > 0,
		       "minhop torus:3x3x3: minimal, acyclic, adaptive where there is a choice (%d)",
		       na);
		verdict_free(&v);
		graph_free(g);
	} else {
		tap_ok(0, "minhop torus:3x3x3 routed");
	}
	if (!run("hyperx:4x3", &g, &v)) {
		tap_ok(verdict_complete(&v) && verdict_minimal(&v) && verdict_acyclic(&v) &&
		       v.routes_check.max_hops == 2,
		       "minhop hyperx:4x3: complete, minimal, diameter 2, acyclic");
		/* 0 = (0,0): to 5 = (1,1) two ways (x first or y first); to 1 one hop */
		m = masks_right(g, v.routes, &na, &ns);
		tap_ok(m && na == 12 * 6 && ns == 12 * 5 &&
		       __builtin_popcount(adapt(v.routes, 0, 5)) == 2 && adapt(v.routes, 0, 1) == 0,
		       "hyperx:4x3: the 6 two-hop destinations of each node adaptive, the 5 neighbours not (%d/%d)",
		       na, ns);
		verdict_free(&v);
		graph_free(g);
	} else {
		tap_ok(0, "minhop hyperx:4x3 routed");
		tap_ok(0, "minhop hyperx:4x3 masks");
	}
	if (!run("mesh:3x3", &g, &v)) {
		m = masks_right(g, v.routes, &na, &ns);
		tap_ok(verdict_complete(&v) && verdict_minimal(&v) && verdict_acyclic(&v) &&
		       m,
		       "minhop mesh:3x3: complete, minimal, acyclic, masks right");
		/* dimension order on ties: 0 -> 4 leaves +X (port 0) first */
		tap_ok(routes_port(v.routes, 0, 4) == 0 && adapt(v.routes, 0, 4) == 0x3,
		       "mesh:3x3 0->4: escape port 0 (+X), adaptive over +X and +Y");
		verdict_free(&v);
		graph_free(g);
	} else {
		tap_ok(0, "minhop mesh:3x3 routed");
		tap_ok(0, "minhop mesh:3x3 tie-break");
	}
	engine_default_opts(&o);
	o.adaptive = false;
	if (!run_opts("torus:4x4", &o, &g, &v)) {
		tap_ok(none_adaptive(v.routes) && verdict_acyclic(&v) && verdict_minimal(&v) &&
		       routes_port(v.routes, 0, 5) == 0,
		       "torus:4x4 with adaptivity off: no adaptive entry, same escape paths");
		verdict_free(&v);
		graph_free(g);
	} else {
		tap_ok(0, "minhop torus:4x4 without adaptivity routed");
	}
	/* a failed cable: minimal ports are those of the damaged graph */
	engine_default_opts(&o);
	if (!run("torus:4x4", &g, &v)) {
		struct fm_verdict v2;
		char err[256];

		verdict_free(&v);
		if (!graph_fail_port(g, 0, 0, err, sizeof(err)) &&
		    !verdict_run(&fm_engine_minhop, g, &o, &v2, err, sizeof(err))) {
			m = masks_right(g, v2.routes, &na, &ns);
			tap_ok(verdict_complete(&v2) && m &&
			       routes_port(v2.routes, 0, 5) == 1 && adapt(v2.routes, 0, 5) == 0,
			       "torus:4x4 without cable 0:0: 0->5 only via +Y, not adaptive");
			verdict_free(&v2);
		} else {
			tap_diag("%s", err);
			tap_ok(0, "torus:4x4 without cable 0:0 routed");
		}
		graph_free(g);
	} else {
		tap_ok(0, "minhop torus:4x4 routed");
	}
	/* programmed: torus:3x3, node 0 = (0,0); 4 = (1,1) two ways, 1 = (1,0) one */
	if (!run("torus:3x3", &g, &v)) {
		static struct fm_fabric fab;
		static char err[512];
		struct fake_fabric *ff = fake_new(g, 0);
		struct fm_apply_stats st;
		struct fm_plan plan;
		uint32_t rt = ff->card[0].router + LOOM_ROUTER_RT;
		bool ok;

		bool built;

		built = !fabric_discover(&ff->m, &fab, NULL, err, sizeof(err)) &&
			!plan_build(&fab, v.routes, &plan, err, sizeof(err));
		ok = built && !plan_apply(&ff->m, &fab, &plan, NULL, 0, &st, NULL, err, sizeof(err));
		if (!ok)
			tap_diag("%s", err);
		tap_ok(ok && *fake_reg(&ff->card[0], rt + 4 * 8) ==
		       (LOOM_RT_W0_VALID | LOOM_RT_W0_ADAPTIVE | 0) &&
		       *fake_reg(&ff->card[0], rt + 4 * 8 + 4) ==
		       (4 | 0x3u << LOOM_RT_W1_ADAPT_PORTS_SHIFT),
		       "programmed 0->4: valid, adaptive, port 0; word 1 phys 4, ports {0,1}");
		tap_ok(ok && *fake_reg(&ff->card[0], rt + 1 * 8) == (LOOM_RT_W0_VALID | 0) &&
		       *fake_reg(&ff->card[0], rt + 1 * 8 + 4) == 1,
		       "programmed 0->1: valid, port 0, not adaptive; word 1 phys 1 only");
		if (built)
			plan_free(&plan);
		fake_free(ff);
		verdict_free(&v);
		graph_free(g);
	} else {
		tap_ok(0, "minhop torus:3x3 routed");
		tap_ok(0, "minhop torus:3x3 programmed");
	}
	return tap_exit_status();
}
