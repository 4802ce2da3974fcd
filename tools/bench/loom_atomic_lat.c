// SPDX-License-Identifier: GPL-2.0
/*
 * loom_atomic_lat: latency of 8-byte remote atomics, perftest style.
 *
 *   server:  loom_atomic_lat [OPTIONS]
 *   client:  loom_atomic_lat [OPTIONS] SERVER_NODE
 *
 * The client runs fetch-add, swap and compare-and-swap on one word of the
 * server's segment and times each from submission to completion (the
 * fetched value returned); one row per operation.  It checks the fetched
 * values: fetch-adds of 1 return consecutive numbers, a swap returns what
 * the previous swap stored, a cswap that expects the current value swaps.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lat_report.h"

#define WORD_OFFSET	64	/* clear of the rendezvous bytes at 0 */

static void usage(FILE *f)
{
	fprintf(f,
"Usage: loom_atomic_lat [OPTIONS]               (server)\n"
"       loom_atomic_lat [OPTIONS] SERVER_NODE   (client)\n"
"\n"
"Remote atomic latency over loom, perftest style: one row each for\n"
"fetch-add, swap and compare-and-swap on an 8-byte word of the server's\n"
"segment.  Start the server on one host and the client on another with the\n"
"server's logical node id.  Latencies are full round trips in microseconds,\n"
"with the transport floor (a NOP's round trip through the local card) and\n"
"t_typical as a multiple of it.  --size is ignored (always 8 bytes).  The\n"
"server is passive: --timeout must cover the client's whole run.\n"
"\n");
	bench_print_common_options(f, false);
	fprintf(f,
"\n"
"Exit status: 0 success, 1 an operation failed, timed out or fetched a\n"
"wrong value, 2 usage error.\n");
}

static int atomic_once(struct bench_conn *b, uint32_t op, uint64_t operand, uint64_t compare,
		       uint64_t *fetched)
{
	struct loom_completion c;
	int err = loom_atomic(b->ctx, &b->peer, WORD_OFFSET, op, operand, compare, op);

	if (err) {
		fprintf(stderr, "loom_atomic_lat: atomic: %s\n", loom_strerror(err));
		return 1;
	}
	if (bench_wait_for(b, LOOM_COMPLETION_LOCAL, &c))
		return 1;
	*fetched = c.value;
	return 0;
}

static const struct {
	uint32_t op;
	const char *name;
} ops[] = {
	{ LOOM_ATOMIC_FETCH_ADD, "fetch_add" },
	{ LOOM_ATOMIC_SWAP, "swap" },
	{ LOOM_ATOMIC_CSWAP, "cswap" },
};

/* Run @n operations of kind @k, checking each fetched value; 0 or 1. */
static int run_op(struct bench_conn *b, unsigned int k, uint32_t n, double *lat)
{
	uint64_t v, cur;

	/* learn the word's value: a fetch-add of 0 changes nothing */
	bench_arm(b);
	if (atomic_once(b, LOOM_ATOMIC_FETCH_ADD, 0, 0, &cur))
		return 1;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t operand = ops[k].op == LOOM_ATOMIC_FETCH_ADD ? 1 : cur + 1;
		double t0 = bench_now_us();

		bench_arm(b);
		if (atomic_once(b, ops[k].op, operand, cur, &v))
			return 1;
		if (lat)
			lat[i] = bench_now_us() - t0;
		if (v != cur) {
			fprintf(stderr, "loom_atomic_lat: %s fetched %llu, expected %llu\n",
				ops[k].name, (unsigned long long)v, (unsigned long long)cur);
			return 1;
		}
		cur++;	/* each of the three stores the old value + 1 */
	}
	return 0;
}

static int run_client(struct bench_conn *b)
{
	const struct bench_opts *o = b->o;
	double *lat = calloc(o->iters, sizeof(*lat));
	struct lat_floors floors;
	struct lat_stats st;
	int rc = 1;

	if (!lat)
		return 1;
	if (bench_client_meet(b) || lat_floors(b, o->iters, &floors))
		goto out;
	lat_print_header(b, "loom remote atomic latency (round trip, 8 bytes)", &floors);
	for (unsigned int k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		if (run_op(b, k, o->iters / 10 + 1, NULL) || run_op(b, k, o->iters, lat))
			goto out;
		lat_stats_compute(lat, o->iters, &st);
		lat_print_row(o, 8, &st, &floors, ops[k].name);
	}
	rc = bench_finish(b);
out:
	free(lat);
	return rc;
}

int main(int argc, char **argv)
{
	return bench_main(argc, argv, "loom_atomic_lat", usage, false, run_client,
			  bench_serve_passive);
}
