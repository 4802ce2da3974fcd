// SPDX-License-Identifier: GPL-2.0
/*
 * Bad input on the cable side of the cycle-level link unit: frames with a
 * bad magic, length or CRC, and frames with a good CRC whose contents are
 * impossible (a VC the link does not carry, an acknowledgement outside the
 * window, a credit count beyond the buffer or on no VC, a packet length
 * that disagrees with the frame, an unknown type, flag or lane count, a
 * peer that sends without credit), more bytes than the framer holds, and
 * on the router side credits for flits never held and a headless flit.  Each is counted under its own name and
 * dropped: no flit reaches the router, no acknowledgement, credit or
 * sequence state changes, and the link keeps working -- except that a DATA
 * frame is taken in sequence whatever it carries: a bogus acknowledgement
 * or credit count in it is ignored and its packet delivered, a packet on a
 * VC the link does not carry or with a length that disagrees with the
 * frame is dropped after the frame took its sequence number (a replay
 * would only bring the same bytes again).
 */
#include "link_harness.h"
#include "tap.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

TAP_DEFINE;

#define VCS	4

static struct lh_pair x;

struct snap {
	struct link_counters cnt;
	uint32_t expected, tx_base;
	uint32_t granted[CHAN_VCS_MAX], received[CHAN_VCS_MAX];
	uint64_t sink_flits;
};

static void snap(struct snap *s)
{
	s->cnt = x.b.cnt;
	s->expected = x.b.rx.gbn.expected;
	s->tx_base = x.b.tx.gbn.base;
	memcpy(s->granted, x.b.credit.granted, sizeof(s->granted));
	memcpy(s->received, x.b.credit.received, sizeof(s->received));
	s->sink_flits = x.sink[0].flit_count;
}

/* The counter at @off in struct link_counters. */
static uint64_t counter(const struct link_counters *c, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)c + off, sizeof(v));
	return v;
}

/* Counter @name rose by exactly one from @s0 to @s1, and no other drop counter moved. */
static bool drops_ok(const struct snap *s0, const struct snap *s1, const char *name)
{
	static const char *const drops[] = {
		"crc_errors", "bad_ack", "bad_credit", "bad_vc", "bad_length", "bad_type",
		"credit_overruns", "not_up_drops",
	};
	bool ok = true;

	for (unsigned int i = 0; i < link_counter_count; i++) {
		const struct link_counter_info *ci = &link_counter_table[i];
		uint64_t d = counter(&s1->cnt, ci->offset) - counter(&s0->cnt, ci->offset);
		bool is_drop = false;

		for (unsigned int j = 0; j < sizeof(drops) / sizeof(drops[0]); j++)
			is_drop |= !strcmp(ci->name, drops[j]);
		if (!strcmp(ci->name, name) ? d != 1 : is_drop && d) {
			tap_diag("%s changed by %llu", ci->name, (unsigned long long)d);
			ok = false;
		}
	}
	return ok;
}

/*
 * Feed @len bytes to b as if from the cable, run a few cycles; true when
 * counter @name rose by exactly one, no other drop counter moved, and
 * nothing reached b's router or changed b's protocol state.
 */
static bool inject(const void *frame, size_t len, const char *name, bool same_seq)
{
	struct snap s0, s1;
	bool ok;

	snap(&s0);
	link_unit_rx_bytes(&x.b, frame, len);
	lh_pair_run(&x, 5);
	snap(&s1);
	ok = drops_ok(&s0, &s1, name);
	if (s1.sink_flits != s0.sink_flits || s1.cnt.rx_packets != s0.cnt.rx_packets ||
	    s1.tx_base != s0.tx_base || memcmp(s0.granted, s1.granted, sizeof(s0.granted)) ||
	    memcmp(s0.received, s1.received, sizeof(s0.received)) ||
	    (same_seq && s1.expected != s0.expected)) {
		tap_diag("state changed: sink flits %llu -> %llu, expected seq %u -> %u, tx base %u -> %u",
			 (unsigned long long)s0.sink_flits, (unsigned long long)s1.sink_flits,
			 s0.expected, s1.expected, s0.tx_base, s1.tx_base);
		ok = false;
	}
	return ok;
}

/*
 * Feed b a DATA frame with a good CRC and sequence number a's next one, as
 * if a had sent it (a's window and, for a packet b delivers, a's credits
 * take it, so b's acknowledgement and grants stay in them); true when
 * counter @name rose by exactly one, no other drop counter moved, the
 * frame took its sequence number, and its packet reached b's router only
 * if @delivered.
 */
static bool inject_taken(const void *frame, size_t len, const char *name, bool delivered)
{
	struct loom_frame_hdr h;
	struct snap s0, s1;
	bool ok;

	memcpy(&h, frame, sizeof(h));
	x.a.tx.gbn.next++;
	x.a.tx.gbn.resend++;
	if (delivered)
		link_credit_sent(&x.a.credit, h.vc, link_flits(&x.p, h.len));
	snap(&s0);
	link_unit_rx_bytes(&x.b, frame, len);
	lh_pair_run(&x, 60);
	snap(&s1);
	ok = drops_ok(&s0, &s1, name);
	if ((s1.sink_flits != s0.sink_flits) != delivered ||
	    s1.cnt.rx_packets - s0.cnt.rx_packets != (delivered ? 1 : 0) ||
	    s1.expected != s0.expected + 1 || s1.tx_base != s0.tx_base ||
	    memcmp(s0.granted, s1.granted, sizeof(s0.granted))) {
		tap_diag("state: sink flits %llu -> %llu, rx_packets %llu -> %llu, expected seq %u -> %u, tx base %u -> %u (%s)",
			 (unsigned long long)s0.sink_flits, (unsigned long long)s1.sink_flits,
			 (unsigned long long)s0.cnt.rx_packets, (unsigned long long)s1.cnt.rx_packets,
			 s0.expected, s1.expected, s0.tx_base, s1.tx_base,
			 delivered ? "delivered" : "dropped");
		ok = false;
	}
	return ok;
}

/* A header as a - the peer - would send it now. */
static struct loom_frame_hdr peer_hdr(uint8_t type)
{
	struct loom_frame_hdr h = {
		.type = type,
		.credit_vc = LOOM_FRAME_NO_CREDIT,
		.seq = x.b.rx.gbn.expected,
		.ack = x.b.tx.gbn.base - 1,
	};

	return h;
}

static size_t data_frame(uint8_t *out, struct loom_frame_hdr *h, uint16_t payload, int len_delta)
{
	struct link_pkt pkt;
	struct loom_pkt_hdr ph;

	lh_packet(&pkt, x.sink[0].next_id, payload, h->vc);
	memcpy(&ph, pkt.bytes, sizeof(ph));
	ph.len = (uint16_t)(ph.len + len_delta);
	memcpy(pkt.bytes, &ph, sizeof(ph));
	return link_encode_hdr(out, LOOM_FRAME_MAX, h, pkt.bytes, pkt.len, NULL, 0);
}

static size_t status_frame(uint8_t *out, struct loom_frame_hdr *h,
			   const struct loom_frame_credits *c, size_t len)
{
	return link_encode_hdr(out, LOOM_FRAME_MAX, h, c, len, NULL, 0);
}

/* b's grants as a would send them: what b already holds from a. */
static struct loom_frame_credits current_credits(void)
{
	struct loom_frame_credits c;

	memset(&c, 0, sizeof(c));
	for (unsigned int v = 0; v < VCS; v++)
		c.credit[v] = x.b.credit.granted[v];
	return c;
}

/* One real packet a -> b: the framer's error episode ends. */
static void good_frame(void)
{
	lh_send(&x, 0, 1, 64, 1);
	lh_pair_drain(&x, 10000);
	lh_pair_run(&x, 200);
}

int main(void)
{
	uint8_t f[LOOM_FRAME_MAX], junk[200];
	struct loom_frame_hdr h;
	struct loom_frame_credits c;
	struct link_params p;
	size_t n;
	bool ok;

	tap_plan(27);
	link_params_default(&p);
	p.vcs = VCS;
	if (!lh_pair_init(&x, &p, 21) || !lh_pair_train(&x, 1000))
		return 1;
	lh_send(&x, 0, 3, 64, 1);
	lh_send(&x, 1, 3, 64, 1);
	lh_pair_drain(&x, 10000);
	lh_pair_run(&x, 200);

	/*
	 * framing: an error is counted once per episode, up to the next good
	 * frame, so a real packet from a ends each one
	 */
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (uint8_t)(i * 13 + 5) | 1;	/* never the magic's first byte 0x46 */
	tap_ok(inject(junk, sizeof(junk), "crc_errors", true), "garbage without a magic: one framing error");
	good_frame();
	h = peer_hdr(LOOM_FRAME_DATA);
	n = data_frame(f, &h, 64, 0);
	f[LOOM_FRAME_HDR_SIZE + 10] ^= 0x04;
	tap_ok(inject(f, n, "crc_errors", true), "a DATA frame with a bad CRC: one CRC error, nothing delivered");
	good_frame();
	h = peer_hdr(LOOM_FRAME_DATA);
	n = data_frame(f, &h, 64, 0);
	f[4] = 0xff;
	f[5] = 0x7f;	/* len 32767 */
	tap_ok(inject(f, n, "crc_errors", true), "a header with an impossible length: one framing error");
	good_frame();

	/* good CRC, impossible contents */
	h = peer_hdr(LOOM_FRAME_DATA);
	h.vc = VCS + 1;
	n = data_frame(f, &h, 64, 0);
	tap_ok(inject_taken(f, n, "bad_vc", false),
	       "DATA on VC %u of a %u-VC link: bad_vc, taken in sequence and dropped", VCS + 1, VCS);
	h = peer_hdr(LOOM_FRAME_DATA);
	h.ack = x.b.tx.gbn.next + 3;
	n = data_frame(f, &h, 64, 0);
	tap_ok(inject_taken(f, n, "bad_ack", true),
	       "DATA acknowledging frames never sent: bad_ack, the packet delivered");
	h = peer_hdr(LOOM_FRAME_DATA);
	h.ack = x.b.tx.gbn.base - 2;
	n = data_frame(f, &h, 64, 0);
	tap_ok(inject_taken(f, n, "bad_ack", true),
	       "DATA with an acknowledgement older than the window: bad_ack, the packet delivered");
	h = peer_hdr(LOOM_FRAME_DATA);
	h.credit_vc = 0;
	h.credit = x.b.credit.sent[0] + p.buf_depth + 1;
	n = data_frame(f, &h, 64, 0);
	tap_ok(inject_taken(f, n, "bad_credit", true),
	       "DATA granting one flit more than the buffer holds: bad_credit, the packet delivered");
	h = peer_hdr(LOOM_FRAME_DATA);
	h.credit_vc = 0;
	h.credit = x.b.credit.granted[0] - 1;
	n = data_frame(f, &h, 64, 0);
	tap_ok(inject_taken(f, n, "bad_credit", true),
	       "DATA with a credit count going back: bad_credit, the packet delivered");
	h = peer_hdr(LOOM_FRAME_DATA);
	h.credit_vc = VCS;
	n = data_frame(f, &h, 64, 0);
	tap_ok(inject_taken(f, n, "bad_credit", true),
	       "DATA with credits for VC %u: bad_credit, the packet delivered", VCS);
	h = peer_hdr(LOOM_FRAME_DATA);
	h.credit_vc = CHAN_VCS_MAX + 1;
	n = data_frame(f, &h, 64, 0);
	tap_ok(inject_taken(f, n, "bad_credit", true),
	       "DATA with credits for VC %u, past every VC a channel names: bad_credit, the packet delivered",
	       CHAN_VCS_MAX + 1);
	h = peer_hdr(LOOM_FRAME_DATA);
	n = data_frame(f, &h, 64, 8);
	tap_ok(inject_taken(f, n, "bad_length", false),
	       "DATA whose packet header claims 8 bytes more than the frame: bad_length, taken in sequence and dropped");
	h = peer_hdr(LOOM_FRAME_DATA);
	n = link_encode_hdr(f, sizeof(f), &h, junk, 20, NULL, 0);
	tap_ok(inject_taken(f, n, "bad_length", false),
	       "DATA shorter than a packet header: bad_length, taken in sequence and dropped");
	h = peer_hdr(LOOM_FRAME_ACK);
	n = link_encode_hdr(f, sizeof(f), &h, junk, 4, NULL, 0);
	tap_ok(inject(f, n, "bad_length", true), "an ACK with a body: bad_length");
	h = peer_hdr(LOOM_FRAME_ACK_CREDIT);
	h.seq = x.b.rx.gbn.expected;
	c = current_credits();
	n = status_frame(f, &h, &c, 16);
	tap_ok(inject(f, n, "bad_length", true), "an ACK_CREDIT with half its body: bad_length");
	c = current_credits();
	c.credit[1] += p.buf_depth + 1;
	n = status_frame(f, &h, &c, sizeof(c));
	tap_ok(inject(f, n, "bad_credit", true),
	       "an ACK_CREDIT granting VC 1 more than its buffer: bad_credit, no VC updated");
	c = current_credits();
	c.credit[VCS] = 5;
	n = status_frame(f, &h, &c, sizeof(c));
	tap_ok(inject(f, n, "bad_credit", true), "an ACK_CREDIT with credits on VC %u: bad_credit", VCS);
	c = current_credits();
	h.seq = x.b.rx.gbn.expected - 1;
	n = status_frame(f, &h, &c, sizeof(c));
	tap_ok(inject(f, n, "bad_ack", true),
	       "an ACK_CREDIT claiming fewer frames sent than were received: bad_ack");
	h = peer_hdr(9);
	n = link_encode_hdr(f, sizeof(f), &h, NULL, 0, NULL, 0);
	tap_ok(inject(f, n, "bad_type", true), "frame type 9: bad_type");
	h = peer_hdr(LOOM_FRAME_CREDIT);
	n = link_encode_hdr(f, sizeof(f), &h, NULL, 0, NULL, 0);
	tap_ok(inject(f, n, "bad_type", true),
	       "a whole-packet CREDIT frame (the emulator's cable ports'): bad_type");
	h = peer_hdr(LOOM_FRAME_DATA);
	h.flags = 0x80;
	n = data_frame(f, &h, 64, 0);
	tap_ok(inject(f, n, "bad_type", true), "DATA with an unknown flag: bad_type");
	h = peer_hdr(LOOM_FRAME_TRAIN);
	h.vc = 3;
	n = link_encode_hdr(f, sizeof(f), &h, NULL, 0, NULL, 0);
	tap_ok(inject(f, n, "bad_type", true), "a lane notice for 3 lanes: bad_type, lanes stay %u",
	       x.b.lanes.n);

	/* a peer that sends without credit: the packet beyond the grant is dropped */
	{
		uint32_t room = x.b.credit.grant[0] - x.b.credit.received[0];
		unsigned int flits = link_flits(&p, LINK_PKT_MAX), fit = room / flits;
		uint64_t sink0 = x.sink[0].packets;

		x.sink[0].drain = false;
		/* a's window as if it had sent these frames: b's acks are in it */
		x.a.tx.gbn.next += fit + 1;
		x.a.tx.gbn.resend += fit + 1;
		link_credit_sent(&x.a.credit, 0, (fit + 1) * flits);
		ok = true;
		for (unsigned int i = 0; i < fit; i++) {
			h = peer_hdr(LOOM_FRAME_DATA);
			n = data_frame(f, &h, LOOM_PKT_MAX_PAYLOAD, 0);
			link_unit_rx_bytes(&x.b, f, n);
			lh_pair_run(&x, 40);
			ok &= x.sink[0].packets == sink0 + i + 1;
		}
		h = peer_hdr(LOOM_FRAME_DATA);
		n = data_frame(f, &h, LOOM_PKT_MAX_PAYLOAD, 0);
		ok &= inject(f, n, "credit_overruns", false) && x.sink[0].overflows == 0;
		tap_ok(ok, "a peer sending past its grant: %u packets fill the %u granted flits, the next is dropped (credit_overruns), the buffer never overflows",
		       fit, room);
	}
	lh_pair_run(&x, 200);
	x.sink[0].drain = true;

	/* more bytes at once than the framer holds */
	{
		static uint8_t flood[LINK_RX_BUF + 5000];
		uint64_t over = x.b.cnt.rx_overflows;
		size_t took;

		memset(flood, 0x55, sizeof(flood));
		took = link_unit_rx_bytes(&x.b, flood, sizeof(flood));
		lh_pair_run(&x, 5);
		tap_ok(took < sizeof(flood) && x.b.cnt.rx_overflows - over == sizeof(flood) - took &&
		       x.b.state == LINK_UP,
		       "%zu bytes at once: the framer takes %zu, the rest is counted in rx_overflows and dropped",
		       sizeof(flood), took);
	}
	/* the router side: credits for flits the input buffer does not hold */
	{
		uint32_t grant = x.b.credit.grant[1];

		lh_pair_run(&x, 200);
		x.sink[0].back.credits[1] = 5;
		lh_pair_cycle(&x);
		tap_ok(x.b.cnt.router_credit_errors == 1 && x.b.credit.grant[1] == grant,
		       "the router frees 5 flits of an empty VC: router_credit_errors, no credit granted to the peer (grant %u, was %u)",
		       x.b.credit.grant[1], grant);
	}
	/* the router side: a body flit with no packet begun */
	{
		uint32_t credits = x.src[0].credits[0];
		uint64_t sent = x.a.cnt.tx_frames;

		x.src[0].out = (struct flit){ .valid = true, .vc = 0 };
		lh_pair_cycle(&x);
		lh_pair_run(&x, 50);
		tap_ok(x.a.cnt.tx_malformed == 1 && x.a.cnt.tx_frames == sent &&
		       x.src[0].credits[0] == credits + 1,
		       "a body flit without a head from the router: tx_malformed, nothing sent, its credit handed back");
	}
	/* the router side: a tail that ends its packet short of its header's length */
	{
		uint32_t credits = x.src[0].credits[0];
		uint64_t sent = x.a.cnt.tx_frames, bad = x.a.cnt.tx_malformed;
		uint16_t plen = 64;

		x.src[0].out = (struct flit){ .valid = true, .vc = 0, .head = true, .tail = true };
		memcpy(x.src[0].out.data + offsetof(struct loom_pkt_hdr, len), &plen, sizeof(plen));
		lh_pair_cycle(&x);
		lh_pair_run(&x, 50);
		tap_ok(x.a.cnt.tx_malformed == bad + 1 && x.a.cnt.tx_frames == sent &&
		       x.src[0].credits[0] == credits + 1,
		       "a one-flit packet whose header says %u bytes of payload: tx_malformed %llu (was %llu), nothing sent, its one credit handed back once (credits %u, were %u)",
		       plen, (unsigned long long)x.a.cnt.tx_malformed, (unsigned long long)bad,
		       x.src[0].credits[0], credits);
	}
	lh_source_reset_credits(&x.src[0]);
	x.sink[0].next_id = x.src[0].next_id;
	lh_send(&x, 0, 5, 64, 1);
	ok = lh_pair_drain(&x, 100000) && x.b.state == LINK_UP && x.a.state == LINK_UP &&
	     !x.a.cnt.bad_ack && !gbn_tx_held(&x.a.tx.gbn);
	if (!ok)
		lh_pair_diag(&x);
	tap_ok(ok, "after all that both ends are up and packets flow (%llu delivered, %llu errors)",
	       (unsigned long long)x.sink[0].packets, (unsigned long long)x.sink[0].errors);
	lh_pair_free(&x);
	return tap_exit_status();
}
