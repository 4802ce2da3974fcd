// SPDX-License-Identifier: GPL-2.0
/*
 * Transmit-side fault injection: geometric gaps between bit flips, so the
 * cost is per flip, not per bit.
 */
#include "fault.h"

#include <math.h>
#include <stdbool.h>

#include <loom_util/prng.h>

static uint64_t fault_rand(struct fault *f)
{
	return loom_xorshift64s(&f->rng);
}

/* Uniform in (0, 1]. */
static double fault_unit(struct fault *f)
{
	return (double)((fault_rand(f) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* Bits that pass unharmed before the next flip: geometric with p = ber. */
static uint64_t fault_gap(struct fault *f)
{
	double g;

	if (f->ber >= 1.0)
		return 0;
	g = floor(log(fault_unit(f)) / log1p(-f->ber));
	return g >= 1e18 ? UINT64_MAX : (uint64_t)g;
}

void fault_init(struct fault *f, uint64_t seed)
{
	uint64_t s = seed;

	f->ber = 0;
	f->drop = 0;
	f->corrupt = 0;
	f->rng = loom_splitmix64(&s) | 1;
	f->gap = UINT64_MAX;
	f->flipped_bits = 0;
	f->corrupted_frames = 0;
	f->dropped_frames = 0;
}

void fault_set_ber(struct fault *f, double rate)
{
	f->ber = rate;
	f->gap = rate > 0 ? fault_gap(f) : UINT64_MAX;
}

void fault_set_drop(struct fault *f, double rate)
{
	f->drop = rate;
}

void fault_set_corrupt(struct fault *f, double rate)
{
	f->corrupt = rate;
}

static void fault_flip(struct fault *f, uint8_t *frame, uint64_t at,
		       void (*hit)(void *ctx, uint64_t bit), void *ctx)
{
	frame[at / 8] ^= (uint8_t)(1u << (at % 8));
	f->flipped_bits++;
	if (hit)
		hit(ctx, at);
}

enum fault_verdict fault_apply_hits(struct fault *f, uint8_t *frame, size_t len,
				    void (*hit)(void *ctx, uint64_t bit), void *ctx)
{
	uint64_t bits = (uint64_t)len * 8, pos = 0;
	bool flipped = false;

	if (f->drop > 0 && fault_unit(f) <= f->drop) {
		f->dropped_frames++;
		return FAULT_DROPPED;
	}
	if (f->corrupt > 0 && bits && fault_unit(f) <= f->corrupt) {
		uint64_t at = (uint64_t)(fault_unit(f) * (double)bits);

		if (at >= bits)
			at = bits - 1;
		fault_flip(f, frame, at, hit, ctx);
		flipped = true;
	}
	if (f->ber <= 0)
		goto out;
	while (f->gap < bits - pos) {
		pos += f->gap;
		fault_flip(f, frame, pos, hit, ctx);
		flipped = true;
		pos++;
		f->gap = fault_gap(f);
	}
	f->gap -= bits - pos;
out:
	if (!flipped)
		return FAULT_NONE;
	f->corrupted_frames++;
	return FAULT_CORRUPTED;
}

enum fault_verdict fault_apply(struct fault *f, uint8_t *frame, size_t len)
{
	return fault_apply_hits(f, frame, len, NULL, NULL);
}
