// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test, 2 cards: bad descriptors give error completions and
 * the context keeps working; a put from a context of another partition
 * (its descriptor forging the target's key), a remote range beyond the
 * segment, a disabled target context and a node without a route give
 * REMOTE_KEY, REMOTE_BOUNDS, NO_CTX and UNREACHABLE, write nothing and
 * post no arrival; a good put afterwards still lands.
 */
#include "fabric.h"
#include "tap.h"

#include <string.h>

TAP_DEFINE;

#define CTX	2
#define KEY1	0x0badf00du	/* the partition of src and dst */
#define ALIEN_KEY	(KEY1 ^ 0x10)
#define SEG	(256u << 10)

static struct fabric f;
static struct fh_ctx src, dst, alien;

static struct loom_cmd put_cmd(uint32_t node, uint16_t ctx, uint64_t roff, uint64_t len, uint32_t key,
			       uint64_t tag)
{
	struct loom_cmd c = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL | LOOM_CMD_F_REMOTE_CQE,
		.dst_ctx = ctx, .dst_node = node, .tag = tag, .local_off = 0,
		.remote_off = roff, .length = len, .key = key,
	};

	return c;
}

/* submit on @x and expect one LOCAL completion with @status for @tag */
static int expect_from(struct fh_ctx *x, const struct loom_cmd *c, uint8_t status,
		       const char *what)
{
	struct loom_cqe e;

	if (!fh_submit(x, c)) {
		tap_diag("%s: command ring full", what);
		return 0;
	}
	if (fh_wait_cqe(x, &e, 10000) != 1) {
		tap_diag("%s: no completion", what);
		return 0;
	}
	if (e.kind != LOOM_CQE_LOCAL || e.tag != c->tag || e.status != status) {
		tap_diag("%s: kind %u tag 0x%llx status %u (want status %u)", what, e.kind,
			 (unsigned long long)e.tag, e.status, status);
		return 0;
	}
	return 1;
}

static int expect(const struct loom_cmd *c, uint8_t status, const char *what)
{
	return expect_from(&src, c, status, what);
}

static int untouched(const uint8_t *p, size_t len, uint8_t v)
{
	for (size_t i = 0; i < len; i++)
		if (p[i] != v)
			return 0;
	return 1;
}

int main(void)
{
	struct loom_cmd c;
	struct loom_cqe e;
	int ok;

	tap_plan(8);
	if (fabric_init(&f, 90))
		return 1;
	/* bad input reaching the card: run the card built with the sanitizers */
	f.sanitized_card = true;
	if (fabric_start_ring(&f, 2) ||
	    fh_ctx_create(&f.fh[0], &src, CTX, KEY1, 5, 6, SEG) != LOOM_ADMIN_E_OK ||
	    fh_ctx_create(&f.fh[1], &dst, CTX, KEY1, 5, 6, SEG) != LOOM_ADMIN_E_OK) {
		tap_ok(0, "2 cards started with contexts");
		fabric_dump_log(&f, 0);
		fabric_dump_log(&f, 1);
		return 1;
	}
	tap_ok(1, "2 cards started with contexts");
	for (unsigned int i = 0; i < SEG; i++)
		src.segp[i] = (uint8_t)(i ^ (i >> 8));
	memset(dst.segp, 0xcc, SEG);

	c = put_cmd(1, CTX, 0, 64, KEY1, 1);
	c.opcode = 0x77;
	ok = expect(&c, LOOM_CQE_ST_BAD_DESC, "bad opcode");
	c = put_cmd(1, CTX, 0, 64, KEY1, 2);
	c.flags |= 0x40;
	ok &= expect(&c, LOOM_CQE_ST_BAD_DESC, "unknown flag");
	c = put_cmd(1, CTX, 0, SEG + 1, KEY1, 3);
	ok &= expect(&c, LOOM_CQE_ST_LOCAL_BOUNDS, "local range past the segment");
	c = put_cmd(1, CTX, 4, 8, KEY1, 4);
	c.opcode = LOOM_OP_ATOMIC;
	c.aux = LOOM_AMO_SWAP;
	ok &= expect(&c, LOOM_CQE_ST_BAD_DESC, "misaligned atomic");
	tap_ok(ok, "bad descriptors: BAD_DESC, BAD_DESC, LOCAL_BOUNDS, BAD_DESC (atomic) completions");
	tap_ok(fh_rd32(&f.fh[0], fh_ctx_reg(&f.fh[0], CTX, LOOM_CTXR_STATE)) == LOOM_CTX_ST_RUNNING,
	       "the issuing context is still running");

	/* the descriptor names the target's key: the card stamps the alien's */
	c = put_cmd(1, CTX, 0x1000, 3000, KEY1, 5);
	ok = fh_ctx_create(&f.fh[0], &alien, CTX + 2, ALIEN_KEY, 5, 6, SEG) == LOOM_ADMIN_E_OK &&
	     expect_from(&alien, &c, LOOM_CQE_ST_REMOTE_KEY, "another partition");
	tap_ok(ok && untouched(dst.segp, SEG, 0xcc),
	       "put from another partition across the cable (descriptor key forged): REMOTE_KEY, segment untouched");
	c = put_cmd(1, CTX, SEG - 1000, 3000, KEY1, 6);
	ok = expect(&c, LOOM_CQE_ST_REMOTE_BOUNDS, "remote bounds");
	c = put_cmd(1, CTX, UINT64_MAX - 255, 512, KEY1, 7);
	ok &= expect(&c, LOOM_CQE_ST_REMOTE_BOUNDS, "remote offset overflow");
	tap_ok(ok && untouched(dst.segp, SEG, 0xcc),
	       "remote range beyond the segment (and wrapping): REMOTE_BOUNDS, segment untouched");
	c = put_cmd(1, CTX + 1, 0, 100, KEY1, 8);
	ok = expect(&c, LOOM_CQE_ST_NO_CTX, "disabled context");
	c = put_cmd(3, CTX, 0, 100, KEY1, 9);
	ok &= expect(&c, LOOM_CQE_ST_UNREACHABLE, "no route");
	tap_ok(ok, "disabled target context: NO_CTX; node without a route: UNREACHABLE");

	c = put_cmd(1, CTX, 0x2000, 5000, KEY1, 10);
	ok = expect(&c, LOOM_CQE_ST_OK, "good put");
	ok &= !memcmp(dst.segp + 0x2000, src.segp, 5000) && untouched(dst.segp, 0x2000, 0xcc) &&
	      untouched(dst.segp + 0x2000 + 5000, SEG - 0x2000 - 5000, 0xcc);
	tap_ok(ok, "a good put after all the errors lands exactly where it should");
	ok = fh_wait_cqe(&dst, &e, 5000) == 1 && e.kind == LOOM_CQE_ARRIVAL && e.tag == 0x2000 &&
	     e.value == 5000 && e.src_node == 0 && e.src_ctx == CTX;
	ok &= fh_wait_cqe(&dst, &e, 200) == 0;
	tap_ok(ok, "the target saw exactly one ARRIVAL: the good put's, none for refused ones");
	if (tap.failed) {
		fabric_dump_log(&f, 0);
		fabric_dump_log(&f, 1);
	}
	fabric_stop();
	return tap_exit_status();
}
