// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test: the test is a card's cable peer and sends thousands
 * of well-framed (good CRC) frames with random frame types and random
 * packet headers -- unknown types and classes, lengths that lie, any
 * node, context, key, offset, hop count -- with some valid puts among
 * them.  The card (built with the sanitizers) must survive, answer or
 * drop each, never fault a context, and then deliver a clean operation to
 * a context the noise could not reach, byte-exact with its arrival event.
 */
#include "fabric.h"
#include "peer.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define NOISE_CTX	1
#define NOISE_KEY	0x0000beefu
#define CLEAN_CTX	2
#define CLEAN_KEY	0x7c1ea9d5u
#define PEER_NODE	7
#define NFRAMES		4000
#define SEG		(64u << 10)

static struct fabric f;
static struct peer peer;
static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random packet header, biased towards values the card must handle. */
static void noise_hdr(struct loom_pkt_hdr *h, size_t *plen)
{
	static const uint16_t nodes[] = { 0, 1, PEER_NODE, 1023, 1024, 0xffff };
	static const uint64_t offs[] = { 0, 100, SEG - 256, SEG, SEG + 1, UINT64_MAX - 100 };

	memset(h, 0, sizeof(*h));
	*plen = rnd() % (LOOM_PKT_MAX_PAYLOAD + 1);
	h->type = rnd() % 4 ? (uint8_t)(1 + rnd() % 2) : (uint8_t)rnd();
	h->class = rnd() % 4 ? (uint8_t)(rnd() % 2) : (uint8_t)rnd();
	h->len = rnd() % 8 ? (uint16_t)*plen : (uint16_t)rnd();
	h->src_node = rnd() % 2 ? PEER_NODE : (uint16_t)rnd();
	h->dst_node = nodes[rnd() % 6];
	h->src_ctx = (uint16_t)(rnd() % 70);
	h->dst_ctx = rnd() % 2 ? NOISE_CTX : (uint16_t)(rnd() % 70);
	if (h->dst_ctx == CLEAN_CTX)
		h->dst_ctx = NOISE_CTX;	/* the clean context's key is never guessed anyway */
	h->key = rnd() % 2 ? NOISE_KEY : (uint32_t)rnd();
	h->offset = rnd() % 2 ? rnd() % SEG : offs[rnd() % 6];
	h->op_id = (uint32_t)(rnd() % 16);
	h->flags = (uint8_t)rnd();
	h->hops = rnd() % 4 ? 0 : (uint8_t)rnd();
	h->status = (uint8_t)rnd();
	h->op_len = rnd() % 2 ? rnd() % (2 * SEG) : rnd();
	h->aux = rnd() % 2 ? h->offset - rnd() % 1024 : rnd();
}

int main(void)
{
	struct fakehost *fh = &f.fh[0];
	struct fh_ctx noise, clean;
	uint8_t payload[LOOM_PKT_MAX_PAYLOAD], frame[LOOM_FRAME_MAX], data[4 * LOOM_PKT_MAX_PAYLOAD];
	struct link_frame fr;
	struct loom_cqe e;
	unsigned int sent = 0, acks = 0;
	uint8_t *before;
	uint64_t deadline;
	int ok;

	tap_plan(7);
	if (getenv("LOOM_FUZZ_SEED"))
		rng = strtoull(getenv("LOOM_FUZZ_SEED"), NULL, 0) | 1;
	tap_diag("seed 0x%llx (set LOOM_FUZZ_SEED to replay)", (unsigned long long)rng);
	if (fabric_init(&f, 120))
		return 1;
	/* bad input reaching the card: run the card built with the sanitizers */
	f.sanitized_card = true;
	ok = peer_start(&f, &peer, PEER_NODE, 0, "7=0") == 0 &&
	     fh_ctx_create(fh, &noise, NOISE_CTX, NOISE_KEY, 4, 6, SEG) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(fh, &clean, CLEAN_CTX, CLEAN_KEY, 4, 6, SEG) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "card cabled to the test, contexts %d (noise) and %d (clean) enabled",
		    NOISE_CTX, CLEAN_CTX))
		return 1;
	memset(clean.segp, 0, SEG);
	before = malloc(fh->ram_size);
	if (!before)
		tap_skip_all("no memory for a guest RAM snapshot");
	memcpy(before, fh->ram, fh->ram_size);

	for (unsigned int i = 0; i < NFRAMES; i++) {
		struct loom_pkt_hdr h;
		size_t plen, n;
		uint8_t ftype = rnd() % 8 ? LOOM_FRAME_DATA : (uint8_t)(rnd() % 8);

		noise_hdr(&h, &plen);
		for (size_t b = 0; b < plen; b++)
			payload[b] = (uint8_t)rnd();
		if (ftype == LOOM_FRAME_TRAIN)
			ftype = LOOM_FRAME_DATA;	/* retraining is not noise */
		/* only DATA frames take sequence numbers; acks are random noise */
		n = link_encode(frame, sizeof(frame), ftype, (uint8_t)rnd(),
				ftype == LOOM_FRAME_DATA ? peer.tx_seq++ : (uint32_t)rnd(),
				(uint32_t)rnd(), &h, rnd() % 16 ? sizeof(h) : rnd() % sizeof(h),
				payload, plen);
		if (n && peer_send(&peer, frame, n) == 0)
			sent++;
		/* keep our receive side drained so the card never blocks on us */
		while (peer_recv(&peer, &fr, 0) == 1)
			;
	}
	tap_ok(sent == NFRAMES, "sent %u random well-framed frames", sent);
	while (peer_recv(&peer, &fr, 300) == 1)
		;
	{
		uint64_t cq_end = noise.cq + ((uint64_t)LOOM_CQE_SIZE << noise.cq_log2);
		uint64_t first_bad = UINT64_MAX;

		for (uint64_t a = 0; a < fh->ram_size && first_bad == UINT64_MAX; a++) {
			if ((a >= noise.seg && a < noise.seg + SEG) || (a >= noise.cq && a < cq_end))
				continue;
			if (fh->ram[a] != before[a])
				first_bad = a;
		}
		tap_ok(first_bad == UINT64_MAX,
		       "the noise wrote nothing outside the noise segment and its completion ring%s",
		       first_bad == UINT64_MAX ? "" : " (it did)");
		if (first_bad != UINT64_MAX)
			tap_diag("first changed byte at guest address 0x%llx", (unsigned long long)first_bad);
		free(before);
	}
	/* noise may have posted arrivals on the noise context: reap them away */
	while (fh_wait_cqe(&noise, &e, 0) == 1)
		;

	/* a clean operation of 4 packets to the clean context */
	for (unsigned int b = 0; b < sizeof(data); b++)
		data[b] = (uint8_t)(b * 13 + 5);
	for (unsigned int k = 0; k < 4; k++) {
		struct loom_pkt_hdr h = {
			.type = LOOM_PKT_PUT, .class = LOOM_CLASS_REQ, .len = LOOM_PKT_MAX_PAYLOAD,
			.src_node = PEER_NODE, .dst_node = 0, .src_ctx = 9, .dst_ctx = CLEAN_CTX,
			.key = CLEAN_KEY, .offset = 0x800 + k * LOOM_PKT_MAX_PAYLOAD, .op_id = 77777,
			.flags = LOOM_PKT_F_REMOTE_CQE, .op_len = sizeof(data), .aux = 0x800,
		};

		peer_send_packet(&peer, &h, data + k * LOOM_PKT_MAX_PAYLOAD, LOOM_PKT_MAX_PAYLOAD);
	}
	deadline = fh_now_ms() + 10000;
	while (acks < 4 && fh_now_ms() < deadline) {
		struct loom_pkt_hdr h;

		if (peer_recv(&peer, &fr, 100) != 1 || fr.hdr.type != LOOM_FRAME_DATA)
			continue;
		memcpy(&h, fr.body, sizeof(h));
		if (h.type == LOOM_PKT_PUT_ACK && h.op_id == 77777 && h.status == LOOM_CQE_ST_OK &&
		    h.dst_ctx == 9)
			acks++;
	}
	ok = acks == 4 && !memcmp(clean.segp + 0x800, data, sizeof(data));
	for (unsigned int b = 0; b < SEG && ok; b++)
		if ((b < 0x800 || b >= 0x800 + sizeof(data)) && clean.segp[b])
			ok = 0;
	tap_ok(ok, "after the noise a clean put is acked (%u/4) and lands byte-exact, nothing else written", acks);
	ok = fh_wait_cqe(&clean, &e, 5000) == 1 && e.kind == LOOM_CQE_ARRIVAL && e.tag == 0x800 &&
	     e.value == sizeof(data) && e.src_node == PEER_NODE && e.src_ctx == 9 &&
	     fh_wait_cqe(&clean, &e, 100) == 0;
	tap_ok(ok, "exactly one ARRIVAL on the clean context");
	tap_ok(fh_rd32(fh, fh_ctx_reg(fh, NOISE_CTX, LOOM_CTXR_STATE)) == LOOM_CTX_ST_RUNNING &&
	       fh_rd32(fh, fh_ctx_reg(fh, CLEAN_CTX, LOOM_CTXR_STATE)) == LOOM_CTX_ST_RUNNING,
	       "no context faulted (port 0 drops %u)",
	       fh_rd32(fh, fh_port_reg(fh, 0, LOOM_PORT_DROPS)));
	tap_ok(fabric_card_alive(&f, 0), "the card (with sanitizers) is still running");
	if (tap.failed)
		fabric_dump_log(&f, 0);
	peer_close(&peer);
	fabric_stop();
	return tap_exit_status();
}
