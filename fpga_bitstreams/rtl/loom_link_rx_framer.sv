// SPDX-License-Identifier: GPL-2.0
//
// The link receiver's framer: the C model's resynchronising parser
// (link/link.c, link_rx_next()) as the link unit's receive half bounds it
// (link/link_recv.c: RX_WINDOW, RX_FRAMES).  Bytes from the lanes enter a
// buffer, up to LANES x LANE_BYTES a cycle (in_n of in_data, byte 0
// first).  In the same cycle the framer looks at the RX_WINDOW bytes from
// where it stands (buffered bytes first, then this cycle's) and completes
// up to take results (take <= RX_FRAMES: the frames the consumer has room
// for), each a frame with a good CRC-32C or a framing error:
//   - no frame magic where it stands: bad magic, once per error episode;
//     it skips to the next magic (or a lone first magic byte at the end of
//     its window);
//   - a header whose length exceeds the largest frame body: bad length;
//   - a complete frame whose CRC-32C differs from its trailer: bad CRC;
// after either of the last two it resynchronises one byte past the failed
// start, so a frame that starts inside what a corrupt header claimed is
// found.  Only the first error of an episode (from the first bad byte to
// the next good frame) is reported.  A result needing bytes beyond the
// window or not yet received waits for a later cycle.
//
// res_status[3k +: 3] is result k's status (link_rx_status: 1 frame,
// 2 bad magic, 3 bad length, 4 bad CRC), res_frame the frame's header and
// body (FRAME_BYTES bytes per result, zero past them); held is the bytes
// buffered and garbage the error episode, both registers.  RX_BUF is the
// buffer in bytes (a power of two): the C model's holds 32 KiB; the bytes
// a cycle brings must fit (the harness feeds no more than fit).
//
// MUTATE marks the instance the equivalence harness checks as this unit
// (LOOM_MUTATE_LINK_RX: the header length check off by one, refusing a
// maximal frame).
`include "loom_hw.vh"

module loom_link_rx_framer #(
	// a hardware bound (the C model's defaults bound nothing: its whole buffer)
	parameter integer RX_WINDOW = 1024,
	parameter integer RX_FRAMES = 4,
	parameter integer LANES = `LINK_LANES_DEFAULT,
	parameter integer LANE_BYTES = `LINK_LANE_BYTES_DEFAULT,
	parameter integer RX_BUF = 2048,
	parameter bit MUTATE = 1'b0,
	localparam integer IN = LANES * LANE_BYTES,
	localparam integer FRAME_BYTES = `LOOM_FRAME_MAX - `LOOM_FRAME_CRC_SIZE,
	localparam integer NW = $clog2(IN + 1),
	localparam integer KW = $clog2(RX_FRAMES + 1),
	localparam integer HW = $clog2(RX_BUF + 1)
) (
	input  logic clk,
	input  logic rst,
	input  logic [NW-1:0] in_n,
	input  logic [8*IN-1:0] in_data,
	input  logic [KW-1:0] take,
	output logic [KW-1:0] res_n,
	output logic [3*RX_FRAMES-1:0] res_status,
	output logic [8*FRAME_BYTES*RX_FRAMES-1:0] res_frame,
	output logic [HW-1:0] held,
	output logic garbage
);
	localparam integer HDR = `LOOM_FRAME_HDR_SIZE;
	localparam integer CRCB = `LOOM_FRAME_CRC_SIZE;
	localparam integer BODY_MAX = FRAME_BYTES - HDR;
	localparam integer AW = $clog2(RX_BUF);
	// a step advances at least a byte, or completes a result, or stops
	localparam integer ITER = RX_WINDOW + RX_FRAMES + 2;
	localparam logic [7:0] MAGIC_LO = 8'(`LOOM_FRAME_MAGIC & 32'hff);
	localparam logic [7:0] MAGIC_HI = 8'((`LOOM_FRAME_MAGIC >> 8) & 32'hff);
	localparam logic [2:0] ST_FRAME = 3'd1, ST_BAD_MAGIC = 3'd2, ST_BAD_LENGTH = 3'd3;
	localparam logic [2:0] ST_BAD_CRC = 3'd4;

	// the parameters within the link's limits (link_params.h)
	if (RX_WINDOW < `LINK_RX_WINDOW_MIN || RX_WINDOW > `LINK_RX_WINDOW_MAX) begin : g_bad_window
		$error("link parameter RX_WINDOW is outside LINK_RX_WINDOW_MIN .. LINK_RX_WINDOW_MAX (link_params.h)");
	end
	if (RX_FRAMES < `LINK_RX_FRAMES_MIN || RX_FRAMES > `LINK_RX_FRAMES_MAX) begin : g_bad_frames
		$error("link parameter RX_FRAMES is outside LINK_RX_FRAMES_MIN .. LINK_RX_FRAMES_MAX (link_params.h)");
	end
	if (LANES < `LINK_LANES_MIN || LANES > `LINK_LANES_MAX) begin : g_bad_lanes
		$error("link parameter LANES is outside LINK_LANES_MIN .. LINK_LANES_MAX (link_params.h)");
	end
	if (LANE_BYTES < `LINK_LANE_BYTES_MIN || LANE_BYTES > `LINK_LANE_BYTES_MAX) begin : g_bad_lb
		$error("link parameter LANE_BYTES is outside LINK_LANE_BYTES_MIN .. LINK_LANE_BYTES_MAX (link_params.h)");
	end
	if ((RX_BUF & (RX_BUF - 1)) != 0 || RX_BUF < RX_WINDOW + IN) begin : g_bad_buf
		$error("RX_BUF must be a power of two holding a window and a cycle's bytes");
	end

`ifdef LOOM_MUTATE_LINK_RX
	// deliberately wrong (the harness's mutation check): a maximal body is refused
	localparam integer WRONG = 1;
`else
	localparam integer WRONG = 0;
`endif
	localparam integer LEN_MAX = BODY_MAX - (MUTATE ? WRONG : 0);

	logic [7:0] mem [RX_BUF];
	logic [AW-1:0] head;
	logic [HW-1:0] count;
	logic garb;

	// byte i from where the framer stands: buffered, then this cycle's
	function automatic logic [7:0] at(input integer i);
		if (i < 32'(count))
			at = mem[AW'(32'(head) + i)];
		else if (i - 32'(count) < IN)
			at = in_data[8*(i - 32'(count)) +: 8];
		else
			at = 8'd0;
	endfunction

	function automatic logic magic_at(input integer i);
		magic_at = at(i) == MAGIC_LO && at(i + 1) == MAGIC_HI;
	endfunction

	// CRC-32C (reflected, as link/crc32c.c) of the n bytes from i
	function automatic logic [31:0] crc_at(input integer i, input integer n);
		logic [31:0] s;
		s = 32'hffff_ffff;
		for (integer j = 0; j < FRAME_BYTES; j++)
			if (j < n) begin
				s = s ^ {24'd0, at(i + j)};
				for (integer b = 0; b < 8; b++)
					s = (s >> 1) ^ (`CRC32C_POLY_REFLECTED & {32{s[0]}});
			end
		crc_at = ~s;
	endfunction

	integer consumed;
	logic garb_next;

	always_comb begin
		integer s, k, e, len, tot;
		logic g, skipping, halt;
		logic [2:0] bad;
		logic [31:0] wire_crc;

		s = 0;
		k = 0;
		g = garb;
		skipping = 1'b0;
		halt = 1'b0;
		bad = 3'd0;
		len = 0;
		tot = 0;
		wire_crc = 32'd0;
		e = 32'(count) + 32'(in_n);
		if (e > RX_WINDOW)
			e = RX_WINDOW;
		res_status = '0;
		for (integer r = 0; r < RX_FRAMES; r++)
			res_frame[8*FRAME_BYTES*r +: 8*FRAME_BYTES] = '0;
		for (integer it = 0; it < ITER; it++) begin
`ifdef VERILATOR
			// the same logic: a halted step does nothing (Yosys has no break)
			if (halt)
				break;
`endif
			if (!halt && skipping) begin
				// to the next magic, or a lone first magic byte at the window's end
				if (s >= e)
					skipping = 1'b0;
				else if (e - s >= 2) begin
					if (magic_at(s))
						skipping = 1'b0;
					else
						s = s + 1;
				end else if (at(s) == MAGIC_LO) begin
					skipping = 1'b0;
				end else begin
					s = s + 1;
				end
			end
			// where a skip ended, the next call begins in the same step
			if (halt || skipping) begin
				// done for this cycle, or still skipping
			end else if (k >= 32'(take) || e - s < 2) begin
				halt = 1'b1;
			end else begin
				bad = 3'd0;
				if (!magic_at(s)) begin
					bad = ST_BAD_MAGIC;
				end else if (e - s < HDR) begin
					halt = 1'b1;
				end else begin
					len = 32'({at(s + `LOOM_FRAME_OFF_LEN + 1), at(s + `LOOM_FRAME_OFF_LEN)});
					tot = HDR + len + CRCB;
					if (len > LEN_MAX) begin
						// a false magic inside garbage, or a corrupt header
						bad = ST_BAD_LENGTH;
					end else if (e - s < tot) begin
						halt = 1'b1;
					end else begin
						wire_crc = {at(s + HDR + len + 3), at(s + HDR + len + 2),
							    at(s + HDR + len + 1), at(s + HDR + len)};
						if (crc_at(s, HDR + len) != wire_crc) begin
							// the real frame may start inside what this header claimed
							bad = ST_BAD_CRC;
						end else begin
							res_status[3*k +: 3] = ST_FRAME;
							for (integer j = 0; j < FRAME_BYTES; j++)
								if (j < HDR + len)
									res_frame[8*(FRAME_BYTES*k + j) +: 8] = at(s + j);
							k = k + 1;
							s = s + tot;
							g = 1'b0;
						end
					end
				end
				if (bad != 3'd0) begin
					// the first error of an episode is a result; then skip
					// to the next magic, one byte past a failed frame start
					if (!g) begin
						res_status[3*k +: 3] = bad;
						k = k + 1;
					end
					g = 1'b1;
					if (bad != ST_BAD_MAGIC)
						s = s + 1;
					skipping = 1'b1;
				end
			end
		end
		res_n = KW'(k);
		consumed = s;
		garb_next = g;
	end

	always_ff @(posedge clk) begin
		if (rst) begin
			head <= '0;
			count <= '0;
			garb <= 1'b0;
		end else begin
			for (integer j = 0; j < IN; j++)
				if (j < 32'(in_n))
					mem[AW'(32'(head) + 32'(count) + j)] <= in_data[8*j +: 8];
			head <= AW'(32'(head) + consumed);
			count <= HW'(32'(count) + 32'(in_n) - consumed);
			garb <= garb_next;
		end
	end

	assign held = count;
	assign garbage = garb;
endmodule
