// SPDX-License-Identifier: GPL-2.0
//
// Credit return across a link (link/link_credit.c, struct link_credit),
// both directions of one end, per VC: cumulative counts modulo 2^32 that
// restart when the link trains.  In one cycle, in the order the link unit
// makes them (each result combinational in that cycle): train or down
// (alone), grants from the peer (upd_*, a VC mask and a value a VC: a
// header's grant on its VC, an ACK_CREDIT's on every VC, each VC's
// registers updated side by side; upd_ok is link_credit_valid, the
// update applies only when it holds), a DATA frame accepted
// (acc_*), a repeat of every grant (rep), the flits the router freed
// (freed, 8 bits a VC), the credit wires to the router (to_router:
// router_credits), a refund of dropped flits (ref_*), a packet sent
// (sent_*), the VC a header carries (pick: pick_vc, pick_value,
// pick_was_pending) and every VC advertised at once (adv: adv_any).
//
// Registers per VC: grant, advertised, received, occupied (toward the
// peer), granted, sent, withheld, owed (from the peer); the masks
// pending, owed_mask, deficit_mask, low_mask; the round-robin VC rr.
// PKT_FLITS, the flits of a maximal packet, follows from FLIT_BYTES.
`include "loom_hw.vh"

module loom_link_credit #(
	parameter integer VCS = `LINK_VCS_DEFAULT,
	parameter integer BUF_DEPTH = `LINK_BUF_DEPTH_DEFAULT,
	parameter integer FLIT_BYTES = `LINK_FLIT_BYTES_DEFAULT
) (
	input  logic clk,
	input  logic rst,
	input  logic train,
	input  logic down,
	input  logic [VCS-1:0] upd_valid,
	input  logic [32*VCS-1:0] upd_value,
	output logic [VCS-1:0] upd_ok,
	output logic [VCS-1:0] upd_gain,
	input  logic acc_valid,
	input  logic [2:0] acc_vc,
	input  logic [31:0] acc_flits,
	output logic acc_may,			// link_credit_may_accept before it
	input  logic rep,
	input  logic [8*VCS-1:0] freed,
	output logic [VCS-1:0] freed_ok,
	input  logic to_router,
	output logic [8*VCS-1:0] router_credits,
	output logic router_any,
	input  logic ref_valid,
	input  logic [2:0] ref_vc,
	input  logic [31:0] ref_flits,
	input  logic sent_valid,
	input  logic [2:0] sent_vc,
	input  logic [31:0] sent_flits,
	output logic sent_has,			// link_credit_peer_has before it
	input  logic pick,
	output logic [2:0] pick_vc,
	output logic [31:0] pick_value,
	output logic pick_was_pending,
	input  logic adv,
	output logic adv_any,
	// the registers: every VC's counts (VC v in bits 32v + 31 .. 32v), the masks
	output logic [32*VCS-1:0] q_grant,
	output logic [32*VCS-1:0] q_advertised,
	output logic [32*VCS-1:0] q_received,
	output logic [32*VCS-1:0] q_occupied,
	output logic [32*VCS-1:0] q_granted,
	output logic [32*VCS-1:0] q_sent,
	output logic [32*VCS-1:0] q_withheld,
	output logic [32*VCS-1:0] q_owed,
	output logic [VCS-1:0] pending,
	output logic [VCS-1:0] owed_mask,
	output logic [VCS-1:0] deficit_mask,
	output logic [VCS-1:0] low_mask,
	output logic [2:0] rr
);
	localparam logic [31:0] PKT_FLITS = 32'((`LOOM_PKT_HDR_SIZE + `LOOM_PKT_MAX_PAYLOAD +
						 FLIT_BYTES - 1) / FLIT_BYTES);
	localparam logic [31:0] DEPTH = 32'(BUF_DEPTH);
	localparam integer VW = VCS > 1 ? $clog2(VCS) : 1;

	if (VCS < `LINK_VCS_MIN || VCS > `LINK_VCS_MAX) begin : g_bad_vcs
		$error("link parameter VCS is outside LINK_VCS_MIN .. LINK_VCS_MAX (link_params.h)");
	end
	if (BUF_DEPTH < `LINK_BUF_DEPTH_MIN || BUF_DEPTH > `LINK_BUF_DEPTH_MAX) begin : g_bad_depth
		$error("link parameter BUF_DEPTH is outside LINK_BUF_DEPTH_MIN .. LINK_BUF_DEPTH_MAX (link_params.h)");
	end

	logic [31:0] r_grant [0:VCS-1], r_adv [0:VCS-1], r_recv [0:VCS-1], r_occ [0:VCS-1];
	logic [31:0] r_gtd [0:VCS-1], r_sent [0:VCS-1], r_with [0:VCS-1], r_owed [0:VCS-1];
	logic [VCS-1:0] r_pend, r_omask, r_def, r_low;
	logic [2:0] r_rr;

	logic [31:0] grant [0:VCS-1], advd [0:VCS-1], recv [0:VCS-1], occ [0:VCS-1];
	logic [31:0] gtd [0:VCS-1], snt [0:VCS-1], with_ [0:VCS-1], owed [0:VCS-1];
	logic [VCS-1:0] pend, omask, def, low, from_rr;
	logic [2:0] nrr;
	logic [31:0] gain, room, kept, n, have;
	logic found;
	logic [VW-1:0] av, fv, sv, pv;

	// the VC numbers as array indices (used only when below VCS)
	assign av = VW'(acc_vc);
	assign fv = VW'(ref_vc);
	assign sv = VW'(sent_vc);

	always_comb begin
		integer v;
		for (v = 0; v < VCS; v = v + 1) begin
			grant[v] = r_grant[v];
			advd[v] = r_adv[v];
			recv[v] = r_recv[v];
			occ[v] = r_occ[v];
			gtd[v] = r_gtd[v];
			snt[v] = r_sent[v];
			with_[v] = r_with[v];
			owed[v] = r_owed[v];
		end
		pend = r_pend;
		omask = r_omask;
		def = r_def;
		low = r_low;
		nrr = r_rr;
		upd_ok = '0;
		upd_gain = '0;
		acc_may = 1'b0;
		freed_ok = '1;
		router_credits = '0;
		router_any = 1'b0;
		sent_has = 1'b0;
		pick_vc = 3'd0;
		pick_value = 32'd0;
		pick_was_pending = 1'b0;
		adv_any = 1'b0;
		from_rr = '0;
		found = 1'b0;
		gain = 32'd0;
		room = 32'd0;
		kept = 32'd0;
		n = 32'd0;
		have = 32'd0;
		pv = '0;

		if (train) begin
			pend = '1;
			for (v = 0; v < VCS; v = v + 1) begin
				grant[v] = DEPTH - occ[v];
				advd[v] = DEPTH - occ[v] - 32'd1;
				recv[v] = 32'd0;
				gtd[v] = 32'd0;
				snt[v] = 32'd0;
				with_[v] = DEPTH;
				owed[v] = 32'd0;
				def[v] = DEPTH != 32'd0;
				low[v] = 32'd0 < PKT_FLITS;
			end
			omask = '0;
			nrr = 3'd0;
		end else if (down) begin
			for (v = 0; v < VCS; v = v + 1)
				owed[v] = 32'd0;
			omask = '0;
			pend = '0;
			def = '0;
			low = '0;
		end else begin
			// grants from the peer, each VC's its own
			for (v = 0; v < VCS; v = v + 1) begin
				gain = upd_value[32*v +: 32] - gtd[v];
				room = snt[v] + DEPTH - gtd[v];
`ifdef LOOM_MUTATE_LINK_CREDIT
				// deliberately wrong (mutation check): takes a grant one flit beyond the peer's buffer
				upd_ok[v] = gain <= room + 32'd1;
`else
				upd_ok[v] = gain <= room;
`endif
				if (upd_valid[v] && upd_ok[v] && gain != 32'd0) begin
					upd_gain[v] = 1'b1;
					kept = gain < with_[v] ? gain : with_[v];
					gtd[v] = upd_value[32*v +: 32];
					with_[v] = with_[v] - kept;
					if (gain > kept) begin
						owed[v] = owed[v] + gain - kept;
						omask[v] = 1'b1;
					end
					have = gtd[v] - snt[v];
					def[v] = gtd[v] != snt[v] + DEPTH;
					low[v] = have < PKT_FLITS;
				end
			end
			// a DATA frame accepted
			if (32'(acc_vc) < VCS) begin
				acc_may = grant[av] - recv[av] >= acc_flits;
				if (acc_valid) begin
					recv[av] = recv[av] + acc_flits;
					occ[av] = occ[av] + acc_flits;
				end
			end
			// every grant again
			if (rep) begin
				pend = '1;
				for (v = 0; v < VCS; v = v + 1)
					advd[v] = grant[v] - 32'd1;
			end
			// flits the router freed: never more than the buffer holds
			for (v = 0; v < VCS; v = v + 1) begin
				n = 32'(freed[8*v +: 8]);
				if (n > occ[v]) begin
					freed_ok[v] = 1'b0;
					n = occ[v];
				end
				occ[v] = occ[v] - n;
				grant[v] = grant[v] + n;
				if (n != 32'd0)
					pend[v] = 1'b1;
			end
			// the credit wires to the router, at most 255 a VC
			if (to_router) begin
				router_any = omask != '0;
				for (v = 0; v < VCS; v = v + 1)
					if (omask[v]) begin
						n = owed[v] > 32'd255 ? 32'd255 : owed[v];
						router_credits[8*v +: 8] = n[7:0];
						owed[v] = owed[v] - n;
						if (owed[v] == 32'd0)
							omask[v] = 1'b0;
					end
			end
			// a refund of dropped flits
			if (ref_valid && 32'(ref_vc) < VCS && ref_flits != 32'd0) begin
				owed[fv] = owed[fv] + ref_flits;
				omask[fv] = 1'b1;
			end
			// a packet on the cable
			if (32'(sent_vc) < VCS) begin
				sent_has = gtd[sv] - snt[sv] >= sent_flits;
				if (sent_valid) begin
					snt[sv] = snt[sv] + sent_flits;
					have = gtd[sv] - snt[sv];
					def[sv] = gtd[sv] != snt[sv] + DEPTH;
					low[sv] = have < PKT_FLITS;
				end
			end
			// the VC a header carries: the next pending one from rr, round robin
			pick_was_pending = pend != '0;
			pick_vc = r_rr;
			for (v = 0; v < VCS; v = v + 1)
				from_rr[v] = pend[v] && 32'(v) >= 32'(r_rr);
			for (v = VCS - 1; v >= 0; v = v - 1)
				if (from_rr[v]) begin
					pick_vc = 3'(v);
					found = 1'b1;
				end
			if (!found)
				for (v = VCS - 1; v >= 0; v = v - 1)
					if (pend[v])
						pick_vc = 3'(v);
			pv = VW'(pick_vc);
			pick_value = grant[pv];
			if (pick) begin
				advd[pv] = grant[pv];
				pend[pv] = 1'b0;
				nrr = 32'(pick_vc) + 1 == VCS ? 3'd0 : pick_vc + 3'd1;
			end
			// every VC advertised
			adv_any = pend != '0;
			if (adv) begin
				for (v = 0; v < VCS; v = v + 1)
					advd[v] = grant[v];
				pend = '0;
			end
		end
	end

	always_ff @(posedge clk) begin
		integer v;
		if (rst) begin
			// link_credit_init: trained, then down
			for (v = 0; v < VCS; v = v + 1) begin
				r_grant[v] <= DEPTH;
				r_adv[v] <= DEPTH - 32'd1;
				r_recv[v] <= 32'd0;
				r_occ[v] <= 32'd0;
				r_gtd[v] <= 32'd0;
				r_sent[v] <= 32'd0;
				r_with[v] <= DEPTH;
				r_owed[v] <= 32'd0;
			end
			r_pend <= '0;
			r_omask <= '0;
			r_def <= '0;
			r_low <= '0;
			r_rr <= 3'd0;
		end else begin
			for (v = 0; v < VCS; v = v + 1) begin
				r_grant[v] <= grant[v];
				r_adv[v] <= advd[v];
				r_recv[v] <= recv[v];
				r_occ[v] <= occ[v];
				r_gtd[v] <= gtd[v];
				r_sent[v] <= snt[v];
				r_with[v] <= with_[v];
				r_owed[v] <= owed[v];
			end
			r_pend <= pend;
			r_omask <= omask;
			r_def <= def;
			r_low <= low;
			r_rr <= nrr;
		end
	end

	genvar g;
	for (g = 0; g < VCS; g = g + 1) begin : g_view
		assign q_grant[32*g +: 32] = r_grant[g];
		assign q_advertised[32*g +: 32] = r_adv[g];
		assign q_received[32*g +: 32] = r_recv[g];
		assign q_occupied[32*g +: 32] = r_occ[g];
		assign q_granted[32*g +: 32] = r_gtd[g];
		assign q_sent[32*g +: 32] = r_sent[g];
		assign q_withheld[32*g +: 32] = r_with[g];
		assign q_owed[32*g +: 32] = r_owed[g];
	end
	assign pending = r_pend;
	assign owed_mask = r_omask;
	assign deficit_mask = r_def;
	assign low_mask = r_low;
	assign rr = r_rr;
endmodule
