// SPDX-License-Identifier: GPL-2.0
/*
 * Arbiter fairness over many cycles, each policy: round robin and matrix
 * share equally among constant requesters and serve a newcomer within one
 * round; the T3E arbiter keeps a streaming winner until its packet ends
 * and still shares packets equally; Anton 2's inverse-weighted arbiter
 * grants in the inverse ratio of its weight registers (the paper's
 * example: weights 1 and 2 give input 0 twice the grants), per pattern.
 */
#include "router/arbiter.h"
#include "tap.h"

#include <string.h>

TAP_DEFINE;

static uint64_t storage[256];

static void make(struct arbiter *a, unsigned int kind, unsigned int n)
{
	memset(storage, 0, sizeof(storage));
	arb_attach(a, kind, n, 5, storage);
}

/* Grants per requester over @cycles with all of @req asking every cycle. */
static void run(struct arbiter *a, uint64_t req, uint64_t pat, unsigned int cycles,
		unsigned int *grants)
{
	for (unsigned int c = 0; c < cycles; c++) {
		int w = arb_pick(a, req);

		if (w < 0)
			return;
		grants[w]++;
		arb_update(a, w, req, pat, false);
	}
}

static void equal_share(unsigned int kind)
{
	struct arbiter a;
	unsigned int g[64] = { 0 }, min = ~0u, max = 0, n = 13;
	uint64_t req = 0;

	make(&a, kind, 40);
	for (unsigned int i = 0; i < n; i++)
		req |= 1ull << (i * 3);
	run(&a, req, 0, 13000, g);
	for (unsigned int i = 0; i < n; i++) {
		if (g[i * 3] < min)
			min = g[i * 3];
		if (g[i * 3] > max)
			max = g[i * 3];
	}
	tap_ok(min == 1000 && max == 1000,
	       "%s: 13 constant requesters share 13000 grants equally (min %u, max %u)",
	       router_arb_name(kind), min, max);
}

/* A requester that starts asking is served before anyone is served twice. */
static void newcomer(unsigned int kind)
{
	struct arbiter a;
	unsigned int g[64] = { 0 }, wait = 0;
	uint64_t req = 0xf0;

	make(&a, kind, 8);
	run(&a, req, 0, 37, g);
	req |= 1;
	for (;;) {
		int w = arb_pick(&a, req);

		arb_update(&a, w, req, 0, false);
		if (w == 0)
			break;
		if (++wait > 8)
			break;
	}
	tap_ok(wait <= 4, "%s: a new requester waits %u grants among 4 others (at most 4)",
	       router_arb_name(kind), wait);
}

static void t3e_hold(void)
{
	struct arbiter a;
	unsigned int pkts[4] = { 0 }, flits = 5, switches = 0;
	int held = -1, left = 0;

	make(&a, ARB_T3E, 4);
	for (unsigned int c = 0; c < 4000; c++) {
		int w = arb_pick(&a, 0xf);

		if (w != held) {
			if (left)
				switches++;	/* taken away mid-packet */
			held = w;
			left = (int)flits;
		}
		left--;
		arb_update(&a, w, 0xf, 0, left > 0);
		if (!left) {
			pkts[w]++;
			held = -1;
		}
	}
	tap_ok(!switches && pkts[0] == 200 && pkts[1] == 200 && pkts[2] == 200 && pkts[3] == 200,
	       "t3e: a winner keeps the grant for its whole 5-flit packet (%u interruptions); packets %u/%u/%u/%u",
	       switches, pkts[0], pkts[1], pkts[2], pkts[3]);
}

static void iwa_weights(void)
{
	struct arbiter a;
	unsigned int g[4] = { 0 };
	double r01, r23;

	make(&a, ARB_IWA, 4);
	/* pattern 0: weights 1 and 2 -> 2:1; pattern 1 (requesters 2, 3): 2 and 3 -> 3:2 */
	arb_set_weight(&a, 0, 0, 1);
	arb_set_weight(&a, 1, 0, 2);
	arb_set_weight(&a, 2, 1, 2);
	arb_set_weight(&a, 3, 1, 3);
	run(&a, 0x3, 0, 30000, g);
	r01 = (double)g[0] / g[1];
	run(&a, 0xc, 0xc, 30000, g);
	r23 = (double)g[2] / g[3];
	tap_ok(r01 > 1.99 && r01 < 2.01 && r23 > 1.49 && r23 < 1.51,
	       "iwa: grants in the inverse ratio of the weights: 1:2 -> %.3f (want 2), pattern 1 2:3 -> %.3f (want 1.5)",
	       r01, r23);
	arb_set_weight(&a, 0, 0, 200);
	tap_ok(arb_weight(&a, 1, 0) == 2 && arb_weight(&a, 3, 1) == 3 &&
	       arb_weight(&a, 0, 0) == (200 & 31),
	       "iwa: weight registers read back, 200 masked to IWA_BITS (5): %u",
	       arb_weight(&a, 0, 0));
}

int main(void)
{
	tap_plan(8);
	equal_share(ARB_RR);
	equal_share(ARB_MATRIX);
	equal_share(ARB_IWA);
	newcomer(ARB_RR);
	newcomer(ARB_MATRIX);
	t3e_hold();
	iwa_weights();
	return tap_exit_status();
}
