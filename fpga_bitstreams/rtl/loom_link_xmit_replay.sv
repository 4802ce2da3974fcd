// SPDX-License-Identifier: GPL-2.0
//
// The go-back-N replay buffer's frames: the C model's x->replay slots
// (link/link_xmit.c, link_xmit_data()).  A DATA frame carries either a
// replay (resend: the packet kept in the slot of its sequence number) or
// the transmit queue's head packet, which is written into the slot of its
// new sequence number at the edge the frame starts (wr).  Slot numbers
// are the go-back-N sender's (loom_gbn_tx take_slot: gbn_tx_slot() of the
// frame taken).  A slot keeps the packet's VC, its length (header and
// payload bytes) and its bytes; which slots hold frames not yet
// acknowledged is the sender's window (base .. next), not the slots'.
//
// pkt_* (combinational): the packet the DATA frame of this cycle carries,
// the slot's for a replay, the queue head's otherwise; bytes beyond its
// length are whatever the slot or the head holds there.
`include "loom_hw.vh"

module loom_link_xmit_replay #(
	parameter integer REPLAY_FRAMES = `LINK_REPLAY_FRAMES_DEFAULT,
	// derived: a packet's bytes at most, the bits of a slot number
	parameter integer BODY_MAX = `LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD,
	parameter integer SW = $clog2(REPLAY_FRAMES > 1 ? REPLAY_FRAMES : 2)
) (
	input  logic clk,
	// the frame of this cycle: a replay of slot, or the head packet
	input  logic resend,
	input  logic [SW-1:0] slot,
	// the head packet starts as a new DATA frame at this edge: kept in slot
	input  logic wr,
	input  logic [2:0] head_vc,
	input  logic [15:0] head_len,
	input  logic [8*BODY_MAX-1:0] head_data,
	output logic [2:0] pkt_vc,
	output logic [15:0] pkt_len,
	output logic [8*BODY_MAX-1:0] pkt_data
);
	if (REPLAY_FRAMES < `LINK_REPLAY_FRAMES_MIN || REPLAY_FRAMES > `LINK_REPLAY_FRAMES_MAX)
	begin : g_bad_window
		$error("link parameter REPLAY_FRAMES is outside LINK_REPLAY_FRAMES_MIN .. LINK_REPLAY_FRAMES_MAX (link_params.h)");
	end
	if (BODY_MAX != `LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD ||
	    SW != $clog2(REPLAY_FRAMES > 1 ? REPLAY_FRAMES : 2)) begin : g_bad_derived
		$error("BODY_MAX and SW are derived: do not set them");
	end

	// the slots: no reset (the sender's window says which hold frames)
	logic [2:0] s_vc [REPLAY_FRAMES];
	logic [15:0] s_len [REPLAY_FRAMES];
	logic [8*BODY_MAX-1:0] s_data [REPLAY_FRAMES];
	logic [SW-1:0] wr_at;

`ifdef LOOM_MUTATE_LINK_REPLAY
	// deliberately wrong (the harness's mutation check): the packet kept one slot off
	assign wr_at = 32'(slot) + 1 == REPLAY_FRAMES ? '0 : slot + 1'b1;
`else
	assign wr_at = slot;
`endif

	always_ff @(posedge clk)
		if (wr) begin
			s_vc[wr_at] <= head_vc;
			s_len[wr_at] <= head_len;
			s_data[wr_at] <= head_data;
		end

	assign pkt_vc = resend ? s_vc[slot] : head_vc;
	assign pkt_len = resend ? s_len[slot] : head_len;
	assign pkt_data = resend ? s_data[slot] : head_data;
endmodule
