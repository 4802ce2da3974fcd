// SPDX-License-Identifier: GPL-2.0
/*
 * The router core's pure logic: cumulative credits (newer values only,
 * wrap-around, never more than the buffers), the T3E VC model (start VC on
 * injection and dimension change, kept within a dimension, VC1 through a
 * dateline), class <-> VC mapping and arbitration levels, the adaptive
 * choice (most credits, usable ports of the mask, fallback), packet FIFOs,
 * and lane degradation.
 */
#include "lanes.h"
#include "tap.h"
#include "tile.h"

#include <string.h>

TAP_DEFINE;

static void credits(void)
{
	struct credit_tx c = { .sent = 0, .granted = 0 };

	tap_ok(credit_avail(&c) == 0, "credits: none before the first grant");
	tap_ok(credit_update(&c, 8, 1024) && credit_avail(&c) == 8, "credits: first grant of 8");
	c.sent += 8;
	tap_ok(credit_avail(&c) == 0, "credits: 8 sent, none left");
	tap_ok(!credit_update(&c, 5, 1024) && credit_avail(&c) == 0,
	       "credits: an older cumulative value is ignored");
	tap_ok(credit_update(&c, 11, 1024) && credit_avail(&c) == 3,
	       "credits: a newer value returns the difference");
	tap_ok(!credit_update(&c, 8 + 2000, 1024), "credits: more than the buffers is refused");
	c.sent = c.granted = 0xfffffffeu;
	tap_ok(credit_update(&c, 2, 1024) && credit_avail(&c) == 4, "credits: wrap-around at 2^32");
}

static void vc_model(void)
{
	struct route_vc_in in = { .class = LOOM_CLASS_REQ, .in_dim = 0, .out_dim = 0 };

	in.injected = true;
	in.start_vc1 = true;
	tap_ok(route_vc1(&in), "VC: injection takes START_VC1 (1)");
	in.start_vc1 = false;
	in.vc1_now = true;
	tap_ok(!route_vc1(&in), "VC: injection takes START_VC1 (0), whatever the flag says");
	in.injected = false;
	tap_ok(route_vc1(&in), "VC: kept within the same dimension (VC1 stays VC1)");
	in.vc1_now = false;
	in.dateline = true;
	tap_ok(route_vc1(&in), "VC: leaving through a dateline moves to VC1");
	in.dateline = false;
	in.vc1_now = true;
	in.out_dim = 1;
	tap_ok(!route_vc1(&in), "VC: a new dimension starts again from START_VC1");
	in.out_dim = LOOM_VCT_PORT_DIM_NONE;
	tap_ok(!route_vc1(&in), "VC: a port without a dimension counts as a new dimension");
	tap_ok(route_vc_of(LOOM_CLASS_REQ, false, false) == LOOM_VC_REQ0 &&
	       route_vc_of(LOOM_CLASS_REQ, true, false) == LOOM_VC_REQ1 &&
	       route_vc_of(LOOM_CLASS_RESP, true, false) == LOOM_VC_RESP1 &&
	       route_vc_of(LOOM_CLASS_RESP, false, true) == LOOM_VC_RESP_ADAPT &&
	       route_vc_of(LOOM_CLASS_BARRIER, true, true) == LOOM_VC_BARRIER &&
	       route_vc_of(LOOM_CLASS_MAINT, false, false) == -1,
	       "VC numbering per class as in packet.h");
	tap_ok(route_class_of_vc(LOOM_VC_REQ_ADAPT) == LOOM_CLASS_REQ &&
	       route_class_of_vc(LOOM_VC_RESP0) == LOOM_CLASS_RESP &&
	       route_class_of_vc(LOOM_VC_MAINT) == -1 && route_class_of_vc(99) == -1,
	       "class of each VC; MAINT and out of range have none");
	tap_ok(route_vc_level(LOOM_VC_BARRIER) == 0 && route_vc_level(LOOM_VC_RESP1) == 1 &&
	       route_vc_level(LOOM_VC_REQ0) == 2,
	       "arbitration: barrier before responses before requests");
}

static void adaptive(void)
{
	uint32_t cr[4] = { 1, 5, 3, 0 };

	tap_ok(route_adaptive_pick(0xf, 0xf, cr, 4, 0, 0) == 1, "adaptive: the most credits wins");
	tap_ok(route_adaptive_pick(0x5, 0xf, cr, 4, 0, 0) == 2, "adaptive: only ports of the mask");
	tap_ok(route_adaptive_pick(0xf, 0xd, cr, 4, 0, 0) == 2, "adaptive: only usable ports");
	cr[1] = 3;
	tap_ok(route_adaptive_pick(0x6, 0xf, cr, 4, 2, 0) == 2, "adaptive: a tie goes to the table port");
	tap_ok(route_adaptive_pick(0x8, 0xf, cr, 4, 3, 0) == -1,
	       "adaptive: no credit anywhere falls back (-1)");
}

static void fifo(void)
{
	struct tile_q q;
	struct loom_pkt_hdr h = { .len = 4 };
	uint8_t pl[4] = { 1, 2, 3, 4 };
	bool ok;

	ok = tile_q_init(&q, 2);
	for (unsigned int round = 0; ok && round < 3; round++) {
		h.op_id = round;
		ok = tile_q_push(&q, &h, pl) && tile_q_push(&q, &h, pl) && !tile_q_push(&q, &h, pl);
		ok = ok && tile_q_head(&q)->h.op_id == round && !memcmp(tile_q_head(&q)->payload, pl, 4);
		tile_q_pop(&q);
		tile_q_pop(&q);
		ok = ok && !tile_q_head(&q);
		tile_q_pop(&q);	/* popping an empty queue is harmless */
	}
	tap_ok(ok && q.count == 0, "packet FIFO: fills to capacity, refuses more, wraps, empties");
	tile_q_free(&q);
}

static void lanes(void)
{
	struct lanes l;
	unsigned int lane = 9, drops = 0;

	lanes_reset(&l, 4);
	for (uint32_t s = 0; s < 3; s++)
		drops += lanes_error(&l, 4 * s + 1, 0, 4, 1000, &lane);
	tap_ok(!drops && lane == 1 && l.errors[1] == 3 && l.n == 4,
	       "lanes: errors of seq 1, 5, 9 are charged to lane 1, below the threshold");
	tap_ok(!lanes_error(&l, 1, 2000, 4, 1000, &lane) && l.n == 4,
	       "lanes: errors older than the window do not count");
	for (uint32_t s = 0; s < 3; s++)
		drops += lanes_error(&l, 1, 2001, 4, 1000, &lane);
	tap_ok(drops == 1 && l.n == 2 && l.drops == 1, "lanes: the threshold within the window halves them");
	for (unsigned int k = 0; k < 8; k++)
		lanes_error(&l, 0, 3000, 4, 1000, &lane);
	tap_ok(l.n == 1 && l.drops == 2, "lanes: 2 -> 1 and never below one");
	lanes_reset(&l, 0);
	tap_ok(!lanes_error(&l, 0, 0, 1, 1000, &lane), "lanes: a down link charges nothing");
}

int main(void)
{
	tap_plan(27);
	credits();
	vc_model();
	adaptive();
	fifo();
	lanes();
	return tap_exit_status();
}
