// SPDX-License-Identifier: GPL-2.0
/*
 * The router's pipeline in cycles: zero-load latency through one router
 * equals the sum of the configured stages (three organisations, default
 * and uneven stage latencies), through N routers N times that plus the
 * links; one input to one output sustains one flit per cycle; a link's
 * credit round trip stalls it exactly when the buffer is smaller than the
 * round trip.
 */
#include "router_fabric.h"
#include "tap.h"

TAP_DEFINE;

/* One router, terminals on ports 0 and 1: head latency of one packet 0 -> 1. */
static int one_router_latency(const struct router_params *p, unsigned int len)
{
	struct fab *f = fab_new(1, p);
	int id, lat = -1;

	fab_terminal(f, 0, 0, 0);
	fab_terminal(f, 0, 1, 1);
	fab_route(f, 0, 0, 0);
	fab_route(f, 0, 1, 1);
	id = fab_send(f, 0, 1, 0, LOOM_CLASS_REQ, len, 5);
	if (fab_run(f, 200))
		lat = (int)(f->pkts[id].head_out - f->pkts[id].head_in);
	else
		tap_diag("not delivered: %s", f->err);
	fab_free(f);
	return lat;
}

static void latency_one(void)
{
	struct router_params p;
	int got;

	router_preset_card(&p, 2);
	got = one_router_latency(&p, 0);
	tap_ok(got == (int)router_zero_load_latency(&p) && got == 9,
	       "zero load, card router (tiled 2x2): head latency %d cycles, stages sum to %u",
	       got, router_zero_load_latency(&p));
	p.lat_bw = 2;
	p.lat_rc = 3;
	p.lat_va = 2;
	p.lat_sa = 1;
	p.lat_row = 4;
	p.lat_sub = 2;
	p.lat_col = 3;
	p.lat_out = 2;
	p.lat_lt = 5;
	got = one_router_latency(&p, 64);
	tap_ok(got == (int)router_zero_load_latency(&p),
	       "zero load, tiled with uneven stages: head latency %d, stages sum to %u",
	       got, router_zero_load_latency(&p));
	router_preset_xbar(&p, 4, 2);
	got = one_router_latency(&p, 16);
	tap_ok(got == (int)router_zero_load_latency(&p) && got == 6,
	       "zero load, baseline crossbar: head latency %d, stages sum to %u", got,
	       router_zero_load_latency(&p));
	p.lat_st = 3;
	p.lat_va = 4;
	got = one_router_latency(&p, 16);
	tap_ok(got == (int)router_zero_load_latency(&p),
	       "zero load, crossbar with ST 3, VA 4: head latency %d, stages sum to %u", got,
	       router_zero_load_latency(&p));
	router_preset_fbx(&p, 4, 2);
	got = one_router_latency(&p, 16);
	tap_ok(got == (int)router_zero_load_latency(&p),
	       "zero load, fully buffered crossbar (1 x 4 tiles): head latency %d, stages sum to %u",
	       got, router_zero_load_latency(&p));
}

/* A line of @n routers (ports: 0 left, 1 right, 2 terminal), links of @lw cycles. */
static struct fab *line_fabric(const struct router_params *p, unsigned int n, unsigned int lw)
{
	struct fab *f = fab_new(n, p);

	for (unsigned int i = 0; i < n; i++) {
		fab_terminal(f, i, 2, i);
		for (unsigned int d = 0; d < n; d++)
			fab_route(f, i, d, d == i ? 2 : d > i ? 1 : 0);
		if (i + 1 < n)
			fab_link(f, i, 1, i + 1, 0, lw);
	}
	return f;
}

static void latency_hops(void)
{
	struct router_params p;
	unsigned int n = 5, lw = 3;
	struct fab *f;
	int id, got, want;

	router_preset_xbar(&p, 3, 2);
	f = line_fabric(&p, n, lw);
	id = fab_send(f, 0, n - 1, 0, LOOM_CLASS_REQ, 32, 3);
	want = (int)(n * router_zero_load_latency(&p) + (n - 1) * lw);
	got = fab_run(f, 500) ? (int)(f->pkts[id].head_out - f->pkts[id].head_in) : -1;
	tap_ok(got == want && f->pkts[id].hops == (int)n,
	       "zero load through %u routers and %u links of %u cycles: %d cycles (want %d), hops %d",
	       n, n - 1, lw, got, want, f->pkts[id].hops);
	fab_free(f);
}

static void full_rate(void)
{
	struct router_params p;
	struct fab *f;
	unsigned int pkts = 100, flits = 0;
	uint64_t span;

	router_preset_card(&p, 2);
	p.buf_depth = 64;	/* virtual cut-through: round trip + largest packet */
	f = fab_new(1, &p);
	fab_terminal(f, 0, 0, 0);
	fab_terminal(f, 0, 1, 1);
	fab_route(f, 0, 1, 1);
	for (unsigned int i = 0; i < pkts; i++) {
		int id = fab_send(f, 0, 1, LOOM_VC_REQ0, LOOM_CLASS_REQ, 16 * (i % 17), 0);

		flits += f->pkts[id].flits;
	}
	fab_run(f, 20000);
	span = f->pkts[pkts - 1].tail_out - f->pkts[0].head_out;
	tap_ok(f->delivered == pkts && span + 1 == flits,
	       "one input to one output: %u flits of %u packets leave in %llu cycles (1 flit/cycle: %u)%s%s",
	       flits, pkts, (unsigned long long)span + 1, flits, f->errors ? ": " : "", f->err);
	fab_free(f);
}

/*
 * Cycles between the head and the tail of one 38-flit packet (8-byte
 * flits) at the far end of a two-router line whose input buffers hold
 * @depth flits; links of @lw cycles.
 */
static long link_span(unsigned int depth, unsigned int lw, unsigned int *flits)
{
	struct router_params p;
	struct fab *f;
	long span = -1;
	int id;

	router_preset_xbar(&p, 3, 1);
	p.flit_bytes = 8;
	p.wormhole_vcs = 1;
	p.buf_depth = depth;
	f = line_fabric(&p, 2, lw);
	id = fab_send(f, 0, 1, 0, LOOM_CLASS_REQ, LOOM_PKT_MAX_PAYLOAD, 0);
	*flits = f->pkts[id].flits;
	if (fab_run(f, 1000))
		span = (long)(f->pkts[id].tail_out - f->pkts[id].head_out);
	fab_free(f);
	return span;
}

static void credit_round_trip(void)
{
	struct router_params p;
	unsigned int lw = 4, rtt, n;
	long below, at, above, want_below;

	router_preset_xbar(&p, 3, 1);
	/* A's switch allocation to the flit on A's wire, the link, B's buffer write,
	 * the credit on B's wire, the link back, A's counter at the next edge
	 */
	rtt = p.lat_sa + p.lat_st + p.lat_lt + lw + p.lat_bw + 1 + lw + 1;
	at = link_span(rtt, lw, &n);
	above = link_span(rtt + 5, lw, &n);
	below = link_span(rtt - 1, lw, &n);
	/* with one buffer too few the sender waits one cycle after every rtt - 1 flits */
	want_below = (long)(n - 1 + (n - 1) / (rtt - 1));
	tap_ok(at == (long)n - 1 && above == (long)n - 1,
	       "credit round trip %u cycles: buffers of %u and %u flits carry a %u-flit packet without a gap (%ld, %ld cycles head to tail)",
	       rtt, rtt, rtt + 5, n, at, above);
	tap_ok(below == want_below,
	       "credit round trip %u cycles: a buffer of %u flits stalls the link: %ld cycles head to tail (want %ld)",
	       rtt, rtt - 1, below, want_below);
}

int main(void)
{
	tap_plan(9);
	latency_one();
	latency_hops();
	full_rate();
	credit_round_trip();
	return tap_exit_status();
}
