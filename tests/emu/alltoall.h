/* SPDX-License-Identifier: GPL-2.0 */
/*
 * All-to-all put workload for native fabric tests: every card puts @len
 * bytes of its own pattern to every card (itself included) with SIGNAL
 * and REMOTE_CQE, then the completions, arrivals and data are checked.
 */
#ifndef LOOM_TESTS_ALLTOALL_H
#define LOOM_TESTS_ALLTOALL_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric.h"

struct alltoall {
	unsigned int local_ok, local_bad;	/* LOCAL completions: OK and 1 put each / other */
	unsigned int arrival_ok, arrival_bad;	/* ARRIVAL events: right / wrong or duplicate */
	bool data_ok;				/* every byte landed */
	uint64_t elapsed_ms;			/* first submit to last completion */
};

/*
 * Enable context 1 on the @n cards of @f (segment (n + 1) * @len), run the
 * workload and wait up to @timeout_ms.  Diagnostics on every mismatch.
 * Returns 0 when the setup worked (then *r holds the outcome), -1 if not.
 */
int alltoall_run(struct fabric *f, unsigned int n, uint32_t len, int timeout_ms,
		 struct alltoall *r);
/* Every put completed once OK, arrived once, byte-exact. */
bool alltoall_perfect(const struct alltoall *r, unsigned int n);

#endif
