// SPDX-License-Identifier: GPL-2.0
//
// The router's performance counters (router.h: struct router_counters,
// struct router_port_counters and struct router_vc_counters), 64 bits
// each, counting from reset.  Per port, in this order: flits_in,
// flits_out, pkts_in, pkts_out, malformed, credit_errors, adaptive,
// deterministic, credit_stall_cycles.  Global: cycles,
// drops[ROUTE_DROP_REASONS], va_conflicts, sa_conflicts.
//
// Per (port, VC), with VC_COUNTERS 1, in this order: stall_cycles (the
// input VC stalled at this edge: vc_stall, loom_input_unit),
// credit_starved_cycles (the output VC's packet waited only for credits:
// vc_starved, the output unit's waiting), fill_max (the most of the input
// buffer's fills after each edge: vc_fill).  vc_last holds what the last
// edge counted, per (port, VC) two bits: stalled, starved; whoever skips
// clock cycles counts them as that edge (router.h: a skipped cycle
// counts as the edge it stands for).  With VC_COUNTERS 0 there are none of
// these registers and cnt_vc and vc_last read 0.
`include "loom_hw.vh"

module loom_router_counters #(
	parameter integer PORTS = 1,
	parameter integer VCS = 1,
	parameter integer BUF_DEPTH = 1,
	parameter integer VC_COUNTERS = 1
) (
	input  logic clk,
	input  logic rst,
	input  logic [PORTS-1:0] flit_in,
	input  logic [PORTS-1:0] flit_out,
	input  logic [PORTS-1:0] pkt_in,
	input  logic [PORTS-1:0] pkt_out,
	input  logic [PORTS-1:0] malformed,
	input  logic [PORTS*4-1:0] credit_errors,
	input  logic [PORTS*8-1:0] adaptive,
	input  logic [PORTS*8-1:0] deterministic,
	input  logic [PORTS*4-1:0] stall,
	input  logic [PORTS-1:0] drop_in,
	input  logic [PORTS*3-1:0] drop_in_reason,
	input  logic [PORTS-1:0] drop_out,
	input  logic [PORTS*3-1:0] drop_out_reason,
	input  logic [PORTS*VCS-1:0] drop_mc,		// multicast copies skipped
	input  logic [PORTS*VCS*3-1:0] drop_mc_reason,
	input  logic [15:0] va_conflicts,
	input  logic [15:0] sa_conflicts,
	input  logic [PORTS*VCS-1:0] vc_stall,
	input  logic [PORTS*VCS-1:0] vc_starved,
	input  logic [PORTS*VCS*16-1:0] vc_fill,
	output logic [PORTS*PC*64-1:0] cnt_port,
	output logic [GC*64-1:0] cnt_glob,
	output logic [PORTS*VCS*VC*64-1:0] cnt_vc,
	output logic [PORTS*VCS*2-1:0] vc_last
);
	localparam integer PC = 9;
	localparam integer GC = 3 + `ROUTE_DROP_REASONS;
	localparam integer VC = 3;
	localparam integer FW = $clog2(BUF_DEPTH + 1);

	logic [63:0] pc [0:PORTS*PC-1];
	logic [63:0] gc [0:GC-1];

	always_comb begin
		integer i;
		for (i = 0; i < PORTS * PC; i = i + 1)
			cnt_port[i*64 +: 64] = pc[i];
		for (i = 0; i < GC; i = i + 1)
			cnt_glob[i*64 +: 64] = gc[i];
	end

	logic [63:0] drops_add [0:`ROUTE_DROP_REASONS-1];
	always_comb begin
		integer p, r;
		for (r = 0; r < `ROUTE_DROP_REASONS; r = r + 1)
			drops_add[r] = '0;
		for (p = 0; p < PORTS; p = p + 1) begin
			if (drop_in[p])
				drops_add[32'(drop_in_reason[p*3 +: 3]) < `ROUTE_DROP_REASONS ?
					  32'(drop_in_reason[p*3 +: 3]) : `ROUTE_DROP_MALFORMED] =
				drops_add[32'(drop_in_reason[p*3 +: 3]) < `ROUTE_DROP_REASONS ?
					  32'(drop_in_reason[p*3 +: 3]) : `ROUTE_DROP_MALFORMED] + 64'd1;
			if (drop_out[p])
				drops_add[32'(drop_out_reason[p*3 +: 3]) < `ROUTE_DROP_REASONS ?
					  32'(drop_out_reason[p*3 +: 3]) : `ROUTE_DROP_MALFORMED] =
				drops_add[32'(drop_out_reason[p*3 +: 3]) < `ROUTE_DROP_REASONS ?
					  32'(drop_out_reason[p*3 +: 3]) : `ROUTE_DROP_MALFORMED] + 64'd1;
		end
		for (p = 0; p < PORTS * VCS; p = p + 1)
			if (drop_mc[p])
				drops_add[32'(drop_mc_reason[p*3 +: 3]) < `ROUTE_DROP_REASONS ?
					  32'(drop_mc_reason[p*3 +: 3]) : `ROUTE_DROP_MALFORMED] =
				drops_add[32'(drop_mc_reason[p*3 +: 3]) < `ROUTE_DROP_REASONS ?
					  32'(drop_mc_reason[p*3 +: 3]) : `ROUTE_DROP_MALFORMED] + 64'd1;
	end

	genvar gp, gi;
	for (gp = 0; gp < PORTS; gp = gp + 1) begin : g_port
		logic [63:0] add [0:PC-1];
		assign add[0] = 64'(flit_in[gp]);
		assign add[1] = 64'(flit_out[gp]);
		assign add[2] = 64'(pkt_in[gp]);
		assign add[3] = 64'(pkt_out[gp]);
		assign add[4] = 64'(malformed[gp]);
		assign add[5] = 64'(credit_errors[gp*4 +: 4]);
		assign add[6] = 64'(adaptive[gp*8 +: 8]);
		assign add[7] = 64'(deterministic[gp*8 +: 8]);
		assign add[8] = 64'(stall[gp*4 +: 4]);
		for (gi = 0; gi < PC; gi = gi + 1) begin : g_cnt
			always_ff @(posedge clk)
				if (rst)
					pc[gp*PC + gi] <= '0;
				else
					pc[gp*PC + gi] <= pc[gp*PC + gi] + add[gi];
		end
	end

	logic [63:0] gadd [0:GC-1];
	always_comb begin
		integer r;
		gadd[0] = 64'd1;
		for (r = 0; r < `ROUTE_DROP_REASONS; r = r + 1)
			gadd[1 + r] = drops_add[r];
		gadd[1 + `ROUTE_DROP_REASONS] = 64'(va_conflicts);
		gadd[2 + `ROUTE_DROP_REASONS] = 64'(sa_conflicts);
	end
	for (gi = 0; gi < GC; gi = gi + 1) begin : g_glob
		always_ff @(posedge clk)
			if (rst)
				gc[gi] <= '0;
			else
				gc[gi] <= gc[gi] + gadd[gi];
	end

	// ---- per (port, VC) ----
	if (VC_COUNTERS != 0) begin : g_vc
		genvar gk;
		for (gk = 0; gk < PORTS * VCS; gk = gk + 1) begin : g_cnt
			logic [63:0] stall_cycles, starved_cycles;
			logic [FW-1:0] fill_max, fill;
			logic last_stall, last_starved;
			assign fill = FW'(vc_fill[gk*16 +: 16]);
			always_ff @(posedge clk)
				if (rst) begin
					stall_cycles <= '0;
					starved_cycles <= '0;
					fill_max <= '0;
					last_stall <= 1'b0;
					last_starved <= 1'b0;
				end else begin
					stall_cycles <= stall_cycles + 64'(vc_stall[gk]);
					starved_cycles <= starved_cycles + 64'(vc_starved[gk]);
					if (fill > fill_max)
						fill_max <= fill;
					last_stall <= vc_stall[gk];
					last_starved <= vc_starved[gk];
				end
			assign cnt_vc[(gk*VC + 0)*64 +: 64] = stall_cycles;
			assign cnt_vc[(gk*VC + 1)*64 +: 64] = starved_cycles;
			assign cnt_vc[(gk*VC + 2)*64 +: 64] = 64'(fill_max);
			assign vc_last[gk*2 +: 2] = {last_starved, last_stall};
			if (FW < 16) begin : g_unused
				logic unused_fill;
				assign unused_fill = ^vc_fill[gk*16 + FW +: 16 - FW];
			end
		end
	end else begin : g_no_vc
		assign cnt_vc = '0;
		assign vc_last = '0;
		logic unused_vc;
		assign unused_vc = ^{vc_stall, vc_starved, vc_fill};
	end
endmodule
