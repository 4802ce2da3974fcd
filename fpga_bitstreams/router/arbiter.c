// SPDX-License-Identifier: GPL-2.0
/*
 * Arbiter policies (see arbiter.h).
 */
#include "arbiter.h"

static inline uint64_t arb_all(unsigned int n)
{
	return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* Round robin among @req from the pointer @prio (the mask of requesters at or after it). */
static inline int rr_pick(uint64_t req, uint64_t prio)
{
	uint64_t hi = req & prio;

	if (!req)
		return -1;
	return __builtin_ctzll(hi ? hi : req);
}

unsigned int arb_storage_words(unsigned int kind, unsigned int n)
{
	switch (kind) {
	case ARB_MATRIX:
		return n;
	case ARB_IWA:	/* accumulators (16 bits) and weights (8 bits x 2) */
		return (n * 2 + n * ARB_PATTERNS + 7) / 8;
	}
	return 0;
}

void arb_attach(struct arbiter *a, unsigned int kind, unsigned int n, unsigned int m_bits,
		uint64_t *storage)
{
	a->kind = (uint8_t)kind;
	a->n = (uint8_t)n;
	a->m_bits = (uint8_t)m_bits;
	a->prio = ~0ull;
	a->held = -1;
	a->col = NULL;
	a->accum = NULL;
	a->weight = NULL;
	if (kind == ARB_MATRIX) {
		a->col = storage;
		/* reset: lower index wins (j beats i for every j < i) */
		for (unsigned int i = 0; i < n; i++)
			a->col[i] = arb_all(i);
	} else if (kind == ARB_IWA) {
		a->accum = (uint16_t *)(void *)storage;
		a->weight = (uint8_t *)(void *)(a->accum + n);
		for (unsigned int i = 0; i < n * ARB_PATTERNS; i++)
			a->weight[i] = 1;
	}
}

int arb_pick_policy(const struct arbiter *a, uint64_t req)
{
	uint64_t hi;

	if (!req)
		return -1;
	switch (a->kind) {
	case ARB_MATRIX:
		for (uint64_t m = req; m; m &= m - 1) {
			unsigned int i = (unsigned int)__builtin_ctzll(m);

			if (!(a->col[i] & req))
				return (int)i;
		}
		return -1;	/* cannot happen: the matrix is a total order */
	case ARB_T3E:
		if (a->held >= 0 && (req >> a->held & 1))
			return a->held;
		return rr_pick(req, a->prio);
	case ARB_IWA:
		hi = 0;
		for (uint64_t m = req; m; m &= m - 1) {
			unsigned int i = (unsigned int)__builtin_ctzll(m);

			if (!(a->accum[i] >> a->m_bits & 1))
				hi |= 1ull << i;
		}
		return rr_pick(hi ? hi : req, a->prio);
	}
	return rr_pick(req, a->prio);
}

void arb_update_policy(struct arbiter *a, int winner, uint64_t req, uint64_t pat, bool hold)
{
	unsigned int w = (unsigned int)winner, n = a->n;

	(void)req;
	if (winner < 0)
		return;
	switch (a->kind) {
	case ARB_MATRIX:
		for (unsigned int i = 0; i < n; i++)
			a->col[i] &= ~(1ull << w);
		a->col[w] = arb_all(n) & ~(1ull << w);
		return;
	case ARB_T3E:
		if (hold) {
			a->held = (int32_t)w;
			return;
		}
		a->held = -1;
		break;
	case ARB_IWA: {
		uint16_t msb = (uint16_t)(1u << a->m_bits), lo = (uint16_t)(msb - 1);
		bool low_grant = (a->accum[w] & msb) != 0;
		unsigned int p = (unsigned int)(pat >> w & 1);

		if (low_grant)
			for (unsigned int i = 0; i < n; i++)
				a->accum[i] = (a->accum[i] & msb) ? (uint16_t)(a->accum[i] & lo) : 0;
		a->accum[w] = (uint16_t)((a->accum[w] & lo) + a->weight[w * ARB_PATTERNS + p]);
		break;
	}
	}
	a->prio = ~1ull << w;
}

void arb_set_weight(struct arbiter *a, unsigned int i, unsigned int pattern, unsigned int w)
{
	if (a->kind != ARB_IWA || i >= a->n || pattern >= ARB_PATTERNS)
		return;
	a->weight[i * ARB_PATTERNS + pattern] = (uint8_t)(w & ((1u << a->m_bits) - 1));
}

unsigned int arb_weight(const struct arbiter *a, unsigned int i, unsigned int pattern)
{
	if (a->kind != ARB_IWA || i >= a->n || pattern >= ARB_PATTERNS)
		return 0;
	return a->weight[i * ARB_PATTERNS + pattern];
}
