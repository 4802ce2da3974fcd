// SPDX-License-Identifier: GPL-2.0
/*
 * loom_mr_reg: how long registering and deregistering memory regions takes.
 *
 *   loom_mr_reg [-d DEV] [-n ITERATIONS] [-s MAX_SIZE]
 *
 * For sizes from 4 KiB up to MAX_SIZE (default 64 MiB), by powers of 4,
 * registers and deregisters an anonymous buffer (faulted in once
 * beforehand, as a long-lived application buffer is) ITERATIONS times and
 * prints the time of loom_mr_reg() and loom_mr_dereg(): minimum, median
 * and maximum in milliseconds, and the registration rate in GiB/s.  Needs
 * RLIMIT_MEMLOCK (or CAP_IPC_LOCK) for MAX_SIZE.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <loom.h>

#include "../common/cli.h"
#include "../common/parse_num.h"

#define MAX_ITERS	1000

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void usage(FILE *f)
{
	fprintf(f,
"Usage: loom_mr_reg [-d DEV] [-n ITERATIONS] [-s MAX_SIZE]\n"
"\n"
"Time of loom_mr_reg() and loom_mr_dereg() for buffers of 4 KiB up to\n"
"MAX_SIZE, ITERATIONS times each: min, median, max in ms and the\n"
"registration rate.\n"
"\n"
"  -d, --dev DEV          the card: loomN or its device node (default\n"
"                         $LOOM_DEVICE, else loom0)\n"
"  -n, --iters N          registrations per size, 1..%d (default 20)\n"
"  -s, --size MAX_SIZE    the largest buffer, 4K..1G-4K (default 64M;\n"
"                         suffixes K, M, G)\n"
"  -h, --help             this text\n"
"  -V, --version          the version\n"
"\n"
"Exit status: 0 success, 1 a registration failed, 2 usage error.\n",
		MAX_ITERS);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "iters", required_argument, NULL, 'n' },
		{ "size", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *device = NULL;
	char dev_buf[64];
	static double reg_ms[MAX_ITERS], dereg_ms[MAX_ITERS];
	uint64_t iters = 20, max = 64ull << 20;
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	uint8_t *buf;
	int c, err;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":d:n:s:hV", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			device = cli_dev_path(optarg, dev_buf, sizeof(dev_buf));
			if (!device) {
				fprintf(stderr, "loom_mr_reg: invalid --dev '%s': give a card name, loomN, or its device node\n",
					optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'n':
			if (!parse_num(optarg, &iters, false) || !iters || iters > MAX_ITERS) {
				fprintf(stderr, "loom_mr_reg: invalid --iters '%s': give 1..%d\n", optarg,
					MAX_ITERS);
				return CLI_EXIT_USAGE;
			}
			break;
		case 's':
			if (!parse_num(optarg, &max, true) || max < 4096 || max > (1ull << 30) - 4096) {
				fprintf(stderr, "loom_mr_reg: invalid --size '%s': give 4K .. 1G-4K\n",
					optarg);
				return CLI_EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			return cli_version("loom_mr_reg");
		default:
			return cli_bad_option("loom_mr_reg", c, argv, opts);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "loom_mr_reg: unknown option or argument '%s'\nTry 'loom_mr_reg --help'.\n",
			argv[optind]);
		return CLI_EXIT_USAGE;
	}
	buf = mmap(NULL, max, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED) {
		fprintf(stderr, "loom_mr_reg: %llu bytes: %s\n", (unsigned long long)max,
			strerror(errno));
		return 1;
	}
	memset(buf, 1, max);
	err = loom_dev_open(device, &dev);
	if (!err)
		err = loom_ctx_create(dev, NULL, &ctx);
	if (err) {
		fprintf(stderr, "loom_mr_reg: open the card and a context: %s\n", loom_strerror(err));
		return 1;
	}
	printf("# loom_mr_reg: %llu iterations per size, buffer faulted in beforehand\n",
	       (unsigned long long)iters);
	printf("%12s %10s %10s %10s %12s %10s\n", "bytes", "reg_min", "reg_med", "reg_max",
	       "reg_GiB/s", "dereg_med");
	for (uint64_t size = 4096; size <= max; size *= 4) {
		for (uint64_t i = 0; i < iters; i++) {
			struct loom_mr *mr;
			double t0 = now_ms();

			err = loom_mr_reg(ctx, buf, size, LOOM_MR_LOCAL_WRITE | LOOM_MR_REMOTE_WRITE,
					  &mr);
			reg_ms[i] = now_ms() - t0;
			if (err) {
				fprintf(stderr, "loom_mr_reg: register %llu bytes: %s (raise RLIMIT_MEMLOCK: ulimit -l)\n",
					(unsigned long long)size, loom_strerror(err));
				return 1;
			}
			t0 = now_ms();
			err = loom_mr_dereg(mr);
			dereg_ms[i] = now_ms() - t0;
			if (err) {
				fprintf(stderr, "loom_mr_reg: deregister: %s\n", loom_strerror(err));
				return 1;
			}
		}
		qsort(reg_ms, iters, sizeof(double), cmp_double);
		qsort(dereg_ms, iters, sizeof(double), cmp_double);
		printf("%12llu %10.3f %10.3f %10.3f %12.2f %10.3f\n", (unsigned long long)size,
		       reg_ms[0],
		       reg_ms[iters / 2], reg_ms[iters - 1],
		       (double)size / (reg_ms[iters / 2] / 1e3) / (1 << 30), dereg_ms[iters / 2]);
		if (size * 4 > max && size != max)
			size = max / 4;	/* end on MAX_SIZE itself */
	}
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	return 0;
}
