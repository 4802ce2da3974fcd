// SPDX-License-Identifier: GPL-2.0
/*
 * MPI over the loom libfabric provider (test_lab_mpi_ofi.sh builds it with
 * mpicc and runs it with the ofi MTL restricted to "loom"): point-to-point
 * blocking and non-blocking, any-source, tags received out of order
 * (unexpected messages), sizes from 0 bytes to 4 MiB across the eager
 * fragment boundaries, 2000 small messages in flight to one peer (credit
 * flow), 4 threads per rank sending and receiving at once
 * (MPI_THREAD_MULTIPLE, when the library grants it), and barrier, bcast,
 * allreduce and alltoall.  Every
 * byte is checked; each part prints "ok: PART" on rank 0 or "FAIL: PART:
 * what was seen" on the rank that saw it.  Exit status 0 when all passed.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_verdict.h"

static unsigned char pattern(int from, int to, int tag, size_t i)
{
	return (unsigned char)(from * 131 + to * 31 + tag * 7 + i * 13 + (i >> 8));
}

static void fill(unsigned char *b, size_t n, int from, int to, int tag)
{
	for (size_t i = 0; i < n; i++)
		b[i] = pattern(from, to, tag, i);
}

/* 0 when every byte is right, else reports the first wrong one */
static int check(const char *part, const unsigned char *b, size_t n, int from,
		 int to, int tag)
{
	for (size_t i = 0; i < n; i++) {
		if (b[i] != pattern(from, to, tag, i)) {
			printf("FAIL: %s: rank %d from %d tag %d, %zu bytes: byte %zu is %#x, expected %#x\n",
			       part, rank, from, tag, n, i, b[i], pattern(from, to, tag, i));
			return 1;
		}
	}
	return 0;
}

/* blocking ring: every size, to the right, from the left */
static void ring(void)
{
	static const size_t sizes[] = { 0, 1, 8, 200, 16336, 16337, 65536,
					100000, 1 << 20, 4 << 20 };
	int right = (rank + 1) % size, left = (rank + size - 1) % size, bad = 0;
	unsigned char *s = malloc(4 << 20), *r = malloc(4 << 20);

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		int tag = (int)k;
		MPI_Status st;
		int count;

		fill(s, sizes[k], rank, right, tag);
		memset(r, 0xee, sizes[k]);
		MPI_Sendrecv(s, (int)sizes[k], MPI_BYTE, right, tag, r, (int)sizes[k],
			     MPI_BYTE, left, tag, MPI_COMM_WORLD, &st);
		MPI_Get_count(&st, MPI_BYTE, &count);
		if (count != (int)sizes[k] || st.MPI_SOURCE != left) {
			printf("FAIL: ring: rank %d got %d bytes from %d, expected %zu from %d\n",
			       rank, count, st.MPI_SOURCE, sizes[k], left);
			bad = 1;
		}
		bad |= check("ring", r, sizes[k], left, rank, tag);
	}
	free(s);
	free(r);
	verdict("blocking ring, 0 B to 4 MiB, every byte", bad);
}

/*
 * Every rank sends to every rank (itself too) three messages with tags
 * 3, 2, 1 in that order; receives are posted for tags 1, 2, 3 after a
 * barrier, so most messages arrive unexpected and are matched out of
 * order.  Two messages of the same tag and source keep their order.
 */
static void tags_unexpected(void)
{
	const size_t n = 30000;
	unsigned char *s = malloc(n * size * 4), *r = malloc(n * size * 4);
	MPI_Request *req = malloc(sizeof(*req) * size * 8);
	int bad = 0, nr = 0;

	for (int p = 0; p < size; p++)
		for (int t = 3; t >= 1; t--) {
			unsigned char *b = s + (p * 4 + t) * n;

			fill(b, n, rank, p, t);
			MPI_Isend(b, (int)n, MPI_BYTE, p, t, MPI_COMM_WORLD, &req[nr++]);
		}
	/* same tag twice: the first sent is the first received */
	for (int p = 0; p < size; p++) {
		unsigned char *b = s + (p * 4) * n;

		fill(b, n, rank, p, 9);
		MPI_Isend(b, (int)n / 2, MPI_BYTE, p, 9, MPI_COMM_WORLD, &req[nr++]);
		MPI_Isend(b + n / 2, (int)n / 2, MPI_BYTE, p, 9, MPI_COMM_WORLD, &req[nr++]);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	for (int p = 0; p < size; p++) {
		for (int t = 1; t <= 3; t++) {
			unsigned char *b = r + (p * 4 + t) * n;

			MPI_Recv(b, (int)n, MPI_BYTE, p, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			bad |= check("tags", b, n, p, rank, t);
		}
		MPI_Recv(r + p * 4 * n, (int)n / 2, MPI_BYTE, p, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(r + p * 4 * n + n / 2, (int)n / 2, MPI_BYTE, p, 9, MPI_COMM_WORLD,
			 MPI_STATUS_IGNORE);
		bad |= check("same-tag order", r + p * 4 * n, n, p, rank, 9);
	}
	MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
	free(s);
	free(r);
	free(req);
	verdict("tags out of order and unexpected messages, same-tag order kept", bad);
}

/* rank 0 receives from MPI_ANY_SOURCE with MPI_ANY_TAG; the status says who */
static void any_source(void)
{
	const size_t n = 5000;
	unsigned char *b = malloc(n);
	int bad = 0;

	if (rank == 0) {
		int seen[64] = { 0 };

		for (int k = 0; k < (size - 1) * 2; k++) {
			MPI_Status st;
			int count;

			MPI_Recv(b, (int)n, MPI_BYTE, MPI_ANY_SOURCE, MPI_ANY_TAG,
				 MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_BYTE, &count);
			if (st.MPI_SOURCE < 1 || st.MPI_SOURCE >= size || count != (int)n ||
			    st.MPI_TAG != 100 + seen[st.MPI_SOURCE]) {
				printf("FAIL: any-source: source %d tag %d count %d\n",
				       st.MPI_SOURCE, st.MPI_TAG, count);
				bad = 1;
				continue;
			}
			bad |= check("any-source", b, n, st.MPI_SOURCE, 0, st.MPI_TAG);
			seen[st.MPI_SOURCE]++;
		}
	} else {
		for (int t = 100; t < 102; t++) {
			fill(b, n, rank, 0, t);
			MPI_Send(b, (int)n, MPI_BYTE, 0, t, MPI_COMM_WORLD);
		}
	}
	free(b);
	verdict("any-source and any-tag receives report source and tag", bad);
}

/* a message longer than the receive: MPI_ERR_TRUNCATE, then all goes on */
static void truncation(void)
{
	unsigned char b[64];
	int bad = 0;

	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	if (rank == 1 % size) {
		fill(b, sizeof(b), rank, 0, 55);
		MPI_Send(b, sizeof(b), MPI_BYTE, 0, 55, MPI_COMM_WORLD);
	}
	if (rank == 0) {
		int err = MPI_Recv(b, 16, MPI_BYTE, 1 % size, 55, MPI_COMM_WORLD,
				   MPI_STATUS_IGNORE), cls = 0;

		MPI_Error_class(err, &cls);
		if (cls != MPI_ERR_TRUNCATE) {
			printf("FAIL: truncation: error class %d, expected MPI_ERR_TRUNCATE (%d)\n",
			       cls, MPI_ERR_TRUNCATE);
			bad = 1;
		}
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	verdict("a message longer than its receive is MPI_ERR_TRUNCATE", bad);
}

/* 2000 8-byte messages to the right before the right posts a receive */
static void flood(void)
{
	enum { N = 2000 };
	int right = (rank + 1) % size, left = (rank + size - 1) % size, bad = 0;
	long *s = malloc(sizeof(long) * N), *r = malloc(sizeof(long) * N);
	MPI_Request *req = malloc(sizeof(*req) * N);

	for (int i = 0; i < N; i++) {
		s[i] = (long)rank << 32 | i;
		MPI_Isend(&s[i], 1, MPI_LONG, right, 7, MPI_COMM_WORLD, &req[i]);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	for (int i = 0; i < N; i++)
		MPI_Recv(&r[i], 1, MPI_LONG, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Waitall(N, req, MPI_STATUSES_IGNORE);
	for (int i = 0; i < N && !bad; i++)
		if (r[i] != ((long)left << 32 | i)) {
			printf("FAIL: flood: rank %d message %d from %d is %#lx, expected %#lx\n",
			       rank, i, left, r[i], (long)left << 32 | i);
			bad = 1;
		}
	free(s);
	free(r);
	free(req);
	verdict("2000 small messages in flight to one peer arrive in order", bad);
}

struct thread_arg {
	int id, bad;
};

/* thread ID exchanges 100 messages of its own tag with both neighbours */
static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	int right = (rank + 1) % size, left = (rank + size - 1) % size;
	unsigned char s[3000], r[3000];

	for (int k = 0; k < 100; k++) {
		int tag = 1000 + a->id * 1000 + k;

		fill(s, sizeof(s), rank, right, tag);
		MPI_Sendrecv(s, sizeof(s), MPI_BYTE, right, tag, r, sizeof(r), MPI_BYTE,
			     left, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (check("threads", r, sizeof(r), left, rank, tag)) {
			a->bad = 1;
			break;
		}
	}
	return NULL;
}

static void threads(int provided)
{
	struct thread_arg a[4];
	pthread_t t[4];
	int bad = 0;

	if (provided < MPI_THREAD_MULTIPLE) {
		if (rank == 0)
			printf("skip: threads (the library grants thread level %d only)\n", provided);
		return;
	}
	for (int i = 0; i < 4; i++) {
		a[i] = (struct thread_arg){ .id = i };
		pthread_create(&t[i], NULL, thread_main, &a[i]);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		bad |= a[i].bad;
	}
	verdict("4 threads per rank send and receive at once (MPI_THREAD_MULTIPLE)", bad);
}

static void collectives(void)
{
	const int n = 100000;
	long *v = malloc(sizeof(long) * n), *sum = malloc(sizeof(long) * n);
	unsigned char *bc = malloc(1 << 20);
	int *a2a_s = malloc(sizeof(int) * 1000 * size), *a2a_r = malloc(sizeof(int) * 1000 * size);
	int bad = 0;

	for (int it = 0; it < 20; it++)
		MPI_Barrier(MPI_COMM_WORLD);
	for (int root = 0; root < size; root++) {
		if (rank == root)
			fill(bc, 1 << 20, root, 0, 77);
		else
			memset(bc, 0, 1 << 20);
		MPI_Bcast(bc, 1 << 20, MPI_BYTE, root, MPI_COMM_WORLD);
		bad |= check("bcast", bc, 1 << 20, root, 0, 77);
	}
	for (int i = 0; i < n; i++)
		v[i] = (long)rank * n + i;
	MPI_Allreduce(v, sum, n, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
	for (int i = 0; i < n && !bad; i++) {
		long want = (long)n * size * (size - 1) / 2 + (long)i * size;

		if (sum[i] != want) {
			printf("FAIL: allreduce: rank %d element %d is %ld, expected %ld\n",
			       rank, i, sum[i], want);
			bad = 1;
		}
	}
	for (int p = 0; p < size; p++)
		for (int i = 0; i < 1000; i++)
			a2a_s[p * 1000 + i] = rank * 1000000 + p * 1000 + i;
	MPI_Alltoall(a2a_s, 1000, MPI_INT, a2a_r, 1000, MPI_INT, MPI_COMM_WORLD);
	for (int p = 0; p < size && !bad; p++)
		for (int i = 0; i < 1000; i++)
			if (a2a_r[p * 1000 + i] != p * 1000000 + rank * 1000 + i) {
				printf("FAIL: alltoall: rank %d from %d element %d is %d\n",
				       rank, p, i, a2a_r[p * 1000 + i]);
				bad = 1;
				break;
			}
	free(v);
	free(sum);
	free(bc);
	free(a2a_s);
	free(a2a_r);
	verdict("barrier x20, bcast 1 MiB from every root, allreduce of 100000 longs, alltoall", bad);
}

int main(int argc, char **argv)
{
	int provided = 0;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	ring();
	tags_unexpected();
	any_source();
	truncation();
	flood();
	threads(provided);
	collectives();
	if (rank == 0)
		printf("%s: %d ranks\n", failed ? "FAILED" : "PASSED", size);
	MPI_Finalize();
	return failed;
}
