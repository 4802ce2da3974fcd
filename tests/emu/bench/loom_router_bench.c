// SPDX-License-Identifier: GPL-2.0
/*
 * loom-router-bench: figures of the cycle-level router model.
 *
 *   loom-router-bench speed  [--cycles N] [--load L]
 *       card router (host + 6 network ports, 4 VCs, 3x3 tiles) under
 *       uniform random traffic at half its capacity: router cycles/s.
 *   loom-router-bench memory
 *       model memory of the 8-port card router and the 64-port YARC
 *       router, and this process's resident set with the YARC router.
 *   loom-router-bench curve  [--preset yarc|card|xbar|fbx] [--cycles N]
 *                            [--speedup S] [--set NAME=VALUE]... [--csv FILE]
 *       offered vs accepted load and average latency under uniform random
 *       traffic, offered 0.1 .. 1.0 flits/cycle/port, as CSV.
 *
 * Traffic: Bernoulli packet sources (64-byte payload, 7 flits of 16
 * bytes, requests: with the card's VCs on the request VCs) on every port, destinations uniform over the other ports; sinks
 * take every flit and return its credit the next cycle.  Latency: from
 * the packet's creation to its head leaving the router.
 */
#include "router/router.h"
#include "proc_rss.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SRC_Q	256

struct src {
	uint32_t q_dst[SRC_Q];
	uint32_t q_born[SRC_Q];
	unsigned int head, count, flit;
	unsigned int credits[CHAN_VCS_MAX];
	unsigned int vc;	/* VC of the packet being sent */
	unsigned int rr;
	uint8_t credit_back[CHAN_VCS_MAX];
};

struct bench {
	struct router *r;
	struct chan *in[ROUTER_PORTS_MAX], *out[ROUTER_PORTS_MAX];
	struct router_params p;
	uint32_t *rt;
	struct src *src;
	uint64_t rng;
	unsigned int pkt_len, pkt_flits;
	double p_pkt;		/* packet creation probability per port and cycle */
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

/* CPU time of this process: the figure does not depend on other load */
static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}


static int bench_init(struct bench *b, const struct router_params *p, double load)
{
	unsigned int n_net = p->ports - p->host_ports;
	struct route_view v = { 0 };
	char err[256];

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
	for (unsigned int i = 0; i < p->ports; i++) {
		b->in[i] = router_in(b->r, i);
		b->out[i] = router_out(b->r, i);
		for (unsigned int c = 0; c < CHAN_VCS_MAX; c++)
			b->src[i].credits[c] = p->buf_depth;
	}
	b->pkt_len = 64;
	b->pkt_flits = router_packet_flits(p->flit_bytes, b->pkt_len);
	b->p_pkt = load / b->pkt_flits;
	return 0;
}

static void bench_free(struct bench *b)
{
	router_free(b->r);
	free(b->rt);
	free(b->src);
}

static void bench_cycle(struct bench *b)
{
	unsigned int P = b->p.ports, vcs = b->p.vcs;
	uint64_t thresh = (uint64_t)(b->p_pkt * 18446744073709551615.0);

	for (unsigned int i = 0; i < P; i++) {
		struct src *s = &b->src[i];
		struct chan *in = b->in[i];
		struct chan *out = b->out[i];

		memcpy(out->back.credits, s->credit_back, CHAN_VCS_MAX);
		memset(s->credit_back, 0, CHAN_VCS_MAX);
		if (rnd(b) < thresh) {
			if (s->count == SRC_Q) {
				b->refused++;
			} else {
				unsigned int d = (unsigned int)(rnd(b) % (P - 1));
				unsigned int k = (s->head + s->count++) % SRC_Q;

				s->q_dst[k] = d >= i ? d + 1 : d;
				s->q_born[k] = (uint32_t)b->now;
				b->created++;
			}
		}
		if (!s->count)
			continue;
		if (s->flit == 0) {	/* choose the VC with the most credits */
			unsigned int best = b->p.vc_model ? LOOM_VC_REQ0 : s->rr++ % vcs;

			for (unsigned int c = 0; c < vcs; c++)
				if (s->credits[c] > s->credits[best] &&
				    (!b->p.vc_model || route_class_of_vc(c) == LOOM_CLASS_REQ))
					best = c;
			if (s->credits[best] < b->pkt_flits && !(b->p.wormhole_vcs >> best & 1))
				continue;
			s->vc = best;
		}
		if (!s->credits[s->vc])
			continue;
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
			memcpy(in->fwd.data, &h, b->p.flit_bytes < sizeof(h) ? b->p.flit_bytes :
			       sizeof(h));
		}
		s->credits[s->vc]--;
		if (++s->flit == b->pkt_flits) {
			s->flit = 0;
			s->head = (s->head + 1) % SRC_Q;
			s->count--;
		}
	}
	router_cycle(b->r);
	b->now++;
	for (unsigned int i = 0; i < P; i++) {
		struct src *s = &b->src[i];
		struct chan *in = b->in[i];
		struct flit *f = &b->out[i]->fwd;

		for (unsigned int c = 0; c < vcs; c++)
			s->credits[c] += in->back.credits[c];
		if (!f->valid)
			continue;
		b->flits_rx++;
		s->credit_back[f->vc]++;
		if (f->head && b->p.flit_bytes >= 14) {
			uint32_t born;

			memcpy(&born, f->data + 10, 2);
			memcpy((uint8_t *)&born + 2, f->data + 12, 2);
			b->lat_sum += (uint32_t)((uint32_t)b->now - born);
			b->pkts_rx++;
		}
	}
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

static int cmd_speed(uint64_t cycles, double load)
{
	struct router_params p;
	struct bench b;
	double t0, t;

	router_preset_card(&p, 6);
	p.vc_model = 0;		/* 4 generic VCs: the card's VC model has 7 */
	p.vcs = 4;
	if (apply_sets(&p))
		return 2;
	if (bench_init(&b, &p, load))
		return 1;
	for (uint64_t c = 0; c < 10000; c++)
		bench_cycle(&b);
	t0 = now_s();
	for (uint64_t c = 0; c < cycles; c++)
		bench_cycle(&b);
	t = now_s() - t0;
	printf("speed: card router, host + 6 network ports, 4 VCs, 3x3 tiles, uniform random at %.2f flits/cycle/port\n",
	       load);
	printf("  %" PRIu64 " cycles in %.3f s of CPU: %.2f M router cycles/s (incl. traffic generation)\n",
	       cycles, t, cycles / t / 1e6);
	printf("  accepted %.3f flits/cycle/port, average latency %.1f cycles\n",
	       (double)b.flits_rx / b.now / p.ports,
	       b.pkts_rx ? (double)b.lat_sum / b.pkts_rx : 0.0);
	bench_free(&b);
	return 0;
}

static int cmd_memory(void)
{
	struct router_params p;
	struct bench b;
	long before = proc_rss_kib(getpid()), after;

	router_preset_card(&p, 8);
	if (bench_init(&b, &p, 0))
		return 1;
	printf("memory: card router (host + 8 network ports, 7 VCs, 3x3 tiles): %zu bytes of model state\n",
	       router_memory(b.r));
	bench_free(&b);
	router_preset_yarc(&p);
	if (bench_init(&b, &p, 0))
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

		if (bench_init(&b, &p, load))
			return 1;
		for (uint64_t c = 0; c < cycles / 4; c++)
			bench_cycle(&b);
		f0 = b.flits_rx;
		l0 = b.lat_sum;
		k0 = b.pkts_rx;
		for (uint64_t c = 0; c < cycles; c++)
			bench_cycle(&b);
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
		"usage: loom-router-bench speed [--cycles N] [--load L]\n"
		"       loom-router-bench memory\n"
		"       loom-router-bench curve [--preset yarc|card|xbar|fbx] [--cycles N] [--speedup S]\n"
		"                               [--set NAME=VALUE]... [--csv FILE]\n");
}

int main(int argc, char **argv)
{
	const char *preset = "yarc", *csv = NULL;
	double load = 0.5;
	const char *sets[16];
	unsigned int n_sets = 0;
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
		} else if (!strcmp(argv[i], "--csv") && i + 1 < argc) {
			csv = argv[++i];
		} else {
			usage();
			return 2;
		}
	}
	g_sets = sets;
	g_n_sets = n_sets;
	if (!strcmp(argv[1], "speed"))
		return cmd_speed(cycles ? cycles : 2000000, load);
	if (!strcmp(argv[1], "memory"))
		return cmd_memory();
	if (!strcmp(argv[1], "curve"))
		return cmd_curve(preset, cycles ? cycles : 20000, speedup, csv);
	usage();
	return 2;
}
