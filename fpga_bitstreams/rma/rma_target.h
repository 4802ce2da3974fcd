/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Remote memory operations beyond PUT, target side, and the per-context
 * counters.
 *
 * GET: one GET_REQ per chunk of at most LOOM_PKT_MAX_PAYLOAD bytes asks the
 * target for op_len bytes at offset; the target answers with one GET_RESP
 * (class RESP) carrying them, offset = the requester's local offset (the
 * request's aux), aux = bytes covered.  ATOMIC: one AMO_REQ (payload:
 * operand, compare) executes an 8-byte atomic on the target segment; the
 * AMO_RESP carries the fetched value.  COUNTED_PUT: a PUT whose aux holds
 * the op's remote offset in bits [47:0] and the counter id in [63:48];
 * landed bytes advance that counter of the target context, and the card
 * writes the counter to the context's counters page after each packet.
 * Every refusal at the target is answered with an error status and counted
 * in the COUNTERS block (DROP_KEY, DROP_BOUNDS, DROP_NO_CTX).
 */
#ifndef LOOM_CARD_RMA_TARGET_H
#define LOOM_CARD_RMA_TARGET_H

#include <stdbool.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/ring.h>

struct card;

#define RMA_COUNTED_BASE_MASK	((1ull << 48) - 1)
#define RMA_COUNTED_ID_SHIFT	48

/* aux of a COUNTED_PUT packet */
static inline uint64_t rma_counted_aux(uint64_t remote_off, uint32_t counter)
{
	return (remote_off & RMA_COUNTED_BASE_MASK) | (uint64_t)counter << RMA_COUNTED_ID_SHIFT;
}

/* Is @type a request that its source waits an answer for? */
bool rma_is_request(uint8_t type);
/*
 * The answer to request @req with @status, from node @self: PUT_ACK for
 * PUT and COUNTED_PUT, GET_RESP for GET_REQ, AMO_RESP for AMO_REQ; no
 * payload (the caller adds it to successful GET and AMO answers).
 */
void rma_response_hdr(uint16_t self, const struct loom_pkt_hdr *req, uint8_t status,
		      struct loom_pkt_hdr *resp);
/* Count a target-side refusal with @status in the COUNTERS block. */
void rma_count_drop(struct card *c, uint8_t status);

void rma_target_get(struct card *c, const struct loom_pkt_hdr *h);
void rma_target_amo(struct card *c, const struct loom_pkt_hdr *h, const void *payload);
void rma_target_counted(struct card *c, const struct loom_pkt_hdr *h, const void *payload);

/* Add @n to counter @id of context @idx, publish it, fire reached waits. */
void rma_counter_add(struct card *c, unsigned int idx, unsigned int id, uint64_t n);
/* Execute COUNTER_WAIT @cmd for context @idx (completes now or later). */
void rma_counter_wait(struct card *c, unsigned int idx, const struct loom_cmd *cmd);

#endif
