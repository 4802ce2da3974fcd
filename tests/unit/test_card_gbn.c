// SPDX-License-Identifier: GPL-2.0
/*
 * The go-back-N state machines as pure logic (gbn.c): the sender's window,
 * cumulative acks, NAK rewind, ack timer and back-pressure; the receiver's
 * in-order acceptance, duplicate and out-of-order discards and its NAK
 * episodes; sequence numbers wrapping at 2^32.  Then a lossy channel
 * simulated between the two (fault.c drops and corrupts) must deliver
 * every frame exactly once and in order.  And the fault injector itself.
 */
#include "fault.h"
#include "gbn.h"
#include "tap.h"

#include <string.h>

TAP_DEFINE;

#define W	8
#define T	50

/* Send @n new frames; returns how many got sequence numbers in order from @first. */
static unsigned int send_new(struct gbn_tx *tx, unsigned int n, uint32_t first, uint64_t now)
{
	unsigned int good = 0;

	for (unsigned int i = 0; i < n && gbn_tx_room(tx); i++) {
		uint32_t seq;

		if (!gbn_tx_take(tx, &seq, now) && seq == first + i)
			good++;
	}
	return good;
}

static void sender_tests(uint32_t first, const char *where)
{
	struct gbn_tx tx;
	uint32_t seq;
	bool ok;

	gbn_tx_init(&tx, first, W, T);
	ok = send_new(&tx, W, first, 0) == W && !gbn_tx_room(&tx) && gbn_tx_held(&tx) == W &&
	     !gbn_tx_resend_due(&tx);
	tap_ok(ok, "%s: %d new frames numbered from %u fill the window; then no room (back-pressure)",
	       where, W, first);
	ok = gbn_tx_ack(&tx, first + 2, 1) == 3 && gbn_tx_held(&tx) == W - 3 && gbn_tx_room(&tx) &&
	     tx.base == first + 3 && gbn_tx_slot(&tx, first + 3) == 3;
	tap_ok(ok, "%s: cumulative ack of %u frees 3 frames and advances the base", where, first + 2);
	ok = gbn_tx_ack(&tx, first + 2, 2) == 0 && gbn_tx_ack(&tx, first, 2) == 0 &&
	     gbn_tx_ack(&tx, first - 1, 2) == 0 && gbn_tx_ack(&tx, first + W, 2) == 0 &&
	     gbn_tx_ack(&tx, first + 0x80000000u, 2) == 0 && gbn_tx_held(&tx) == W - 3;
	tap_ok(ok, "%s: duplicate, old, future and absurd acks free nothing", where);
	ok = gbn_tx_nak(&tx, first + 4, 3) && tx.base == first + 5 && gbn_tx_resend_due(&tx) &&
	     gbn_tx_take(&tx, &seq, 3) && seq == first + 5 && gbn_tx_take(&tx, &seq, 3) &&
	     seq == first + 6 && gbn_tx_take(&tx, &seq, 3) && seq == first + 7 &&
	     !gbn_tx_resend_due(&tx);
	tap_ok(ok, "%s: NAK %u acks up to it and rewinds: resends %u..%u in order", where,
	       first + 4, first + 5, first + 7);
	ok = !gbn_tx_nak(&tx, first + 1, 4) && !gbn_tx_nak(&tx, first + 100, 4) &&
	     !gbn_tx_resend_due(&tx) && tx.base == first + 5;
	tap_ok(ok, "%s: a stale or impossible NAK changes nothing", where);
	/* new frames after the resends continue the numbering */
	ok = send_new(&tx, 5, first + W, 4) == 5 && !gbn_tx_room(&tx);
	tap_ok(ok, "%s: after the replay new frames continue at %u, window full again", where,
	       first + W);
	/* timer: T ms after the last progress (the NAK at 3) -> rewind, once per expiry */
	ok = !gbn_tx_timer(&tx, 3 + T - 1) && gbn_tx_timer(&tx, 3 + T + 10) &&
	     tx.resend == tx.base && gbn_tx_held(&tx) == W && !gbn_tx_timer(&tx, 4 + T + 11);
	tap_ok(ok, "%s: the ack timer fires after %d ms without progress and rewinds to the base",
	       where, T);
	/* an ack during the replay skips what the receiver already has */
	ok = gbn_tx_take(&tx, &seq, 70) && seq == first + 5 &&
	     gbn_tx_ack(&tx, first + 9, 71) == 5 && gbn_tx_take(&tx, &seq, 71) && seq == first + 10;
	tap_ok(ok, "%s: an ack in the middle of a replay moves the replay past the acked frames",
	       where);
	while (gbn_tx_resend_due(&tx))
		gbn_tx_take(&tx, &seq, 72);
	ok = gbn_tx_ack(&tx, tx.next - 1, 80) == W - 5 && !gbn_tx_held(&tx) && !tx.deadline &&
	     !gbn_tx_timer(&tx, 1000);
	tap_ok(ok, "%s: everything acked: window empty, timer stopped", where);
}

static void receiver_tests(uint32_t first, const char *where)
{
	struct gbn_rx rx;
	bool ok;

	gbn_rx_init(&rx, first);
	ok = gbn_rx_ack_value(&rx) == first - 1 && gbn_rx_data(&rx, first) == GBN_RX_ACCEPT &&
	     gbn_rx_data(&rx, first + 1) == GBN_RX_ACCEPT && rx.ack_due && !rx.nak_due &&
	     gbn_rx_ack_value(&rx) == first + 1;
	tap_ok(ok, "%s: in-order frames accepted, ack value is the last one (%u)", where, first + 1);
	rx.ack_due = false;
	ok = gbn_rx_data(&rx, first + 1) == GBN_RX_DUPLICATE &&
	     gbn_rx_data(&rx, first) == GBN_RX_DUPLICATE && rx.ack_due && !rx.nak_due &&
	     gbn_rx_data(&rx, first - 1000) == GBN_RX_DUPLICATE && rx.expected == first + 2;
	tap_ok(ok, "%s: replayed (old) frames discarded and re-acknowledged, no NAK", where);
	ok = gbn_rx_data(&rx, first + 3) == GBN_RX_OUT_OF_ORDER && rx.nak_due &&
	     gbn_rx_ack_value(&rx) == first + 1;
	rx.nak_due = false;
	ok = ok && gbn_rx_data(&rx, first + 4) == GBN_RX_OUT_OF_ORDER && !rx.nak_due &&
	     (gbn_rx_error(&rx), !rx.nak_due) && rx.expected == first + 2;
	tap_ok(ok, "%s: a gap: frame discarded, one NAK for the episode (not per frame or error)",
	       where);
	ok = gbn_rx_data(&rx, first + 3) == GBN_RX_OUT_OF_ORDER && rx.nak_due;
	rx.nak_due = false;
	tap_ok(ok, "%s: sequence numbers going back without the expected frame: the replay lost it, NAK again",
	       where);
	ok = gbn_rx_data(&rx, first + 2) == GBN_RX_ACCEPT && !rx.in_recovery &&
	     gbn_rx_data(&rx, first + 3) == GBN_RX_ACCEPT;
	gbn_rx_error(&rx);
	ok = ok && rx.nak_due && gbn_rx_ack_value(&rx) == first + 3;
	tap_ok(ok, "%s: the expected frame ends the episode; a CRC error starts a new one with a NAK",
	       where);
}

/* A channel of frames: sequence numbers only, with a corrupt flag. */
struct chan {
	uint32_t seq[4096];
	int kind[4096];		/* 0 data, 1 ack, 2 nak */
	uint32_t ack[4096];
	bool bad[4096];
	unsigned int n;
};

static void chan_put(struct chan *c, struct fault *fl, int kind, uint32_t seq, uint32_t ack)
{
	uint8_t bits[64] = { 0 };
	enum fault_verdict v = fault_apply(fl, bits, sizeof(bits));

	if (v == FAULT_DROPPED || c->n == 4096)
		return;
	c->kind[c->n] = kind;
	c->seq[c->n] = seq;
	c->ack[c->n] = ack;
	c->bad[c->n] = v == FAULT_CORRUPTED;
	c->n++;
}

/*
 * Simulate @frames frames from A to B over a channel that drops and
 * corrupts both ways, stepping time 1 ms per round.  Returns true when B
 * got every frame exactly once in order.
 */
static bool simulate(uint32_t first, unsigned int frames, double ber, double drop,
		     unsigned int *retries)
{
	static struct chan ab, ba;
	struct gbn_tx tx;
	struct gbn_rx rx;
	struct fault fab, fba;
	uint32_t delivered = 0, seq;
	unsigned int produced = 0;
	bool in_order = true;

	gbn_tx_init(&tx, first, 16, 5);
	gbn_rx_init(&rx, first);
	fault_init(&fab, 1);
	fault_init(&fba, 2);
	fault_set_ber(&fab, ber);
	fault_set_ber(&fba, ber);
	fault_set_drop(&fab, drop);
	fault_set_drop(&fba, drop);
	*retries = 0;
	for (uint64_t now = 1; now < 200000 && delivered < frames; now++) {
		ab.n = ba.n = 0;
		for (unsigned int k = 0; k < 6; k++) {	/* a few frames per round */
			if (gbn_tx_resend_due(&tx) || (gbn_tx_room(&tx) && produced < frames)) {
				if (!gbn_tx_take(&tx, &seq, now))
					produced++;
				chan_put(&ab, &fab, 0, seq, 0);
			}
		}
		for (unsigned int i = 0; i < ab.n; i++) {
			if (ab.bad[i]) {
				gbn_rx_error(&rx);
				continue;
			}
			if (gbn_rx_data(&rx, ab.seq[i]) == GBN_RX_ACCEPT) {
				in_order &= ab.seq[i] == first + delivered;
				delivered++;
			}
		}
		if (rx.nak_due)
			chan_put(&ba, &fba, 2, 0, gbn_rx_ack_value(&rx));
		else if (rx.ack_due)
			chan_put(&ba, &fba, 1, 0, gbn_rx_ack_value(&rx));
		rx.nak_due = rx.ack_due = false;
		for (unsigned int i = 0; i < ba.n; i++) {
			if (ba.bad[i])
				continue;
			if (ba.kind[i] == 2)
				*retries += gbn_tx_nak(&tx, ba.ack[i], now);
			else
				gbn_tx_ack(&tx, ba.ack[i], now);
		}
		*retries += gbn_tx_timer(&tx, now);
	}
	return in_order && delivered == frames && rx.expected == first + frames;
}

static void fault_tests(void)
{
	struct fault a, b;
	uint8_t x[1000], y[1000], z[1000];
	unsigned int flips = 0, drops = 0;
	bool ok;

	memset(x, 0x5a, sizeof(x));
	memcpy(y, x, sizeof(x));
	fault_init(&a, 9);
	ok = fault_apply(&a, y, sizeof(y)) == FAULT_NONE && !memcmp(x, y, sizeof(x));
	tap_ok(ok, "fault: no rates set, frames pass untouched");
	fault_set_ber(&a, 1);
	ok = fault_apply(&a, y, sizeof(y)) == FAULT_CORRUPTED;
	for (size_t i = 0; i < sizeof(y); i++)
		ok &= (uint8_t)(y[i] ^ x[i]) == 0xff;
	tap_ok(ok && a.flipped_bits == 8000, "fault: BER 1 flips every bit (%llu)",
	       (unsigned long long)a.flipped_bits);
	fault_init(&a, 42);
	fault_init(&b, 42);
	fault_set_ber(&a, 1e-3);
	fault_set_ber(&b, 1e-3);
	ok = true;
	for (int r = 0; r < 200; r++) {
		memcpy(y, x, sizeof(x));
		memcpy(z, x, sizeof(x));
		ok &= fault_apply(&a, y, sizeof(y)) == fault_apply(&b, z, sizeof(z)) &&
		      !memcmp(y, z, sizeof(y));
		for (size_t i = 0; i < sizeof(y); i++)
			flips += (unsigned int)__builtin_popcount(y[i] ^ x[i]);
	}
	/* 1.6 Mbit at 1e-3: 1600 expected, sd 40 */
	tap_ok(ok && flips > 1400 && flips < 1800 && flips == a.flipped_bits,
	       "fault: BER 1e-3 over 1.6 Mbit flips %u bits; the same seed flips the same bits", flips);
	fault_init(&a, 3);
	fault_set_drop(&a, 0.01);
	for (int r = 0; r < 100000; r++)
		drops += fault_apply(&a, y, 10) == FAULT_DROPPED;
	tap_ok(drops > 850 && drops < 1150 && a.dropped_frames == drops,
	       "fault: drop 1%% drops %u of 100000 frames", drops);
	fault_set_drop(&a, 0);
	fault_set_ber(&a, 0);
	memcpy(y, x, sizeof(x));
	tap_ok(fault_apply(&a, y, sizeof(y)) == FAULT_NONE && !memcmp(x, y, sizeof(x)),
	       "fault: rates set back to 0 turn injection off");
}

int main(void)
{
	unsigned int retries;
	bool ok;

	tap_plan(2 * 9 + 2 * 5 + 5 + 3);
	sender_tests(0, "sender from 0");
	sender_tests(0xfffffffcu, "sender across 2^32");
	receiver_tests(0, "receiver from 0");
	receiver_tests(0xfffffffeu, "receiver across 2^32");
	fault_tests();
	ok = simulate(0, 3000, 0, 0, &retries) && retries == 0;
	tap_ok(ok, "clean channel: 3000 frames delivered once, in order, no retries");
	ok = simulate(0xffffff00u, 3000, 2e-4, 0.02, &retries) && retries > 0;
	tap_ok(ok, "channel with bit errors and 2%% drops both ways, across 2^32: 3000 frames once, in order (%u retries)",
	       retries);
	ok = simulate(7, 2000, 0, 0.3, &retries) && retries > 0;
	tap_ok(ok, "30%% drops both ways: 2000 frames once, in order (%u retries)", retries);
	return tap_exit_status();
}
