// SPDX-License-Identifier: GPL-2.0
/*
 * Guest program of test_counted.sh: counted writes from several hosts to
 * one, through libloom and loom.ko.
 *
 *   counted_test target NSRC BYTES     wait until counter 3 of my context
 *                                      reaches NSRC * BYTES, check it stays
 *                                      there and every byte landed
 *   counted_test source TARGET ID BYTES put BYTES of pattern ID to slot ID
 *                                      of TARGET's segment as counted puts
 *                                      of varying sizes, then loom_quiet()
 *
 * Prints one result line; exit 0 on success, 1 on failure, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <loom.h>

#define CTX_INDEX	50
#define KEY		0xc0c0u
#define COUNTER		3
#define SEG		(1u << 20)
#define PROBE_OFF	(SEG - 8)
#define TIMEOUT_MS	120000

static uint8_t pattern(unsigned int id, uint64_t off)
{
	return (uint8_t)((off * 131 + id * 29 + (off >> 8)) & 0xff);
}

static int open_ctx(uint32_t index, struct loom_dev **dev, struct loom_ctx **ctx)
{
	struct loom_ctx_attr a = {
		.flags = LOOM_CTX_ATTR_INDEX, .index = index, .key = KEY, .segment_size = SEG,
	};
	int err = loom_dev_open(NULL, dev);

	if (!err)
		err = loom_ctx_create(*dev, &a, ctx);
	if (err)
		fprintf(stderr, "counted_test: context %u: %s\n", index, loom_strerror(err));
	return err;
}

/* Wait for one completion; its status, or -errno. */
static int wait_one(struct loom_ctx *ctx, struct loom_completion *c)
{
	int n = loom_wait(ctx, c, 1, TIMEOUT_MS);

	return n < 0 ? n : c->status;
}

static int target(unsigned int nsrc, uint64_t bytes)
{
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	uint64_t want = nsrc * bytes, v = 0;
	size_t size;
	uint8_t *seg;
	int err;
	struct timespec ts = { 1, 0 };

	if (open_ctx(CTX_INDEX, &dev, &ctx))
		return 1;
	seg = loom_ctx_segment(ctx, &size);
	printf("target: context %u on node %u, %u counters, waiting for %llu bytes\n",
	       loom_ctx_index(ctx), loom_ctx_node(ctx), loom_ctx_counters(ctx),
	       (unsigned long long)want);
	fflush(stdout);
	err = loom_counter_wait(ctx, COUNTER, want, TIMEOUT_MS);
	loom_counter_read(ctx, COUNTER, &v);
	if (err) {
		printf("target: FAILED: counter %d is %llu after waiting: %s\n", COUNTER,
		       (unsigned long long)v, loom_strerror(err));
		return 1;
	}
	nanosleep(&ts, NULL);	/* nothing more may arrive */
	loom_counter_read(ctx, COUNTER, &v);
	if (v != want) {
		printf("target: FAILED: counter %d is %llu, expected exactly %llu\n", COUNTER,
		       (unsigned long long)v, (unsigned long long)want);
		return 1;
	}
	for (unsigned int s = 1; s <= nsrc; s++)
		for (uint64_t o = 0; o < bytes; o++)
			if (seg[s * bytes + o] != pattern(s, o)) {
				printf("target: FAILED: byte %llu from source %u is 0x%02x, expected 0x%02x\n",
				       (unsigned long long)o, s, seg[s * bytes + o], pattern(s, o));
				return 1;
			}
	printf("target: counter %d reached %llu bytes, every byte from %u sources verified\n",
	       COUNTER, (unsigned long long)v, nsrc);
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	return 0;
}

static int source(uint32_t node, unsigned int id, uint64_t bytes)
{
	struct loom_remote dst = { .node = node, .ctx = CTX_INDEX, .key = KEY };
	struct loom_completion c;
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	uint64_t off = 0;
	unsigned int ops = 0, bad = 0;
	uint8_t *seg;
	size_t size;
	int st;

	if (open_ctx(CTX_INDEX + 1, &dev, &ctx))
		return 1;
	seg = loom_ctx_segment(ctx, &size);
	for (uint64_t o = 0; o < bytes; o++)
		seg[o] = pattern(id, o);
	/* wait for the target's context: an ordinary put fails with NO_CTX until then */
	for (int tries = 0;; tries++) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };

		st = loom_put(ctx, &dst, PROBE_OFF, 0, 8, 0, 1);
		if (!st)
			st = wait_one(ctx, &c);
		if (st == 0)
			break;
		if (st != LOOM_STATUS_NO_CTX || tries > 600) {
			printf("source %u: FAILED: probe put to node %u: %s\n", id, node,
			       loom_strerror(st));
			return 1;
		}
		nanosleep(&ts, NULL);
	}
	while (off < bytes) {
		uint64_t len = 700 + (ops * 977) % 3300;
		int err;

		if (len > bytes - off)
			len = bytes - off;
		err = loom_put_counted(ctx, &dst, id * bytes + off, off, len, COUNTER, 0, ops);
		if (err == -EAGAIN) {
			st = wait_one(ctx, &c);
			bad += st != 0;
			continue;
		}
		if (err) {
			printf("source %u: FAILED: loom_put_counted: %s\n", id, loom_strerror(err));
			return 1;
		}
		off += len;
		ops++;
	}
	st = loom_quiet(ctx, TIMEOUT_MS);
	if (st) {
		printf("source %u: FAILED: loom_quiet: %s\n", id, loom_strerror(st));
		return 1;
	}
	while (loom_poll(ctx, &c, 1) == 1)
		bad += c.status != 0;
	if (bad) {
		printf("source %u: FAILED: %u counted puts completed with an error\n", id, bad);
		return 1;
	}
	printf("source %u: %llu bytes in %u counted puts to node %u, all completed\n", id,
	       (unsigned long long)bytes, ops, node);
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "target"))
		return target((unsigned int)atoi(argv[2]), strtoull(argv[3], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "source"))
		return source((uint32_t)atoi(argv[2]), (unsigned int)atoi(argv[3]),
			      strtoull(argv[4], NULL, 0));
	fprintf(stderr, "usage: counted_test target NSRC BYTES | source TARGET ID BYTES\n");
	return 2;
}
