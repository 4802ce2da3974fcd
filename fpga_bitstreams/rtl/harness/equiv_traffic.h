/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A phase of traffic for the unit harness's C link pairs: each end's
 * router sends none, a few or a stream of packets of one size on a random
 * set of VCs, over a wire of one of five bit error rates.
 */
#ifndef LOOM_RTL_EQUIV_TRAFFIC_H
#define LOOM_RTL_EQUIV_TRAFFIC_H

#include "equiv_draw.h"
#include "link/link_wire.h"
#include "link_harness.h"

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

#endif
