/* SPDX-License-Identifier: GPL-2.0 */
/*
 * All-to-all workload for native fabric tests: every card puts its own
 * pattern to every card (itself included) with SIGNAL and REMOTE_CQE,
 * @rounds times per pair, in order (every card toward node 0 first, or
 * shifted: each toward the node k after it at step k) or (with a seed) in
 * a random order with random lengths; optionally every card then GETs every card's pattern.
 * Completions, arrivals and data are checked.
 */
#ifndef LOOM_TESTS_ALLTOALL_H
#define LOOM_TESTS_ALLTOALL_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric.h"

#define ALLTOALL_MAX_ROUNDS	16

struct alltoall_cfg {
	uint32_t len;		/* bytes per put and get (the most, with a seed) */
	unsigned int rounds;	/* puts per (source, destination) pair, 1..MAX_ROUNDS */
	uint64_t seed;		/* 0: destinations in order, every put @len bytes;
				 * else each card its own random destination order
				 * and put lengths 1..@len
				 */
	bool shifted;		/* without a seed: card i's k-th put goes to i + k
				 * (mod n), so that at each step every card sends
				 * the same distance away, all rings at once
				 */
	bool gets;		/* every card also GETs @len bytes from every card */
	int timeout_ms;		/* for the whole workload */
};

struct alltoall {
	unsigned int puts, gets;		/* operations issued */
	uint64_t put_bytes;			/* bytes of the puts */
	unsigned int local_ok, local_bad;	/* LOCAL completions: OK and 1 op each / other */
	unsigned int arrival_ok, arrival_bad;	/* ARRIVAL events: right / wrong or duplicate */
	bool data_ok;				/* every byte landed */
	uint64_t elapsed_ms;			/* first submit to last completion */
};

/*
 * Enable context 1 on the @n cards of @f, run the workload of @cfg and wait
 * up to cfg->timeout_ms, disable the contexts again (a next workload may
 * follow on the same fabric).  Diagnostics on every mismatch.  Returns 0 when
 * the setup worked (then *r holds the outcome), -1 if not.
 */
int alltoall_run_cfg(struct fabric *f, unsigned int n, const struct alltoall_cfg *cfg,
		     struct alltoall *r);
/* One round of @len-byte puts in order, no gets. */
int alltoall_run(struct fabric *f, unsigned int n, uint32_t len, int timeout_ms,
		 struct alltoall *r);
/* Every operation completed once OK, every put arrived once, byte-exact. */
bool alltoall_perfect(const struct alltoall *r, unsigned int n);

#endif
