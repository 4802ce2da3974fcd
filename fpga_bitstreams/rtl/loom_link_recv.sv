// SPDX-License-Identifier: GPL-2.0
//
// The link receiver's frame checker: the C model's link_recv_frame() and
// what it calls (link/link_recv.c), with the lane flags and framing errors
// of link_recv_step() and the receive half's maintenance slot.  It takes
// the framer's result of the cycle (one a cycle: the link unit in RTL runs
// its framer at RX_FRAMES 1) and asks the other units for what the frame
// means:
//
//   lanes (loom_lanes)        the lanes the line decoder flagged (ln_flags),
//                             a framing error no lane was flagged for
//                             (ln_crc_err, charged by the expected sequence
//                             number), the peer's lane notice (ln_narrow)
//   go-back-N sender          the acknowledgement a header carries
//   (loom_gbn_tx)             (ack_valid, ack_value) or a NAK (ack_nak)
//   go-back-N receiver        a DATA frame's sequence number (data_valid,
//   (loom_gbn_rx)             data_seq) or an error (rx_error: a framing
//                             error while up, an ACK_CREDIT announcing
//                             frames that never came)
//   credit unit               grants from the peer, VC by VC (upd_valid,
//   (loom_link_credit)        upd_value: a header's one, an ACK_CREDIT's
//                             every VC's), a DATA frame accepted (acc_*), a
//                             repeat of every grant and acknowledgement (rep)
//   frame builder             a TRAIN due and answering, a poll's answer due,
//   (loom_link_xmit_build)    credits moved (progress); the link came up
//                             (came_up)
//   delivery queue            the DATA frame accepted (dlv_*)
//   (loom_link_recv_deliver)
//
// A frame is checked as the C model checks it: unknown flags or type; TRAIN
// (the peer's identity, the link coming up, the peer still training, lane
// notices), MAINT (into the slot), and while up DATA (the header's
// acknowledgement within the sender's window and its credit possible, then
// in sequence, its VC, its length and the packet's, the credit for it),
// ACK and NAK (no body), ACK_CREDIT (its length, no header credit, its
// sequence number not behind, every VC's grant possible and zero past
// VCS).  The checks read the other units' registers of the cycle (the
// sender's base and next, the receiver's expected, the credit unit's
// counts), each as the C unit's own function does.  Each frame and error
// counts as link_counters.h counts it (c_*, this edge).
`include "loom_hw.vh"

module loom_link_recv #(
	parameter integer VCS = `LINK_VCS_DEFAULT,
	parameter integer BUF_DEPTH = `LINK_BUF_DEPTH_DEFAULT,
	parameter integer FLIT_BYTES = `LINK_FLIT_BYTES_DEFAULT,
	// derived: a result's header and body, a body at most
	parameter integer FRAME_BYTES = `LOOM_FRAME_MAX - `LOOM_FRAME_CRC_SIZE,
	parameter integer BODY_MAX = `LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD
) (
	input  logic clk,
	input  logic rst,
	// the carrier changed at this edge (link_recv_reset: the lane flags and
	// lane_flagged are dropped)
	input  logic flush,
	// the link after the carrier's edge: training or up (neither: down)
	input  logic training,
	input  logic up,
	// lanes the line decoder flagged since the last edge (bit n: lane n)
	input  logic [`LINK_LANES_MAX-1:0] lane_flags,
	// the framer's result of this cycle: 1 frame, 2 .. 4 a framing error
	input  logic res_valid,
	input  logic [2:0] res_status,
	input  logic [8*FRAME_BYTES-1:0] res_frame,
	// the other units' registers in this cycle
	input  logic [31:0] tx_base,
	input  logic [31:0] tx_next,
	input  logic [31:0] rx_expected,
	input  logic [32*VCS-1:0] grant,
	input  logic [32*VCS-1:0] received,
	input  logic [32*VCS-1:0] granted,
	input  logic [32*VCS-1:0] sent,
	// the received maintenance frame was taken before this edge
	input  logic maint_pop,
	// the lanes
	output logic [`LINK_LANES_MAX-1:0] ln_flags,
	output logic ln_crc_err,
	output logic [31:0] ln_crc_seq,
	output logic ln_narrow,
	output logic [2:0] ln_narrow_n,
	// the go-back-N sender and receiver
	output logic ack_valid,
	output logic ack_nak,
	output logic [31:0] ack_value,
	output logic data_valid,
	output logic [31:0] data_seq,
	output logic rx_error,
	// the credit unit
	output logic [VCS-1:0] upd_valid,
	output logic [32*VCS-1:0] upd_value,
	output logic acc_valid,
	output logic [2:0] acc_vc,
	output logic [31:0] acc_flits,
	output logic rep,
	// the frame builder and the link
	output logic set_train_due,
	output logic set_train_answer,
	output logic set_poll_answer,
	output logic progress,
	output logic came_up,
	// the delivery queue
	output logic dlv_valid,
	output logic [2:0] dlv_vc,
	output logic [15:0] dlv_len,
	output logic [8*BODY_MAX-1:0] dlv_body,
	// counters of this edge: rx_bytes added, and one bit a counter
	// (C_* below: rx_frames .. trains)
	output logic [15:0] c_rx_bytes,
	output logic [15:0] c_events,
	// registers: the peer's identity, a lane flagged since the last good
	// frame, the received maintenance frame
	output logic [31:0] peer_node,
	output logic [31:0] peer_port,
	output logic lane_flagged,
	output logic maint_full,
	output logic [15:0] maint_len,
	output logic [8*BODY_MAX-1:0] maint_body
);
	localparam integer HDR = `LOOM_FRAME_HDR_SIZE;
	localparam integer CRB = `LOOM_FRAME_CREDITS_SIZE;
	localparam integer PH = `LOOM_PKT_HDR_SIZE;
	// c_events, bit by bit
	localparam integer C_RX_FRAMES = 0, C_CRC_ERRORS = 1, C_BAD_TYPE = 2, C_BAD_LENGTH = 3,
		C_BAD_ACK = 4, C_BAD_CREDIT = 5, C_NOT_UP_DROPS = 6, C_DUPLICATES = 7,
		C_SEQ_ERRORS = 8, C_BAD_VC = 9, C_CREDIT_OVERRUNS = 10, C_RX_PACKETS = 11,
		C_NAKS_RECEIVED = 12, C_POLLS_RECEIVED = 13, C_MAINT_LOST = 14, C_TRAINS = 15;
	localparam logic [7:0] FLAGS_KNOWN = 8'(`LOOM_FRAME_F_POLL | `LOOM_FRAME_F_TRAINED);

	if (VCS < `LINK_VCS_MIN || VCS > `LINK_VCS_MAX) begin : g_bad_vcs
		$error("link parameter VCS is outside LINK_VCS_MIN .. LINK_VCS_MAX (link_params.h)");
	end
	if (BUF_DEPTH < `LINK_BUF_DEPTH_MIN || BUF_DEPTH > `LINK_BUF_DEPTH_MAX) begin : g_bad_depth
		$error("link parameter BUF_DEPTH is outside LINK_BUF_DEPTH_MIN .. LINK_BUF_DEPTH_MAX (link_params.h)");
	end
	if (FLIT_BYTES < `LINK_FLIT_BYTES_MIN || FLIT_BYTES > `LINK_FLIT_BYTES_MAX ||
	    FLIT_BYTES % 8 != 0) begin : g_bad_fb
		$error("link parameter FLIT_BYTES is not a multiple of 8 in LINK_FLIT_BYTES_MIN .. LINK_FLIT_BYTES_MAX (link_params.h)");
	end
	if (FRAME_BYTES != `LOOM_FRAME_MAX - `LOOM_FRAME_CRC_SIZE ||
	    BODY_MAX != `LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD) begin : g_bad_derived
		$error("FRAME_BYTES and BODY_MAX are derived: do not set them");
	end
	if (CRB != 4 * `LOOM_NUM_VCS || VCS > `LOOM_NUM_VCS) begin : g_bad_credits
		$error("LOOM_FRAME_CREDITS_SIZE is not a grant of each of LOOM_NUM_VCS VCs");
	end

	// link_credit_valid(): a grant between the last one and the flits sent
	// plus the peer's buffer
	function automatic logic credit_valid(input integer vc, input logic [31:0] value);
		logic [31:0] g, s;
		g = granted[32*vc +: 32];
		s = sent[32*vc +: 32];
		credit_valid = value - g <= s + 32'(BUF_DEPTH) - g;
	endfunction

	logic [31:0] r_node, r_port;
	logic r_flagged, r_mfull;
	logic [15:0] r_mlen;
	logic [8*BODY_MAX-1:0] r_mbody;

	// the header
	logic [7:0] h_type, h_vc, h_cvc, h_flags;
	logic [15:0] h_len, p_len;
	logic [31:0] h_seq, h_ack, h_credit, ahead;
	logic [8*BODY_MAX-1:0] body;
	logic frame, ack_ok, room_ok, hdr_cvc, hdr_credit_ok, hdr_ok, body_ok, apply_hdr;
	logic [VCS-1:0] body_upd;
	logic flagged1, mfull1, store_maint, store_peer;
	logic [31:0] flits;

	// the header's fields, little endian (byte 0 in bits 7 .. 0), and the body
	assign h_type = res_frame[8*`LOOM_FRAME_OFF_TYPE +: 8];
	assign h_vc = res_frame[8*`LOOM_FRAME_OFF_VC +: 8];
	assign h_len = res_frame[8*`LOOM_FRAME_OFF_LEN +: 16];
	assign h_cvc = res_frame[8*`LOOM_FRAME_OFF_CREDIT_VC +: 8];
	assign h_flags = res_frame[8*`LOOM_FRAME_OFF_FLAGS +: 8];
	assign h_seq = res_frame[8*`LOOM_FRAME_OFF_SEQ +: 32];
	assign h_ack = res_frame[8*`LOOM_FRAME_OFF_ACK +: 32];
	assign h_credit = res_frame[8*`LOOM_FRAME_OFF_CREDIT +: 32];
	assign body = res_frame[8*HDR +: 8*BODY_MAX];
	assign p_len = body[8*`LOOM_PKT_OFF_LEN +: 16];
	assign flits = (32'(h_len) + FLIT_BYTES - 1) / FLIT_BYTES;
	// the delivery queue takes the body as the frame has it
	assign dlv_vc = h_vc[2:0];
	assign dlv_len = h_len;
	assign dlv_body = body;
	// the magic: the framer found it
	logic unused_magic;
	assign unused_magic = ^res_frame[8*`LOOM_FRAME_OFF_MAGIC +: 16];

	always_comb begin
		frame = res_valid && res_status == 3'd1;

		// gbn_tx_ack_in_window(): base - 1 .. next - 1
`ifdef LOOM_MUTATE_LINK_RECV
		// deliberately wrong (the harness's mutation check): the window one
		// frame off (base .. next: a repeated acknowledgement is refused, one
		// past the last frame sent taken)
		ack_ok = h_ack - tx_base <= tx_next - tx_base;
`else
		ack_ok = h_ack + 32'd1 - tx_base <= tx_next - tx_base;
`endif
		hdr_cvc = h_cvc != 8'(`LOOM_FRAME_NO_CREDIT);
		hdr_credit_ok = 1'b0;
		for (int v = 0; v < VCS; v++)
			if (32'(h_cvc) == v && credit_valid(v, h_credit))
				hdr_credit_ok = 1'b1;
		hdr_ok = ack_ok && (!hdr_cvc || hdr_credit_ok);
		// an ACK_CREDIT's grants: possible for each VC, zero past VCS
		body_ok = 1'b1;
		for (int v = 0; v < VCS; v++)
			if (!credit_valid(v, body[32*v +: 32]))
				body_ok = 1'b0;
		for (int v = VCS; v < `LOOM_NUM_VCS; v++)
			if (body[32*v +: 32] != 32'd0)
				body_ok = 1'b0;
		ahead = h_seq - rx_expected;
		// link_credit_may_accept() for the frame's VC
		room_ok = 1'b0;
		for (int v = 0; v < VCS; v++)
			if (32'(h_vc) == v && grant[32*v +: 32] - received[32*v +: 32] >= flits)
				room_ok = 1'b1;

		ln_flags = flush ? '0 : lane_flags;
		flagged1 = flush ? 1'b0 : r_flagged | (lane_flags != '0);
		mfull1 = r_mfull && !maint_pop;
		ln_crc_err = 1'b0;
		ln_crc_seq = rx_expected;
		ln_narrow = 1'b0;
		ln_narrow_n = h_vc[2:0];
		ack_valid = 1'b0;
		ack_nak = 1'b0;
		ack_value = h_ack;
		data_valid = 1'b0;
		data_seq = h_seq;
		rx_error = 1'b0;
		upd_valid = '0;
		upd_value = '0;
		acc_valid = 1'b0;
		acc_vc = h_vc[2:0];
		acc_flits = flits;
		rep = 1'b0;
		set_train_due = 1'b0;
		set_train_answer = 1'b0;
		set_poll_answer = 1'b0;
		came_up = 1'b0;
		dlv_valid = 1'b0;
		c_rx_bytes = '0;
		c_events = '0;
		store_maint = 1'b0;
		store_peer = 1'b0;
		apply_hdr = 1'b0;
		body_upd = '0;

		if (res_valid && !frame) begin
			// a framing error: charged to the lane the expected frame would
			// stripe to unless a lane was flagged; while up, a NAK
			c_events[C_CRC_ERRORS] = 1'b1;
			ln_crc_err = !flagged1;
			rx_error = up;
		end else if (frame) begin
			flagged1 = 1'b0;
			c_events[C_RX_FRAMES] = 1'b1;
			c_rx_bytes = 16'(HDR) + h_len + 16'(`LOOM_FRAME_CRC_SIZE);
			if ((h_flags & ~FLAGS_KNOWN) != 8'd0) begin
				c_events[C_BAD_TYPE] = 1'b1;
			end else if (h_type == 8'(`LOOM_FRAME_TRAIN)) begin
				if (!training && !up)
					c_events[C_NOT_UP_DROPS] = 1'b1;
				else if (h_len != 16'd0)
					c_events[C_BAD_LENGTH] = 1'b1;
				else if (h_vc != 8'd0) begin
					// lane notice: the peer's receiver dropped lanes
					if (h_vc > 8'(`LINK_LANES_MAX) || (h_vc & (h_vc - 8'd1)) != 8'd0)
						c_events[C_BAD_TYPE] = 1'b1;
					else if (!up)
						c_events[C_NOT_UP_DROPS] = 1'b1;
					else
						ln_narrow = 1'b1;
				end else begin
					store_peer = 1'b1;
					if (training) begin
						came_up = 1'b1;
						c_events[C_TRAINS] = 1'b1;
						set_poll_answer = 1'b1;
					end else if ((h_flags & 8'(`LOOM_FRAME_F_TRAINED)) == 8'd0) begin
						// the peer is still training: it missed our TRAIN
						set_train_due = 1'b1;
						set_train_answer = 1'b1;
						rep = 1'b1;
						set_poll_answer = 1'b1;
					end
				end
			end else if (h_type == 8'(`LOOM_FRAME_MAINT)) begin
				if (!up || mfull1)
					c_events[C_MAINT_LOST] = 1'b1;
				else
					store_maint = 1'b1;
			end else if (!up) begin
				c_events[C_NOT_UP_DROPS] = 1'b1;
			end else if (h_type == 8'(`LOOM_FRAME_DATA)) begin
				if (!ack_ok)
					c_events[C_BAD_ACK] = 1'b1;
				else if (!hdr_ok)
					c_events[C_BAD_CREDIT] = 1'b1;
				apply_hdr = hdr_ok;
				data_valid = 1'b1;
				if (ahead == 32'd0) begin
					if (h_vc >= 8'(VCS))
						c_events[C_BAD_VC] = 1'b1;
					else if (h_len < 16'(PH) || p_len != h_len - 16'(PH))
						c_events[C_BAD_LENGTH] = 1'b1;
					else if (!room_ok)
						c_events[C_CREDIT_OVERRUNS] = 1'b1;
					else begin
						acc_valid = 1'b1;
						dlv_valid = 1'b1;
						c_events[C_RX_PACKETS] = 1'b1;
					end
				end else if (ahead[31])
					c_events[C_DUPLICATES] = 1'b1;
				else
					c_events[C_SEQ_ERRORS] = 1'b1;
			end else if (h_type == 8'(`LOOM_FRAME_ACK) || h_type == 8'(`LOOM_FRAME_NAK)) begin
				if (h_len != 16'd0)
					c_events[C_BAD_LENGTH] = 1'b1;
				else if (!ack_ok)
					c_events[C_BAD_ACK] = 1'b1;
				else if (!hdr_ok)
					c_events[C_BAD_CREDIT] = 1'b1;
				else begin
					apply_hdr = 1'b1;
					if (h_type == 8'(`LOOM_FRAME_NAK)) begin
						ack_nak = 1'b1;
						c_events[C_NAKS_RECEIVED] = 1'b1;
						rep = 1'b1;
					end
				end
			end else if (h_type == 8'(`LOOM_FRAME_ACK_CREDIT)) begin
				if (h_len != 16'(CRB))
					c_events[C_BAD_LENGTH] = 1'b1;
				else if (hdr_cvc)
					c_events[C_BAD_CREDIT] = 1'b1;
				else if (!ack_ok || ahead[31])	// claims fewer frames than we received
					c_events[C_BAD_ACK] = 1'b1;
				else if (!body_ok)
					c_events[C_BAD_CREDIT] = 1'b1;
				else begin
					apply_hdr = 1'b1;
					body_upd = '1;
					// frames before its sequence number never arrived: NAK
					rx_error = ahead != 32'd0;
					if ((h_flags & 8'(`LOOM_FRAME_F_POLL)) != 8'd0) begin
						c_events[C_POLLS_RECEIVED] = 1'b1;
						rep = 1'b1;
						set_poll_answer = 1'b1;
					end
				end
			end else begin
				c_events[C_BAD_TYPE] = 1'b1;
			end
		end

		// the header's acknowledgement and credit, an ACK_CREDIT's grants
		ack_valid = apply_hdr;
		progress = came_up;
		for (int v = 0; v < VCS; v++) begin
			if (body_upd[v]) begin
				upd_valid[v] = 1'b1;
				upd_value[32*v +: 32] = body[32*v +: 32];
			end else if (apply_hdr && hdr_cvc && 32'(h_cvc) == v) begin
				upd_valid[v] = 1'b1;
				upd_value[32*v +: 32] = h_credit;
			end
			// link_credit_update() added credit: it moved
			if (upd_valid[v] && upd_value[32*v +: 32] != granted[32*v +: 32])
				progress = 1'b1;
		end
	end

	always_ff @(posedge clk)
		if (rst) begin
			r_node <= '0;
			r_port <= '0;
			r_flagged <= 1'b0;
			r_mfull <= 1'b0;
		end else begin
			if (store_peer) begin
				r_node <= h_seq;
				r_port <= h_ack;
			end
			r_flagged <= flagged1;
			r_mfull <= mfull1 | store_maint;
		end

	// the maintenance slot: no reset (maint_full says what it holds)
	always_ff @(posedge clk)
		if (store_maint) begin
			r_mlen <= h_len;
			r_mbody <= body;
		end

	assign peer_node = r_node;
	assign peer_port = r_port;
	assign lane_flagged = r_flagged;
	assign maint_full = r_mfull;
	assign maint_len = r_mlen;
	assign maint_body = r_mbody;
endmodule
