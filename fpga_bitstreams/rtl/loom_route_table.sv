// SPDX-License-Identifier: GPL-2.0
//
// The router's tables (router/route.h: struct route_view), as registers
// the configuration port writes: the routing table (two words per entry,
// as the card's ROUTER block has them at LOOM_ROUTER_RT), the VCT block's
// PORT_CFG words (one per port of LOOM_MAX_PORTS, reset: no dimension)
// and its START_VC1 bitmap.  Each input port has its own read port (the
// YARC way: a table per tile), read combinationally by the route
// computation of the head flit arriving on it: read port B (rd_*) the
// whole entry at the packet's destination, read ports A and C (rd_*_a,
// rd_*_c) word 0 and the START_VC1 bit at the Valiant intermediate and at
// the drawn or final destination (loom_route_compute), each in a block of
// its own (C's address depends on what B reads).  A write in cycle t is in
// place from cycle t + 1 on: the model reads its tables at the edge, and
// the harness writes them between edges.
`include "loom_hw.vh"

module loom_route_table #(
	parameter integer PORTS = 1,
	parameter integer RT_ENTRIES = 16,
	parameter integer START_VC1_BITS = 32
) (
	input  logic clk,
	input  logic rst,
	input  logic cfg_we,
	input  logic [1:0] cfg_blk,
	input  logic [`RTL_CFG_ADDR_BITS-1:0] cfg_addr,
	input  logic [31:0] cfg_wdata,
	input  logic [PORTS*16-1:0] rd_dst,
	output logic [PORTS*32-1:0] rd_w0,
	output logic [PORTS*32-1:0] rd_w1,
	output logic [PORTS-1:0] rd_start_vc1,
	input  logic [PORTS*16-1:0] rd_dst_a,
	output logic [PORTS*32-1:0] rd_w0_a,
	output logic [PORTS-1:0] rd_start_vc1_a,
	input  logic [PORTS*16-1:0] rd_dst_c,
	output logic [PORTS*32-1:0] rd_w0_c,
	output logic [PORTS-1:0] rd_start_vc1_c,
	output logic [`LOOM_MAX_PORTS*32-1:0] port_cfg
);
	localparam integer SW = (START_VC1_BITS + 31) / 32;
	localparam integer RTW = $clog2(2 * RT_ENTRIES);
	localparam integer SWW = SW > 1 ? $clog2(SW) : 1;

	logic [31:0] rt [0:2*RT_ENTRIES-1];
	logic [31:0] svc1 [0:SW-1];
	logic [31:0] pcfg [0:`LOOM_MAX_PORTS-1];

	logic [`RTL_CFG_ADDR_BITS-1:0] rt_off, pc_off, sv_off;
	assign rt_off = cfg_addr - `RTL_CFG_ADDR_BITS'(`LOOM_ROUTER_RT);
	assign pc_off = cfg_addr - `RTL_CFG_ADDR_BITS'(`LOOM_VCT_PORT_CFG);
	assign sv_off = cfg_addr - `RTL_CFG_ADDR_BITS'(`LOOM_VCT_START_VC1);

	always_ff @(posedge clk) begin
		if (cfg_we && cfg_blk == 2'(`RTL_BLK_ROUTER) && cfg_addr >= `RTL_CFG_ADDR_BITS'(`LOOM_ROUTER_RT) &&
		    32'(rt_off) < 8 * RT_ENTRIES && rt_off[1:0] == 2'b00)
			rt[RTW'(rt_off[`RTL_CFG_ADDR_BITS-1:2])] <= cfg_wdata;
	end

	always_ff @(posedge clk) begin
		integer i;
		if (rst) begin
			for (i = 0; i < `LOOM_MAX_PORTS; i = i + 1)
				pcfg[i] <= 32'(`LOOM_VCT_PORT_DIM_NONE);
			for (i = 0; i < SW; i = i + 1)
				svc1[i] <= '0;
		end else if (cfg_we && cfg_blk == 2'(`RTL_BLK_VCT) && cfg_addr[1:0] == 2'b00) begin
			if (cfg_addr >= `RTL_CFG_ADDR_BITS'(`LOOM_VCT_PORT_CFG) && 32'(pc_off) < 4 * `LOOM_MAX_PORTS)
				pcfg[pc_off[4:2]] <= cfg_wdata;
			if (cfg_addr >= `RTL_CFG_ADDR_BITS'(`LOOM_VCT_START_VC1) && 32'(sv_off) < 4 * SW)
				svc1[SWW'(sv_off[`RTL_CFG_ADDR_BITS-1:2])] <= cfg_wdata;
		end
	end

	always_comb begin
		integer p, i;
		logic [15:0] d;
		for (p = 0; p < PORTS; p = p + 1) begin
			d = rd_dst[p*16 +: 16];
			if (32'(d) < RT_ENTRIES) begin
				rd_w0[p*32 +: 32] = rt[2 * 32'(d)];
				rd_w1[p*32 +: 32] = rt[2 * 32'(d) + 1];
			end else begin
				rd_w0[p*32 +: 32] = '0;
				rd_w1[p*32 +: 32] = '0;
			end
			rd_start_vc1[p] = 32'(d) < START_VC1_BITS ? svc1[32'(d) / 32][d[4:0]] : 1'b0;
		end
		for (i = 0; i < `LOOM_MAX_PORTS; i = i + 1)
			port_cfg[i*32 +: 32] = pcfg[i];
	end

	// word 0 and the START_VC1 bit of entry d
	function automatic [32:0] rd_w0_svc1(input logic [15:0] d);
		rd_w0_svc1[32:1] = 32'(d) < RT_ENTRIES ? rt[2 * 32'(d)] : '0;
		rd_w0_svc1[0] = 32'(d) < START_VC1_BITS ? svc1[32'(d) / 32][d[4:0]] : 1'b0;
	endfunction

	always_comb begin
		integer p;
		for (p = 0; p < PORTS; p = p + 1)
			{rd_w0_a[p*32 +: 32], rd_start_vc1_a[p]} = rd_w0_svc1(rd_dst_a[p*16 +: 16]);
	end

	always_comb begin
		integer p;
		for (p = 0; p < PORTS; p = p + 1)
			{rd_w0_c[p*32 +: 32], rd_start_vc1_c[p]} = rd_w0_svc1(rd_dst_c[p*16 +: 16]);
	end
endmodule
