/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An in-process cable between two link units: per direction a delay line
 * that delivers each byte wire_latency cycles after it left the lanes,
 * cycle-exact: a frame's bytes in the cycles the lanes carried them, at
 * the rate it started with, its last byte wire_latency cycles after the
 * frame's last cycle on the lanes.  An intact frame reaching a receiver
 * whose framer holds nothing but intact frames handed over whole (it
 * stands at a frame's start) is handed over whole with its last byte: its
 * first bytes alone complete nothing there, so the receiver does what it
 * would have done with them one by one, in fewer steps.  Faults are
 * applied as frames enter the wire (fault.h: bit error rate, one flipped
 * bit per frame, drops), and the lanes a flipped bit travelled on are
 * flagged to the receiver with the frame's last byte, as a per-lane
 * parity check over the frame in the line decoder would.  A cut empties
 * the wire and drops both ends' carrier until restored.
 *
 * Each cycle t of a simulation (link_wire_cycle() does all of it):
 *   link_wire_deliver(w, t);            bytes that arrive in cycle t
 *   link_unit_step(a, ...); link_unit_step(b, ...);
 *   link_wire_carry(w);                 frames that start in cycle t + 1
 */
#ifndef LOOM_LINK_WIRE_H
#define LOOM_LINK_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fault.h"
#include "link/link_unit.h"

struct link_wire_rec {
	uint64_t arrive;	/* cycle the frame's last byte arrives */
	uint32_t off;		/* its first byte in the ring */
	uint16_t len;
	uint8_t lanes_hit;	/* lanes a flipped bit travelled on */
	uint8_t phase;		/* its first byte's offset in its first cycle */
	uint8_t rate;		/* its bytes a cycle on the lanes */
	uint64_t first;		/* cycle its first byte arrives */
	uint16_t sent;		/* bytes delivered so far */
	bool damaged;		/* a fault or the test's tamper changed its bytes */
};

/* One direction: frames from @from to @to. */
struct link_wire_dir {
	struct link_unit *from, *to;
	struct fault fault;
	uint8_t *ring;
	uint32_t ring_cap, ring_head, ring_used;
	struct link_wire_rec *rec;
	uint32_t rec_cap, rec_head, rec_count;
	uint64_t frames, bytes;		/* delivered */
	uint64_t dropped;		/* dropped by a fault or a cut */
	bool dirty;			/* the receiver may hold bytes of a frame not handed over whole */
};

/*
 * A test's own fault: called for every frame entering the wire in
 * direction @dir before fault.c's faults; it may alter the bytes, and
 * returns false to lose the frame.
 */
typedef bool (*link_wire_tamper_fn)(void *ctx, unsigned int dir, struct link_txframe *tf);

struct link_wire {
	uint32_t latency;
	bool cut;
	struct link_wire_dir dir[2];	/* [0]: a -> b, [1]: b -> a */
	link_wire_tamper_fn tamper;
	void *tamper_ctx;
};

/*
 * Cable @a and @b (built with the same parameters; the latency is their
 * wire_latency) and raise both carriers.  Fault streams derive from @seed.
 */
bool link_wire_init(struct link_wire *w, struct link_unit *a, struct link_unit *b, uint64_t seed,
		    char *err, size_t len);
void link_wire_free(struct link_wire *w);
/* Feed the receivers every frame that arrives in cycle @cycle. */
void link_wire_deliver(struct link_wire *w, uint64_t cycle);
/* Take the frames both ends started onto the wire (after their edges). */
void link_wire_carry(struct link_wire *w);
/*
 * One cycle of the two ends and the wire: the bytes arriving now, both
 * clock edges with the router-side inputs @in_a and @in_b (the routers'
 * outputs of this cycle), the frames they start.
 */
void link_wire_cycle(struct link_wire *w, const struct link_in *in_a, const struct link_in *in_b);
/* Faults of direction @dir (0: a -> b, 1: b -> a). */
static inline struct fault *link_wire_fault(struct link_wire *w, unsigned int dir)
{
	return &w->dir[dir].fault;
}
/* Cut the cable (frames in flight lost, carriers down) or restore it. */
void link_wire_cut(struct link_wire *w);
void link_wire_restore(struct link_wire *w);
/* The next cycle in which a frame arrives, or UINT64_MAX. */
uint64_t link_wire_next_event(const struct link_wire *w);

#endif
