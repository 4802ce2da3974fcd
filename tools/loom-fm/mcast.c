// SPDX-License-Identifier: GPL-2.0
/* loom-fm: multicast groups, their files and their trees (mcast.h). */
#include "mcast.h"

#include <stdlib.h>
#include <string.h>

#include <loom_hw/regs.h>

#include "topo_file.h"

/* One "group G root NODE member NODE:CTX ..." line into grp; 0 or -1 (said). */
static int parse_group_line(char *line, const char *name, int lineno,
			    struct fm_mcast_group *grp, struct topo_errbuf *e)
{
	char *save = NULL, *w[4], *tok;
	int n;

	memset(grp, 0, sizeof(*grp));
	grp->line = lineno;
	for (n = 0; n < 4 && (tok = strtok_r(n ? NULL : line, " \t\r", &save)); n++)
		w[n] = tok;
	if (n < 4 || strcmp(w[0], "group") || strcmp(w[2], "root") ||
	    topo_parse_id(w[1], FM_MCAST_MAX_GROUPS, &grp->id) ||
	    topo_parse_id(w[3], FM_MAX_NODES, &grp->root)) {
		topo_error(e, "%s:%d: expected 'group G root NODE member NODE:CTX ...' (G below %d, "
			   "NODE below %d)", name, lineno, FM_MCAST_MAX_GROUPS, FM_MAX_NODES);
		return -1;
	}
	tok = strtok_r(NULL, " \t\r", &save);
	if (!tok || strcmp(tok, "member")) {
		topo_error(e, "%s:%d: group %d: expected 'member NODE:CTX ...' after the root",
			   name, lineno, grp->id);
		return -1;
	}
	while ((tok = strtok_r(NULL, " \t\r", &save))) {
		struct fm_mcast_member m, *bigger;

		if (graph_parse_end(tok, &m.node, &m.ctx) || m.node >= FM_MAX_NODES ||
		    m.ctx >= FM_MCAST_MAX_CTX) {
			topo_error(e, "%s:%d: group %d: member '%s' is not NODE:CTX (decimal, NODE "
				   "below %d, CTX below %d)", name, lineno, grp->id, tok,
				   FM_MAX_NODES, FM_MCAST_MAX_CTX);
			return -1;
		}
		for (int i = 0; i < grp->nmembers; i++) {
			if (grp->m[i].node == m.node && grp->m[i].ctx == m.ctx) {
				topo_error(e, "%s:%d: group %d: member %d:%d is listed twice", name,
					   lineno, grp->id, m.node, m.ctx);
				return -1;
			}
		}
		bigger = realloc(grp->m, (size_t)(grp->nmembers + 1) * sizeof(*bigger));
		if (!bigger) {
			topo_error(e, "%s: out of memory", name);
			return -1;
		}
		grp->m = bigger;
		grp->m[grp->nmembers++] = m;
	}
	if (!grp->nmembers) {
		topo_error(e, "%s:%d: group %d has no member", name, lineno, grp->id);
		return -1;
	}
	if (grp->nmembers > 0xffff) {
		topo_error(e, "%s:%d: group %d has %d members: at most 65535", name, lineno,
			   grp->id, grp->nmembers);
		return -1;
	}
	return 0;
}

int mcast_parse(const char *text, const char *name, struct fm_mcast_groups *gs, char *err,
		size_t errlen)
{
	struct topo_errbuf e = { err, errlen, 0, 0 };
	char *copy = strdup(text), *line, *next;
	int lineno = 0, cap = 0;

	memset(gs, 0, sizeof(*gs));
	gs->name = name;
	err[0] = '\0';
	if (!copy) {
		snprintf(err, errlen, "%s: out of memory", name);
		return -1;
	}
	for (line = copy; line; line = next) {
		struct fm_mcast_group grp;
		bool dup = false;
		char *hash;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (!line[strspn(line, " \t\r")])
			continue;
		if (parse_group_line(line, name, lineno, &grp, &e)) {
			free(grp.m);
			continue;
		}
		for (int i = 0; i < gs->n && !dup; i++) {
			dup = gs->g[i].id == grp.id;
			if (dup)
				topo_error(&e, "%s:%d: group %d is already defined at line %d", name,
					   lineno, grp.id, gs->g[i].line);
		}
		if (dup) {
			free(grp.m);
			continue;
		}
		if (gs->n == cap) {
			int bigger = cap ? 2 * cap : 16;
			struct fm_mcast_group *g = realloc(gs->g, (size_t)bigger * sizeof(*g));

			if (!g) {
				topo_error(&e, "%s: out of memory", name);
				free(grp.m);
				break;
			}
			gs->g = g;
			cap = bigger;
		}
		gs->g[gs->n++] = grp;
	}
	free(copy);
	if (!e.count && !gs->n)
		topo_error(&e, "%s: no group (one 'group G root NODE member NODE:CTX ...' per line)",
			   name);
	topo_errors_end(&e);
	if (e.count) {
		mcast_groups_free(gs);
		return -1;
	}
	return 0;
}

int mcast_load(const char *path, struct fm_mcast_groups *gs, char *err, size_t errlen)
{
	char *text = topo_read_text(path, "group", err, errlen);
	int rc;

	memset(gs, 0, sizeof(*gs));
	if (!text)
		return -1;
	rc = mcast_parse(text, path, gs, err, errlen);
	free(text);
	return rc;
}

void mcast_groups_free(struct fm_mcast_groups *gs)
{
	for (int i = 0; i < gs->n; i++)
		free(gs->g[i].m);
	free(gs->g);
	gs->g = NULL;
	gs->n = 0;
}

int mcast_tree(const struct fm_graph *g, const struct fm_routes *r,
	       const struct fm_mcast_group *grp, struct fm_mcast_entry *e, char *err,
	       size_t errlen)
{
	/* in_from[node]: the (node, port) whose channel first entered it; root: itself */
	struct fm_port_end *in_from = malloc((size_t)g->nodes * sizeof(*in_from));
	struct fm_hop *hops = malloc((size_t)g->nodes * sizeof(*hops));
	int rc = -1;

	memset(e, 0, (size_t)g->nodes * sizeof(*e));
	if (!in_from || !hops) {
		snprintf(err, errlen, "group %d: out of memory", grp->id);
		goto out;
	}
	for (int i = 0; i < g->nodes; i++)
		in_from[i].node = FM_NO_PEER;
	if (grp->root >= g->nodes) {
		snprintf(err, errlen, "group %d: root %d is not a node of the fabric (nodes 0..%d)",
			 grp->id, grp->root, g->nodes - 1);
		goto out;
	}
	in_from[grp->root] = (struct fm_port_end){ grp->root, -1 };
	e[grp->root].used = true;
	e[grp->root].members = (uint16_t)grp->nmembers;
	for (int k = 0; k < grp->nmembers; k++) {
		const struct fm_mcast_member *m = &grp->m[k];
		int n, stuck;

		if (m->node >= g->nodes) {
			snprintf(err, errlen, "group %d: member %d:%d is not a node of the fabric "
				 "(nodes 0..%d)", grp->id, m->node, m->ctx, g->nodes - 1);
			goto out;
		}
		n = routes_walk(g, r, grp->root, m->node, hops, &stuck);
		if (n < 0) {
			snprintf(err, errlen, "group %d: no route from root %d to member %d (%s at "
				 "node %d)", grp->id, grp->root, m->node,
				 n == FM_WALK_LOOP ? "the tables loop" : n == FM_WALK_UNCABLED ?
				 "an uncabled port" : "no entry", stuck);
			goto out;
		}
		for (int h = 0; h < n; h++) {
			const struct fm_port_end *next = graph_peer(g, hops[h].node, hops[h].port);
			struct fm_port_end *was = &in_from[next->node];

			if (hops[h].port >= 16) {
				snprintf(err, errlen, "group %d: the route to member %d leaves node %d "
					 "by port %d: a group entry names ports 0..15", grp->id,
					 m->node, hops[h].node, hops[h].port);
				goto out;
			}
			if (was->node != FM_NO_PEER &&
			    (was->node != hops[h].node || was->port != hops[h].port)) {
				if (next->node == grp->root)
					snprintf(err, errlen, "group %d: the route to member %d comes "
						 "back into the root, node %d (from node %d port %d)",
						 grp->id, m->node, next->node, hops[h].node,
						 hops[h].port);
				else
					snprintf(err, errlen, "group %d: routes enter router %d by two "
						 "ports (from node %d port %d, and from node %d port "
						 "%d toward member %d): it would get two copies",
						 grp->id, next->node, was->node, was->port,
						 hops[h].node, hops[h].port, m->node);
				goto out;
			}
			*was = (struct fm_port_end){ hops[h].node, hops[h].port };
			e[hops[h].node].used = true;
			e[hops[h].node].ports |= (uint16_t)(1u << hops[h].port);
			e[next->node].used = true;
		}
		if (e[m->node].host && e[m->node].host_ctx != m->ctx) {
			snprintf(err, errlen, "group %d: node %d has two members, contexts %d and %d: "
				 "its entry delivers into one context", grp->id, m->node,
				 e[m->node].host_ctx, m->ctx);
			goto out;
		}
		e[m->node].host = true;
		e[m->node].host_ctx = (uint16_t)m->ctx;
	}
	rc = 0;
out:
	free(in_from);
	free(hops);
	return rc;
}

int mcast_trees(const struct fm_graph *g, const struct fm_routes *r,
		const struct fm_mcast_groups *gs, struct fm_mcast_trees *t, char *err,
		size_t errlen)
{
	t->gs = gs;
	t->nodes = g->nodes;
	t->e = calloc((size_t)gs->n * (size_t)g->nodes, sizeof(*t->e));
	if (!t->e && gs->n) {
		snprintf(err, errlen, "out of memory for the multicast trees");
		return -1;
	}
	for (int k = 0; k < gs->n; k++) {
		if (mcast_tree(g, r, &gs->g[k], &t->e[(size_t)k * g->nodes], err, errlen)) {
			mcast_trees_free(t);
			return -1;
		}
	}
	return 0;
}

void mcast_trees_free(struct fm_mcast_trees *t)
{
	free(t->e);
	t->e = NULL;
}

static void print_ports(FILE *f, uint16_t ports, bool json)
{
	bool any = false;

	for (int p = 0; p < 16; p++) {
		if (!(ports & (1u << p)))
			continue;
		fprintf(f, "%s%d", any ? "," : "", p);
		any = true;
	}
	if (!any && !json)
		fputs("none", f);
}

/* Each router of each tree, as a text line or a JSON object. */
static void each_entry(FILE *f, const struct fm_mcast_trees *t, const uint32_t *ids, bool json)
{
	int printed = 0;

	for (int k = 0; k < t->gs->n; k++) {
		for (int n = 0; n < t->nodes; n++) {
			const struct fm_mcast_entry *e = &t->e[(size_t)k * t->nodes + n];
			unsigned int id = ids ? ids[n] : (unsigned int)n;

			if (!e->used)
				continue;
			if (json) {
				fprintf(f, "%s{\"group\":%d,\"node\":%u,\"ports\":[",
					printed ? "," : "", t->gs->g[k].id, id);
				print_ports(f, e->ports, true);
				fputs("]", f);
				if (e->host)
					fprintf(f, ",\"host_ctx\":%u", e->host_ctx);
				fprintf(f, ",\"members\":%u}", e->members);
			} else {
				fprintf(f, "group %d node %u ports ", t->gs->g[k].id, id);
				print_ports(f, e->ports, false);
				if (e->host)
					fprintf(f, " host_ctx %u", e->host_ctx);
				fprintf(f, " members %u\n", e->members);
			}
			printed++;
		}
	}
}

void mcast_print_trees(FILE *f, const struct fm_mcast_trees *t, const uint32_t *ids)
{
	each_entry(f, t, ids, false);
}

void mcast_print_trees_json(FILE *f, const struct fm_mcast_trees *t, const uint32_t *ids)
{
	fputs("[", f);
	each_entry(f, t, ids, true);
	fputs("]", f);
}

void mcast_entry_words(const struct fm_mcast_entry *e, uint32_t *w0, uint32_t *w1)
{
	*w0 = *w1 = 0;
	if (!e->used || (!e->ports && !e->host))
		return;
	*w0 = LOOM_MCAST_W0_VALID | (e->host ? LOOM_MCAST_W0_HOST : 0) |
	      (e->ports & LOOM_MCAST_W0_PORTS_MASK);
	*w1 = (e->host_ctx & LOOM_MCAST_W1_HOST_CTX_MASK) |
	      ((uint32_t)e->members << LOOM_MCAST_W1_MEMBERS_SHIFT & LOOM_MCAST_W1_MEMBERS_MASK);
}
