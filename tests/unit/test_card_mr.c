// SPDX-License-Identifier: GPL-2.0
/*
 * The card's memory-region table, in memory: a card over a calloc'd
 * register window and "guest RAM" whose regions are scattered pages (in
 * reverse order, starting mid-page) described by a two-level page list,
 * driven through its registers as the driver does.  Covers MR_ENABLE's
 * record checks; puts, gets, atomics and counted puts to and from regions
 * (bytes across page boundaries land where the page list says); every
 * refusal (unknown key, revoked key, another partition, out of bounds,
 * missing right, an lkey of another context) answers its status, counts
 * PROT_ERRORS and leaves memory byte-identical; a context's regions die
 * with it; a get whose local region is dropped while it is in flight
 * completes with MR_KEY and writes nothing there.
 */
#include "admin.h"
#include "card.h"
#include "lockstep.h"
#include "rma_target.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define RAM_SIZE	(8u << 20)
#define CMDQ		0x100000u
#define CQ		0x110000u
#define CNT0		0x140000u
#define CMDQ2		0x120000u
#define CQ2		0x130000u
#define SEG		0x200000u
#define SEG2		0x300000u
#define SEG_SIZE	0x10000u
#define KEY		0xabcd1234u
#define KEY2		(KEY ^ 0x100)
#define PGL_BASE	0x400000u	/* directory and list pages */
#define PAGES_BASE	0x500000u	/* region pages */
#define PAGE		4096u

/*
 * Card 0 (node 0) under test; card 1 (node 1) is cabled to its port 1 and
 * only a far end: the cable from card 0 loses every DATA frame.
 */
static struct lockstep ls;
static uint8_t *regs, *ram;
#define C0	(&ls.c[0]->card)
static uint32_t pi, ci;
static uint32_t next_pgl = PGL_BASE, next_page = PAGES_BASE;

/* the cable swallows card 0's packets; the last request is kept for a forged answer */
static struct loom_pkt_hdr last_req;
static bool swallow(void *ctx, unsigned int dir, struct link_txframe *tf)
{
	(void)ctx;
	if (dir != 0 || tf->type != LOOM_FRAME_DATA)
		return true;
	memcpy(&last_req, tf->bytes + LOOM_FRAME_HDR_SIZE, sizeof(last_req));
	return false;
}

/* Run the fabric until nothing moves (or a bound of cycles). */
static void settle(void)
{
	ls_run(&ls, 200000, true);
}

static void wr(uint32_t off, uint32_t v) { memcpy(regs + off, &v, 4); }
static uint32_t rd(uint32_t off) { uint32_t v; memcpy(&v, regs + off, 4); return v; }
static void wr64(uint64_t addr, uint64_t v) { memcpy(ram + addr, &v, 8); }

static uint32_t admin(uint32_t cmd, uint32_t arg0)
{
	uint32_t seq = rd(CARD_OFF_ADMIN + LOOM_ADMIN_ACK) + 1;

	wr(CARD_OFF_ADMIN + LOOM_ADMIN_CMD, cmd);
	wr(CARD_OFF_ADMIN + LOOM_ADMIN_ARG0, arg0);
	wr(CARD_OFF_ADMIN + LOOM_ADMIN_SEQ, seq);
	card_service(C0);
	settle();
	return rd(CARD_OFF_ADMIN + LOOM_ADMIN_ACK) == seq ? rd(CARD_OFF_ADMIN + LOOM_ADMIN_RESULT) :
							      0xffff;
}

static uint32_t ctx_enable(unsigned int idx, uint64_t cmdq, uint64_t cq, uint64_t seg, uint32_t key,
			   uint64_t cnt)
{
	wr(card_ctx_reg(idx, LOOM_CTXR_CMDQ_LO), (uint32_t)cmdq);
	wr(card_ctx_reg(idx, LOOM_CTXR_CQ_LO), (uint32_t)cq);
	wr(card_ctx_reg(idx, LOOM_CTXR_SEG_LO), (uint32_t)seg);
	wr(card_ctx_reg(idx, LOOM_CTXR_SEG_SIZE_LO), SEG_SIZE);
	wr(card_ctx_reg(idx, LOOM_CTXR_RINGS), 4 | 4 << 8);
	wr(card_ctx_reg(idx, LOOM_CTXR_KEY), key);
	wr(card_ctx_reg(idx, LOOM_CTXR_VECTOR), LOOM_VEC_CQ);
	wr(card_ctx_reg(idx, LOOM_CTXR_CNT_LO), (uint32_t)cnt);
	memset(ram + cq, 0, 16 * LOOM_CQE_SIZE);
	return admin(LOOM_ADMIN_CMD_CTX_ENABLE, idx);
}

/* A region of @npages fresh pages in reverse order; returns its first page. */
struct region {
	uint32_t idx, key, first_off;
	uint64_t len;
	uint64_t page[8];
	unsigned int npages;
};

static void mr_record(const struct region *r, uint32_t access, uint32_t ctx, uint32_t pkey,
		      uint64_t pgl)
{
	uint32_t base = CARD_OFF_MR + LOOM_MR_BASE + r->idx * LOOM_MR_REC_SIZE;

	wr(base + LOOM_MRR_KEY, r->key);
	wr(base + LOOM_MRR_ACCESS, access | r->first_off << LOOM_MR_FIRST_OFF_SHIFT);
	wr(base + LOOM_MRR_CTX, ctx);
	wr(base + LOOM_MRR_PKEY, pkey);
	wr(base + LOOM_MRR_LEN_LO, (uint32_t)r->len);
	wr(base + LOOM_MRR_LEN_HI, (uint32_t)(r->len >> 32));
	wr(base + LOOM_MRR_PGL_LO, (uint32_t)pgl);
	wr(base + LOOM_MRR_PGL_HI, (uint32_t)(pgl >> 32));
}

static uint32_t mr_make(struct region *r, uint32_t idx, uint32_t gen, unsigned int npages,
			uint32_t first_off, uint32_t access, uint32_t ctx, uint32_t pkey)
{
	uint32_t dir = next_pgl, list = next_pgl + PAGE;

	next_pgl += 2 * PAGE;
	memset(r, 0, sizeof(*r));
	r->idx = idx;
	r->key = gen << LOOM_MR_KEY_INDEX_BITS | idx;
	r->first_off = first_off;
	r->npages = npages;
	r->len = (uint64_t)npages * PAGE - first_off;
	wr64(dir, list);
	/* pages in reverse order: a region is not contiguous in memory */
	for (unsigned int i = 0; i < npages; i++)
		r->page[npages - 1 - i] = next_page + (uint64_t)i * PAGE;
	next_page += npages * PAGE;
	for (unsigned int i = 0; i < npages; i++)
		wr64(list + i * 8, r->page[i]);
	mr_record(r, access, ctx, pkey, dir);
	return admin(LOOM_ADMIN_CMD_MR_ENABLE, idx);
}

/* pointer to byte @off of region @r in RAM */
static uint8_t *mr_byte(const struct region *r, uint64_t off)
{
	uint64_t pos = r->first_off + off;

	return ram + r->page[pos / PAGE] + pos % PAGE;
}

static void mr_fill(const struct region *r, uint8_t seed)
{
	for (uint64_t i = 0; i < r->len; i++)
		*mr_byte(r, i) = (uint8_t)(i * 7 + seed);
}

static void submit(const struct loom_cmd *cmd)
{
	memcpy(ram + CMDQ + (pi & 15) * LOOM_CMD_SIZE, cmd, sizeof(*cmd));
	pi++;
	wr(card_db_reg(0, LOOM_DB_CMD_PI), pi);
	card_service(C0);
	settle();
}

static int reap(struct loom_cqe *e)
{
	memcpy(e, ram + CQ + (ci & 15) * LOOM_CQE_SIZE, sizeof(*e));
	if ((e->flags & LOOM_CQE_PHASE) != loom_cq_phase(ci, 4))
		return 0;
	ci++;
	wr(card_db_reg(0, LOOM_DB_CQ_CI), ci);
	return 1;
}

/* submit @cmd; its LOCAL completion's status (0xff: none); ARRIVALs skipped */
static unsigned int run(const struct loom_cmd *cmd, uint64_t *value)
{
	struct loom_cqe e;

	submit(cmd);
	card_service(C0);
	settle();
	while (reap(&e)) {
		if (e.kind == LOOM_CQE_LOCAL && e.tag == cmd->tag) {
			if (value)
				*value = e.value;
			return e.status;
		}
	}
	return 0xff;
}

static struct loom_cmd mr_cmd(uint8_t opcode, uint8_t flags, uint32_t rkey, uint64_t roff,
			      uint32_t lkey, uint64_t loff, uint64_t len, uint64_t tag)
{
	struct loom_cmd c = {
		.opcode = opcode, .flags = (uint8_t)(LOOM_CMD_F_SIGNAL | flags), .dst_node = 0,
		.tag = tag, .local_off = loff, .remote_off = roff, .length = len, .key = rkey,
		.compare = lkey,
	};

	return c;
}

static int same_bytes(const struct region *r, const uint8_t *before)
{
	for (uint64_t i = 0; i < r->len; i++) {
		if (*mr_byte(r, i) != before[i]) {
			tap_diag("region %u byte %llu: 0x%02x, was 0x%02x", r->idx,
				 (unsigned long long)i, *mr_byte(r, i), before[i]);
			return 0;
		}
	}
	return 1;
}

static void snapshot(const struct region *r, uint8_t *out)
{
	for (uint64_t i = 0; i < r->len; i++)
		out[i] = *mr_byte(r, i);
}

static int expect(unsigned int got, unsigned int want, const char *what)
{
	if (got != want)
		tap_diag("%s: status %u, expected %u", what, got, want);
	return got == want;
}

int main(void)
{
	struct card_params cp;
	char err[256];
	static uint8_t before[8 * PAGE], before2[8 * PAGE], before3[8 * PAGE];
	struct region a, b, ro, other, tiny, lget;
	struct loom_cmd c;
	uint64_t v = 0, fetched;
	uint32_t prot;
	int ok;

	tap_plan(14);
	card_params_default(&cp, 0, 2);
	if (ls_init(&ls, 2, 2, RAM_SIZE, &cp, err, sizeof(err)) ||
	    ls_cable(&ls, 0, 1, 1, 0, 1, err, sizeof(err)) || !ls_train(&ls, 1000000)) {
		tap_diag("%s", err);
		tap_skip_all("cannot set up an in-memory card");
	}
	ls.wire[0].tamper = swallow;
	regs = ls.c[0]->regs;
	ram = ls.c[0]->ram;
	card_set_route(C0, 1, 1);	/* node 1 via port 1: swallowed */
	ok = ctx_enable(0, CMDQ, CQ, SEG, KEY, CNT0) == LOOM_ADMIN_E_OK &&
	     ctx_enable(2, CMDQ2, CQ2, SEG2, KEY2, 0) == LOOM_ADMIN_E_OK;
	tap_ok(ok && rd(CARD_OFF_MR + LOOM_MR_COUNT) == CARD_N_MR &&
	       rd(CARD_OFF_MR + LOOM_MR_STRIDE) == LOOM_MR_REC_SIZE,
	       "MR block: %u records of %u bytes", rd(CARD_OFF_MR + LOOM_MR_COUNT),
	       rd(CARD_OFF_MR + LOOM_MR_STRIDE));

	/* MR_ENABLE checks the record */
	ok = mr_make(&a, 5, 0x1234, 3, 100, LOOM_MR_ACC_MASK, 0, KEY) == LOOM_ADMIN_E_OK;
	{
		struct region bad = a;

		bad.idx = 6;	/* key names index 5 */
		mr_record(&bad, 0, 0, KEY, PGL_BASE);
		ok &= admin(LOOM_ADMIN_CMD_MR_ENABLE, 6) == LOOM_ADMIN_E_BAD_MR;
		bad.key = 6;
		mr_record(&bad, 0, 1, KEY, PGL_BASE);	/* context 1 not running */
		ok &= admin(LOOM_ADMIN_CMD_MR_ENABLE, 6) == LOOM_ADMIN_E_BAD_MR;
		mr_record(&bad, 0, 0, KEY, PGL_BASE + 8);	/* unaligned directory */
		ok &= admin(LOOM_ADMIN_CMD_MR_ENABLE, 6) == LOOM_ADMIN_E_BAD_MR;
		mr_record(&bad, 0, 0, KEY, RAM_SIZE);	/* directory outside RAM */
		ok &= admin(LOOM_ADMIN_CMD_MR_ENABLE, 6) == LOOM_ADMIN_E_BAD_MR;
		bad.len = 0;
		mr_record(&bad, 0, 0, KEY, PGL_BASE);
		ok &= admin(LOOM_ADMIN_CMD_MR_ENABLE, 6) == LOOM_ADMIN_E_BAD_MR;
		ok &= admin(LOOM_ADMIN_CMD_MR_ENABLE, CARD_N_MR) == LOOM_ADMIN_E_BAD_MR &&
		      admin(LOOM_ADMIN_CMD_MR_DISABLE, CARD_N_MR) == LOOM_ADMIN_E_BAD_MR;
	}
	tap_ok(ok, "MR_ENABLE refuses a key of another index, a stopped context, a bad page directory, length 0, an index out of range");

	ok = mr_make(&b, 7, 0x2222, 3, 0, LOOM_MR_ACC_MASK, 0, KEY) == LOOM_ADMIN_E_OK;
	for (unsigned int i = 0; i < 1000; i++)
		ram[SEG + i] = (uint8_t)(i * 3 + 1);
	for (uint64_t i = 0; i < a.len; i++)
		*mr_byte(&a, i) = 0;
	/* segment -> region a, 1000 bytes across a page boundary (a starts at byte 100) */
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_REMOTE_MR, a.key, 3900, 0, 0, 1000, 1);
	c.dst_ctx = 0;
	ok &= expect(run(&c, &v), LOOM_CQE_ST_OK, "put to region");
	for (unsigned int i = 0; i < 1000 && ok; i++)
		if (*mr_byte(&a, 3900 + i) != (uint8_t)(i * 3 + 1)) {
			tap_diag("region byte %u: 0x%02x", 3900 + i, *mr_byte(&a, 3900 + i));
			ok = 0;
		}
	tap_ok(ok && v == 1000, "put from the segment into a region: 1000 bytes across pages where the page list says (value %llu)",
	       (unsigned long long)v);

	/* region a -> region b (lkey, rkey) */
	mr_fill(&a, 9);
	for (uint64_t i = 0; i < b.len; i++)
		*mr_byte(&b, i) = 0;
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_LOCAL_MR | LOOM_CMD_F_REMOTE_MR, b.key, 4000, a.key, 50,
		   5000, 2);
	ok = expect(run(&c, &v), LOOM_CQE_ST_OK, "region to region put");
	for (unsigned int i = 0; i < 5000 && ok; i++)
		if (*mr_byte(&b, 4000 + i) != *mr_byte(&a, 50 + i)) {
			tap_diag("byte %u differs", i);
			ok = 0;
		}
	tap_ok(ok, "put from region to region (lkey and rkey), 5000 bytes, unaligned, both scattered");

	/* get: region b -> region a */
	for (uint64_t i = 0; i < a.len; i++)
		*mr_byte(&a, i) = 0;
	mr_fill(&b, 77);
	c = mr_cmd(LOOM_OP_GET, LOOM_CMD_F_LOCAL_MR | LOOM_CMD_F_REMOTE_MR, b.key, 10, a.key, 4001,
		   3000, 3);
	ok = expect(run(&c, &v), LOOM_CQE_ST_OK, "get");
	for (unsigned int i = 0; i < 3000 && ok; i++)
		if (*mr_byte(&a, 4001 + i) != *mr_byte(&b, 10 + i)) {
			tap_diag("byte %u differs", i);
			ok = 0;
		}
	tap_ok(ok && v == 3000, "get from region to region: 3000 bytes");

	/* atomic and counted put on region b */
	*(uint64_t *)(void *)mr_byte(&b, 4096) = 40;
	c = mr_cmd(LOOM_OP_ATOMIC, LOOM_CMD_F_REMOTE_MR, b.key, 4096, 0, 0, 8, 4);
	c.aux = LOOM_AMO_FETCH_ADD;
	c.operand = 2;
	c.compare = 0;
	ok = expect(run(&c, &v), LOOM_CQE_ST_OK, "atomic");
	ok &= v == 40 && *(uint64_t *)(void *)mr_byte(&b, 4096) == 42;
	fetched = v;
	c = mr_cmd(LOOM_OP_PUT_COUNTED, LOOM_CMD_F_LOCAL_MR | LOOM_CMD_F_REMOTE_MR, b.key, 8000,
		   a.key, 0, 300, 5);
	c.aux = 3;
	ok &= expect(run(&c, &v), LOOM_CQE_ST_OK, "counted put");
	ok &= !memcmp(mr_byte(&b, 8000), mr_byte(&a, 0), 96) &&
	      *(uint64_t *)(void *)(ram + CNT0 + 3 * 8) == 300;
	tap_ok(ok, "atomic fetch-add on a region (fetched %llu) and a counted put into one (counter 3 = %llu)",
	       (unsigned long long)fetched,
	       (unsigned long long)*(uint64_t *)(void *)(ram + CNT0 + 3 * 8));

	/* refusals: nothing written, PROT_ERRORS counts */
	ok = mr_make(&ro, 9, 0x33, 2, 8, LOOM_MR_ACC_REMOTE_READ, 0, KEY) == LOOM_ADMIN_E_OK;
	ok &= mr_make(&other, 10, 0x44, 2, 0, LOOM_MR_ACC_MASK, 2, KEY2) == LOOM_ADMIN_E_OK;
	mr_fill(&b, 1);
	snapshot(&b, before);
	prot = rd(CARD_OFF_MR + LOOM_MR_PROT_ERRORS);
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_REMOTE_MR, b.key ^ (1u << 20), 0, 0, 0, 64, 10);
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_KEY, "wrong generation");
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_REMOTE_MR, 300, 0, 0, 0, 64, 11);
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_KEY, "unknown key");
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_REMOTE_MR, b.key, b.len - 10, 0, 0, 64, 12);
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_BOUNDS, "out of bounds");
	c = mr_cmd(LOOM_OP_ATOMIC, LOOM_CMD_F_REMOTE_MR, b.key, b.len, 0, 0, 8, 13);
	c.aux = LOOM_AMO_SWAP;
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_BOUNDS, "atomic out of bounds");
	ok &= same_bytes(&b, before);
	tap_ok(ok, "a key of another generation or unknown answers MR_KEY, out of bounds MR_BOUNDS; the region is unchanged");

	snapshot(&ro, before2);
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_REMOTE_MR, ro.key, 0, 0, 0, 64, 14);
	ok = expect(run(&c, NULL), LOOM_CQE_ST_MR_ACCESS, "put without REMOTE_WRITE");
	c = mr_cmd(LOOM_OP_ATOMIC, LOOM_CMD_F_REMOTE_MR, ro.key, 8, 0, 0, 8, 15);
	c.aux = LOOM_AMO_SWAP;
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_ACCESS, "atomic without REMOTE_ATOMIC");
	c = mr_cmd(LOOM_OP_GET, LOOM_CMD_F_LOCAL_MR | LOOM_CMD_F_REMOTE_MR, b.key, 0, ro.key, 0, 64,
		   16);
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_ACCESS, "get into a region without LOCAL_WRITE");
	ok &= same_bytes(&ro, before2);
	tap_ok(ok, "missing rights answer MR_ACCESS (remote write, remote atomic, local write); nothing changes");

	/* region of context 2 (another partition) */
	snapshot(&other, before3);
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_REMOTE_MR, other.key, 0, 0, 0, 64, 17);
	ok = expect(run(&c, NULL), LOOM_CQE_ST_REMOTE_KEY, "other partition put");
	c = mr_cmd(LOOM_OP_GET, LOOM_CMD_F_REMOTE_MR, other.key, 0, 0, 0x100, 64, 18);
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_REMOTE_KEY, "other partition get");
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_LOCAL_MR | LOOM_CMD_F_REMOTE_MR, b.key, 0, other.key, 0, 64,
		   19);
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_KEY, "lkey of another context");
	ok &= same_bytes(&other, before3) && same_bytes(&b, before);
	tap_ok(ok, "a region of another partition answers REMOTE_KEY; an lkey of another context MR_KEY; nothing changes");
	tap_ok(rd(CARD_OFF_MR + LOOM_MR_PROT_ERRORS) - prot >= 8,
	       "PROT_ERRORS counted the refusals (%u)", rd(CARD_OFF_MR + LOOM_MR_PROT_ERRORS) - prot);

	/* a revoked key */
	ok = admin(LOOM_ADMIN_CMD_MR_DISABLE, b.idx) == LOOM_ADMIN_E_OK;
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_REMOTE_MR, b.key, 0, 0, 0, 64, 20);
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_KEY, "revoked rkey");
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_LOCAL_MR, 0, 0, b.key, 0, 64, 21);
	c.dst_ctx = 0;
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_KEY, "revoked lkey");
	ok &= same_bytes(&b, before);
	tap_ok(ok, "after MR_DISABLE the key answers MR_KEY as rkey and as lkey; nothing changes");

	/* get in flight (to node 1, answered by hand) when its local region is dropped */
	ok = mr_make(&lget, 11, 0x55, 2, 0, LOOM_MR_ACC_LOCAL_WRITE, 0, KEY) == LOOM_ADMIN_E_OK;
	for (uint64_t i = 0; i < lget.len; i++)
		*mr_byte(&lget, i) = 0xee;
	snapshot(&lget, before2);
	c = mr_cmd(LOOM_OP_GET, LOOM_CMD_F_LOCAL_MR, 0, 0, lget.key, 0, 128, 22);
	c.dst_node = 1;
	submit(&c);
	ok &= last_req.type == LOOM_PKT_GET_REQ;
	ok &= admin(LOOM_ADMIN_CMD_MR_DISABLE, lget.idx) == LOOM_ADMIN_E_OK;
	{
		struct loom_pkt_hdr r;
		uint8_t data[128];
		struct loom_cqe e;
		int seen = 0;

		memset(data, 0x11, sizeof(data));
		rma_response_hdr(1, &last_req, LOOM_CQE_ST_OK, &r);
		r.len = 128;
		card_host_deliver(C0, &r, data, sizeof(data));
		card_service(C0);
	settle();
		while (reap(&e))
			if (e.tag == 22 && e.status == LOOM_CQE_ST_MR_KEY)
				seen = 1;
		ok &= seen;
	}
	ok &= same_bytes(&lget, before2);
	tap_ok(ok, "a get whose local region is dropped in flight completes with MR_KEY and writes nothing there");

	/* the owner's CTX_DISABLE drops its regions */
	ok = admin(LOOM_ADMIN_CMD_CTX_DISABLE, 2) == LOOM_ADMIN_E_OK &&
	     ctx_enable(2, CMDQ2, CQ2, SEG2, KEY, 0) == LOOM_ADMIN_E_OK;
	c = mr_cmd(LOOM_OP_PUT, LOOM_CMD_F_REMOTE_MR, other.key, 0, 0, 0, 64, 23);
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_KEY, "region of a disabled context");
	ok &= same_bytes(&other, before3);
	tap_ok(ok, "a context's regions are dropped with it: its key answers MR_KEY after CTX_DISABLE and re-enable");

	/* an atomic on a word not 8-byte aligned in memory */
	ok = mr_make(&tiny, 12, 0x66, 1, 4, LOOM_MR_ACC_MASK, 0, KEY) == LOOM_ADMIN_E_OK;
	c = mr_cmd(LOOM_OP_ATOMIC, LOOM_CMD_F_REMOTE_MR, tiny.key, 0, 0, 0, 8, 24);
	c.aux = LOOM_AMO_SWAP;
	ok &= expect(run(&c, NULL), LOOM_CQE_ST_MR_BOUNDS, "unaligned atomic");
	tap_ok(ok, "an atomic on a word not 8-byte aligned in memory answers MR_BOUNDS");
	return tap_exit_status();
}
