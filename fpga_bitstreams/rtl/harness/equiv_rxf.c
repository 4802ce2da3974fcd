// SPDX-License-Identifier: GPL-2.0
/*
 * The C side of the unit harness's frame receivers (equiv_rxf.h).
 */
#include "equiv_rxf.h"
#include "equiv_draw.h"

#include <stdlib.h>
#include <string.h>

#include <loom_hw/packet.h>

#include "link/fault.h"
#include "link/link.h"

const unsigned int rxf_frame_bytes = LOOM_FRAME_MAX - LOOM_FRAME_CRC_SIZE;

/* what the line carries next: a frame, maybe cut short or hit, or garbage */
#define RXF_CHUNK	(2 * LOOM_FRAME_MAX)

struct rxf_model {
	unsigned int window, frames, lanes, lane_bytes, rx_buf;
	uint64_t rng;
	struct fault fault;
	/* this phase */
	unsigned int p_garbage, p_false, p_cut, p_idle, p_max, take_mode, lanes_now;
	/* the chunk on the line */
	uint8_t chunk[RXF_CHUNK];
	unsigned int chunk_len, chunk_off;
	uint32_t seq;
	/* this cycle's results */
	struct link_frame f[RXF_FRAMES_MAX];
	uint8_t bytes[RXF_FRAMES_MAX][LOOM_FRAME_MAX];
	struct rxf_result res[RXF_FRAMES_MAX];
	uint64_t counts[4];
	struct link_rx rx;	/* last: its 32 KiB buffer */
};

struct rxf_model *rxf_new(unsigned int window, unsigned int frames, unsigned int lanes,
			  unsigned int lane_bytes, unsigned int rx_buf, uint64_t seed)
{
	struct rxf_model *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	m->window = window;
	m->frames = frames < RXF_FRAMES_MAX ? frames : RXF_FRAMES_MAX;
	m->lanes = lanes;
	m->lane_bytes = lane_bytes;
	m->rx_buf = rx_buf;
	m->rng = seed;
	fault_init(&m->fault, seed ^ 0x7278660000000000ull);
	link_rx_init(&m->rx);
	m->lanes_now = lanes;
	m->take_mode = 0;
	return m;
}

void rxf_free(struct rxf_model *m)
{
	free(m);
}

void rxf_phase(struct rxf_model *m)
{
	static const double bers[] = { 0, 0, 1e-6, 1e-5, 1e-4, 1e-3 };
	static const unsigned int levels[] = { 0, 2, 10, 30, 60 };

	fault_set_ber(&m->fault, bers[eq_below(&m->rng, 6)]);
	m->p_garbage = levels[eq_below(&m->rng, 5)];
	m->p_false = levels[eq_below(&m->rng, 5)];
	m->p_cut = levels[eq_below(&m->rng, 5)];
	m->p_idle = levels[eq_below(&m->rng, 5)];
	m->p_max = levels[eq_below(&m->rng, 5)];
	/* the consumer: always room, now and then none, or any number */
	m->take_mode = eq_below(&m->rng, 3);
	/* lanes drop one by one, as a noisy link's do; back to all now and then */
	if (m->lanes_now > 1 && eq_percent(&m->rng, 30))
		m->lanes_now /= 2;
	else if (eq_percent(&m->rng, 20))
		m->lanes_now = m->lanes;
}

/* A frame header with a random length at @p (a false start or a real one). */
static void rxf_false_start(struct rxf_model *m, uint8_t *p)
{
	static const uint16_t lens[] = { 0, 1, 32, 303, 304, 305, 0xffff };
	uint16_t len = eq_percent(&m->rng, 50) ? lens[eq_below(&m->rng, 7)] :
						 (uint16_t)eq_below(&m->rng, 400);

	p[0] = LOOM_FRAME_MAGIC & 0xff;
	p[1] = LOOM_FRAME_MAGIC >> 8;
	p[4] = (uint8_t)len;
	p[5] = (uint8_t)(len >> 8);
}

/* Garbage: random bytes, some with frame starts that lead nowhere. */
static void rxf_garbage(struct rxf_model *m)
{
	unsigned int n = 1 + eq_below(&m->rng, 120);

	for (unsigned int i = 0; i < n; i++)
		m->chunk[i] = (uint8_t)eq_next(&m->rng);
	if (n >= LOOM_FRAME_HDR_SIZE && eq_percent(&m->rng, m->p_false))
		rxf_false_start(m, m->chunk + eq_below(&m->rng, n - LOOM_FRAME_HDR_SIZE + 1));
	m->chunk_len = n;
}

static void rxf_frame(struct rxf_model *m)
{
	uint8_t body[LINK_BODY_MAX];
	unsigned int blen;
	size_t n;

	blen = eq_percent(&m->rng, m->p_max) ? LINK_BODY_MAX :
	       eq_percent(&m->rng, 30) ? 0 : eq_below(&m->rng, LINK_BODY_MAX + 1);
	for (unsigned int i = 0; i < blen; i++)
		body[i] = (uint8_t)eq_next(&m->rng);
	/* now and then a frame inside a frame: found after the outer one's CRC fails */
	if (blen >= LOOM_FRAME_HDR_SIZE + 8 && eq_percent(&m->rng, m->p_false))
		rxf_false_start(m, body + eq_below(&m->rng, blen - LOOM_FRAME_HDR_SIZE + 1));
	n = link_encode(m->chunk, sizeof(m->chunk), (uint8_t)(1 + eq_below(&m->rng, 7)),
			(uint8_t)eq_below(&m->rng, 8), m->seq++, (uint32_t)eq_next(&m->rng), body, blen,
			NULL, 0);
	fault_apply(&m->fault, m->chunk, n);
	/* cut short: the next chunk follows at once */
	if (eq_percent(&m->rng, m->p_cut))
		n = 1 + eq_below(&m->rng, (unsigned int)n);
	m->chunk_len = (unsigned int)n;
}

unsigned int rxf_cycle(struct rxf_model *m, uint8_t *in, unsigned int *in_n, unsigned int *take,
		       unsigned int *held, unsigned int *garbage, bool *fed_ok)
{
	unsigned int n = 0, rate = m->lanes_now * m->lane_bytes, k;

	*held = (unsigned int)(m->rx.end - m->rx.start);
	*garbage = (unsigned int)m->rx.in_garbage;
	if (!eq_percent(&m->rng, m->p_idle)) {
		while (n < rate && *held + n < m->rx_buf) {
			unsigned int c;

			if (m->chunk_off == m->chunk_len) {
				m->chunk_off = 0;
				if (eq_percent(&m->rng, m->p_garbage))
					rxf_garbage(m);
				else
					rxf_frame(m);
			}
			c = m->chunk_len - m->chunk_off;
			if (c > rate - n)
				c = rate - n;
			if (c > m->rx_buf - *held - n)
				c = m->rx_buf - *held - n;
			memcpy(in + n, m->chunk + m->chunk_off, c);
			m->chunk_off += c;
			n += c;
		}
	}
	*in_n = n;
	memset(in + n, 0, m->lanes * m->lane_bytes - n);	/* the lanes' idle bytes */
	switch (m->take_mode) {
	case 0:
		*take = m->frames;
		break;
	case 1:
		*take = eq_percent(&m->rng, 70) ? m->frames : 0;
		break;
	default:
		*take = eq_below(&m->rng, m->frames + 1);
		break;
	}
	*fed_ok = link_rx_feed(&m->rx, in, n) == n;
	link_rx_window(&m->rx, m->window);
	for (k = 0; k < *take; k++) {
		enum link_rx_status st = link_rx_next(&m->rx, &m->f[k]);
		struct rxf_result *r = &m->res[k];

		if (st == LINK_RX_MORE)
			break;
		r->status = st;
		r->len = 0;
		r->bytes = m->bytes[k];
		if (st == LINK_RX_FRAME) {
			r->len = LOOM_FRAME_HDR_SIZE + m->f[k].hdr.len;
			memcpy(m->bytes[k], &m->f[k].hdr, LOOM_FRAME_HDR_SIZE);
			memcpy(m->bytes[k] + LOOM_FRAME_HDR_SIZE, m->f[k].body, m->f[k].hdr.len);
		}
		m->counts[st - LINK_RX_FRAME]++;
	}
	return k;
}

const struct rxf_result *rxf_result(const struct rxf_model *m, unsigned int k)
{
	return &m->res[k];
}

void rxf_counts(const struct rxf_model *m, uint64_t counts[4])
{
	memcpy(counts, m->counts, sizeof(m->counts));
}
