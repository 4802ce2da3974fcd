// SPDX-License-Identifier: GPL-2.0
/*
 * The loom libfabric provider's protocol pieces that need no card: the
 * segment layout and slot addressing, the checks on an arriving fragment
 * header, the credit window, matching of messages against posted receives
 * (tags, ignore bits, directed receive, posting order) and the unexpected
 * queue (arrival order, FI_CLAIM, cancel); the one-sided mapping (the
 * atomics the card has, registration rights, local ranges, keys), the
 * fi_writedata() notice, and the rendezvous fragment and FIN cells.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <rdma/fi_domain.h>
#include <rdma/fi_errno.h>

#include "loom.h"
#include "tap.h"
#include "proto.h"
#include "match.h"
#include "rmaproto.h"

TAP_DEFINE;

static struct lofi_hdr hdr(uint32_t seq, uint16_t flags, uint64_t total,
			   uint32_t frag)
{
	return (struct lofi_hdr){ .magic = LOFI_HDR_MAGIC, .seq = seq,
				  .flags = flags, .total_len = total,
				  .frag_len = frag, .credit_cell = 3 };
}

static void test_layout(void)
{
	struct lofi_layout lay;
	struct lofi_addr a;
	uint32_t r = 99, s = 99;
	int ret;

	ret = lofi_layout_init(&lay, 4u << 20, 16384, 8, 32);
	tap_ok(ret == 0 && lay.regions == (uint32_t)(((4u << 20) - lay.rx_base) / (16384 * 8)) &&
	       lay.tx_base >= lay.credit_out + 8 * LOFI_MAX_REGIONS &&
	       lay.rx_base >= lay.tx_base + 32 * 16384 && lay.rx_base % 4096 == 0,
	       "4 MiB, 16 KiB slots, 8 per region: %u regions, tx at %#llx, rx at %#llx (ret %d)",
	       lay.regions, (unsigned long long)lay.tx_base,
	       (unsigned long long)lay.rx_base, ret);
	a = (struct lofi_addr){ .magic = LOFI_ADDR_MAGIC, .slot_size = lay.slot_size,
				.slots = lay.slots, .regions = lay.regions,
				.rx_base = lay.rx_base };
	ret = lofi_slot_locate(&lay, lofi_slot_offset(&a, 5, 7), &r, &s);
	tap_ok(ret == 0 && r == 5 && s == 7,
	       "slot 7 of region 5 is found again from its offset (got region %u slot %u, ret %d)",
	       r, s, ret);
	tap_ok(lofi_slot_locate(&lay, lofi_slot_offset(&a, 5, 7) + 8, &r, &s) == -EINVAL &&
	       lofi_slot_locate(&lay, lay.tx_base, &r, &s) == -EINVAL &&
	       lofi_slot_locate(&lay, lofi_slot_offset(&a, lay.regions, 0), &r, &s) == -EINVAL,
	       "offsets inside a slot, in the staging area or past the last region are refused");
	tap_ok(lofi_layout_init(&lay, 1u << 20, 16384, 64, 32) == -EINVAL &&
	       lofi_layout_init(&lay, 4u << 20, 100, 8, 32) == -EINVAL &&
	       lofi_layout_init(&lay, 4u << 20, 16384, 65, 32) == -EINVAL &&
	       lofi_layout_init(&lay, 4u << 20, 16384, 0, 32) == -EINVAL,
	       "layouts without room for a region, odd slot sizes and slot counts outside 1..64 are refused");
	tap_ok(lofi_addr_valid(&a) && (a.magic = 1, !lofi_addr_valid(&a)) &&
	       (a.magic = LOFI_ADDR_MAGIC, a.ctx = 70000, !lofi_addr_valid(&a)) &&
	       (a.ctx = 1, a.slots = 0, !lofi_addr_valid(&a)),
	       "an address with a wrong magic, a context above 65535 or no slots is not valid");
}

static void test_hdr(void)
{
	const uint32_t slot = 16384, pay = 16384 - sizeof(struct lofi_hdr);
	struct lofi_hdr h;
	int ret;

	h = hdr(4, LOFI_F_FIRST | LOFI_F_LAST | LOFI_F_TAGGED, 100, 100);
	ret = lofi_hdr_check(&h, sizeof(h) + 100, slot, 4, 0, 0, 1 << 20);
	tap_ok(ret == 0, "a one-fragment message passes (ret %d)", ret);
	h = hdr(0, LOFI_F_FIRST | LOFI_F_LAST, 0, 0);
	ret = lofi_hdr_check(&h, sizeof(h), slot, 0, 0, 0, 1 << 20);
	tap_ok(ret == 0, "a zero-byte message passes (ret %d)", ret);
	h = hdr(5, LOFI_F_FIRST | LOFI_F_LAST, 100, 100);
	ret = lofi_hdr_check(&h, sizeof(h) + 100, slot, 4, 0, 0, 1 << 20);
	tap_ok(ret == -EPROTO, "a fragment with the wrong sequence number is refused (ret %d)", ret);
	h = hdr(4, LOFI_F_FIRST | LOFI_F_LAST, 100, 100);
	ret = lofi_hdr_check(&h, sizeof(h) + 99, slot, 4, 0, 0, 1 << 20);
	tap_ok(ret == -EPROTO, "a fragment whose arrival length disagrees with its header is refused (ret %d)", ret);
	h = hdr(4, LOFI_F_FIRST, 100000, pay + 1);
	ret = lofi_hdr_check(&h, sizeof(h) + pay + 1, slot, 4, 0, 0, 1 << 20);
	tap_ok(ret == -EPROTO, "a fragment longer than a slot is refused (ret %d)", ret);
	h = hdr(4, LOFI_F_FIRST, 2u << 20, pay);
	ret = lofi_hdr_check(&h, sizeof(h) + pay, slot, 4, 0, 0, 1 << 20);
	tap_ok(ret == -EMSGSIZE, "a message above the largest size is refused (ret %d)", ret);
	h = hdr(4, LOFI_F_FIRST, 100000, pay);
	ret = lofi_hdr_check(&h, sizeof(h) + pay, slot, 4, 1, 50000, 1 << 20);
	tap_ok(ret == -EPROTO, "a new message inside an unfinished one is refused (ret %d)", ret);
	h = hdr(4, 0, 0, 1000);
	ret = lofi_hdr_check(&h, sizeof(h) + 1000, slot, 4, 0, 0, 1 << 20);
	tap_ok(ret == -EPROTO, "a continuation with no message begun is refused (ret %d)", ret);
	h = hdr(4, LOFI_F_LAST, 0, 1000);
	ret = lofi_hdr_check(&h, sizeof(h) + 1000, slot, 4, 1, 1000, 1 << 20);
	tap_ok(ret == 0, "the last fragment of a message passes (ret %d)", ret);
	h = hdr(4, 0, 0, 1000);
	ret = lofi_hdr_check(&h, sizeof(h) + 1000, slot, 4, 1, 1000, 1 << 20);
	tap_ok(ret == -EPROTO, "a fragment that ends the message without LAST is refused (ret %d)", ret);
	h = hdr(4, LOFI_F_LAST, 0, 1000);
	ret = lofi_hdr_check(&h, sizeof(h) + 1000, slot, 4, 1, 500, 1 << 20);
	tap_ok(ret == -EPROTO, "a fragment longer than what remains is refused (ret %d)", ret);
	h = hdr(4, LOFI_F_FIRST | LOFI_F_LAST | 0x100, 10, 10);
	ret = lofi_hdr_check(&h, sizeof(h) + 10, slot, 4, 0, 0, 1 << 20);
	tap_ok(ret == -EPROTO, "unknown flags are refused (ret %d)", ret);
	h = hdr(4, LOFI_F_FIRST | LOFI_F_LAST, 10, 10);
	h.magic ^= 1;
	ret = lofi_hdr_check(&h, sizeof(h) + 10, slot, 4, 0, 0, 1 << 20);
	tap_ok(ret == -EPROTO, "a wrong magic is refused (ret %d)", ret);
	h = hdr(4, LOFI_F_FIRST | LOFI_F_LAST, 10, 10);
	h.credit_cell = LOFI_MAX_TX_PEERS;
	ret = lofi_hdr_check(&h, sizeof(h) + 10, slot, 4, 0, 0, 1 << 20);
	tap_ok(ret == -EPROTO, "a credit cell out of range is refused (ret %d)", ret);
}

static void test_credits(void)
{
	uint32_t sent = 0, consumed = 0, returned = 0, seen = 0, most = 0;
	int i;

	tap_ok(lofi_window_open(7, 0, 8) && !lofi_window_open(8, 0, 8) &&
	       lofi_window_open(UINT32_MAX + 3u, UINT32_MAX - 4u, 8) &&
	       !lofi_window_open(3u, UINT32_MAX - 4u, 8),
	       "the window holds 8 fragments, also across the 32-bit wrap");
	tap_ok(!lofi_credit_due(3, 0, 8) && lofi_credit_due(4, 0, 8) &&
	       lofi_credit_due(1, 0, 1) && lofi_credit_due(2, UINT32_MAX - 1u, 8) &&
	       !lofi_credit_due(1, UINT32_MAX - 1u, 8),
	       "credits are returned every half window, also across the 32-bit wrap");
	/* a sender and a slower receiver: the window fills but never overflows, and credits keep the sender going */
	for (i = 0; i < 10000; i++) {
		if (lofi_window_open(sent, seen, 8))
			sent++;
		if (sent - consumed > most)
			most = sent - consumed;
		if (consumed != sent && (i % 3)) {
			consumed++;
			if (lofi_credit_due(consumed, returned, 8)) {
				returned = consumed;
				seen = returned;
			}
		}
	}
	tap_ok(sent > 6000 && most <= 8 && sent - consumed <= 8,
	       "10000 rounds, the receiver consuming 2 of 3: %u sent, %u consumed, at most %u unconsumed (the slots: 8)",
	       sent, consumed, most);
}

static struct lofi_recv mkrecv(uint64_t src, uint64_t tag, uint64_t ignore,
			       void *ctx)
{
	struct lofi_recv r = { .src = src, .tag = tag, .ignore = ignore,
			       .context = ctx };

	lofi_list_init(&r.link);
	return r;
}

static void test_match(void)
{
	struct lofi_matchq q;
	struct lofi_recv r[4];
	struct lofi_unexp u[3];
	struct lofi_recv *got;
	struct lofi_unexp *ug;
	uint64_t a = lofi_peer_key(1, 5), b = lofi_peer_key(2, 5);
	int i;

	tap_ok(lofi_matches(LOFI_SRC_ANY, 0x1234, 0, a, 0x1234) &&
	       !lofi_matches(LOFI_SRC_ANY, 0x1234, 0, a, 0x1235) &&
	       lofi_matches(LOFI_SRC_ANY, 0x1200, 0xff, a, 0x12ab) &&
	       !lofi_matches(b, 0x1234, 0, a, 0x1234) && lofi_matches(a, 0x1234, 0, a, 0x1234) &&
	       lofi_peer_key(1, 5) != lofi_peer_key(5, 1),
	       "tags match under the ignore mask; a directed receive takes only its source");

	lofi_matchq_init(&q);
	r[0] = mkrecv(b, 7, 0, &r[0]);		/* only from b */
	r[1] = mkrecv(LOFI_SRC_ANY, 7, 0, &r[1]);
	r[2] = mkrecv(LOFI_SRC_ANY, 0, ~0ull, &r[2]);	/* any tag */
	r[3] = mkrecv(LOFI_SRC_ANY, 7, 0, &r[3]);
	for (i = 0; i < 4; i++)
		lofi_list_add_tail(&q.posted, &r[i].link);
	got = lofi_take_posted(&q, a, 7);
	tap_ok(got == &r[1], "a message from a with tag 7 takes the first receive that fits, not the one directed at b (got %d)",
	       got ? (int)(got - r) : -1);
	got = lofi_take_posted(&q, a, 9);
	tap_ok(got == &r[2], "tag 9 takes the any-tag receive (got %d)", got ? (int)(got - r) : -1);
	got = lofi_take_posted(&q, b, 7);
	tap_ok(got == &r[0], "b's message takes the receive directed at b, posted first (got %d)",
	       got ? (int)(got - r) : -1);
	got = lofi_take_posted(&q, b, 8);
	tap_ok(got == NULL, "no receive for tag 8: the message is unexpected");
	got = lofi_take_by_context(&q, &r[3]);
	tap_ok(got == &r[3] && lofi_list_empty(&q.posted) && !lofi_take_by_context(&q, &r[3]),
	       "cancel takes the receive by its context, once");

	/* unexpected messages: arrival order, claims */
	memset(u, 0, sizeof(u));
	for (i = 0; i < 3; i++) {
		u[i].src = i == 1 ? b : a;
		u[i].tag = 40 + (i == 2);
		lofi_list_add_tail(&q.unexp, &u[i].link);
	}
	r[0] = mkrecv(LOFI_SRC_ANY, 40, 0, &r[0]);
	ug = lofi_find_unexp(&q, &r[0]);
	tap_ok(ug == &u[0], "an any-source receive of tag 40 finds the oldest unexpected message (got %d)",
	       ug ? (int)(ug - u) : -1);
	r[1] = mkrecv(b, 40, 0, &r[1]);
	ug = lofi_find_unexp(&q, &r[1]);
	tap_ok(ug == &u[1], "a receive directed at b skips a's older message (got %d)", ug ? (int)(ug - u) : -1);
	u[0].claim_context = &r[2];
	ug = lofi_find_unexp(&q, &r[0]);
	tap_ok(ug == &u[1] && lofi_find_claimed(&q, &r[2]) == &u[0] && !lofi_find_claimed(&q, &r[3]),
	       "a claimed message is found only by its claim's context");
	r[2] = mkrecv(a, 0, ~0ull, &r[2]);
	lofi_list_del(&u[0].link);
	ug = lofi_find_unexp(&q, &r[2]);
	tap_ok(ug == &u[2], "after the oldest is taken, a's any-tag receive gets a's next message (got %d)",
	       ug ? (int)(ug - u) : -1);
}

static void test_atomic_map(void)
{
	static const struct {
		enum lofi_atomic_kind kind;
		enum fi_op op;
		enum fi_datatype dt;
		int ret;
		uint32_t loom_op;
		int zero;
	} t[] = {
		{ LOFI_ATOMIC_WRITE, FI_SUM, FI_UINT64, 0, LOOM_ATOMIC_FETCH_ADD, 0 },
		{ LOFI_ATOMIC_WRITE, FI_SUM, FI_INT64, 0, LOOM_ATOMIC_FETCH_ADD, 0 },
		{ LOFI_ATOMIC_WRITE, FI_ATOMIC_WRITE, FI_UINT64, 0, LOOM_ATOMIC_SWAP, 0 },
		{ LOFI_ATOMIC_WRITE, FI_ATOMIC_READ, FI_UINT64, -FI_EOPNOTSUPP, 0, 0 },
		{ LOFI_ATOMIC_FETCH, FI_SUM, FI_UINT64, 0, LOOM_ATOMIC_FETCH_ADD, 0 },
		{ LOFI_ATOMIC_FETCH, FI_ATOMIC_WRITE, FI_INT64, 0, LOOM_ATOMIC_SWAP, 0 },
		{ LOFI_ATOMIC_FETCH, FI_ATOMIC_READ, FI_UINT64, 0, LOOM_ATOMIC_FETCH_ADD, 1 },
		{ LOFI_ATOMIC_COMPARE, FI_CSWAP, FI_UINT64, 0, LOOM_ATOMIC_CSWAP, 0 },
		{ LOFI_ATOMIC_COMPARE, FI_CSWAP_NE, FI_UINT64, -FI_EOPNOTSUPP, 0, 0 },
		{ LOFI_ATOMIC_COMPARE, FI_SUM, FI_UINT64, -FI_EOPNOTSUPP, 0, 0 },
		{ LOFI_ATOMIC_FETCH, FI_CSWAP, FI_UINT64, -FI_EOPNOTSUPP, 0, 0 },
		{ LOFI_ATOMIC_WRITE, FI_MIN, FI_UINT64, -FI_EOPNOTSUPP, 0, 0 },
		{ LOFI_ATOMIC_WRITE, FI_BOR, FI_UINT64, -FI_EOPNOTSUPP, 0, 0 },
		{ LOFI_ATOMIC_WRITE, FI_SUM, FI_UINT32, -FI_EOPNOTSUPP, 0, 0 },
		{ LOFI_ATOMIC_FETCH, FI_SUM, FI_DOUBLE, -FI_EOPNOTSUPP, 0, 0 },
		{ LOFI_ATOMIC_COMPARE, FI_CSWAP, FI_INT32, -FI_EOPNOTSUPP, 0, 0 },
	};
	unsigned int i, bad = 0;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		uint32_t op = 0;
		int zero = -1, ret = lofi_atomic_map(t[i].kind, t[i].op, t[i].dt, &op, &zero);

		if (ret != t[i].ret || (!ret && (op != t[i].loom_op || zero != t[i].zero))) {
			tap_diag("kind %d op %d datatype %d: ret %d loom op %u zero %d, want ret %d loom op %u zero %d",
				 t[i].kind, t[i].op, t[i].dt, ret, op, zero, t[i].ret,
				 t[i].loom_op, t[i].zero);
			bad++;
		}
	}
	tap_ok(!bad, "atomics: 64-bit sum, write, read and compare-and-swap map to the card's fetch-add, swap and cswap; everything else is -FI_EOPNOTSUPP (%u of %zu wrong)",
	       bad, sizeof(t) / sizeof(t[0]));
}

static void test_rma_pieces(void)
{
	static char block[200];
	char *region = block + 50;
	struct lofi_hdr h;
	uint32_t a;

	a = lofi_mr_access(FI_REMOTE_READ);
	tap_ok(a == (LOOM_MR_LOCAL_WRITE | LOOM_MR_REMOTE_READ),
	       "FI_REMOTE_READ registers local write and remote read (got %#x)", a);
	a = lofi_mr_access(FI_REMOTE_WRITE | FI_SEND);
	tap_ok(a == (LOOM_MR_LOCAL_WRITE | LOOM_MR_REMOTE_WRITE | LOOM_MR_REMOTE_ATOMIC),
	       "FI_REMOTE_WRITE registers remote write and atomics, not remote read (got %#x)", a);
	a = lofi_mr_access(0);
	tap_ok(a == (LOOM_MR_LOCAL_WRITE | LOOM_MR_REMOTE_READ | LOOM_MR_REMOTE_WRITE |
		     LOOM_MR_REMOTE_ATOMIC), "access 0 registers every right (got %#x)", a);
	a = lofi_mr_access(FI_SEND | FI_READ);
	tap_ok(a == LOOM_MR_LOCAL_WRITE, "local access alone gives no remote right (got %#x)", a);
	tap_ok(lofi_range_inside(region, 100, region, 100) &&
	       lofi_range_inside(region, 100, region + 99, 1) &&
	       lofi_range_inside(region, 100, region + 100, 0) &&
	       !lofi_range_inside(region, 100, region + 99, 2) &&
	       !lofi_range_inside(region, 100, region - 1, 1) &&
	       !lofi_range_inside(region, 100, region + 50, SIZE_MAX),
	       "a local range is inside a region exactly when every byte is (and no overflow lets it in)");
	tap_ok(lofi_rkey_valid(0) && lofi_rkey_valid(UINT32_MAX) &&
	       !lofi_rkey_valid(1ull << 32) && !lofi_rkey_valid(UINT64_MAX),
	       "keys above 32 bits cannot be the card's");
	h = hdr(0, LOFI_F_FIRST | LOFI_F_LAST | LOFI_F_RMA | LOFI_F_DATA, 0, 0);
	tap_ok(lofi_hdr_check(&h, sizeof(h), 16384, 0, 0, 0, 1ull << 32) == 0,
	       "an fi_writedata() notice (one empty fragment) is accepted");
	h = hdr(0, LOFI_F_FIRST | LOFI_F_LAST | LOFI_F_RMA, 8, 8);
	tap_ok(lofi_hdr_check(&h, sizeof(h) + 8, 16384, 0, 0, 0, 1ull << 32) == -EPROTO,
	       "a notice with a payload is refused");
	h = hdr(0, LOFI_F_FIRST | LOFI_F_LAST | LOFI_F_RMA | LOFI_F_TAGGED, 0, 0);
	tap_ok(lofi_hdr_check(&h, sizeof(h), 16384, 0, 0, 0, 1ull << 32) == -EPROTO,
	       "a tagged notice is refused");
}

static void test_rdv_pieces(void)
{
	const uint32_t rts = sizeof(struct lofi_rts);
	struct lofi_layout lay;
	struct lofi_hdr h;
	uint32_t cookie = 99;
	int ret;

	lofi_layout_init(&lay, 4u << 20, 16384, 8, 32);
	tap_ok(lay.fin_in >= lay.credit_out + 8 * LOFI_MAX_REGIONS &&
	       lay.fin_src == lay.fin_in + 8 * LOFI_MAX_RDV &&
	       lay.tx_base >= lay.fin_src + 8 * LOFI_FIN_VALUES,
	       "the FIN cells and the FIN values lie between the credit cells and the staging buffers (%#llx, %#llx, %#llx)",
	       (unsigned long long)lay.fin_in, (unsigned long long)lay.fin_src,
	       (unsigned long long)lay.tx_base);
	ret = lofi_fin_locate(&lay, lay.fin_in + 8 * 17, &cookie);
	tap_ok(ret == 0 && cookie == 17, "an arrival in FIN cell 17 names rendezvous 17 (got %u, ret %d)",
	       cookie, ret);
	tap_ok(lofi_fin_locate(&lay, lay.fin_in + 8 * 17 + 4, &cookie) == -EINVAL &&
	       lofi_fin_locate(&lay, lay.fin_src, &cookie) == -EINVAL &&
	       lofi_fin_locate(&lay, lay.fin_in - 8, &cookie) == -EINVAL,
	       "offsets inside a cell, among the FIN values or before the FIN cells name no rendezvous");
	h = hdr(4, LOFI_F_FIRST | LOFI_F_LAST | LOFI_F_RDV | LOFI_F_TAGGED, 3u << 20, rts);
	tap_ok(lofi_hdr_check(&h, sizeof(h) + rts, 16384, 4, 0, 0, 1ull << 32) == 0,
	       "a rendezvous of 3 MiB is one fragment carrying where the message is");
	h = hdr(4, LOFI_F_FIRST | LOFI_F_RDV, 3u << 20, rts);
	tap_ok(lofi_hdr_check(&h, sizeof(h) + rts, 16384, 4, 0, 0, 1ull << 32) == -EPROTO,
	       "a rendezvous that is not FIRST and LAST is refused");
	h = hdr(4, LOFI_F_FIRST | LOFI_F_LAST | LOFI_F_RDV, 3u << 20, rts + 8);
	tap_ok(lofi_hdr_check(&h, sizeof(h) + rts + 8, 16384, 4, 0, 0, 1ull << 32) == -EPROTO,
	       "a rendezvous whose payload is not one lofi_rts is refused");
	h = hdr(4, LOFI_F_FIRST | LOFI_F_LAST | LOFI_F_RDV, 5ull << 32, rts);
	tap_ok(lofi_hdr_check(&h, sizeof(h) + rts, 16384, 4, 0, 0, 1ull << 32) == -EMSGSIZE,
	       "a rendezvous above the largest message is refused");
	h = hdr(4, LOFI_F_FIRST | LOFI_F_LAST | LOFI_F_RDV, 3u << 20, rts);
	tap_ok(lofi_hdr_check(&h, sizeof(h) + rts, 16384, 4, 1, 1000, 1ull << 32) == -EPROTO,
	       "a rendezvous in the middle of a message is refused");
}

int main(void)
{
	tap_plan(5 + 14 + 3 + 10 + 1 + 9 + 8);
	test_layout();
	test_hdr();
	test_credits();
	test_match();
	test_atomic_map();
	test_rma_pieces();
	test_rdv_pieces();
	return tap.failed ? 1 : 0;
}
