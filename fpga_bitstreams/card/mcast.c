// SPDX-License-Identifier: GPL-2.0
/*
 * The multicast block: the group table in the register window.
 */
#include "card.h"
#include "mcast.h"

_Static_assert(CARD_OFF_PERF + CARD_PERF_SIZE(LOOM_MAX_PORTS) <= CARD_OFF_MCAST &&
	       CARD_OFF_MCAST + CARD_MCAST_SIZE <= CARD_DB_AREA,
	       "the MCAST block overlaps its neighbours in the register window");

static uint32_t mcast_reg(uint32_t group, unsigned int word)
{
	return CARD_OFF_MCAST + LOOM_MCAST_TABLE + group * LOOM_MCAST_ENTRY_SIZE + 4 * word;
}

void mcast_init(struct card *c, uint32_t off, uint32_t next)
{
	card_blk(c, off, LOOM_BLK_MCAST, LOOM_MCAST_VERSION, next, CARD_MCAST_SIZE);
	card_wr32(c, off + LOOM_MCAST_N_GROUPS, CARD_MCAST_GROUPS);
	mcast_reset(c);
}

void mcast_reset(struct card *c)
{
	for (uint32_t g = 0; g < CARD_MCAST_GROUPS; g++) {
		card_wr32(c, mcast_reg(g, 0), 0);
		card_wr32(c, mcast_reg(g, 1), 0);
	}
}

const uint32_t *mcast_table(const struct card *c)
{
	return (const uint32_t *)(const void *)(c->regs + mcast_reg(0, 0));
}

bool mcast_entry(const struct card *c, uint32_t group, struct mcast_entry *e)
{
	uint32_t w0, w1;

	if (group >= CARD_MCAST_GROUPS)
		return false;
	w0 = card_rd32(c, mcast_reg(group, 0));
	w1 = card_rd32(c, mcast_reg(group, 1));
	e->valid = (w0 & LOOM_MCAST_W0_VALID) != 0;
	e->host = (w0 & LOOM_MCAST_W0_HOST) != 0;
	e->ports = w0 & LOOM_MCAST_W0_PORTS_MASK;
	e->host_ctx = (uint16_t)(w1 & LOOM_MCAST_W1_HOST_CTX_MASK);
	e->members = (uint16_t)((w1 & LOOM_MCAST_W1_MEMBERS_MASK) >> LOOM_MCAST_W1_MEMBERS_SHIFT);
	return true;
}

void mcast_set(struct card *c, uint32_t group, const struct mcast_entry *e)
{
	if (group >= CARD_MCAST_GROUPS)
		return;
	card_wr32(c, mcast_reg(group, 1), e->host_ctx |
		  (uint32_t)e->members << LOOM_MCAST_W1_MEMBERS_SHIFT);
	card_wr32(c, mcast_reg(group, 0), (e->valid ? LOOM_MCAST_W0_VALID : 0) |
		  (e->host ? LOOM_MCAST_W0_HOST : 0) | (e->ports & LOOM_MCAST_W0_PORTS_MASK));
}
