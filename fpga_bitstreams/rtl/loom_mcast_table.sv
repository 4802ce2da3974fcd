// SPDX-License-Identifier: GPL-2.0
//
// The router's multicast group table (router/route.h: route_view.mc, the
// card's MCAST block): word 0 of each of MC_GROUPS groups, as registers
// the configuration port writes at RTL_CTL_MCAST + LOOM_MCAST_ENTRY_SIZE *
// group (RTL_BLK_CTL).  The router reads only what route_mcast reads:
// VALID, HOST and the network ports (LOOM_MCAST_W0_*); word 1 (the host
// context and member count) is the host port's, and a write to it is
// ignored here.  Reset: every group invalid, as mcast_reset() leaves them.
// Each input port has its own read port (rd_group: the head's dst_node),
// read combinationally by its route computation; a write in cycle t is in
// place from cycle t + 1 on, as the tables of loom_route_table.
`include "loom_hw.vh"

module loom_mcast_table #(
	parameter integer PORTS = 1,
	parameter integer MC_GROUPS = 16
) (
	input  logic clk,
	input  logic rst,
	input  logic cfg_we,
	input  logic [1:0] cfg_blk,
	input  logic [`RTL_CFG_ADDR_BITS-1:0] cfg_addr,
	input  logic [31:0] cfg_wdata,
	input  logic [PORTS*16-1:0] rd_group,
	output logic [PORTS*18-1:0] rd_entry	// {VALID, HOST, ports[15:0]}
);
	localparam integer GW = MC_GROUPS > 1 ? $clog2(MC_GROUPS) : 1;
	localparam integer ESH = $clog2(`LOOM_MCAST_ENTRY_SIZE);

	logic [17:0] grp [0:MC_GROUPS-1];

	logic [`RTL_CFG_ADDR_BITS-1:0] off;
	assign off = cfg_addr - `RTL_CFG_ADDR_BITS'(`RTL_CTL_MCAST);
	logic unused_wdata;
	assign unused_wdata = ^cfg_wdata[29:16];

	always_ff @(posedge clk) begin
		integer g;
		if (rst) begin
			for (g = 0; g < MC_GROUPS; g = g + 1)
				grp[g] <= '0;
		end else if (cfg_we && cfg_blk == 2'(`RTL_BLK_CTL) &&
			     cfg_addr >= `RTL_CFG_ADDR_BITS'(`RTL_CTL_MCAST) &&
			     32'(off) < `LOOM_MCAST_ENTRY_SIZE * MC_GROUPS &&
			     off[ESH-1:0] == '0) begin
			grp[GW'(32'(off) >> ESH)] <= {|(cfg_wdata & `LOOM_MCAST_W0_VALID),
						      |(cfg_wdata & `LOOM_MCAST_W0_HOST),
						      16'(cfg_wdata & `LOOM_MCAST_W0_PORTS_MASK)};
		end
	end

	always_comb begin
		integer p;
		logic [15:0] g;
		for (p = 0; p < PORTS; p = p + 1) begin
			g = rd_group[p*16 +: 16];
			rd_entry[p*18 +: 18] = 32'(g) < MC_GROUPS ? grp[GW'(g)] : '0;
		end
	end
endmodule
