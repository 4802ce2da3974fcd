// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm: the channel dependency graph check (check.h).  Vertices are
 * (channel, VC) = ((node, out port), VC); every route adds an edge from
 * each hop to the next.  An iterative depth-first search finds a cycle and
 * reports the vertices on it.  The VCs are FM_NUM_VCS, OmniWAR's
 * distance classes, or Valiant's four on a torus.
 */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int cdg_edges_add(struct fm_cdg_edges *es, uint32_t from, uint32_t to)
{
	if (es->n == es->cap) {
		size_t cap = es->cap ? 2 * es->cap : 1024;
		uint64_t *bigger = realloc(es->e, cap * sizeof(*bigger));

		if (!bigger)
			return -1;
		es->e = bigger;
		es->cap = cap;
	}
	es->e[es->n++] = (uint64_t)from << 32 | to;
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The VCs of the graph of @r's routes. */
static int cdg_vcs(const struct fm_routes *r)
{
	return r->omniwar ? r->classes : r->val_datelines ? FM_VAL_DL_VCS : FM_NUM_VCS;
}

static uint32_t vid(const struct fm_graph *g, int vcs, int node, int port, int vc)
{
	return (uint32_t)((node * g->ports + port) * vcs + vc);
}

uint32_t cdg_vertex_id(const struct fm_graph *g, int node, int port, int vc)
{
	return vid(g, FM_NUM_VCS, node, port, vc);
}

static uint32_t vertex_id(const struct fm_graph *g, int vcs, const struct fm_hop *h)
{
	return vid(g, vcs, h->node, h->port, h->vc);
}

void cdg_edges_dedup(struct fm_cdg_edges *es)
{
	size_t k = 0;

	if (!es->n)
		return;
	qsort(es->e, es->n, sizeof(*es->e), cmp_u64);
	for (size_t i = 0; i < es->n; i++)
		if (!k || es->e[i] != es->e[k - 1])
			es->e[k++] = es->e[i];
	es->n = k;
}

static struct fm_cdg_vertex vertex_of(const struct fm_graph *g, int vcs, uint32_t id)
{
	int ch = (int)(id / (uint32_t)vcs);

	return (struct fm_cdg_vertex){ ch / g->ports, ch % g->ports, (int)(id % (uint32_t)vcs) };
}

/*
 * The DimWAR channels a packet for @dest may take at @n after arriving on
 * VC @vc_in (-1: injected): the minimal port on VC0 and, unless it
 * arrived on VC1, every other cabled port of that port's dimension on
 * VC1.  Returns how many were put in @out (room for g->ports + 1).
 */
static int dimwar_next(const struct fm_graph *g, const struct fm_routes *r, int n, int dest,
		       int vc_in, struct fm_hop *out)
{
	int p = routes_port(r, n, dest), k = 0;

	if (p < 0)
		return 0;
	out[k++] = (struct fm_hop){ n, p, 0 };
	if (vc_in == 1 || r->port_dim[p] < 0)
		return k;
	for (int q = 0; q < g->ports; q++)
		if (q != p && r->port_dim[q] == r->port_dim[p] &&
		    graph_peer(g, n, q)->node != FM_NO_PEER)
			out[k++] = (struct fm_hop){ n, q, 1 };
	return k;
}

/*
 * The channels a packet for @dest may take at @n after arriving on
 * network port channel @prev_port of the previous node on VC @vc_in (-1:
 * injected): the table's port and, for an adaptive up-route entry, every
 * cabled port from its first up port on, each on the VC the table's model
 * gives it (routes_walk's rules).  Returns how many were put in @out (room
 * for g->ports + 1).
 */
static struct fm_hop uproute_hop(const struct fm_graph *g, const struct fm_routes *r, int n,
				 int dest, int q, int prev_port, int vc_in)
{
	int vc = vc_in;

	if (vc_in < 0 || r->port_dim[q] < 0 || r->port_dim[q] != r->port_dim[prev_port])
		vc = r->start_vc[routes_at(r, n, dest)];
	if (r->dateline[n * g->ports + q])
		vc = 1;
	return (struct fm_hop){ n, q, r->uses_vcs ? vc : 0 };
}

static int uproute_next(const struct fm_graph *g, const struct fm_routes *r, int n, int dest,
			int prev_port, int vc_in, struct fm_hop *out)
{
	int p = routes_port(r, n, dest), first = r->up_first[routes_at(r, n, dest)], k = 0;
	/* the up-route's ports: first .. ports - 1 (none without an up-route) */
	int lo = first == FM_NO_UPROUTE ? g->ports : first;

	if (p < 0)
		return 0;
	/* in port order: the table's port below the range, then the range's cabled ports */
	if (p < lo)
		out[k++] = uproute_hop(g, r, n, dest, p, prev_port, vc_in);
	for (int q = lo; q < g->ports; q++)
		if (q == p || graph_peer(g, n, q)->node != FM_NO_PEER)
			out[k++] = uproute_hop(g, r, n, dest, q, prev_port, vc_in);
	return k;
}

/*
 * The OmniWAR channels a packet for @dest may take at @n after arriving
 * on distance class @vc_in (-1: injected), all on the next class: the
 * minimal port of every unaligned dimension and, while the classes left
 * exceed the minimal hops left, every other cabled port of those
 * dimensions (the router's route_omniwar).  None when no class is left.
 */
static int omniwar_next(const struct fm_graph *g, const struct fm_routes *r, int n, int dest,
			int vc_in, struct fm_hop *out)
{
	int p = routes_port(r, n, dest), k = 0, vc = vc_in + 1;
	unsigned int min = r->adapt_ports[routes_at(r, n, dest)], dims = 0;
	bool deroute = r->classes - vc > r->hops_left[routes_at(r, n, dest)];

	if (p < 0 || vc >= r->classes)
		return 0;
	min |= 1u << p;
	for (int q = 0; q < g->ports; q++)
		if ((min >> q & 1) && r->port_dim[q] >= 0)
			dims |= 1u << r->port_dim[q];
	for (int q = 0; q < g->ports; q++) {
		if (graph_peer(g, n, q)->node == FM_NO_PEER)
			continue;
		if ((min >> q & 1) ||
		    (deroute && r->port_dim[q] >= 0 && (dims >> r->port_dim[q] & 1)))
			out[k++] = (struct fm_hop){ n, q, vc };
	}
	return k;
}

static bool has_uproutes(const struct fm_routes *r)
{
	size_t pairs = (size_t)(r->row_hi - r->row_lo) * (size_t)(r->dest_hi - r->dest_lo);

	if (r->uproutes)
		return true;
	for (size_t i = 0; i < pairs; i++)
		if (r->up_first[i] != FM_NO_UPROUTE)
			return true;
	return false;
}

static int adaptive_next(const struct fm_graph *g, const struct fm_routes *r, int n, int dest,
			 int prev_port, int vc_in, struct fm_hop *out)
{
	if (r->omniwar)
		return omniwar_next(g, r, n, dest, vc_in, out);
	if (r->dimwar)
		return dimwar_next(g, r, n, dest, vc_in, out);
	return uproute_next(g, r, n, dest, prev_port, vc_in, out);
}

/*
 * The edge v -> w into the accumulator's bitmap: w is a channel of the
 * node v's channel leads to, so bit (v * ports + w's port) * VCS + w's VC
 * names the edge.
 */
static void add_edge(const struct fm_graph *g, struct fm_cdg_acc *a, uint32_t v,
		     const struct fm_hop *to)
{
	size_t bit = ((size_t)v * (size_t)g->ports + (size_t)to->port) * (size_t)a->vcs +
		     (size_t)to->vc;

	a->edges[bit / 64] |= (uint64_t)1 << bit % 64;
}

/*
 * DimWAR, OmniWAR and adaptive up-routes: the dependencies of every path
 * a deroute or an up-route choice can take, per destination a search over
 * the (channel, VC) reachable from any source.
 */
static int collect_adaptive(const struct fm_graph *g, const struct fm_routes *r, int d0,
			    int d1, struct fm_cdg_acc *a)
{
	int vcs = a->vcs;
	uint32_t nv = (uint32_t)(g->nodes * g->ports * vcs);
	unsigned char *seen = malloc(nv);
	uint32_t *queue = malloc((size_t)nv * sizeof(*queue));
	struct fm_hop *next = malloc(((size_t)g->ports + 1) * sizeof(*next));
	int rc = -1;

	if (!seen || !queue || !next)
		goto out;
	memset(seen, 0, nv);
	for (int d = d0; d < d1; d++) {
		size_t head = 0, tail = 0;

		for (int s = 0; s < g->nodes; s++) {
			int k = s == d ? 0 : adaptive_next(g, r, s, d, -1, -1, next);

			for (int i = 0; i < k; i++) {
				uint32_t v = vertex_id(g, vcs, &next[i]);

				if (!seen[v]) {
					seen[v] = 1;
					queue[tail++] = v;
				}
			}
		}
		while (head < tail) {
			uint32_t v = queue[head++];
			struct fm_cdg_vertex at = vertex_of(g, vcs, v);
			int n = graph_peer(g, at.node, at.port)->node, k;

			a->used[v] = 1;
			if (n == FM_NO_PEER || n == d)
				continue;
			k = adaptive_next(g, r, n, d, at.port, at.vc, next);
			for (int i = 0; i < k; i++) {
				uint32_t w = vertex_id(g, vcs, &next[i]);

				add_edge(g, a, v, &next[i]);
				if (!seen[w]) {
					seen[w] = 1;
					queue[tail++] = w;
				}
			}
		}
		/* the next destination starts from nothing seen: clear what this one saw */
		for (size_t i = 0; i < tail; i++)
			seen[queue[i]] = 0;
	}
	rc = 0;
out:
	free(seen);
	free(queue);
	free(next);
	return rc;
}

/*
 * Valiant and UGAL (engine_valiant.c): every route of the tables once on
 * VC0 (phase 0, from a source to an intermediate) and once on VC1 (phase
 * 1, from an intermediate to a destination, and UGAL's minimal routes),
 * and the turn from every last phase-0 hop into an intermediate to every
 * first phase-1 hop out of it.  On a torus (val_datelines) phase p takes
 * VC 2p + the walk's VC (its datelines and start VCs), and the first
 * phase-1 hop the start VC of its destination, as a packet injected at
 * the intermediate.  Intermediates @i0 .. @i1 - 1 (the routes toward them
 * and the turns at them).
 */
static int collect_valiant(const struct fm_graph *g, const struct fm_routes *r, int i0,
			   int i1, struct fm_cdg_acc *a)
{
	int vcs = a->vcs;
	uint32_t nv = (uint32_t)(g->nodes * g->ports * vcs);
	struct fm_hop *hops = malloc((size_t)g->nodes * sizeof(*hops));
	unsigned char *last = malloc(nv);
	int rc = -1;

	if (!hops || !last)
		goto out;
	for (int i = i0; i < i1; i++) {
		memset(last, 0, nv);
		for (int s = 0; s < g->nodes; s++) {
			int stuck, n = routes_walk(g, r, s, i, hops, &stuck);

			for (int ph = 0; ph < 2; ph++)
				for (int k = 0; k < n; k++) {
					struct fm_hop at = hops[k];
					struct fm_hop to = k + 1 < n ? hops[k + 1] : hops[k];
					uint32_t v;

					at.vc = r->val_datelines ? 2 * ph + at.vc : ph;
					to.vc = r->val_datelines ? 2 * ph + to.vc : ph;
					v = vertex_id(g, vcs, &at);
					a->used[v] = 1;
					if (k + 1 < n)
						add_edge(g, a, v, &to);
				}
			if (n > 0)
				last[vid(g, vcs, hops[n - 1].node, hops[n - 1].port,
					 r->val_datelines ? hops[n - 1].vc : 0)] = 1;
		}
		for (uint32_t v = 0; v < nv; v++) {
			if (!last[v])
				continue;
			for (int d = 0; d < g->nodes; d++) {
				int p = d == i ? -1 : routes_port(r, i, d);
				struct fm_hop to = { i, p, 1 };

				if (p >= 0 && r->val_datelines)
					to.vc = 2 + (r->uses_vcs && r->start_vc[routes_at(r, i, d)]);
				if (p >= 0)
					add_edge(g, a, v, &to);
			}
		}
	}
	rc = 0;
out:
	free(hops);
	free(last);
	return rc;
}

int cdg_acc_init(struct fm_cdg_acc *a, const struct fm_graph *g, const struct fm_routes *r)
{
	size_t nv;

	memset(a, 0, sizeof(*a));
	a->vcs = cdg_vcs(r);
	nv = (size_t)g->nodes * (size_t)g->ports * (size_t)a->vcs;
	a->nused = nv;
	a->nwords = (nv * (size_t)g->ports * (size_t)a->vcs + 63) / 64;
	a->edges = calloc(a->nwords ? a->nwords : 1, sizeof(*a->edges));
	a->used = calloc(nv ? nv : 1, 1);
	if (!a->edges || !a->used) {
		cdg_acc_free(a);
		return -1;
	}
	return 0;
}

void cdg_acc_free(struct fm_cdg_acc *a)
{
	free(a->edges);
	free(a->used);
	memset(a, 0, sizeof(*a));
}

int cdg_acc_add(struct fm_cdg_acc *a, const struct fm_graph *g, const struct fm_routes *r,
		int d0, int d1)
{
	struct fm_hop *hops;

	if (d0 < r->dest_lo || d1 > r->dest_hi || r->row_lo || r->row_hi != g->nodes ||
	    a->vcs != cdg_vcs(r) || (r->valiant && (r->dest_lo || r->dest_hi != g->nodes)))
		return -1;
	if (r->valiant)
		return collect_valiant(g, r, d0, d1, a);
	if (r->dimwar || r->omniwar || has_uproutes(r))
		return collect_adaptive(g, r, d0, d1, a);
	hops = malloc((size_t)g->nodes * sizeof(*hops));
	if (!hops)
		return -1;
	/* destination outermost: its walks read one column of the tables */
	for (int d = d0; d < d1; d++) {
		for (int s = 0; s < g->nodes; s++) {
			int stuck, n = routes_walk(g, r, s, d, hops, &stuck);

			for (int i = 0; i < n; i++) {
				uint32_t v = vertex_id(g, FM_NUM_VCS, &hops[i]);

				a->used[v] = 1;
				if (i + 1 < n)
					add_edge(g, a, v, &hops[i + 1]);
			}
		}
	}
	free(hops);
	return 0;
}

enum { WHITE, GREY, BLACK };

/* DFS over CSR (first[v]..first[v+1] in to[]); the cycle into c, or none. */
static int find_cycle(const struct fm_graph *g, int vcs, uint32_t nv, const uint32_t *first,
		      const uint32_t *to, struct fm_cdg_check *c)
{
	unsigned char *color = calloc(nv, 1);
	uint32_t *stack = malloc((size_t)nv * sizeof(*stack));
	uint32_t *next = malloc((size_t)nv * sizeof(*next));
	int rc = -1;

	if (!color || !stack || !next)
		goto out;
	for (uint32_t root = 0; root < nv && !c->cycle_len; root++) {
		size_t sp = 0;

		if (color[root] != WHITE)
			continue;
		color[root] = GREY;
		next[root] = first[root];
		stack[sp++] = root;
		while (sp) {
			uint32_t v = stack[sp - 1];

			if (next[v] == first[v + 1]) {
				color[v] = BLACK;
				sp--;
				continue;
			}
			uint32_t w = to[next[v]++];

			if (color[w] == WHITE) {
				color[w] = GREY;
				next[w] = first[w];
				stack[sp++] = w;
			} else if (color[w] == GREY) {
				size_t at = sp;

				while (stack[at - 1] != w)
					at--;
				c->cycle_len = (int)(sp - (at - 1));
				c->cycle = malloc((size_t)c->cycle_len * sizeof(*c->cycle));
				if (!c->cycle) {
					c->cycle_len = 0;
					goto out;
				}
				for (int i = 0; i < c->cycle_len; i++)
					c->cycle[i] = vertex_of(g, vcs, stack[at - 1 + (size_t)i]);
				break;
			}
		}
	}
	rc = 0;
out:
	free(color);
	free(stack);
	free(next);
	return rc;
}

/* cdg_check_edges() over @vcs VCs */
static int check_edges(const struct fm_graph *g, int vcs, struct fm_cdg_edges *es,
		       const unsigned char *used, struct fm_cdg_check *c)
{
	uint32_t nv = (uint32_t)(g->nodes * g->ports * vcs);
	uint32_t *first = calloc((size_t)nv + 1, sizeof(*first));
	uint32_t *to = NULL;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	cdg_edges_dedup(es);
	to = malloc((es->n ? es->n : 1) * sizeof(*to));
	if (!first || !to)
		goto out;
	for (uint32_t v = 0; v < nv; v++)
		c->vertices += used ? used[v] : 0;
	c->edges = (long)es->n;
	/* edges are sorted by source: CSR directly */
	for (size_t i = 0; i < es->n; i++) {
		first[(es->e[i] >> 32) + 1]++;
		to[i] = (uint32_t)es->e[i];
	}
	for (uint32_t v = 0; v < nv; v++)
		first[v + 1] += first[v];
	rc = find_cycle(g, vcs, nv, first, to, c);
out:
	free(first);
	free(to);
	return rc;
}

int cdg_check_edges(const struct fm_graph *g, struct fm_cdg_edges *es,
		    const unsigned char *used, struct fm_cdg_check *c)
{
	return check_edges(g, FM_NUM_VCS, es, used, c);
}

int cdg_acc_check(const struct fm_cdg_acc *a, const struct fm_graph *g,
		  struct fm_cdg_check *c)
{
	struct fm_cdg_edges es = { 0 };
	int rc = -1;

	memset(c, 0, sizeof(*c));
	/* the bitmap's order is (from, to): the list comes out sorted */
	for (size_t w = 0; w < a->nwords; w++) {
		for (uint64_t bits = a->edges[w]; bits; bits &= bits - 1) {
			size_t bit = w * 64 + (size_t)__builtin_ctzll(bits);
			size_t v = bit / ((size_t)g->ports * (size_t)a->vcs);
			size_t rest = bit % ((size_t)g->ports * (size_t)a->vcs);
			struct fm_cdg_vertex at = vertex_of(g, a->vcs, (uint32_t)v);
			int n = graph_peer(g, at.node, at.port)->node;

			if (cdg_edges_add(&es, (uint32_t)v,
					  vid(g, a->vcs, n, (int)(rest / (size_t)a->vcs),
					      (int)(rest % (size_t)a->vcs))))
				goto out;
		}
	}
	rc = check_edges(g, a->vcs, &es, a->used, c);
out:
	free(es.e);
	return rc;
}

int cdg_check(const struct fm_graph *g, const struct fm_routes *r, struct fm_cdg_check *c)
{
	struct fm_cdg_acc a;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	if (cdg_acc_init(&a, g, r))
		return -1;
	if (!cdg_acc_add(&a, g, r, 0, g->nodes))
		rc = cdg_acc_check(&a, g, c);
	cdg_acc_free(&a);
	return rc;
}

void cdg_check_free(struct fm_cdg_check *c)
{
	free(c->cycle);
	c->cycle = NULL;
	c->cycle_len = 0;
}
