// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm multicast trees: the union of the unicast routes from a group's
 * root to its members, on a ring and on a 2-D torus routed by dor: the
 * branch points (a router sending on several ports), a member on the root
 * itself, the member count at the root, the register words; the refusal of
 * routes that enter one router by two ports, of two contexts on one node
 * and of a member without a route; and the group file's parser.
 */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "graph.h"
#include "mcast.h"
#include "program.h"
#include "verdict.h"

#include <loom_hw/regs.h>

TAP_DEFINE;

/* The port of node a whose cable leads to node b, or -1. */
static int port_to(const struct fm_graph *g, int a, int b)
{
	for (int p = 0; p < g->ports; p++)
		if (graph_peer(g, a, p)->node == b)
			return p;
	return -1;
}

/* The mask of the ports of node a toward the nodes of list (ends with -1). */
static unsigned int ports_to(const struct fm_graph *g, int a, const int *list)
{
	unsigned int mask = 0;

	for (; *list >= 0; list++)
		mask |= 1u << port_to(g, a, *list);
	return mask;
}

static struct fm_verdict route(const char *shape, struct fm_graph **g)
{
	struct fm_engine_opts o;
	struct fm_verdict v;
	char err[256];

	engine_default_opts(&o);
	*g = graph_from_shape(shape, err, sizeof(err));
	if (!*g || verdict_run(&fm_engine_dor, *g, &o, &v, err, sizeof(err))) {
		tap_diag("%s: %s", shape, err);
		exit(1);
	}
	return v;
}

/* Check one node's entry: what it sends on, its host copy, its members. */
static void expect_entry(const char *what, const struct fm_mcast_entry *e, int node,
			 unsigned int ports, int host_ctx, int members)
{
	const struct fm_mcast_entry *x = &e[node];
	bool ok = x->used && x->ports == ports && x->host == (host_ctx >= 0) &&
		  (host_ctx < 0 || x->host_ctx == host_ctx) && x->members == members;

	tap_ok(ok, "%s: node %d sends on ports %#x, host copy %d, members %d (got used %d ports "
	       "%#x host %d ctx %u members %u)", what, node, ports, host_ctx, members, x->used,
	       x->ports, x->host, x->host_ctx, x->members);
}

static int count_used(const struct fm_mcast_entry *e, int nodes)
{
	int n = 0;

	for (int i = 0; i < nodes; i++)
		n += e[i].used;
	return n;
}

static void ring(void)
{
	struct fm_graph *g;
	struct fm_verdict v = route("ring:8", &g);
	/* root 0 with a member of its own; members both ways round */
	struct fm_mcast_member m[] = { { 2, 1 }, { 6, 3 }, { 0, 5 } };
	struct fm_mcast_group grp = { 7, 0, 1, 3, m };
	struct fm_mcast_entry *e = calloc((size_t)g->nodes, sizeof(*e));
	char err[256] = "";
	int rc = mcast_tree(g, v.routes, &grp, e, err, sizeof(err));
	uint32_t w0, w1;

	tap_ok(rc == 0, "ring:8 group 7 root 0 members 2, 6 and 0: a tree (%s)", err);
	expect_entry("ring", e, 0, ports_to(g, 0, (int[]){ 1, 7, -1 }), 5, 3);
	expect_entry("ring", e, 1, ports_to(g, 1, (int[]){ 2, -1 }), -1, 0);
	expect_entry("ring", e, 2, 0, 1, 0);
	expect_entry("ring", e, 7, ports_to(g, 7, (int[]){ 6, -1 }), -1, 0);
	expect_entry("ring", e, 6, 0, 3, 0);
	tap_ok(count_used(e, g->nodes) == 5 && !e[3].used && !e[4].used && !e[5].used,
	       "ring: nodes 3, 4, 5 are off the tree (%d nodes on it)", count_used(e, g->nodes));
	mcast_entry_words(&e[0], &w0, &w1);
	tap_ok(w0 == (LOOM_MCAST_W0_VALID | LOOM_MCAST_W0_HOST | e[0].ports) &&
	       w1 == (5u | 3u << LOOM_MCAST_W1_MEMBERS_SHIFT),
	       "ring: the root's words: valid, host, its ports; context 5, 3 members "
	       "(%#x %#x)", w0, w1);
	mcast_entry_words(&e[4], &w0, &w1);
	tap_ok(w0 == 0 && w1 == 0, "ring: a node off the tree has an invalid entry (%#x %#x)",
	       w0, w1);

	/*
	 * Tables where the route to 2 goes round the other way (0 7 ... 3 2)
	 * while the route to 3 goes 0 1 2 3: router 2 would be entered from
	 * 1 and from 3.
	 */
	{
		struct fm_mcast_member m2[] = { { 2, 0 }, { 3, 0 } };
		struct fm_mcast_group bad = { 9, 0, 1, 2, m2 };

		for (int n = 0; n < 8; n++)
			v.routes->port[n * 8 + 2] = (signed char)(n < 2 ? port_to(g, n, n + 1) :
							    n == 2 ? FM_PORT_HOST : port_to(g, n, n - 1));
		v.routes->port[0 * 8 + 2] = (signed char)port_to(g, 0, 7);
		v.routes->port[1 * 8 + 2] = (signed char)port_to(g, 1, 0);
		for (int n = 0; n < 3; n++)
			v.routes->port[n * 8 + 3] = (signed char)port_to(g, n, n + 1);
		rc = mcast_tree(g, v.routes, &bad, e, err, sizeof(err));
		tap_diag("%s", err);
		tap_ok(rc < 0 && strstr(err, "group 9: routes enter router 2 by two ports") &&
		       strstr(err, "would get two copies"),
		       "ring: routes entering router 2 by two ports are refused, naming group and "
		       "router");
	}
	free(e);
	verdict_free(&v);
	graph_free(g);
}

/*
 * Send one packet down the tree from the root, as the routers would:
 * copies[n] counts the copies node n receives (the root's own counts 1);
 * 0, or the node where a copy arrives a second time (a duplicate).
 */
static int deliver(const struct fm_graph *g, const struct fm_mcast_entry *e, int root,
		   int *copies)
{
	int *queue = malloc((size_t)g->nodes * sizeof(*queue)), head = 0, tail = 0, dup = 0;

	memset(copies, 0, (size_t)g->nodes * sizeof(*copies));
	copies[root] = 1;
	queue[tail++] = root;
	while (head < tail && !dup) {
		int n = queue[head++];

		for (int p = 0; p < g->ports; p++) {
			int next;

			if (!(e[n].ports & (1u << p)))
				continue;
			next = graph_peer(g, n, p)->node;
			if (next < 0 || copies[next]++) {
				dup = next < 0 ? n : next;
				break;
			}
			queue[tail++] = next;
		}
	}
	free(queue);
	return dup;
}

static void torus(void)
{
	struct fm_graph *g;
	struct fm_verdict v = route("torus:4x4", &g);
	/* spread over the torus, and one on the root itself */
	struct fm_mcast_member m[] = { { 5, 2 }, { 6, 2 }, { 9, 4 }, { 15, 1 }, { 10, 7 },
				       { 0, 3 } };
	struct fm_mcast_group grp = { 200, 0, 1, 6, m };
	struct fm_mcast_entry *e = calloc((size_t)g->nodes, sizeof(*e));
	int *copies = calloc((size_t)g->nodes, sizeof(*copies));
	int rc, dup, branch = 0, bad_host = 0, bad_hop = -1, missed = -1;
	char err[256] = "";

	rc = mcast_tree(g, v.routes, &grp, e, err, sizeof(err));
	tap_ok(rc == 0, "torus:4x4 group 200 root 0, 6 members (one on the root): a tree (%s)",
	       err);
	dup = deliver(g, e, 0, copies);
	tap_ok(!dup, "torus: a packet sent down the entries reaches no node twice (node %d)", dup);
	for (int k = 0; k < grp.nmembers; k++)
		if (copies[m[k].node] != 1 || !e[m[k].node].host ||
		    e[m[k].node].host_ctx != m[k].ctx)
			missed = m[k].node;
	tap_ok(missed < 0, "torus: every member's node gets one copy, for its host, into the "
	       "member's context (first wrong: node %d)", missed);
	for (int n = 0; n < g->nodes; n++) {
		bool member = false;

		for (int k = 0; k < grp.nmembers; k++)
			member |= m[k].node == n;
		bad_host += e[n].host != member;
		branch += e[n].ports && (e[n].ports & (e[n].ports - 1));
		/* each copy leaves by the unicast route toward some member */
		for (int p = 0; p < g->ports; p++) {
			bool on_route = false;

			if (!(e[n].ports & (1u << p)))
				continue;
			for (int k = 0; k < grp.nmembers; k++)
				on_route |= routes_port(v.routes, n, m[k].node) == p;
			if (!on_route)
				bad_hop = n;
		}
	}
	tap_ok(!bad_host, "torus: only members' nodes deliver to their host (%d others do)",
	       bad_host);
	tap_ok(bad_hop < 0, "torus: every copy leaves by a port of the unicast route toward a "
	       "member (first not: node %d)", bad_hop);
	tap_diag("torus: %d routers branch", branch);
	tap_ok(branch >= 2, "torus: the tree branches (%d routers send on several ports)", branch);
	expect_entry("torus: the root", e, 0, e[0].ports, 3, 6);

	{
		struct fm_mcast_member m2[] = { { 5, 2 }, { 5, 3 } };
		struct fm_mcast_group two = { 4, 0, 1, 2, m2 };

		rc = mcast_tree(g, v.routes, &two, e, err, sizeof(err));
		tap_diag("%s", err);
		tap_ok(rc < 0 && strstr(err, "group 4: node 5 has two members, contexts 2 and 3"),
		       "torus: two contexts on one node are refused");
	}
	{
		struct fm_mcast_member m3[] = { { 5, 0 } };
		struct fm_mcast_group cut = { 5, 0, 1, 1, m3 };
		int first = routes_port(v.routes, 0, 5);
		char ferr[128];

		graph_fail_port(g, 0, first, ferr, sizeof(ferr));
		rc = mcast_tree(g, v.routes, &cut, e, err, sizeof(err));
		tap_diag("%s", err);
		tap_ok(rc < 0 && strstr(err, "group 5: no route from root 0 to member 5"),
		       "torus: a member whose route crosses a cut cable is refused");
	}
	free(copies);
	free(e);
	verdict_free(&v);
	graph_free(g);
}

/*
 * The writes configure plans for a group on 4 cards (node i = card i):
 * word 1 before word 0 for every card on the tree, the rest of the span
 * invalidated; a card without a multicast block, or a group beyond its
 * table, refused.
 */
static void plan(void)
{
	static struct fm_fabric fab;
	struct fm_graph *g;
	struct fm_verdict v = route("ring:4", &g);
	struct fm_mcast_member m[] = { { 1, 0 }, { 2, 0 }, { 3, 0 } };
	struct fm_mcast_groups gs = { "g", 1, (struct fm_mcast_group[]){ { 40, 0, 1, 3, m } } };
	struct fm_mcast_trees t;
	struct fm_plan p = { 0 };
	char err[256] = "";
	int w0 = 0, w1_first = 1, valid = 0, rc;

	fab.ncards = 4;
	for (int i = 0; i < 4; i++)
		fab.card[i] = (struct fm_card){ .node = (uint32_t)i, .mcast = 0x2000, .n_groups = 256 };
	rc = mcast_trees(g, v.routes, &gs, &t, err, sizeof(err)) ||
	     plan_add_mcast(&fab, &t, &p, err, sizeof(err));
	for (int k = 0; k < p.n; k++) {
		const struct fm_write *w = &p.w[k];

		if (w->kind != FM_W_MCAST_W0)
			continue;
		w0++;
		if (w->dest == 40) {
			valid += (w->value & LOOM_MCAST_W0_VALID) != 0;
			w1_first &= k > 0 && p.w[k - 1].kind == FM_W_MCAST_W1 &&
				    p.w[k - 1].addr == w->addr + 4 && p.w[k - 1].card == w->card;
		} else if (w->value) {
			valid = -100;
		}
	}
	tap_ok(!rc && w0 == 4 * 64 && valid == 4 && w1_first &&
	       p.w[0].addr == 0x2000 + LOOM_MCAST_TABLE,
	       "plan: groups 0..63 managed on each of 4 cards, group 40 valid on all 4 (word 1 "
	       "first), the others invalidated (%s; %d word-0 writes, %d valid)", err, w0, valid);
	plan_free(&p);
	fab.card[2].mcast = 0;
	rc = plan_add_mcast(&fab, &t, &p, err, sizeof(err));
	tap_ok(rc < 0 && strstr(err, "node 2 is on the tree of group 40 but has no multicast group "
				    "table"), "plan: a card of the tree without a MCAST block is refused (%s)",
	       err);
	plan_free(&p);
	fab.card[2].mcast = 0x2000;
	fab.card[3].n_groups = 40;
	rc = plan_add_mcast(&fab, &t, &p, err, sizeof(err));
	tap_ok(rc < 0 && strstr(err, "group 40 is beyond node 3's group table (N_GROUPS 40"),
	       "plan: a group beyond a card's N_GROUPS is refused (%s)", err);
	plan_free(&p);
	mcast_trees_free(&t);
	verdict_free(&v);
	graph_free(g);
}

static void parser(void)
{
	struct fm_mcast_groups gs;
	char err[2048];
	int rc;

	rc = mcast_parse("# groups\n\ngroup 3 root 0 member 1:0 2:0   # tail\n"
			 "group 255 root 2 member 2:7\n", "g", &gs, err, sizeof(err));
	tap_ok(rc == 0 && gs.n == 2 && gs.g[0].id == 3 && gs.g[0].root == 0 &&
	       gs.g[0].nmembers == 2 && gs.g[0].m[1].node == 2 && gs.g[1].id == 255 &&
	       gs.g[1].m[0].ctx == 7 && gs.g[1].line == 4,
	       "parser: two groups, comments and blank lines (rc %d, %d groups)", rc, gs.n);
	mcast_groups_free(&gs);
	rc = mcast_parse("group 3 root 0 member 1:0\ngroup 3 root 1 member 0:0\n"
			 "group 4 root 0\ngroup 5 rot 0 member 1:0\ngroup 6 root 0 member 1\n"
			 "group 7 root 0 member 1:0 1:0\ngroup 65536 root 0 member 1:0\n",
			 "g", &gs, err, sizeof(err));
	tap_diag("%s", err);
	tap_ok(rc < 0 && strstr(err, "g:2: group 3 is already defined at line 1") &&
	       strstr(err, "g:3: group 4: expected 'member NODE:CTX ...'") &&
	       strstr(err, "g:4: expected 'group G root NODE member NODE:CTX ...'") &&
	       strstr(err, "g:5: group 6: member '1' is not NODE:CTX") &&
	       strstr(err, "g:6: group 7: member 1:0 is listed twice") &&
	       strstr(err, "g:7: expected 'group G root"),
	       "parser: every bad line named with its line number and what is wrong");
	rc = mcast_parse("# nothing\n", "g", &gs, err, sizeof(err));
	tap_ok(rc < 0 && strstr(err, "g: no group"), "parser: a file without groups is refused (%s)",
	       err);
}

int main(void)
{
	tap_plan(25);
	ring();
	torus();
	plan();
	parser();
	return tap_exit_status();
}
