// SPDX-License-Identifier: GPL-2.0
/*
 * The test as a cable peer of a card.
 */
#include "peer.h"
#include "tap.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int peer_send(struct peer *p, const void *buf, size_t len)
{
	const uint8_t *b = buf;

	while (len) {
		ssize_t n = send(p->fd, b, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		b += n;
		len -= (size_t)n;
	}
	return 0;
}

size_t peer_frame_raw(struct peer *p, uint8_t vc, const void *a, size_t alen, const void *b,
		      size_t blen, uint8_t *out)
{
	uint32_t seq = p->tx_seq++;
	size_t n = link_encode(out, LOOM_FRAME_MAX, LOOM_FRAME_DATA, vc, seq,
			       gbn_rx_ack_value(&p->grx), a, alen, b, blen);

	memcpy(p->sent[seq % PEER_REPLAY], out, n);
	p->sent_len[seq % PEER_REPLAY] = n;
	return n;
}

size_t peer_frame(struct peer *p, const struct loom_pkt_hdr *h, const void *payload, size_t plen,
		  uint8_t *out)
{
	/* VC 0 of the packet's class; anything else (bad classes) as is */
	uint8_t vc = h->class == LOOM_CLASS_RESP ? LOOM_VC_RESP0 :
		     h->class == LOOM_CLASS_BARRIER ? LOOM_VC_BARRIER : h->class;

	return peer_frame_raw(p, vc, h, sizeof(*h), payload, plen, out);
}

int peer_send_packet(struct peer *p, const struct loom_pkt_hdr *h, const void *payload, size_t plen)
{
	uint8_t frame[LOOM_FRAME_MAX];
	size_t n = peer_frame(p, h, payload, plen, frame);

	return n ? peer_send(p, frame, n) : -1;
}

static int peer_send_control(struct peer *p, uint8_t type)
{
	uint8_t frame[LOOM_FRAME_MAX];
	size_t n = link_encode(frame, sizeof(frame), type, 0, 0, gbn_rx_ack_value(&p->grx),
			       NULL, 0, NULL, 0);

	return peer_send(p, frame, n);
}

/* NAK @ack from the card: resend what we still have from @ack + 1 on. */
static void peer_replay(struct peer *p, uint32_t ack)
{
	uint32_t from = ack + 1, n = p->tx_seq - from;

	p->naks++;
	if (n > PEER_REPLAY) {
		tap_diag("peer: NAK for %u, %u frames back: more than the %d kept", ack, n,
			 PEER_REPLAY);
		return;
	}
	for (uint32_t s = from; s != p->tx_seq; s++) {
		peer_send(p, p->sent[s % PEER_REPLAY], p->sent_len[s % PEER_REPLAY]);
		p->resent++;
	}
}

/* Link-layer handling of one frame; 1 if the caller gets it. */
static int peer_link(struct peer *p, const struct link_frame *fr)
{
	switch (fr->hdr.type) {
	case LOOM_FRAME_DATA:
		switch (gbn_rx_data(&p->grx, fr->hdr.seq)) {
		case GBN_RX_ACCEPT:
			peer_send_control(p, LOOM_FRAME_ACK);
			return 1;
		case GBN_RX_DUPLICATE:
			p->duplicates++;
			peer_send_control(p, LOOM_FRAME_ACK);
			return 0;
		case GBN_RX_OUT_OF_ORDER:
			tap_diag("peer: DATA frame %u out of order (expected %u) on a lossless cable",
				 fr->hdr.seq, p->grx.expected);
			return 0;
		}
		return 0;
	case LOOM_FRAME_NAK:
		peer_replay(p, fr->hdr.ack);
		return 1;
	case LOOM_FRAME_CREDIT:
		return 0;	/* the peer buffers everything: the card's credits do not matter */
	default:
		return 1;
	}
}

int peer_recv(struct peer *p, struct link_frame *fr, int ms)
{
	uint64_t deadline = fh_now_ms() + (uint64_t)ms;

	for (;;) {
		enum link_rx_status st;
		struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
		uint8_t buf[4096];
		size_t room;
		ssize_t n;

		while ((st = link_rx_next(&p->rx, fr)) != LINK_RX_MORE)
			if (st == LINK_RX_FRAME && peer_link(p, fr))
				return 1;
		if (poll(&pfd, 1, ms > 0 ? 20 : 0) <= 0) {
			if (fh_now_ms() >= deadline)
				return 0;
			continue;
		}
		room = link_rx_space(&p->rx);
		n = recv(p->fd, buf, room < sizeof(buf) ? room : sizeof(buf), 0);
		if (n <= 0)
			return -1;
		link_rx_feed(&p->rx, buf, (size_t)n);
	}
}

int peer_start(struct fabric *f, struct peer *p, uint16_t node, uint8_t port, const char *route)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char path[128], cable[160];
	const char *extra[] = { "--cable", cable, "--route", route, NULL };
	struct pollfd pfd;
	uint8_t frame[LOOM_FRAME_MAX];
	size_t n;

	p->fd = -1;
	p->node = node;
	p->tx_seq = 0;
	p->naks = p->resent = p->duplicates = 0;
	link_rx_init(&p->rx);
	gbn_rx_init(&p->grx, 0);
	fabric_path(f, path, sizeof(path), "peer.sock");
	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	p->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (p->lfd < 0 || bind(p->lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(p->lfd, 1)) {
		tap_diag("cannot listen on %s: %s", path, strerror(errno));
		return -1;
	}
	snprintf(cable, sizeof(cable), "0=connect:%s", path);
	if (fabric_start_card(f, 0, extra) || fabric_attach(f, 0))
		return -1;
	pfd.fd = p->lfd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, 10000) != 1 || (p->fd = accept(p->lfd, NULL, NULL)) < 0) {
		tap_diag("the card did not connect to %s", path);
		fabric_dump_log(f, 0);
		return -1;
	}
	n = link_encode(frame, sizeof(frame), LOOM_FRAME_TRAIN, 0, node, port, NULL, 0, NULL, 0);
	if (peer_send(p, frame, n))
		return -1;
	/* grant the card PEER_CREDITS packets on every VC: the peer never runs out */
	for (unsigned int vc = 0; vc < LOOM_VC_MAINT; vc++) {
		n = link_encode(frame, sizeof(frame), LOOM_FRAME_CREDIT, (uint8_t)vc, 0, PEER_CREDITS,
				NULL, 0, NULL, 0);
		if (peer_send(p, frame, n))
			return -1;
	}
	return fabric_wait_link(f, 0, 0, 10000);
}

void peer_close(struct peer *p)
{
	if (p->fd >= 0)
		close(p->fd);
	if (p->lfd >= 0)
		close(p->lfd);
	p->fd = p->lfd = -1;
}
