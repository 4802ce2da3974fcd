// SPDX-License-Identifier: GPL-2.0
/*
 * loom_get_lat: get latency between two hosts, perftest style.
 *
 *   server:  loom_get_lat [OPTIONS]
 *   client:  loom_get_lat [OPTIONS] SERVER_NODE
 *
 * The client reads SIZE bytes of the server's segment into its own and
 * times each get from submission to its completion (every byte landed):
 * a get is a round trip by itself, so the latency reported is that round
 * trip.  The server's host does nothing but keep its context running.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lat_report.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: loom_get_lat [OPTIONS]               (server)\n"
"       loom_get_lat [OPTIONS] SERVER_NODE   (client)\n"
"\n"
"Get latency over loom, perftest style.  Start the server on one host and\n"
"the client on another with the server's logical node id; the client waits\n"
"for the server.  Both sides take the same options.  Latencies are full\n"
"round trips (submission to completion of one get) in microseconds.  The\n"
"client also measures the transport floor, the round trip of a NOP through\n"
"its own card, and prints t_typical as a multiple of it.  The server is\n"
"passive: --timeout must cover the client's whole run.\n"
"\n");
	bench_print_common_options(f, false);
	fprintf(f,
"\n"
"Exit status: 0 success, 1 an operation failed or timed out, 2 usage error.\n");
}

static int get_once(struct bench_conn *b, uint64_t len)
{
	struct loom_completion c;
	int err = loom_get(b->ctx, &b->peer, 0, 0, len, 0, len);

	if (err) {
		fprintf(stderr, "loom_get_lat: get of %llu bytes: %s\n", (unsigned long long)len,
			loom_strerror(err));
		return 1;
	}
	if (bench_wait_for(b, LOOM_COMPLETION_LOCAL, &c))
		return 1;
	if (c.value != len) {
		fprintf(stderr, "loom_get_lat: get of %llu bytes completed with %llu\n",
			(unsigned long long)len, (unsigned long long)c.value);
		return 1;
	}
	return 0;
}

static int run_client(struct bench_conn *b)
{
	const struct bench_opts *o = b->o;
	double *lat = calloc(o->iters, sizeof(*lat));
	uint64_t first = o->all_sizes ? 8 : o->size;
	uint64_t last = o->all_sizes ? o->max_size : o->size;
	struct lat_floors floors;
	struct lat_stats st;
	int rc = 1;

	if (!lat)
		return 1;
	if (bench_client_meet(b) || lat_floors(b, o->iters, &floors))
		goto out;
	lat_print_header(b, "loom get latency (round trip of one get)", &floors);
	for (uint64_t size = first; size <= last; size *= 2) {
		for (uint32_t i = 0; i < o->iters / 10 + 1; i++) {
			bench_arm(b);
			if (get_once(b, size))
				goto out;
		}
		for (uint32_t i = 0; i < o->iters; i++) {
			double t0 = bench_now_us();

			bench_arm(b);
			if (get_once(b, size))
				goto out;
			lat[i] = bench_now_us() - t0;
		}
		lat_stats_compute(lat, o->iters, &st);
		lat_print_row(o, size, &st, &floors, "get");
	}
	rc = bench_finish(b);
out:
	free(lat);
	return rc;
}

int main(int argc, char **argv)
{
	return bench_main(argc, argv, "loom_get_lat", usage, false, run_client,
			  bench_serve_passive);
}
