// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab's fabric shapes (tools/loom-lab/topology.c), checked against
 * geometry computed here independently: for rings of 1..8 nodes and meshes
 * and tori up to 3-D, every cable joins the +d port of a node to the -d
 * port of its + neighbour and back (symmetric, no port used twice, the
 * expected number of cables, wrap only in tori), and for every (src, dst)
 * pair the routing tables, followed hop by hop over the cables, reach dst
 * in exactly the minimal number of hops, in dimension order, one direction
 * per dimension, a torus tie going +.  Then the shape parser: good shapes,
 * their names, and bad shapes with a message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topology.h"

TAP_DEFINE;

/* Geometry of the test's own: node = x + X * (y + Y * z). */
static void coords_of(const struct topo_shape *s, int node, int c[3])
{
	c[0] = node % s->size[0];
	c[1] = (node / s->size[0]) % s->size[1];
	c[2] = node / (s->size[0] * s->size[1]);
}

static int dist_in_dim(const struct topo_shape *s, int d, int a, int b)
{
	int diff = abs(a - b);

	if (s->kind != TOPO_MESH && s->size[d] - diff < diff)
		diff = s->size[d] - diff;
	return diff;
}

static int min_hops(const struct topo_shape *s, int a, int b)
{
	int ca[3], cb[3], hops = 0;

	coords_of(s, a, ca);
	coords_of(s, b, cb);
	for (int d = 0; d < s->dims; d++)
		hops += dist_in_dim(s, d, ca[d], cb[d]);
	return hops;
}

static int expected_cables(const struct topo_shape *s)
{
	int nodes = s->size[0] * s->size[1] * s->size[2], n = 0;

	for (int d = 0; d < s->dims; d++) {
		if (s->size[d] < 2)
			continue;
		n += s->kind == TOPO_MESH ? nodes / s->size[d] * (s->size[d] - 1) : nodes;
	}
	return n;
}

/* Cables: geometry, symmetry, each port at most once, the right count. */
static void check_cables(const struct topo_shape *s, const char *name)
{
	static struct topo_cable cables[TOPO_MAX_NODES * TOPO_MAX_DIMS];
	int nodes = topo_nodes(s), ports = topo_ports(s), bad = 0, cabled = 0;
	static int uses[TOPO_MAX_NODES][TOPO_MAX_PORTS];
	int n;

	memset(uses, 0, sizeof(uses));
	if (ports != 2 * s->dims) {
		tap_diag("%s: %d ports, expected %d", name, ports, 2 * s->dims);
		bad++;
	}
	for (int node = 0; node < nodes; node++) {
		int c[3], tc[3], tc2[3];

		coords_of(s, node, c);
		topo_coords(s, node, tc);
		if (memcmp(c, tc, sizeof(c)) || topo_node_at(s, tc) != node) {
			tap_diag("%s: node %d has coordinates (%d,%d,%d), expected (%d,%d,%d)",
				 name, node, tc[0], tc[1], tc[2], c[0], c[1], c[2]);
			bad++;
		}
		for (int port = 0; port < ports; port++) {
			int d = port % s->dims, sign = port < s->dims ? 1 : -1;
			int want = c[d] + sign, pn, pp, bn, bp;
			bool edge = want < 0 || want >= s->size[d];
			bool expect = s->size[d] > 1 && (!edge || s->kind != TOPO_MESH);

			if (!topo_peer(s, node, port, &pn, &pp)) {
				if (expect) {
					tap_diag("%s: node %d port %d has no cable", name, node, port);
					bad++;
				}
				continue;
			}
			cabled++;
			if (!expect) {
				tap_diag("%s: node %d port %d is cabled at a mesh edge", name,
					 node, port);
				bad++;
				continue;
			}
			want = (want + s->size[d]) % s->size[d];
			coords_of(s, pn, tc2);
			memcpy(tc, c, sizeof(tc));
			tc[d] = want;
			if (memcmp(tc, tc2, sizeof(tc)) || pp != (port + s->dims) % ports) {
				tap_diag("%s: node %d port %d goes to node %d port %d", name,
					 node, port, pn, pp);
				bad++;
			}
			if (!topo_peer(s, pn, pp, &bn, &bp) || bn != node || bp != port) {
				tap_diag("%s: node %d port %d -> node %d port %d does not lead "
					 "back", name, node, port, pn, pp);
				bad++;
			}
		}
	}
	n = topo_cables(s, cables, (int)(sizeof(cables) / sizeof(cables[0])));
	if (n != expected_cables(s) || 2 * n != cabled) {
		tap_diag("%s: %d cables (%d cabled ports), expected %d", name, n, cabled,
			 expected_cables(s));
		bad++;
	}
	for (int i = 0; i < n && i < (int)(sizeof(cables) / sizeof(cables[0])); i++) {
		const struct topo_cable *cb = &cables[i];
		int pn, pp;

		if (cb->node_a < 0 || cb->node_a >= nodes || cb->node_b < 0 ||
		    cb->node_b >= nodes || cb->port_a < 0 || cb->port_a >= s->dims ||
		    cb->port_b < s->dims || cb->port_b >= ports) {
			tap_diag("%s: cable %d is out of range", name, i);
			bad++;
			continue;
		}
		if (++uses[cb->node_a][cb->port_a] > 1 || ++uses[cb->node_b][cb->port_b] > 1) {
			tap_diag("%s: cable %d reuses a port", name, i);
			bad++;
		}
		if (!topo_peer(s, cb->node_a, cb->port_a, &pn, &pp) || pn != cb->node_b ||
		    pp != cb->port_b) {
			tap_diag("%s: cable %d disagrees with topo_peer", name, i);
			bad++;
		}
	}
	tap_ok(!bad, "%s: %d cables, symmetric, each port used at most once", name, n);
}

/* Routes: hop by hop over the cables, minimal, dimension order, tie +. */
static void check_routes(const struct topo_shape *s, const char *name)
{
	int nodes = topo_nodes(s), ports = topo_ports(s), bad = 0;

	for (int src = 0; src < nodes && bad < 5; src++) {
		for (int dst = 0; dst < nodes && bad < 5; dst++) {
			int cur = src, hops = 0, last_dim = -1, last_port = -1;
			int expect = min_hops(s, src, dst);

			if (topo_distance(s, src, dst) != expect) {
				tap_diag("%s: topo_distance(%d, %d) = %d, expected %d", name,
					 src, dst, topo_distance(s, src, dst), expect);
				bad++;
			}
			while (cur != dst && hops <= nodes) {
				int port = topo_route(s, cur, dst), d, cc[3], ct[3], pp;

				if (port < 0 || port >= ports) {
					tap_diag("%s: %d->%d: node %d routes to port %d", name,
						 src, dst, cur, port);
					bad++;
					break;
				}
				d = port % s->dims;
				if (d < last_dim || (d == last_dim && port != last_port)) {
					tap_diag("%s: %d->%d: node %d leaves by port %d after "
						 "port %d: not dimension order", name, src, dst,
						 cur, port, last_port);
					bad++;
					break;
				}
				coords_of(s, cur, cc);
				coords_of(s, dst, ct);
				if (d != last_dim && s->kind != TOPO_MESH &&
				    2 * ((ct[d] - cc[d] + s->size[d]) % s->size[d]) == s->size[d] &&
				    port != d) {
					tap_diag("%s: %d->%d: a tie in dimension %d at node %d "
						 "goes by port %d, not +", name, src, dst, d, cur,
						 port);
					bad++;
					break;
				}
				last_dim = d;
				last_port = port;
				if (!topo_peer(s, cur, port, &cur, &pp)) {
					tap_diag("%s: %d->%d: port %d of node %d has no cable",
						 name, src, dst, port, cur);
					bad++;
					break;
				}
				hops++;
			}
			if (cur == dst && topo_route(s, dst, dst) != TOPO_ROUTE_HOST) {
				tap_diag("%s: node %d does not deliver to its own host", name, dst);
				bad++;
			} else if (cur == dst && hops != expect) {
				tap_diag("%s: %d->%d took %d hops, minimal is %d", name, src,
					 dst, hops, expect);
				bad++;
			} else if (cur != dst && !bad) {
				tap_diag("%s: %d->%d never arrives", name, src, dst);
				bad++;
			}
		}
	}
	tap_ok(!bad, "%s: every pair routed hop by hop in minimal hops, dimension order",
	       name);
}

static const char *const shapes[] = {
	"mesh:2", "mesh:2x2", "mesh:3x3", "mesh:2x2x2", "mesh:4x4",
	"torus:2x2", "torus:3x3", "torus:4x4", "torus:2x2x2", "torus:4x4x4",
};
#define NSHAPES ((int)(sizeof(shapes) / sizeof(shapes[0])))
#define NRINGS 8

static const char *const bad_shapes[] = {
	"torus:9x1", "mesh:2x", "cube", "torus:", "mesh:1", "mesh:2x2x2x2",
	"torus:2x-2", "mesh:2y2", "ring:4", "torus:4x4", "Mesh:2", "mesh:9999999999",
};
#define NBAD ((int)(sizeof(bad_shapes) / sizeof(bad_shapes[0])))

static void check_parser(void)
{
	struct topo_shape s;
	char err[512], name[TOPO_NAME_MAX];
	int bad = 0;

	for (int i = 0; i < NBAD; i++) {
		err[0] = 0;
		if (topo_parse(bad_shapes[i], 0, 8, &s, err, sizeof(err)) == 0 ||
		    !strstr(err, bad_shapes[i]) || !strstr(err, "torus:X[xY[xZ]]")) {
			tap_diag("shape '%s' accepted or without a good message: %s",
				 bad_shapes[i], err);
			bad++;
		}
	}
	tap_ok(!bad, "%d bad shapes are refused with a message naming what is accepted",
	       NBAD);

	bad = 0;
	if (topo_parse("torus:2x2", 3, 8, &s, err, sizeof(err)) == 0 ||
	    !strstr(err, "--hosts 3")) {
		tap_diag("torus:2x2 with --hosts 3: %s", err);
		bad++;
	}
	if (topo_parse("torus:2x2", 4, 8, &s, err, sizeof(err)) < 0 || topo_nodes(&s) != 4) {
		tap_diag("torus:2x2 with --hosts 4: %s", err);
		bad++;
	}
	if (topo_parse("ring", 9, 8, &s, err, sizeof(err)) == 0) {
		tap_diag("a ring of 9 in a lab of 8 accepted");
		bad++;
	}
	if (topo_parse("ring", 0, 8, &s, err, sizeof(err)) < 0 || topo_nodes(&s) != 2 ||
	    topo_ports(&s) != 2) {
		tap_diag("ring without --hosts: %s", err);
		bad++;
	}
	tap_ok(!bad, "--hosts must match a mesh or torus; a ring takes it (default 2)");

	bad = 0;
	for (int i = 0; i < NSHAPES; i++) {
		if (topo_parse(shapes[i], 0, TOPO_MAX_NODES, &s, err, sizeof(err)) < 0)
			continue;
		topo_name(&s, name, sizeof(name));
		if (strcmp(name, shapes[i])) {
			tap_diag("%s is named %s", shapes[i], name);
			bad++;
		}
	}
	if (topo_parse("torus:2x2x2", 0, 8, &s, err, sizeof(err)) < 0 ||
	    strcmp(topo_port_name(&s, 0), "+X") || strcmp(topo_port_name(&s, 2), "+Z") ||
	    strcmp(topo_port_name(&s, 3), "-X") || strcmp(topo_port_name(&s, 5), "-Z")) {
		tap_diag("port names of torus:2x2x2 wrong");
		bad++;
	}
	if (topo_parse("mesh:3x3", 0, TOPO_MAX_NODES, &s, err, sizeof(err)) < 0 ||
	    strcmp(topo_port_name(&s, 1), "+Y") || strcmp(topo_port_name(&s, 2), "-X")) {
		tap_diag("port names of mesh:3x3 wrong");
		bad++;
	}
	tap_ok(!bad, "shapes are named back as written; ports +X +Y +Z -X -Y -Z");
}

/* The ring must stay what the lab has always built. */
static void check_ring_compat(void)
{
	int bad = 0;

	for (int n = 1; n <= NRINGS; n++) {
		struct topo_shape s;
		char err[512];

		if (topo_parse("ring", n, 8, &s, err, sizeof(err)) < 0) {
			tap_diag("ring of %d: %s", n, err);
			bad++;
			continue;
		}
		for (int i = 0; i < n; i++) {
			int pn, pp;
			bool cabled = topo_peer(&s, i, 0, &pn, &pp);

			if (n > 1 && (!cabled || pn != (i + 1) % n || pp != 1)) {
				tap_diag("ring of %d: port 0 of node %d is not cabled to port "
					 "1 of node %d", n, i, (i + 1) % n);
				bad++;
			}
			if (n == 1 && cabled) {
				tap_diag("a ring of 1 has a cable");
				bad++;
			}
			for (int d = 0; d < n; d++) {
				int c = (d - i + n) % n;
				int want = d == i ? TOPO_ROUTE_HOST : c <= n / 2 ? 0 : 1;

				if (topo_route(&s, i, d) != want) {
					tap_diag("ring of %d: node %d routes %d by port %d, not %d",
						 n, i, d, topo_route(&s, i, d), want);
					bad++;
				}
			}
		}
	}
	tap_ok(!bad, "rings of 1..8: port 0 to port 1 of the next node, routes as before");
}

int main(void)
{
	tap_plan(2 * NRINGS + 2 * NSHAPES + 4);
	for (int n = 1; n <= NRINGS; n++) {
		struct topo_shape s;
		char err[512], name[32];

		snprintf(name, sizeof(name), "ring of %d", n);
		if (topo_parse("ring", n, TOPO_MAX_NODES, &s, err, sizeof(err)) < 0) {
			tap_diag("%s", err);
			tap_ok(0, "%s: parsed", name);
			tap_ok(0, "%s: parsed", name);
			continue;
		}
		check_cables(&s, name);
		check_routes(&s, name);
	}
	for (int i = 0; i < NSHAPES; i++) {
		struct topo_shape s;
		char err[512];

		if (topo_parse(shapes[i], 0, TOPO_MAX_NODES, &s, err, sizeof(err)) < 0) {
			tap_diag("%s", err);
			tap_ok(0, "%s: parsed", shapes[i]);
			tap_ok(0, "%s: parsed", shapes[i]);
			continue;
		}
		check_cables(&s, shapes[i]);
		check_routes(&s, shapes[i]);
	}
	check_ring_compat();
	check_parser();
	return tap_exit_status();
}
