/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: the fabric as discovered over the maintenance network
 * (discover.c): every card reached, the route that reaches it, where its
 * register blocks are, and the state of each of its ports.  Cards are
 * kept sorted by physical node id; card i is node i of the graph built
 * from the fabric (fabric_graph()), so graph node numbers are indices and
 * card[i].node the physical id.
 */
#ifndef LOOM_FM_FABRIC_H
#define LOOM_FM_FABRIC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "graph.h"
#include "maint.h"

struct fm_card_port {
	uint32_t status;			/* LOOM_PORT_ST_* */
	uint32_t peer_node, peer_port;		/* valid while UP */
};

struct fm_card {
	uint32_t node;				/* physical id (ROUTER NODE_ID) */
	uint32_t cur_logical;			/* ROUTER LOGICAL_ID as discovered */
	uint32_t logical;			/* logical id to program (logical.c) */
	struct fm_path path;			/* how the maintenance network reaches it */
	uint32_t router, ports, vct;		/* block offsets, 0 = absent */
	uint32_t n_ports, rt_entries, port_stride, vct_ports;
	struct fm_card_port port[LOOM_MAX_PORTS];
	uint32_t mcast, n_groups;		/* MCAST block (fabric_find_mcast()), 0 = none */
};

/* A port is usable: link up, neither dead nor disabled (the fault mask). */
static inline bool fabric_port_usable(uint32_t status)
{
	return (status & LOOM_PORT_ST_UP) &&
	       !(status & (LOOM_PORT_ST_DEAD | LOOM_PORT_ST_DISABLED));
}

/* "up", "down", "dead", "disabled", "uncabled" */
const char *fabric_port_state(uint32_t status);

/*
 * Cards of a real fabric: a card's node id and every logical id are below
 * LOOM_MAX_NODES, the most routing entries a card can have.
 */
#define FM_MAX_CARDS	LOOM_MAX_NODES

struct fm_fabric {
	int ncards;
	struct fm_card card[FM_MAX_CARDS];
};

/*
 * Discover the fabric breadth-first from the local card.  Progress and
 * warnings (a card that does not answer, inconsistent cables) go to log
 * when not NULL.  0, or -1 with a message in err when not even the local
 * card could be read or the fabric is too large.
 */
int fabric_discover(struct fm_maint *m, struct fm_fabric *f, FILE *log, char *err,
		    size_t errlen);

/*
 * Cheap check between discoveries: read the STATUS of every port of every
 * known card (no chain walk).  1 when a port's state (cabled, up, dead,
 * disabled) differs from f or a card does not answer, 0 when nothing
 * changed.
 */
int fabric_changed(struct fm_maint *m, const struct fm_fabric *f);

/*
 * Find every card's multicast block (MCAST) and its N_GROUPS: a walk of
 * the block chain, done only when groups are to be programmed.  0, or -1
 * with a message in err when a card does not answer.
 */
int fabric_find_mcast(struct fm_maint *m, struct fm_fabric *f, char *err, size_t errlen);

/* The fewest routing entries of any card (ROUTER RT_ENTRIES); 0 without cards. */
uint32_t fabric_min_rt_entries(const struct fm_fabric *f);

/* The index of the card with physical id node, or -1. */
int fabric_find(const struct fm_fabric *f, uint32_t node);

/*
 * The graph of usable cables (both ends up, agreeing on each other, and
 * neither dead nor disabled): node i = card i.  NULL on ENOMEM.
 */
struct fm_graph *fabric_graph(const struct fm_fabric *f);

/* Print as a topology file (physical ids), with comments for cards and
 * ports that are not usable and a 'node N logical L' line for every card
 * whose logical id is not its physical id; or as one JSON object. */
void fabric_print(FILE *out, const struct fm_fabric *f, const struct fm_graph *g);
void fabric_print_json(FILE *out, const struct fm_fabric *f, const struct fm_graph *g);

/*
 * Compare with an expected topology (a graph whose node numbers are
 * physical ids): print "missing cable A:P B:Q", "extra cable ...",
 * "missing node N" lines to out; return the number of differences.
 */
int fabric_compare(FILE *out, const struct fm_fabric *f, const struct fm_graph *g,
		   const struct fm_graph *expected);

#endif
