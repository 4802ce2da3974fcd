/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulator's cables: each network port of the card is one stream
 * socket to the peer card's process.
 *
 * A port either listens on a cable endpoint (cable_socket.h: a UNIX socket
 * path or a TCP address) and accepts one peer, or connects to one
 * (retrying while nobody listens there yet, up to 60 s).  A
 * connected socket is the cable's carrier (card_port_carrier): the port's
 * link unit trains over it.  The frames the link unit starts on its lanes
 * (its outbox) are written to the socket as they come, after fault
 * injection (fault.h; TRAIN frames are spared so that links always
 * train); whatever the socket brings is committed to the link unit's
 * framer at the card's current cycle, and the card steps.  Each card runs
 * its own clock: frames arrive when they arrive.  A disconnect drops the
 * carrier; the link unit's frames in flight are lost and its go-back-N
 * sender forgets them (the link retrains from sequence number 0).
 */
#ifndef LOOM_EMU_PORT_H
#define LOOM_EMU_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/regs.h>

#include "cable_socket.h"
#include "event.h"
#include "fault.h"

#define PORT_TX_BUF		(64 * LOOM_FRAME_MAX)	/* bytes waiting for the socket */
#define PORT_CONNECT_TIMEOUT_MS	60000
#define PORT_CONNECT_RETRY_MS	100
#define PORT_CONNECT_PENDING_MS	3000	/* a TCP connect in progress, at most */
#define PORT_RX_PASSES		4	/* reads per readiness event at most */
/*
 * A busy card writes the frames it started at most this many edges after
 * the first of them, or as soon as a transmit buffer is half full; an
 * idle one at once (port_set_take, port_set_flush).
 */
#define PORT_FLUSH_EDGES	512

struct card;

enum port_mode {
	PORT_UNCABLED = 0,
	PORT_LISTEN,
	PORT_CONNECT,
};

struct port {
	unsigned int idx;
	struct card *card;
	int epfd;
	enum port_mode mode;
	struct cable_addr addr;	/* where it listens or connects */
	int lfd;		/* listening socket (PORT_LISTEN) */
	int fd;			/* the cable, -1 when not connected */
	int cfd;		/* a connect in progress, -1 when none */
	bool created_socket;	/* we bound a UNIX path: unlink it at exit */
	bool out_armed;		/* EPOLLOUT requested */
	bool connecting;	/* PORT_CONNECT: retrying */
	bool cut;		/* cut by the control socket: stays down */
	uint64_t connect_deadline;
	uint64_t next_retry;
	struct ev_handler lev;
	struct ev_handler cev;
	struct ev_handler pev;	/* cfd became writable: connected or failed */
	struct fault fault;
	uint8_t tx[PORT_TX_BUF];	/* frames taken from the outbox, not yet written */
	size_t tx_len;
	size_t tx_off;
	uint64_t injected;	/* frames corrupted or dropped by injection */
	uint64_t heard_ms;	/* wall time the neighbour's last bytes arrived */
};

struct port_set {
	struct port port[LOOM_MAX_PORTS];
	unsigned int n;
	struct card *card;
};

/*
 * Prepare all @n ports of card @c (uncabled); @seed derives each port's
 * fault stream.
 */
void port_set_init(struct port_set *ps, unsigned int n, struct card *c, int epfd, uint64_t seed);
/*
 * Cable port @idx to endpoint @a (listen or connect, as @a says); on
 * failure writes a message to @err and returns false.
 */
bool port_cable(struct port_set *ps, unsigned int idx, const struct cable_addr *a,
		char *err, size_t errlen);
/* Connect retries; returns ms until the next one, or -1. */
int port_set_timers(struct port_set *ps, uint64_t now);
/*
 * Move the frames the link units started into the transmit buffers
 * (faults injected on the way), as the cable takes them at the edge that
 * starts them, without writing them.  Returns the most bytes a port's
 * buffer holds unwritten.
 */
size_t port_set_take(struct port_set *ps);
/*
 * The same, then write until the sockets would block.  True if a port
 * still holds frames the socket did not take.
 */
bool port_set_flush(struct port_set *ps);
/*
 * Cut the cable of port @idx: the link goes down and stays down -- no
 * accept, no reconnect -- until port_restore().  Both are no-ops when
 * already in that state.
 */
void port_cut(struct port_set *ps, unsigned int idx);
void port_restore(struct port_set *ps, unsigned int idx);
/*
 * Is the neighbour on port @idx to be judged by the card's forward-progress
 * timer at wall time @now (ms)?  A running neighbour answers the link's
 * credit polls: it has been heard within @answer_ms, and a stall on it is
 * real.  One silent for longer may only be starved of CPU: false, until
 * it has been silent for @give_up_ms (it is then judged).  An uncabled or
 * disconnected port: true.
 */
bool port_peer_heard(const struct port_set *ps, unsigned int idx, uint64_t now,
		     uint64_t answer_ms, uint64_t give_up_ms);
/* Counters and state of port @idx as "key=value ..." text. */
void port_stats(struct port_set *ps, unsigned int idx, char *out, size_t len);
/* Close everything; unlink the sockets we created. */
void port_set_close(struct port_set *ps);

#endif
