/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The card's router as Verilated RTL, behind a shared object: the
 * interface between loom-card (card_router.c, which loads it with dlopen
 * at --router rtl) and the plugin (tests/emu/sim/rtl_fabric.cpp built
 * with LOOM_RTL_PLUGIN: one Verilated loom_router, 'make -C
 * fpga_bitstreams rtl-card').  loom-card stays a C program that runs
 * without Verilator; the plugin holds no router logic but the RTL's.
 * Documented in Documentation/hw/rtl.rst ("The RTL in the card
 * emulator").
 */
#ifndef LOOM_CARD_RTL_PLUGIN_H
#define LOOM_CARD_RTL_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct chan;
struct router_counters;
struct router_drop;
struct router_params;
struct router_port_counters;
struct router_vc_counters;
struct rtl_fabric;

/* Raised whenever a function or a structure below changes. */
#define RTL_PLUGIN_ABI		2
/* The symbol the plugin exports: a const struct rtl_plugin. */
#define RTL_PLUGIN_SYMBOL	"loom_rtl_plugin"
/* The plugin's file, in the build tree beside loom-card (bin/../rtl/). */
#define RTL_PLUGIN_FILE		"loom-router-rtl.so"
#define RTL_PLUGIN_TARGET	"make -C fpga_bitstreams rtl-card"

/*
 * The plugin's table.  The sizes let loom-card refuse a plugin compiled
 * from other headers than its own.  Every function but open takes the
 * router open returned.
 */
struct rtl_plugin {
	uint32_t abi;			/* RTL_PLUGIN_ABI */
	uint32_t params_size;		/* sizeof(struct router_params) */
	uint32_t chan_size;		/* sizeof(struct chan) */
	uint32_t drop_size;		/* sizeof(struct router_drop) */
	const char *build;		/* content key of the Verilated build */
	const char *config;		/* the -G flags it was built with */
	/*
	 * One router out of reset, its parameters read back from the RTL's
	 * INFO block and compared with @p; NULL with @err naming the first
	 * that differs (and what the build has).
	 */
	struct rtl_fabric *(*open)(const struct router_params *p, char *err, size_t errlen);
	void (*close)(struct rtl_fabric *f);
	uint32_t (*info)(const struct rtl_fabric *f, uint32_t addr);
	void (*write)(struct rtl_fabric *f, int node, unsigned int blk, uint32_t addr,
		      uint32_t data);
	void (*step)(struct rtl_fabric *f, int node, struct chan *const *in,
		     struct chan *const *out);
	bool (*busy)(const struct rtl_fabric *f, int node);
	bool (*drop_pop)(struct rtl_fabric *f, int node, struct router_drop *d);
	uint64_t (*port_dead)(const struct rtl_fabric *f, int node);
	uint64_t (*take_port_events)(struct rtl_fabric *f, int node);
	void (*counters)(const struct rtl_fabric *f, int node, struct router_counters *c,
			 struct router_port_counters *pc);
	unsigned int (*in_vc_fill)(const struct rtl_fabric *f, int node, unsigned int port,
				   unsigned int vc);
	/* false if the build has no per-VC counters (VC_COUNTERS 0) */
	bool (*vc_counters)(const struct rtl_fabric *f, int node, unsigned int port,
			    unsigned int vc, struct router_vc_counters *vcc);
	/* the card skipped @cycles cycles without clocking the router */
	void (*skip)(struct rtl_fabric *f, int node, uint64_t cycles);
};

#ifdef __cplusplus
}
#endif

#endif
