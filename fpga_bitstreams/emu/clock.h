/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulator's time model: how the card's cycle counter relates to wall
 * time.  While the card works (something can move without new input) the
 * model runs as fast as the host CPU lets it.  While it waits, its cycle
 * counter follows wall time at the nominal clock from the moment it went
 * idle (the anchor), so timers counted in cycles (ack timeouts, forward
 * progress, operation timeouts, lane windows) keep their wall-clock
 * meaning, and the emulator sleeps until the wall time of the card's next
 * timer.  In real-time mode (--lane-mbps) the counter is anchored once and
 * never runs ahead of wall time: rates in bytes per cycle become rates in
 * bytes per second.  Documented in Documentation/emulator.rst.
 */
#ifndef LOOM_EMU_CLOCK_H
#define LOOM_EMU_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

struct emu_clock {
	uint32_t khz;		/* nominal clock */
	bool realtime;
	uint64_t anchor_ns;	/* wall time (CLOCK_MONOTONIC) of ... */
	uint64_t anchor_cycle;	/* ... this cycle */
};

/* Nanoseconds on the monotonic clock. */
uint64_t emu_now_ns(void);
void emu_clock_init(struct emu_clock *k, uint32_t khz, bool realtime);
/* Cycle @cycle happens at wall time @ns (the card just went idle there). */
void emu_clock_anchor(struct emu_clock *k, uint64_t ns, uint64_t cycle);
/* The cycle the anchored counter reaches at wall time @ns. */
uint64_t emu_clock_cycle_at(const struct emu_clock *k, uint64_t ns);
/* The wall time at which the anchored counter reaches @cycle (>= the anchor). */
uint64_t emu_clock_ns_at(const struct emu_clock *k, uint64_t cycle);

#endif
