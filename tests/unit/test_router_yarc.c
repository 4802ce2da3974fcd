// SPDX-License-Identifier: GPL-2.0
/*
 * The 64-port router of 8x8 tiles (the seed's YARC preset): every input
 * reaches every output (4096 pairs, each packet checked byte for byte),
 * and uniform random traffic with every input saturated is accepted at
 * the rate the organisation's internal speedup allows (row buffers per
 * input and column, column channels per output), which a crossbar with
 * the same buffers and no speedup does not reach.  The load/throughput
 * curves are figures of loom-router-bench (make router-curves).
 */
#include "router_fabric.h"
#include "tap.h"

TAP_DEFINE;

static uint64_t seed = 0x2545f4914f6cdd1dull;

static unsigned int rnd(unsigned int n)
{
	return fab_rnd(&seed, n);
}

static struct fab *radix64(const struct router_params *p)
{
	unsigned int nodes[64];

	for (unsigned int i = 0; i < 64; i++)
		nodes[i] = i;
	return fab_single(p, nodes);
}

static void all_pairs(void)
{
	struct router_params p;
	struct fab *f;
	unsigned int bad = 0;

	router_preset_yarc(&p);
	f = radix64(&p);
	for (unsigned int s = 0; s < 64; s++)
		for (unsigned int d = 0; d < 64; d++)
			fab_send(f, s, d, (s + d) % 2, LOOM_CLASS_REQ, 16, 0);
	fab_run(f, 20000);
	for (unsigned int k = 0; k < f->n_pkts; k++)
		bad += !f->pkts[k].delivered || f->pkts[k].hops != 1;
	tap_ok(f->delivered == 64 * 64 && !bad && !f->errors,
	       "64 ports, 8x8 tiles: %u of 4096 input/output pairs delivered intact in %llu cycles%s%s",
	       f->delivered, (unsigned long long)f->now, f->errors ? ": " : "", f->err);
	fab_free(f);
}

/* Accepted flits per cycle and port with every input saturated. */
static double saturated(const struct router_params *p)
{
	struct fab *f = radix64(p);
	uint64_t rx0 = 0, rx1 = 0, from = 600, to = 1800;

	for (unsigned int s = 0; s < 64; s++)
		for (unsigned int k = 0; k < 300; k++) {
			unsigned int d = rnd(63);

			fab_send(f, s, d >= s ? d + 1 : d, k % p->vcs, LOOM_CLASS_REQ, 64, 0);
		}
	while (f->now < to) {
		if (f->now == from)
			for (unsigned int i = 0; i < 64; i++)
				rx0 += f->term[i].flits_rx;
		fab_step(f);
	}
	for (unsigned int i = 0; i < 64; i++)
		rx1 += f->term[i].flits_rx;
	if (f->errors)
		tap_diag("fabric error: %s", f->err);
	fab_free(f);
	return (double)(rx1 - rx0) / (double)(to - from) / 64.0;
}

int main(void)
{
	struct router_params p;
	double tiled, xbar;

	tap_plan(2);
	all_pairs();
	router_preset_yarc(&p);
	tiled = saturated(&p);
	router_preset_xbar(&p, 64, 2);
	p.buf_depth = 256;
	p.wormhole_vcs = 0;
	xbar = saturated(&p);
	tap_ok(tiled >= 0.85 && tiled > xbar + 0.1,
	       "uniform random, inputs saturated: 8x8 tiles accept %.3f flits/cycle/port (want >= 0.85), a crossbar without speedup %.3f",
	       tiled, xbar);
	return tap_exit_status();
}
