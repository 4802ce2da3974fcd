// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test of the maintenance network: a 2x2x2 torus of 8 cards
 * whose routing tables know nothing but their own node.  From card 0:
 * discover every card by a breadth-first search over directed routes
 * (PORT_PEER_NODE read by maintenance, as the fabric manager does), write
 * a routing entry on a remote card and read it back, lose packets on a
 * nonexistent and on a down port (no response, MAINT_LOST counted where
 * they died), refuse bad addresses, read-only registers, bad ops and
 * over-long routes, and survive a burst from two cards toward one target:
 * responses may be lost, none is corrupted or unasked for, and every loss
 * is counted; with bit errors on a cable, corrupted maintenance frames are
 * lost and never delivered, and retries get every answer right.
 */
#include "fabric.h"
#include "tap.h"

#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define NDIMS		3
#define NCARDS		(1u << NDIMS)
#define NPORTS		(2 * NDIMS)
#define WAIT_MS		300	/* per attempt: the fabric answers in ~1 ms */
#define ATTEMPTS	4
#define BURST		150	/* requests per card in the burst */

struct route {
	uint8_t len;
	uint8_t port[LOOM_MAINT_MAX_HOPS];
};

struct resp {
	uint32_t seq, status, value, node;
};

static struct fabric f;
static uint32_t off_maint, off_router, off_ports, off_counters;
static uint32_t next_seq[NCARDS];
static uint32_t resp_ci[NCARDS];

static uint32_t mreg(uint32_t field)
{
	return off_maint + field;
}

static int find_blocks(struct fakehost *fh)
{
	uint32_t off = 0;

	for (int n = 0; n < LOOM_BLK_MAX_CHAIN; n++) {
		uint32_t type = fh_rd32(fh, off + LOOM_BLK_TYPE);

		if (type == LOOM_BLK_MAINT)
			off_maint = off;
		else if (type == LOOM_BLK_ROUTER)
			off_router = off;
		else if (type == LOOM_BLK_PORTS)
			off_ports = off;
		else if (type == LOOM_BLK_COUNTERS)
			off_counters = off;
		off = fh_rd32(fh, off + LOOM_BLK_NEXT);
		if (!off || off >= fh->regs_size)
			break;
	}
	return off_maint && off_router && off_ports && off_counters ? 0 : -1;
}

static uint32_t port_reg(unsigned int port, uint32_t field)
{
	return off_ports + LOOM_PORTS_BASE + port * LOOM_PORT_REC_SIZE + field;
}

static uint32_t lost(unsigned int card)
{
	return fh_rd32(&f.fh[card], off_counters + LOOM_CNT_MAINT_LOST);
}

/* Post one request from @card's mailbox; wait for REQ_ACK.  Its seq or 0. */
static uint32_t issue_raw(unsigned int card, uint32_t op, uint32_t addr, uint32_t value,
			  uint32_t route_len, const uint8_t *route)
{
	struct fakehost *fh = &f.fh[card];
	uint8_t r[LOOM_MAINT_MAX_HOPS] = { 0 };
	uint32_t seq = ++next_seq[card];
	uint64_t deadline = fh_now_ms() + 2000;

	if (route)
		memcpy(r, route, route_len < sizeof(r) ? route_len : sizeof(r));
	fh_wr32(fh, mreg(LOOM_MAINT_OP), op);
	fh_wr32(fh, mreg(LOOM_MAINT_ADDR), addr);
	fh_wr32(fh, mreg(LOOM_MAINT_VALUE), value);
	fh_wr32(fh, mreg(LOOM_MAINT_ROUTE_LEN), route_len);
	for (unsigned int w = 0; w < 4; w++)
		fh_wr32(fh, mreg(LOOM_MAINT_ROUTE) + 4 * w,
			(uint32_t)r[4 * w] | (uint32_t)r[4 * w + 1] << 8 |
			(uint32_t)r[4 * w + 2] << 16 | (uint32_t)r[4 * w + 3] << 24);
	fh_wr32(fh, mreg(LOOM_MAINT_REQ_SEQ), seq);
	fh_kick(fh, LOOM_KICK_ADMIN);
	while (fh_rd32(fh, mreg(LOOM_MAINT_REQ_ACK)) != seq) {
		if (fh_now_ms() > deadline) {
			tap_diag("card %u: maintenance request %u not acknowledged", card, seq);
			return 0;
		}
		usleep(200);
	}
	return seq;
}

/* Take the next response of @card's ring if there is one: 1, else 0. */
static int next_resp(unsigned int card, struct resp *r)
{
	struct fakehost *fh = &f.fh[card];
	uint32_t pi = fh_rd32(fh, mreg(LOOM_MAINT_RESP_PI)), e;

	if (pi == resp_ci[card])
		return 0;
	if (pi - resp_ci[card] > LOOM_MAINT_RESP_SLOTS) {
		tap_diag("card %u: response ring overrun (%u unread)", card, pi - resp_ci[card]);
		resp_ci[card] = pi - LOOM_MAINT_RESP_SLOTS;
	}
	e = mreg(LOOM_MAINT_RESP_BASE) + (resp_ci[card] % LOOM_MAINT_RESP_SLOTS) * LOOM_MAINT_RESP_SIZE;
	r->seq = fh_rd32(fh, e + LOOM_MAINTR_SEQ);
	r->status = fh_rd32(fh, e + LOOM_MAINTR_STATUS);
	r->value = fh_rd32(fh, e + LOOM_MAINTR_VALUE);
	r->node = fh_rd32(fh, e + LOOM_MAINTR_NODE);
	resp_ci[card]++;
	return 1;
}

/* Wait for the response to @seq; responses to other (late) seqs are skipped. */
static int wait_resp(unsigned int card, uint32_t seq, int ms, struct resp *r)
{
	uint64_t deadline = fh_now_ms() + (uint64_t)ms;
	struct pollfd pfd = { .fd = f.fh[card].irq_fd[LOOM_VEC_EVENT], .events = POLLIN };

	for (;;) {
		uint64_t n;

		while (next_resp(card, r))
			if (r->seq == seq)
				return 1;
		if (fh_now_ms() > deadline)
			return 0;
		if (poll(&pfd, 1, 20) > 0 && read(pfd.fd, &n, sizeof(n)) < 0) {
			/* drained */
		}
	}
}

/* One access with retries (a new seq each time): 1 with *r filled, 0 when lost. */
static int access_card(unsigned int card, uint32_t op, uint32_t addr, uint32_t value,
		       const struct route *rt, struct resp *r)
{
	for (int a = 0; a < ATTEMPTS; a++) {
		uint32_t seq = issue_raw(card, op, addr, value, rt->len, rt->port);

		if (seq && wait_resp(card, seq, WAIT_MS, r))
			return 1;
	}
	return 0;
}

static int read_reg(const struct route *rt, uint32_t addr, uint32_t *value)
{
	struct resp r;

	if (!access_card(0, LOOM_MAINT_OP_READ, addr, 0, rt, &r) || r.status != LOOM_MAINT_ST_OK)
		return -1;
	*value = r.value;
	return 0;
}

/* ---- the test points --------------------------------------------------- */

static struct route found[NCARDS];
static int seen[NCARDS];

static int discover(void)
{
	unsigned int queue[NCARDS], head = 0, tail = 0, count = 1, ok = 1;
	struct route self = { .len = 0 };

	memset(seen, 0, sizeof(seen));
	found[0] = self;
	seen[0] = 1;
	queue[tail++] = 0;
	while (head < tail) {
		unsigned int node = queue[head++];
		struct route *rt = &found[node];
		uint32_t id, nports;

		if (read_reg(rt, off_router + LOOM_ROUTER_NODE_ID, &id) ||
		    read_reg(rt, off_router + LOOM_ROUTER_N_PORTS, &nports)) {
			tap_diag("node %u: no answer over its route of %u hops", node, rt->len);
			return 0;
		}
		if (id != node || nports != NPORTS) {
			tap_diag("node %u reports NODE_ID %u N_PORTS %u", node, id, nports);
			ok = 0;
		}
		for (unsigned int p = 0; p < nports && p < LOOM_MAX_PORTS; p++) {
			uint32_t st, peer;

			if (read_reg(rt, port_reg(p, LOOM_PORT_STATUS), &st) ||
			    read_reg(rt, port_reg(p, LOOM_PORT_PEER_NODE), &peer))
				return 0;
			if (!(st & LOOM_PORT_ST_UP) || peer >= NCARDS || seen[peer])
				continue;
			if (peer != (node ^ (1u << (p / 2)))) {
				tap_diag("node %u port %u: peer %u, cabled to %u", node, p, peer,
					 node ^ (1u << (p / 2)));
				ok = 0;
			}
			seen[peer] = 1;
			found[peer] = *rt;
			found[peer].port[found[peer].len++] = (uint8_t)p;
			queue[tail++] = peer;
			count++;
		}
	}
	if (count != NCARDS)
		tap_diag("discovered %u of %u cards", count, NCARDS);
	return ok && count == NCARDS;
}

static void test_local(void)
{
	struct route self = { .len = 0 };
	struct pollfd pfd = { .fd = f.fh[0].irq_fd[LOOM_VEC_EVENT], .events = POLLIN };
	uint64_t n;
	struct resp r;
	int ok;

	while (poll(&pfd, 1, 0) > 0 && read(pfd.fd, &n, sizeof(n)) > 0)
		;
	ok = access_card(0, LOOM_MAINT_OP_READ, off_router + LOOM_ROUTER_NODE_ID, 0, &self, &r);
	ok = ok && r.status == LOOM_MAINT_ST_OK && r.value == 0 && r.node == 0;
	tap_ok(ok, "route of 0 hops reads this card's NODE_ID");
	tap_ok(poll(&pfd, 1, 1000) == 1, "the response raised LOOM_VEC_EVENT");
}

static void test_write_remote(void)
{
	struct route *rt = &found[7];
	uint32_t entry = off_router + LOOM_ROUTER_RT + 5 * LOOM_ROUTER_RT_ENTRY_SIZE;
	uint32_t w0 = LOOM_RT_W0_VALID | 3, back = 0;
	struct resp r;
	int ok;

	ok = access_card(0, LOOM_MAINT_OP_WRITE, entry, w0, rt, &r) &&
	     r.status == LOOM_MAINT_ST_OK && r.node == 7 && r.value == w0;
	ok = ok && !read_reg(rt, entry, &back) && back == w0;
	tap_ok(ok && fh_rd32(&f.fh[7], entry) == w0,
	       "write routing entry 5 of card 7 over %u hops, read it back (0x%08x)", rt->len,
	       back);
	ok = access_card(0, LOOM_MAINT_OP_WRITE, off_router + LOOM_ROUTER_LOGICAL_ID, 77, rt, &r) &&
	     r.status == LOOM_MAINT_ST_OK;
	ok = ok && fh_rd32(&f.fh[7], off_router + LOOM_ROUTER_LOGICAL_ID) == 77;
	ok = ok && access_card(0, LOOM_MAINT_OP_WRITE, off_router + LOOM_ROUTER_LOGICAL_ID, 7, rt,
			       &r) && r.status == LOOM_MAINT_ST_OK;
	tap_ok(ok, "a remote LOGICAL_ID write takes effect at once");
}

static void test_lost(void)
{
	uint8_t bad_port[1] = { NPORTS + 1 };
	uint8_t via_bad[2] = { 0, 9 };
	uint8_t via_cut[2] = { 0, 4 };
	uint32_t l0 = lost(0), l1 = lost(1);
	char reply[256];
	struct resp r;
	uint32_t seq;

	seq = issue_raw(0, LOOM_MAINT_OP_READ, off_router + LOOM_ROUTER_NODE_ID, 0, 1, bad_port);
	tap_ok(seq && !wait_resp(0, seq, WAIT_MS, &r) && lost(0) == l0 + 1,
	       "route through nonexistent port %u of card 0: no response, lost and counted there",
	       bad_port[0]);
	seq = issue_raw(0, LOOM_MAINT_OP_READ, off_router + LOOM_ROUTER_NODE_ID, 0, 2, via_bad);
	tap_ok(seq && !wait_resp(0, seq, WAIT_MS, &r) && lost(1) == l1 + 1,
	       "nonexistent port one hop away: lost and counted on card 1");

	if (fabric_ctl(&f, 1, "cut 4", reply, sizeof(reply)) || strncmp(reply, "ok", 2)) {
		tap_ok(0, "cut port 4 of card 1 (%s)", reply);
		return;
	}
	while (fh_rd32(&f.fh[1], port_reg(4, LOOM_PORT_STATUS)) & LOOM_PORT_ST_UP)
		usleep(1000);
	l1 = lost(1);
	seq = issue_raw(0, LOOM_MAINT_OP_READ, off_router + LOOM_ROUTER_NODE_ID, 0, 2, via_cut);
	tap_ok(seq && !wait_resp(0, seq, WAIT_MS, &r) && lost(1) == l1 + 1,
	       "route over a down port (card 1 port 4, cut): lost and counted on card 1");
	if (!fabric_ctl(&f, 1, "restore 4", reply, sizeof(reply)))
		fabric_wait_link(&f, 1, 4, 10000);
}

static void test_refused(void)
{
	struct route *rt = &found[6];
	uint32_t node_id = off_router + LOOM_ROUTER_NODE_ID;
	uint8_t long_route[LOOM_MAINT_MAX_HOPS + 1] = { 0 };
	struct resp r;
	uint32_t seq;
	int ok;

	ok = access_card(0, LOOM_MAINT_OP_READ, node_id + 1, 0, rt, &r) &&
	     r.status == LOOM_MAINT_ST_BAD_ADDR && r.node == 6;
	ok = ok && access_card(0, LOOM_MAINT_OP_READ, (uint32_t)f.fh[6].regs_size, 0, rt, &r) &&
	     r.status == LOOM_MAINT_ST_BAD_ADDR;
	ok = ok && access_card(0, LOOM_MAINT_OP_WRITE, 0xfffffffc, 1, rt, &r) &&
	     r.status == LOOM_MAINT_ST_BAD_ADDR;
	tap_ok(ok, "unaligned and outside addresses on card 6: BAD_ADDR");

	ok = access_card(0, LOOM_MAINT_OP_WRITE, node_id, 99, rt, &r) &&
	     r.status == LOOM_MAINT_ST_READ_ONLY;
	ok = ok && access_card(0, LOOM_MAINT_OP_WRITE, LOOM_FWID_MAGIC, 0, rt, &r) &&
	     r.status == LOOM_MAINT_ST_READ_ONLY;
	ok = ok && access_card(0, LOOM_MAINT_OP_WRITE, port_reg(0, LOOM_PORT_STATUS), 0, rt, &r) &&
	     r.status == LOOM_MAINT_ST_READ_ONLY;
	ok = ok && access_card(0, LOOM_MAINT_OP_WRITE, port_reg(0, LOOM_PORT_CTRL), 0, rt, &r) &&
	     r.status == LOOM_MAINT_ST_OK;
	tap_ok(ok && fh_rd32(&f.fh[6], node_id) == 6 &&
	       fh_rd32(&f.fh[6], LOOM_FWID_MAGIC) == LOOM_MAGIC,
	       "NODE_ID, firmware id and port STATUS are READ_ONLY and unchanged; port CTRL is writable");

	seq = issue_raw(0, 7, node_id, 0, rt->len, rt->port);
	ok = seq && wait_resp(0, seq, WAIT_MS, &r) && r.status == LOOM_MAINT_ST_BAD_OP &&
	     r.node == 0;
	seq = issue_raw(0, LOOM_MAINT_OP_READ, node_id, 0, sizeof(long_route), long_route);
	ok = ok && seq && wait_resp(0, seq, WAIT_MS, &r) && r.status == LOOM_MAINT_ST_BAD_OP;
	tap_ok(ok, "bad op and a route of %zu hops: BAD_OP from the requester's own card",
	       sizeof(long_route));
}

/* Cards 0 and 3 fire BURST reads each at card 7 without waiting for answers. */
static void test_burst(void)
{
	static uint8_t asked[2][BURST + 64];
	const unsigned int src[2] = { 0, 3 };
	struct route rt[2] = { found[7], found[7] };
	uint32_t first[2], lost_before = 0, lost_after = 0, got[2] = { 0, 0 };
	unsigned int bad = 0;
	struct resp r;

	/* card 3's route to 7: one hop along dimension 2 */
	rt[1].len = 1;
	rt[1].port[0] = 4;
	for (unsigned int i = 0; i < NCARDS; i++)
		lost_before += lost(i);
	memset(asked, 0, sizeof(asked));
	for (int s = 0; s < 2; s++)
		first[s] = next_seq[src[s]] + 1;
	for (unsigned int k = 0; k < BURST; k++) {
		for (int s = 0; s < 2; s++) {
			uint32_t addr = port_reg(k % NPORTS, LOOM_PORT_PEER_NODE);

			if (!issue_raw(src[s], LOOM_MAINT_OP_READ, addr, 0, rt[s].len, rt[s].port))
				bad++;
			asked[s][k] = 1;
			while (next_resp(src[s], &r)) {
				uint32_t i = r.seq - first[s];

				if (i >= BURST || !asked[s][i] || asked[s][i] == 2 ||
				    r.status != LOOM_MAINT_ST_OK || r.node != 7 ||
				    r.value != fh_rd32(&f.fh[7], port_reg(i % NPORTS, LOOM_PORT_PEER_NODE))) {
					tap_diag("card %u: bad response seq %u status %u node %u value %u",
						 src[s], r.seq, r.status, r.node, r.value);
					bad++;
					continue;
				}
				asked[s][i] = 2;
				got[s]++;
			}
		}
	}
	/* the stragglers: until every request is answered or counted lost */
	for (uint64_t deadline = fh_now_ms() + 5000;;) {
		for (int s = 0; s < 2; s++)
			while (next_resp(src[s], &r)) {
				uint32_t i = r.seq - first[s];

				if (i >= BURST || asked[s][i] != 1 || r.status != LOOM_MAINT_ST_OK ||
				    r.value != fh_rd32(&f.fh[7],
						       port_reg(i % NPORTS, LOOM_PORT_PEER_NODE))) {
					bad++;
					continue;
				}
				asked[s][i] = 2;
				got[s]++;
			}
		lost_after = 0;
		for (unsigned int i = 0; i < NCARDS; i++)
			lost_after += lost(i);
		if (lost_after - lost_before + got[0] + got[1] >= 2 * BURST ||
		    fh_now_ms() > deadline)
			break;
		usleep(10000);
	}
	tap_diag("burst: card 0 got %u/%u, card 3 got %u/%u responses, %u lost on the way",
		 got[0], BURST, got[1], BURST, lost_after - lost_before);
	tap_ok(!bad && got[0] > 0 && got[1] > 0,
	       "burst from two cards toward card 7: every response answers a request of its card, once, with the right value");
	tap_ok(lost_after - lost_before == 2 * BURST - got[0] - got[1],
	       "every missing response is counted in MAINT_LOST somewhere (%u)",
	       lost_after - lost_before);
}

/* Bit errors on the cable between cards 0 and 1: corrupted maintenance
 * frames are lost, never delivered; retries get every answer right.
 */
static void test_ber(void)
{
	struct route to1 = { .len = 1, .port = { 0 } };
	uint32_t crc_before = fh_rd32(&f.fh[1], port_reg(1, LOOM_PORT_CRC_ERRORS)) +
			      fh_rd32(&f.fh[0], port_reg(0, LOOM_PORT_CRC_ERRORS));
	unsigned int wrong = 0, unanswered = 0, extra = 0;
	char reply[256];
	struct resp r;

	if (fabric_ctl(&f, 0, "ber 0 0.0003", reply, sizeof(reply)) || strncmp(reply, "ok", 2) ||
	    fabric_ctl(&f, 1, "ber 1 0.0003", reply, sizeof(reply)) || strncmp(reply, "ok", 2)) {
		tap_ok(0, "bit errors on the cable between cards 0 and 1 (%s)", reply);
		return;
	}
	for (unsigned int k = 0; k < 60; k++) {
		uint32_t addr = port_reg(k % NPORTS, LOOM_PORT_PEER_NODE);
		int got = 0;

		for (int a = 0; a < 12 && !got; a++) {
			uint32_t seq = issue_raw(0, LOOM_MAINT_OP_READ, addr, 0, to1.len, to1.port);

			got = seq && wait_resp(0, seq, 100, &r);
			extra += a > 0;
		}
		if (!got)
			unanswered++;
		else if (r.status != LOOM_MAINT_ST_OK || r.node != 1 ||
			 r.value != fh_rd32(&f.fh[1], addr))
			wrong++;
	}
	fabric_ctl(&f, 0, "ber 0 0", reply, sizeof(reply));
	fabric_ctl(&f, 1, "ber 1 0", reply, sizeof(reply));
	tap_diag("ber: %u retries, %u CRC errors", extra,
		 fh_rd32(&f.fh[1], port_reg(1, LOOM_PORT_CRC_ERRORS)) +
		 fh_rd32(&f.fh[0], port_reg(0, LOOM_PORT_CRC_ERRORS)) - crc_before);
	tap_ok(!wrong && !unanswered &&
	       fh_rd32(&f.fh[1], port_reg(1, LOOM_PORT_CRC_ERRORS)) +
	       fh_rd32(&f.fh[0], port_reg(0, LOOM_PORT_CRC_ERRORS)) > crc_before,
	       "bit errors on the cable: corrupted frames are lost, 60 reads answered right with retries (%u wrong, %u unanswered)",
	       wrong, unanswered);
}

int main(void)
{
	tap_plan(15);
	if (fabric_init(&f, 120))
		return 1;
	/* bad maintenance requests reach the cards: the cards built with the sanitizers */
	f.sanitized_card = true;
	if (fabric_start_torus2(&f, NDIMS) || find_blocks(&f.fh[0])) {
		tap_ok(0, "2x2x2 torus of 8 cards with no routes up");
		for (unsigned int i = 0; i < NCARDS; i++)
			fabric_dump_log(&f, i);
		return 1;
	}
	tap_ok(1, "2x2x2 torus of 8 cards with no routes up");
	for (unsigned int i = 0; i < NCARDS; i++) {
		next_seq[i] = fh_rd32(&f.fh[i], mreg(LOOM_MAINT_REQ_ACK));
		resp_ci[i] = fh_rd32(&f.fh[i], mreg(LOOM_MAINT_RESP_PI));
	}
	test_local();
	if (!tap_ok(discover(), "BFS over PORT_PEER_NODE from card 0 finds all 8 cards with the right NODE_ID and N_PORTS")) {
		for (unsigned int i = 0; i < NCARDS; i++)
			fabric_dump_log(&f, i);
		return 1;
	}
	test_write_remote();
	test_lost();
	test_refused();
	test_burst();
	test_ber();
	if (tap.failed)
		for (unsigned int i = 0; i < NCARDS; i++)
			fabric_dump_log(&f, i);
	fabric_stop();
	return tap_exit_status();
}
