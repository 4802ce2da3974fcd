// SPDX-License-Identifier: GPL-2.0
/*
 * loom_put_lat: put ping-pong latency between two hosts, perftest style.
 *
 *   server:  loom_put_lat [OPTIONS]
 *   client:  loom_put_lat [OPTIONS] SERVER_NODE
 *
 * The client puts SIZE bytes into the server's segment; when they have all
 * landed (arrival completion) the server puts SIZE bytes back; the client
 * times the round trip.  One-way latency = RTT / 2.  The server learns the
 * client's node and context from the first arrival, so only the client
 * names its peer; both meet on a well-known context index.
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

#include "../common/parse_num.h"
#include "lat_stats.h"

#define EXIT_USAGE	2
#define MAX_SIZE	(1u << 20)
#define SEGMENT_SIZE	(2u << 20)
#define FIN_OFFSET	(SEGMENT_SIZE - 8)	/* a put here ends the server */

enum mode { MODE_POLL, MODE_INTERRUPT };

struct opts {
	const char *device;
	bool client, all_sizes, json;
	uint32_t server_node, ctx, key;
	uint64_t size, max_size;
	uint32_t iters;
	enum mode mode;
	int timeout_s;
};

struct bench {
	const struct opts *o;
	struct loom_ctx *ctx;
	struct loom_remote peer;
	bool have_peer;
	double deadline;
	/* reaped but not yet waited for: local acks counted, arrivals kept */
	unsigned int locals;
	struct loom_completion arrival[16];
	unsigned int arrival_head, arrival_count;
};

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

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
"\n"
"  -d, --device PATH    card device (default $LOOM_DEVICE or /dev/loom0)\n"
"  -x, --ctx IDX        context index both sides use (default 40)\n"
"  -k, --key KEY        segment key both sides use (default 0x10a1)\n"
"  -s, --size BYTES     message size (default 8; K and M suffixes)\n"
"  -a, --all            sizes 8 B .. 1 MiB, doubling (client decides)\n"
"  -M, --max-size BYTES with --all: stop at BYTES (default 1M)\n"
"  -n, --iters N        iterations per size (default 1000)\n"
"  -m, --mode MODE      completion: 'poll' (busy) or 'interrupt' (sleep;\n"
"                       default; the lab's 2 CPUs favour it)\n"
"  -T, --timeout SEC    give up after SEC seconds without progress (default 60)\n"
"      --json           one JSON object per size instead of the table\n"
"  -h, --help           this text\n"
"\n"
"Exit status: 0 success, 1 an operation failed or timed out, 2 usage error.\n");
}

static void die_usage(const char *opt, const char *val, const char *expected)
{
	fprintf(stderr, "loom_put_lat: invalid %s '%s': expected %s\n", opt, val, expected);
	exit(EXIT_USAGE);
}

/*
 * Reaps one completion into @c.  Failed operations end the benchmark,
 * except a LOCAL completion with NO_CTX when @tolerate_no_ctx (the client
 * waiting for its server).  Returns 0, or 1 after printing why it failed.
 */
static int reap_one(struct bench *b, struct loom_completion *c, bool tolerate_no_ctx)
{
	for (;;) {
		int n;

		if (b->o->mode == MODE_POLL) {
			n = loom_poll(b->ctx, c, 1);
			if (!n && now_us() > b->deadline)
				n = -ETIMEDOUT;
		} else {
			int left = (int)((b->deadline - now_us()) / 1000);

			n = left > 0 ? loom_wait(b->ctx, c, 1, left) : -ETIMEDOUT;
		}
		if (n < 0) {
			fprintf(stderr, "loom_put_lat: waiting for a completion: %s\n",
				loom_strerror(n));
			return 1;
		}
		if (!n)
			continue;
		if (c->status && !(tolerate_no_ctx && c->kind == LOOM_COMPLETION_LOCAL &&
				   c->status == LOOM_STATUS_NO_CTX)) {
			fprintf(stderr, "loom_put_lat: %s node %u ctx %u failed: %s\n",
				c->kind == LOOM_COMPLETION_LOCAL ? "put to" : "arrival from",
				c->node, c->ctx, loom_strerror(c->status));
			return 1;
		}
		return 0;
	}
}

/*
 * Waits for a completion of @kind.  Completions of the other kind met on
 * the way are counted, not lost: a reply can overtake the ack of the put
 * that caused it.
 */
static int wait_for(struct bench *b, uint8_t kind, struct loom_completion *c)
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
		if (reap_one(b, c, false))
			return 1;
		if (c->kind == LOOM_COMPLETION_LOCAL) {
			b->locals++;
		} else if (b->arrival_count < cap) {
			b->arrival[(b->arrival_head + b->arrival_count) % cap] = *c;
			b->arrival_count++;
		} else {
			fprintf(stderr, "loom_put_lat: more than %u unexpected arrivals\n", cap);
			return 1;
		}
	}
}

static int put(struct bench *b, uint64_t remote_off, uint64_t len)
{
	int err = loom_put(b->ctx, &b->peer, remote_off, 0, len, LOOM_PUT_REMOTE_EVENT, len);

	if (err)
		fprintf(stderr, "loom_put_lat: put of %" PRIu64 " bytes: %s\n", len,
			loom_strerror(err));
	return err ? 1 : 0;
}

/* one ping-pong: put, wait for the reply and for our own put's ack */
static int ping(struct bench *b, uint64_t len)
{
	struct loom_completion c;

	return put(b, 0, len) || wait_for(b, LOOM_COMPLETION_ARRIVAL, &c) ||
	       wait_for(b, LOOM_COMPLETION_LOCAL, &c);
}

/* the client's first put, repeated until the server's context exists */
static int rendezvous(struct bench *b)
{
	struct loom_completion c;

	for (;;) {
		if (put(b, 0, 8) || reap_one(b, &c, true))
			return 1;
		if (c.kind == LOOM_COMPLETION_LOCAL && c.status == LOOM_STATUS_OK)
			break;
		struct timespec ts = { 0, 20 * 1000 * 1000 };

		nanosleep(&ts, NULL);
		if (now_us() > b->deadline) {
			fprintf(stderr, "loom_put_lat: no server on node %u context %u (start it first)\n",
				b->peer.node, b->peer.ctx);
			return 1;
		}
	}
	return wait_for(b, LOOM_COMPLETION_ARRIVAL, &c);
}

static int measure_floor(struct bench *b, uint32_t iters, struct lat_stats *st)
{
	double *rtt = calloc(iters, sizeof(*rtt));
	struct loom_completion c;

	if (!rtt)
		return 1;
	for (uint32_t i = 0; i < iters; i++) {
		double t0 = now_us();
		int err = loom_nop(b->ctx, i);

		if (err || wait_for(b, LOOM_COMPLETION_LOCAL, &c)) {
			if (err)
				fprintf(stderr, "loom_put_lat: nop: %s\n", loom_strerror(err));
			free(rtt);
			return 1;
		}
		rtt[i] = now_us() - t0;
	}
	lat_stats_compute(rtt, iters, st);
	free(rtt);
	return 0;
}

static void print_row(const struct opts *o, uint64_t size, const struct lat_stats *st,
		      double floor_us)
{
	if (o->json) {
		printf("{\"bytes\": %" PRIu64 ", \"iterations\": %u, \"t_min\": %.2f, "
		       "\"t_max\": %.2f, \"t_typical\": %.2f, \"t_avg\": %.2f, "
		       "\"t_stdev\": %.2f, \"p99\": %.2f, \"p99.9\": %.2f, "
		       "\"floor_rtt\": %.2f, \"x_floor\": %.2f, \"mode\": \"%s\"}\n",
		       size, o->iters, st->min, st->max, st->typical, st->avg, st->stdev,
		       st->p99, st->p999, floor_us, st->typical / floor_us,
		       o->mode == MODE_POLL ? "poll" : "interrupt");
	} else {
		printf(" %-10" PRIu64 " %-11u %-11.2f %-11.2f %-15.2f %-11.2f %-13.2f "
		       "%-20.2f %-22.2f %.1f\n", size, o->iters, st->min, st->max,
		       st->typical, st->avg, st->stdev, st->p99, st->p999,
		       st->typical / floor_us);
	}
	fflush(stdout);
}

static int run_client(struct bench *b)
{
	const struct opts *o = b->o;
	double *lat = calloc(o->iters, sizeof(*lat));
	struct lat_stats floor_st, st;
	uint64_t first = o->all_sizes ? 8 : o->size;
	uint64_t last = o->all_sizes ? o->max_size : o->size;
	int rc = 1;

	if (!lat)
		return 1;
	b->peer = (struct loom_remote){ .node = o->server_node, .ctx = o->ctx, .key = o->key };
	if (rendezvous(b) || measure_floor(b, o->iters, &floor_st))
		goto out;
	if (!o->json) {
		printf("#%s\n", "----------------------------------------------------------------------------------------------------------------------------------");
		printf("#                                   loom put ping-pong latency (one-way = RTT/2)\n");
		printf("# server node %u context %u, completion mode %s, %u iterations per size\n",
		       o->server_node, o->ctx, o->mode == MODE_POLL ? "poll" : "interrupt", o->iters);
		printf("# transport floor (NOP round trip through the local card): t_typical %.2f usec, "
		       "99%% %.2f usec\n", floor_st.typical, floor_st.p99);
		printf("#%s\n", "----------------------------------------------------------------------------------------------------------------------------------");
		printf(" #bytes     #iterations t_min[usec] t_max[usec] t_typical[usec] t_avg[usec] "
		       "t_stdev[usec] 99%% percentile[usec] 99.9%% percentile[usec] x_floor\n");
	}
	for (uint64_t size = first; size <= last; size *= 2) {
		uint32_t warmup = o->iters / 10 + 1;

		for (uint32_t i = 0; i < warmup; i++) {
			b->deadline = now_us() + o->timeout_s * 1e6;
			if (ping(b, size))
				goto out;
		}
		for (uint32_t i = 0; i < o->iters; i++) {
			double t0 = now_us();

			b->deadline = t0 + o->timeout_s * 1e6;
			if (ping(b, size))
				goto out;
			lat[i] = (now_us() - t0) / 2;
		}
		lat_stats_compute(lat, o->iters, &st);
		print_row(o, size, &st, floor_st.typical);
	}
	b->deadline = now_us() + o->timeout_s * 1e6;
	rc = put(b, FIN_OFFSET, 8);
out:
	free(lat);
	return rc;
}

static int run_server(struct bench *b)
{
	const struct opts *o = b->o;
	struct loom_completion c;

	fprintf(stderr, "loom_put_lat: server on node %u context %u, waiting for a client\n",
		loom_ctx_node(b->ctx), loom_ctx_index(b->ctx));
	for (;;) {
		b->deadline = now_us() + o->timeout_s * 1e6;
		if (wait_for(b, LOOM_COMPLETION_ARRIVAL, &c))
			return 1;
		if (!b->have_peer) {
			b->peer = (struct loom_remote){ .node = c.node, .ctx = c.ctx, .key = o->key };
			b->have_peer = true;
		} else if (c.node != b->peer.node || c.ctx != b->peer.ctx) {
			fprintf(stderr, "loom_put_lat: ignoring a put from node %u ctx %u\n",
				c.node, c.ctx);
			continue;
		}
		if (c.tag == FIN_OFFSET)
			return 0;
		if (put(b, 0, c.value) || wait_for(b, LOOM_COMPLETION_LOCAL, &c))
			return 1;
	}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "ctx", required_argument, NULL, 'x' },
		{ "key", required_argument, NULL, 'k' },
		{ "size", required_argument, NULL, 's' },
		{ "all", no_argument, NULL, 'a' },
		{ "max-size", required_argument, NULL, 'M' },
		{ "iters", required_argument, NULL, 'n' },
		{ "mode", required_argument, NULL, 'm' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "json", no_argument, NULL, 'J' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 }
	};
	struct opts o = { .ctx = 40, .key = 0x10a1, .size = 8, .max_size = MAX_SIZE, .iters = 1000,
			  .mode = MODE_INTERRUPT, .timeout_s = 60 };
	struct loom_ctx_attr attr = { .flags = LOOM_CTX_ATTR_INDEX, .segment_size = SEGMENT_SIZE };
	struct bench b = { .o = &o };
	struct loom_dev *dev;
	uint64_t v;
	int opt, err, rc;

	while ((opt = getopt_long(argc, argv, "d:x:k:s:aM:n:m:T:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd': o.device = optarg; break;
		case 'x':
			if (!parse_num(optarg, &v, true) || v > 0xffff)
				die_usage("--ctx", optarg, "a context index 0..65535");
			o.ctx = (uint32_t)v;
			break;
		case 'k':
			if (!parse_num(optarg, &v, true) || v > UINT32_MAX)
				die_usage("--key", optarg, "a 32-bit key");
			o.key = (uint32_t)v;
			break;
		case 's':
			if (!parse_num(optarg, &v, true) || !v || v > MAX_SIZE)
				die_usage("--size", optarg, "1 .. 1M bytes");
			o.size = v;
			break;
		case 'a': o.all_sizes = true; break;
		case 'M':
			if (!parse_num(optarg, &v, true) || v < 8 || v > MAX_SIZE)
				die_usage("--max-size", optarg, "8 .. 1M bytes");
			o.max_size = v;
			break;
		case 'n':
			if (!parse_num(optarg, &v, true) || !v || v > 10000000)
				die_usage("--iters", optarg, "1 .. 10000000");
			o.iters = (uint32_t)v;
			break;
		case 'm':
			if (!strcmp(optarg, "poll"))
				o.mode = MODE_POLL;
			else if (!strcmp(optarg, "interrupt"))
				o.mode = MODE_INTERRUPT;
			else
				die_usage("--mode", optarg, "'poll' or 'interrupt'");
			break;
		case 'T':
			if (!parse_num(optarg, &v, true) || !v || v > 86400)
				die_usage("--timeout", optarg, "1 .. 86400 seconds");
			o.timeout_s = (int)v;
			break;
		case 'J': o.json = true; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		if (!parse_num(argv[optind], &v, true) || v > UINT32_MAX)
			die_usage("SERVER_NODE", argv[optind], "a logical node id");
		o.server_node = (uint32_t)v;
		o.client = true;
		if (++optind < argc) {
			fprintf(stderr, "loom_put_lat: unexpected argument '%s' (see --help)\n",
				argv[optind]);
			return EXIT_USAGE;
		}
	}

	/* the client's context index is the server's + 1: both are well known */
	attr.index = o.client ? o.ctx + 1 : o.ctx;
	attr.key = o.key;
	err = loom_dev_open(o.device, &dev);
	if (err) {
		fprintf(stderr, "loom_put_lat: cannot open %s: %s (is loom.ko loaded?)\n",
			o.device ? o.device : "the loom device", loom_strerror(err));
		return 1;
	}
	err = loom_ctx_create(dev, &attr, &b.ctx);
	if (err) {
		fprintf(stderr, "loom_put_lat: cannot create context %u: %s\n", attr.index,
			loom_strerror(err));
		loom_dev_close(dev);
		return 1;
	}
	b.deadline = now_us() + o.timeout_s * 1e6;
	rc = o.client ? run_client(&b) : run_server(&b);
	loom_ctx_destroy(b.ctx);
	loom_dev_close(dev);
	return rc;
}
