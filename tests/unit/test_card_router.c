// SPDX-License-Identifier: GPL-2.0
/*
 * Routing decisions: a ring of 4 cabled and routed as the VM lab does it
 * (port 0 of node i to port 1 of node i+1, shortest direction), every
 * source/destination pair walked hop by hop; invalid entries, bad ports,
 * destinations beyond the table and the hop limit.
 */
#include "router/route.h"
#include "tap.h"

#include <string.h>

TAP_DEFINE;

static struct router_decision decide(const uint32_t *table, unsigned int n_ports,
				     const struct loom_pkt_hdr *h);

#define RING	4
#define ENTRIES	16

static uint32_t rt[RING][ENTRIES * 2];

static void build_ring(void)
{
	memset(rt, 0, sizeof(rt));
	for (unsigned int i = 0; i < RING; i++) {
		for (unsigned int d = 0; d < RING; d++) {
			unsigned int cw = (d + RING - i) % RING;
			unsigned int port = d == i ? LOOM_RT_PORT_HOST : cw <= RING / 2 ? 0 : 1;

			rt[i][2 * d] = router_entry_w0(port);
			rt[i][2 * d + 1] = d;
		}
	}
}

/* the node at the other end of @port of node @i */
static unsigned int neighbour(unsigned int i, unsigned int port)
{
	return port == 0 ? (i + 1) % RING : (i + RING - 1) % RING;
}

int main(void)
{
	struct loom_pkt_hdr h;
	struct router_decision d;
	unsigned int pairs_ok = 0, shortest = 0;

	tap_plan(8);
	build_ring();
	for (unsigned int s = 0; s < RING; s++) {
		for (unsigned int t = 0; t < RING; t++) {
			unsigned int at = s, hops = 0, dist = (t + RING - s) % RING;
			int delivered = 0;

			if (dist > RING - dist)
				dist = RING - dist;
			memset(&h, 0, sizeof(h));
			h.src_node = (uint16_t)s;
			h.dst_node = (uint16_t)t;
			while (hops <= RING) {
				d = decide(rt[at], 2, &h);
				if (d.verdict == ROUTE_HOST) {
					delivered = at == t;
					break;
				}
				if (d.verdict != ROUTE_PORT)
					break;
				h.hops++;
				at = neighbour(at, d.port);
				hops++;
			}
			if (delivered)
				pairs_ok++;
			else
				tap_diag("%u -> %u not delivered (stopped at %u after %u hops)", s, t, at, hops);
			if (delivered && hops == dist)
				shortest++;
		}
	}
	tap_ok(pairs_ok == RING * RING, "ring of 4: all %d source/destination pairs delivered (%u)",
	       RING * RING, pairs_ok);
	tap_ok(shortest == RING * RING, "ring of 4: every pair takes the shortest path (%u)", shortest);

	memset(&h, 0, sizeof(h));
	h.dst_node = 5;		/* no entry for node 5 */
	tap_ok(decide(rt[0], 2, &h).verdict == ROUTE_NO_ROUTE,
	       "invalid routing entry: no route");
	h.dst_node = ENTRIES;
	tap_ok(decide(rt[0], 2, &h).verdict == ROUTE_NO_ROUTE,
	       "destination beyond the table: no route");
	h.dst_node = 3;		/* node 0 routes it on port 1 */
	tap_ok(decide(rt[0], 1, &h).verdict == ROUTE_NO_ROUTE,
	       "entry naming a port the router does not have: no route");
	h.dst_node = 1;
	h.hops = LOOM_PKT_MAX_HOPS;
	tap_ok(decide(rt[0], 2, &h).verdict == ROUTE_HOP_LIMIT,
	       "packet at the hop limit is dropped");
	h.hops = LOOM_PKT_MAX_HOPS - 1;
	d = decide(rt[0], 2, &h);
	tap_ok(d.verdict == ROUTE_PORT && d.port == 0, "one hop below the limit still forwards");

	/* a routing loop (0 -> 1 -> 0 ...) ends at the hop limit */
	{
		uint32_t loop[2][ENTRIES * 2] = { { 0 } };
		unsigned int at = 0, steps = 0;

		loop[0][2 * 3] = router_entry_w0(0);
		loop[1][2 * 3] = router_entry_w0(1);
		memset(&h, 0, sizeof(h));
		h.dst_node = 3;
		for (;;) {
			d = decide(loop[at], 2, &h);
			if (d.verdict != ROUTE_PORT)
				break;
			h.hops++;
			at ^= 1;
			steps++;
		}
		tap_ok(d.verdict == ROUTE_HOP_LIMIT && steps == LOOM_PKT_MAX_HOPS,
		       "a routing loop is cut after %d hops (%u)", LOOM_PKT_MAX_HOPS, steps);
	}
	return tap_exit_status();
}

static struct router_decision decide(const uint32_t *table, unsigned int n_ports,
				     const struct loom_pkt_hdr *h)
{
	const struct route_view v = { .rt = table, .rt_entries = ENTRIES };

	return router_decide(&v, n_ports, h);
}
