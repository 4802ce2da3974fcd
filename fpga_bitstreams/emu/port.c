// SPDX-License-Identifier: GPL-2.0
/*
 * The emulator's cables: sockets carrying the link units' frames.
 */
#include "port.h"
#include "card.h"
#include "card_router.h"
#include "router/router.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define container_of(p, type, member) \
	((type *)(void *)((char *)(p) - offsetof(type, member)))

static void port_arm(struct port *p)
{
	uint32_t ev = EPOLLIN | EPOLLRDHUP | (p->out_armed ? EPOLLOUT : 0);

	if (p->fd >= 0)
		ev_ctl(p->epfd, EPOLL_CTL_MOD, p->fd, ev, &p->cev);
}

static void port_attach(struct port *p, int fd)
{
	p->fd = fd;
	p->out_armed = false;
	p->tx_len = p->tx_off = 0;
	p->heard_ms = ev_now_ms();
	ev_ctl(p->epfd, EPOLL_CTL_ADD, fd, EPOLLIN | EPOLLRDHUP, &p->cev);
	card_log(p->card, "port %u: cable connected (%s %s), training", p->idx,
		 p->mode == PORT_LISTEN ? "accepted on" : "connected to", p->addr.text);
	card_port_carrier(p->card, p->idx, true);
}

static void port_down(struct port *p, const char *why)
{
	if (p->fd < 0)
		return;
	ev_ctl(p->epfd, EPOLL_CTL_DEL, p->fd, 0, NULL);
	close(p->fd);
	p->fd = -1;
	p->tx_len = p->tx_off = 0;
	card_log(p->card, "port %u: cable disconnected: %s", p->idx, why);
	card_port_carrier(p->card, p->idx, false);
	if (p->mode == PORT_CONNECT && !p->cut) {
		p->connecting = true;
		p->connect_deadline = ev_now_ms() + PORT_CONNECT_TIMEOUT_MS;
		p->next_retry = ev_now_ms() + PORT_CONNECT_RETRY_MS;
	}
}

/* ---- receive ---------------------------------------------------------- */

/*
 * Read what the cable holds straight into the link unit's framer; the
 * card's next edge checks the frames.  A read that fills the framer may
 * have left more behind: read again a few times, after the card stepped.
 */
static void port_read(struct port *p)
{
	struct link_unit *l = card_port_link(p->card, p->idx);

	for (int pass = 0; pass < PORT_RX_PASSES; pass++) {
		size_t room;
		uint8_t *tail = link_unit_rx_tail(l, &room);
		ssize_t n;

		if (!room) {
			/* the framer is full: let the card take the frames first */
			card_step(p->card);
			tail = link_unit_rx_tail(l, &room);
			if (!room)
				return;
		}
		n = read(p->fd, tail, room);
		if (n == 0) {
			port_down(p, "peer closed the cable");
			return;
		}
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				port_down(p, strerror(errno));
			return;
		}
		link_unit_rx_commit(l, (size_t)n);
		p->heard_ms = ev_now_ms();
		if ((size_t)n < room)
			return;
	}
}

bool port_peer_heard(const struct port_set *ps, unsigned int idx, uint64_t now,
		     uint64_t answer_ms, uint64_t give_up_ms)
{
	const struct port *p = &ps->port[idx];
	uint64_t silent;

	if (idx >= ps->n || p->fd < 0)
		return true;
	silent = now > p->heard_ms ? now - p->heard_ms : 0;
	return silent <= answer_ms || silent >= give_up_ms;
}

/* ---- transmit --------------------------------------------------------- */

/* Frames from the link unit's outbox into the transmit buffer, faults applied. */
static void port_take_frames(struct port *p)
{
	struct link_unit *l = card_port_link(p->card, p->idx);
	struct link_txframe *tf;

	if (p->tx_off) {	/* keep what the socket has not taken at the front */
		memmove(p->tx, p->tx + p->tx_off, p->tx_len - p->tx_off);
		p->tx_len -= p->tx_off;
		p->tx_off = 0;
	}
	while ((tf = link_unit_tx_peek(l)) && PORT_TX_BUF - p->tx_len >= tf->len) {
		size_t n = tf->len;

		if (p->fd < 0) {	/* no cable: the lanes send into nothing */
			link_unit_tx_pop(l);
			continue;
		}
		memcpy(p->tx + p->tx_len, tf->bytes, n);
		link_unit_tx_pop(l);
		/* training frames are spared, so that links always train */
		if (tf->type != LOOM_FRAME_TRAIN) {
			switch (fault_apply(&p->fault, p->tx + p->tx_len, n)) {
			case FAULT_NONE:
				break;
			case FAULT_DROPPED:
				n = 0;
				/* fall through */
			case FAULT_CORRUPTED:
				p->injected++;
				card_port_count(p->card, p->idx, LOOM_PORT_INJECTED, 1);
				break;
			}
		}
		p->tx_len += n;
	}
}

/* Write until the socket would block; true if bytes remain. */
static bool port_write(struct port *p)
{
	while (p->fd >= 0 && p->tx_off < p->tx_len) {
		ssize_t n = send(p->fd, p->tx + p->tx_off, p->tx_len - p->tx_off,
				 MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				if (!p->out_armed) {
					p->out_armed = true;
					port_arm(p);
				}
				return true;
			}
			if (errno == EINTR)
				continue;
			port_down(p, strerror(errno));
			return false;
		}
		p->tx_off += (size_t)n;
	}
	p->tx_off = p->tx_len = 0;
	if (p->out_armed && p->fd >= 0) {
		p->out_armed = false;
		port_arm(p);
	}
	return false;
}

size_t port_set_take(struct port_set *ps)
{
	size_t most = 0;

	for (unsigned int i = 0; i < ps->n; i++) {
		struct port *p = &ps->port[i];

		if (link_unit_tx_peek(card_port_link(p->card, i)))
			port_take_frames(p);
		if (p->tx_len - p->tx_off > most)
			most = p->tx_len - p->tx_off;
	}
	return most;
}

bool port_set_flush(struct port_set *ps)
{
	bool held = false;

	for (unsigned int i = 0; i < ps->n; i++) {
		struct port *p = &ps->port[i];

		if (!link_unit_tx_peek(card_port_link(p->card, i)) && p->tx_off == p->tx_len)
			continue;
		port_take_frames(p);
		/* a full socket is written again when it says it has room (EPOLLOUT) */
		held = (p->out_armed || port_write(p)) || held;
	}
	return held;
}

/* ---- sockets ---------------------------------------------------------- */

static void port_conn_event(struct ev_handler *h, uint32_t events)
{
	struct port *p = container_of(h, struct port, cev);

	if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
		port_read(p);
	if (p->fd >= 0 && (events & EPOLLOUT)) {
		port_write(p);
		port_take_frames(p);
		port_write(p);
	}
}

static void port_listen_event(struct ev_handler *h, uint32_t events)
{
	struct port *p = container_of(h, struct port, lev);
	int fd = accept4(p->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	(void)events;
	if (fd < 0)
		return;
	if (p->fd >= 0 || p->cut) {
		card_log(p->card, "port %u: refusing a second peer on %s (the cable is in use)",
			 p->idx, p->addr.text);
		close(fd);
		return;
	}
	cable_tune(&p->addr, fd);
	port_attach(p, fd);
}

/* Drop a connect in progress, if any. */
static void port_cancel_connect(struct port *p)
{
	if (p->cfd < 0)
		return;
	ev_ctl(p->epfd, EPOLL_CTL_DEL, p->cfd, 0, NULL);
	close(p->cfd);
	p->cfd = -1;
}

/* A connect attempt failed: retry soon, or give up at the deadline. */
static void port_connect_failed(struct port *p, uint64_t now)
{
	if (now >= p->connect_deadline) {
		p->connecting = false;
		card_log(p->card, "port %u: gave up connecting to %s after %d s (is the peer card running?)",
			 p->idx, p->addr.text, PORT_CONNECT_TIMEOUT_MS / 1000);
		return;
	}
	p->next_retry = now + PORT_CONNECT_RETRY_MS;
}

static void port_connected(struct port *p, int fd)
{
	p->connecting = false;
	cable_tune(&p->addr, fd);
	port_attach(p, fd);
}

/* The connect in progress finished, one way or the other. */
static void port_connect_event(struct ev_handler *h, uint32_t events)
{
	struct port *p = container_of(h, struct port, pev);
	int fd = p->cfd, e;

	(void)events;
	if (fd < 0)
		return;
	e = cable_connect_result(fd);
	ev_ctl(p->epfd, EPOLL_CTL_DEL, fd, 0, NULL);
	p->cfd = -1;
	if (!e && p->connecting) {
		port_connected(p, fd);
		return;
	}
	close(fd);
	if (p->connecting)
		port_connect_failed(p, ev_now_ms());
}

static void port_try_connect(struct port *p, uint64_t now)
{
	bool done;
	int fd;

	if (p->cfd >= 0) {
		/* in progress for too long (a silent peer machine): start over */
		port_cancel_connect(p);
		port_connect_failed(p, now);
		return;
	}
	fd = cable_connect(&p->addr, &done);
	if (fd < 0) {
		port_connect_failed(p, now);
		return;
	}
	if (done) {
		port_connected(p, fd);
		return;
	}
	p->cfd = fd;
	p->next_retry = now + PORT_CONNECT_PENDING_MS;
	ev_ctl(p->epfd, EPOLL_CTL_ADD, fd, EPOLLOUT, &p->pev);
}

void port_set_init(struct port_set *ps, unsigned int n, struct card *c, int epfd, uint64_t seed)
{
	memset(ps, 0, sizeof(*ps));
	ps->n = n;
	ps->card = c;
	for (unsigned int i = 0; i < LOOM_MAX_PORTS; i++) {
		struct port *p = &ps->port[i];

		p->idx = i;
		p->card = c;
		p->epfd = epfd;
		p->lfd = -1;
		p->fd = -1;
		p->cfd = -1;
		p->lev.fn = port_listen_event;
		p->cev.fn = port_conn_event;
		p->pev.fn = port_connect_event;
		/* one random stream per (card seed, port) */
		fault_init(&p->fault, seed ^ (i + 1) * 0x9e3779b97f4a7c15ull);
	}
}

bool port_cable(struct port_set *ps, unsigned int idx, const struct cable_addr *a,
		char *err, size_t errlen)
{
	struct port *p = &ps->port[idx];

	p->addr = *a;
	p->addr.where = p->addr.text + (a->where - a->text);
	p->mode = a->listen ? PORT_LISTEN : PORT_CONNECT;
	if (p->mode == PORT_CONNECT) {
		p->connecting = true;
		p->connect_deadline = ev_now_ms() + PORT_CONNECT_TIMEOUT_MS;
		p->next_retry = 0;
		return true;
	}
	p->lfd = cable_listen(&p->addr, err, errlen);
	if (p->lfd < 0)
		return false;
	p->created_socket = !a->tcp;
	ev_ctl(p->epfd, EPOLL_CTL_ADD, p->lfd, EPOLLIN, &p->lev);
	return true;
}

int port_set_timers(struct port_set *ps, uint64_t now)
{
	int next = -1;

	for (unsigned int i = 0; i < ps->n; i++) {
		struct port *p = &ps->port[i];
		int wait;

		if (!p->connecting)
			continue;
		if (now >= p->next_retry)
			port_try_connect(p, now);
		if (!p->connecting)
			continue;
		wait = p->next_retry > now ? (int)(p->next_retry - now) : 0;
		if (next < 0 || wait < next)
			next = wait;
	}
	return next;
}

void port_set_close(struct port_set *ps)
{
	for (unsigned int i = 0; i < LOOM_MAX_PORTS; i++) {
		struct port *p = &ps->port[i];

		if (p->fd >= 0)
			close(p->fd);
		if (p->lfd >= 0)
			close(p->lfd);
		if (p->cfd >= 0)
			close(p->cfd);
		if (p->created_socket)
			unlink(p->addr.where);
		p->fd = p->lfd = p->cfd = -1;
	}
}

void port_cut(struct port_set *ps, unsigned int idx)
{
	struct port *p = &ps->port[idx];

	if (p->cut)
		return;
	p->cut = true;
	p->connecting = false;
	port_cancel_connect(p);
	if (p->lfd >= 0)
		ev_ctl(p->epfd, EPOLL_CTL_DEL, p->lfd, 0, NULL);	/* peers wait in the backlog */
	if (p->fd >= 0)
		port_down(p, "cable cut by the control socket");
	card_log(p->card, "port %u: cable cut (stays down until restored)", p->idx);
}

void port_restore(struct port_set *ps, unsigned int idx)
{
	struct port *p = &ps->port[idx];

	if (!p->cut)
		return;
	p->cut = false;
	if (p->lfd >= 0)
		ev_ctl(p->epfd, EPOLL_CTL_ADD, p->lfd, EPOLLIN, &p->lev);
	if (p->mode == PORT_CONNECT) {
		p->connecting = true;
		p->connect_deadline = ev_now_ms() + PORT_CONNECT_TIMEOUT_MS;
		p->next_retry = 0;
	}
	card_log(p->card, "port %u: cable restored", p->idx);
}

void port_stats(struct port_set *ps, unsigned int idx, char *out, size_t len)
{
	static const struct { const char *name; uint32_t reg; } regs[] = {
		{ "peer_node", LOOM_PORT_PEER_NODE }, { "peer_port", LOOM_PORT_PEER_PORT },
		{ "tx_frames", LOOM_PORT_TX_FRAMES }, { "rx_frames", LOOM_PORT_RX_FRAMES },
		{ "tx_bytes", LOOM_PORT_TX_BYTES }, { "rx_bytes", LOOM_PORT_RX_BYTES },
		{ "crc_errors", LOOM_PORT_CRC_ERRORS }, { "seq_errors", LOOM_PORT_SEQ_ERRORS },
		{ "drops", LOOM_PORT_DROPS }, { "retries", LOOM_PORT_RETRIES },
		{ "naks_sent", LOOM_PORT_NAKS_SENT }, { "injected", LOOM_PORT_INJECTED },
		{ "replayed", LOOM_PORT_REPLAYED }, { "ack_timeouts", LOOM_PORT_ACK_TIMEOUTS },
	};
	struct port *p = &ps->port[idx];
	struct card *c = ps->card;
	const struct link_unit *l = card_port_link(c, idx);
	size_t used;

	card_publish(c);
	used = (size_t)snprintf(out, len, "port=%u up=%d cut=%d cycle=%llu", idx,
				card_port_up(c, idx), p->cut, (unsigned long long)c->now);
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]) && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, " %s=%u", regs[i].name,
					 card_rd32(c, card_port_reg(idx, regs[i].reg)));
	if (used < len)
		used += (size_t)snprintf(out + used, len - used, " lanes=%u lane_drops=%u rate_mbps=%u",
					 l->lanes.n, l->lanes.drops, netport_rate_mbps(c, idx));
	/* flits of room the peer granted, and flits in this port's input buffers */
	for (unsigned int v = 0; v < LOOM_VC_MAINT && used < len; v++)
		used += (size_t)snprintf(out + used, len - used, "%s%u", v ? "," : " credits=",
					 l->credit.granted[v] - l->credit.sent[v]);
	for (unsigned int v = 0; v < LOOM_VC_MAINT && used < len; v++)
		used += (size_t)snprintf(out + used, len - used, "%s%u", v ? "," : " inbuf=",
					 card_router_in_vc_fill(c, idx, v));
	if (used < len)
		snprintf(out + used, len - used,
			 " duplicates=%llu replay_held=%u replay_window=%u status_frames=%llu ber=%g drop=%g corrupt=%g flipped_bits=%llu corrupted_frames=%llu dropped_frames=%llu",
			 (unsigned long long)l->cnt.duplicates, gbn_tx_held(&l->tx.gbn),
			 l->p.replay_frames, (unsigned long long)l->cnt.status_frames,
			 p->fault.ber, p->fault.drop, p->fault.corrupt,
			 (unsigned long long)p->fault.flipped_bits,
			 (unsigned long long)p->fault.corrupted_frames,
			 (unsigned long long)p->fault.dropped_frames);
}
