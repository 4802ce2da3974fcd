/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What loom's benchmarks share: the options every benchmark takes, one
 * context on a well-known index, completion reaping by polling or sleeping,
 * and the client/server rendezvous over loom itself (the lab's guests have
 * no other network).
 *
 * Rendezvous: the server creates context IDX; the client creates IDX + 1
 * and puts 8 bytes (with an arrival event) to the server until that put no
 * longer fails with NO_CTX; the server answers the first arrival with an
 * 8-byte put back, learning the client's node and context from it.  A put
 * to the last 8 bytes of the server's segment (BENCH_FIN_OFFSET) ends it.
 */
#ifndef LOOM_BENCH_CONN_H
#define LOOM_BENCH_CONN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <loom.h>

#define BENCH_MAX_SIZE		(1u << 20)
#define BENCH_SEGMENT_SIZE	(2u << 20)
#define BENCH_FIN_OFFSET	(BENCH_SEGMENT_SIZE - 8)
#define BENCH_EXIT_USAGE	2

struct bench_opts {
	const char *prog;
	const char *device;		/* the path to open, NULL: the default */
	char dev_buf[64];		/* /dev/loomN for --dev loomN */
	bool client, all_sizes, json, poll_mode;
	bool uring_mode;	/* loom_wait() through io_uring */
	uint32_t server_node, ctx, key;
	uint64_t size, max_size;
	uint32_t iters;
	uint32_t depth;		/* outstanding operations (bandwidth) */
	double cable_floor;	/* MB/s the cable carries (bandwidth), 0: unknown */
	int timeout_s;
};

struct bench_conn {
	const struct bench_opts *o;
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	struct loom_remote peer;
	double deadline;
	bool force_poll;	/* reap by polling whatever the mode (the polled floor) */
	/* reaped but not yet waited for: local acks counted, arrivals kept */
	unsigned int locals;
	struct loom_completion arrival[16];
	unsigned int arrival_head, arrival_count;
};

double bench_now_us(void);
/* Parses the common options; exits 2 with a message on bad input, 0 after
 * printing @usage for --help.  @with_depth accepts -D/--depth.
 */
void bench_parse_args(int argc, char **argv, struct bench_opts *o,
		      void (*usage)(FILE *f), bool with_depth);
/* The options' help text, shared by every benchmark's usage(). */
void bench_print_common_options(FILE *f, bool with_depth);
/* "poll", "interrupt" or "uring", as --mode names it */
const char *bench_mode_name(const struct bench_opts *o);

int bench_open(struct bench_conn *b, const struct bench_opts *o);
void bench_close(struct bench_conn *b);
/* Restarts the no-progress timeout. */
void bench_arm(struct bench_conn *b);
int bench_wait_for(struct bench_conn *b, uint8_t kind, struct loom_completion *c);
int bench_put(struct bench_conn *b, uint64_t remote_off, uint64_t len, uint32_t flags);
/* Client side: waits for the server (its first reply). */
int bench_client_meet(struct bench_conn *b);
/* Server side: waits for a client's hello and answers it. */
int bench_server_meet(struct bench_conn *b);
/* Client side: tells the server to exit. */
int bench_finish(struct bench_conn *b);
/*
 * Server side of a benchmark whose server only receives: meets the client,
 * then waits for its bench_finish(); 0, or 1 on failure.
 */
int bench_serve_passive(struct bench_conn *b);

/*
 * A benchmark's whole main(): parses the options, opens the context, runs
 * @client or @server (each returns 0 or 1) and closes it again.
 */
int bench_main(int argc, char **argv, const char *prog, void (*usage)(FILE *f),
	       bool with_depth, int (*client)(struct bench_conn *b),
	       int (*server)(struct bench_conn *b));

#endif
