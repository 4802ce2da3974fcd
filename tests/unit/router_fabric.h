/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small fabric of cycle-level routers for the router's unit tests:
 * routers (all with the same parameters), channel lines between their
 * ports, and terminals (a packet source and a sink) on other ports.
 * Sources drive one flit per cycle while they hold a credit of the
 * packet's VC; sinks take every flit at once and return its credit in the
 * next cycle, reassemble packets per VC and compare them with what was
 * sent, byte for byte (hops aside), so interleaved or corrupted packets
 * are caught.  Header only: each test is one file.
 */
#ifndef LOOM_TESTS_ROUTER_FABRIC_H
#define LOOM_TESTS_ROUTER_FABRIC_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "router/chan_line.h"
#include "router/router.h"

#define FAB_MAX_ROUTERS	16
#define FAB_MAX_PORTS	ROUTER_PORTS_MAX
#define FAB_NODES	256
#define FAB_MAX_TERMS	128
#define FAB_MAX_LINES	64
#define FAB_PKT_BYTES	(LOOM_PKT_HDR_SIZE + LOOM_PKT_MAX_PAYLOAD)

struct fab_pkt {
	uint8_t bytes[FAB_PKT_BYTES];
	unsigned int nbytes, flits, vc, src, dst;
	uint64_t ready_at;	/* the source may start it from this cycle */
	uint64_t head_in;	/* cycle its head was on the source's wire */
	uint64_t head_out;	/* cycle its head reached the destination sink */
	uint64_t tail_out;
	int hops;		/* as delivered */
	int flags;		/* as delivered */
	int delivered;
};

struct fab_term {
	unsigned int router, port, node;
	/* source: a queue of packet indices per VC, VCs served round robin */
	unsigned int *q[CHAN_VCS_MAX];
	unsigned int qcap, qhead[CHAN_VCS_MAX], qcount[CHAN_VCS_MAX];
	unsigned int flit[CHAN_VCS_MAX];	/* next flit of each VC's head packet */
	unsigned int credits[CHAN_VCS_MAX];
	unsigned int rr;
	/* sink */
	uint8_t rx[CHAN_VCS_MAX][FAB_PKT_BYTES];
	unsigned int rx_n[CHAN_VCS_MAX];
	uint8_t credit_back[CHAN_VCS_MAX];
	uint64_t flits_rx;
	uint64_t rx_head_cycle[CHAN_VCS_MAX];
};

struct fab_line {
	unsigned int a, pa, b, pb;
	struct chan_line ab, ba;
};

struct fab {
	struct router_params p;
	unsigned int n;
	struct router *r[FAB_MAX_ROUTERS];
	uint32_t rt[FAB_MAX_ROUTERS][FAB_NODES * 2];
	uint32_t port_cfg[FAB_MAX_ROUTERS][LOOM_MAX_PORTS];
	uint32_t start_vc1[FAB_MAX_ROUTERS][FAB_NODES / 32];
	struct fab_term term[FAB_MAX_TERMS];
	int term_of_node[FAB_NODES];
	unsigned int n_terms;
	struct fab_line line[FAB_MAX_LINES];
	unsigned int n_lines;
	struct fab_pkt *pkts;
	unsigned int n_pkts, cap_pkts;
	unsigned int delivered;
	unsigned int errors;
	char err[512];
	uint64_t now;
};

static inline struct fab *fab_new(unsigned int n, const struct router_params *p)
{
	struct fab *f = calloc(1, sizeof(*f));
	char err[256];

	if (!f)
		return NULL;
	f->p = *p;
	f->n = n;
	f->cap_pkts = 1u << 16;
	f->pkts = calloc(f->cap_pkts, sizeof(*f->pkts));
	for (unsigned int i = 0; i < FAB_NODES; i++)
		f->term_of_node[i] = -1;
	for (unsigned int i = 0; i < n; i++) {
		struct route_view v = {
			.rt = f->rt[i], .rt_entries = FAB_NODES,
			.port_cfg = f->port_cfg[i],
			.start_vc1 = f->start_vc1[i], .start_vc1_bits = FAB_NODES,
			.wide_ports = p->ports - p->host_ports > LOOM_RT_PORT_HOST,
		};

		for (unsigned int k = 0; k < LOOM_MAX_PORTS; k++)
			f->port_cfg[i][k] = LOOM_VCT_PORT_DIM_NONE;
		f->r[i] = router_new(p, &v, err, sizeof(err));
		if (!f->r[i]) {
			fprintf(stderr, "router_new: %s\n", err);
			exit(2);
		}
	}
	return f;
}

static inline void fab_free(struct fab *f)
{
	for (unsigned int i = 0; i < f->n; i++)
		router_free(f->r[i]);
	for (unsigned int i = 0; i < f->n_lines; i++) {
		chan_line_free(&f->line[i].ab);
		chan_line_free(&f->line[i].ba);
	}
	for (unsigned int i = 0; i < f->n_terms; i++)
		for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
			free(f->term[i].q[v]);
	free(f->pkts);
	free(f);
}

/* Routing entry at router @i: node @dst leaves through @port. */
static inline void fab_route(struct fab *f, unsigned int i, unsigned int dst, unsigned int port)
{
	bool wide = f->p.ports - f->p.host_ports > LOOM_RT_PORT_HOST;

	f->rt[i][2 * dst] = wide ? router_entry_w0_wide(port) : router_entry_w0(port);
	f->rt[i][2 * dst + 1] = dst;
}

static inline void fab_link(struct fab *f, unsigned int a, unsigned int pa, unsigned int b,
			    unsigned int pb, unsigned int latency)
{
	struct fab_line *l = &f->line[f->n_lines++];

	l->a = a;
	l->pa = pa;
	l->b = b;
	l->pb = pb;
	chan_line_init(&l->ab, latency);
	chan_line_init(&l->ba, latency);
}

static inline void fab_terminal(struct fab *f, unsigned int i, unsigned int port,
				unsigned int node)
{
	struct fab_term *t = &f->term[f->n_terms];

	t->router = i;
	t->port = port;
	t->node = node;
	t->qcap = 1u << 14;
	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		t->q[v] = calloc(t->qcap, sizeof(*t->q[v]));
	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		t->credits[v] = f->p.buf_depth;
	f->term_of_node[node] = (int)f->n_terms;
	f->n_terms++;
}

/* Queue a packet of @len payload bytes from node @src to @dst on @vc; its index. */
static inline int fab_send(struct fab *f, unsigned int src, unsigned int dst, unsigned int vc,
			   unsigned int class, unsigned int len, uint64_t at)
{
	struct fab_term *t = &f->term[f->term_of_node[src]];
	struct loom_pkt_hdr h = {
		.type = LOOM_PKT_PUT, .class = (uint8_t)class, .len = (uint16_t)len,
		.dst_node = (uint16_t)dst, .src_node = (uint16_t)src,
	};
	struct fab_pkt *k;
	unsigned int id;

	if (f->n_pkts == f->cap_pkts || t->qcount[vc] == t->qcap)
		return -1;
	id = f->n_pkts++;
	k = &f->pkts[id];
	memset(k, 0, sizeof(*k));
	h.op_id = id;
	memcpy(k->bytes, &h, sizeof(h));
	for (unsigned int i = 0; i < len; i++)
		k->bytes[LOOM_PKT_HDR_SIZE + i] = (uint8_t)(id * 7 + i);
	k->nbytes = LOOM_PKT_HDR_SIZE + len;
	k->flits = router_packet_flits(f->p.flit_bytes, len);
	k->vc = vc;
	k->src = src;
	k->dst = dst;
	k->ready_at = at;
	k->hops = -1;
	t->q[vc][(t->qhead[vc] + t->qcount[vc]++) % t->qcap] = id;
	return (int)id;
}

static inline void fab_fail(struct fab *f, const char *msg, unsigned int id)
{
	if (!f->errors++)
		snprintf(f->err, sizeof(f->err), "cycle %llu: packet %u: %s",
			 (unsigned long long)f->now, id, msg);
}

/* A complete packet reassembled at terminal @t on VC @vc. */
static inline void fab_check_packet(struct fab *f, struct fab_term *t, unsigned int vc)
{
	struct loom_pkt_hdr h;
	struct fab_pkt *k;
	uint8_t got[FAB_PKT_BYTES], want[FAB_PKT_BYTES];

	memcpy(&h, t->rx[vc], sizeof(h));
	if (h.op_id >= f->n_pkts) {
		fab_fail(f, "unknown packet id at a sink", h.op_id);
		return;
	}
	k = &f->pkts[h.op_id];
	if (k->delivered) {
		fab_fail(f, "delivered twice", h.op_id);
		return;
	}
	if (t->node != k->dst) {
		fab_fail(f, "delivered to the wrong node", h.op_id);
		return;
	}
	memcpy(got, t->rx[vc], k->nbytes);
	memcpy(want, k->bytes, k->nbytes);
	got[6] = want[6] = got[7] = want[7] = 0;	/* flags, hops change on the way */
	if (t->rx_n[vc] < k->nbytes || memcmp(got, want, k->nbytes)) {
		fab_fail(f, "bytes differ from what was sent (interleaved or corrupted flits)",
			 h.op_id);
		return;
	}
	k->delivered = 1;
	k->hops = h.hops;
	k->flags = h.flags;
	k->head_out = t->rx_head_cycle[vc];
	k->tail_out = f->now + 1;
	f->delivered++;
}

/* Drive terminal @t's inputs of cycle f->now. */
static inline void fab_term_drive(struct fab *f, struct fab_term *t)
{
	struct chan *in = router_in(f->r[t->router], t->port);
	struct chan *out = router_out(f->r[t->router], t->port);
	struct fab_pkt *k;

	unsigned int vc = CHAN_VCS_MAX;

	memcpy(out->back.credits, t->credit_back, CHAN_VCS_MAX);
	memset(t->credit_back, 0, CHAN_VCS_MAX);
	for (unsigned int i = 0; i < CHAN_VCS_MAX; i++) {
		unsigned int v = (t->rr + i) % CHAN_VCS_MAX;

		if (!t->qcount[v] || !t->credits[v])
			continue;
		k = &f->pkts[t->q[v][t->qhead[v]]];
		if (k->ready_at > f->now)
			continue;
		vc = v;
		break;
	}
	if (vc == CHAN_VCS_MAX)
		return;
	t->rr = vc + 1;
	k = &f->pkts[t->q[vc][t->qhead[vc]]];
	in->fwd.valid = true;
	in->fwd.head = t->flit[vc] == 0;
	in->fwd.tail = t->flit[vc] == k->flits - 1;
	in->fwd.vc = (uint8_t)vc;
	memset(in->fwd.data, 0, f->p.flit_bytes);
	{
		unsigned int off = t->flit[vc] * f->p.flit_bytes, n = f->p.flit_bytes;

		if (off + n > k->nbytes)
			n = k->nbytes - off;
		memcpy(in->fwd.data, k->bytes + off, n);
	}
	t->credits[vc]--;
	if (t->flit[vc] == 0)
		k->head_in = f->now;
	if (++t->flit[vc] == k->flits) {
		t->flit[vc] = 0;
		t->qhead[vc] = (t->qhead[vc] + 1) % t->qcap;
		t->qcount[vc]--;
	}
}

/* Read terminal @t's outputs of cycle f->now + 1. */
static inline void fab_term_read(struct fab *f, struct fab_term *t)
{
	struct chan *in = router_in(f->r[t->router], t->port);
	struct chan *out = router_out(f->r[t->router], t->port);
	struct flit *fl = &out->fwd;

	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		t->credits[v] += in->back.credits[v];
	if (!fl->valid)
		return;
	t->flits_rx++;
	t->credit_back[fl->vc]++;
	if (fl->head) {
		if (t->rx_n[fl->vc])
			fab_fail(f, "head flit while a packet is open on the VC", 0);
		t->rx_n[fl->vc] = 0;
		t->rx_head_cycle[fl->vc] = f->now + 1;
	}
	if (t->rx_n[fl->vc] + f->p.flit_bytes <= FAB_PKT_BYTES + f->p.flit_bytes) {
		unsigned int n = f->p.flit_bytes;

		if (t->rx_n[fl->vc] + n > FAB_PKT_BYTES)
			n = FAB_PKT_BYTES - t->rx_n[fl->vc];
		memcpy(t->rx[fl->vc] + t->rx_n[fl->vc], fl->data, n);
		t->rx_n[fl->vc] += n;
	}
	if (fl->tail) {
		fab_check_packet(f, t, fl->vc);
		t->rx_n[fl->vc] = 0;
	}
}

/* xorshift64: a test's reproducible random numbers in 0 .. @n - 1 */
static inline unsigned int fab_rnd(uint64_t *seed, unsigned int n)
{
	*seed ^= *seed << 13;
	*seed ^= *seed >> 7;
	*seed ^= *seed << 17;
	return (unsigned int)(*seed % n);
}

/*
 * One router with a terminal on every port: @nodes[p] is the node on port
 * p, routed there (the host port's node through the host entry).
 */
static inline struct fab *fab_single(const struct router_params *p, const unsigned int *nodes)
{
	struct fab *f = fab_new(1, p);
	unsigned int n_net = p->ports - p->host_ports;

	for (unsigned int i = 0; i < p->ports; i++) {
		fab_terminal(f, 0, i, nodes[i]);
		if (i < n_net)
			fab_route(f, 0, nodes[i], i);
		else
			f->rt[0][2 * nodes[i]] = router_entry_w0(LOOM_RT_PORT_HOST);
	}
	return f;
}

/* One cycle of the whole fabric. */
static inline void fab_step(struct fab *f)
{
	for (unsigned int i = 0; i < f->n_terms; i++)
		fab_term_drive(f, &f->term[i]);
	for (unsigned int i = 0; i < f->n; i++)
		router_cycle(f->r[i]);
	for (unsigned int i = 0; i < f->n_lines; i++) {
		struct fab_line *l = &f->line[i];

		chan_line_step(&l->ab, router_out(f->r[l->a], l->pa), router_in(f->r[l->b], l->pb));
		chan_line_step(&l->ba, router_out(f->r[l->b], l->pb), router_in(f->r[l->a], l->pa));
	}
	for (unsigned int i = 0; i < f->n_terms; i++)
		fab_term_read(f, &f->term[i]);
	f->now++;
}

/* Step until every queued packet is delivered or @max cycles pass; true if all arrived. */
static inline bool fab_run(struct fab *f, uint64_t max)
{
	uint64_t end = f->now + max;

	while (f->now < end && f->delivered < f->n_pkts)
		fab_step(f);
	return f->delivered == f->n_pkts && !f->errors;
}

/*
 * Step until every queued packet is delivered, @max cycles pass, or the
 * fabric deadlocks: every router blocked (no event ahead, not quiescent)
 * and every line idle for 100 cycles with no delivery.  True on deadlock.
 */
static inline bool fab_run_deadlock(struct fab *f, uint64_t max)
{
	unsigned int last = f->delivered;
	uint64_t end = f->now + max, still = 0;

	while (f->now < end && f->delivered < f->n_pkts) {
		bool blocked = true;

		fab_step(f);
		for (unsigned int i = 0; i < f->n; i++)
			if (router_next_event(f->r[i]) != ROUTER_NEVER || router_quiescent(f->r[i]))
				blocked = false;
		for (unsigned int i = 0; i < f->n_lines; i++)
			if (chan_line_busy(&f->line[i].ab) || chan_line_busy(&f->line[i].ba))
				blocked = false;
		if (f->delivered != last || !blocked) {
			last = f->delivered;
			still = 0;
		} else if (++still == 100) {
			return true;
		}
	}
	return false;
}

/*
 * A single card (fab_single) whose network ports 0 and 1 form dimension 0,
 * port 0 stuck, and 8 requests from its host (node 2) to node 0, the last
 * 4 ordered: the setting of the weighted deroute tests.
 */
static inline void fab_stuck_dimension(struct fab *f)
{
	f->port_cfg[0][0] = 0;
	f->port_cfg[0][1] = 0;
	router_out(f->r[0], 0)->back.ready = false;
	for (unsigned int i = 0; i < 8; i++) {
		int id = fab_send(f, 2, 0, LOOM_VC_REQ0, LOOM_CLASS_REQ, 64, 40 * i);

		if (i >= 4)
			f->pkts[id].bytes[6] = LOOM_PKT_F_ORDERED;
	}
}

/* The packets that left a port: on one VC, on others, ordered, from one source node. */
struct fab_tally {
	unsigned int on_vc, other, ordered, from;
};

/*
 * Step @f @cycles cycles and tally the head flits that leave network port
 * @port of router @r: on VC @vc, on another VC, ordered, from node @src.
 */
static inline struct fab_tally fab_tally(struct fab *f, unsigned int r, unsigned int port,
					 unsigned int cycles, unsigned int vc, unsigned int src)
{
	struct fab_tally t = { 0 };

	for (unsigned int c = 0; c < cycles; c++) {
		const struct flit *fl;

		fab_step(f);
		fl = &router_out(f->r[r], port)->fwd;
		if (!fl->valid || !fl->head)
			continue;
		t.on_vc += fl->vc == vc;
		t.other += fl->vc != vc;
		t.ordered += (fl->data[6] & LOOM_PKT_F_ORDERED) != 0;
		t.from += (unsigned int)(fl->data[8] | fl->data[9] << 8) == src;
	}
	return t;
}

#endif
