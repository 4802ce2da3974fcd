// SPDX-License-Identifier: GPL-2.0
/*
 * Go-back-N sender and receiver state machines (see gbn.h).
 */
#include "gbn.h"

void gbn_tx_init(struct gbn_tx *tx, uint32_t first, unsigned int window, unsigned int timeout)
{
	tx->base = first;
	tx->next = first;
	tx->resend = first;
	tx->window = window ? window : 1;
	tx->base_slot = 0;
	tx->timeout = timeout;
	tx->deadline = 0;
}

/* @slot + @n modulo the window, for @slot < window and @n <= window (no division). */
static unsigned int gbn_tx_wrap(const struct gbn_tx *tx, unsigned int slot, uint32_t n)
{
	uint32_t s = slot + n;

	return s >= tx->window ? s - tx->window : s;
}

unsigned int gbn_tx_slot(const struct gbn_tx *tx, uint32_t seq)
{
	uint32_t n = seq - tx->base;

	return n <= tx->window ? gbn_tx_wrap(tx, tx->base_slot, n) :
				 (tx->base_slot + n) % tx->window;
}

static void gbn_tx_arm(struct gbn_tx *tx, uint64_t now)
{
	tx->deadline = now + tx->timeout;
	if (!tx->deadline)
		tx->deadline = 1;
}

bool gbn_tx_take(struct gbn_tx *tx, uint32_t *seq, uint64_t now)
{
	bool resend = gbn_tx_resend_due(tx);

	if (!resend)
		tx->next++;
	*seq = tx->resend++;
	if (!tx->deadline)
		gbn_tx_arm(tx, now);
	return resend;
}

unsigned int gbn_tx_ack(struct gbn_tx *tx, uint32_t ack, uint64_t now)
{
	uint32_t freed = ack + 1 - tx->base;

	/* inside the window: base - 1 <= ack <= next - 1, modulo 2^32 */
	if (freed == 0 || !gbn_tx_ack_in_window(tx, ack))
		return 0;
	/* never acknowledges a frame not yet (re)sent since a rewind */
	if ((uint32_t)(tx->resend - tx->base) < freed)
		tx->resend = ack + 1;
	tx->base = ack + 1;
	tx->base_slot = gbn_tx_wrap(tx, tx->base_slot, freed);
	if (tx->resend == tx->base && !gbn_tx_held(tx))
		tx->deadline = 0;
	else
		gbn_tx_arm(tx, now);
	return freed;
}

static bool gbn_tx_rewind(struct gbn_tx *tx, uint64_t now)
{
	if (tx->resend == tx->base)
		return false;	/* nothing on the wire */
	tx->resend = tx->base;
	gbn_tx_arm(tx, now);
	return true;
}

bool gbn_tx_nak(struct gbn_tx *tx, uint32_t ack, uint64_t now)
{
	if (!gbn_tx_ack_in_window(tx, ack))
		return false;	/* outside the window: stale or bogus */
	gbn_tx_ack(tx, ack, now);
	return gbn_tx_rewind(tx, now);
}

bool gbn_tx_timer(struct gbn_tx *tx, uint64_t now)
{
	if (!tx->deadline || now < tx->deadline)
		return false;
	if (!gbn_tx_held(tx)) {
		tx->deadline = 0;
		return false;
	}
	if (!gbn_tx_rewind(tx, now)) {
		gbn_tx_arm(tx, now);	/* everything already queued for resend */
		return false;
	}
	return true;
}

void gbn_rx_init(struct gbn_rx *rx, uint32_t first)
{
	rx->expected = first;
	rx->in_recovery = false;
	rx->seen_valid = false;
	rx->last_seen = 0;
	rx->nak_due = false;
	rx->ack_due = false;
}

enum gbn_rx_verdict gbn_rx_data(struct gbn_rx *rx, uint32_t seq)
{
	int32_t d = (int32_t)(seq - rx->expected);

	if (d == 0) {
		rx->expected++;
		rx->in_recovery = false;
		rx->seen_valid = false;
		rx->nak_due = false;
		rx->ack_due = true;
		return GBN_RX_ACCEPT;
	}
	if (d < 0) {
		/* the sender replays what we have: tell it where we are */
		rx->ack_due = true;
		return GBN_RX_DUPLICATE;
	}
	if (rx->in_recovery && rx->seen_valid && (int32_t)(seq - rx->last_seen) <= 0)
		rx->nak_due = true;	/* the replay lost the expected frame again */
	gbn_rx_error(rx);
	rx->seen_valid = true;
	rx->last_seen = seq;
	return GBN_RX_OUT_OF_ORDER;
}

void gbn_rx_error(struct gbn_rx *rx)
{
	if (rx->in_recovery)
		return;
	rx->in_recovery = true;
	rx->seen_valid = false;
	rx->nak_due = true;
}
