/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: topology files.  One cable per line, "NODE:PORT NODE:PORT"
 * (decimal), blanks around; '#' starts a comment; empty lines are skipped.
 * The fabric has nodes 0..max node named and ports 0..max port named.
 * A line "node NODE logical ID" states the logical id loom-fm configure
 * gives that (cabled) node; ids are unique (graph->logical).
 * Documentation/tools/loom-fm.rst, "Topology files".
 */
#ifndef LOOM_FM_TOPO_FILE_H
#define LOOM_FM_TOPO_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph.h"

#define TOPO_FILE_MAX_ERRORS 20

/*
 * Build a graph from the text of a topology file called name.  NULL on
 * bad input: err holds one "NAME:LINE: what" line per bad line (at most
 * TOPO_FILE_MAX_ERRORS), newline separated.
 */
struct fm_graph *topo_parse(const char *text, const char *name, char *err, size_t errlen);

/* Read and parse the file at path; NULL with a message in err. */
struct fm_graph *topo_load(const char *path, char *err, size_t errlen);

/*
 * As topo_parse() and topo_load(), for routers of max_ports network ports
 * (at most FM_MAX_PORTS): a cable on a port beyond them is a bad line.
 */
struct fm_graph *topo_parse_ports(const char *text, const char *name, int max_ports, char *err,
				  size_t errlen);
struct fm_graph *topo_load_ports(const char *path, int max_ports, char *err, size_t errlen);

/*
 * Whether the fabric a topology file describes fits cards of @rt_entries
 * routing entries (the smallest ROUTER RT_ENTRIES the fabric reports):
 * every stated logical id below it, with @identity (logical id = node
 * id) every node without a stated id too, and no more nodes than
 * entries.  0, or -1 with "FILE:LINE: why" in err.  A graph not parsed
 * from a file fits.
 */
int topo_fits_tables(const struct fm_graph *g, uint32_t rt_entries, bool identity, char *err,
		     size_t errlen);

/*
 * What the parsers of loom-fm's files share: the errors of a file, one
 * "NAME:LINE: what" line each, at most TOPO_FILE_MAX_ERRORS of them, then
 * "(N more errors)" (topo_errors_end()).
 */
struct topo_errbuf {
	char *buf;
	size_t len, used;
	int count;
};

void __attribute__((format(printf, 2, 3))) topo_error(struct topo_errbuf *e, const char *fmt,
						      ...);
void topo_errors_end(struct topo_errbuf *e);

/* A decimal number without sign below max; 0 or -1. */
int topo_parse_id(const char *s, int max, int *out);

/* The text of the file at path (what: "topology", "group"), NUL-terminated,
 * to free(); NULL with a message in err. */
char *topo_read_text(const char *path, const char *what, char *err, size_t errlen);

#endif
