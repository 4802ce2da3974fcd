/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C side of the unit harness's frame serialisers: the transmitter of
 * link unit a (link/link_xmit.c), cabled to its peer b by the in-process
 * wire, both with their routers' sources and sinks (the link unit tests'
 * harness, tests/unit/link_harness.h).  A C interface, so the C++ harness
 * needs none of the packet headers.
 */
#ifndef LOOM_RTL_EQUIV_XSER_H
#define LOOM_RTL_EQUIV_XSER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Frame sizes of include/loom_hw/packet.h. */
extern const unsigned int xser_hdr_size;	/* LOOM_FRAME_HDR_SIZE */
extern const unsigned int xser_body_max;	/* a packet: header and largest payload */
extern const unsigned int xser_frame_max;	/* LOOM_FRAME_MAX */
extern const unsigned int xser_payload_max;	/* LOOM_PKT_MAX_PAYLOAD */

/* A frame unit a started, as it entered the wire (before the wire's faults). */
struct xser_frame {
	uint64_t first_cycle;
	unsigned int phase, rate, len;	/* rate: lanes x lane bytes it started with */
	uint8_t type, vc, credit_vc, flags;
	uint32_t seq, ack, credit;
	unsigned int body_len;
	const uint8_t *bytes;		/* len bytes: header, body, CRC */
};

struct xser_pair;

/*
 * Units a and b with LANES @lanes, LANE_BYTES @lane_bytes, FLIT_BYTES
 * @flit_bytes and LANE_THRESHOLD @lane_threshold (0: the lanes never narrow).
 */
struct xser_pair *xser_pair_new(unsigned int lanes, unsigned int lane_bytes,
				unsigned int flit_bytes, unsigned int lane_threshold,
				uint64_t seed, char *err, size_t len);
void xser_pair_free(struct xser_pair *x);
/* VCs the link carries. */
unsigned int xser_pair_vcs(const struct xser_pair *x);
/*
 * Traffic from end @end's router (0: into a, 1: into b): @count more
 * packets of @payload bytes on the VCs of @vc_mask; the bit error rate of
 * the wire from that end.
 */
void xser_pair_traffic(struct xser_pair *x, unsigned int end, uint32_t count, uint16_t payload,
		       uint32_t vc_mask, double ber);
/*
 * One cycle of both ends and the wire.  *flush: a's carrier changed at
 * this edge; *lanes: a's lanes in use at it.  Returns how many frames a
 * started (at most @max are stored in @frames; their bytes stay valid
 * until the next cycle).
 */
unsigned int xser_pair_cycle(struct xser_pair *x, bool *flush, unsigned int *lanes,
			     struct xser_frame *frames, unsigned int max);

#ifdef __cplusplus
}
#endif

#endif
