// SPDX-License-Identifier: GPL-2.0
/*
 * loom_osu: MPI micro-benchmarks printed in the OSU micro-benchmark layout
 * (osu_latency, osu_bw, osu_bibw, osu_allreduce, osu_barrier), so that
 * scripts written for OSU's output read them.  Run it under mpirun with
 * the transport to measure, e.g. over loom:
 *   mpirun --mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include loom \
 *          -np 2 loom_osu latency
 * latency, bw and bibw use ranks 0 and 1; allreduce and barrier every rank.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WINDOW	64

static int rank, size;
static long iters = 100, skip = 10;
static size_t max_size = 1 << 20;

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loom_osu [OPTIONS] latency|bw|bibw|allreduce|barrier\n"
		"MPI benchmarks in the OSU micro-benchmark layout.\n"
		"  -m BYTES   largest message (default 1048576)\n"
		"  -i N       iterations per size (default 100; bw/bibw: windows of %d)\n"
		"  -x N       warm-up iterations (default 10)\n"
		"  -h         this text\n"
		"Exit status: 0 success, 2 usage error.\n", WINDOW);
}

static double latency_one(char *s, char *r, size_t n)
{
	double t0 = 0;

	MPI_Barrier(MPI_COMM_WORLD);
	for (long i = 0; i < iters + skip; i++) {
		if (i == skip)
			t0 = MPI_Wtime();
		if (rank == 0) {
			MPI_Send(s, (int)n, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
			MPI_Recv(r, (int)n, MPI_CHAR, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(r, (int)n, MPI_CHAR, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(s, (int)n, MPI_CHAR, 0, 1, MPI_COMM_WORLD);
		}
	}
	return (MPI_Wtime() - t0) * 1e6 / (2.0 * iters);
}

static double bw_one(char *s, char *r, size_t n, int bidir)
{
	MPI_Request req[2 * WINDOW];
	double t0 = 0;
	char ack;

	MPI_Barrier(MPI_COMM_WORLD);
	for (long i = 0; i < iters + skip; i++) {
		int nr = 0;

		if (i == skip)
			t0 = MPI_Wtime();
		if (rank > 1)
			continue;
		if (rank == 0 || bidir)
			for (int w = 0; w < WINDOW; w++)
				MPI_Isend(s, (int)n, MPI_CHAR, 1 - rank, 100,
					  MPI_COMM_WORLD, &req[nr++]);
		if (rank == 1 || bidir)
			for (int w = 0; w < WINDOW; w++)
				MPI_Irecv(r, (int)n, MPI_CHAR, 1 - rank, 100,
					  MPI_COMM_WORLD, &req[nr++]);
		MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
		if (!bidir) {
			if (rank == 0)
				MPI_Recv(&ack, 1, MPI_CHAR, 1, 101, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			else
				MPI_Send(&ack, 1, MPI_CHAR, 0, 101, MPI_COMM_WORLD);
		}
	}
	return (double)n * WINDOW * iters * (bidir ? 2 : 1) / ((MPI_Wtime() - t0) * 1e6);
}

static double allreduce_one(float *s, float *r, size_t n)
{
	double t0 = 0, t, sum;

	MPI_Barrier(MPI_COMM_WORLD);
	for (long i = 0; i < iters + skip; i++) {
		if (i == skip)
			t0 = MPI_Wtime();
		MPI_Allreduce(s, r, (int)(n / sizeof(float)), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
	}
	t = (MPI_Wtime() - t0) * 1e6 / iters;
	MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
	return sum / size;
}

int main(int argc, char **argv)
{
	const char *what;
	char *s, *r;
	int i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-h")) {
			if (rank == 0)
				usage(stdout);
			MPI_Finalize();
			return 0;
		}
		if (i + 1 >= argc)
			break;
		if (!strcmp(argv[i], "-m"))
			max_size = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-i"))
			iters = strtol(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "-x"))
			skip = strtol(argv[++i], NULL, 0);
		else
			break;
	}
	what = i == argc - 1 ? argv[i] : NULL;
	if (!what || iters < 1 || skip < 0 || max_size < 1 || max_size > (1u << 30) ||
	    (strcmp(what, "latency") && strcmp(what, "bw") && strcmp(what, "bibw") &&
	     strcmp(what, "allreduce") && strcmp(what, "barrier")) ||
	    (size < 2 && strcmp(what, "allreduce") && strcmp(what, "barrier"))) {
		if (rank == 0) {
			fprintf(stderr, "loom_osu: %s\n", !what ? "which benchmark? (latency, bw, bibw, allreduce, barrier)" :
				size < 2 ? "needs at least 2 ranks" : "bad option or benchmark");
			usage(stderr);
		}
		MPI_Finalize();
		return 2;
	}
	/* as OSU does, a window's messages share one buffer */
	s = malloc(max_size);
	r = malloc(max_size);
	memset(s, 'a', max_size);
	memset(r, 'b', max_size);
	if (!strcmp(what, "latency")) {
		if (rank == 0)
			printf("# OSU MPI Latency Test (loom_osu)\n# Size          Latency (us)\n");
		for (size_t n = 0; n <= max_size; n = n ? n * 2 : 1) {
			double us = latency_one(s, r, n);

			if (rank == 0)
				printf("%-10zu%18.2f\n", n, us);
			fflush(stdout);
		}
	} else if (!strcmp(what, "bw") || !strcmp(what, "bibw")) {
		int bidir = !strcmp(what, "bibw");

		if (rank == 0)
			printf("# OSU MPI%s Bandwidth Test (loom_osu)\n# Size      Bandwidth (MB/s)\n",
			       bidir ? " Bi-Directional" : "");
		for (size_t n = 1; n <= max_size; n *= 2) {
			double mbs = bw_one(s, r, n, bidir);

			if (rank == 0)
				printf("%-10zu%18.2f\n", n, mbs);
			fflush(stdout);
		}
	} else if (!strcmp(what, "allreduce")) {
		if (rank == 0)
			printf("# OSU MPI Allreduce Latency Test (loom_osu)\n# Size       Avg Latency(us)\n");
		for (size_t n = 4; n <= max_size; n *= 2) {
			double us = allreduce_one((float *)s, (float *)r, n);

			if (rank == 0)
				printf("%-10zu%18.2f\n", n, us);
			fflush(stdout);
		}
	} else {
		double t0 = 0, t, sum;

		for (long k = 0; k < iters + skip; k++) {
			if (k == skip)
				t0 = MPI_Wtime();
			MPI_Barrier(MPI_COMM_WORLD);
		}
		t = (MPI_Wtime() - t0) * 1e6 / iters;
		MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
		if (rank == 0)
			printf("# OSU MPI Barrier Latency Test (loom_osu)\n# Avg Latency(us)\n%18.2f\n",
			       sum / size);
	}
	free(s);
	free(r);
	MPI_Finalize();
	return 0;
}
