// SPDX-License-Identifier: GPL-2.0
/* loom-fm: printing tables and verdicts (report.h). */
#include "report.h"

#include "vc_balance.h"

bool report_ok(const struct fm_report *rep)
{
	return rep->rc->bad == 0 && rep->cdg->cycle_len == 0;
}

/* the entry's adaptive ports (routes.h), or 0 when it is deterministic */
static unsigned int adaptive_ports(const struct fm_routes *r, int node, int dest)
{
	unsigned int m = r->adapt_ports[node * r->nodes + dest];

	return m & (m - 1) ? m : 0;
}

static void text_entry(FILE *f, const struct fm_report *rep, int node, int dest)
{
	int port = routes_port(rep->r, node, dest);

	if (port >= 0 && adaptive_ports(rep->r, node, dest)) {
		if (rep->r->uses_vcs)
			fprintf(f, " %d=%d/%d*", dest, port,
				rep->r->start_vc[node * rep->r->nodes + dest]);
		else
			fprintf(f, " %d=%d*", dest, port);
		return;
	}

	if (port == FM_PORT_HOST)
		fprintf(f, " %d=host", dest);
	else if (port == FM_PORT_NONE)
		fprintf(f, " %d=-", dest);
	else if (rep->r->uses_vcs)
		fprintf(f, " %d=%d/%d", dest, port, rep->r->start_vc[node * rep->r->nodes + dest]);
	else
		fprintf(f, " %d=%d", dest, port);
	if (port >= 0 && rep->r->up_first[node * rep->r->nodes + dest] != FM_NO_UPROUTE)
		fprintf(f, "^%d", rep->r->up_first[node * rep->r->nodes + dest]);
}

static void text_cycle(FILE *f, const struct fm_cdg_check *c)
{
	for (int i = 0; i < c->cycle_len; i++)
		fprintf(f, "%s%d:%d/%d", i ? " -> " : " ", c->cycle[i].node, c->cycle[i].port,
			c->cycle[i].vc);
	if (c->cycle_len)
		fprintf(f, " -> %d:%d/%d", c->cycle[0].node, c->cycle[0].port, c->cycle[0].vc);
}

void report_text(FILE *f, const struct fm_report *rep)
{
	const struct fm_graph *g = rep->g;
	const struct fm_route_check *rc = rep->rc;
	const struct fm_cdg_check *cdg = rep->cdg;
	struct fm_vc_balance vb;

	fprintf(f, "# %s: %d nodes, %d ports each, %d cables; engine %s%s\n", g->name, g->nodes,
		g->ports, graph_cable_count(g), rep->engine->name,
		rep->r->uses_vcs ? ", VCs (DEST=PORT/VC: VC on entering a dimension)" : "");
	if (rep->tables) {
		for (int n = 0; n < g->nodes; n++) {
			fprintf(f, "node %d:", n);
			for (int d = 0; d < g->nodes; d++)
				text_entry(f, rep, n, d);
			fprintf(f, "\n");
		}
		if (rep->r->uses_vcs) {
			fprintf(f, "datelines (NODE:PORT, switch to VC1):");
			for (int n = 0; n < g->nodes; n++)
				for (int p = 0; p < g->ports; p++)
					if (rep->r->dateline[n * g->ports + p])
						fprintf(f, " %d:%d", n, p);
			fprintf(f, "\n");
		}
		long na = 0, nu = 0;

		for (int n = 0; n < g->nodes; n++) {
			for (int d = 0; d < g->nodes; d++) {
				na += adaptive_ports(rep->r, n, d) != 0;
				nu += rep->r->up_first[n * g->nodes + d] != FM_NO_UPROUTE;
			}
		}
		if (na)
			fprintf(f, "adaptive (PORT*): %ld entries may also take their other minimal ports\n",
				na);
		if (nu)
			fprintf(f, "up-routes (PORT^FIRST): %ld entries may take any up port from FIRST "
				"on\n", nu);
	}
	if (rep->mcast) {
		fprintf(f, "multicast groups (the union of the routes from each root to its "
			"members):\n");
		mcast_print_trees(f, rep->mcast, NULL);
	}
	if (!rc->bad) {
		fprintf(f, "complete: yes (%ld routes)\n", rc->routes);
	} else {
		fprintf(f, "complete: no, %ld of %ld pairs unreachable:", rc->bad, rc->routes);
		for (int i = 0; i < rc->nreported; i++)
			fprintf(f, "%s %d->%d (at node %d: %s)", i ? "," : "", rc->reported[i].src,
				rc->reported[i].dest, rc->reported[i].at,
				check_walk_reason(rc->reported[i].why));
		fprintf(f, "%s\n", rc->bad > rc->nreported ? ", ..." : "");
	}
	if (!cdg->cycle_len) {
		fprintf(f, "deadlock-free: yes (CDG %ld vertices, %ld edges, acyclic)\n",
			cdg->vertices, cdg->edges);
	} else {
		fprintf(f, "deadlock-free: no (CDG %ld vertices, %ld edges), cycle of %d channels:",
			cdg->vertices, cdg->edges, cdg->cycle_len);
		text_cycle(f, cdg);
		fprintf(f, "\n");
	}
	if (rc->routes == rc->bad)
		fprintf(f, "minimal: no routes\n");
	else if (!rc->non_minimal)
		fprintf(f, "minimal: yes (max %d hops)\n", rc->max_hops);
	else
		fprintf(f, "minimal: no, %ld routes longer than the shortest path, max stretch %.2f "
			"(%d->%d: %d hops, shortest %d)\n", rc->non_minimal,
			(double)rc->worst_hops / rc->worst_dist, rc->worst_src, rc->worst_dest,
			rc->worst_hops, rc->worst_dist);
	if (rep->r->uses_vcs && !vc_balance_measure(g, rep->r, &vb))
		fprintf(f, "vc-balance: average %.3f, max %.3f over %ld channels (%ld of %ld "
			"start-VC entries free, %ld on VC1)\n", vb.avg, vb.max, vb.channels,
			vb.free_entries, vb.entries, vb.vc1_entries);
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

void report_json(FILE *f, const struct fm_report *rep)
{
	const struct fm_graph *g = rep->g;
	const struct fm_route_check *rc = rep->rc;
	const struct fm_cdg_check *cdg = rep->cdg;
	struct fm_vc_balance vb;

	fprintf(f, "{\"topology\":");
	json_str(f, g->name);
	fprintf(f, ",\"nodes\":%d,\"ports\":%d,\"cables\":%d,\"engine\":\"%s\",\"vcs\":%s",
		g->nodes, g->ports, graph_cable_count(g), rep->engine->name,
		rep->r->uses_vcs ? "true" : "false");
	if (rep->tables) {
		fprintf(f, ",\"tables\":[");
		for (int n = 0; n < g->nodes; n++) {
			fprintf(f, "%s{\"node\":%d,\"routes\":[", n ? "," : "", n);
			for (int d = 0; d < g->nodes; d++) {
				int port = routes_port(rep->r, n, d);

				fprintf(f, "%s{\"dest\":%d,\"port\":", d ? "," : "", d);
				if (port == FM_PORT_HOST)
					fprintf(f, "\"host\"");
				else if (port == FM_PORT_NONE)
					fprintf(f, "null");
				else
					fprintf(f, "%d", port);
				fprintf(f, ",\"vc\":%d", rep->r->start_vc[n * g->nodes + d]);
				if (port >= 0 && adaptive_ports(rep->r, n, d)) {
					unsigned int m = adaptive_ports(rep->r, n, d);

					fprintf(f, ",\"adaptive_ports\":[");
					for (int p = 0, k = 0; p < 8; p++)
						if (m & (1u << p))
							fprintf(f, "%s%d", k++ ? "," : "", p);
					fprintf(f, "]");
				}
				if (port >= 0 && rep->r->up_first[n * g->nodes + d] != FM_NO_UPROUTE)
					fprintf(f, ",\"up_first\":%d", rep->r->up_first[n * g->nodes + d]);
				fprintf(f, "}");
			}
			fprintf(f, "]}");
		}
		fprintf(f, "],\"datelines\":[");
		for (int n = 0, k = 0; n < g->nodes; n++)
			for (int p = 0; p < g->ports; p++)
				if (rep->r->uses_vcs && rep->r->dateline[n * g->ports + p])
					fprintf(f, "%s{\"node\":%d,\"port\":%d}", k++ ? "," : "", n, p);
		fprintf(f, "]");
	}
	fprintf(f, ",\"complete\":%s,\"routes\":%ld,\"unreachable_count\":%ld,\"unreachable\":[",
		rc->bad ? "false" : "true", rc->routes, rc->bad);
	for (int i = 0; i < rc->nreported; i++)
		fprintf(f, "%s{\"src\":%d,\"dest\":%d,\"at\":%d,\"reason\":\"%s\"}", i ? "," : "",
			rc->reported[i].src, rc->reported[i].dest, rc->reported[i].at,
			check_walk_reason(rc->reported[i].why));
	fprintf(f, "],\"deadlock_free\":%s,\"cdg\":{\"vertices\":%ld,\"edges\":%ld},\"cycle\":[",
		cdg->cycle_len ? "false" : "true", cdg->vertices, cdg->edges);
	for (int i = 0; i < cdg->cycle_len; i++)
		fprintf(f, "%s{\"node\":%d,\"port\":%d,\"vc\":%d}", i ? "," : "", cdg->cycle[i].node,
			cdg->cycle[i].port, cdg->cycle[i].vc);
	fprintf(f, "],\"minimal\":%s,\"non_minimal_routes\":%ld,\"max_hops\":%d,\"max_stretch\":%.3f",
		rc->non_minimal || rc->routes == rc->bad ? "false" : "true", rc->non_minimal,
		rc->max_hops,
		rc->worst_dist > 0 ? (double)rc->worst_hops / rc->worst_dist : 0.0);
	if (rep->r->uses_vcs && !vc_balance_measure(g, rep->r, &vb))
		fprintf(f, ",\"vc_balance\":{\"average\":%.4f,\"max\":%.4f,\"channels\":%ld,"
			"\"entries\":%ld,\"free_entries\":%ld,\"vc1_entries\":%ld}", vb.avg, vb.max,
			vb.channels, vb.entries, vb.free_entries, vb.vc1_entries);
	if (rep->mcast) {
		fprintf(f, ",\"groups\":");
		mcast_print_trees_json(f, rep->mcast, NULL);
	}
	fprintf(f, "}\n");
}
