/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-sim --replay: traces recorded by the card emulator (loom-card
 * --record, or "record FILE" on its control socket; the format is in
 * fpga_bitstreams/emu/packet_record.h) replayed open loop: each terminal
 * sends the requests its card's host sent, at the cycles they entered
 * that card's router, and the simulator's terminals answer the gets and
 * atomics with responses of the recorded size.  Files of several cards are
 * aligned by their start_ns (wall time at their start_cycle).
 */
#ifndef LOOM_SIM_REPLAY_H
#define LOOM_SIM_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#define SIM_MAX_REPLAY	1024	/* trace files of one run */

/* One recorded request, on the simulator's clock. */
struct sim_replay_rec {
	uint64_t cycle;
	uint32_t dst;
	uint16_t flits;
	uint8_t resp_flits;		/* gets and atomics: the answer's flits */
	uint8_t type;			/* LOOM_PKT_PUT, _GET_REQ or _AMO_REQ */
};

/* The requests of one terminal, in time order. */
struct sim_replay {
	struct sim_replay_rec *rec;
	uint32_t n, next;
};

struct sim;

/*
 * Load the configuration's trace files into s->replay (one entry per
 * terminal); with cfg.measure 0, measure until the last recorded request.
 * 0, or -1 with a message naming the file and line in @err.
 */
int replay_load(struct sim *s, char *err, size_t errlen);
void replay_free(struct sim *s);
/* The requests the loaded traces hold. */
uint64_t replay_requests(const struct sim *s);

#endif
