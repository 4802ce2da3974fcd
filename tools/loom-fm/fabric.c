// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm: the discovered fabric as a graph, as a topology file or JSON,
 * and against an expected topology.
 */
#include "fabric.h"

#include <stdlib.h>

/* The far end of card i's port p when the cable is usable from both ends. */
static int usable_peer(const struct fm_fabric *f, int i, uint32_t p, uint32_t *peer_port)
{
	const struct fm_card_port *cp = &f->card[i].port[p];
	const struct fm_card_port *back;
	int j;

	if (!fabric_port_usable(cp->status))
		return -1;
	j = fabric_find(f, cp->peer_node);
	if (j < 0 || j == i || cp->peer_port >= f->card[j].n_ports)
		return -1;
	back = &f->card[j].port[cp->peer_port];
	if (!fabric_port_usable(back->status) || back->peer_node != f->card[i].node ||
	    back->peer_port != p)
		return -1;
	*peer_port = cp->peer_port;
	return j;
}

struct fm_graph *fabric_graph(const struct fm_fabric *f)
{
	uint32_t ports = 1;
	struct fm_graph *g;

	for (int i = 0; i < f->ncards; i++)
		if (f->card[i].n_ports > ports)
			ports = f->card[i].n_ports;
	g = graph_new(f->ncards, (int)ports);
	if (!g)
		return NULL;
	snprintf(g->name, sizeof(g->name), "discovered");
	for (int i = 0; i < f->ncards; i++) {
		for (uint32_t p = 0; p < f->card[i].n_ports; p++) {
			uint32_t pp;
			int j = usable_peer(f, i, p, &pp);

			if (j > i || (j == i && pp > p))
				graph_cable(g, i, (int)p, j, (int)pp);
		}
	}
	return g;
}

void fabric_print(FILE *out, const struct fm_fabric *f, const struct fm_graph *g)
{
	char where[64];

	fprintf(out, "# loom-fm discover: %d card%s, %d cable%s\n", f->ncards,
		f->ncards == 1 ? "" : "s", graph_cable_count(g),
		graph_cable_count(g) == 1 ? "" : "s");
	for (int i = 0; i < f->ncards; i++) {
		const struct fm_card *c = &f->card[i];

		path_format(&c->path, where, sizeof(where));
		fprintf(out, "# node %u: %u ports, %u routing entries, logical id %u, route %s\n",
			c->node, c->n_ports, c->rt_entries, c->cur_logical, where);
	}
	for (int i = 0; i < f->ncards; i++) {
		bool cabled = false;

		for (int p = 0; p < g->ports && !cabled; p++)
			cabled = graph_peer(g, i, p)->node != FM_NO_PEER;
		/* a topology file states logical ids of cabled nodes only */
		if (cabled && f->card[i].cur_logical != f->card[i].node)
			fprintf(out, "node %u logical %u\n", f->card[i].node, f->card[i].cur_logical);
	}
	for (int i = 0; i < f->ncards; i++) {
		for (int p = 0; p < g->ports; p++) {
			const struct fm_port_end *e = graph_peer(g, i, p);

			if (e->node != FM_NO_PEER && (e->node > i || (e->node == i && e->port > p)))
				fprintf(out, "%u:%d %u:%d\n", f->card[i].node, p,
					f->card[e->node].node, e->port);
		}
	}
	for (int i = 0; i < f->ncards; i++) {
		const struct fm_card *c = &f->card[i];

		for (uint32_t p = 0; p < c->n_ports; p++) {
			uint32_t st = c->port[p].status;

			if (!(st & LOOM_PORT_ST_CABLED) && !(st & LOOM_PORT_ST_DISABLED))
				continue;
			if ((int)p < g->ports && graph_peer(g, i, (int)p)->node != FM_NO_PEER)
				continue;
			if (st & LOOM_PORT_ST_UP)
				fprintf(out, "# failed: %u:%u %s (to %u:%u)\n", c->node, p,
					fabric_port_state(st), c->port[p].peer_node,
					c->port[p].peer_port);
			else
				fprintf(out, "# failed: %u:%u %s\n", c->node, p,
					fabric_port_state(st));
		}
	}
}

void fabric_print_json(FILE *out, const struct fm_fabric *f, const struct fm_graph *g)
{
	bool first = true;

	fprintf(out, "{\"cards\":[");
	for (int i = 0; i < f->ncards; i++) {
		const struct fm_card *c = &f->card[i];

		fprintf(out, "%s{\"node\":%u,\"logical\":%u,\"ports\":%u,\"rt_entries\":%u,"
			"\"route\":[", i ? "," : "", c->node, c->cur_logical, c->n_ports,
			c->rt_entries);
		for (int h = 0; h < c->path.hops; h++)
			fprintf(out, "%s%u", h ? "," : "", c->path.port[h]);
		fprintf(out, "],\"port_state\":[");
		for (uint32_t p = 0; p < c->n_ports; p++)
			fprintf(out, "%s\"%s\"", p ? "," : "", fabric_port_state(c->port[p].status));
		fprintf(out, "]}");
	}
	fprintf(out, "],\"cables\":[");
	for (int i = 0; i < f->ncards; i++) {
		for (int p = 0; p < g->ports; p++) {
			const struct fm_port_end *e = graph_peer(g, i, p);

			if (e->node == FM_NO_PEER || e->node < i || (e->node == i && e->port < p))
				continue;
			fprintf(out, "%s{\"a\":{\"node\":%u,\"port\":%d},\"b\":{\"node\":%u,"
				"\"port\":%d}}", first ? "" : ",", f->card[i].node, p,
				f->card[e->node].node, e->port);
			first = false;
		}
	}
	fprintf(out, "]}\n");
}

int fabric_compare(FILE *out, const struct fm_fabric *f, const struct fm_graph *g,
		   const struct fm_graph *expected)
{
	int diffs = 0;

	for (int n = 0; n < expected->nodes; n++) {
		bool cabled = false;

		for (int p = 0; p < expected->ports; p++)
			cabled |= graph_peer(expected, n, p)->node != FM_NO_PEER;
		if (cabled && fabric_find(f, (uint32_t)n) < 0) {
			fprintf(out, "missing node %d\n", n);
			diffs++;
		}
	}
	/* every expected cable must be in g */
	for (int n = 0; n < expected->nodes; n++) {
		for (int p = 0; p < expected->ports; p++) {
			const struct fm_port_end *e = graph_peer(expected, n, p);
			int i = fabric_find(f, (uint32_t)n), j;
			const struct fm_port_end *d;

			if (e->node == FM_NO_PEER || e->node < n || (e->node == n && e->port < p))
				continue;
			j = fabric_find(f, (uint32_t)e->node);
			d = i >= 0 && p < g->ports ? graph_peer(g, i, p) : NULL;
			if (i < 0 || j < 0 || !d || d->node != j || d->port != e->port) {
				fprintf(out, "missing cable %d:%d %d:%d\n", n, p, e->node, e->port);
				diffs++;
			}
		}
	}
	/* and every discovered cable in expected */
	for (int i = 0; i < f->ncards; i++) {
		for (int p = 0; p < g->ports; p++) {
			const struct fm_port_end *d = graph_peer(g, i, p);
			uint32_t a = f->card[i].node, b;
			const struct fm_port_end *e;

			if (d->node == FM_NO_PEER || d->node < i || (d->node == i && d->port < p))
				continue;
			b = f->card[d->node].node;
			e = a < (uint32_t)expected->nodes && p < expected->ports ?
			    graph_peer(expected, (int)a, p) : NULL;
			if (!e || e->node != (int)b || e->port != d->port) {
				fprintf(out, "extra cable %u:%d %u:%d\n", a, p, b, d->port);
				diffs++;
			}
		}
	}
	return diffs;
}

uint32_t fabric_min_rt_entries(const struct fm_fabric *f)
{
	uint32_t min = f->ncards ? UINT32_MAX : 0;

	for (int i = 0; i < f->ncards; i++)
		if (f->card[i].rt_entries < min)
			min = f->card[i].rt_entries;
	return min;
}
