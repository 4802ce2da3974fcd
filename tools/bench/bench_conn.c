// SPDX-License-Identifier: GPL-2.0
/* The parts every loom benchmark shares (see bench_conn.h). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../common/parse_num.h"
#include "bench_conn.h"
#include "../common/cli.h"

double bench_now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void bench_print_common_options(FILE *f, bool with_depth)
{
	fprintf(f,
"  -d, --dev DEV        the card: loomN or its device node (default\n"
"                       $LOOM_DEVICE, else loom0)\n"
"  -x, --ctx IDX        context index both sides use (default 40; the client\n"
"                       takes IDX + 1)\n"
"  -k, --key KEY        partition key of both sides' contexts (default 0x10a1)\n"
"  -s, --size BYTES     message size (default 8; K and M suffixes)\n"
"  -a, --all            sizes 8 B .. 1 MiB, doubling (the client decides)\n"
"  -M, --max-size BYTES with --all: stop at BYTES (default 1M)\n"
"  -n, --iters N        iterations per size (default 1000)\n");
	if (with_depth)
		fprintf(f,
"  -D, --depth N        puts kept outstanding (default 64, at most 256)\n"
"  -C, --cable-floor MB/S  the cable floor measured by loom_cable_bw on the\n"
"                       host: adds x_cable, BW average / the floor\n");
	fprintf(f,
"  -m, --mode MODE      completion: 'poll' (busy), 'interrupt' (sleep in\n"
"                       poll(); default; the lab's 2 CPUs favour it) or\n"
"                       'uring' (sleep on an io_uring command)\n"
"  -T, --timeout SEC    give up after SEC seconds without progress (default 60)\n"
"  -j, --json           one JSON object per size instead of the table\n"
"  -h, --help           this text\n"
"  -V, --version        the version\n");
}

static void die_usage(const struct bench_opts *o, const char *opt, const char *val,
		      const char *expected)
{
	fprintf(stderr, "%s: invalid %s '%s': expected %s\n", o->prog, opt, val, expected);
	exit(BENCH_EXIT_USAGE);
}

static uint64_t num_arg(const struct bench_opts *o, const char *opt, const char *val,
			uint64_t min, uint64_t max, const char *expected)
{
	uint64_t v;

	if (!parse_num(val, &v, true) || v < min || v > max)
		die_usage(o, opt, val, expected);
	return v;
}

void bench_parse_args(int argc, char **argv, struct bench_opts *o,
		      void (*usage)(FILE *f), bool with_depth)
{
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, 'd' },
		{ "device", required_argument, NULL, 'd' },
		{ "ctx", required_argument, NULL, 'x' },
		{ "key", required_argument, NULL, 'k' },
		{ "size", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "max-size", required_argument, NULL, 'M' },
		{ "iters", required_argument, NULL, 'n' },
		{ "depth", required_argument, NULL, 'D' },
		{ "cable-floor", required_argument, NULL, 'C' },
		{ "mode", required_argument, NULL, 'm' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	int opt;

	*o = (struct bench_opts){ .prog = o->prog, .ctx = 40, .key = 0x10a1, .size = 8,
				  .max_size = BENCH_MAX_SIZE, .iters = 1000, .depth = 64,
				  .timeout_s = 60 };
	opterr = 0;
	while ((opt = getopt_long(argc, argv, with_depth ? ":d:x:k:s:aM:n:D:C:m:T:jhV" :
				  ":d:x:k:s:aM:n:m:T:jhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd':
			o->device = cli_dev_path(optarg, o->dev_buf, sizeof(o->dev_buf));
			if (!o->device)
				die_usage(o, "--dev", optarg, "a card name, loomN, or its device node");
			break;
		case 'x':
			o->ctx = (uint32_t)num_arg(o, "--ctx", optarg, 0, 0xfffe,
						   "a context index 0..65534");
			break;
		case 'k':
			o->key = (uint32_t)num_arg(o, "--key", optarg, 0, UINT32_MAX, "a 32-bit key");
			break;
		case 's':
			o->size = num_arg(o, "--size", optarg, 1, BENCH_MAX_SIZE, "1 .. 1M bytes");
			break;
		case 'a': o->all_sizes = true; break;
		case 'M':
			o->max_size = num_arg(o, "--max-size", optarg, 8, BENCH_MAX_SIZE,
					      "8 .. 1M bytes");
			break;
		case 'n':
			o->iters = (uint32_t)num_arg(o, "--iters", optarg, 1, 10000000,
						     "1 .. 10000000");
			break;
		case 'D':
			if (!with_depth) {
				fprintf(stderr, "%s: --depth is an option of the bandwidth test (loom_put_bw) only\nTry '%s --help'.\n",
					o->prog, o->prog);
				exit(BENCH_EXIT_USAGE);
			}
			o->depth = (uint32_t)num_arg(o, "--depth", optarg, 1, 256, "1 .. 256");
			break;
		case 'C': {
			char *end;

			if (!with_depth) {
				fprintf(stderr, "%s: --cable-floor is an option of the bandwidth test (loom_put_bw) only\nTry '%s --help'.\n",
					o->prog, o->prog);
				exit(BENCH_EXIT_USAGE);
			}
			errno = 0;
			o->cable_floor = strtod(optarg, &end);
			if (errno || end == optarg || *end ||
			    !(o->cable_floor > 0 && o->cable_floor <= 1e7))
				die_usage(o, "--cable-floor", optarg, "MB/s, above 0 and at most 10000000");
			break;
		}
		case 'm':
			o->poll_mode = !strcmp(optarg, "poll");
			o->uring_mode = !strcmp(optarg, "uring");
			if (!o->poll_mode && !o->uring_mode && strcmp(optarg, "interrupt"))
				die_usage(o, "--mode", optarg, "'poll', 'interrupt' or 'uring'");
			break;
		case 'T':
			o->timeout_s = (int)num_arg(o, "--timeout", optarg, 1, 86400,
						    "1 .. 86400 seconds");
			break;
		case 'j': o->json = true; break;
		case 'h': usage(stdout); exit(0);
		case 'V': exit(cli_version(o->prog));
		default:
			exit(cli_bad_option(o->prog, opt, argv, longopts));
		}
	}
	if (optind < argc) {
		o->server_node = (uint32_t)num_arg(o, "SERVER_NODE", argv[optind], 0, UINT32_MAX,
						   "a logical node id");
		o->client = true;
		if (++optind < argc) {
			fprintf(stderr, "%s: unexpected argument '%s' (see --help)\n", o->prog,
				argv[optind]);
			exit(BENCH_EXIT_USAGE);
		}
	}
}

const char *bench_mode_name(const struct bench_opts *o)
{
	return o->poll_mode ? "poll" : o->uring_mode ? "uring" : "interrupt";
}

int bench_open(struct bench_conn *b, const struct bench_opts *o)
{
	struct loom_ctx_attr attr = {
		.flags = LOOM_CTX_ATTR_INDEX | (o->uring_mode ? LOOM_CTX_ATTR_URING : 0),
		.index = o->client ? o->ctx + 1 : o->ctx,
		.key = o->key,
		.segment_size = BENCH_SEGMENT_SIZE,
		.cmdq_entries = 256,
		.cq_entries = 1024,
	};
	int err;

	memset(b, 0, sizeof(*b));
	b->o = o;
	err = loom_dev_open(o->device, &b->dev);
	if (err) {
		fprintf(stderr, "%s: cannot open %s: %s (is loom.ko loaded?)\n", o->prog,
			o->device ? o->device : "the loom device", loom_strerror(err));
		return 1;
	}
	err = loom_ctx_create(b->dev, &attr, &b->ctx);
	if (err) {
		fprintf(stderr, "%s: cannot create context %u: %s%s\n", o->prog, attr.index,
			loom_strerror(err), err == -EINVAL && getenv("LOOM_BUSY_POLL") ?
			" (is LOOM_BUSY_POLL microseconds, 0 .. 100000?)" : "");
		loom_dev_close(b->dev);
		return 1;
	}
	if (o->client)
		b->peer = (struct loom_remote){ .node = o->server_node, .ctx = o->ctx,
						.key = o->key };
	bench_arm(b);
	return 0;
}

void bench_close(struct bench_conn *b)
{
	loom_ctx_destroy(b->ctx);
	loom_dev_close(b->dev);
}

void bench_arm(struct bench_conn *b)
{
	b->deadline = bench_now_us() + b->o->timeout_s * 1e6;
}

/* reap_one() result: the deadline passed, nothing printed yet */
#define REAP_TIMED_OUT 2

/*
 * Reaps one completion into @c.  Failed operations end the benchmark,
 * except a LOCAL completion with NO_CTX when @tolerate_no_ctx (the client
 * waiting for its server).  Returns 0; 1 after printing why it failed; or
 * REAP_TIMED_OUT, unprinted, so that the caller names what it waited for.
 */
static int reap_one(struct bench_conn *b, struct loom_completion *c, bool tolerate_no_ctx)
{
	for (;;) {
		int n;

		if (b->o->poll_mode || b->force_poll) {
			n = loom_poll(b->ctx, c, 1);
			if (!n && bench_now_us() > b->deadline)
				n = -ETIMEDOUT;
		} else {
			int left = (int)((b->deadline - bench_now_us()) / 1000);

			n = left > 0 ? loom_wait(b->ctx, c, 1, left) : -ETIMEDOUT;
		}
		if (n == -ETIMEDOUT)
			return REAP_TIMED_OUT;
		if (n < 0) {
			fprintf(stderr, "%s: waiting for a completion: %s\n", b->o->prog,
				loom_strerror(n));
			return 1;
		}
		if (!n)
			continue;
		if (c->status && !(tolerate_no_ctx && c->kind == LOOM_COMPLETION_LOCAL &&
				   c->status == LOOM_STATUS_NO_CTX)) {
			fprintf(stderr, "%s: %s node %u ctx %u failed: %s\n", b->o->prog,
				c->kind == LOOM_COMPLETION_LOCAL ? "put to" : "arrival from",
				c->node, c->ctx, loom_strerror(c->status));
			return 1;
		}
		return 0;
	}
}

/*
 * Waits for a completion of @kind.  Completions of the other kind met on
 * the way are kept, not lost: a reply can overtake the ack of the put that
 * caused it.
 */
static int wait_for_kind(struct bench_conn *b, uint8_t kind, struct loom_completion *c)
{
	const unsigned int cap = sizeof(b->arrival) / sizeof(b->arrival[0]);

	for (;;) {
		if (kind == LOOM_COMPLETION_LOCAL && b->locals) {
			b->locals--;
			return 0;
		}
		if (kind == LOOM_COMPLETION_ARRIVAL && b->arrival_count) {
			*c = b->arrival[b->arrival_head];
			b->arrival_head = (b->arrival_head + 1) % cap;
			b->arrival_count--;
			return 0;
		}
		int err = reap_one(b, c, false);

		if (err)
			return err;
		if (c->kind == LOOM_COMPLETION_LOCAL) {
			b->locals++;
		} else if (b->arrival_count < cap) {
			b->arrival[(b->arrival_head + b->arrival_count) % cap] = *c;
			b->arrival_count++;
		} else {
			fprintf(stderr, "%s: more than %u unexpected arrivals\n", b->o->prog, cap);
			return 1;
		}
	}
}

int bench_wait_for(struct bench_conn *b, uint8_t kind, struct loom_completion *c)
{
	int err = wait_for_kind(b, kind, c);

	if (err == REAP_TIMED_OUT) {
		fprintf(stderr, "%s: no %s completion within %d s (timeout -T)\n", b->o->prog,
			kind == LOOM_COMPLETION_LOCAL ? "local" : "arrival", b->o->timeout_s);
		return 1;
	}
	return err;
}

int bench_put(struct bench_conn *b, uint64_t remote_off, uint64_t len, uint32_t flags)
{
	int err = loom_put(b->ctx, &b->peer, remote_off, 0, len, flags, len);

	if (err)
		fprintf(stderr, "%s: put of %" PRIu64 " bytes: %s\n", b->o->prog, len,
			loom_strerror(err));
	return err ? 1 : 0;
}

int bench_client_meet(struct bench_conn *b)
{
	struct loom_completion c;

	for (;;) {
		int err = bench_put(b, 0, 8, LOOM_PUT_REMOTE_EVENT);

		if (!err)
			err = reap_one(b, &c, true);
		if (err == REAP_TIMED_OUT)
			goto no_server;
		if (err)
			return 1;
		if (c.kind == LOOM_COMPLETION_ARRIVAL) {
			fprintf(stderr, "%s: unexpected arrival from node %u before the server answered\n",
				b->o->prog, c.node);
			return 1;
		}
		if (c.status == LOOM_STATUS_OK)
			break;
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		if (bench_now_us() > b->deadline)
			goto no_server;
	}
	/* the context exists; a server answers the hello with a put of its own */
	switch (wait_for_kind(b, LOOM_COMPLETION_ARRIVAL, &c)) {
	case 0:
		return 0;
	case REAP_TIMED_OUT:
		goto no_server;
	default:
		return 1;
	}
no_server:
	fprintf(stderr, "%s: no server on node %u context %u answered within %d s (start it first)\n",
		b->o->prog, b->peer.node, b->peer.ctx, b->o->timeout_s);
	return 1;
}

int bench_server_meet(struct bench_conn *b)
{
	struct loom_completion c;

	fprintf(stderr, "%s: server on node %u context %u, waiting for a client\n",
		b->o->prog, loom_ctx_node(b->ctx), loom_ctx_index(b->ctx));
	if (bench_wait_for(b, LOOM_COMPLETION_ARRIVAL, &c))
		return 1;
	b->peer = (struct loom_remote){ .node = c.node, .ctx = c.ctx, .key = b->o->key };
	bench_arm(b);
	return bench_put(b, 0, 8, LOOM_PUT_REMOTE_EVENT) ||
	       bench_wait_for(b, LOOM_COMPLETION_LOCAL, &c);
}

int bench_finish(struct bench_conn *b)
{
	struct loom_completion c;

	bench_arm(b);
	return bench_put(b, BENCH_FIN_OFFSET, 8, LOOM_PUT_REMOTE_EVENT) ||
	       bench_wait_for(b, LOOM_COMPLETION_LOCAL, &c);
}

int bench_serve_passive(struct bench_conn *b)
{
	struct loom_completion c;

	if (bench_server_meet(b))
		return 1;
	for (;;) {
		bench_arm(b);
		if (bench_wait_for(b, LOOM_COMPLETION_ARRIVAL, &c))
			return 1;
		if (c.node == b->peer.node && c.ctx == b->peer.ctx && c.tag == BENCH_FIN_OFFSET)
			return 0;
	}
}

int bench_main(int argc, char **argv, const char *prog, void (*usage)(FILE *f),
	       bool with_depth, int (*client)(struct bench_conn *b),
	       int (*server)(struct bench_conn *b))
{
	struct bench_opts o = { .prog = prog };
	struct bench_conn b;
	int rc;

	bench_parse_args(argc, argv, &o, usage, with_depth);
	if (bench_open(&b, &o))
		return 1;
	rc = o.client ? client(&b) : server(&b);
	bench_close(&b);
	return rc;
}
