// SPDX-License-Identifier: GPL-2.0
//
// CRC-32C (Castagnoli) of the link's frames over the bytes a cycle
// carries: the C model's crc32c() (link/crc32c.c) as a byte-parallel
// update.  In one cycle up to LANES x LANE_BYTES bytes enter, byte 0 first
// (data[7:0]); n says how many (fewer when the link runs on fewer lanes or
// a frame ends inside the cycle).  start begins a new CRC with this
// cycle's bytes.  crc is the CRC-32C of every byte since the last start,
// up to the previous cycle (a register); crc_next includes this cycle's
// bytes (the value crc holds in the next cycle), so a transmitter appends
// it as the trailer in the cycle after a frame's last byte and a receiver
// compares it with the trailer it received.  Both are final values (the
// pre- and post-inversion done), as crc32c(0, bytes, len) returns them.
// The polynomial is the C model's CRC32C_POLY_REFLECTED (generated).
// MUTATE marks the instances the equivalence harness checks as this unit:
// only they take the harness's deliberately wrong polynomial
// (LOOM_MUTATE_CRC), so a unit built on this one is checked for its own
// mutation alone in the same mutant build.
`include "loom_hw.vh"

module loom_crc32c #(
	parameter integer LANES = `LINK_LANES_DEFAULT,
	parameter integer LANE_BYTES = `LINK_LANE_BYTES_DEFAULT,
	parameter bit MUTATE = 1'b0
) (
	input  logic clk,
	input  logic rst,
	input  logic start,
	input  logic [$clog2(LANES * LANE_BYTES + 1)-1:0] n,
	input  logic [8*LANES*LANE_BYTES-1:0] data,
	output logic [31:0] crc,
	output logic [31:0] crc_next
);
	localparam integer BYTES = LANES * LANE_BYTES;
	localparam integer NW = $clog2(BYTES + 1);

	// the parameters within the link's limits (link_params.h)
	if (LANES < `LINK_LANES_MIN || LANES > `LINK_LANES_MAX) begin : g_bad_lanes
		$error("link parameter LANES is outside LINK_LANES_MIN .. LINK_LANES_MAX (link_params.h)");
	end
	if ((LANES & (LANES - 1)) != 0) begin : g_bad_lanes_pow2
		$error("link parameter LANES: must be 1, 2 or 4 (halving degrades it)");
	end
	if (LANE_BYTES < `LINK_LANE_BYTES_MIN || LANE_BYTES > `LINK_LANE_BYTES_MAX) begin : g_bad_lb
		$error("link parameter LANE_BYTES is outside LINK_LANE_BYTES_MIN .. LINK_LANE_BYTES_MAX (link_params.h)");
	end

`ifdef LOOM_MUTATE_CRC
	// deliberately wrong (the harness's mutation check): one polynomial bit flipped
	localparam logic [31:0] WRONG = 32'h0000_0100;
`else
	localparam logic [31:0] WRONG = 32'h0;
`endif
	localparam logic [31:0] POLY = `CRC32C_POLY_REFLECTED ^ (MUTATE ? WRONG : 32'h0);

	// one byte into the shift register (LSB first, reflected)
	function automatic [31:0] crc_byte(input logic [31:0] s, input logic [7:0] b);
		integer k;
		begin
			crc_byte = s ^ {24'd0, b};
			for (k = 0; k < 8; k = k + 1)
				crc_byte = (crc_byte >> 1) ^ (POLY & {32{crc_byte[0]}});
		end
	endfunction

	// the shift register: all ones before the first byte (the pre-inversion)
	logic [31:0] state, next;

	always_comb begin
		integer i;
		next = start ? 32'hffff_ffff : state;
		for (i = 0; i < BYTES; i = i + 1)
			if (NW'(i) < n)
				next = crc_byte(next, data[8*i +: 8]);
	end

	always_ff @(posedge clk)
		if (rst)
			state <= 32'hffff_ffff;
		else
			state <= next;

	assign crc = ~state;
	assign crc_next = ~next;
endmodule
