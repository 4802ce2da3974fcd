// SPDX-License-Identifier: GPL-2.0
/*
 * Native test of the card-wide drop counters by cause (COUNTERS block
 * DROP_NO_ROUTE, DROP_HOP_LIMIT, DROP_MALFORMED) on every path, each
 * checked to move by exactly the packets dropped, and of what the sender
 * is told.
 *
 * Two cards cabled as a ring (card 0 port 0 <-> card 1 port 1, card 0
 * port 1 <-> card 1 port 0), the drops provoked by the host of card 0:
 * 1. a put to a node without a routing entry: refused at injection
 *    before it is segmented, NO_ROUTE +1 (its first packet), one LOCAL
 *    completion UNREACHABLE;
 * 2. a route on card 0 but none on card 1: dropped in transit at card 1,
 *    its NO_ROUTE +1 per packet, UNREACHABLE at the sender;
 * 3. a routing loop (each card routes the node to the other): the packets
 *    circle until LOOM_PKT_MAX_HOPS, HOP_LIMIT +1 per packet (on whichever
 *    card stops them), UNREACHABLE at the sender.
 * Then the test itself is card 0's cable peer (peer.h), node 5:
 * 4. a request for a node without a route: NO_ROUTE +1, the test gets a
 *    PUT_ACK with status UNREACHABLE;
 * 5. a request arriving with hops = LOOM_PKT_MAX_HOPS: HOP_LIMIT +1,
 *    PUT_ACK UNREACHABLE;
 * 6. malformed packets: a header length disagreeing with the frame, a body
 *    shorter than a packet header, a request on a response VC: MALFORMED
 *    +3 and port DROPS +3, nothing answered (their headers are not to be
 *    trusted), and a clean put afterwards still lands and is acked OK.
 */
#include "card.h"
#include "fabric.h"
#include "peer.h"
#include "tap.h"

#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX		1
#define KEY		0xd509000u	/* one partition: every context */
#define SEG		(64u << 10)
#define NOWHERE		9	/* a node no card has a route for, at first */
#define PEER_NODE	5
#define PEER_PORT	1
#define PKTS		3	/* packets of the multi-packet puts */

static struct fabric f;
static struct peer peer;
static unsigned int other_acks;	/* PUT_ACKs for an op not waited for */

static uint32_t drops(unsigned int card, uint32_t cause)
{
	return fh_rd32(&f.fh[card], CARD_OFF_COUNTERS + cause);
}

static void set_route(unsigned int card, unsigned int dst, unsigned int port)
{
	struct fakehost *fh = &f.fh[card];

	fh_wr32(fh, CARD_OFF_ROUTER + LOOM_ROUTER_RT + 8 * dst + 4, dst);
	fh_wr32(fh, CARD_OFF_ROUTER + LOOM_ROUTER_RT + 8 * dst, LOOM_RT_W0_VALID | port);
	fh_kick(fh, LOOM_KICK_ADMIN);
}

/*
 * Put @len bytes to NOWHERE; true if exactly one LOCAL completion came,
 * with @want, and nothing else within a moment.
 */
static bool put_once(struct fh_ctx *c, uint32_t len, uint64_t tag, uint8_t want)
{
	struct loom_cmd cmd = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX,
		.dst_node = NOWHERE, .tag = tag, .length = len,
	};
	struct loom_cqe e, extra;
	bool ok;

	if (!fh_submit(c, &cmd))
		return false;
	ok = fh_wait_cqe(c, &e, 15000) == 1;
	if (ok)
		tap_diag("put %llu: LOCAL status %u value %llu", (unsigned long long)tag, e.status,
			 (unsigned long long)e.value);
	return ok && e.kind == LOOM_CQE_LOCAL && e.tag == tag && e.status == want &&
	       fh_wait_cqe(c, &extra, 200) == 0;
}

static void host_paths(void)
{
	struct fh_ctx c0;
	uint32_t nr0, nr1, hl;
	bool ok;

	ok = fabric_start_ring(&f, 2) == 0 &&
	     fh_ctx_create(&f.fh[0], &c0, CTX, KEY, 4, 6, SEG) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "two cards cabled as a ring, links up, context %u on card 0", CTX)) {
		for (int k = 0; k < 3; k++)
			tap_ok(0, "skipped: no fabric");
		return;
	}
	nr0 = drops(0, LOOM_CNT_DROP_NO_ROUTE);
	ok = put_once(&c0, PKTS * LOOM_PKT_MAX_PAYLOAD, 1, LOOM_CQE_ST_UNREACHABLE);
	tap_ok(ok && drops(0, LOOM_CNT_DROP_NO_ROUTE) - nr0 == 1,
	       "host injection, no routing entry: UNREACHABLE once, card 0 DROP_NO_ROUTE +1 (+%u)",
	       drops(0, LOOM_CNT_DROP_NO_ROUTE) - nr0);

	set_route(0, NOWHERE, 0);
	nr0 = drops(0, LOOM_CNT_DROP_NO_ROUTE);
	nr1 = drops(1, LOOM_CNT_DROP_NO_ROUTE);
	ok = put_once(&c0, PKTS * LOOM_PKT_MAX_PAYLOAD, 2, LOOM_CQE_ST_UNREACHABLE);
	tap_ok(ok && drops(1, LOOM_CNT_DROP_NO_ROUTE) - nr1 == PKTS &&
	       drops(0, LOOM_CNT_DROP_NO_ROUTE) == nr0,
	       "in transit, no entry at card 1: UNREACHABLE once, card 1 DROP_NO_ROUTE +%u (+%u), card 0 +0",
	       PKTS, drops(1, LOOM_CNT_DROP_NO_ROUTE) - nr1);

	set_route(1, NOWHERE, 1);	/* back to card 0's port 0: a loop */
	hl = drops(0, LOOM_CNT_DROP_HOP_LIMIT) + drops(1, LOOM_CNT_DROP_HOP_LIMIT);
	ok = put_once(&c0, 100, 3, LOOM_CQE_ST_UNREACHABLE);
	hl = drops(0, LOOM_CNT_DROP_HOP_LIMIT) + drops(1, LOOM_CNT_DROP_HOP_LIMIT) - hl;
	tap_ok(ok && hl == 1,
	       "routing loop between the cards: cut at %d hops, DROP_HOP_LIMIT +1 (+%u), UNREACHABLE once",
	       LOOM_PKT_MAX_HOPS, hl);
}

/* The next PUT_ACK for op @op_id from the card within 5 s: its status, or -1. */
static int read_ack(uint16_t op_id)
{
	uint64_t deadline = fh_now_ms() + 5000;
	struct link_frame fr;

	while (fh_now_ms() < deadline) {
		struct loom_pkt_hdr h;

		if (peer_recv(&peer, &fr, 100) != 1 || fr.hdr.type != LOOM_FRAME_DATA)
			continue;
		memcpy(&h, fr.body, sizeof(h));
		if (h.type == LOOM_PKT_PUT_ACK && h.dst_node == PEER_NODE && h.op_id == op_id)
			return h.status;
		other_acks++;
		tap_diag("unexpected packet type %u op %u status %u", h.type, h.op_id, h.status);
	}
	return -1;
}

static struct loom_pkt_hdr peer_put(uint16_t dst, uint16_t op_id, uint16_t len)
{
	struct loom_pkt_hdr h = {
		.type = LOOM_PKT_PUT, .class = LOOM_CLASS_REQ, .len = len,
		.src_node = PEER_NODE, .dst_node = dst, .src_ctx = 3, .dst_ctx = CTX,
		.key = KEY, .offset = 0x1000, .op_id = op_id, .op_len = len, .aux = 0x1000,
	};

	return h;
}

static void cable_paths(void)
{
	struct fakehost *fh = &f.fh[0];
	uint8_t payload[LOOM_PKT_MAX_PAYLOAD], frame[LOOM_FRAME_MAX];
	struct loom_pkt_hdr h;
	struct fh_ctx c0;
	uint32_t before, mal, pdrops;
	int st;
	bool ok;

	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i * 7 + 1);
	ok = peer_start(&f, &peer, PEER_NODE, PEER_PORT, "5=0") == 0 &&
	     fh_ctx_create(fh, &c0, CTX, KEY, 4, 6, SEG) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "card 0 cabled to the test (node %d), link trained, context %u", PEER_NODE,
		    CTX)) {
		for (int k = 0; k < 4; k++)
			tap_ok(0, "skipped: no cable peer");
		return;
	}
	before = drops(0, LOOM_CNT_DROP_NO_ROUTE);
	h = peer_put(NOWHERE, 41, 64);
	st = peer_send_packet(&peer, &h, payload, 64) == 0 ? read_ack(41) : -2;
	tap_ok(st == LOOM_CQE_ST_UNREACHABLE && drops(0, LOOM_CNT_DROP_NO_ROUTE) - before == 1,
	       "from the cable, no routing entry: DROP_NO_ROUTE +1 (+%u), PUT_ACK UNREACHABLE (%d)",
	       drops(0, LOOM_CNT_DROP_NO_ROUTE) - before, st);

	before = drops(0, LOOM_CNT_DROP_HOP_LIMIT);
	h = peer_put(0, 42, 64);
	h.hops = LOOM_PKT_MAX_HOPS;
	st = peer_send_packet(&peer, &h, payload, 64) == 0 ? read_ack(42) : -2;
	tap_ok(st == LOOM_CQE_ST_UNREACHABLE && drops(0, LOOM_CNT_DROP_HOP_LIMIT) - before == 1,
	       "from the cable, hops = %d: DROP_HOP_LIMIT +1 (+%u), PUT_ACK UNREACHABLE (%d)",
	       LOOM_PKT_MAX_HOPS, drops(0, LOOM_CNT_DROP_HOP_LIMIT) - before, st);

	mal = drops(0, LOOM_CNT_DROP_MALFORMED);
	pdrops = fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_DROPS));
	h = peer_put(0, 43, 100);		/* says 100, carries 256 */
	ok = peer_send(&peer, frame, peer_frame(&peer, &h, payload, sizeof(payload), frame)) == 0;
	h = peer_put(0, 44, 0);			/* 10 bytes: not even a header */
	ok &= peer_send(&peer, frame, peer_frame_raw(&peer, LOOM_VC_REQ0, &h, 10, NULL, 0, frame)) == 0;
	h = peer_put(0, 45, 64);		/* a request on a response VC */
	ok &= peer_send(&peer, frame,
			peer_frame_raw(&peer, LOOM_VC_RESP0, &h, sizeof(h), payload, 64, frame)) == 0;
	h = peer_put(0, 46, 64);		/* and a clean one */
	ok &= peer_send_packet(&peer, &h, payload, 64) == 0;
	st = ok ? read_ack(46) : -2;
	usleep(100000);
	tap_ok(ok && drops(0, LOOM_CNT_DROP_MALFORMED) - mal == 3 &&
	       fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_DROPS)) - pdrops == 3,
	       "bad length, short body, request on a response VC: DROP_MALFORMED +3 (+%u), port DROPS +3 (+%u)",
	       drops(0, LOOM_CNT_DROP_MALFORMED) - mal,
	       fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_DROPS)) - pdrops);
	tap_ok(st == LOOM_CQE_ST_OK && !other_acks && !memcmp(c0.segp + 0x1000, payload, 64) &&
	       fabric_card_alive(&f, 0),
	       "the malformed packets got no answer; the clean put after them landed and was acked OK (%d)",
	       st);
	peer_close(&peer);
}

int main(void)
{
	tap_plan(9);
	if (fabric_init(&f, 90))
		return 1;
	/* bad input reaching the card: run the card built with the sanitizers */
	f.sanitized_card = true;
	host_paths();
	if (tap.failed)
		for (unsigned int i = 0; i < 2; i++)
			fabric_dump_log(&f, i);
	fabric_stop();
	if (fabric_init(&f, 60))
		return 1;
	f.sanitized_card = true;
	cable_paths();
	if (tap.failed)
		fabric_dump_log(&f, 0);
	fabric_stop();
	return tap_exit_status();
}
