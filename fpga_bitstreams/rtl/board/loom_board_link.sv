// SPDX-License-Identifier: GPL-2.0
//
// A network port of the board top on I/O pins: the router's flits
// serialised LINK_BITS bits a clock cycle, and credits one per pulse.
// Both ends run on the same clock (a bring-up link: the two ports of one
// board looped by wires, or two boards sharing a clock).
//
// Transmit: a flit that leaves the router's output port is sent as the
// word {data, vc[2:0], tail, head}, LINK_BITS bits a cycle from its low
// bits, BEATS cycles with tx_frame high; the next flit may follow at
// once.  Receive: the same, rx_frame and rx_d registered at the pins; a
// frame that ends before BEATS cycles is dropped and raises rx_err for
// one cycle.  Credits: each cycle cr_in[v] is high gives the router's
// output one credit of VC v; the credits the router's input returns
// (in_credit) leave on cr_out[v], one a cycle per VC.
module loom_board_link #(
	parameter integer FLIT_BYTES = 8,
	parameter integer VCS = 2,
	parameter integer LINK_BITS = 2
) (
	input  logic clk,
	input  logic rst,
	// the router's output port
	input  logic o_valid,
	input  logic o_head,
	input  logic o_tail,
	input  logic [2:0] o_vc,
	input  logic [FW-1:0] o_data,
	output logic o_ready,
	output logic [VCS*8-1:0] o_credit,
	// the router's input port
	output logic i_valid,
	output logic i_head,
	output logic i_tail,
	output logic [2:0] i_vc,
	output logic [FW-1:0] i_data,
	input  logic [VCS*8-1:0] i_credit,
	// pins
	output logic tx_frame,
	output logic [LINK_BITS-1:0] tx_d,
	input  logic [VCS-1:0] cr_in,
	input  logic rx_frame,
	input  logic [LINK_BITS-1:0] rx_d,
	output logic [VCS-1:0] cr_out,
	output logic rx_err
);
	localparam integer FW = 8 * FLIT_BYTES;
	localparam integer WW = FW + 5;
	localparam integer BEATS = (WW + LINK_BITS - 1) / LINK_BITS;
	localparam integer SW = BEATS * LINK_BITS;
	localparam integer BW = $clog2(BEATS + 1);

	if (LINK_BITS < 1 || LINK_BITS > WW) begin : g_chk_bits
		$error("link parameter LINK_BITS is not within 1 .. the flit word's width");
	end

	// ---- transmit ----
	// The router's output holds a flit from its out_valid until the next
	// one leaves, and none leaves while o_ready is low: the beats are
	// taken from that word where it stands (a multiplexer, not a shifter).
	logic [SW-1:0] tx_word;
	logic [BW-1:0] tx_left;	// beats after the one on the pins
	logic [BW-1:0] tx_beat;	// the beat on the pins
	assign tx_word = SW'({o_data, o_vc, o_tail, o_head});
	// ready high in cycle t: a flit may come in t + 1 (chan.h); the
	// word may change once its last beat is on the pins
	assign o_ready = !o_valid && (!tx_frame || tx_left == '0);

	always_ff @(posedge clk) begin
		if (rst) begin
			tx_frame <= 1'b0;
			tx_d <= '0;
			tx_left <= '0;
			tx_beat <= '0;
		end else if (o_valid) begin
			tx_frame <= 1'b1;
			tx_d <= tx_word[LINK_BITS-1:0];
			tx_left <= BW'(BEATS - 1);
			tx_beat <= '0;
		end else if (tx_left != '0) begin
			tx_d <= tx_word[(32'(tx_beat) + 1) * LINK_BITS +: LINK_BITS];
			tx_left <= tx_left - 1'b1;
			tx_beat <= tx_beat + 1'b1;
		end else begin
			tx_frame <= 1'b0;
		end
	end

	// credits from the far end
	logic [VCS-1:0] cr_in_q;
	always_ff @(posedge clk)
		if (rst)
			cr_in_q <= '0;
		else
			cr_in_q <= cr_in;
	always_comb begin
		integer v;
		for (v = 0; v < VCS; v = v + 1)
			o_credit[v*8 +: 8] = {7'd0, cr_in_q[v]};
	end

	// ---- receive ----
	// the last beat completes the word: it goes to the router's input in
	// the same cycle, from the shifter and that beat's register
	logic rx_frame_q;
	logic [LINK_BITS-1:0] rx_d_q;
	logic [SW-1:0] rx_sr;
	logic [BW-1:0] rx_n;	// beats received of the current frame
	logic [SW-1:0] rx_word;
	assign rx_word = {rx_d_q, rx_sr[SW-1:LINK_BITS]};
	assign i_valid = rx_frame_q && 32'(rx_n) == BEATS - 1;
	assign {i_data, i_vc, i_tail, i_head} = rx_word[WW-1:0];

	always_ff @(posedge clk) begin
		if (rst) begin
			rx_frame_q <= 1'b0;
			rx_d_q <= '0;
			rx_sr <= '0;
			rx_n <= '0;
			rx_err <= 1'b0;
		end else begin
			rx_frame_q <= rx_frame;
			rx_d_q <= rx_d;
			rx_err <= 1'b0;
			if (rx_frame_q) begin
				rx_sr <= rx_word;
				if (32'(rx_n) == BEATS - 1)
					rx_n <= '0;
				else
					rx_n <= rx_n + 1'b1;
			end else if (rx_n != '0) begin
				rx_n <= '0;
				rx_err <= 1'b1;
			end
		end
	end

	logic unused;	// the first beat's place in the shifter; the padding of the last beat
	assign unused = ^{rx_sr[LINK_BITS-1:0], rx_word};

	// ---- credits to the far end ----
	logic [7:0] owed [0:VCS-1];
	always_ff @(posedge clk) begin
		integer v;
		if (rst) begin
			for (v = 0; v < VCS; v = v + 1)
				owed[v] <= '0;
			cr_out <= '0;
		end else begin
			for (v = 0; v < VCS; v = v + 1) begin
				cr_out[v] <= owed[v] != 8'd0;
				owed[v] <= owed[v] + i_credit[v*8 +: 8] - 8'(owed[v] != 8'd0);
			end
		end
	end
endmodule
