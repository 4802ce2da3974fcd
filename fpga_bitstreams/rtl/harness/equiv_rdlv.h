/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C side of the unit harness's delivery queues: the DATA frames link
 * unit a (link/link_recv.c) accepts and the flits it drives into its
 * router's input port, cabled to its peer b by the in-process wire, both
 * with their routers' sources and sinks (the link unit tests' harness,
 * tests/unit/link_harness.h), under traffic both ways, bit errors, cable
 * cuts and a router input that is not ready now and then.  A C
 * interface, so the C++ harness needs none of the packet headers.
 */
#ifndef LOOM_RTL_EQUIV_RDLV_H
#define LOOM_RTL_EQUIV_RDLV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RDLV_ACC_MAX	8	/* frames accepted in a cycle the harness takes at most */
#define RDLV_FLIT_MAX	64	/* FLIT_BYTES at most */

/* Bytes of a frame's body at most (a packet: header and largest payload). */
extern const unsigned int rdlv_body_max;

/* One cycle of unit a's delivery. */
struct rdlv_cycle {
	/* the inputs: the frames accepted, the router's ready */
	unsigned int acc_n;
	uint8_t acc_vc[RDLV_ACC_MAX];
	uint16_t acc_len[RDLV_ACC_MAX];
	const uint8_t *acc_body[RDLV_ACC_MAX];	/* rdlv_body_max bytes each */
	bool in_ready;
	/* the C model's registers in this cycle, before its edge */
	unsigned int q_count, flit_idx;
	bool flit_valid, flit_head, flit_tail;
	uint8_t flit_vc;
	uint8_t flit_data[RDLV_FLIT_MAX];
	/* its edge: rx_flits counted */
	bool rx_flit;
	const char *error;		/* not NULL: what the harness itself got wrong */
};

struct rdlv_model;

/*
 * Units a and b with LANES @lanes, LANE_BYTES @lane_bytes, FLIT_BYTES
 * @flit_bytes, RX_QUEUE @rx_queue and RX_FRAMES @rx_frames.
 */
struct rdlv_model *rdlv_new(unsigned int lanes, unsigned int lane_bytes, unsigned int flit_bytes,
			    unsigned int rx_queue, unsigned int rx_frames, uint64_t seed, char *err,
			    size_t len);
void rdlv_free(struct rdlv_model *m);
/* A new phase of the stimuli: traffic, bit errors, stalls of the router's input, cable cuts. */
void rdlv_phase(struct rdlv_model *m);
/* One cycle of both ends and the wire; *c gets a's delivery in it. */
void rdlv_step(struct rdlv_model *m, struct rdlv_cycle *c);
/* The run so far: packets accepted, flits delivered, cycles the router was not ready. */
void rdlv_counts(const struct rdlv_model *m, uint64_t counts[3]);

#ifdef __cplusplus
}
#endif

#endif
