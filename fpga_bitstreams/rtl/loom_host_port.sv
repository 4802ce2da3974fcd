// SPDX-License-Identifier: GPL-2.0
//
// The host port (card/hostport.c): packets from the host interface into
// the router's host input as flits under credits, and flits from the
// router's host output back into packets for the host interface and the
// BSUs.  Registers as the C unit's struct hostport: per level (0 barrier,
// 1 responses, 2 requests) a source queue of whole packets, the credits of
// the router's host input buffer of the level's VC, the packet on the wire
// and its next flit, the registered flit (out_*); per level an ejection
// buffer of complete packets and the packet being reassembled; the
// registered credits freed (in_credit); the counters.
//
// Host side, packets in (hostport_send): a packet is written as
// ceil((LOOM_PKT_HDR_SIZE + len) / FLIT_BYTES) words of FLIT_BYTES bytes
// (byte 0 in pkt_data[7:0]), one a cycle with pkt_valid, the last with
// pkt_last; the unit is always ready.  Its class and length are read from
// the first word (the header's class and len fields).  The word with
// pkt_last commits it: the edge ending that cycle is where the C model
// calls hostport_send() (after that edge's hostport_step()), so the
// packet can leave from the next edge on; a refused packet (a class the
// host port does not carry, a payload above LOOM_PKT_MAX_PAYLOAD, or its
// queue full after the edge) raises pkt_refused for the next cycle, as
// hostport_send() returns false.  Bytes past the packet's end in its last
// word are stored as zero.  room[c] is hostport_room() of class c: room
// never falls before the commit of a packet started while it was high
// (only the stream fills a queue).  Each queue keeps one slot more than
// its capacity, which the packet being written uses while the queue is
// full, so that a commit is decided exactly as the C call decides it.
//
// Host side, packets out (card_host_deliver): dlv_valid for the cycle
// after the edge at which hostport_step() delivers a packet, with its VC,
// its flits and all its bytes at once in dlv_data (flit k in bits
// 8*FLIT_BYTES*k up; the bytes past dlv_flits flits are not defined).  The
// C model hands a whole packet to the card in one edge, so the ejection
// buffer is one memory word a packet, written a flit at a time and read
// whole.
//
// Router side: out_* is the flit toward the router's host input (struct
// chan fwd, registered), out_credit the credits its buffers freed (8 bits
// a VC); in_* the flit from the router's host output, in_credit (8 bits a
// VC) and in_ready (always high) what the unit drives back (struct
// chan_back, registered).
//
// Within an edge the order is hostport_step()'s: the credits freed are
// added, the flit from the router is taken, one packet is delivered
// (barrier, then responses, then requests while the response queue has
// room), one flit is sent (a new packet only with credits for all of its
// flits: virtual cut-through).
//
// LOOM_MUTATE_HOSTPORT (the mutation check of the harness): a packet
// starts with one credit fewer than its flits.
`include "loom_hw.vh"
`include "loom_hostport.vh"

module loom_host_port #(
	parameter integer FLIT_BYTES = `ROUTER_FLIT_BYTES_DEFAULT,
	// the router's host input buffer per VC (the credits after reset)
	parameter integer BUF_DEPTH = `ROUTER_BUF_DEPTH_DEFAULT,
	// the ejection buffer per VC in flits (the router's BUF_DEPTH for its host output)
	parameter integer DEPTH = `ROUTER_BUF_DEPTH_DEFAULT,
	parameter integer REQ_Q = `HOSTPORT_REQ_Q,
	parameter integer RESP_Q = `HOSTPORT_RESP_Q,
	parameter integer BAR_Q = `HOSTPORT_BAR_Q,
	localparam integer FW = 8 * FLIT_BYTES,
	// flits of a reassembled packet: the whole flits its buffer holds;
	// more are refused (hostport_take)
	localparam integer MAXF = `HOSTPORT_PKT_BYTES / FLIT_BYTES,
	localparam integer FLW = $clog2(MAXF + 1)
) (
	input  logic clk,
	input  logic rst,
	// host side: packets in
	input  logic pkt_valid,
	input  logic pkt_last,
	input  logic [FW-1:0] pkt_data,
	output logic pkt_ready,
	output logic pkt_refused,
	output logic [3:0] room,
	// host side: packets out
	output logic dlv_valid,
	output logic [2:0] dlv_vc,
	output logic [FLW-1:0] dlv_flits,
	output logic [MAXF*FW-1:0] dlv_data,
	// router side: toward its host input
	output logic out_valid,
	output logic out_head,
	output logic out_tail,
	output logic [2:0] out_vc,
	output logic [FW-1:0] out_data,
	input  logic [8*`CHAN_VCS_MAX-1:0] out_credit,
	// router side: from its host output
	input  logic in_valid,
	input  logic in_head,
	input  logic in_tail,
	input  logic [2:0] in_vc,
	input  logic [FW-1:0] in_data,
	output logic [8*`CHAN_VCS_MAX-1:0] in_credit,
	output logic in_ready,
	// work for the next edge (hostport_busy)
	output logic busy,
	// counters: flits refused, packets injected, packets delivered
	output logic [63:0] malformed,
	output logic [63:0] injected,
	output logic [63:0] delivered,
	// state, level l in bits 32*l up: credits of its VC, source queue, ejection buffer
	output logic [3*32-1:0] dbg_credits,
	output logic [3*16-1:0] dbg_queued,
	output logic [3*16-1:0] dbg_done
);
	localparam integer HDR = `LOOM_PKT_HDR_SIZE;
	// words of a queued packet (hostport_send: at most LOOM_PKT_MAX_PAYLOAD)
	localparam integer SW = (`HOSTPORT_PKT_MAX + FLIT_BYTES - 1) / FLIT_BYTES;
	localparam integer WCW = $clog2(SW + 1);
	// the smallest packet is a header: the ejection buffer holds at most
	// DEPTH / MIN_FLITS of them, and one more (hostport_init)
	localparam integer MIN_FLITS = (HDR + FLIT_BYTES - 1) / FLIT_BYTES;
	localparam integer D = DEPTH / MIN_FLITS + 1;
	localparam integer DW = $clog2(D + 1);
	localparam integer DSW = $clog2(3 * D);
	// source queues: capacity + 1 slots each, barrier, responses, requests
	localparam integer CAP0 = BAR_Q, CAP1 = RESP_Q, CAP2 = REQ_Q;
	localparam integer BASE1 = CAP0 + 1, BASE2 = CAP0 + CAP1 + 2;
	localparam integer NS = CAP0 + CAP1 + CAP2 + 3;
	localparam integer SLW = $clog2(NS);
	localparam integer QW = 16;
	localparam integer SAW = $clog2(NS * SW);
	localparam integer VCS = `CHAN_VCS_MAX;

	if (FLIT_BYTES < `ROUTER_FLIT_BYTES_MIN || FLIT_BYTES > `ROUTER_FLIT_BYTES_MAX) begin : g_bad_fb
		$error("host port parameter FLIT_BYTES is outside the router's ROUTER_FLIT_BYTES_MIN .. ROUTER_FLIT_BYTES_MAX (router/params.h)");
	end
	if (BUF_DEPTH < `ROUTER_BUF_DEPTH_MIN || BUF_DEPTH > `ROUTER_BUF_DEPTH_MAX) begin : g_bad_bd
		$error("host port parameter BUF_DEPTH is outside the router's ROUTER_BUF_DEPTH_MIN .. ROUTER_BUF_DEPTH_MAX (router/params.h)");
	end
	if (DEPTH < `ROUTER_BUF_DEPTH_MIN || DEPTH > `ROUTER_BUF_DEPTH_MAX) begin : g_bad_depth
		$error("host port parameter DEPTH is outside the router's ROUTER_BUF_DEPTH_MIN .. ROUTER_BUF_DEPTH_MAX (router/params.h)");
	end
	if (REQ_Q < 1 || REQ_Q > 32767) begin : g_bad_req
		$error("host port parameter REQ_Q is outside 1 .. 32767 (packets a source queue holds)");
	end
	if (RESP_Q < 1 || RESP_Q > 32767) begin : g_bad_resp
		$error("host port parameter RESP_Q is outside 1 .. 32767 (packets a source queue holds)");
	end
	if (BAR_Q < 1 || BAR_Q > 32767) begin : g_bad_bar
		$error("host port parameter BAR_Q is outside 1 .. 32767 (packets a source queue holds)");
	end

	// the VC of each level (HOSTPORT_LEVEL_VCS) and the level of a class
	// (HOSTPORT_LEVEL_CLASSES) or a VC
	function automatic logic [2:0] lvl_vc(input logic [1:0] l);
		case (l)
		2'd0: lvl_vc = 3'(`HOSTPORT_LEVEL0_VC);
		2'd1: lvl_vc = 3'(`HOSTPORT_LEVEL1_VC);
		default: lvl_vc = 3'(`HOSTPORT_LEVEL2_VC);
		endcase
	endfunction
	// 3: none
	function automatic logic [1:0] class_lvl(input logic [7:0] c);
		case (c)
		8'(`HOSTPORT_LEVEL0_CLASS): class_lvl = 2'd0;
		8'(`HOSTPORT_LEVEL1_CLASS): class_lvl = 2'd1;
		8'(`HOSTPORT_LEVEL2_CLASS): class_lvl = 2'd2;
		default: class_lvl = 2'd3;
		endcase
	endfunction
	function automatic logic [1:0] vc_lvl(input logic [2:0] v);
		if (v == 3'(`HOSTPORT_LEVEL0_VC))
			vc_lvl = 2'd0;
		else if (v == 3'(`HOSTPORT_LEVEL1_VC))
			vc_lvl = 2'd1;
		else if (v == 3'(`HOSTPORT_LEVEL2_VC))
			vc_lvl = 2'd2;
		else
			vc_lvl = 2'd3;
	endfunction
	function automatic logic [QW-1:0] cap(input integer l);
		cap = QW'(l == 0 ? CAP0 : l == 1 ? CAP1 : CAP2);
	endfunction
	function automatic logic [SLW-1:0] base(input integer l);
		base = SLW'(l == 0 ? 0 : l == 1 ? BASE1 : BASE2);
	endfunction
	// flits of a packet of @len payload bytes
	function automatic logic [FLW-1:0] pkt_flits(input logic [15:0] len);
		pkt_flits = FLW'((32'(len) + HDR + FLIT_BYTES - 1) / FLIT_BYTES);
	endfunction

	// ---- registers ----
	// source
	logic [FW-1:0] src_mem [NS*SW];		// the queued packets, SW words a slot
	logic [FLW-1:0] src_flits [NS];		// each slot's flits
	logic [QW-1:0] q_head [3], q_count [3];
	logic [31:0] credits [3];		// of each level's VC
	logic cur_on;
	logic [1:0] cur;
	logic [FLW-1:0] cur_flit;
	// the packet being written
	logic [WCW-1:0] wc;
	logic [1:0] w_lvl;
	logic [15:0] w_len;
	logic [SLW-1:0] w_slot;
	// sink
	logic [MAXF*FW-1:0] snk_mem [3*D];	// complete packets, one word each
	logic [FLW-1:0] snk_flits [3*D];
	logic [DW-1:0] d_head [3], d_count [3];
	logic [FLW-1:0] r_flits [3];		// flits of the packet being reassembled
	logic r_open [3];
	// the delivered packet: the RAM's word and the flit written in the same edge
	logic [MAXF*FW-1:0] dlv_word;
	logic byp_on;
	logic [FLW-1:0] byp_lane;
	logic [FW-1:0] byp_data;

	// ---- the packet stream (hostport_send at the edge of its last word) ----
	logic [1:0] s_lvl;
	logic [15:0] s_len;
	logic [SLW-1:0] s_slot;
	logic s_commit, s_ok;
	logic [FW-1:0] s_word;
	logic [QW-1:0] pop_q [3];

	always_comb begin
		logic [QW:0] t;

		t = '0;
		s_lvl = w_lvl;
		s_len = w_len;
		s_slot = w_slot;
		if (wc == 0) begin
			s_lvl = class_lvl(pkt_data[8*`LOOM_PKT_OFF_CLASS +: 8]);
			s_len = pkt_data[8*`LOOM_PKT_OFF_LEN +: 16];
			s_slot = '0;
			for (int l = 0; l < 3; l++)
				if (s_lvl == 2'(l)) begin
					t = {1'b0, q_head[l]} + {1'b0, q_count[l]};
					if (t >= (QW+1)'(cap(l) + 1'b1))
						t = t - (QW+1)'(cap(l) + 1'b1);
					s_slot = base(l) + SLW'(t);
				end
		end
		for (int j = 0; j < FLIT_BYTES; j++)
			s_word[8*j +: 8] = 32'(wc) * FLIT_BYTES + j < HDR + 32'(s_len) ?
				pkt_data[8*j +: 8] : 8'h0;
		s_addr = SAW'(32'(s_slot) * SW + 32'(wc));
		s_commit = pkt_valid && pkt_last;
		s_ok = 1'b0;
		for (int l = 0; l < 3; l++)
			if (s_lvl == 2'(l))
				s_ok = 32'(s_len) <= `LOOM_PKT_MAX_PAYLOAD && q_count[l] - pop_q[l] != cap(l);
	end

	// ---- the edge: credits, take, deliver, source ----
	logic [31:0] cred_eff [3];
	logic [FLW-1:0] h_flits [3];
	logic [DSW-1:0] r_slot [3];
	// take
	logic [1:0] t_lvl;
	logic t_bad, t_ok, t_done;
	// deliver
	logic g_on;
	logic [1:0] g_lvl;
	logic [DSW-1:0] g_slot;
	logic [FLW-1:0] g_flits;
	logic g_byp;
	// source
	logic pick_on, send_on, send_last;
	logic [1:0] pick, send_lvl;
	logic [FLW-1:0] send_flit;
	logic [SAW-1:0] send_addr;
	logic [DW-1:0] d_eff [3];
	logic [8*VCS-1:0] credit_back;
	logic [SAW-1:0] s_addr;

	always_comb begin
		logic [DW:0] t;

		for (int l = 0; l < 3; l++) begin
			cred_eff[l] = credits[l] + 32'(out_credit[8*lvl_vc(2'(l)) +: 8]);
			h_flits[l] = src_flits[base(l) + SLW'(q_head[l])];
			t = {1'b0, d_head[l]} + {1'b0, d_count[l]};
			if (t >= (DW+1)'(D))
				t = t - (DW+1)'(D);
			r_slot[l] = DSW'(l * D) + DSW'(t);
		end

		// hostport_take
		t_lvl = vc_lvl(in_vc);
		t_bad = 1'b1;
		for (int l = 0; l < 3; l++)
			if (t_lvl == 2'(l))
				t_bad = in_head == r_open[l] || 32'(r_flits[l]) >= MAXF ||
					32'(d_count[l]) == D;
		t_ok = in_valid && !t_bad;
		t_done = t_ok && in_tail;

		// hostport_deliver
		for (int l = 0; l < 3; l++)
			d_eff[l] = d_count[l] + DW'(t_done && t_lvl == 2'(l));
		g_on = 1'b0;
		g_lvl = 2'd0;
		for (int l = 2; l >= 0; l--)
			if (d_eff[l] != 0 && (l != 2 || q_count[1] != cap(1))) begin
				g_on = 1'b1;
				g_lvl = 2'(l);
			end
		g_slot = '0;
		g_byp = 1'b0;
		for (int l = 0; l < 3; l++)
			if (g_lvl == 2'(l)) begin
				g_slot = DSW'(l * D) + DSW'(d_head[l]);
				g_byp = d_count[l] == 0;
			end
		g_flits = g_byp ? r_flits[g_lvl] + 1'b1 : snk_flits[g_slot];

		// hostport_source
		pick_on = 1'b0;
		pick = 2'd0;
		for (int l = 2; l >= 0; l--)
`ifdef LOOM_MUTATE_HOSTPORT
			// deliberately wrong: one credit fewer than the packet's flits (mutation check)
			if (q_count[l] != 0 && cred_eff[l] + 1 >= 32'(h_flits[l])) begin
`else
			if (q_count[l] != 0 && cred_eff[l] >= 32'(h_flits[l])) begin
`endif
				pick_on = 1'b1;
				pick = 2'(l);
			end
		send_on = cur_on || pick_on;
		send_lvl = cur_on ? cur : pick;
		send_flit = cur_on ? cur_flit : '0;
		send_last = send_flit + 1'b1 == h_flits[send_lvl];
		send_addr = SAW'((32'(base(32'(send_lvl))) + 32'(q_head[send_lvl])) * SW + 32'(send_flit));
		for (int l = 0; l < 3; l++)
			pop_q[l] = QW'(send_on && send_last && send_lvl == 2'(l));

		// the credits freed this edge: a refused flit's, a delivered packet's
		for (int v = 0; v < VCS; v++)
			credit_back[8*v +: 8] = 8'(in_valid && t_bad && in_vc == 3'(v)) +
				(g_on && lvl_vc(g_lvl) == 3'(v) ? 8'(g_flits) : 8'd0);
	end

	always_ff @(posedge clk) begin
		// the RAMs: no reset
		if (pkt_valid && s_lvl != 2'd3 && 32'(wc) < SW)
			src_mem[s_addr] <= s_word;
		if (s_commit && s_ok)
			src_flits[s_slot] <= pkt_flits(s_len);
		if (send_on)
			out_data <= src_mem[send_addr];
		if (t_ok) begin
			snk_mem[r_slot[t_lvl]][FW*32'(r_flits[t_lvl]) +: FW] <= in_data;
			if (in_tail)
				snk_flits[r_slot[t_lvl]] <= r_flits[t_lvl] + 1'b1;
		end
		if (g_on) begin
			dlv_word <= snk_mem[g_slot];
			byp_lane <= r_flits[g_lvl];
			byp_data <= in_data;
			dlv_flits <= g_flits;
			dlv_vc <= lvl_vc(g_lvl);
		end
	end

	always_ff @(posedge clk) begin
		if (rst) begin
			for (int l = 0; l < 3; l++) begin
				q_head[l] <= '0;
				q_count[l] <= '0;
				credits[l] <= 32'(BUF_DEPTH);
				d_head[l] <= '0;
				d_count[l] <= '0;
				r_flits[l] <= '0;
				r_open[l] <= 1'b0;
			end
			cur_on <= 1'b0;
			cur <= 2'd0;
			cur_flit <= '0;
			wc <= '0;
			w_lvl <= 2'd3;
			w_len <= '0;
			w_slot <= '0;
			out_valid <= 1'b0;
			out_head <= 1'b0;
			out_tail <= 1'b0;
			out_vc <= 3'd0;
			in_credit <= '0;
			pkt_refused <= 1'b0;
			dlv_valid <= 1'b0;
			byp_on <= 1'b0;
			malformed <= '0;
			injected <= '0;
			delivered <= '0;
		end else begin
			// the stream
			if (pkt_valid) begin
				w_lvl <= s_lvl;
				w_len <= s_len;
				w_slot <= s_slot;
				wc <= pkt_last ? '0 : 32'(wc) < SW ? wc + 1'b1 : wc;
			end
			pkt_refused <= s_commit && !s_ok;

			// the credits back to the router, the take
			in_credit <= credit_back;
			if (in_valid && t_bad)
				malformed <= malformed + 1'b1;
			for (int l = 0; l < 3; l++)
				if (t_ok && t_lvl == 2'(l)) begin
					r_flits[l] <= in_tail ? '0 : r_flits[l] + 1'b1;
					r_open[l] <= !in_tail;
				end

			// the delivery
			dlv_valid <= g_on;
			byp_on <= g_on && g_byp;
			if (g_on)
				delivered <= delivered + 1'b1;
			for (int l = 0; l < 3; l++) begin
				d_count[l] <= d_eff[l] - DW'(g_on && g_lvl == 2'(l));
				if (g_on && g_lvl == 2'(l))
					d_head[l] <= 32'(d_head[l]) + 1 == D ? '0 : d_head[l] + 1'b1;
			end

			// the source
			for (int l = 0; l < 3; l++) begin
				credits[l] <= cred_eff[l] - (!cur_on && pick_on && pick == 2'(l) ?
					32'(h_flits[l]) : 32'd0);
				q_count[l] <= q_count[l] - pop_q[l] +
					QW'(s_commit && s_ok && s_lvl == 2'(l));
				if (pop_q[l] != 0)
					q_head[l] <= q_head[l] == cap(l) ? '0 : q_head[l] + 1'b1;
			end
			out_valid <= send_on;
			if (send_on) begin
				out_head <= send_flit == 0;
				out_tail <= send_last;
				out_vc <= lvl_vc(send_lvl);
			end
			cur_on <= send_on && !send_last;
			cur <= send_lvl;
			cur_flit <= send_flit + 1'b1;
			if (send_on && send_last)
				injected <= injected + 1'b1;
		end
	end

	// the delivered packet: the flit written in its edge replaces its lane
	always_comb begin
		dlv_data = dlv_word;
		if (byp_on)
			dlv_data[FW*32'(byp_lane) +: FW] = byp_data;
	end

	// ---- outputs from the registers ----
	assign pkt_ready = 1'b1;
	assign in_ready = 1'b1;
	// hostport_room() by class
	always_comb
		for (int c = 0; c < 4; c++) begin
			room[c] = 1'b0;
			for (int l = 0; l < 3; l++)
				if (class_lvl(8'(c)) == 2'(l))
					room[c] = q_count[l] != cap(l);
		end

	always_comb begin
		busy = cur_on || out_valid || in_credit != 0;
		for (int l = 0; l < 3; l++) begin
			if (q_count[l] != 0 && credits[l] >= 32'(h_flits[l]))
				busy = 1'b1;
			if (d_count[l] != 0 && (l != 2 || q_count[1] != cap(1)))
				busy = 1'b1;
			dbg_credits[32*l +: 32] = credits[l];
			dbg_queued[16*l +: 16] = q_count[l];
			dbg_done[16*l +: 16] = 16'(d_count[l]);
		end
	end
endmodule
