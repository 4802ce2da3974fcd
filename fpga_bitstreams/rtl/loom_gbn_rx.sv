// SPDX-License-Identifier: GPL-2.0
//
// Go-back-N receiver (link/gbn.c, struct gbn_rx): the next in-order
// sequence number and the NAK episode, cycle by cycle.  In one cycle: the
// carrier's edge (flush, link_recv_reset: alone, the registers take their
// values after reset), or in the order the link unit calls them: a DATA
// frame with a good CRC (data_valid, data_seq: its verdict is
// combinational) or a corrupt frame (error), the acknowledgement asked
// for again (rep: ack_due set, as link_recv_resend_status does), then the
// transmit half taking the acknowledgement (clr_ack) and the NAK
// (clr_nak) into a frame it starts.
//
// Registers: expected, in_recovery (a NAK was asked for; silent until
// expected arrives), last_seen and seen_valid (the last out-of-order
// number of this episode), nak_due and ack_due.  Sequence numbers are 32
// bits and wrap (comparisons modulo 2^32); FIRST is the number after
// reset (the link starts at 0).
`include "loom_hw.vh"

module loom_gbn_rx #(
	parameter logic [31:0] FIRST = 32'd0
) (
	input  logic clk,
	input  logic rst,
	input  logic flush,
	input  logic data_valid,
	input  logic [31:0] data_seq,
	output logic [1:0] verdict,		// 0 accept, 1 duplicate, 2 out of order
	input  logic error,
	input  logic rep,
	input  logic clr_ack,
	input  logic clr_nak,
	output logic [31:0] expected,
	output logic in_recovery,
	output logic seen_valid,
	output logic [31:0] last_seen,
	output logic nak_due,
	output logic ack_due,
	output logic [31:0] ack_value		// the acknowledgement: expected - 1
);
	localparam logic [1:0] ACCEPT = 2'd0, DUPLICATE = 2'd1, OUT_OF_ORDER = 2'd2;

	logic [31:0] r_exp, r_last;
	logic r_rec, r_seen, r_nak, r_ack;
	logic [31:0] e1, l1, d;
	logic rec1, seen1, nak1, ack1;

	always_comb begin
		d = data_seq - r_exp;
		e1 = r_exp;
		l1 = r_last;
		rec1 = r_rec;
		seen1 = r_seen;
		nak1 = r_nak;
		ack1 = r_ack;
		verdict = ACCEPT;
		if (data_valid) begin
			if (d == 32'd0) begin
				e1 = r_exp + 32'd1;
				rec1 = 1'b0;
				seen1 = 1'b0;
				nak1 = 1'b0;
				ack1 = 1'b1;
			end else if (d[31]) begin
				// the sender replays what we have: tell it where we are
				ack1 = 1'b1;
				verdict = DUPLICATE;
			end else begin
				verdict = OUT_OF_ORDER;
				// the replay lost the expected frame again: NAK again
				if (r_rec && r_seen && ($signed(data_seq - r_last) <= 0))
					nak1 = 1'b1;
				if (!r_rec) begin
					rec1 = 1'b1;
					nak1 = 1'b1;
				end
				seen1 = 1'b1;
				l1 = data_seq;
			end
		end else if (error && !r_rec) begin
			rec1 = 1'b1;
			seen1 = 1'b0;
			nak1 = 1'b1;
		end
		if (rep)
			ack1 = 1'b1;
		if (clr_ack)
			ack1 = 1'b0;
		if (clr_nak)
			nak1 = 1'b0;
	end

	always_ff @(posedge clk)
		if (rst || flush) begin
			r_exp <= FIRST;
			r_last <= 32'd0;
			r_rec <= 1'b0;
			r_seen <= 1'b0;
			r_nak <= 1'b0;
			r_ack <= 1'b0;
		end else begin
			r_exp <= e1;
			r_last <= l1;
			r_rec <= rec1;
			r_seen <= seen1;
			r_nak <= nak1;
			r_ack <= ack1;
		end

	assign expected = r_exp;
	assign in_recovery = r_rec;
	assign seen_valid = r_seen;
	assign last_seen = r_last;
	assign nak_due = r_nak;
	assign ack_due = r_ack;
	assign ack_value = r_exp - 32'd1;
endmodule
