/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The lab's MPI test programs: this rank, the job's size, whether a part
 * failed, and the verdict of one part agreed by every rank ("ok: PART" or
 * "FAIL: PART" on rank 0).
 */
#ifndef MPI_VERDICT_H
#define MPI_VERDICT_H

#include <mpi.h>
#include <stdio.h>

static int rank, size, failed;

static void verdict(const char *part, int bad)
{
	int any = 0;

	MPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (any)
		failed = 1;
	if (rank == 0)
		printf("%s: %s\n", any ? "FAIL" : "ok", part);
	fflush(stdout);
}

#endif /* MPI_VERDICT_H */
