// SPDX-License-Identifier: GPL-2.0
//
// The link transmitter's frame builder: the C model's link_xmit_build()
// with link_xmit_data(), link_xmit_status(), link_xmit_nak(),
// link_xmit_train(), link_xmit_maint() and link_xmit_poll_due()
// (link/link_xmit.c), the maintenance slot (link_unit_maint_send()), and
// the transmitter's timers: the TRAIN retry while training, the
// coalescing deadline of pending acknowledgements and credits
// (status_deadline) and the credit poll timer (credit_progress).
//
// In every cycle the unit offers the frame that would start next cycle,
// by priority: while training a TRAIN when one is due or the retry timer
// ran out; while up the maintenance frame, a TRAIN answer, a lane notice,
// a NAK, the answer to a poll (ACK_CREDIT), a DATA frame (a replay first,
// else the queue's head packet if the replay buffer has room and the peer
// the credit), an ACK_CREDIT whose coalescing deadline came, a poll
// (ACK_CREDIT with LOOM_FRAME_F_POLL) when a credit deficit saw no
// progress for ACK_TIMEOUT cycles and nothing is in flight.  The frame
// starts when the lanes are free for one (lanes_free: the serialiser has
// bytes of the cycle left); then the unit asks the other units for what
// the frame takes (take, pop, pick, adv, clr_ack, clr_nak) and moves its
// own registers.  One frame a cycle: a link whose lanes carry more than
// the smallest frame (24 bytes) a cycle may start several in the C model.
//
// Its inputs are the other units' views in the cycle, after their own
// operations of the cycle that come before the frame in the link unit's
// order (the go-back-N sender's after the acknowledgements and its timer,
// the credit unit's pick of this cycle, the queue's head after the
// router's flit), and what the receive half set in the cycle (set_*,
// progress) after the carrier's edge (flush: link_xmit_reset(), and the
// TRAIN due when the carrier came).
//
// The C model keeps its timers as absolute cycles; the unit keeps the
// cycles left to each (0: due; a frame starting next cycle compares with
// them) or, for the poll timer, the cycles since credits last moved, held
// at ACK_TIMEOUT.
`include "loom_hw.vh"

module loom_link_xmit_build #(
	parameter integer VCS = `LINK_VCS_DEFAULT,
	parameter integer ACK_TIMEOUT = `LINK_ACK_TIMEOUT_DEFAULT,
	parameter integer COALESCE_DELAY = `LINK_COALESCE_DELAY_DEFAULT,
	// derived: a frame's body at most, the bits of the timers
	parameter integer BODY_MAX = `LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD,
	parameter integer TW = $clog2(ACK_TIMEOUT + 1),
	parameter integer DW = $clog2(COALESCE_DELAY + 2)
) (
	input  logic clk,
	input  logic rst,
	// the carrier changed at this edge (link_xmit_reset); carrier: it is on
	input  logic flush,
	input  logic carrier,
	// the receive half in this cycle: TRAIN due and answering (the peer
	// still trains), a poll's answer due (poll received, link came up), a
	// lane notice due (a lane dropped), credits moved (credit_progress)
	input  logic set_train_due,
	input  logic set_train_answer,
	input  logic set_poll_answer,
	input  logic set_lane_notice,
	input  logic progress,
	// a maintenance frame accepted into the slot (link_unit_maint_send)
	input  logic maint_wr,
	input  logic [15:0] maint_wr_len,
	input  logic [8*BODY_MAX-1:0] maint_wr_body,
	// the link: training or up (neither: down), lanes in use, identity
	input  logic training,
	input  logic up,
	input  logic [2:0] lanes_n,
	input  logic [31:0] node,
	input  logic [31:0] port,
	// the go-back-N sender (after this cycle's acknowledgements and timer)
	input  logic resend_due,
	input  logic room,
	input  logic held_any,
	input  logic [31:0] take_seq,
	input  logic [31:0] gbn_next,
	// the go-back-N receiver
	input  logic ack_due,
	input  logic nak_due,
	input  logic [31:0] ack_value,
	// the transmit queue's head and the peer's credit for it
	input  logic head_valid,
	input  logic head_has,
	// the credit unit: pending and deficit masks, the pick of this cycle,
	// every VC's grant (VC v in bits 32 v + 31 .. 32 v)
	input  logic [VCS-1:0] pending,
	input  logic deficit_any,
	input  logic [2:0] pick_vc,
	input  logic [31:0] pick_value,
	input  logic pick_was_pending,
	input  logic [32*VCS-1:0] grant,
	// the packet a DATA frame carries (loom_link_xmit_replay)
	input  logic [2:0] pkt_vc,
	input  logic [15:0] pkt_len,
	input  logic [8*BODY_MAX-1:0] pkt_data,
	// the lanes have room for a frame to start at this edge
	input  logic lanes_free,
	// the frame offered (the serialiser's frame_* of one slot)
	output logic frame_valid,
	output logic [7:0] frame_type,
	output logic [7:0] frame_vc,
	output logic [7:0] frame_credit_vc,
	output logic [7:0] frame_flags,
	output logic [31:0] frame_seq,
	output logic [31:0] frame_ack,
	output logic [31:0] frame_credit,
	output logic [15:0] frame_len,
	output logic [8*BODY_MAX-1:0] frame_body,
	// what the frame takes when it starts: a go-back-N take, the queue's
	// head (and the credit unit's sent of it), the credit unit's pick or
	// every grant advertised, the receiver's acknowledgement and NAK
	output logic take,
	output logic pop,
	output logic pick,
	output logic adv,
	output logic clr_ack,
	output logic clr_nak,
	// counters of this edge (link_counters.h)
	output logic c_replayed,
	output logic c_data,
	output logic c_acks_piggybacked,
	output logic c_credits_piggybacked,
	output logic c_acks_standalone,
	output logic c_credits_standalone,
	output logic c_status,
	output logic c_poll,
	output logic c_nak,
	output logic c_lane_notice,
	// registers
	output logic train_due,
	output logic train_answer,
	output logic lane_notice_due,
	output logic poll_answer_due,
	output logic maint_full,
	output logic [15:0] maint_len,
	output logic [TW-1:0] train_left,	// cycles to the TRAIN retry (train_retry)
	output logic status_run,		// the coalescing deadline is set
	output logic [DW-1:0] status_left,	// cycles to it (status_deadline)
	output logic [TW-1:0] progress_age	// cycles since credits moved, at most ACK_TIMEOUT
);
	localparam integer CRB = `LOOM_FRAME_CREDITS_SIZE;

	if (VCS < `LINK_VCS_MIN || VCS > `LINK_VCS_MAX) begin : g_bad_vcs
		$error("link parameter VCS is outside LINK_VCS_MIN .. LINK_VCS_MAX (link_params.h)");
	end
	if (ACK_TIMEOUT < `LINK_ACK_TIMEOUT_MIN || ACK_TIMEOUT > `LINK_ACK_TIMEOUT_MAX)
	begin : g_bad_timeout
		$error("link parameter ACK_TIMEOUT is outside LINK_ACK_TIMEOUT_MIN .. LINK_ACK_TIMEOUT_MAX (link_params.h)");
	end
	if (COALESCE_DELAY < `LINK_COALESCE_DELAY_MIN || COALESCE_DELAY > `LINK_COALESCE_DELAY_MAX)
	begin : g_bad_delay
		$error("link parameter COALESCE_DELAY is outside LINK_COALESCE_DELAY_MIN .. LINK_COALESCE_DELAY_MAX (link_params.h)");
	end
	if (BODY_MAX != `LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD || TW != $clog2(ACK_TIMEOUT + 1) ||
	    DW != $clog2(COALESCE_DELAY + 2)) begin : g_bad_derived
		$error("BODY_MAX, TW and DW are derived: do not set them");
	end
	if (CRB < 4 * VCS || CRB > BODY_MAX) begin : g_bad_credits
		$error("LOOM_FRAME_CREDITS_SIZE does not hold a grant of each of VCS VCs");
	end

	// the frames, by priority
	typedef enum logic [3:0] {
		K_NONE, K_TRAIN, K_MAINT, K_ANSWER, K_NOTICE, K_NAK, K_POLL_ANSWER, K_DATA,
		K_STATUS, K_POLL
	} kind_t;

	logic r_td, r_ta, r_ln, r_pa, r_mf, r_sd;
	logic [15:0] r_ml;
	logic [8*BODY_MAX-1:0] r_mb;
	logic [TW-1:0] r_tl, r_age;
	logic [DW-1:0] r_sl;

	// the registers after the carrier's edge and the receive half (1),
	// after the frame (2)
	logic td1, ta1, ln1, pa1, mf1, sd1, td2, ln2, pa2, mf2, sd2;
	logic [TW-1:0] tl1, age1, tl2;
	logic [DW-1:0] sl1, sl2;
	logic age_restart;			// credit_progress = the frame's start
	logic pend_any, pend_after, data_ready, poll_due;
	logic [VCS-1:0] pick_bit;
	logic [8*CRB-1:0] credits;
	kind_t kind;
	logic go;

	// an ACK_CREDIT frame's body: every VC's grant, zero past VCS
	assign credits = (8*CRB)'(grant);

	always_comb begin
		// link_xmit_reset at the carrier's edge (a TRAIN due when it came),
		// then what the receive half set
		td1 = (flush ? carrier : r_td) | set_train_due;
		ta1 = (flush ? 1'b0 : r_ta) | set_train_answer;
		ln1 = (flush ? 1'b0 : r_ln) | set_lane_notice;
		pa1 = (flush ? 1'b0 : r_pa) | set_poll_answer;
		mf1 = flush ? 1'b0 : r_mf | maint_wr;
		tl1 = flush ? '0 : r_tl;
		age1 = flush || progress ? '0 : r_age;
		sd1 = flush ? 1'b0 : r_sd;
		sl1 = r_sl;
		// acknowledgements or credits waiting: the coalescing deadline starts
		pend_any = ack_due || pending != '0;
		if (up && !sd1 && pend_any) begin
			sd1 = 1'b1;
`ifdef LOOM_MUTATE_LINK_BUILD
			// deliberately wrong (the harness's mutation check): one cycle late
			sl1 = DW'(COALESCE_DELAY + 1);
`else
			sl1 = DW'(COALESCE_DELAY);
`endif
		end

		// the frame, by priority
		data_ready = resend_due || (head_valid && room && head_has);
		poll_due = deficit_any && !held_any && 32'(age1) + 1 >= ACK_TIMEOUT;
		kind = K_NONE;
		if (training) begin
			if (td1 || tl1 == '0)
				kind = K_TRAIN;
		end else if (up) begin
			if (mf1)
				kind = K_MAINT;
			else if (td1)
				kind = K_ANSWER;
			else if (ln1)
				kind = K_NOTICE;
			else if (nak_due)
				kind = K_NAK;
			else if (pa1)
				kind = K_POLL_ANSWER;
			else if (data_ready)
				kind = K_DATA;
			else if (sd1 && sl1 == '0)
				kind = K_STATUS;
			else if (poll_due)
				kind = K_POLL;
		end

		// its header and body
		frame_valid = kind != K_NONE;
		frame_type = 8'd0;
		frame_vc = 8'd0;
		frame_credit_vc = 8'(`LOOM_FRAME_NO_CREDIT);
		frame_flags = 8'd0;
		frame_seq = 32'd0;
		frame_ack = 32'd0;
		frame_credit = 32'd0;
		frame_len = 16'd0;
		frame_body = '0;
		case (kind)
		K_TRAIN, K_ANSWER, K_NOTICE: begin
			frame_type = 8'(`LOOM_FRAME_TRAIN);
			frame_vc = kind == K_NOTICE ? 8'(lanes_n) : 8'd0;
			frame_seq = node;
			frame_ack = port;
			if (kind == K_ANSWER && ta1)
				frame_flags = 8'(`LOOM_FRAME_F_TRAINED);
		end
		K_MAINT: begin
			frame_type = 8'(`LOOM_FRAME_MAINT);
			frame_vc = 8'(`LOOM_VC_MAINT);
			frame_len = r_ml;
			frame_body = r_mb;
			if (!r_mf) begin		// written in this cycle
				frame_len = maint_wr_len;
				frame_body = maint_wr_body;
			end
		end
		K_NAK: begin
			frame_type = 8'(`LOOM_FRAME_NAK);
			frame_ack = ack_value;
			frame_credit_vc = 8'(pick_vc);
			frame_credit = pick_value;
		end
		K_POLL_ANSWER, K_STATUS, K_POLL: begin
			frame_type = 8'(`LOOM_FRAME_ACK_CREDIT);
			frame_seq = gbn_next;
			frame_ack = ack_value;
			if (kind == K_POLL)
				frame_flags = 8'(`LOOM_FRAME_F_POLL);
			frame_len = 16'(CRB);
			frame_body[8*CRB-1:0] = credits;
		end
		K_DATA: begin
			frame_type = 8'(`LOOM_FRAME_DATA);
			frame_vc = 8'(pkt_vc);
			frame_seq = take_seq;
			frame_ack = ack_value;
			frame_credit_vc = 8'(pick_vc);
			frame_credit = pick_value;
			frame_len = pkt_len;
			frame_body = pkt_data;
		end
		default: ;
		endcase

		// what it takes when it starts, and the registers after it
		go = lanes_free && frame_valid;
		pick_bit = VCS'(1) << pick_vc;
		pend_after = (pending & ~pick_bit) != '0;	// the acknowledgement is taken
		take = go && kind == K_DATA;
		pop = take && !resend_due;
		pick = go && (kind == K_DATA || kind == K_NAK);
		adv = go && (kind == K_POLL_ANSWER || kind == K_STATUS || kind == K_POLL);
		clr_ack = go && (kind == K_DATA || kind == K_NAK || adv);
		clr_nak = go && kind == K_NAK;
		c_replayed = take && resend_due;
		c_data = take;
		c_acks_piggybacked = take && ack_due;
		c_credits_piggybacked = take && pick_was_pending;
		c_acks_standalone = (adv || clr_nak) && ack_due;
		c_credits_standalone = adv && pending != '0;
		c_status = adv;
		c_poll = go && kind == K_POLL;
		c_nak = clr_nak;
		c_lane_notice = go && kind == K_NOTICE;
		td2 = td1;
		ln2 = ln1;
		pa2 = pa1;
		mf2 = mf1;
		sd2 = sd1;
		sl2 = sl1;
		tl2 = tl1;
		age_restart = 1'b0;
		if (go) begin
			case (kind)
			K_TRAIN: begin
				td2 = 1'b0;
				tl2 = TW'(ACK_TIMEOUT);
			end
			K_ANSWER: td2 = 1'b0;
			K_NOTICE: ln2 = 1'b0;
			K_MAINT: mf2 = 1'b0;
			K_NAK: if (!pend_after) sd2 = 1'b0;
			K_DATA: begin
				// reverse traffic: what is still pending waits for the next one
				sd2 = pend_after;
				sl2 = DW'(COALESCE_DELAY);
				age_restart = !resend_due;
			end
			default: begin		// ACK_CREDIT
				pa2 = 1'b0;
				sd2 = 1'b0;
				age_restart = kind == K_POLL;
			end
			endcase
		end
	end

	always_ff @(posedge clk) begin
		if (rst) begin
			r_td <= 1'b0;
			r_ta <= 1'b0;
			r_ln <= 1'b0;
			r_pa <= 1'b0;
			r_mf <= 1'b0;
			r_sd <= 1'b0;
			r_sl <= '0;
			r_tl <= '0;
			r_age <= '0;
		end else begin
			r_td <= td2;
			r_ta <= ta1;
			r_ln <= ln2;
			r_pa <= pa2;
			r_mf <= mf2;
			r_sd <= sd2;
			// one cycle nearer each deadline; at 0 it stays due
			r_sl <= sl2 == '0 ? '0 : sl2 - 1'b1;
			r_tl <= tl2 == '0 ? '0 : tl2 - 1'b1;
			r_age <= age_restart ? '0 : 32'(age1) >= ACK_TIMEOUT ? TW'(ACK_TIMEOUT) :
				 age1 + 1'b1;
		end
	end

	// the maintenance slot's frame: no reset (maint_full says what it holds)
	always_ff @(posedge clk)
		if (maint_wr) begin
			r_ml <= maint_wr_len;
			r_mb <= maint_wr_body;
		end

	assign train_due = r_td;
	assign train_answer = r_ta;
	assign lane_notice_due = r_ln;
	assign poll_answer_due = r_pa;
	assign maint_full = r_mf;
	assign maint_len = r_ml;
	assign train_left = r_tl;
	assign status_run = r_sd;
	assign status_left = r_sl;
	assign progress_age = r_age;
endmodule
