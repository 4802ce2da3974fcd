// SPDX-License-Identifier: GPL-2.0
/*
 * The native harness in lockstep: a ring of 4 cards in one process, each
 * card's host putting to and getting from every other card, stepped by one
 * clock.  Every operation completes OK with its bytes where they belong,
 * and two runs of the same scenario give every packet the same injection
 * and delivery cycles: the fabric is cycle-exact end to end.
 */
#include "lockstep.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define CARDS		4
#define CTX		3
#define KEY		0x10c5u
#define SEG		(1u << 20)
#define PUT_LEN		(40u * 1024 + 17)	/* 161 packets, the last one short */
#define GET_LEN		(3u * 1024)
#define RAM		(8u << 20)
#define MAX_CYCLES	50000000ull

struct run {
	struct lockstep ls;
	struct fh_ctx ctx[CARDS];
	unsigned int n_pkts;
	struct ls_packet *pkts;
	uint64_t cycles, steps;
	bool ok_completions, ok_data;
};

static uint8_t pattern(unsigned int src, unsigned int dst, uint32_t off)
{
	return (uint8_t)(src * 37 + dst * 11 + off * 7 + (off >> 9));
}

/* Region of card @dst's segment that card @src puts into. */
static uint32_t put_off(unsigned int src)
{
	return src * (PUT_LEN + 4096);
}

static bool one_run(struct run *r)
{
	struct lockstep *ls = &r->ls;
	char err[256];
	unsigned int expect = 0, got = 0, bad = 0;
	uint64_t start;

	memset(r, 0, sizeof(*r));
	if (ls_init(ls, CARDS, 2, RAM, NULL, err, sizeof(err)) || ls_ring(ls, err, sizeof(err))) {
		tap_diag("lockstep: %s", err);
		return false;
	}
	if (!ls_train(ls, 1000000)) {
		tap_diag("links not up after %llu cycles", (unsigned long long)ls->cycle);
		return false;
	}
	for (unsigned int i = 0; i < CARDS; i++) {
		if (fh_ctx_create(&ls->c[i]->fh, &r->ctx[i], CTX, KEY, 8, 9, SEG) != LOOM_ADMIN_E_OK) {
			tap_diag("card %u: context enable failed", i);
			return false;
		}
		for (uint32_t o = 0; o < SEG; o++)
			r->ctx[i].segp[o] = 0;
		/* what every peer may GET from us, at the top of the segment */
		for (uint32_t o = 0; o < GET_LEN; o++)
			r->ctx[i].segp[SEG - GET_LEN + o] = pattern(i, 99, o);
		/* what we put to every peer */
		for (uint32_t o = 0; o < PUT_LEN; o++)
			r->ctx[i].segp[512 * 1024 + o] = pattern(i, 0, o);
	}
	ls_trace(ls, 1u << 16);
	start = ls->cycle;
	for (unsigned int i = 0; i < CARDS; i++) {
		for (unsigned int d = 0; d < CARDS; d++) {
			struct loom_cmd put = {
				.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL,
				.dst_ctx = CTX, .dst_node = (uint16_t)d, .tag = i * 16 + d,
				.local_off = 512 * 1024, .remote_off = put_off(i),
				.length = PUT_LEN, .key = KEY,
			};
			struct loom_cmd get = {
				.opcode = LOOM_OP_GET, .flags = LOOM_CMD_F_SIGNAL,
				.dst_ctx = CTX, .dst_node = (uint16_t)d, .tag = 0x100 + i * 16 + d,
				.local_off = 768 * 1024 + d * 4096, .remote_off = SEG - GET_LEN,
				.length = GET_LEN, .key = KEY,
			};

			if (d == i)
				continue;
			if (!fh_submit(&r->ctx[i], &put) || !fh_submit(&r->ctx[i], &get)) {
				tap_diag("card %u: command ring full", i);
				return false;
			}
			expect += 2;
		}
	}
	while (got < expect && ls->cycle - start < MAX_CYCLES) {
		struct loom_cqe e;

		ls_run(ls, 1000, true);
		for (unsigned int i = 0; i < CARDS; i++) {
			while (fh_poll_cqe(&r->ctx[i], &e) == 1) {
				got++;
				if (e.status != LOOM_CQE_ST_OK ||
				    e.value != (e.tag & 0x100 ? GET_LEN : PUT_LEN)) {
					if (bad++ < 8)
						tap_diag("card %u: tag 0x%llx status %u value %llu",
							 i, (unsigned long long)e.tag, e.status,
							 (unsigned long long)e.value);
				}
			}
		}
		if (ls_next_event(ls) == UINT64_MAX && got < expect)
			break;
	}
	if (getenv("LS_DEBUG")) {
		for (unsigned int i = 0; i < CARDS; i++) {
			struct card *c = &ls->c[i]->card;
			const struct router_counters *rc = router_counters(c->router);
			char st[2048];

			fprintf(stderr, "card %u: host_drops %llu stale %llu hp malformed %llu inj %llu del %llu q %u/%u/%u sink %u/%u/%u drops nr %llu hl %llu mal %llu down %llu dead %llu\n",
				i, (unsigned long long)c->host_drops, (unsigned long long)c->stale_acks,
				(unsigned long long)c->hp.malformed, (unsigned long long)c->hp.injected,
				(unsigned long long)c->hp.delivered, c->hp.q[0].count, c->hp.q[1].count,
				c->hp.q[2].count, c->hp.sink[0].done.count, c->hp.sink[1].done.count,
				c->hp.sink[2].done.count,
				(unsigned long long)rc->drops[1], (unsigned long long)rc->drops[2],
				(unsigned long long)rc->drops[3], (unsigned long long)rc->drops[4],
				(unsigned long long)rc->drops[5]);
			for (unsigned int p = 0; p < c->n_ports; p++) {
				const struct router_port_counters *pc = router_port_counters(c->router, p);

				link_unit_stats(card_port_link(c, p), st, sizeof(st));
				fprintf(stderr, "  port %u: router in %llu out %llu malformed %llu credit_err %llu | %s\n", p,
					(unsigned long long)pc->pkts_in, (unsigned long long)pc->pkts_out,
					(unsigned long long)pc->malformed, (unsigned long long)pc->credit_errors, st);
			}
			{
				const struct router_port_counters *pc = router_port_counters(c->router, c->host_port);
				fprintf(stderr, "  host: router in %llu out %llu malformed %llu credit_err %llu\n",
					(unsigned long long)pc->pkts_in, (unsigned long long)pc->pkts_out,
					(unsigned long long)pc->malformed, (unsigned long long)pc->credit_errors);
			}
		}
	}
	r->cycles = ls->cycle - start;
	r->steps = ls->steps;
	r->ok_completions = got == expect && !bad;
	if (!r->ok_completions)
		tap_diag("%u of %u completions, %u wrong, after %llu cycles", got, expect, bad,
			 (unsigned long long)r->cycles);
	r->ok_data = true;
	for (unsigned int d = 0; d < CARDS; d++) {
		for (unsigned int s = 0; s < CARDS; s++) {
			const uint8_t *seg = r->ctx[d].segp;

			if (s == d)
				continue;
			for (uint32_t o = 0; o < PUT_LEN; o++) {
				if (seg[put_off(s) + o] != pattern(s, 0, o)) {
					tap_diag("card %u, put from %u: byte %u is 0x%02x, not 0x%02x",
						 d, s, o, seg[put_off(s) + o], pattern(s, 0, o));
					r->ok_data = false;
					break;
				}
			}
			for (uint32_t o = 0; o < GET_LEN; o++) {
				if (seg[768 * 1024 + s * 4096 + o] != pattern(s, 99, o)) {
					tap_diag("card %u, get from %u: byte %u is 0x%02x, not 0x%02x",
						 d, s, o, seg[768 * 1024 + s * 4096 + o],
						 pattern(s, 99, o));
					r->ok_data = false;
					break;
				}
			}
		}
	}
	r->n_pkts = ls->n_pkts;
	r->pkts = ls->pkts;
	ls->pkts = NULL;
	return true;
}

int main(void)
{
	static struct run a, b;
	unsigned int diff = 0, undelivered = 0;
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0;
	bool ok;

	tap_plan(5);
	ok = one_run(&a);
	tap_ok(ok && a.ok_completions,
	       "run 1: %d cards, every put and get completed OK in %llu cycles (%llu edges stepped)",
	       CARDS, (unsigned long long)a.cycles, (unsigned long long)a.steps);
	tap_ok(ok && a.ok_data, "run 1: every byte landed where it belongs");
	for (unsigned int i = 0; i < a.n_pkts; i++) {
		uint64_t lat = a.pkts[i].delivered - a.pkts[i].injected;

		if (!a.pkts[i].delivered) {
			undelivered++;
			continue;
		}
		sum += lat;
		lo = lat < lo ? lat : lo;
		hi = lat > hi ? lat : hi;
	}
	tap_ok(a.n_pkts > 0 && !undelivered,
	       "run 1: %u packets traced, each delivered (latency host port to host port: min %llu, mean %.1f, max %llu cycles)",
	       a.n_pkts, (unsigned long long)lo, a.n_pkts ? (double)sum / a.n_pkts : 0.0,
	       (unsigned long long)hi);
	ls_free(&a.ls);
	ok = one_run(&b) && b.ok_completions && b.ok_data;
	ls_free(&b.ls);
	tap_ok(ok, "run 2: the same scenario completes again");
	for (unsigned int i = 0; i < a.n_pkts && i < b.n_pkts; i++) {
		if (!memcmp(&a.pkts[i], &b.pkts[i], sizeof(a.pkts[i])))
			continue;
		if (diff++ < 5)
			tap_diag("packet %u (%u.%u -> %u, type %u, op %u, offset %llu): run 1 injected %llu delivered %llu, run 2 injected %llu delivered %llu",
				 i, a.pkts[i].src_node, a.pkts[i].src_ctx, a.pkts[i].dst_node,
				 a.pkts[i].type, a.pkts[i].op_id,
				 (unsigned long long)a.pkts[i].offset,
				 (unsigned long long)a.pkts[i].injected,
				 (unsigned long long)a.pkts[i].delivered,
				 (unsigned long long)b.pkts[i].injected,
				 (unsigned long long)b.pkts[i].delivered);
	}
	tap_ok(a.n_pkts == b.n_pkts && !diff && a.cycles == b.cycles,
	       "two runs give identical per-packet cycles: %u and %u packets, %u differ, %llu and %llu cycles",
	       a.n_pkts, b.n_pkts, diff, (unsigned long long)a.cycles,
	       (unsigned long long)b.cycles);
	free(a.pkts);
	free(b.pkts);
	return tap_exit_status();
}
