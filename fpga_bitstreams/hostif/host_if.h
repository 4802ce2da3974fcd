/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host interface of the card: per-context DMA engines.
 *
 * Source side: fetch descriptors from the command ring (doorbell producer
 * index vs. commands consumed), validate them, packetise PUTs, counted
 * PUTs, GET requests and atomics a packet at a time while the output has
 * room (bounded memory for any length), track each operation until every
 * packet is answered, post one LOCAL completion (when LOOM_CMD_F_SIGNAL
 * asks for it, and always on error).  Every request carries the issuing
 * context's partition key, never a descriptor's.  Target side: check
 * context, partition (the target context's key) and bounds, DMA the payload into the segment, acknowledge each packet, count
 * bytes per (source node, source context, op_id) and post one ARRIVAL
 * completion when asked; GETs, atomics and counters: rma_target.h.
 * Completions are held while the completion ring is full and never
 * overwrite an entry software has not returned (LOOM_DB_CQ_CI).
 */
#ifndef LOOM_CARD_HOST_IF_H
#define LOOM_CARD_HOST_IF_H

#include <stdbool.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/ring.h>

#define HIF_MAX_OPS	64	/* operations in flight per context */
#define HIF_WINDOW	64	/* request packets awaiting acks per context */
#define HIF_PEND_CAP	4096	/* completions held while the ring is full */
#define HIF_ARR_CAP	1024	/* arrival trackers per context (power of 2) */
#define HIF_BUDGET	256	/* packets per context per service round */
#define HIF_OP_TIMEOUT_MS 10000	/* default: no answer for this long, the op fails with LINK */
#define HIF_OP_TIMEOUT_MAX_MS 600000
#define HIF_MAX_WAITS	64	/* COUNTER_WAITs outstanding per context */

struct card;

/* What CTX_ENABLE latches from the context record. */
struct hif_ctx_params {
	uint64_t cmdq;
	uint64_t cq;
	uint64_t seg;
	uint64_t seg_size;
	unsigned int cmdq_log2;
	unsigned int cq_log2;
	uint32_t key;		/* partition */
	uint32_t vector;
	uint64_t counters;	/* counters page (LOOM_CTXR_CNT_*), 0 = none */
};

struct hif_op {
	bool busy;
	uint8_t opcode;
	uint8_t flags;
	uint8_t status;		/* first error seen */
	uint16_t dst_ctx;
	uint32_t dst_node;
	uint32_t op_id;
	uint64_t tag;
	uint64_t local_off;
	uint64_t remote_off;
	uint64_t len;
	uint64_t sent;		/* bytes packetised */
	uint64_t acked;		/* bytes acknowledged, any status */
	uint64_t ok_bytes;	/* bytes acknowledged with status OK */
	uint32_t aux;		/* counter id (PUT_COUNTED), LOOM_AMO_* (ATOMIC) */
	uint64_t operand;	/* ATOMIC operands */
	uint64_t compare;
	uint64_t fetched;	/* ATOMIC: value returned by the target */
	uint32_t lkey;		/* LOOM_CMD_F_LOCAL_MR: my region */
	uint32_t rkey;		/* LOOM_CMD_F_REMOTE_MR: the target's region */
	unsigned int pkts_out;	/* this op's acknowledgements awaited */
	uint16_t members;	/* LOOM_CMD_F_MCAST: acknowledgements per packet; 0 unicast */
	uint64_t progress_ms;	/* card time of the op's start or last ack */
};

struct hif_arrival {
	bool used;
	uint16_t src_node;
	uint16_t src_ctx;
	uint32_t op_id;
	uint64_t base;
	uint64_t op_len;
	uint64_t landed;
};

/* A COUNTER_WAIT waiting for its threshold. */
struct hif_cwait {
	uint64_t tag;
	uint64_t threshold;
	uint16_t id;
};

struct hif_ctx {
	uint32_t state;		/* LOOM_CTX_ST_* */
	struct hif_ctx_params p;
	uint32_t cmd_pi;	/* LOOM_DB_CMD_PI as last taken */
	uint32_t cmd_ci;	/* commands consumed */
	uint32_t cq_pi;		/* completions written */
	uint32_t cq_ci;		/* LOOM_DB_CQ_CI as last taken */
	uint32_t next_op_id;	/* kept across enable/disable: stale acks never match */
	struct hif_op ops[HIF_MAX_OPS];
	unsigned int ops_busy;
	int seg_slot;		/* op being packetised, -1 if none */
	unsigned int pkts_out;	/* request packets awaiting acks */
	/* no busy op's progress_ms is below this: none can time out before it + op_timeout_ms */
	uint64_t progress_floor_ms;
	bool has_staged;	/* fetched command waiting for a slot/fence */
	struct loom_cmd staged;
	struct loom_cqe *pend;	/* HIF_PEND_CAP, allocated at enable */
	unsigned int pend_head;
	unsigned int pend_count;
	struct hif_arrival *arr;	/* HIF_ARR_CAP, allocated at enable */
	unsigned int arr_count;
	uint64_t *cnt;		/* LOOM_CTX_COUNTERS, when a counters page is set */
	struct hif_cwait waits[HIF_MAX_WAITS];
	unsigned int n_waits;
	bool warned_pend_full;	/* logged once until the backlog drains */
	bool warned_arr_full;	/* logged once until the table drains */
};

/* Start context @idx with validated parameters; false if out of memory. */
bool hif_ctx_start(struct card *c, unsigned int idx, const struct hif_ctx_params *p);
/* Stop context @idx: no DMA for it after this returns. */
void hif_ctx_stop(struct card *c, unsigned int idx);
/* Stop with STATE = FAULTED and ERROR = @status; logs @why. */
void hif_ctx_fault(struct card *c, unsigned int idx, uint8_t status, const char *why);
/* One service round over every running context. */
void hif_service(struct card *c);
/* A packet routed to the host interface. */
void hif_deliver(struct card *c, const struct loom_pkt_hdr *h, const void *payload);
/*
 * Network port @port lost its link: every operation routed through it
 * completes now with LOOM_CQE_ST_LINK (packets in flight on the cable are
 * lost; their late acks, if any, are ignored).
 */
void hif_port_down(struct card *c, unsigned int port);

/*
 * Has a running context completions whose return (LOOM_DB_CQ_CI) the card
 * has not taken yet?  CQ_CI comes without a kick: whoever runs the card
 * looks again soon, so LOOM_DB_CQ_CI_SEEN follows it.
 */
bool hif_cq_unreturned(const struct card *c);

/* ---- shared with rma_target.c ---- */
/* Queue completion @e for context @idx (held while the ring is full). */
void hif_post(struct card *c, unsigned int idx, const struct loom_cqe *e);
/*
 * May request @h touch [off, off + len) of its target context, as part of
 * an operation covering [base, base + op_len)?  LOOM_CQE_ST_* (NO_CTX,
 * REMOTE_KEY, REMOTE_BOUNDS or OK).
 */
uint8_t hif_target_check(const struct card *c, const struct loom_pkt_hdr *h, uint64_t base,
			 uint64_t op_len, uint64_t off, uint64_t len);
/* Count @len landed bytes of @h toward its op's ARRIVAL entry (tag @base). */
void hif_arrival(struct card *c, unsigned int idx, const struct loom_pkt_hdr *h, uint64_t base,
		 uint8_t opcode);

#endif
