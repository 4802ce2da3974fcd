// SPDX-License-Identifier: GPL-2.0
/*
 * Transport floors, placement and perftest-style rows of the round-trip
 * latency benchmarks.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lat_report.h"

/* @iters NOP round trips, reaped by polling when @poll, else in o->mode */
static int nop_round_trips(struct bench_conn *b, uint32_t iters, bool poll,
			   struct lat_stats *st)
{
	double *rtt = calloc(iters, sizeof(*rtt));
	struct loom_completion c;
	int rc = 0;

	if (!rtt)
		return 1;
	b->force_poll = poll;
	for (uint32_t i = 0; i < iters; i++) {
		double t0 = bench_now_us();
		int err = loom_nop(b->ctx, i);

		bench_arm(b);
		if (err || bench_wait_for(b, LOOM_COMPLETION_LOCAL, &c)) {
			if (err)
				fprintf(stderr, "%s: nop: %s\n", b->o->prog, loom_strerror(err));
			rc = 1;
			break;
		}
		rtt[i] = bench_now_us() - t0;
	}
	b->force_poll = false;
	if (!rc)
		lat_stats_compute(rtt, iters, st);
	free(rtt);
	return rc;
}

int lat_floors(struct bench_conn *b, uint32_t iters, struct lat_floors *f)
{
	int busy_poll = loom_ctx_busy_poll(b->ctx), rc;

	if (nop_round_trips(b, iters, true, &f->poll))
		return 1;
	if (b->o->poll_mode) {
		f->mode = f->poll;
		return 0;
	}
	/*
	 * The mode's floor is its sleeping path (card, interrupt, wake-up):
	 * busy polling would meet a NOP's completion before any interrupt
	 * and measure the polled floor again.
	 */
	loom_ctx_set_busy_poll(b->ctx, 0);
	rc = nop_round_trips(b, iters, false, &f->mode);
	loom_ctx_set_busy_poll(b->ctx, busy_poll);
	return rc;
}

static const char rule[] =
	"#----------------------------------------------------------------------"
	"------------------------------------------------------------";

/* "# placement: ..." from the lab's file, its lines joined with "; " */
static void print_placement(void)
{
	FILE *f = fopen(LAT_PLACEMENT_FILE, "re");
	char line[256];
	bool first = true;

	printf("# placement: ");
	if (!f) {
		printf("unknown (no %s: not in a loom lab)\n", LAT_PLACEMENT_FILE);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!line[0])
			continue;
		printf("%s%s", first ? "" : "; ", line);
		first = false;
	}
	fclose(f);
	printf("%s\n", first ? "(empty placement file)" : "");
}

void lat_print_header(const struct bench_conn *b, const char *title,
		      const struct lat_floors *f)
{
	const struct bench_opts *o = b->o;

	if (o->json)
		return;
	printf("%s\n", rule);
	printf("#                                   %s\n", title);
	printf("# server node %u context %u, completion mode %s, %u iterations per row\n",
	       o->server_node, o->ctx, bench_mode_name(o), o->iters);
	printf("# transport floor (NOP round trip through the local card): polled t_typical "
	       "%.2f usec, 99%% %.2f usec", f->poll.typical, f->poll.p99);
	if (!o->poll_mode)
		printf("; %s t_typical %.2f usec, 99%% %.2f usec", bench_mode_name(o),
		       f->mode.typical, f->mode.p99);
	printf("\n# x_floor: t_typical / the %s floor's t_typical\n", bench_mode_name(o));
	if (!o->poll_mode)
		printf("# busy polling before sleeping: at most %d usec (LOOM_BUSY_POLL)\n",
		       loom_ctx_busy_poll(b->ctx));
	print_placement();
	printf("%s\n", rule);
	printf(" #bytes     #iterations t_min[usec] t_max[usec] t_typical[usec] t_avg[usec] "
	       "t_stdev[usec] 99%% percentile[usec] 99.9%% percentile[usec] x_floor op\n");
	fflush(stdout);
}

void lat_print_row(const struct bench_opts *o, uint64_t size, const struct lat_stats *st,
		   const struct lat_floors *f, const char *op)
{
	double floor_us = f->mode.typical;

	if (o->json) {
		printf("{\"bytes\": %" PRIu64 ", \"iterations\": %u, \"t_min\": %.2f, "
		       "\"t_max\": %.2f, \"t_typical\": %.2f, \"t_avg\": %.2f, "
		       "\"t_stdev\": %.2f, \"p99\": %.2f, \"p99.9\": %.2f, "
		       "\"floor_rtt\": %.2f, \"floor_poll_rtt\": %.2f, \"x_floor\": %.2f, "
		       "\"mode\": \"%s\", \"op\": \"%s\"}\n",
		       size, o->iters, st->min, st->max, st->typical, st->avg, st->stdev,
		       st->p99, st->p999, floor_us, f->poll.typical, st->typical / floor_us,
		       bench_mode_name(o), op);
	} else {
		printf(" %-10" PRIu64 " %-11u %-11.2f %-11.2f %-15.2f %-11.2f %-13.2f "
		       "%-20.2f %-22.2f %-7.1f %s\n", size, o->iters, st->min, st->max,
		       st->typical, st->avg, st->stdev, st->p99, st->p999,
		       st->typical / floor_us, op);
	}
	fflush(stdout);
}
