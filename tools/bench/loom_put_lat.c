// SPDX-License-Identifier: GPL-2.0
/*
 * loom_put_lat: put ping-pong latency between two hosts, perftest style.
 *
 *   server:  loom_put_lat [OPTIONS]
 *   client:  loom_put_lat [OPTIONS] SERVER_NODE
 *
 * The client puts SIZE bytes into the server's segment; when they have all
 * landed (arrival completion) the server puts SIZE bytes back; the client
 * times the round trip.  One-way latency = RTT / 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_conn.h"
#include "lat_report.h"
#include "lat_stats.h"

static void usage(FILE *f)
{
	fprintf(f,
"Usage: loom_put_lat [OPTIONS]               (server)\n"
"       loom_put_lat [OPTIONS] SERVER_NODE   (client)\n"
"\n"
"Put ping-pong latency over loom, perftest style.  Start the server on one\n"
"host and the client on another with the server's logical node id; the\n"
"client waits for the server.  Both sides take the same options.\n"
"Latencies are one-way (round trip / 2) in microseconds.  The client also\n"
"measures the transport floors, the round trip of a NOP through its own card\n"
"(doorbell, card, completion) reaped by polling and in the --mode, and\n"
"prints t_typical as a multiple of the floor of its mode (x_floor).\n"
"\n");
	bench_print_common_options(f, false);
	fprintf(f,
"\n"
"Exit status: 0 success, 1 an operation failed or timed out, 2 usage error.\n");
}

/* one ping-pong: put, wait for the reply and for our own put's ack */
static int ping(struct bench_conn *b, uint64_t len)
{
	struct loom_completion c;

	return bench_put(b, 0, len, LOOM_PUT_REMOTE_EVENT) ||
	       bench_wait_for(b, LOOM_COMPLETION_ARRIVAL, &c) ||
	       bench_wait_for(b, LOOM_COMPLETION_LOCAL, &c);
}

static int run_client(struct bench_conn *b)
{
	const struct bench_opts *o = b->o;
	double *lat = calloc(o->iters, sizeof(*lat));
	struct lat_floors floors;
	struct lat_stats st;
	uint64_t first = o->all_sizes ? 8 : o->size;
	uint64_t last = o->all_sizes ? o->max_size : o->size;
	int rc = 1;

	if (!lat)
		return 1;
	if (bench_client_meet(b) || lat_floors(b, o->iters, &floors))
		goto out;
	lat_print_header(b, "loom put ping-pong latency (one-way = RTT/2)", &floors);
	for (uint64_t size = first; size <= last; size *= 2) {
		uint32_t warmup = o->iters / 10 + 1;

		for (uint32_t i = 0; i < warmup; i++) {
			bench_arm(b);
			if (ping(b, size))
				goto out;
		}
		for (uint32_t i = 0; i < o->iters; i++) {
			double t0 = bench_now_us();

			bench_arm(b);
			if (ping(b, size))
				goto out;
			lat[i] = (bench_now_us() - t0) / 2;
		}
		lat_stats_compute(lat, o->iters, &st);
		lat_print_row(o, size, &st, &floors, "put");
	}
	rc = bench_finish(b);
out:
	free(lat);
	return rc;
}

static int run_server(struct bench_conn *b)
{
	struct loom_completion c;

	if (bench_server_meet(b))
		return 1;
	for (;;) {
		bench_arm(b);
		if (bench_wait_for(b, LOOM_COMPLETION_ARRIVAL, &c))
			return 1;
		if (c.node != b->peer.node || c.ctx != b->peer.ctx) {
			fprintf(stderr, "loom_put_lat: ignoring a put from node %u ctx %u\n",
				c.node, c.ctx);
			continue;
		}
		if (c.tag == BENCH_FIN_OFFSET)
			return 0;
		if (bench_put(b, 0, c.value, LOOM_PUT_REMOTE_EVENT) ||
		    bench_wait_for(b, LOOM_COMPLETION_LOCAL, &c))
			return 1;
	}
}

int main(int argc, char **argv)
{
	return bench_main(argc, argv, "loom_put_lat", usage, false, run_client, run_server);
}
