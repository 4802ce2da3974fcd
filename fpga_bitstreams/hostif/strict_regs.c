// SPDX-License-Identifier: GPL-2.0
/*
 * Strict register checking: the access map of the card's window, the
 * shadow of what the card wrote, consumption of write-only registers and
 * the check of read-only ones.
 */
#include "strict_regs.h"
#include "card.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STRICT_LOG_MAX	32	/* individual log lines, then only the summary */

struct strict_block {
	uint32_t off, size;
	const char *name;
	enum strict_access (*field)(uint32_t o);
	uint32_t rec_base, rec_size;	/* records inside the block, for names */
	const char *rec;		/* what a record is ("port"), or NULL */
	unsigned int n_rec;
};

static bool between(uint32_t o, uint32_t lo, uint32_t hi)
{
	return o >= lo && o < hi;
}

static enum strict_access acc_ro(uint32_t o)
{
	(void)o;
	return STRICT_RO;
}

static enum strict_access acc_admin(uint32_t o)
{
	return between(o, LOOM_ADMIN_CMD, LOOM_ADMIN_ACK) ? STRICT_RW : STRICT_RO;
}

static enum strict_access acc_router(uint32_t o)
{
	if (o == LOOM_ROUTER_LOGICAL_ID || o >= LOOM_ROUTER_RT)
		return STRICT_RW;
	return o < LOOM_ROUTER_RT_ENTRIES + 4 ? STRICT_RO : STRICT_RESERVED;
}

static enum strict_access acc_ports(uint32_t o)
{
	if (o == LOOM_PORTS_FP_TIMEOUT_MS)
		return STRICT_RW;
	if (o < LOOM_PORTS_BASE)
		return o <= LOOM_PORTS_EVENTS ? STRICT_RO : STRICT_RESERVED;
	return (o - LOOM_PORTS_BASE) % LOOM_PORT_REC_SIZE == LOOM_PORT_CTRL ? STRICT_RW : STRICT_RO;
}

static enum strict_access acc_ctx(uint32_t o)
{
	uint32_t f;

	if (o < LOOM_CTX_BASE)
		return o <= LOOM_CTX_STRIDE ? STRICT_RO : STRICT_RESERVED;
	f = (o - LOOM_CTX_BASE) % LOOM_CTX_REC_SIZE;
	return f == LOOM_CTXR_STATE || f == LOOM_CTXR_ERROR || f == LOOM_CTXR_CMD_CI ?
	       STRICT_RO : STRICT_RW;
}

static enum strict_access acc_doorbell(uint32_t o)
{
	return o <= LOOM_DOORBELL_COUNT ? STRICT_RO : STRICT_RESERVED;
}

static enum strict_access acc_vct(uint32_t o)
{
	if (between(o, LOOM_VCT_PORT_CFG, LOOM_VCT_PORT_CFG + 4 * LOOM_MAX_PORTS) ||
	    o >= LOOM_VCT_START_VC1)
		return STRICT_RW;
	return o <= LOOM_VCT_N_PORTS ? STRICT_RO : STRICT_RESERVED;
}

static enum strict_access acc_link(uint32_t o)
{
	if (o == LOOM_LINK_LANE_THRESHOLD || o == LOOM_LINK_LANE_WINDOW_MS)
		return STRICT_RW;
	return o <= LOOM_LINK_N_LANES || o >= LOOM_LINK_BASE ? STRICT_RO : STRICT_RESERVED;
}

static enum strict_access acc_maint(uint32_t o)
{
	return between(o, LOOM_MAINT_OP, LOOM_MAINT_REQ_ACK) ? STRICT_RW : STRICT_RO;
}

static enum strict_access acc_bsu(uint32_t o)
{
	if (o == LOOM_BSU_OWNED || o >= LOOM_BSU_KEY_BASE)
		return STRICT_RW;
	if (o < LOOM_BSU_TREE_BASE)
		return o <= LOOM_BSU_BAD_PKTS ? STRICT_RO : STRICT_RESERVED;
	switch ((o - LOOM_BSU_TREE_BASE) % LOOM_BSU_TREE_SIZE) {
	case LOOM_BSUT_CHILDREN:
	case LOOM_BSUT_PARENT:
		return STRICT_RW;
	default:
		return STRICT_RO;
	}
}

static enum strict_access acc_db_page(uint32_t o)
{
	if (o == LOOM_DB_CMD_PI || o == LOOM_DB_CQ_CI)
		return STRICT_WO;
	return o == LOOM_DB_CQ_CI_SEEN ? STRICT_RO : STRICT_RESERVED;
}

static enum strict_access acc_bsu_page(uint32_t o)
{
	if (o == LOOM_BSUP_OP)
		return STRICT_RW;
	return o <= LOOM_BSUP_REFUSED ? STRICT_RO : STRICT_RESERVED;
}

static enum strict_access acc_mr(uint32_t o)
{
	if (o < LOOM_MR_BASE)
		return o <= LOOM_MR_PROT_ERRORS ? STRICT_RO : STRICT_RESERVED;
	return STRICT_RW;
}

static enum strict_access acc_perf(uint32_t o)
{
	if (o == LOOM_PERF_SNAP_SEQ)
		return STRICT_RW;
	if (o < LOOM_PERF_PORT_BASE)
		return o <= LOOM_PERF_CLOCK_KHZ || between(o, LOOM_PERF_CYCLES,
							   LOOM_PERF_SA_CONFLICTS + 8) ?
		       STRICT_RO : STRICT_RESERVED;
	return STRICT_RO;
}

static enum strict_access acc_mcast(uint32_t o)
{
	if (o < LOOM_MCAST_TABLE)
		return o <= LOOM_MCAST_N_GROUPS ? STRICT_RO : STRICT_RESERVED;
	return STRICT_RW;
}

static const struct strict_block strict_blocks[] = {
	{ CARD_OFF_FWID, LOOM_FWID_SIZE, "FWID", acc_ro, 0, 0, NULL, 0 },
	{ CARD_OFF_ADMIN, LOOM_ADMIN_SIZE, "ADMIN", acc_admin, 0, 0, NULL, 0 },
	{ CARD_OFF_ROUTER, CARD_ROUTER_SIZE, "ROUTER", acc_router, LOOM_ROUTER_RT,
	  LOOM_ROUTER_RT_ENTRY_SIZE, "RT entry", CARD_RT_ENTRIES },
	{ CARD_OFF_PORTS, CARD_PORTS_SIZE, "PORTS", acc_ports, LOOM_PORTS_BASE,
	  LOOM_PORT_REC_SIZE, "port", LOOM_MAX_PORTS },
	{ CARD_OFF_CTX, CARD_CTX_SIZE, "CTX", acc_ctx, LOOM_CTX_BASE, LOOM_CTX_REC_SIZE, "",
	  CARD_N_CTX },
	{ CARD_OFF_DOORBELL, CARD_DOORBELL_SIZE, "DOORBELL", acc_doorbell, 0, 0, NULL, 0 },
	{ CARD_OFF_VCT, LOOM_VCT_SIZE, "VCT", acc_vct, 0, 0, NULL, 0 },
	{ CARD_OFF_COUNTERS, CARD_COUNTERS_SIZE, "COUNTERS", acc_ro, LOOM_CNT_BASE,
	  LOOM_CNT_REC_SIZE, "record", LOOM_MAX_PORTS * LOOM_NUM_VCS },
	{ CARD_OFF_LINK, CARD_LINK_SIZE, "LINK", acc_link, LOOM_LINK_BASE, LOOM_LINK_REC_SIZE,
	  "port", LOOM_MAX_PORTS },
	{ CARD_OFF_MAINT, LOOM_MAINT_SIZE, "MAINT", acc_maint, LOOM_MAINT_RESP_BASE,
	  LOOM_MAINT_RESP_SIZE, "response", LOOM_MAINT_RESP_SLOTS },
	{ CARD_OFF_BSU, LOOM_BSU_SIZE, "BSU", acc_bsu, LOOM_BSU_TREE_BASE, LOOM_BSU_TREE_SIZE,
	  "tree", LOOM_BSU_COUNT },
	{ CARD_OFF_MR, CARD_MR_SIZE, "MR", acc_mr, LOOM_MR_BASE, LOOM_MR_REC_SIZE, "region",
	  CARD_N_MR },
	{ CARD_OFF_PERF, CARD_PERF_SIZE(LOOM_MAX_PORTS), "PERF", acc_perf, LOOM_PERF_PORT_BASE,
	  LOOM_PERF_PORT_REC_SIZE, "port", LOOM_MAX_PORTS + 1 },
	{ CARD_OFF_MCAST, CARD_MCAST_SIZE, "MCAST", acc_mcast, LOOM_MCAST_TABLE,
	  LOOM_MCAST_ENTRY_SIZE, "group", CARD_MCAST_GROUPS },
	{ CARD_DB_AREA, CARD_N_CTX * LOOM_DB_PAGE_SIZE, "doorbell page", acc_db_page, 0,
	  LOOM_DB_PAGE_SIZE, "", CARD_N_CTX },
	{ CARD_BSU_AREA, LOOM_BSU_COUNT * LOOM_BSU_PAGE_SIZE, "BSU page", acc_bsu_page, 0,
	  LOOM_BSU_PAGE_SIZE, "", LOOM_BSU_COUNT },
};

#define N_BLOCKS (sizeof(strict_blocks) / sizeof(strict_blocks[0]))

static const struct strict_block *strict_block_of(uint32_t off)
{
	for (size_t i = 0; i < N_BLOCKS; i++)
		if (between(off, strict_blocks[i].off, strict_blocks[i].off + strict_blocks[i].size))
			return &strict_blocks[i];
	return NULL;
}

/* The user-mapped pages: each holds one context's or one BSU's registers. */
static bool strict_user_page(const struct strict_block *b)
{
	return b->off >= CARD_DB_AREA;
}

enum strict_access strict_regs_access(uint32_t off)
{
	const struct strict_block *b = strict_block_of(off & ~3u);
	uint32_t o;

	if (!b)
		return STRICT_RESERVED;
	o = (off & ~3u) - b->off;
	if (o < LOOM_BLK_HDR_SIZE && !strict_user_page(b))
		return STRICT_RO;	/* every block header */
	if (strict_user_page(b))
		o %= b->rec_size;
	return b->field(o);
}

void strict_regs_name(uint32_t off, char *buf, size_t len)
{
	const struct strict_block *b = strict_block_of(off);
	uint32_t o;

	if (!b) {
		snprintf(buf, len, "reserved 0x%05x", off);
		return;
	}
	o = off - b->off;
	/* the BSU's KEY words follow its tree records: not records */
	if (b->rec && o >= b->rec_base && (o - b->rec_base) / b->rec_size < b->n_rec)
		snprintf(buf, len, "%s%s%s %u +0x%02x", b->name, *b->rec ? " " : "", b->rec,
			 (o - b->rec_base) / b->rec_size, (o - b->rec_base) % b->rec_size);
	else
		snprintf(buf, len, "%s +0x%03x", b->name, o);
}

bool strict_regs_enable(struct card *c)
{
	struct strict_regs *s = &c->strict;
	size_t cap = 64;

	strict_regs_disable(c);
	s->shadow = malloc(c->regs_size);
	s->ro = malloc(cap * sizeof(*s->ro));
	if (!s->shadow || !s->ro) {
		strict_regs_disable(c);
		return false;
	}
	memcpy(s->shadow, c->regs, c->regs_size);
	for (uint32_t off = 0; off + 4 <= CARD_REGS_MIN && off + 4 <= c->regs_size; off += 4) {
		const struct strict_block *b;
		struct strict_range *r;

		if (strict_regs_access(off) != STRICT_RO)
			continue;
		r = s->n_ro ? &s->ro[s->n_ro - 1] : NULL;
		if (r && r->off + 4 * r->words == off) {
			r->words++;
			continue;
		}
		if (s->n_ro == cap) {
			struct strict_range *n = realloc(s->ro, 2 * cap * sizeof(*n));

			if (!n) {
				strict_regs_disable(c);
				return false;
			}
			s->ro = n;
			cap *= 2;
		}
		b = strict_block_of(off);
		s->ro[s->n_ro++] = (struct strict_range){
			.off = off, .words = 1, .user = b && strict_user_page(b),
		};
	}
	return true;
}

void strict_regs_disable(struct card *c)
{
	free(c->strict.shadow);
	free(c->strict.ro);
	memset(&c->strict, 0, sizeof(c->strict));
}

static void strict_log(struct card *c, bool user, uint32_t off, uint32_t seen, uint32_t card)
{
	struct strict_regs *s = &c->strict;
	char name[48];

	if (s->logged >= STRICT_LOG_MAX)
		return;
	s->logged++;
	strict_regs_name(off, name, sizeof(name));
	if (user)
		card_log(c, "strict-registers: a process wrote 0x%08x to read-only register 0x%05x (%s) of a page it maps; restored 0x%08x",
			 seen, off, name, card);
	else
		card_log(c, "strict-registers: violation: software wrote 0x%08x to read-only register 0x%05x (%s); restored 0x%08x",
			 seen, off, name, card);
	if (s->logged == STRICT_LOG_MAX)
		card_log(c, "strict-registers: %u writes logged; further ones are only counted",
			 STRICT_LOG_MAX);
}

unsigned int strict_regs_check(struct card *c)
{
	struct strict_regs *s = &c->strict;
	unsigned int found = 0;

	if (!s->shadow)
		return 0;
	for (unsigned int i = 0; i < s->n_ro; i++) {
		const struct strict_range *r = &s->ro[i];

		for (uint32_t w = 0; w < r->words; w++) {
			uint32_t off = r->off + 4 * w, seen = card_rd32(c, off);
			uint32_t mine = s->shadow[off / 4];

			if (seen == mine)
				continue;
			found++;
			if (r->user)
				s->user_writes++;
			else
				s->violations++;
			strict_log(c, r->user, off, seen, mine);
			card_wr32(c, off, mine);
		}
	}
	return found;
}

void strict_regs_report(struct card *c)
{
	const struct strict_regs *s = &c->strict;

	if (s->violations)
		card_log(c, "strict-registers: %llu violations in all (writes to read-only registers of the driver)",
			 (unsigned long long)s->violations);
	if (s->user_writes)
		card_log(c, "strict-registers: %llu writes by processes to read-only registers of their pages in all",
			 (unsigned long long)s->user_writes);
}

/* A poison that is not within 2^16 of @v: never software's next value. */
static uint32_t strict_poison_for(uint32_t v)
{
	return v - (LOOM_REG_POISON - 0x10000u) <= 0x20000u ? LOOM_REG_POISON_ALT : LOOM_REG_POISON;
}

bool strict_take_wo(struct card *c, uint32_t off, uint32_t *taken)
{
	uint32_t *word = (uint32_t *)(void *)(c->regs + off);
	uint32_t v = card_rd32(c, off), expect, poison;
	bool fresh;

	if (!c->strict.shadow) {
		fresh = v != *taken;
		*taken = v;
		return fresh;
	}
	if (v == c->strict.shadow[off / 4])
		return false;	/* still the card's own word: nothing written */
	expect = v;
	poison = strict_poison_for(v);
	/* a write racing with us stays in place: the next take gets it */
	if (__atomic_compare_exchange_n(word, &expect, poison, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE))
		c->strict.shadow[off / 4] = poison;
	fresh = v != *taken;
	*taken = v;
	return fresh;
}
