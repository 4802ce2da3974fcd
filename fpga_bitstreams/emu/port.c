// SPDX-License-Identifier: GPL-2.0
/*
 * Network ports: cable sockets, packet queues, link training and framing.
 */
#include "port.h"
#include "card.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define container_of(p, type, member) \
	((type *)(void *)((char *)(p) - offsetof(type, member)))

#define PORT_RX_PASSES		4	/* reads per readiness event at most */
#define PORT_ERRORS_LOGGED	10
#define PORT_CREDIT_REFRESH_MS	20

/* ---- state ------------------------------------------------------------ */

static void port_set_status(struct port *p)
{
	uint32_t st = (p->fd >= 0 ? LOOM_PORT_ST_CABLED : 0) | (p->up ? LOOM_PORT_ST_UP : 0);

	card_port_status(p->card, p->idx, LOOM_PORT_ST_CABLED | LOOM_PORT_ST_UP, st);
}

/* Nanoseconds on the monotonic clock, for the pacer. */
static uint64_t port_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The lane rate: the emulated one when transmission is paced
 * (--lane-mbps), else the nominal CARD_LANE_MBPS.
 */
static unsigned int port_lane_mbps(const struct port *p)
{
	return p->cfg && p->cfg->lane_mbps ? p->cfg->lane_mbps : CARD_LANE_MBPS;
}

/* LINK block record and STATUS.LANES from p->lanes (an event when it changes). */
static void port_lanes_publish(struct port *p)
{
	struct card *c = p->card;

	for (unsigned int i = 0; i < LANES_MAX; i++)
		card_wr32(c, card_link_reg(p->idx, LOOM_LINKR_LANE_ERRORS + 4 * i), p->lanes.errors[i]);
	card_wr32(c, card_link_reg(p->idx, LOOM_LINKR_LANES), p->lanes.n);
	card_wr32(c, card_link_reg(p->idx, LOOM_LINKR_LANE_DROPS), p->lanes.drops);
	card_wr32(c, card_link_reg(p->idx, LOOM_LINKR_RATE_MBPS), p->lanes.n * port_lane_mbps(p));
	card_port_status(c, p->idx, LOOM_PORT_ST_LANES_MASK,
			 (p->lanes.n << LOOM_PORT_ST_LANES_SHIFT) & LOOM_PORT_ST_LANES_MASK);
}

static void port_arm(struct port *p)
{
	uint32_t ev = EPOLLIN | EPOLLRDHUP | (p->out_armed ? EPOLLOUT : 0);

	if (p->fd >= 0)
		ev_ctl(p->epfd, EPOLL_CTL_MOD, p->fd, ev, &p->cev);
}

static void port_queue_train(struct port *p)
{
	p->tx_len = link_encode(p->tx, sizeof(p->tx), LOOM_FRAME_TRAIN, 0, p->card->node, p->idx,
				NULL, 0, NULL, 0);
	p->tx_off = 0;
}

/* A new cable is a new link: both ends start at sequence number 0. */
static void port_link_reset(struct port *p, const struct port_link_cfg *cfg)
{
	gbn_tx_init(&p->gtx, 0, cfg->window, cfg->timeout_ms);
	gbn_rx_init(&p->grx, 0);
	link_rx_init(&p->rx);
	lane_pacer_init(&p->pacer, cfg->lane_mbps, port_now_ns());
	p->lanes_notify = false;
}

static void port_attach(struct port *p, int fd)
{
	p->fd = fd;
	p->up = false;
	p->out_armed = false;
	port_link_reset(p, p->cfg);
	ev_ctl(p->epfd, EPOLL_CTL_ADD, fd, EPOLLIN | EPOLLRDHUP, &p->cev);
	port_set_status(p);
	card_log(p->card, "port %u: cable connected (%s %s), training", p->idx,
		 p->mode == PORT_LISTEN ? "accepted on" : "connected to", p->addr.text);
	port_queue_train(p);
}

static void port_down(struct port *p, const char *why)
{
	if (p->fd < 0)
		return;
	ev_ctl(p->epfd, EPOLL_CTL_DEL, p->fd, 0, NULL);
	close(p->fd);
	p->fd = -1;
	p->up = false;
	p->tx_len = 0;
	p->tx_off = 0;
	port_set_status(p);
	card_log(p->card, "port %u: link down: %s (%u unacknowledged frames lost)", p->idx, why,
		 gbn_tx_held(&p->gtx));
	port_link_reset(p, p->cfg);
	/* requests waiting to leave complete with LINK at their source */
	tile_link_down(p->tile, p->idx);
	lanes_reset(&p->lanes, 0);
	port_lanes_publish(p);
	/* this card's own operations through the port: their packets are lost */
	hif_port_down(p->card, p->idx);
	if (p->mode == PORT_CONNECT && !p->cut) {
		p->connecting = true;
		p->connect_deadline = ev_now_ms() + PORT_CONNECT_TIMEOUT_MS;
		p->next_retry = ev_now_ms() + PORT_CONNECT_RETRY_MS;
	}
}

/* ---- receive ---------------------------------------------------------- */

static void port_framing_error(struct port *p, enum link_rx_status st)
{
	card_port_count(p->card, p->idx, LOOM_PORT_CRC_ERRORS, 1);
	p->lossy = true;
	if (p->up) {
		struct card *c = p->card;
		unsigned int lane = 0;

		if (lanes_error(&p->lanes, p->grx.expected, ev_now_ms(),
				card_rd32(c, CARD_OFF_LINK + LOOM_LINK_LANE_THRESHOLD),
				card_rd32(c, CARD_OFF_LINK + LOOM_LINK_LANE_WINDOW_MS), &lane)) {
			card_log(c, "port %u: lane %u reached the error threshold: link degraded to %u lane%s (%u Mb/s)",
				 p->idx, lane, p->lanes.n, p->lanes.n == 1 ? "" : "s",
				 p->lanes.n * port_lane_mbps(p));
			p->lanes_notify = true;	/* both directions run at the new width */
		}
		port_lanes_publish(p);
	}
	if (p->up)
		gbn_rx_error(&p->grx);	/* whatever it was, ask for a replay */
	if (p->errors_logged < PORT_ERRORS_LOGGED || p->card->verbose) {
		p->errors_logged++;
		card_log(p->card, "port %u: framing error (%s), resynchronising%s", p->idx,
			 link_rx_status_name(st),
			 p->errors_logged == PORT_ERRORS_LOGGED ? "; further errors only counted" : "");
	}
}

static void port_rx_data(struct port *p, const struct link_frame *f)
{
	struct loom_pkt_hdr h;

	if (!p->up) {
		card_port_count(p->card, p->idx, LOOM_PORT_DROPS, 1);
		return;
	}
	gbn_tx_ack(&p->gtx, f->hdr.ack, ev_now_ms());	/* piggy-backed */
	switch (gbn_rx_data(&p->grx, f->hdr.seq)) {
	case GBN_RX_ACCEPT:
		break;
	case GBN_RX_DUPLICATE:
		p->duplicates++;
		return;
	case GBN_RX_OUT_OF_ORDER:
		card_port_count(p->card, p->idx, LOOM_PORT_SEQ_ERRORS, 1);
		return;
	}
	if (f->hdr.len < LOOM_PKT_HDR_SIZE) {
		card_port_count(p->card, p->idx, LOOM_PORT_DROPS, 1);
		card_drop_count(p->card, LOOM_CNT_DROP_MALFORMED);
		return;
	}
	memcpy(&h, f->body, sizeof(h));
	if (h.len != f->hdr.len - LOOM_PKT_HDR_SIZE) {
		card_port_count(p->card, p->idx, LOOM_PORT_DROPS, 1);
		card_drop_count(p->card, LOOM_CNT_DROP_MALFORMED);
		if (p->card->verbose)
			card_log(p->card, "port %u: packet length %u does not match frame body %u; dropped",
				 p->idx, h.len, f->hdr.len);
		return;
	}
	switch (tile_rx(p->tile, p->idx, f->hdr.vc, &h, f->body + LOOM_PKT_HDR_SIZE)) {
	case TILE_RX_OK:
		return;
	case TILE_RX_BAD_VC:
		card_drop_count(p->card, LOOM_CNT_DROP_MALFORMED);
		card_port_count(p->card, p->idx, LOOM_PORT_DROPS, 1);
		if (p->card->verbose)
			card_log(p->card, "port %u: class %u packet on VC %u; dropped", p->idx,
				 h.class, f->hdr.vc);
		return;
	case TILE_RX_FULL:
		card_port_count(p->card, p->idx, LOOM_PORT_DROPS, 1);
		if (p->errors_logged < PORT_ERRORS_LOGGED || p->card->verbose) {
			p->errors_logged++;
			card_log(p->card, "port %u: packet on VC %u with its input buffer full (the peer sent without credit); dropped",
				 p->idx, f->hdr.vc);
		}
		return;
	}
}

/* CREDIT frame: cumulative credits of VC hdr.vc in the ack field. */
static void port_rx_credit(struct port *p, const struct link_frame *f)
{
	if (!p->up || f->hdr.len) {
		card_port_count(p->card, p->idx, LOOM_PORT_DROPS, 1);
		return;
	}
	tile_credit_rx(p->tile, p->idx, f->hdr.vc, f->hdr.ack);
}

/* ACK and NAK frames: no body, the value in the ack field. */
static void port_rx_control(struct port *p, const struct link_frame *f)
{
	if (!p->up || f->hdr.len) {
		card_port_count(p->card, p->idx, LOOM_PORT_DROPS, 1);
		return;
	}
	if (f->hdr.type == LOOM_FRAME_ACK) {
		gbn_tx_ack(&p->gtx, f->hdr.ack, ev_now_ms());
		return;
	}
	if (gbn_tx_nak(&p->gtx, f->hdr.ack, ev_now_ms()))
		card_port_count(p->card, p->idx, LOOM_PORT_RETRIES, 1);
}

/*
 * TRAIN with a lane count on a link that is up: the peer's receiver
 * dropped lanes, and a link runs at one width both ways.
 */
static void port_rx_lanes(struct port *p, unsigned int lanes)
{
	if (lanes > LANES_MAX || lanes >= p->lanes.n) {
		if (lanes > LANES_MAX)
			card_port_count(p->card, p->idx, LOOM_PORT_DROPS, 1);
		return;
	}
	p->lanes.n = lanes;
	card_log(p->card, "port %u: the peer degraded the link to %u lane%s (%u Mb/s)", p->idx,
		 lanes, lanes == 1 ? "" : "s", lanes * port_lane_mbps(p));
	port_lanes_publish(p);
}

static void port_rx_frame(struct port *p, const struct link_frame *f)
{
	card_port_count(p->card, p->idx, LOOM_PORT_RX_FRAMES, 1);
	card_port_count(p->card, p->idx, LOOM_PORT_RX_BYTES,
			LOOM_FRAME_HDR_SIZE + f->hdr.len + LOOM_FRAME_CRC_SIZE);
	switch (f->hdr.type) {
	case LOOM_FRAME_TRAIN:
		if (p->up && f->hdr.vc) {
			port_rx_lanes(p, f->hdr.vc);
			return;
		}
		card_wr32(p->card, card_port_reg(p->idx, LOOM_PORT_PEER_NODE), f->hdr.seq);
		card_wr32(p->card, card_port_reg(p->idx, LOOM_PORT_PEER_PORT), f->hdr.ack);
		if (!p->up)
			card_log(p->card, "port %u: link up to node %u port %u", p->idx,
				 f->hdr.seq, f->hdr.ack);
		if (!p->up) {
			tile_link_up(p->tile, p->idx);
			lanes_reset(&p->lanes, CARD_LANES);
			port_lanes_publish(p);
		}
		p->up = true;
		p->lossy = false;
		port_set_status(p);
		return;
	case LOOM_FRAME_DATA:
		port_rx_data(p, f);
		return;
	case LOOM_FRAME_ACK:
	case LOOM_FRAME_NAK:
		port_rx_control(p, f);
		return;
	case LOOM_FRAME_CREDIT:
		port_rx_credit(p, f);
		return;
	case LOOM_FRAME_MAINT:	/* outside the sequence: no ack, no replay */
		maint_receive(p->card, p->idx, f->body, f->hdr.len);
		return;
	default:
		card_port_count(p->card, p->idx, LOOM_PORT_DROPS, 1);
	}
}

static void port_write(struct port *p);

/*
 * Read what the cable holds straight into the link receiver and parse
 * every frame in it: one read() brings a burst of frames.  A read that
 * fills the buffer may have left more behind, so read again (a few times,
 * then let the other ports and the host have their turn).
 */
static void port_read(struct port *p)
{
	struct link_frame f;
	enum link_rx_status st;

	for (int pass = 0; pass < PORT_RX_PASSES; pass++) {
		size_t room;
		uint8_t *tail = link_rx_tail(&p->rx, &room);
		ssize_t n;

		if (!room)
			return;	/* cannot happen: parsing leaves less than a frame */
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
		link_rx_commit(&p->rx, (size_t)n);
		while ((st = link_rx_next(&p->rx, &f)) != LINK_RX_MORE) {
			if (st == LINK_RX_FRAME)
				port_rx_frame(p, &f);
			else
				port_framing_error(p, st);
			if (p->fd < 0)
				return;
			/*
			 * A NAK leaves when the error is seen, as in hardware,
			 * not after the rest of the burst: good frames later in
			 * the same read would cancel it, and what the peer sees
			 * would depend on how the stream was split into reads.
			 */
			if (p->grx.nak_due) {
				port_write(p);
				if (p->fd < 0)
					return;
			}
		}
		if ((size_t)n < room)
			return;
	}
}

/* ---- transmit --------------------------------------------------------- */

/*
 * The next DATA frame: a retransmission from the replay buffer, else a new
 * packet from the router core if the replay buffer has room.  NULL if none.
 */
static const struct tile_pkt *port_next_data(struct port *p, uint32_t *seq, unsigned int *vc)
{
	struct tile_pkt *slot;
	unsigned int slot_idx;

	if (gbn_tx_resend_due(&p->gtx)) {
		gbn_tx_take(&p->gtx, seq, ev_now_ms());
		card_port_count(p->card, p->idx, LOOM_PORT_REPLAYED, 1);
		slot_idx = gbn_tx_slot(&p->gtx, *seq);
		*vc = p->replay_vc[slot_idx];
		return &p->replay[slot_idx];
	}
	if (!gbn_tx_room(&p->gtx))
		return NULL;	/* back-pressure: the output queues wait */
	slot_idx = gbn_tx_slot(&p->gtx, p->gtx.next);
	slot = &p->replay[slot_idx];
	if (!tile_tx_next(p->tile, p->idx, slot, vc))
		return NULL;
	p->replay_vc[slot_idx] = (uint8_t)*vc;
	gbn_tx_take(&p->gtx, seq, ev_now_ms());
	return slot;
}

/*
 * Append the next frame to p->tx: a maintenance frame, a NAK, credits,
 * else DATA (carrying the acknowledgement), else a lone ACK; then inject
 * faults.  False when there is nothing to send.  A frame the injector
 * drops is not appended.
 */
static bool port_next_frame(struct port *p)
{
	uint32_t ack = gbn_rx_ack_value(&p->grx), seq, credits;
	uint8_t *out = p->tx + p->tx_len;
	size_t room = sizeof(p->tx) - p->tx_len, n;
	const struct tile_pkt *e;
	unsigned int vc;

	if (!p->up)
		return false;
	if ((n = maint_tx_frame(p->card, p->idx, out, room))) {
		/* the maintenance slot goes first: never behind data or credits */
	} else if (p->lanes_notify) {
		p->lanes_notify = false;
		n = link_encode(out, room, LOOM_FRAME_TRAIN, (uint8_t)p->lanes.n, p->card->node,
				p->idx, NULL, 0, NULL, 0);
	} else if (p->grx.nak_due) {
		p->grx.nak_due = false;
		p->grx.ack_due = false;
		n = link_encode(out, room, LOOM_FRAME_NAK, 0, 0, ack, NULL, 0, NULL, 0);
		card_port_count(p->card, p->idx, LOOM_PORT_NAKS_SENT, 1);
	} else if (tile_credit_due(p->tile, p->idx, &vc, &credits)) {
		n = link_encode(out, room, LOOM_FRAME_CREDIT, (uint8_t)vc, 0, credits,
				NULL, 0, NULL, 0);
	} else if (lane_pacer_may_send(&p->pacer) && (e = port_next_data(p, &seq, &vc))) {
		p->grx.ack_due = false;
		n = link_encode(out, room, LOOM_FRAME_DATA, (uint8_t)vc, seq, ack,
				&e->h, sizeof(e->h), e->payload, e->h.len);
		lane_pacer_charge(&p->pacer, n);
	} else if (p->grx.ack_due) {
		p->grx.ack_due = false;
		n = link_encode(out, room, LOOM_FRAME_ACK, 0, 0, ack, NULL, 0, NULL, 0);
	} else {
		return false;
	}
	card_port_count(p->card, p->idx, LOOM_PORT_TX_FRAMES, 1);
	card_port_count(p->card, p->idx, LOOM_PORT_TX_BYTES, (uint32_t)n);
	switch (fault_apply(&p->fault, out, n)) {
	case FAULT_NONE:
		break;
	case FAULT_DROPPED:
		n = 0;
		/* fall through */
	case FAULT_CORRUPTED:
		card_port_count(p->card, p->idx, LOOM_PORT_INJECTED, 1);
		break;
	}
	p->tx_len += n;
	return true;
}

static void port_write(struct port *p)
{
	while (p->fd >= 0) {
		ssize_t n;

		if (p->tx_off == p->tx_len) {
			/* batch the frames that are ready into one send */
			p->tx_off = p->tx_len = 0;
			if (p->pacer.lane_mbps)
				lane_pacer_refill(&p->pacer, p->lanes.n, port_now_ns());
			while (sizeof(p->tx) - p->tx_len >= LOOM_FRAME_MAX && port_next_frame(p))
				;
			if (!p->tx_len)
				break;
			continue;
		}
		n = send(p->fd, p->tx + p->tx_off, p->tx_len - p->tx_off, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				if (!p->out_armed) {
					p->out_armed = true;
					port_arm(p);
				}
				return;
			}
			if (errno == EINTR)
				continue;
			port_down(p, strerror(errno));
			return;
		}
		p->tx_off += (size_t)n;
	}
	if (p->out_armed && p->fd >= 0) {
		p->out_armed = false;
		port_arm(p);
	}
}

/* ---- sockets ---------------------------------------------------------- */

static void port_conn_event(struct ev_handler *h, uint32_t events)
{
	struct port *p = container_of(h, struct port, cev);

	if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
		port_read(p);
	if (p->fd >= 0 && (events & EPOLLOUT))
		port_write(p);
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

bool port_set_init(struct port_set *ps, unsigned int n, struct card *c, int epfd,
		   const struct port_link_cfg *cfg)
{
	memset(ps, 0, sizeof(*ps));
	ps->n = n;
	ps->cfg = *cfg;
	for (unsigned int i = 0; i < LOOM_MAX_PORTS; i++) {
		struct port *p = &ps->port[i];

		p->idx = i;
		p->card = c;
		p->epfd = epfd;
		p->lfd = -1;
		p->fd = -1;
		p->cfd = -1;
		p->tile = &ps->tile;
		p->lev.fn = port_listen_event;
		p->cev.fn = port_conn_event;
		p->pev.fn = port_connect_event;
		p->cfg = &ps->cfg;
		port_link_reset(p, &ps->cfg);
		/* one random stream per (card seed, port) */
		fault_init(&p->fault, cfg->seed ^ (i + 1) * 0x9e3779b97f4a7c15ull);
		if (i >= n)
			continue;
		p->replay = calloc(ps->cfg.window, sizeof(*p->replay));
		p->replay_vc = calloc(ps->cfg.window, sizeof(*p->replay_vc));
		if (!p->replay || !p->replay_vc)
			return false;
	}
	return tile_init(&ps->tile, c, n, cfg->vc_buffers ? cfg->vc_buffers : TILE_BUFS_DEFAULT);
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

	int next = tile_next_timer(&ps->tile, now);

	for (unsigned int i = 0; i < ps->n; i++) {
		struct port *p = &ps->port[i];
		int wait;

		/* credit frames are not replayed: resend them while frames get lost */
		if (p->up && p->fd >= 0 && (p->lossy || p->fault.ber > 0 || p->fault.drop > 0)) {
			if (now >= p->credit_refresh) {
				p->credit_refresh = now + PORT_CREDIT_REFRESH_MS;
				tile_credit_refresh(&ps->tile, p->idx);
				port_write(p);
			}
			wait = (int)(p->credit_refresh - now);
			if (next < 0 || wait < next)
				next = wait;
		}

		if (p->up && p->fd >= 0 && gbn_tx_timer(&p->gtx, now)) {
			card_port_count(p->card, p->idx, LOOM_PORT_RETRIES, 1);
			card_port_count(p->card, p->idx, LOOM_PORT_ACK_TIMEOUTS, 1);
			port_write(p);
		}
		/* a paced port in debt sends again when it is repaid */
		if (p->up && p->fd >= 0 && p->pacer.lane_mbps && !lane_pacer_may_send(&p->pacer)) {
			lane_pacer_refill(&p->pacer, p->lanes.n, port_now_ns());
			if (lane_pacer_may_send(&p->pacer))
				port_write(p);
			if (!lane_pacer_may_send(&p->pacer)) {
				uint64_t ns = lane_pacer_wait_ns(&p->pacer, p->lanes.n);

				wait = (int)((ns + 999999u) / 1000000u);
				if (next < 0 || wait < next)
					next = wait;
			}
		}
		if (p->up && p->fd >= 0 && p->gtx.deadline) {
			wait = p->gtx.deadline > now ? (int)(p->gtx.deadline - now) : 0;
			if (next < 0 || wait < next)
				next = wait;
		}

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

void port_set_flush(struct port_set *ps)
{
	/* what moved may have made room for the host: run another round */
	if (tile_service(&ps->tile, ev_now_ms()) && ps->n)
		ps->port[0].card->more_work = true;
	for (unsigned int i = 0; i < ps->n; i++)
		port_write(&ps->port[i]);
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
		free(p->replay);
		free(p->replay_vc);
		p->replay = NULL;
		p->replay_vc = NULL;
		p->fd = p->lfd = p->cfd = -1;
	}
	tile_free(&ps->tile);
}

bool port_io_up(void *opaque, unsigned int port)
{
	struct port_set *ps = opaque;

	return port < ps->n && ps->port[port].fd >= 0 && ps->port[port].up;
}

bool port_io_can_inject(void *opaque, unsigned int port)
{
	struct port_set *ps = opaque;

	/*
	 * tile_host_can_inject() allows as many as --vc-buffers, which may
	 * exceed the host request queue (TILE_HOST_REQ_CAP): a push into the
	 * full queue would fail the packet with LINK
	 */
	return port_io_up(opaque, port) && tile_host_can_inject(&ps->tile, port) &&
	       ps->tile.port[port].host_req.count < ps->tile.port[port].host_req.cap;
}

bool port_io_send(void *opaque, unsigned int port, const struct loom_pkt_hdr *h,
		  const void *payload)
{
	struct port_set *ps = opaque;

	if (!port_io_up(opaque, port))
		return false;
	return tile_host_send(&ps->tile, port, h, payload);
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
	size_t used;

	used = (size_t)snprintf(out, len, "port=%u up=%d cut=%d", idx, port_io_up(ps, idx),
				p->cut);
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]) && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, " %s=%u", regs[i].name,
					 card_rd32(p->card, card_port_reg(idx, regs[i].reg)));
	if (used < len)
		used += (size_t)snprintf(out + used, len - used, " lanes=%u lane_drops=%u rate_mbps=%u",
					 p->lanes.n, p->lanes.drops, p->lanes.n * CARD_LANE_MBPS);
	for (unsigned int v = 0; v < LOOM_VC_MAINT && used < len; v++)
		used += (size_t)snprintf(out + used, len - used, "%s%u", v ? "," : " credits=",
					 credit_avail(&ps->tile.port[idx].tx[v]));
	for (unsigned int v = 0; v < LOOM_VC_MAINT && used < len; v++)
		used += (size_t)snprintf(out + used, len - used, "%s%u", v ? "," : " inbuf=",
					 ps->tile.port[idx].in[v].count);
	if (used < len)
		snprintf(out + used, len - used,
			 " duplicates=%llu replay_held=%u replay_window=%u ber=%g drop=%g corrupt=%g flipped_bits=%llu corrupted_frames=%llu dropped_frames=%llu",
			 (unsigned long long)p->duplicates, gbn_tx_held(&p->gtx), p->gtx.window,
			 p->fault.ber, p->fault.drop, p->fault.corrupt,
			 (unsigned long long)p->fault.flipped_bits,
			 (unsigned long long)p->fault.corrupted_frames,
			 (unsigned long long)p->fault.dropped_frames);
}
