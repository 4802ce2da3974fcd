/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm's programming plans in the engine tests: cards with identity
 * logical ids, and the two words a plan writes into one routing entry.
 */
#ifndef TEST_FM_PLAN_H
#define TEST_FM_PLAN_H

#include <stdint.h>
#include <string.h>

#include "program.h"

/* Cards 0..@n-1: logical id = node id, @ports network ports, @entries routing entries. */
static inline void fm_test_cards(struct fm_card *card, int n, uint32_t ports, uint32_t entries)
{
	memset(card, 0, (size_t)n * sizeof(*card));
	for (int i = 0; i < n; i++) {
		card[i].node = (uint32_t)i;
		card[i].logical = (uint32_t)i;
		card[i].router = 0x1000;
		card[i].n_ports = ports;
		card[i].rt_entries = entries;
	}
}

/* Words 0 and 1 of card @i's entry for logical @dest in its plan: 0, or -1 with @err. */
static inline int fm_test_entry(const struct fm_card *card, int n, const struct fm_routes *r,
				int i, int dest, uint32_t *w0, uint32_t *w1, char *err, size_t len)
{
	struct fm_plan plan;

	*w0 = *w1 = 0;
	if (plan_build_cards(card, n, r, i, i + 1, &plan, err, len))
		return -1;
	for (int k = 0; k < plan.n; k++) {
		if (plan.w[k].dest != dest)
			continue;
		if (plan.w[k].kind == FM_W_RT_ENTRY)
			*w0 = plan.w[k].value;
		if (plan.w[k].kind == FM_W_RT_PHYS)
			*w1 = plan.w[k].value;
	}
	plan_free(&plan);
	return 0;
}

#endif
