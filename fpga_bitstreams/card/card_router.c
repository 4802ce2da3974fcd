// SPDX-License-Identifier: GPL-2.0
/*
 * The card's router block (card_router.h): the model's calls, or the
 * same calls on the Verilated RTL of rtl_plugin.h.  The plugin is loaded
 * with dlopen, so loom-card needs no Verilator; it holds the RTL and
 * nothing else, this file only moves words between the card and it.
 */
#include "card.h"
#include "card_router.h"
#include "rtl_plugin.h"
#include "rtl/rtl_regs.h"
#include "router/router.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

/* What the card's tables use and the RTL does not hold (rtl_beyond()). */
enum rtl_beyond_kind { RTL_BEYOND_RT, RTL_BEYOND_SVC1, RTL_BEYOND_MC, RTL_BEYOND_KINDS };

struct card_rtl {
	void *dl;
	const struct rtl_plugin *ops;
	struct rtl_fabric *f;
	char desc[512];
	struct chan *in[ROUTER_PORTS_MAX], *out[ROUTER_PORTS_MAX];
	unsigned int rt_entries, svc1_words, mc_groups;
	/* the table words the RTL holds, as last written to it */
	uint32_t rt[2 * CARD_RT_ENTRIES];
	uint32_t mc[CARD_MCAST_GROUPS];	/* word 0 of each group */
	uint32_t port_cfg[LOOM_MAX_PORTS];
	uint32_t svc1[LOOM_MAX_NODES / 32];
	bool warned[RTL_BEYOND_KINDS];	/* each kind of rtl_beyond() logged once */
	bool warned_dead;
	struct router_counters cnt;
	struct router_port_counters pcnt[ROUTER_PORTS_MAX];
	struct router_vc_counters vcc[ROUTER_PORTS_MAX * CHAN_VCS_MAX];	/* as last read */
	struct router_vc_counters no_vc;	/* a build without per-VC counters: zeros */
};

static const uint32_t *reg_words(const struct card *c, uint32_t off)
{
	return (const uint32_t *)(const void *)(c->regs + off);
}

/*
 * A table word the RTL does not hold but the card's tables use: a valid
 * routing entry at or beyond RT_ENTRIES, a START_VC1 bit beyond its
 * bitmap, a valid multicast group.  0, or -1 with @err naming it and its
 * kind in @kind.
 */
static int rtl_beyond(const struct card *c, enum rtl_beyond_kind *kind, char *err, size_t errlen)
{
	const struct card_rtl *r = c->rtl;
	const uint32_t *rt = reg_words(c, CARD_OFF_ROUTER + LOOM_ROUTER_RT);
	const uint32_t *svc1 = reg_words(c, CARD_OFF_VCT + LOOM_VCT_START_VC1);

	for (unsigned int e = r->rt_entries; e < CARD_RT_ENTRIES; e++)
		if (rt[2 * e] & LOOM_RT_W0_VALID) {
			*kind = RTL_BEYOND_RT;
			snprintf(err, errlen,
				 "routing entry %u is valid, but the Verilated router holds %u entries (RT_ENTRIES = %u, built with %s): packets to node %u would be dropped as unroutable; use node ids below %u or build the plugin with more entries (RTL_CARD_G in fpga_bitstreams/rtl/rtl.mk)",
				 e, r->rt_entries, r->rt_entries, r->ops->config, e, r->rt_entries);
			return -1;
		}
	for (unsigned int w = r->svc1_words; w < LOOM_MAX_NODES / 32; w++)
		if (svc1[w]) {
			*kind = RTL_BEYOND_SVC1;
			snprintf(err, errlen,
				 "START_VC1 names node %u, but the Verilated router holds %u bits of it (START_VC1_BITS, built with %s); use node ids below %u or build the plugin with more (RTL_CARD_G in fpga_bitstreams/rtl/rtl.mk)",
				 32 * w + (unsigned int)__builtin_ctz(svc1[w]), 32 * r->svc1_words,
				 r->ops->config, 32 * r->svc1_words);
			return -1;
		}
	for (unsigned int g = r->mc_groups; c->view.mc && g < c->view.mc_entries; g++)
		if (c->view.mc[2 * g] & LOOM_MCAST_W0_VALID) {
			*kind = RTL_BEYOND_MC;
			if (!r->mc_groups)
				snprintf(err, errlen,
					 "multicast group %u is valid, but the Verilated router has no multicast (MCAST 0, built with %s): its packets are routed as unicast to their dst_node; build the plugin with MCAST 1 (RTL_CARD_G in fpga_bitstreams/rtl/rtl.mk)",
					 g, r->ops->config);
			else
				snprintf(err, errlen,
					 "multicast group %u is valid, but the Verilated router holds %u groups (MC_GROUPS, built with %s): its packets would be dropped as unroutable; use group ids below %u or build the plugin with more (RTL_CARD_G in fpga_bitstreams/rtl/rtl.mk)",
					 g, r->mc_groups, r->ops->config, r->mc_groups);
			return -1;
		}
	return 0;
}

/* Write @n words of @regs that differ from @shadow to the RTL, at @blk/@off. */
static void rtl_sync_words(struct card_rtl *r, uint32_t *shadow, const uint32_t *regs,
			   unsigned int n, unsigned int blk, uint32_t off, bool all)
{
	for (unsigned int k = 0; k < n; k++) {
		if (!all && shadow[k] == regs[k])
			continue;
		shadow[k] = regs[k];
		r->ops->write(r->f, 0, blk, off + 4 * k, regs[k]);
	}
}

static void rtl_sync(struct card *c, bool all)
{
	struct card_rtl *r = c->rtl;
	enum rtl_beyond_kind kind;
	char err[512];

	rtl_sync_words(r, r->rt, reg_words(c, CARD_OFF_ROUTER + LOOM_ROUTER_RT),
		       2 * r->rt_entries, RTL_BLK_ROUTER, LOOM_ROUTER_RT, all);
	rtl_sync_words(r, r->port_cfg, reg_words(c, CARD_OFF_VCT + LOOM_VCT_PORT_CFG),
		       LOOM_MAX_PORTS, RTL_BLK_VCT, LOOM_VCT_PORT_CFG, all);
	rtl_sync_words(r, r->svc1, reg_words(c, CARD_OFF_VCT + LOOM_VCT_START_VC1),
		       r->svc1_words, RTL_BLK_VCT, LOOM_VCT_START_VC1, all);
	/* the group table's word 0 (word 1 is the host port's) */
	for (unsigned int g = 0; g < r->mc_groups; g++) {
		uint32_t w0 = c->view.mc && g < c->view.mc_entries ? c->view.mc[2 * g] : 0;

		if (!all && r->mc[g] == w0)
			continue;
		r->mc[g] = w0;
		r->ops->write(r->f, 0, RTL_BLK_CTL, RTL_CTL_MCAST + LOOM_MCAST_ENTRY_SIZE * g, w0);
	}
	/* once each: software may write what the RTL cannot hold at any time */
	if (!rtl_beyond(c, &kind, err, sizeof(err)) || r->warned[kind])
		return;
	card_log(c, "router rtl: %s", err);
	r->warned[kind] = true;
}

bool card_router_rtl_fits(const struct card *c, char *err, size_t errlen)
{
	enum rtl_beyond_kind kind;
	char why[512];

	if (!c->rtl || !rtl_beyond(c, &kind, why, sizeof(why)))
		return true;
	snprintf(err, errlen, "--router rtl: %s", why);
	return false;
}

bool card_router_open_rtl(struct card *c, const char *path, char *err, size_t errlen)
{
	struct card_rtl *r = calloc(1, sizeof(*r));
	char why[512];

	if (!r) {
		snprintf(err, errlen, "--router rtl: out of memory");
		return false;
	}
	c->rtl = r;
	r->dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!r->dl) {
		snprintf(err, errlen,
			 "--router rtl: cannot load the Verilated router %s (%s); build it with '%s' (needs verilator), or name one in LOOM_RTL_PLUGIN",
			 path, dlerror(), RTL_PLUGIN_TARGET);
		goto fail;
	}
	r->ops = dlsym(r->dl, RTL_PLUGIN_SYMBOL);
	if (!r->ops) {
		snprintf(err, errlen, "--router rtl: %s has no symbol %s: not a loom RTL router plugin; build one with '%s'",
			 path, RTL_PLUGIN_SYMBOL, RTL_PLUGIN_TARGET);
		goto fail;
	}
	if (r->ops->abi != RTL_PLUGIN_ABI || r->ops->params_size != sizeof(struct router_params) ||
	    r->ops->chan_size != sizeof(struct chan) ||
	    r->ops->drop_size != sizeof(struct router_drop)) {
		snprintf(err, errlen,
			 "--router rtl: %s was built from other sources than this loom-card (interface %u, router_params %u bytes; this loom-card: %u, %zu bytes); rebuild it with '%s'",
			 path, r->ops->abi, r->ops->params_size, RTL_PLUGIN_ABI,
			 sizeof(struct router_params), RTL_PLUGIN_TARGET);
		goto fail;
	}
	r->f = r->ops->open(&c->p.router, why, sizeof(why));
	if (!r->f) {
		snprintf(err, errlen,
			 "--router rtl: the card's router does not match the Verilated router %s: %s; the build was made for %s: run the card with those parameters, or build the plugin for this card (RTL_CARD_G in fpga_bitstreams/rtl/rtl.mk)",
			 path, why, r->ops->config);
		goto fail;
	}
	r->rt_entries = r->ops->info(r->f, RTL_INFO_RT_ENTRIES);
	r->svc1_words = r->ops->info(r->f, RTL_INFO_START_VC1_BITS) / 32;
	r->mc_groups = r->ops->info(r->f, RTL_INFO_MC_GROUPS);
	if (r->rt_entries > CARD_RT_ENTRIES || r->svc1_words > LOOM_MAX_NODES / 32 ||
	    r->mc_groups > CARD_MCAST_GROUPS) {
		snprintf(err, errlen, "--router rtl: %s holds %u routing entries, %u START_VC1 bits and %u multicast groups, the card's registers %u, %u and %u",
			 path, r->rt_entries, 32 * r->svc1_words, r->mc_groups, CARD_RT_ENTRIES,
			 LOOM_MAX_NODES, CARD_MCAST_GROUPS);
		goto fail;
	}
	if (!card_router_rtl_fits(c, err, errlen))
		goto fail;
	for (unsigned int p = 0; p < c->p.router.ports; p++) {
		r->in[p] = router_in(c->router, p);
		r->out[p] = router_out(c->router, p);
	}
	snprintf(r->desc, sizeof(r->desc), "Verilated RTL %s (build %s: %s)", path, r->ops->build,
		 r->ops->config);
	rtl_sync(c, true);
	return true;
fail:
	card_router_close_rtl(c);
	return false;
}

void card_router_close_rtl(struct card *c)
{
	struct card_rtl *r = c->rtl;

	if (!r)
		return;
	if (r->f)
		r->ops->close(r->f);
	if (r->dl)
		dlclose(r->dl);
	free(r);
	c->rtl = NULL;
}

const char *card_router_rtl_desc(const struct card *c)
{
	return c->rtl ? c->rtl->desc : NULL;
}

void card_router_cycle(struct card *c)
{
	if (c->rtl)
		c->rtl->ops->step(c->rtl->f, 0, c->rtl->in, c->rtl->out);
	else
		router_cycle(c->router);
}

void card_router_sync(struct card *c)
{
	if (c->rtl)
		rtl_sync(c, false);
}

/* ---- control registers: the model's, and the RTL's through its CTL block ---- */

static void rtl_ctl(struct card *c, uint32_t reg, uint32_t data)
{
	if (c->rtl)
		c->rtl->ops->write(c->rtl->f, 0, RTL_BLK_CTL, reg, data);
}

void card_router_set_port_up(struct card *c, unsigned int port, bool up)
{
	router_set_port_up(c->router, port, up);
	rtl_ctl(c, RTL_CTL_PORT_UP + 4 * port, up);
}

void card_router_set_port_disabled(struct card *c, unsigned int port, bool disabled)
{
	router_set_port_disabled(c->router, port, disabled);
	rtl_ctl(c, RTL_CTL_PORT_DISABLE + 4 * port, disabled);
}

void card_router_set_fp_timeout(struct card *c, uint32_t cycles)
{
	router_set_fp_timeout(c->router, cycles);
	rtl_ctl(c, RTL_CTL_FP_TIMEOUT, cycles);
}

void card_router_set_out_depth(struct card *c, unsigned int port, unsigned int vc,
			       unsigned int depth)
{
	router_set_out_depth(c->router, port, vc, depth);
	rtl_ctl(c, RTL_CTL_OUT_DEPTH + 4 * (port * 8 + vc), depth);
}

void card_router_clear_dead(struct card *c)
{
	router_clear_dead(c->router);
	rtl_ctl(c, RTL_CTL_CLEAR_DEAD, 1);
}

/*
 * The RTL clears every port's dead flag at once (CLEAR_DEAD): a port still
 * dead beside @port gets its timers restarted too, and is declared again
 * when they run out.
 */
void card_router_clear_port_dead(struct card *c, unsigned int port)
{
	router_clear_port_dead(c->router, port);
	if (!c->rtl)
		return;
	if ((c->rtl->ops->port_dead(c->rtl->f, 0) & ~(1ull << port)) && !c->rtl->warned_dead) {
		card_log(c, "router rtl: clearing port %u's dead flag clears the other ports' too (the RTL has one CLEAR_DEAD)",
			 port);
		c->rtl->warned_dead = true;
	}
	rtl_ctl(c, RTL_CTL_CLEAR_DEAD, 1);
}

/* ---- outputs ---- */

bool card_router_port_dead(struct card *c, unsigned int port)
{
	if (c->rtl)
		return (c->rtl->ops->port_dead(c->rtl->f, 0) >> port) & 1;
	return router_port_dead(c->router, port);
}

uint64_t card_router_take_port_events(struct card *c)
{
	if (c->rtl)
		return c->rtl->ops->take_port_events(c->rtl->f, 0);
	return router_take_port_events(c->router);
}

bool card_router_drop_pop(struct card *c, struct router_drop *d)
{
	if (c->rtl)
		return c->rtl->ops->drop_pop(c->rtl->f, 0, d);
	return router_drop_pop(c->router, d);
}

/*
 * The RTL is stepped while it may change (rtl_fabric_busy); then the card
 * may skip cycles without it, which changes nothing in it.
 */
uint64_t card_router_next_event(const struct card *c)
{
	if (c->rtl)
		return c->rtl->ops->busy(c->rtl->f, 0) ? c->now : ROUTER_NEVER;
	return router_next_event(c->router);
}

/* The RTL counts the skipped cycles of its per-VC counters as the model does. */
bool card_router_skip_to(struct card *c, uint64_t cycle)
{
	if (!c->rtl)
		return router_skip_to(c->router, cycle);
	if (cycle > c->now)
		c->rtl->ops->skip(c->rtl->f, 0, cycle - c->now);
	return true;
}

const struct router_counters *card_router_counters(struct card *c)
{
	struct card_rtl *r = c->rtl;

	if (!r)
		return router_counters(c->router);
	r->ops->counters(r->f, 0, &r->cnt, r->pcnt);
	return &r->cnt;
}

const struct router_port_counters *card_router_port_counters(struct card *c, unsigned int port)
{
	struct card_rtl *r = c->rtl;

	if (!r)
		return router_port_counters(c->router, port);
	r->ops->counters(r->f, 0, &r->cnt, r->pcnt);
	return &r->pcnt[port];
}

const struct router_vc_counters *card_router_vc_counters(struct card *c, unsigned int port,
							 unsigned int vc)
{
	struct card_rtl *r = c->rtl;
	struct router_vc_counters *vcc;

	if (!r)
		return router_vc_counters(c->router, port, vc);
	if (port >= c->p.router.ports || vc >= c->p.router.vcs)
		return NULL;
	vcc = &r->vcc[port * CHAN_VCS_MAX + vc];
	return r->ops->vc_counters(r->f, 0, port, vc, vcc) ? vcc : &r->no_vc;
}

unsigned int card_router_in_vc_fill(struct card *c, unsigned int port, unsigned int vc)
{
	if (c->rtl)
		return c->rtl->ops->in_vc_fill(c->rtl->f, 0, port, vc);
	return router_in_vc_fill(c->router, port, vc);
}
