// SPDX-License-Identifier: GPL-2.0
//
// Route computation (stage RC) of the head flit arriving on input port
// IN_PORT, as router/route.c computes it: the table lookup by logical
// destination, the hop limit, the card's VC model with datelines and
// START_VC1, the adaptive VC of the class, barrier packets hop by hop,
// Valiant routing (route_valiant, route_val_torus), the HyperX algorithms
// DimWAR and OmniWAR (route_dimwar, route_omniwar), adaptive up-routes
// (W0 UPROUTE) and the checks that make a packet a drop (length, class
// against its VC).
//
// Valiant reads three table entries at once, each on a read port of its
// own (loom_route_table): the destination dst_node (read port B), the
// intermediate dst_node bits 15:8 of a packet in phase 0 (A), and C: on
// the host port the intermediate drawn from the LFSR (lfsr_next, the
// state after the draw: the router keeps the LFSR and advances it when
// draw is set and the head is written), on a network port the final
// destination dst_node bits 7:0 of a packet reaching its intermediate.
// rewrite, rw_dst and rw_flags are the header fields the buffer write
// stores in place of the arriving ones.
//
// ext carries what does not fit the packed route (route_pack_ext,
// route_pack_up), [4:1] the minimal hops left (W0 HOPS) in both uses:
// - a UGAL entry routes minimal on VC1 with the intermediate in dst_node
//   bits 15:8, and ext holds what VA weighs (route_result's ugal fields):
//   [0] the choice is pending, [8:5] the intermediate entry's hops, [9]
//   its START_VC1 bit, [15:10] its port;
// - a DimWAR or OmniWAR entry ([0] clear): [5] DimWAR, [6] OmniWAR, [7]
//   OmniWAR's counted (a choice beyond the W0 port), [15:8] OmniWAR's
//   minimal ports (min_mask, the W0 port among them).  DimWAR keeps its
//   deroute ports in adapt_mask (their VC: the class's VC1, with the
//   card's VCs in adapt_vc, with generic VCs the odd VCs), OmniWAR its
//   deroute ports; vc is the class's VC0 (DimWAR) or the packet's next
//   distance class (OmniWAR);
// - an adaptive up-route (none of these, not ordered, W1 UP_FIRST below the
//   network ports): [7] set with [6:5] and [0] clear, [15:8] UP_FIRST
//   (route_result.uproute, up_first); VA may take any up port UP_FIRST ..
//   N_NET - 1 instead of the W0 port (loom_vc_alloc).
//
// Combinational; the result is packed as route_pack() packs it:
// drop [2:0], port [10:3], vc [13:11], adapt_vc [16:14], adapt_mask
// [24:17], flits [30:25], vc1 [31]; with generic VCs (adapt_vc unused
// there) bit 14 marks a Valiant route on a torus (route_result.val_dl:
// its VC class steps by 4, route_vc_step).
`include "loom_hw.vh"

module loom_route_compute #(
	parameter integer IN_PORT = 0,
	parameter integer PORTS = 1,
	parameter integer HOST_PORTS = 0,
	parameter integer VCS = 1,
	parameter integer VC_MODEL = 0,
	parameter integer FLIT_BYTES = 16,
	parameter integer RT_ENTRIES = 16,
	parameter integer WIDE_PORTS = 0,
	parameter integer VALIANT = 1,		// 0: VALIANT entries route as plain ones
	parameter integer WAR = 1,		// 0: DIMWAR and OMNIWAR entries route as plain ones
	parameter integer UPROUTE = 1,		// 0: UPROUTE entries route as plain ones
	parameter integer MCAST = 1,		// 0: LOOM_PKT_F_MCAST means nothing
	parameter integer BUF_DEPTH = 24	// the longest multicast packet
) (
	input  logic [63:0] hdr,		// the head flit's first 8 bytes
	input  logic [2:0] in_vc,
	output logic [15:0] dst,		// table read address B: dst_node
	input  logic [31:0] w0,
	input  logic [31:0] w1,
	input  logic start_vc1,
	input  logic [17:0] mc_entry,		// the group table at dst: {VALID, HOST, ports}
	output logic [15:0] dst_a,		// read address A: the intermediate
	input  logic [31:0] w0_a,
	input  logic start_vc1_a,
	output logic [15:0] dst_c,		// read address C: drawn or final destination
	input  logic [31:0] w0_c,
	input  logic start_vc1_c,
	input  logic [15:0] lfsr_next,		// the LFSR after a draw (route_lfsr_next)
	output logic draw,			// a Valiant draw: the LFSR advances
	output logic rewrite,			// the buffer stores rw_dst, rw_flags
	output logic [15:0] rw_dst,
	output logic [7:0] rw_flags,
	output logic [15:0] ext,		// UGAL: what VA weighs; DimWAR, OmniWAR; up-route
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
	logic [7:0] ptype;
	assign ptype = hdr[8*`LOOM_PKT_OFF_TYPE +: 8];
	logic unused_type;
	assign unused_type = MCAST != 0 ? 1'b0 : ^{ptype, mc_entry};

	// the class a cable VC carries (route_class_of_vc), 8'hff for none
	function automatic [7:0] class_of_vc(input logic [2:0] v);
		case (32'(v))
		`LOOM_VC_REQ0, `LOOM_VC_REQ1, `LOOM_VC_REQ_ADAPT: class_of_vc = 8'(`LOOM_CLASS_REQ);
		`LOOM_VC_RESP0, `LOOM_VC_RESP1, `LOOM_VC_RESP_ADAPT: class_of_vc = 8'(`LOOM_CLASS_RESP);
		`LOOM_VC_BARRIER: class_of_vc = 8'(`LOOM_CLASS_BARRIER);
		default: class_of_vc = 8'hff;
		endcase
	endfunction

	`include "loom_vc_of.vh"

	// route_port_cfg: the word of a port, no dimension beyond the table
	function automatic [31:0] cfg_of(input logic [7:0] p);
		cfg_of = 32'(p) < `LOOM_MAX_PORTS ? port_cfg[32'(p[2:0])*32 +: 32] :
			 32'(`LOOM_VCT_PORT_DIM_NONE);
	endfunction

	// the dimension of each port in PORT_CFG (route_port_cfg), 4 bits a port
	logic [4*`LOOM_MAX_PORTS-1:0] pdims;
	always_comb begin
		integer q;
		for (q = 0; q < `LOOM_MAX_PORTS; q = q + 1)
			pdims[q*4 +: 4] = 4'(port_cfg[q*32 +: 32] & `LOOM_VCT_PORT_DIM_MASK);
	end

	// DimWAR's deroute ports (dimwar_deroutes): the other ports of port p's dimension
	function automatic [7:0] dimwar_deroutes(input logic [7:0] p);
		integer q;
		logic [3:0] dim;
		dim = 32'(p) < `LOOM_MAX_PORTS ? pdims[32'(p[2:0])*4 +: 4] : 4'(`LOOM_VCT_PORT_DIM_NONE);
		dimwar_deroutes = '0;
		for (q = 0; q < `LOOM_MAX_PORTS; q = q + 1)
			if (q < N_NET && 32'(dim) != `LOOM_VCT_PORT_DIM_NONE && q != 32'(p) &&
			    pdims[q*4 +: 4] == dim)
				dimwar_deroutes[q] = 1'b1;
	endfunction

	// OmniWAR's deroute ports (omniwar_deroutes): the other ports of the
	// dimensions of the minimal ports m
	function automatic [7:0] omniwar_deroutes(input logic [7:0] m);
		integer q;
		logic [15:0] dims;
		dims = '0;
		for (q = 0; q < `LOOM_MAX_PORTS; q = q + 1)
			if (q < N_NET && m[q] && 32'(pdims[q*4 +: 4]) != `LOOM_VCT_PORT_DIM_NONE)
				dims[pdims[q*4 +: 4]] = 1'b1;
		omniwar_deroutes = '0;
		for (q = 0; q < `LOOM_MAX_PORTS; q = q + 1)
			if (q < N_NET && !m[q] && 32'(pdims[q*4 +: 4]) != `LOOM_VCT_PORT_DIM_NONE &&
			    dims[pdims[q*4 +: 4]])
				omniwar_deroutes[q] = 1'b1;
	endfunction

	// OmniWAR's distance classes as VCs (route_omni_class, route_omni_vc):
	// the class a packet arrived on, and the VC of class k (3'd7: none)
	function automatic [3:0] omni_class(input logic [2:0] v);
		if (!CARD)
			omni_class = 4'(v);
		else if (32'(v) == `LOOM_VC_REQ_ADAPT || 32'(v) == `LOOM_VC_RESP_ADAPT)
			omni_class = 4'd2;
		else
			omni_class = 4'(32'(v) == `LOOM_VC_REQ1 || 32'(v) == `LOOM_VC_RESP1);
	endfunction
	function automatic logic omni_has_vc(input logic [4:0] k);
		omni_has_vc = CARD ? 32'(k) < `LOOM_RT_OMNI_CARD_CLASSES : 32'(k) < VCS;
	endfunction
	function automatic [2:0] omni_vc(input logic [7:0] c, input logic [4:0] k);
		omni_vc = CARD ? vc_of(c, k == 5'd1, k == 5'd2) : 3'(k);
	endfunction

	// router_decide(): the verdict of an entry for destination d, and
	// whether it is a Valiant entry (its W0 VALIANT bit, valid entries only)
	localparam logic [1:0] D_HOST = 2'd0, D_PORT = 2'd1, D_NONE = 2'd2, D_HOP = 2'd3;
	function automatic [9:0] decide(input logic [31:0] w, input logic [15:0] d);
		logic [7:0] tp, hp;
		if (WIDE_PORTS != 0) begin
			tp = 8'((w & `LOOM_RT_W0_WIDE_PORT_MASK) >> `LOOM_RT_W0_WIDE_PORT_SHIFT);
			hp = 8'(`LOOM_RT_WIDE_PORT_HOST);
		end else begin
			tp = 8'(w & `LOOM_RT_W0_PORT_MASK);
			hp = 8'(`LOOM_RT_PORT_HOST);
		end
		if (32'(hops) >= `LOOM_PKT_MAX_HOPS)
			decide = {D_HOP, 8'd0};
		else if (32'(d) >= RT_ENTRIES || !(|(w & `LOOM_RT_W0_VALID)))
			decide = {D_NONE, 8'd0};
		else if (tp == hp)
			decide = {D_HOST, 8'd0};
		else if (32'(tp) < N_NET)
			decide = {D_PORT, tp};
		else
			decide = {D_NONE, 8'd0};
	endfunction
	function automatic logic valiant_of(input logic [31:0] w, input logic [15:0] d);
		valiant_of = VALIANT != 0 && 32'(hops) < `LOOM_PKT_MAX_HOPS && 32'(d) < RT_ENTRIES &&
			     |(w & `LOOM_RT_W0_VALID) && |(w & `LOOM_RT_W0_VALIANT);
	endfunction

	// the intermediate drawn among 0 .. VAL_LAST (route_val_draw)
	logic [7:0] inter;
	logic [8:0] val_n;	// VAL_LAST + 1 intermediates
	logic [24:0] draw_prod;
	assign val_n = 9'((w1 & `LOOM_RT_W1_VAL_LAST_MASK) >> `LOOM_RT_W1_VAL_LAST_SHIFT) + 9'd1;
	assign draw_prod = VALIANT != 0 ? 25'(lfsr_next) * 25'(val_n) : '0;
	assign inter = draw_prod[23:16];
	logic unused_prod;
	assign unused_prod = ^{draw_prod[24], draw_prod[15:0]};
	assign dst_a = VALIANT != 0 ? {8'd0, dst[15:8]} : '0;
	assign dst_c = VALIANT != 0 ? {8'd0, FROM_HOST ? inter : dst[7:0]} : '0;

	// route_valiant's phases
	localparam logic [2:0] VAL_NONE = 3'd0, VAL_DROP = 3'd1, VAL_PHASE0 = 3'd2, VAL_PHASE1 = 3'd3;

	logic [2:0] drop, vc, adapt_vc;
	logic [7:0] port, adapt_mask;
	logic vc1;
	logic [16:0] mc_copies;		// a multicast head's copies: {host, ports}

	always_comb begin
		logic [16:0] bytes;
		logic [7:0] in_dim, out_dim;
		logic [31:0] aports, out_cfg;
		logic injected;
		logic [9:0] da, db, dc, d;
		logic [31:0] dw;
		logic dsvc1, phase, val_dl;
		logic [2:0] val;
		logic [4:0] k, classes;
		logic [3:0] hops_left;
		logic [7:0] w0_port, min_mask;
		logic ordered, derouted;
		logic [7:0] up_first;
		logic [15:0] up_ext;

		drop = 3'(`ROUTE_DROP_NONE);
		mc_copies = '0;
		port = '0;
		vc = '0;
		adapt_vc = '0;
		adapt_mask = '0;
		vc1 = 1'b0;
		fwd = 1'b0;
		in_dim = '0;
		out_dim = '0;
		aports = '0;
		out_cfg = '0;
		injected = 1'b0;
		draw = 1'b0;
		rewrite = 1'b0;
		ext = '0;
		k = '0;
		classes = '0;
		hops_left = 4'((w0 & `LOOM_RT_W0_HOPS_MASK) >> `LOOM_RT_W0_HOPS_SHIFT);
		w0_port = '0;
		min_mask = '0;
		ordered = |(32'(flags) & `LOOM_PKT_F_ORDERED);
		derouted = 1'b0;
		// an adaptive up-route of a plain entry (route_compute: d.uproute)
		up_first = 8'((w1 & `LOOM_RT_W1_UP_FIRST_MASK) >> `LOOM_RT_W1_UP_FIRST_SHIFT);
		up_ext = UPROUTE != 0 && |(w0 & `LOOM_RT_W0_UPROUTE) && 32'(up_first) < N_NET &&
			 !ordered ? {up_first, 8'h80} : 16'd0;
		rw_dst = dst;
		rw_flags = flags;
		val = VAL_NONE;
		val_dl = 1'b0;
		phase = |(32'(flags) & `LOOM_PKT_F_VAL_PHASE);
		da = decide(w0_a, dst_a);
		db = decide(w0, dst);
		dc = decide(w0_c, dst_c);
		d = db;
		dw = w0;
		dsvc1 = start_vc1;
		bytes = 17'(`LOOM_PKT_HDR_SIZE) + 17'(len) + 17'(FLIT_BYTES - 1);
		flits8 = 8'(bytes / 17'(FLIT_BYTES));
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
		end else if (MCAST != 0 && |(32'(flags) & `LOOM_PKT_F_MCAST)) begin
			// route_mcast
			if (32'(cls) != `LOOM_CLASS_REQ || 32'(ptype) != `LOOM_PKT_PUT ||
			    32'(flits8) > BUF_DEPTH)
				drop = 3'(`ROUTE_DROP_MALFORMED);
			else if (32'(hops) >= `LOOM_PKT_MAX_HOPS)
				drop = 3'(`ROUTE_DROP_HOP_LIMIT);
			else if (!mc_entry[17] || (N_NET < 16 && (mc_entry[15:0] >> N_NET) != '0) ||
				 (mc_entry[15:0] == '0 && (!mc_entry[16] || HOST_PORT < 0)) ||
				 (mc_entry[16] && HOST_PORT < 0))
				drop = 3'(`ROUTE_DROP_NO_ROUTE);
			else
				mc_copies = mc_entry[16:0];
		end else begin
			// route_valiant: which entry routes the packet (d, its W0 dw and
			// START_VC1 bit dsvc1), in which phase, and the header rewrite
			if (phase && valiant_of(w0_a, dst_a)) begin
				if (FROM_HOST) begin
					val = VAL_DROP;	// the phase flag is the routers' own
				end else if (da[9:8] != D_HOST) begin
					val = VAL_PHASE0;
					d = da;
					dw = w0_a;
					dsvc1 = start_vc1_a;
				end else begin
					// the intermediate: the final destination from here on
					rewrite = 1'b1;
					rw_dst = {8'd0, dst[7:0]};
					rw_flags = flags & ~(8'(`LOOM_PKT_F_VAL_PHASE));
					val = VAL_PHASE1;
					d = dc;
					dw = w0_c;
					dsvc1 = start_vc1_c;
				end
			end else if (db[9:8] == D_PORT && valiant_of(w0, dst)) begin
				val = VAL_PHASE1;
				if (FROM_HOST && dst[15:8] == 8'd0 && !ordered) begin
					draw = 1'b1;
					if (dc[9:8] == D_PORT) begin
						rewrite = 1'b1;
						rw_dst = {inter, dst[7:0]};
						if (|(w0 & `LOOM_RT_W0_UGAL)) begin
							// VA chooses; the Valiant route read here
							ext = {6'(dc[7:0]), start_vc1_c,
								4'((w0_c & `LOOM_RT_W0_HOPS_MASK) >> `LOOM_RT_W0_HOPS_SHIFT),
								hops_left,
								1'b1};
						end else begin
`ifdef LOOM_MUTATE_VALIANT
							// the mutant: phase 0 without its flag
							rw_flags = flags;
`else
							rw_flags = flags | 8'(`LOOM_PKT_F_VAL_PHASE);
`endif
							val = VAL_PHASE0;
							d = dc;
							dw = w0_c;
							dsvc1 = start_vc1_c;
						end
					end
				end
			end
			if (val == VAL_DROP) begin
				drop = 3'(`ROUTE_DROP_MALFORMED);
			end else if (d[9:8] == D_HOP) begin
				drop = 3'(`ROUTE_DROP_HOP_LIMIT);
			end else if (d[9:8] == D_NONE) begin
				drop = 3'(`ROUTE_DROP_NO_ROUTE);
			end else if (d[9:8] == D_HOST) begin
				// ROUTE_HOST
				if (HOST_PORT < 0) begin
					drop = 3'(`ROUTE_DROP_NO_ROUTE);
				end else begin
					port = 8'(HOST_PORT);
					vc = CARD ? vc_of(cls, 1'b0, 1'b0) : 3'd0;
				end
			end else begin
				// ROUTE_PORT
				fwd = 1'b1;
				port = d[7:0];
				aports = (w1 & `LOOM_RT_W1_ADAPT_PORTS_MASK) >> `LOOM_RT_W1_ADAPT_PORTS_SHIFT;
				if (aports == '0 && 32'(port) < 32)
					aports = 32'd1 << port[4:0];
				if (N_NET < 32)
					aports = aports & 32'((64'd1 << N_NET) - 64'd1);
				// a phase starts as if injected: at the source, or at the
				// intermediate that switched the packet here (route_val_torus)
				injected = FROM_HOST || (val != VAL_NONE && rewrite) ||
					   (val == VAL_NONE && CARD && (32'(in_vc) == `LOOM_VC_REQ_ADAPT ||
									32'(in_vc) == `LOOM_VC_RESP_ADAPT));
				in_dim = FROM_HOST ? 8'(`LOOM_VCT_PORT_DIM_NONE) :
					 8'(cfg_of(8'(IN_PORT)) & `LOOM_VCT_PORT_DIM_MASK);
				out_cfg = cfg_of(port);
				out_dim = 8'(out_cfg & `LOOM_VCT_PORT_DIM_MASK);
				// entering a dimension: the VC table; continuing through a
				// dateline: VC1
				if (injected || 32'(in_dim) == `LOOM_VCT_PORT_DIM_NONE ||
				    32'(out_dim) == `LOOM_VCT_PORT_DIM_NONE || in_dim != out_dim)
					vc1 = dsvc1;
				else
					vc1 = |(32'(flags) & `LOOM_PKT_F_VC1) ||
					      |(out_cfg & `LOOM_VCT_PORT_DATELINE);
				if (val != VAL_NONE && |(dw & `LOOM_RT_W0_VAL_DATELINES)) begin
					// Valiant on a torus: each phase on its dateline pair
					// (generic VCs, 4 or more; elsewhere no route)
					if (CARD || VCS < 4) begin
						drop = 3'(`ROUTE_DROP_NO_ROUTE);
						vc1 = 1'b0;
					end else begin
						val_dl = 1'b1;
						vc = {1'b0, val == VAL_PHASE1, vc1};
					end
				end else if (val != VAL_NONE) begin
					// one VC set per phase: VC0 toward the intermediate, VC1 after
					vc1 = val == VAL_PHASE1;
					vc = CARD ? vc_of(cls, vc1, 1'b0) : 3'(vc1 && VCS > 1);
				end else if (WAR != 0 && |(w0 & `LOOM_RT_W0_OMNIWAR)) begin
					// OmniWAR (route_omniwar): the next distance class for every
					// candidate; the minimal ports of word 1 and, while the
					// classes left after this one exceed the minimal hops left,
					// the deroutes in their dimensions; ordered packets take
					// the W0 port alone; no class left: the hop limit
					vc1 = 1'b0;
					k = FROM_HOST ? 5'd0 : 5'(omni_class(in_vc)) + 5'd1;
					classes = 5'((w0 & `LOOM_RT_W0_CLASSES_MASK) >> `LOOM_RT_W0_CLASSES_SHIFT);
					if (k >= classes || !omni_has_vc(k)) begin
						drop = 3'(`ROUTE_DROP_HOP_LIMIT);
					end else begin
						vc = omni_vc(cls, k);
						w0_port = 32'(port) < `LOOM_MAX_PORTS ? 8'd1 << port[2:0] : 8'd0;
						min_mask = w0_port;
						if (!ordered) begin
							min_mask = min_mask | aports[7:0];
							if (classes - k > 5'(hops_left))
								adapt_mask = omniwar_deroutes(min_mask);
						end
						ext = {min_mask, ((min_mask | adapt_mask) & ~w0_port) != 8'd0,
						       2'b10, hops_left, 1'b0};
					end
				end else if (WAR != 0 && |(w0 & `LOOM_RT_W0_DIMWAR)) begin
					// DimWAR (route_dimwar): minimal on the class's VC0, the
					// deroutes of the port's dimension on its VC1, none for a
					// packet that arrived on VC1 (it derouted) or an ordered one
					vc1 = 1'b0;
					ext = {8'd0, 3'b001, hops_left, 1'b0};
					if (CARD) begin
						vc = vc_of(cls, 1'b0, 1'b0);
						adapt_vc = vc_of(cls, 1'b1, 1'b0);
						derouted = in_vc == adapt_vc;
					end else begin
						vc = 3'd0;
						derouted = in_vc[0];
					end
					if ((CARD || VCS >= 2) && !(!FROM_HOST && derouted) && !ordered)
						adapt_mask = dimwar_deroutes(port);
				end else if (!CARD) begin
					vc = (vc1 && VCS > 1) ? 3'd1 : 3'd0;
					ext = up_ext;
				end else begin
					vc = vc_of(cls, vc1, 1'b0);
					ext = up_ext;
					if (|(w0 & `LOOM_RT_W0_ADAPTIVE) && !ordered) begin
						adapt_vc = vc_of(cls, 1'b0, 1'b1);
						adapt_mask = aports[7:0];
					end
				end
			end
		end
		if (drop != 3'(`ROUTE_DROP_NONE))
			fwd = 1'b0;
		if (!CARD)
			adapt_vc = {2'b00, val_dl};
		if (mc_copies != '0)
			route = {1'b0, flits8[5:0], 5'd0, mc_copies, 3'(`RTL_ROUTE_MCAST)};
		else
			route = {vc1, flits8[5:0], adapt_mask, adapt_vc, vc, port, drop};
	end
endmodule
