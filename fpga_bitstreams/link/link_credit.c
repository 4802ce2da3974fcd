// SPDX-License-Identifier: GPL-2.0
/*
 * Credit return across a link (see link_credit.h).
 */
#include "link_credit.h"

#include <string.h>

static void link_credit_peer_state(struct link_credit *c, unsigned int vc)
{
	uint32_t bit = 1u << vc, have = c->granted[vc] - c->sent[vc];

	if (c->granted[vc] != c->sent[vc] + c->depth)
		c->deficit_mask |= bit;
	else
		c->deficit_mask &= ~bit;
	if (have < c->pkt_flits)
		c->low_mask |= bit;
	else
		c->low_mask &= ~bit;
}

void link_credit_init(struct link_credit *c, unsigned int vcs, uint32_t depth, uint32_t pkt_flits)
{
	memset(c, 0, sizeof(*c));
	c->vcs = vcs;
	c->depth = depth;
	c->pkt_flits = pkt_flits;
	link_credit_train(c);
	link_credit_down(c);
}

void link_credit_train(struct link_credit *c)
{
	c->pending = 0;
	for (unsigned int v = 0; v < c->vcs; v++) {
		c->grant[v] = c->depth - c->occupied[v];
		c->advertised[v] = c->grant[v] - 1;
		c->received[v] = 0;
		c->granted[v] = 0;
		c->sent[v] = 0;
		c->withheld[v] = c->depth;
		c->owed[v] = 0;
		c->pending |= 1u << v;
		link_credit_peer_state(c, v);
	}
	c->owed_mask = 0;
	c->rr = 0;
}

void link_credit_down(struct link_credit *c)
{
	memset(c->owed, 0, sizeof(c->owed));
	c->owed_mask = 0;
	c->pending = 0;
	c->deficit_mask = 0;
	c->low_mask = 0;
}

bool link_credit_freed(struct link_credit *c, unsigned int vc, uint32_t n)
{
	bool ok = n <= c->occupied[vc];

	if (!ok)
		n = c->occupied[vc];	/* never grant space the buffer does not have */
	c->occupied[vc] -= n;
	c->grant[vc] += n;
	if (n)
		c->pending |= 1u << vc;
	return ok;
}

void link_credit_accepted(struct link_credit *c, unsigned int vc, uint32_t flits)
{
	c->received[vc] += flits;
	c->occupied[vc] += flits;
}

static void link_credit_mark_sent(struct link_credit *c, unsigned int vc)
{
	c->advertised[vc] = c->grant[vc];
	c->pending &= ~(1u << vc);
}

unsigned int link_credit_pick(struct link_credit *c, uint32_t *value, bool *was_pending)
{
	uint32_t from_rr = c->pending >> c->rr << c->rr;	/* pending VCs >= rr */
	unsigned int vc = c->rr;

	*was_pending = c->pending != 0;
	if (from_rr)
		vc = (unsigned int)__builtin_ctz(from_rr);
	else if (c->pending)
		vc = (unsigned int)__builtin_ctz(c->pending);	/* wrapped round */
	link_credit_mark_sent(c, vc);
	c->rr = vc + 1 == c->vcs ? 0 : vc + 1;
	*value = c->grant[vc];
	return vc;
}

bool link_credit_advertise_all(struct link_credit *c)
{
	bool any = c->pending != 0;

	for (unsigned int v = 0; v < c->vcs; v++)
		link_credit_mark_sent(c, v);
	return any;
}

void link_credit_repeat(struct link_credit *c)
{
	for (unsigned int v = 0; v < c->vcs; v++) {
		c->advertised[v] = c->grant[v] - 1;
		c->pending |= 1u << v;
	}
}

bool link_credit_valid(const struct link_credit *c, unsigned int vc, uint32_t value)
{
	/* a header's credit_vc may name any VC: only the link's are looked up */
	if (vc >= c->vcs)
		return false;
	return value - c->granted[vc] <= c->sent[vc] + c->depth - c->granted[vc];
}

bool link_credit_update(struct link_credit *c, unsigned int vc, uint32_t value)
{
	uint32_t gain = value - c->granted[vc];
	uint32_t kept = gain < c->withheld[vc] ? gain : c->withheld[vc];

	if (!gain)
		return false;
	c->granted[vc] = value;
	c->withheld[vc] -= kept;	/* the router started with these */
	if (gain > kept) {
		c->owed[vc] += gain - kept;
		c->owed_mask |= 1u << vc;
	}
	link_credit_peer_state(c, vc);
	return true;
}

void link_credit_sent(struct link_credit *c, unsigned int vc, uint32_t flits)
{
	c->sent[vc] += flits;
	link_credit_peer_state(c, vc);
}

void link_credit_refund(struct link_credit *c, unsigned int vc, uint32_t flits)
{
	if (!flits)
		return;
	c->owed[vc] += flits;
	c->owed_mask |= 1u << vc;
}

bool link_credit_to_router(struct link_credit *c, uint8_t credits[CHAN_VCS_MAX])
{
	uint32_t mask = c->owed_mask;
	bool any = mask != 0;

	memset(credits, 0, CHAN_VCS_MAX);
	while (mask) {
		unsigned int v = (unsigned int)__builtin_ctz(mask);
		uint32_t n = c->owed[v] > 255 ? 255 : c->owed[v];

		mask &= mask - 1;
		credits[v] = (uint8_t)n;
		c->owed[v] -= n;
		if (!c->owed[v])
			c->owed_mask &= ~(1u << v);
	}
	return any;
}
