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
"measures the transport floor, the round trip of a NOP through its own card\n"
"(doorbell, card, completion), and prints t_typical as a multiple of it.\n"
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

static void print_row(const struct bench_opts *o, uint64_t size, const struct lat_stats *st,
		      double floor_us)
{
	if (o->json) {
		printf("{\"bytes\": %" PRIu64 ", \"iterations\": %u, \"t_min\": %.2f, "
		       "\"t_max\": %.2f, \"t_typical\": %.2f, \"t_avg\": %.2f, "
		       "\"t_stdev\": %.2f, \"p99\": %.2f, \"p99.9\": %.2f, "
		       "\"floor_rtt\": %.2f, \"x_floor\": %.2f, \"mode\": \"%s\"}\n",
		       size, o->iters, st->min, st->max, st->typical, st->avg, st->stdev,
		       st->p99, st->p999, floor_us, st->typical / floor_us,
		       bench_mode_name(o));
	} else {
		printf(" %-10" PRIu64 " %-11u %-11.2f %-11.2f %-15.2f %-11.2f %-13.2f "
		       "%-20.2f %-22.2f %.1f\n", size, o->iters, st->min, st->max,
		       st->typical, st->avg, st->stdev, st->p99, st->p999,
		       st->typical / floor_us);
	}
	fflush(stdout);
}

static const char rule[] =
	"#----------------------------------------------------------------------"
	"------------------------------------------------------------";

static int run_client(struct bench_conn *b)
{
	const struct bench_opts *o = b->o;
	double *lat = calloc(o->iters, sizeof(*lat));
	struct lat_stats floor_st, st;
	uint64_t first = o->all_sizes ? 8 : o->size;
	uint64_t last = o->all_sizes ? o->max_size : o->size;
	int rc = 1;

	if (!lat)
		return 1;
	if (bench_client_meet(b) || lat_floor(b, o->iters, &floor_st))
		goto out;
	if (!o->json) {
		printf("%s\n", rule);
		printf("#                                   loom put ping-pong latency (one-way = RTT/2)\n");
		printf("# server node %u context %u, completion mode %s, %u iterations per size\n",
		       o->server_node, o->ctx, bench_mode_name(o), o->iters);
		printf("# transport floor (NOP round trip through the local card): t_typical %.2f usec, "
		       "99%% %.2f usec\n", floor_st.typical, floor_st.p99);
		printf("%s\n", rule);
		printf(" #bytes     #iterations t_min[usec] t_max[usec] t_typical[usec] t_avg[usec] "
		       "t_stdev[usec] 99%% percentile[usec] 99.9%% percentile[usec] x_floor\n");
	}
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
		print_row(o, size, &st, floor_st.typical);
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
