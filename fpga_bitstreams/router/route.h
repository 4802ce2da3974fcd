/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Routing decision of the router: a pure function of the routing table
 * and a packet header, so that a cycle-level model can call it as is.
 */
#ifndef LOOM_CARD_ROUTER_H
#define LOOM_CARD_ROUTER_H

#include <stdbool.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/regs.h>

enum router_verdict {
	ROUTE_HOST,		/* deliver to the local host interface */
	ROUTE_PORT,		/* forward on network port .port */
	ROUTE_NO_ROUTE,		/* invalid entry, destination or port: drop */
	ROUTE_HOP_LIMIT,	/* travelled LOOM_PKT_MAX_HOPS routers: drop */
};

struct router_decision {
	enum router_verdict verdict;
	unsigned int port;	/* ROUTE_PORT only */
	bool adaptive;		/* entry allows the adaptive VC (W0_ADAPTIVE) */
	uint32_t adapt_ports;	/* minimal ports the adaptive VC may take (W1) */
};

/*
 * @rt: the routing table as in the ROUTER block (two 32-bit words per
 * entry, @entries entries), @n_ports: network ports of this router,
 * @h: the packet as it arrives (its hops not yet incremented here).
 */
struct router_decision router_decide(const uint32_t *rt, unsigned int entries,
				     unsigned int n_ports,
				     const struct loom_pkt_hdr *h);

/* Build a routing table word 0 for @port (a port number or LOOM_RT_PORT_HOST). */
static inline uint32_t router_entry_w0(unsigned int port)
{
	return LOOM_RT_W0_VALID | (port & 0xfu);
}

const char *router_verdict_name(enum router_verdict v);

#endif
