// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The endpoints bound to a completion queue or a counter: reading either
 * makes progress on them, and blocking reads sleep on their contexts in
 * slices, so that other threads of the domain get the lock in between.
 */
#include <time.h>

#include "lofi.h"

int64_t lofi_now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000ll + t.tv_nsec / 1000000;
}

/* bind @ep; a new binding counts in *@refs (the owner's references) */
int lofi_epset_add(struct lofi_epset *set, int *refs, struct lofi_ep *ep)
{
	int i;

	for (i = 0; i < set->n; i++)
		if (set->eps[i] == ep)
			return 0;
	if (set->n == LOFI_CQ_MAX_EPS)
		return -FI_ENOSPC;
	set->eps[set->n++] = ep;
	(*refs)++;
	return 0;
}

/* unbind @ep, dropping its reference in *@refs */
void lofi_epset_del(struct lofi_epset *set, int *refs, struct lofi_ep *ep)
{
	int i;

	for (i = 0; i < set->n; i++) {
		if (set->eps[i] == ep) {
			set->eps[i] = set->eps[--set->n];
			(*refs)--;
			return;
		}
	}
}

void lofi_epset_progress(struct lofi_epset *set)
{
	int i;

	for (i = 0; i < set->n; i++)
		lofi_ep_progress(set->eps[i]);
}

/* sleep on the endpoints' contexts for about @slice_ms; the lock is held */
int lofi_epset_wait(struct lofi_epset *set, int slice_ms)
{
	int i, per = set->n > 1 ? slice_ms / set->n : slice_ms;

	if (per < 1)
		per = 1;
	for (i = 0; i < set->n; i++) {
		int ret = lofi_ep_wait(set->eps[i], per);

		if (ret && ret != -FI_ETIMEDOUT)
			return ret;
	}
	return 0;
}
