/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Admin mailbox: one command in flight, executed when SEQ != ACK.
 */
#ifndef LOOM_CARD_ADMIN_H
#define LOOM_CARD_ADMIN_H

#include <stdint.h>

#include "host_if.h"

struct card;

/* Execute the pending mailbox command, if any; ack it and flag vector 0. */
void admin_poll(struct card *c);
/* Clear the mailbox (new driver instance: SEQ = ACK = RESULT = 0). */
void admin_clear(struct card *c);

/*
 * Validate context parameters against host memory of @ram_size bytes:
 * LOOM_ADMIN_E_OK, LOOM_ADMIN_E_BAD_RING (ring size outside
 * LOG2_MIN..LOG2_MAX, command ring not 64-byte or completion ring not
 * 32-byte aligned, ring outside host
 * memory, vector >= LOOM_NUM_VECTORS) or LOOM_ADMIN_E_BAD_SEGMENT (empty
 * or outside host memory).
 */
uint32_t admin_check_ctx(const struct hif_ctx_params *p, uint64_t ram_size);

#endif
