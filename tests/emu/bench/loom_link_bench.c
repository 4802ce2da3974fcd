// SPDX-License-Identifier: GPL-2.0
/*
 * loom-link-bench: figures for the cycle-level link unit, not a pass/fail
 * test.  Two link units with default parameters back to back on an
 * in-process wire (link_wire.h), a router-side source per end that sends
 * 64-byte packets (112 bytes with the header: 7 flits of 16 bytes) as fast
 * as credits and the link allow, and a sink per end that takes every flit
 * and frees it the next cycle.  Measured on the CPU clock of this process:
 *   - one way: packets delivered per second of CPU, model cycles per
 *     second, flits per cycle, ACK_CREDIT frames per packet;
 *   - both ways at once: the same, counting both directions;
 *   - the same with the pair stepped only at next events (idle skipping)
 *     for sparse traffic: one packet every 1000 cycles;
 *   - one way with BUF_DEPTH 24, the router model's default, which does
 *     not cover the credit round trip: the flits per cycle show the cost.
 * The card's goal is >= 1 M 64-byte packets per second per core with the
 * link layer on.  Each figure is the best of three runs (the machine is
 * shared).  Build and run: make -C fpga_bitstreams bench &&
 * build/bin/loom-link-bench [packets]
 */
#include "link/link_unit.h"
#include "link/link_wire.h"
#include "cpu_clock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PAYLOAD		64

struct src {
	uint32_t credits[CHAN_VCS_MAX];
	struct flit flits[8];	/* the packet, precomputed */
	unsigned int n, at;
	uint8_t vc;
	uint64_t left, next_at, gap;
	struct flit out;
	uint64_t trains;
};

struct sink {
	struct chan_back back;
	uint64_t flits, packets;
};

struct bench {
	struct link_unit a, b;
	struct link_wire w;
	struct src src[2];
	struct sink sink[2];
	uint64_t now;
};

static void src_init(struct src *s, const struct link_params *p, uint8_t vc)
{
	struct loom_pkt_hdr h = { .type = LOOM_PKT_PUT, .len = PAYLOAD };
	uint8_t bytes[LINK_PKT_MAX + FLIT_BYTES_MAX] = { 0 };

	memset(s, 0, sizeof(*s));
	memcpy(bytes, &h, sizeof(h));
	s->n = link_flits(p, LOOM_PKT_HDR_SIZE + PAYLOAD);
	s->vc = vc;
	for (unsigned int i = 0; i < s->n; i++) {
		s->flits[i].valid = true;
		s->flits[i].head = i == 0;
		s->flits[i].tail = i + 1 == s->n;
		s->flits[i].vc = vc;
		memcpy(s->flits[i].data, bytes + i * p->flit_bytes, p->flit_bytes);
	}
}

static void src_edge(struct src *s, const struct link_unit *l, const struct link_out *lo,
		     uint64_t t)
{
	uint64_t c;

	memcpy(&c, lo->back.credits, sizeof(c));
	if (c)
		for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
			s->credits[v] += lo->back.credits[v];
	if (l->cnt.trains != s->trains) {	/* came up: BUF_DEPTH credits per VC */
		s->trains = l->cnt.trains;
		for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
			s->credits[v] = l->p.buf_depth;
	}
	if (s->out.valid) {	/* ready is registered: driven means taken */
		s->out.valid = false;
		if (++s->at == s->n)
			s->at = 0;
	}
	if (!lo->back.ready)
		return;
	if (!s->at) {
		if (!s->left || t < s->next_at || s->credits[s->vc] < s->n)
			return;
		s->credits[s->vc] -= s->n;
		s->left--;
		s->next_at = t + s->gap;
	}
	s->out = s->flits[s->at];
}

static void sink_edge(struct sink *k, const struct link_out *lo)
{
	const struct flit *f = &lo->flit;

	memset(k->back.credits, 0, sizeof(k->back.credits));
	k->back.ready = true;
	if (!f->valid)
		return;
	k->flits++;
	k->packets += f->tail;
	k->back.credits[f->vc] = 1;
}

static void cycle(struct bench *x)
{
	uint64_t t = x->now;
	struct link_out oa = x->a.out, ob = x->b.out;
	struct link_in ia = { .flit = x->src[0].out, .back = x->sink[1].back };
	struct link_in ib = { .flit = x->src[1].out, .back = x->sink[0].back };

	link_wire_cycle(&x->w, &ia, &ib);
	src_edge(&x->src[0], &x->a, &oa, t);
	src_edge(&x->src[1], &x->b, &ob, t);
	sink_edge(&x->sink[0], &ob);
	sink_edge(&x->sink[1], &oa);
	x->now++;
}

static uint64_t next_event(const struct bench *x)
{
	uint64_t n = link_unit_next_event(&x->a), m;

	for (unsigned int i = 0; i < 2; i++) {
		const struct src *s = &x->src[i];

		if (s->out.valid || x->sink[i].back.credits[0] || x->sink[i].back.credits[2])
			return x->now;
		if (s->left && s->next_at < n)
			n = s->next_at ? s->next_at - 1 : x->now;
	}
	m = link_unit_next_event(&x->b);
	n = m < n ? m : n;
	m = link_wire_next_event(&x->w);
	n = m < n ? m : n;
	return n < x->now ? x->now : n;
}

static void setup(struct bench *x, uint32_t buf_depth)
{
	struct link_params p;
	char err[256];

	memset(x, 0, sizeof(*x));
	link_params_default(&p);
	if (buf_depth)
		p.buf_depth = buf_depth;
	if (!link_unit_init(&x->a, &p, err, sizeof(err)) ||
	    !link_unit_init(&x->b, &p, err, sizeof(err)) ||
	    !link_wire_init(&x->w, &x->a, &x->b, 1, err, sizeof(err))) {
		fprintf(stderr, "loom-link-bench: %s\n", err);
		exit(1);
	}
	src_init(&x->src[0], &p, LOOM_VC_REQ0);
	src_init(&x->src[1], &p, LOOM_VC_RESP0);
	x->sink[0].back.ready = x->sink[1].back.ready = true;
	while (!link_unit_up(&x->a) || !link_unit_up(&x->b))
		cycle(x);
}

static void teardown(struct bench *x)
{
	link_wire_free(&x->w);
	link_unit_free(&x->a);
	link_unit_free(&x->b);
}

/* One run; returns its CPU seconds and fills the figures. */
static double run_once(struct bench *x, uint32_t buf_depth, uint64_t packets, bool both,
		       uint64_t gap, bool skip, uint64_t *got, uint64_t *cycles, uint64_t *steps,
		       uint64_t *status, uint64_t *flits)
{
	uint64_t want, c0;
	double t0, t1;

	setup(x, buf_depth);
	x->src[0].left = packets;
	x->src[0].gap = gap;
	if (both) {
		x->src[1].left = packets;
		x->src[1].gap = gap;
	}
	want = packets * (both ? 2 : 1);
	c0 = x->now;
	*steps = 0;
	t0 = process_cpu_seconds();
	while ((*got = x->sink[0].packets + x->sink[1].packets) < want) {
		uint64_t next = skip ? next_event(x) : x->now;

		if (next > x->now) {
			link_unit_skip(&x->a, next);
			link_unit_skip(&x->b, next);
			x->now = next;
		}
		cycle(x);
		(*steps)++;
	}
	t1 = process_cpu_seconds();
	*cycles = x->now - c0;
	*status = x->a.cnt.status_frames + x->b.cnt.status_frames;
	*flits = x->sink[0].flits + x->sink[1].flits;
	teardown(x);
	return t1 - t0;
}

/* The best of three runs (the machine is shared: the fastest is the model's cost). */
static void run(const char *name, uint32_t buf_depth, uint64_t packets, bool both, uint64_t gap,
		bool skip)
{
	static struct bench x;
	uint64_t got, cycles, steps, status, flits;
	double best = 0;

	for (unsigned int i = 0; i < 3; i++) {
		double s = run_once(&x, buf_depth, packets, both, gap, skip, &got, &cycles, &steps,
				    &status, &flits);

		if (!i || s < best)
			best = s;
	}
	printf("%-34s %9llu pkts %11llu cycles %9llu steps %7.3f s CPU %6.2f Mpkt/s %6.2f Mcycle/s %6.3f flits/cycle %5.3f ACK_CREDIT/pkt\n",
	       name, (unsigned long long)got, (unsigned long long)cycles,
	       (unsigned long long)steps, best, (double)got / best / 1e6,
	       (double)cycles / best / 1e6, (double)flits / (double)cycles,
	       (double)status / (double)got);
}


int main(int argc, char **argv)
{
	uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 2000000;
	struct link_params p;

	link_params_default(&p);
	printf("loom-link-bench: two link units back to back, default parameters (%u lanes x %u bytes, %u-byte flits, wire %u cycles, replay %u frames, coalescing %u cycles), 64-byte packets\n",
	       p.lanes, p.lane_bytes, p.flit_bytes, p.wire_latency, p.replay_frames,
	       p.coalesce_delay);
	printf("model memory per link unit: %zu bytes (struct) + %zu bytes (queues)\n",
	       sizeof(struct link_unit),
	       p.tx_queue * sizeof(struct link_pkt) + p.replay_frames * sizeof(struct link_pkt) +
	       p.rx_queue * sizeof(struct link_frame));
	run("one way, every cycle stepped", 0, n, false, 0, false);
	run("both ways, every cycle stepped", 0, n, true, 0, false);
	run("both ways, 1 packet/1000 cycles, skip", 0, n / 100, true, 1000, true);
	run("one way, BUF_DEPTH 24 (router's)", 24, n / 10, false, 0, false);
	printf("goal: >= 1 M 64-byte packets per second of CPU with the link layer on\n");
	return 0;
}
