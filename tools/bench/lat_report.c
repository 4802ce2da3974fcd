// SPDX-License-Identifier: GPL-2.0
/*
 * Transport floor and perftest-style rows of the round-trip latency
 * benchmarks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "lat_report.h"

int lat_floor(struct bench_conn *b, uint32_t iters, struct lat_stats *st)
{
	double *rtt = calloc(iters, sizeof(*rtt));
	struct loom_completion c;

	if (!rtt)
		return 1;
	for (uint32_t i = 0; i < iters; i++) {
		double t0 = bench_now_us();
		int err = loom_nop(b->ctx, i);

		bench_arm(b);
		if (err || bench_wait_for(b, LOOM_COMPLETION_LOCAL, &c)) {
			if (err)
				fprintf(stderr, "%s: nop: %s\n", b->o->prog, loom_strerror(err));
			free(rtt);
			return 1;
		}
		rtt[i] = bench_now_us() - t0;
	}
	lat_stats_compute(rtt, iters, st);
	free(rtt);
	return 0;
}

static const char rule[] =
	"#----------------------------------------------------------------------"
	"------------------------------------------------------------";

void lat_print_header(const struct bench_opts *o, const char *title,
		      const struct lat_stats *floor_st)
{
	if (o->json)
		return;
	printf("%s\n", rule);
	printf("#                                   %s\n", title);
	printf("# server node %u context %u, completion mode %s, %u iterations per row\n",
	       o->server_node, o->ctx, bench_mode_name(o), o->iters);
	printf("# transport floor (NOP round trip through the local card): t_typical %.2f usec, "
	       "99%% %.2f usec\n", floor_st->typical, floor_st->p99);
	printf("%s\n", rule);
	printf(" #bytes     #iterations t_min[usec] t_max[usec] t_typical[usec] t_avg[usec] "
	       "t_stdev[usec] 99%% percentile[usec] 99.9%% percentile[usec] x_floor op\n");
	fflush(stdout);
}

void lat_print_row(const struct bench_opts *o, uint64_t size, const struct lat_stats *st,
		   double floor_us, const char *op)
{
	if (o->json) {
		printf("{\"bytes\": %" PRIu64 ", \"iterations\": %u, \"t_min\": %.2f, "
		       "\"t_max\": %.2f, \"t_typical\": %.2f, \"t_avg\": %.2f, "
		       "\"t_stdev\": %.2f, \"p99\": %.2f, \"p99.9\": %.2f, "
		       "\"floor_rtt\": %.2f, \"x_floor\": %.2f, \"mode\": \"%s\", \"op\": \"%s\"}\n",
		       size, o->iters, st->min, st->max, st->typical, st->avg, st->stdev,
		       st->p99, st->p999, floor_us, st->typical / floor_us,
		       bench_mode_name(o), op);
	} else {
		printf(" %-10" PRIu64 " %-11u %-11.2f %-11.2f %-15.2f %-11.2f %-13.2f "
		       "%-20.2f %-22.2f %-7.1f %s\n", size, o->iters, st->min, st->max,
		       st->typical, st->avg, st->stdev, st->p99, st->p999,
		       st->typical / floor_us, op);
	}
	fflush(stdout);
}
