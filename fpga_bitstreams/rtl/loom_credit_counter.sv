// SPDX-License-Identifier: GPL-2.0
//
// Credit counter of an internal buffer (router/credit.h): the sender's
// count of free slots in a row or column buffer.  A flit sent takes one
// credit (take); a flit leaving the buffer returns one (ret), which comes
// back through RET_LAT - 1 pipeline registers and is added at the edge, so
// it is usable RET_LAT cycles after the flit left (the C model's credit
// line).  A return beyond DEPTH is refused, as credit_give() refuses it.
module loom_credit_counter #(
	parameter integer DEPTH = 1,
	parameter integer RET_LAT = 1
) (
	input  logic clk,
	input  logic rst,
	input  logic take,
	input  logic ret,
	output logic has
);
	localparam integer CW = $clog2(DEPTH + 1);

	logic [CW-1:0] avail;
	logic back;

	if (RET_LAT > 2) begin : g_line
		logic [RET_LAT-2:0] line;

		always_ff @(posedge clk)
			if (rst)
				line <= '0;
			else
				line <= {line[RET_LAT-3:0], ret};
		assign back = line[RET_LAT-2];
	end else if (RET_LAT == 2) begin : g_reg
		logic line;

		always_ff @(posedge clk)
			if (rst)
				line <= 1'b0;
			else
				line <= ret;
		assign back = line;
	end else begin : g_now
		assign back = ret;
	end

	logic [CW:0] after_take;
	assign after_take = {1'b0, avail} - (CW+1)'(take);

`ifdef LOOM_MUTATE_CREDIT
`define LOOM_MUTATION "credit"
`include "loom_mutation.vh"
`endif

	always_ff @(posedge clk) begin
		if (rst)
			avail <= CW'(DEPTH);
`ifdef LOOM_MUTATE_CREDIT
		// deliberately wrong: accepts one return beyond DEPTH (mutation check)
		else if (back && 32'(after_take) < DEPTH + (mutate ? 1 : 0))
`else
		else if (back && 32'(after_take) < DEPTH)
`endif
			avail <= after_take[CW-1:0] + 1'b1;
		else
			avail <= after_take[CW-1:0];
	end

	assign has = avail != '0;
endmodule
