// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* The loom provider's segment layout and fragment checks (proto.h). */
#include <errno.h>

#include "proto.h"

#define ALIGN_UP(x, a)	(((x) + (a) - 1) / (a) * (a))

int lofi_layout_init(struct lofi_layout *lay, uint64_t seg_size,
		     uint32_t slot_size, uint32_t slots, uint32_t tx_bufs)
{
	uint64_t region_size, room;

	if (slot_size < LOFI_MIN_SLOT || slot_size % 64 || slots < 1 ||
	    slots > LOFI_MAX_SLOTS || tx_bufs < 1 || tx_bufs > 4096)
		return -EINVAL;
	lay->seg_size = seg_size;
	lay->slot_size = slot_size;
	lay->slots = slots;
	lay->tx_peers = LOFI_MAX_TX_PEERS;
	lay->tx_bufs = tx_bufs;
	lay->credit_out = LOFI_CREDIT_IN + 8ull * LOFI_MAX_TX_PEERS;
	lay->fin_in = lay->credit_out + 8ull * LOFI_MAX_REGIONS;
	lay->fin_src = lay->fin_in + 8ull * LOFI_MAX_RDV;
	lay->tx_base = ALIGN_UP(lay->fin_src + 8ull * LOFI_FIN_VALUES, 4096);
	lay->rx_base = ALIGN_UP(lay->tx_base + (uint64_t)tx_bufs * slot_size, 4096);
	region_size = (uint64_t)slot_size * slots;
	if (lay->rx_base + region_size > seg_size)
		return -EINVAL;
	room = (seg_size - lay->rx_base) / region_size;
	lay->regions = room > LOFI_MAX_REGIONS ? LOFI_MAX_REGIONS : (uint32_t)room;
	return 0;
}

uint64_t lofi_slot_offset(const struct lofi_addr *a, uint32_t region,
			  uint32_t slot)
{
	return a->rx_base + ((uint64_t)region * a->slots + slot) * a->slot_size;
}

int lofi_slot_locate(const struct lofi_layout *lay, uint64_t off,
		     uint32_t *region, uint32_t *slot)
{
	uint64_t rel, idx;

	if (off < lay->rx_base)
		return -EINVAL;
	rel = off - lay->rx_base;
	if (rel % lay->slot_size)
		return -EINVAL;
	idx = rel / lay->slot_size;
	if (idx >= (uint64_t)lay->regions * lay->slots)
		return -EINVAL;
	*region = (uint32_t)(idx / lay->slots);
	*slot = (uint32_t)(idx % lay->slots);
	return 0;
}

int lofi_fin_locate(const struct lofi_layout *lay, uint64_t off,
		    uint32_t *cookie)
{
	if (off < lay->fin_in || off >= lay->fin_src || (off - lay->fin_in) % 8)
		return -EINVAL;
	*cookie = (uint32_t)((off - lay->fin_in) / 8);
	return 0;
}

int lofi_addr_valid(const struct lofi_addr *a)
{
	return a->magic == LOFI_ADDR_MAGIC && a->ctx <= 0xffff &&
	       a->slot_size >= LOFI_MIN_SLOT && a->slot_size % 64 == 0 &&
	       a->slots >= 1 && a->slots <= LOFI_MAX_SLOTS &&
	       a->regions >= 1 && a->regions <= LOFI_MAX_REGIONS &&
	       a->rx_base >= LOFI_CREDIT_IN && a->rx_base % 64 == 0;
}

int lofi_hdr_check(const struct lofi_hdr *h, uint64_t landed,
		   uint32_t slot_size, uint32_t expect_seq, int in_message,
		   uint64_t remaining, uint64_t max_msg)
{
	if (h->magic != LOFI_HDR_MAGIC || (h->flags & ~LOFI_F_ALL))
		return -EPROTO;
	if (h->seq != expect_seq)
		return -EPROTO;
	if (h->frag_len > lofi_slot_payload(slot_size) ||
	    landed != sizeof(*h) + (uint64_t)h->frag_len)
		return -EPROTO;
	if (h->credit_cell >= LOFI_MAX_TX_PEERS)
		return -EPROTO;
	/* a rendezvous is one fragment that describes where the message is */
	if (h->flags & LOFI_F_RDV) {
		if (in_message || (h->flags & LOFI_F_RMA) ||
		    (h->flags & (LOFI_F_FIRST | LOFI_F_LAST)) != (LOFI_F_FIRST | LOFI_F_LAST) ||
		    h->frag_len != sizeof(struct lofi_rts))
			return -EPROTO;
		return h->total_len > max_msg ? -EMSGSIZE : 0;
	}
	if (!in_message) {
		if (!(h->flags & LOFI_F_FIRST))
			return -EPROTO;
		if (h->total_len > max_msg)
			return -EMSGSIZE;
		remaining = h->total_len;
	} else if (h->flags & LOFI_F_FIRST) {
		return -EPROTO;
	}
	if (h->frag_len > remaining)
		return -EPROTO;
	/* a notice is one empty fragment that is not tagged */
	if ((h->flags & LOFI_F_RMA) &&
	    (h->total_len || (h->flags & LOFI_F_TAGGED)))
		return -EPROTO;
	/* LAST exactly when this fragment ends the message */
	if (!!(h->flags & LOFI_F_LAST) != (h->frag_len == remaining))
		return -EPROTO;
	return 0;
}
