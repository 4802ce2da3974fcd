// SPDX-License-Identifier: GPL-2.0
/*
 * An MPI job across lab hosts (test_lab_cluster.sh builds it with mpicc):
 * every rank prints "rank R of N on HOST"; rank 0 gathers every rank's
 * host name and prints them in rank order, after a ring exchange and an
 * allreduce have crossed the network between the hosts.  With --hold S
 * every rank then prints "rank R holding" and sleeps S seconds inside
 * the job (to be killed), before MPI_Finalize.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME_LEN 64

int main(int argc, char **argv)
{
	char host[NAME_LEN] = "", *all = NULL;
	int rank, size, left, from = -1, sum = 0, hold = 0, bad = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (argc == 3 && !strcmp(argv[1], "--hold"))
		hold = atoi(argv[2]);
	gethostname(host, sizeof(host) - 1);
	printf("rank %d of %d on %s\n", rank, size, host);
	fflush(stdout);

	/* each rank sends its number to the right and hears from the left */
	left = (rank + size - 1) % size;
	MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 7, &from, 1, MPI_INT, left, 7,
		     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (from != left) {
		fprintf(stderr, "rank %d: ring: got %d from rank %d\n", rank, from, left);
		bad = 1;
	}
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (sum != size * (size - 1) / 2) {
		fprintf(stderr, "rank %d: allreduce: sum %d, expected %d\n", rank, sum,
			size * (size - 1) / 2);
		bad = 1;
	}
	if (rank == 0)
		all = calloc((size_t)size, NAME_LEN);
	MPI_Gather(host, NAME_LEN, MPI_CHAR, all, NAME_LEN, MPI_CHAR, 0, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (rank == 0) {
		for (int r = 0; r < size; r++)
			printf("gathered: rank %d on %s\n", r, all + (size_t)r * NAME_LEN);
		printf("%s: ring and allreduce across %d ranks\n", bad ? "FAILED" : "ok", size);
		free(all);
	}
	if (hold) {
		printf("rank %d holding\n", rank);
		fflush(stdout);
		sleep((unsigned int)hold);
	}
	MPI_Finalize();
	return bad;
}
