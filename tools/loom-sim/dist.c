// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim over MPI ranks (the loom-sim-mpi variant; Documentation/sim/
 * loom-sim.rst, "Running over MPI").  Every rank builds the same fabric
 * description and steps its block of routers and their terminals; the
 * channels between blocks are cut: what enters one at step t leaves it at
 * t + latency, so the ranks run latency steps apart from each other and
 * exchange, at each boundary, the flits and credits that entered the cut
 * channels since the last one (conservative synchronisation with the link
 * latency as lookahead).  Random streams are per terminal, so a run is the
 * same packet for packet whatever the number of ranks.
 */
#include "sim.h"

#include <mpi.h>
#include <stdlib.h>
#include <string.h>

static int by_step(const void *a, const void *b)
{
	const struct sim_msg *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

static int exchange(struct sim *s, char *err, size_t errlen)
{
	int P = s->cfg.ranks;
	int *scount = calloc((size_t)P * 4, sizeof(int)), *rcount, *sdisp, *rdisp;
	char *sbuf = NULL;
	size_t total = 0, got = 0, sz = sizeof(struct sim_msg);
	int rc = -1;

	if (s->in_next < s->in.n) {
		snprintf(err, errlen, "internal: rank %d: %zu messages from the last exchange "
			 "were not due in this epoch (cycle %llu)", s->cfg.rank,
			 s->in.n - s->in_next, (unsigned long long)s->now);
		free(scount);
		return -1;
	}
	if (!scount)
		goto oom;
	rcount = scount + P;
	sdisp = rcount + P;
	rdisp = sdisp + P;
	for (int r = 0; r < P; r++) {
		if (s->out[r].n * sz > (size_t)INT32_MAX / 2)
			goto big;
		scount[r] = (int)(s->out[r].n * sz);
		sdisp[r] = (int)total;
		total += (size_t)scount[r];
	}
	MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
	for (int r = 0; r < P; r++) {
		rdisp[r] = (int)got;
		got += (size_t)rcount[r];
	}
	sbuf = malloc(total ? total : 1);
	if (!sbuf)
		goto oom;
	for (int r = 0; r < P; r++)
		if (s->out[r].n)
			memcpy(sbuf + sdisp[r], s->out[r].m, (size_t)scount[r]);
	if (got / sz > s->in.cap) {
		struct sim_msg *m = realloc(s->in.m, got);

		if (!m)
			goto oom;
		s->in.m = m;
		s->in.cap = got / sz;
	}
	MPI_Alltoallv(sbuf, scount, sdisp, MPI_BYTE, s->in.m ? (void *)s->in.m : (void *)sbuf,
		      rcount, rdisp, MPI_BYTE, MPI_COMM_WORLD);
	s->in.n = got / sz;
	s->in_next = 0;
	qsort(s->in.m, s->in.n, sz, by_step);
	for (int r = 0; r < P; r++)
		s->out[r].n = 0;
	rc = 0;
	goto out;
big:
	snprintf(err, errlen, "rank %d: too many flits crossing to one rank at cycle %llu",
		 s->cfg.rank, (unsigned long long)s->now);
	goto out;
oom:
	snprintf(err, errlen, "rank %d: out of memory for the flits crossing ranks at cycle %llu",
		 s->cfg.rank, (unsigned long long)s->now);
out:
	free(sbuf);
	free(scount);
	return rc;
}

static void allreduce(int64_t *sum, int nsum, uint64_t *max)
{
	MPI_Allreduce(MPI_IN_PLACE, sum, nsum, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, max, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
}

/* in pieces: MPI counts are ints */
static void or_bits(uint64_t *bits, size_t nbits, unsigned char *bytes, size_t nbytes)
{
	const size_t piece = 1 << 24;

	for (size_t i = 0; i < nbits; i += piece)
		MPI_Allreduce(MPI_IN_PLACE, bits + i, (int)(nbits - i < piece ? nbits - i : piece),
			      MPI_UINT64_T, MPI_BOR, MPI_COMM_WORLD);
	for (size_t i = 0; i < nbytes; i += piece)
		MPI_Allreduce(MPI_IN_PLACE, bytes + i,
			      (int)(nbytes - i < piece ? nbytes - i : piece), MPI_UNSIGNED_CHAR,
			      MPI_BOR, MPI_COMM_WORLD);
}

static void sum_u64(uint64_t *v, size_t n)
{
	MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
}

/* Latencies @l[0..n) over the ranks: counts and sums added, extremes kept. */
static int latencies(struct sim_latency *l, int n)
{
	uint64_t *v = malloc((size_t)n * 4 * sizeof(*v));

	if (!v)
		return -1;
	for (int i = 0; i < n; i++) {
		v[2 * i] = l[i].packets;
		v[2 * i + 1] = l[i].sum;
		v[2 * n + i] = l[i].min;
		v[3 * n + i] = l[i].max;
	}
	sum_u64(v, 2 * (size_t)n);
	MPI_Allreduce(MPI_IN_PLACE, v + 2 * n, n, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, v + 3 * n, n, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	for (int i = 0; i < n; i++)
		l[i] = (struct sim_latency){ v[2 * i], v[2 * i + 1], v[2 * n + i], v[3 * n + i] };
	free(v);
	return 0;
}

/* Every rank ends with the statistics of the whole fabric. */
static int gather(struct sim *s, char *err, size_t errlen)
{
	struct sim_stats *st = &s->st;
	struct sim_rank_spread *sp = &s->spread;
	uint64_t counts[] = {
		st->created, st->created_flits, st->delivered_flits, st->measured_done,
		st->hops_sum, st->total_created, st->total_delivered, st->misdelivered,
		st->requests, s->router_cycles,
	};
	int64_t in_network = s->in_network;
	int deadlocked = s->deadlocked;

	MPI_Allreduce(MPI_IN_PLACE, &sp->cycles_min, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &sp->cycles_max, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &sp->cpu_min, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &sp->cpu_max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &sp->cpu_sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	sum_u64(counts, sizeof(counts) / sizeof(counts[0]));
	st->created = counts[0];
	st->created_flits = counts[1];
	st->delivered_flits = counts[2];
	st->measured_done = counts[3];
	st->hops_sum = counts[4];
	st->total_created = counts[5];
	st->total_delivered = counts[6];
	st->misdelivered = counts[7];
	st->requests = counts[8];
	s->router_cycles = counts[9];
	sum_u64(st->drops, ROUTE_DROP_REASONS);
	sum_u64(st->hist, SIM_HIST_BINS);
	if (st->rtt_hist)
		sum_u64(st->rtt_hist, SIM_HIST_BINS);
	sum_u64(st->chan_flits, (size_t)s->nodes * (size_t)s->ports);
	MPI_Allreduce(MPI_IN_PLACE, &in_network, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
	MPI_Allreduce(MPI_IN_PLACE, &deadlocked, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	s->in_network = in_network;
	s->deadlocked = deadlocked;
	if (latencies(&st->all, 1) || latencies(st->by_hops, SIM_MAX_HOPS + 1) ||
	    latencies(&st->rtt, 1)) {
		snprintf(err, errlen, "rank %d: out of memory gathering the latencies",
			 s->cfg.rank);
		return -1;
	}
	return 0;
}

const struct sim_dist sim_mpi_dist = { exchange, allreduce, or_bits, gather };

struct trace_line {
	uint64_t at;
	int node;
	size_t off, len;
};

static int by_delivery(const void *a, const void *b)
{
	const struct trace_line *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	if (x->node != y->node)
		return x->node < y->node ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

int sim_mpi_trace(const char *buf, size_t len, FILE *out)
{
	int P, rank, *counts = NULL, *disp = NULL, n = (int)len, rc = -1;
	char *all = NULL;
	struct trace_line *lines = NULL;
	size_t total = 0, nl = 0;

	MPI_Comm_size(MPI_COMM_WORLD, &P);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (!rank) {
		counts = calloc((size_t)P * 2, sizeof(int));
		if (!counts)
			MPI_Abort(MPI_COMM_WORLD, 1);
		disp = counts + P;
	}
	MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (!rank) {
		for (int r = 0; r < P; r++) {
			disp[r] = (int)total;
			total += (size_t)counts[r];
		}
		all = malloc(total + 1);
		if (!all)
			MPI_Abort(MPI_COMM_WORLD, 1);
		all[total] = '\0';
	}
	MPI_Gatherv(buf, n, MPI_CHAR, all, counts, disp, MPI_CHAR, 0, MPI_COMM_WORLD);
	if (rank) {
		rc = 0;
		goto out;
	}
	/* rank 0: the lines in the order one process writes them (by delivery, then node) */
	for (size_t i = 0; i < total; i++)
		nl += all[i] == '\n';
	lines = malloc((nl ? nl : 1) * sizeof(*lines));
	if (!lines)
		goto out;
	nl = 0;
	for (size_t off = 0; off < total;) {
		char *e = memchr(all + off, '\n', total - off);
		size_t l = e ? (size_t)(e - (all + off)) + 1 : total - off;
		unsigned long long at = 0;
		int node = 0;

		sscanf(all + off, "%*u %d %*u %llu", &node, &at);
		lines[nl++] = (struct trace_line){ at, node, off, l };
		off += l;
	}
	qsort(lines, nl, sizeof(*lines), by_delivery);
	for (size_t i = 0; i < nl; i++)
		fwrite(all + lines[i].off, 1, lines[i].len, out);
	rc = 0;
out:
	free(lines);
	free(all);
	free(counts);
	return rc;
}
