// SPDX-License-Identifier: GPL-2.0
/*
 * Lane error accounting and degradation (see lanes.h).
 */
#include "lanes.h"

#include <string.h>

void lanes_reset(struct lanes *l, unsigned int n)
{
	memset(l, 0, sizeof(*l));
	l->n = n > LANES_MAX ? LANES_MAX : n;
}

bool lanes_error(struct lanes *l, uint32_t seq, uint64_t now, uint32_t threshold,
		 uint32_t window_ms, unsigned int *lane)
{
	unsigned int i;

	if (!l->n)
		return false;
	i = seq % l->n;
	*lane = i;
	l->errors[i]++;
	if (!l->win_count[i] || now - l->win_start[i] >= window_ms) {
		l->win_start[i] = now;
		l->win_count[i] = 0;
	}
	l->win_count[i]++;
	if (!threshold || l->win_count[i] < threshold || l->n == 1)
		return false;
	/* drop the lane: the link runs on half its lanes, windows restart */
	l->n /= 2;
	l->drops++;
	memset(l->win_count, 0, sizeof(l->win_count));
	return true;
}
