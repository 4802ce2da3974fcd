// SPDX-License-Identifier: GPL-2.0
/*
 * Formats: structure sizes and field offsets against the tables in
 * Documentation/hw/{rings,packets}.rst, the completion phase helper, and
 * the card's register space (block chain, signature, layout in 1 MiB).
 */
#include "card.h"
#include "tap.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <loom_hw/packet.h>
#include <loom_hw/regs.h>
#include <loom_hw/ring.h>

TAP_DEFINE;

#define OFF(type, field, want) \
	do { if (offsetof(type, field) != (want)) { \
		tap_diag(#type "." #field " at %zu, documented %d", offsetof(type, field), (want)); \
		bad++; } } while (0)

static uint32_t rd(const uint8_t *regs, uint32_t off)
{
	uint32_t v;

	memcpy(&v, regs + off, sizeof(v));
	return v;
}

int main(void)
{
	int bad = 0;

	tap_plan(11);

	OFF(struct loom_cmd, opcode, 0); OFF(struct loom_cmd, flags, 1);
	OFF(struct loom_cmd, dst_ctx, 2); OFF(struct loom_cmd, dst_node, 4);
	OFF(struct loom_cmd, tag, 8); OFF(struct loom_cmd, local_off, 16);
	OFF(struct loom_cmd, remote_off, 24); OFF(struct loom_cmd, length, 32);
	OFF(struct loom_cmd, key, 40); OFF(struct loom_cmd, aux, 44);
	OFF(struct loom_cmd, operand, 48); OFF(struct loom_cmd, compare, 56);
	tap_ok(sizeof(struct loom_cmd) == 64 && !bad, "command descriptor: 64 bytes, documented offsets");

	bad = 0;
	OFF(struct loom_cqe, tag, 0); OFF(struct loom_cqe, value, 8);
	OFF(struct loom_cqe, src_node, 16); OFF(struct loom_cqe, src_ctx, 20);
	OFF(struct loom_cqe, kind, 22); OFF(struct loom_cqe, status, 23);
	OFF(struct loom_cqe, opcode, 24); OFF(struct loom_cqe, rsvd, 25);
	OFF(struct loom_cqe, flags, 28);
	tap_ok(sizeof(struct loom_cqe) == 32 && !bad, "completion entry: 32 bytes, documented offsets");

	bad = 0;
	OFF(struct loom_pkt_hdr, type, 0); OFF(struct loom_pkt_hdr, class, 1);
	OFF(struct loom_pkt_hdr, len, 2); OFF(struct loom_pkt_hdr, dst_node, 4);
	OFF(struct loom_pkt_hdr, flags, 6); OFF(struct loom_pkt_hdr, hops, 7);
	OFF(struct loom_pkt_hdr, src_node, 8); OFF(struct loom_pkt_hdr, src_ctx, 10);
	OFF(struct loom_pkt_hdr, dst_ctx, 12); OFF(struct loom_pkt_hdr, status, 14);
	OFF(struct loom_pkt_hdr, rsvd, 15); OFF(struct loom_pkt_hdr, key, 16);
	OFF(struct loom_pkt_hdr, op_id, 20); OFF(struct loom_pkt_hdr, offset, 24);
	OFF(struct loom_pkt_hdr, op_len, 32); OFF(struct loom_pkt_hdr, aux, 40);
	tap_ok(sizeof(struct loom_pkt_hdr) == 48 && !bad, "packet header: 48 bytes, documented offsets");

	bad = 0;
	OFF(struct loom_frame_hdr, magic, 0); OFF(struct loom_frame_hdr, type, 2);
	OFF(struct loom_frame_hdr, vc, 3); OFF(struct loom_frame_hdr, len, 4);
	OFF(struct loom_frame_hdr, credit_vc, 6); OFF(struct loom_frame_hdr, flags, 7);
	OFF(struct loom_frame_hdr, seq, 8); OFF(struct loom_frame_hdr, ack, 12);
	OFF(struct loom_frame_hdr, credit, 16);
	tap_ok(sizeof(struct loom_frame_hdr) == 20 && sizeof(struct loom_frame_credits) == 32 && !bad,
	       "frame header: 20 bytes, documented offsets; ACK_CREDIT body 32 bytes");

	/* phase: first pass 1, second pass 0, ... and consistent across the 2^32 wrap */
	bad = 0;
	for (unsigned int log2 = LOOM_RING_LOG2_MIN; log2 <= LOOM_RING_LOG2_MAX; log2++) {
		uint32_t n = 1u << log2;

		if (loom_cq_phase(0, log2) != LOOM_CQE_PHASE || loom_cq_phase(n - 1, log2) != LOOM_CQE_PHASE ||
		    loom_cq_phase(n, log2) != 0 || loom_cq_phase(2 * n - 1, log2) != 0 ||
		    loom_cq_phase(2 * n, log2) != LOOM_CQE_PHASE ||
		    loom_cq_phase(0xffffffffu, log2) != 0)
			bad++;
	}
	tap_ok(!bad, "loom_cq_phase: 1 on the first pass, 0 on the second, wraps with the index");

	/* the card's register space */
	{
		size_t size = LOOM_LAB_SHM_SIZE;
		uint8_t *regs = calloc(1, size);
		static struct card c;
		struct guest_mem gm;
		struct card_params cp;
		char err[256] = "";
		uint32_t off = 0, seen = 0, prev_end = 0;
		int chain_ok = 1;
		char desc[LOOM_FWID_DESC_LEN + 1] = { 0 };

		guest_mem_attach(&gm, regs, 0);
		card_params_default(&cp, 3, 4);
		tap_ok(regs && card_init(&c, regs, size, &cp, &gm, err, sizeof(err)),
		       "card_init on a 1 MiB window %s", err);
		tap_ok(rd(regs, LOOM_FWID_MAGIC) == LOOM_MAGIC &&
		       (rd(regs, LOOM_FWID_FLAGS) & LOOM_FWID_F_EMULATED) &&
		       rd(regs, LOOM_BLK_TYPE) == LOOM_BLK_FWID,
		       "FWID block at 0 with LOOM_MAGIC and the lab signature");
		memcpy(desc, regs + LOOM_FWID_DESC, LOOM_FWID_DESC_LEN);
		tap_ok(rd(regs, LOOM_FWID_DESIGN_VERSION) == 0x000400 && !strcmp(desc, "loom-card-emu"),
		       "design version 0.4.0, description '%s'", desc);
		for (int n = 0; n < LOOM_BLK_MAX_CHAIN; n++) {
			uint32_t type = rd(regs, off + LOOM_BLK_TYPE), next;

			seen |= 1u << type;
			if (off < prev_end || off + rd(regs, off + LOOM_BLK_SIZE) > size)
				chain_ok = 0;
			prev_end = off + rd(regs, off + LOOM_BLK_SIZE);
			next = rd(regs, off + LOOM_BLK_NEXT);
			if (!next)
				break;
			off = next;
		}
		tap_ok(chain_ok && seen == ((1u << LOOM_BLK_FWID) | (1u << LOOM_BLK_ADMIN) |
					    (1u << LOOM_BLK_ROUTER) | (1u << LOOM_BLK_PORTS) |
					    (1u << LOOM_BLK_CTX) | (1u << LOOM_BLK_DOORBELL) |
					    (1u << LOOM_BLK_VCT) | (1u << LOOM_BLK_COUNTERS) |
					    (1u << LOOM_BLK_LINK) | (1u << LOOM_BLK_MAINT) |
					    (1u << LOOM_BLK_BSU) | (1u << LOOM_BLK_MR) |
					    (1u << LOOM_BLK_PERF) | (1u << LOOM_BLK_MCAST)),
		       "block chain: FWID, ADMIN, ROUTER, PORTS, CTX, DOORBELL, VCT, COUNTERS, LINK, MAINT, BSU, MR, PERF, MCAST, ordered, no overlap, inside the window");
		{
			uint32_t area = rd(regs, CARD_OFF_DOORBELL + LOOM_DOORBELL_AREA);
			uint32_t count = rd(regs, CARD_OFF_DOORBELL + LOOM_DOORBELL_COUNT);

			tap_ok(area % 4096 == 0 && area >= prev_end &&
			       rd(regs, CARD_OFF_DOORBELL + LOOM_DOORBELL_STRIDE) == 4096 &&
			       area + count * 4096 <= size && count == rd(regs, CARD_OFF_CTX + LOOM_CTX_COUNT),
			       "doorbell pages: page aligned at 0x%x, one per context (%u), inside 1 MiB",
			       area, count);
		}
		tap_ok(rd(regs, CARD_OFF_ROUTER + LOOM_ROUTER_NODE_ID) == 3 &&
		       rd(regs, CARD_OFF_ROUTER + LOOM_ROUTER_N_PORTS) == 4 &&
		       rd(regs, CARD_OFF_PORTS + LOOM_PORTS_COUNT) == 4 &&
		       rd(regs, CARD_OFF_ROUTER + LOOM_ROUTER_RT + 3 * 8) ==
		       (LOOM_RT_W0_VALID | LOOM_RT_PORT_HOST) &&
		       rd(regs, CARD_OFF_ADMIN + LOOM_ADMIN_N_VECTORS) == LOOM_NUM_VECTORS &&
		       (rd(regs, CARD_OFF_ADMIN + LOOM_ADMIN_STATUS) & LOOM_ADMIN_ST_READY),
		       "node id, port counts, own route to host, vectors, READY");
		card_free(&c);
		free(regs);
	}
	return tap_exit_status();
}
