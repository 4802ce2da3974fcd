// SPDX-License-Identifier: GPL-2.0
//
// Tile (ROW, COL) of the TILED organisation (router/tile.c, BlackWidow's
// YARC): the subswitch where row ROW meets column COL, its row buffers and
// column-buffer credits, and, when port ROW * COLS + COL exists, the
// column buffers and the output mux of that port.
//
//  - Row buffers: one per input of the row (COLS) and input VC, ROW_DEPTH
//    flits, filled from the row bus (visible LAT_SA + LAT_ROW cycles after
//    the switch allocation); their credits go back to the inputs.
//  - Subswitch: one output per row ro of the column, each with its arbiter
//    (ARB_SA_OUT) over the row buffers whose front flit goes to row ro and
//    whose column buffer has a credit (and, for a body flit, whose packet
//    owns that column buffer VC); the winner crosses the column channel to
//    tile (ro, COL).
//  - Column buffers: one per row and output VC, COL_DEPTH flits (visible
//    LAT_SUB + LAT_COL cycles after the subswitch).
//  - Output mux: the output's arbiter (ARB_OUT) over the column buffers
//    whose front may leave: a head needs its output VC free (and, virtual
//    cut-through, credits for the whole packet), a body flit its packet to
//    own the VC (and, wormhole, a credit); the winner enters the output
//    stage, or is discarded if the output cannot carry packets.
`include "loom_hw.vh"
`include "loom_fifo.vh"
`include "loom_grid.vh"

module loom_tile #(
	parameter integer ROW = 0,
	parameter integer COL = 0,
	parameter integer PORTS = 1,
	parameter integer VCS = 1,
	parameter integer FLIT_BYTES = 16,
	parameter integer ROWS = 1,
	parameter integer COLS = 1,
	parameter integer ROW_DEPTH = 16,
	parameter integer COL_DEPTH = 10,
	parameter integer LAT_SA = 1,
	parameter integer LAT_ROW = 1,
	parameter integer LAT_SUB = 1,
	parameter integer LAT_COL = 1,
	parameter integer WORMHOLE_VCS = 0,
	parameter integer ARB_SA_OUT = 0,
	parameter integer ARB_OUT = 0,
	parameter integer IWA_BITS = 5
) (
	input  logic clk,
	input  logic rst,
	// row bus: input (ROW, ci) sends into this tile's row buffer (ci, in_vc)
	input  logic [COLS-1:0] rb_valid,
	input  logic [COLS*EW-1:0] rb_entry,
	// row buffer credits back to input (ROW, ci), VC v: bit ci * VCS + v
	output logic [COLS*VCS-1:0] row_ret,
	// column channel to tile (ro, COL): a flit for column buffer (ROW, its vc)
	output logic [ROWS-1:0] cc_valid,
	output logic [ROWS*EW-1:0] cc_entry,
	// column buffer credits from tile (ro, COL), its buffer (ROW, vc): bit ro * VCS + vc
	input  logic [ROWS*VCS-1:0] col_ret_in,
	// column channels into this tile's column buffers, from subswitch (ri, COL)
	input  logic [ROWS-1:0] cb_valid,
	input  logic [ROWS*EW-1:0] cb_entry,
	// column buffer credits back to subswitch (ri, COL), VC vc: bit ri * VCS + vc
	output logic [ROWS*VCS-1:0] col_ret_out,
	// the output VCs of this tile's port, as the output unit holds them
	input  logic usable,
	input  logic pipe_full,
	input  logic [VCS-1:0] ov_owned,
	input  logic [VCS*OW-1:0] ov_owner,
	input  logic [VCS*16-1:0] ov_avail,
	input  logic [VCS*8-1:0] ov_sent,
	// output mux decision and its effect on the output VC it serves
	output logic m_valid,
	output logic m_discard,
	output logic [EW-1:0] m_entry,
	output logic [OW-1:0] m_src,		// the column buffer: row * VCS + vc
	output logic [15:0] m_take,
	output logic [15:0] m_give,
	output logic [VCS-1:0] m_waiting,
	output logic [7:0] c_conflicts,
	// IWA weight registers: subswitch output ro (sub_en), output mux (mux_en)
	input  logic wr_sub_en,
	input  logic [3:0] wr_sub_ro,
	input  logic wr_mux_en,
	input  logic [6:0] wr_req,
	input  logic wr_pat,
	input  logic [7:0] wr_weight
);
	localparam integer FW = FLIT_BYTES * 8;
	localparam integer PB = PORTS > 1 ? $clog2(PORTS) : 1;
	`LOOM_GRID_FNS
	localparam integer OW = $clog2(PORTS * VCS + 1) > 6 ? $clog2(PORTS * VCS + 1) : 6;
	// entry: {flits[5:0], in_vc[2:0], port[PB], vc[2:0], pat, tail, head, data}
	localparam integer EW = FW + 15 + PB;
	localparam integer E_HEAD = FW;
	localparam integer E_TAIL = FW + 1;
	localparam integer E_PAT = FW + 2;
	localparam integer E_VC = FW + 3;
	localparam integer E_PORT = FW + 6;
	localparam integer E_INVC = FW + 6 + PB;
	localparam integer E_FLITS = FW + 9 + PB;
	localparam logic HAS_PORT = ROW * COLS + COL < PORTS;
	localparam integer NRB = COLS * VCS;
	localparam integer NCB = ROWS * VCS;
	localparam integer RB_CW = $clog2(ROW_DEPTH + 1);
	localparam integer CB_CW = $clog2(COL_DEPTH + 1);
	localparam integer RB_HIST = LAT_SA + LAT_ROW > 2 ? LAT_SA + LAT_ROW - 1 : 1;
	localparam integer CB_HIST = LAT_SUB + LAT_COL > 2 ? LAT_SUB + LAT_COL - 1 : 1;
	localparam integer SB = NRB > 1 ? $clog2(NRB) : 1;
	localparam integer MB = NCB > 1 ? $clog2(NCB) : 1;

	`LOOM_AGE_GE_FN(rb_age_ge, RB_CW, RB_HIST)
	`LOOM_AGE_GE_FN(cb_age_ge, CB_CW, CB_HIST)

	function automatic logic worm(input integer v);
		worm = ((WORMHOLE_VCS >> v) & 1) != 0;
	endfunction

	// ---- row buffers ----
	logic [NRB-1:0] rb_push, rb_pop;
	logic [EW-1:0] rb_front [0:NRB-1];
	logic [RB_CW-1:0] rb_count [0:NRB-1];
	logic [RB_HIST-1:0] rb_hist [0:NRB-1];

	genvar gb;
	for (gb = 0; gb < NRB; gb = gb + 1) begin : g_rb
		logic [EW-1:0] unused_second, unused_peek;
		loom_flit_fifo #(.DEPTH(ROW_DEPTH), .WIDTH(EW), .HIST(RB_HIST)) u_buf (
			.clk(clk), .rst(rst), .push(rb_push[gb]),
			.push_data(rb_entry[(gb / VCS)*EW +: EW]), .pop(rb_pop[gb]),
			.front(rb_front[gb]), .second(unused_second), .peek_off('0),
			.peek(unused_peek), .count(rb_count[gb]), .hist(rb_hist[gb]));
	end

	always_comb begin
		integer ci, v;
		for (ci = 0; ci < COLS; ci = ci + 1)
			for (v = 0; v < VCS; v = v + 1)
				rb_push[ci*VCS+v] = rb_valid[ci] &&
					32'(rb_entry[ci*EW + E_INVC +: 3]) == v;
	end

	// ---- column buffer credits and owners (this subswitch's) ----
	logic [NCB-1:0] cc_has, cc_take;
	logic [NCB-1:0] own_valid;
	logic [SB-1:0] own [0:NCB-1];

	genvar gc;
	for (gc = 0; gc < NCB; gc = gc + 1) begin : g_cc
		loom_credit_counter #(.DEPTH(COL_DEPTH), .RET_LAT(LAT_COL)) u_cred (
			.clk(clk), .rst(rst), .take(cc_take[gc]), .ret(col_ret_in[gc]),
			.has(cc_has[gc]));
	end

	// ---- subswitch ----
	logic [NRB-1:0] sreq [0:ROWS-1];
	logic [NRB-1:0] spat;
	logic [ROWS-1:0] s_gv;
	logic [SB-1:0] s_gi [0:ROWS-1];
	logic [ROWS-1:0] s_hold;
	logic [ROWS-1:0] s_pat;

	always_comb begin
		integer b, ro;
		/* verilator lint_off UNUSEDSIGNAL */
		integer k;
		/* verilator lint_on UNUSEDSIGNAL */
		logic [EW-1:0] m;
		for (ro = 0; ro < ROWS; ro = ro + 1)
			sreq[ro] = '0;
		spat = '0;
		for (b = 0; b < NRB; b = b + 1) begin
			m = rb_front[b];
			ro = grid_row(m[E_PORT +: PB]);
			k = ro * VCS + 32'(m[E_VC +: 3]);
			if (rb_age_ge(rb_count[b], rb_hist[b], LAT_SA + LAT_ROW, 0) && ro < ROWS &&
			    cc_has[k] && (m[E_HEAD] ? !own_valid[k] : (own_valid[k] && 32'(own[k]) == b))) begin
				sreq[ro][b] = 1'b1;
				spat[b] = m[E_PAT];
			end
		end
	end

	genvar gr;
	for (gr = 0; gr < ROWS; gr = gr + 1) begin : g_sub
		loom_arbiter #(.KIND(ARB_SA_OUT), .N(NRB), .M_BITS(IWA_BITS)) u_arb (
			.clk(clk), .rst(rst), .req(sreq[gr]),
			.gnt_valid(s_gv[gr]), .gnt_idx(s_gi[gr]),
			.upd(s_gv[gr]), .upd_idx(s_gi[gr]), .upd_pat(s_pat[gr]),
			.upd_hold(s_hold[gr]),
			.wr_en(wr_sub_en && 32'(wr_sub_ro) == gr), .wr_idx(wr_req), .wr_pat(wr_pat),
			.wr_weight(wr_weight));
	end

	logic [NCB-1:0] own_set, own_clr;
	logic [SB-1:0] own_new [0:NCB-1];

	always_comb begin
		integer ro, b, k, n;
		logic [EW-1:0] m;
		m = '0;
		cc_valid = '0;
		cc_entry = '0;
		rb_pop = '0;
		row_ret = '0;
		cc_take = '0;
		own_set = '0;
		own_clr = '0;
		s_hold = '0;
		s_pat = '0;
		c_sub = '0;
		for (k = 0; k < NCB; k = k + 1)
			own_new[k] = '0;
		for (ro = 0; ro < ROWS; ro = ro + 1) begin
			n = 0;
			for (b = 0; b < NRB; b = b + 1)
				n = n + 32'(sreq[ro][b]);
			c_sub = c_sub + 8'(n >= 2);
			if (s_gv[ro]) begin
				b = 32'(s_gi[ro]);
				m = rb_front[b];
				k = ro * VCS + 32'(m[E_VC +: 3]);
				cc_valid[ro] = 1'b1;
				cc_entry[ro*EW +: EW] = m;
				rb_pop[b] = 1'b1;
				row_ret[(b / VCS) * VCS + 32'(m[E_INVC +: 3])] = 1'b1;
				cc_take[k] = 1'b1;
				if (m[E_TAIL]) begin
					own_clr[k] = 1'b1;
				end else begin
					own_set[k] = 1'b1;
					own_new[k] = SB'(b);
				end
				s_hold[ro] = !m[E_TAIL];
				s_pat[ro] = spat[b];
			end
		end
	end

	always_ff @(posedge clk) begin
		integer k;
		if (rst) begin
			own_valid <= '0;
			for (k = 0; k < NCB; k = k + 1)
				own[k] <= '0;
		end else begin
			for (k = 0; k < NCB; k = k + 1)
				if (own_set[k]) begin
					own_valid[k] <= 1'b1;
					own[k] <= own_new[k];
				end else if (own_clr[k]) begin
					own_valid[k] <= 1'b0;
				end
		end
	end

	// ---- column buffers and output mux (the tile's port) ----
	if (HAS_PORT) begin : g_port
		logic [NCB-1:0] cb_push, cb_pop;
		logic [EW-1:0] cb_front [0:NCB-1];
		logic [CB_CW-1:0] cb_count [0:NCB-1];
		logic [CB_HIST-1:0] cb_hist [0:NCB-1];

		genvar gq;
		for (gq = 0; gq < NCB; gq = gq + 1) begin : g_cb
			logic [EW-1:0] unused_second, unused_peek;
			loom_flit_fifo #(.DEPTH(COL_DEPTH), .WIDTH(EW), .HIST(CB_HIST)) u_buf (
				.clk(clk), .rst(rst), .push(cb_push[gq]),
				.push_data(cb_entry[(gq / VCS)*EW +: EW]), .pop(cb_pop[gq]),
				.front(cb_front[gq]), .second(unused_second), .peek_off('0),
				.peek(unused_peek), .count(cb_count[gq]), .hist(cb_hist[gq]));
		end

		always_comb begin
			integer ri, v;
			for (ri = 0; ri < ROWS; ri = ri + 1)
				for (v = 0; v < VCS; v = v + 1)
					cb_push[ri*VCS+v] = cb_valid[ri] &&
						32'(cb_entry[ri*EW + E_VC +: 3]) == v;
		end

		logic [NCB-1:0] mreq, mpat;
		logic m_gv;
		logic [MB-1:0] m_gi;
		logic m_hold;

		always_comb begin
			integer b, v, fl;
			logic [EW-1:0] m;
			logic can;
			mreq = '0;
			mpat = '0;
			m_waiting = '0;
			for (b = 0; b < NCB; b = b + 1) begin
				m = cb_front[b];
				v = 32'(m[E_VC +: 3]);
				fl = 32'(m[E_FLITS +: 6]);
				can = 1'b1;
				if (!cb_age_ge(cb_count[b], cb_hist[b], LAT_SUB + LAT_COL, 0)) begin
					can = 1'b0;
				end else if (!usable) begin
					can = 1'b1;	// discarded
				end else if (pipe_full) begin
					can = 1'b0;
				end else if (m[E_HEAD] && ov_owned[v]) begin
					can = 1'b0;
				end else if (m[E_HEAD] && !worm(v) &&
					     32'(ov_avail[v*16 +: 16]) < (fl != 0 ? fl : 1)) begin
					m_waiting[v] = 1'b1;
					can = 1'b0;
				end else if (m[E_HEAD] && !worm(v)) begin
					can = 1'b1;
				end else if (!m[E_HEAD] && !(ov_owned[v] && 32'(ov_owner[v*OW +: OW]) == b)) begin
					can = 1'b0;
				end else if (worm(v) && ov_avail[v*16 +: 16] == '0) begin
					m_waiting[v] = 1'b1;
					can = 1'b0;
				end
				mreq[b] = can;
				mpat[b] = m[E_PAT];
			end
		end

		loom_arbiter #(.KIND(ARB_OUT), .N(NCB), .M_BITS(IWA_BITS)) u_mux (
			.clk(clk), .rst(rst), .req(mreq), .gnt_valid(m_gv), .gnt_idx(m_gi),
			.upd(m_gv), .upd_idx(m_gi), .upd_pat(mpat[m_gi]), .upd_hold(m_hold),
			.wr_en(wr_mux_en), .wr_idx(wr_req), .wr_pat(wr_pat), .wr_weight(wr_weight));

		always_comb begin
			integer b, v, fl, n, sent_after;
			logic [EW-1:0] m;
			m_valid = m_gv;
			m_discard = m_gv && !usable;
			m_src = OW'(m_gi);
			m_take = '0;
			m_give = '0;
			m_hold = 1'b0;
			cb_pop = '0;
			col_ret_out = '0;
			b = 32'(m_gi);
			m = cb_front[b];
			m_entry = m;
			v = 32'(m[E_VC +: 3]);
			fl = 32'(m[E_FLITS +: 6]);
			n = 0;
			for (int i = 0; i < NCB; i = i + 1)
				n = n + 32'(mreq[i]);
			sent_after = (m[E_HEAD] ? 0 : 32'(ov_sent[v*8 +: 8])) + 1;
			if (m_gv) begin
				c_conflicts_mux = 8'(n >= 2);
				cb_pop[b] = 1'b1;
				col_ret_out[(b / VCS) * VCS + v] = 1'b1;
				m_hold = !m[E_TAIL];
				if (usable) begin
					if (m[E_HEAD] && !worm(v))
						m_take = 16'(fl);
					if (worm(v))
						m_take = m_take + 16'd1;
					if (m[E_TAIL] && !worm(v) && sent_after < fl)
						m_give = 16'(fl - sent_after);
				end
			end else begin
				c_conflicts_mux = '0;
			end
		end
	end else begin : g_noport
		assign m_valid = 1'b0;
		assign m_discard = 1'b0;
		assign m_entry = '0;
		assign m_src = '0;
		assign m_take = '0;
		assign m_give = '0;
		assign m_waiting = '0;
		assign col_ret_out = '0;
		assign c_conflicts_mux = '0;
		logic unused_port;
		assign unused_port = ^{cb_valid, cb_entry, usable, pipe_full, ov_owned, ov_owner,
				       ov_avail, ov_sent, wr_mux_en};
	end

	logic [7:0] c_conflicts_mux, c_sub;
	assign c_conflicts = c_sub + c_conflicts_mux;
endmodule
