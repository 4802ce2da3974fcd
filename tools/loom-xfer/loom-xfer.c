// SPDX-License-Identifier: GPL-2.0
/*
 * loom-xfer: move a known pattern between two hosts through loom and
 * verify every byte.
 *
 *   loom-xfer recv --ctx IDX --key KEY [--size BYTES] [--seed S] [--timeout SEC]
 *   loom-xfer send --to NODE --ctx IDX --key KEY [--size BYTES] [--chunk BYTES]
 *                  [--seed S] [--timeout SEC] [--corrupt-at OFFSET]
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <loom.h>

#include "../common/cli.h"
#include "../common/parse_num.h"
#include "pattern.h"

#define EXIT_USAGE 2

struct opts {
	const char *device;
	bool send;
	uint32_t to, ctx, key;
	uint64_t size, chunk, seed;
	int64_t corrupt_at;
	int timeout_s;
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: loom-xfer recv --ctx IDX --key KEY [OPTIONS]\n"
"       loom-xfer send --to NODE --ctx IDX --key KEY [OPTIONS]\n"
"\n"
"Moves SIZE bytes of a position-dependent pattern from the sender's segment\n"
"into the receiver's segment with loom puts, then the receiver checks every\n"
"byte.  Start the receiver first; the sender retries while the receiver's\n"
"context does not exist yet.\n"
"\n"
"  recv                 create context IDX with KEY, wait for SIZE bytes to\n"
"                       arrive, verify them; exit 0 only if all are right\n"
"  send                 put SIZE bytes to context IDX on logical node NODE\n"
"\n"
"Options:\n"
"  -d, --dev DEV        the card: loomN or its device node (default\n"
"                       $LOOM_DEVICE, else loom0)\n"
"  -t, --to NODE        destination logical node id (send)\n"
"  -c, --ctx IDX        receiver's context index\n"
"  -k, --key KEY        partition key of this end's context: the same on\n"
"                       both ends (the card refuses other partitions)\n"
"  -s, --size BYTES     bytes to move (default 1M; K and M suffixes)\n"
"  -C, --chunk BYTES    bytes per put operation (default 64K)\n"
"  -S, --seed N         pattern seed (default 1)\n"
"  -T, --timeout SEC    give up after SEC seconds (default 60)\n"
"      --corrupt-at OFF (send) flip one source byte at OFF after filling the\n"
"                       pattern, to prove the receiver's check catches it\n"
"  -h, --help           this text\n"
"  -V, --version        the version\n"
"\n"
"Exit status: 0 success, 1 transfer or verification failed, 2 usage error.\n");
}

static uint32_t parse_u32_opt(const char *name, const char *s)
{
	uint64_t v;

	if (!parse_num(s, &v, false) || v > UINT32_MAX) {
		fprintf(stderr, "loom-xfer: invalid %s '%s': expected an integer 0..4294967295\n",
			name, s);
		exit(EXIT_USAGE);
	}
	return (uint32_t)v;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int open_ctx(const struct opts *o, bool fixed, struct loom_dev **dev,
		    struct loom_ctx **ctx)
{
	struct loom_ctx_attr attr = { 0 };
	uint64_t seg = 4096;
	int err;

	while (seg < o->size)
		seg *= 2;
	attr.segment_size = seg;
	attr.key = o->key;
	if (fixed) {
		attr.flags = LOOM_CTX_ATTR_INDEX;
		attr.index = o->ctx;
	}
	err = loom_dev_open(o->device, dev);
	if (err) {
		fprintf(stderr, "loom-xfer: cannot open %s: %s (is loom.ko loaded?)\n",
			o->device ? o->device : "the loom device", loom_strerror(err));
		return 1;
	}
	err = loom_ctx_create(*dev, &attr, ctx);
	if (err) {
		fprintf(stderr, "loom-xfer: cannot create a context%s: %s\n",
			fixed ? " with that index" : "", loom_strerror(err));
		loom_dev_close(*dev);
		return 1;
	}
	return 0;
}

static int do_recv(const struct opts *o)
{
	struct loom_completion c[64];
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	uint64_t got = 0, ops = 0;
	double t0, deadline;
	size_t bad, first;
	uint8_t *seg;
	int rc = 1;

	if (open_ctx(o, true, &dev, &ctx))
		return 1;
	/*
	 * The segment starts zeroed (kernel guarantee) and puts may land as
	 * soon as the context exists: never write it here, or early data
	 * would be wiped.
	 */
	seg = loom_ctx_segment(ctx, NULL);
	printf("recv: node %u context %u ready for %" PRIu64 " bytes\n",
	       loom_ctx_node(ctx), loom_ctx_index(ctx), o->size);
	fflush(stdout);

	t0 = now_s();
	deadline = t0 + o->timeout_s;
	while (got < o->size) {
		int left_ms = (int)((deadline - now_s()) * 1000);
		int n = left_ms > 0 ? loom_wait(ctx, c, 64, left_ms) : -ETIMEDOUT;

		if (n < 0) {
			fprintf(stderr, "loom-xfer: waiting for data: %s after %" PRIu64
				" of %" PRIu64 " bytes\n", loom_strerror(n), got, o->size);
			goto out;
		}
		for (int i = 0; i < n; i++) {
			if (c[i].kind != LOOM_COMPLETION_ARRIVAL)
				continue;
			if (c[i].status) {
				fprintf(stderr, "loom-xfer: arrival with error: %s\n",
					loom_strerror(c[i].status));
				goto out;
			}
			if (c[i].tag > o->size || c[i].value > o->size - c[i].tag) {
				fprintf(stderr, "loom-xfer: arrival outside the expected range: "
					"offset %" PRIu64 " length %" PRIu64 "\n", c[i].tag, c[i].value);
				goto out;
			}
			got += c[i].value;
			ops++;
		}
	}
	first = pattern_check(seg, o->size, o->seed, &bad);
	if (bad) {
		printf("recv: %" PRIu64 " bytes in %" PRIu64 " puts, verification FAILED: "
		       "%zu bad bytes, first at offset %zu (0x%02x, expected 0x%02x)\n",
		       got, ops, bad, first, seg[first], pattern_byte(o->seed, first));
		goto out;
	}
	printf("recv: %" PRIu64 " bytes in %" PRIu64 " puts, every byte verified\n", got, ops);
	rc = 0;
out:
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	return rc;
}

static int do_send(const struct opts *o)
{
	const struct loom_remote dst = { .node = o->to, .ctx = o->ctx, .key = o->key };
	struct loom_completion c[64];
	uint64_t posted = 0, done = 0, retries = 0;
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	double t0, t1, deadline;
	uint8_t *seg;
	int rc = 1;

	if (open_ctx(o, false, &dev, &ctx))
		return 1;
	seg = loom_ctx_segment(ctx, NULL);
	pattern_fill(seg, o->size, o->seed);
	if (o->corrupt_at >= 0)
		seg[o->corrupt_at] ^= 0x5a;

	t0 = now_s();
	deadline = t0 + o->timeout_s;
	while (done < o->size) {
		while (posted < o->size) {
			uint64_t len = o->size - posted < o->chunk ? o->size - posted : o->chunk;
			int err = loom_put(ctx, &dst, posted, posted, len,
					   LOOM_PUT_REMOTE_EVENT, posted);

			if (err == -EAGAIN)
				break;
			if (err) {
				fprintf(stderr, "loom-xfer: put failed: %s\n", loom_strerror(err));
				goto out;
			}
			posted += len;
		}
		int left_ms = (int)((deadline - now_s()) * 1000);
		int n = left_ms > 0 ? loom_wait(ctx, c, 64, left_ms) : -ETIMEDOUT;

		if (n < 0) {
			fprintf(stderr, "loom-xfer: waiting for completions: %s after %" PRIu64
				" of %" PRIu64 " bytes\n", loom_strerror(n), done, o->size);
			goto out;
		}
		for (int i = 0; i < n; i++) {
			if (c[i].kind != LOOM_COMPLETION_LOCAL)
				continue;
			if (c[i].status == LOOM_STATUS_NO_CTX && now_s() < deadline) {
				/* receiver not up yet: send this chunk again */
				uint64_t len = o->size - c[i].tag < o->chunk ?
					       o->size - c[i].tag : o->chunk;
				int err;

				retries++;
				struct timespec ts = { 0, 20 * 1000 * 1000 };

				nanosleep(&ts, NULL);
				err = loom_put(ctx, &dst, c[i].tag, c[i].tag, len,
					       LOOM_PUT_REMOTE_EVENT, c[i].tag);
				if (err) {
					fprintf(stderr, "loom-xfer: put failed: %s\n",
						loom_strerror(err));
					goto out;
				}
				continue;
			}
			if (c[i].status) {
				fprintf(stderr, "loom-xfer: put at offset %" PRIu64 " to node %u "
					"ctx %u failed: %s\n", c[i].tag, o->to, o->ctx,
					loom_strerror(c[i].status));
				goto out;
			}
			done += c[i].value;
		}
	}
	t1 = now_s();
	printf("send: %" PRIu64 " bytes to node %u context %u in %.3f s (%.1f MB/s)%s\n",
	       done, o->to, o->ctx, t1 - t0, done / (t1 - t0) / 1e6,
	       retries ? " after waiting for the receiver" : "");
	rc = 0;
out:
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "device", required_argument, NULL, 'd' },
		{ "to", required_argument, NULL, 't' },
		{ "ctx", required_argument, NULL, 'c' },
		{ "key", required_argument, NULL, 'k' },
		{ "size", required_argument, NULL, 's' },
		{ "chunk", required_argument, NULL, 'C' },
		{ "seed", required_argument, NULL, 'S' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "corrupt-at", required_argument, NULL, 'X' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	char dev_buf[64];
	struct opts o = { .size = 1 << 20, .chunk = 64 << 10, .seed = 1,
			  .corrupt_at = -1, .timeout_s = 60 };
	bool have_to = false, have_ctx = false, have_key = false;
	uint64_t v;
	int opt;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	if (cli_is_version(argv[1]))
		return cli_version("loom-xfer");
	if (!strcmp(argv[1], "send")) {
		o.send = true;
	} else if (strcmp(argv[1], "recv")) {
		static const char *const cmds[] = { "send", "recv", NULL };
		const char *near = cli_suggest(argv[1], cmds);

		if (near)
			fprintf(stderr, "loom-xfer: unknown command '%s': did you mean '%s'? (commands: send, recv; see --help)\n",
				argv[1], near);
		else
			fprintf(stderr, "loom-xfer: unknown command '%s': expected 'send' or 'recv' (see --help)\n",
				argv[1]);
		return EXIT_USAGE;
	}
	optind = 2;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":d:t:c:k:s:C:S:T:hV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			o.device = cli_dev_path(optarg, dev_buf, sizeof(dev_buf));
			if (!o.device) {
				fprintf(stderr, "loom-xfer: invalid --dev '%s': expected a card name, loomN, or its device node\n",
					optarg);
				return EXIT_USAGE;
			}
			break;
		case 't': o.to = parse_u32_opt("--to", optarg); have_to = true; break;
		case 'c': o.ctx = parse_u32_opt("--ctx", optarg); have_ctx = true; break;
		case 'k': o.key = parse_u32_opt("--key", optarg); have_key = true; break;
		case 'S': o.seed = parse_u32_opt("--seed", optarg); break;
		case 'T': o.timeout_s = (int)parse_u32_opt("--timeout", optarg); break;
		case 's':
		case 'C':
			if (!parse_num(optarg, &v, true) || !v || v > (4u << 20)) {
				fprintf(stderr, "loom-xfer: invalid %s '%s': expected 1 .. 4M bytes\n",
					opt == 's' ? "--size" : "--chunk", optarg);
				return EXIT_USAGE;
			}
			if (opt == 's')
				o.size = v;
			else
				o.chunk = v;
			break;
		case 'X':
			if (!parse_num(optarg, &v, true)) {
				fprintf(stderr, "loom-xfer: invalid --corrupt-at '%s'\n", optarg);
				return EXIT_USAGE;
			}
			o.corrupt_at = (int64_t)v;
			break;
		case 'h': usage(stdout); return 0;
		case 'V': return cli_version("loom-xfer");
		default: return cli_bad_option("loom-xfer", opt, argv, longopts);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "loom-xfer: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (!have_ctx || !have_key || (o.send && !have_to)) {
		fprintf(stderr, "loom-xfer: %s needs %s--ctx and --key (see --help)\n",
			argv[1], o.send ? "--to, " : "");
		return EXIT_USAGE;
	}
	if (o.corrupt_at >= 0 && (!o.send || (uint64_t)o.corrupt_at >= o.size)) {
		fprintf(stderr, "loom-xfer: --corrupt-at must be a send option below --size\n");
		return EXIT_USAGE;
	}
	return o.send ? do_send(&o) : do_recv(&o);
}
