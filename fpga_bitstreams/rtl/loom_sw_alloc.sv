// SPDX-License-Identifier: GPL-2.0
//
// Switch allocator (router/sw_alloc.c): separable, input first.
//
// Input stage: per input port, the VCs that may send a flit this cycle
// request (active VCs whose next flit is visible, whose SA stage has come
// and whose next buffer has room, and draining VCs); the input arbiter
// (ARB_SA_IN) grants one.
//
// TILED: the granted flit goes on the input's row bus into the row buffer
// of its input VC at the subswitch of its output's column (the input holds
// a credit per row buffer, so the row bus needs no output stage).
//
// XBAR: each output's arbiter (ARB_SA_OUT, over the input ports) grants
// one of the inputs that chose it, and the flit crosses the crossbar into
// the output stage; a draining VC leaves at once.
//
// When a tail leaves, the unused part of a virtual cut-through reservation
// goes back to the output VC (XBAR), and the next packet of the same input
// VC keeps the output VC if it was routed to the same one, nobody else
// asked for it and it has the credits (chain; an OmniWAR packet on the
// same output VC only, its distance class); otherwise the output VC is
// released.
`include "loom_hw.vh"

module loom_sw_alloc #(
	parameter integer PORTS = 1,
	parameter integer VCS = 1,
	parameter integer VC_MODEL = 0,
	parameter integer ORG = 0,
	parameter integer WORMHOLE_VCS = 0,
	parameter integer ARB_SA_IN = 0,
	parameter integer ARB_SA_OUT = 0,
	parameter integer IWA_BITS = 5
) (
	input  logic clk,
	input  logic rst,
	// input VCs
	input  logic [PORTS*VCS*3-1:0] st,
	input  logic [PORTS*VCS-1:0] sa_ready,
	input  logic [PORTS*VCS-1:0] row_ok,
	input  logic [PORTS*VCS*PB-1:0] out_port,
	input  logic [PORTS*VCS*3-1:0] out_vc,
	input  logic [PORTS*VCS*32-1:0] rt,
	input  logic [PORTS*VCS*8-1:0] sent,
	input  logic [PORTS*VCS-1:0] front_tail,
	input  logic [PORTS-1:0] tk_nx_ok,
	input  logic [PORTS*32-1:0] tk_nx_route,
	input  logic [PORTS*2-1:0] tk_nx_omni,	// the next route is OmniWAR [0], counted [1]
	// output ports
	input  logic [PORTS-1:0] usable,
	input  logic [PORTS-1:0] pipe_full,
	input  logic [PORTS*VCS*16-1:0] ov_avail,
	input  logic [PORTS*VCS*16-1:0] ov_max,
	input  logic [PORTS*VCS-1:0] ov_wanted,
	// decisions: per input port
	output logic [PORTS-1:0] take,
	output logic [PORTS*3-1:0] take_vc,
	output logic [PORTS-1:0] chain,
	// XBAR: per output port, the input whose flit it takes
	output logic [PORTS-1:0] x_grant,
	output logic [PORTS*PB-1:0] x_src,
	// XBAR: effects on the output VC of the grant (o, its out VC)
	output logic [PORTS*16-1:0] x_giveback,
	output logic [PORTS*16-1:0] x_take,	// chain reservation + a wormhole flit
	output logic [PORTS-1:0] x_release,
	output logic [PORTS*VCS-1:0] waiting,
	// counters
	output logic [7:0] c_conflicts,
	output logic [PORTS*8-1:0] c_chain_det,	// by output port: chained counted packets
	// IWA weight registers
	input  logic wr_in_en,
	input  logic wr_out_en,
	input  logic [15:0] wr_index,
	input  logic [6:0] wr_req,
	input  logic wr_pat,
	input  logic [7:0] wr_weight
);
	localparam integer PB = PORTS > 1 ? $clog2(PORTS) : 1;
	localparam integer VB = VCS > 1 ? $clog2(VCS) : 1;
	localparam logic CARD = VC_MODEL == 1;
	localparam integer VC_STEP = CARD ? VCS : (VCS >= 2 ? 2 : 1);
	localparam logic XBAR = ORG == `ROUTER_ORG_XBAR;

	function automatic logic worm(input logic [2:0] v);
		worm = ((WORMHOLE_VCS >> v) & 1) != 0;
	endfunction

	// is VC b of the class of VC a at or past it (b >= a, b - a a multiple
	// of VC_STEP, of 4 for a Valiant route on a torus: step4)?  On the
	// 3-bit VC numbers
	function automatic logic same_class(input logic [2:0] a, input logic [2:0] b,
					    input logic step4);
		same_class = a <= b && 4'(b - a) % (step4 ? 4'd4 : 4'(VC_STEP)) == 4'd0;
	endfunction

	// ---- input stage ----
	logic [VCS-1:0] in_req [0:PORTS-1];
	logic [VCS-1:0] in_pat [0:PORTS-1];
	logic [PORTS-1:0] in_gv;
	logic [VB-1:0] in_gi [0:PORTS-1];
	logic [PORTS-1:0] in_upd, in_hold;
	logic [PORTS-1:0] drain;		// the pick drains (takes at once)

	always_comb begin
		integer p, v, o, ov;
		logic [2:0] s;
		waiting = '0;
		for (p = 0; p < PORTS; p = p + 1) begin
			for (v = 0; v < VCS; v = v + 1) begin
				s = st[(p*VCS+v)*3 +: 3];
				o = 32'(out_port[(p*VCS+v)*PB +: PB]);
				ov = 32'(out_vc[(p*VCS+v)*3 +: 3]);
				in_pat[p][v] = rt[(p*VCS+v)*32 + 11];	// rt.vc & 1
				in_req[p][v] = 1'b0;
				if (sa_ready[p*VCS+v]) begin
					if (32'(s) == `IVC_DROPPING) begin
						in_req[p][v] = 1'b1;
					end else if (!XBAR) begin
						in_req[p][v] = row_ok[p*VCS+v];
					end else if (!usable[o]) begin
						in_req[p][v] = 1'b1;
					end else if (!pipe_full[o]) begin
						if (worm(3'(ov)) && ov_avail[(o*VCS+ov)*16 +: 16] == '0)
							waiting[o*VCS+ov] = 1'b1;
						else
							in_req[p][v] = 1'b1;
					end
				end
			end
		end
	end

	genvar gp;
	for (gp = 0; gp < PORTS; gp = gp + 1) begin : g_in
		loom_arbiter #(.KIND(ARB_SA_IN), .N(VCS), .M_BITS(IWA_BITS)) u_arb (
			.clk(clk), .rst(rst), .req(in_req[gp]),
			.gnt_valid(in_gv[gp]), .gnt_idx(in_gi[gp]),
			.upd(in_upd[gp]), .upd_idx(in_gi[gp]), .upd_pat(in_pat[gp][in_gi[gp]]),
			.upd_hold(in_hold[gp]),
			.wr_en(wr_in_en && 32'(wr_index) == gp), .wr_idx(wr_req), .wr_pat(wr_pat),
			.wr_weight(wr_weight));
	end

	// ---- output stage (XBAR) ----
	logic [PORTS-1:0] out_req [0:PORTS-1];
	logic [PORTS-1:0] out_gv;
	logic [PB-1:0] out_gi [0:PORTS-1];
	logic [PORTS-1:0] out_hold;

	always_comb begin
		integer p, o;
		for (o = 0; o < PORTS; o = o + 1)
			out_req[o] = '0;
		for (p = 0; p < PORTS; p = p + 1) begin
			drain[p] = in_gv[p] &&
				   32'(st[(p*VCS+32'(in_gi[p]))*3 +: 3]) == `IVC_DROPPING;
			if (XBAR && in_gv[p] && !drain[p])
				out_req[32'(out_port[(p*VCS+32'(in_gi[p]))*PB +: PB])][p] = 1'b1;
		end
	end

	if (XBAR) begin : g_xbar
		genvar go;
		for (go = 0; go < PORTS; go = go + 1) begin : g_out
			loom_arbiter #(.KIND(ARB_SA_OUT), .N(PORTS), .M_BITS(IWA_BITS)) u_arb (
				.clk(clk), .rst(rst), .req(out_req[go]),
				.gnt_valid(out_gv[go]), .gnt_idx(out_gi[go]),
				.upd(out_gv[go]), .upd_idx(out_gi[go]), .upd_pat(1'b0),
				.upd_hold(out_hold[go]),
				.wr_en(wr_out_en && 32'(wr_index) == go), .wr_idx(wr_req),
				.wr_pat(wr_pat), .wr_weight(wr_weight));
		end
	end else begin : g_tiled
		assign out_gv = '0;
		always_comb begin
			integer o;
			for (o = 0; o < PORTS; o = o + 1)
				out_gi[o] = '0;
		end
		logic unused_out;
		assign unused_out = ^{out_hold, wr_out_en};
	end

	// ---- takes, tails, chains ----
	always_comb begin
		integer p;
		for (p = 0; p < PORTS; p = p + 1)
			take_vc[p*3 +: 3] = 3'(in_gi[p]);
	end

	always_comb begin
		integer p, o, v, ov, k, nport, nflits, gb, avail, maxc;
		logic tl, ch, granted;
		/* verilator lint_off UNUSEDSIGNAL */
		logic [31:0] nrt;	// the next packet's route: drop, port, vc, adapt_mask, flits
		/* verilator lint_on UNUSEDSIGNAL */
		take = '0;
		chain = '0;
		v = 0;
		k = 0;
		o = 0;
		ov = 0;
		tl = 1'b0;
		ch = 1'b0;
		granted = 1'b0;
		nrt = '0;
		nport = 0;
		nflits = 0;
		gb = 0;
		avail = 0;
		maxc = 0;
		x_grant = '0;
		x_src = '0;
		x_giveback = '0;
		x_take = '0;
		x_release = '0;
		c_chain_det = '0;
		in_upd = '0;
		in_hold = '0;
		out_hold = '0;
		c_conflicts = '0;
		for (p = 0; p < PORTS; p = p + 1) begin
			v = 32'(in_gi[p]);
			granted = XBAR && in_gv[p] && !drain[p] &&
				  out_gv[32'(out_port[(p*VCS+v)*PB +: PB])] &&
				  32'(out_gi[32'(out_port[(p*VCS+v)*PB +: PB])]) == p;
			take[p] = in_gv[p] && (drain[p] || !XBAR || granted);
			tl = front_tail[p*VCS+v];
			in_upd[p] = take[p];
			in_hold[p] = !tl;
			if (!XBAR && in_gv[p]) begin
				k = 0;
				for (ov = 0; ov < VCS; ov = ov + 1)
					k = k + 32'(in_req[p][ov]);
				c_conflicts = c_conflicts + 8'(k >= 2);
			end
			// the tail of an active packet leaves: give back, chain, release
			o = 32'(out_port[(p*VCS+v)*PB +: PB]);
			ov = 32'(out_vc[(p*VCS+v)*3 +: 3]);
			nrt = tk_nx_route[p*32 +: 32];
			// the port in PB bits: below PORTS in a route that is not a drop
			// (loom_route_compute), the only next routes that chain
			nport = 32'(nrt[3 +: PB]);
			nflits = 32'(nrt[30:25]);
			gb = 0;
			avail = 32'(ov_avail[(o*VCS+ov)*16 +: 16]);
			maxc = 32'(ov_max[(o*VCS+ov)*16 +: 16]);
			if (take[p] && !drain[p] && tl) begin
				if (XBAR && !worm(3'(ov)) && 32'(sent[(p*VCS+v)*8 +: 8]) + 1 <
				    32'(rt[(p*VCS+v)*32 + 25 +: 6])) begin
					gb = 32'(rt[(p*VCS+v)*32 + 25 +: 6]) - 32'(sent[(p*VCS+v)*8 +: 8]) - 1;
					if (gb <= maxc - avail)
						avail = avail + gb;
					else
						gb = 0;	// refused, as credit_give() refuses it
				end
				ch = tk_nx_ok[p] && nrt[2:0] == 3'(`ROUTE_DROP_NONE) && nport == o &&
				     same_class(nrt[13:11], out_vc[(p*VCS+v)*3 +: 3], !CARD && nrt[14]) &&
				     usable[o] &&
				     !(tk_nx_omni[2*p] && nrt[13:11] != out_vc[(p*VCS+v)*3 +: 3]);
				if (XBAR && (ov_wanted[o*VCS+ov] || (!worm(3'(ov)) && avail < nflits)))
					ch = 1'b0;
				chain[p] = ch;
				if (ch && (tk_nx_omni[2*p] ? tk_nx_omni[2*p+1] : nrt[24:17] != 8'd0))
					c_chain_det[o*8 +: 8] = c_chain_det[o*8 +: 8] + 8'd1;
				if (XBAR) begin
					x_giveback[o*16 +: 16] = 16'(gb);
					if (ch && !worm(3'(ov)))
						x_take[o*16 +: 16] = 16'(nflits);
					x_release[o] = !ch;
				end
			end
		end
		if (XBAR) begin
			for (o = 0; o < PORTS; o = o + 1) begin
				if (out_gv[o]) begin
					p = 32'(out_gi[o]);
					v = 32'(in_gi[p]);
					x_grant[o] = 1'b1;
					x_src[o*PB +: PB] = PB'(p);
					out_hold[o] = !front_tail[p*VCS+v];
					c_conflicts = c_conflicts + 8'((out_req[o] & ~(PORTS'(1) << p)) != '0);
					// a wormhole flit takes its credit as it enters the output stage
					if (usable[o] && worm(out_vc[(p*VCS+v)*3 +: 3]))
						x_take[o*16 +: 16] = x_take[o*16 +: 16] + 16'd1;
				end
			end
		end
	end
endmodule
