/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Network ports as stream sockets ("cables").
 *
 * A port either listens on a cable endpoint (cable_socket.h: a UNIX socket
 * path or a TCP address) and accepts one peer, or connects to one
 * (retrying while nobody listens there yet, up to 60 s).
 * Each port feeds the router core (tile.h): received packets go into the
 * input buffer of their VC, packets the core switched to the port leave
 * from its output queues (barrier, then responses, then requests), and the
 * port exchanges LOOM_FRAME_CREDIT frames for the core's credits.  On
 * connect both ends send a TRAIN frame (seq = node, ack = port); the link
 * is UP when the peer's arrives, and credits restart.  A disconnect marks
 * the port down, keeps its counters, and answers every request waiting to
 * leave on it with LOOM_CQE_ST_LINK to its source.
 *
 * Reliable delivery (gbn.h): every packet leaves in a DATA frame with a
 * sequence number and stays in the port's replay buffer until the peer
 * acknowledges it (ACK frames or the ack field of its DATA frames); a NAK
 * or the ack timer replays from the first unacknowledged frame.  A full
 * replay buffer stops the port taking packets from its queues.  Faults
 * (fault.h) are injected into frames as they are transmitted.
 */
#ifndef LOOM_CARD_PORT_H
#define LOOM_CARD_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/regs.h>

#include "cable_socket.h"
#include "event.h"
#include "fault.h"
#include "gbn.h"
#include "lanes.h"
#include "link.h"
#include "tile.h"

#define PORT_TX_BATCH		(64 * LOOM_FRAME_MAX)	/* frames per send() at most */
#define PORT_LANE_MBPS_MAX	100000	/* --lane-mbps: 100 Gbit/s per lane at most */
#define PORT_CONNECT_TIMEOUT_MS	60000
#define PORT_CONNECT_RETRY_MS	100
#define PORT_CONNECT_PENDING_MS	3000	/* a TCP connect in progress, at most */

struct card;

enum port_mode {
	PORT_UNCABLED = 0,
	PORT_LISTEN,
	PORT_CONNECT,
};

/* Link-layer settings shared by every port of a card. */
struct port_link_cfg {
	unsigned int window;	/* replay buffer, frames */
	unsigned int timeout_ms;	/* ack timeout before a replay */
	uint64_t seed;		/* fault injection: each port derives its stream */
	unsigned int vc_buffers;	/* whole-packet input buffers per VC */
	unsigned int lane_mbps;	/* emulated bandwidth per lane, 0: unpaced */
};

struct port {
	unsigned int idx;
	struct card *card;
	struct tile *tile;
	int epfd;
	enum port_mode mode;
	struct cable_addr addr;	/* where it listens or connects */
	int lfd;		/* listening socket (PORT_LISTEN) */
	int fd;			/* the cable, -1 when not connected */
	int cfd;		/* a connect in progress, -1 when none */
	bool created_socket;	/* we bound a UNIX path: unlink it at exit */
	bool up;		/* peer's TRAIN received */
	bool out_armed;		/* EPOLLOUT requested */
	bool connecting;	/* PORT_CONNECT: retrying */
	uint64_t connect_deadline;
	uint64_t next_retry;
	struct ev_handler lev;
	struct ev_handler cev;
	struct ev_handler pev;	/* cfd became writable: connected or failed */
	struct link_rx rx;
	uint8_t tx[PORT_TX_BATCH];	/* frames being written, batched */
	size_t tx_len;
	size_t tx_off;
	struct gbn_tx gtx;
	struct gbn_rx grx;
	struct tile_pkt *replay;	/* gtx.window slots */
	uint8_t *replay_vc;		/* VC of each replay slot */
	const struct port_link_cfg *cfg;
	struct fault fault;
	bool cut;		/* cut by the control socket: stays down */
	uint64_t duplicates;	/* DATA frames discarded as already delivered */
	unsigned int errors_logged;
	bool lossy;		/* frames may be lost: resend credits periodically */
	struct lanes lanes;	/* lanes in use and their CRC errors */
	bool lanes_notify;	/* tell the peer our lane count (TRAIN frame) */
	struct lane_pacer pacer;	/* DATA frames leave at lanes x lane_mbps */
	uint64_t credit_refresh;	/* next periodic credit resend */
};

struct port_set {
	struct port port[LOOM_MAX_PORTS];
	unsigned int n;
	struct port_link_cfg cfg;
	struct tile tile;	/* the router core between the ports */
};

/*
 * Prepare all @n ports (uncabled, queues and replay buffers allocated)
 * with the link settings @cfg; false on no memory.
 */
bool port_set_init(struct port_set *ps, unsigned int n, struct card *c, int epfd,
		   const struct port_link_cfg *cfg);
/*
 * Cable port @idx to endpoint @a (listen or connect, as @a says); on
 * failure writes a message to @err and returns false.
 */
bool port_cable(struct port_set *ps, unsigned int idx, const struct cable_addr *a,
		char *err, size_t errlen);
/* Run timers (connect retries, ack timers); returns ms until the next one, or -1. */
int port_set_timers(struct port_set *ps, uint64_t now);
/* Switch packets (tile_service), then write frames until the sockets would block. */
void port_set_flush(struct port_set *ps);
/*
 * Cut the cable of port @idx: the link goes down (queued requests fail
 * with LINK) and stays down -- no accept, no reconnect -- until
 * port_restore().  Both are no-ops when already in that state.
 */
void port_cut(struct port_set *ps, unsigned int idx);
void port_restore(struct port_set *ps, unsigned int idx);
/* Counters and state of port @idx as "key=value ..." text. */
void port_stats(struct port_set *ps, unsigned int idx, char *out, size_t len);
/* Close everything; unlink the sockets we created. */
void port_set_close(struct port_set *ps);

/* struct card_io hooks (opaque = struct port_set *) */
bool port_io_up(void *opaque, unsigned int port);
bool port_io_can_inject(void *opaque, unsigned int port);
bool port_io_send(void *opaque, unsigned int port, const struct loom_pkt_hdr *h,
		  const void *payload);

#endif
