// SPDX-License-Identifier: GPL-2.0
/*
 * Guest program of test_counted.sh's multicast steps: one host puts a
 * buffer to every member of a multicast group with loom_put_mcast().
 *
 *   mcast_test member BYTES            open context 52 (the context the
 *                                      group entries name), say "ready",
 *                                      wait until BYTES of the pattern
 *                                      have landed at offset 4096 of its
 *                                      segment, and check every byte
 *   mcast_test root GROUP MEMBERS BYTES  put BYTES of the pattern to every
 *                                      member of GROUP; the completion must
 *                                      be OK with MEMBERS * BYTES
 *                                      acknowledged; then a put to group
 *                                      GROUP + 1 (no entry) must complete
 *                                      UNREACHABLE
 *
 * Prints "ok:"/"FAILED:" lines; exit 0 on success, 1 on failure, 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <loom.h>

#include "result.h"

#define MEMBER_CTX	52
#define ROOT_CTX	53
#define KEY		0xc0c0u
#define SEG		(1u << 20)
#define REMOTE_OFF	4096
#define TIMEOUT_MS	120000

static uint8_t pattern(uint64_t off)
{
	return (uint8_t)((off * 151 + 17 + (off >> 9)) & 0xff);
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
		printf("FAILED: context %u: %s\n", index, loom_strerror(err));
	return err;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* The first byte of seg[REMOTE_OFF..] that is not the pattern, or bytes. */
static uint64_t first_wrong(const uint8_t *seg, uint64_t bytes)
{
	for (uint64_t o = 0; o < bytes; o++)
		if (seg[REMOTE_OFF + o] != pattern(o))
			return o;
	return bytes;
}

static int member(uint64_t bytes)
{
	struct timespec nap = { 0, 50 * 1000 * 1000 };
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	long deadline;
	uint64_t bad;
	uint8_t *seg;
	size_t size;

	if (open_ctx(MEMBER_CTX, &dev, &ctx))
		return 1;
	seg = loom_ctx_segment(ctx, &size);
	printf("member: context %u on node %u ready\n", loom_ctx_index(ctx), loom_ctx_node(ctx));
	fflush(stdout);
	deadline = now_ms() + TIMEOUT_MS;
	while ((bad = first_wrong(seg, bytes)) < bytes && now_ms() < deadline)
		nanosleep(&nap, NULL);
	result(bad == bytes, "member on node %u: every one of the %llu bytes landed at offset %d "
	       "(first wrong: %llu, 0x%02x instead of 0x%02x)", loom_ctx_node(ctx),
	       (unsigned long long)bytes, REMOTE_OFF, (unsigned long long)bad,
	       bad < bytes ? seg[REMOTE_OFF + bad] : 0, bad < bytes ? pattern(bad) : 0);
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	return failed;
}

static int root(uint32_t group, uint32_t members, uint64_t bytes)
{
	struct loom_completion c = { 0 };
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	uint8_t *seg;
	size_t size;
	int err, n;

	if (open_ctx(ROOT_CTX, &dev, &ctx))
		return 1;
	seg = loom_ctx_segment(ctx, &size);
	for (uint64_t o = 0; o < bytes; o++)
		seg[o] = pattern(o);
	err = loom_put_mcast(ctx, group, REMOTE_OFF, 0, bytes, 0, 7);
	n = err ? err : loom_wait(ctx, &c, 1, TIMEOUT_MS);
	result(n == 1 && c.tag == 7 && c.status == LOOM_STATUS_OK &&
	       c.value == (uint64_t)members * bytes,
	       "root: loom_put_mcast of %llu bytes to group %u completed OK, %u members "
	       "acknowledging %llu bytes (wait %d, status %s, value %llu)",
	       (unsigned long long)bytes, group, members,
	       (unsigned long long)members * bytes, n, loom_strerror(c.status),
	       (unsigned long long)c.value);
	memset(&c, 0, sizeof(c));
	err = loom_put_mcast(ctx, group + 1, REMOTE_OFF, 0, 64, 0, 8);
	n = err ? err : loom_wait(ctx, &c, 1, TIMEOUT_MS);
	result(n == 1 && c.tag == 8 && c.status == LOOM_STATUS_UNREACHABLE,
	       "root: a put to group %u, which has no entry, completes UNREACHABLE (wait %d, "
	       "status %s)", group + 1, n, loom_strerror(c.status));
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	return failed;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "member"))
		return member(strtoull(argv[2], NULL, 0));
	if (argc == 5 && !strcmp(argv[1], "root"))
		return root((uint32_t)strtoul(argv[2], NULL, 0), (uint32_t)strtoul(argv[3], NULL, 0),
			    strtoull(argv[4], NULL, 0));
	fprintf(stderr, "usage: mcast_test member BYTES | root GROUP MEMBERS BYTES\n");
	return 2;
}
