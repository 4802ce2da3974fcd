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

int peer_send_packet(struct peer *p, const struct loom_pkt_hdr *h, const void *payload, size_t plen)
{
	uint8_t frame[LOOM_FRAME_MAX];
	size_t n = link_encode(frame, sizeof(frame), LOOM_FRAME_DATA, h->class, p->tx_seq++, 0,
			       h, sizeof(*h), payload, plen);

	return n ? peer_send(p, frame, n) : -1;
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
			if (st == LINK_RX_FRAME)
				return 1;
		if (fh_now_ms() >= deadline)
			return 0;
		if (poll(&pfd, 1, 20) <= 0)
			continue;
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
	link_rx_init(&p->rx);
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
