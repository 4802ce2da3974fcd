// SPDX-License-Identifier: GPL-2.0
//
// The router's performance counters (router.h: struct router_counters and
// struct router_port_counters), 64 bits each, counting from reset.  Per
// port, in this order: flits_in, flits_out, pkts_in, pkts_out, malformed,
// credit_errors, adaptive, deterministic, credit_stall_cycles.  Global:
// cycles, drops[ROUTE_DROP_REASONS], va_conflicts, sa_conflicts.
`include "loom_hw.vh"

module loom_router_counters #(
	parameter integer PORTS = 1
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
	input  logic [15:0] va_conflicts,
	input  logic [15:0] sa_conflicts,
	output logic [PORTS*PC*64-1:0] cnt_port,
	output logic [GC*64-1:0] cnt_glob
);
	localparam integer PC = 9;
	localparam integer GC = 3 + `ROUTE_DROP_REASONS;

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
endmodule
