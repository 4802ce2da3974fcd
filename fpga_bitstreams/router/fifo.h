/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flit FIFO: the buffer unit of the router (input buffers, row buffers,
 * column buffers, output registers).  A ring of @cap slots; each slot has
 * a sideband word (struct fifo_meta) and FLIT_BYTES of data.
 *
 * Registers: the slots, the read pointer (head) and the fill count.  A
 * write at the edge that ends cycle t with stage latency L stamps the
 * slot with ready_at = t + L: the flit is visible at the read side from
 * cycle ready_at on.  This stands for the L pipeline registers in front of
 * the buffer (the FIFO's writes are in order and L is fixed per buffer, so
 * the stamps never decrease).  The storage is allocated once by the
 * router; nothing here allocates.
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
 * Sideband of one buffered flit.  In the input buffer a head flit also
 * carries its route (the route computation result, struct route_result
 * packed by route_pack); in row and column buffers the fields say where
 * the flit goes.
 */
struct fifo_meta {
	uint64_t ready_at;	/* first cycle the flit is visible at the head */
	uint8_t flags;		/* FM_* */
	uint8_t vc;		/* VC it arrived on (input) or leaves on (row/col/out) */
	uint8_t port;		/* destination output port (row/col/out) */
	uint8_t in_vc;		/* row buffers: the input VC it came from */
	uint32_t route;		/* input buffer heads: packed route result */
};

struct flit_fifo {
	struct fifo_meta *meta;
	uint8_t *data;		/* cap * flit_bytes */
	uint16_t cap;
	uint16_t head;
	uint16_t count;
	uint8_t flit_bytes;
};

static inline void fifo_attach(struct flit_fifo *q, struct fifo_meta *meta, uint8_t *data,
			       unsigned int cap, unsigned int flit_bytes)
{
	q->meta = meta;
	q->data = data;
	q->cap = (uint16_t)cap;
	q->head = 0;
	q->count = 0;
	q->flit_bytes = (uint8_t)flit_bytes;
}

static inline bool fifo_empty(const struct flit_fifo *q)
{
	return q->count == 0;
}

static inline bool fifo_full(const struct flit_fifo *q)
{
	return q->count == q->cap;
}

static inline unsigned int fifo_slot(const struct flit_fifo *q, unsigned int i)
{
	unsigned int s = q->head + i;

	return s >= q->cap ? s - q->cap : s;
}

/* The @i-th flit from the head (0 = head); @i < count. */
static inline struct fifo_meta *fifo_meta_at(const struct flit_fifo *q, unsigned int i)
{
	return &q->meta[fifo_slot(q, i)];
}

static inline uint8_t *fifo_data_at(const struct flit_fifo *q, unsigned int i)
{
	return q->data + (unsigned int)fifo_slot(q, i) * q->flit_bytes;
}

static inline struct fifo_meta *fifo_front(const struct flit_fifo *q)
{
	return &q->meta[q->head];
}

static inline uint8_t *fifo_front_data(const struct flit_fifo *q)
{
	return q->data + (unsigned int)q->head * q->flit_bytes;
}

/* Is the head flit visible in cycle @now? */
static inline bool fifo_ready(const struct flit_fifo *q, uint64_t now)
{
	return q->count && q->meta[q->head].ready_at <= now;
}

/* Append a flit; the caller checked there is room (credits). Returns its slot's meta. */
static inline struct fifo_meta *fifo_push(struct flit_fifo *q, const struct fifo_meta *m,
					  const uint8_t *data)
{
	unsigned int s = fifo_slot(q, q->count);

	q->meta[s] = *m;
	memcpy(q->data + s * q->flit_bytes, data, q->flit_bytes);
	q->count++;
	return &q->meta[s];
}

static inline void fifo_pop(struct flit_fifo *q)
{
	if (++q->head == q->cap)
		q->head = 0;
	q->count--;
}

#endif
