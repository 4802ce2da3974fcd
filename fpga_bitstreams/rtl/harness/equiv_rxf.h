/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The C side of the unit harness's frame receivers: the link's
 * resynchronising parser (link/link.c) bounded as the link unit's receive
 * half bounds it (RX_WINDOW bytes examined and RX_FRAMES results a cycle,
 * link/link_recv.c), and the byte stream it is fed: frames of every size
 * (a maximal body often), bit errors at rates from none to many, frames
 * cut short, garbage with and without false frame starts, idle cycles and
 * the lanes' rate narrowing 4 -> 2 -> 1 lanes.  A C interface, so the C++
 * harness needs none of the packet headers.
 */
#ifndef LOOM_RTL_EQUIV_RXF_H
#define LOOM_RTL_EQUIV_RXF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define RXF_FRAMES_MAX	8	/* RX_FRAMES of a harness instance */
#define RXF_IN_MAX	64	/* LANES x LANE_BYTES of a harness instance */

/* Frame sizes of include/loom_hw/packet.h: the bytes of a result (header and body). */
extern const unsigned int rxf_frame_bytes;

/* One result: link_rx_status, and for a frame its header and body. */
struct rxf_result {
	unsigned int status;
	unsigned int len;		/* header and body bytes */
	const uint8_t *bytes;
};

struct rxf_model;

/*
 * A framer with RX_WINDOW @window, RX_FRAMES @frames, fed up to @lanes x
 * @lane_bytes bytes a cycle, never beyond @rx_buf bytes buffered (the
 * RTL's buffer).
 */
struct rxf_model *rxf_new(unsigned int window, unsigned int frames, unsigned int lanes,
			  unsigned int lane_bytes, unsigned int rx_buf, uint64_t seed);
void rxf_free(struct rxf_model *m);
/* A new phase of the stimuli: error rates, garbage, cut frames, take, lanes. */
void rxf_phase(struct rxf_model *m);
/*
 * This cycle: the bytes that arrive (*in_n of @in, the rest of the
 * lanes' bytes zero), the results the consumer takes (*take), and the
 * C model's edge; the registers before
 * it in *held and *garbage.  Returns the number of results (at most
 * @frames), each in rxf_result(); false in *fed_ok if the model's buffer
 * refused bytes.
 */
unsigned int rxf_cycle(struct rxf_model *m, uint8_t *in, unsigned int *in_n, unsigned int *take,
		       unsigned int *held, unsigned int *garbage, bool *fed_ok);
const struct rxf_result *rxf_result(const struct rxf_model *m, unsigned int k);
/* Results of the run so far: frames, bad magic, bad length, bad CRC. */
void rxf_counts(const struct rxf_model *m, uint64_t counts[4]);

#ifdef __cplusplus
}
#endif

#endif
