/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The configuration port of the router RTL (loom_router.sv): which
 * register block a write goes to (cfg_blk) and the offsets of the
 * router's own control registers.  The ROUTER and VCT blocks are the
 * card's (include/loom_hw/regs.h: the routing table at LOOM_ROUTER_RT,
 * PORT_CFG and START_VC1 in the VCT block); the CTL block holds what the
 * C model sets through its control calls (router.h), one register each;
 * the INFO block reads back the parameters the RTL was built with.
 *
 * One source for the C side (the equivalence harness, the RTL-backed
 * router library) and the RTL (rtl_gen prints these into loom_hw.vh).
 * Documented in Documentation/hw/rtl.rst.
 */
#ifndef LOOM_RTL_REGS_H
#define LOOM_RTL_REGS_H

/* cfg_blk: the block a configuration access addresses */
#define RTL_BLK_ROUTER		0	/* routing table words, offsets as LOOM_ROUTER_RT */
#define RTL_BLK_VCT		1	/* LOOM_VCT_PORT_CFG words, LOOM_VCT_START_VC1 bitmap */
#define RTL_BLK_CTL		2	/* the router's control registers below (write only) */
#define RTL_BLK_INFO		3	/* read only: the build's parameters */

/* CTL block, one 32-bit word each */
#define RTL_CTL_PORT_UP		0x0000	/* + 4 * port: bit 0 = link up (router_set_port_up) */
#define RTL_CTL_PORT_DISABLE	0x0100	/* + 4 * port: bit 0 = fenced (router_set_port_disabled) */
#define RTL_CTL_CLEAR_DEAD	0x0200	/* any write: router_clear_dead */
#define RTL_CTL_FP_TIMEOUT	0x0204	/* forward-progress timeout in cycles, 0 off */
#define RTL_CTL_OUT_DEPTH	0x0400	/* + 4 * (port * 8 + vc): router_set_out_depth */
#define RTL_CTL_ARB_WEIGHT	0x1000	/* + 4 * index: router_set_arb_weight, data below */
#define RTL_CTL_MCAST		0x2000	/* + LOOM_MCAST_ENTRY_SIZE * group: the group table's
					 * word 0 (LOOM_MCAST_W0_*, as the MCAST block
					 * has it); word 1 is the host's, not the router's */
#define RTL_CTL_END		0x4000

/* RTL_CTL_ARB_WEIGHT data word */
#define RTL_ARBW_WEIGHT_MASK	0x000000ffu	/* the weight, masked to IWA_BITS */
#define RTL_ARBW_PATTERN_SHIFT	8		/* pattern 0 or 1 */
#define RTL_ARBW_REQ_SHIFT	16		/* requester, 6 bits */
#define RTL_ARBW_REQ_MASK	0x003f0000u
#define RTL_ARBW_UNIT_SHIFT	28		/* enum router_arb_unit, 3 bits */

/*
 * INFO block: word i (offset 4 * i) for i < the router parameter count is
 * the value of row i of ROUTER_PARAMS; then these words.
 */
#define RTL_INFO_RT_ENTRIES	0x0100	/* routing table entries the RTL holds */
#define RTL_INFO_START_VC1_BITS	0x0104	/* START_VC1 bits the RTL holds */
#define RTL_INFO_WIDE_PORTS	0x0108	/* 1: wide routing entries (W0 bits 23:16) */
#define RTL_INFO_MAGIC		0x010c	/* RTL_INFO_MAGIC_VALUE */
#define RTL_INFO_MAGIC_VALUE	0x4c525452u	/* "RTRL" */
#define RTL_INFO_VALIANT	0x0110	/* 1: Valiant and UGAL entries route as route.c */
#define RTL_INFO_VC_COUNTERS	0x0114	/* 1: the per-VC counters (cnt_vc, vc_last) count */
#define RTL_INFO_WAR		0x0118	/* 1: DimWAR and OmniWAR entries route as route.c */
#define RTL_INFO_UPROUTE	0x011c	/* 1: adaptive up-route entries route as route.c */
#define RTL_INFO_MCAST		0x0120	/* 1: multicast packets are replicated as route.c */
#define RTL_INFO_MC_GROUPS	0x0124	/* multicast groups the RTL holds (0: MCAST 0) */

/*
 * The drop field of a packed route (route_pack) that marks a multicast
 * head in an input buffer: never a drop reason; the route's bits 19:3
 * then hold its copies (bit 3 + n: network port n, bit 19: the host).
 */
#define RTL_ROUTE_MCAST		7

/* Widths of the configuration port */
#define RTL_CFG_ADDR_BITS	16

#endif
