// SPDX-License-Identifier: GPL-2.0
//
// VC allocator (router/vc_alloc.c): separable, input first.
//
// Stage 1, per input port: every routed VC forms one request: the adaptive
// VC of the least loaded usable minimal port that is free and has credits
// for the whole packet (T3E whole-packet admission), else its
// deterministic output VC (XBAR: if free and, virtual cut-through, with
// credits for the whole packet; with generic VCs any VC of its dateline
// class, of its phase and dateline class for a Valiant route on a torus);
// the input arbiter (ARB_VA_IN) picks one.  A UGAL route first chooses,
// once, between its minimal route and the Valiant one RC read (the input
// unit's route extension) by occupancy x hops (va_ugal, route_ugal_pick: the
// flits each output has sent and not had credited back, all its VCs),
// and requests the chosen one; the input unit keeps the choice (ug_*).
// A DimWAR or OmniWAR route (va_dimwar, va_omniwar; the route extension's
// fields, loom_route_compute) weighs its W0 port against the other
// candidates whose VC is free with room for the whole packet -- DimWAR's
// deroutes on the class's VC1 (generic VCs: the first free odd VC),
// OmniWAR's other minimal ports and deroutes on the packet's distance
// class -- by (occupancy + flits) x hops, a deroute at hops + 1
// (route_dimwar_pick, route_omniwar_pick: the lightest, the W0 port on a
// tie, else the first from the round robin); another port that wins is
// requested as an adaptive VC, else the W0 port's VC as a deterministic
// route (OmniWAR: that VC alone).
// An adaptive up-route (va_uproute; the route extension's UP_FIRST) takes
// the up port UP_FIRST .. N_NET - 1 with the fewest flits outstanding
// among those whose VC of the route's class is free with room for the
// whole packet, the W0 port on a tie, else the first from the round robin
// (route_uproute_pick); another port than the W0 port is requested as an
// adaptive VC, else the deterministic route.  The round robin is va_rr
// modulo the up ports, N_NET - UP_FIRST: one pointer for each UP_FIRST
// (up_rr), each stepped modulo its own count by every adaptive grant.
// A packet whose route is a drop, or whose output is down, dead or disabled with no adaptive
// alternative, starts draining instead.
//
// Stage 2, per output VC: its arbiter (ARB_VA_OUT, over the input ports)
// grants one request.  XBAR: the output VC is owned by the winner until its
// tail crosses the switch, and virtual cut-through takes the packet's
// credits now.  TILED: the grant chooses the output VC (a free one of its
// class if any); the output mux owns it from head to tail.
//
// The output VC state it reads is the one after this cycle's output mux
// (TILED) and switch allocation (XBAR), as router_cycle() orders them.
`include "loom_hw.vh"

module loom_vc_alloc #(
	parameter integer PORTS = 1,
	parameter integer HOST_PORTS = 0,
	parameter integer VCS = 1,
	parameter integer VC_MODEL = 0,
	parameter integer ORG = 0,
	parameter integer WORMHOLE_VCS = 0,
	parameter integer ARB_VA_IN = 0,
	parameter integer ARB_VA_OUT = 0,
	parameter integer IWA_BITS = 5,
	parameter integer VALIANT = 1,		// 0: no UGAL choice (loom_router)
	parameter integer WAR = 1,		// 0: no DimWAR or OmniWAR choice
	parameter integer UPROUTE = 1		// 0: no adaptive up-route choice
) (
	input  logic clk,
	input  logic rst,
	input  logic [PORTS*VCS-1:0] va_ready,
	input  logic [PORTS*VCS*32-1:0] rt,
	input  logic [PORTS*VCS*16-1:0] ext,	// route extensions (loom_route_compute)
	// output VCs after this cycle's switch stages
	input  logic [PORTS*VCS-1:0] ov_owned,
	input  logic [PORTS*VCS*OWN-1:0] ov_owner,	// XBAR: one-hot over the input VCs
	input  logic [PORTS*VCS*16-1:0] ov_avail,
	input  logic [PORTS*VCS*16-1:0] ov_max,
	input  logic [PORTS-1:0] usable,
	input  logic [PORTS*3-1:0] drop_reason,
	// decisions
	output logic [PORTS-1:0] grant,
	output logic [PORTS*3-1:0] grant_vc,
	output logic [PORTS*PB-1:0] grant_port,
	output logic [PORTS*3-1:0] grant_ovc,
	output logic [PORTS*VCS-1:0] drop,
	output logic [PORTS*VCS*3-1:0] reason,
	// UGAL's choice at this edge: made, Valiant, the Valiant route's {vc1, vc}
	output logic [PORTS*VCS-1:0] ug_set,
	output logic [PORTS*VCS-1:0] ug_val,
	output logic [PORTS*VCS*4-1:0] ug_vc,
	// XBAR: output VCs granted this cycle: owner and reservation
	output logic [PORTS*VCS-1:0] x_own,
	output logic [PORTS*VCS*OWN-1:0] x_owner,	// one-hot over the input VCs
	output logic [PORTS*VCS*16-1:0] x_take,
	output logic [PORTS*VCS-1:0] wanted_set,
	output logic [PORTS*VCS-1:0] waiting,
	// counters
	output logic [15:0] c_conflicts,
	output logic [PORTS*8-1:0] c_adaptive,
	output logic [PORTS*8-1:0] c_deterministic,
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
	localparam integer OW = $clog2(PORTS * VCS + 1) > 6 ? $clog2(PORTS * VCS + 1) : 6;
	localparam integer N_NET = PORTS - HOST_PORTS;
	localparam logic CARD = VC_MODEL == 1;
	localparam integer VC_STEP = CARD ? VCS : (VCS >= 2 ? 2 : 1);
	localparam logic XBAR = ORG == `ROUTER_ORG_XBAR;
	localparam integer OWN = ORG == `ROUTER_ORG_XBAR ? PORTS * VCS : OW;	// an owner (loom_output_unit)
	localparam integer RR_N = N_NET < 32 ? N_NET : 32;

	function automatic logic worm(input integer v);
		worm = ((WORMHOLE_VCS >> v) & 1) != 0;
	endfunction

	// the deterministic VCs d of which output VC c is one (c >= d, c - d a
	// multiple of VC_STEP) as a mask over the 3-bit VC numbers, a constant
	// for each c: the class test is one bit of it at the route's VC
	function automatic logic [7:0] class_of(input integer c);
		integer d;
		class_of = '0;
		for (d = 0; d < 8; d = d + 1)
			if (d <= c && (c - d) % VC_STEP == 0)
				class_of[d] = 1'b1;
	endfunction
	// the same for a Valiant route on a torus (generic VCs, route bit 14):
	// four classes, 2 x phase + past a dateline (route_vc_step)
	function automatic logic [7:0] class4_of(input integer c);
		integer d;
		class4_of = '0;
		for (d = 0; d < 8; d = d + 1)
			if (d <= c && (c - d) % 4 == 0)
				class4_of[d] = 1'b1;
	endfunction

	logic [PB-1:0] rr;	// adaptive choice round robin (va_rr modulo the network ports)
	// va_rr modulo N_NET - f for an up-route whose first up port is f
	logic [PB-1:0] up_rr [0:N_NET > 0 ? N_NET-1 : 0];

	// the VC0 of the class of card VC v (route_vc_of(route_class_of_vc(v), 0, 0))
	function automatic [2:0] vc_of0(input logic [2:0] v);
		case (32'(v))
		`LOOM_VC_REQ0, `LOOM_VC_REQ1, `LOOM_VC_REQ_ADAPT: vc_of0 = 3'(`LOOM_VC_REQ0);
		`LOOM_VC_RESP0, `LOOM_VC_RESP1, `LOOM_VC_RESP_ADAPT: vc_of0 = 3'(`LOOM_VC_RESP0);
		default: vc_of0 = v;
		endcase
	endfunction

	// va_occupancy: the flits output o has sent and not had credited back
	logic [19:0] occ [0:PORTS-1];
	always_comb begin
		integer o, c;
		logic [15:0] d;
		d = '0;
		for (o = 0; o < PORTS; o = o + 1) begin
			occ[o] = '0;
			for (c = 0; c < VCS; c = c + 1) begin
				d = ov_max[(o*VCS+c)*16 +: 16] - ov_avail[(o*VCS+c)*16 +: 16];
				if (VALIANT != 0 || WAR != 0 || UPROUTE != 0)
					occ[o] = occ[o] + 20'(d);
			end
		end
	end

	/* verilator lint_off UNUSEDSIGNAL */
	// an OmniWAR route (its extension's [6], [0] clear: no UGAL choice pending)
	function automatic logic omni_of(input logic [15:0] e);
		omni_of = WAR != 0 && !e[0] && e[6];
	endfunction
	// does a grant of route r with extension e count in ADAPTIVE or
	// DETERMINISTIC (route_result.counted)?
	// an adaptive up-route (its extension's [7] alone of [7:5], [0] clear)
	function automatic logic up_of(input logic [15:0] e);
		up_of = UPROUTE != 0 && !e[0] && e[7:5] == 3'b100;
	endfunction
	function automatic logic counted_of(input logic [31:0] r, input logic [15:0] e);
		counted_of = omni_of(e) ? e[7] : r[24:17] != 8'd0;
	endfunction
	/* verilator lint_on UNUSEDSIGNAL */

	// owned_other[k][q]: output VC k is owned by another input VC than q
	// (p * VCS + v), for every pair, so that a request's test reads one bit
	// at its output VC; XBAR alone asks it, where the owner is one-hot
	logic [PORTS*VCS-1:0] owned_other [0:PORTS*VCS-1];
	if (XBAR) begin : g_owned_other
		always_comb
			for (int k = 0; k < PORTS * VCS; k++)
				owned_other[k] = ov_owned[k] ? ~ov_owner[k*OWN +: OWN] : '0;
	end else begin : g_no_owned_other
		always_comb
			for (int k = 0; k < PORTS * VCS; k++)
				owned_other[k] = '0;
		logic unused_owner;
		assign unused_owner = ^ov_owner;
	end

	// ---- stage 1 ----
	logic [VCS-1:0] req [0:PORTS-1];
	logic [PB-1:0] req_o [0:PORTS-1][0:VCS-1];
	logic [2:0] req_ovc [0:PORTS-1][0:VCS-1];
	logic req_adapt [0:PORTS-1][0:VCS-1];

	always_comb begin
		integer p, v, o, c, a, i, q, best, flits, avc, k;
		/* verilator lint_off UNUSEDSIGNAL */
		logic [31:0] r;		// the route, all but vc1
		/* verilator lint_on UNUSEDSIGNAL */
		logic [7:0] amask, ok, cls;
		logic [2:0] dvc3;
		logic [15:0] cr [0:7];
		logic [15:0] best_cr;
		logic done;
		logic [15:0] u;
		logic min_ok, val_ok;
		logic [19:0] occ_min, occ_val;	// then + the packet's flits
		logic [4:0] hv;
		integer uo;
		// DimWAR and OmniWAR: the route's kind, candidates, their free VCs
		logic war, omni, wok_cand, wbok;
		logic [7:0] wmin, wder, wok;
		logic [2:0] wvc [0:7];
		logic [2:0] wv1, bvc;
		logic [25:0] ww, wbw;
		integer wbest;
		// adaptive up-route: its first up port and span, the pointer, the
		// ports with a free VC of the class, their VCs, the best so far
		logic up, ubok;
		integer ufirst, uspan, urr, uidx, ubest;
		logic [6:0] uo7;
		logic [PORTS-1:0] uok;
		logic [2:0] uvc [0:PORTS-1];
		logic [19:0] ubocc;
		drop = '0;
		reason = '0;
		ug_set = '0;
		ug_val = '0;
		ug_vc = '0;
		u = '0;
		min_ok = 1'b0;
		val_ok = 1'b0;
		occ_min = '0;
		occ_val = '0;
		hv = '0;
		uo = 0;
		war = 1'b0;
		omni = 1'b0;
		wok_cand = 1'b0;
		wbok = 1'b0;
		wmin = '0;
		wder = '0;
		wok = '0;
		wv1 = '0;
		bvc = '0;
		ww = '0;
		wbw = '0;
		wbest = 0;
		for (a = 0; a < 8; a = a + 1)
			wvc[a] = '0;
		up = 1'b0;
		ubok = 1'b0;
		ufirst = 0;
		uspan = 0;
		urr = 0;
		uidx = 0;
		ubest = 0;
		uo7 = '0;
		uok = '0;
		ubocc = '0;
		for (a = 0; a < PORTS; a = a + 1)
			uvc[a] = '0;
		wanted_set = '0;
		waiting = '0;
		best = -1;
		best_cr = '0;
		done = 1'b0;
		ok = '0;
		cls = '0;
		dvc3 = '0;
		q = 0;
		k = 0;
		// every variable set before the branches, the loop variables too:
		// one set on some paths only makes Yosys's latch check (proc_dlatch)
		// walk each path through the loops, exponentially many
		i = 0;
		c = 0;
		for (a = 0; a < 8; a = a + 1)
			cr[a] = '0;
		for (p = 0; p < PORTS; p = p + 1) begin
			req[p] = '0;
			for (v = 0; v < VCS; v = v + 1) begin
				req_o[p][v] = '0;
				req_ovc[p][v] = '0;
				req_adapt[p][v] = 1'b0;
				r = rt[(p*VCS+v)*32 +: 32];
				// the output port in PB bits: below PORTS in every route that is
				// not a drop (loom_route_compute), the only routes used here
				o = 32'(r[3 +: PB]);
				dvc3 = r[13:11];
				avc = 32'(r[16:14]);
				u = ext[(p*VCS+v)*16 +: 16];
				omni = omni_of(u);
				war = WAR != 0 && !u[0] && (u[5] || u[6]);
				up = up_of(u);
				// loom_route_compute sets an adaptive mask with the card's VCs
				// only: with generic VCs none is built; DimWAR's and
				// OmniWAR's deroute ports are theirs; an up-route chooses
				// among its up ports instead
				amask = CARD && !war && !up ? r[24:17] : 8'd0;
				flits = 32'(r[30:25]);
				if (va_ready[p*VCS+v]) begin
					if (r[2:0] != 3'(`ROUTE_DROP_NONE)) begin
						drop[p*VCS+v] = 1'b1;
						reason[(p*VCS+v)*3 +: 3] = r[2:0];
					end else begin
						if (VALIANT != 0 && u[0]) begin
							// UGAL, once: minimal (RC's port, VC1) or Valiant
							// u[15:10] % PORTS in 7 bits, not 32
							uo7 = 7'(u[15:10]) % 7'(PORTS);
							uo = 32'(uo7);
							min_ok = usable[o];
							val_ok = usable[uo];
							occ_min = (min_ok ? occ[o] : '0) + 20'(flits);
							occ_val = (val_ok ? occ[uo] : '0) + 20'(flits);
							hv = 5'(u[8:5]) + 5'(u[4:1]);
							ug_set[p*VCS+v] = 1'b1;
							if (min_ok != val_ok)
								ug_val[p*VCS+v] = val_ok;
							else
`ifdef LOOM_MUTATE_UGAL
								// the mutant: a tie goes Valiant
								ug_val[p*VCS+v] = 25'(occ_val) * 25'(hv) <=
										  25'(occ_min) * 25'(u[4:1]);
`else
								ug_val[p*VCS+v] = 25'(occ_val) * 25'(hv) <
										  25'(occ_min) * 25'(u[4:1]);
`endif
							if (ug_val[p*VCS+v]) begin
								// phase 0: VC0 of the class, or of its dateline pair
								// (the intermediate's START_VC1) on a torus
								o = uo;
								dvc3 = CARD ? vc_of0(dvc3) : 3'(r[14] && u[9]);
								ug_vc[(p*VCS+v)*4 +: 4] = {!CARD && r[14] && u[9], dvc3};
							end
						end
						best = -1;
						bvc = 3'(avc);
						if (war && (omni ? u[7] : r[24:17] != 8'd0)) begin
							// DimWAR, OmniWAR: the candidates beside the W0 port
							// with a free VC that has room for the packet
							wmin = omni ? u[15:8] : 8'd0;
							wder = r[24:17] & ~wmin;
							wv1 = CARD ? 3'(avc) : 3'd1;
							wok = '0;
							for (a = 0; a < 8; a = a + 1) begin
								wvc[a] = '0;
								done = 1'b0;
								if ((wmin[a] || wder[a]) && a != o && a < N_NET &&
								    usable[a % PORTS]) begin
									for (c = 0; c < VCS; c = c + 1) begin
										// OmniWAR: the distance class's VC alone;
										// DimWAR: VC1 of the class, by VC_STEP
										wok_cand = omni ? 32'(dvc3) == c :
											   32'(wv1) <= c && 4'(c - 32'(wv1)) % 4'(VC_STEP) == 4'd0;
										if (!done && wok_cand &&
										    !ov_owned[(a % PORTS)*VCS+c] &&
										    32'(ov_avail[((a % PORTS)*VCS+c)*16 +: 16]) >= flits) begin
											wok[a] = 1'b1;
											wvc[a] = 3'(c);
											done = 1'b1;
										end
									end
								end
							end
							// war_pick: the W0 port first, then from the round robin
							// the lightest; a deroute weighs one hop more
							wmin = wmin & wok;
							wder = wder & wok;
							wbest = o;
							wbok = usable[o];
							wbw = (26'(occ[o]) + 26'(flits)) * 26'(u[4:1]);
							for (i = 0; i < RR_N; i = i + 1) begin
								// (rr + i) % N_NET: rr < N_NET, i < N_NET
								q = 32'(rr) + i;
								if (q >= N_NET)
									q = q - N_NET;
								if (q < 8 && q != o && (wmin[q % 8] || wder[q % 8])) begin
`ifdef LOOM_MUTATE_WAR
									// the mutant: a deroute weighs as a minimal hop
									ww = (26'(occ[PB'(q)]) + 26'(flits)) * 26'(u[4:1]);
`else
									ww = (26'(occ[PB'(q)]) + 26'(flits)) *
									     (wmin[q % 8] ? 26'(u[4:1]) : 26'(u[4:1]) + 26'd1);
`endif
									if (!wbok || ww < wbw) begin
										wbest = q;
										wbw = ww;
										wbok = 1'b1;
									end
								end
							end
							if (wbest != o) begin
								best = wbest;
								bvc = wvc[wbest % 8];
							end
						end
						if (up) begin
							// va_uproute: the up ports and the W0 port that are
							// usable with a free VC of the class with room for
							// the packet
							ufirst = 32'(u[15:8]);
							uspan = N_NET - ufirst;
							uok = '0;
							for (a = 0; a < PORTS; a = a + 1) begin
								uvc[a] = '0;
								done = 1'b0;
								if (a < N_NET && (a >= ufirst || a == o) && usable[a]) begin
									for (c = 0; c < VCS; c = c + 1) begin
										if (!done && 32'(dvc3) <= c &&
										    4'(c - 32'(dvc3)) % 4'(VC_STEP) == 4'd0 &&
										    !ov_owned[a*VCS+c] &&
										    32'(ov_avail[(a*VCS+c)*16 +: 16]) >= flits) begin
											uok[a] = 1'b1;
											uvc[a] = 3'(c);
											done = 1'b1;
										end
									end
								end
							end
							// route_uproute_pick: the W0 port first, then from the
							// round robin modulo the up ports the least occupied
							urr = 0;
							for (a = 0; a < N_NET; a = a + 1)
								if (a == ufirst)
									urr = 32'(up_rr[a]);
`ifdef LOOM_MUTATE_UPROUTE
							// the mutant: the pointer modulo the network ports
							urr = 32'(rr);
`endif
							ubest = o;
							ubok = uok[o];
							ubocc = occ[o];
							for (i = 0; i < N_NET; i = i + 1) begin
								if (i < uspan) begin
`ifdef LOOM_MUTATE_UPROUTE
									uidx = (urr + i) % uspan;
`else
									uidx = urr + i;
									if (uidx >= uspan)
										uidx = uidx - uspan;
`endif
									q = ufirst + uidx;
									if (q != o && uok[PB'(q)] &&
									    (!ubok || occ[PB'(q)] < ubocc)) begin
										ubest = q;
										ubocc = occ[PB'(q)];
										ubok = 1'b1;
									end
								end
							end
							if (ubest != o) begin
								best = ubest;
								bvc = uvc[PB'(ubest)];
							end
						end
						if (amask != 8'd0) begin
							ok = '0;
							for (a = 0; a < 8; a = a + 1) begin
								cr[a] = '0;
								// usable[a % PORTS]: a < N_NET here; the index keeps
								// the unrolled select of a >= PORTS inside the vector
								if (amask[a] && a < N_NET && usable[a % PORTS]) begin
									ok[a] = 1'b1;
									if (!ov_owned[a*VCS+avc] &&
									    32'(ov_avail[(a*VCS+avc)*16 +: 16]) >= flits)
										cr[a] = ov_avail[(a*VCS+avc)*16 +: 16];
								end
							end
							// route_adaptive_pick
							amask = amask & ok;
							best_cr = '0;
							if (o < 8 && amask[o] && cr[o] != '0) begin
								best = o;
								best_cr = cr[o];
							end
							for (i = 0; i < RR_N; i = i + 1) begin
								// (rr + i) % N_NET: rr < N_NET, i < N_NET
								q = 32'(rr) + i;
								if (q >= N_NET)
									q = q - N_NET;
								if (q < 8 && amask[q] && cr[q] > best_cr) begin
									best = q;
									best_cr = cr[q];
								end
							end
						end
						if (best >= 0) begin
							req[p][v] = 1'b1;
							req_o[p][v] = PB'(best);
							req_ovc[p][v] = bvc;
							req_adapt[p][v] = 1'b1;
						end else if (!usable[o]) begin
							drop[p*VCS+v] = 1'b1;
							reason[(p*VCS+v)*3 +: 3] = drop_reason[o*3 +: 3];
						end else if (!XBAR) begin
							req[p][v] = 1'b1;
							req_o[p][v] = PB'(o);
							req_ovc[p][v] = dvc3;
							done = 1'b0;
							for (c = 0; c < VCS; c = c + 1) begin
								cls = (!CARD && r[14]) ? class4_of(c) : class_of(c);
								// OmniWAR's distance class is one VC
								if (!done && (omni ? 32'(dvc3) == c : cls[dvc3]) &&
								    !ov_owned[o*VCS+c] &&
								    (worm(c) || 32'(ov_avail[(o*VCS+c)*16 +: 16]) >= flits)) begin
									req_ovc[p][v] = 3'(c);
									done = 1'b1;
								end
							end
						end else begin
							done = 1'b0;
							for (c = 0; c < VCS; c = c + 1) begin
								cls = (!CARD && r[14]) ? class4_of(c) : class_of(c);
								if (!done && (omni ? 32'(dvc3) == c : cls[dvc3])) begin
									k = o*VCS + c;
									if (ov_owned[k]) begin
										if (owned_other[k][p*VCS + v])
											wanted_set[k] = 1'b1;
									end else if (!worm(c) &&
										     32'(ov_avail[k*16 +: 16]) < flits) begin
										waiting[k] = 1'b1;
									end else begin
										req[p][v] = 1'b1;
										req_o[p][v] = PB'(o);
										req_ovc[p][v] = 3'(c);
										done = 1'b1;
									end
								end
							end
						end
					end
				end
			end
		end
	end

	logic [PORTS-1:0] in_gv, in_upd;
	logic [VB-1:0] in_gi [0:PORTS-1];

	genvar gp;
	for (gp = 0; gp < PORTS; gp = gp + 1) begin : g_in
		loom_arbiter #(.KIND(ARB_VA_IN), .N(VCS), .M_BITS(IWA_BITS)) u_arb (
			.clk(clk), .rst(rst), .req(req[gp]),
			.gnt_valid(in_gv[gp]), .gnt_idx(in_gi[gp]),
			.upd(in_upd[gp]), .upd_idx(in_gi[gp]), .upd_pat(1'b0), .upd_hold(1'b0),
			.wr_en(wr_in_en && 32'(wr_index) == gp), .wr_idx(wr_req), .wr_pat(wr_pat),
			.wr_weight(wr_weight));
	end

	// ---- stage 2: one arbiter per output VC over the input ports ----
	logic [PORTS-1:0] oreq [0:PORTS*VCS-1];
	logic [PORTS*VCS-1:0] o_gv;
	logic [PB-1:0] o_gi [0:PORTS*VCS-1];

	always_comb begin
		integer p, k;
		for (k = 0; k < PORTS * VCS; k = k + 1)
			oreq[k] = '0;
		for (p = 0; p < PORTS; p = p + 1)
			if (in_gv[p])
				oreq[32'(req_o[p][in_gi[p]]) * VCS + 32'(req_ovc[p][in_gi[p]])][p] = 1'b1;
	end

	genvar gk;
	for (gk = 0; gk < PORTS * VCS; gk = gk + 1) begin : g_out
		loom_arbiter #(.KIND(ARB_VA_OUT), .N(PORTS), .M_BITS(IWA_BITS)) u_arb (
			.clk(clk), .rst(rst), .req(oreq[gk]),
			.gnt_valid(o_gv[gk]), .gnt_idx(o_gi[gk]),
			.upd(o_gv[gk]), .upd_idx(o_gi[gk]), .upd_pat(1'b0), .upd_hold(1'b0),
			.wr_en(wr_out_en && 32'(wr_index) == gk), .wr_idx(wr_req), .wr_pat(wr_pat),
			.wr_weight(wr_weight));
	end

	// An input is granted when an output VC's arbiter picks it: it asked
	// one output VC only, so at most one picks it.  Each arbiter's pick as
	// a one-hot vector over the inputs, the grants their OR: no output VC
	// is selected by an input's request number.
	logic [PORTS-1:0] o_won [0:PORTS*VCS-1];
	logic [PORTS-1:0] won;
	always_comb begin
		integer p, k;
		won = '0;
		for (k = 0; k < PORTS * VCS; k = k + 1)
			for (p = 0; p < PORTS; p = p + 1) begin
				o_won[k][p] = o_gv[k] && 32'(o_gi[k]) == p;
				won[p] = won[p] || o_won[k][p];
			end
	end

	always_comb begin
		integer p, v, o, n_adapt;
		grant = '0;
		grant_vc = '0;
		grant_port = '0;
		grant_ovc = '0;
		in_upd = '0;
		c_conflicts = '0;
		c_adaptive = '0;
		c_deterministic = '0;
		n_adapt = 0;
		for (p = 0; p < PORTS; p = p + 1) begin
			v = 32'(in_gi[p]);
			o = 32'(req_o[p][v]);
			if (in_gv[p]) begin
				if (won[p]) begin
					grant[p] = 1'b1;
					in_upd[p] = 1'b1;
					grant_vc[p*3 +: 3] = 3'(v);
					grant_port[p*PB +: PB] = req_o[p][v];
					grant_ovc[p*3 +: 3] = req_ovc[p][v];
					if (counted_of(rt[(p*VCS+v)*32 +: 32], ext[(p*VCS+v)*16 +: 16])) begin
						if (req_adapt[p][v])
							c_adaptive[o*8 +: 8] = c_adaptive[o*8 +: 8] + 8'd1;
						else
							c_deterministic[o*8 +: 8] = c_deterministic[o*8 +: 8] + 8'd1;
					end
					if (req_adapt[p][v])
						n_adapt = n_adapt + 1;
				end else begin
					c_conflicts = c_conflicts + 16'd1;
				end
			end
		end
		rr_next = PB'((16'(rr) + 16'(n_adapt)) % 16'(N_NET > 0 ? N_NET : 1));
		n_adapt_w = 7'(n_adapt);
	end

	// XBAR: each output VC whose arbiter picked an input is owned by the
	// VC of that input it granted
	if (XBAR) begin : g_x_own
		always_comb begin
			integer p, k, v, c;
			x_own = '0;
			x_owner = '0;
			x_take = '0;
			v = 0;
			c = 0;
			for (k = 0; k < PORTS * VCS; k = k + 1)
				for (p = 0; p < PORTS; p = p + 1)
					// (one-hot: an OR of the one picked)
					if (o_won[k][p]) begin
						v = 32'(in_gi[p]);
						x_own[k] = 1'b1;
						for (c = 0; c < VCS; c = c + 1)
							x_owner[k*OWN + p*VCS + c] = 32'(in_gi[p]) == c;
						if (!worm(32'(req_ovc[p][v])))
							x_take[k*16 +: 16] = x_take[k*16 +: 16] |
									      16'(rt[(p*VCS+v)*32 + 25 +: 6]);
					end
		end
	end else begin : g_no_x_own
		assign x_own = '0;
		assign x_owner = '0;
		assign x_take = '0;
	end

	logic [PB-1:0] rr_next;
	logic [6:0] n_adapt_w;	// adaptive grants at this edge (at most one per input port)
	always_ff @(posedge clk)
		if (rst)
			rr <= '0;
		else
			rr <= rr_next;

	genvar gf;
	for (gf = 0; gf < (N_NET > 0 ? N_NET : 1); gf = gf + 1) begin : g_up_rr
		if (UPROUTE != 0 && N_NET > 0) begin : g_on
			// (up_rr < N_NET - gf, n_adapt_w <= PORTS: the sum fits 8 bits)
			always_ff @(posedge clk)
				if (rst)
					up_rr[gf] <= '0;
				else
					up_rr[gf] <= PB'((8'(up_rr[gf]) + 8'(n_adapt_w)) % 8'(N_NET - gf));
		end else begin : g_off
			assign up_rr[gf] = '0;
		end
	end
	if (UPROUTE == 0) begin : g_no_up
		logic unused_n_adapt;
		assign unused_n_adapt = ^n_adapt_w;
	end
endmodule
