// SPDX-License-Identifier: GPL-2.0
/*
 * Documentation/hw/card.rst states the card's cycle budget: the router's
 * stage latencies, the link's figures and the zero-load latency of a
 * 64-byte put over 1 to 4 hops.  This test reads those numbers from the
 * page and compares them with the card's defaults (card_params_default():
 * the router and link parameters the card runs with) and with the latency
 * the model shows when a ring of cards is stepped in lockstep, so the page
 * cannot drift from the card.
 */
#include "card.h"
#include "lockstep.h"
#include "tap.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

#define CARDS		8	/* ring: up to 4 hops */
#define CTX		2
#define KEY		0xd0c5u
#define SEG		(1u << 16)
#define RAM		(4u << 20)
#define PUT_LEN		64
#define HOPS_MAX	4
#define DOC_LINES	2048
#define LINE_MAX_LEN	256

static char doc[DOC_LINES][LINE_MAX_LEN];
static unsigned int doc_n;

static bool doc_read(void)
{
	char src[512], path[640];
	FILE *f;

	snprintf(src, sizeof(src), "%s", __FILE__);
	snprintf(path, sizeof(path), "%s/../../Documentation/hw/card.rst", dirname(src));
	f = fopen(path, "r");
	if (!f) {
		tap_diag("cannot open %s", path);
		return false;
	}
	while (doc_n < DOC_LINES && fgets(doc[doc_n], LINE_MAX_LEN, f))
		doc_n++;
	fclose(f);
	return doc_n > 0;
}

/*
 * The number at the end of the table row whose first cell contains @key
 * (a row: text, two or more blanks, ..., the number last); -1 if none.
 */
static long doc_row_value(const char *key)
{
	for (unsigned int i = 0; i < doc_n; i++) {
		const char *l = doc[i], *end = l + strlen(l);
		char *num_end;
		long v;

		if (!strstr(l, key))
			continue;
		while (end > l && (end[-1] == '\n' || end[-1] == ' '))
			end--;
		while (end > l && end[-1] >= '0' && end[-1] <= '9')
			end--;
		v = strtol(end, &num_end, 10);
		if (num_end != end && (*num_end == '\n' || *num_end == ' ' || !*num_end))
			return v;
	}
	return -1;
}

static bool check_row(const char *key, long want, const char *what)
{
	long got = doc_row_value(key);

	if (got != want)
		tap_diag("card.rst row '%s' (%s): the page says %ld, the card has %ld", key, what,
			 got, want);
	return got == want;
}

/* Cycles from a 64-byte put's packet leaving card 0's host port to its delivery at card @dst. */
static long put_latency(struct lockstep *ls, struct fh_ctx *ctx, unsigned int dst, uint32_t tag)
{
	struct loom_cmd put = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX,
		.dst_node = (uint16_t)dst, .tag = tag, .length = PUT_LEN, .key = KEY,
	};
	struct loom_cqe e;
	unsigned int first = ls->n_pkts;

	if (!fh_submit(&ctx[0], &put)) {
		tap_diag("put to card %u: command ring full", dst);
		return -1;
	}
	for (uint64_t start = ls->cycle; ls->cycle - start < 10000000; ) {
		ls_run(ls, 10000, true);
		if (fh_poll_cqe(&ctx[0], &e) == 1)
			break;
		if (ls_next_event(ls) == UINT64_MAX)
			break;
	}
	ls_run(ls, 100000, true);	/* idle again: the next put starts at zero load */
	for (unsigned int i = first; i < ls->n_pkts; i++) {
		const struct ls_packet *p = &ls->pkts[i];

		if (p->type == LOOM_PKT_PUT && p->src_node == 0 && p->dst_node == dst) {
			if (!p->delivered) {
				tap_diag("put to card %u: its packet was not delivered", dst);
				return -1;
			}
			return (long)(p->delivered - p->injected);
		}
	}
	tap_diag("put to card %u: no PUT packet in the trace", dst);
	return -1;
}

int main(void)
{
	struct card_params p;
	static struct lockstep ls;
	struct fh_ctx ctx[CARDS];
	long lat[HOPS_MAX + 1] = { 0 };
	unsigned int flits, frame, ser, rate;
	char err[256], key[64];
	bool ok;

	tap_plan(4);
	ok = doc_read();
	if (!tap_ok(ok, "Documentation/hw/card.rst read (%u lines)", doc_n))
		return tap_exit_status();

	card_params_default(&p, 0, 2);
	ok = check_row("``LAT_BW``", p.router.lat_bw, "buffer write") &
	     check_row("``LAT_RC``", p.router.lat_rc, "route computation") &
	     check_row("``LAT_VA``", p.router.lat_va, "VC allocation") &
	     check_row("``LAT_SA``", p.router.lat_sa, "switch allocation") &
	     check_row("``LAT_ROW``", p.router.lat_row, "row bus") &
	     check_row("``LAT_SUB``", p.router.lat_sub, "subswitch") &
	     check_row("``LAT_COL``", p.router.lat_col, "column channel") &
	     check_row("``LAT_OUT``", p.router.lat_out, "output mux") &
	     check_row("``LAT_LT``", p.router.lat_lt, "output register") &
	     check_row("through one router", router_zero_load_latency(&p.router),
		       "router_zero_load_latency()");
	tap_ok(ok, "router stages and one router's zero-load latency (%u cycles) as the card has them",
	       router_zero_load_latency(&p.router));

	flits = router_packet_flits(p.router.flit_bytes, PUT_LEN);
	frame = LOOM_FRAME_HDR_SIZE + LOOM_PKT_HDR_SIZE + PUT_LEN + 4;
	rate = p.link.lanes * p.link.lane_bytes;
	ser = (frame + rate - 1) / rate;
	ok = check_row("``FLIT_BYTES``", p.router.flit_bytes, "flit width") &
	     check_row("flits of a 64-byte put", flits, "router_packet_flits()") &
	     check_row("frame of a 64-byte put", frame, "frame header + packet + CRC") &
	     check_row("lanes x ``LANE_BYTES``", rate, "link rate, bytes per cycle") &
	     check_row("serialisation", ser, "frame / rate, rounded up") &
	     check_row("``WIRE_LATENCY``", p.link.wire_latency, "wire") &
	     check_row("whole frame checked", 1, "CRC check edge");
	tap_ok(ok, "link figures as the card has them (%u flits, %u-byte frame, %u bytes/cycle, %u + %u + 1 cycles)",
	       flits, frame, rate, ser, p.link.wire_latency);

	ok = ls_init(&ls, CARDS, 2, RAM, NULL, err, sizeof(err)) == 0 &&
	     ls_ring(&ls, err, sizeof(err)) == 0;
	if (!ok)
		tap_diag("lockstep: %s", err);
	ok = ok && ls_train(&ls, 1000000);
	for (unsigned int i = 0; ok && i < CARDS; i++)
		ok = fh_ctx_create(&ls.c[i]->fh, &ctx[i], CTX, KEY, 6, 8, SEG) == LOOM_ADMIN_E_OK;
	if (ok) {
		ls_trace(&ls, 1024);
		ls_run(&ls, 100000, true);
	}
	for (unsigned int h = 1; ok && h <= HOPS_MAX; h++) {
		lat[h] = put_latency(&ls, ctx, h, h);
		tap_diag("%u hop%s: %ld cycles host port to host port", h, h > 1 ? "s" : "", lat[h]);
		ok = lat[h] > 0;
	}
	for (unsigned int h = 1; ok && h <= HOPS_MAX; h++) {
		snprintf(key, sizeof(key), "%u hop%s ", h, h > 1 ? "s" : "");
		ok = check_row(key, lat[h], "zero-load latency measured in lockstep");
	}
	ok = ok && check_row("each further hop", lat[2] - lat[1], "measured increment") &&
	     lat[3] - lat[2] == lat[2] - lat[1] && lat[4] - lat[3] == lat[2] - lat[1] &&
	     check_row("per hop, head to head",
		       router_zero_load_latency(&p.router) + (flits - 1) + ser + p.link.wire_latency + 1,
		       "router + link, computed");
	tap_ok(ok && lat[2] - lat[1] == (long)(router_zero_load_latency(&p.router) + (flits - 1) + ser +
					       p.link.wire_latency + 1),
	       "zero-load latency of a 64-byte put over 1..4 hops as measured (%ld %ld %ld %ld cycles), each hop adds router + link",
	       lat[1], lat[2], lat[3], lat[4]);
	ls_free(&ls);
	return tap_exit_status();
}
