// SPDX-License-Identifier: GPL-2.0
//
// The link receiver's delivery queue and the flits to the router: the C
// model's RX_QUEUE frame slots and link_recv_deliver() (link/link_recv.c).
// The DATA frames the receive half accepted in a cycle (acc_n of them, at
// most the room and RX_FRAMES) join the queue in order; the queue's head
// packet goes to the router's input port one flit a cycle, a flit driven
// only in a cycle after one in which the router was ready (in_ready,
// router/chan.h: a flit driven is a flit taken).
//
// At each clock edge, as link_recv_step() orders it: the frames accepted
// join the queue (written at its tail); the flit driven in the cycle is
// counted (rx_flit) and, if it was the packet's tail, the head packet
// leaves; then, while the router is ready and a packet is queued, the
// next flit of the head packet is driven for the next cycle: FLIT_BYTES
// bytes of it from the flit's offset, zero past the packet's length, its
// head bit on its first flit, its tail bit on the flit that reaches its
// length, its VC the frame's.  A packet accepted into an empty queue is
// the head in the same edge.  Carrier changes leave the queue and the
// flit as they are: accepted packets are delivered.
//
// room: the queue's free slots, what the framer may complete this cycle
// (the link unit's bound on frames checked).
`include "loom_hw.vh"

module loom_link_recv_deliver #(
	parameter integer FLIT_BYTES = `LINK_FLIT_BYTES_DEFAULT,
	parameter integer RX_QUEUE = `LINK_RX_QUEUE_DEFAULT,
	parameter integer RX_FRAMES = `LINK_RX_FRAMES_DEFAULT,
	// derived: frames accepted in a cycle at most, a packet's bytes at
	// most, the bits of a queue count and of a flit index
	parameter integer ACC = RX_FRAMES < RX_QUEUE ? RX_FRAMES : RX_QUEUE,
	parameter integer BODY_MAX = `LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD,
	parameter integer QW = $clog2(RX_QUEUE + 1),
	parameter integer XW = $clog2((BODY_MAX + FLIT_BYTES - 1) / FLIT_BYTES + 1)
) (
	input  logic clk,
	input  logic rst,
	// the frames accepted in this cycle, slot 0 first: VC, length (header and
	// payload bytes, at least a packet header) and bytes
	input  logic [QW-1:0] acc_n,
	input  logic [3*ACC-1:0] acc_vc,
	input  logic [16*ACC-1:0] acc_len,
	input  logic [8*BODY_MAX*ACC-1:0] acc_body,
	// the router's input port is ready in this cycle
	input  logic in_ready,
	// registers: packets queued, the head packet's next flit, the flit driven
	output logic [QW-1:0] q_count,
	output logic [XW-1:0] flit_idx,
	output logic flit_valid,
	output logic flit_head,
	output logic flit_tail,
	output logic [2:0] flit_vc,
	output logic [8*FLIT_BYTES-1:0] flit_data,
	// the queue's free slots (registered); rx_flits counted at this edge
	output logic [QW-1:0] room,
	output logic rx_flit
);
	localparam integer FB = FLIT_BYTES;
	localparam integer IW = RX_QUEUE > 1 ? $clog2(RX_QUEUE) : 1;

	if (FLIT_BYTES < `LINK_FLIT_BYTES_MIN || FLIT_BYTES > `LINK_FLIT_BYTES_MAX ||
	    FLIT_BYTES % 8 != 0) begin : g_bad_fb
		$error("link parameter FLIT_BYTES is not a multiple of 8 in LINK_FLIT_BYTES_MIN .. LINK_FLIT_BYTES_MAX (link_params.h)");
	end
	if (RX_QUEUE < `LINK_RX_QUEUE_MIN || RX_QUEUE > `LINK_RX_QUEUE_MAX) begin : g_bad_q
		$error("link parameter RX_QUEUE is outside LINK_RX_QUEUE_MIN .. LINK_RX_QUEUE_MAX (link_params.h)");
	end
	if (RX_FRAMES < `LINK_RX_FRAMES_MIN || RX_FRAMES > `LINK_RX_FRAMES_MAX) begin : g_bad_frames
		$error("link parameter RX_FRAMES is outside LINK_RX_FRAMES_MIN .. LINK_RX_FRAMES_MAX (link_params.h)");
	end
	if (ACC != (RX_FRAMES < RX_QUEUE ? RX_FRAMES : RX_QUEUE) ||
	    BODY_MAX != `LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD || QW != $clog2(RX_QUEUE + 1) ||
	    XW != $clog2((BODY_MAX + FLIT_BYTES - 1) / FLIT_BYTES + 1)) begin : g_bad_derived
		$error("ACC, BODY_MAX, QW and XW are derived: do not set them");
	end

	// the slots: no reset (the count says which hold packets)
	logic [2:0] s_vc [RX_QUEUE];
	logic [15:0] s_len [RX_QUEUE];
	logic [8*BODY_MAX-1:0] s_body [RX_QUEUE];
	logic [IW-1:0] r_head, r_tail;
	logic [QW-1:0] r_count;
	logic [XW-1:0] r_idx;

	function automatic [IW-1:0] ring(input logic [IW-1:0] i, input integer n);
		integer s;
		begin
			s = 32'(i) + n;
			ring = IW'(s >= RX_QUEUE ? s - RX_QUEUE : s);
		end
	endfunction

	logic taken;				// the flit of this cycle was its packet's tail
	logic [IW-1:0] head_n;
	logic [XW-1:0] idx_n;
	logic [QW-1:0] count_n, old_left;
	logic drive;
	logic [2:0] h_vc;
	logic [15:0] h_len;
	logic [8*BODY_MAX-1:0] h_body, shifted;
	logic [31:0] off;

	always_comb begin
		rx_flit = flit_valid;
		taken = flit_valid && flit_tail;
		// the frames accepted join, then the flit driven is counted
		count_n = r_count + acc_n - QW'(taken);
		head_n = taken ? ring(r_head, 1) : r_head;
		idx_n = !flit_valid ? r_idx : taken ? '0 : r_idx + 1'b1;
		// the head packet: an old one, or the first accepted now
		old_left = r_count - QW'(taken);
		if (old_left != '0) begin
			h_vc = s_vc[head_n];
			h_len = s_len[head_n];
			h_body = s_body[head_n];
		end else begin
			h_vc = acc_vc[2:0];
			h_len = acc_len[15:0];
			h_body = acc_body[8*BODY_MAX-1:0];
		end
		drive = count_n != '0 && in_ready;
		off = 32'(idx_n) * FB;
		shifted = h_body >> (8 * off);
	end

	always_ff @(posedge clk) begin
		if (rst) begin
			r_head <= '0;
			r_tail <= '0;
			r_count <= '0;
			r_idx <= '0;
			flit_valid <= 1'b0;
		end else begin
			r_head <= head_n;
			r_tail <= ring(r_tail, 32'(acc_n));
			r_count <= count_n;
			r_idx <= idx_n;
			flit_valid <= drive;
		end
	end

	// the flit's sideband and bytes: kept while none is driven
	always_ff @(posedge clk)
		if (drive) begin
			flit_head <= idx_n == '0;
`ifdef LOOM_MUTATE_LINK_DELIVER
			// deliberately wrong (the harness's mutation check): the tail a flit late
			flit_tail <= off + FB > 32'(h_len);
`else
			flit_tail <= off + FB >= 32'(h_len);
`endif
			flit_vc <= h_vc;
			for (int b = 0; b < FB; b++)
				flit_data[8*b +: 8] <= off + 32'(b) < 32'(h_len) ? shifted[8*b +: 8] : 8'd0;
		end

	// the accepted frames into the slots at the tail
	always_ff @(posedge clk)
		for (int i = 0; i < ACC; i++)
			if (32'(i) < 32'(acc_n)) begin
				s_vc[ring(r_tail, i)] <= acc_vc[3*i +: 3];
				s_len[ring(r_tail, i)] <= acc_len[16*i +: 16];
				s_body[ring(r_tail, i)] <= acc_body[8*BODY_MAX*i +: 8*BODY_MAX];
			end

	assign q_count = r_count;
	assign flit_idx = r_idx;
	assign room = QW'(RX_QUEUE) - r_count;
endmodule
