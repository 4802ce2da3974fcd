/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fabric of Verilated RTL routers (fpga_bitstreams/rtl/loom_router.sv)
 * for loom-sim's router_ops: one Verilated loom_router per node, clocked
 * on the wires of the model's router of that node (which only holds
 * them).  C interface to rtl_fabric.cpp; built by 'make -C
 * fpga_bitstreams rtl-threeway' (Documentation/sim/threeway.rst).
 */
#ifndef LOOM_TESTS_RTL_FABRIC_H
#define LOOM_TESTS_RTL_FABRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct router;
struct router_params;
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
/* sim_router_ops: one clock edge of @node's RTL router on the wires of @wires. */
void rtl_fabric_cycle(void *f, int node, struct router *wires);
/* sim_router_ops: a link came up or went down (a PORT_UP write at the next edge). */
void rtl_fabric_port_up(void *f, int node, unsigned int port, bool up);

#ifdef __cplusplus
}
#endif

#endif
