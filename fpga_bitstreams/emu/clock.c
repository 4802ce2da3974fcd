// SPDX-License-Identifier: GPL-2.0
/*
 * The emulator's time model: cycles and wall time.
 */
#include "clock.h"

#include <stdio.h>
#include <time.h>

#define NS_PER_MS	1000000ull

uint64_t emu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void emu_clock_init(struct emu_clock *k, uint32_t khz, bool realtime)
{
	k->khz = khz;
	k->realtime = realtime;
	k->jumps = 0;
	k->near_waits = 0;
	k->far_waits = 0;
	emu_clock_anchor(k, emu_now_ns(), 0);
}

void emu_clock_anchor(struct emu_clock *k, uint64_t ns, uint64_t cycle)
{
	k->anchor_ns = ns;
	k->anchor_cycle = cycle;
}

uint64_t emu_clock_cycle_at(const struct emu_clock *k, uint64_t ns)
{
	uint64_t d = ns > k->anchor_ns ? ns - k->anchor_ns : 0;

	/* whole milliseconds first: no overflow for years of wall time */
	return k->anchor_cycle + d / NS_PER_MS * k->khz + d % NS_PER_MS * k->khz / NS_PER_MS;
}

uint64_t emu_clock_ns_at(const struct emu_clock *k, uint64_t cycle)
{
	uint64_t d = cycle > k->anchor_cycle ? cycle - k->anchor_cycle : 0;

	/* round up: the counter has reached @cycle at the time returned */
	return k->anchor_ns + d / k->khz * NS_PER_MS + (d % k->khz * NS_PER_MS + k->khz - 1) / k->khz;
}

bool emu_clock_is_near(const struct emu_clock *k, uint64_t now, uint64_t next)
{
	return next != UINT64_MAX && next > now &&
	       next - now <= (uint64_t)k->khz * EMU_NEAR_EVENT_US / 1000;
}

void emu_clock_count_wait(struct emu_clock *k, uint64_t now, uint64_t next)
{
	if (next == UINT64_MAX || next <= now)
		return;		/* nothing pending, or due now: not a wait for an event */
	if (emu_clock_is_near(k, now, next))
		k->near_waits++;
	else
		k->far_waits++;
}

void emu_clock_describe(const struct emu_clock *k, uint64_t cycle, char *out, size_t len)
{
	snprintf(out, len, "cycle %llu khz %u realtime %d jumps %llu near_waits %llu far_waits %llu",
		 (unsigned long long)cycle, k->khz, k->realtime ? 1 : 0,
		 (unsigned long long)k->jumps, (unsigned long long)k->near_waits,
		 (unsigned long long)k->far_waits);
}
