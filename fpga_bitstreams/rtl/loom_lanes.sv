// SPDX-License-Identifier: GPL-2.0
//
// Lane training and degradation of a link (link/lanes.c, struct lanes):
// the lanes in use and every lane's error accounting, cycle by cycle.  In
// one cycle, in the order the link unit makes them (each result
// combinational in that cycle):
//   train or down (alone): the link trains at LANES lanes, or is down
//       (0 lanes); every count restarts (lanes_reset);
//   flags: the lanes the line decoder flagged in the bytes that arrived,
//       each lane below the lanes in use charged one error, lane 0 first
//       (lanes_error_on for every set bit, as link_recv_lane_flags);
//   crc_err: a frame with a bad CRC no lane was flagged for, charged to
//       lane crc_seq % lanes in use (lanes_error): crc_lane;
//   narrow: the peer's lane notice, narrow_n lanes when below the lanes
//       in use (link_recv_train).
// An error starts the lane's window when the lane has none open or its
// window of LANE_WINDOW cycles is over; the lane's errors in its window
// reaching LANE_THRESHOLD (0: never) halve the lanes in use (4 -> 2 -> 1,
// never below one) and close every lane's window: dropped.
//
// Registers: the lanes in use n, the lanes dropped since training, per
// lane the cumulative errors, the errors in its window and the window's
// age (cycles since it opened, held at LANE_WINDOW: all the check needs of
// the C model's cycle of the window's start).
`include "loom_hw.vh"

module loom_lanes #(
	parameter integer LANES = `LINK_LANES_DEFAULT,
	parameter integer LANE_THRESHOLD = `LINK_LANE_THRESHOLD_DEFAULT,
	parameter integer LANE_WINDOW = `LINK_LANE_WINDOW_DEFAULT
) (
	input  logic clk,
	input  logic rst,
	input  logic train,
	input  logic down,
	input  logic [3:0] flags,
	input  logic crc_err,
	input  logic [31:0] crc_seq,
	output logic [1:0] crc_lane,
	input  logic narrow,
	input  logic [2:0] narrow_n,
	output logic dropped,
	// the registers: lane i in bits 32i + 31 .. 32i (age: 31 bits a lane)
	output logic [2:0] n,
	output logic [31:0] drops,
	output logic [32*4-1:0] errors,
	output logic [32*4-1:0] win_count,
	output logic [31*4-1:0] win_age
);
	localparam logic [30:0] WINDOW = 31'(LANE_WINDOW);
	localparam logic [31:0] THRESHOLD = 32'(LANE_THRESHOLD);

	if (LANES != 1 && LANES != 2 && LANES != 4) begin : g_bad_lanes
		$error("link parameter LANES is not 1, 2 or 4 (link_params.h)");
	end
	if (LANE_THRESHOLD < `LINK_LANE_THRESHOLD_MIN || LANE_THRESHOLD > `LINK_LANE_THRESHOLD_MAX) begin : g_bad_threshold
		$error("link parameter LANE_THRESHOLD is outside LINK_LANE_THRESHOLD_MIN .. LINK_LANE_THRESHOLD_MAX (link_params.h)");
	end
	if (LANE_WINDOW < `LINK_LANE_WINDOW_MIN || LANE_WINDOW > `LINK_LANE_WINDOW_MAX) begin : g_bad_window
		$error("link parameter LANE_WINDOW is outside LINK_LANE_WINDOW_MIN .. LINK_LANE_WINDOW_MAX (link_params.h)");
	end

	logic [2:0] r_n;
	logic [31:0] r_drops;
	logic [31:0] r_err [0:3], r_wc [0:3];
	logic [30:0] r_age [0:3];

	logic [2:0] nn;
	logic [31:0] ndrops;
	logic [31:0] err [0:3], wc [0:3];
	logic [30:0] age [0:3];
	logic [1:0] cl;

	// one error on lane @i (< nn): lanes_error_on
	task automatic error_on(input logic [1:0] i);
		integer k;
		err[i] = err[i] + 32'd1;
`ifdef LOOM_MUTATE_LANES
		// deliberately wrong (mutation check): the window closes a cycle early
		if (wc[i] == 32'd0 || age[i] + 31'd1 >= WINDOW) begin
`else
		if (wc[i] == 32'd0 || age[i] >= WINDOW) begin
`endif
			age[i] = 31'd0;
			wc[i] = 32'd0;
		end
		wc[i] = wc[i] + 32'd1;
		if (THRESHOLD != 32'd0 && wc[i] >= THRESHOLD && nn != 3'd1) begin
			nn = nn >> 1;
			ndrops = ndrops + 32'd1;
			for (k = 0; k < 4; k = k + 1)
				wc[k] = 32'd0;
			dropped = 1'b1;
		end
	endtask

	always_comb begin
		integer i;
		nn = r_n;
		ndrops = r_drops;
		for (i = 0; i < 4; i = i + 1) begin
			err[i] = r_err[i];
			wc[i] = r_wc[i];
			age[i] = r_age[i];
		end
		dropped = 1'b0;
		cl = 2'd0;
		if (train || down) begin
			nn = train ? 3'(LANES) : 3'd0;
			ndrops = 32'd0;
			for (i = 0; i < 4; i = i + 1) begin
				err[i] = 32'd0;
				wc[i] = 32'd0;
				age[i] = 31'd0;
			end
		end else begin
			// the lanes in use may halve between two flagged lanes
			for (i = 0; i < 4; i = i + 1)
				if (flags[i] && 3'(i) < nn)
					error_on(2'(i));
			// nn is 1, 2 or 4: the remainder is a mask
			cl = crc_seq[1:0] & 2'(nn - 3'd1);
			if (crc_err && nn != 3'd0)
				error_on(cl);
			if (narrow && narrow_n < nn)
				nn = narrow_n;
		end
	end
	assign crc_lane = cl;
	// the remainder by 1, 2 or 4 needs the low bits alone
	logic unused;
	assign unused = ^crc_seq[31:2];

	always_ff @(posedge clk) begin
		integer i;
		if (rst) begin
			// link_unit_init: lanes_reset(0)
			r_n <= 3'd0;
			r_drops <= 32'd0;
			for (i = 0; i < 4; i = i + 1) begin
				r_err[i] <= 32'd0;
				r_wc[i] <= 32'd0;
				r_age[i] <= 31'd0;
			end
		end else begin
			r_n <= nn;
			r_drops <= ndrops;
			for (i = 0; i < 4; i = i + 1) begin
				r_err[i] <= err[i];
				r_wc[i] <= wc[i];
				r_age[i] <= age[i] >= WINDOW ? WINDOW : age[i] + 31'd1;
			end
		end
	end

	genvar g;
	for (g = 0; g < 4; g = g + 1) begin : g_view
		assign errors[32*g +: 32] = r_err[g];
		assign win_count[32*g +: 32] = r_wc[g];
		assign win_age[31*g +: 31] = r_age[g];
	end
	assign n = r_n;
	assign drops = r_drops;
endmodule
