/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR MIT */
/*
 * loom wire formats: network packets and link-layer frames.
 *
 * A packet is what the router switches: a 48-byte header and up to
 * LOOM_PKT_MAX_PAYLOAD bytes of payload.  A frame is what the link layer
 * carries over one cable: a 20-byte frame header, one packet (or none, for
 * link control frames) and a CRC-32C trailer over header and packet.
 * All fields little-endian.  Documented in Documentation/hw/packets.rst.
 */
#ifndef LOOM_HW_PACKET_H
#define LOOM_HW_PACKET_H

#include <linux/types.h>

#define LOOM_PKT_MAX_PAYLOAD	256

/* traffic classes: separate end to end (protocol deadlock avoidance) */
#define LOOM_CLASS_REQ		0	/* requests: PUT, GET_REQ, AMO_REQ */
#define LOOM_CLASS_RESP		1	/* responses: acks, GET_RESP, AMO_RESP */
#define LOOM_CLASS_BARRIER	2	/* BSU packets: single flit, never block */
#define LOOM_CLASS_MAINT	3	/* maintenance: not flow controlled */

/* virtual channels on a cable (struct loom_frame_hdr.vc); credits are
 * per VC except MAINT, which is not flow controlled
 */
#define LOOM_VC_REQ0		0
#define LOOM_VC_REQ1		1	/* requests past a dateline */
#define LOOM_VC_RESP0		2
#define LOOM_VC_RESP1		3
#define LOOM_VC_REQ_ADAPT	4	/* adaptive VC, whole-packet admission */
#define LOOM_VC_RESP_ADAPT	5
#define LOOM_VC_BARRIER		6	/* single flit, highest priority */
#define LOOM_VC_MAINT		7	/* no flow control: lost when busy */
#define LOOM_NUM_VCS		8

/* packet types */
enum loom_pkt_type {
	LOOM_PKT_PUT		= 1,	/* req: payload to dst segment */
	LOOM_PKT_PUT_ACK	= 2,	/* resp: status for one PUT packet */
	LOOM_PKT_GET_REQ	= 3,	/* req: aux = requester's local_off */
	LOOM_PKT_GET_RESP	= 4,	/* resp: payload for the requester */
	LOOM_PKT_AMO_REQ	= 5,	/* req: aux = LOOM_AMO_*, operands in payload */
	LOOM_PKT_AMO_RESP	= 6,	/* resp: fetched value in payload */
	LOOM_PKT_COUNTED_PUT	= 7,	/* req: PUT that also advances counter aux */
	LOOM_PKT_BARRIER	= 8,	/* barrier class: aux = bsu | op << 8 */
	LOOM_PKT_MAINT_REQ	= 9,	/* maint class: directed route in payload */
	LOOM_PKT_MAINT_RESP	= 10,
};

/* packet flags */
#define LOOM_PKT_F_ORDERED	(1u << 0)	/* no adaptive routing */
#define LOOM_PKT_F_REMOTE_CQE	(1u << 1)	/* target posts ARRIVAL on completion */
#define LOOM_PKT_F_VC1		(1u << 2)	/* travelling on VC1 (past dateline) */
#define LOOM_PKT_F_ADAPTIVE	(1u << 3)	/* on the adaptive VC */
#define LOOM_PKT_F_MR		(1u << 4)	/* request: offset and aux are in the
						 * memory region of the rkey carried
						 * in dst_ctx (bits 15:0), status
						 * (23:16) and rsvd (31:24)
						 */
#define LOOM_PKT_F_MCAST	(1u << 5)	/* a multicast copy: dst_node is the
						 * group id; PUT requests only,
						 * routed by the group table
						 */
#define LOOM_PKT_F_VAL_PHASE	(1u << 6)	/* Valiant phase 0: heading for the
						 * intermediate in dst_node bits
						 * 15:8, final destination in 7:0
						 */

/**
 * struct loom_pkt_hdr - network packet header, 48 bytes
 * @type: enum loom_pkt_type
 * @class: LOOM_CLASS_*
 * @len: payload bytes following the header
 * @dst_node: logical destination; LOOM_PKT_F_MCAST: the group id
 * @flags: LOOM_PKT_F_*
 * @hops: hop count, incremented by every router (loop guard)
 * @src_node: logical source (responses go back here)
 * @src_ctx: issuing context
 * @dst_ctx: target context; LOOM_PKT_F_MR requests: rkey bits 15:0
 * @status: responses: LOOM_CQE_ST_*; LOOM_PKT_F_MR requests: rkey bits 23:16
 * @rsvd: zero; LOOM_PKT_F_MR requests: rkey bits 31:24
 * @key: partition key: requests carry the issuing context's (stamped by
 *	 the card), responses the request's, barrier packets the unit's
 * @op_id: per-source-context operation number
 * @offset: target segment offset of this packet's payload
 * @op_len: total bytes of the operation this packet belongs to
 * @aux: type specific (see enum loom_pkt_type)
 *
 * Every field a router reads or writes (type, class, len, dst_node,
 * flags, hops) lies in the first 8 bytes, so the head flit of the
 * narrowest flit width carries them.
 */
struct loom_pkt_hdr {
	__u8	type;
	__u8	class;
	__u16	len;
	__u16	dst_node;
	__u8	flags;
	__u8	hops;
	__u16	src_node;
	__u16	src_ctx;
	__u16	dst_ctx;
	__u8	status;
	__u8	rsvd;
	__u32	key;
	__u32	op_id;
	__u64	offset;
	__u64	op_len;
	__u64	aux;
};

#define LOOM_PKT_HDR_SIZE	48

/* the rkey of a LOOM_PKT_F_MR request */
static inline __u32 loom_pkt_rkey(const struct loom_pkt_hdr *h)
{
	return (__u32)h->dst_ctx | (__u32)h->status << 16 | (__u32)h->rsvd << 24;
}

static inline void loom_pkt_set_rkey(struct loom_pkt_hdr *h, __u32 rkey)
{
	h->dst_ctx = (__u16)rkey;
	h->status = (__u8)(rkey >> 16);
	h->rsvd = (__u8)(rkey >> 24);
}
#define LOOM_PKT_MAX_HOPS	64

/**
 * struct loom_maint_payload - payload of MAINT_REQ / MAINT_RESP, 56 bytes
 * @op: LOOM_MAINT_OP_* (regs.h)
 * @status: response: LOOM_MAINT_ST_*
 * @route_len: hops of the directed route
 * @hop: hops taken so far (index into @route, then back along @ret)
 * @addr: register offset at the target
 * @value: value to write, or value read
 * @seq: requester's sequence id
 * @node: response: target's physical node id
 * @route: output port at each hop
 * @ret: input port at each hop, recorded on the way out: the response
 *	 retraces it
 * @rsvd: zero
 */
struct loom_maint_payload {
	__u8	op;
	__u8	status;
	__u8	route_len;
	__u8	hop;
	__u32	addr;
	__u32	value;
	__u32	seq;
	__u32	node;
	__u8	route[16];
	__u8	ret[16];
	__u8	rsvd[4];
};

#define LOOM_MAINT_PAYLOAD_SIZE	56

/* link frame types */
#define LOOM_FRAME_DATA		1	/* carries one packet */
#define LOOM_FRAME_ACK		2	/* ack = last in-order seq received */
#define LOOM_FRAME_NAK		3	/* request go-back-N from ack + 1 */
#define LOOM_FRAME_TRAIN	4	/* link training: seq = node, ack = port,
				 * vc = 0; on an up link, vc != 0 is a lane
				 * notice: the link now runs at vc lanes
				 */
#define LOOM_FRAME_CREDIT	5	/* whole-packet credit return of the
				 * emulator's cable ports: vc, credits in ack
				 */
#define LOOM_FRAME_MAINT	6	/* one maintenance packet outside the go-back-N
				 * sequence: no seq, no replay, no credits
				 */
#define LOOM_FRAME_ACK_CREDIT	7	/* coalesced link status: ack = last in-order
				 * seq received, seq = the sender's next seq,
				 * body = struct loom_frame_credits
				 */

#define LOOM_FRAME_MAGIC	0x4c46	/* "FL" */

/* struct loom_frame_hdr.credit_vc when the header carries no credit count */
#define LOOM_FRAME_NO_CREDIT	0xff

/* struct loom_frame_hdr.flags */
#define LOOM_FRAME_F_POLL	(1u << 0)	/* ACK_CREDIT: answer with every
						 * VC's credits at once
						 */
#define LOOM_FRAME_F_TRAINED	(1u << 1)	/* TRAIN: the sender is up (it has
						 * the receiver's TRAIN): no answer
						 */

/**
 * struct loom_frame_hdr - link frame header, 20 bytes
 * @magic: LOOM_FRAME_MAGIC (resynchronisation aid)
 * @type: LOOM_FRAME_*
 * @vc: virtual channel of the carried packet
 * @len: bytes following this header, excluding the CRC trailer
 * @credit_vc: VC whose cumulative credit count @credit carries, or
 *	       LOOM_FRAME_NO_CREDIT
 * @flags: LOOM_FRAME_F_*
 * @seq: sender's sequence number of this DATA frame
 * @ack: piggy-backed acknowledgement / control value
 * @credit: cumulative flit credits granted on @credit_vc since the link
 *	    trained, modulo 2^32
 *
 * The frame ends with a 32-bit CRC-32C (Castagnoli) over the header and
 * the @len bytes that follow it.
 */
struct loom_frame_hdr {
	__u16	magic;
	__u8	type;
	__u8	vc;
	__u16	len;
	__u8	credit_vc;
	__u8	flags;
	__u32	seq;
	__u32	ack;
	__u32	credit;
};

#define LOOM_FRAME_HDR_SIZE	20
#define LOOM_FRAME_CRC_SIZE	4
#define LOOM_FRAME_MAX		(LOOM_FRAME_HDR_SIZE + LOOM_PKT_HDR_SIZE + \
				 LOOM_PKT_MAX_PAYLOAD + LOOM_FRAME_CRC_SIZE)

/**
 * struct loom_frame_credits - body of an ACK_CREDIT frame, 32 bytes
 * @credit: per VC, the cumulative flit credits granted since the link
 *	    trained, modulo 2^32; zero for VCs the link does not carry
 */
struct loom_frame_credits {
	__u32	credit[LOOM_NUM_VCS];
};

#define LOOM_FRAME_CREDITS_SIZE	32

#ifndef __KERNEL__
_Static_assert(sizeof(struct loom_pkt_hdr) == LOOM_PKT_HDR_SIZE, "pkt hdr size");
_Static_assert(__builtin_offsetof(struct loom_pkt_hdr, hops) == 7, "routed fields in 8 bytes");
_Static_assert(sizeof(struct loom_frame_hdr) == LOOM_FRAME_HDR_SIZE, "frame hdr size");
_Static_assert(sizeof(struct loom_maint_payload) == LOOM_MAINT_PAYLOAD_SIZE, "maint payload");
_Static_assert(sizeof(struct loom_frame_credits) == LOOM_FRAME_CREDITS_SIZE, "frame credits");
#endif

#endif /* LOOM_HW_PACKET_H */
