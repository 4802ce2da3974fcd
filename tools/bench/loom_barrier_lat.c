// SPDX-License-Identifier: GPL-2.0
/*
 * loom_barrier_lat: hardware barrier latency across the hosts of a fabric,
 * perftest style.
 *
 *   every host:  loom_barrier_lat [OPTIONS]
 *
 * Every participating host runs the same command on the same BSU, whose
 * spanning tree was configured beforehand (loomctl bsu set).  The first
 * barrier is the rendezvous; then each host times ITERS barriers, from its
 * join to its completion, and prints its own statistics.  The last host to
 * join sees the shortest times: the network's fan-in and fan-out alone.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <loom.h>

#include "../common/cli.h"
#include "../common/parse_num.h"
#include "lat_stats.h"

#define EXIT_USAGE	2

struct opts {
	const char *device;
	char dev_buf[64];
	uint32_t unit, iters, warmup;
	int timeout_s;
	unsigned int mode;	/* LOOM_BSU_MODE_* */
	bool json, eureka, eureka_wait;
};

static const char *const mode_names[] = {
	[LOOM_BSU_MODE_POLL] = "poll",
	[LOOM_BSU_MODE_INTERRUPT] = "interrupt",
	[LOOM_BSU_MODE_URING] = "uring",
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: loom_barrier_lat [OPTIONS]        (on every participating host)\n"
"\n"
"Barrier latency over a loom BSU (hardware barrier/eureka unit), perftest\n"
"style.  Configure the unit's spanning tree on every card first (loomctl bsu\n"
"set), then start this on every host of the tree with the same options.  The\n"
"first barrier waits for everybody; then every host times ITERS barriers\n"
"(join to completion, microseconds) and prints t_min t_max t_typical t_avg\n"
"t_stdev 99%% 99.9%%.\n"
"\n"
"Options:\n"
"  -d, --dev DEV       the card: loomN or its device node (default\n"
"                      $LOOM_DEVICE, else loom0)\n"
"  -b, --bsu N         the unit, 0..31 (default 0)\n"
"  -n, --iters N       timed barriers (default 1000)\n"
"  -w, --warmup N      untimed barriers first (default 10)\n"
"  -e, --eureka        after the timed barriers, one eureka round: this host\n"
"                      signals a eureka and joins the barrier that follows\n"
"  -E, --eureka-wait   ... and this host waits for that eureka, then joins.\n"
"                      Give -e to exactly one host and -E to all the others.\n"
"  -m, --mode MODE     how waits wait: 'poll' (busy, read the unit's page;\n"
"                      the default), 'interrupt' (sleep in the kernel until\n"
"                      the card's BSU interrupt) or 'uring' (sleep on an\n"
"                      io_uring command)\n"
"  -T, --timeout S     give up after S seconds without progress (default 30)\n"
"  -j, --json          one JSON object instead of the table\n"
"  -h, --help          this text\n"
"  -V, --version       the version\n"
"\n"
"Exit status: 0 success, 1 a barrier failed or timed out, 2 usage error.\n");
}

static void __attribute__((noreturn)) bad(const char *what, const char *arg)
{
	fprintf(stderr, "loom_barrier_lat: %s '%s'\nTry 'loom_barrier_lat --help'.\n", what, arg);
	exit(EXIT_USAGE);
}

/* an unknown option or argument, with the closest option when one is close */
static void __attribute__((noreturn)) unknown(const char *arg)
{
	static const char *const opts[] = { "--dev", "--bsu", "--iters", "--warmup", "--eureka",
					    "--eureka-wait", "--mode", "--timeout", "--json",
					    "--help", "--version", NULL };
	const char *near = arg[0] == '-' ? cli_suggest(arg, opts) : NULL;

	if (near)
		fprintf(stderr, "loom_barrier_lat: unknown option '%s': did you mean '%s'?\nTry 'loom_barrier_lat --help'.\n",
			arg, near);
	else
		fprintf(stderr, "loom_barrier_lat: unknown option or argument '%s'\nTry 'loom_barrier_lat --help'.\n",
			arg);
	exit(EXIT_USAGE);
}

static uint32_t num_arg(const char *opt, const char *arg, uint32_t min, uint32_t max)
{
	uint64_t v;

	if (!parse_num(arg, &v, false) || v < min || v > max) {
		fprintf(stderr, "loom_barrier_lat: %s '%s': expected a number in %u..%u\n",
			opt, arg, min, max);
		exit(EXIT_USAGE);
	}
	return (uint32_t)v;
}

/* the options that take a value, each in its short and long spelling */
static bool opt_takes_value(const char *a)
{
	static const char *const with_value[] = { "-d", "--dev", "--device", "-b", "--bsu",
						  "-n", "--iters", "-w", "--warmup", "-m",
						  "--mode", "-T", "--timeout", NULL };

	for (const char *const *o = with_value; *o; o++)
		if (!strcmp(a, *o))
			return true;
	return false;
}

static void parse(int argc, char **argv, struct opts *o)
{
	memset(o, 0, sizeof(*o));
	o->iters = 1000;
	o->warmup = 10;
	o->timeout_s = 30;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(0);
		} else if (cli_is_version(a)) {
			exit(cli_version("loom_barrier_lat"));
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			o->json = true;
		} else if (!strcmp(a, "-e") || !strcmp(a, "--eureka")) {
			o->eureka = true;
		} else if (!strcmp(a, "-E") || !strcmp(a, "--eureka-wait")) {
			o->eureka_wait = true;
		} else if (!opt_takes_value(a)) {
			unknown(a);
		} else if (!v) {
			bad("option needs a value:", a);
		} else if (!strcmp(a, "-d") || !strcmp(a, "--dev") || !strcmp(a, "--device")) {
			o->device = cli_dev_path(v, o->dev_buf, sizeof(o->dev_buf));
			if (!o->device)
				bad("--dev: not a card name (loomN) nor a device node:", v);
			i++;
		} else if (!strcmp(a, "-b") || !strcmp(a, "--bsu")) {
			o->unit = num_arg(a, v, 0, 31);
			i++;
		} else if (!strcmp(a, "-n") || !strcmp(a, "--iters")) {
			o->iters = num_arg(a, v, 1, 10000000);
			i++;
		} else if (!strcmp(a, "-w") || !strcmp(a, "--warmup")) {
			o->warmup = num_arg(a, v, 0, 10000000);
			i++;
		} else if (!strcmp(a, "-m") || !strcmp(a, "--mode")) {
			o->mode = LOOM_BSU_MODE_URING + 1;
			for (unsigned int m = 0; m <= LOOM_BSU_MODE_URING; m++)
				if (!strcmp(v, mode_names[m]))
					o->mode = m;
			if (o->mode > LOOM_BSU_MODE_URING) {
				fprintf(stderr, "loom_barrier_lat: %s '%s': expected 'poll', 'interrupt' or 'uring'\nTry 'loom_barrier_lat --help'.\n",
					a, v);
				exit(EXIT_USAGE);
			}
			i++;
		} else if (!strcmp(a, "-T") || !strcmp(a, "--timeout")) {
			o->timeout_s = (int)num_arg(a, v, 1, 3600);
			i++;
		} else {
			unknown(a);
		}
	}
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int fail(const char *what, int err)
{
	fprintf(stderr, "loom_barrier_lat: %s: %s\n", what, loom_strerror(err));
	return 1;
}

int main(int argc, char **argv)
{
	struct lat_stats st;
	struct loom_dev *dev;
	struct loom_bsu *b;
	struct opts o;
	double *lat;
	int err, rc = 1;

	parse(argc, argv, &o);
	lat = calloc(o.iters, sizeof(*lat));
	if (!lat)
		return fail("no memory for the samples", -ENOMEM);
	err = loom_dev_open(o.device, &dev);
	if (err) {
		free(lat);
		return fail("cannot open the loom device (is loom.ko loaded?)", err);
	}
	err = loom_bsu_open(dev, o.unit, &b);
	if (err) {
		fprintf(stderr, "loom_barrier_lat: cannot claim BSU %u: %s%s\n", o.unit,
			loom_strerror(err),
			err == -EBUSY ? " (another process holds it: pick another with -b)" : "");
		goto out_dev;
	}
	err = loom_bsu_set_mode(b, o.mode);
	if (err) {
		fprintf(stderr, "loom_barrier_lat: cannot wait in %s mode: %s%s\n",
			mode_names[o.mode], loom_strerror(err),
			err == -EOPNOTSUPP ? " (loom.ko too old: use -m poll)" : "");
		goto out_bsu;
	}
	/* the rendezvous: everybody has started */
	err = loom_barrier(b, o.timeout_s * 1000);
	if (err) {
		fail("the first barrier did not complete (is every host running, is the tree set?)", err);
		goto out_bsu;
	}
	for (uint32_t i = 0; i < o.warmup; i++) {
		err = loom_barrier(b, o.timeout_s * 1000);
		if (err) {
			fail("warm-up barrier", err);
			goto out_bsu;
		}
	}
	for (uint32_t i = 0; i < o.iters; i++) {
		double t0 = now_us();

		err = loom_barrier(b, o.timeout_s * 1000);
		if (err) {
			fprintf(stderr, "loom_barrier_lat: barrier %u of %u: %s\n", i + 1, o.iters,
				loom_strerror(err));
			goto out_bsu;
		}
		lat[i] = now_us() - t0;
	}
	if (o.eureka) {
		err = loom_eureka_signal(b, LOOM_EUREKA_JOIN);
		if (!err)
			err = loom_barrier_wait(b, o.timeout_s * 1000);
	} else if (o.eureka_wait) {
		err = loom_eureka_wait(b, o.timeout_s * 1000);
		if (!err)
			err = loom_barrier(b, o.timeout_s * 1000);
	}
	if (err) {
		fail("eureka and the barrier after it", err);
		goto out_bsu;
	}
	lat_stats_compute(lat, o.iters, &st);
	if (o.json) {
		printf("{\"bsu\":%u,\"iterations\":%u,\"t_min\":%.2f,\"t_max\":%.2f,"
		       "\"t_typical\":%.2f,\"t_avg\":%.2f,\"t_stdev\":%.2f,\"p99\":%.2f,"
		       "\"p999\":%.2f,\"mode\":\"%s\"}\n", o.unit, o.iters, st.min, st.max,
		       st.typical, st.avg, st.stdev, st.p99, st.p999, mode_names[o.mode]);
	} else {
		printf("# loom_barrier_lat: BSU %u, barrier join to completion, completion mode %s\n",
		       o.unit, mode_names[o.mode]);
		printf(" #iterations  t_min[usec]  t_max[usec]  t_typical[usec]  t_avg[usec]  t_stdev[usec]  99%% percentile[usec]  99.9%% percentile[usec]\n");
		printf(" %-11u  %-11.2f  %-11.2f  %-15.2f  %-11.2f  %-13.2f  %-20.2f  %.2f\n",
		       o.iters, st.min, st.max, st.typical, st.avg, st.stdev, st.p99, st.p999);
	}
	rc = 0;
out_bsu:
	loom_bsu_close(b);
out_dev:
	loom_dev_close(dev);
	free(lat);
	return rc;
}
