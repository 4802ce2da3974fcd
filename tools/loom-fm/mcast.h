/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: multicast groups.  A group file names each group's id, its root
 * (the node whose hosts send to it) and its members (node, context):
 *
 *	group G root NODE member NODE:CTX [NODE:CTX ...]
 *
 * one group per line, decimal, blanks between words; '#' starts a comment;
 * empty lines are skipped (the conventions of topology files, topo_file.h).
 * Node numbers are the graph's (physical ids).  Documentation/tools/loom-fm.rst,
 * "Group files".
 *
 * A group's tree is the union of the unicast routes from its root to each
 * member (mcast_tree()), so every branch is a route the tables already
 * hold and multicast adds no channel dependency.  Each router of the tree
 * gets one entry: the ports a copy leaves by, whether its host gets a copy
 * (and into which context), and at the root the number of members, whose
 * acknowledgements complete a put.
 */
#ifndef LOOM_FM_MCAST_H
#define LOOM_FM_MCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph.h"
#include "routes.h"

#define FM_MCAST_MAX_GROUPS	65536	/* group ids are 16 bits (dst_node) */
#define FM_MCAST_MAX_CTX	65536	/* contexts are 16 bits (HOST_CTX) */

struct fm_mcast_member {
	int node, ctx;
};

struct fm_mcast_group {
	int id, root, line;
	int nmembers;
	struct fm_mcast_member *m;
};

struct fm_mcast_groups {
	const char *name;		/* the file, for messages */
	int n;
	struct fm_mcast_group *g;
};

/* What one router does with one group's packets. */
struct fm_mcast_entry {
	bool used;			/* the router is on the tree */
	bool host;			/* a copy to its host, into host_ctx */
	uint16_t ports;			/* bit n: a copy on network port n */
	uint16_t host_ctx;
	uint16_t members;		/* at the root: members acknowledging */
};

/*
 * Parse a group file's text (name for messages).  0, or -1 with one
 * "NAME:LINE: what" line per bad line in err (at most 20).  Free with
 * mcast_groups_free().
 */
int mcast_parse(const char *text, const char *name, struct fm_mcast_groups *gs, char *err,
		size_t errlen);
int mcast_load(const char *path, struct fm_mcast_groups *gs, char *err, size_t errlen);
void mcast_groups_free(struct fm_mcast_groups *gs);

/*
 * The entries of one group on every node of g (e[0 .. g->nodes-1]), from
 * the unicast routes r.  0, or -1 with "group G: why" in err: a node not
 * in the graph, a member without a route from the root, two routes that
 * enter one router by different ports (copies would be duplicated), two
 * members on one node in different contexts (an entry delivers into one),
 * a route back into the root, a port beyond 16.
 */
int mcast_tree(const struct fm_graph *g, const struct fm_routes *r,
	       const struct fm_mcast_group *grp, struct fm_mcast_entry *e, char *err,
	       size_t errlen);

/* Every group's tree: e[k * nodes + node] is group gs->g[k]'s entry of node. */
struct fm_mcast_trees {
	const struct fm_mcast_groups *gs;
	int nodes;
	struct fm_mcast_entry *e;
};

/*
 * mcast_tree() for every group of gs, whose node numbers are g's.  0, or
 * -1 with the first refusal in err (t is then freed).
 */
int mcast_trees(const struct fm_graph *g, const struct fm_routes *r,
		const struct fm_mcast_groups *gs, struct fm_mcast_trees *t, char *err,
		size_t errlen);
void mcast_trees_free(struct fm_mcast_trees *t);

/*
 * "group G node N ports 0,1 host_ctx C members M", a line for each router
 * of each tree; node ids[n] for node n (NULL: n).
 */
void mcast_print_trees(FILE *f, const struct fm_mcast_trees *t, const uint32_t *ids);
/* The same as a JSON array of objects with those keys. */
void mcast_print_trees_json(FILE *f, const struct fm_mcast_trees *t, const uint32_t *ids);

/* The entry's two registers (LOOM_MCAST_W0_*, LOOM_MCAST_W1_*); 0, 0 when unused. */
void mcast_entry_words(const struct fm_mcast_entry *e, uint32_t *w0, uint32_t *w1);

#endif
