/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The loom provider's wire protocol: how an endpoint's segment is laid
 * out, the header of a message fragment, and the credit window.  Pure
 * arithmetic and checks, no card: the unit tests run it without one.
 *
 * Segment of an endpoint's context (offsets from 0):
 *   0                 region allocator word: peers claim a receive region
 *                     with a fetch-and-add on it
 *   LOFI_CREDIT_IN    one 8-byte cell per peer I send to: the peer puts
 *                     the count of my fragments it has consumed there
 *   credit_out        one 8-byte cell per receive region: what I put to
 *                     the sender's credit cell
 *   fin_in            one 8-byte cell per rendezvous send in flight: the
 *                     receiver puts its status there when it has read
 *                     the message
 *   fin_src           LOFI_FIN_VALUES cells holding 0, 1, 2, ...: the
 *                     statuses a receiver puts into a sender's fin_in
 *   tx_base           staging buffers of outgoing fragments (tx_bufs)
 *   rx_base           receive regions: one per sending peer, each of
 *                     slots_per_peer slots of slot_size bytes
 * A fragment with sequence number n from a peer lands in slot
 * n % slots_per_peer of the peer's region.
 */
#ifndef LOFI_PROTO_H
#define LOFI_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define LOFI_ADDR_MAGIC		0x6c6f6f6du	/* "loom" */
#define LOFI_HDR_MAGIC		0x4c4f4631u	/* "LOF1": protocol version 1 */

#define LOFI_CREDIT_IN		64u		/* first credit-in cell */
#define LOFI_MAX_TX_PEERS	1024u		/* credit-in cells */
#define LOFI_MAX_REGIONS	1024u
#define LOFI_MAX_SLOTS		64u		/* slots per region (a bit mask) */
#define LOFI_MIN_SLOT		256u
#define LOFI_MAX_RDV		256u		/* rendezvous sends in flight */
#define LOFI_FIN_VALUES		16u		/* card statuses a FIN carries */

/*
 * struct lofi_addr - an endpoint's address (fi_getname(), fi_av_insert())
 * The layout of the endpoint's segment travels with it so that a sender
 * never assumes the receiver's parameters.
 */
struct lofi_addr {
	uint32_t magic;
	uint32_t node;		/* logical node id of the card */
	uint32_t ctx;		/* context index on the card */
	uint32_t slot_size;	/* bytes of one receive slot */
	uint32_t slots;		/* slots per receive region */
	uint32_t regions;	/* receive regions */
	uint64_t rx_base;	/* offset of region 0 */
};

/* header at the start of every fragment (one put into one slot) */
struct lofi_hdr {
	uint32_t magic;
	uint32_t seq;		/* per sender and receiver, from 0 */
	uint64_t tag;
	uint64_t data;		/* remote CQ data (LOFI_F_DATA) */
	uint64_t total_len;	/* bytes of the whole message */
	uint32_t frag_len;	/* payload bytes after this header */
	uint16_t flags;		/* LOFI_F_* */
	uint16_t reserved;
	uint32_t credit_cell;	/* the sender's credit-in cell index */
	uint32_t pad;
};

#define LOFI_F_FIRST	0x1	/* the first fragment of a message */
#define LOFI_F_LAST	0x2	/* the last one */
#define LOFI_F_TAGGED	0x4	/* fi_tsend*: matched against tagged receives */
#define LOFI_F_DATA	0x8	/* carries remote CQ data */
#define LOFI_F_RMA	0x10	/* a notice of a finished fi_writedata(): no
				 * payload, matches no receive */
#define LOFI_F_RDV	0x20	/* rendezvous: the payload is a struct
				 * lofi_rts, the receiver reads the message */
#define LOFI_F_ALL	0x3f

/*
 * struct lofi_rts - the payload of a rendezvous fragment ("ready to send")
 * The message (total_len bytes of the header) is in a region of the
 * sender's domain: the receiver reads it with a get and then puts the
 * card's status (0: read) from its fin_src cells into the sender's segment
 * at @fin_off, with an arrival event.
 */
struct lofi_rts {
	uint32_t rkey;		/* the region holding the message */
	uint32_t cookie;	/* the sender's rendezvous slot */
	uint64_t offset;	/* of the message's first byte in the region */
	uint64_t fin_off;	/* the sender's fin_in cell of @cookie */
	uint64_t reserved;
};

/* struct lofi_layout - where things are in one endpoint's segment */
struct lofi_layout {
	uint64_t seg_size;
	uint32_t slot_size;
	uint32_t slots;
	uint32_t regions;
	uint32_t tx_peers;	/* credit-in cells */
	uint32_t tx_bufs;
	uint64_t credit_out;
	uint64_t fin_in;
	uint64_t fin_src;
	uint64_t tx_base;
	uint64_t rx_base;
};

/*
 * lofi_layout_init() - lay out a segment
 * Fills @lay for a segment of @seg_size bytes with @slot_size-byte slots,
 * @slots per region and @tx_bufs staging buffers; as many regions as fit,
 * at most LOFI_MAX_REGIONS.  Returns 0, or -EINVAL when the parameters
 * are out of range or leave no room for one region.
 */
int lofi_layout_init(struct lofi_layout *lay, uint64_t seg_size,
		     uint32_t slot_size, uint32_t slots, uint32_t tx_bufs);

/* the payload bytes of one slot */
static inline uint32_t lofi_slot_payload(uint32_t slot_size)
{
	return slot_size - (uint32_t)sizeof(struct lofi_hdr);
}

/* offset of slot @slot of region @region in a segment described by @a */
uint64_t lofi_slot_offset(const struct lofi_addr *a, uint32_t region,
			  uint32_t slot);

/*
 * lofi_slot_locate() - which region and slot an arrival landed in
 * Returns 0 and fills @region and @slot when @off is the start of a slot
 * of @lay's receive area, else -EINVAL.
 */
int lofi_slot_locate(const struct lofi_layout *lay, uint64_t off,
		     uint32_t *region, uint32_t *slot);

/*
 * lofi_fin_locate() - which rendezvous slot's FIN cell an arrival at @off hit
 * Returns 0 and fills @cookie when @off is a fin_in cell of @lay, else
 * -EINVAL.
 */
int lofi_fin_locate(const struct lofi_layout *lay, uint64_t off,
		    uint32_t *cookie);

/* is @a an address a peer may send to (sane magic and layout) */
int lofi_addr_valid(const struct lofi_addr *a);

/*
 * lofi_hdr_check() - validate a fragment header that arrived in a slot
 * @h: the header
 * @landed: bytes the arrival reported
 * @slot_size: the slot's size
 * @expect_seq: the sequence number the slot must hold
 * @in_message: 1 when a message is partly received (next must not be
 *		FIRST), 0 when the next fragment must be FIRST
 * @remaining: with @in_message, bytes of the message still to come
 * @max_msg: largest message accepted
 * Returns 0, or a negative errno (-EPROTO, -EMSGSIZE) naming what is
 * wrong; the caller drops the fragment.
 */
int lofi_hdr_check(const struct lofi_hdr *h, uint64_t landed,
		   uint32_t slot_size, uint32_t expect_seq, int in_message,
		   uint64_t remaining, uint64_t max_msg);

/*
 * The credit window: a sender may have @slots fragments in a region that
 * the receiver has not consumed.  @sent and @consumed are running counts
 * (wrapping 32-bit).
 */
static inline int lofi_window_open(uint32_t sent, uint32_t consumed,
				   uint32_t slots)
{
	return (uint32_t)(sent - consumed) < slots;
}

/*
 * The receiver returns credits once half a region is consumed since the
 * last return, so a sender at a full window always gets them.
 */
static inline int lofi_credit_due(uint32_t consumed, uint32_t returned,
				  uint32_t slots)
{
	uint32_t half = slots / 2 ? slots / 2 : 1;

	return (uint32_t)(consumed - returned) >= half;
}

#endif /* LOFI_PROTO_H */
