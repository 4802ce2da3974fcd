// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of the BSUs: 8 card emulators cabled as a 2x2x2
 * torus (6 ports each: port 2d = +dimension d, port 2d+1 = -dimension d;
 * in a ring of 2 both go to the same neighbour over two cables), one fake
 * host per card.  A spanning tree rooted at node 0 (a node's parent is the
 * node with its highest coordinate bit cleared) is written into every
 * card's tree registers, then:
 *  - ROUNDS barriers across all 8 (each card joins in turn, the last one
 *    rotating); before the last join every other card must still be in
 *    S_ARM with an unchanged completion counter, after it every card must
 *    complete exactly once and be back in S_BAR;
 *  - a eureka from each card in turn: every card sees it (S_EUR, EUREKAS
 *    + 1) and the barrier that follows completes everywhere;
 *  - no barrier packet dropped as malformed, no card died.
 * LOOM_BSU_ROUNDS overrides the number of barrier rounds.
 */
#include "fabric.h"
#include "tap.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

TAP_DEFINE;

#define N		8
#define DIMS		3
#define PORTS		6
#define BSU		3
#define ROUNDS		10000
#define WAIT_MS		5000
#define SLOW_EVERY	500	/* every so many rounds, give an early completion time to show */

static struct fabric f;
static uint32_t bsu_blk[N];

static uint32_t page(unsigned int c, uint32_t field)
{
	return fh_rd32(&f.fh[c], bsu_blk[c] + LOOM_BSU_PAGE_AREA) + BSU * LOOM_BSU_PAGE_SIZE + field;
}

static uint32_t tree(unsigned int c, uint32_t field)
{
	return bsu_blk[c] + LOOM_BSU_TREE_BASE + BSU * LOOM_BSU_TREE_SIZE + field;
}

static uint32_t rd_page(unsigned int c, uint32_t field)
{
	return fh_rd32(&f.fh[c], page(c, field));
}

static void op(unsigned int c, uint32_t o)
{
	fh_wr32(&f.fh[c], page(c, LOOM_BSUP_OP), o);
	fh_kick(&f.fh[c], LOOM_KICK_BSU);
}

/* Wait until card @c took the op written to its OP register. */
static bool consumed(unsigned int c)
{
	uint64_t deadline = fh_now_ms() + WAIT_MS;

	while (rd_page(c, LOOM_BSUP_OP)) {
		struct timespec ts = { 0, 20 * 1000 };

		if (fh_now_ms() > deadline)
			return false;
		nanosleep(&ts, NULL);
	}
	return true;
}

static uint32_t find_bsu_block(struct fakehost *fh)
{
	uint32_t off = 0;

	for (int i = 0; i < LOOM_BLK_MAX_CHAIN; i++) {
		if (fh_rd32(fh, off + LOOM_BLK_TYPE) == LOOM_BLK_BSU)
			return off;
		off = fh_rd32(fh, off + LOOM_BLK_NEXT);
		if (!off || off >= fh->regs_size)
			break;
	}
	return 0;
}

static int highest_bit(unsigned int n)
{
	int d = -1;

	for (int i = 0; i < DIMS; i++)
		if (n & (1u << i))
			d = i;
	return d;
}

static int start_torus(void)
{
	for (unsigned int n = 0; n < N; n++) {
		static char args[2 * PORTS][128];
		const char *extra[4 * PORTS + 4];
		int k = 0, a = 0;

		extra[k++] = "--ports";
		extra[k++] = "6";
		for (unsigned int d = 0; d < DIMS; d++) {
			unsigned int m = n ^ (1u << d);

			/* port 2d listens, 2d+1 connects; cable "a": lower node's
			 * +d to upper node's -d, "b": upper's +d to lower's -d
			 */
			extra[k++] = "--cable";
			snprintf(args[a], sizeof(args[a]), "%u=listen:%s/t-%u-%u-%c.sock", 2 * d,
				 f.dir, n < m ? n : m, d, n < m ? 'a' : 'b');
			extra[k++] = args[a++];
			extra[k++] = "--cable";
			snprintf(args[a], sizeof(args[a]), "%u=connect:%s/t-%u-%u-%c.sock", 2 * d + 1,
				 f.dir, n < m ? n : m, d, n < m ? 'b' : 'a');
			extra[k++] = args[a++];
		}
		extra[k] = NULL;
		if (fabric_start_card(&f, n, extra))
			return -1;
	}
	for (unsigned int n = 0; n < N; n++)
		if (fabric_attach(&f, n))
			return -1;
	for (unsigned int n = 0; n < N; n++)
		for (unsigned int p = 0; p < PORTS; p++)
			if (fabric_wait_link(&f, n, p, 20000))
				return -1;
	return 0;
}

/* Tree: node m's parent is m with its highest bit d cleared, over m's -d port. */
static int configure_tree(void)
{
	for (unsigned int n = 0; n < N; n++) {
		uint32_t children = LOOM_BSU_CHILD_HOST, parent = LOOM_BSU_ROOT;
		int h = highest_bit(n);

		bsu_blk[n] = find_bsu_block(&f.fh[n]);
		if (!bsu_blk[n] || fh_rd32(&f.fh[n], bsu_blk[n] + LOOM_BSU_N_UNITS) != LOOM_BSU_COUNT) {
			tap_diag("card %u: no BSU block with %d units in the register chain", n,
				 LOOM_BSU_COUNT);
			return -1;
		}
		if (h >= 0)
			parent = 2u * (unsigned int)h + 1;
		for (int d = h + 1; d < DIMS; d++)
			children |= 1u << (2 * d);
		fh_wr32(&f.fh[n], tree(n, LOOM_BSUT_CHILDREN), children);
		fh_wr32(&f.fh[n], tree(n, LOOM_BSUT_PARENT), parent);
	}
	return 0;
}

/* Drain the event vectors; wait up to @ms for one of them to be raised. */
static void wait_events(int ms)
{
	struct pollfd p[N];
	uint64_t v;

	for (unsigned int n = 0; n < N; n++) {
		p[n].fd = f.fh[n].irq_fd[LOOM_VEC_EVENT];
		p[n].events = POLLIN;
	}
	if (poll(p, N, ms) > 0)
		for (unsigned int n = 0; n < N; n++)
			if (p[n].revents & POLLIN && read(p[n].fd, &v, sizeof(v)) < 0)
				continue;
}

/* Wait until every card's @field reached want[c]; false on timeout. */
static bool wait_all(uint32_t field, const uint32_t want[N])
{
	uint64_t deadline = fh_now_ms() + WAIT_MS;

	for (;;) {
		unsigned int reached = 0;

		for (unsigned int n = 0; n < N; n++)
			reached += rd_page(n, field) - want[n] < 0x80000000u;
		if (reached == N)
			return true;
		if (fh_now_ms() > deadline)
			return false;
		wait_events(10);
	}
}

static bool barrier_round(unsigned int round, char *why, size_t len)
{
	unsigned int last = round % N;
	uint32_t before[N], want[N];

	for (unsigned int n = 0; n < N; n++) {
		before[n] = rd_page(n, LOOM_BSUP_COMPLETIONS);
		want[n] = before[n] + 1;
	}
	for (unsigned int i = 1; i <= N; i++) {
		unsigned int c = (last + i) % N;

		if (c == last) {
			if (round % SLOW_EVERY == 0) {
				struct timespec ts = { 0, 20 * 1000 * 1000 };

				nanosleep(&ts, NULL);
			}
			for (unsigned int n = 0; n < N; n++) {
				if (n == last)
					continue;
				if (!consumed(n)) {
					snprintf(why, len, "round %u: card %u did not take its OP_BAR", round, n);
					return false;
				}
				if (rd_page(n, LOOM_BSUP_COMPLETIONS) != before[n] ||
				    rd_page(n, LOOM_BSUP_STATE) != LOOM_BSU_S_ARM) {
					snprintf(why, len, "round %u: card %u completed before card %u joined (state %u)",
						 round, n, last, rd_page(n, LOOM_BSUP_STATE));
					return false;
				}
			}
		}
		op(c, LOOM_BSU_OP_BAR);
	}
	if (!wait_all(LOOM_BSUP_COMPLETIONS, want)) {
		snprintf(why, len, "round %u: not every card completed within %d ms", round, WAIT_MS);
		return false;
	}
	for (unsigned int n = 0; n < N; n++)
		if (rd_page(n, LOOM_BSUP_COMPLETIONS) != want[n] ||
		    rd_page(n, LOOM_BSUP_STATE) != LOOM_BSU_S_BAR) {
			snprintf(why, len, "round %u: card %u completed %u times, state %u",
				 round, n, rd_page(n, LOOM_BSUP_COMPLETIONS) - before[n],
				 rd_page(n, LOOM_BSUP_STATE));
			return false;
		}
	return true;
}

static bool eureka_from(unsigned int src, uint32_t eur_op, char *why, size_t len)
{
	uint32_t want_e[N], want_d[N];

	for (unsigned int n = 0; n < N; n++) {
		want_e[n] = rd_page(n, LOOM_BSUP_EUREKAS) + 1;
		want_d[n] = rd_page(n, LOOM_BSUP_COMPLETIONS) + 1;
	}
	op(src, eur_op);
	if (!wait_all(LOOM_BSUP_EUREKAS, want_e)) {
		snprintf(why, len, "eureka from card %u did not reach every card", src);
		return false;
	}
	for (unsigned int n = 0; n < N; n++) {
		uint32_t st = rd_page(n, LOOM_BSUP_STATE);

		if (rd_page(n, LOOM_BSUP_EUREKAS) != want_e[n] ||
		    st != (n == src && eur_op == LOOM_BSU_OP_EUR_B ? LOOM_BSU_S_ARM : LOOM_BSU_S_EUR)) {
			snprintf(why, len, "eureka from card %u: card %u in state %u with %u eurekas",
				 src, n, st, rd_page(n, LOOM_BSUP_EUREKAS));
			return false;
		}
	}
	for (unsigned int n = 0; n < N; n++)
		if (n != src || eur_op != LOOM_BSU_OP_EUR_B)
			op(n, LOOM_BSU_OP_BAR);
	if (!wait_all(LOOM_BSUP_COMPLETIONS, want_d)) {
		snprintf(why, len, "the barrier after the eureka from card %u did not complete", src);
		return false;
	}
	for (unsigned int n = 0; n < N; n++)
		if (rd_page(n, LOOM_BSUP_STATE) != LOOM_BSU_S_BAR) {
			snprintf(why, len, "after the eureka from card %u: card %u in state %u", src, n,
				 rd_page(n, LOOM_BSUP_STATE));
			return false;
		}
	return true;
}

int main(void)
{
	unsigned int rounds = ROUNDS, done = 0;
	char why[256] = "";
	bool ok, alive = true;
	uint32_t bad = 0;
	uint64_t t0;

	if (getenv("LOOM_BSU_ROUNDS"))
		rounds = (unsigned int)strtoul(getenv("LOOM_BSU_ROUNDS"), NULL, 10);
	tap_plan(5);
	ok = fabric_init(&f, 240) == 0 && start_torus() == 0;
	if (!tap_ok(ok, "2x2x2 torus of 8 cards (6 ports each) started, all 48 port ends up")) {
		for (unsigned int n = 0; n < N; n++)
			fabric_dump_log(&f, n);
		fabric_stop();
		return 1;
	}
	tap_ok(configure_tree() == 0, "spanning tree rooted at node 0 written to every card's tree registers");

	t0 = fh_now_ms();
	ok = true;
	for (done = 0; done < rounds && ok; done++)
		ok = barrier_round(done, why, sizeof(why));
	if (!ok)
		for (unsigned int n = 0; n < N; n++)
			tap_diag("card %u: state %u op %u completions %u eurekas %u illegal %u arrived 0x%x flags 0x%x bad %u",
				 n, rd_page(n, LOOM_BSUP_STATE), rd_page(n, LOOM_BSUP_OP),
				 rd_page(n, LOOM_BSUP_COMPLETIONS), rd_page(n, LOOM_BSUP_EUREKAS),
				 rd_page(n, LOOM_BSUP_ILLEGAL), fh_rd32(&f.fh[n], tree(n, LOOM_BSUT_ARRIVED)),
				 fh_rd32(&f.fh[n], tree(n, LOOM_BSUT_FLAGS)),
				 fh_rd32(&f.fh[n], bsu_blk[n] + LOOM_BSU_BAD_PKTS));
	tap_ok(ok, "%u barrier rounds across 8 cards: each completes exactly once, everywhere, never early%s%s",
	       done, ok ? "" : ": ", why);
	tap_diag("%u rounds in %llu ms (%.1f us per barrier)", done,
		 (unsigned long long)(fh_now_ms() - t0),
		 done ? (double)(fh_now_ms() - t0) * 1000.0 / done : 0.0);

	ok = true;
	for (unsigned int src = 0; src < N && ok; src++)
		ok = eureka_from(src, LOOM_BSU_OP_EUR, why, sizeof(why)) &&
		     eureka_from(src, LOOM_BSU_OP_EUR_B, why, sizeof(why));
	tap_ok(ok, "eureka (OP_EUR and OP_EUR_B) from each card reaches all 8, the barrier after it completes%s%s",
	       ok ? "" : ": ", why);

	for (unsigned int n = 0; n < N; n++) {
		bad += fh_rd32(&f.fh[n], bsu_blk[n] + LOOM_BSU_BAD_PKTS) +
		       rd_page(n, LOOM_BSUP_ILLEGAL);
		if (!fabric_card_alive(&f, n)) {
			alive = false;
			fabric_dump_log(&f, n);
		}
	}
	tap_ok(alive && !bad, "every card alive, no barrier packet dropped, no op refused (%u)", bad);
	fabric_stop();
	return tap.failed ? 1 : 0;
}
