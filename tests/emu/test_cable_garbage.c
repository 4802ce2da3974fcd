// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test: the test is the far end of a card's cable.  It
 * trains the link, then sends junk, valid PUT frames, a corrupted copy of
 * the next frame, an oversize header, more junk and the frames after the
 * corrupted one.  The card must count the framing errors, NAK once per
 * episode, discard the frames that follow a loss until the test replays
 * from the lost one (go-back-N), deliver every valid packet exactly once
 * and byte-exact, ack each with status OK, post the arrival, drop a packet
 * whose length does not match its frame, and keep running.
 */
#include "fabric.h"
#include "link.h"
#include "peer.h"
#include "tap.h"

#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX		1
#define KEY		0x600d600du
#define PEER_NODE	5
#define PEER_PORT	1
#define NPKT		8
#define BASE		0x3000u

static struct fabric f;
static struct peer peer;

/* Frame i (sequence number i) carries packet i of the operation. */
static size_t put_frame(uint8_t *out, unsigned int i, uint16_t len_field, const uint8_t *payload)
{
	struct loom_pkt_hdr h = {
		.type = LOOM_PKT_PUT, .class = LOOM_CLASS_REQ, .len = len_field,
		.src_node = PEER_NODE, .dst_node = 0, .src_ctx = 3, .dst_ctx = CTX, .key = KEY,
		.offset = BASE + i * LOOM_PKT_MAX_PAYLOAD, .op_id = 42,
		.flags = LOOM_PKT_F_REMOTE_CQE, .op_len = NPKT * LOOM_PKT_MAX_PAYLOAD, .aux = BASE,
	};

	return peer_frame(&peer, &h, payload, LOOM_PKT_MAX_PAYLOAD, out);
}

/* Read frames from the card for up to @ms; count PUT_ACKs with status OK. */
static void read_acks(int ms, int *acks_ok, int *acks_bad)
{
	uint64_t deadline = fh_now_ms() + (uint64_t)ms;
	struct link_frame fr;

	while (*acks_ok + *acks_bad < NPKT && fh_now_ms() < deadline) {
		struct loom_pkt_hdr h;

		if (peer_recv(&peer, &fr, 100) != 1 || fr.hdr.type != LOOM_FRAME_DATA)
			continue;	/* the peer answers NAKs itself */
		memcpy(&h, fr.body, sizeof(h));
		if (fr.hdr.type == LOOM_FRAME_DATA && h.type == LOOM_PKT_PUT_ACK &&
		    h.status == LOOM_CQE_ST_OK && h.dst_node == PEER_NODE && h.op_id == 42)
			(*acks_ok)++;
		else
			(*acks_bad)++;
	}
}

int main(void)
{
	struct fh_ctx ctx;
	struct fakehost *fh = &f.fh[0];
	uint8_t payload[NPKT][LOOM_PKT_MAX_PAYLOAD], frame[NPKT + 1][LOOM_FRAME_MAX], junk[777];
	size_t len[NPKT + 1];
	int acks_ok = 0, acks_bad = 0, ok;
	uint32_t crc, drops, seq, naks;
	struct loom_cqe e;

	tap_plan(9);
	if (fabric_init(&f, 60))
		return 1;
	/* bad input reaching the card: run the card built with the sanitizers */
	f.sanitized_card = true;
	ok = peer_start(&f, &peer, PEER_NODE, PEER_PORT, "5=0") == 0 &&
	     fh_ctx_create(fh, &ctx, CTX, KEY, 4, 5, 64 << 10) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "card connected to the test's cable, link trained, context enabled")) {
		fabric_dump_log(&f, 0);
		return 1;
	}
	tap_ok(fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_PEER_NODE)) == PEER_NODE &&
	       fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_PEER_PORT)) == PEER_PORT &&
	       (fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_STATUS)) &
		~LOOM_PORT_ST_LANES_MASK) == (LOOM_PORT_ST_CABLED | LOOM_PORT_ST_UP),
	       "PORTS block: peer node %d port %d learnt, CABLED|UP", PEER_NODE, PEER_PORT);

	for (unsigned int i = 0; i < NPKT; i++)
		for (unsigned int b = 0; b < LOOM_PKT_MAX_PAYLOAD; b++)
			payload[i][b] = (uint8_t)(i * 31 + b * 3 + 7);
	memset(ctx.segp, 0, 64 << 10);
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 131 + 17);

	for (unsigned int i = 0; i < NPKT; i++)
		len[i] = put_frame(frame[i], i, LOOM_PKT_MAX_PAYLOAD, payload[i]);
	/* length field disagreeing with the frame: dropped, counted */
	len[NPKT] = put_frame(frame[NPKT], 0, 100, payload[0]);

	ok = peer_send(&peer, junk, sizeof(junk)) == 0;			/* episode 1: NAK */
	for (unsigned int i = 0; i < 3 && ok; i++)
		ok = peer_send(&peer, frame[i], len[i]) == 0;
	{
		uint8_t bad[LOOM_FRAME_MAX];					/* episode 2: NAK */
		struct loom_frame_hdr big = { .magic = LOOM_FRAME_MAGIC, .type = LOOM_FRAME_DATA,
					      .len = 0xffff };

		memcpy(bad, frame[3], len[3]);
		bad[100] ^= 0x20;
		ok &= peer_send(&peer, bad, len[3]) == 0;
		ok &= peer_send(&peer, &big, sizeof(big)) == 0;			/* still episode 2 */
		ok &= peer_send(&peer, junk, 100) == 0;
	}
	/* frames after the lost one: discarded until the replay (go-back-N) */
	for (unsigned int i = 4; i <= NPKT && ok; i++) {
		ok = peer_send(&peer, frame[i], len[i]) == 0;
		if (i == 5)
			ok &= peer_send(&peer, junk + 300, 50) == 0;		/* episode 3: no NAK */
	}
	tap_ok(ok, "sent junk, %d valid PUT frames, a corrupted frame, an oversize header, a bad length", NPKT);

	read_acks(10000, &acks_ok, &acks_bad);
	tap_ok(acks_ok == NPKT && acks_bad == 0,
	       "the card acked all %d valid packets with status OK (%d ok, %d other)", NPKT, acks_ok, acks_bad);
	ok = 1;
	for (unsigned int i = 0; i < NPKT; i++)
		ok &= !memcmp(ctx.segp + BASE + i * LOOM_PKT_MAX_PAYLOAD, payload[i], LOOM_PKT_MAX_PAYLOAD);
	tap_ok(ok, "every valid packet landed byte-exact in the segment");
	ok = fh_wait_cqe(&ctx, &e, 5000) == 1 && e.kind == LOOM_CQE_ARRIVAL && e.tag == BASE &&
	     e.value == NPKT * LOOM_PKT_MAX_PAYLOAD && e.src_node == PEER_NODE && e.src_ctx == 3;
	tap_ok(ok, "one ARRIVAL for the whole operation despite the garbage");
	usleep(100000);
	crc = fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_CRC_ERRORS));
	drops = fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_DROPS));
	seq = fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_SEQ_ERRORS));
	naks = fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_NAKS_SENT));
	/* episodes: junk; corrupted frame + oversize header + junk (no good frame between); junk */
	tap_ok(crc == 3 && drops == 1 && seq == 5,
	       "CRC_ERRORS counts the 3 error episodes (%u), SEQ_ERRORS the 5 frames after the loss (%u), DROPS the bad-length packet (%u)",
	       crc, seq, drops);
	/*
	 * Episode 1's NAK is withdrawn when the expected frame arrives before
	 * it leaves: the junk and the frames after it may reach the card in
	 * one read and be checked in the same cycle.  Episode 2's never is.
	 */
	tap_ok(naks >= 1 && naks <= 2 && peer.naks == naks && peer.resent > 0,
	       "at most one NAK per recovery episode, the lost frame's at least: %u sent, %u received, %u frames replayed by the test",
	       naks, peer.naks, peer.resent);
	tap_ok(fabric_card_alive(&f, 0), "the card is still running");
	if (tap.failed)
		fabric_dump_log(&f, 0);
	peer_close(&peer);
	fabric_stop();
	return tap_exit_status();
}
