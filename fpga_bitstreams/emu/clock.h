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
 * bytes per second.  In its own time a card does not wait in wall time for
 * an event a few cycles ahead: it jumps to it.  The counters below say how
 * the card waited; the control socket's "clock" command shows them.
 * Documented in Documentation/emulator.rst.
 */
#ifndef LOOM_EMU_CLOCK_H
#define LOOM_EMU_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* in its own time, a card jumps to an event at most this close */
#define EMU_NEAR_EVENT_US	100

struct emu_clock {
	uint32_t khz;		/* nominal clock */
	bool realtime;
	uint64_t anchor_ns;	/* wall time (CLOCK_MONOTONIC) of ... */
	uint64_t anchor_cycle;	/* ... this cycle */
	uint64_t jumps;		/* near events reached without waiting */
	uint64_t near_waits;	/* wall-time waits for a near event (emu_clock_is_near) */
	uint64_t far_waits;	/* wall-time waits for an event further ahead */
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
/*
 * Is the card event due at cycle @next, seen at cycle @now, near: pending,
 * not yet due, and at most EMU_NEAR_EVENT_US of the nominal clock ahead?
 */
bool emu_clock_is_near(const struct emu_clock *k, uint64_t now, uint64_t next);
/* Count a wall-time wait at cycle @now for a card event due at cycle @next. */
void emu_clock_count_wait(struct emu_clock *k, uint64_t now, uint64_t next);
/*
 * "cycle N khz K realtime 0|1 jumps J near_waits W far_waits F" into @out:
 * the card's cycle @cycle, the nominal clock and the counters.
 */
void emu_clock_describe(const struct emu_clock *k, uint64_t cycle, char *out, size_t len);

#endif
