// SPDX-License-Identifier: GPL-2.0
/*
 * The memory-region table: latching records, checking keys, translating
 * region offsets to bus addresses through the page list.
 */
#include "mr_table.h"
#include "card.h"

#include <loom_hw/ring.h>

#include <string.h>

static uint32_t mr_reg(uint32_t idx, uint32_t field)
{
	return CARD_OFF_MR + LOOM_MR_BASE + idx * LOOM_MR_REC_SIZE + field;
}

void mr_init(struct card *c, uint32_t off, uint32_t next)
{
	card_wr32(c, off + LOOM_BLK_TYPE, LOOM_BLK_MR);
	card_wr32(c, off + LOOM_BLK_VERSION, LOOM_MR_VERSION);
	card_wr32(c, off + LOOM_BLK_NEXT, next);
	card_wr32(c, off + LOOM_BLK_SIZE, CARD_MR_SIZE);
	card_wr32(c, off + LOOM_MR_COUNT, CARD_N_MR);
	card_wr32(c, off + LOOM_MR_STRIDE, LOOM_MR_REC_SIZE);
	memset(&c->mr, 0, sizeof(c->mr));
}

uint32_t mr_admin_enable(struct card *c, uint32_t idx)
{
	struct mr_entry e = { .valid = true };
	uint32_t acc;

	if (idx >= CARD_N_MR)
		return LOOM_ADMIN_E_BAD_MR;
	e.key = card_rd32(c, mr_reg(idx, LOOM_MRR_KEY));
	acc = card_rd32(c, mr_reg(idx, LOOM_MRR_ACCESS));
	e.access = acc & LOOM_MR_ACC_MASK;
	e.first_off = (acc & LOOM_MR_FIRST_OFF_MASK) >> LOOM_MR_FIRST_OFF_SHIFT;
	e.ctx = (uint16_t)card_rd32(c, mr_reg(idx, LOOM_MRR_CTX));
	e.pkey = card_rd32(c, mr_reg(idx, LOOM_MRR_PKEY));
	e.len = card_rd64(c, mr_reg(idx, LOOM_MRR_LEN_LO));
	e.pgl = card_rd64(c, mr_reg(idx, LOOM_MRR_PGL_LO));
	if ((e.key & LOOM_MR_KEY_INDEX_MASK) != idx ||
	    acc & ~(LOOM_MR_ACC_MASK | LOOM_MR_FIRST_OFF_MASK) ||
	    card_rd32(c, mr_reg(idx, LOOM_MRR_CTX)) >= c->n_ctx ||
	    c->ctx[e.ctx].state != LOOM_CTX_ST_RUNNING || e.len == 0 || e.len > LOOM_MR_MAX_LEN ||
	    e.pgl % LOOM_MR_PAGE_SIZE ||
	    !guest_mem_range_ok(c->gm, e.pgl, LOOM_MR_PGL_ENTRIES * 8)) {
		card_log(c, "memory region %u: enable refused: key 0x%x, access 0x%x, context %u, length 0x%llx, page directory 0x%llx",
			 idx, e.key, acc, card_rd32(c, mr_reg(idx, LOOM_MRR_CTX)),
			 (unsigned long long)e.len, (unsigned long long)e.pgl);
		return LOOM_ADMIN_E_BAD_MR;
	}
	c->mr.e[idx] = e;
	if (c->verbose)
		card_log(c, "memory region %u: key 0x%x of context %u, 0x%llx bytes, access 0x%x",
			 idx, e.key, e.ctx, (unsigned long long)e.len, e.access);
	return LOOM_ADMIN_E_OK;
}

uint32_t mr_admin_disable(struct card *c, uint32_t idx)
{
	if (idx >= CARD_N_MR)
		return LOOM_ADMIN_E_BAD_MR;
	c->mr.e[idx].valid = false;
	return LOOM_ADMIN_E_OK;
}

void mr_ctx_gone(struct card *c, unsigned int ctx)
{
	for (unsigned int i = 0; i < CARD_N_MR; i++)
		if (c->mr.e[i].valid && c->mr.e[i].ctx == ctx)
			c->mr.e[i].valid = false;
}

void mr_count_refusal(struct card *c)
{
	uint32_t off = CARD_OFF_MR + LOOM_MR_PROT_ERRORS;

	card_wr32(c, off, card_rd32(c, off) + 1);
}

static const struct mr_entry *mr_find(const struct card *c, uint32_t key)
{
	const struct mr_entry *e = &c->mr.e[key & LOOM_MR_KEY_INDEX_MASK];

	return e->valid && e->key == key ? e : NULL;
}

/* [off, off + len) inside a region of @size bytes, len > 0 */
static bool mr_inside(uint64_t size, uint64_t off, uint64_t len)
{
	return len && off <= size && len <= size - off;
}

uint8_t mr_check_local(const struct card *c, unsigned int ctx, uint32_t lkey, uint64_t off,
		       uint64_t len, bool write)
{
	const struct mr_entry *e = mr_find(c, lkey);

	if (!e || e->ctx != ctx)
		return LOOM_CQE_ST_MR_KEY;
	if (write && !(e->access & LOOM_MR_ACC_LOCAL_WRITE))
		return LOOM_CQE_ST_MR_ACCESS;
	if (!mr_inside(e->len, off, len))
		return LOOM_CQE_ST_MR_BOUNDS;
	return LOOM_CQE_ST_OK;
}

static uint32_t mr_right(uint8_t type)
{
	switch (type) {
	case LOOM_PKT_GET_REQ:
		return LOOM_MR_ACC_REMOTE_READ;
	case LOOM_PKT_AMO_REQ:
		return LOOM_MR_ACC_REMOTE_ATOMIC;
	default:
		return LOOM_MR_ACC_REMOTE_WRITE;
	}
}

uint8_t mr_check_remote(const struct card *c, const struct loom_pkt_hdr *h, uint64_t base,
			uint64_t op_len, uint64_t off, uint64_t len, unsigned int *owner)
{
	const struct mr_entry *e = mr_find(c, loom_pkt_rkey(h));

	if (!e)
		return LOOM_CQE_ST_MR_KEY;
	if (e->pkey != h->key)
		return LOOM_CQE_ST_REMOTE_KEY;
	if (c->ctx[e->ctx].state != LOOM_CTX_ST_RUNNING)
		return LOOM_CQE_ST_NO_CTX;
	if (!(e->access & mr_right(h->type)))
		return LOOM_CQE_ST_MR_ACCESS;
	/* the whole op inside the region, and this packet inside the op */
	if (!mr_inside(e->len, base, op_len) || off < base || len > op_len ||
	    off - base > op_len - len)
		return LOOM_CQE_ST_MR_BOUNDS;
	*owner = e->ctx;
	return LOOM_CQE_ST_OK;
}

/* Bus address of byte @off of region @e (checked inside); false on a fault. */
static bool mr_translate(const struct card *c, const struct mr_entry *e, uint64_t off,
			 uint64_t *addr)
{
	uint64_t pos = e->first_off + off;
	uint64_t page = pos / LOOM_MR_PAGE_SIZE;
	uint64_t list, pa;

	if (page >= LOOM_MR_MAX_PAGES ||
	    !guest_mem_read(c->gm, e->pgl + page / LOOM_MR_PGL_ENTRIES * 8, &list, 8) ||
	    list % LOOM_MR_PAGE_SIZE ||
	    !guest_mem_read(c->gm, list + page % LOOM_MR_PGL_ENTRIES * 8, &pa, 8) ||
	    pa % LOOM_MR_PAGE_SIZE)
		return false;
	*addr = pa + pos % LOOM_MR_PAGE_SIZE;
	return true;
}

/* Copy page by page; @to_mem: buf -> region. */
static bool mr_copy(const struct card *c, uint32_t key, uint64_t off, void *buf, uint64_t len,
		    bool to_mem)
{
	const struct mr_entry *e = mr_find(c, key);
	uint8_t *p = buf;

	if (!e || !mr_inside(e->len, off, len))
		return false;
	while (len) {
		uint64_t addr, n;

		if (!mr_translate(c, e, off, &addr))
			return false;
		n = LOOM_MR_PAGE_SIZE - addr % LOOM_MR_PAGE_SIZE;
		if (n > len)
			n = len;
		if (to_mem ? !guest_mem_write(c->gm, addr, p, n) : !guest_mem_read(c->gm, addr, p, n))
			return false;
		p += n;
		off += n;
		len -= n;
	}
	return true;
}

bool mr_read(const struct card *c, uint32_t key, uint64_t off, void *buf, uint64_t len)
{
	return mr_copy(c, key, off, buf, len, false);
}

bool mr_write(struct card *c, uint32_t key, uint64_t off, const void *buf, uint64_t len)
{
	return mr_copy(c, key, off, (void *)(uintptr_t)buf, len, true);
}

uint64_t *mr_ptr8(const struct card *c, uint32_t key, uint64_t off, uint8_t *st)
{
	const struct mr_entry *e = mr_find(c, key);
	uint64_t addr;
	uint64_t *p;

	*st = LOOM_CQE_ST_MR_KEY;
	if (!e)
		return NULL;
	*st = LOOM_CQE_ST_NO_CTX;
	if (!mr_inside(e->len, off, 8) || !mr_translate(c, e, off, &addr))
		return NULL;
	*st = LOOM_CQE_ST_MR_BOUNDS;
	if (addr % 8)
		return NULL;
	*st = LOOM_CQE_ST_NO_CTX;
	p = guest_mem_ptr(c->gm, addr, 8);
	if (p)
		*st = LOOM_CQE_ST_OK;
	return p;
}

/* ---- where a request's target bytes are --------------------------------- */

unsigned int rma_tgt_ctx(const struct card *c, const struct loom_pkt_hdr *h)
{
	const struct mr_entry *e;

	if (!(h->flags & LOOM_PKT_F_MR))
		return h->dst_ctx;
	e = mr_find(c, loom_pkt_rkey(h));
	return e ? e->ctx : 0;
}

bool rma_tgt_write(struct card *c, const struct loom_pkt_hdr *h, uint64_t off, const void *src,
		   uint64_t len)
{
	if (h->flags & LOOM_PKT_F_MR)
		return mr_write(c, loom_pkt_rkey(h), off, src, len);
	return guest_mem_write(c->gm, c->ctx[h->dst_ctx].p.seg + off, src, len);
}

bool rma_tgt_read(const struct card *c, const struct loom_pkt_hdr *h, uint64_t off, void *dst,
		  uint64_t len)
{
	if (h->flags & LOOM_PKT_F_MR)
		return mr_read(c, loom_pkt_rkey(h), off, dst, len);
	return guest_mem_read(c->gm, c->ctx[h->dst_ctx].p.seg + off, dst, len);
}

uint64_t *rma_tgt_ptr8(const struct card *c, const struct loom_pkt_hdr *h, uint64_t off,
		       uint8_t *st)
{
	uint64_t addr;
	uint64_t *p;

	if (h->flags & LOOM_PKT_F_MR)
		return mr_ptr8(c, loom_pkt_rkey(h), off, st);
	addr = c->ctx[h->dst_ctx].p.seg + off;
	if (addr % 8) {
		*st = LOOM_CQE_ST_REMOTE_BOUNDS;
		return NULL;
	}
	p = guest_mem_ptr(c->gm, addr, 8);
	*st = p ? LOOM_CQE_ST_OK : LOOM_CQE_ST_NO_CTX;
	return p;
}
