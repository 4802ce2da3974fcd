// SPDX-License-Identifier: GPL-2.0
//
// Go-back-N sender (link/gbn.c, struct gbn_tx): the replay window's
// sequence numbers and the ack timer, cycle by cycle.  In one cycle: the
// carrier's edge (flush, link_xmit_reset: alone, the registers take their
// values after reset), or in the order the link unit calls them: an
// acknowledgement or a NAK from the
// receive half (ack_valid, ack_nak, ack_value), the ack timer (timer), and
// a frame taken for the lanes (take, only when take_ok).  Each result is
// combinational in the cycle of its inputs; the state moves at the edge.
//
// Registers: base (oldest unacknowledged), next (the next new frame),
// resend (the next frame for the lanes, base .. next), base_slot (the
// replay slot of base) and the ack timer as the cycles left to its
// deadline (timer_left, 0: due) while it runs (timer_run).  The C model's
// deadline is an absolute cycle: deadline - now is timer_left.  An
// acknowledgement, a NAK and the timer arm it at the current cycle
// (ACK_TIMEOUT cycles left), a take at the cycle the frame starts on the
// lanes, the next one (ACK_TIMEOUT + 1), as link_xmit.c does.  Sequence
// numbers are 32 bits and wrap; FIRST is the number after reset (the
// link starts at 0).
`include "loom_hw.vh"

module loom_gbn_tx #(
	parameter integer REPLAY_FRAMES = `LINK_REPLAY_FRAMES_DEFAULT,
	parameter integer ACK_TIMEOUT = `LINK_ACK_TIMEOUT_DEFAULT,
	parameter logic [31:0] FIRST = 32'd0
) (
	input  logic clk,
	input  logic rst,
	// the carrier's edge, alone: the state after reset
	input  logic flush,
	// the acknowledgement (ack_nak 0) or NAK (1) of a received frame
	input  logic ack_valid,
	input  logic ack_nak,
	input  logic [31:0] ack_value,
	output logic [31:0] ack_freed,		// frames the acknowledgement freed
	output logic nak_rewound,		// the NAK rewound: frames to resend
	// the ack timer
	input  logic timer,
	output logic timer_fired,		// it rewound
	// a frame for the lanes: a replay if one is due, else a new one
	output logic take_ok,			// a replay is due or there is room
	input  logic take,
	output logic take_resend,
	output logic [31:0] take_seq,
	output logic [$clog2(REPLAY_FRAMES > 1 ? REPLAY_FRAMES : 2)-1:0] take_slot,
	// the registers
	output logic [31:0] base,
	output logic [31:0] next,
	output logic [31:0] resend,
	output logic [$clog2(REPLAY_FRAMES > 1 ? REPLAY_FRAMES : 2)-1:0] base_slot,
	output logic timer_run,
	output logic [31:0] timer_left,
	// views: frames held, room for a new one, a replay due
	output logic [31:0] held,
	output logic room,
	output logic resend_due
);
	localparam integer SW = $clog2(REPLAY_FRAMES > 1 ? REPLAY_FRAMES : 2);
	localparam integer TW = $clog2(ACK_TIMEOUT + 2);

	if (REPLAY_FRAMES < `LINK_REPLAY_FRAMES_MIN || REPLAY_FRAMES > `LINK_REPLAY_FRAMES_MAX)
	begin : g_bad_window
		$error("link parameter REPLAY_FRAMES is outside LINK_REPLAY_FRAMES_MIN .. LINK_REPLAY_FRAMES_MAX (link_params.h)");
	end
	if (ACK_TIMEOUT < `LINK_ACK_TIMEOUT_MIN || ACK_TIMEOUT > `LINK_ACK_TIMEOUT_MAX)
	begin : g_bad_timeout
		$error("link parameter ACK_TIMEOUT is outside LINK_ACK_TIMEOUT_MIN .. LINK_ACK_TIMEOUT_MAX (link_params.h)");
	end

	logic [31:0] r_base, r_next, r_resend;
	logic [SW-1:0] r_slot;
	logic r_run;
	logic [TW-1:0] r_left;

	// slot + n modulo the window, for slot < window and n <= window
	function automatic [SW-1:0] wrap(input logic [SW-1:0] slot, input logic [31:0] n);
		logic [32:0] s;
		begin
			s = {1'b0, 32'(slot)} + {1'b0, n};
			wrap = s >= 33'(REPLAY_FRAMES) ? SW'(s - 33'(REPLAY_FRAMES)) : SW'(s);
		end
	endfunction

	// the state through the cycle's steps: after the acknowledgement (1),
	// the timer (2), the take (3)
	logic [31:0] b1, r1, b2, r2, n3, r3;
	logic [SW-1:0] s1;
	logic run1, run2, run3;
	logic [TW-1:0] left1, left2, left3;
	logic [31:0] freed, off;
	logic in_window, ack_applies;

	always_comb begin
		// 1: acknowledge up to ack_value (an ACK, or the first half of a NAK)
		freed = ack_value + 32'd1 - r_base;
		in_window = freed <= r_next - r_base;
`ifdef LOOM_MUTATE_GBN
		// deliberately wrong (the harness's mutation check): one frame past the last sent
		in_window = freed <= r_next - r_base + 32'd1;
`endif
		ack_applies = ack_valid && in_window && freed != 32'd0;
		b1 = r_base;
		r1 = r_resend;
		s1 = r_slot;
		run1 = r_run;
		left1 = r_left;
		ack_freed = 32'd0;
		nak_rewound = 1'b0;
		if (ack_applies) begin
			if (r_resend - r_base < freed)
				r1 = ack_value + 32'd1;
			b1 = ack_value + 32'd1;
			s1 = wrap(r_slot, freed);
			if (r1 == b1 && r_next == b1) begin
				run1 = 1'b0;
			end else begin
				run1 = 1'b1;
				left1 = TW'(ACK_TIMEOUT);
			end
			if (!ack_nak)
				ack_freed = freed;
		end
		// ... a NAK then goes back to the first unacknowledged frame
		if (ack_valid && ack_nak && in_window && r1 != b1) begin
			r1 = b1;
			run1 = 1'b1;
			left1 = TW'(ACK_TIMEOUT);
			nak_rewound = 1'b1;
		end

		// 2: the ack timer, due when it runs and its deadline has come
		b2 = b1;
		r2 = r1;
		run2 = run1;
		left2 = left1;
		timer_fired = 1'b0;
		if (timer && run1 && left1 == '0) begin
			if (r_next == b1) begin
				run2 = 1'b0;
			end else if (r1 == b1) begin
				left2 = TW'(ACK_TIMEOUT);
			end else begin
				r2 = b1;
				left2 = TW'(ACK_TIMEOUT);
				timer_fired = 1'b1;
			end
		end

		// 3: the frame for the lanes, starting next cycle
		take_resend = r2 != r_next;
		take_ok = take_resend || r_next - b2 < 32'(REPLAY_FRAMES);
		take_seq = r2;
		off = r2 - b2;
		take_slot = wrap(s1, off);
		n3 = r_next;
		r3 = r2;
		run3 = run2;
		left3 = left2;
		if (take) begin
			if (!take_resend)
				n3 = r_next + 32'd1;
			r3 = r2 + 32'd1;
			if (!run2) begin
				run3 = 1'b1;
				left3 = TW'(ACK_TIMEOUT + 1);
			end
		end
	end

	always_ff @(posedge clk)
		if (rst || flush) begin
			r_base <= FIRST;
			r_next <= FIRST;
			r_resend <= FIRST;
			r_slot <= '0;
			r_run <= 1'b0;
			r_left <= '0;
		end else begin
			r_base <= b2;
			r_next <= n3;
			r_resend <= r3;
			r_slot <= s1;
			r_run <= run3;
			// one cycle nearer the deadline; at 0 it stays due
			r_left <= left3 == '0 ? '0 : left3 - 1'b1;
		end

	assign base = r_base;
	assign next = r_next;
	assign resend = r_resend;
	assign base_slot = r_slot;
	assign timer_run = r_run;
	assign timer_left = 32'(r_left);
	assign held = r_next - r_base;
	assign room = r_next - r_base < 32'(REPLAY_FRAMES);
	assign resend_due = r_resend != r_next;
endmodule
