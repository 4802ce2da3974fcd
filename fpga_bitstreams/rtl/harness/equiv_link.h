/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C side of the unit harness's link units: link unit a
 * (link/link_unit.c) of a C link pair, cabled to its peer b by the
 * in-process wire, both with their routers' sources and sinks (the link
 * unit tests' harness, tests/unit/link_harness.h), under traffic both
 * ways, bit errors, failing lanes, maintenance frames, a router input
 * not ready now and then and the cable cut and restored; every cycle,
 * everything a's edge samples (the carrier, the bytes the cable brings
 * in that cycle as the lanes carried them, the lanes flagged, the router
 * side's flit, credits and ready, the maintenance frame offered and
 * taken) and everything it drives after it (the lanes' bytes of the next
 * cycle, the router side's flit, ready and credits, the state, the lanes
 * in use, the peer's identity, the counters).  A C interface, so the C++
 * harness needs none of the packet headers.
 *
 * The wire hands a frame's bytes to its receiver whole, in the cycle its
 * last byte arrives; the cycle's inputs here give each byte in the cycle
 * it arrives (a frame's bytes from wire_latency cycles after its first
 * cycle on the lanes, at the rate it started with), as a receiver fed by
 * lanes sees them.  A shadow: a second C link unit stepped on these inputs
 * alone, compared with a every cycle (link_shadow_check), tells whether
 * they are all a's edge depends on.
 */
#ifndef LOOM_RTL_EQUIV_LINK_H
#define LOOM_RTL_EQUIV_LINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The bytes a cycle brings at most (LANES_MAX x the largest LANE_BYTES), a body's. */
#define LINKU_RATE_MAX	64
extern const unsigned int linku_body_max;

/* One cycle of unit a: its inputs, and its outputs after its edge. */
struct linku_cycle {
	/* inputs */
	bool carrier;			/* the carrier, sampled at this edge */
	unsigned int rx_n;		/* bytes from the cable in this cycle */
	uint8_t rx_data[LINKU_RATE_MAX];
	unsigned int rx_lane_flags;	/* lanes the line decoder flagged */
	bool in_valid, in_head, in_tail;	/* the router output port's flit */
	unsigned int in_vc;
	uint8_t in_data[64];
	uint8_t in_credits[8];		/* credits the router input port freed */
	bool in_ready;			/* the router input port is ready */
	bool maint_offer;		/* a maintenance frame offered for sending */
	unsigned int maint_offer_len;
	const uint8_t *maint_offer_body;	/* linku_body_max bytes */
	bool maint_pop;			/* the received maintenance frame taken */
	/* outputs: the registers after the edge */
	bool maint_taken;		/* the frame offered went into the slot */
	unsigned int tx_n;		/* bytes on the lanes in the next cycle */
	uint8_t tx_data[LINKU_RATE_MAX];
	bool out_valid, out_head, out_tail;	/* the flit to the router input port */
	unsigned int out_vc;
	uint8_t out_data[64];
	bool out_ready;			/* to the router output port */
	uint8_t out_credits[8];
	unsigned int state;		/* enum link_state */
	unsigned int lanes_n;
	uint32_t peer_node, peer_port;
	const char *error;		/* not NULL: what the harness itself got wrong */
};

struct linku_model;

/*
 * Units a and b with LANES @lanes, LANE_BYTES @lane_bytes, VCS @vcs,
 * FLIT_BYTES @flit_bytes, LANE_THRESHOLD @threshold, RX_FRAMES 1; the
 * lanes carry at most the smallest frame a cycle (one frame starts a cycle).
 */
struct linku_model *linku_new(unsigned int lanes, unsigned int lane_bytes, unsigned int vcs,
			      unsigned int flit_bytes, unsigned int threshold, uint64_t seed, char *err,
			      size_t len);
void linku_free(struct linku_model *m);
/* A new phase of the stimuli: traffic, bit errors, maintenance, stalls, cable cuts. */
void linku_phase(struct linku_model *m);
/* One cycle of both ends and the wire; *c gets a's in it. */
void linku_step(struct linku_model *m, struct linku_cycle *c);
/* a's counters (struct link_counters, in link_counter_table's order) and their names. */
unsigned int linku_counter_count(void);
const char *linku_counter_name(unsigned int i);
uint64_t linku_counter(const struct linku_model *m, unsigned int i);
/*
 * The shadow stepped on this cycle's inputs: NULL, or the first of its
 * registers that differs from a's, with both values.
 */
const char *linku_shadow_check(struct linku_model *m, const struct linku_cycle *c, uint64_t *shadow,
			       uint64_t *model);

#ifdef __cplusplus
}
#endif

#endif
