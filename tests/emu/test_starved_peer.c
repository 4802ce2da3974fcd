// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test, 2 cards: card 1 is starved of CPU (SIGSTOP for 2 s,
 * then SIGCONT) while card 0 streams puts to it, twice the forward-progress
 * timeout (its reset value, 1000 ms).  A neighbour that is alive but not running must not
 * be taken for a stuck one: no port is declared dead, no packet is
 * dropped, every put completes OK and every byte arrives.
 */
#include "card.h"
#include "fabric.h"
#include "tap.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX	1
#define KEY	0x5a5a1234u
#define MIB	(1u << 20)
#define NPUT	8
#define STOP_MS	2000

static struct fabric f;

static uint32_t port_reg(unsigned int card, unsigned int port, uint32_t field)
{
	struct fakehost *fh = &f.fh[card];

	return fh_rd32(fh, fh_port_reg(fh, port, field));
}

/*
 * Packets card @card discarded toward dead or disabled ports.  (Frames the
 * link layer refused, PORT_DROPS, are replayed by go-back-N: shown only.)
 */
static uint32_t discarded(unsigned int card)
{
	struct fakehost *fh = &f.fh[card];
	uint32_t vcs = fh_rd32(fh, CARD_OFF_COUNTERS + LOOM_CNT_N_VCS), n = 0;

	for (unsigned int p = 0; p < 2; p++) {
		tap_diag("card %u port %u: %u frames refused by the link layer, %u replayed", card,
			 p, port_reg(card, p, LOOM_PORT_DROPS), port_reg(card, p, LOOM_PORT_REPLAYED));
		for (unsigned int v = 0; v < vcs && v < LOOM_NUM_VCS; v++) {
			uint32_t rec = CARD_OFF_COUNTERS + LOOM_CNT_BASE +
				       (p * vcs + v) * LOOM_CNT_REC_SIZE;

			n += fh_rd32(fh, rec + LOOM_CNTR_DROPS_DEAD) +
			     fh_rd32(fh, rec + LOOM_CNTR_DROPS_DISABLED);
		}
	}
	return n;
}

int main(void)
{
	struct fh_ctx src, dst;
	struct loom_cqe e;
	unsigned int done = 0, bad = 0, dead = 0, drops = 0;
	uint64_t deadline;
	int ok;

	tap_plan(5);
	ok = fabric_init(&f, 120) == 0 && fabric_start_ring(&f, 2) == 0 &&
	     fh_ctx_create(&f.fh[0], &src, CTX, KEY, 5, 6, MIB) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(&f.fh[1], &dst, CTX, KEY, 5, 6, MIB) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "2 cards started with contexts")) {
		fabric_dump_log(&f, 0);
		fabric_stop();
		return 1;
	}
	for (unsigned int i = 0; i < MIB; i++)
		src.segp[i] = (uint8_t)(i * 13 + i / 4096);
	memset(dst.segp, 0, MIB);
	for (unsigned int i = 0; i < NPUT; i++) {
		struct loom_cmd c = {
			.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX, .dst_node = 1,
			.tag = 100 + i, .length = MIB,
		};

		fh_submit(&src, &c);
	}
	/* the stream flows: starve the receiver in mid-transfer */
	if (fh_wait_cqe(&src, &e, 20000) == 1) {
		done++;
		bad += e.status != LOOM_CQE_ST_OK;
	}
	kill(f.pid[1], SIGSTOP);
	usleep(STOP_MS * 1000);
	kill(f.pid[1], SIGCONT);
	deadline = fh_now_ms() + 60000;
	while (done < NPUT && fh_now_ms() < deadline) {
		if (fh_wait_cqe(&src, &e, 100) != 1)
			continue;
		done++;
		if (e.kind != LOOM_CQE_LOCAL || e.status != LOOM_CQE_ST_OK || e.value != MIB) {
			tap_diag("put tag %llu: kind %u status %u value %llu",
				 (unsigned long long)e.tag, e.kind, e.status,
				 (unsigned long long)e.value);
			bad++;
		}
	}
	tap_ok(done == NPUT && bad == 0, "all %u puts completed OK across a %u ms stop of the receiver (%u completed, %u not OK)",
	       NPUT, STOP_MS, done, bad);
	for (unsigned int i = 0; i < 2; i++) {
		for (unsigned int p = 0; p < 2; p++)
			dead += !!(port_reg(i, p, LOOM_PORT_STATUS) & LOOM_PORT_ST_DEAD);
		drops += discarded(i);
	}
	tap_ok(dead == 0, "no port declared dead (%u ports dead)", dead);
	tap_ok(drops == 0, "no packet discarded (%u toward dead or disabled ports)", drops);
	ok = !memcmp(src.segp, dst.segp, MIB);
	for (unsigned int i = 0; !ok && i < MIB; i++)
		if (src.segp[i] != dst.segp[i]) {
			tap_diag("byte %u: 0x%02x at the receiver, 0x%02x sent", i, dst.segp[i],
				 src.segp[i]);
			break;
		}
	tap_ok(ok, "every byte arrived");
	if (tap.failed) {
		fabric_dump_log(&f, 0);
		fabric_dump_log(&f, 1);
	}
	fabric_stop();
	return tap_exit_status();
}
