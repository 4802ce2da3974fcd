// SPDX-License-Identifier: GPL-2.0
//
// The serial bridge of the board top: the router's host port and its
// configuration port behind the UART (loom_uart), one byte stream each
// way.  The host sends one command and waits for its answer before the
// next; the bridge sends flits that leave the router's host port
// whenever no answer is due.  Multi-byte numbers are big-endian; flit
// bytes are in order, byte k being bits 8k+7:8k of the flit.
//
//   host -> bridge                          bridge -> host
//   'W' BLK A1 A0 D3 D2 D1 D0  write        'w'
//   'R' A1 A0                  INFO read    'r' D3 D2 D1 D0
//   'F' CTL B0 .. B(FB-1)      inject       'f' once the flit is in
//                                            the router
//                                           'P' CTL B0 .. B(FB-1): a flit
//                                            the router delivered
//   anything else                           'E' CODE
//
// CTL: bit 0 head, bit 1 tail, bits 4:2 the VC.  'W' writes cfg_blk BLK,
// cfg_addr A, cfg_wdata D (rtl_regs.h); 'R' reads the INFO block.  An
// injected flit waits until the bridge holds a credit of its VC (one per
// slot of the router's input buffer, BUF_DEPTH at reset, returned on
// in_credit).  Flits from the router are taken one at a time (ready) and
// their credit goes back as soon as the bridge has taken them.
//
// Errors, answered with 'E' and a code, the offending bytes dropped:
//   1 a command byte the bridge does not know
//   2 an 'F' whose VC is not below VCS
//   3 a byte with a low stop bit (a framing error on the serial line)
//   4 a byte that arrived while a command was still executing
//   5 a command left incomplete for TIMEOUT clock cycles
`include "loom_hw.vh"

module loom_uart_bridge #(
	parameter integer FLIT_BYTES = 8,
	parameter integer VCS = 2,
	parameter integer BUF_DEPTH = 4,
	parameter integer TIMEOUT = 1 << 20
) (
	input  logic clk,
	input  logic rst,
	// the UART
	input  logic [7:0] rx_data,
	input  logic rx_valid,
	input  logic rx_err,
	output logic [7:0] tx_data,
	output logic tx_valid,
	input  logic tx_ready,
	// the router's configuration port
	output logic cfg_we,
	output logic [1:0] cfg_blk,
	output logic [`RTL_CFG_ADDR_BITS-1:0] cfg_addr,
	output logic [31:0] cfg_wdata,
	output logic [`RTL_CFG_ADDR_BITS-1:0] info_addr,
	input  logic [31:0] info_rdata,
	// the router's host input port
	output logic in_valid,
	output logic in_head,
	output logic in_tail,
	output logic [2:0] in_vc,
	output logic [FW-1:0] in_data,
	input  logic [VCS*8-1:0] in_credit,
	// the router's host output port
	input  logic out_valid,
	input  logic out_head,
	input  logic out_tail,
	input  logic [2:0] out_vc,
	input  logic [FW-1:0] out_data,
	output logic out_ready,
	output logic [VCS*8-1:0] out_credit,
	// an error answer was sent (one cycle)
	output logic err
);
	localparam integer FW = 8 * FLIT_BYTES;
	localparam integer CB = FLIT_BYTES + 1;	// longest command payload ('F')
	localparam integer MB = FLIT_BYTES + 2;	// longest message ('P')
	localparam integer TW = $clog2(TIMEOUT + 1);
	localparam logic [7:0] C_W = 8'h57, C_R = 8'h52, C_F = 8'h46;
	localparam logic [7:0] A_W = 8'h77, A_R = 8'h72, A_F = 8'h66, A_P = 8'h50, A_E = 8'h45;
	localparam logic [7:0] E_CMD = 8'd1, E_VC = 8'd2, E_FRAME = 8'd3, E_BUSY = 8'd4,
			       E_TIMEOUT = 8'd5;

	if (FLIT_BYTES < 4) begin : g_chk_fb
		$error("bridge parameter FLIT_BYTES is below 4 (the answer buffer holds 5 bytes)");
	end
	if (VCS < 1 || VCS > 8) begin : g_chk_vcs
		$error("bridge parameter VCS is not within 1 .. 8");
	end
	if (BUF_DEPTH < 1 || BUF_DEPTH > 255) begin : g_chk_depth
		$error("bridge parameter BUF_DEPTH is not within 1 .. 255 (the credit counters are 8 bits)");
	end

	typedef enum logic [2:0] { S_CMD, S_ARGS, S_EXEC, S_READ, S_INJECT, S_ANSWER } state_t;
	state_t state;
	logic [7:0] cmd;
	logic [CB*8-1:0] args;		// the last byte received in bits 7:0
	logic [3:0] nargs, need;
	logic [TW-1:0] idle;

	// the answer to the current command, first byte in bits 39:32
	logic [39:0] ans;
	logic [2:0] ans_len;
	logic ans_due;
	// errors not tied to a command, each sent when the line is free
	logic e_frame, e_busy;

	// the flit taken from the router's host port: it stays in the
	// router's output register, which holds it while out_ready is low
	logic ob_full;
	logic [FW+4:0] ob;		// {data, vc, tail, head}
	assign ob = {out_data, out_vc, out_tail, out_head};

	// credits of the router's host input port, per VC
	logic [7:0] cred [0:VCS-1];

	// the message being sent, next byte in the top bits
	logic [MB*8-1:0] msg;
	logic [3:0] msg_left;

	always_comb begin
		case (cmd)
			C_W: need = 4'd7;
			C_R: need = 4'd2;
			default: need = 4'(CB);
		endcase
	end

	// the injected flit's bytes: the arguments, which stay until the next
	// command's bytes come in (in_valid is high in the cycle after S_INJECT)
	always_comb begin
		integer v;
		for (v = 0; v < FLIT_BYTES; v = v + 1)
			in_data[v*8 +: 8] = args[(FLIT_BYTES-1-v)*8 +: 8];
	end

	logic [2:0] fvc;
	logic [7:0] fctl;
	assign fctl = args[FLIT_BYTES*8 +: 8];
	assign fvc = fctl[4:2];
	logic fcred;		// a credit of the flit's VC
	always_comb begin
		integer v;
		fcred = 1'b0;
		for (v = 0; v < VCS; v = v + 1)
			if (32'(fvc) == v && cred[v] != 8'd0)
				fcred = 1'b1;
	end

	always_ff @(posedge clk) begin
		integer v;
		if (rst) begin
			state <= S_CMD;
			cmd <= '0;
			args <= '0;
			nargs <= '0;
			idle <= '0;
			ans <= '0;
			ans_len <= '0;
			ans_due <= 1'b0;
			e_frame <= 1'b0;
			e_busy <= 1'b0;
			cfg_we <= 1'b0;
			cfg_blk <= '0;
			cfg_addr <= '0;
			cfg_wdata <= '0;
			info_addr <= '0;
			in_valid <= 1'b0;
			in_head <= 1'b0;
			in_tail <= 1'b0;
			in_vc <= '0;
			for (v = 0; v < VCS; v = v + 1)
				cred[v] <= 8'(BUF_DEPTH);
		end else begin
			cfg_we <= 1'b0;
			in_valid <= 1'b0;
			for (v = 0; v < VCS; v = v + 1)
				cred[v] <= cred[v] + in_credit[v*8 +: 8] -
					   8'(in_valid && 32'(in_vc) == v);
			if (rx_err)
				e_frame <= 1'b1;
			case (state)
			S_CMD:
				if (rx_valid) begin
					cmd <= rx_data;
					nargs <= '0;
					idle <= '0;
					if (rx_data == C_W || rx_data == C_R || rx_data == C_F) begin
						state <= S_ARGS;
					end else begin
						ans <= {A_E, E_CMD, 24'd0};
						ans_len <= 3'd2;
						ans_due <= 1'b1;
						state <= S_ANSWER;
					end
				end
			S_ARGS:
				if (rx_valid) begin
					args <= {args[CB*8-9:0], rx_data};
					nargs <= nargs + 1'b1;
					idle <= '0;
					if (nargs + 1'b1 == need)
						state <= S_EXEC;
				end else if (32'(idle) == TIMEOUT) begin
					ans <= {A_E, E_TIMEOUT, 24'd0};
					ans_len <= 3'd2;
					ans_due <= 1'b1;
					state <= S_ANSWER;
				end else begin
					idle <= idle + 1'b1;
				end
			S_EXEC:
				if (cmd == C_W) begin
					cfg_we <= 1'b1;
					cfg_blk <= args[49:48];
					cfg_addr <= args[32 +: `RTL_CFG_ADDR_BITS];
					cfg_wdata <= args[31:0];
					ans <= {A_W, 32'd0};
					ans_len <= 3'd1;
					ans_due <= 1'b1;
					state <= S_ANSWER;
				end else if (cmd == C_R) begin
					info_addr <= args[0 +: `RTL_CFG_ADDR_BITS];
					state <= S_READ;
				end else if (32'(fvc) >= VCS) begin
					ans <= {A_E, E_VC, 24'd0};
					ans_len <= 3'd2;
					ans_due <= 1'b1;
					state <= S_ANSWER;
				end else begin
					state <= S_INJECT;
				end
			S_READ: begin
				ans <= {A_R, info_rdata};
				ans_len <= 3'd5;
				ans_due <= 1'b1;
				state <= S_ANSWER;
			end
			S_INJECT:
				// in_valid of the last edge is in cred already: wait one cycle after it
				if (!in_valid && fcred) begin
					in_valid <= 1'b1;
					in_head <= fctl[0];
					in_tail <= fctl[1];
					in_vc <= fvc;
					ans <= {A_F, 32'd0};
					ans_len <= 3'd1;
					ans_due <= 1'b1;
					state <= S_ANSWER;
				end
			default:	// S_ANSWER: until the sender has taken the answer
				if (!ans_due)
					state <= S_CMD;
			endcase
			if (rx_valid && state != S_CMD && state != S_ARGS)
				e_busy <= 1'b1;
			if (load_ans)
				ans_due <= 1'b0;
			if (load_frame)
				e_frame <= 1'b0;
			if (load_busy)
				e_busy <= 1'b0;
		end
	end

	// ---- the flit from the router's host output port ----
	// ready high in cycle t: a flit may come in t + 1 (chan.h)
	assign out_ready = !ob_full && !out_valid;
	logic load_ans, load_frame, load_busy, load_flit, idle_line;
	assign idle_line = msg_left == '0;
	assign load_ans = idle_line && ans_due;
	assign load_frame = idle_line && !ans_due && e_frame;
	assign load_busy = idle_line && !ans_due && !e_frame && e_busy;
	assign load_flit = idle_line && !ans_due && !e_frame && !e_busy && ob_full;

	always_ff @(posedge clk) begin
		integer v;
		if (rst) begin
			ob_full <= 1'b0;
			out_credit <= '0;
		end else begin
			out_credit <= '0;
			if (out_valid) begin
				ob_full <= 1'b1;
				for (v = 0; v < VCS; v = v + 1)
					if (32'(out_vc) == v)
						out_credit[v*8 +: 8] <= 8'd1;
			end else if (load_flit) begin
				ob_full <= 1'b0;
			end
		end
	end

	// ---- the sender: one message at a time ----
	logic [FW-1:0] ob_bytes;	// the flit's bytes, byte 0 in the top bits
	always_comb begin
		integer v;
		for (v = 0; v < FLIT_BYTES; v = v + 1)
			ob_bytes[(FLIT_BYTES-1-v)*8 +: 8] = ob[5 + v*8 +: 8];
	end

	assign tx_data = msg[MB*8-1 -: 8];
	assign tx_valid = msg_left != '0;
	assign err = (load_ans && ans[39:32] == A_E) || load_frame || load_busy;

	always_ff @(posedge clk) begin
		if (rst) begin
			msg <= '0;
			msg_left <= '0;
		end else if (msg_left != '0) begin
			if (tx_ready) begin
				msg <= msg << 8;
				msg_left <= msg_left - 1'b1;
			end
		end else if (load_ans) begin
			msg <= {ans, {(MB-5)*8{1'b0}}};
			msg_left <= 4'(ans_len);
		end else if (load_frame) begin
			msg <= {A_E, E_FRAME, {(MB-2)*8{1'b0}}};
			msg_left <= 4'd2;
		end else if (load_busy) begin
			msg <= {A_E, E_BUSY, {(MB-2)*8{1'b0}}};
			msg_left <= 4'd2;
		end else if (load_flit) begin
			msg <= {A_P, 3'b000, ob[4:2], ob[1], ob[0], ob_bytes};
			msg_left <= 4'(MB);
		end
	end

	logic unused;
	assign unused = ^fctl[7:5];
endmodule
