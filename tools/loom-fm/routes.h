/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: routing and VC tables, as the cards hold them.  Every card
 * looks up the output port toward a destination at every hop.  The VC
 * model is the Cray T3E's: a packet takes the VC named by the table of the
 * node where it is injected or where it enters a new dimension (VC0 or
 * VC1), even on a dateline channel; it keeps its VC while it continues in
 * the same dimension, and is switched to VC1 when it continues through a
 * dateline channel.
 */
#ifndef LOOM_FM_ROUTES_H
#define LOOM_FM_ROUTES_H

#include <stdbool.h>

#include "graph.h"

#define FM_PORT_HOST	(-1)	/* the destination is this node: deliver to its host */
#define FM_PORT_NONE	(-2)	/* no route */
#define FM_NUM_VCS	2

struct fm_routes {
	int nodes, ports;
	/*
	 * The block of entries held (routes_new_block()): the rows of nodes
	 * row_lo .. row_hi - 1, each with the entries of destinations
	 * dest_lo .. dest_hi - 1; routes_new(): every node and destination.
	 * The per-pair arrays below are indexed by routes_at(), written
	 * [node * nodes + dest] for the whole block.
	 */
	int row_lo, row_hi, dest_lo, dest_hi;
	signed char *port;		/* [node * nodes + dest]: a port, FM_PORT_HOST or _NONE */
	unsigned char *start_vc;	/* [node * nodes + dest] VC on entering a dimension */
	unsigned char *dateline;	/* [node * ports + port]: switch to VC1 on this channel */
	int *port_dim;			/* [port]: dimension of a port, -1 none */
	bool uses_vcs;			/* VC1 may be used (else everything is VC0) */
	/* [node * nodes + dest]: minimal ports the adaptive VC may choose among
	 * (bit n = port n, ports 0..7); an entry with two bits or more is
	 * programmed adaptive (LOOM_RT_W0_ADAPTIVE), 0 = deterministic only.
	 * The port of port[] is the deterministic escape path.
	 */
	unsigned char *adapt_ports;
	/*
	 * DimWAR (engine dimwar, HyperX): every forwarding entry lets the
	 * packet deroute once per dimension to another port of its port's
	 * dimension, on VC1; minimal hops travel on VC0.  hops_left
	 * [node * nodes + dest]: the minimal hops from node to dest, the
	 * weight the card compares (LOOM_RT_W0_HOPS).
	 */
	bool dimwar;
	unsigned char *hops_left;
	/*
	 * OmniWAR (engine omniwar, HyperX): every forwarding entry lets the
	 * packet take the minimal port of any unaligned dimension
	 * (adapt_ports: one bit per dimension, port[] among them) and, while
	 * its distance classes left exceed hops_left, a deroute to any other
	 * port of those dimensions.  Hop k of a route (k = 0, 1, ...) travels
	 * on distance class k, the VC of the channel dependency graph:
	 * classes (N + M) of them.
	 */
	bool omniwar;
	int classes;
	/*
	 * Adaptive up-routes (engine updown on a fat tree): up_first
	 * [node * nodes + dest] is the first of the up ports ports up_first ..
	 * ports - 1 that a packet may take instead of port[] (programmed
	 * LOOM_RT_W0_UPROUTE with W1 UP_FIRST), FM_NO_UPROUTE: port[] only.
	 * Every cabled port of the range is a legal up-route, on the same VC.
	 */
	unsigned char *up_first;
	/*
	 * Valiant (engines valiant and ugal, on meshes, HyperX and tori):
	 * every forwarding entry is programmed LOOM_RT_W0_VALIANT (and with
	 * ugal LOOM_RT_W0_UGAL, hops_left giving the minimal hops): a packet
	 * goes from its source to a random intermediate on VC0 by port[],
	 * then on to its destination on VC1 by port[] (ugal: or minimal, on
	 * VC1).  val_datelines (a torus, LOOM_RT_W0_VAL_DATELINES): each
	 * phase takes VC0 or VC1 of the walk (datelines, start_vc) within a
	 * pair of its own, phase 0 VCs 0/1, phase 1 VCs 2/3 (FM_VAL_DL_VCS
	 * in the channel dependency graph).
	 */
	bool valiant;
	bool ugal;
	bool val_datelines;
	/*
	 * The engine may program adaptive up-routes (updown on a fat tree):
	 * the channel dependency check follows every up-route choice.  Set
	 * whether or not the block held has such an entry, so that every
	 * block of one fabric is checked alike.
	 */
	bool uproutes;
};

#define FM_NO_UPROUTE	0xff
/* Valiant: the highest logical id (one byte of dst_node each way) */
#define FM_VAL_MAX_LOGICAL	255
/* Valiant on a torus: the VCs per class, a dateline pair per phase */
#define FM_VAL_DL_VCS		4

struct fm_hop {
	int node, port, vc;		/* the channel (node, port) on VC vc */
};

enum fm_walk_result {
	FM_WALK_OK = 0,
	FM_WALK_NO_ENTRY = -1,		/* a node on the way has no route to dest */
	FM_WALK_UNCABLED = -2,		/* an entry names a port without a cable */
	FM_WALK_LOOP = -3,		/* more hops than nodes: the tables loop */
};

struct fm_routes *routes_new(const struct fm_graph *g);
/*
 * Tables that hold only the entries of nodes [row_lo, row_hi) toward
 * destinations [dest_lo, dest_hi) (the dateline and port models stay
 * whole: they are per channel): a rank's routers, or the columns of a
 * few destinations for the checks.  NULL on ENOMEM or an empty or
 * out-of-range block.
 */
struct fm_routes *routes_new_block(const struct fm_graph *g, int row_lo, int row_hi,
				   int dest_lo, int dest_hi);
void routes_free(struct fm_routes *r);

/* Whether @r holds the entry of @node toward @dest. */
static inline bool routes_holds(const struct fm_routes *r, int node, int dest)
{
	return node >= r->row_lo && node < r->row_hi && dest >= r->dest_lo && dest < r->dest_hi;
}

/* The index of the entry of @node toward @dest in the per-pair arrays (held). */
static inline size_t routes_at(const struct fm_routes *r, int node, int dest)
{
	return (size_t)(node - r->row_lo) * (size_t)(r->dest_hi - r->dest_lo) +
	       (size_t)(dest - r->dest_lo);
}

static inline int routes_port(const struct fm_routes *r, int node, int dest)
{
	return r->port[routes_at(r, node, dest)];
}

/*
 * Whether a hop out of port, after arriving through prev_port (-1: the
 * route starts here), enters a new dimension and so takes its VC from the
 * table (the T3E rule of the header comment).
 */
static inline bool routes_enters_dim(const struct fm_routes *r, int prev_port, int port)
{
	return prev_port < 0 || r->port_dim[port] < 0 ||
	       r->port_dim[port] != r->port_dim[prev_port];
}

/*
 * One hop of a walk toward @dest: what @node does with the packet.
 * FM_WALK_OK with *@port -1 when it delivers it (@node is @dest), FM_WALK_OK
 * with the port it forwards out of otherwise, or FM_WALK_NO_ENTRY /
 * FM_WALK_UNCABLED when it cannot.
 */
int routes_step(const struct fm_graph *g, const struct fm_routes *r, int node, int dest,
		int *port);

/*
 * Follow the tables from src to dest (@r holds dest's column).  Fills hops[0..n-1] (hops has room
 * for g->nodes entries) and returns n >= 0, or a negative fm_walk_result;
 * *stuck is the node where the walk failed.
 */
int routes_walk(const struct fm_graph *g, const struct fm_routes *r, int src, int dest,
		struct fm_hop *hops, int *stuck);

#endif
