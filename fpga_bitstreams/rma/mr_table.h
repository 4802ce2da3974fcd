/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory-region (MR) table: registered user memory the card reaches
 * through a two-level page list (LOOM_BLK_MR, Documentation/hw/mr.rst).
 *
 * The driver programs a record and enables it with an admin command; the
 * card latches the record, checked, into this table and serves it until
 * MR_DISABLE, or until its owning context stops.  Every access names a
 * region by key and an offset in it: the card checks the key (index and
 * generation), the owning context (lkeys: the issuing one; rkeys: a
 * running one), the partition (rkeys: the request's key), the right and
 * the bounds before it touches memory, then translates page by page
 * through the page list with the bounds checks of every DMA access.
 */
#ifndef LOOM_CARD_MR_TABLE_H
#define LOOM_CARD_MR_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/regs.h>

struct card;

#define CARD_N_MR	LOOM_MR_MAX_ENTRIES

/* A latched region. */
struct mr_entry {
	bool valid;
	uint32_t key;
	uint32_t access;	/* LOOM_MR_ACC_* */
	uint32_t pkey;		/* partition */
	uint32_t first_off;	/* offset of byte 0 in the first page */
	uint16_t ctx;		/* owning context */
	uint64_t len;
	uint64_t pgl;		/* page directory */
};

struct mr_table {
	struct mr_entry e[CARD_N_MR];
};

/* Write the block header and geometry at @off (register space). */
void mr_init(struct card *c, uint32_t off, uint32_t next);
/* Admin MR_ENABLE / MR_DISABLE of region @idx: LOOM_ADMIN_E_*. */
uint32_t mr_admin_enable(struct card *c, uint32_t idx);
uint32_t mr_admin_disable(struct card *c, uint32_t idx);
/* Context @ctx stopped: drop every region it owns. */
void mr_ctx_gone(struct card *c, unsigned int ctx);

/*
 * May context @ctx use [off, off + len) of its region @lkey (@write: land
 * GET data there)?  LOOM_CQE_ST_OK or MR_KEY, MR_ACCESS, MR_BOUNDS.
 */
uint8_t mr_check_local(const struct card *c, unsigned int ctx, uint32_t lkey, uint64_t off,
		       uint64_t len, bool write);
/*
 * May LOOM_PKT_F_MR request @h touch [off, off + len) of its rkey's
 * region, as part of an operation covering [base, base + op_len)?  The
 * right follows from the packet type.  On OK, *@owner is the owning
 * context.  LOOM_CQE_ST_OK, MR_KEY, REMOTE_KEY (partition), NO_CTX,
 * MR_ACCESS or MR_BOUNDS.
 */
uint8_t mr_check_remote(const struct card *c, const struct loom_pkt_hdr *h, uint64_t base,
			uint64_t op_len, uint64_t off, uint64_t len, unsigned int *owner);
/*
 * Copy between @buf and [off, off + len) of the region @key (checked
 * before); false on a DMA fault (page list or page outside host memory),
 * when nothing more is copied.
 */
bool mr_read(const struct card *c, uint32_t key, uint64_t off, void *buf, uint64_t len);
bool mr_write(struct card *c, uint32_t key, uint64_t off, const void *buf, uint64_t len);
/*
 * The 8 bytes at @off of region @key for an atomic: NULL with *@st set
 * (MR_BOUNDS: not 8-byte aligned in memory; NO_CTX: a DMA fault).
 */
uint64_t *mr_ptr8(const struct card *c, uint32_t key, uint64_t off, uint8_t *st);
/* Count a refusal by a region check (LOOM_MR_PROT_ERRORS). */
void mr_count_refusal(struct card *c);

/* ---- where a request's target bytes are: segment or region ---- */
/* The context whose memory @h targets (after a successful check). */
unsigned int rma_tgt_ctx(const struct card *c, const struct loom_pkt_hdr *h);
bool rma_tgt_write(struct card *c, const struct loom_pkt_hdr *h, uint64_t off, const void *src,
		   uint64_t len);
bool rma_tgt_read(const struct card *c, const struct loom_pkt_hdr *h, uint64_t off, void *dst,
		  uint64_t len);
/* NULL with *@st set when unaligned or outside host memory. */
uint64_t *rma_tgt_ptr8(const struct card *c, const struct loom_pkt_hdr *h, uint64_t off,
		       uint8_t *st);

#endif
