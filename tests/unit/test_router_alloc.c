// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation: under heavy random traffic toward few outputs no output VC
 * carries two packets at once (every packet arrives whole, its flits never
 * interleaved with another's on its VC), for the tiled card router, the
 * crossbar and wormhole flow control; head-of-line blocking is visible
 * with one VC and removed with two.
 */
#include "router_fabric.h"
#include "tap.h"

TAP_DEFINE;

static uint64_t seed = 88172645463325252ull;

static unsigned int rnd(unsigned int n)
{
	return fab_rnd(&seed, n);
}

static void exclusive(const char *what, struct router_params *p, bool card)
{
	unsigned int pkts = 0;
	const struct router_counters *c;
	unsigned int nodes[FAB_MAX_PORTS];
	struct fab *f;

	for (unsigned int i = 0; i < p->ports; i++)
		nodes[i] = i;
	f = fab_single(p, nodes);
	for (unsigned int k = 0; k < 1500; k++) {
		unsigned int s = rnd(p->ports), d = rnd(3);	/* three hot outputs */
		unsigned int cls = card ? rnd(2) : LOOM_CLASS_REQ;
		unsigned int vc = card ? (cls == LOOM_CLASS_REQ ? (rnd(2) ? LOOM_VC_REQ0 : LOOM_VC_REQ1) :
					   (rnd(2) ? LOOM_VC_RESP0 : LOOM_VC_RESP1)) : rnd(p->vcs);

		if (d == s)
			continue;
		fab_send(f, s, d, vc, cls, 16 * rnd(17), rnd(2000));
		pkts++;
	}
	fab_run(f, 100000);
	c = router_counters(f->r[0]);
	tap_ok(f->delivered == pkts && !f->errors && c->va_conflicts > 0,
	       "%s: %u of %u packets arrive whole, no VC carried two at once (%llu VC requests lost arbitration)%s%s",
	       what, f->delivered, pkts, (unsigned long long)c->va_conflicts,
	       f->errors ? ": " : "", f->err);
	fab_free(f);
}

/* Delivered to port 2 while port 1 is blocked; @vcs VCs, packets to 2 on VC @vcs - 1. */
static unsigned int hol(unsigned int vcs)
{
	struct router_params p;
	struct fab *f;
	unsigned int to2 = 0, got;

	router_preset_xbar(&p, 3, vcs);
	f = fab_single(&p, (const unsigned int[]){ 0, 1, 2 });
	for (unsigned int k = 0; k < 20; k++) {
		bool two = k % 2;

		fab_send(f, 0, two ? 2 : 1, two ? vcs - 1 : 0, LOOM_CLASS_REQ, 64, 0);
		to2 += two;
	}
	router_out(f->r[0], 1)->back.ready = false;	/* port 1's receiver never takes a flit */
	for (unsigned int c = 0; c < 2000; c++)
		fab_step(f);
	got = 0;
	for (unsigned int k = 0; k < f->n_pkts; k++)
		got += f->pkts[k].delivered && f->pkts[k].dst == 2;
	fab_free(f);
	tap_diag("%u VC(s): %u of %u packets to the free output delivered", vcs, got, to2);
	return got;
}

int main(void)
{
	struct router_params p;
	unsigned int one, two;

	tap_plan(5);
	router_preset_card(&p, 8);
	exclusive("card router, 9 ports, tiled 3x3, card VCs (VCT)", &p, true);
	router_preset_xbar(&p, 8, 4);
	exclusive("crossbar, 8 ports, 4 generic VCs (VCT)", &p, false);
	router_preset_xbar(&p, 8, 4);
	p.wormhole_vcs = 0xf;
	p.buf_depth = 4;
	exclusive("crossbar, 8 ports, 4 wormhole VCs of 4 flits", &p, false);
	router_preset_yarc(&p);
	p.ports = 16;
	p.rows = 4;
	p.cols = 4;
	p.buf_depth = 24;
	p.wormhole_vcs = 3;
	exclusive("tiled 4x4, 2 wormhole VCs", &p, false);
	one = hol(1);
	two = hol(2);
	tap_ok(one <= 1 && two == 10,
	       "head-of-line blocking: behind a blocked packet 1 VC delivers %u of 10 to a free output, 2 VCs deliver %u",
	       one, two);
	return tap_exit_status();
}
