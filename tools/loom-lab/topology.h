/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-lab: fabric shapes -- rings, meshes and tori of 1 to 3 dimensions.
 * Pure functions of the shape (no I/O): node coordinates, ports, cables and
 * dimension-order routing tables.  Conventions (Documentation/tools/
 * loom-lab.rst, "Shapes"):
 *   node id = x + X * (y + Y * z)
 *   port d = +dimension d, port dims + d = -dimension d (+X +Y +Z -X -Y -Z)
 *   the +d port of a node is cabled to the -d port of its + neighbour; a
 *   torus wraps round, a mesh has no cable at its edges
 *   routes: dimension order (X, Y, Z); in a torus dimension the shorter way
 *   round (a tie goes +), in a mesh the direct way
 * A ring is the 1-D torus (port 0 = +X, port 1 = -X).
 */
#ifndef LOOM_LAB_TOPOLOGY_H
#define LOOM_LAB_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#define TOPO_MAX_DIMS	3
#define TOPO_MAX_PORTS	(2 * TOPO_MAX_DIMS)
#define TOPO_MAX_NODES	64	/* what the module handles; the lab allows 8 */
#define TOPO_MIN_SIZE	2	/* per mesh/torus dimension */
#define TOPO_MAX_SIZE	8
#define TOPO_RING_DEFAULT_NODES 2
#define TOPO_NAME_MAX	32
/* topo_route() for the node itself: deliver to its own host */
#define TOPO_ROUTE_HOST	(-1)

enum topo_kind { TOPO_RING, TOPO_MESH, TOPO_TORUS };

struct topo_shape {
	enum topo_kind kind;
	int dims;			/* 1..TOPO_MAX_DIMS */
	int size[TOPO_MAX_DIMS];	/* nodes per dimension; 1 beyond dims */
};

/* One cable: (node_a, port_a) is the + side, (node_b, port_b) the - side. */
struct topo_cable {
	int node_a, port_a;
	int node_b, port_b;
};

/*
 * Parses "ring", "mesh:X[xY[xZ]]" or "torus:X[xY[xZ]]".  hosts is the node
 * count the user asked for, 0 when not given: a ring takes it (default
 * TOPO_RING_DEFAULT_NODES), a mesh or torus must match it.  max_nodes caps
 * the total (at most TOPO_MAX_NODES).  Returns 0, or -1 with a message in
 * err that says what is wrong and what is accepted.
 */
int topo_parse(const char *text, int hosts, int max_nodes,
	       struct topo_shape *out, char *err, size_t errlen);
/* "ring", "mesh:3x3", "torus:2x2x2" (TOPO_NAME_MAX covers every shape). */
void topo_name(const struct topo_shape *s, char *out, size_t len);

int topo_nodes(const struct topo_shape *s);
/* Ports per node: 2 * dims. */
int topo_ports(const struct topo_shape *s);
/* A port's name: "+X", "-Y", ... */
const char *topo_port_name(const struct topo_shape *s, int port);
void topo_coords(const struct topo_shape *s, int node, int coord[TOPO_MAX_DIMS]);
int topo_node_at(const struct topo_shape *s, const int coord[TOPO_MAX_DIMS]);

/* The far end of (node, port): true, with *peer_node and *peer_port, when cabled. */
bool topo_peer(const struct topo_shape *s, int node, int port,
	       int *peer_node, int *peer_port);
/* Every cable once, ordered by + side node then port; returns the count
 * (at most TOPO_MAX_NODES * TOPO_MAX_DIMS). */
int topo_cables(const struct topo_shape *s, struct topo_cable *out, int max);
/* Output port of the first hop from node to dst, TOPO_ROUTE_HOST if equal. */
int topo_route(const struct topo_shape *s, int node, int dst);
/* Hops on the minimal path (Manhattan distance, with wrap in a torus). */
int topo_distance(const struct topo_shape *s, int a, int b);

#endif
