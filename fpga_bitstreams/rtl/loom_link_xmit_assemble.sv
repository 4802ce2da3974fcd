// SPDX-License-Identifier: GPL-2.0
//
// The link transmitter's packet assembly: the C model's link_xmit_take(),
// link_xmit_head(), link_xmit_malformed(), link_xmit_abort(), the transmit
// queue and link_xmit_ready() (link/link_xmit.c).  The router's output port
// may interleave the flits of packets on different VCs, so each VC's packet
// is assembled in its own buffer and joins the transmit queue (TX_QUEUE
// packets) whole, when its tail arrives.
//
// At each clock edge (link_xmit_step() in link_unit_step()) the unit takes
// the flit the router drives in the cycle: dropped with its credit refunded
// while the link is not up, counted malformed (and the packet it belongs to
// dropped, refunded, and its VC's flits discarded up to a tail) when ready
// was low in the cycle before, on a VC the link does not carry, a body flit
// without a head, a packet longer or shorter than its header's length, a
// header whose length exceeds the largest payload, or a tail with the queue
// full.  Then the frame builder may take the queue's head packet (pop: a
// DATA frame carries it), and ready for the next cycle is set while the
// free slots cover the tails the next one or two flits can bring.
//
// up: the link is up in this cycle; flush: the carrier changed at this
// edge (link_xmit_reset: the queue, the assembly and ready_before are
// cleared before the flit is taken).  head_* (combinational): the queue's
// head packet after this cycle's flit, what pop takes.  A DATA frame is at
// least LOOM_FRAME_HDR_SIZE + LOOM_PKT_HDR_SIZE + LOOM_FRAME_CRC_SIZE
// bytes (72), more than the lanes carry a cycle (64 at most), so at most one
// starts a cycle: pop is one bit.
//
// starved: link_xmit_credit_starved() of the registered state, from the
// credit unit's answers for the registered queue head (q_peer_has:
// link_credit_peer_has) and its low mask (low_any).
`include "loom_hw.vh"

module loom_link_xmit_assemble #(
	parameter integer VCS = `LINK_VCS_DEFAULT,
	parameter integer FLIT_BYTES = `LINK_FLIT_BYTES_DEFAULT,
	parameter integer TX_QUEUE = `LINK_TX_QUEUE_DEFAULT,
	// derived: flits of the largest packet, bits of a count of them
	parameter integer PKT_FLITS = (`LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD + FLIT_BYTES - 1) /
				      FLIT_BYTES,
	parameter integer FW = $clog2(PKT_FLITS + 1),
	parameter integer QW = $clog2(TX_QUEUE + 1)
) (
	input  logic clk,
	input  logic rst,
	input  logic flush,
	input  logic up,
	// the router's flit of this cycle
	input  logic flit_valid,
	input  logic flit_head,
	input  logic flit_tail,
	input  logic [2:0] flit_vc,
	input  logic [8*FLIT_BYTES-1:0] flit_data,
	// the frame builder takes the head packet at this edge
	input  logic pop,
	// the credit unit, for starved
	input  logic q_peer_has,
	input  logic low_any,
	// registers
	output logic ready,			// the router may drive a flit next cycle
	output logic ready_before,		// ready in the cycle before: a flit is allowed
	output logic [VCS-1:0] assembling,
	output logic [VCS-1:0] discarding,
	output logic [QW-1:0] q_count,
	output logic [2:0] q_vc,		// the registered head packet's VC and flits
	output logic [FW-1:0] q_flits,
	// this edge (combinational)
	output logic [1:0] malformed,		// tx_malformed counted
	output logic flit_counted,		// tx_flits counted
	output logic queued,			// tx_packets counted: a packet joined the queue
	output logic ref_valid,			// flits refunded to the router (link_credit_refund)
	output logic [2:0] ref_vc,
	output logic [FW:0] ref_flits,
	output logic head_valid,
	output logic [2:0] head_vc,
	output logic [FW-1:0] head_flits,
	output logic [15:0] head_len,
	output logic [8*FLIT_BYTES*PKT_FLITS-1:0] head_data,
	output logic starved
);
	localparam integer FB = FLIT_BYTES;
	localparam integer PB = FB * PKT_FLITS;		// bytes of a buffer: whole flits
	localparam integer HEAD_FLITS = (`LOOM_PKT_HDR_SIZE + FB - 1) / FB;
	localparam integer IW = TX_QUEUE > 1 ? $clog2(TX_QUEUE) : 1;	// a queue index
	localparam integer NW = $clog2(2 * VCS + 1);	// tails counted: up to two a VC
	localparam integer VW = VCS > 1 ? $clog2(VCS) : 1;	// a VC index

	if (VCS < `LINK_VCS_MIN || VCS > `LINK_VCS_MAX) begin : g_bad_vcs
		$error("link parameter VCS is outside LINK_VCS_MIN .. LINK_VCS_MAX (link_params.h)");
	end
	if (FLIT_BYTES < `LINK_FLIT_BYTES_MIN || FLIT_BYTES > `LINK_FLIT_BYTES_MAX ||
	    FLIT_BYTES % 8 != 0) begin : g_bad_fb
		$error("link parameter FLIT_BYTES is not a multiple of 8 in LINK_FLIT_BYTES_MIN .. LINK_FLIT_BYTES_MAX (link_params.h)");
	end
	if (TX_QUEUE < `LINK_TX_QUEUE_MIN || TX_QUEUE > `LINK_TX_QUEUE_MAX) begin : g_bad_q
		$error("link parameter TX_QUEUE is outside LINK_TX_QUEUE_MIN .. LINK_TX_QUEUE_MAX (link_params.h)");
	end
	if (PKT_FLITS != (`LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD + FLIT_BYTES - 1) / FLIT_BYTES ||
	    FW != $clog2(PKT_FLITS + 1) || QW != $clog2(TX_QUEUE + 1)) begin : g_bad_derived
		$error("PKT_FLITS, FW and QW are derived: do not set them");
	end

	// ---- registers ----
	logic [FW-1:0] a_flits [VCS];		// per VC: flits assembled
	logic [FW-1:0] a_expect [VCS];		// flits its header announces
	logic [15:0] a_len [VCS];		// header + payload bytes
	logic [8*PB-1:0] a_data [VCS];
	logic [IW-1:0] q_head, q_tail;
	logic [2:0] qs_vc [TX_QUEUE];
	logic [FW-1:0] qs_flits [TX_QUEUE];
	logic [15:0] qs_len [TX_QUEUE];
	logic [8*PB-1:0] qs_data [TX_QUEUE];

	// ---- the flit taken ----
	logic [VCS-1:0] asm_n, disc_n;		// assembling, discarding after it
	logic [QW-1:0] qc0;			// the queue after the flush
	logic [IW-1:0] qh0, qt0;
	logic rb;				// ready_before after the flush
	logic vc_ok;
	logic [VCS-1:0] vbit;			// the flit's VC as a mask (none if no such VC)
	logic [2:0] v;
	logic [15:0] plen;
	logic [FW-1:0] fl_n, exp_n;		// the VC's flits and expectation after it
	logic [15:0] len_n;
	logic wr;				// the flit is written at index wr_at
	logic [FW-1:0] wr_at;
	logic [8*PB-1:0] pkt;			// the VC's buffer with the flit written
	logic cont;				// the flit joined the VC's packet
	logic bad;				// the flit is malformed (link_xmit_malformed)
	logic bad_tail;				// a tail that ends its packet malformed (link_xmit_abort)

	always_comb begin
		qc0 = flush ? '0 : q_count;
		qh0 = flush ? '0 : q_head;
		qt0 = flush ? '0 : q_tail;
		rb = flush ? 1'b0 : ready_before;
		asm_n = flush ? '0 : assembling;
		disc_n = flush ? '0 : discarding;
		v = flit_vc;
		vc_ok = 32'(flit_vc) < VCS;
		vbit = vc_ok ? VCS'(1) << flit_vc : '0;
		fl_n = vc_ok ? a_flits[v[VW-1:0]] : '0;
		exp_n = vc_ok ? a_expect[v[VW-1:0]] : '0;
		len_n = vc_ok ? a_len[v[VW-1:0]] : '0;
		pkt = vc_ok ? a_data[v[VW-1:0]] : '0;
		plen = flit_data[8*`LOOM_PKT_OFF_LEN +: 16];
		malformed = 2'd0;
		ref_flits = '0;
		flit_counted = 1'b0;
		queued = 1'b0;
		wr = 1'b0;
		wr_at = '0;
		cont = 1'b0;
		bad = 1'b0;
		bad_tail = 1'b0;
		if (flit_valid) begin
			if (!rb) begin
				bad = 1'b1;			// ready was low: no room promised
			end else if (!up) begin
				if (vc_ok)			// the cable went down under it
					ref_flits = 1;
			end else if (!vc_ok) begin
				bad = 1'b1;			// no such VC
			end else if (flit_head) begin
				if ((asm_n & vbit) != 0) begin		// the last packet had no tail
					malformed = malformed + 2'd1;
					ref_flits = ref_flits + (FW + 1)'(fl_n);
					asm_n = asm_n & ~vbit;
				end
				disc_n = disc_n & ~vbit;
				if (plen > 16'(`LOOM_PKT_MAX_PAYLOAD)) begin
					bad = 1'b1;
				end else begin
					len_n = 16'(`LOOM_PKT_HDR_SIZE) + plen;
					exp_n = FW'((32'(len_n) + FB - 1) / FB);
					fl_n = FW'(1);
					wr = 1'b1;
					asm_n = asm_n | vbit;
					cont = 1'b1;
				end
			end else if ((disc_n & vbit) != 0) begin
				ref_flits = 1;
				if (flit_tail)
					disc_n = disc_n & ~vbit;
			end else if ((asm_n & vbit) == 0) begin
				bad = 1'b1;			// body flit without a head
`ifdef LOOM_MUTATE_LINK_XMIT
			// deliberately wrong (the harness's mutation check): one flit too many taken
			end else if (fl_n > exp_n) begin
`else
			end else if (fl_n >= exp_n) begin
`endif
				bad = 1'b1;			// longer than its header says
			end else begin
				wr = 1'b1;
				wr_at = fl_n;
				fl_n = fl_n + 1'b1;
				cont = 1'b1;
			end
			if (cont) begin
				flit_counted = 1'b1;
				if (flit_tail) begin
					// the tail is in the packet: dropping it refunds the tail
					if (fl_n != exp_n)
						bad_tail = 1'b1;	// shorter than its header says
					else if (32'(qc0) >= TX_QUEUE)
						bad_tail = 1'b1;	// sent while not ready: no room
					else begin
						asm_n = asm_n & ~vbit;
						queued = 1'b1;
					end
				end
			end
		end
		// a malformed flit: its VC's packet dropped (link_xmit_abort), its
		// credit refunded, the VC's flits discarded up to a tail
		malformed = malformed + 2'(bad || bad_tail);
		if ((bad || bad_tail) && (asm_n & vbit) != 0) begin
			ref_flits = ref_flits + (FW + 1)'(fl_n);
			asm_n = asm_n & ~vbit;
		end
		if (bad && vc_ok) begin
			ref_flits = ref_flits + 1'b1;
			if (!flit_tail)
				disc_n = disc_n | vbit;
		end
		if (wr)
			pkt[8*FB*wr_at +: 8*FB] = flit_data;
		ref_valid = ref_flits != 0;
		ref_vc = flit_vc;
	end

	// ---- the queue's head after the flit (what pop takes) ----
	always_comb begin
		head_valid = qc0 != 0 || queued;
		if (qc0 != 0) begin
			head_vc = qs_vc[qh0];
			head_flits = qs_flits[qh0];
			head_len = qs_len[qh0];
			head_data = qs_data[qh0];
		end else begin
			head_vc = flit_vc;
			head_flits = fl_n;
			head_len = len_n;
			head_data = pkt;
		end
		if (!head_valid) begin
			head_vc = '0;
			head_flits = '0;
			head_len = '0;
			head_data = '0;
		end
	end

	// ---- ready for the next cycle (link_xmit_ready) ----
	logic [QW-1:0] qc_n;			// the queue after the flit and the pop
	logic [NW-1:0] one, two, tails;
	logic [1:0] flits_n;			// flits that may come: 1, or 2 while ready
	logic [FW-1:0] left;
	logic ready_n;

	always_comb begin
		integer i;
		qc_n = qc0 + QW'(queued) - QW'(pop && head_valid);
		flits_n = flush ? 2'd1 : 2'd1 + 2'(ready);
		one = '0;
		two = '0;
		for (i = 0; i < VCS; i = i + 1) begin
			if (vc_ok && 3'(i) == v)
				left = exp_n - fl_n;
			else
				left = a_expect[i] - a_flits[i];
			if (asm_n[i]) begin
				one = one + NW'(left == 1);
				two = two + NW'(left == 2);
			end
		end
		if (HEAD_FLITS == 1)
			one = one + NW'(VCS);
		else if (HEAD_FLITS == 2)
			two = two + NW'(VCS);
		tails = one < NW'(flits_n) ? one : NW'(flits_n);
		if (tails < 1 && flits_n == 2 && two != 0)
			tails = 1;
		ready_n = up && 32'(TX_QUEUE) - 32'(qc_n) >= 32'(tails);
	end

	always_ff @(posedge clk) begin
		if (rst) begin
			ready <= 1'b0;
			ready_before <= 1'b0;
			assembling <= '0;
			discarding <= '0;
			q_count <= '0;
			q_head <= '0;
			q_tail <= '0;
		end else begin
			ready <= ready_n;
			ready_before <= flush ? 1'b0 : ready;
			assembling <= asm_n;
			discarding <= disc_n;
			q_count <= qc_n;
			q_head <= pop && head_valid ? (32'(qh0) + 1 == TX_QUEUE ? '0 : qh0 + 1'b1) : qh0;
			q_tail <= queued ? (32'(qt0) + 1 == TX_QUEUE ? '0 : qt0 + 1'b1) : qt0;
		end
	end

	// the buffers: no reset (a flag says what they hold)
	always_ff @(posedge clk) begin
		if (wr) begin
			a_flits[v[VW-1:0]] <= fl_n;
			a_expect[v[VW-1:0]] <= exp_n;
			a_len[v[VW-1:0]] <= len_n;
			a_data[v[VW-1:0]] <= pkt;
		end
		if (queued) begin
			qs_vc[qt0] <= flit_vc;
			qs_flits[qt0] <= fl_n;
			qs_len[qt0] <= len_n;
			qs_data[qt0] <= pkt;
		end
	end

	assign q_vc = q_count != 0 ? qs_vc[q_head] : '0;
	assign q_flits = q_count != 0 ? qs_flits[q_head] : '0;
	assign starved = q_count != 0 ? !q_peer_has : assembling == '0 && low_any;
endmodule
