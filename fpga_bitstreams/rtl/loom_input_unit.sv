// SPDX-License-Identifier: GPL-2.0
//
// Input unit of port PORT (router/input_unit.c): per VC a flit FIFO of
// BUF_DEPTH flits and the VC's state machine (idle -> routing -> waiting
// for an output VC -> active, or dropping), the write side's checks, the
// drop collector, and (tiled) the credits of the input's row buffers.
//
// Buffer write (BW): a flit on the input wires in cycle t is written at
// the edge ending t and visible from t + LAT_BW.  Refused and counted as
// malformed, never written: a VC beyond VCS, a flit for a full buffer, a
// body or tail flit with no open packet, a head while a packet is open.
// The flit that reaches the head's declared length is written as the tail.
// Route computation (loom_route_compute) runs on the head as it is
// written; VC allocation may use it LAT_RC cycles after it is visible.
//
// At each edge the switch allocator's take (sa_*) acts first, then the VC
// allocator's grant or drop (va_*), then the write, as router_cycle()
// orders them: a buffer the switch emptied takes a new head at once.
//
// Each head keeps RC's route extension (rc_ext, loom_route_compute: the
// UGAL fields, DimWAR's and OmniWAR's, or an up-route's) beside its route.  UGAL: VA's
// choice (va_ug_set, va_ug_val: va_ugal) rewrites the route of a Valiant
// choice (the intermediate's port, phase 0's VC), clears the extension,
// and is written into the head as it leaves (sa_head_update: the phase
// flag, or for the minimal route the intermediate cleared from dst_node).
//
// Multicast (MCAST; router-model.rst "Multicast replication"): a head whose
// stored route is RTL_ROUTE_MCAST holds its copies; as it becomes the
// front, loom_mcast_copy gives the first copy's route and the copies left
// after it (r_mcl).  While copies are left, the copy reads its flits in
// place (the FIFO's peek at r_sent) and pops none, so no credit goes
// upstream; its tail routes the next copy.  A copy whose output VA finds
// down, dead or disabled is skipped (sk_*: its drop event, with the
// header bytes the buffer holds) and the next one routed; the last copy
// pops the flits as a unicast packet does, or drains them if its output
// is unusable.
`include "loom_hw.vh"
`include "loom_fifo.vh"
`include "loom_grid.vh"

module loom_input_unit #(
	parameter integer PORTS = 1,
	parameter integer VCS = 1,
	parameter integer VC_MODEL = 0,
	parameter integer FLIT_BYTES = 16,
	parameter integer BUF_DEPTH = 24,
	parameter integer LAT_BW = 1,
	parameter integer LAT_RC = 1,
	parameter integer LAT_VA = 1,
	parameter integer ORG = 0,
	parameter integer COLS = 1,
	parameter integer ROW_DEPTH = 16,
	parameter integer LAT_ROW = 1,
	parameter integer VALIANT = 1,		// 0 with WAR and UPROUTE 0: no route
	parameter integer WAR = 1,		// extension (its UGAL pending bit only)
	parameter integer UPROUTE = 1,
	parameter integer PORT = 0,		// this input's port number
	parameter integer HOST_PORTS = 0,
	parameter integer MCAST = 1		// 0: no multicast copies
) (
	input  logic clk,
	input  logic rst,
	// the input wires (chan.h forward) and the route of a head on them
	input  logic in_valid,
	input  logic in_head,
	input  logic in_tail,
	input  logic [2:0] in_vc,
	input  logic [FW-1:0] in_data,
	input  logic [31:0] rc_route,
	input  logic rc_fwd,
	input  logic rc_pat,
	input  logic [7:0] rc_flits8,
	input  logic [15:0] rc_ext,
	input  logic [`LOOM_MAX_PORTS*32-1:0] port_cfg,	// a copy's VC (loom_mcast_copy)
	// switch allocation: the VC whose front flit leaves, and whether the
	// next packet keeps its output VC when that flit is a tail
	input  logic sa_take,
	input  logic [2:0] sa_vc,
	input  logic sa_chain,
	// VC allocation: a grant, and the VCs that start draining
	input  logic va_grant,
	input  logic [2:0] va_vc,
	input  logic [PB-1:0] va_port,
	input  logic [2:0] va_ovc,
	input  logic [VCS-1:0] va_drop,
	input  logic [VCS*3-1:0] va_reason,
	input  logic [VCS-1:0] va_ug_set,	// UGAL chose at this edge ...
	input  logic [VCS-1:0] va_ug_val,	// ... the Valiant route, on this VC
	input  logic [VCS*4-1:0] va_ug_vc,	// {vc1, vc}
	// row buffer credits coming back (subswitch (row, co) read VC v: bit co * VCS + v)
	input  logic [COLS*VCS-1:0] row_ret,
	// per VC status for the allocators
	output logic [VCS*3-1:0] st,
	output logic [VCS-1:0] va_ready,
	output logic [VCS-1:0] sa_ready,
	output logic [VCS-1:0] row_ok,
	output logic [VCS*PB-1:0] out_port,
	output logic [VCS*3-1:0] out_vc,
	output logic [VCS*32-1:0] rt,
	output logic [VCS*16-1:0] ext,		// the route extension, [0]: UGAL's choice pending
	output logic [VCS*8-1:0] sent,
	output logic [VCS-1:0] front_tail,
	// the flit taken (sa_vc) as it leaves, and the next packet of its VC
	output logic [FW-1:0] tk_data,
	output logic tk_head,
	output logic tk_tail,
	output logic tk_pat,
	output logic tk_nx_ok,
	output logic [31:0] tk_nx_route,
	output logic [1:0] tk_nx_omni,		// its extension: OmniWAR [0], counted [1]
	// upstream credits (registered: the back wires of the next cycle)
	output logic [VCS*8-1:0] in_credit,
	// a packet drained to the drop interface (registered)
	output logic drop_valid,
	output logic [2:0] drop_reason,
	output logic [7:0] drop_out_port,
	output logic [2:0] drop_vc,
	output logic [6:0] drop_bytes,
	output logic [8*`LOOM_PKT_HDR_SIZE-1:0] drop_hdr,
	// multicast copies skipped at VA, per VC (registered, as drop_*)
	output logic [VCS-1:0] sk_valid,
	output logic [VCS*3-1:0] sk_reason,
	output logic [VCS*8-1:0] sk_out_port,
	output logic [VCS*7-1:0] sk_bytes,
	output logic [VCS*8*`LOOM_PKT_HDR_SIZE-1:0] sk_hdr,
	output logic [VCS-1:0] c_skip,		// the same events at this edge (reason: va_reason)
	// counter events of this edge
	output logic c_flit_in,
	output logic c_pkt_in,
	output logic c_malformed,
	output logic c_drop,
	output logic [2:0] c_drop_reason,
	// per VC (router_vc_counters): stalled at this edge, the buffer's fill after it
	output logic [VCS-1:0] c_stall,
	output logic [VCS*16-1:0] c_fill,
	// introspection: router_in_vc_state(), router_in_vc_fill()
	output logic [VCS*3-1:0] dbg_state,
	output logic [VCS*16-1:0] dbg_fill
);
	localparam integer FW = FLIT_BYTES * 8;
	localparam integer PB = PORTS > 1 ? $clog2(PORTS) : 1;
	`LOOM_GRID_FNS
	localparam integer UW = VALIANT != 0 || WAR != 0 || UPROUTE != 0 ? 16 : 1;
	localparam integer EW = FW + 36 + UW;	// {ext, route, fwd, pat, tail, head, data}
	localparam integer CW = $clog2(BUF_DEPTH + 1);
	localparam integer LBR = LAT_BW + LAT_RC;
	localparam integer HIST = LBR > 2 ? LBR - 1 : 1;
	localparam logic CARD = VC_MODEL == 1;
	localparam integer HB = 8 * `LOOM_PKT_HDR_SIZE;
	// the flits of a header the buffer can hold, and the FIFO's peeks: one
	// for a copy's next flit (while routing, the third flit), one for each
	// header flit after the third
	localparam integer HDR_FLITS = (`LOOM_PKT_HDR_SIZE + FLIT_BYTES - 1) / FLIT_BYTES;
	localparam integer HF = HDR_FLITS < BUF_DEPTH ? HDR_FLITS : BUF_DEPTH;
	localparam integer PEEKS = HF > 3 ? HF - 2 : 1;
	localparam integer VW = VCS > 1 ? $clog2(VCS) : 1;

	// sa_vc as an index of the per-VC arrays
	logic [VW-1:0] sa_vi;
	assign sa_vi = sa_vc[VW-1:0];

	`LOOM_AGE_GE_FN(age_ge, CW, HIST)

	// ---- registers of each VC ----
	logic [2:0] state [0:VCS-1];
	logic [PB-1:0] r_port [0:VCS-1];
	logic [2:0] r_ovc [0:VCS-1];
	logic [7:0] r_sent [0:VCS-1];
	logic [31:0] r_rt [0:VCS-1];	// packed route of the front packet
	logic [15:0] r_ext [0:VCS-1];	// its extension (cleared once UGAL chose)
	logic [1:0] r_uch [0:VCS-1];	// UGAL's choice: 0 none, 2 minimal, 3 Valiant (ROUTE_UGAL_*)
	logic r_fwd [0:VCS-1];
	logic [3:0] sa_wait [0:VCS-1];
	logic rx_open [0:VCS-1];
	logic [7:0] rx_left [0:VCS-1];
	logic [6:0] d_bytes [0:VCS-1];
	logic [HB-1:0] d_hdr [0:VCS-1];
	logic [16:0] r_mcl [0:VCS-1];	// multicast: the copies left after this one
	logic [VCS-1:0] copy;		// a copy that leaves its flits in place
	always_comb begin
		integer v;
		for (v = 0; v < VCS; v = v + 1)
			copy[v] = MCAST != 0 && r_mcl[v] != '0;
	end

	// ---- FIFOs ----
	logic [VCS-1:0] f_push, f_pop;
	logic [EW-1:0] f_in;
	logic [EW-1:0] f_front [0:VCS-1];
	logic [EW-1:0] f_second [0:VCS-1];
	logic [CW-1:0] f_count [0:VCS-1];
	logic [HIST-1:0] f_hist [0:VCS-1];
	logic [EW-1:0] f_peek [0:VCS-1];
	logic [PEEKS*EW-1:0] f_peeks [0:VCS-1];
	logic [PEEKS*CW-1:0] f_peek_off [0:VCS-1];

	genvar gv;
	for (gv = 0; gv < VCS; gv = gv + 1) begin : g_vc
		loom_flit_fifo #(.DEPTH(BUF_DEPTH), .WIDTH(EW), .HIST(HIST), .PEEKS(PEEKS)) u_buf (
			.clk(clk), .rst(rst),
			.push(f_push[gv]), .push_data(f_in), .pop(f_pop[gv]),
			.front(f_front[gv]), .second(f_second[gv]),
			.peek_off(f_peek_off[gv]), .peek(f_peeks[gv]),
			.count(f_count[gv]), .hist(f_hist[gv]));
		// a copy's next flit; while routing, the third flit (a skipped
		// copy's header), and the header's later flits beside it
		assign f_peek_off[gv][CW-1:0] = 32'(state[gv]) == `IVC_ROUTING ? CW'(2) : CW'(r_sent[gv]);
		genvar gk;
		for (gk = 1; gk < PEEKS; gk = gk + 1) begin : g_hdr_peek
			assign f_peek_off[gv][gk*CW +: CW] = CW'(2 + gk);
		end
		assign f_peek[gv] = f_peeks[gv][EW-1:0];
	end

	// ---- row buffer credits (tiled): one counter per column and VC ----
	logic [COLS*VCS-1:0] row_has, row_take;
	if (ORG == `ROUTER_ORG_TILED) begin : g_rowcred
		genvar gk;
		for (gk = 0; gk < COLS * VCS; gk = gk + 1) begin : g_rc
			loom_credit_counter #(.DEPTH(ROW_DEPTH), .RET_LAT(LAT_ROW)) u_cred (
				.clk(clk), .rst(rst), .take(row_take[gk]), .ret(row_ret[gk]),
				.has(row_has[gk]));
		end
	end else begin : g_norowcred
		assign row_has = '0;
		logic unused_ret;
		assign unused_ret = ^{row_ret, row_take};
	end


	// ---- status ----
	always_comb begin
		integer v;
		for (v = 0; v < VCS; v = v + 1) begin
			st[v*3 +: 3] = state[v];
			va_ready[v] = 32'(state[v]) == `IVC_ROUTING && age_ge(f_count[v], f_hist[v], LBR, 0);
			sa_ready[v] = (32'(state[v]) == `IVC_ACTIVE || 32'(state[v]) == `IVC_DROPPING) &&
				      sa_wait[v] == '0 &&
				      age_ge(f_count[v], f_hist[v], LAT_BW, copy[v] ? 32'(r_sent[v]) : 0);
			row_ok[v] = row_has[grid_col(r_port[v]) * VCS + v];
			out_port[v*PB +: PB] = r_port[v];
			out_vc[v*3 +: 3] = r_ovc[v];
			rt[v*32 +: 32] = r_rt[v];
			ext[v*16 +: 16] = UW > 1 ? r_ext[v] : '0;
			sent[v*8 +: 8] = r_sent[v];
			front_tail[v] = copy[v] ? f_peek[v][FW + 1] : f_front[v][FW + 1];
			dbg_state[v*3 +: 3] = va_ready[v] ? 3'(`IVC_VC_WAIT) : state[v];
			dbg_fill[v*16 +: 16] = 16'(f_count[v]);
		end
	end

	// ---- the flit the switch takes ----
	logic [EW-1:0] tk_e;
	logic [2:0] tk_st;
	logic [31:0] tk_rt;
	logic [7:0] hops, flags;
	assign tk_e = copy[sa_vi] ? f_peek[sa_vi] : f_front[sa_vi];
	assign tk_st = state[sa_vi];
	assign tk_rt = r_rt[sa_vi];
	logic unused_rt;
	assign unused_rt = ^tk_rt[30:11];
	assign tk_head = tk_e[FW];
	assign tk_tail = tk_e[FW + 1];
	assign tk_pat = tk_e[FW + 2];
	// (a UGAL packet never chains: it chooses at VA; nor does a multicast
	// copy, nor a packet after a copy that is not the last)
	assign tk_nx_ok = !copy[sa_vi] && 32'(f_count[sa_vi]) >= 2 &&
			  age_ge(f_count[sa_vi], f_hist[sa_vi], LBR - 1, 1) &&
			  !f_second[sa_vi][FW + 36];
	assign tk_nx_route = f_second[sa_vi][FW + 35 -: 32];
	assign tk_nx_omni = UW > 1 ? 2'(16'(f_second[sa_vi][EW-1 -: UW]) >> 6) : 2'b00;
	assign hops = tk_e[8*`LOOM_PKT_OFF_HOPS +: 8];
	assign flags = tk_e[8*`LOOM_PKT_OFF_FLAGS +: 8];
	always_comb begin
		logic [7:0] nf;
		tk_data = tk_e[FW-1:0];
		// the cast in parentheses: Yosys 0.23 reads a unary operator
		// right before a size cast as part of the size (~8'(x) as (~8)'(x))
		nf = flags & ~(8'(`LOOM_PKT_F_VC1 | `LOOM_PKT_F_ADAPTIVE));
		if (tk_rt[31])
			nf = nf | 8'(`LOOM_PKT_F_VC1);
		if (CARD && (32'(r_ovc[sa_vi]) == `LOOM_VC_REQ_ADAPT ||
			     32'(r_ovc[sa_vi]) == `LOOM_VC_RESP_ADAPT))
			nf = nf | 8'(`LOOM_PKT_F_ADAPTIVE);
		// UGAL's choice: the phase flag, or the intermediate cleared
		if (r_uch[sa_vi] == 2'd3)
			nf = nf | 8'(`LOOM_PKT_F_VAL_PHASE);
		if (32'(tk_st) == `IVC_ACTIVE && tk_head && r_fwd[sa_vi]) begin
			tk_data[8*`LOOM_PKT_OFF_HOPS +: 8] = hops + 8'd1;
			tk_data[8*`LOOM_PKT_OFF_FLAGS +: 8] = nf;
			if (r_uch[sa_vi] == 2'd2)
				tk_data[8*`LOOM_PKT_OFF_DST_NODE + 8 +: 8] = 8'd0;
		end
	end

	// ---- the write side ----
	logic wr_ok, wr_refuse, wr_credit, wr_tail, wr_full;
	logic [2:0] wv;
	assign wv = in_vc;
	// the written VC as an index of the per-VC arrays (used once wv < VCS)
	logic [VW-1:0] wvi;
	assign wvi = wv[VW-1:0];
	always_comb begin
		logic [CW-1:0] cnt_after_sa;
		wr_ok = 1'b0;
		wr_refuse = 1'b0;
		wr_credit = 1'b0;
		wr_tail = 1'b0;
		wr_full = 1'b0;
		cnt_after_sa = '0;
		if (in_valid) begin
			if (32'(wv) >= VCS) begin
				wr_refuse = 1'b1;
			end else begin
				cnt_after_sa = f_count[wvi] - CW'(sa_take && sa_vc == wv && !copy[wvi]);
				wr_full = 32'(cnt_after_sa) == BUF_DEPTH;
				if (wr_full) begin
					wr_refuse = 1'b1;
				end else if (in_head ? rx_open[wvi] : !rx_open[wvi]) begin
					wr_refuse = 1'b1;
					wr_credit = 1'b1;
				end else begin
					wr_ok = 1'b1;
					wr_tail = in_tail || (in_head ? (rc_flits8 <= 8'd1) : (rx_left[wvi] <= 8'd1));
				end
			end
		end
	end
	assign f_in = {in_head ? UW'(rc_ext) : UW'(0), in_head ? rc_route : 32'd0, in_head && rc_fwd,
		       in_head && rc_pat, wr_tail, in_head, in_data};

	always_comb begin
		integer v;
		for (v = 0; v < VCS; v = v + 1) begin
			f_push[v] = wr_ok && 32'(wv) == v;
			f_pop[v] = sa_take && 32'(sa_vc) == v && !copy[v];
		end
	end

	always_comb begin
		integer k;
		for (k = 0; k < COLS * VCS; k = k + 1)
			row_take[k] = ORG == `ROUTER_ORG_TILED && sa_take &&
				      32'(tk_st) == `IVC_ACTIVE &&
				      k == grid_col(r_port[sa_vi]) * VCS + 32'(sa_vc);
	end

	assign c_flit_in = wr_ok;
	assign c_pkt_in = wr_ok && in_head;
	assign c_malformed = wr_refuse;
	assign c_drop = sa_take && 32'(tk_st) == `IVC_DROPPING && tk_tail;
	assign c_drop_reason = tk_rt[2:0];

	// A VC stalls at this edge (input_count_stalls) when none of its flits
	// leaves and it stays where it waits: routed past its stages (VA had
	// its chance, granted nothing, dropped nothing), or active with a flit
	// ready for the switch.
	always_comb begin
		integer v;
		logic [CW-1:0] fill_after;
		for (v = 0; v < VCS; v = v + 1) begin
			c_stall[v] = !(sa_take && 32'(sa_vc) == v) && !(va_grant && 32'(va_vc) == v) &&
				     !va_drop[v] &&
				     (va_ready[v] || (32'(state[v]) == `IVC_ACTIVE && sa_ready[v]));
			fill_after = f_count[v] - CW'(f_pop[v]) + CW'(f_push[v]);
			c_fill[v*16 +: 16] = 16'(fill_after);
		end
	end

	`include "loom_hdr_collect.vh"

	// ---- the edge: shared outputs ----
	logic [HB+6:0] tk_col;
	assign tk_col = collect(d_bytes[sa_vi], d_hdr[sa_vi], tk_e[FW-1:0]);

	always_ff @(posedge clk) begin
		if (rst) begin
			drop_valid <= 1'b0;
			drop_reason <= '0;
			drop_out_port <= '0;
			drop_vc <= '0;
			drop_bytes <= '0;
			drop_hdr <= '0;
		end else begin
			drop_valid <= c_drop;
			if (c_drop) begin
				drop_reason <= tk_rt[2:0];
				drop_out_port <= 32'(tk_rt[2:0]) <= `ROUTE_DROP_MALFORMED ? 8'hff : tk_rt[10:3];
				drop_vc <= sa_vc;
				drop_bytes <= tk_col[HB +: 7];
				drop_hdr <= mask_hdr(tk_col[HB-1:0], tk_col[HB +: 7]);
			end
		end
	end

	// ---- multicast: the route of a packet's next copy ----
	// per VC: of the copies left (after a copy's tail, or a skip) or of the
	// packet behind the front (it becomes the front); wc_*: of the head
	// written into an idle VC
	logic [VCS-1:0] mc_fwd, sec_mc;
	logic [16:0] mc_left [0:VCS-1];
	logic [31:0] mc_route [0:VCS-1];
	logic rc_mc, wc_fwd;
	logic [16:0] wc_left;
	logic [31:0] wc_route;
	if (MCAST != 0) begin : g_mc
		for (gv = 0; gv < VCS; gv = gv + 1) begin : g_mcv
			// the stored route behind the front: its drop field, copies, flits
			logic [2:0] sdrop;
			logic [16:0] scopies;
			logic [5:0] sflits;
			assign sdrop = f_second[gv][FW + 4 +: 3];
			assign scopies = f_second[gv][FW + 7 +: 17];
			assign sflits = f_second[gv][FW + 29 +: 6];
			assign sec_mc[gv] = sdrop == 3'(`RTL_ROUTE_MCAST);
			loom_mcast_copy #(.PORT(PORT), .PORTS(PORTS), .HOST_PORTS(HOST_PORTS), .VCS(VCS),
					  .VC_MODEL(VC_MODEL))
			u_copy (.copies(copy[gv] ? r_mcl[gv] : scopies),
				.hdr(copy[gv] ? f_front[gv][63:0] : f_second[gv][63:0]),
				.flits(copy[gv] ? r_rt[gv][30:25] : sflits), .port_cfg(port_cfg),
				.left(mc_left[gv]), .fwd(mc_fwd[gv]), .route(mc_route[gv]));
		end
		assign rc_mc = rc_route[2:0] == 3'(`RTL_ROUTE_MCAST);
		loom_mcast_copy #(.PORT(PORT), .PORTS(PORTS), .HOST_PORTS(HOST_PORTS), .VCS(VCS),
				  .VC_MODEL(VC_MODEL))
		u_wcopy (.copies(rc_route[19:3]), .hdr(in_data[63:0]), .flits(rc_route[30:25]),
			 .port_cfg(port_cfg), .left(wc_left), .fwd(wc_fwd), .route(wc_route));
	end else begin : g_nomc
		for (gv = 0; gv < VCS; gv = gv + 1) begin : g_mcv
			assign mc_left[gv] = '0;
			assign mc_route[gv] = '0;
		end
		assign mc_fwd = '0;
		assign sec_mc = '0;
		assign rc_mc = 1'b0;
		assign wc_fwd = 1'b0;
		assign wc_left = '0;
		assign wc_route = '0;
		logic unused_cfg;
		assign unused_cfg = ^port_cfg;
	end

	// a copy skipped at this edge: its drop event, with the header bytes
	// the buffer holds (input_mc_skip)
	always_comb begin
		integer v;
		for (v = 0; v < VCS; v = v + 1)
			c_skip[v] = va_drop[v] && copy[v];
	end
	logic [HB+6:0] sk_col [0:VCS-1];
	always_comb begin
		integer v, k;
		k = 0;
		for (v = 0; v < VCS; v = v + 1) begin
			sk_col[v] = collect(7'd0, '0, f_front[v][FW-1:0]);
			if (32'(f_count[v]) >= 2)
				sk_col[v] = collect(sk_col[v][HB +: 7], sk_col[v][HB-1:0],
						    f_second[v][FW-1:0]);
			for (k = 2; k < HF; k = k + 1)
				if (32'(f_count[v]) > k)
					sk_col[v] = collect(sk_col[v][HB +: 7], sk_col[v][HB-1:0],
							    f_peeks[v][(k-2)*EW +: FW]);
		end
	end
	always_ff @(posedge clk) begin
		integer v;
		if (rst || MCAST == 0) begin
			sk_valid <= '0;
			sk_reason <= '0;
			sk_out_port <= '0;
			sk_bytes <= '0;
			sk_hdr <= '0;
		end else begin
			sk_valid <= c_skip;
			for (v = 0; v < VCS; v = v + 1)
				if (c_skip[v]) begin
					sk_reason[v*3 +: 3] <= va_reason[v*3 +: 3];
					sk_out_port[v*8 +: 8] <= r_rt[v][10:3];
					sk_bytes[v*7 +: 7] <= sk_col[v][HB +: 7];
					sk_hdr[v*HB +: HB] <= mask_hdr(sk_col[v][HB-1:0], sk_col[v][HB +: 7]);
				end
		end
	end

	// ---- the edge: each VC ----
	logic [7:0] r_cred [0:VCS-1];
	always_comb begin
		integer v;
		for (v = 0; v < VCS; v = v + 1)
			in_credit[v*8 +: 8] = r_cred[v];
	end

	for (gv = 0; gv < VCS; gv = gv + 1) begin : g_edge
		logic take, tail, dropping, active, idle_after, wr;
		assign take = sa_take && 32'(sa_vc) == gv;
		assign tail = front_tail[gv];
		assign dropping = 32'(state[gv]) == `IVC_DROPPING;
		assign active = 32'(state[gv]) == `IVC_ACTIVE;
		// IDLE after the switch took the last flit, or IDLE already
		assign idle_after = 32'(state[gv]) == `IVC_IDLE ||
				    (take && tail && !copy[gv] && !(active && sa_chain) &&
				     32'(f_count[gv]) == 1);
		assign wr = wr_ok && 32'(wv) == gv;
		// the credits returned: 0, 1 or 2, summed in 2 bits
		logic [1:0] cred_n;
		assign cred_n = 2'(take && !copy[gv]) + 2'(wr_credit && 32'(wv) == gv);

		always_ff @(posedge clk) begin
			if (rst) begin
				state[gv] <= 3'(`IVC_IDLE);
				r_port[gv] <= '0;
				r_ovc[gv] <= '0;
				r_sent[gv] <= '0;
				r_rt[gv] <= '0;
				r_ext[gv] <= '0;
				r_uch[gv] <= '0;
				r_fwd[gv] <= 1'b0;
				sa_wait[gv] <= '0;
				rx_open[gv] <= 1'b0;
				rx_left[gv] <= '0;
				d_bytes[gv] <= '0;
				d_hdr[gv] <= '0;
				r_cred[gv] <= '0;
				r_mcl[gv] <= '0;
			end else begin
				// the VA stage's wait; at LAT_VA 1 it is only ever set
				// to 0, which the guard lets synthesis see (no counter)
				if (LAT_VA > 1 && sa_wait[gv] != '0)
					sa_wait[gv] <= sa_wait[gv] - 1'b1;
				// switch allocation took the front flit
				if (take) begin
					if (dropping) begin
						d_bytes[gv] <= tk_col[HB +: 7];
						d_hdr[gv] <= tk_col[HB-1:0];
					end else begin
						r_sent[gv] <= r_sent[gv] + 8'd1;
					end
					if (tail) begin
						if (copy[gv]) begin
							// the next copy (input_mc_next)
							state[gv] <= 3'(`IVC_ROUTING);
							r_rt[gv] <= mc_route[gv];
							r_mcl[gv] <= mc_left[gv];
							r_ext[gv] <= '0;
							r_uch[gv] <= '0;
							r_fwd[gv] <= mc_fwd[gv];
							r_sent[gv] <= '0;
							d_bytes[gv] <= '0;
						end else if (active && sa_chain) begin
							// the next packet keeps the output VC
							r_rt[gv] <= f_second[gv][FW + 35 -: 32];
							r_ext[gv] <= 16'(f_second[gv][EW-1 -: UW]);
							r_uch[gv] <= '0;
							r_fwd[gv] <= f_second[gv][FW + 3];
							r_sent[gv] <= '0;
							d_bytes[gv] <= '0;
							sa_wait[gv] <= '0;
						end else if (32'(f_count[gv]) == 1) begin
							state[gv] <= 3'(`IVC_IDLE);
						end else begin
							state[gv] <= 3'(`IVC_ROUTING);
							r_rt[gv] <= f_second[gv][FW + 35 -: 32];
							r_ext[gv] <= 16'(f_second[gv][EW-1 -: UW]);
							r_uch[gv] <= '0;
							r_fwd[gv] <= f_second[gv][FW + 3];
							r_sent[gv] <= '0;
							d_bytes[gv] <= '0;
							// a multicast packet: its first copy
							if (sec_mc[gv]) begin
								r_rt[gv] <= mc_route[gv];
								r_mcl[gv] <= mc_left[gv];
								r_ext[gv] <= '0;
								r_fwd[gv] <= mc_fwd[gv];
							end
						end
					end
				end
				// VC allocation
				if (va_grant && 32'(va_vc) == gv) begin
					state[gv] <= 3'(`IVC_ACTIVE);
					r_port[gv] <= va_port;
					r_ovc[gv] <= va_ovc;
					sa_wait[gv] <= 4'(LAT_VA - 1);
				end
				// UGAL's choice: the Valiant route takes the intermediate's port
				// and phase 0's VC
				if (va_ug_set[gv]) begin
					r_ext[gv] <= '0;
					r_uch[gv] <= {1'b1, va_ug_val[gv]};
					if (va_ug_val[gv]) begin
						r_rt[gv][10:3] <= 8'(r_ext[gv][15:10]);
						r_rt[gv][13:11] <= va_ug_vc[gv*4 +: 3];
						r_rt[gv][31] <= va_ug_vc[gv*4 + 3];
					end
				end
				if (va_drop[gv] && copy[gv]) begin
					// a copy skipped: the next one (input_mc_skip)
					r_rt[gv] <= mc_route[gv];
					r_mcl[gv] <= mc_left[gv];
					r_fwd[gv] <= mc_fwd[gv];
				end else if (va_drop[gv]) begin
					state[gv] <= 3'(`IVC_DROPPING);
					r_rt[gv][2:0] <= va_reason[gv*3 +: 3];
					sa_wait[gv] <= '0;
				end
				// buffer write
				if (wr) begin
					if (in_head)
						rx_open[gv] <= 1'b1;
					if (wr_tail)
						rx_open[gv] <= 1'b0;
					else if (!in_head)
						rx_left[gv] <= rx_left[gv] - 8'd1;
					else
						rx_left[gv] <= (rc_flits8 != 8'd0 ? rc_flits8 : 8'd1) - 8'd1;
					if (in_head && wr_tail)
						rx_left[gv] <= rc_flits8 != 8'd0 ? rc_flits8 : 8'd1;
					if (idle_after) begin
						state[gv] <= 3'(`IVC_ROUTING);
						r_rt[gv] <= rc_route;
						r_ext[gv] <= rc_ext;
						r_uch[gv] <= '0;
						r_fwd[gv] <= rc_fwd;
						r_sent[gv] <= '0;
						d_bytes[gv] <= '0;
						r_mcl[gv] <= '0;
						// a multicast packet: its first copy
						if (rc_mc) begin
							r_rt[gv] <= wc_route;
							r_mcl[gv] <= wc_left;
							r_ext[gv] <= '0;
							r_fwd[gv] <= wc_fwd;
						end
					end
				end
				r_cred[gv] <= 8'(cred_n);
			end
		end
	end
endmodule
