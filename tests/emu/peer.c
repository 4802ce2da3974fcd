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

/* An ACK or NAK: our acknowledgement and the next VC's grant (link_credit_pick). */
static int peer_send_control(struct peer *p, uint8_t type)
{
	uint8_t frame[LOOM_FRAME_MAX];
	struct loom_frame_hdr h = {
		.type = type,
		.ack = gbn_rx_ack_value(&p->grx),
	};
	uint32_t credit;
	bool pending;
	size_t n;

	h.credit_vc = (uint8_t)link_credit_pick(&p->credit, &credit, &pending);
	h.credit = credit;
	n = link_encode_hdr(frame, sizeof(frame), &h, NULL, 0, NULL, 0);
	return peer_send(p, frame, n);
}

/* ACK_CREDIT: the acknowledgement, our next sequence number, every VC's grant. */
static int peer_send_status(struct peer *p)
{
	uint8_t frame[LOOM_FRAME_MAX];
	struct loom_frame_hdr h = {
		.type = LOOM_FRAME_ACK_CREDIT,
		.credit_vc = LOOM_FRAME_NO_CREDIT,
		.seq = p->tx_seq,
		.ack = gbn_rx_ack_value(&p->grx),
	};
	struct loom_frame_credits body;
	size_t n;

	memset(&body, 0, sizeof(body));
	link_credit_advertise_all(&p->credit);
	for (unsigned int v = 0; v < p->credit.vcs; v++)
		body.credit[v] = p->credit.grant[v];
	n = link_encode_hdr(frame, sizeof(frame), &h, &body, sizeof(body), NULL, 0);
	return peer_send(p, frame, n);
}

/*
 * NAK @ack from the card: resend what we still have from @ack + 1 on, each
 * frame with our acknowledgement as it is now (as the card's link unit
 * does): the one it first carried may be behind what the card has since
 * heard from us, and a sender's acknowledgement never goes back.
 */
static void peer_replay(struct peer *p, uint32_t ack)
{
	uint32_t from = ack + 1, n = p->tx_seq - from;
	uint8_t frame[LOOM_FRAME_MAX];
	struct loom_frame_hdr h;
	size_t len;

	p->naks++;
	if (n > PEER_REPLAY) {
		tap_diag("peer: NAK for %u, %u frames back: more than the %d kept", ack, n,
			 PEER_REPLAY);
		return;
	}
	for (uint32_t s = from; s != p->tx_seq; s++) {
		const uint8_t *kept = p->sent[s % PEER_REPLAY];

		memcpy(&h, kept, sizeof(h));
		h.ack = gbn_rx_ack_value(&p->grx);
		len = link_encode_hdr(frame, sizeof(frame), &h, kept + LOOM_FRAME_HDR_SIZE, h.len,
				      NULL, 0);
		if (len)
			peer_send(p, frame, len);
		p->resent++;
	}
}

/* A DATA frame taken in order: its packet is consumed at once, its flits granted again. */
static void peer_consume(struct peer *p, const struct link_frame *fr)
{
	unsigned int vc = fr->hdr.vc, flits = link_flits(&p->cp.link, fr->hdr.len);

	if (vc >= p->credit.vcs)
		return;
	link_credit_accepted(&p->credit, vc, flits);
	link_credit_freed(&p->credit, vc, flits);
}

/* Link-layer handling of one frame; 1 if the caller gets it. */
static int peer_link(struct peer *p, const struct link_frame *fr)
{
	switch (fr->hdr.type) {
	case LOOM_FRAME_DATA:
		switch (gbn_rx_data(&p->grx, fr->hdr.seq)) {
		case GBN_RX_ACCEPT:
			peer_consume(p, fr);
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
	case LOOM_FRAME_ACK_CREDIT:
		if (fr->hdr.flags & LOOM_FRAME_F_POLL) {
			p->polls++;
			peer_send_status(p);
		}
		return 0;	/* the card's grants: the test sends what it likes */
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
	char path[128], cable[160], err[256];
	const char *extra[] = { "--cable", cable, "--route", route, NULL };
	struct pollfd pfd;
	uint8_t frame[LOOM_FRAME_MAX];
	size_t n;

	p->fd = -1;
	p->node = node;
	p->tx_seq = 0;
	p->naks = p->resent = p->duplicates = p->polls = 0;
	link_rx_init(&p->rx);
	gbn_rx_init(&p->grx, 0);
	/* the card's own link parameters, as the emulator builds them by default */
	card_params_default(&p->cp, 0, 1);
	if (card_params_check(&p->cp, err, sizeof(err))) {
		tap_diag("the card's default parameters: %s", err);
		return -1;
	}
	link_credit_init(&p->credit, p->cp.link.vcs, p->cp.link.buf_depth,
			 link_flits(&p->cp.link, LINK_PKT_MAX));
	link_credit_train(&p->credit);
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
	/* the link is up at the card once it has our TRAIN: grant it every VC's buffer */
	if (peer_send_status(p))
		return -1;
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
