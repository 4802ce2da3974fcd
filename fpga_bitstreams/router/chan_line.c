// SPDX-License-Identifier: GPL-2.0
/*
 * Channel line: a delay line of flits and credits (see chan_line.h).
 */
#include "chan_line.h"

#include <stdlib.h>
#include <string.h>

int chan_line_init(struct chan_line *l, unsigned int latency)
{
	memset(l, 0, sizeof(*l));
	if (latency > CHAN_LINE_MAX_LATENCY)
		return -1;
	if (latency == 1) {
		l->fwd = &l->fwd1;
		l->back = l->back1;
	} else if (latency) {
		l->fwd = calloc(latency, sizeof(*l->fwd));
		l->back = calloc(latency, sizeof(*l->back));
		if (!l->fwd || !l->back) {
			chan_line_free(l);
			return -1;
		}
	}
	l->latency = latency;
	return 0;
}

void chan_line_free(struct chan_line *l)
{
	if (l->fwd != &l->fwd1) {
		free(l->fwd);
		free(l->back);
	}
	memset(l, 0, sizeof(*l));
}

size_t chan_line_memory(const struct chan_line *l)
{
	if (l->latency <= 1)
		return sizeof(*l);
	return sizeof(*l) + l->latency * (sizeof(*l->fwd) + sizeof(*l->back));
}

_Static_assert(CHAN_VCS_MAX == 8, "credits_add moves the credits of 8 VCs as one word");

/* Per VC, @dst += @src modulo 256 (eight byte counters in one word). */
static void credits_add(uint8_t *dst, const uint8_t *src)
{
	const uint64_t hi = 0x8080808080808080ull;
	uint64_t a, b, sum;

	memcpy(&a, dst, sizeof(a));
	memcpy(&b, src, sizeof(b));
	/* the low seven bits of each byte add without carrying into the next */
	sum = ((a & ~hi) + (b & ~hi)) ^ ((a ^ b) & hi);
	memcpy(dst, &sum, sizeof(sum));
}

static bool back_any(const uint8_t *c)
{
	uint64_t w;

	memcpy(&w, c, sizeof(w));
	return w != 0;
}

void chan_line_step(struct chan_line *l, struct chan *tx, struct chan *rx)
{
	struct flit *slot;
	uint8_t *bslot;
	bool was, now;

	tx->back.ready = true;
	if (!l->latency) {
		if (tx->fwd.valid)
			rx->fwd = tx->fwd;
		tx->fwd.valid = false;
		credits_add(tx->back.credits, rx->back.credits);
		memset(rx->back.credits, 0, CHAN_VCS_MAX);
		return;
	}
	slot = &l->fwd[l->pos];
	bslot = l->back[l->pos];
	was = slot->valid || back_any(bslot);
	/* out: what entered latency steps ago */
	if (slot->valid)
		rx->fwd = *slot;
	credits_add(tx->back.credits, bslot);
	/* in */
	slot->valid = tx->fwd.valid;
	if (tx->fwd.valid)
		*slot = tx->fwd;
	tx->fwd.valid = false;
	memcpy(bslot, rx->back.credits, CHAN_VCS_MAX);
	memset(rx->back.credits, 0, CHAN_VCS_MAX);
	now = slot->valid || back_any(bslot);
	l->in_flight = l->in_flight - was + now;
	if (++l->pos == l->latency)
		l->pos = 0;
}

bool chan_line_busy(const struct chan_line *l)
{
	return l->in_flight != 0;
}
