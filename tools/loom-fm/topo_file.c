// SPDX-License-Identifier: GPL-2.0
/* loom-fm: topology files, one cable per line (topo_file.h). */
#include "topo_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cable_line {
	int line;
	int a, pa, b, pb;
};

/* 'node N logical L' */
struct node_line {
	int line;
	int node, logical;
};

struct parsed {
	struct cable_line *cl;
	int n, cap;
	struct node_line *nl;
	int nn, ncap;
};

void topo_error(struct topo_errbuf *e, const char *fmt, ...)
{
	va_list ap;
	int n;

	e->count++;
	if (e->count > TOPO_FILE_MAX_ERRORS || e->used + 1 >= e->len)
		return;
	if (e->used) {
		e->buf[e->used++] = '\n';
		e->buf[e->used] = '\0';
	}
	va_start(ap, fmt);
	n = vsnprintf(e->buf + e->used, e->len - e->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		e->used += (size_t)n < e->len - e->used ? (size_t)n : e->len - e->used - 1;
}

/* Split a line (modified in place) into at most 4 words; the count (5: more). */
static int split_words(char *s, char *w[4])
{
	int n = 0;

	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			*s++ = '\0';
		if (!*s)
			return n;
		if (n == 4)
			return n + 1;
		w[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
	}
}

int topo_parse_id(const char *s, int max, int *out)
{
	long v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v >= max)
			return -1;
	}
	*out = (int)v;
	return 0;
}

static void *grow(void *p, int *cap, size_t size)
{
	int bigger = *cap ? 2 * *cap : 64;
	void *q = realloc(p, (size_t)bigger * size);

	if (q)
		*cap = bigger;
	return q;
}

/* 'node N logical L': check it against the node lines before it and keep it. */
static int parse_node_line(char *w[4], const char *name, int lineno, struct parsed *ps,
			   struct topo_errbuf *e)
{
	struct node_line l = { lineno, 0, 0 };

	if (strcmp(w[2], "logical") || topo_parse_id(w[1], FM_MAX_NODES, &l.node) ||
	    topo_parse_id(w[3], FM_MAX_LOGICAL, &l.logical)) {
		topo_error(e, "%s:%d: expected 'node NODE logical ID' (NODE below %d, ID below %d)",
			  name, lineno, FM_MAX_NODES, FM_MAX_LOGICAL);
		return 0;
	}
	for (int i = 0; i < ps->nn; i++) {
		if (ps->nl[i].node == l.node) {
			topo_error(e, "%s:%d: node %d already has logical id %d at line %d", name,
				  lineno, l.node, ps->nl[i].logical, ps->nl[i].line);
			return 0;
		}
		if (ps->nl[i].logical == l.logical) {
			topo_error(e, "%s:%d: nodes %d and %d both have logical id %d (lines %d and %d)",
				  name, lineno, ps->nl[i].node, l.node, l.logical, ps->nl[i].line,
				  lineno);
			return 0;
		}
	}
	if (ps->nn == ps->ncap) {
		struct node_line *bigger = grow(ps->nl, &ps->ncap, sizeof(*bigger));

		if (!bigger) {
			topo_error(e, "%s: out of memory", name);
			return -1;
		}
		ps->nl = bigger;
	}
	ps->nl[ps->nn++] = l;
	return 0;
}

static int parse_lines(char *text, const char *name, int max_ports, int *claimed,
		       struct parsed *ps, struct topo_errbuf *e)
{
	int lineno = 0;
	char *line = text, *next;

	for (; line; line = next) {
		char *w[4], *hash;
		int words;
		struct cable_line c;

		lineno++;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		words = split_words(line, w);
		if (words == 0)
			continue;
		if (!strcmp(w[0], "node")) {
			if (words != 4) {
				topo_error(e, "%s:%d: expected 'node NODE logical ID', found %d field%s",
					  name, lineno, words > 4 ? 5 : words,
					  words > 4 ? "s (or more)" : words == 1 ? "" : "s");
				continue;
			}
			if (parse_node_line(w, name, lineno, ps, e))
				return -1;
			continue;
		}
		if (words != 2) {
			topo_error(e, "%s:%d: expected one cable, 'NODE:PORT NODE:PORT', found %d field%s",
				  name, lineno, words > 3 ? 3 : words, words == 1 ? "" : "s (or more)");
			continue;
		}
		c.line = lineno;
		if (graph_parse_end(w[0], &c.a, &c.pa) || graph_parse_end(w[1], &c.b, &c.pb)) {
			topo_error(e, "%s:%d: '%s %s' is not 'NODE:PORT NODE:PORT' (decimal numbers)",
				  name, lineno, w[0], w[1]);
			continue;
		}
		if (c.a >= FM_MAX_NODES || c.b >= FM_MAX_NODES || c.pa >= FM_MAX_PORTS ||
		    c.pb >= FM_MAX_PORTS) {
			topo_error(e, "%s:%d: node ids must be below %d and ports below %d",
				  name, lineno, FM_MAX_NODES, FM_MAX_PORTS);
			continue;
		}
		if (c.pa >= max_ports || c.pb >= max_ports) {
			topo_error(e, "%s:%d: port %d is beyond the router's radix: it has ports 0..%d",
				  name, lineno, c.pa >= max_ports ? c.pa : c.pb, max_ports - 1);
			continue;
		}
		if (c.a == c.b) {
			topo_error(e, "%s:%d: self-cable: both ends are on node %d", name, lineno, c.a);
			continue;
		}
		{
			int *ca = &claimed[c.a * FM_MAX_PORTS + c.pa];
			int *cb = &claimed[c.b * FM_MAX_PORTS + c.pb];

			if (*ca || *cb) {
				topo_error(e, "%s:%d: duplicate port: %d:%d is already cabled at line %d",
					  name, lineno, *ca ? c.a : c.b, *ca ? c.pa : c.pb,
					  *ca ? *ca : *cb);
				continue;
			}
			*ca = *cb = lineno;
		}
		if (ps->n == ps->cap) {
			struct cable_line *bigger = grow(ps->cl, &ps->cap, sizeof(*bigger));

			if (!bigger) {
				topo_error(e, "%s: out of memory", name);
				return -1;
			}
			ps->cl = bigger;
		}
		ps->cl[ps->n++] = c;
	}
	return ps->n;
}

struct fm_graph *topo_parse(const char *text, const char *name, char *err, size_t errlen)
{
	return topo_parse_ports(text, name, FM_MAX_PORTS, err, errlen);
}

struct fm_graph *topo_parse_ports(const char *text, const char *name, int max_ports, char *err,
				  size_t errlen)
{
	struct topo_errbuf e = { err, errlen, 0, 0 };
	struct parsed ps = { 0 };
	struct cable_line *cl;
	struct fm_graph *g = NULL;
	int *claimed = NULL;
	char *copy;
	int n, nodes = 0, ports = 0;

	if (errlen)
		err[0] = '\0';
	copy = strdup(text);
	if (!copy) {
		topo_error(&e, "%s: out of memory", name);
		return NULL;
	}
	claimed = calloc((size_t)FM_MAX_NODES * FM_MAX_PORTS, sizeof(*claimed));
	if (!claimed) {
		free(copy);
		topo_error(&e, "%s: out of memory", name);
		return NULL;
	}
	/* claimed[node * FM_MAX_PORTS + port]: the line that cabled it */
	n = parse_lines(copy, name, max_ports < FM_MAX_PORTS ? max_ports : FM_MAX_PORTS, claimed,
			&ps, &e);
	free(copy);
	cl = ps.cl;
	if (n < 0) {
		free(claimed);
		free(ps.cl);
		free(ps.nl);
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		nodes = cl[i].a + 1 > nodes ? cl[i].a + 1 : nodes;
		nodes = cl[i].b + 1 > nodes ? cl[i].b + 1 : nodes;
		ports = cl[i].pa + 1 > ports ? cl[i].pa + 1 : ports;
		ports = cl[i].pb + 1 > ports ? cl[i].pb + 1 : ports;
	}
	if (!n && !e.count)
		topo_error(&e, "%s: no cables (one 'NODE:PORT NODE:PORT' per line)", name);
	for (int i = 0; i < ps.nn; i++) {
		bool cabled = false;

		for (int p = 0; p < FM_MAX_PORTS && !cabled; p++)
			cabled = claimed[ps.nl[i].node * FM_MAX_PORTS + p] != 0;
		if (!cabled)
			topo_error(&e, "%s:%d: node %d has no cable in this file: a logical id is "
				  "for a node the file cables", name, ps.nl[i].line, ps.nl[i].node);
	}
	if (e.count)
		goto out;
	g = graph_new(nodes, ports);
	if (!g || (ps.nn && !(g->logical = malloc((size_t)nodes * sizeof(*g->logical)))) ||
	    !(g->line = calloc((size_t)nodes, sizeof(*g->line)))) {
		topo_error(&e, "%s: out of memory", name);
		goto out;
	}
	for (int i = 0; i < n; i++) {
		graph_cable(g, cl[i].a, cl[i].pa, cl[i].b, cl[i].pb);
		if (!g->line[cl[i].a])
			g->line[cl[i].a] = cl[i].line;
		if (!g->line[cl[i].b])
			g->line[cl[i].b] = cl[i].line;
	}
	for (int i = 0; ps.nn && i < nodes; i++)
		g->logical[i] = -1;
	for (int i = 0; i < ps.nn; i++) {
		g->logical[ps.nl[i].node] = ps.nl[i].logical;
		g->line[ps.nl[i].node] = ps.nl[i].line;
	}
	snprintf(g->name, sizeof(g->name), "%s", name);
out:
	topo_errors_end(&e);
	free(claimed);
	free(cl);
	free(ps.nl);
	if (e.count) {
		graph_free(g);
		return NULL;
	}
	return g;
}

struct fm_graph *topo_load(const char *path, char *err, size_t errlen)
{
	return topo_load_ports(path, FM_MAX_PORTS, err, errlen);
}

void topo_errors_end(struct topo_errbuf *e)
{
	char more[64];

	if (e->count <= TOPO_FILE_MAX_ERRORS)
		return;
	snprintf(more, sizeof(more), "(%d more errors)", e->count - TOPO_FILE_MAX_ERRORS);
	e->count = 0;
	topo_error(e, "%s", more);
	e->count = 1;
}

char *topo_read_text(const char *path, const char *what, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *text;
	long size;

	if (!f) {
		snprintf(err, errlen, "%s: cannot open %s file: %s", path, what, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		snprintf(err, errlen, "%s: cannot read %s file (not a regular file?)", path, what);
		fclose(f);
		return NULL;
	}
	if (size > 16 << 20) {
		snprintf(err, errlen, "%s: %s file larger than 16 MiB", path, what);
		fclose(f);
		return NULL;
	}
	text = malloc((size_t)size + 1);
	if (!text || fread(text, 1, (size_t)size, f) != (size_t)size) {
		snprintf(err, errlen, "%s: cannot read %s file: %s", path, what,
			 text ? strerror(errno) : "out of memory");
		free(text);
		fclose(f);
		return NULL;
	}
	fclose(f);
	text[size] = '\0';
	if (memchr(text, '\0', (size_t)size)) {
		snprintf(err, errlen, "%s: a NUL byte: not a %s text file", path, what);
		free(text);
		return NULL;
	}
	return text;
}

struct fm_graph *topo_load_ports(const char *path, int max_ports, char *err, size_t errlen)
{
	struct fm_graph *g;
	char *text = topo_read_text(path, "topology", err, errlen);

	if (!text)
		return NULL;
	g = topo_parse_ports(text, path, max_ports, err, errlen);
	free(text);
	return g;
}

/* The line that names the @k-th node (from 0) in the order of the file; -1 on ENOMEM. */
static int kth_node_by_line(const struct fm_graph *g, int k)
{
	int *count = NULL, max_line = 0, seen = 0, found = -1;

	for (int n = 0; n < g->nodes; n++)
		max_line = g->line[n] > max_line ? g->line[n] : max_line;
	count = calloc((size_t)max_line + 1, sizeof(*count));
	if (!count)
		return -1;
	for (int n = 0; n < g->nodes; n++)
		if (g->line[n])
			count[g->line[n]]++;
	for (int l = 1; l <= max_line && found < 0; l++) {
		if (seen + count[l] > k)
			found = l;
		seen += count[l];
	}
	free(count);
	return found;
}

int topo_fits_tables(const struct fm_graph *g, uint32_t rt_entries, bool identity, char *err,
		     size_t errlen)
{
	int named = 0, line;

	if (!g->line)
		return 0;
	if (!rt_entries) {
		snprintf(err, errlen, "%s: the cards report no routing entries (RT_ENTRIES 0): "
			 "they cannot route this fabric", g->name);
		return -1;
	}
	for (int n = 0; n < g->nodes; n++) {
		int l = g->logical ? g->logical[n] : -1;

		if (!g->line[n])
			continue;
		named++;
		if (l >= 0 && (uint32_t)l >= rt_entries) {
			snprintf(err, errlen, "%s:%d: node %d: logical id %d is beyond the cards' "
				 "routing tables (%u entries: logical ids 0..%u)", g->name,
				 g->line[n], n, l, rt_entries, rt_entries - 1);
			return -1;
		}
		if (l < 0 && identity && (uint32_t)n >= rt_entries) {
			snprintf(err, errlen, "%s:%d: node %d: --logical identity gives it logical id "
				 "%d, beyond the cards' routing tables (%u entries: logical ids "
				 "0..%u); state its id ('node %d logical ID') or use --logical "
				 "compact", g->name, g->line[n], n, n, rt_entries, rt_entries - 1, n);
			return -1;
		}
	}
	if ((uint32_t)named > rt_entries) {
		line = kth_node_by_line(g, (int)rt_entries);
		snprintf(err, errlen, "%s:%d: node number %u of the file: the cards' routing tables "
			 "have %u entries, so a fabric of these cards has at most %u nodes (the "
			 "file names %d)", g->name, line, rt_entries + 1, rt_entries, rt_entries,
			 named);
		return -1;
	}
	return 0;
}
