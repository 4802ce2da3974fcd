/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Credit return across a link, as pure arithmetic: both directions of one
 * end.  Credits are counted in flits, per VC, as cumulative counts modulo
 * 2^32 that restart when the link trains, so any frame carrying a count
 * repairs every earlier one that was lost.
 *
 * Toward the peer: the end grants the peer the free flits of its router's
 * input buffer of each VC.  It tracks the buffer's occupancy itself (flits
 * it accepted from the cable minus flits its router freed, across link
 * epochs), so the first grant after training is the space really free:
 * grant = buf_depth - occupied + flits freed since.  A VC whose grant
 * changed since it was last sent is pending.
 *
 * From the peer: grants received for the attached router's output port.
 * A valid count lies between the last one (older is impossible: frames
 * arrive in order) and the flits sent on the VC plus buf_depth (more
 * would be credit beyond the buffer).  As chan.h has it, the router's
 * output port holds buf_depth credits per VC when the link comes up, so
 * the first buf_depth flits of each VC's grant are withheld; what the
 * grant adds beyond them is owed to the router and handed over on the
 * credit wires, at most 255 per VC and cycle.  The transmitter also checks
 * the grant itself before it sends a packet (link_credit_peer_has()): a
 * router whose credits disagree with the peer's buffer (a cable that came
 * back while the peer's buffer still held packets) cannot overrun it.
 */
#ifndef LOOM_LINK_CREDIT_H
#define LOOM_LINK_CREDIT_H

#include <stdbool.h>
#include <stdint.h>

#include "router/chan.h"

struct link_credit {
	unsigned int vcs;
	uint32_t depth;			/* buf_depth */
	uint32_t pkt_flits;		/* flits of a maximal packet */
	/* toward the peer */
	uint32_t grant[CHAN_VCS_MAX];		/* cumulative, this epoch */
	uint32_t advertised[CHAN_VCS_MAX];	/* last value sent */
	uint32_t received[CHAN_VCS_MAX];	/* flits accepted this epoch */
	uint32_t occupied[CHAN_VCS_MAX];	/* flits in our queue and router */
	uint32_t pending;			/* mask: grant != advertised */
	unsigned int rr;			/* next VC a DATA header carries */
	/* from the peer */
	uint32_t granted[CHAN_VCS_MAX];		/* cumulative, this epoch */
	uint32_t sent[CHAN_VCS_MAX];		/* flits sent on the cable this epoch */
	uint32_t withheld[CHAN_VCS_MAX];	/* grant the router started with */
	uint32_t owed[CHAN_VCS_MAX];		/* not yet handed to the router */
	uint32_t owed_mask;
	uint32_t deficit_mask;			/* sent + depth != granted */
	uint32_t low_mask;			/* granted - sent < a packet */
};

void link_credit_init(struct link_credit *c, unsigned int vcs, uint32_t depth, uint32_t pkt_flits);
/* The link (re)trained: counts restart, every VC's grant is pending. */
void link_credit_train(struct link_credit *c);
/* The link went down: nothing more is owed to the router. */
void link_credit_down(struct link_credit *c);

/* ---- toward the peer ---- */
/* Our router freed @n flits of VC @vc; false if it freed more than it held. */
bool link_credit_freed(struct link_credit *c, unsigned int vc, uint32_t n);
/* May the peer have sent @flits more flits on @vc? */
static inline bool link_credit_may_accept(const struct link_credit *c, unsigned int vc,
					  uint32_t flits)
{
	return c->grant[vc] - c->received[vc] >= flits;
}
void link_credit_accepted(struct link_credit *c, unsigned int vc, uint32_t flits);
/*
 * The VC a DATA header carries: the next pending one after the last
 * carried (round robin), else the next VC in turn (a repeat that costs
 * nothing).  Marks it advertised; *was_pending tells which case it was.
 */
unsigned int link_credit_pick(struct link_credit *c, uint32_t *value, bool *was_pending);
/* Every VC advertised at once (an ACK_CREDIT frame); true if any was pending. */
bool link_credit_advertise_all(struct link_credit *c);
/* Send every VC's grant again (the peer asked, or frames were lost). */
void link_credit_repeat(struct link_credit *c);

/* ---- from the peer ---- */
/* Is @value a possible cumulative grant for @vc? */
bool link_credit_valid(const struct link_credit *c, unsigned int vc, uint32_t value);
/* Take a valid grant; true if it added credit. */
bool link_credit_update(struct link_credit *c, unsigned int vc, uint32_t value);
/* Did the peer grant room for @flits more flits on @vc? */
static inline bool link_credit_peer_has(const struct link_credit *c, unsigned int vc,
					uint32_t flits)
{
	return c->granted[vc] - c->sent[vc] >= flits;
}
/* A packet of @flits flits went on the cable on @vc. */
void link_credit_sent(struct link_credit *c, unsigned int vc, uint32_t flits);
/* Return @flits credits to the router (a packet the link dropped). */
void link_credit_refund(struct link_credit *c, unsigned int vc, uint32_t flits);
/* This cycle's credit wires to the router (at most 255 per VC); true if any. */
bool link_credit_to_router(struct link_credit *c, uint8_t credits[CHAN_VCS_MAX]);

#endif
