// SPDX-License-Identifier: GPL-2.0
//
// The units the equivalence harness (equiv_units.cpp) steps against the
// C model, side by side in one Verilated model: flit FIFOs, credit
// counters, arbiters of every policy, the link's CRC-32C at several lane
// widths, its go-back-N sender and receiver and its credit return, each at
// its own parameters, and the drift check's view of
// the generated constants.  Every input is a
// port the harness drives; every output is compared every cycle.
`include "loom_hw.vh"
`include "loom_fifo.vh"

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
	parameter integer LD_FLIT_BYTES = 16
) (
	input  logic clk,
	input  logic rst,
	// FIFO A
	input  logic fa_push,
	input  logic [FA_WIDTH-1:0] fa_push_data,
	input  logic fa_pop,
	output logic [FA_WIDTH-1:0] fa_front,
	output logic [FA_WIDTH-1:0] fa_second,
	output logic [7:0] fa_count,
	output logic [FA_HIST:0] fa_age0,	// bit a-1: front visible at stage latency a
	output logic [FA_HIST:0] fa_age1,	// bit a-1: second flit visible at latency a
	// FIFO B
	input  logic fb_push,
	input  logic [FB_WIDTH-1:0] fb_push_data,
	input  logic fb_pop,
	output logic [FB_WIDTH-1:0] fb_front,
	output logic [FB_WIDTH-1:0] fb_second,
	output logic [7:0] fb_count,
	output logic [FB_HIST:0] fb_age0,
	output logic [FB_HIST:0] fb_age1,
	// credit counters
	input  logic ca_take,
	input  logic ca_ret,
	output logic ca_has,
	input  logic cb_take,
	input  logic cb_ret,
	output logic cb_has,
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
	// CRC-32C units: crcX_n of the crcX_data bytes enter, byte 0 first
	input  logic crca_start,
	input  logic [6:0] crca_n,
	input  logic [8*CRCA_LANES*CRCA_LANE_BYTES-1:0] crca_data,
	output logic [31:0] crca_crc,
	output logic [31:0] crca_crc_next,
	input  logic crcb_start,
	input  logic [6:0] crcb_n,
	input  logic [8*CRCB_LANES*CRCB_LANE_BYTES-1:0] crcb_data,
	output logic [31:0] crcb_crc,
	output logic [31:0] crcb_crc_next,
	input  logic crcc_start,
	input  logic [6:0] crcc_n,
	input  logic [8*CRCC_LANES*CRCC_LANE_BYTES-1:0] crcc_data,
	output logic [31:0] crcc_crc,
	output logic [31:0] crcc_crc_next,
	// go-back-N senders (gX_) and receivers (rX_)
	input  logic ga_ack_valid,
	input  logic ga_ack_nak,
	input  logic [31:0] ga_ack_value,
	output logic [31:0] ga_ack_freed,
	output logic ga_nak_rewound,
	input  logic ga_timer,
	output logic ga_timer_fired,
	output logic ga_take_ok,
	input  logic ga_take,
	output logic ga_take_resend,
	output logic [31:0] ga_take_seq,
	output logic [15:0] ga_take_slot,
	output logic [31:0] ga_base,
	output logic [31:0] ga_next,
	output logic [31:0] ga_resend,
	output logic [15:0] ga_base_slot,
	output logic ga_timer_run,
	output logic [31:0] ga_timer_left,
	output logic [31:0] ga_held,
	output logic ga_room,
	output logic ga_resend_due,
	input  logic gb_ack_valid,
	input  logic gb_ack_nak,
	input  logic [31:0] gb_ack_value,
	output logic [31:0] gb_ack_freed,
	output logic gb_nak_rewound,
	input  logic gb_timer,
	output logic gb_timer_fired,
	output logic gb_take_ok,
	input  logic gb_take,
	output logic gb_take_resend,
	output logic [31:0] gb_take_seq,
	output logic [15:0] gb_take_slot,
	output logic [31:0] gb_base,
	output logic [31:0] gb_next,
	output logic [31:0] gb_resend,
	output logic [15:0] gb_base_slot,
	output logic gb_timer_run,
	output logic [31:0] gb_timer_left,
	output logic [31:0] gb_held,
	output logic gb_room,
	output logic gb_resend_due,
	input  logic ra_data_valid,
	input  logic [31:0] ra_data_seq,
	output logic [1:0] ra_verdict,
	input  logic ra_error,
	input  logic ra_clr_ack,
	input  logic ra_clr_nak,
	output logic [31:0] ra_expected,
	output logic ra_in_recovery,
	output logic ra_seen_valid,
	output logic [31:0] ra_last_seen,
	output logic ra_nak_due,
	output logic ra_ack_due,
	output logic [31:0] ra_ack_value,
	input  logic rb_data_valid,
	input  logic [31:0] rb_data_seq,
	output logic [1:0] rb_verdict,
	input  logic rb_error,
	input  logic rb_clr_ack,
	input  logic rb_clr_nak,
	output logic [31:0] rb_expected,
	output logic rb_in_recovery,
	output logic rb_seen_valid,
	output logic [31:0] rb_last_seen,
	output logic rb_nak_due,
	output logic rb_ack_due,
	output logic [31:0] rb_ack_value,
	// credit return (lX_)
	input  logic lc_train,
	input  logic lc_down,
	input  logic lc_upd_valid,
	input  logic [2:0] lc_upd_vc,
	input  logic [31:0] lc_upd_value,
	input  logic lc_acc_valid,
	input  logic [2:0] lc_acc_vc,
	input  logic [31:0] lc_acc_flits,
	input  logic lc_rep,
	input  logic [8*LC_VCS-1:0] lc_freed,
	input  logic lc_to_router,
	input  logic lc_ref_valid,
	input  logic [2:0] lc_ref_vc,
	input  logic [31:0] lc_ref_flits,
	input  logic lc_sent_valid,
	input  logic [2:0] lc_sent_vc,
	input  logic [31:0] lc_sent_flits,
	input  logic lc_pick,
	input  logic lc_adv,
	output logic lc_upd_ok,
	output logic lc_upd_gain,
	output logic lc_acc_may,
	output logic [LC_VCS-1:0] lc_freed_ok,
	output logic [8*LC_VCS-1:0] lc_router_credits,
	output logic lc_router_any,
	output logic lc_sent_has,
	output logic [2:0] lc_pick_vc,
	output logic [31:0] lc_pick_value,
	output logic lc_pick_was_pending,
	output logic lc_adv_any,
	output logic [32*LC_VCS-1:0] lc_q_grant,
	output logic [32*LC_VCS-1:0] lc_q_advertised,
	output logic [32*LC_VCS-1:0] lc_q_received,
	output logic [32*LC_VCS-1:0] lc_q_occupied,
	output logic [32*LC_VCS-1:0] lc_q_granted,
	output logic [32*LC_VCS-1:0] lc_q_sent,
	output logic [32*LC_VCS-1:0] lc_q_withheld,
	output logic [32*LC_VCS-1:0] lc_q_owed,
	output logic [LC_VCS-1:0] lc_pending,
	output logic [LC_VCS-1:0] lc_owed_mask,
	output logic [LC_VCS-1:0] lc_deficit_mask,
	output logic [LC_VCS-1:0] lc_low_mask,
	output logic [2:0] lc_rr,
	input  logic ld_train,
	input  logic ld_down,
	input  logic ld_upd_valid,
	input  logic [2:0] ld_upd_vc,
	input  logic [31:0] ld_upd_value,
	input  logic ld_acc_valid,
	input  logic [2:0] ld_acc_vc,
	input  logic [31:0] ld_acc_flits,
	input  logic ld_rep,
	input  logic [8*LD_VCS-1:0] ld_freed,
	input  logic ld_to_router,
	input  logic ld_ref_valid,
	input  logic [2:0] ld_ref_vc,
	input  logic [31:0] ld_ref_flits,
	input  logic ld_sent_valid,
	input  logic [2:0] ld_sent_vc,
	input  logic [31:0] ld_sent_flits,
	input  logic ld_pick,
	input  logic ld_adv,
	output logic ld_upd_ok,
	output logic ld_upd_gain,
	output logic ld_acc_may,
	output logic [LD_VCS-1:0] ld_freed_ok,
	output logic [8*LD_VCS-1:0] ld_router_credits,
	output logic ld_router_any,
	output logic ld_sent_has,
	output logic [2:0] ld_pick_vc,
	output logic [31:0] ld_pick_value,
	output logic ld_pick_was_pending,
	output logic ld_adv_any,
	output logic [32*LD_VCS-1:0] ld_q_grant,
	output logic [32*LD_VCS-1:0] ld_q_advertised,
	output logic [32*LD_VCS-1:0] ld_q_received,
	output logic [32*LD_VCS-1:0] ld_q_occupied,
	output logic [32*LD_VCS-1:0] ld_q_granted,
	output logic [32*LD_VCS-1:0] ld_q_sent,
	output logic [32*LD_VCS-1:0] ld_q_withheld,
	output logic [32*LD_VCS-1:0] ld_q_owed,
	output logic [LD_VCS-1:0] ld_pending,
	output logic [LD_VCS-1:0] ld_owed_mask,
	output logic [LD_VCS-1:0] ld_deficit_mask,
	output logic [LD_VCS-1:0] ld_low_mask,
	output logic [2:0] ld_rr,
	// drift check: row k_idx of the constants, word k_word of parameter row k_idx
	input  logic [9:0] k_idx,
	input  logic [1:0] k_word,
	output logic [63:0] k_const,
	output logic [31:0] k_param
);
	`include "loom_hw_drift.vh"

	localparam integer FA_CW = $clog2(FA_DEPTH + 1);
	localparam integer FB_CW = $clog2(FB_DEPTH + 1);
	`LOOM_AGE_GE_FN(fa_age_ge, FA_CW, FA_HIST)
	`LOOM_AGE_GE_FN(fb_age_ge, FB_CW, FB_HIST)

	// ---- flit FIFOs ----
	logic [FA_CW-1:0] fa_cnt;
	logic [FA_HIST-1:0] fa_hist;
	loom_flit_fifo #(.DEPTH(FA_DEPTH), .WIDTH(FA_WIDTH), .HIST(FA_HIST)) u_fa (
		.clk(clk), .rst(rst), .push(fa_push), .push_data(fa_push_data), .pop(fa_pop),
		.front(fa_front), .second(fa_second), .count(fa_cnt), .hist(fa_hist));
	assign fa_count = 8'(fa_cnt);
	always_comb
		for (int a = 1; a <= FA_HIST + 1; a++) begin
			fa_age0[a-1] = fa_age_ge(fa_cnt, fa_hist, a, 0);
			fa_age1[a-1] = fa_age_ge(fa_cnt, fa_hist, a, 1);
		end

	logic [FB_CW-1:0] fb_cnt;
	logic [FB_HIST-1:0] fb_hist;
	loom_flit_fifo #(.DEPTH(FB_DEPTH), .WIDTH(FB_WIDTH), .HIST(FB_HIST)) u_fb (
		.clk(clk), .rst(rst), .push(fb_push), .push_data(fb_push_data), .pop(fb_pop),
		.front(fb_front), .second(fb_second), .count(fb_cnt), .hist(fb_hist));
	assign fb_count = 8'(fb_cnt);
	always_comb
		for (int a = 1; a <= FB_HIST + 1; a++) begin
			fb_age0[a-1] = fb_age_ge(fb_cnt, fb_hist, a, 0);
			fb_age1[a-1] = fb_age_ge(fb_cnt, fb_hist, a, 1);
		end

	// ---- credit counters ----
	loom_credit_counter #(.DEPTH(CA_DEPTH), .RET_LAT(CA_RET_LAT)) u_ca (
		.clk(clk), .rst(rst), .take(ca_take), .ret(ca_ret), .has(ca_has));
	loom_credit_counter #(.DEPTH(CB_DEPTH), .RET_LAT(CB_RET_LAT)) u_cb (
		.clk(clk), .rst(rst), .take(cb_take), .ret(cb_ret), .has(cb_has));

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
	localparam integer CRCA_NW = $clog2(CRCA_LANES * CRCA_LANE_BYTES + 1);
	loom_crc32c #(.LANES(CRCA_LANES), .LANE_BYTES(CRCA_LANE_BYTES)) u_crca (
		.clk(clk), .rst(rst), .start(crca_start), .n(crca_n[CRCA_NW-1:0]),
		.data(crca_data), .crc(crca_crc), .crc_next(crca_crc_next));
	localparam integer CRCB_NW = $clog2(CRCB_LANES * CRCB_LANE_BYTES + 1);
	loom_crc32c #(.LANES(CRCB_LANES), .LANE_BYTES(CRCB_LANE_BYTES)) u_crcb (
		.clk(clk), .rst(rst), .start(crcb_start), .n(crcb_n[CRCB_NW-1:0]),
		.data(crcb_data), .crc(crcb_crc), .crc_next(crcb_crc_next));
	localparam integer CRCC_NW = $clog2(CRCC_LANES * CRCC_LANE_BYTES + 1);
	loom_crc32c #(.LANES(CRCC_LANES), .LANE_BYTES(CRCC_LANE_BYTES)) u_crcc (
		.clk(clk), .rst(rst), .start(crcc_start), .n(crcc_n[CRCC_NW-1:0]),
		.data(crcc_data), .crc(crcc_crc), .crc_next(crcc_crc_next));

	// ---- go-back-N ----
	localparam integer GA_SW = $clog2(GA_REPLAY_FRAMES > 1 ? GA_REPLAY_FRAMES : 2);
	logic [GA_SW-1:0] ga_ts, ga_bs;
	loom_gbn_tx #(.REPLAY_FRAMES(GA_REPLAY_FRAMES), .ACK_TIMEOUT(GA_ACK_TIMEOUT),
		.FIRST(GA_FIRST)) u_ga (
		.clk(clk), .rst(rst), .ack_valid(ga_ack_valid), .ack_nak(ga_ack_nak),
		.ack_value(ga_ack_value), .ack_freed(ga_ack_freed), .nak_rewound(ga_nak_rewound),
		.timer(ga_timer), .timer_fired(ga_timer_fired), .take_ok(ga_take_ok),
		.take(ga_take), .take_resend(ga_take_resend), .take_seq(ga_take_seq),
		.take_slot(ga_ts), .base(ga_base), .next(ga_next), .resend(ga_resend),
		.base_slot(ga_bs), .timer_run(ga_timer_run), .timer_left(ga_timer_left),
		.held(ga_held), .room(ga_room), .resend_due(ga_resend_due));
	assign ga_take_slot = 16'(ga_ts);
	assign ga_base_slot = 16'(ga_bs);
	localparam integer GB_SW = $clog2(GB_REPLAY_FRAMES > 1 ? GB_REPLAY_FRAMES : 2);
	logic [GB_SW-1:0] gb_ts, gb_bs;
	loom_gbn_tx #(.REPLAY_FRAMES(GB_REPLAY_FRAMES), .ACK_TIMEOUT(GB_ACK_TIMEOUT),
		.FIRST(GB_FIRST)) u_gb (
		.clk(clk), .rst(rst), .ack_valid(gb_ack_valid), .ack_nak(gb_ack_nak),
		.ack_value(gb_ack_value), .ack_freed(gb_ack_freed), .nak_rewound(gb_nak_rewound),
		.timer(gb_timer), .timer_fired(gb_timer_fired), .take_ok(gb_take_ok),
		.take(gb_take), .take_resend(gb_take_resend), .take_seq(gb_take_seq),
		.take_slot(gb_ts), .base(gb_base), .next(gb_next), .resend(gb_resend),
		.base_slot(gb_bs), .timer_run(gb_timer_run), .timer_left(gb_timer_left),
		.held(gb_held), .room(gb_room), .resend_due(gb_resend_due));
	assign gb_take_slot = 16'(gb_ts);
	assign gb_base_slot = 16'(gb_bs);
	loom_gbn_rx #(.FIRST(RA_FIRST)) u_ra (
		.clk(clk), .rst(rst), .data_valid(ra_data_valid), .data_seq(ra_data_seq),
		.verdict(ra_verdict), .error(ra_error), .clr_ack(ra_clr_ack),
		.clr_nak(ra_clr_nak), .expected(ra_expected), .in_recovery(ra_in_recovery),
		.seen_valid(ra_seen_valid), .last_seen(ra_last_seen), .nak_due(ra_nak_due),
		.ack_due(ra_ack_due), .ack_value(ra_ack_value));
	loom_gbn_rx #(.FIRST(RB_FIRST)) u_rb (
		.clk(clk), .rst(rst), .data_valid(rb_data_valid), .data_seq(rb_data_seq),
		.verdict(rb_verdict), .error(rb_error), .clr_ack(rb_clr_ack),
		.clr_nak(rb_clr_nak), .expected(rb_expected), .in_recovery(rb_in_recovery),
		.seen_valid(rb_seen_valid), .last_seen(rb_last_seen), .nak_due(rb_nak_due),
		.ack_due(rb_ack_due), .ack_value(rb_ack_value));

	// ---- credit return ----
	loom_link_credit #(.VCS(LC_VCS), .BUF_DEPTH(LC_BUF_DEPTH), .FLIT_BYTES(LC_FLIT_BYTES)) u_lc (
		.clk(clk), .rst(rst), .train(lc_train), .down(lc_down),
		.upd_valid(lc_upd_valid), .upd_vc(lc_upd_vc), .upd_value(lc_upd_value),
		.acc_valid(lc_acc_valid), .acc_vc(lc_acc_vc), .acc_flits(lc_acc_flits),
		.rep(lc_rep), .freed(lc_freed), .to_router(lc_to_router),
		.ref_valid(lc_ref_valid), .ref_vc(lc_ref_vc), .ref_flits(lc_ref_flits),
		.sent_valid(lc_sent_valid), .sent_vc(lc_sent_vc), .sent_flits(lc_sent_flits),
		.pick(lc_pick), .adv(lc_adv), .upd_ok(lc_upd_ok), .upd_gain(lc_upd_gain),
		.acc_may(lc_acc_may), .freed_ok(lc_freed_ok),
		.router_credits(lc_router_credits), .router_any(lc_router_any),
		.sent_has(lc_sent_has), .pick_vc(lc_pick_vc), .pick_value(lc_pick_value),
		.pick_was_pending(lc_pick_was_pending), .adv_any(lc_adv_any),
		.q_grant(lc_q_grant), .q_advertised(lc_q_advertised),
		.q_received(lc_q_received), .q_occupied(lc_q_occupied),
		.q_granted(lc_q_granted), .q_sent(lc_q_sent), .q_withheld(lc_q_withheld),
		.q_owed(lc_q_owed), .pending(lc_pending), .owed_mask(lc_owed_mask),
		.deficit_mask(lc_deficit_mask), .low_mask(lc_low_mask), .rr(lc_rr));
	loom_link_credit #(.VCS(LD_VCS), .BUF_DEPTH(LD_BUF_DEPTH), .FLIT_BYTES(LD_FLIT_BYTES)) u_ld (
		.clk(clk), .rst(rst), .train(ld_train), .down(ld_down),
		.upd_valid(ld_upd_valid), .upd_vc(ld_upd_vc), .upd_value(ld_upd_value),
		.acc_valid(ld_acc_valid), .acc_vc(ld_acc_vc), .acc_flits(ld_acc_flits),
		.rep(ld_rep), .freed(ld_freed), .to_router(ld_to_router),
		.ref_valid(ld_ref_valid), .ref_vc(ld_ref_vc), .ref_flits(ld_ref_flits),
		.sent_valid(ld_sent_valid), .sent_vc(ld_sent_vc), .sent_flits(ld_sent_flits),
		.pick(ld_pick), .adv(ld_adv), .upd_ok(ld_upd_ok), .upd_gain(ld_upd_gain),
		.acc_may(ld_acc_may), .freed_ok(ld_freed_ok),
		.router_credits(ld_router_credits), .router_any(ld_router_any),
		.sent_has(ld_sent_has), .pick_vc(ld_pick_vc), .pick_value(ld_pick_value),
		.pick_was_pending(ld_pick_was_pending), .adv_any(ld_adv_any),
		.q_grant(ld_q_grant), .q_advertised(ld_q_advertised),
		.q_received(ld_q_received), .q_occupied(ld_q_occupied),
		.q_granted(ld_q_granted), .q_sent(ld_q_sent), .q_withheld(ld_q_withheld),
		.q_owed(ld_q_owed), .pending(ld_pending), .owed_mask(ld_owed_mask),
		.deficit_mask(ld_deficit_mask), .low_mask(ld_low_mask), .rr(ld_rr));

	// ---- drift check ----
	assign k_const = loom_hw_const(32'(k_idx));
	assign k_param = loom_hw_param(32'(k_idx), 32'(k_word));

	// the index bits above each arbiter's width
	logic unused;
	assign unused = ^{rr_upd_idx, rrw_upd_idx, mx_upd_idx, t3_upd_idx, iw_upd_idx,
			  crca_n[6:CRCA_NW], crcb_n[6:CRCB_NW], crcc_n[6:CRCC_NW]};
endmodule
