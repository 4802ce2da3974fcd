// SPDX-License-Identifier: GPL-2.0
//
// The route of a multicast packet's next copy on input port PORT
// (route_mcast_copy in router/route.c, input_mc_route in
// router/input_unit.c): of the copies still to send (bit n: network port
// n, bit 16: the host), the lowest network port first, then the host.
// Deterministic: to the host the class's VC0, to a network port VC0 from
// the host or when entering a dimension (START_VC1 does not apply), VC1
// past a dateline; the VC1 flag and dimensions from the head's header and
// PORT_CFG as they are now.  Combinational; route is packed as
// route_pack() packs it (no adaptive VC or ports), left the copies after
// this one, fwd: it leaves on a network port.
`include "loom_hw.vh"

module loom_mcast_copy #(
	parameter integer PORT = 0,
	parameter integer PORTS = 1,
	parameter integer HOST_PORTS = 0,
	parameter integer VCS = 1,
	parameter integer VC_MODEL = 0
) (
	input  logic [16:0] copies,
	input  logic [63:0] hdr,		// the head flit's first 8 bytes
	input  logic [5:0] flits,
	input  logic [`LOOM_MAX_PORTS*32-1:0] port_cfg,
	output logic [16:0] left,
	output logic fwd,
	output logic [31:0] route
);
	localparam integer HOST_PORT = HOST_PORTS != 0 ? PORTS - 1 : 0;
	localparam logic FROM_HOST = HOST_PORTS != 0 && PORT == PORTS - 1;
	localparam logic CARD = VC_MODEL == 1;

	`include "loom_vc_of.vh"

	logic [7:0] cls, flags;
	assign cls = hdr[8*`LOOM_PKT_OFF_CLASS +: 8];
	assign flags = hdr[8*`LOOM_PKT_OFF_FLAGS +: 8];
	logic unused_hdr;
	assign unused_hdr = ^{hdr[8*`LOOM_PKT_OFF_TYPE +: 8], hdr[8*`LOOM_PKT_OFF_LEN +: 16],
			      hdr[8*`LOOM_PKT_OFF_DST_NODE +: 16], hdr[8*`LOOM_PKT_OFF_HOPS +: 8]};

	// route_port_cfg: no dimension beyond the table
	function automatic [31:0] cfg_of(input integer p);
		cfg_of = p < `LOOM_MAX_PORTS ? port_cfg[(p % `LOOM_MAX_PORTS)*32 +: 32] :
			 32'(`LOOM_VCT_PORT_DIM_NONE);
	endfunction

	always_comb begin
		integer b, o;
		logic [31:0] out_cfg, in_dim, out_dim;
		logic vc1;
		logic [2:0] vc;
		logic [7:0] port;
		o = 16;
		for (b = 16; b >= 0; b = b - 1)
			if (copies[b])
				o = b;
`ifdef LOOM_MUTATE_MCAST
		// the mutant: the copy after this one is lost too
		left = copies & ~(17'd3 << o);
`else
		left = copies & ~(17'd1 << o);
`endif
		out_cfg = '0;
		in_dim = '0;
		out_dim = '0;
		vc1 = 1'b0;
		if (o == 16) begin
			port = 8'(HOST_PORT);
			vc = CARD ? vc_of(cls, 1'b0, 1'b0) : 3'd0;
			fwd = 1'b0;
		end else begin
			port = 8'(o);
			out_cfg = cfg_of(o);
			in_dim = FROM_HOST ? 32'(`LOOM_VCT_PORT_DIM_NONE) :
				 cfg_of(PORT) & `LOOM_VCT_PORT_DIM_MASK;
			out_dim = out_cfg & `LOOM_VCT_PORT_DIM_MASK;
			// entering a dimension: VC0; continuing through a dateline: VC1
			if (!(FROM_HOST || in_dim == `LOOM_VCT_PORT_DIM_NONE ||
			      out_dim == `LOOM_VCT_PORT_DIM_NONE || in_dim != out_dim))
				vc1 = |(32'(flags) & `LOOM_PKT_F_VC1) || |(out_cfg & `LOOM_VCT_PORT_DATELINE);
			vc = CARD ? vc_of(cls, vc1, 1'b0) : 3'(vc1 && VCS > 1);
			fwd = 1'b1;
		end
		route = {vc1, flits, 8'd0, 3'd0, vc, port, 3'(`ROUTE_DROP_NONE)};
	end
endmodule
