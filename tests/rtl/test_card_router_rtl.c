// SPDX-License-Identifier: GPL-2.0
/*
 * The per-VC counters of the Verilated router as the card reads them
 * (loom-card --router rtl: the plugin of 'make -C fpga_bitstreams
 * rtl-card', build/rtl/loom-router-rtl.so or $LOOM_RTL_PLUGIN).  A card
 * with the C model's router and one with the plugin's (the VM lab's card:
 * 2 network ports) get the same traffic on their router's wires, cycle by
 * cycle, through the card's router block (card_router.h) alone: PUT
 * packets host -> port 0 and port 1 -> host; then port 0's downstream
 * returns no credits, the host's packets starve and stall; the card's
 * clock skips cycles while they do; then the credits come back.  After
 * every cycle and after the skip, card_router_vc_counters() of every port
 * and VC is equal on both cards (the first difference printed with both
 * values); the skip counts on both; the counters are not all zero; and
 * the PERF block's snapshot shows on both what card_router_vc_counters()
 * reads.  The RTL's card takes a valid multicast group its plugin holds
 * (the plugin replicates multicast) and refuses one beyond its MC_GROUPS,
 * naming it.
 */
#include "card.h"
#include "card_router.h"
#include "mcast.h"
#include "perf.h"
#include "put_source.h"
#include "router/router.h"
#include "rtl_plugin.h"
#include "tap.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

TAP_DEFINE;

#define PKT_PAYLOAD	256
#define SKIP		5000

/* One card and the load on its router's wires. */
struct bench {
	struct card c;
	uint8_t *regs;
	struct put_source src[2];
	unsigned int held[ROUTER_PORTS_MAX][CHAN_VCS_MAX];	/* credits withheld downstream */
};

/*
 * One cycle: the sources drive, every output takes its flit; port
 * @starve's downstream keeps the credits, the others return them (and
 * what was withheld, 4 a cycle a VC) the next cycle.
 */
static void cycle(struct bench *b, int starve)
{
	struct card *c = &b->c;

	for (unsigned int i = 0; i < 2; i++)
		put_source_drive(c, &b->src[i]);
	for (unsigned int p = 0; p < c->p.router.ports; p++) {
		struct chan *out = router_out(c->router, p);

		memset(out->back.credits, 0, sizeof(out->back.credits));
		out->back.ready = true;
		if (out->fwd.valid)
			b->held[p][out->fwd.vc]++;
		if ((int)p == starve)
			continue;
		for (unsigned int v = 0; v < c->p.router.vcs; v++) {
			unsigned int n = b->held[p][v] < 4 ? b->held[p][v] : 4;

			out->back.credits[v] = (uint8_t)n;
			b->held[p][v] -= n;
		}
	}
	card_router_cycle(c);
	c->now++;
}

static bool make_card(struct bench *b, const char *plugin, char *err, size_t errlen)
{
	struct card_params p;
	struct card *c = &b->c;

	card_params_default(&p, 0, 2);
	p.rtl_plugin = plugin;
	b->regs = calloc(1, CARD_REGS_MIN);
	if (!b->regs || !card_init(c, b->regs, CARD_REGS_MIN, &p, NULL, err, errlen))
		return false;
	card_set_route(c, 1, 0);
	card_router_sync(c);
	for (unsigned int k = 0; k < c->n_ports; k++)
		card_router_set_port_up(c, k, true);
	put_source_init(&b->src[0], c, c->host_port, 1, PKT_PAYLOAD);
	put_source_init(&b->src[1], c, 1, 0, PKT_PAYLOAD);
	b->src[0].idle = b->src[1].idle = true;
	return true;
}

/* Every (port, VC)'s counters equal on both cards; else the first difference, told. */
static bool same_counters(struct bench *b, const char *when)
{
	struct card *m = &b[0].c, *r = &b[1].c;

	for (unsigned int p = 0; p < m->p.router.ports; p++)
		for (unsigned int v = 0; v < m->p.router.vcs; v++) {
			const struct router_vc_counters *a = card_router_vc_counters(m, p, v);
			const struct router_vc_counters *x = card_router_vc_counters(r, p, v);

			if (a->stall_cycles == x->stall_cycles &&
			    a->credit_starved_cycles == x->credit_starved_cycles &&
			    a->fill_max == x->fill_max)
				continue;
			tap_diag("%s, port %u VC %u: stall_cycles RTL %llu model %llu, credit_starved_cycles RTL %llu model %llu, fill_max RTL %u model %u",
				 when, p, v, (unsigned long long)x->stall_cycles,
				 (unsigned long long)a->stall_cycles,
				 (unsigned long long)x->credit_starved_cycles,
				 (unsigned long long)a->credit_starved_cycles, x->fill_max, a->fill_max);
			return false;
		}
	return true;
}

/* Both cards @n cycles; false at the first cycle whose counters differ. */
static bool run(struct bench *b, unsigned int n, int starve, const char *phase)
{
	char when[96];

	for (unsigned int t = 0; t < n; t++) {
		cycle(&b[0], starve);
		cycle(&b[1], starve);
		snprintf(when, sizeof(when), "%s, cycle %llu", phase,
			 (unsigned long long)b[0].c.now - 1);
		if (!same_counters(b, when))
			return false;
	}
	return true;
}

static uint64_t rd64(const struct card *c, uint32_t off)
{
	return card_rd32(c, off) | (uint64_t)card_rd32(c, off + 4) << 32;
}

/* A PERF snapshot of @c: its VC records equal card_router_vc_counters()? */
static bool perf_shows(struct card *c, const char *which)
{
	uint32_t seq = card_rd32(c, CARD_OFF_PERF + LOOM_PERF_SNAP_SEQ) + 1;

	card_wr32(c, CARD_OFF_PERF + LOOM_PERF_SNAP_SEQ, seq);
	perf_poll(c);
	if (card_rd32(c, CARD_OFF_PERF + LOOM_PERF_SNAP_ACK) != seq) {
		tap_diag("%s: PERF SNAP_ACK %u after SNAP_SEQ %u", which,
			 card_rd32(c, CARD_OFF_PERF + LOOM_PERF_SNAP_ACK), seq);
		return false;
	}
	for (unsigned int p = 0; p < c->p.router.ports; p++)
		for (unsigned int v = 0; v < c->p.router.vcs; v++) {
			const struct router_vc_counters *k = card_router_vc_counters(c, p, v);
			uint32_t rec = CARD_OFF_PERF + LOOM_PERF_PORT_BASE + p * LOOM_PERF_PORT_REC_SIZE +
				       LOOM_PERFP_VC_BASE + v * LOOM_PERF_VC_REC_SIZE;
			uint64_t stall = rd64(c, rec + LOOM_PERFV_STALL_CYCLES);
			uint64_t starved = rd64(c, rec + LOOM_PERFV_CREDIT_STARVED);
			uint32_t fmax = card_rd32(c, rec + LOOM_PERFV_OCCUPANCY_MAX);

			if (stall != k->stall_cycles || starved != k->credit_starved_cycles ||
			    fmax != k->fill_max) {
				tap_diag("%s: PERF port %u VC %u: STALL_CYCLES %llu, CREDIT_STARVED %llu, OCCUPANCY_MAX %u; the router's %llu, %llu, %u",
					 which, p, v, (unsigned long long)stall,
					 (unsigned long long)starved, fmax,
					 (unsigned long long)k->stall_cycles,
					 (unsigned long long)k->credit_starved_cycles, k->fill_max);
				return false;
			}
		}
	return true;
}

static const char *plugin_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("LOOM_RTL_PLUGIN");
	ssize_t n;
	char *slash;

	if (env && *env)
		return env;
	/* build/tests/rtl/this -> build/rtl/ */
	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = 0;
	slash = strrchr(path, '/');
	if (slash)
		*slash = 0;
	strncat(path, "/../../rtl/" RTL_PLUGIN_FILE, sizeof(path) - strlen(path) - 1);
	return path;
}

int main(void)
{
	static struct bench b[2];
	const unsigned int host = 2, starve = 0;
	struct router_vc_counters before[2];
	char err[1024];
	bool ok;

	tap_plan(8);
	for (int k = 0; k < 2; k++)
		if (!make_card(&b[k], k ? plugin_path() : NULL, err, sizeof(err))) {
			tap_ok(0, "a card with the model's router and one with the RTL's: %s", err);
			return 1;
		}
	tap_ok(b[0].c.host_port == host && b[1].c.host_port == host,
	       "a card with the model's router and one with the RTL's (%s)",
	       card_router_rtl_desc(&b[1].c));

	/* the RTL takes its tables one word an edge: no traffic until it has them */
	ok = run(b, 400, -1, "idle");
	for (int k = 0; k < 2; k++)
		b[k].src[0].idle = b[k].src[1].idle = false;
	ok = ok && run(b, 3000, -1, "traffic");
	for (int k = 0; k < 2; k++)
		b[k].src[1].idle = true;
	ok = ok && run(b, 3000, starve, "port 0 starved");
	tap_ok(ok, "after every cycle of traffic, then of port 0 starved of credits, every port's and VC's counters equal on both cards");

	for (int k = 0; k < 2; k++)
		before[k] = *card_router_vc_counters(&b[k].c, starve, LOOM_VC_REQ0);
	ok = card_router_skip_to(&b[0].c, b[0].c.now + SKIP);
	if (!ok)
		tap_diag("the model's router refused to skip %u cycles at cycle %llu (next event %llu)",
			 SKIP, (unsigned long long)b[0].c.now,
			 (unsigned long long)card_router_next_event(&b[0].c));
	ok = card_router_skip_to(&b[1].c, b[1].c.now + SKIP) && ok;
	b[0].c.now += SKIP;
	b[1].c.now += SKIP;
	for (int k = 0; k < 2; k++) {
		const struct router_vc_counters *a = card_router_vc_counters(&b[k].c, starve,
									      LOOM_VC_REQ0);

		if (a->credit_starved_cycles - before[k].credit_starved_cycles != SKIP) {
			tap_diag("%s: port 0 VC REQ0 credit_starved_cycles %llu before the skip, %llu after",
				 k ? "RTL" : "model",
				 (unsigned long long)before[k].credit_starved_cycles,
				 (unsigned long long)a->credit_starved_cycles);
			ok = false;
		}
	}
	tap_ok(ok && same_counters(b, "after the skip"),
	       "a skip of %u cycles while port 0 starves counts them as starved on both cards, and the counters stay equal",
	       SKIP);

	tap_ok(run(b, 3000, -1, "credits back"),
	       "after every cycle of port 0's credits coming back, the counters equal on both cards");

	{
		const struct router_vc_counters *in = card_router_vc_counters(&b[1].c, host,
									       LOOM_VC_REQ0);
		const struct router_vc_counters *out = card_router_vc_counters(&b[1].c, starve,
									        LOOM_VC_REQ0);

		tap_ok(in->fill_max > 0 && in->stall_cycles > 0 && out->credit_starved_cycles > SKIP,
		       "the RTL's counters count: the host input's VC REQ0 fill_max %u, stall_cycles %llu; port 0's VC REQ0 credit_starved_cycles %llu",
		       in->fill_max, (unsigned long long)in->stall_cycles,
		       (unsigned long long)out->credit_starved_cycles);
	}
	tap_ok(perf_shows(&b[0].c, "model") && perf_shows(&b[1].c, "RTL"),
	       "the PERF block's snapshot shows on both cards the VC counters the router block reads");
	{
		struct mcast_entry e = { .valid = true, .host = true, .ports = 1 };
		struct card *c = &b[1].c;
		char why[512] = "", want[96];

		mcast_set(c, 1, &e);
		ok = card_router_rtl_fits(c, why, sizeof(why));
		tap_ok(ok, "the RTL's card takes a valid multicast group 1: %s", ok ? "fits" : why);
		mcast_set(c, CARD_MCAST_GROUPS - 1, &e);
		snprintf(want, sizeof(want), "multicast group %u is valid, but the Verilated router holds",
			 CARD_MCAST_GROUPS - 1);
		ok = !card_router_rtl_fits(c, why, sizeof(why)) && strstr(why, want);
		tap_ok(ok, "and refuses group %u beyond the plugin's groups: %s", CARD_MCAST_GROUPS - 1,
		       why[0] ? why : "(taken)");
	}
	for (int k = 0; k < 2; k++) {
		card_free(&b[k].c);
		free(b[k].regs);
	}
	return tap_exit_status();
}
