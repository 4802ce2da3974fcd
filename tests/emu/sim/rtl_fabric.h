/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fabric of Verilated RTL routers (fpga_bitstreams/rtl/loom_router.sv):
 * one Verilated loom_router per node, clocked on the wires of the model's
 * router of that node (which only holds them).  C interface to
 * rtl_fabric.cpp; built into loom-sim's router_ops by 'make -C
 * fpga_bitstreams rtl-threeway' (Documentation/sim/threeway.rst) and into
 * the card emulator's RTL router plugin by 'make -C fpga_bitstreams
 * rtl-card' (fpga_bitstreams/card/rtl_plugin.h, Documentation/hw/rtl.rst).
 */
#ifndef LOOM_TESTS_RTL_FABRIC_H
#define LOOM_TESTS_RTL_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct chan;
struct router;
struct router_counters;
struct router_drop;
struct router_params;
struct router_port_counters;
struct router_vc_counters;
struct rtl_fabric;

/*
 * @nodes routers out of reset, their parameters read back from the RTL's
 * INFO block and compared with @p (the model's); NULL with @err when they
 * differ (the first parameter named) or out of memory.
 */
struct rtl_fabric *rtl_fabric_new(int nodes, const struct router_params *p, char *err,
				  size_t errlen);
void rtl_fabric_free(struct rtl_fabric *f);
/* Routing entries the RTL was built with (RT_ENTRIES). */
unsigned int rtl_fabric_rt_entries(const struct rtl_fabric *f);
/*
 * Write router @node's tables through its configuration port, one word
 * per clock edge before the run: @rt (2 words per entry, the RTL's
 * RT_ENTRIES of them), @port_cfg (LOOM_MAX_PORTS words), @start_vc1 (the
 * RTL's START_VC1_BITS).
 */
void rtl_fabric_tables(struct rtl_fabric *f, int node, const uint32_t *rt,
		       const uint32_t *port_cfg, const uint32_t *start_vc1);
/* One INFO block word of the build (RTL_INFO_*, or 4 * parameter row). */
uint32_t rtl_fabric_info(const struct rtl_fabric *f, uint32_t addr);
/*
 * One clock edge of @node's RTL router: its inputs from in[p]->fwd and
 * out[p]->back, its outputs onto out[p]->fwd and in[p]->back (p below
 * PORTS; chan.h's wires, which the RTL's ports mirror signal for signal).
 */
void rtl_fabric_step(struct rtl_fabric *f, int node, struct chan *const *in,
		     struct chan *const *out);
/* A configuration write (rtl_regs.h: cfg_blk, cfg_addr, data) at one of the next edges, in order. */
void rtl_fabric_write(struct rtl_fabric *f, int node, unsigned int blk, uint32_t addr,
		      uint32_t data);
/* sim_router_ops: a link came up or went down (a PORT_UP write at the next edge). */
void rtl_fabric_port_up(void *f, int node, unsigned int port, bool up);
/*
 * @node's router may still change with no new input: a flit in an input
 * buffer, a configuration write waiting, or a flit or credit on its ports
 * within the last RTL_FABRIC_SETTLE edges (flits in the pipeline, row and
 * column buffers do not show in the buffer fills).
 */
#define RTL_FABRIC_SETTLE	128
bool rtl_fabric_busy(const struct rtl_fabric *f, int node);
/* The oldest drop event the RTL reported (drop_in_*, drop_out_*); false if none. */
bool rtl_fabric_drop_pop(struct rtl_fabric *f, int node, struct router_drop *d);
/* Dead flags (bit p: port p), and the port events since the last call. */
uint64_t rtl_fabric_port_dead(const struct rtl_fabric *f, int node);
uint64_t rtl_fabric_take_port_events(struct rtl_fabric *f, int node);
/* The RTL's counters (cnt_glob, cnt_port): @pc has PORTS entries. */
void rtl_fabric_counters(const struct rtl_fabric *f, int node, struct router_counters *c,
			 struct router_port_counters *pc);
/*
 * The per-VC counters of (@port, @vc) (cnt_vc), with the cycles skipped
 * (rtl_fabric_skip) that the VC stalled or starved through; false if the
 * build has none (VC_COUNTERS 0).
 */
bool rtl_fabric_vc_counters(const struct rtl_fabric *f, int node, unsigned int port,
			    unsigned int vc, struct router_vc_counters *vcc);
/*
 * @node's clock skipped @cycles cycles (the card's idle skipping, between
 * two edges): nothing changes over them, so each counts as the last edge
 * did (router.h: struct router_vc_counters) for the VCs the RTL reports
 * stalled or starved at it (vc_last).
 */
void rtl_fabric_skip(struct rtl_fabric *f, int node, uint64_t cycles);
/* Flits held in the input buffer of (@port, @vc) (dbg_fill). */
unsigned int rtl_fabric_in_vc_fill(const struct rtl_fabric *f, int node, unsigned int port,
				   unsigned int vc);

#ifndef __cplusplus
#include "router/router.h"

/* sim_router_ops: one clock edge of @node's RTL router on the wires of @wires. */
static inline void rtl_fabric_cycle(void *f, int node, struct router *wires)
{
	struct chan *in[ROUTER_PORTS_MAX], *out[ROUTER_PORTS_MAX];
	unsigned int ports = router_params(wires)->ports;

	for (unsigned int p = 0; p < ports; p++) {
		in[p] = router_in(wires, p);
		out[p] = router_out(wires, p);
	}
	rtl_fabric_step(f, node, in, out);
}
#endif

#ifdef __cplusplus
}
#endif

#endif
