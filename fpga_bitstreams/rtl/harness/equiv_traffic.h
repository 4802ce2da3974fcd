/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The unit harness's C link pairs: built with their parameters checked, a
 * phase of traffic (each end's router sends none, a few or a stream of
 * packets of one size on a random set of VCs, over a wire of one of five
 * bit error rates), and the cable cut now and then.
 */
#ifndef LOOM_RTL_EQUIV_TRAFFIC_H
#define LOOM_RTL_EQUIV_TRAFFIC_H

#include <stdio.h>
#include <stdlib.h>

#include "equiv_draw.h"
#include "link/link_wire.h"
#include "link_harness.h"

/* Pair @x with parameters @lp; false with the reason in @err (@len bytes). */
static inline bool eq_pair_init(struct lh_pair *x, const struct link_params *lp, uint64_t seed,
				char *err, size_t len)
{
	if (!link_params_check(lp, err, len))
		return false;
	if (!lh_pair_init(x, lp, seed)) {
		snprintf(err, len, "the link pair did not build");
		return false;
	}
	return true;
}

/*
 * The defaults with LANES @lanes, LANE_BYTES @lane_bytes, VCS @vcs,
 * FLIT_BYTES @flit_bytes and LANE_THRESHOLD @threshold, into *@lp.
 */
static inline void eq_params(struct link_params *lp, unsigned int lanes, unsigned int lane_bytes,
			     unsigned int vcs, unsigned int flit_bytes, unsigned int threshold)
{
	link_params_default(lp);
	lp->lanes = lanes;
	lp->lane_bytes = lane_bytes;
	lp->vcs = vcs;
	lp->flit_bytes = flit_bytes;
	lp->lane_threshold = threshold;
}

/*
 * Lanes of @lanes x @lane_bytes start one frame a cycle at most (they
 * carry no more than the smallest frame a cycle), as one frame builder
 * builds: false with the reason in @err (@len bytes).
 */
static inline bool eq_one_frame_a_cycle(unsigned int lanes, unsigned int lane_bytes, char *err,
					size_t len)
{
	if (lanes * lane_bytes <= LINK_FRAME_MIN)
		return true;
	snprintf(err, len, "LANES x LANE_BYTES = %u: more than the smallest frame (%u bytes) "
		 "may start two frames a cycle; the frame builder builds one",
		 lanes * lane_bytes, (unsigned int)LINK_FRAME_MIN);
	return false;
}

/*
 * A harness model of @size bytes, zeroed, whose first member is its link
 * pair, built with @lp and @seed, its routers' sinks quiet (cut cables and
 * spoilt frames lose packets, on purpose): NULL with the reason in @err.
 */
static inline void *eq_pair_new(size_t size, const struct link_params *lp, uint64_t seed, char *err,
				size_t len)
{
	struct lh_pair *x = calloc(1, size);

	if (!x) {
		snprintf(err, len, "no memory for a link pair");
		return NULL;
	}
	if (!eq_pair_init(x, lp, seed, err, len)) {
		free(x);
		return NULL;
	}
	x->sink[0].quiet = x->sink[1].quiet = true;
	return x;
}

/* Free a model eq_pair_new() built (NULL: nothing). */
static inline void eq_pair_free(void *model)
{
	struct lh_pair *x = model;

	if (!x)
		return;
	lh_pair_free(x);
	free(x);
}

/* A maintenance frame's body of random length and bytes into @body; its length. */
static inline unsigned int eq_maint_body(uint64_t *rng, uint8_t body[LINK_BODY_MAX])
{
	unsigned int len = eq_below(rng, LINK_BODY_MAX + 1);

	for (unsigned int i = 0; i < len; i++)
		body[i] = (uint8_t)eq_next(rng);
	return len;
}

/* Unit @l's user offers a maintenance frame in @p_maint percent of cycles. */
static inline void eq_maint_offer(uint64_t *rng, struct link_unit *l, unsigned int p_maint)
{
	uint8_t body[LINK_BODY_MAX];

	if (p_maint && eq_percent(rng, p_maint))
		link_unit_maint_send(l, body, eq_maint_body(rng, body));
}

/* Both ends' traffic of the next phase of pair @x; the wire's bit error rates from @bers. */
static inline void eq_traffic_phase(uint64_t *rng, struct lh_pair *x, const double bers[5])
{
	static const unsigned int counts[] = { 0, 1, 4, 30, 1000 };
	uint32_t all = (1u << x->p.vcs) - 1;

	for (unsigned int i = 0; i < 2; i++) {
		unsigned int payload = eq_percent(rng, 30) ? eq_below(rng, LOOM_PKT_MAX_PAYLOAD + 1) :
				       eq_percent(rng, 50) ? 0 : LOOM_PKT_MAX_PAYLOAD;
		uint32_t vcs = (uint32_t)eq_next(rng) & all;

		lh_send(x, i, counts[eq_below(rng, 5)], (uint16_t)payload, vcs ? vcs : 1);
		fault_set_ber(link_wire_fault(&x->w, i), bers[eq_below(rng, 5)]);
	}
}

/*
 * The cable of pair @x in this cycle: restored when the *@cut_left cycles of
 * a cut ran out, else cut in @p_cut cycles of 10000, for 1 .. @most
 * cycles.  True when it was cut now.
 */
static inline bool eq_cable_cycle(uint64_t *rng, struct lh_pair *x, unsigned int *cut_left,
				  unsigned int p_cut, unsigned int most)
{
	if (*cut_left && !--*cut_left) {
		link_wire_restore(&x->w);
		return false;
	}
	if (*cut_left || !p_cut || eq_below(rng, 10000) >= p_cut)
		return false;
	*cut_left = 1 + eq_below(rng, most);
	link_wire_cut(&x->w);
	return true;
}

#endif
