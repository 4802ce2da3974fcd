// SPDX-License-Identifier: GPL-2.0
//
// Arbiter: picks one of N requesters, with the policies of the C model's
// arbiter unit (router/arbiter.[ch]), selected by KIND:
//
//   ARB_RR      round robin.  Register: ptr (the requester with priority).
//   ARB_MATRIX  matrix arbiter (least recently granted wins): col[i] bit j
//               set means j beats i; reset: lower index wins.
//   ARB_T3E     round robin, and the winner keeps the grant while the
//               caller says it holds (its packet streams on).  Registers:
//               ptr, held.
//   ARB_IWA     Anton 2's inverse-weighted arbiter: accum[i] (M_BITS + 1
//               bits), weight[i][pattern] (M_BITS bits, reset 1), ptr for
//               round robin within a priority level; priority of i = NOT
//               accum[i][M_BITS].
//
// The pick is combinational (registers only); upd is the clock edge after
// a grant to upd_idx (upd_pat: that requester's pattern, upd_hold: T3E
// keeps it).  wr_* writes an IWA weight register (router_set_arb_weight).
`include "loom_hw.vh"

module loom_arbiter #(
	parameter integer KIND = `ARB_RR,
	parameter integer N = 2,
	parameter integer M_BITS = 5
) (
	input  logic clk,
	input  logic rst,
	input  logic [N-1:0] req,
	output logic gnt_valid,
	output logic [IW-1:0] gnt_idx,
	input  logic upd,
	input  logic [IW-1:0] upd_idx,
	input  logic upd_pat,
	input  logic upd_hold,
	input  logic wr_en,
	input  logic [6:0] wr_idx,
	input  logic wr_pat,
	input  logic [7:0] wr_weight
);
	localparam integer IW = N > 1 ? $clog2(N) : 1;
	localparam integer AW = M_BITS + 1;

	logic [IW-1:0] ptr;

	// lowest requester at or after p, else the lowest one
	function automatic [IW:0] rr_pick(input logic [N-1:0] r, input logic [IW-1:0] p);
		integer k;
		logic found_hi, found;
		begin
			rr_pick = '0;
			found_hi = 1'b0;
			found = 1'b0;
			for (k = 0; k < N; k = k + 1)
				if (!found_hi && r[k] && k >= p) begin
					rr_pick = {1'b1, IW'(k)};
					found_hi = 1'b1;
				end
			if (!found_hi)
				for (k = 0; k < N; k = k + 1)
					if (!found && r[k]) begin
						rr_pick = {1'b1, IW'(k)};
						found = 1'b1;
					end
		end
	endfunction

	function automatic [IW-1:0] next_ptr(input logic [IW-1:0] w);
		begin
			next_ptr = (32'(w) + 1 >= N) ? '0 : w + 1'b1;
		end
	endfunction

	logic [IW:0] pick;

	if (KIND == `ARB_MATRIX) begin : g_matrix
		logic [N-1:0] col [0:N-1];

		always_comb begin
			integer i;
			logic done;
			pick = '0;
			done = 1'b0;
			for (i = 0; i < N; i = i + 1)
				if (!done && req[i] && (col[i] & req) == '0) begin
					pick = {1'b1, IW'(i)};
					done = 1'b1;
				end
		end
		always_ff @(posedge clk) begin
			integer i;
			if (rst) begin
				for (i = 0; i < N; i = i + 1)
					col[i] <= N'((64'd1 << i) - 64'd1);
			end else if (upd) begin
				for (i = 0; i < N; i = i + 1)
					if (32'(upd_idx) == i)
						col[i] <= ~(N'(1) << upd_idx);
					else
						col[i] <= col[i] & ~(N'(1) << upd_idx);
			end
		end
		// the matrix is the whole state: no round-robin pointer
		always_ff @(posedge clk)
			ptr <= '0;
		logic unused_ptr;
		assign unused_ptr = ^ptr;
	end else if (KIND == `ARB_T3E) begin : g_t3e
		logic held_valid;
		logic [IW-1:0] held;

		always_comb begin
			if (held_valid && req[held])
				pick = {1'b1, held};
			else
				pick = rr_pick(req, ptr);
		end
		always_ff @(posedge clk) begin
			if (rst) begin
				held_valid <= 1'b0;
				held <= '0;
				ptr <= '0;
			end else if (upd) begin
				if (upd_hold) begin
					held_valid <= 1'b1;
					held <= upd_idx;
				end else begin
					held_valid <= 1'b0;
					ptr <= next_ptr(upd_idx);
				end
			end
		end
	end else if (KIND == `ARB_IWA) begin : g_iwa
		logic [AW-1:0] accum [0:N-1];
		logic [M_BITS-1:0] weight [0:N-1][0:1];
		logic [N-1:0] hi;
		logic low_grant;

		assign low_grant = accum[upd_idx][M_BITS];
		always_comb begin
			integer i;
			for (i = 0; i < N; i = i + 1)
				hi[i] = req[i] && !accum[i][M_BITS];
			pick = rr_pick(hi != '0 ? hi : req, ptr);
		end
		always_ff @(posedge clk) begin
			integer i;
			if (rst) begin
				ptr <= '0;
				for (i = 0; i < N; i = i + 1) begin
					accum[i] <= '0;
					weight[i][0] <= M_BITS'(1);
					weight[i][1] <= M_BITS'(1);
				end
			end else begin
				if (upd) begin
					for (i = 0; i < N; i = i + 1)
						if (32'(upd_idx) == i)
							accum[i] <= {1'b0, accum[i][M_BITS-1:0]} +
								    AW'(weight[i][upd_pat]);
						else if (low_grant)
							accum[i] <= accum[i][M_BITS] ?
								    {1'b0, accum[i][M_BITS-1:0]} : '0;
					ptr <= next_ptr(upd_idx);
				end
				if (wr_en && 32'(wr_idx) < N)
					weight[IW'(wr_idx)][wr_pat] <= wr_weight[M_BITS-1:0];
			end
		end
	end else begin : g_rr
`ifdef LOOM_MUTATE_ARBITER
`define LOOM_MUTATION "arbiter"
`include "loom_mutation.vh"
`endif
		always_comb
			pick = rr_pick(req, ptr);
		always_ff @(posedge clk) begin
			if (rst)
				ptr <= '0;
			else if (upd)
`ifdef LOOM_MUTATE_ARBITER
				// deliberately wrong: the winner keeps priority (mutation check)
				ptr <= mutate ? upd_idx : next_ptr(upd_idx);
`else
				ptr <= next_ptr(upd_idx);
`endif
		end
	end

	assign gnt_valid = pick[IW];
	assign gnt_idx = pick[IW-1:0];

	// the requester field of the weight port, the pattern of a non-IWA update
	logic unused;
	assign unused = ^{wr_en, wr_idx, wr_pat, wr_weight, upd_pat, upd_hold};
endmodule
