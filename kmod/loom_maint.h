/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The maintenance channel of a card (loom_genl_maint.c): the MAINT block
 * mailbox, one request in flight, and the response ring read on vector
 * LOOM_VEC_EVENT.
 */
#ifndef LOOM_MAINT_H
#define LOOM_MAINT_H

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/wait.h>

struct loom_dev;

/**
 * struct loom_maint_resp - one entry of the card's response ring
 * @seq: REQ_SEQ of the request it answers
 * @status: LOOM_MAINT_ST_*
 * @value: value read, or written
 * @node: the target's physical node id
 */
struct loom_maint_resp {
	u32 seq;
	u32 status;
	u32 value;
	u32 node;
};

/**
 * struct loom_maint - maintenance channel state of one card
 * @off: register offset of the MAINT block, 0 when the card has none
 * @req_lock: one request in flight per card (held across the wait)
 * @scan_lock: one reader of the response ring at a time (the event
 *	interrupt's thread and a polling waiter); protects the fields below
 * @seq: sequence id of the last request issued
 * @ci: response ring entries consumed
 * @want: sequence id being waited for, 0 when nobody waits
 * @op: operation of the request being waited for
 * @addr: target register of the request being waited for
 * @route_len: hops of its route
 * @route: its route
 * @got: the response to @want has arrived, in @resp
 * @resp: that response
 * @wq: woken when @got is set
 */
struct loom_maint {
	u32 off;
	struct mutex req_lock;		/* see @req_lock above */
	struct mutex scan_lock;		/* see @scan_lock above */
	u32 seq;
	u32 ci;
	u32 want;
	u8 op;
	u32 addr;
	u8 route_len;
	u8 route[16];
	bool got;
	struct loom_maint_resp resp;
	wait_queue_head_t wq;
};

void loom_maint_setup(struct loom_dev *ldev);
void loom_maint_event(struct loom_dev *ldev);

#endif /* LOOM_MAINT_H */
