// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test: the test is the far end of a card's cable.  It
 * trains the link, then sends junk, valid PUT frames, a corrupted frame,
 * an oversize header, more junk and more valid frames.  The card must
 * count the framing errors, deliver every valid packet byte-exact, ack
 * each with status OK, post the arrival, drop a packet whose length does
 * not match its frame, and keep running.
 */
#include "fabric.h"
#include "link.h"
#include "tap.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX		1
#define KEY		0x600d600du
#define PEER_NODE	5
#define PEER_PORT	1
#define NPKT		8
#define BASE		0x3000u

static struct fabric f;
static struct link_rx rx;
static uint32_t tx_seq;

static int send_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static size_t put_frame(uint8_t *out, unsigned int i, uint16_t len_field, const uint8_t *payload)
{
	struct loom_pkt_hdr h = {
		.type = LOOM_PKT_PUT, .class = LOOM_CLASS_REQ, .len = len_field,
		.src_node = PEER_NODE, .dst_node = 0, .src_ctx = 3, .dst_ctx = CTX, .key = KEY,
		.offset = BASE + i * LOOM_PKT_MAX_PAYLOAD, .op_id = 42,
		.flags = LOOM_PKT_F_REMOTE_CQE, .op_len = NPKT * LOOM_PKT_MAX_PAYLOAD, .aux = BASE,
	};

	return link_encode(out, LOOM_FRAME_MAX, LOOM_FRAME_DATA, 0, tx_seq++, 0, &h, sizeof(h),
			   payload, LOOM_PKT_MAX_PAYLOAD);
}

/* Read frames from the card for up to @ms; count PUT_ACKs with status OK. */
static void read_acks(int fd, int ms, int *acks_ok, int *acks_bad, int *train)
{
	uint64_t deadline = fh_now_ms() + (uint64_t)ms;
	struct link_frame fr;

	while (fh_now_ms() < deadline) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		uint8_t buf[4096];
		enum link_rx_status st;
		ssize_t n;

		if (poll(&p, 1, 50) <= 0)
			continue;
		n = recv(fd, buf, link_rx_space(&rx) < sizeof(buf) ? link_rx_space(&rx) : sizeof(buf), 0);
		if (n <= 0)
			return;
		link_rx_feed(&rx, buf, (size_t)n);
		while ((st = link_rx_next(&rx, &fr)) != LINK_RX_MORE) {
			struct loom_pkt_hdr h;

			if (st != LINK_RX_FRAME) {
				(*acks_bad)++;
				continue;
			}
			if (fr.hdr.type == LOOM_FRAME_TRAIN) {
				*train = fr.hdr.seq == 0 && fr.hdr.ack == 0;
				continue;
			}
			memcpy(&h, fr.body, sizeof(h));
			if (fr.hdr.type == LOOM_FRAME_DATA && h.type == LOOM_PKT_PUT_ACK &&
			    h.status == LOOM_CQE_ST_OK && h.dst_node == PEER_NODE && h.op_id == 42)
				(*acks_ok)++;
			else
				(*acks_bad)++;
		}
		if (*acks_ok + *acks_bad >= NPKT)
			return;
	}
}

int main(void)
{
	char lpath[128], cable[160];
	const char *extra[8];
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct fh_ctx ctx;
	struct fakehost *fh;
	uint8_t payload[NPKT][LOOM_PKT_MAX_PAYLOAD], frame[LOOM_FRAME_MAX], junk[777];
	int lfd, fd = -1, acks_ok = 0, acks_bad = 0, train = 0, ok;
	uint32_t crc, drops, seq;
	struct loom_cqe e;
	size_t n;

	tap_plan(8);
	if (fabric_init(&f, 60))
		return 1;
	fabric_path(&f, lpath, sizeof(lpath), "peer.sock");
	if (strlen(lpath) >= sizeof(sa.sun_path))
		return 1;
	memcpy(sa.sun_path, lpath, strlen(lpath) + 1);
	lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 1)) {
		tap_ok(0, "listen on %s: %s", lpath, strerror(errno));
		return 1;
	}
	snprintf(cable, sizeof(cable), "0=connect:%s", lpath);
	extra[0] = "--cable";
	extra[1] = cable;
	extra[2] = "--route";
	extra[3] = "5=0";
	extra[4] = NULL;
	ok = fabric_start_card(&f, 0, extra) == 0 && fabric_attach(&f, 0) == 0;
	if (ok) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };

		ok = poll(&p, 1, 10000) == 1 && (fd = accept(lfd, NULL, NULL)) >= 0;
	}
	fh = &f.fh[0];
	link_rx_init(&rx);
	if (ok) {
		n = link_encode(frame, sizeof(frame), LOOM_FRAME_TRAIN, 0, PEER_NODE, PEER_PORT, NULL, 0, NULL, 0);
		ok = send_all(fd, frame, n) == 0 && fabric_wait_link(&f, 0, 0, 10000) == 0 &&
		     fh_ctx_create(fh, &ctx, CTX, KEY, 4, 5, 64 << 10) == LOOM_ADMIN_E_OK;
	}
	if (!tap_ok(ok, "card connected to the test's cable, link trained, context enabled")) {
		fabric_dump_log(&f, 0);
		return 1;
	}
	tap_ok(fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_PEER_NODE)) == PEER_NODE &&
	       fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_PEER_PORT)) == PEER_PORT &&
	       fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_STATUS)) == (LOOM_PORT_ST_CABLED | LOOM_PORT_ST_UP),
	       "PORTS block: peer node %d port %d learnt, CABLED|UP", PEER_NODE, PEER_PORT);

	for (unsigned int i = 0; i < NPKT; i++)
		for (unsigned int b = 0; b < LOOM_PKT_MAX_PAYLOAD; b++)
			payload[i][b] = (uint8_t)(i * 31 + b * 3 + 7);
	memset(ctx.segp, 0, 64 << 10);
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 131 + 17);

	ok = send_all(fd, junk, sizeof(junk)) == 0;				/* episode 1 */
	for (unsigned int i = 0; i < 3 && ok; i++) {
		n = put_frame(frame, i, LOOM_PKT_MAX_PAYLOAD, payload[i]);
		ok = send_all(fd, frame, n) == 0;
	}
	n = put_frame(frame, 3, LOOM_PKT_MAX_PAYLOAD, payload[3]);		/* episode 2: bad CRC */
	frame[100] ^= 0x20;
	ok &= send_all(fd, frame, n) == 0;
	{
		struct loom_frame_hdr big = { .magic = LOOM_FRAME_MAGIC, .type = LOOM_FRAME_DATA,
					      .len = 0xffff };

		ok &= send_all(fd, &big, sizeof(big)) == 0;			/* still episode 2 */
		ok &= send_all(fd, junk, 100) == 0;
	}
	for (unsigned int i = 3; i < NPKT && ok; i++) {
		n = put_frame(frame, i, LOOM_PKT_MAX_PAYLOAD, payload[i]);
		ok = send_all(fd, frame, n) == 0;
		if (i == 5)
			ok &= send_all(fd, junk + 300, 50) == 0;		/* episode 3 */
	}
	/* length field disagreeing with the frame: dropped, counted */
	n = put_frame(frame, 0, 100, payload[0]);
	ok &= send_all(fd, frame, n) == 0;
	tap_ok(ok, "sent junk, %d valid PUT frames, a corrupted frame, an oversize header, a bad length", NPKT);

	read_acks(fd, 10000, &acks_ok, &acks_bad, &train);
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
	/* episodes: junk; corrupted frame + oversize header + junk (no good frame between); junk */
	tap_ok(crc == 3 && drops == 1 && seq == 1,
	       "CRC_ERRORS counts the 3 error episodes (%u), SEQ_ERRORS the lost frame (%u), DROPS the bad-length packet (%u)",
	       crc, seq, drops);
	tap_ok(fabric_card_alive(&f, 0), "the card is still running");
	if (tap.failed)
		fabric_dump_log(&f, 0);
	close(fd);
	close(lfd);
	fabric_stop();
	return tap_exit_status();
}
