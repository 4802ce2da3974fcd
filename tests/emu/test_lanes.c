// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of lane degradation, 2 cards.  A link trains with 4
 * lanes (LINK block LANES, RATE_MBPS, STATUS.LANES).  With a bit error
 * rate injected on one cable ('ber' on the control socket) while puts
 * cross it, the receiving port charges CRC errors to lanes; a lane
 * reaching LANE_THRESHOLD errors within LANE_WINDOW_MS is dropped, so the
 * link degrades 4 -> 2 -> 1 lanes (never below), RATE_MBPS follows,
 * every change is a port event, and the data still lands byte-exact.  The
 * control socket's stats show lanes and per-VC credits.
 */
#include "card.h"
#include "fabric.h"
#include "tap.h"

#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX	5
#define KEY1	0x1a4e5u
#define LEN	(1u << 20)

static struct fabric f;

/* card 1's port 1 receives what card 0's port 0 sends */
static uint32_t link1(uint32_t field)
{
	return fh_rd32(&f.fh[1], card_link_reg(1, field));
}

static uint32_t lanes_status(void)
{
	return (fh_rd32(&f.fh[1], fh_port_reg(&f.fh[1], 1, LOOM_PORT_STATUS)) &
		LOOM_PORT_ST_LANES_MASK) >> LOOM_PORT_ST_LANES_SHIFT;
}

int main(void)
{
	static const char *const more[] = { NULL };
	struct fh_ctx src, dst;
	char reply[1024];
	uint32_t ev0, errors = 0;
	unsigned int puts = 0;
	bool ok, landed = true;

	tap_plan(6);
	ok = fabric_init(&f, 120) == 0 && fabric_start_ring_ctl(&f, 2, more) == 0 &&
	     fh_ctx_create(&f.fh[0], &src, CTX, KEY1, 6, 8, LEN) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(&f.fh[1], &dst, CTX, KEY1, 6, 8, LEN) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "2 cards up, contexts enabled")) {
		fabric_stop();
		return tap_exit_status();
	}
	tap_ok(link1(LOOM_LINKR_LANES) == CARD_LANES && lanes_status() == CARD_LANES &&
	       link1(LOOM_LINKR_RATE_MBPS) == CARD_LANES * CARD_LANE_MBPS,
	       "trained link: %u lanes, STATUS.LANES %u, %u Mb/s", link1(LOOM_LINKR_LANES),
	       lanes_status(), link1(LOOM_LINKR_RATE_MBPS));
	ev0 = fh_rd32(&f.fh[1], CARD_OFF_PORTS + LOOM_PORTS_EVENTS);
	ok = fabric_ctl(&f, 0, "ber 0 0.0002", reply, sizeof(reply)) == 0 &&
	     !strncmp(reply, "ok", 2);
	for (uint32_t o = 0; o < LEN; o++)
		src.segp[o] = (uint8_t)(o * 13 + (o >> 10));
	for (uint64_t end = fh_now_ms() + 20000; ok && link1(LOOM_LINKR_LANES) > 1 &&
	     fh_now_ms() < end; puts++) {
		struct loom_cmd c = {
			.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX,
			.dst_node = 1, .tag = puts, .length = LEN,
		};
		struct loom_cqe e;

		memset(dst.segp, 0, LEN);
		if (!fh_submit(&src, &c) || fh_wait_cqe(&src, &e, 20000) != 1 ||
		    e.status != LOOM_CQE_ST_OK || memcmp(src.segp, dst.segp, LEN)) {
			tap_diag("put %u under bit errors did not land", puts);
			landed = false;
			break;
		}
	}
	fabric_ctl(&f, 0, "ber 0 0", reply, sizeof(reply));
	for (unsigned int i = 0; i < CARD_LANES; i++)
		errors += link1(LOOM_LINKR_LANE_ERRORS + 4 * i);
	tap_diag("%u puts of 1 MiB; lane errors %u, lanes %u, drops %u, %u Mb/s", puts, errors,
		 link1(LOOM_LINKR_LANES), link1(LOOM_LINKR_LANE_DROPS),
		 link1(LOOM_LINKR_RATE_MBPS));
	tap_ok(ok && link1(LOOM_LINKR_LANES) == 1 && link1(LOOM_LINKR_LANE_DROPS) == 2 &&
	       link1(LOOM_LINKR_RATE_MBPS) == CARD_LANE_MBPS && lanes_status() == 1,
	       "bit errors degrade the link 4 -> 2 -> 1 lanes, RATE_MBPS and STATUS.LANES follow");
	tap_ok(errors >= 2 * CARD_LANE_THRESHOLD &&
	       fh_rd32(&f.fh[1], CARD_OFF_PORTS + LOOM_PORTS_EVENTS) >= ev0 + 2,
	       "per-lane CRC errors counted (%u), each degradation a port event", errors);
	tap_ok(landed && puts > 0, "every put under bit errors landed byte-exact");
	ok = fabric_ctl(&f, 1, "stats 1", reply, sizeof(reply)) == 0 &&
	     fabric_stat(reply, "lanes") == 1 && strstr(reply, " credits=") &&
	     strstr(reply, " inbuf=");
	if (!ok)
		tap_diag("stats: %s", reply);
	tap_ok(ok, "control socket stats show lanes=1 and per-VC credits");
	fabric_stop();
	return tap_exit_status();
}
