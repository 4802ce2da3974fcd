/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The maintenance network (Anton / T3E style; InfiniBand directed-route
 * SMPs): source-routed packets that read or write a register of any card
 * without a routing table and without flow control.
 *
 * Software issues one request through the MAINT block mailbox.  The packet
 * carries its route (an output port per hop) and records the input port
 * at each hop; the target executes the access and the response retraces
 * the recorded ports back to the requester, which writes it into the
 * MAINT response ring and raises LOOM_VEC_EVENT.
 *
 * Every output port has a single maintenance slot, drained ahead of the
 * data frames as a LOOM_FRAME_MAINT frame.  A packet that finds the slot
 * busy, the port down or nonexistent, or that arrives malformed, is lost
 * and counted in COUNTERS MAINT_LOST: nothing waits, nothing is retried
 * by the card.  Software times out and retries with a new sequence id.
 */
#ifndef LOOM_CARD_MAINT_H
#define LOOM_CARD_MAINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/regs.h>

struct card;

/* One maintenance packet waiting for its output port. */
struct maint_slot {
	bool busy;
	struct loom_pkt_hdr h;
	struct loom_maint_payload p;
};

struct maint {
	struct maint_slot out[LOOM_MAX_PORTS];
	uint64_t executed;	/* requests executed on this card */
};

/* Mailbox: issue the request software posted (REQ_SEQ != REQ_ACK). */
void maint_poll(struct card *c);
/* Forget the mailbox, the response ring and the queued packets. */
void maint_clear(struct card *c);
/*
 * A LOOM_FRAME_MAINT frame's body (@len bytes) arrived on @in_port with a
 * good CRC: forward, execute or deliver it; malformed ones are lost.
 */
void maint_receive(struct card *c, unsigned int in_port, const void *body, size_t len);
/*
 * @n maintenance frames the link unit of @port lost (its slot busy, the
 * link not up) count in MAINT_LOST with the ones lost here.
 */
void maint_link_lost(struct card *c, unsigned int port, uint32_t n);
/*
 * Take the packet waiting in @port's slot as a maintenance frame body
 * (header and payload) into @out (@cap bytes) and free the slot.  Returns
 * the body's size, or 0 when the slot is empty.
 */
size_t maint_tx_body(struct card *c, unsigned int port, uint8_t *out, size_t cap);

/*
 * Execute one access on card @c: LOOM_MAINT_ST_* status, *value read
 * (READ) or written (WRITE).  Exposed for the unit tests.
 */
uint8_t maint_execute(struct card *c, uint8_t op, uint32_t addr, uint32_t *value);

#endif
