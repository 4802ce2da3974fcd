/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flit FIFO: the buffer unit of the router (input buffers, row buffers,
 * column buffers, output registers), and the flit pool its slots point
 * into.
 *
 * Registers of a FIFO: its slots, the read pointer (head) and the fill
 * count.  A write at the edge that ends cycle t with stage latency L
 * stamps the flit with ready_at = t + L: the flit is visible at the read
 * side from cycle ready_at on.  This stands for the L pipeline registers
 * in front of the buffer (the FIFO's writes are in order and L is fixed
 * per buffer, so the stamps never decrease).
 *
 * Representation.  A flit's sideband (struct fifo_meta) and its
 * FLIT_BYTES of data live in one slot of the router's flit pool from the
 * edge it is written into an input buffer to the edge it leaves on an
 * output wire (or is drained); a FIFO holds the pool slot numbers of its
 * flits.  Moving a flit from one buffer to the next moves its number and
 * updates its sideband in place, as a hardware buffer would copy the
 * register contents, without copying the data at every stage.  The pool
 * holds as many slots as all the router's buffers together, so it cannot
 * run out while every buffer respects its depth.  The storage is
 * allocated once by the router; nothing here allocates.
 */
#ifndef LOOM_ROUTER_FIFO_H
#define LOOM_ROUTER_FIFO_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define FM_HEAD		0x01	/* first flit of a packet */
#define FM_TAIL		0x02	/* last flit of a packet */
#define FM_PAT		0x04	/* arbitration pattern 1 (response class) */
#define FM_FWD		0x08	/* input buffer heads: leaves on a network port (route_result.forward) */

/*
 * Sideband of one buffered flit: when it becomes visible, and one word of
 * flags and routing.  In the input buffer a head flit carries its route
 * (the route computation result, struct route_result packed by
 * route_pack); past the input buffer every flit carries where it goes
 * (the same for all flits of a packet: set from the input VC in one
 * store, fifo_meta_forward).
 */
struct fifo_meta {
	uint64_t ready_at;	/* first cycle the flit is visible at the head */
	union {
		uint64_t word;
		struct {
			uint8_t flags;	/* FM_* */
			uint8_t vc;	/* VC it leaves on (row/col/out) */
			uint8_t port;	/* destination output port (row/col/out) */
			uint8_t len;	/* its packet's length in flits (row/col/out) */
			uint8_t sub_k;	/* TILED row buffer: column buffer VC at the subswitch */
			uint8_t sub_out;	/* TILED row buffer: subswitch output (the output's row) */
			uint8_t col_slot;	/* TILED row buffer: column buffer at the output tile */
			uint8_t spare;
		};
		struct {
			uint8_t in_flags;	/* flags, as above */
			uint8_t route_ext;	/* input buffer heads: route_pack_ext */
			uint16_t route_up;	/* input buffer heads: route_pack_up */
			uint32_t route;	/* input buffer heads: packed route result */
		};
	};
};

/* Past the input buffer: @m goes where @fwd (a fifo_meta word, flags aside) says. */
static inline void fifo_meta_forward(struct fifo_meta *m, uint64_t fwd)
{
	struct fifo_meta t;

	t.word = fwd;
	t.flags = m->flags;
	m->word = t.word;
}

/* The flit pool: every flit inside the router, by slot number. */
struct flit_pool {
	struct fifo_meta *meta;	/* [slots] */
	uint8_t *data;		/* [slots * flit_bytes] */
	uint32_t *free;		/* stack of free slot numbers */
	uint32_t n_free;
	uint32_t flit_bytes;
};

/* A free slot; the caller checked the buffer it goes to has room. */
static inline uint32_t pool_get(struct flit_pool *pl)
{
	return pl->free[--pl->n_free];
}

static inline void pool_put(struct flit_pool *pl, uint32_t slot)
{
	pl->free[pl->n_free++] = slot;
}

static inline uint8_t *pool_data(const struct flit_pool *pl, uint32_t slot)
{
	return pl->data + (size_t)slot * pl->flit_bytes;
}

/*
 * Copy one flit's data: FLIT_BYTES is a multiple of 8 (8 .. 64).  The
 * default and the widest are copied with a constant size (a few vector
 * moves); other widths by words.
 */
static inline void flit_copy(uint8_t *dst, const uint8_t *src, unsigned int flit_bytes)
{
	if (flit_bytes == 16) {		/* the default width */
		memcpy(dst, src, 16);
		return;
	}
	if (flit_bytes == 64) {		/* the widest: a torus simulation's flits */
		memcpy(dst, src, 64);
		return;
	}
	for (unsigned int i = 0; i < flit_bytes; i += 8)
		memcpy(dst + i, src + i, 8);
}

/*
 * The ring of slot numbers has a power of two entries (fifo_ring_size),
 * at least the FIFO's depth @cap, so that it wraps by a mask.
 */
struct flit_fifo {
	uint32_t *slot;		/* ring of pool slot numbers */
	uint16_t cap;		/* depth in flits */
	uint16_t mask;		/* ring entries - 1 */
	uint16_t head;
	uint16_t count;
};

static inline unsigned int fifo_ring_size(unsigned int cap)
{
	unsigned int n = 1;

	while (n < cap)
		n <<= 1;
	return n;
}

static inline void fifo_attach(struct flit_fifo *q, uint32_t *slots, unsigned int cap)
{
	q->slot = slots;
	q->cap = (uint16_t)cap;
	q->mask = (uint16_t)(fifo_ring_size(cap) - 1);
	q->head = 0;
	q->count = 0;
}

static inline bool fifo_empty(const struct flit_fifo *q)
{
	return q->count == 0;
}

static inline bool fifo_full(const struct flit_fifo *q)
{
	return q->count == q->cap;
}

/* Pool slot of the head flit; the FIFO is not empty. */
static inline uint32_t fifo_front(const struct flit_fifo *q)
{
	return q->slot[q->head];
}

/* Append the flit in pool slot @s; the caller checked there is room (credits). */
static inline void fifo_push(struct flit_fifo *q, uint32_t s)
{
	q->slot[(q->head + q->count) & q->mask] = s;
	q->count++;
}

/* Remove the head flit; returns its pool slot. */
static inline uint32_t fifo_pop(struct flit_fifo *q)
{
	uint32_t s = q->slot[q->head];

	q->head = (uint16_t)((q->head + 1) & q->mask);
	q->count--;
	return s;
}

#endif
