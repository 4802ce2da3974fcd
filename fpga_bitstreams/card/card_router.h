/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The card's router block: the C model (router/router.h), or with
 * --router rtl the Verilated RTL behind a plugin (rtl_plugin.h) clocked on
 * the model router's wires, which then only holds them.  The rest of the
 * card reaches the router through these calls alone; each is the model's
 * call of the same name when the card runs the model.
 */
#ifndef LOOM_CARD_ROUTER_H
#define LOOM_CARD_ROUTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct card;
struct router_counters;
struct router_drop;
struct router_port_counters;
struct router_vc_counters;

/*
 * Load the plugin at @path and open its router for card @c (its model
 * router made): false with @err naming what failed, on what, and what to
 * do (the make target; the parameter that differs and what the build
 * has; a routing entry the RTL does not hold).
 */
bool card_router_open_rtl(struct card *c, const char *path, char *err, size_t errlen);
void card_router_close_rtl(struct card *c);
/* The plugin's build and configuration, for the startup log (NULL: the model). */
const char *card_router_rtl_desc(const struct card *c);

/* One clock edge on the router's wires. */
void card_router_cycle(struct card *c);
/*
 * The RTL's copy of the ROUTER and VCT tables follows the registers: the
 * words that changed are written through its configuration port at the
 * next edges (the model reads the registers live).  Called at every
 * service round.
 */
void card_router_sync(struct card *c);
/*
 * With the RTL: false with @err if the card's tables use what the RTL does
 * not hold (a valid routing entry at or beyond its RT_ENTRIES, a START_VC1
 * bit beyond its bitmap, a valid multicast group), naming it.
 */
bool card_router_rtl_fits(const struct card *c, char *err, size_t errlen);

/* Control registers (router.h). */
void card_router_set_port_up(struct card *c, unsigned int port, bool up);
void card_router_set_port_disabled(struct card *c, unsigned int port, bool disabled);
void card_router_set_fp_timeout(struct card *c, uint32_t cycles);
void card_router_set_out_depth(struct card *c, unsigned int port, unsigned int vc,
			       unsigned int depth);
void card_router_clear_dead(struct card *c);
void card_router_clear_port_dead(struct card *c, unsigned int port);

/* Outputs. */
bool card_router_port_dead(struct card *c, unsigned int port);
uint64_t card_router_take_port_events(struct card *c);
bool card_router_drop_pop(struct card *c, struct router_drop *d);
uint64_t card_router_next_event(const struct card *c);
/*
 * Jump the router's clock to @cycle (router_skip_to).  The RTL is not
 * clocked over the skip; its per-VC counters count the skipped cycles as
 * the model's do.
 */
bool card_router_skip_to(struct card *c, uint64_t cycle);
const struct router_counters *card_router_counters(struct card *c);
const struct router_port_counters *card_router_port_counters(struct card *c, unsigned int port);
/* NULL for a port or VC beyond the router's; zeros for an RTL built without them (VC_COUNTERS 0). */
const struct router_vc_counters *card_router_vc_counters(struct card *c, unsigned int port,
							 unsigned int vc);
unsigned int card_router_in_vc_fill(struct card *c, unsigned int port, unsigned int vc);

#endif
