// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test, 2 cards: the port fault mask.  Setting
 * LOOM_PORT_CTRL_DISABLE on the port a route uses sets STATUS.DISABLED,
 * counts PORTS_EVENTS and raises LOOM_VEC_EVENT; a put routed to it
 * completes with LOOM_CQE_ST_DISCARDED (never wedges) and its packets are
 * counted in the port's DROPS_DISABLED; clearing the bit is another event
 * and puts land again.
 */
#include "card.h"
#include "fabric.h"
#include "tap.h"

#include <poll.h>
#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX	3
#define KEY1	0xfa017u
#define SEG	(64u << 10)
#define LEN	(8u << 10)

static struct fabric f;
static struct fh_ctx src, dst;

static int put(uint64_t tag, uint8_t *status)
{
	struct loom_cmd c = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX, .dst_node = 1,
		.tag = tag, .remote_off = 0, .length = LEN,
	};
	struct loom_cqe e;

	if (!fh_submit(&src, &c) || fh_wait_cqe(&src, &e, 10000) != 1 || e.tag != tag) {
		tap_diag("put 0x%llx: no completion", (unsigned long long)tag);
		return -1;
	}
	*status = e.status;
	return 0;
}

/* Drain the event vector's eventfd; 1 if it was raised within @ms. */
static int event_raised(int ms)
{
	struct pollfd p = { .fd = f.fh[0].irq_fd[LOOM_VEC_EVENT], .events = POLLIN };
	uint64_t v;

	if (p.fd < 0 || poll(&p, 1, ms) != 1)
		return 0;
	return read(p.fd, &v, sizeof(v)) == (ssize_t)sizeof(v);
}

static uint32_t rd(uint32_t off)
{
	return fh_rd32(&f.fh[0], off);
}

static void set_ctrl(uint32_t v)
{
	fh_wr32(&f.fh[0], fh_port_reg(&f.fh[0], 0, LOOM_PORT_CTRL), v);
	fh_kick(&f.fh[0], LOOM_KICK_ADMIN);
}

static int status_has(uint32_t bit, bool want, int ms)
{
	uint64_t end = fh_now_ms() + (uint64_t)ms;

	do {
		if (!!(rd(fh_port_reg(&f.fh[0], 0, LOOM_PORT_STATUS)) & bit) == want)
			return 1;
		usleep(5000);
	} while (fh_now_ms() < end);
	return 0;
}

int main(void)
{
	uint32_t ev0, drops;
	uint8_t st = 0xff;
	bool ok;

	tap_plan(7);
	ok = fabric_init(&f, 60) == 0 && fabric_start_ring(&f, 2) == 0 &&
	     fh_ctx_create(&f.fh[0], &src, CTX, KEY1, 6, 8, SEG) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(&f.fh[1], &dst, CTX, KEY1, 6, 8, SEG) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "2 cards up, contexts enabled")) {
		fabric_stop();
		return tap_exit_status();
	}
	ok = put(1, &st) == 0;
	tap_ok(ok && st == LOOM_CQE_ST_OK, "a put before the mask lands (status %u)", st);
	event_raised(0);
	ev0 = rd(CARD_OFF_PORTS + LOOM_PORTS_EVENTS);
	set_ctrl(LOOM_PORT_CTRL_DISABLE);
	ok = status_has(LOOM_PORT_ST_DISABLED, true, 2000);
	tap_ok(ok && rd(CARD_OFF_PORTS + LOOM_PORTS_EVENTS) == ev0 + 1 && event_raised(2000),
	       "CTRL.DISABLE: STATUS.DISABLED set, PORTS_EVENTS +1, LOOM_VEC_EVENT raised");
	st = 0xff;
	ok = put(2, &st) == 0;
	tap_ok(ok && st == LOOM_CQE_ST_DISCARDED,
	       "a put routed to the disabled port completes with DISCARDED (status %u)", st);
	drops = rd(card_cnt_reg(0, LOOM_VC_REQ0, LOOM_CNTR_DROPS_DISABLED));
	tap_ok(drops == LEN / LOOM_PKT_MAX_PAYLOAD,
	       "its %u packets are counted in DROPS_DISABLED of (port 0, REQ0): %u",
	       LEN / LOOM_PKT_MAX_PAYLOAD, drops);
	set_ctrl(0);
	ok = status_has(LOOM_PORT_ST_DISABLED, false, 2000);
	tap_ok(ok && rd(CARD_OFF_PORTS + LOOM_PORTS_EVENTS) == ev0 + 2 && event_raised(2000),
	       "clearing CTRL.DISABLE: STATUS.DISABLED clear, PORTS_EVENTS +1, event raised");
	st = 0xff;
	ok = put(3, &st) == 0;
	tap_ok(ok && st == LOOM_CQE_ST_OK && dst.segp[0] == src.segp[0],
	       "puts land again (status %u)", st);
	fabric_stop();
	return tap_exit_status();
}
