// SPDX-License-Identifier: GPL-2.0
//
// Output unit of port PORT (router/output_unit.c): the output stage to
// the wire, and per output VC its credit counter (the downstream buffer),
// its owner, and its forward-progress timer; the port's up, dead and
// disabled flags; the collector of packets discarded at the output.
//
// The output stage is a FIFO of PIPE_LAT + 1 slots (PIPE_LAT: LAT_SA +
// LAT_ST + LAT_LT for the crossbar, LAT_OUT + LAT_LT for tiles): a flit
// leaves when its stage latency has passed and the receiver's ready was
// high in the cycle before (chan.h: ready is registered).
//
// The output VCs change within an edge in the order router_cycle() has:
// the output mux (TILED) or the switch allocator (XBAR), then the VC
// allocator (XBAR), then the credits from downstream and the timers.  The
// VC allocator reads the state after the switch stages (va_* outputs).
//
// Forward progress: an output VC for which a packet waits for credits
// starts its timer, a credit coming back restarts it, and FP_TIMEOUT
// cycles without one declare the port dead (elapsed + 1 >= FP_TIMEOUT,
// compared as elapsed >= fp_lim: FP_TIMEOUT - 1, computed once by the top).
// The timer is FP_TIMER_BITS wide and holds at its most, which is exact:
// FP_TIMEOUT is below 2^FP_TIMER_BITS (router/params.h).
//
// The credit counts are CREDIT_BITS wide: a depth written to OUT_DEPTH of
// 2^CREDIT_BITS or more is held at its most, as router_set_out_depth()
// holds it, so a count never exceeds what its register holds; the views
// for the allocators are 16 bits, the count zero-extended.
//
// The owner of an output VC is held as the input VC's number p * VCS + v
// (TILED: the output mux's source) or, XBAR, one-hot over the input VCs,
// so that the VC allocator tests "owned by another input VC than q" as one
// bit (OWN bits either way).
`include "loom_hw.vh"
`include "loom_fifo.vh"

module loom_output_unit #(
	parameter integer PORT = 0,
	parameter integer PORTS = 1,
	parameter integer HOST_PORTS = 0,
	parameter integer VCS = 1,
	parameter integer FLIT_BYTES = 16,
	parameter integer BUF_DEPTH = 24,
	parameter integer WORMHOLE_VCS = 0,
	parameter integer ORG = 0,
	parameter integer PIPE_LAT = 2,
	parameter integer FP_TIMER_BITS = 32,
	parameter integer CREDIT_BITS = 16
) (
	input  logic clk,
	input  logic rst,
	// the output wires (registered) and what the receiver drives back
	output logic out_valid,
	output logic out_head,
	output logic out_tail,
	output logic [2:0] out_vc,
	output logic [FW-1:0] out_data,
	input  logic out_ready,
	input  logic [VCS*8-1:0] out_credit,
	// a flit for the output stage, or a discard (mux or crossbar)
	input  logic st_valid,
	input  logic st_discard,
	input  logic st_head,
	input  logic st_tail,
	input  logic [2:0] st_vc,
	input  logic [FW-1:0] st_data,
	// TILED: the output mux's effect on output VC st_vc
	input  logic [OW-1:0] m_src,
	input  logic [15:0] m_take,
	input  logic [15:0] m_give,
	// XBAR: the switch allocator's effect on output VC st_vc
	input  logic [15:0] x_giveback,
	input  logic [15:0] x_take,
	input  logic x_release,
	// XBAR: the VC allocator's grants
	input  logic [VCS-1:0] va_own,
	input  logic [VCS*OWN-1:0] va_owner,
	input  logic [VCS*16-1:0] va_take,
	input  logic [VCS-1:0] wanted_set,
	// packets waiting for credits this cycle (any stage)
	input  logic [VCS-1:0] waiting,
	// control registers
	input  logic up_we,
	input  logic up_val,
	input  logic dis_we,
	input  logic dis_val,
	input  logic clear_dead,
	input  logic fp_on,		// FP_TIMEOUT is not 0
	input  logic [TW-1:0] fp_lim,	// FP_TIMEOUT - 1
	input  logic [VCS-1:0] depth_we,
	input  logic [15:0] depth_val,
	// state for the switch stages (registered)
	output logic usable,
	output logic [2:0] drop_reason,
	output logic pipe_full,		// after this cycle's departure
	output logic [VCS-1:0] ov_owned,
	output logic [VCS*OWN-1:0] ov_owner,
	output logic [VCS*16-1:0] ov_avail,
	output logic [VCS*16-1:0] ov_max,
	output logic [VCS*8-1:0] ov_sent,
	output logic [VCS-1:0] ov_wanted,
	// state for the VC allocator (after the switch stages)
	output logic [VCS-1:0] va_owned,
	output logic [VCS*OWN-1:0] va_owner_view,
	output logic [VCS*16-1:0] va_avail,
	// port status, events, drops
	output logic dead,
	output logic port_event,
	output logic drop_valid,
	output logic [2:0] drop_reason_out,
	output logic [2:0] drop_vc,
	output logic [6:0] drop_bytes,
	output logic [8*`LOOM_PKT_HDR_SIZE-1:0] drop_hdr,
	// counter events of this edge
	output logic c_flit_out,
	output logic c_pkt_out,
	output logic c_drop,
	output logic [2:0] c_drop_reason,
	output logic [3:0] c_credit_errors,
	output logic [3:0] c_stall
);
	localparam integer FW = FLIT_BYTES * 8;
	localparam integer TW = FP_TIMER_BITS;
	localparam integer CRW = CREDIT_BITS;
	localparam integer OW = $clog2(PORTS * VCS + 1) > 6 ? $clog2(PORTS * VCS + 1) : 6;
	localparam integer N_NET = PORTS - HOST_PORTS;
	localparam logic XBAR = ORG == `ROUTER_ORG_XBAR;
	localparam integer OWN = ORG == `ROUTER_ORG_XBAR ? PORTS * VCS : OW;
	localparam integer CAP = PIPE_LAT + 1;
	localparam integer CW = $clog2(CAP + 1);
	localparam integer HIST = PIPE_LAT > 3 ? PIPE_LAT - 2 : 1;
	localparam integer EW = FW + 5;	// {vc, tail, head, data}
	localparam integer HB = 8 * `LOOM_PKT_HDR_SIZE;
	localparam integer VW = VCS > 1 ? $clog2(VCS) : 1;

	// st_vc as an index of the per-VC arrays
	logic [VW-1:0] st_vi;
	assign st_vi = st_vc[VW-1:0];

	`LOOM_AGE_GE_FN(age_ge, CW, HIST)

	function automatic logic worm(input integer v);
		worm = ((WORMHOLE_VCS >> v) & 1) != 0;
	endfunction

	// ---- registers ----
	logic r_up, r_dead, r_dis;
	logic [CRW-1:0] avail [0:VCS-1];
	logic [CRW-1:0] cmax [0:VCS-1];
	logic [VCS-1:0] owned;
	logic [OWN-1:0] owner [0:VCS-1];
	logic [7:0] sent [0:VCS-1];
	logic [VCS-1:0] wanted, stalled;
	logic [TW-1:0] stall_el [0:VCS-1];	// cycles since the timer (re)started, held at its most
	logic [6:0] d_bytes [0:VCS-1];
	logic [HB-1:0] d_hdr [0:VCS-1];

	// ---- the output stage ----
	// {vc, tail, head} of each flit in loom_flit_fifo, its data in a RAM of
	// CAP + 1 words (one SB_RAM40_4K row of blocks on the iCE40): written at
	// the tail, read into out_data as the flit leaves.  The RAM's read port
	// is that register, so it keeps its last value through reset: out_data
	// is the flit's only while out_valid is high.  The stage holds CAP
	// flits at most, so the word written is never the word read in the same
	// edge, and synthesis is told so (no_rw_check: no bypass around the RAM).
	logic p_push, p_pop;
	logic [EW-FW-1:0] p_front, unused_second, unused_peek;
	logic [CW-1:0] p_count;
	logic [HIST-1:0] p_hist;

	loom_flit_fifo #(.DEPTH(CAP), .WIDTH(EW - FW), .HIST(HIST)) u_pipe (
		.clk(clk), .rst(rst), .push(p_push), .push_data({st_vc, st_tail, st_head}),
		.pop(p_pop), .front(p_front), .second(unused_second), .peek_off('0), .peek(unused_peek),
		.count(p_count), .hist(p_hist));

	localparam integer AW = $clog2(CAP + 1);
	(* ram_style = "block", no_rw_check *) logic [FW-1:0] p_data [0:CAP];
	logic [AW-1:0] p_wr, p_rd;

	function automatic [AW-1:0] pnext(input logic [AW-1:0] i);
		pnext = 32'(i) == CAP ? '0 : i + 1'b1;
	endfunction

	always_ff @(posedge clk) begin
		if (p_push)
			p_data[p_wr] <= st_data;
		if (p_pop)
			out_data <= p_data[p_rd];
	end
	always_ff @(posedge clk)
		if (rst) begin
			p_wr <= '0;
			p_rd <= '0;
		end else begin
			if (p_push)
				p_wr <= pnext(p_wr);
			if (p_pop)
				p_rd <= pnext(p_rd);
		end

	assign p_pop = age_ge(p_count, p_hist, PIPE_LAT - 1, 0) && out_ready;
	assign p_push = st_valid && !st_discard;
	assign pipe_full = 32'(p_count) - 32'(p_pop) == CAP;

	assign usable = r_up && !r_dead && !r_dis;
	assign drop_reason = r_dis ? 3'(`ROUTE_DROP_DISABLED) : r_dead ? 3'(`ROUTE_DROP_DEAD) :
			     !r_up ? 3'(`ROUTE_DROP_DOWN) : 3'(`ROUTE_DROP_NONE);
	assign dead = r_dead;

	// ---- registered views ----
	always_comb begin
		integer v;
		for (v = 0; v < VCS; v = v + 1) begin
			ov_owner[v*OWN +: OWN] = owner[v];
			ov_avail[v*16 +: 16] = 16'(avail[v]);
			ov_max[v*16 +: 16] = 16'(cmax[v]);
			ov_sent[v*8 +: 8] = sent[v];
		end
		ov_owned = owned;
		ov_wanted = wanted;
	end

	// do @n credits fit above @a under @mx (credit_give: n <= max - avail,
	// as unsigned)?  In CRW + 1 bits, as exact as in 32: a difference below
	// zero wraps to 2^CRW or more, above every n (as the unsigned
	// difference of the model is); else an n of 2^CRW or more is above it
	function automatic logic fits(input logic [CRW-1:0] a, input logic [CRW-1:0] mx,
				      input logic [15:0] n);
		logic [CRW:0] d;
		d = {1'b0, mx} - {1'b0, a};
		fits = d[CRW] || ((32'(n) >> CRW) == 0 && CRW'(n) <= d[CRW-1:0]);
	endfunction

	// give back @n credits if they fit (credit_give)
	function automatic [CRW-1:0] give(input logic [CRW-1:0] a, input logic [CRW-1:0] mx,
					  input logic [15:0] n);
		give = fits(a, mx, n) ? a + CRW'(n) : a;
	endfunction

	// ---- after the switch stages (for the VC allocator), then the rest ----
	// the counts in CRW bits: they never leave 0 .. the depth (the
	// allocators take only credits there are, and credits coming back
	// beyond the depth are refused), so the arithmetic of 16 bits is the
	// same in CRW
	logic [CRW-1:0] a_sw [0:VCS-1];
	logic [VCS-1:0] own_sw;
	logic [OWN-1:0] owner_sw [0:VCS-1];
	logic [7:0] sent_sw [0:VCS-1];
	logic [CRW-1:0] a_va [0:VCS-1];

	always_comb begin
		integer v;
		for (v = 0; v < VCS; v = v + 1) begin
			a_sw[v] = avail[v];
			own_sw[v] = owned[v];
			owner_sw[v] = owner[v];
			sent_sw[v] = sent[v];
			if (st_valid && 32'(st_vc) == v) begin
				if (XBAR) begin
					a_sw[v] = give(a_sw[v], cmax[v], x_giveback) - CRW'(x_take);
					if (x_release)
						own_sw[v] = 1'b0;
				end else begin
					if (st_head) begin
						own_sw[v] = 1'b1;
						owner_sw[v] = OWN'(m_src);
					end
					sent_sw[v] = (st_head ? 8'd0 : sent[v]) + 8'd1;
					a_sw[v] = give(a_sw[v] - CRW'(m_take), cmax[v], m_give);
					if (st_tail)
						own_sw[v] = 1'b0;
				end
			end
			va_owned[v] = own_sw[v];
			va_owner_view[v*OWN +: OWN] = owner_sw[v];
			va_avail[v*16 +: 16] = 16'(a_sw[v]);
		end
	end

	// the VC allocator's take, on what it saw (a block of its own: va_take
	// depends on va_avail)
	always_comb
		for (int v = 0; v < VCS; v++)
			a_va[v] = a_sw[v] - CRW'(va_take[v*16 +: 16]);

	// ---- the discard collector ----
	`include "loom_hdr_collect.vh"

	// ---- commit: credits from downstream, timers, registers ----
	// a depth written, held at the most a count of CRW bits holds
	logic [CRW-1:0] depth_held;
	if (CRW < 16) begin : g_depth_held
		assign depth_held = depth_val >> CRW != '0 ? '1 : CRW'(depth_val);
	end else begin : g_depth
		assign depth_held = depth_val;
	end
	logic [CRW-1:0] a_next [0:VCS-1];
	logic [VCS-1:0] cred_ok, cred_err;
	logic [VCS-1:0] stalled_next;
	logic [TW-1:0] el_next [0:VCS-1];
	logic dead_set;

	always_comb begin
		integer v;
		logic [15:0] n;
		logic restart;
		dead_set = 1'b0;
		c_credit_errors = '0;
		c_stall = '0;
		for (v = 0; v < VCS; v = v + 1) begin
			n = 16'(out_credit[v*8 +: 8]);
			cred_ok[v] = 1'b0;
			cred_err[v] = 1'b0;
			a_next[v] = a_va[v];
			restart = 1'b0;
			if (n != '0) begin
				if (!fits(a_va[v], cmax[v], n)) begin
					cred_err[v] = 1'b1;
					c_credit_errors = c_credit_errors + 4'd1;
				end else begin
					cred_ok[v] = 1'b1;
					a_next[v] = a_va[v] + CRW'(n);
					restart = stalled[v];
				end
			end
			stalled_next[v] = stalled[v];
			el_next[v] = &stall_el[v] ? stall_el[v] : stall_el[v] + 1'b1;
			if (restart)
				el_next[v] = '0;
			if (waiting[v] || stalled[v]) begin
				if (!waiting[v]) begin
					stalled_next[v] = 1'b0;
				end else begin
					c_stall = c_stall + 4'd1;
					if (!stalled[v]) begin
						stalled_next[v] = 1'b1;
						el_next[v] = TW'(1);
					end
					// elapsed + 1 >= FP_TIMEOUT, as elapsed >= fp_lim
					if (fp_on && !r_dead && !dead_set) begin
						if (!stalled[v] ? fp_lim == '0 :
						    restart ? 1'b0 : stall_el[v] >= fp_lim)
							dead_set = 1'b1;
					end
				end
			end
		end
	end

`ifdef LOOM_MUTATE_CREDIT
`define LOOM_MUTATION "credit"
`include "loom_mutation.vh"
`endif
	always_ff @(posedge clk) begin
		integer v;
		logic [HB+6:0] col;
		if (rst) begin
			r_up <= 1'b1;
			r_dead <= 1'b0;
			r_dis <= 1'b0;
			owned <= '0;
			wanted <= '0;
			stalled <= '0;
			for (v = 0; v < VCS; v = v + 1) begin
`ifdef LOOM_MUTATE_CREDIT
				// deliberately wrong: one credit more than the buffer holds (mutation check)
				avail[v] <= mutate ? CRW'(BUF_DEPTH + 1) : CRW'(BUF_DEPTH);
`else
				avail[v] <= CRW'(BUF_DEPTH);
`endif
				cmax[v] <= CRW'(BUF_DEPTH);
				owner[v] <= '0;
				sent[v] <= '0;
				stall_el[v] <= '0;
				d_bytes[v] <= '0;
				d_hdr[v] <= '0;
			end
			out_valid <= 1'b0;
			out_head <= 1'b0;
			out_tail <= 1'b0;
			out_vc <= '0;
			port_event <= 1'b0;
			drop_valid <= 1'b0;
			drop_reason_out <= '0;
			drop_vc <= '0;
			drop_bytes <= '0;
			drop_hdr <= '0;
		end else begin
			// drive
			out_valid <= p_pop;
			if (p_pop) begin
				out_head <= p_front[0];
				out_tail <= p_front[1];
				out_vc <= p_front[2 +: 3];
			end
			// discards
			drop_valid <= 1'b0;
			if (st_valid && st_discard) begin
				col = collect(st_head ? 7'd0 : d_bytes[st_vi], d_hdr[st_vi], st_data);
				d_bytes[st_vi] <= col[HB +: 7];
				d_hdr[st_vi] <= col[HB-1:0];
				if (st_tail) begin
					drop_valid <= 1'b1;
					drop_reason_out <= drop_reason;
					drop_vc <= st_vc;
					drop_bytes <= col[HB +: 7];
					drop_hdr <= mask_hdr(col[HB-1:0], col[HB +: 7]);
				end
			end
			for (v = 0; v < VCS; v = v + 1) begin
				avail[v] <= a_next[v];
				sent[v] <= sent_sw[v];
				owner[v] <= owner_sw[v];
				owned[v] <= own_sw[v];
				if (va_own[v]) begin
					owned[v] <= 1'b1;
					owner[v] <= va_owner[v*OWN +: OWN];
					wanted[v] <= 1'b0;
				end
				if (wanted_set[v])
					wanted[v] <= 1'b1;
				stalled[v] <= stalled_next[v];
				stall_el[v] <= el_next[v];
				if (clear_dead && stalled_next[v])
					stall_el[v] <= '0;
				if (depth_we[v]) begin
					avail[v] <= depth_held;
					cmax[v] <= depth_held;
				end
				if (up_we && up_val && !r_up && !depth_we[v])
					avail[v] <= cmax[v];
			end
			port_event <= dead_set;
			if (dead_set)
				r_dead <= 1'b1;
			if (clear_dead)
				r_dead <= 1'b0;
			if (up_we && PORT < N_NET)
				r_up <= up_val;
			if (dis_we && PORT < N_NET)
				r_dis <= dis_val;
		end
	end

	assign c_flit_out = p_pop;
	assign c_pkt_out = p_pop && p_front[1];
	assign c_drop = st_valid && st_discard && st_tail;
	assign c_drop_reason = drop_reason;
	logic unused;
	assign unused = ^{cred_ok, cred_err};
	if (CRW < 16) begin : g_takes_hi
		// takes are of credits there are: below 2^CRW
		logic unused_hi;
		assign unused_hi = ^{x_take[15:CRW], m_take[15:CRW]};
	end
endmodule
