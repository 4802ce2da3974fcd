// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test, 2 cards: card 1 is killed (SIGKILL) while card 0
 * streams 16 x 1 MiB puts to it.  Every put must still complete at card 0
 * (OK if it made it, LINK if not; none hangs), the ports must report the
 * link down, new puts to node 1 fail with LINK at once, and card 0 keeps
 * serving its own host.
 */
#include "fabric.h"
#include "tap.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX	1
#define KEY	0x11223344u
#define MIB	(1u << 20)
#define NPUT	16

static struct fabric f;

int main(void)
{
	struct fh_ctx src, dst;
	struct fh_ctx *s = &src;
	struct fakehost *fh;
	struct loom_cqe e;
	unsigned int ok_n = 0, link_n = 0, other = 0;
	uint64_t deadline;
	int ok;

	tap_plan(6);
	ok = fabric_init(&f, 90) == 0 && fabric_start_ring(&f, 2) == 0 &&
	     fh_ctx_create(&f.fh[0], &src, CTX, KEY, 5, 6, MIB) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(&f.fh[1], &dst, CTX, KEY, 5, 6, MIB) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "2 cards started with contexts")) {
		fabric_dump_log(&f, 0);
		return 1;
	}
	fh = &f.fh[0];
	for (unsigned int i = 0; i < NPUT; i++) {
		struct loom_cmd c = {
			.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX, .dst_node = 1,
			.tag = 500 + i, .length = MIB,
		};

		fh_submit(s, &c);
	}
	/* let some of it flow, then pull the plug */
	if (fh_wait_cqe(s, &e, 10000) == 1) {
		e.status == LOOM_CQE_ST_OK ? ok_n++ : e.status == LOOM_CQE_ST_LINK ? link_n++ : other++;
	}
	kill(f.pid[1], SIGKILL);
	waitpid(f.pid[1], NULL, 0);
	f.pid[1] = 0;
	deadline = fh_now_ms() + 5000;	/* well before the 10 s progress timer */
	while (ok_n + link_n + other < NPUT && fh_now_ms() < deadline) {
		if (fh_wait_cqe(s, &e, 100) != 1)
			continue;
		if (e.kind != LOOM_CQE_LOCAL || e.tag < 500 || e.tag >= 500 + NPUT)
			other++;
		else if (e.status == LOOM_CQE_ST_OK && e.value == MIB)
			ok_n++;
		else if (e.status == LOOM_CQE_ST_LINK && e.value < MIB)
			link_n++;
		else
			other++;
	}
	tap_ok(ok_n + link_n == NPUT && other == 0 && link_n > 0,
	       "all %d puts completed within 5 s of the peer dying: %u OK, %u LINK, %u other", NPUT, ok_n, link_n, other);
	usleep(100000);
	tap_ok(!(fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_STATUS)) & LOOM_PORT_ST_UP) &&
	       !(fh_rd32(fh, fh_port_reg(fh, 1, LOOM_PORT_STATUS)) & LOOM_PORT_ST_UP) &&
	       fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_TX_FRAMES)) > 0,
	       "both ports report the link down, counters kept");
	{
		struct loom_cmd c = {
			.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX, .dst_node = 1,
			.tag = 900, .length = 4096,
		};

		fh_submit(s, &c);
		ok = fh_wait_cqe(s, &e, 5000) == 1 && e.tag == 900 && e.status == LOOM_CQE_ST_LINK;
		tap_ok(ok, "a new put to the dead node fails with LINK at once");
		c.dst_node = 0;
		c.dst_ctx = CTX;
		c.remote_off = 8192;
		c.tag = 901;
		fh_submit(s, &c);
		ok = fh_wait_cqe(s, &e, 5000) == 1 && e.tag == 901 && e.status == LOOM_CQE_ST_OK &&
		     !memcmp(s->segp, s->segp + 8192, 4096);
		tap_ok(ok, "card 0 still serves puts to itself");
	}
	tap_ok(fabric_card_alive(&f, 0), "card 0 is still running");
	if (tap.failed)
		fabric_dump_log(&f, 0);
	fabric_stop();
	return tap_exit_status();
}
