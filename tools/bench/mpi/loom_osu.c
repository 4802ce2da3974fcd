// SPDX-License-Identifier: GPL-2.0
/*
 * loom_osu: MPI micro-benchmarks printed in the OSU micro-benchmark layout
 * (osu_latency, osu_bw, osu_bibw, osu_allreduce, osu_barrier,
 * osu_put_latency, osu_get_latency, osu_put_bw), so that scripts written
 * for OSU's output read them.  Run it under mpirun with the transport to
 * measure, e.g. over loom:
 *   mpirun --mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include loom \
 *          -np 2 loom_osu latency
 * latency, bw and bibw use ranks 0 and 1; allreduce and barrier every rank;
 * the one-sided put, get and put_bw exactly 2 ranks and a window on each.
 */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define WINDOW		64	/* messages in flight per iteration of bw and bibw */
#define WINDOW_LARGE	32	/* put_bw's window above LARGE bytes, as OSU's */
#define LARGE		8192
#define MAX_BYTES	(1L << 30)

static int rank, size;
static long iters = 100, skip = 10;
static size_t max_size = 1 << 20;
static int max_given;		/* -m given: else one-sided goes to ONE_SIDED_MAX */
#define ONE_SIDED_MAX	(4u << 20)	/* OSU's largest one-sided message */

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: loom_osu [OPTIONS] BENCHMARK...\n"
		"MPI benchmarks in the OSU micro-benchmark layout, one table each:\n"
		"  latency bw bibw    ranks 0 and 1 (osu_latency, osu_bw, osu_bibw)\n"
		"  allreduce barrier  every rank (osu_allreduce, osu_barrier)\n"
		"  put get put_bw     exactly 2 ranks, one-sided (osu_put_latency,\n"
		"                     osu_get_latency, osu_put_bw), 1 B to -m bytes\n"
		"  -m BYTES   largest message, suffix K or M allowed (default 1M;\n"
		"             put, get and put_bw: 4M)\n"
		"  -i N       iterations per size (default 100; bw, bibw, put_bw: windows\n"
		"             of %d messages, %d above %d bytes for put_bw)\n"
		"  -x N       warm-up iterations (default 10)\n"
		"  -s SYNC    one-sided synchronization: flush (default: MPI_Win_lock once,\n"
		"             MPI_Win_flush after each operation), lock (MPI_Win_lock and\n"
		"             MPI_Win_unlock around each), fence (MPI_Win_fence)\n"
		"  -w WIN     window creation: allocate (MPI_Win_allocate, default) or\n"
		"             create (MPI_Win_create on malloc'd memory)\n"
		"  -h, --help     this text\n"
		"  -V, --version  the version\n"
		"One-sided benchmarks check every byte of the last transfer of each size.\n"
		"Exit status: 0 success, 1 a transfer delivered wrong bytes, 2 usage error.\n",
		WINDOW, WINDOW_LARGE, LARGE);
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


/* ---- one-sided: osu_put_latency, osu_get_latency, osu_put_bw */

enum sync_mode { SYNC_FLUSH, SYNC_LOCK, SYNC_FENCE };
static const char *const sync_names[] = { "flush", "lock", "fence" };
static const char *const sync_headers[] = { "MPI_Win_flush", "MPI_Win_lock/unlock", "MPI_Win_fence" };
static enum sync_mode sync_mode = SYNC_FLUSH;
static int win_create;		/* MPI_Win_create on malloc'd memory, else MPI_Win_allocate */

#define GUARD		64	/* bytes after a transfer that must stay untouched */
#define FILLER		0xee

struct rma_win {
	MPI_Win win;
	char *base;
	size_t bytes;
};

/* the bytes of a transfer of n bytes: different for every size and origin */
static unsigned char rma_pattern(size_t n, int from, size_t i)
{
	return (unsigned char)(i * 7 + (i >> 8) + n * 3 + (size_t)from * 101 + 1);
}

static void rma_fill(char *b, size_t n, int from)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (char)rma_pattern(n, from, i);
}

/*
 * 0 when b holds the transfer of n bytes from rank `from` followed by
 * `guard` untouched bytes; otherwise prints the first byte that differs.
 */
static int rma_verify(const char *what, const char *b, size_t n, int from, size_t guard)
{
	for (size_t i = 0; i < n + guard; i++) {
		unsigned char want = i < n ? rma_pattern(n, from, i) : FILLER;

		if ((unsigned char)b[i] != want) {
			fprintf(stderr, "FAIL: %s of %zu bytes, seen on rank %d: byte %zu is %#x, expected %#x%s\n",
				what, n, rank, i, (unsigned char)b[i], want,
				i < n ? "" : " (past the end: written beyond the transfer)");
			return 1;
		}
	}
	return 0;
}

/* the window's own memory, touched by its owner inside an exclusive epoch */
static void win_local(struct rma_win *w, size_t n, int pattern_from)
{
	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win);
	memset(w->base, FILLER, w->bytes);
	if (pattern_from >= 0)
		rma_fill(w->base, n, pattern_from);
	MPI_Win_unlock(rank, w->win);
}

/* the window holds `count` transfers of n bytes from `from`, then GUARD untouched bytes */
static int win_local_verify(struct rma_win *w, const char *what, size_t n, int count, int from)
{
	int bad = 0;

	MPI_Win_lock(MPI_LOCK_EXCLUSIVE, rank, 0, w->win);
	for (int j = 0; j < count && !bad; j++)
		bad = rma_verify(what, w->base + (size_t)j * n, n, from, j == count - 1 ? GUARD : 0);
	MPI_Win_unlock(rank, w->win);
	return bad;
}

static void rma_op(int get, char *buf, size_t n, int peer, MPI_Aint disp, MPI_Win win)
{
	if (get)
		MPI_Get(buf, (int)n, MPI_CHAR, peer, disp, (int)n, MPI_CHAR, win);
	else
		MPI_Put(buf, (int)n, MPI_CHAR, peer, disp, (int)n, MPI_CHAR, win);
}

/*
 * osu_put_latency / osu_get_latency for one size: rank 0 puts to or gets
 * from rank 1's window (with fence both ranks do, and the time is halved
 * as OSU does).  *bad is set on every rank when the last transfer's bytes
 * are wrong.
 */
static double rma_lat_one(struct rma_win *w, char *local, size_t n, int get, int *bad)
{
	int peer = 1 - rank, both = sync_mode == SYNC_FENCE;
	double t0 = 0, t1 = 0;
	int mine = 0;

	/* puts land in the target's window; gets read the target's pattern */
	win_local(w, n, get ? rank : -1);
	if (get) {
		memset(local, FILLER, n + GUARD);
	} else {
		rma_fill(local, n, rank);
		memset(local + n, FILLER, GUARD);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	switch (sync_mode) {
	case SYNC_FLUSH:
		if (rank == 0) {
			MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, w->win);
			for (long i = 0; i < iters + skip; i++) {
				if (i == skip)
					t0 = MPI_Wtime();
				rma_op(get, local, n, peer, 0, w->win);
				MPI_Win_flush(peer, w->win);
			}
			t1 = MPI_Wtime();
			MPI_Win_unlock(peer, w->win);
		}
		break;
	case SYNC_LOCK:
		if (rank == 0) {
			for (long i = 0; i < iters + skip; i++) {
				if (i == skip)
					t0 = MPI_Wtime();
				MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, w->win);
				rma_op(get, local, n, peer, 0, w->win);
				MPI_Win_unlock(peer, w->win);
			}
			t1 = MPI_Wtime();
		}
		break;
	case SYNC_FENCE:
		MPI_Win_fence(0, w->win);
		for (long i = 0; i < iters + skip; i++) {
			if (i == skip)
				t0 = MPI_Wtime();
			if (rank == 0) {
				rma_op(get, local, n, peer, 0, w->win);
				MPI_Win_fence(0, w->win);
				MPI_Win_fence(0, w->win);
			} else {
				MPI_Win_fence(0, w->win);
				rma_op(get, local, n, peer, 0, w->win);
				MPI_Win_fence(0, w->win);
			}
		}
		t1 = MPI_Wtime();
		break;
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (get && (rank == 0 || both))
		mine = rma_verify("MPI_Get", local, n, peer, GUARD);
	else if (!get && (rank == 1 || both))
		mine = win_local_verify(w, "MPI_Put", n, 1, peer);
	MPI_Allreduce(&mine, bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	return (t1 - t0) * 1e6 / (sync_mode == SYNC_FENCE ? 2.0 * iters : iters);
}

/*
 * osu_put_bw for one size: rank 0 puts a window of messages to consecutive
 * places in rank 1's window, then synchronises; MB/s of rank 0's puts.
 */
static double put_bw_one(struct rma_win *w, char *local, size_t n, int *bad)
{
	int peer = 1 - rank, nwin = n > LARGE ? WINDOW_LARGE : WINDOW;
	double t0 = 0, t1 = 0;
	int mine = 0;

	win_local(w, n, -1);
	for (int j = 0; j < nwin; j++)
		rma_fill(local + (size_t)j * n, n, rank);
	MPI_Barrier(MPI_COMM_WORLD);
	if (sync_mode == SYNC_FENCE)
		MPI_Win_fence(0, w->win);
	if (rank == 0 && sync_mode == SYNC_FLUSH)
		MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, w->win);
	for (long i = 0; i < iters + skip; i++) {
		if (i == skip)
			t0 = MPI_Wtime();
		if (rank == 0 && sync_mode == SYNC_LOCK)
			MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, w->win);
		if (rank == 0)
			for (int j = 0; j < nwin; j++)
				MPI_Put(local + (size_t)j * n, (int)n, MPI_CHAR, peer,
					(MPI_Aint)(j * n), (int)n, MPI_CHAR, w->win);
		if (sync_mode == SYNC_FENCE)
			MPI_Win_fence(0, w->win);
		else if (rank == 0 && sync_mode == SYNC_LOCK)
			MPI_Win_unlock(peer, w->win);
		else if (rank == 0)
			MPI_Win_flush(peer, w->win);
	}
	t1 = MPI_Wtime();
	if (rank == 0 && sync_mode == SYNC_FLUSH)
		MPI_Win_unlock(peer, w->win);
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 1)
		mine = win_local_verify(w, "MPI_Put", n, nwin, peer);
	MPI_Allreduce(&mine, bad, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
	return (double)n * nwin * iters / ((t1 - t0) * 1e6);
}

static void print_row(size_t n, double v)
{
	if (rank == 0)
		printf("%-10zu%18.2f\n", n, v);
	fflush(stdout);
}

static int run_two_sided(const char *what, char *s, char *r)
{
	if (!strcmp(what, "latency")) {
		if (rank == 0)
			printf("# OSU MPI Latency Test (loom_osu)\n# Size          Latency (us)\n");
		for (size_t n = 0; n <= max_size; n = n ? n * 2 : 1)
			print_row(n, latency_one(s, r, n));
	} else if (!strcmp(what, "bw") || !strcmp(what, "bibw")) {
		int bidir = !strcmp(what, "bibw");

		if (rank == 0)
			printf("# OSU MPI%s Bandwidth Test (loom_osu)\n# Size      Bandwidth (MB/s)\n",
			       bidir ? " Bi-Directional" : "");
		for (size_t n = 1; n <= max_size; n *= 2)
			print_row(n, bw_one(s, r, n, bidir));
	} else if (!strcmp(what, "allreduce")) {
		if (rank == 0)
			printf("# OSU MPI Allreduce Latency Test (loom_osu)\n# Size       Avg Latency(us)\n");
		for (size_t n = 4; n <= max_size; n *= 2)
			print_row(n, allreduce_one((float *)s, (float *)r, n));
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
	return 0;
}

/* the largest window put_bw needs: a window of messages of each size */
static size_t put_bw_bytes(void)
{
	size_t small = max_size < LARGE ? max_size : LARGE;
	size_t a = small * WINDOW, b = max_size > LARGE ? max_size * WINDOW_LARGE : 0;

	return a > b ? a : b;
}

static int rma_win_open(struct rma_win *w, size_t bytes)
{
	int rc;

	w->bytes = bytes + GUARD;
	if (win_create) {
		w->base = malloc(w->bytes);
		if (!w->base)
			return MPI_ERR_NO_MEM;
		rc = MPI_Win_create(w->base, (MPI_Aint)w->bytes, 1, MPI_INFO_NULL,
				    MPI_COMM_WORLD, &w->win);
	} else {
		rc = MPI_Win_allocate((MPI_Aint)w->bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD,
				      &w->base, &w->win);
	}
	return rc;
}

static void rma_win_close(struct rma_win *w)
{
	MPI_Win_free(&w->win);
	if (win_create)
		free(w->base);
}

/* put, get (latency) or put_bw; 1 when a transfer delivered wrong bytes */
static int run_one_sided(const char *what)
{
	int bw = !strcmp(what, "put_bw"), get = !strcmp(what, "get");
	size_t bytes, two_sided_max = max_size;
	struct rma_win w;
	char *local;
	int bad = 0;

	if (!max_given)
		max_size = ONE_SIDED_MAX;
	bytes = bw ? put_bw_bytes() : max_size;
	local = malloc(bytes + GUARD);

	if (!local || rma_win_open(&w, bytes) != MPI_SUCCESS) {
		fprintf(stderr, "loom_osu: rank %d: no memory for a %zu-byte window: try a smaller -m\n",
			rank, bytes + GUARD);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (rank == 0) {
		printf("# OSU MPI_%s %s Test (loom_osu)\n", get ? "Get" : "Put",
		       bw ? "Bandwidth" : get ? "latency" : "Latency");
		printf("# Window creation: %s\n", win_create ? "MPI_Win_create" : "MPI_Win_allocate");
		printf("# Synchronization: %s\n", sync_headers[sync_mode]);
		printf(bw ? "# Size      Bandwidth (MB/s)\n" : "# Size          Latency (us)\n");
	}
	for (size_t n = 1; n <= max_size && !bad; n *= 2) {
		double v = bw ? put_bw_one(&w, local, n, &bad) : rma_lat_one(&w, local, n, get, &bad);

		if (!bad)
			print_row(n, v);
	}
	rma_win_close(&w);
	free(local);
	max_size = two_sided_max;
	return bad;
}

static const char *const benchmarks[] = {
	"latency", "bw", "bibw", "allreduce", "barrier", "put", "get", "put_bw", NULL,
};
#define NBENCH	(sizeof(benchmarks) / sizeof(benchmarks[0]) - 1)

static int bench_index(const char *name)
{
	for (size_t k = 0; k < NBENCH; k++)
		if (!strcmp(name, benchmarks[k]))
			return (int)k;
	return -1;
}

/* a whole number in [lo, hi] (suffixes K and M for sizes), else -1 */
static long parse_count(const char *arg, long lo, long hi, int sizes)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 0);
	if (sizes && end != arg && (*end == 'K' || *end == 'k') && !end[1] && v <= hi / 1024)
		v *= 1024, end++;
	else if (sizes && end != arg && *end == 'M' && !end[1] && v <= hi / (1024 * 1024))
		v *= 1024 * 1024, end++;
	if (errno || end == arg || *end || v < lo || v > hi)
		return -1;
	return v;
}

/* 0 or an error text for rank 0 to print */
static const char *parse_args(int argc, char **argv, int *first, int *help)
{
	static char err[160];
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		const char *o = argv[i], *arg = i + 1 < argc ? argv[i + 1] : NULL;
		long v;

		if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
			*help = 1;
			return NULL;
		}
		if (cli_is_version(o)) {
			*help = 2;
			return NULL;
		}
		if (strlen(o) != 2 || !strchr("mixsw", o[1])) {
			static const char *const opts[] = { "--help", "--version", NULL };
			const char *near = cli_suggest(o, opts);

			if (near)
				snprintf(err, sizeof(err), "unknown option '%.60s': did you mean '%s'?",
					 o, near);
			else
				snprintf(err, sizeof(err), "unknown option '%.60s'", o);
			return err;
		}
		if (!arg) {
			snprintf(err, sizeof(err), "option %s needs a value", o);
			return err;
		}
		i++;
		switch (o[1]) {
		case 'm':
			v = parse_count(arg, 1, MAX_BYTES, 1);
			if (v < 0)
				goto bad_value;
			max_size = (size_t)v;
			max_given = 1;
			break;
		case 'i':	/* timed iterations, at least 1 */
		case 'x':	/* warm-up iterations, may be 0 */
			v = parse_count(arg, o[1] == 'i', 1000000000L, 0);
			if (v < 0)
				goto bad_value;
			*(o[1] == 'i' ? &iters : &skip) = v;
			break;
		case 's':
			for (v = 0; v < 3 && strcmp(arg, sync_names[v]); v++)
				;
			if (v == 3)
				goto bad_value;
			sync_mode = (enum sync_mode)v;
			break;
		case 'w':
			if (strcmp(arg, "allocate") && strcmp(arg, "create"))
				goto bad_value;
			win_create = !strcmp(arg, "create");
			break;
		}
		continue;
bad_value:
		snprintf(err, sizeof(err), "bad value '%s' for %s (see -h)", arg, o);
		return err;
	}
	*first = i;
	if (i == argc)
		return "which benchmark? (latency, bw, bibw, allreduce, barrier, put, get, put_bw)";
	for (; i < argc; i++) {
		int k = bench_index(argv[i]);

		if (k < 0) {
			const char *near = cli_suggest(argv[i], benchmarks);

			if (near)
				snprintf(err, sizeof(err), "unknown benchmark '%.60s': did you mean '%s'?",
					 argv[i], near);
			else
				snprintf(err, sizeof(err), "unknown benchmark '%.60s'", argv[i]);
			return err;
		}
		if (k >= 5 && size != 2)
			return "put, get and put_bw need exactly 2 ranks";
		if ((k == 0 || k == 1 || k == 2) && size < 2)
			return "latency, bw and bibw need at least 2 ranks";
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *err;
	int first = 0, help = 0, bad = 0;
	char *s, *r;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	err = parse_args(argc, argv, &first, &help);
	if (help || err) {
		if (rank == 0 && err)
			fprintf(stderr, "loom_osu: %s\nTry 'loom_osu --help'.\n", err);
		else if (rank == 0 && help == 2)
			cli_version("loom_osu");
		else if (rank == 0)
			usage(stdout);
		MPI_Finalize();
		return err ? CLI_EXIT_USAGE : 0;
	}
	/* as OSU does, a window's messages share one buffer */
	s = malloc(max_size);
	r = malloc(max_size);
	if (!s || !r) {
		fprintf(stderr, "loom_osu: rank %d: no memory for two %zu-byte buffers: try a smaller -m\n",
			rank, max_size);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	memset(s, 'a', max_size);
	memset(r, 'b', max_size);
	for (int i = first; i < argc && !bad; i++) {
		if (bench_index(argv[i]) >= 5)
			bad = run_one_sided(argv[i]);
		else
			bad = run_two_sided(argv[i], s, r);
	}
	free(s);
	free(r);
	MPI_Finalize();
	return bad;
}
