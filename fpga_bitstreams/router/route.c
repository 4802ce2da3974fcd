// SPDX-License-Identifier: GPL-2.0
/*
 * Table routing (T3E style): the entry indexed by the logical destination
 * names an output port or the host.  Loops are cut by the hop limit.
 */
#include "router.h"

struct router_decision router_decide(const uint32_t *rt, unsigned int entries,
				     unsigned int n_ports,
				     const struct loom_pkt_hdr *h)
{
	struct router_decision d = { .verdict = ROUTE_NO_ROUTE, .port = 0 };
	uint32_t w0, w1;
	unsigned int port;

	if (h->hops >= LOOM_PKT_MAX_HOPS) {
		d.verdict = ROUTE_HOP_LIMIT;
		return d;
	}
	if (h->dst_node >= entries)
		return d;
	w0 = rt[2 * (unsigned int)h->dst_node];
	if (!(w0 & LOOM_RT_W0_VALID))
		return d;
	port = w0 & LOOM_RT_W0_PORT_MASK;
	if (port == LOOM_RT_PORT_HOST) {
		d.verdict = ROUTE_HOST;
	} else if (port < n_ports) {
		d.verdict = ROUTE_PORT;
		d.port = port;
		w1 = rt[2 * (unsigned int)h->dst_node + 1];
		d.adaptive = (w0 & LOOM_RT_W0_ADAPTIVE) != 0;
		d.adapt_ports = (w1 & LOOM_RT_W1_ADAPT_PORTS_MASK) >> LOOM_RT_W1_ADAPT_PORTS_SHIFT;
		if (!d.adapt_ports)
			d.adapt_ports = 1u << port;
		d.adapt_ports &= (1u << n_ports) - 1;
	}
	return d;
}

const char *router_verdict_name(enum router_verdict v)
{
	switch (v) {
	case ROUTE_HOST: return "host";
	case ROUTE_PORT: return "port";
	case ROUTE_NO_ROUTE: return "no route";
	case ROUTE_HOP_LIMIT: return "hop limit";
	}
	return "?";
}
