// SPDX-License-Identifier: GPL-2.0
//
// Route computation (stage RC) of the head flit arriving on input port
// IN_PORT, as router/route.c computes it: the table lookup by logical
// destination, the hop limit, the card's VC model with datelines and
// START_VC1, the adaptive VC of the class, barrier packets hop by hop, and
// the checks that make a packet a drop (length, class against its VC).
// Combinational; the result is packed as route_pack() packs it:
// drop [2:0], port [10:3], vc [13:11], adapt_vc [16:14], adapt_mask
// [24:17], flits [30:25], vc1 [31].
`include "loom_hw.vh"

module loom_route_compute #(
	parameter integer IN_PORT = 0,
	parameter integer PORTS = 1,
	parameter integer HOST_PORTS = 0,
	parameter integer VCS = 1,
	parameter integer VC_MODEL = 0,
	parameter integer FLIT_BYTES = 16,
	parameter integer RT_ENTRIES = 16,
	parameter integer WIDE_PORTS = 0
) (
	input  logic [63:0] hdr,		// the head flit's first 8 bytes
	input  logic [2:0] in_vc,
	output logic [15:0] dst,		// table read address
	input  logic [31:0] w0,
	input  logic [31:0] w1,
	input  logic start_vc1,
	input  logic [`LOOM_MAX_PORTS*32-1:0] port_cfg,
	output logic [31:0] route,
	output logic fwd,			// leaves on a network port
	output logic pat,			// class & 1: the arbitration pattern
	output logic [7:0] flits8		// declared length in flits (8 bits, as the model counts)
);
	localparam integer N_NET = PORTS - HOST_PORTS;
	localparam integer HOST_PORT = HOST_PORTS != 0 ? PORTS - 1 : -1;
	localparam logic FROM_HOST = IN_PORT == HOST_PORT;
	localparam logic CARD = VC_MODEL == 1;
	localparam integer MAX_FLITS =
		(`LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD + FLIT_BYTES - 1) / FLIT_BYTES;

	logic [7:0] cls, flags, hops;
	logic [15:0] len;
	assign cls = hdr[8*`LOOM_PKT_OFF_CLASS +: 8];
	assign len = hdr[8*`LOOM_PKT_OFF_LEN +: 16];
	assign dst = hdr[8*`LOOM_PKT_OFF_DST_NODE +: 16];
	assign flags = hdr[8*`LOOM_PKT_OFF_FLAGS +: 8];
	assign hops = hdr[8*`LOOM_PKT_OFF_HOPS +: 8];
	assign pat = cls[0];
	logic unused_type;
	assign unused_type = ^hdr[8*`LOOM_PKT_OFF_TYPE +: 8];

	// the class a cable VC carries (route_class_of_vc), 8'hff for none
	function automatic [7:0] class_of_vc(input logic [2:0] v);
		case (32'(v))
		`LOOM_VC_REQ0, `LOOM_VC_REQ1, `LOOM_VC_REQ_ADAPT: class_of_vc = 8'(`LOOM_CLASS_REQ);
		`LOOM_VC_RESP0, `LOOM_VC_RESP1, `LOOM_VC_RESP_ADAPT: class_of_vc = 8'(`LOOM_CLASS_RESP);
		`LOOM_VC_BARRIER: class_of_vc = 8'(`LOOM_CLASS_BARRIER);
		default: class_of_vc = 8'hff;
		endcase
	endfunction

	// route_vc_of: the cable VC of a class (3 bits; 7 for none)
	function automatic [2:0] vc_of(input logic [7:0] c, input logic vc1, input logic adaptive);
		case (32'(c))
		`LOOM_CLASS_REQ: vc_of = adaptive ? 3'(`LOOM_VC_REQ_ADAPT) :
			vc1 ? 3'(`LOOM_VC_REQ1) : 3'(`LOOM_VC_REQ0);
		`LOOM_CLASS_RESP: vc_of = adaptive ? 3'(`LOOM_VC_RESP_ADAPT) :
			vc1 ? 3'(`LOOM_VC_RESP1) : 3'(`LOOM_VC_RESP0);
		`LOOM_CLASS_BARRIER: vc_of = 3'(`LOOM_VC_BARRIER);
		default: vc_of = 3'd7;
		endcase
	endfunction

	// route_port_cfg: the word of a port, no dimension beyond the table
	function automatic [31:0] cfg_of(input logic [7:0] p);
		cfg_of = 32'(p) < `LOOM_MAX_PORTS ? port_cfg[32'(p[2:0])*32 +: 32] :
			 32'(`LOOM_VCT_PORT_DIM_NONE);
	endfunction

	logic [2:0] drop, vc, adapt_vc;
	logic [7:0] port, adapt_mask;
	logic vc1;

	always_comb begin
		logic [16:0] bytes;
		logic [7:0] tport, host, in_dim, out_dim;
		logic [31:0] aports, out_cfg;
		logic injected;

		drop = 3'(`ROUTE_DROP_NONE);
		port = '0;
		vc = '0;
		adapt_vc = '0;
		adapt_mask = '0;
		vc1 = 1'b0;
		fwd = 1'b0;
		tport = '0;
		host = '0;
		in_dim = '0;
		out_dim = '0;
		aports = '0;
		out_cfg = '0;
		injected = 1'b0;
		bytes = 17'(`LOOM_PKT_HDR_SIZE) + 17'(len) + 17'(FLIT_BYTES - 1);
		flits8 = 8'(32'(bytes) / FLIT_BYTES);
		if (32'(len) > `LOOM_PKT_MAX_PAYLOAD || 32'(flits8) > MAX_FLITS) begin
			drop = 3'(`ROUTE_DROP_MALFORMED);
		end else if (CARD && class_of_vc(in_vc) != cls) begin
			drop = 3'(`ROUTE_DROP_MALFORMED);
		end else if (CARD && 32'(cls) == `LOOM_CLASS_BARRIER) begin
			vc = 3'(`LOOM_VC_BARRIER);
			if (!FROM_HOST) begin
				if (HOST_PORT < 0)
					drop = 3'(`ROUTE_DROP_NO_ROUTE);
				port = 8'(HOST_PORT);
			end else if (32'(dst) >= N_NET) begin
				drop = 3'(`ROUTE_DROP_NO_ROUTE);
			end else begin
				port = dst[7:0];
			end
		end else if (32'(hops) >= `LOOM_PKT_MAX_HOPS) begin
			drop = 3'(`ROUTE_DROP_HOP_LIMIT);
		end else if (32'(dst) >= RT_ENTRIES || !(|(w0 & `LOOM_RT_W0_VALID))) begin
			drop = 3'(`ROUTE_DROP_NO_ROUTE);
		end else begin
			if (WIDE_PORTS != 0) begin
				tport = 8'((w0 & `LOOM_RT_W0_WIDE_PORT_MASK) >> `LOOM_RT_W0_WIDE_PORT_SHIFT);
				host = 8'(`LOOM_RT_WIDE_PORT_HOST);
			end else begin
				tport = 8'(w0 & `LOOM_RT_W0_PORT_MASK);
				host = 8'(`LOOM_RT_PORT_HOST);
			end
			if (tport == host) begin
				// ROUTE_HOST
				if (HOST_PORT < 0) begin
					drop = 3'(`ROUTE_DROP_NO_ROUTE);
				end else begin
					port = 8'(HOST_PORT);
					vc = CARD ? vc_of(cls, 1'b0, 1'b0) : 3'd0;
				end
			end else if (32'(tport) >= N_NET) begin
				drop = 3'(`ROUTE_DROP_NO_ROUTE);
			end else begin
				// ROUTE_PORT
				fwd = 1'b1;
				port = tport;
				aports = (w1 & `LOOM_RT_W1_ADAPT_PORTS_MASK) >> `LOOM_RT_W1_ADAPT_PORTS_SHIFT;
				if (aports == '0 && 32'(tport) < 32)
					aports = 32'd1 << tport[4:0];
				if (N_NET < 32)
					aports = aports & 32'((64'd1 << N_NET) - 64'd1);
				injected = FROM_HOST || (CARD && (32'(in_vc) == `LOOM_VC_REQ_ADAPT ||
								 32'(in_vc) == `LOOM_VC_RESP_ADAPT));
				in_dim = FROM_HOST ? 8'(`LOOM_VCT_PORT_DIM_NONE) :
					 8'(cfg_of(8'(IN_PORT)) & `LOOM_VCT_PORT_DIM_MASK);
				out_cfg = cfg_of(tport);
				out_dim = 8'(out_cfg & `LOOM_VCT_PORT_DIM_MASK);
				// entering a dimension: the VC table; continuing through a
				// dateline: VC1
				if (injected || 32'(in_dim) == `LOOM_VCT_PORT_DIM_NONE ||
				    32'(out_dim) == `LOOM_VCT_PORT_DIM_NONE || in_dim != out_dim)
					vc1 = start_vc1;
				else
					vc1 = |(32'(flags) & `LOOM_PKT_F_VC1) ||
					      |(out_cfg & `LOOM_VCT_PORT_DATELINE);
				if (!CARD) begin
					vc = (vc1 && VCS > 1) ? 3'd1 : 3'd0;
				end else begin
					vc = vc_of(cls, vc1, 1'b0);
					if (|(w0 & `LOOM_RT_W0_ADAPTIVE) && !(|(32'(flags) & `LOOM_PKT_F_ORDERED))) begin
						adapt_vc = vc_of(cls, 1'b0, 1'b1);
						adapt_mask = aports[7:0];
					end
				end
			end
		end
		if (drop != 3'(`ROUTE_DROP_NONE))
			fwd = 1'b0;
		route = {vc1, flits8[5:0], adapt_mask, adapt_vc, vc, port, drop};
	end
endmodule
