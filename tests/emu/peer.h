/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A test acting as the far end of a card's cable: it listens where the
 * card's port 0 connects, trains the link, and sends and receives frames
 * with the card's own link-layer code.  It is a minimal reliable link
 * end: it acknowledges the card's DATA frames in order (discarding
 * replays), and answers a NAK by resending its recent DATA frames from the
 * requested sequence number (the card's replay asks for them).  It grants
 * the card PEER_CREDITS credits per VC once, after training, and ignores
 * the card's CREDIT frames.
 */
#ifndef LOOM_TESTS_PEER_H
#define LOOM_TESTS_PEER_H

#include <stddef.h>
#include <stdint.h>

#include "card.h"
#include "fabric.h"
#include "gbn.h"
#include "link.h"
#include "link_credit.h"

#define PEER_REPLAY	64	/* DATA frames kept for a NAK */

struct peer {
	int lfd;
	int fd;
	uint16_t node;
	uint32_t tx_seq;
	struct link_rx rx;
	struct gbn_rx grx;
	struct card_params cp;		/* the card's: its links' parameters */
	struct link_credit credit;	/* our grants to the card */
	uint8_t sent[PEER_REPLAY][LOOM_FRAME_MAX];
	size_t sent_len[PEER_REPLAY];
	unsigned int naks;	/* NAK frames received */
	unsigned int resent;	/* DATA frames resent for them */
	unsigned int duplicates;	/* replayed DATA frames from the card */
	unsigned int polls;		/* the card's credit polls answered */
};

/*
 * Start card 0 of @f with port 0 connected to the test (which claims to be
 * node @node, port @port) and @route as its only --route, attach its fake
 * host, train the link.  0, or -1 with diagnostics printed.
 */
int peer_start(struct fabric *f, struct peer *p, uint16_t node, uint8_t port, const char *route);
/* Raw bytes onto the cable. */
int peer_send(struct peer *p, const void *buf, size_t len);
/*
 * Encode the DATA frame carrying @h and @plen payload bytes with the next
 * sequence number into @out (LOOM_FRAME_MAX bytes) and keep it for replay;
 * returns its size (0 if it does not fit).  The caller sends it (or a
 * corrupted copy: the kept one is good).
 */
size_t peer_frame(struct peer *p, const struct loom_pkt_hdr *h, const void *payload, size_t plen,
		  uint8_t *out);
/*
 * The same with any VC and body: @alen bytes of @a then @blen of @b (a
 * malformed packet: short, or on a VC not of its class).
 */
size_t peer_frame_raw(struct peer *p, uint8_t vc, const void *a, size_t alen, const void *b,
		      size_t blen, uint8_t *out);
/* One DATA frame carrying @h and @plen payload bytes, next sequence number. */
int peer_send_packet(struct peer *p, const struct loom_pkt_hdr *h, const void *payload, size_t plen);
/*
 * Next frame from the card within @ms: 1 frame, 0 timeout, -1 cable closed.
 * DATA frames come in order, once each (and are acknowledged); replayed
 * ones are discarded; a NAK is answered and also returned.
 */
int peer_recv(struct peer *p, struct link_frame *fr, int ms);
void peer_close(struct peer *p);

#endif
