/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A network port of the card: the link unit between a router port and a
 * cable, its registers (PORTS record: status and counters; LINK record:
 * lanes), and the maintenance frames that pass beside the router.  The
 * cable itself (a socket, an in-process wire) belongs to whoever runs the
 * card: it raises the carrier (card_port_carrier), feeds the link unit's
 * framer and takes the frames from its outbox.  Documented in
 * Documentation/hw/card.rst.
 */
#ifndef LOOM_CARD_NETPORT_H
#define LOOM_CARD_NETPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "link/link_unit.h"

struct card;

struct netport {
	struct link_unit link;
	bool cabled;		/* the cable has a carrier */
	bool up;		/* link trained, as the router was last told */
	uint32_t drops;		/* packets the router dropped that came in here */
	uint64_t malformed_seen;	/* the link's malformed packets already counted */
	uint64_t maint_lost_seen;	/* the link's lost maintenance frames already counted */
	uint64_t trains_seen;	/* link->cnt.trains when last published */
	uint16_t lanes_seen;
};

/* Build port @idx of card @c with the card's link parameters; false with @err. */
bool netport_init(struct card *c, unsigned int idx, char *err, size_t errlen);
void netport_free(struct netport *np);
/*
 * After each edge: follow the link's state (up, down, lanes) into the
 * router and the registers, pass maintenance frames between the link unit
 * and the maintenance network.
 */
void netport_after_edge(struct card *c, unsigned int idx);
/* Does the port have work at the next edge that its link unit does not show? */
bool netport_busy(const struct card *c, unsigned int idx);
/* Counters into the PORTS and LINK records. */
void netport_publish(struct card *c, unsigned int idx);
/* The register's lane settings (LANE_THRESHOLD, LANE_WINDOW_MS) into the link unit. */
void netport_lane_settings(struct card *c, unsigned int idx, uint32_t threshold,
			   uint32_t window_ms);
/* Lanes x LANE_BYTES x 8 bits at the nominal clock, in Mbit/s. */
uint32_t netport_rate_mbps(const struct card *c, unsigned int idx);

#endif
