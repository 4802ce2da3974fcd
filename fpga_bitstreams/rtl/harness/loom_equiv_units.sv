// SPDX-License-Identifier: GPL-2.0
//
// The units the equivalence harness (equiv_units.cpp) steps against the
// C model, side by side in one Verilated model: flit FIFOs, credit
// counters, arbiters of every policy, the link's CRC-32C at several lane
// widths, its go-back-N sender and receiver, its credit return, its lanes,
// its frame encoder and serialiser, its transmitter's packet assembly,
// frame builder and replay buffer, and its receiver's framer, frame
// checker and delivery queue, each at its
// own parameters, and the drift check's view of the generated constants.
// Every input is a port the harness drives; every output is compared
// every cycle.
`include "loom_hw.vh"
`include "loom_fifo.vh"

// Each unit's ports and instance, stated once: P is the prefix of its
// ports (fa_push, ...) and of its instance (u_fa); the other arguments are
// its parameters.
`define EQ_FIFO_PORTS(P, WIDTH_, HIST_) \
	input  logic P``_push, \
	input  logic [WIDTH_-1:0] P``_push_data, \
	input  logic P``_pop, \
	output logic [WIDTH_-1:0] P``_front, \
	output logic [WIDTH_-1:0] P``_second, \
	output logic [7:0] P``_count, \
	output logic [HIST_:0] P``_age0, \
	output logic [HIST_:0] P``_age1
// bit a-1 of age0: the front flit visible at stage latency a; age1: the second flit
`define EQ_FIFO(P, DEPTH_, WIDTH_, HIST_) \
	localparam integer P``_CW = $clog2(DEPTH_ + 1); \
	`LOOM_AGE_GE_FN(P``_age_ge, P``_CW, HIST_) \
	logic [P``_CW-1:0] P``_cnt; \
	logic [HIST_-1:0] P``_hist; \
	logic [WIDTH_-1:0] unused_``P``_peek; \
	loom_flit_fifo #(.DEPTH(DEPTH_), .WIDTH(WIDTH_), .HIST(HIST_)) u_``P ( \
		.clk(clk), .rst(rst), .push(P``_push), .push_data(P``_push_data), .pop(P``_pop), \
		.front(P``_front), .second(P``_second), .peek_off('0), .peek(unused_``P``_peek), \
		.count(P``_cnt), .hist(P``_hist)); \
	assign P``_count = 8'(P``_cnt); \
	always_comb \
		for (int a = 1; a <= HIST_ + 1; a++) begin \
			P``_age0[a-1] = P``_age_ge(P``_cnt, P``_hist, a, 0); \
			P``_age1[a-1] = P``_age_ge(P``_cnt, P``_hist, a, 1); \
		end

`define EQ_CRC_PORTS(P, LANES_, LANE_BYTES_) \
	input  logic P``_start, \
	input  logic [6:0] P``_n, \
	input  logic [8*LANES_*LANE_BYTES_-1:0] P``_data, \
	output logic [31:0] P``_crc, \
	output logic [31:0] P``_crc_next
`define EQ_CRC(P, LANES_, LANE_BYTES_) \
	localparam integer P``_NW = $clog2(LANES_ * LANE_BYTES_ + 1); \
	loom_crc32c #(.LANES(LANES_), .LANE_BYTES(LANE_BYTES_), .MUTATE(1'b1)) u_``P ( \
		.clk(clk), .rst(rst), .start(P``_start), .n(P``_n[P``_NW-1:0]), \
		.data(P``_data), .crc(P``_crc), .crc_next(P``_crc_next)); \
	logic P``_unused; \
	assign P``_unused = ^P``_n[6:P``_NW];

`define EQ_GBN_TX_PORTS(P) \
	input  logic P``_flush, \
	input  logic P``_ack_valid, \
	input  logic P``_ack_nak, \
	input  logic [31:0] P``_ack_value, \
	output logic [31:0] P``_ack_freed, \
	output logic P``_nak_rewound, \
	input  logic P``_timer, \
	output logic P``_timer_fired, \
	output logic P``_take_ok, \
	input  logic P``_take, \
	output logic P``_take_resend, \
	output logic [31:0] P``_take_seq, \
	output logic [15:0] P``_take_slot, \
	output logic [31:0] P``_base, \
	output logic [31:0] P``_next, \
	output logic [31:0] P``_resend, \
	output logic [15:0] P``_base_slot, \
	output logic P``_timer_run, \
	output logic [31:0] P``_timer_left, \
	output logic [31:0] P``_held, \
	output logic P``_room, \
	output logic P``_resend_due
`define EQ_GBN_TX(P, REPLAY_FRAMES_, ACK_TIMEOUT_, FIRST_) \
	localparam integer P``_SW = $clog2(REPLAY_FRAMES_ > 1 ? REPLAY_FRAMES_ : 2); \
	logic [P``_SW-1:0] P``_ts, P``_bs; \
	loom_gbn_tx #(.REPLAY_FRAMES(REPLAY_FRAMES_), .ACK_TIMEOUT(ACK_TIMEOUT_), \
		.FIRST(FIRST_)) u_``P ( \
		.clk(clk), .rst(rst), .flush(P``_flush), .ack_valid(P``_ack_valid), .ack_nak(P``_ack_nak), \
		.ack_value(P``_ack_value), .ack_freed(P``_ack_freed), .nak_rewound(P``_nak_rewound), \
		.timer(P``_timer), .timer_fired(P``_timer_fired), .take_ok(P``_take_ok), \
		.take(P``_take), .take_resend(P``_take_resend), .take_seq(P``_take_seq), \
		.take_slot(P``_ts), .base(P``_base), .next(P``_next), .resend(P``_resend), \
		.base_slot(P``_bs), .timer_run(P``_timer_run), .timer_left(P``_timer_left), \
		.held(P``_held), .room(P``_room), .resend_due(P``_resend_due)); \
	assign P``_take_slot = 16'(P``_ts); \
	assign P``_base_slot = 16'(P``_bs);

`define EQ_GBN_RX_PORTS(P) \
	input  logic P``_flush, \
	input  logic P``_data_valid, \
	input  logic [31:0] P``_data_seq, \
	output logic [1:0] P``_verdict, \
	input  logic P``_error, \
	input  logic P``_rep, \
	input  logic P``_clr_ack, \
	input  logic P``_clr_nak, \
	output logic [31:0] P``_expected, \
	output logic P``_in_recovery, \
	output logic P``_seen_valid, \
	output logic [31:0] P``_last_seen, \
	output logic P``_nak_due, \
	output logic P``_ack_due, \
	output logic [31:0] P``_ack_value
`define EQ_GBN_RX(P, FIRST_) \
	loom_gbn_rx #(.FIRST(FIRST_)) u_``P ( \
		.clk(clk), .rst(rst), .flush(P``_flush), .data_valid(P``_data_valid), \
		.data_seq(P``_data_seq), .verdict(P``_verdict), .error(P``_error), .rep(P``_rep), \
		.clr_ack(P``_clr_ack), \
		.clr_nak(P``_clr_nak), .expected(P``_expected), .in_recovery(P``_in_recovery), \
		.seen_valid(P``_seen_valid), .last_seen(P``_last_seen), .nak_due(P``_nak_due), \
		.ack_due(P``_ack_due), .ack_value(P``_ack_value));

`define EQ_LINK_CREDIT_PORTS(P, VCS_) \
	input  logic P``_train, \
	input  logic P``_down, \
	input  logic [VCS_-1:0] P``_upd_valid, \
	input  logic [32*VCS_-1:0] P``_upd_value, \
	input  logic P``_acc_valid, \
	input  logic [2:0] P``_acc_vc, \
	input  logic [31:0] P``_acc_flits, \
	input  logic P``_rep, \
	input  logic [8*VCS_-1:0] P``_freed, \
	input  logic P``_to_router, \
	input  logic P``_ref_valid, \
	input  logic [2:0] P``_ref_vc, \
	input  logic [31:0] P``_ref_flits, \
	input  logic P``_sent_valid, \
	input  logic [2:0] P``_sent_vc, \
	input  logic [31:0] P``_sent_flits, \
	input  logic P``_pick, \
	input  logic P``_adv, \
	output logic [VCS_-1:0] P``_upd_ok, \
	output logic [VCS_-1:0] P``_upd_gain, \
	output logic P``_acc_may, \
	output logic [VCS_-1:0] P``_freed_ok, \
	output logic [8*VCS_-1:0] P``_router_credits, \
	output logic P``_router_any, \
	output logic P``_sent_has, \
	output logic [2:0] P``_pick_vc, \
	output logic [31:0] P``_pick_value, \
	output logic P``_pick_was_pending, \
	output logic P``_adv_any, \
	output logic [32*VCS_-1:0] P``_q_grant, \
	output logic [32*VCS_-1:0] P``_q_advertised, \
	output logic [32*VCS_-1:0] P``_q_received, \
	output logic [32*VCS_-1:0] P``_q_occupied, \
	output logic [32*VCS_-1:0] P``_q_granted, \
	output logic [32*VCS_-1:0] P``_q_sent, \
	output logic [32*VCS_-1:0] P``_q_withheld, \
	output logic [32*VCS_-1:0] P``_q_owed, \
	output logic [VCS_-1:0] P``_pending, \
	output logic [VCS_-1:0] P``_owed_mask, \
	output logic [VCS_-1:0] P``_deficit_mask, \
	output logic [VCS_-1:0] P``_low_mask, \
	output logic [2:0] P``_rr
`define EQ_LINK_CREDIT(P, VCS_, BUF_DEPTH_, FLIT_BYTES_) \
	loom_link_credit #(.VCS(VCS_), .BUF_DEPTH(BUF_DEPTH_), .FLIT_BYTES(FLIT_BYTES_)) u_``P ( \
		.clk(clk), .rst(rst), .train(P``_train), .down(P``_down), \
		.upd_valid(P``_upd_valid), .upd_value(P``_upd_value), \
		.acc_valid(P``_acc_valid), .acc_vc(P``_acc_vc), .acc_flits(P``_acc_flits), \
		.rep(P``_rep), .freed(P``_freed), .to_router(P``_to_router), \
		.ref_valid(P``_ref_valid), .ref_vc(P``_ref_vc), .ref_flits(P``_ref_flits), \
		.sent_valid(P``_sent_valid), .sent_vc(P``_sent_vc), .sent_flits(P``_sent_flits), \
		.pick(P``_pick), .adv(P``_adv), .upd_ok(P``_upd_ok), .upd_gain(P``_upd_gain), \
		.acc_may(P``_acc_may), .freed_ok(P``_freed_ok), \
		.router_credits(P``_router_credits), .router_any(P``_router_any), \
		.sent_has(P``_sent_has), .pick_vc(P``_pick_vc), .pick_value(P``_pick_value), \
		.pick_was_pending(P``_pick_was_pending), .adv_any(P``_adv_any), \
		.q_grant(P``_q_grant), .q_advertised(P``_q_advertised), \
		.q_received(P``_q_received), .q_occupied(P``_q_occupied), \
		.q_granted(P``_q_granted), .q_sent(P``_q_sent), .q_withheld(P``_q_withheld), \
		.q_owed(P``_q_owed), .pending(P``_pending), .owed_mask(P``_owed_mask), \
		.deficit_mask(P``_deficit_mask), .low_mask(P``_low_mask), .rr(P``_rr));
`define EQ_LANES_PORTS(P) \
	input  logic P``_train, \
	input  logic P``_down, \
	input  logic [3:0] P``_flags, \
	input  logic P``_crc_err, \
	input  logic [31:0] P``_crc_seq, \
	output logic [1:0] P``_crc_lane, \
	input  logic P``_narrow, \
	input  logic [2:0] P``_narrow_n, \
	output logic P``_dropped, \
	output logic [2:0] P``_n, \
	output logic [31:0] P``_drops, \
	output logic [32*4-1:0] P``_errors, \
	output logic [32*4-1:0] P``_win_count, \
	output logic [31*4-1:0] P``_win_age
`define EQ_LANES(P, LANES_, LANE_THRESHOLD_, LANE_WINDOW_) \
	loom_lanes #(.LANES(LANES_), .LANE_THRESHOLD(LANE_THRESHOLD_), \
		.LANE_WINDOW(LANE_WINDOW_)) u_``P ( \
		.clk(clk), .rst(rst), .train(P``_train), .down(P``_down), .flags(P``_flags), \
		.crc_err(P``_crc_err), .crc_seq(P``_crc_seq), .crc_lane(P``_crc_lane), \
		.narrow(P``_narrow), .narrow_n(P``_narrow_n), .dropped(P``_dropped), .n(P``_n), \
		.drops(P``_drops), .errors(P``_errors), .win_count(P``_win_count), \
		.win_age(P``_win_age));

// the link transmitter's frame encoder and serialiser: SLOTS frames offered a cycle
`define EQ_XSER_SLOTS(LANES_, LANE_BYTES_) \
	((LANES_ * LANE_BYTES_ + `LOOM_FRAME_HDR_SIZE + `LOOM_FRAME_CRC_SIZE - 1) / \
	 (`LOOM_FRAME_HDR_SIZE + `LOOM_FRAME_CRC_SIZE))
`define EQ_XSER_PORTS(P, LANES_, LANE_BYTES_) \
	input  logic P``_flush, \
	input  logic [2:0] P``_lanes, \
	input  logic [`EQ_XSER_SLOTS(LANES_, LANE_BYTES_)-1:0] P``_frame_valid, \
	input  logic [8*`EQ_XSER_SLOTS(LANES_, LANE_BYTES_)-1:0] P``_frame_type, \
	input  logic [8*`EQ_XSER_SLOTS(LANES_, LANE_BYTES_)-1:0] P``_frame_vc, \
	input  logic [8*`EQ_XSER_SLOTS(LANES_, LANE_BYTES_)-1:0] P``_frame_credit_vc, \
	input  logic [8*`EQ_XSER_SLOTS(LANES_, LANE_BYTES_)-1:0] P``_frame_flags, \
	input  logic [32*`EQ_XSER_SLOTS(LANES_, LANE_BYTES_)-1:0] P``_frame_seq, \
	input  logic [32*`EQ_XSER_SLOTS(LANES_, LANE_BYTES_)-1:0] P``_frame_ack, \
	input  logic [32*`EQ_XSER_SLOTS(LANES_, LANE_BYTES_)-1:0] P``_frame_credit, \
	input  logic [16*`EQ_XSER_SLOTS(LANES_, LANE_BYTES_)-1:0] P``_frame_len, \
	input  logic [8*(`LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD)*`EQ_XSER_SLOTS(LANES_, LANE_BYTES_)-1:0] P``_frame_body, \
	output logic [2:0] P``_frame_taken, \
	output logic [8*LANES_*LANE_BYTES_-1:0] P``_lane_data, \
	output logic [6:0] P``_lane_used
`define EQ_XSER(P, LANES_, LANE_BYTES_) \
	loom_link_xmit_serialise #(.LANES(LANES_), .LANE_BYTES(LANE_BYTES_)) u_``P ( \
		.clk(clk), .rst(rst), .flush(P``_flush), .lanes(P``_lanes), \
		.frame_valid(P``_frame_valid), .frame_type(P``_frame_type), .frame_vc(P``_frame_vc), \
		.frame_credit_vc(P``_frame_credit_vc), .frame_flags(P``_frame_flags), \
		.frame_seq(P``_frame_seq), .frame_ack(P``_frame_ack), .frame_credit(P``_frame_credit), \
		.frame_len(P``_frame_len), .frame_body(P``_frame_body), .frame_taken(P``_frame_taken), \
		.lane_data(P``_lane_data), .lane_used(P``_lane_used));

// the link receiver's framer: RX_FRAMES results a cycle of the bytes of LANES x LANE_BYTES
`define EQ_RXF_PORTS(P, LANES_, LANE_BYTES_, RX_FRAMES_) \
	input  logic [7:0] P``_in_n, \
	input  logic [8*LANES_*LANE_BYTES_-1:0] P``_in_data, \
	input  logic [3:0] P``_take, \
	output logic [3:0] P``_res_n, \
	output logic [3*RX_FRAMES_-1:0] P``_res_status, \
	output logic [8*(`LOOM_FRAME_MAX-`LOOM_FRAME_CRC_SIZE)*RX_FRAMES_-1:0] P``_res_frame, \
	output logic [15:0] P``_held, \
	output logic P``_garbage
`define EQ_RXF(P, RX_WINDOW_, RX_FRAMES_, LANES_, LANE_BYTES_, RX_BUF_) \
	localparam integer P``_NW = $clog2(LANES_ * LANE_BYTES_ + 1); \
	localparam integer P``_KW = $clog2(RX_FRAMES_ + 1); \
	localparam integer P``_HW = $clog2(RX_BUF_ + 1); \
	logic [P``_KW-1:0] P``_rn; \
	logic [P``_HW-1:0] P``_h; \
	loom_link_rx_framer #(.RX_WINDOW(RX_WINDOW_), .RX_FRAMES(RX_FRAMES_), .LANES(LANES_), \
		.LANE_BYTES(LANE_BYTES_), .RX_BUF(RX_BUF_), .MUTATE(1'b1)) u_``P ( \
		.clk(clk), .rst(rst), .in_n(P``_in_n[P``_NW-1:0]), .in_data(P``_in_data), \
		.take(P``_take[P``_KW-1:0]), .res_n(P``_rn), .res_status(P``_res_status), \
		.res_frame(P``_res_frame), .held(P``_h), .garbage(P``_garbage)); \
	assign P``_res_n = 4'(P``_rn); \
	assign P``_held = 16'(P``_h); \
	logic P``_unused; \
	assign P``_unused = ^{P``_in_n[7:P``_NW], P``_take[3:P``_KW]};

// the link transmitter's packet assembly: VCS_ VCs of FB_-byte flits into TX_QUEUE_ packets
`define EQ_XASM_BYTES(FB_) \
	(FB_ * ((`LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD + FB_ - 1) / FB_))
`define EQ_XASM_PORTS(P, FB_) \
	input  logic P``_flush, \
	input  logic P``_up, \
	input  logic P``_flit_valid, \
	input  logic P``_flit_head, \
	input  logic P``_flit_tail, \
	input  logic [2:0] P``_flit_vc, \
	input  logic [8*FB_-1:0] P``_flit_data, \
	input  logic P``_pop, \
	input  logic P``_q_peer_has, \
	input  logic P``_low_any, \
	output logic P``_ready, \
	output logic P``_ready_before, \
	output logic [7:0] P``_assembling, \
	output logic [7:0] P``_discarding, \
	output logic [7:0] P``_q_count, \
	output logic [2:0] P``_q_vc, \
	output logic [7:0] P``_q_flits, \
	output logic [1:0] P``_malformed, \
	output logic P``_flit_counted, \
	output logic P``_queued, \
	output logic P``_ref_valid, \
	output logic [2:0] P``_ref_vc, \
	output logic [7:0] P``_ref_flits, \
	output logic P``_head_valid, \
	output logic [2:0] P``_head_vc, \
	output logic [7:0] P``_head_flits, \
	output logic [15:0] P``_head_len, \
	output logic [8*`EQ_XASM_BYTES(FB_)-1:0] P``_head_data, \
	output logic P``_starved
`define EQ_XASM(P, VCS_, FB_, TX_QUEUE_) \
	localparam integer P``_FW = $clog2((`LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD + FB_ - 1) / FB_ + 1); \
	localparam integer P``_QW = $clog2(TX_QUEUE_ + 1); \
	logic [VCS_-1:0] P``_asm, P``_disc; \
	logic [P``_QW-1:0] P``_qc; \
	logic [P``_FW-1:0] P``_qf, P``_hf; \
	logic [P``_FW:0] P``_rf; \
	loom_link_xmit_assemble #(.VCS(VCS_), .FLIT_BYTES(FB_), .TX_QUEUE(TX_QUEUE_)) u_``P ( \
		.clk(clk), .rst(rst), .flush(P``_flush), .up(P``_up), .flit_valid(P``_flit_valid), \
		.flit_head(P``_flit_head), .flit_tail(P``_flit_tail), .flit_vc(P``_flit_vc), \
		.flit_data(P``_flit_data), .pop(P``_pop), .q_peer_has(P``_q_peer_has), \
		.low_any(P``_low_any), .ready(P``_ready), .ready_before(P``_ready_before), \
		.assembling(P``_asm), .discarding(P``_disc), .q_count(P``_qc), .q_vc(P``_q_vc), \
		.q_flits(P``_qf), .malformed(P``_malformed), .flit_counted(P``_flit_counted), \
		.queued(P``_queued), .ref_valid(P``_ref_valid), .ref_vc(P``_ref_vc), \
		.ref_flits(P``_rf), .head_valid(P``_head_valid), .head_vc(P``_head_vc), \
		.head_flits(P``_hf), .head_len(P``_head_len), .head_data(P``_head_data), \
		.starved(P``_starved)); \
	assign P``_assembling = 8'(P``_asm); \
	assign P``_discarding = 8'(P``_disc); \
	assign P``_q_count = 8'(P``_qc); \
	assign P``_q_flits = 8'(P``_qf); \
	assign P``_ref_flits = 8'(P``_rf); \
	assign P``_head_flits = 8'(P``_hf);

`define EQ_XBLD_BODY (`LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD)
`define EQ_XBLD_PORTS(P) \
	input  logic P``_flush, \
	input  logic P``_carrier, \
	input  logic P``_set_train_due, \
	input  logic P``_set_train_answer, \
	input  logic P``_set_poll_answer, \
	input  logic P``_set_lane_notice, \
	input  logic P``_progress, \
	input  logic P``_maint_wr, \
	input  logic [15:0] P``_maint_wr_len, \
	input  logic [8*`EQ_XBLD_BODY-1:0] P``_maint_wr_body, \
	input  logic P``_training, \
	input  logic P``_up, \
	input  logic [2:0] P``_lanes_n, \
	input  logic [31:0] P``_node, \
	input  logic [31:0] P``_port, \
	input  logic P``_resend_due, \
	input  logic P``_room, \
	input  logic P``_held_any, \
	input  logic [31:0] P``_take_seq, \
	input  logic [31:0] P``_gbn_next, \
	input  logic [15:0] P``_take_slot, \
	input  logic P``_ack_due, \
	input  logic P``_nak_due, \
	input  logic [31:0] P``_ack_value, \
	input  logic P``_head_valid, \
	input  logic P``_head_has, \
	input  logic [2:0] P``_head_vc, \
	input  logic [15:0] P``_head_len, \
	input  logic [8*`EQ_XBLD_BODY-1:0] P``_head_data, \
	input  logic [7:0] P``_pending, \
	input  logic P``_deficit_any, \
	input  logic [2:0] P``_pick_vc, \
	input  logic [31:0] P``_pick_value, \
	input  logic P``_pick_was_pending, \
	input  logic [255:0] P``_grant, \
	input  logic P``_lanes_free, \
	output logic P``_frame_valid, \
	output logic [7:0] P``_frame_type, \
	output logic [7:0] P``_frame_vc, \
	output logic [7:0] P``_frame_credit_vc, \
	output logic [7:0] P``_frame_flags, \
	output logic [31:0] P``_frame_seq, \
	output logic [31:0] P``_frame_ack, \
	output logic [31:0] P``_frame_credit, \
	output logic [15:0] P``_frame_len, \
	output logic [8*`EQ_XBLD_BODY-1:0] P``_frame_body, \
	output logic [5:0] P``_ops, \
	output logic [9:0] P``_counts, \
	output logic [4:0] P``_flags, \
	output logic [15:0] P``_maint_len, \
	output logic [31:0] P``_train_left, \
	output logic P``_status_run, \
	output logic [31:0] P``_status_left, \
	output logic [31:0] P``_progress_age
// ops: take, pop, pick, adv, clr_ack, clr_nak (bit 0 first); counts: the c_* outputs in
// the order of the ports; flags: train_due, train_answer, lane_notice_due,
// poll_answer_due, maint_full (bit 0 first)
`define EQ_XBLD(P, VCS_, ACK_TIMEOUT_, COALESCE_DELAY_, REPLAY_FRAMES_) \
	localparam integer P``_SW = $clog2(REPLAY_FRAMES_ > 1 ? REPLAY_FRAMES_ : 2); \
	localparam integer P``_TW = $clog2(ACK_TIMEOUT_ + 1); \
	localparam integer P``_DW = $clog2(COALESCE_DELAY_ + 2); \
	logic [2:0] P``_pkt_vc; \
	logic [15:0] P``_pkt_len; \
	logic [8*`EQ_XBLD_BODY-1:0] P``_pkt_data; \
	logic [P``_TW-1:0] P``_tl, P``_age; \
	logic [P``_DW-1:0] P``_sl; \
	logic P``_unused; \
	loom_link_xmit_replay #(.REPLAY_FRAMES(REPLAY_FRAMES_)) u_``P``_replay ( \
		.clk(clk), .resend(P``_resend_due), .slot(P``_take_slot[P``_SW-1:0]), \
		.wr(P``_ops[1]), .head_vc(P``_head_vc), .head_len(P``_head_len), \
		.head_data(P``_head_data), .pkt_vc(P``_pkt_vc), .pkt_len(P``_pkt_len), \
		.pkt_data(P``_pkt_data)); \
	loom_link_xmit_build #(.VCS(VCS_), .ACK_TIMEOUT(ACK_TIMEOUT_), \
			       .COALESCE_DELAY(COALESCE_DELAY_)) u_``P ( \
		.clk(clk), .rst(rst), .flush(P``_flush), .carrier(P``_carrier), \
		.set_train_due(P``_set_train_due), .set_train_answer(P``_set_train_answer), \
		.set_poll_answer(P``_set_poll_answer), .set_lane_notice(P``_set_lane_notice), \
		.progress(P``_progress), .maint_wr(P``_maint_wr), .maint_wr_len(P``_maint_wr_len), \
		.maint_wr_body(P``_maint_wr_body), .training(P``_training), .up(P``_up), \
		.lanes_n(P``_lanes_n), .node(P``_node), .port(P``_port), \
		.resend_due(P``_resend_due), .room(P``_room), .held_any(P``_held_any), \
		.take_seq(P``_take_seq), .gbn_next(P``_gbn_next), .ack_due(P``_ack_due), \
		.nak_due(P``_nak_due), .ack_value(P``_ack_value), .head_valid(P``_head_valid), \
		.head_has(P``_head_has), .pending(P``_pending[VCS_-1:0]), \
		.deficit_any(P``_deficit_any), .pick_vc(P``_pick_vc), .pick_value(P``_pick_value), \
		.pick_was_pending(P``_pick_was_pending), .grant(P``_grant[32*VCS_-1:0]), \
		.pkt_vc(P``_pkt_vc), .pkt_len(P``_pkt_len), .pkt_data(P``_pkt_data), \
		.lanes_free(P``_lanes_free), .frame_valid(P``_frame_valid), \
		.frame_type(P``_frame_type), .frame_vc(P``_frame_vc), \
		.frame_credit_vc(P``_frame_credit_vc), .frame_flags(P``_frame_flags), \
		.frame_seq(P``_frame_seq), .frame_ack(P``_frame_ack), \
		.frame_credit(P``_frame_credit), .frame_len(P``_frame_len), \
		.frame_body(P``_frame_body), .take(P``_ops[0]), .pop(P``_ops[1]), \
		.pick(P``_ops[2]), .adv(P``_ops[3]), .clr_ack(P``_ops[4]), .clr_nak(P``_ops[5]), \
		.c_replayed(P``_counts[0]), .c_data(P``_counts[1]), \
		.c_acks_piggybacked(P``_counts[2]), .c_credits_piggybacked(P``_counts[3]), \
		.c_acks_standalone(P``_counts[4]), .c_credits_standalone(P``_counts[5]), \
		.c_status(P``_counts[6]), .c_poll(P``_counts[7]), .c_nak(P``_counts[8]), \
		.c_lane_notice(P``_counts[9]), .train_due(P``_flags[0]), \
		.train_answer(P``_flags[1]), .lane_notice_due(P``_flags[2]), \
		.poll_answer_due(P``_flags[3]), .maint_full(P``_flags[4]), \
		.maint_len(P``_maint_len), .train_left(P``_tl), .status_run(P``_status_run), \
		.status_left(P``_sl), .progress_age(P``_age)); \
	assign P``_train_left = 32'(P``_tl); \
	assign P``_status_left = 32'(P``_sl); \
	assign P``_progress_age = 32'(P``_age); \
	assign P``_unused = ^{P``_take_slot, P``_pending, P``_grant};

`define EQ_RDLV_PORTS(P, FB_, ACC_) \
	input  logic [7:0] P``_acc_n, \
	input  logic [3*ACC_-1:0] P``_acc_vc, \
	input  logic [16*ACC_-1:0] P``_acc_len, \
	input  logic [8*`EQ_XBLD_BODY*ACC_-1:0] P``_acc_body, \
	input  logic P``_in_ready, \
	output logic [7:0] P``_q_count, \
	output logic [7:0] P``_flit_idx, \
	output logic P``_flit_valid, \
	output logic P``_flit_head, \
	output logic P``_flit_tail, \
	output logic [2:0] P``_flit_vc, \
	output logic [8*FB_-1:0] P``_flit_data, \
	output logic [7:0] P``_room, \
	output logic P``_rx_flit
`define EQ_RDLV(P, FB_, RX_QUEUE_, RX_FRAMES_) \
	localparam integer P``_QW = $clog2(RX_QUEUE_ + 1); \
	localparam integer P``_XW = $clog2((`EQ_XBLD_BODY + FB_ - 1) / FB_ + 1); \
	logic [P``_QW-1:0] P``_qc, P``_rm; \
	logic [P``_XW-1:0] P``_xi; \
	logic P``_unused; \
	loom_link_recv_deliver #(.FLIT_BYTES(FB_), .RX_QUEUE(RX_QUEUE_), .RX_FRAMES(RX_FRAMES_)) u_``P ( \
		.clk(clk), .rst(rst), .acc_n(P``_acc_n[P``_QW-1:0]), .acc_vc(P``_acc_vc), \
		.acc_len(P``_acc_len), .acc_body(P``_acc_body), .in_ready(P``_in_ready), \
		.q_count(P``_qc), .flit_idx(P``_xi), .flit_valid(P``_flit_valid), \
		.flit_head(P``_flit_head), .flit_tail(P``_flit_tail), .flit_vc(P``_flit_vc), \
		.flit_data(P``_flit_data), .room(P``_rm), .rx_flit(P``_rx_flit)); \
	assign P``_q_count = 8'(P``_qc); \
	assign P``_flit_idx = 8'(P``_xi); \
	assign P``_room = 8'(P``_rm); \
	assign P``_unused = ^P``_acc_n;

`define EQ_RCV_FRAME (`LOOM_FRAME_MAX - `LOOM_FRAME_CRC_SIZE)
`define EQ_RCV_PORTS(P) \
	input  logic P``_flush, \
	input  logic P``_training, \
	input  logic P``_up, \
	input  logic [3:0] P``_lane_flags, \
	input  logic P``_res_valid, \
	input  logic [2:0] P``_res_status, \
	input  logic [8*`EQ_RCV_FRAME-1:0] P``_res_frame, \
	input  logic [31:0] P``_tx_base, \
	input  logic [31:0] P``_tx_next, \
	input  logic [31:0] P``_rx_expected, \
	input  logic [255:0] P``_grant, \
	input  logic [255:0] P``_received, \
	input  logic [255:0] P``_granted, \
	input  logic [255:0] P``_sent, \
	input  logic P``_maint_pop, \
	output logic [3:0] P``_ln_flags, \
	output logic P``_ln_crc_err, \
	output logic [31:0] P``_ln_crc_seq, \
	output logic P``_ln_narrow, \
	output logic [2:0] P``_ln_narrow_n, \
	output logic [1:0] P``_ack, \
	output logic [31:0] P``_ack_value, \
	output logic P``_data_valid, \
	output logic [31:0] P``_data_seq, \
	output logic P``_rx_error, \
	output logic [7:0] P``_upd_valid, \
	output logic [255:0] P``_upd_value, \
	output logic P``_acc_valid, \
	output logic [2:0] P``_acc_vc, \
	output logic [31:0] P``_acc_flits, \
	output logic [5:0] P``_events, \
	output logic P``_dlv_valid, \
	output logic [2:0] P``_dlv_vc, \
	output logic [15:0] P``_dlv_len, \
	output logic [8*`EQ_XBLD_BODY-1:0] P``_dlv_body, \
	output logic [15:0] P``_c_rx_bytes, \
	output logic [15:0] P``_c_events, \
	output logic [31:0] P``_peer_node, \
	output logic [31:0] P``_peer_port, \
	output logic P``_lane_flagged, \
	output logic P``_maint_full, \
	output logic [15:0] P``_maint_len, \
	output logic [8*`EQ_XBLD_BODY-1:0] P``_maint_body
// ack: ack_valid, ack_nak (bit 0 first); events: rep, set_train_due,
// set_train_answer, set_poll_answer, progress, came_up (bit 0 first)
`define EQ_RCV(P, VCS_, BUF_DEPTH_, FB_) \
	logic [VCS_-1:0] P``_uv; \
	logic [32*VCS_-1:0] P``_uval; \
	logic P``_unused; \
	loom_link_recv #(.VCS(VCS_), .BUF_DEPTH(BUF_DEPTH_), .FLIT_BYTES(FB_)) u_``P ( \
		.clk(clk), .rst(rst), .flush(P``_flush), .training(P``_training), .up(P``_up), \
		.lane_flags(P``_lane_flags), .res_valid(P``_res_valid), \
		.res_status(P``_res_status), .res_frame(P``_res_frame), .tx_base(P``_tx_base), \
		.tx_next(P``_tx_next), .rx_expected(P``_rx_expected), \
		.grant(P``_grant[32*VCS_-1:0]), .received(P``_received[32*VCS_-1:0]), \
		.granted(P``_granted[32*VCS_-1:0]), .sent(P``_sent[32*VCS_-1:0]), \
		.maint_pop(P``_maint_pop), .ln_flags(P``_ln_flags), .ln_crc_err(P``_ln_crc_err), \
		.ln_crc_seq(P``_ln_crc_seq), .ln_narrow(P``_ln_narrow), \
		.ln_narrow_n(P``_ln_narrow_n), .ack_valid(P``_ack[0]), .ack_nak(P``_ack[1]), \
		.ack_value(P``_ack_value), .data_valid(P``_data_valid), .data_seq(P``_data_seq), \
		.rx_error(P``_rx_error), .upd_valid(P``_uv), .upd_value(P``_uval), \
		.acc_valid(P``_acc_valid), .acc_vc(P``_acc_vc), .acc_flits(P``_acc_flits), \
		.rep(P``_events[0]), .set_train_due(P``_events[1]), \
		.set_train_answer(P``_events[2]), .set_poll_answer(P``_events[3]), \
		.progress(P``_events[4]), .came_up(P``_events[5]), .dlv_valid(P``_dlv_valid), \
		.dlv_vc(P``_dlv_vc), .dlv_len(P``_dlv_len), .dlv_body(P``_dlv_body), \
		.c_rx_bytes(P``_c_rx_bytes), .c_events(P``_c_events), .peer_node(P``_peer_node), \
		.peer_port(P``_peer_port), .lane_flagged(P``_lane_flagged), \
		.maint_full(P``_maint_full), .maint_len(P``_maint_len), \
		.maint_body(P``_maint_body)); \
	assign P``_upd_valid = 8'(P``_uv); \
	assign P``_upd_value = 256'(P``_uval); \
	assign P``_unused = ^{P``_grant, P``_received, P``_granted, P``_sent};

module loom_equiv_units #(
	// flit FIFO A: deep history (stage latencies up to FA_HIST + 1)
	parameter integer FA_DEPTH = 4,
	parameter integer FA_WIDTH = 16,
	parameter integer FA_HIST = 3,
	// flit FIFO B: a depth that is not a power of two
	parameter integer FB_DEPTH = 5,
	parameter integer FB_WIDTH = 8,
	parameter integer FB_HIST = 1,
	// credit counters: a short return line and a long one
	parameter integer CA_DEPTH = 5,
	parameter integer CA_RET_LAT = 1,
	parameter integer CB_DEPTH = 10,
	parameter integer CB_RET_LAT = 3,
	// arbiters
	parameter integer RR_N = 5,
	parameter integer RRW_N = 64,
	parameter integer MX_N = 7,
	parameter integer T3_N = 6,
	parameter integer IW_N = 9,
	parameter integer IW_M = 5,
	// CRC-32C: 1, 6 and 16 (the card's link) bytes a cycle
	parameter integer CRCA_LANES = 1,
	parameter integer CRCA_LANE_BYTES = 1,
	parameter integer CRCB_LANES = 2,
	parameter integer CRCB_LANE_BYTES = 3,
	parameter integer CRCC_LANES = 4,
	parameter integer CRCC_LANE_BYTES = 4,
	// go-back-N senders: a small window and a short timer, the card's
	// window with sequence numbers that wrap soon; receivers likewise
	parameter integer GA_REPLAY_FRAMES = 5,
	parameter integer GA_ACK_TIMEOUT = 7,
	parameter logic [31:0] GA_FIRST = 32'd0,
	parameter integer GB_REPLAY_FRAMES = 64,
	parameter integer GB_ACK_TIMEOUT = 40,
	parameter logic [31:0] GB_FIRST = 32'hffff_fff0,
	parameter logic [31:0] RA_FIRST = 32'd0,
	parameter logic [31:0] RB_FIRST = 32'hffff_fff8,
	// credit return: 3 VCs of a 30-flit buffer, 64-byte flits; the card's link
	parameter integer LC_VCS = 3,
	parameter integer LC_BUF_DEPTH = 30,
	parameter integer LC_FLIT_BYTES = 64,
	parameter integer LD_VCS = 8,
	parameter integer LD_BUF_DEPTH = 152,
	parameter integer LD_FLIT_BYTES = 16,
	// lanes: degrading fast with short windows, the card's threshold, never
	// degrading with windows of one cycle
	parameter integer LNA_LANES = 4,
	parameter integer LNA_LANE_THRESHOLD = 3,
	parameter integer LNA_LANE_WINDOW = 50,
	parameter integer LNB_LANES = 4,
	parameter integer LNB_LANE_THRESHOLD = 16,
	parameter integer LNB_LANE_WINDOW = 4096,
	parameter integer LNC_LANES = 2,
	parameter integer LNC_LANE_THRESHOLD = 0,
	parameter integer LNC_LANE_WINDOW = 1,
	// frame encoder and serialiser: the card's 4 lanes of 4 bytes (the
	// harness's link narrows them), 4 lanes of 16 bytes (up to 3 frames a
	// cycle; the harness's link never narrows them)
	parameter integer XA_LANES = 4,
	parameter integer XA_LANE_BYTES = 4,
	parameter integer XB_LANES = 4,
	parameter integer XB_LANE_BYTES = 16,
	// the link receiver's framer: its smallest window, one result a cycle
	// and 64 bytes a cycle (its buffer fills); a window of 1024 bytes and
	// 4 results at the card's 16 bytes a cycle
	parameter integer RFA_RX_WINDOW = `LOOM_FRAME_MAX,
	parameter integer RFA_RX_FRAMES = 1,
	parameter integer RFA_LANES = 4,
	parameter integer RFA_LANE_BYTES = 16,
	parameter integer RFA_RX_BUF = 1024,
	parameter integer RFB_RX_WINDOW = 1024,
	parameter integer RFB_RX_FRAMES = 4,
	parameter integer RFB_LANES = 4,
	parameter integer RFB_LANE_BYTES = 4,
	parameter integer RFB_RX_BUF = 2048,
	// packet assembly A: the card's flit width, VCS 3 (so flits on VCs the link
	// does not carry); B: 64-byte flits (a header in one flit), every VC, one packet queued
	parameter integer XMA_VCS = 3,
	parameter integer XMA_FLIT_BYTES = 16,
	parameter integer XMA_TX_QUEUE = 3,
	parameter integer XMB_VCS = 8,
	parameter integer XMB_FLIT_BYTES = 64,
	parameter integer XMB_TX_QUEUE = 1,
	// frame builder and replay buffer A: the card's link (VCS 8, a 64-frame
	// window, a coalescing delay of 32); B: VCS 3, a window of 4 frames, no
	// coalescing delay, the shortest acknowledgement timeout its lanes allow
	parameter integer XBA_VCS = 8,
	parameter integer XBA_ACK_TIMEOUT = 240,
	parameter integer XBA_COALESCE_DELAY = 32,
	parameter integer XBA_REPLAY_FRAMES = 64,
	parameter integer XBB_VCS = 3,
	parameter integer XBB_ACK_TIMEOUT = 80,
	parameter integer XBB_COALESCE_DELAY = 0,
	parameter integer XBB_REPLAY_FRAMES = 4,
	// delivery queue A: the card's link (16-byte flits, 4 packets, 4 accepted
	// a cycle); B: 64-byte flits, 3 packets, 2 accepted a cycle
	parameter integer RDA_FLIT_BYTES = 16,
	parameter integer RDA_RX_QUEUE = 4,
	parameter integer RDA_RX_FRAMES = 64,
	parameter integer RDB_FLIT_BYTES = 64,
	parameter integer RDB_RX_QUEUE = 3,
	parameter integer RDB_RX_FRAMES = 2,
	// frame checker A: the card's link (VCS 8, BUF_DEPTH 152, 16-byte flits);
	// B: VCS 3 of 8-byte flits, a buffer of one maximal packet (38 flits)
	parameter integer RCA_VCS = 8,
	parameter integer RCA_BUF_DEPTH = 152,
	parameter integer RCA_FLIT_BYTES = 16,
	parameter integer RCB_VCS = 3,
	parameter integer RCB_BUF_DEPTH = 38,
	parameter integer RCB_FLIT_BYTES = 8
) (
	input  logic clk,
	input  logic rst,
	`EQ_FIFO_PORTS(fa, FA_WIDTH, FA_HIST),
	`EQ_FIFO_PORTS(fb, FB_WIDTH, FB_HIST),
	// credit counters
	input  logic ca_take,
	input  logic ca_ret,
	output logic ca_has,
	input  logic cb_take,
	input  logic cb_ret,
	output logic cb_has,
	// credit counter B as Yosys's iCE40 netlist (the flow of the
	// post-synthesis check), on B's inputs
	output logic cbn_has,
	// arbiters: x in rr (round robin), rrw (round robin, 64 wide), mx
	// (matrix), t3 (T3E), iw (IWA)
	input  logic [RR_N-1:0] rr_req,
	output logic rr_gnt_valid,
	output logic [6:0] rr_gnt_idx,
	input  logic rr_upd,
	input  logic [6:0] rr_upd_idx,
	input  logic [RRW_N-1:0] rrw_req,
	output logic rrw_gnt_valid,
	output logic [6:0] rrw_gnt_idx,
	input  logic rrw_upd,
	input  logic [6:0] rrw_upd_idx,
	input  logic [MX_N-1:0] mx_req,
	output logic mx_gnt_valid,
	output logic [6:0] mx_gnt_idx,
	input  logic mx_upd,
	input  logic [6:0] mx_upd_idx,
	input  logic [T3_N-1:0] t3_req,
	output logic t3_gnt_valid,
	output logic [6:0] t3_gnt_idx,
	input  logic t3_upd,
	input  logic [6:0] t3_upd_idx,
	input  logic t3_upd_hold,
	input  logic [IW_N-1:0] iw_req,
	output logic iw_gnt_valid,
	output logic [6:0] iw_gnt_idx,
	input  logic iw_upd,
	input  logic [6:0] iw_upd_idx,
	input  logic iw_upd_pat,
	input  logic iw_wr_en,
	input  logic [6:0] iw_wr_idx,
	input  logic iw_wr_pat,
	input  logic [7:0] iw_wr_weight,
	// CRC-32C units: P_n of the P_data bytes enter, byte 0 first
	`EQ_CRC_PORTS(crca, CRCA_LANES, CRCA_LANE_BYTES),
	`EQ_CRC_PORTS(crcb, CRCB_LANES, CRCB_LANE_BYTES),
	`EQ_CRC_PORTS(crcc, CRCC_LANES, CRCC_LANE_BYTES),
	// go-back-N senders (gX_) and receivers (rX_)
	`EQ_GBN_TX_PORTS(ga),
	`EQ_GBN_TX_PORTS(gb),
	`EQ_GBN_RX_PORTS(ra),
	`EQ_GBN_RX_PORTS(rb),
	// credit return (lX_)
	`EQ_LINK_CREDIT_PORTS(lc, LC_VCS),
	`EQ_LINK_CREDIT_PORTS(ld, LD_VCS),
	// lanes (lnX_)
	`EQ_LANES_PORTS(lna),
	`EQ_LANES_PORTS(lnb),
	`EQ_LANES_PORTS(lnc),
	// frame encoders and serialisers (xX_)
	`EQ_XSER_PORTS(xa, XA_LANES, XA_LANE_BYTES),
	`EQ_XSER_PORTS(xb, XB_LANES, XB_LANE_BYTES),
	// the link receiver's framers (rfX_)
	`EQ_RXF_PORTS(rfa, RFA_LANES, RFA_LANE_BYTES, RFA_RX_FRAMES),
	`EQ_RXF_PORTS(rfb, RFB_LANES, RFB_LANE_BYTES, RFB_RX_FRAMES),
	// the link transmitter's packet assembly (xmX_)
	`EQ_XASM_PORTS(xma, XMA_FLIT_BYTES),
	`EQ_XASM_PORTS(xmb, XMB_FLIT_BYTES),
	// the link transmitter's frame builder and replay buffer (xbX_)
	`EQ_XBLD_PORTS(xba),
	`EQ_XBLD_PORTS(xbb),
	// the link receiver's delivery queue (rdX_)
	`EQ_RDLV_PORTS(rda, RDA_FLIT_BYTES, 4),
	`EQ_RDLV_PORTS(rdb, RDB_FLIT_BYTES, 2),
	// the link receiver's frame checker (rcX_)
	`EQ_RCV_PORTS(rca),
	`EQ_RCV_PORTS(rcb),
	// drift check: row k_idx of the constants, word k_word of parameter row k_idx
	input  logic [9:0] k_idx,
	input  logic [1:0] k_word,
	output logic [63:0] k_const,
	output logic [31:0] k_param
);
	`include "loom_hw_drift.vh"

	// ---- flit FIFOs ----
	`EQ_FIFO(fa, FA_DEPTH, FA_WIDTH, FA_HIST)
	`EQ_FIFO(fb, FB_DEPTH, FB_WIDTH, FB_HIST)

	// ---- credit counters ----
	loom_credit_counter #(.DEPTH(CA_DEPTH), .RET_LAT(CA_RET_LAT)) u_ca (
		.clk(clk), .rst(rst), .take(ca_take), .ret(ca_ret), .has(ca_has));
	loom_credit_counter #(.DEPTH(CB_DEPTH), .RET_LAT(CB_RET_LAT)) u_cb (
		.clk(clk), .rst(rst), .take(cb_take), .ret(cb_ret), .has(cb_has));
	// synthesized at CB_DEPTH and CB_RET_LAT's defaults (rtl.mk)
	loom_credit_counter_ice40 u_cbn (
		.clk(clk), .rst(rst), .take(cb_take), .ret(cb_ret), .has(cbn_has));

	// ---- arbiters ----
	localparam integer RR_IW = $clog2(RR_N);
	localparam integer RRW_IW = $clog2(RRW_N);
	localparam integer MX_IW = $clog2(MX_N);
	localparam integer T3_IW = $clog2(T3_N);
	localparam integer IW_IW = $clog2(IW_N);
	logic [RR_IW-1:0] rr_g;
	logic [RRW_IW-1:0] rrw_g;
	logic [MX_IW-1:0] mx_g;
	logic [T3_IW-1:0] t3_g;
	logic [IW_IW-1:0] iw_g;

	loom_arbiter #(.KIND(`ARB_RR), .N(RR_N)) u_rr (
		.clk(clk), .rst(rst), .req(rr_req), .gnt_valid(rr_gnt_valid), .gnt_idx(rr_g),
		.upd(rr_upd), .upd_idx(rr_upd_idx[RR_IW-1:0]), .upd_pat(1'b0), .upd_hold(1'b0),
		.wr_en(1'b0), .wr_idx(7'd0), .wr_pat(1'b0), .wr_weight(8'd0));
	loom_arbiter #(.KIND(`ARB_RR), .N(RRW_N)) u_rrw (
		.clk(clk), .rst(rst), .req(rrw_req), .gnt_valid(rrw_gnt_valid), .gnt_idx(rrw_g),
		.upd(rrw_upd), .upd_idx(rrw_upd_idx[RRW_IW-1:0]), .upd_pat(1'b0), .upd_hold(1'b0),
		.wr_en(1'b0), .wr_idx(7'd0), .wr_pat(1'b0), .wr_weight(8'd0));
	loom_arbiter #(.KIND(`ARB_MATRIX), .N(MX_N)) u_mx (
		.clk(clk), .rst(rst), .req(mx_req), .gnt_valid(mx_gnt_valid), .gnt_idx(mx_g),
		.upd(mx_upd), .upd_idx(mx_upd_idx[MX_IW-1:0]), .upd_pat(1'b0), .upd_hold(1'b0),
		.wr_en(1'b0), .wr_idx(7'd0), .wr_pat(1'b0), .wr_weight(8'd0));
	loom_arbiter #(.KIND(`ARB_T3E), .N(T3_N)) u_t3 (
		.clk(clk), .rst(rst), .req(t3_req), .gnt_valid(t3_gnt_valid), .gnt_idx(t3_g),
		.upd(t3_upd), .upd_idx(t3_upd_idx[T3_IW-1:0]), .upd_pat(1'b0), .upd_hold(t3_upd_hold),
		.wr_en(1'b0), .wr_idx(7'd0), .wr_pat(1'b0), .wr_weight(8'd0));
	loom_arbiter #(.KIND(`ARB_IWA), .N(IW_N), .M_BITS(IW_M)) u_iw (
		.clk(clk), .rst(rst), .req(iw_req), .gnt_valid(iw_gnt_valid), .gnt_idx(iw_g),
		.upd(iw_upd), .upd_idx(iw_upd_idx[IW_IW-1:0]), .upd_pat(iw_upd_pat), .upd_hold(1'b0),
		.wr_en(iw_wr_en), .wr_idx(iw_wr_idx), .wr_pat(iw_wr_pat), .wr_weight(iw_wr_weight));
	assign rr_gnt_idx = 7'(rr_g);
	assign rrw_gnt_idx = 7'(rrw_g);
	assign mx_gnt_idx = 7'(mx_g);
	assign t3_gnt_idx = 7'(t3_g);
	assign iw_gnt_idx = 7'(iw_g);

	// ---- CRC-32C ----
	`EQ_CRC(crca, CRCA_LANES, CRCA_LANE_BYTES)
	`EQ_CRC(crcb, CRCB_LANES, CRCB_LANE_BYTES)
	`EQ_CRC(crcc, CRCC_LANES, CRCC_LANE_BYTES)

	// ---- go-back-N ----
	`EQ_GBN_TX(ga, GA_REPLAY_FRAMES, GA_ACK_TIMEOUT, GA_FIRST)
	`EQ_GBN_TX(gb, GB_REPLAY_FRAMES, GB_ACK_TIMEOUT, GB_FIRST)
	`EQ_GBN_RX(ra, RA_FIRST)
	`EQ_GBN_RX(rb, RB_FIRST)

	// ---- credit return ----
	`EQ_LINK_CREDIT(lc, LC_VCS, LC_BUF_DEPTH, LC_FLIT_BYTES)
	`EQ_LINK_CREDIT(ld, LD_VCS, LD_BUF_DEPTH, LD_FLIT_BYTES)

	// ---- lanes ----
	`EQ_LANES(lna, LNA_LANES, LNA_LANE_THRESHOLD, LNA_LANE_WINDOW)
	`EQ_LANES(lnb, LNB_LANES, LNB_LANE_THRESHOLD, LNB_LANE_WINDOW)
	`EQ_LANES(lnc, LNC_LANES, LNC_LANE_THRESHOLD, LNC_LANE_WINDOW)

	// ---- frame encoder and serialiser ----
	`EQ_XSER(xa, XA_LANES, XA_LANE_BYTES)
	`EQ_XSER(xb, XB_LANES, XB_LANE_BYTES)

	// ---- the link receiver's framer ----
	`EQ_RXF(rfa, RFA_RX_WINDOW, RFA_RX_FRAMES, RFA_LANES, RFA_LANE_BYTES, RFA_RX_BUF)
	`EQ_RXF(rfb, RFB_RX_WINDOW, RFB_RX_FRAMES, RFB_LANES, RFB_LANE_BYTES, RFB_RX_BUF)

	// ---- the link transmitter's packet assembly ----
	`EQ_XASM(xma, XMA_VCS, XMA_FLIT_BYTES, XMA_TX_QUEUE)
	`EQ_XASM(xmb, XMB_VCS, XMB_FLIT_BYTES, XMB_TX_QUEUE)

	// ---- the link transmitter's frame builder and replay buffer ----
	`EQ_XBLD(xba, XBA_VCS, XBA_ACK_TIMEOUT, XBA_COALESCE_DELAY, XBA_REPLAY_FRAMES)
	`EQ_XBLD(xbb, XBB_VCS, XBB_ACK_TIMEOUT, XBB_COALESCE_DELAY, XBB_REPLAY_FRAMES)

	// ---- the link receiver's delivery queue ----
	`EQ_RDLV(rda, RDA_FLIT_BYTES, RDA_RX_QUEUE, RDA_RX_FRAMES)
	`EQ_RDLV(rdb, RDB_FLIT_BYTES, RDB_RX_QUEUE, RDB_RX_FRAMES)

	// ---- the link receiver's frame checker ----
	`EQ_RCV(rca, RCA_VCS, RCA_BUF_DEPTH, RCA_FLIT_BYTES)
	`EQ_RCV(rcb, RCB_VCS, RCB_BUF_DEPTH, RCB_FLIT_BYTES)

	// ---- drift check ----
	assign k_const = loom_hw_const(32'(k_idx));
	assign k_param = loom_hw_param(32'(k_idx), 32'(k_word));

	// the index bits above each arbiter's width
	logic unused;
	assign unused = ^{rr_upd_idx, rrw_upd_idx, mx_upd_idx, t3_upd_idx, iw_upd_idx};
endmodule

`undef EQ_FIFO_PORTS
`undef EQ_FIFO
`undef EQ_CRC_PORTS
`undef EQ_CRC
`undef EQ_GBN_TX_PORTS
`undef EQ_GBN_TX
`undef EQ_GBN_RX_PORTS
`undef EQ_GBN_RX
`undef EQ_LINK_CREDIT_PORTS
`undef EQ_LINK_CREDIT
`undef EQ_LANES_PORTS
`undef EQ_LANES
`undef EQ_XSER_SLOTS
`undef EQ_XSER_PORTS
`undef EQ_XSER
`undef EQ_RXF_PORTS
`undef EQ_RXF
`undef EQ_XASM_BYTES
`undef EQ_XASM_PORTS
`undef EQ_XASM
`undef EQ_XBLD_BODY
`undef EQ_XBLD_PORTS
`undef EQ_XBLD
`undef EQ_RDLV_PORTS
`undef EQ_RDLV
`undef EQ_RCV_FRAME
`undef EQ_RCV_PORTS
`undef EQ_RCV
