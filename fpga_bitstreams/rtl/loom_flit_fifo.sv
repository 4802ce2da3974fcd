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
//
// Two forms, the same at the ports.  A FIFO of at most SHIFT_MAX slots
// shifts: the front is always slot 0, a pop moves every slot one down and
// a push writes behind the flits that stay, so front and second are
// registers with no multiplexer behind them, and each slot's next value is
// one multiplexer in front of its register (on the iCE40 the LUT and its
// flip-flop share a logic cell).  A deeper one is a ring of slots with a
// read pointer, each push written in place (a shift would copy every slot
// at every pop).  Slots beyond count hold stale flits in either form;
// nothing reads them.
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

	localparam integer SHIFT_MAX = 4;

	always_ff @(posedge clk) begin
		if (rst) begin
			count <= '0;
			hist <= '0;
		end else begin
			count <= count + CW'(push) - CW'(pop);
			hist <= hist_next;
		end
	end

	logic [WIDTH-1:0] mem [0:DEPTH-1];

	if (DEPTH <= SHIFT_MAX) begin : g_shift
		// slot i holds the flit i places behind the front
		logic [CW-1:0] wpos;	// where a push goes: behind the flits that stay
		assign wpos = count - CW'(pop);
		assign front = mem[0];
		assign second = mem[DEPTH > 1 ? 1 : 0];
		// each peek offset modulo DEPTH: an offset < 2 * DEPTH (its CW bits)
		genvar gk;
		for (gk = 0; gk < PEEKS; gk = gk + 1) begin : g_peek
			logic [CW-1:0] off;
			assign off = peek_off[gk*CW +: CW];
			assign peek[gk*WIDTH +: WIDTH] = mem[32'(off) >= DEPTH ? 32'(off) - DEPTH : 32'(off)];
		end

		always_ff @(posedge clk) begin
			integer i;
			for (i = 0; i < DEPTH; i = i + 1)
				if (push && 32'(wpos) == i)
					mem[i] <= push_data;
				else if (pop && i + 1 < DEPTH)
					mem[i] <= mem[i + 1 < DEPTH ? i + 1 : i];
		end
	end else begin : g_ring
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
			assign peek[gk*WIDTH +: WIDTH] =
				mem[wrap({1'b0, head} + (AW+1)'(peek_off[gk*CW +: CW]))];
		end

		always_ff @(posedge clk) begin
			if (rst)
				head <= '0;
			else if (pop)
				head <= head1;
		end

		always_ff @(posedge clk)
			if (push)
				mem[tail] <= push_data;
	end

	logic [HIST-1:0] hist_next;
	if (HIST > 1) begin : g_hist
		assign hist_next = {hist[HIST-2:0], push};
	end else begin : g_hist1
		assign hist_next = push;
	end

endmodule
