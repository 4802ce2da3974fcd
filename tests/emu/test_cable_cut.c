// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test: a cable cut mid-traffic.  Ring of 4 cards with
 * control sockets; card 0 streams 256 KiB puts (SIGNAL, REMOTE_CQE) to
 * node 2, two hops away over card 0's port 0.  Once the first has
 * completed, the control socket cuts that cable.  Every put must complete
 * exactly once, OK (then its data landed byte-exact and card 2 saw it
 * arrive) or with an error (LINK or DISCARDED): nothing hangs, nothing is
 * lost silently.  Then card 0 is rerouted the other way round (port 1) and
 * the failed puts, issued again, all get through byte-exact.
 */
#include "card.h"
#include "fabric.h"
#include "tap.h"

#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX		1
#define KEY		0xc07c0000u	/* one partition: every context */
#define NPUT		24
#define LEN		(256u << 10)
#define SEG		((NPUT + 1) * LEN)
#define DST		2

static struct fabric f;
static struct fh_ctx ctx[4];

static uint8_t pattern(unsigned int put, uint64_t off)
{
	return (uint8_t)((off * 2654435761u) >> 13 ^ put * 37);
}

static bool submit_put(unsigned int k, uint64_t tag)
{
	struct loom_cmd cmd = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL | LOOM_CMD_F_REMOTE_CQE,
		.dst_ctx = CTX, .dst_node = DST, .tag = tag, .local_off = (uint64_t)k * LEN,
		.remote_off = (uint64_t)k * LEN, .length = LEN,
	};

	return fh_submit(&ctx[0], &cmd);
}

/* LOCAL completions of card 0 by put (tag % 100), within @timeout_ms of the last one */
static unsigned int reap(unsigned int *done, uint8_t *status, unsigned int want, int timeout_ms)
{
	struct loom_cqe e;
	unsigned int got = 0;

	while (got < want && fh_wait_cqe(&ctx[0], &e, timeout_ms) == 1) {
		unsigned int k = (unsigned int)(e.tag % 100);

		if (e.kind != LOOM_CQE_LOCAL || k >= NPUT) {
			tap_diag("unexpected completion kind %u tag %llu", e.kind,
				 (unsigned long long)e.tag);
			continue;
		}
		done[k]++;
		status[k] = e.status;
		got++;
	}
	return got;
}

static bool landed(unsigned int k)
{
	const uint8_t *p = ctx[DST].segp + (uint64_t)k * LEN;

	for (uint64_t o = 0; o < LEN; o++)
		if (p[o] != pattern(k, o))
			return false;
	return true;
}

/* ARRIVAL events at card 2 per put. */
static void arrivals(unsigned int *arrived)
{
	struct loom_cqe e;

	while (fh_wait_cqe(&ctx[DST], &e, 100) == 1)
		if (e.kind == LOOM_CQE_ARRIVAL && e.tag % LEN == 0 && e.tag / LEN < NPUT &&
		    e.value == LEN && e.src_node == 0)
			arrived[e.tag / LEN]++;
}

int main(void)
{
	const char *const no_extra[] = { NULL };
	unsigned int done[NPUT] = { 0 }, arrived[NPUT] = { 0 }, n_ok = 0, n_err = 0, again = 0;
	uint8_t status[NPUT];
	struct loom_cqe e;
	char reply[256];
	bool ok, exact = true, good = true;
	unsigned int got;

	tap_plan(6);
	ok = fabric_init(&f, 120) == 0 && fabric_start_ring_ctl(&f, 4, no_extra) == 0;
	for (unsigned int i = 0; ok && i < 4; i++)
		ok = fh_ctx_create(&f.fh[i], &ctx[i], CTX, KEY, 6, 8, SEG) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "ring of 4 with control sockets, contexts enabled")) {
		fabric_stop();
		return 1;
	}
	for (unsigned int k = 0; k < NPUT; k++)
		for (uint64_t o = 0; o < LEN; o++)
			ctx[0].segp[(uint64_t)k * LEN + o] = pattern(k, o);
	memset(ctx[DST].segp, 0, SEG);

	ok = true;
	for (unsigned int k = 0; k < NPUT; k++)
		ok &= submit_put(k, k);
	got = reap(done, status, 1, 20000);
	ok &= got == 1 && fabric_ctl(&f, 0, "cut 0", reply, sizeof(reply)) == 0 &&
	      !strcmp(reply, "ok port 0 cut");
	tap_ok(ok, "%u puts of %u KiB to node %u streaming; cable of card 0 port 0 cut after the first completed",
	       NPUT, LEN >> 10, DST);

	got += reap(done, status, NPUT - got, 15000);
	for (unsigned int k = 0; k < NPUT; k++) {
		exact &= done[k] == 1;
		status[k] == LOOM_CQE_ST_OK ? n_ok++ : n_err++;
		if (done[k] && status[k] != LOOM_CQE_ST_OK && status[k] != LOOM_CQE_ST_LINK &&
		    status[k] != LOOM_CQE_ST_DISCARDED) {
			tap_diag("put %u: status %u", k, status[k]);
			exact = false;
		}
	}
	usleep(200000);
	got += reap(done, status, NPUT, 100);	/* nothing more may come */
	for (unsigned int k = 0; k < NPUT; k++)
		exact &= done[k] == 1;
	tap_diag("after the cut: %u OK, %u failed, %u completions for %u puts", n_ok, n_err, got, NPUT);
	tap_ok(exact && n_err > 0, "every put completed exactly once, OK or with LINK/DISCARDED (%u failed)",
	       n_err);

	arrivals(arrived);
	for (unsigned int k = 0; k < NPUT; k++)
		if (status[k] == LOOM_CQE_ST_OK)
			good &= landed(k) && arrived[k] == 1;
	tap_ok(good, "every put completed OK landed byte-exact and arrived once at node %u", DST);

	/* reroute card 0's traffic to node 2 the other way round; the responses already go via 3 */
	fh_wr32(&f.fh[0], CARD_OFF_ROUTER + LOOM_ROUTER_RT + 8 * DST, LOOM_RT_W0_VALID | 1);
	fh_kick(&f.fh[0], LOOM_KICK_ADMIN);
	memset(done, 0, sizeof(done));
	for (unsigned int k = 0; k < NPUT; k++)
		if (status[k] != LOOM_CQE_ST_OK)
			again += submit_put(k, 100 + k);
	ok = reap(done, status, again, 20000) == again;
	for (unsigned int k = 0; k < NPUT; k++)
		ok &= status[k] == LOOM_CQE_ST_OK && landed(k);
	tap_ok(ok && again == n_err, "rerouted via port 1: the %u failed puts, issued again, complete OK, byte-exact",
	       again);
	ok = fabric_ctl(&f, 0, "restore 0", reply, sizeof(reply)) == 0 &&
	     fabric_wait_link(&f, 0, 0, 10000) == 0 && fh_wait_cqe(&ctx[0], &e, 200) == 0;
	for (unsigned int i = 0; i < 4; i++)
		ok &= fabric_card_alive(&f, i);
	tap_ok(ok, "restore: the cable trains again, no stray completion, every card running");
	if (tap.failed)
		for (unsigned int i = 0; i < 4; i++)
			fabric_dump_log(&f, i);
	fabric_stop();
	return tap_exit_status();
}
