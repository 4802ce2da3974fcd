/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The router's parameters: one table (ROUTER_PARAMS) that the C model's
 * validation, the documentation check and the RTL parameter generator all
 * read.  Each row: NAME (the RTL parameter and the name in messages),
 * field of struct router_params, default, minimum, maximum, description.
 * Documented in Documentation/hw/router-model.rst.
 */
#ifndef LOOM_ROUTER_PARAMS_H
#define LOOM_ROUTER_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chan.h"

/* ORG values */
#define ROUTER_ORG_TILED	0	/* tiles: row buses, subswitches, column channels */
#define ROUTER_ORG_XBAR		1	/* baseline VC router: one crossbar */

/* ARB_* values: arbiter policy of a unit */
#define ARB_RR		0	/* round robin */
#define ARB_MATRIX	1	/* matrix (least recently served) */
#define ARB_T3E		2	/* round robin, the winner keeps the grant while it streams */
#define ARB_IWA		3	/* Anton 2 inverse-weighted, weights in registers */
#define ARB_KINDS	4

#define ROUTER_PORTS_MAX	64
#define ROUTER_ROWS_MAX		8
#define ROUTER_COLS_MAX		64
#define ROUTER_SPEEDUP_MAX	4

/*
 * X(NAME, field, default, min, max, description).  The defaults are the
 * card's router: host port + 8 network ports on a 3x3 grid of tiles, the
 * 7 flow-controlled cable VCs of <loom_hw/packet.h>, 16-byte flits.
 */
#define ROUTER_PARAMS(X)							\
	X(PORTS, ports, 9, 1, ROUTER_PORTS_MAX,					\
	  "router ports, one tile each (network ports, then the host ports)")	\
	X(HOST_PORTS, host_ports, 1, 0, 1,					\
	  "host ports: the last port delivers to the local host and the BSUs")	\
	X(VCS, vcs, 7, 1, CHAN_VCS_MAX,						\
	  "virtual channels per port (the card: 7, LOOM_VC_REQ0 .. BARRIER)")	\
	X(VC_MODEL, vc_model, 1, 0, 1,						\
	  "1: the card's VCs (LOOM_VC_*: classes, T3E datelines, adaptive VC);"	\
	  " 0: generic, even VCs before a dateline, odd VCs past one, any free"	\
	  " VC of the class")							\
	X(FLIT_BYTES, flit_bytes, 16, 8, FLIT_BYTES_MAX,			\
	  "flit width in bytes, a multiple of 8")				\
	X(BUF_DEPTH, buf_depth, 24, 1, 4096,					\
	  "input buffer depth per VC in flits")					\
	X(WORMHOLE_VCS, wormhole_vcs, 0, 0, 255,				\
	  "bit v set: VC v uses wormhole flow control, else virtual cut-through")\
	X(LAT_BW, lat_bw, 1, 1, 16, "buffer write stage, cycles")		\
	X(LAT_RC, lat_rc, 1, 1, 16, "route computation stage, cycles")		\
	X(LAT_VA, lat_va, 1, 1, 16, "VC allocation stage, cycles")		\
	X(LAT_SA, lat_sa, 1, 1, 16, "switch allocation stage, cycles")		\
	X(LAT_ST, lat_st, 1, 1, 16,						\
	  "switch traversal, cycles (XBAR; tiles use ROW/SUB/COL/OUT)")		\
	X(LAT_ROW, lat_row, 1, 1, 16, "row bus traversal, cycles (TILED)")	\
	X(LAT_SUB, lat_sub, 1, 1, 16,						\
	  "subswitch arbitration and traversal, cycles (TILED)")		\
	X(LAT_COL, lat_col, 1, 1, 16, "column channel traversal, cycles (TILED)")\
	X(LAT_OUT, lat_out, 1, 1, 16, "output mux arbitration, cycles (TILED)")	\
	X(LAT_LT, lat_lt, 1, 1, 16, "output register / link traversal, cycles")\
	X(ORG, org, ROUTER_ORG_TILED, 0, 1,					\
	  "organisation: 0 tiled (YARC; rows 1 = fully buffered crossbar),"	\
	  " 1 baseline VC router (one crossbar)")				\
	X(ROWS, rows, 3, 1, ROUTER_ROWS_MAX,					\
	  "tile grid rows (subswitch outputs = ROWS)")				\
	X(COLS, cols, 3, 1, ROUTER_COLS_MAX,					\
	  "tile grid columns (subswitch inputs = COLS)")			\
	X(SPEEDUP, speedup, 1, 1, ROUTER_SPEEDUP_MAX,				\
	  "flits per cycle an input may send into the switch (row bus or"	\
	  " crossbar) and a subswitch output may send on its column channel")	\
	X(ROW_DEPTH, row_depth, 16, 1, 256,					\
	  "row buffer depth per VC in flits (TILED)")				\
	X(COL_DEPTH, col_depth, 10, 1, 256,					\
	  "column buffer depth per VC in flits (TILED)")			\
	X(ARB_SA_IN, arb_sa_in, ARB_RR, 0, ARB_KINDS - 1,			\
	  "policy: input arbiter of switch allocation (VCs of one input)")	\
	X(ARB_SA_OUT, arb_sa_out, ARB_RR, 0, ARB_KINDS - 1,			\
	  "policy: output arbiter of switch allocation (XBAR) or subswitch"	\
	  " output (TILED)")							\
	X(ARB_OUT, arb_out, ARB_RR, 0, ARB_KINDS - 1,				\
	  "policy: output mux over column buffers (TILED)")			\
	X(ARB_VA_IN, arb_va_in, ARB_RR, 0, ARB_KINDS - 1,			\
	  "policy: input arbiter of VC allocation (VCs of one input)")		\
	X(ARB_VA_OUT, arb_va_out, ARB_RR, 0, ARB_KINDS - 1,			\
	  "policy: output VC arbiter of VC allocation (inputs)")		\
	X(IWA_BITS, iwa_bits, 5, 1, 8, 						\
	  "inverse-weighted arbiter: weight bits M (accumulators M+1 bits)")	\
	X(FP_TIMEOUT, fp_timeout, 0, 0, 0x7fffffff,				\
	  "forward-progress timer: cycles an output VC may hold waiting"	\
	  " flits without a credit before its port is declared dead; 0 off")	\
	X(FP_TIMER_BITS, fp_timer_bits, 32, 8, 32,				\
	  "forward-progress timer width in bits: FP_TIMEOUT and the timeouts"	\
	  " set later are held at 2^FP_TIMER_BITS - 1 at most")		\
	X(CREDIT_BITS, credit_bits, 16, 1, 16,					\
	  "output credit count width in bits: BUF_DEPTH and the downstream"	\
	  " depths set later are held at 2^CREDIT_BITS - 1 at most")

struct router_params {
#define ROUTER_PARAM_FIELD(NAME, field, def, min, max, desc) uint32_t field;
	ROUTER_PARAMS(ROUTER_PARAM_FIELD)
#undef ROUTER_PARAM_FIELD
};

/* One row of the table, for validation, documentation and generators. */
struct router_param_desc {
	const char *name;
	size_t offset;		/* in struct router_params */
	uint32_t def, min, max;
	const char *desc;
};

extern const struct router_param_desc router_param_table[];
extern const unsigned int router_param_count;

/* The defaults of the table (the card router). */
void router_params_default(struct router_params *p);

/*
 * Check @p: every value within its row's limits, and the combinations
 * (ports the grid holds, VCT buffers that hold the largest packet, ...).
 * Returns 0, or -1 with a message naming the parameter, its value and the
 * limit in @err (@errlen bytes).
 */
int router_params_check(const struct router_params *p, char *err, size_t errlen);

/* Set parameter @name (as in the table, case-insensitive) to @value; -1 if unknown. */
int router_params_set(struct router_params *p, const char *name, uint32_t value);
/* Value of parameter @name, or -1 (as int64) if unknown. */
int64_t router_params_get(const struct router_params *p, const char *name);

/* The largest packet (LOOM_PKT_HDR_SIZE + LOOM_PKT_MAX_PAYLOAD) in flits. */
unsigned int router_max_packet_flits(unsigned int flit_bytes);
/* A packet of @payload bytes in flits. */
unsigned int router_packet_flits(unsigned int flit_bytes, unsigned int payload);

/*
 * Presets.  @network_ports: network ports of the card router (1..8).
 *  card:     network ports + host port, 3x3 tiles, the 7 cable VCs.
 *  yarc:     the seed's YARC: 64 ports, 8x8 tiles (8x8 subswitches),
 *            2 VCs, input buffers 256 flits, row buffers 16, column 10.
 *  xbar:     the baseline VC router with @ports ports, @vcs VCs.
 *  fbx:      the fully buffered crossbar (tiled, 1 x @ports), crosspoint
 *            (row) buffers of 4 flits per VC.
 */
void router_preset_card(struct router_params *p, unsigned int network_ports);
void router_preset_yarc(struct router_params *p);
void router_preset_xbar(struct router_params *p, unsigned int ports, unsigned int vcs);
void router_preset_fbx(struct router_params *p, unsigned int ports, unsigned int vcs);
/* Apply preset @name ("card", "yarc", "xbar", "fbx"); -1 if unknown. */
int router_preset(struct router_params *p, const char *name);

const char *router_arb_name(unsigned int kind);

#endif
