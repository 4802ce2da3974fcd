// SPDX-License-Identifier: GPL-2.0
/*
 * loom-router-bench: figures of the cycle-level router model.
 *
 *   loom-router-bench speed  [--cycles N] [--load L] [--set NAME=VALUE]...
 *       card router (host + 6 network ports, 4 VCs, 3x3 tiles) under
 *       uniform random traffic of 64-byte packets at half its capacity:
 *       router cycles per second of CPU.
 *   loom-router-bench torus  [--cycles N] [--load L] [--ports N] [--set NAME=VALUE]...
 *       the router a torus simulation steps: host + 6 network ports (8x8x8
 *       torus; --ports 4 for a 2D torus), 3 generic VCs, 64-byte flits and
 *       1-flit packets, each port loaded as the torus loads its channels
 *       (default 0.4 flits/cycle: half of the 8x8x8 torus's saturation):
 *       router cycles per second of CPU, and the CPU time per router cycle.
 *   loom-router-visits speed|torus ...
 *       the same, built with the router's visit counters (router/visits.h,
 *       make -C fpga_bitstreams router-visits): after the router-alone
 *       figure, what each stage looked at per flit leaving the router.
 *   loom-router-bench memory
 *       model memory of the 8-port card router and the 64-port YARC
 *       router, and this process's resident set with the YARC router.
 *   loom-router-bench curve  [--preset yarc|card|xbar|fbx] [--cycles N]
 *                            [--speedup S] [--set NAME=VALUE]... [--csv FILE]
 *       offered vs accepted load and average latency under uniform random
 *       traffic, offered 0.1 .. 1.0 flits/cycle/port, as CSV.
 *
 * Traffic: Bernoulli packet sources (one packet per port and cycle with
 * probability load / flits, drawn as geometric gaps between packets) on
 * every port, destinations uniform over the other ports; requests, on the
 * request VCs when the router has the card's VCs.  Sinks take every flit
 * and return its credit the next cycle.  Latency: from the packet's
 * creation to its head leaving the router.  The first figure's CPU time
 * covers the traffic generation too; speed and torus then print the
 * router alone: the router's inputs of up to 200000 cycles recorded from
 * that closed loop and fed to a fresh router from memory, five times,
 * its counters compared with the recorded router's.
 */
#include "router/router.h"
#include "router/visits.h"
#include "proc_rss.h"
#include "cpu_clock.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SRC_Q	256

struct src {
	uint64_t next_pkt;	/* cycle the next packet is created */
	uint32_t q_dst[SRC_Q];
	uint32_t q_born[SRC_Q];
	unsigned int head, count, flit;
	unsigned int vc;	/* VC of the packet being sent */
	unsigned int rr;
	uint8_t credits[CHAN_VCS_MAX];	/* toward the router's input buffers */
	uint64_t credit_back;		/* per VC a byte: the sink's credits for next cycle */
};

struct bench {
	struct router *r;
	struct chan *in[ROUTER_PORTS_MAX], *out[ROUTER_PORTS_MAX];
	struct router_params p;
	uint32_t *rt;
	struct src *src;
	uint64_t rng;
	unsigned int pkt_len, pkt_flits;
	double gap_log;		/* log(1 - packet probability), for geometric gaps */
	uint64_t p_thresh;	/* packet probability as a 64-bit threshold */
	uint64_t next_pkt;	/* the earliest next_pkt of the sources */
	uint64_t busy;		/* sources with packets queued */
	uint64_t ret_ports;	/* sinks with credits to return */
	uint64_t flits_rx, pkts_rx, lat_sum, created, refused;
	uint64_t now;
};

static uint64_t rnd(struct bench *b)
{
	b->rng ^= b->rng << 13;
	b->rng ^= b->rng >> 7;
	b->rng ^= b->rng << 17;
	return b->rng;
}

/*
 * Cycles from one packet to the next of a Bernoulli source: geometric.
 * Frequent packets draw their trials one by one, rare ones by the inverse
 * of the distribution (a logarithm costs more than a few trials).
 */
static uint64_t next_gap(struct bench *b)
{
	double u;
	uint64_t gap = 1;

	if (b->gap_log >= 0)
		return UINT64_MAX / 2;	/* load 0: never */
	if (b->gap_log == -INFINITY)
		return 1;
	if (b->gap_log < -0.28) {	/* p > 1/4: a few trials */
		while (rnd(b) >= b->p_thresh)
			gap++;
		return gap;
	}
	u = ((rnd(b) >> 11) + 1) * (1.0 / 9007199254740992.0);	/* (0, 1] */
	return 1 + (uint64_t)(log(u) / b->gap_log);
}

static int bench_init(struct bench *b, const struct router_params *p, double load,
		      unsigned int pkt_len)
{
	unsigned int n_net = p->ports - p->host_ports;
	struct route_view v = { 0 };
	char err[256];
	double p_pkt;

	memset(b, 0, sizeof(*b));
	b->p = *p;
	b->rng = 0x9e3779b97f4a7c15ull;
	b->rt = calloc(2 * p->ports, sizeof(uint32_t));
	b->src = calloc(p->ports, sizeof(*b->src));
	if (!b->rt || !b->src)
		return -1;
	v.rt = b->rt;
	v.rt_entries = p->ports;
	v.wide_ports = n_net > LOOM_RT_PORT_HOST;
	for (unsigned int d = 0; d < p->ports; d++) {
		unsigned int port = d < n_net ? d : v.wide_ports ? LOOM_RT_WIDE_PORT_HOST :
						    LOOM_RT_PORT_HOST;

		b->rt[2 * d] = v.wide_ports ? router_entry_w0_wide(port) : router_entry_w0(port);
		b->rt[2 * d + 1] = d;
	}
	b->r = router_new(p, &v, err, sizeof(err));
	if (!b->r) {
		fprintf(stderr, "loom-router-bench: %s\n", err);
		return -1;
	}
	b->pkt_len = pkt_len;
	b->pkt_flits = router_packet_flits(p->flit_bytes, b->pkt_len);
	p_pkt = load / b->pkt_flits;
	b->gap_log = p_pkt >= 1 ? -INFINITY : log1p(-p_pkt);
	b->p_thresh = p_pkt >= 1 ? UINT64_MAX : (uint64_t)(p_pkt * 18446744073709551615.0);
	for (unsigned int i = 0; i < p->ports; i++) {
		b->in[i] = router_in(b->r, i);
		b->out[i] = router_out(b->r, i);
		for (unsigned int c = 0; c < CHAN_VCS_MAX; c++)
			b->src[i].credits[c] = (uint8_t)(p->buf_depth < 255 ? p->buf_depth : 255);
		b->src[i].next_pkt = next_gap(b) - 1;
	}
	b->next_pkt = 0;
	return 0;
}

static void bench_free(struct bench *b)
{
	router_free(b->r);
	free(b->rt);
	free(b->src);
}

/* Packets created in cycle b->now at every source. */
static void sources_create(struct bench *b)
{
	unsigned int P = b->p.ports;
	uint64_t next = UINT64_MAX;

	for (unsigned int i = 0; i < P; i++) {
		struct src *s = &b->src[i];

		while (s->next_pkt <= b->now) {
			if (s->count == SRC_Q) {
				b->refused++;
			} else {
				unsigned int d = (unsigned int)(rnd(b) % (P - 1));
				unsigned int k = (s->head + s->count++) % SRC_Q;

				s->q_dst[k] = d >= i ? d + 1 : d;
				s->q_born[k] = (uint32_t)s->next_pkt;
				b->created++;
				b->busy |= 1ull << i;
			}
			s->next_pkt += next_gap(b);
		}
		if (s->next_pkt < next)
			next = s->next_pkt;
	}
	b->next_pkt = next;
}

/* The source of port @i (with a packet queued) drives its input wires for cycle b->now. */
static void source_drive(struct bench *b, unsigned int i)
{
	struct src *s = &b->src[i];
	struct chan *in = b->in[i];
	unsigned int vcs = b->p.vcs;

	if (s->flit == 0) {	/* choose the VC with the most credits */
		unsigned int best = b->p.vc_model ? LOOM_VC_REQ0 : s->rr++ % vcs;

		for (unsigned int c = 0; c < vcs; c++)
			if (s->credits[c] > s->credits[best] &&
			    (!b->p.vc_model || route_class_of_vc(c) == LOOM_CLASS_REQ))
				best = c;
		if (s->credits[best] < b->pkt_flits && !(b->p.wormhole_vcs >> best & 1))
			return;
		s->vc = best;
	}
	if (!s->credits[s->vc])
		return;
	in->fwd.valid = true;
	in->fwd.head = s->flit == 0;
	in->fwd.tail = s->flit == b->pkt_flits - 1;
	in->fwd.vc = (uint8_t)s->vc;
	if (in->fwd.head) {
		struct loom_pkt_hdr h = {
			.type = LOOM_PKT_PUT, .class = LOOM_CLASS_REQ,
			.len = (uint16_t)b->pkt_len, .dst_node = (uint16_t)s->q_dst[s->head],
		};
		uint32_t born = s->q_born[s->head];

		memcpy(&h.src_ctx, &born, 2);
		memcpy(&h.dst_ctx, (const uint8_t *)&born + 2, 2);
		memcpy(in->fwd.data, &h, b->p.flit_bytes < sizeof(h) ? b->p.flit_bytes : sizeof(h));
	}
	s->credits[s->vc]--;
	if (++s->flit == b->pkt_flits) {
		s->flit = 0;
		s->head = (s->head + 1) % SRC_Q;
		if (!--s->count)
			b->busy &= ~(1ull << i);
	}
}

/* Port @i's source takes the credits the router returned for cycle b->now + 1. */
static void source_credits(struct bench *b, unsigned int i)
{
	struct src *s = &b->src[i];
	uint64_t c, mine;

	/* credits never exceed 255 per VC: a bytewise add */
	memcpy(&c, b->in[i]->back.credits, sizeof(c));
	memcpy(&mine, s->credits, sizeof(mine));
	mine += c;
	memcpy(s->credits, &mine, sizeof(mine));
}

/* Port @i's sink takes the flit the router drove for cycle b->now + 1. */
static void sink_read(struct bench *b, unsigned int i)
{
	struct src *s = &b->src[i];
	const struct flit *f = &b->out[i]->fwd;

	b->flits_rx++;
	s->credit_back += 1ull << (8 * f->vc);
	b->ret_ports |= 1ull << i;
	if (f->head && b->p.flit_bytes >= 14) {
		uint32_t born;

		memcpy(&born, f->data + 10, 2);
		memcpy((uint8_t *)&born + 2, f->data + 12, 2);
		b->lat_sum += (uint32_t)((uint32_t)b->now - born);
		b->pkts_rx++;
	}
}

/*
 * The router alone: its inputs of @n cycles recorded from the closed loop
 * (flits on the input wires, credits on the output wires), then fed to a
 * fresh router from memory, so that the time is the router's and not the
 * traffic generator's.  The replayed router must carry what the recorded
 * one carried (its counters are compared).
 */
struct rec {
	uint8_t *flits;		/* per flit: port, head, tail, vc, then FLIT_BYTES of data */
	uint64_t *credits;	/* per credit word: the word, then the port in the next entry */
	uint32_t *n_flits, *n_credits;	/* per cycle */
	size_t flit_bytes, nf, nc, cap_f, cap_c;
	uint64_t cycles;
};

static int rec_alloc(struct rec *rc, uint64_t cycles, unsigned int ports, unsigned int fb)
{
	memset(rc, 0, sizeof(*rc));
	rc->flit_bytes = 4 + fb;
	rc->cap_f = cycles * ports;
	rc->cap_c = 2 * cycles * ports;
	rc->flits = malloc(rc->cap_f * rc->flit_bytes);
	rc->credits = malloc(rc->cap_c * sizeof(uint64_t));
	rc->n_flits = calloc(cycles, sizeof(uint32_t));
	rc->n_credits = calloc(cycles, sizeof(uint32_t));
	return rc->flits && rc->credits && rc->n_flits && rc->n_credits ? 0 : -1;
}

static void rec_free(struct rec *rc)
{
	free(rc->flits);
	free(rc->credits);
	free(rc->n_flits);
	free(rc->n_credits);
}

/* Record the router's inputs of the cycle about to be clocked. */
static void rec_cycle(struct rec *rc, struct bench *b)
{
	for (unsigned int i = 0; i < b->p.ports; i++) {
		const struct flit *f = &b->in[i]->fwd;
		uint64_t c;

		if (f->valid) {
			uint8_t *e = rc->flits + rc->nf++ * rc->flit_bytes;

			e[0] = (uint8_t)i;
			e[1] = f->head;
			e[2] = f->tail;
			e[3] = f->vc;
			memcpy(e + 4, f->data, rc->flit_bytes - 4);
			rc->n_flits[rc->cycles]++;
		}
		memcpy(&c, b->out[i]->back.credits, sizeof(c));
		if (c) {
			rc->credits[rc->nc++] = c;
			rc->credits[rc->nc++] = i;
			rc->n_credits[rc->cycles]++;
		}
	}
	rc->cycles++;
}

/* Feed the recording to @r; the wires are written as a source and a sink would. */
/* not inlined: callgrind --toggle-collect=rec_replay counts the router alone */
__attribute__((noinline)) static void rec_replay(const struct rec *rc, struct router *r)
{
	const uint8_t *e = rc->flits;
	const uint64_t *c = rc->credits;
	size_t fb = rc->flit_bytes - 4;
	struct chan *in[ROUTER_PORTS_MAX], *out[ROUTER_PORTS_MAX];

	/* the wires stay where they are: looked up once, as a caller would */
	for (unsigned int i = 0; i < router_params(r)->ports; i++) {
		in[i] = router_in(r, i);
		out[i] = router_out(r, i);
	}
	for (uint64_t k = 0; k < rc->cycles; k++) {
		for (uint32_t n = rc->n_flits[k]; n; n--, e += rc->flit_bytes) {
			struct flit *f = &in[e[0]]->fwd;

			f->valid = true;
			f->head = e[1];
			f->tail = e[2];
			f->vc = e[3];
			for (size_t i = 0; i < fb; i += 8)	/* FLIT_BYTES: a multiple of 8 */
				memcpy(f->data + i, e + 4 + i, 8);
		}
		for (uint32_t n = rc->n_credits[k]; n; n--, c += 2)
			memcpy(out[c[1]]->back.credits, c, sizeof(*c));
		router_cycle(r);
	}
}

/* One cycle of the closed loop; @rc (if any) records the router's inputs. */
static void bench_cycle(struct bench *b, struct rec *rc)
{
	for (uint64_t m = b->ret_ports; m; m &= m - 1) {
		unsigned int i = (unsigned int)__builtin_ctzll(m);
		struct src *s = &b->src[i];

		memcpy(b->out[i]->back.credits, &s->credit_back, sizeof(s->credit_back));
		s->credit_back = 0;
	}
	b->ret_ports = 0;
	if (b->now >= b->next_pkt)
		sources_create(b);
	for (uint64_t m = b->busy; m; m &= m - 1)
		source_drive(b, (unsigned int)__builtin_ctzll(m));
	if (rc)
		rec_cycle(rc, b);
	router_cycle(b->r);
	b->now++;
	for (uint64_t m = router_in_credited(b->r); m; m &= m - 1)
		source_credits(b, (unsigned int)__builtin_ctzll(m));
	for (uint64_t m = router_out_driven(b->r); m; m &= m - 1)
		sink_read(b, (unsigned int)__builtin_ctzll(m));
}

static void preset_by_name(struct router_params *p, const char *name, unsigned int speedup)
{
	if (!strcmp(name, "card")) {
		router_preset_card(p, 8);
	} else if (!strcmp(name, "xbar")) {
		router_preset_xbar(p, 16, 4);
		p->buf_depth = 32;
	} else if (!strcmp(name, "fbx")) {
		router_preset_fbx(p, 16, 4);
		p->buf_depth = 32;
	} else {
		router_preset_yarc(p);
	}
	p->speedup = speedup;
}

static const char **g_sets;
static unsigned int g_n_sets;

/* --set NAME=VALUE options, by the parameter table */
static int apply_sets(struct router_params *p)
{
	for (unsigned int i = 0; i < g_n_sets; i++) {
		char name[64];
		unsigned int v;

		if (sscanf(g_sets[i], "%63[^=]=%u", name, &v) != 2 || router_params_set(p, name, v)) {
			fprintf(stderr, "loom-router-bench: --set %s: not NAME=VALUE of a parameter\n",
				g_sets[i]);
			return -1;
		}
	}
	return 0;
}

#ifdef ROUTER_VISITS
/* The visit counters of the replays, per flit leaving the router. */
static void print_visits(uint64_t cycles)
{
	uint64_t flits = router_visits[ROUTER_VISIT_out_moved];

	printf("  visits per flit leaving the router (%" PRIu64 " flits in 5 x %" PRIu64 " cycles):\n",
	       flits, cycles);
	router_visits_print(stdout, (double)flits);
}
#endif

/* The router alone: record @cycles (at most 200000) cycles, replay them five times. */
static int run_alone(const struct router_params *p, double load, unsigned int pkt_len,
		     uint64_t cycles)
{
	struct bench b;
	struct rec rc;
	double t = 0;
	int ok = 1;

	if (cycles > 200000)
		cycles = 200000;
	if (bench_init(&b, p, load, pkt_len))
		return 1;
	if (rec_alloc(&rc, cycles, p->ports, p->flit_bytes)) {
		fprintf(stderr, "loom-router-bench: out of memory for a recording of %" PRIu64 " cycles\n",
			cycles);
		rec_free(&rc);
		bench_free(&b);
		return 1;
	}
	for (uint64_t c = 0; c < cycles; c++)
		bench_cycle(&b, &rc);
#ifdef ROUTER_VISITS
	memset(router_visits, 0, sizeof(router_visits));
#endif
	for (unsigned int run = 0; run < 5; run++) {
		struct route_view v = { .rt = b.rt, .rt_entries = p->ports,
					.wide_ports = p->ports - p->host_ports > LOOM_RT_PORT_HOST };
		char err[256];
		struct router *r = router_new(p, &v, err, sizeof(err));
		double t0;

		if (!r) {
			fprintf(stderr, "loom-router-bench: %s\n", err);
			rec_free(&rc);
			bench_free(&b);
			return 1;
		}
		t0 = process_cpu_seconds();
		rec_replay(&rc, r);
		t += process_cpu_seconds() - t0;
		for (unsigned int i = 0; i < p->ports; i++)
			if (router_port_counters(r, i)->flits_out != router_port_counters(b.r, i)->flits_out ||
			    router_port_counters(r, i)->flits_in != router_port_counters(b.r, i)->flits_in)
				ok = 0;
		router_free(r);
	}
	printf("  router alone (its recorded inputs replayed, 5 x %" PRIu64 " cycles): %.2f M router cycles/s, %.0f ns per cycle%s\n",
	       cycles, 5 * cycles / t / 1e6, t / (5 * cycles) * 1e9,
	       ok ? "" : " -- REPLAY DIFFERS FROM THE RECORDING");
#ifdef ROUTER_VISITS
	print_visits(cycles);
#endif
	rec_free(&rc);
	bench_free(&b);
	return ok ? 0 : 1;
}

/* Run @cycles cycles after a warm-up; print the speed and what was carried. */
static int run_speed(const struct router_params *p, double load, unsigned int pkt_len,
		     uint64_t cycles)
{
	struct bench b;
	double t0, t;

	if (bench_init(&b, p, load, pkt_len))
		return 1;
	for (uint64_t c = 0; c < 10000; c++)
		bench_cycle(&b, NULL);
	t0 = process_cpu_seconds();
	for (uint64_t c = 0; c < cycles; c++)
		bench_cycle(&b, NULL);
	t = process_cpu_seconds() - t0;
	printf("  %" PRIu64 " cycles in %.3f s of CPU: %.2f M router cycles/s, %.0f ns per cycle (incl. traffic generation)\n",
	       cycles, t, cycles / t / 1e6, t / cycles * 1e9);
	printf("  accepted %.3f flits/cycle/port, average latency %.1f cycles\n",
	       (double)b.flits_rx / b.now / p->ports,
	       b.pkts_rx ? (double)b.lat_sum / b.pkts_rx : 0.0);
	bench_free(&b);
	return run_alone(p, load, pkt_len, cycles);
}

/* The organisation as the figures name it: "3x3 tiles" or "crossbar". */
static const char *org_name(const struct router_params *p, char *buf, size_t len)
{
	if (p->org == ROUTER_ORG_XBAR)
		return "crossbar";
	snprintf(buf, len, "%ux%u tiles", p->rows, p->cols);
	return buf;
}

static int cmd_speed(uint64_t cycles, double load)
{
	struct router_params p;
	char org[32];

	router_preset_card(&p, 6);
	p.vc_model = 0;		/* 4 generic VCs: the card's VC model has 7 */
	p.vcs = 4;
	if (apply_sets(&p))
		return 2;
	printf("speed: card router, host + %u network ports, %u VCs, %s, uniform random 64-byte packets at %.2f flits/cycle/port\n",
	       p.ports - p.host_ports, p.vcs, org_name(&p, org, sizeof(org)), load);
	return run_speed(&p, load, 64, cycles);
}

static int cmd_torus(uint64_t cycles, double load, unsigned int n_net)
{
	struct router_params p;
	char org[32];

	router_preset_card(&p, n_net);
	p.vc_model = 0;
	p.vcs = 3;
	p.flit_bytes = 64;
	if (apply_sets(&p))
		return 2;
	printf("torus: a torus router, host + %u network ports, %u VCs, %s, 1-flit packets (%u-byte flits) at %.2f flits/cycle/port\n",
	       p.ports - p.host_ports, p.vcs, org_name(&p, org, sizeof(org)), p.flit_bytes, load);
	return run_speed(&p, load, p.flit_bytes - LOOM_PKT_HDR_SIZE, cycles);
}

static int cmd_memory(void)
{
	struct router_params p;
	struct bench b;
	long before = proc_rss_kib(getpid()), after;

	router_preset_card(&p, 8);
	if (bench_init(&b, &p, 0, 64))
		return 1;
	printf("memory: card router (host + 8 network ports, 7 VCs, 3x3 tiles): %zu bytes of model state\n",
	       router_memory(b.r));
	bench_free(&b);
	router_preset_yarc(&p);
	if (bench_init(&b, &p, 0, 64))
		return 1;
	after = proc_rss_kib(getpid());
	printf("memory: YARC router (64 ports, 8x8 tiles, 2 VCs, 256/16/10-flit buffers): %zu bytes of model state (%.2f MiB)\n",
	       router_memory(b.r), router_memory(b.r) / 1048576.0);
	printf("memory: process resident set %ld KiB with it (%ld KiB before creating it)\n",
	       after, before);
	bench_free(&b);
	return 0;
}

static int cmd_curve(const char *preset, uint64_t cycles, unsigned int speedup, const char *csv)
{
	FILE *out = csv ? fopen(csv, "w") : stdout;
	struct router_params p;

	if (!out) {
		perror(csv);
		return 1;
	}
	preset_by_name(&p, preset, speedup);
	if (apply_sets(&p))
		return 2;
	fprintf(out, "# preset %s, %u ports, org %s, speedup %u, %" PRIu64 " cycles per point\n",
		preset, p.ports, p.org == ROUTER_ORG_XBAR ? "xbar" : "tiled", p.speedup, cycles);
	fprintf(out, "offered,accepted,avg_latency\n");
	for (unsigned int i = 1; i <= 10; i++) {
		struct bench b;
		double load = i / 10.0;
		uint64_t f0, l0, k0;

		if (bench_init(&b, &p, load, 64))
			return 1;
		for (uint64_t c = 0; c < cycles / 4; c++)
			bench_cycle(&b, NULL);
		f0 = b.flits_rx;
		l0 = b.lat_sum;
		k0 = b.pkts_rx;
		for (uint64_t c = 0; c < cycles; c++)
			bench_cycle(&b, NULL);
		fprintf(out, "%.2f,%.4f,%.1f\n", load,
			(double)(b.flits_rx - f0) / cycles / p.ports,
			b.pkts_rx > k0 ? (double)(b.lat_sum - l0) / (b.pkts_rx - k0) : 0.0);
		fflush(out);
		bench_free(&b);
	}
	if (csv)
		fclose(out);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: loom-router-bench speed [--cycles N] [--load L] [--set NAME=VALUE]...\n"
		"       loom-router-bench torus [--cycles N] [--load L] [--ports N] [--set NAME=VALUE]...\n"
		"       loom-router-bench memory\n"
		"       loom-router-bench curve [--preset yarc|card|xbar|fbx] [--cycles N] [--speedup S]\n"
		"                               [--set NAME=VALUE]... [--csv FILE]\n");
}

int main(int argc, char **argv)
{
	const char *preset = "yarc", *csv = NULL;
	double load = -1;
	const char *sets[16];
	unsigned int n_sets = 0, ports = 6;
	uint64_t cycles = 0;
	unsigned int speedup = 1;

	if (argc < 2) {
		usage();
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--cycles") && i + 1 < argc) {
			cycles = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--preset") && i + 1 < argc) {
			preset = argv[++i];
		} else if (!strcmp(argv[i], "--speedup") && i + 1 < argc) {
			speedup = (unsigned int)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--set") && i + 1 < argc && n_sets < 16) {
			sets[n_sets++] = argv[++i];
		} else if (!strcmp(argv[i], "--load") && i + 1 < argc) {
			load = strtod(argv[++i], NULL);
		} else if (!strcmp(argv[i], "--ports") && i + 1 < argc) {
			ports = (unsigned int)strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
			csv = argv[++i];
		} else {
			usage();
			return 2;
		}
	}
	if ((load != -1 && !(load >= 0 && load <= 1)) || ports < 1 || ports > 8) {
		fprintf(stderr, "loom-router-bench: --load takes 0 .. 1 flits/cycle/port, --ports 1 .. 8 network ports\n");
		return 2;
	}
	g_sets = sets;
	g_n_sets = n_sets;
	if (!strcmp(argv[1], "speed"))
		return cmd_speed(cycles ? cycles : 2000000, load < 0 ? 0.5 : load);
	if (!strcmp(argv[1], "torus"))
		return cmd_torus(cycles ? cycles : 2000000, load < 0 ? 0.4 : load, ports);
	if (!strcmp(argv[1], "memory"))
		return cmd_memory();
	if (!strcmp(argv[1], "curve"))
		return cmd_curve(preset, cycles ? cycles : 20000, speedup, csv);
	usage();
	return 2;
}
