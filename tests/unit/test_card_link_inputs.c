// SPDX-License-Identifier: GPL-2.0
/*
 * The link unit's inputs, as the RTL harness gives them to a link unit in
 * RTL (fpga_bitstreams/rtl/harness/equiv_link.h): unit a of a C link pair
 * under traffic both ways, bit errors, failing lanes, maintenance frames,
 * a router input not ready now and then and cut cables, its inputs read
 * every cycle (the bytes the cable brings as the lanes carried them, the
 * lanes flagged, the router side, the carrier, the maintenance slots).  A
 * shadow unit stepped on those inputs alone keeps a's state, outputs and
 * every counter, cycle for cycle, at several lane widths: they are all
 * a's edge depends on, and the wire handing intact frames over whole
 * changes nothing a receiver fed byte by byte would see.
 */
#include "equiv_link.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

TAP_DEFINE;

#define CYCLES	100000
#define PHASE	2000

static void run(unsigned int lanes, unsigned int lane_bytes, uint64_t seed)
{
	char err[256];
	struct linku_model *m = linku_new(lanes, lane_bytes, 4, 16, 4, seed, err, sizeof(err));
	struct linku_cycle c;
	const char *what = NULL;
	uint64_t at = 0, sv = 0, mv = 0, partial = 0, narrowed = 0, taken = 0, crc = 0, trains = 0;

	if (!m) {
		tap_ok(false, "%u lanes x %u bytes: %s", lanes, lane_bytes, err);
		return;
	}
	for (uint64_t t = 0; t < CYCLES && !what; t++) {
		if (t % PHASE == 0)
			linku_phase(m);
		linku_step(m, &c);
		if (c.error) {
			what = c.error;
			at = t;
			break;
		}
		what = linku_shadow_check(m, &c, &sv, &mv);
		at = t;
		partial += c.rx_n && c.rx_n < lanes * lane_bytes;
		narrowed += c.state == 2 && c.lanes_n < lanes;
		taken += c.maint_taken;
	}
	for (unsigned int i = 0; i < linku_counter_count(); i++) {
		if (!strcmp(linku_counter_name(i), "crc_errors"))
			crc = linku_counter(m, i);
		if (!strcmp(linku_counter_name(i), "trains"))
			trains = linku_counter(m, i);
	}
	if (what)
		tap_diag("cycle %llu: %s: shadow %llu, a %llu", (unsigned long long)at, what,
			 (unsigned long long)sv, (unsigned long long)mv);
	tap_ok(!what && crc && trains > 1 && taken && partial,
	       "%u lanes x %u bytes, seed %llu, %u cycles: the shadow fed a's inputs alone is a every cycle%s; CRC errors %llu, trainings %llu, cycles narrowed %llu, maintenance frames sent %llu, cycles a frame's bytes came in part %llu",
	       lanes, lane_bytes, (unsigned long long)seed, CYCLES, what ? " (it is not)" : "",
	       (unsigned long long)crc, (unsigned long long)trains, (unsigned long long)narrowed,
	       (unsigned long long)taken, (unsigned long long)partial);
	linku_free(m);
}

int main(void)
{
	static const unsigned int cfg[][2] = { { 4, 4 }, { 4, 6 }, { 2, 8 }, { 2, 1 }, { 1, 16 }, { 1, 3 } };

	tap_plan(6 * 2);
	for (unsigned int i = 0; i < 6; i++)
		for (uint64_t seed = 1; seed <= 2; seed++)
			run(cfg[i][0], cfg[i][1], seed * 7 + i);
	return tap_exit_status();
}
