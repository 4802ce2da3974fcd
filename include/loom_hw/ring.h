/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR MIT */
/*
 * loom command and completion ring formats (hardware interface).
 *
 * Both rings live in host memory.  Software writes 64-byte command
 * descriptors into the command ring and publishes them by writing the
 * producer index to LOOM_DB_CMD_PI of its doorbell page.  The card fetches
 * them by DMA and writes 32-byte completion entries into the completion
 * ring; an entry is valid when its phase bit equals the consumer's expected
 * phase, which starts at 1 and flips every time the ring wraps.  Software
 * returns completion slots by writing LOOM_DB_CQ_CI; the card never
 * overwrites an entry software has not returned.
 *
 * Indices are free-running 32-bit counters; slot = index & (entries - 1).
 * All fields little-endian.  Documented in Documentation/hw/rings.rst.
 */
#ifndef LOOM_HW_RING_H
#define LOOM_HW_RING_H

#include <linux/types.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "loom hardware structures are little-endian; add byte swapping first"
#endif

/* Opcodes.  Design version 0.2 implements all but BARRIER (a BSU
 * operation: see Documentation/hw/bsu.rst).
 */
enum loom_opcode {
	LOOM_OP_NOP		= 0,	/* completes at once (ring test) */
	LOOM_OP_PUT		= 1,	/* local segment -> remote segment */
	LOOM_OP_GET		= 2,	/* remote segment -> local segment */
	LOOM_OP_PUT_COUNTED	= 3,	/* put, then advance remote counter */
	LOOM_OP_ATOMIC		= 4,	/* 8-byte atomic at remote offset */
	LOOM_OP_BARRIER		= 5,	/* BSU operation (aux = bsu, op) */
	LOOM_OP_COUNTER_WAIT	= 6,	/* COUNTER entry when my counter aux
					 * reaches operand
					 */
};

/* descriptor flags */
#define LOOM_CMD_F_SIGNAL	(1u << 0)	/* post a completion when done */
#define LOOM_CMD_F_FENCE	(1u << 1)	/* wait for earlier ops first */
#define LOOM_CMD_F_ORDERED	(1u << 2)	/* never route adaptively */
#define LOOM_CMD_F_REMOTE_CQE	(1u << 3)	/* target posts an arrival entry */
/* local_off is an offset in my memory region named by the lkey in compare
 * (PUT, GET, PUT_COUNTED); the card checks the region belongs to the
 * issuing context and covers the bytes (LOCAL_WRITE for a GET)
 */
#define LOOM_CMD_F_LOCAL_MR	(1u << 4)
/* remote_off is an offset in the target's memory region named by the rkey
 * in key (PUT, GET, PUT_COUNTED, ATOMIC); dst_ctx is ignored
 */
#define LOOM_CMD_F_REMOTE_MR	(1u << 5)
/* LOOM_OP_PUT to every member of multicast group dst_node: dst_ctx must be
 * 0 (each member's context is its card's group entry HOST_CTX), remote_off
 * is the offset in every member's segment; the completion comes when
 * every member acknowledged every packet (first error wins)
 */
#define LOOM_CMD_F_MCAST	(1u << 6)

/* atomic operations (LOOM_OP_ATOMIC, in aux) */
#define LOOM_AMO_FETCH_ADD	1
#define LOOM_AMO_SWAP		2
#define LOOM_AMO_CSWAP		3

/**
 * struct loom_cmd - command descriptor, 64 bytes
 * @opcode: enum loom_opcode
 * @flags: LOOM_CMD_F_*
 * @dst_ctx: context index at the destination card
 * @dst_node: logical destination node
 * @tag: opaque, returned in the completion
 * @local_off: offset in the issuing context's segment
 * @remote_off: offset in the destination context's segment
 * @length: bytes (PUT/GET), 8 for atomics
 * @key: with LOOM_CMD_F_REMOTE_MR, the rkey of the target's region;
 *	 otherwise ignored (the card stamps every request with the issuing
 *	 context's partition key, LOOM_CTXR_KEY): write 0
 * @aux: counter id (PUT_COUNTED: the target's; COUNTER_WAIT: mine),
 *	 LOOM_AMO_* (ATOMIC), bsu | op << 8 (BARRIER)
 * @operand: atomic operand; COUNTER_WAIT: threshold
 * @compare: atomic compare value (CSWAP); with LOOM_CMD_F_LOCAL_MR, the
 *	     lkey of the local region (bits 31:0, bits 63:32 zero)
 */
struct loom_cmd {
	__u8	opcode;
	__u8	flags;
	__u16	dst_ctx;
	__u32	dst_node;
	__u64	tag;
	__u64	local_off;
	__u64	remote_off;
	__u64	length;
	__u32	key;
	__u32	aux;
	__u64	operand;
	__u64	compare;
};

/* completion kinds */
#define LOOM_CQE_LOCAL		1	/* my command finished (remotely acked) */
#define LOOM_CQE_ARRIVAL	2	/* a remote put landed in my segment */
#define LOOM_CQE_COUNTER	3	/* my counter reached a COUNTER_WAIT threshold */

/* completion status */
#define LOOM_CQE_ST_OK		0
#define LOOM_CQE_ST_BAD_DESC	1	/* malformed descriptor */
#define LOOM_CQE_ST_LOCAL_BOUNDS 2	/* local_off/length outside my segment */
#define LOOM_CQE_ST_UNREACHABLE	3	/* no valid route to dst_node */
#define LOOM_CQE_ST_REMOTE_KEY	4	/* protection: the target context (or BSU)
					 * is in another partition than the
					 * issuing context; nothing was touched
					 */
#define LOOM_CQE_ST_REMOTE_BOUNDS 5	/* target segment too small */
#define LOOM_CQE_ST_NO_CTX	6	/* target context not running */
#define LOOM_CQE_ST_LINK	7	/* lost to a link failure */
#define LOOM_CQE_ST_UNSUPPORTED	8	/* opcode not in this design */
#define LOOM_CQE_ST_DISCARDED	9	/* a port on the way is disabled or dead */
#define LOOM_CQE_ST_COUNTER	10	/* no such counter (id, or no counters page) */
#define LOOM_CQE_ST_BUSY	11	/* too many COUNTER_WAITs outstanding */
/* memory-region protection errors: nothing was read or written (a region
 * in another partition answers LOOM_CQE_ST_REMOTE_KEY)
 */
#define LOOM_CQE_ST_MR_KEY	12	/* key unknown or revoked, or an lkey
					 * of another context
					 */
#define LOOM_CQE_ST_MR_BOUNDS	13	/* bytes outside the region (or an
					 * atomic not 8-byte aligned in memory)
					 */
#define LOOM_CQE_ST_MR_ACCESS	14	/* the region lacks the right */

#define LOOM_CQE_PHASE		(1u << 31)

/**
 * struct loom_cqe - completion entry, 32 bytes
 * @tag: LOCAL, COUNTER: the command's tag; ARRIVAL: remote_off of the data
 * @value: bytes moved (PUT/GET), fetched value (ATOMIC), counter value
 *	   (COUNTER)
 * @src_node: ARRIVAL: node that sent the data; LOCAL: dst_node
 * @src_ctx: ARRIVAL: context that sent it; LOCAL: dst_ctx; COUNTER: the
 *	     counter id
 * @kind: LOOM_CQE_LOCAL, LOOM_CQE_ARRIVAL or LOOM_CQE_COUNTER
 * @status: LOOM_CQE_ST_*
 * @opcode: opcode of the operation
 * @rsvd: zero
 * @flags: LOOM_CQE_PHASE; written last by the card
 */
struct loom_cqe {
	__u64	tag;
	__u64	value;
	__u32	src_node;
	__u16	src_ctx;
	__u8	kind;
	__u8	status;
	__u8	opcode;
	__u8	rsvd[3];
	__u32	flags;
};

#define LOOM_CMD_SIZE		64
#define LOOM_CQE_SIZE		32

/* expected phase of the entry at free-running index @idx */
static inline __u32 loom_cq_phase(__u32 idx, unsigned int log2_entries)
{
	return ((idx >> log2_entries) & 1) ? 0 : LOOM_CQE_PHASE;
}

#ifdef __cplusplus
static_assert(sizeof(struct loom_cmd) == LOOM_CMD_SIZE, "loom_cmd size");
static_assert(sizeof(struct loom_cqe) == LOOM_CQE_SIZE, "loom_cqe size");
#elif !defined(__KERNEL__)
_Static_assert(sizeof(struct loom_cmd) == LOOM_CMD_SIZE, "loom_cmd size");
_Static_assert(sizeof(struct loom_cqe) == LOOM_CQE_SIZE, "loom_cqe size");
#endif

#endif /* LOOM_HW_RING_H */
