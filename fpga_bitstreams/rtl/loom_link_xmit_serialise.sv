// SPDX-License-Identifier: GPL-2.0
//
// The link transmitter's frame encoder and lane serialiser: the C model's
// link_xmit_serialise() with link_encode_hdr() (link/link_xmit.c,
// link/link.c).  Frames go onto the lanes back to back, LANES x LANE_BYTES
// bytes a cycle at most, as a per-cycle byte stream.
//
// At each clock edge (the C model's link_xmit_serialise() in
// link_unit_step()) the unit fills the next cycle's lanes: first the rest
// of the frame on the lanes (at the rate it started with), then, when that
// frame ends in the cycle and the lane count did not change under it, the
// frames offered in frame_valid back to back while bytes of the cycle are
// left.  A frame that does not fit continues in the following cycles;
// after a lane change the next frame starts on a fresh cycle.  frame_taken
// says how many of the offered frames (a prefix, slot 0 first) started:
// the frame builder advances by as many.  At most SLOTS frames start in a
// cycle, the most that fit: ceil(rate / smallest frame).
//
// A frame offered in slot j is its header's fields (frame_type ...
// frame_credit, 8 or 32 bits each in slot j's bits) and its body
// (frame_len bytes of frame_body, byte 0 lowest).  The unit writes the
// header as the wire has it (magic, the fields, the body's length, little
// endian at the generated LOOM_FRAME_OFF_* offsets), the body, and the
// CRC-32C of both (loom_crc32c over the bytes each cycle carries: one per
// slot for frames that end in the cycle they start, two that take turns
// for the frame that continues).
//
// lanes: the lanes in use this cycle (0 while the link is down: nothing
// starts); flush: the carrier changed at this edge (link_xmit_reset): the
// frame on the lanes is abandoned.
//
// lane_data / lane_used (registers): the bytes on the lanes in this
// cycle, byte 0 in data[7:0], lane k carrying bytes k x LANE_BYTES ..
// (k + 1) x LANE_BYTES - 1; the bytes past lane_used are zero.
`include "loom_hw.vh"

module loom_link_xmit_serialise #(
	parameter integer LANES = `LINK_LANES_DEFAULT,
	parameter integer LANE_BYTES = `LINK_LANE_BYTES_DEFAULT,
	// derived: frames that may start in one cycle, and a frame's body
	parameter integer SLOTS = (LANES * LANE_BYTES + `LOOM_FRAME_HDR_SIZE + `LOOM_FRAME_CRC_SIZE - 1) /
				  (`LOOM_FRAME_HDR_SIZE + `LOOM_FRAME_CRC_SIZE),
	parameter integer BODY_MAX = `LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD
) (
	input  logic clk,
	input  logic rst,
	input  logic flush,
	input  logic [2:0] lanes,
	input  logic [SLOTS-1:0] frame_valid,
	input  logic [8*SLOTS-1:0] frame_type,
	input  logic [8*SLOTS-1:0] frame_vc,
	input  logic [8*SLOTS-1:0] frame_credit_vc,
	input  logic [8*SLOTS-1:0] frame_flags,
	input  logic [32*SLOTS-1:0] frame_seq,
	input  logic [32*SLOTS-1:0] frame_ack,
	input  logic [32*SLOTS-1:0] frame_credit,
	input  logic [16*SLOTS-1:0] frame_len,
	input  logic [8*BODY_MAX*SLOTS-1:0] frame_body,
	output logic [2:0] frame_taken,
	output logic [8*LANES*LANE_BYTES-1:0] lane_data,
	output logic [6:0] lane_used
);
	localparam integer RATE = LANES * LANE_BYTES;
	localparam integer HDR = `LOOM_FRAME_HDR_SIZE;
	localparam integer CRCB = `LOOM_FRAME_CRC_SIZE;
	localparam integer DATA_MAX = HDR + BODY_MAX;	// header and body: what the CRC covers
	localparam integer NW = $clog2(RATE + 1);
	localparam integer LW = 16;			// byte counts of a frame

	if (LANES != 1 && LANES != 2 && LANES != 4) begin : g_bad_lanes
		$error("link parameter LANES is not 1, 2 or 4 (link_params.h)");
	end
	if (LANE_BYTES < `LINK_LANE_BYTES_MIN || LANE_BYTES > `LINK_LANE_BYTES_MAX) begin : g_bad_lb
		$error("link parameter LANE_BYTES is outside LINK_LANE_BYTES_MIN .. LINK_LANE_BYTES_MAX (link_params.h)");
	end
	if (SLOTS < 1 || SLOTS > 7 || SLOTS * (HDR + CRCB) < RATE) begin : g_bad_slots
		$error("SLOTS is derived (ceil(LANES x LANE_BYTES / smallest frame)): do not set it");
	end
	if (BODY_MAX != `LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD) begin : g_bad_body
		$error("BODY_MAX is derived (LOOM_PKT_HDR_SIZE + LOOM_PKT_MAX_PAYLOAD): do not set it");
	end

	// ---- the frame on the lanes ----
	logic [LW-1:0] cur_rem;			// its bytes still to go (data, then CRC)
	logic [6:0] cur_rate;			// its bytes a cycle
	logic [8*DATA_MAX-1:0] cur_sr;		// its data bytes still to go, the next lowest
	logic tsel;				// the tail CRC unit that holds its CRC

	// ---- the offered frames as the wire has them: header, then body ----
	logic [8*DATA_MAX-1:0] dat [SLOTS];
	logic [LW-1:0] dlen [SLOTS];		// header and body
	logic [LW-1:0] flen [SLOTS];		// the whole frame
	logic [31:0] seq [SLOTS];

	always_comb begin
		integer j;
		for (j = 0; j < SLOTS; j = j + 1) begin
			seq[j] = frame_seq[32*j +: 32];
`ifdef LOOM_MUTATE_LINK_TX
			// deliberately wrong (the harness's mutation check): DATA numbered one ahead
			if (frame_type[8*j +: 8] == 8'(`LOOM_FRAME_DATA))
				seq[j] = seq[j] + 32'd1;
`endif
			dat[j] = '0;
			dat[j][8*`LOOM_FRAME_OFF_MAGIC +: 16] = 16'(`LOOM_FRAME_MAGIC);
			dat[j][8*`LOOM_FRAME_OFF_TYPE +: 8] = frame_type[8*j +: 8];
			dat[j][8*`LOOM_FRAME_OFF_VC +: 8] = frame_vc[8*j +: 8];
			dat[j][8*`LOOM_FRAME_OFF_LEN +: 16] = frame_len[16*j +: 16];
			dat[j][8*`LOOM_FRAME_OFF_CREDIT_VC +: 8] = frame_credit_vc[8*j +: 8];
			dat[j][8*`LOOM_FRAME_OFF_FLAGS +: 8] = frame_flags[8*j +: 8];
			dat[j][8*`LOOM_FRAME_OFF_SEQ +: 32] = seq[j];
			dat[j][8*`LOOM_FRAME_OFF_ACK +: 32] = frame_ack[32*j +: 32];
			dat[j][8*`LOOM_FRAME_OFF_CREDIT +: 32] = frame_credit[32*j +: 32];
			dat[j][8*HDR +: 8*BODY_MAX] = frame_body[8*BODY_MAX*j +: 8*BODY_MAX];
			dlen[j] = LW'(HDR) + frame_len[16*j +: 16];
			flen[j] = dlen[j] + LW'(CRCB);
		end
	end

	// ---- placement: the C model's budget ----
	logic [6:0] rate;
	logic [LW-1:0] rem0, take, data_rem0;
	logic tail_on;				// the frame on the lanes continues past this cycle
	logic [6:0] budget [SLOTS + 1];		// bytes left before slot j's frame
	logic [SLOTS-1:0] start, ends;		// slot j starts; and ends in the cycle
	logic [LW-1:0] put [SLOTS];		// bytes of slot j's frame in the cycle
	logic cont;				// a started frame continues
	logic [$clog2(SLOTS > 1 ? SLOTS : 2)-1:0] cont_j;
	logic [6:0] used;

	always_comb begin
		integer j;
		rate = 7'(lanes) * 7'(LANE_BYTES);
		rem0 = flush ? '0 : cur_rem;
		take = rem0 < LW'(cur_rate) ? rem0 : LW'(cur_rate);
		data_rem0 = rem0 > LW'(CRCB) ? rem0 - LW'(CRCB) : '0;
		tail_on = rem0 != take;
		if (rem0 == 0)
			budget[0] = rate;
		else if (tail_on || cur_rate != rate)
			budget[0] = '0;
		else
			budget[0] = rate - 7'(take);
		used = 7'(take);
		cont = 1'b0;
		cont_j = '0;
		frame_taken = '0;
		for (j = 0; j < SLOTS; j = j + 1) begin
			start[j] = frame_valid[j] && budget[j] != 0 && 3'(j) == frame_taken;
			ends[j] = start[j] && flen[j] <= LW'(budget[j]);
			put[j] = '0;
			budget[j + 1] = budget[j];
			if (start[j]) begin
				frame_taken = frame_taken + 3'd1;
				if (ends[j]) begin
					put[j] = flen[j];
					budget[j + 1] = budget[j] - 7'(flen[j]);
				end else begin
					put[j] = LW'(budget[j]);
					budget[j + 1] = '0;
					cont = 1'b1;
					cont_j = $bits(cont_j)'(j);
				end
			end
			used = used + 7'(put[j]);
		end
	end

	// ---- CRC-32C: the tail's pair, and one per slot ----
	logic [31:0] tcrc [2], tcrc_unused [2];
	logic [31:0] ncrc [SLOTS], ncrc_unused [SLOTS];
	logic [8*RATE-1:0] cont_bytes;
	logic [NW-1:0] cont_n;

	// the data bytes of a frame in the cycle it starts: all of them, or as many as fit
	always_comb begin
		cont_bytes = dat[cont_j][0 +: 8*RATE];
		cont_n = dlen[cont_j] < LW'(budget[cont_j]) ? NW'(dlen[cont_j]) : NW'(budget[cont_j]);
	end

	for (genvar t = 0; t < 2; t++) begin : g_tcrc
		// unit tsel continues the frame on the lanes; the other starts a frame that continues
		logic mine;
		assign mine = tsel == t[0];
		loom_crc32c #(.LANES(LANES), .LANE_BYTES(LANE_BYTES)) u_crc (
			.clk(clk), .rst(rst),
			.start(!mine && cont),
			.n(mine ? NW'(take < data_rem0 ? take : data_rem0) : (cont ? cont_n : '0)),
			.data(mine ? cur_sr[0 +: 8*RATE] : cont_bytes),
			.crc(tcrc_unused[t]), .crc_next(tcrc[t]));
	end
	for (genvar j = 0; j < SLOTS; j++) begin : g_ncrc
		// a frame that ends in the cycle it starts: all its data bytes
		loom_crc32c #(.LANES(LANES), .LANE_BYTES(LANE_BYTES)) u_crc (
			.clk(clk), .rst(rst), .start(1'b1), .n(ends[j] ? NW'(dlen[j]) : '0),
			.data(dat[j][0 +: 8*RATE]), .crc(ncrc_unused[j]), .crc_next(ncrc[j]));
	end

	// ---- the next cycle's bytes ----
	localparam integer OW = $clog2(RATE > 1 ? RATE : 2);	// a byte's place in a cycle
	logic [8*RATE-1:0] bytes_next;
	logic [31:0] tail_crc, cont_crc;
	logic [6:0] phase [SLOTS];		// where slot j's frame begins
	logic [LW-1:0] off;			// a byte's offset in slot j's frame
	logic [1:0] ci;				// a CRC byte

	always_comb begin
		integer i, j;
		tail_crc = tsel ? tcrc[1] : tcrc[0];
		cont_crc = tsel ? tcrc[0] : tcrc[1];
		bytes_next = '0;
		off = '0;
		ci = '0;
		for (j = 0; j < SLOTS; j = j + 1)
			phase[j] = rate - budget[j];
		for (i = 0; i < RATE; i = i + 1) begin
			if (LW'(i) < take) begin
				ci = 2'(LW'(i) + LW'(CRCB) - rem0);
				if (LW'(i) < data_rem0)
					bytes_next[8*i +: 8] = cur_sr[8*i +: 8];
				else
					bytes_next[8*i +: 8] = tail_crc[8*ci +: 8];
			end
			for (j = 0; j < SLOTS; j = j + 1) begin
				off = LW'(i) - LW'(phase[j]);
				if (start[j] && 7'(i) >= phase[j] && off < put[j]) begin
					ci = 2'(off - dlen[j]);
					if (off < dlen[j])
						bytes_next[8*i +: 8] = dat[j][8*OW'(off) +: 8];
					else if (ends[j])
						bytes_next[8*i +: 8] = ncrc[j][8*ci +: 8];
					else	// its data ended here, its CRC goes on
						bytes_next[8*i +: 8] = cont_crc[8*ci +: 8];
				end
			end
		end
	end

	always_ff @(posedge clk)
		if (rst) begin
			cur_rem <= '0;
			cur_rate <= '0;
			cur_sr <= '0;
			tsel <= 1'b0;
			lane_data <= '0;
			lane_used <= '0;
		end else begin
			lane_data <= bytes_next;
			lane_used <= used;
			if (cont) begin
				cur_rem <= flen[cont_j] - LW'(budget[cont_j]);
				cur_rate <= rate;
				cur_sr <= dat[cont_j] >> (8 * budget[cont_j]);
				tsel <= !tsel;
			end else if (tail_on) begin
				cur_rem <= rem0 - take;
				cur_sr <= cur_sr >> (8 * take);
			end else begin
				cur_rem <= '0;
			end
		end
endmodule
