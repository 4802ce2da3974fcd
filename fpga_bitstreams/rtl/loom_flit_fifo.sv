// SPDX-License-Identifier: GPL-2.0
//
// Flit FIFO: the buffer unit of the router (input buffers, row buffers,
// column buffers, the output stage), as router/fifo.h has it: DEPTH slots
// of WIDTH bits (sideband and flit), a read pointer and a fill count.
//
// A write at the edge ending cycle t through a stage of latency L makes
// the flit visible from cycle t + L: the L pipeline registers in front of
// the buffer.  Writes are in order, so the flits not yet visible are the
// newest ones, and the FIFO keeps the write history of the last HIST edges
// (hist[i]: a flit was written at the edge ending cycle now - 1 - i).  The
// front flit has been in the FIFO for at least A cycles exactly when
// count exceeds the writes of the last A - 1 edges: the users compare
// count with the population of hist[A-2:0] (loom_fifo_age_ge).  At most
// one write and one read per edge; push and pop are sampled together
// (a pop frees the slot a push may take in the same edge).  peek holds
// PEEKS flits, each the one its field of peek_off places behind the front
// (a multicast copy reads its flits in place, and a skipped copy's header
// is read from the flits the buffer holds: loom_input_unit).
`include "loom_hw.vh"

module loom_flit_fifo #(
	parameter integer DEPTH = 4,
	parameter integer WIDTH = 8,
	parameter integer HIST = 1,
	parameter integer PEEKS = 1
) (
	input  logic clk,
	input  logic rst,
	input  logic push,
	input  logic [WIDTH-1:0] push_data,
	input  logic pop,
	output logic [WIDTH-1:0] front,
	output logic [WIDTH-1:0] second,
	input  logic [PEEKS*CW-1:0] peek_off,
	output logic [PEEKS*WIDTH-1:0] peek,
	output logic [CW-1:0] count,
	output logic [HIST-1:0] hist
);
	localparam integer CW = $clog2(DEPTH + 1);
	localparam integer AW = DEPTH > 1 ? $clog2(DEPTH) : 1;

	logic [WIDTH-1:0] mem [0:DEPTH-1];
	logic [AW-1:0] head;

	function automatic [AW-1:0] wrap(input logic [AW:0] i);
		begin
			wrap = (32'(i) >= DEPTH) ? AW'(32'(i) - DEPTH) : i[AW-1:0];
		end
	endfunction

	logic [AW-1:0] head1, tail;
	assign head1 = wrap({1'b0, head} + 1'b1);
	assign tail = wrap({1'b0, head} + (AW+1)'(count));
	assign front = mem[head];
	assign second = mem[head1];
	genvar gk;
	for (gk = 0; gk < PEEKS; gk = gk + 1) begin : g_peek
		assign peek[gk*WIDTH +: WIDTH] = mem[wrap({1'b0, head} + (AW+1)'(peek_off[gk*CW +: CW]))];
	end

	always_ff @(posedge clk) begin
		if (rst) begin
			head <= '0;
			count <= '0;
			hist <= '0;
		end else begin
			if (pop)
				head <= head1;
			count <= count + CW'(push) - CW'(pop);
			hist <= hist_next;
		end
	end

	logic [HIST-1:0] hist_next;
	if (HIST > 1) begin : g_hist
		assign hist_next = {hist[HIST-2:0], push};
	end else begin : g_hist1
		assign hist_next = push;
	end

	always_ff @(posedge clk)
		if (push)
			mem[tail] <= push_data;
endmodule
