/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Test harness for the cycle-level link unit: two units cabled by an
 * in-process wire, each with a router-side source (an output port that
 * sends numbered packets with virtual cut-through credit) and a sink (an
 * input port that checks every packet's order and bytes, and frees its
 * buffer one flit per cycle after a hold time).  As chan.h and the link
 * contract ask of a router, a source's credits are BUF_DEPTH per VC when
 * its link comes up.  Everything is stepped
 * with the chan.h rule: each unit sees the others' outputs of the same
 * cycle, then all clock edges happen.
 */
#ifndef LOOM_TESTS_LINK_HARNESS_H
#define LOOM_TESTS_LINK_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "link/link_unit.h"
#include "link/link_wire.h"

#define LH_FIFO		8192	/* flits a sink buffers at most */

struct lh_source {
	const struct link_params *p;
	uint32_t credits[CHAN_VCS_MAX];	/* the output port's credits, flits */
	uint32_t vc_mask;		/* VCs to send on, round robin */
	unsigned int vc_next;
	uint16_t payload;		/* payload bytes of each packet */
	uint32_t next_id;		/* next packet number */
	uint32_t limit;			/* packets to send in all */
	bool busy;			/* a packet is going out */
	struct link_pkt pkt;
	unsigned int flit;
	struct flit out;		/* presented in the current cycle */
	uint64_t packets, flits;	/* taken by the link */
	uint64_t last_head_cycle, last_tail_cycle;	/* cycles they were taken */
};

struct lh_sink {
	const struct link_params *p;
	bool drain;			/* free buffered flits */
	bool quiet;			/* count errors without diagnostics (broken on purpose) */
	unsigned int hold;		/* cycles a flit stays at least */
	struct { uint8_t vc; uint64_t at; } fifo[LH_FIFO];
	unsigned int f_head, f_count;
	uint32_t occupied[CHAN_VCS_MAX];
	uint32_t max_occupied;
	uint32_t overflows;		/* flits beyond buf_depth: a credit bug */
	struct chan_back back;		/* registered output; a test may lower back.ready */
	bool ready_before;		/* back.ready in the cycle before: a flit may come */
	/* the packet arriving */
	uint8_t bytes[LINK_PKT_MAX + FLIT_BYTES_MAX];
	unsigned int flits;
	uint8_t vc;
	uint32_t next_id;		/* expected packet number */
	uint64_t packets, flit_count, errors;
	uint64_t first_head_cycle, last_head_cycle, last_tail_cycle;
};

struct lh_pair {
	struct link_params p;
	struct link_unit a, b;
	struct link_wire w;
	struct lh_source src[2];	/* [0] feeds a (a -> b), [1] feeds b */
	struct lh_sink sink[2];		/* [0] behind b (a -> b), [1] behind a */
	uint64_t trains[2];		/* the ends' trains counters, last seen */
	uint64_t now;
	/* if set: may alter the flit source @end drives into its unit (malformed flits) */
	void (*flit_tamper)(void *ctx, unsigned int end, struct flit *f);
	void *flit_tamper_ctx;
};

/* A source and a sink on their own, for other transports. */
void lh_source_init(struct lh_source *s, const struct link_params *p);
/* The link came up: the output port's credits are BUF_DEPTH per VC again (chan.h). */
void lh_source_reset_credits(struct lh_source *s);
/* The edge at the end of cycle @t; @lo: the link's outputs during @t. */
void lh_source_edge(struct lh_source *s, const struct link_out *lo, uint64_t t);
void lh_sink_init(struct lh_sink *k, const struct link_params *p);
void lh_sink_edge(struct lh_sink *k, const struct link_out *lo, uint64_t t);

/* Two units with parameters @p on one wire; false (and a TAP diag) on error. */
bool lh_pair_init(struct lh_pair *x, const struct link_params *p, uint64_t seed);
void lh_pair_free(struct lh_pair *x);
/* One cycle of everything. */
void lh_pair_cycle(struct lh_pair *x);
/* Run @n cycles. */
void lh_pair_run(struct lh_pair *x, uint64_t n);
/* Run until both ends are up (at most @max cycles); false if they did not come up. */
bool lh_pair_train(struct lh_pair *x, uint64_t max);
/* Run until every limited source is done and all delivered, at most @max cycles. */
bool lh_pair_drain(struct lh_pair *x, uint64_t max);
/* Source @i sends @count more packets of @payload bytes on the VCs of @vc_mask. */
void lh_send(struct lh_pair *x, unsigned int i, uint32_t count, uint16_t payload, uint32_t vc_mask);
/* The header of a frame on the wire. */
struct loom_frame_hdr lh_frame_hdr(const struct link_txframe *tf);
/* Print both ends' statistics as TAP diagnostics. */
void lh_pair_diag(const struct lh_pair *x);

/* Bytes of packet @id with @payload payload bytes (header + payload). */
void lh_packet(struct link_pkt *pkt, uint32_t id, uint16_t payload, uint8_t vc);

#endif
