// SPDX-License-Identifier: GPL-2.0
/*
 * loom_put_bw: put bandwidth between two hosts, perftest style.
 *
 *   server:  loom_put_bw [OPTIONS]
 *   client:  loom_put_bw [OPTIONS] SERVER_NODE
 *
 * The client keeps DEPTH puts of SIZE bytes outstanding until ITERS have
 * completed (each completion means the bytes are in the server's memory)
 * and reports bytes per second and messages per second.  The server only
 * provides the segment; it exits when the client says it is done.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_conn.h"

#define PEAK_SLICES 10

static void usage(FILE *f)
{
	fprintf(f,
"Usage: loom_put_bw [OPTIONS]               (server)\n"
"       loom_put_bw [OPTIONS] SERVER_NODE   (client)\n"
"\n"
"Put bandwidth over loom, perftest style.  Start the server on one host and\n"
"the client on another with the server's logical node id.  The client keeps\n"
"DEPTH puts outstanding; a put counts when its completion says every byte\n"
"is in the server's memory.  MB is 10^6 bytes; Mpps is millions of puts per\n"
"second.  BW peak is the best slice of each run, a slice being the larger of\n"
"ITERS/%d puts and 4 x DEPTH puts (completions arrive in bursts: shorter\n"
"slices would measure the bursts, not the network).  PostRate is how fast\n"
"this context posts puts (descriptor and doorbell) while it may, the rate\n"
"that MsgRate is a fraction of.\n"
"\n", PEAK_SLICES);
	bench_print_common_options(f, true);
	fprintf(f,
"\n"
"Exit status: 0 success, 1 an operation failed or timed out, 2 usage error.\n");
}

/* Moves iters puts of size bytes; returns 0 and the elapsed time (us),
 * the best slice's bandwidth (bytes/us) and the time spent posting (us), or 1.
 */
static int run_size(struct bench_conn *b, uint64_t size, double *elapsed, double *peak,
		    double *posting)
{
	const struct bench_opts *o = b->o;
	uint32_t posted = 0, done = 0, slice = o->iters / PEAK_SLICES;
	double t0 = bench_now_us(), t_slice = t0;
	struct loom_completion c;

	if (slice < 4 * o->depth)
		slice = 4 * o->depth;
	if (slice * 2 > o->iters)
		slice = 0;	/* too short a run for slices: peak = average */
	*peak = 0;
	*posting = 0;
	while (done < o->iters) {
		double tp = bench_now_us();

		while (posted < o->iters && posted - done < o->depth) {
			if (bench_put(b, 0, size, 0))
				return 1;
			posted++;
		}
		*posting += bench_now_us() - tp;
		bench_arm(b);
		if (bench_wait_for(b, LOOM_COMPLETION_LOCAL, &c))
			return 1;
		done++;
		if (slice && done % slice == 0) {
			double now = bench_now_us();

			if (now > t_slice && (double)slice * size / (now - t_slice) > *peak)
				*peak = (double)slice * size / (now - t_slice);
			t_slice = now;
		}
	}
	*elapsed = bench_now_us() - t0;
	if (*peak < (double)o->iters * size / *elapsed)
		*peak = (double)o->iters * size / *elapsed;
	return 0;
}

static int run_client(struct bench_conn *b)
{
	const struct bench_opts *o = b->o;
	uint64_t first = o->all_sizes ? 8 : o->size;
	uint64_t last = o->all_sizes ? o->max_size : o->size;

	if (bench_client_meet(b))
		return 1;
	if (!o->json) {
		printf("#-------------------------------------------------------------------------\n");
		printf("#                        loom put bandwidth\n");
		printf("# server node %u context %u, completion mode %s, %u puts per size, "
		       "%u outstanding\n", o->server_node, o->ctx,
		       bench_mode_name(o), o->iters, o->depth);
		printf("#-------------------------------------------------------------------------\n");
		if (o->cable_floor)
			printf("# cable floor (loom_cable_bw on the host): %.2f MB/sec; "
			       "x_cable: BW average / the cable floor\n", o->cable_floor);
		printf(" #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps] PostRate[Mpps]%s\n",
		       o->cable_floor ? " x_cable" : "");
	}
	for (uint64_t size = first; size <= last; size *= 2) {
		double elapsed, peak, avg, posting;

		/* a warm-up run, then the measured one */
		if (run_size(b, size, &elapsed, &peak, &posting))
			return 1;
		if (run_size(b, size, &elapsed, &peak, &posting))
			return 1;
		avg = (double)o->iters * size / elapsed;	/* bytes/us = MB/s */
		if (o->json) {
			printf("{\"bytes\": %" PRIu64 ", \"iterations\": %u, \"bw_peak\": %.2f, "
			       "\"bw_avg\": %.2f, \"msg_rate\": %.6f, \"post_rate\": %.6f, "
			       "\"depth\": %u, \"mode\": \"%s\"",
			       size, o->iters, peak, avg, o->iters / elapsed, o->iters / posting,
			       o->depth, bench_mode_name(o));
			if (o->cable_floor)
				printf(", \"cable_floor\": %.2f, \"x_cable\": %.4f", o->cable_floor,
				       avg / o->cable_floor);
			printf("}\n");
		} else {
			printf(" %-10" PRIu64 " %-14u %-18.2f %-20.2f %-13.6f %-14.6f", size,
			       o->iters, peak, avg, o->iters / elapsed, o->iters / posting);
			if (o->cable_floor)
				printf(" %.4f", avg / o->cable_floor);
			printf("\n");
		}
		fflush(stdout);
	}
	return bench_finish(b);
}

int main(int argc, char **argv)
{
	return bench_main(argc, argv, "loom_put_bw", usage, true, run_client,
			  bench_serve_passive);
}
