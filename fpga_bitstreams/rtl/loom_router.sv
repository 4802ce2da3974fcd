// SPDX-License-Identifier: GPL-2.0
//
// Router top (router/router.[ch]): the units, one clock.  The parameters
// are the C model's (router/params.h, ROUTER_PARAMS) with the same names
// and defaults (the card's router); RT_ENTRIES, START_VC1_BITS and
// WIDE_PORTS size the tables, as struct route_view does for the model;
// VALIANT 0 builds the router without Valiant and UGAL routing (the LFSR,
// the table's read ports A and C, the UGAL fields: the iCE40 board), which
// then routes a VALIANT entry as a plain one; VC_COUNTERS 0 builds it
// without the per-VC counters (router_vc_counters: cnt_vc and vc_last read
// 0; the iCE40 board); WAR 0 builds it without the HyperX algorithms
// DimWAR and OmniWAR (their deroute masks, distance classes and weighted
// choice at VA: the iCE40 board), which then routes a DIMWAR or OMNIWAR
// entry as a plain one; UPROUTE 0 builds it without adaptive up-routes
// (the up-route round-robin pointers and choice at VA: the iCE40 board),
// which then routes an UPROUTE entry as a plain one; MCAST 0 builds it
// without multicast (the group table of MC_GROUPS groups, the copies,
// their drop events: the iCE40 board), which then routes a packet with
// LOOM_PKT_F_MCAST as a unicast packet to dst_node.  With none of
// VALIANT, WAR and UPROUTE, the input buffers keep no route extension
// beside each head.
//
// Each port is a chan.h channel: in_* (a flit arriving) and in_credit (the
// credits returned upstream, registered), out_* (the flit leaving,
// registered) and out_ready / out_credit (what the receiver drives).  A
// flit driven in cycle t is sampled at the edge ending t; every output is
// a register, so nothing combinational crosses the router.  Input ready
// is always high: inputs are governed by credits.
//
// Within an edge the units act in the order router_cycle() has: output
// stage, output mux and subswitches (TILED), switch allocation, VC
// allocation, buffer write, then credits and timers; each reads the state
// the earlier ones leave, so the RTL and the model compute the same next
// state from the same registers.
//
// Configuration (rtl_regs.h): cfg_* writes the routing tables (RTL_BLK_ROUTER,
// RTL_BLK_VCT, at the card's offsets) and the control registers
// (RTL_BLK_CTL, the multicast group table among them); info_* reads back
// the parameters of the build.
`include "loom_hw.vh"
`include "loom_grid.vh"

module loom_router #(
	parameter integer PORTS = `ROUTER_PORTS_DEFAULT,
	parameter integer HOST_PORTS = `ROUTER_HOST_PORTS_DEFAULT,
	parameter integer VCS = `ROUTER_VCS_DEFAULT,
	parameter integer VC_MODEL = `ROUTER_VC_MODEL_DEFAULT,
	parameter integer FLIT_BYTES = `ROUTER_FLIT_BYTES_DEFAULT,
	parameter integer BUF_DEPTH = `ROUTER_BUF_DEPTH_DEFAULT,
	parameter integer WORMHOLE_VCS = `ROUTER_WORMHOLE_VCS_DEFAULT,
	parameter integer LAT_BW = `ROUTER_LAT_BW_DEFAULT,
	parameter integer LAT_RC = `ROUTER_LAT_RC_DEFAULT,
	parameter integer LAT_VA = `ROUTER_LAT_VA_DEFAULT,
	parameter integer LAT_SA = `ROUTER_LAT_SA_DEFAULT,
	parameter integer LAT_ST = `ROUTER_LAT_ST_DEFAULT,
	parameter integer LAT_ROW = `ROUTER_LAT_ROW_DEFAULT,
	parameter integer LAT_SUB = `ROUTER_LAT_SUB_DEFAULT,
	parameter integer LAT_COL = `ROUTER_LAT_COL_DEFAULT,
	parameter integer LAT_OUT = `ROUTER_LAT_OUT_DEFAULT,
	parameter integer LAT_LT = `ROUTER_LAT_LT_DEFAULT,
	parameter integer ORG = `ROUTER_ORG_DEFAULT,
	parameter integer ROWS = `ROUTER_ROWS_DEFAULT,
	parameter integer COLS = `ROUTER_COLS_DEFAULT,
	parameter integer SPEEDUP = `ROUTER_SPEEDUP_DEFAULT,
	parameter integer ROW_DEPTH = `ROUTER_ROW_DEPTH_DEFAULT,
	parameter integer COL_DEPTH = `ROUTER_COL_DEPTH_DEFAULT,
	parameter integer ARB_SA_IN = `ROUTER_ARB_SA_IN_DEFAULT,
	parameter integer ARB_SA_OUT = `ROUTER_ARB_SA_OUT_DEFAULT,
	parameter integer ARB_OUT = `ROUTER_ARB_OUT_DEFAULT,
	parameter integer ARB_VA_IN = `ROUTER_ARB_VA_IN_DEFAULT,
	parameter integer ARB_VA_OUT = `ROUTER_ARB_VA_OUT_DEFAULT,
	parameter integer IWA_BITS = `ROUTER_IWA_BITS_DEFAULT,
	parameter integer FP_TIMEOUT = `ROUTER_FP_TIMEOUT_DEFAULT,
	parameter integer FP_TIMER_BITS = `ROUTER_FP_TIMER_BITS_DEFAULT,
	parameter integer CREDIT_BITS = `ROUTER_CREDIT_BITS_DEFAULT,
	parameter integer RT_ENTRIES = `LOOM_MAX_NODES,
	parameter integer START_VC1_BITS = `LOOM_MAX_NODES,
	parameter integer WIDE_PORTS = 0,
	parameter integer VALIANT = 1,
	parameter integer VC_COUNTERS = 1,
	parameter integer WAR = 1,
	parameter integer UPROUTE = 1,
	parameter integer MCAST = 1,
	parameter integer MC_GROUPS = 16
) (
	input  logic clk,
	input  logic rst,
	// input ports
	input  logic [PORTS-1:0] in_valid,
	input  logic [PORTS-1:0] in_head,
	input  logic [PORTS-1:0] in_tail,
	input  logic [PORTS*3-1:0] in_vc,
	input  logic [PORTS*FW-1:0] in_data,
	output logic [PORTS*VCS*8-1:0] in_credit,
	// output ports
	output logic [PORTS-1:0] out_valid,
	output logic [PORTS-1:0] out_head,
	output logic [PORTS-1:0] out_tail,
	output logic [PORTS*3-1:0] out_vc,
	output logic [PORTS*FW-1:0] out_data,
	input  logic [PORTS-1:0] out_ready,
	input  logic [PORTS*VCS*8-1:0] out_credit,
	// configuration
	input  logic cfg_we,
	input  logic [1:0] cfg_blk,
	input  logic [`RTL_CFG_ADDR_BITS-1:0] cfg_addr,
	input  logic [31:0] cfg_wdata,
	input  logic [`RTL_CFG_ADDR_BITS-1:0] info_addr,
	output logic [31:0] info_rdata,
	// port status and events (router_port_dead, router_take_port_events)
	output logic [PORTS-1:0] port_dead,
	output logic [PORTS-1:0] port_event,
	// the drop interface: input side (drained) and output side (discarded)
	output logic [PORTS-1:0] drop_in_valid,
	output logic [PORTS*3-1:0] drop_in_reason,
	output logic [PORTS*8-1:0] drop_in_out_port,
	output logic [PORTS*3-1:0] drop_in_vc,
	output logic [PORTS*7-1:0] drop_in_bytes,
	output logic [PORTS*HB-1:0] drop_in_hdr,
	output logic [PORTS-1:0] drop_out_valid,
	output logic [PORTS*3-1:0] drop_out_reason,
	output logic [PORTS*3-1:0] drop_out_vc,
	output logic [PORTS*7-1:0] drop_out_bytes,
	output logic [PORTS*HB-1:0] drop_out_hdr,
	// multicast copies skipped (their output down, dead or disabled), per
	// input port and VC
	output logic [PORTS*VCS-1:0] drop_mc_valid,
	output logic [PORTS*VCS*3-1:0] drop_mc_reason,
	output logic [PORTS*VCS*8-1:0] drop_mc_out_port,
	output logic [PORTS*VCS*7-1:0] drop_mc_bytes,
	output logic [PORTS*VCS*HB-1:0] drop_mc_hdr,
	// counters (loom_router_counters)
	output logic [PORTS*9*64-1:0] cnt_port,
	output logic [(3+`ROUTE_DROP_REASONS)*64-1:0] cnt_glob,
	output logic [PORTS*VCS*3*64-1:0] cnt_vc,
	output logic [PORTS*VCS*2-1:0] vc_last,
	// introspection: router_in_vc_state(), router_in_vc_fill()
	output logic [PORTS*VCS*3-1:0] dbg_state,
	output logic [PORTS*VCS*16-1:0] dbg_fill
);
	localparam integer FW = FLIT_BYTES * 8;
	localparam integer HB = 8 * `LOOM_PKT_HDR_SIZE;
	localparam integer PB = PORTS > 1 ? $clog2(PORTS) : 1;
	`LOOM_GRID_FNS
	localparam integer OW = $clog2(PORTS * VCS + 1) > 6 ? $clog2(PORTS * VCS + 1) : 6;
	localparam integer N_NET = PORTS - HOST_PORTS;
	localparam logic XBAR = ORG == `ROUTER_ORG_XBAR;
	// an output VC's owner: the input VC's number (TILED) or one-hot over
	// the input VCs (XBAR; loom_output_unit)
	localparam integer OWN = ORG == `ROUTER_ORG_XBAR ? PORTS * VCS : OW;
	localparam integer TILES = XBAR ? 1 : ROWS * COLS;
	localparam integer EW = FW + 15 + PB;	// row/column buffer entry (loom_tile)
	localparam integer PIPE_LAT = XBAR ? LAT_SA + LAT_ST + LAT_LT : LAT_OUT + LAT_LT;
	localparam integer MAX_PKT_FLITS =
		(`LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD + FLIT_BYTES - 1) / FLIT_BYTES;

	// ---- parameters the RTL cannot build: the model's checks, then its own ----
`include "loom_router_checks.vh"
	if (FLIT_BYTES % 8 != 0) begin : g_chk_flit
		$error("router parameter FLIT_BYTES is not a multiple of 8 (the routed header fields are its first 8 bytes)");
	end
	if (HOST_PORTS >= PORTS) begin : g_chk_net
		$error("router parameter PORTS leaves no network port beside HOST_PORTS");
	end
	if (VC_MODEL == 1 && VCS != `LOOM_VC_MAINT) begin : g_chk_card
		$error("router parameter VCS: VC_MODEL 1 (the card's VCs) needs exactly 7 VCs (LOOM_VC_REQ0 .. LOOM_VC_BARRIER)");
	end
	if ((WORMHOLE_VCS >> VCS) != 0) begin : g_chk_worm
		$error("router parameter WORMHOLE_VCS names VCs beyond VCS");
	end
	if (BUF_DEPTH < MAX_PKT_FLITS && (WORMHOLE_VCS & ((1 << VCS) - 1)) != ((1 << VCS) - 1)) begin : g_chk_vct
		$error("router parameter BUF_DEPTH is smaller than the largest packet, which virtual cut-through needs (set WORMHOLE_VCS for every VC or raise BUF_DEPTH)");
	end
	if (!XBAR && ROWS * COLS < PORTS) begin : g_chk_grid
		$error("router parameter PORTS is more than the ROWS x COLS tile grid holds");
	end
	if (!XBAR && COLS * VCS > 64) begin : g_chk_sub
		$error("router parameter COLS: COLS x VCS exceeds 64, the widest subswitch arbiter");
	end
	if (!XBAR && ROWS * VCS > 64) begin : g_chk_mux
		$error("router parameter ROWS: ROWS x VCS exceeds 64, the widest output mux arbiter");
	end
	if (SPEEDUP != 1) begin : g_chk_speedup
		$error("router parameter SPEEDUP: this RTL builds SPEEDUP 1 only (one flit per input and subswitch output per cycle)");
	end
	if (FP_TIMER_BITS < 32 && (FP_TIMEOUT >> FP_TIMER_BITS) != 0) begin : g_chk_fp
		$error("router parameter FP_TIMEOUT does not fit the timer of FP_TIMER_BITS bits");
	end
	if (CREDIT_BITS < 16 && (BUF_DEPTH >> CREDIT_BITS) != 0) begin : g_chk_credit
		$error("router parameter BUF_DEPTH does not fit the credit counts of CREDIT_BITS bits");
	end
	if (RT_ENTRIES < 1 || (RT_ENTRIES & (RT_ENTRIES - 1)) != 0) begin : g_chk_rt
		$error("router parameter RT_ENTRIES is not a power of two (the routing table is one RAM of 2 x RT_ENTRIES words)");
	end
	if (START_VC1_BITS % 32 != 0) begin : g_chk_svc1
		$error("router parameter START_VC1_BITS is not a multiple of 32 (the bitmap is written in 32-bit words)");
	end
	if (N_NET > `LOOM_RT_PORT_HOST && WIDE_PORTS == 0) begin : g_chk_wide
		$error("router parameter WIDE_PORTS: more than 15 network ports need wide routing entries (W0 bits 3:0 name at most 15 ports)");
	end
	if (8 * RT_ENTRIES + `LOOM_ROUTER_RT > (1 << `RTL_CFG_ADDR_BITS)) begin : g_chk_rtaddr
		$error("router parameter RT_ENTRIES: the routing table does not fit the configuration port's address space");
	end

	// ---- the INFO block ----
	logic [`RTL_CFG_ADDR_BITS-3:0] info_word;
	assign info_word = info_addr[`RTL_CFG_ADDR_BITS-1:2];
	logic unused_info;
	assign unused_info = ^info_addr[1:0];
`include "loom_router_info.vh"

	// ---- control registers ----
	// FP_TIMEOUT is kept as the limit the output units' timers compare
	// with, computed once as it is written: on (not 0) and FP_TIMEOUT - 1,
	// the timeout held at 2^FP_TIMER_BITS - 1 at most
	localparam integer TW = FP_TIMER_BITS;
	logic ctl;
	logic fp_on;
	logic [TW-1:0] fp_lim;
	logic [`RTL_CFG_ADDR_BITS-1:0] a;
	assign ctl = cfg_we && cfg_blk == 2'(`RTL_BLK_CTL);
	assign a = cfg_addr;
	function automatic [TW-1:0] fp_limit(input logic [31:0] t);
		if (TW < 32 && (t >> TW) != '0)
			fp_limit = {{(TW-1){1'b1}}, 1'b0};
		else
			fp_limit = TW'(t - 32'd1);
	endfunction
	always_ff @(posedge clk)
		if (rst) begin
			fp_on <= FP_TIMEOUT != 0;
			fp_lim <= fp_limit(32'(FP_TIMEOUT));
		end else if (ctl && 32'(a) == `RTL_CTL_FP_TIMEOUT) begin
			fp_on <= cfg_wdata != '0;
			fp_lim <= fp_limit(cfg_wdata);
		end

	logic [PORTS-1:0] up_we, dis_we;
	logic clear_dead;
	logic [PORTS*VCS-1:0] depth_we;
	always_comb begin
		integer p, v;
		clear_dead = ctl && 32'(a) == `RTL_CTL_CLEAR_DEAD;
		for (p = 0; p < PORTS; p = p + 1) begin
			up_we[p] = ctl && 32'(a) == `RTL_CTL_PORT_UP + 4 * p;
			dis_we[p] = ctl && 32'(a) == `RTL_CTL_PORT_DISABLE + 4 * p;
			for (v = 0; v < VCS; v = v + 1)
				depth_we[p*VCS+v] = ctl && 32'(a) == `RTL_CTL_OUT_DEPTH + 4 * (p * 8 + v);
		end
	end

	// IWA weights: router_set_arb_weight(unit, index, requester, pattern, weight)
	logic w_arb;
	logic [2:0] w_unit;
	logic [15:0] w_index;
	logic [6:0] w_req;
	logic w_pat;
	logic [7:0] w_weight;
	assign w_arb = ctl && 32'(a) >= `RTL_CTL_ARB_WEIGHT && 32'(a) < `RTL_CTL_MCAST &&
		       cfg_wdata[15:8] < 8'(`ARB_PATTERNS);
	assign w_index = 16'((32'(a) - `RTL_CTL_ARB_WEIGHT) >> 2);
	assign w_unit = cfg_wdata[`RTL_ARBW_UNIT_SHIFT +: 3];
	assign w_req = {1'b0, cfg_wdata[`RTL_ARBW_REQ_SHIFT +: 6]};
	assign w_pat = cfg_wdata[`RTL_ARBW_PATTERN_SHIFT];
	assign w_weight = cfg_wdata[7:0];

	// ---- tables and route computation ----
	logic [PORTS*16-1:0] rd_dst;
	logic [PORTS*32-1:0] rd_w0, rd_w1;
	logic [PORTS-1:0] rd_svc1;
	logic [`LOOM_MAX_PORTS*32-1:0] port_cfg;
	logic [PORTS*16-1:0] rd_dst_a, rd_dst_c;
	logic [PORTS*32-1:0] rd_w0_a, rd_w0_c;
	logic [PORTS-1:0] rd_svc1_a, rd_svc1_c;

	loom_route_table #(.PORTS(PORTS), .RT_ENTRIES(RT_ENTRIES), .START_VC1_BITS(START_VC1_BITS))
	u_tables (.clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_blk(cfg_blk), .cfg_addr(cfg_addr),
		  .cfg_wdata(cfg_wdata), .rd_dst(rd_dst), .rd_w0(rd_w0), .rd_w1(rd_w1),
		  .rd_start_vc1(rd_svc1), .rd_dst_a(rd_dst_a), .rd_w0_a(rd_w0_a),
		  .rd_start_vc1_a(rd_svc1_a), .rd_dst_c(rd_dst_c), .rd_w0_c(rd_w0_c),
		  .rd_start_vc1_c(rd_svc1_c), .port_cfg(port_cfg));

	logic [PORTS*18-1:0] mc_entry;
	if (MCAST != 0) begin : g_mcast
		loom_mcast_table #(.PORTS(PORTS), .MC_GROUPS(MC_GROUPS))
		u_mcast (.clk(clk), .rst(rst), .cfg_we(cfg_we), .cfg_blk(cfg_blk), .cfg_addr(cfg_addr),
			 .cfg_wdata(cfg_wdata), .rd_group(rd_dst), .rd_entry(mc_entry));
	end else begin : g_no_mcast
		assign mc_entry = '0;
	end

	// The LFSR that draws Valiant intermediates (router.c: r->lfsr): only
	// the host port draws, at most one head a cycle; it advances when the
	// host's head that drew is written into its buffer (g_lfsr below).
	logic [15:0] lfsr, lfsr_next;
	logic [PORTS-1:0] rc_draw, rc_rewrite;
	logic [PORTS*16-1:0] rc_rw_dst;
	logic [PORTS*8-1:0] rc_rw_flags;
	logic [PORTS*16-1:0] rc_ext;
	logic [PORTS*VCS*16-1:0] ext;
	logic [PORTS*VCS-1:0] va_ug_set, va_ug_val;
	logic [PORTS*VCS*4-1:0] va_ug_vc;
	logic [PORTS*FW-1:0] iu_data;
	assign lfsr_next = (lfsr >> 1) ^ (lfsr[0] ? 16'(`ROUTE_LFSR_TAPS) : 16'd0);

	// Valiant: the header as RC rewrote it goes into the buffer
	always_comb begin
		integer p;
		iu_data = in_data;
		for (p = 0; p < PORTS; p = p + 1)
			if (in_head[p] && rc_rewrite[p]) begin
				iu_data[p*FW + 8*`LOOM_PKT_OFF_DST_NODE +: 16] = rc_rw_dst[p*16 +: 16];
				iu_data[p*FW + 8*`LOOM_PKT_OFF_FLAGS +: 8] = rc_rw_flags[p*8 +: 8];
			end
	end

	// ---- per port signals ----
	logic [PORTS*32-1:0] rc_route;
	logic [PORTS-1:0] rc_fwd, rc_pat;
	logic [PORTS*8-1:0] rc_flits8;

	logic [PORTS*VCS*3-1:0] st, iu_out_vc;
	logic [PORTS*VCS-1:0] va_ready, sa_ready, row_ok, front_tail;
	logic [PORTS*VCS*PB-1:0] iu_out_port;
	logic [PORTS*VCS*32-1:0] rt;
	logic [PORTS*VCS*8-1:0] sent;
	logic [PORTS*FW-1:0] tk_data;
	logic [PORTS-1:0] tk_head, tk_tail, tk_pat, tk_nx_ok;
	logic [PORTS*32-1:0] tk_nx_route;
	logic [PORTS*2-1:0] tk_nx_omni;
	logic [PORTS-1:0] c_flit_in, c_pkt_in, c_malformed, c_drop_in;
	logic [PORTS*3-1:0] c_drop_in_reason;
	logic [PORTS*VCS-1:0] c_vc_stall, c_skip;
	logic [PORTS*VCS*16-1:0] c_vc_fill;

	logic [PORTS-1:0] sa_take, sa_chain;
	logic [PORTS*3-1:0] sa_vc;
	logic [PORTS-1:0] va_grant;
	logic [PORTS*3-1:0] va_vc, va_ovc;
	logic [PORTS*PB-1:0] va_port;
	logic [PORTS*VCS-1:0] va_drop;
	logic [PORTS*VCS*3-1:0] va_reason;
	logic [PORTS*COLS*VCS-1:0] row_ret;

	// output units
	logic [PORTS-1:0] usable, pipe_full;
	logic [PORTS*3-1:0] o_drop_reason;
	logic [PORTS*VCS-1:0] ov_owned, ov_wanted, va_owned;
	logic [PORTS*VCS*OWN-1:0] ov_owner, va_owner_view;
	logic [PORTS*VCS*16-1:0] ov_avail, ov_max, va_avail;
	logic [PORTS*VCS*8-1:0] ov_sent;
	logic [PORTS-1:0] st_valid, st_discard, st_head, st_tail;
	logic [PORTS*3-1:0] st_vc;
	logic [PORTS*FW-1:0] st_data;
	logic [PORTS*OW-1:0] m_src;
	logic [PORTS*16-1:0] m_take, m_give;
	logic [PORTS*VCS-1:0] m_waiting;
	logic [PORTS*VCS-1:0] waiting;
	logic [PORTS-1:0] c_flit_out, c_pkt_out, c_drop_out;
	logic [PORTS*3-1:0] c_drop_out_reason;
	logic [PORTS*4-1:0] c_credit_errors, c_stall;

	// switch allocator
	logic [PORTS-1:0] x_grant, x_release;
	logic [PORTS*PB-1:0] x_src;
	logic [PORTS*16-1:0] x_giveback, x_take;
	logic [PORTS*VCS-1:0] sa_waiting;
	logic [7:0] c_sa_conflicts;
	logic [PORTS*8-1:0] c_chain_det;

	// VC allocator
	logic [PORTS*VCS-1:0] va_x_own, va_wanted_set, va_waiting;
	logic [PORTS*VCS*OWN-1:0] va_x_owner;
	logic [PORTS*VCS*16-1:0] va_x_take;
	logic [15:0] c_va_conflicts;
	logic [PORTS*8-1:0] c_adaptive, c_va_det, c_det;

	genvar gp;
	for (gp = 0; gp < PORTS; gp = gp + 1) begin : g_port
		loom_route_compute #(.IN_PORT(gp), .PORTS(PORTS), .HOST_PORTS(HOST_PORTS),
				     .VCS(VCS), .VC_MODEL(VC_MODEL), .FLIT_BYTES(FLIT_BYTES),
				     .RT_ENTRIES(RT_ENTRIES), .WIDE_PORTS(WIDE_PORTS), .VALIANT(VALIANT),
				     .WAR(WAR), .UPROUTE(UPROUTE), .MCAST(MCAST), .BUF_DEPTH(BUF_DEPTH))
		u_rc (.hdr(in_data[gp*FW +: 64]), .in_vc(in_vc[gp*3 +: 3]),
		      .dst(rd_dst[gp*16 +: 16]), .w0(rd_w0[gp*32 +: 32]), .w1(rd_w1[gp*32 +: 32]),
		      .start_vc1(rd_svc1[gp]), .mc_entry(mc_entry[gp*18 +: 18]),
		      .dst_a(rd_dst_a[gp*16 +: 16]), .w0_a(rd_w0_a[gp*32 +: 32]),
		      .start_vc1_a(rd_svc1_a[gp]),
		      .dst_c(rd_dst_c[gp*16 +: 16]), .w0_c(rd_w0_c[gp*32 +: 32]),
		      .start_vc1_c(rd_svc1_c[gp]), .lfsr_next(lfsr_next), .draw(rc_draw[gp]),
		      .rewrite(rc_rewrite[gp]), .rw_dst(rc_rw_dst[gp*16 +: 16]),
		      .rw_flags(rc_rw_flags[gp*8 +: 8]), .ext(rc_ext[gp*16 +: 16]),
		      .port_cfg(port_cfg),
		      .route(rc_route[gp*32 +: 32]), .fwd(rc_fwd[gp]), .pat(rc_pat[gp]),
		      .flits8(rc_flits8[gp*8 +: 8]));

		loom_input_unit #(.PORTS(PORTS), .VCS(VCS), .VC_MODEL(VC_MODEL),
				  .FLIT_BYTES(FLIT_BYTES), .BUF_DEPTH(BUF_DEPTH), .LAT_BW(LAT_BW),
				  .LAT_RC(LAT_RC), .LAT_VA(LAT_VA), .ORG(ORG), .COLS(COLS),
				  .ROW_DEPTH(ROW_DEPTH), .LAT_ROW(LAT_ROW), .VALIANT(VALIANT),
				  .WAR(WAR), .UPROUTE(UPROUTE), .PORT(gp), .HOST_PORTS(HOST_PORTS),
				  .MCAST(MCAST))
		u_in (.clk(clk), .rst(rst),
		      .in_valid(in_valid[gp]), .in_head(in_head[gp]), .in_tail(in_tail[gp]),
		      .in_vc(in_vc[gp*3 +: 3]), .in_data(iu_data[gp*FW +: FW]),
		      .rc_route(rc_route[gp*32 +: 32]), .rc_fwd(rc_fwd[gp]), .rc_pat(rc_pat[gp]),
		      .rc_flits8(rc_flits8[gp*8 +: 8]), .rc_ext(rc_ext[gp*16 +: 16]),
		      .port_cfg(port_cfg),
		      .sa_take(sa_take[gp]), .sa_vc(sa_vc[gp*3 +: 3]), .sa_chain(sa_chain[gp]),
		      .va_grant(va_grant[gp]), .va_vc(va_vc[gp*3 +: 3]), .va_port(va_port[gp*PB +: PB]),
		      .va_ovc(va_ovc[gp*3 +: 3]), .va_drop(va_drop[gp*VCS +: VCS]),
		      .va_reason(va_reason[gp*VCS*3 +: VCS*3]),
		      .va_ug_set(va_ug_set[gp*VCS +: VCS]), .va_ug_val(va_ug_val[gp*VCS +: VCS]),
		      .va_ug_vc(va_ug_vc[gp*VCS*4 +: VCS*4]), .ext(ext[gp*VCS*16 +: VCS*16]),
		      .row_ret(row_ret[gp*COLS*VCS +: COLS*VCS]),
		      .st(st[gp*VCS*3 +: VCS*3]), .va_ready(va_ready[gp*VCS +: VCS]),
		      .sa_ready(sa_ready[gp*VCS +: VCS]), .row_ok(row_ok[gp*VCS +: VCS]),
		      .out_port(iu_out_port[gp*VCS*PB +: VCS*PB]), .out_vc(iu_out_vc[gp*VCS*3 +: VCS*3]),
		      .rt(rt[gp*VCS*32 +: VCS*32]), .sent(sent[gp*VCS*8 +: VCS*8]),
		      .front_tail(front_tail[gp*VCS +: VCS]),
		      .tk_data(tk_data[gp*FW +: FW]), .tk_head(tk_head[gp]), .tk_tail(tk_tail[gp]),
		      .tk_pat(tk_pat[gp]), .tk_nx_ok(tk_nx_ok[gp]),
		      .tk_nx_route(tk_nx_route[gp*32 +: 32]), .tk_nx_omni(tk_nx_omni[gp*2 +: 2]),
		      .in_credit(in_credit[gp*VCS*8 +: VCS*8]),
		      .drop_valid(drop_in_valid[gp]), .drop_reason(drop_in_reason[gp*3 +: 3]),
		      .drop_out_port(drop_in_out_port[gp*8 +: 8]), .drop_vc(drop_in_vc[gp*3 +: 3]),
		      .drop_bytes(drop_in_bytes[gp*7 +: 7]), .drop_hdr(drop_in_hdr[gp*HB +: HB]),
		      .sk_valid(drop_mc_valid[gp*VCS +: VCS]),
		      .sk_reason(drop_mc_reason[gp*VCS*3 +: VCS*3]),
		      .sk_out_port(drop_mc_out_port[gp*VCS*8 +: VCS*8]),
		      .sk_bytes(drop_mc_bytes[gp*VCS*7 +: VCS*7]),
		      .sk_hdr(drop_mc_hdr[gp*VCS*HB +: VCS*HB]), .c_skip(c_skip[gp*VCS +: VCS]),
		      .c_flit_in(c_flit_in[gp]), .c_pkt_in(c_pkt_in[gp]),
		      .c_malformed(c_malformed[gp]), .c_drop(c_drop_in[gp]),
		      .c_drop_reason(c_drop_in_reason[gp*3 +: 3]),
		      .c_stall(c_vc_stall[gp*VCS +: VCS]), .c_fill(c_vc_fill[gp*VCS*16 +: VCS*16]),
		      .dbg_state(dbg_state[gp*VCS*3 +: VCS*3]), .dbg_fill(dbg_fill[gp*VCS*16 +: VCS*16]));

		loom_output_unit #(.PORT(gp), .PORTS(PORTS), .HOST_PORTS(HOST_PORTS), .VCS(VCS),
				   .FLIT_BYTES(FLIT_BYTES), .BUF_DEPTH(BUF_DEPTH),
				   .WORMHOLE_VCS(WORMHOLE_VCS), .ORG(ORG), .PIPE_LAT(PIPE_LAT),
				   .FP_TIMER_BITS(FP_TIMER_BITS), .CREDIT_BITS(CREDIT_BITS))
		u_out (.clk(clk), .rst(rst),
		       .out_valid(out_valid[gp]), .out_head(out_head[gp]), .out_tail(out_tail[gp]),
		       .out_vc(out_vc[gp*3 +: 3]), .out_data(out_data[gp*FW +: FW]),
		       .out_ready(out_ready[gp]), .out_credit(out_credit[gp*VCS*8 +: VCS*8]),
		       .st_valid(st_valid[gp]), .st_discard(st_discard[gp]), .st_head(st_head[gp]),
		       .st_tail(st_tail[gp]), .st_vc(st_vc[gp*3 +: 3]), .st_data(st_data[gp*FW +: FW]),
		       .m_src(m_src[gp*OW +: OW]), .m_take(m_take[gp*16 +: 16]),
		       .m_give(m_give[gp*16 +: 16]),
		       .x_giveback(x_giveback[gp*16 +: 16]), .x_take(x_take[gp*16 +: 16]),
		       .x_release(x_release[gp]),
		       .va_own(va_x_own[gp*VCS +: VCS]), .va_owner(va_x_owner[gp*VCS*OWN +: VCS*OWN]),
		       .va_take(va_x_take[gp*VCS*16 +: VCS*16]),
		       .wanted_set(va_wanted_set[gp*VCS +: VCS]),
		       .waiting(waiting[gp*VCS +: VCS]),
		       .up_we(up_we[gp]), .up_val(cfg_wdata[0]), .dis_we(dis_we[gp]),
		       .dis_val(cfg_wdata[0]), .clear_dead(clear_dead), .fp_on(fp_on),
		       .fp_lim(fp_lim),
		       .depth_we(depth_we[gp*VCS +: VCS]), .depth_val(cfg_wdata[15:0]),
		       .usable(usable[gp]), .drop_reason(o_drop_reason[gp*3 +: 3]),
		       .pipe_full(pipe_full[gp]),
		       .ov_owned(ov_owned[gp*VCS +: VCS]), .ov_owner(ov_owner[gp*VCS*OWN +: VCS*OWN]),
		       .ov_avail(ov_avail[gp*VCS*16 +: VCS*16]), .ov_max(ov_max[gp*VCS*16 +: VCS*16]),
		       .ov_sent(ov_sent[gp*VCS*8 +: VCS*8]), .ov_wanted(ov_wanted[gp*VCS +: VCS]),
		       .va_owned(va_owned[gp*VCS +: VCS]),
		       .va_owner_view(va_owner_view[gp*VCS*OWN +: VCS*OWN]),
		       .va_avail(va_avail[gp*VCS*16 +: VCS*16]),
		       .dead(port_dead[gp]), .port_event(port_event[gp]),
		       .drop_valid(drop_out_valid[gp]), .drop_reason_out(drop_out_reason[gp*3 +: 3]),
		       .drop_vc(drop_out_vc[gp*3 +: 3]), .drop_bytes(drop_out_bytes[gp*7 +: 7]),
		       .drop_hdr(drop_out_hdr[gp*HB +: HB]),
		       .c_flit_out(c_flit_out[gp]), .c_pkt_out(c_pkt_out[gp]),
		       .c_drop(c_drop_out[gp]), .c_drop_reason(c_drop_out_reason[gp*3 +: 3]),
		       .c_credit_errors(c_credit_errors[gp*4 +: 4]), .c_stall(c_stall[gp*4 +: 4]));
	end

	// the Valiant draw of the host's head written at this edge
	if (HOST_PORTS != 0 && VALIANT != 0) begin : g_lfsr
		always_ff @(posedge clk)
			if (rst)
				lfsr <= 16'(`ROUTER_LFSR_RESET);
			else if (c_pkt_in[PORTS-1] && rc_draw[PORTS-1])
				lfsr <= lfsr_next;
	end else begin : g_no_lfsr
		assign lfsr = 16'(`ROUTER_LFSR_RESET);
	end
	logic unused_draw;
	assign unused_draw = ^rc_draw;

	// ---- switch allocation ----
	loom_sw_alloc #(.PORTS(PORTS), .VCS(VCS), .VC_MODEL(VC_MODEL), .ORG(ORG),
			.WORMHOLE_VCS(WORMHOLE_VCS), .ARB_SA_IN(ARB_SA_IN), .ARB_SA_OUT(ARB_SA_OUT),
			.IWA_BITS(IWA_BITS))
	u_sa (.clk(clk), .rst(rst), .st(st), .sa_ready(sa_ready), .row_ok(row_ok),
	      .out_port(iu_out_port), .out_vc(iu_out_vc), .rt(rt), .sent(sent),
	      .front_tail(front_tail), .tk_nx_ok(tk_nx_ok), .tk_nx_route(tk_nx_route),
	      .tk_nx_omni(tk_nx_omni),
	      .usable(usable), .pipe_full(pipe_full), .ov_avail(ov_avail), .ov_max(ov_max),
	      .ov_wanted(ov_wanted),
	      .take(sa_take), .take_vc(sa_vc), .chain(sa_chain),
	      .x_grant(x_grant), .x_src(x_src), .x_giveback(x_giveback), .x_take(x_take),
	      .x_release(x_release), .waiting(sa_waiting),
	      .c_conflicts(c_sa_conflicts), .c_chain_det(c_chain_det),
	      .wr_in_en(w_arb && 32'(w_unit) == `ROUTER_ARB_SA_IN && 32'(w_index) < PORTS),
	      .wr_out_en(w_arb && XBAR && 32'(w_unit) == `ROUTER_ARB_SA_OUT && 32'(w_index) < PORTS),
	      .wr_index(w_index), .wr_req(w_req), .wr_pat(w_pat), .wr_weight(w_weight));

	// ---- VC allocation ----
	loom_vc_alloc #(.PORTS(PORTS), .HOST_PORTS(HOST_PORTS), .VCS(VCS), .VC_MODEL(VC_MODEL),
			.ORG(ORG), .WORMHOLE_VCS(WORMHOLE_VCS), .ARB_VA_IN(ARB_VA_IN),
			.ARB_VA_OUT(ARB_VA_OUT), .IWA_BITS(IWA_BITS), .VALIANT(VALIANT),
			.WAR(WAR), .UPROUTE(UPROUTE))
	u_va (.clk(clk), .rst(rst), .va_ready(va_ready), .rt(rt), .ext(ext),
	      .ov_owned(va_owned), .ov_owner(va_owner_view), .ov_avail(va_avail), .ov_max(ov_max),
	      .usable(usable), .drop_reason(o_drop_reason),
	      .grant(va_grant), .grant_vc(va_vc), .grant_port(va_port), .grant_ovc(va_ovc),
	      .drop(va_drop), .reason(va_reason),
	      .ug_set(va_ug_set), .ug_val(va_ug_val), .ug_vc(va_ug_vc),
	      .x_own(va_x_own), .x_owner(va_x_owner), .x_take(va_x_take),
	      .wanted_set(va_wanted_set), .waiting(va_waiting),
	      .c_conflicts(c_va_conflicts), .c_adaptive(c_adaptive), .c_deterministic(c_va_det),
	      .wr_in_en(w_arb && 32'(w_unit) == `ROUTER_ARB_VA_IN && 32'(w_index) < PORTS),
	      .wr_out_en(w_arb && 32'(w_unit) == `ROUTER_ARB_VA_OUT && 32'(w_index) < PORTS * VCS),
	      .wr_index(w_index), .wr_req(w_req), .wr_pat(w_pat), .wr_weight(w_weight));

	always_comb begin
		integer p;
		for (p = 0; p < PORTS; p = p + 1)
			c_det[p*8 +: 8] = c_va_det[p*8 +: 8] + c_chain_det[p*8 +: 8];
	end

	// ---- the switch: row buses, tiles, column channels (TILED) or the crossbar ----
	logic [7:0] c_tile_conflicts;

	if (XBAR) begin : g_xbar
		always_comb begin
			integer o, p;
			for (o = 0; o < PORTS; o = o + 1) begin
				p = 32'(x_src[o*PB +: PB]);
				st_valid[o] = x_grant[o];
				st_discard[o] = x_grant[o] && !usable[o];
				st_head[o] = tk_head[p];
				st_tail[o] = tk_tail[p];
				st_vc[o*3 +: 3] = iu_out_vc[(p*VCS + 32'(sa_vc[p*3 +: 3]))*3 +: 3];
				st_data[o*FW +: FW] = tk_data[p*FW +: FW];
			end
		end
		assign m_src = '0;
		assign m_take = '0;
		assign m_give = '0;
		assign m_waiting = '0;
		assign row_ret = '0;
		assign c_tile_conflicts = '0;
		logic unused_x;
		// the owners the tiles read (the crossbar allocates on the allocator's view)
		assign unused_x = ^{row_ok, ov_sent, tk_pat, ov_owned, ov_owner};
	end else begin : g_tiles
		// row bus of input port p, column channel of subswitch g towards row ro
		logic [PORTS-1:0] rb_go;
		logic [PORTS*EW-1:0] rb_e;
		logic [COLS*VCS-1:0] t_row_ret [0:TILES-1];
		logic [ROWS-1:0] t_cc_valid [0:TILES-1];
		logic [ROWS*EW-1:0] t_cc_entry [0:TILES-1];
		logic [ROWS*VCS-1:0] t_col_ret_out [0:TILES-1];
		logic [ROWS*VCS-1:0] t_col_ret_in [0:TILES-1];
		logic [ROWS-1:0] t_cb_valid [0:TILES-1];
		logic [ROWS*EW-1:0] t_cb_entry [0:TILES-1];
		logic [COLS-1:0] t_rb_valid [0:TILES-1];
		logic [COLS*EW-1:0] t_rb_entry [0:TILES-1];
		logic [TILES-1:0] t_m_valid, t_m_discard;
		logic [EW-1:0] t_m_entry [0:TILES-1];
		logic [OW-1:0] t_m_src [0:TILES-1];
		logic [15:0] t_m_take [0:TILES-1];
		logic [15:0] t_m_give [0:TILES-1];
		logic [VCS-1:0] t_m_waiting [0:TILES-1];
		logic [7:0] t_conf [0:TILES-1];

		always_comb begin
			integer p, v;
			for (p = 0; p < PORTS; p = p + 1) begin
				v = 32'(sa_vc[p*3 +: 3]);
				rb_go[p] = sa_take[p] && 32'(st[(p*VCS+v)*3 +: 3]) == `IVC_ACTIVE;
				rb_e[p*EW +: EW] = {rt[(p*VCS+v)*32 + 25 +: 6], 3'(v),
						    iu_out_port[(p*VCS+v)*PB +: PB],
						    iu_out_vc[(p*VCS+v)*3 +: 3], tk_pat[p], tk_tail[p],
						    tk_head[p], tk_data[p*FW +: FW]};
			end
		end

		always_comb begin
			integer g, ri, co, ci, ro, p, v;
			for (g = 0; g < TILES; g = g + 1) begin
				ri = g / COLS;
				co = g % COLS;
				t_rb_valid[g] = '0;
				t_rb_entry[g] = '0;
				t_cb_valid[g] = '0;
				t_cb_entry[g] = '0;
				t_col_ret_in[g] = '0;
				for (ci = 0; ci < COLS; ci = ci + 1) begin
					p = ri * COLS + ci;
					if (p < PORTS) begin
						t_rb_valid[g][ci] = rb_go[p] &&
							grid_col(iu_out_port[(p*VCS + 32'(sa_vc[p*3 +: 3]))*PB +: PB]) == co;
						t_rb_entry[g][ci*EW +: EW] = rb_e[p*EW +: EW];
					end
				end
				for (ro = 0; ro < ROWS; ro = ro + 1) begin
					// subswitch (ro, co) sends down the column into this tile's buffers (ro, *)
					t_cb_valid[g][ro] = t_cc_valid[ro * COLS + co][ri];
					t_cb_entry[g][ro*EW +: EW] = t_cc_entry[ro * COLS + co][ri*EW +: EW];
					// this subswitch's credits for column buffers (ri, *) at tile (ro, co)
					for (v = 0; v < VCS; v = v + 1)
						t_col_ret_in[g][ro*VCS+v] = t_col_ret_out[ro * COLS + co][ri*VCS+v];
				end
			end
			for (p = 0; p < PORTS; p = p + 1) begin
				ri = p / COLS;
				ci = p % COLS;
				for (co = 0; co < COLS; co = co + 1)
					for (v = 0; v < VCS; v = v + 1)
						row_ret[(p*COLS + co)*VCS + v] = t_row_ret[ri * COLS + co][ci*VCS+v];
			end
		end

		genvar gt;
		for (gt = 0; gt < TILES; gt = gt + 1) begin : g_tile
			localparam integer TP = gt < PORTS ? gt : 0;
			loom_tile #(.ROW(gt / COLS), .COL(gt % COLS), .PORTS(PORTS), .VCS(VCS),
				    .FLIT_BYTES(FLIT_BYTES), .ROWS(ROWS), .COLS(COLS),
				    .ROW_DEPTH(ROW_DEPTH), .COL_DEPTH(COL_DEPTH), .LAT_SA(LAT_SA),
				    .LAT_ROW(LAT_ROW), .LAT_SUB(LAT_SUB), .LAT_COL(LAT_COL),
				    .WORMHOLE_VCS(WORMHOLE_VCS), .ARB_SA_OUT(ARB_SA_OUT), .ARB_OUT(ARB_OUT),
				    .IWA_BITS(IWA_BITS))
			u_tile (.clk(clk), .rst(rst),
				.rb_valid(t_rb_valid[gt]), .rb_entry(t_rb_entry[gt]),
				.row_ret(t_row_ret[gt]),
				.cc_valid(t_cc_valid[gt]), .cc_entry(t_cc_entry[gt]),
				.col_ret_in(t_col_ret_in[gt]),
				.cb_valid(t_cb_valid[gt]), .cb_entry(t_cb_entry[gt]),
				.col_ret_out(t_col_ret_out[gt]),
				.usable(usable[TP]), .pipe_full(pipe_full[TP]),
				.ov_owned(ov_owned[TP*VCS +: VCS]), .ov_owner(ov_owner[TP*VCS*OW +: VCS*OW]),
				.ov_avail(ov_avail[TP*VCS*16 +: VCS*16]), .ov_sent(ov_sent[TP*VCS*8 +: VCS*8]),
				.m_valid(t_m_valid[gt]), .m_discard(t_m_discard[gt]), .m_entry(t_m_entry[gt]),
				.m_src(t_m_src[gt]), .m_take(t_m_take[gt]), .m_give(t_m_give[gt]),
				.m_waiting(t_m_waiting[gt]),
				.c_conflicts(t_conf[gt]),
				.wr_sub_en(w_arb && 32'(w_unit) == `ROUTER_ARB_SA_OUT &&
					   32'(w_index) - gt * ROWS < ROWS),
				// the subswitch's row within the tile (w_index % ROWS where enabled)
				.wr_sub_ro(4'(32'(w_index) - gt * ROWS)),
				.wr_mux_en(w_arb && 32'(w_unit) == `ROUTER_ARB_OUT && 32'(w_index) == gt &&
					   gt < PORTS),
				.wr_req(w_req), .wr_pat(w_pat), .wr_weight(w_weight));
		end

		always_comb begin
			integer o, g;
			for (o = 0; o < PORTS; o = o + 1) begin
				st_valid[o] = t_m_valid[o];
				st_discard[o] = t_m_discard[o];
				st_head[o] = t_m_entry[o][FW];
				st_tail[o] = t_m_entry[o][FW + 1];
				st_vc[o*3 +: 3] = t_m_entry[o][FW + 3 +: 3];
				st_data[o*FW +: FW] = t_m_entry[o][FW-1:0];
				m_src[o*OW +: OW] = t_m_src[o];
				m_take[o*16 +: 16] = t_m_take[o];
				m_give[o*16 +: 16] = t_m_give[o];
				m_waiting[o*VCS +: VCS] = t_m_waiting[o];
			end
			c_tile_conflicts = '0;
			for (g = 0; g < TILES; g = g + 1)
				c_tile_conflicts = c_tile_conflicts + t_conf[g];
		end
		logic unused_t;
		assign unused_t = ^{x_grant, x_src, x_giveback, x_take, x_release, ov_wanted, ov_max};
	end

	assign waiting = m_waiting | sa_waiting | va_waiting;

	// ---- counters ----
	loom_router_counters #(.PORTS(PORTS), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH),
			       .VC_COUNTERS(VC_COUNTERS)) u_cnt (
		.clk(clk), .rst(rst),
		.flit_in(c_flit_in), .flit_out(c_flit_out), .pkt_in(c_pkt_in), .pkt_out(c_pkt_out),
		.malformed(c_malformed), .credit_errors(c_credit_errors), .adaptive(c_adaptive),
		.deterministic(c_det), .stall(c_stall),
		.drop_in(c_drop_in), .drop_in_reason(c_drop_in_reason),
		.drop_out(c_drop_out), .drop_out_reason(c_drop_out_reason),
		.drop_mc(c_skip), .drop_mc_reason(va_reason),
		.va_conflicts(c_va_conflicts), .sa_conflicts(16'(c_sa_conflicts) + 16'(c_tile_conflicts)),
		.vc_stall(c_vc_stall), .vc_starved(waiting), .vc_fill(c_vc_fill),
		.cnt_port(cnt_port), .cnt_glob(cnt_glob), .cnt_vc(cnt_vc), .vc_last(vc_last));
endmodule
