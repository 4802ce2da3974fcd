// SPDX-License-Identifier: GPL-2.0
/*
 * Lane error accounting and degradation (see lanes.h).
 */
#include "lanes.h"

#include <string.h>

#include <loom_hw/packet.h>

void lanes_reset(struct lanes *l, unsigned int n)
{
	memset(l, 0, sizeof(*l));
	l->n = n > LANES_MAX ? LANES_MAX : n;
}

bool lanes_error_on(struct lanes *l, unsigned int i, uint64_t now, uint32_t threshold,
		    uint32_t window)
{
	if (i >= l->n)
		return false;
	l->errors[i]++;
	if (!l->win_count[i] || now - l->win_start[i] >= window) {
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

bool lanes_error(struct lanes *l, uint32_t seq, uint64_t now, uint32_t threshold,
		 uint32_t window, unsigned int *lane)
{
	if (!l->n)
		return false;
	*lane = seq % l->n;
	return lanes_error_on(l, *lane, now, threshold, window);
}

#define PACER_MIN_BURST	((int64_t)2 * LOOM_FRAME_MAX * 8 * 1000)	/* millibits */
#define PACER_BURST_NS	4000000u				/* 4 ms of traffic */

static int64_t lane_pacer_burst(const struct lane_pacer *pc, unsigned int lanes)
{
	int64_t b = (int64_t)pc->lane_mbps * lanes * PACER_BURST_NS;

	return b > PACER_MIN_BURST ? b : PACER_MIN_BURST;
}

void lane_pacer_init(struct lane_pacer *pc, uint32_t lane_mbps, uint64_t now_ns)
{
	pc->lane_mbps = lane_mbps;
	pc->tokens = PACER_MIN_BURST;
	pc->last_ns = now_ns;
}

void lane_pacer_refill(struct lane_pacer *pc, unsigned int lanes, uint64_t now_ns)
{
	uint64_t dt = now_ns > pc->last_ns ? now_ns - pc->last_ns : 0;
	int64_t burst = lane_pacer_burst(pc, lanes ? lanes : 1);

	pc->last_ns = now_ns;
	if (!pc->lane_mbps)
		return;
	if (!lanes)
		lanes = 1;
	/* cap dt first: a long idle period must not overflow the product */
	if (dt > 10 * (uint64_t)PACER_BURST_NS)
		dt = 10 * (uint64_t)PACER_BURST_NS;
	pc->tokens += (int64_t)pc->lane_mbps * lanes * (int64_t)dt;
	if (pc->tokens > burst)
		pc->tokens = burst;
}

bool lane_pacer_may_send(const struct lane_pacer *pc)
{
	return !pc->lane_mbps || pc->tokens > 0;
}

void lane_pacer_charge(struct lane_pacer *pc, size_t bytes)
{
	if (pc->lane_mbps)
		pc->tokens -= (int64_t)bytes * 8 * 1000;
}

uint64_t lane_pacer_wait_ns(const struct lane_pacer *pc, unsigned int lanes)
{
	uint64_t rate;

	if (lane_pacer_may_send(pc))
		return 0;
	rate = (uint64_t)pc->lane_mbps * (lanes ? lanes : 1);
	/* tokens <= 0: one more token than the debt */
	return ((uint64_t)(-pc->tokens) + rate) / rate;
}
