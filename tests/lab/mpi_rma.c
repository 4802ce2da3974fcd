// SPDX-License-Identifier: GPL-2.0
/*
 * MPI one-sided communication over the loom libfabric provider (the tests
 * build it with mpicc and run it with osc rdma on the ofi BTL restricted to
 * "loom"): MPI_Put and MPI_Get in fence epochs (small and 1 MiB + odd
 * sizes, at odd displacements), MPI_Accumulate with MPI_SUM on 64-bit
 * integers from every rank into every window, and passive target: an
 * exclusive MPI_Win_lock around a read-modify-write that every rank does
 * on rank 0's counter (no update lost), and MPI_Fetch_and_op and
 * MPI_Compare_and_swap under MPI_Win_lock_all.  Every byte is checked;
 * each part prints "ok: PART" on rank 0 or "FAIL: PART: what was seen" on
 * the rank that saw it, and rank 0 ends with "PASSED: N ranks" or
 * "FAILED: N ranks".  Exit status 0 when all passed.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_verdict.h"

#define WIN_BYTES	((2u << 20) + 4096)	/* window per rank */
#define BIG		((1u << 20) + 13)

static unsigned char pattern(int from, int to, size_t i)
{
	return (unsigned char)(from * 131 + to * 31 + i * 13 + (i >> 8));
}

static int check_bytes(const char *part, const unsigned char *b, size_t n,
		       int from, int to)
{
	for (size_t i = 0; i < n; i++) {
		if (b[i] != pattern(from, to, i)) {
			printf("FAIL: %s: rank %d, %zu bytes from %d: byte %zu is %#x, expected %#x\n",
			       part, rank, n, from, i, b[i], pattern(from, to, i));
			return 1;
		}
	}
	return 0;
}

/* fence epochs: each rank puts into its right neighbour, gets from its left */
static void put_get(MPI_Win win, unsigned char *base)
{
	static const size_t sizes[] = { 1, 8, 4093, 65536, BIG };
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	unsigned char *src = malloc(BIG), *dst = malloc(BIG + 2);
	int bad = 0;

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t n = sizes[k], disp = 4096 + k * 7;

		for (size_t i = 0; i < n; i++)
			src[i] = pattern(rank, right, i);
		memset(base, 0, WIN_BYTES);
		MPI_Win_fence(0, win);
		MPI_Put(src, (int)n, MPI_BYTE, right, (MPI_Aint)disp, (int)n, MPI_BYTE, win);
		MPI_Win_fence(0, win);
		bad |= check_bytes("put", base + disp, n, left, rank);
		if (!bad && (base[disp - 1] || base[disp + n])) {
			printf("FAIL: put: rank %d: bytes around the %zu put were written\n", rank, n);
			bad = 1;
		}
		/* get back what the left neighbour's window now holds from its left */
		memset(dst, 0xee, n + 2);
		MPI_Get(dst + 1, (int)n, MPI_BYTE, left, (MPI_Aint)disp, (int)n, MPI_BYTE, win);
		MPI_Win_fence(0, win);
		bad |= check_bytes("get", dst + 1, n, (left + size - 1) % size, left);
		if (!bad && (dst[0] != 0xee || dst[n + 1] != 0xee)) {
			printf("FAIL: get: rank %d: bytes around the %zu get were written\n", rank, n);
			bad = 1;
		}
	}
	verdict("MPI_Put and MPI_Get, 1 B to 1 MiB + 13, fence", bad);
	free(src);
	free(dst);
}

/* every rank adds (rank + 1) * (j + 1) to element j of every window */
static void accumulate(MPI_Win win, int64_t *w)
{
	enum { N = 64 };
	int64_t add[N], want;
	int bad = 0;

	for (int j = 0; j < N; j++)
		add[j] = (int64_t)(rank + 1) * (j + 1);
	memset(w, 0, N * sizeof(*w));
	MPI_Win_fence(0, win);
	for (int t = 0; t < size; t++)
		MPI_Accumulate(add, N, MPI_INT64_T, t, 0, N, MPI_INT64_T, MPI_SUM, win);
	MPI_Win_fence(0, win);
	for (int j = 0; j < N && !bad; j++) {
		want = (int64_t)size * (size + 1) / 2 * (j + 1);
		if (w[j] != want) {
			printf("FAIL: accumulate: rank %d element %d is %lld, expected %lld\n",
			       rank, j, (long long)w[j], (long long)want);
			bad = 1;
		}
	}
	verdict("MPI_Accumulate MPI_SUM on 64-bit integers from every rank", bad);
}

/* passive target: exclusive lock around get-add-put, and atomics under lock_all */
static void passive(MPI_Win win, int64_t *w)
{
	enum { ROUNDS = 20 };
	int64_t v, one = 1, old, cmp, got;
	int bad = 0;

	w[0] = 0;
	w[1] = 0;
	w[2] = -1;
	MPI_Barrier(MPI_COMM_WORLD);
	for (int r = 0; r < ROUNDS; r++) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Get(&v, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, win);
		MPI_Win_flush(0, win);
		v++;
		MPI_Put(&v, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, win);
		MPI_Win_unlock(0, win);
	}
	MPI_Win_lock_all(0, win);
	for (int r = 0; r < ROUNDS; r++)
		MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, 1, MPI_SUM, win);
	/* the first rank to swap -1 for its number wins; the others see it */
	cmp = -1;
	v = rank;
	MPI_Compare_and_swap(&v, &cmp, &got, MPI_INT64_T, 0, 2, win);
	MPI_Win_flush_all(win);
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
		MPI_Win_unlock(0, win);
		if (w[0] != (int64_t)size * ROUNDS || w[1] != (int64_t)size * ROUNDS ||
		    w[2] < 0 || w[2] >= size) {
			printf("FAIL: passive: counter %lld, fetch-and-op sum %lld (both expected %d), cswap winner %lld\n",
			       (long long)w[0], (long long)w[1], size * ROUNDS, (long long)w[2]);
			bad = 1;
		}
	}
	verdict("passive target: exclusive lock, MPI_Fetch_and_op, MPI_Compare_and_swap", bad);
}

int main(int argc, char **argv)
{
	unsigned char *base;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Win_allocate(WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
	put_get(win, base);
	MPI_Win_free(&win);
	MPI_Win_allocate(4096, 8, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
	accumulate(win, (int64_t *)base);
	passive(win, (int64_t *)base);
	MPI_Win_free(&win);
	if (rank == 0)
		printf("%s: %d ranks\n", failed ? "FAILED" : "PASSED", size);
	MPI_Finalize();
	return failed;
}
