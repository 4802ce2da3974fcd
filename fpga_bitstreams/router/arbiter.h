/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Arbiters: pick one of up to 64 requesters.  One interface, several
 * policies (ARB_* in params.h):
 *
 *  ARB_RR      round robin.  Register: ptr (the requester with priority).
 *  ARB_MATRIX  matrix arbiter (least recently granted wins).  Registers:
 *              the n x n priority matrix, kept as column words: col[i]
 *              bit j set means j beats i.
 *  ARB_T3E     the T3E core arbiter's rule: round robin, and the winner
 *              keeps the grant while it keeps requesting and the caller
 *              says it holds (its packet streams on: no bubble, not
 *              complete, not blocked).  Registers: ptr, held.
 *  ARB_IWA     Anton 2's inverse-weighted arbiter.  Registers: accum[i]
 *              (M+1 bits), weight[i][pattern] (M bits, 2 patterns), ptr
 *              for round robin within a priority level.  Priority of i
 *              = NOT accum[i][M]; a grant adds weight[i][pattern] to
 *              accum[i]; a grant to a low-priority requester clears every
 *              MSB and zeroes the high-priority accumulators.
 *
 * arb_pick() is the combinational part (reads registers only);
 * arb_update() is the clock edge after a grant.  Adding a policy: a new
 * ARB_* value in params.h (and its name in router_arb_name), a case in
 * both functions, its registers in struct arbiter (allocated in
 * arb_attach), a fairness test in tests/unit/test_router_arbiter.c.
 */
#ifndef LOOM_ROUTER_ARBITER_H
#define LOOM_ROUTER_ARBITER_H

#include <stdbool.h>
#include <stdint.h>

#include "params.h"

#define ARB_PATTERNS	2

struct arbiter {
	uint64_t prio;		/* RR, T3E, IWA: the round-robin pointer, as the mask of
				 * the requesters at or after it (~0: requester 0) */
	int32_t held;		/* T3E: requester holding the grant, -1 none */
	uint8_t kind;		/* ARB_* */
	uint8_t n;		/* requesters, <= 64 */
	uint8_t m_bits;		/* IWA: weight bits M */
	uint64_t *col;		/* MATRIX: n words */
	uint16_t *accum;	/* IWA: n accumulators */
	uint8_t *weight;	/* IWA: n x ARB_PATTERNS inverse weights */
};

/*
 * Words of storage (uint64_t) arbiter @kind over @n requesters needs
 * beyond struct arbiter; the router allocates them once.
 */
unsigned int arb_storage_words(unsigned int kind, unsigned int n);
/* Initialise over @storage (arb_storage_words() words, zeroed by the caller). */
void arb_attach(struct arbiter *a, unsigned int kind, unsigned int n, unsigned int m_bits,
		uint64_t *storage);

/*
 * Grant among @req (bit i = requester i asks); @pat bit i = requester i's
 * packet is of pattern 1 (IWA only).  Returns the winner or -1 if @req is 0.
 */
int arb_pick_policy(const struct arbiter *a, uint64_t req);

static inline int arb_pick(const struct arbiter *a, uint64_t req)
{
	uint64_t hi;

	if (a->kind != ARB_RR)
		return arb_pick_policy(a, req);
	if (!req)
		return -1;
	hi = req & a->prio;
	return __builtin_ctzll(hi ? hi : req);
}

/*
 * The edge after granting @winner among @req: @pat as for the pick;
 * @hold: T3E only, the winner keeps the grant next cycle.
 */
void arb_update_policy(struct arbiter *a, int winner, uint64_t req, uint64_t pat, bool hold);

static inline void arb_update(struct arbiter *a, int winner, uint64_t req, uint64_t pat,
			      bool hold)
{
	if (a->kind != ARB_RR) {
		arb_update_policy(a, winner, req, pat, hold);
		return;
	}
	/* the pointer moves past the winner (requesters beyond n never ask) */
	if (winner >= 0)
		a->prio = ~1ull << winner;
}

/* IWA weight register of requester @i for pattern @pattern (masked to M bits). */
void arb_set_weight(struct arbiter *a, unsigned int i, unsigned int pattern, unsigned int w);
unsigned int arb_weight(const struct arbiter *a, unsigned int i, unsigned int pattern);

#endif
