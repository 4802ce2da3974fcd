/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C side of the unit harness's packet assemblers: the flits link unit a
 * (link/link_xmit.c) takes from its router, cabled to its peer b by the
 * in-process wire, both with their routers' sources and sinks (the link
 * unit tests' harness, tests/unit/link_harness.h), under traffic both ways,
 * bit errors, the cable cut and restored, and malformed flits in a's
 * input: heads and tails flipped, flits lost, on other or no VCs, header
 * lengths too short, too long or beyond the largest payload, and flits
 * driven while ready was low.  A C interface, so the C++ harness needs
 * none of the packet headers.
 */
#ifndef LOOM_RTL_EQUIV_XASM_H
#define LOOM_RTL_EQUIV_XASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XASM_FLIT_MAX	64	/* FLIT_BYTES at most */

/* Bytes of a packet the link carries: header and largest payload. */
extern const unsigned int xasm_pkt_max;

/* One cycle of unit a's packet assembly. */
struct xasm_cycle {
	/* the assembler's inputs */
	bool flush;			/* a's carrier changed at this edge */
	bool up;			/* a is up at this edge */
	bool flit_valid, flit_head, flit_tail;
	uint8_t flit_vc;
	uint8_t flit_data[XASM_FLIT_MAX];
	bool pop;			/* a DATA frame took the queue's head packet */
	bool q_peer_has;		/* link_credit_peer_has for the queue's head (registered) */
	bool low_any;			/* the credit unit's low mask is not empty */
	/* the C model's registers in this cycle, before its edge */
	bool ready, ready_before, starved;
	uint32_t assembling, discarding;
	unsigned int q_count, q_vc, q_flits;
	/* the results of its edge */
	unsigned int malformed;		/* tx_malformed counted */
	bool flit_counted, queued;	/* tx_flits, tx_packets counted */
	unsigned int ref_vc;		/* flits refunded to the router and their VC */
	uint32_t ref_flits;
	bool head_valid;		/* the queue's head after the flit: what pop takes */
	unsigned int head_vc, head_flits, head_len;
	const uint8_t *head_bytes;	/* head_len bytes */
	const char *error;		/* not NULL: what the harness itself got wrong */
};

struct xasm_model;

/* Units a and b with VCS @vcs, FLIT_BYTES @flit_bytes and TX_QUEUE @tx_queue. */
struct xasm_model *xasm_new(unsigned int vcs, unsigned int flit_bytes, unsigned int tx_queue,
			    uint64_t seed, char *err, size_t len);
void xasm_free(struct xasm_model *m);
/* A new phase of the stimuli: traffic, bit errors, malformed flits, cable cuts. */
void xasm_phase(struct xasm_model *m);
/* One cycle of both ends and the wire; *c gets a's assembly in it. */
void xasm_step(struct xasm_model *m, struct xasm_cycle *c);
/* The run so far: packets queued, malformed flits, flits refunded, cable cuts. */
void xasm_counts(const struct xasm_model *m, uint64_t counts[4]);

#ifdef __cplusplus
}
#endif

#endif
