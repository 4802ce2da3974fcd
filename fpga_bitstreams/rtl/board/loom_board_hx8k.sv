// SPDX-License-Identifier: GPL-2.0
//
// Board top for the iCE40-HX8K breakout board (ct256): the router
// (loom_router) with its network ports on I/O pins (loom_board_link, one
// per network port) and its host port and configuration port behind the
// serial bridge (loom_uart_bridge over loom_uart, the FTDI's second
// channel).  One clock: the board's 12 MHz oscillator.  Reset: the first
// 256 cycles after configuration.  The router's parameters are this
// module's, under the C model's names; the defaults are the bitstream's
// configuration (Documentation/hw/rtl.rst): PORTS 4, the host port and 3
// network ports, the most that fit the HX8K (up to 4 network ports have
// pins and LEDs), without the per-VC counters.  The counters, drop and debug
// outputs of the router are left unread, so synthesis removes them.
//
// LEDs: 0 heartbeat, 1 the bridge answered an error, 2 a link frame was
// cut short (both held until reset), 4..7 network ports 0..3 dead.
`include "loom_hw.vh"

module loom_board_hx8k #(
	parameter integer PORTS = 4,
	parameter integer VCS = 2,
	parameter integer VC_MODEL = 0,
	parameter integer FLIT_BYTES = 8,
	parameter integer BUF_DEPTH = 2,
	parameter integer WORMHOLE_VCS = 3,
	parameter integer ORG = `ROUTER_ORG_XBAR,
	parameter integer RT_ENTRIES = 16,
	parameter integer START_VC1_BITS = 32,
	parameter integer FP_TIMER_BITS = 12,
	parameter integer CREDIT_BITS = 4,
	parameter integer VALIANT = 0,		// no Valiant routing: it would not fit the HX8K
	parameter integer VC_COUNTERS = 0,	// no per-VC counters: unread, and the HX8K is full
	parameter integer WAR = 0,		// no DimWAR or OmniWAR either
	parameter integer UPROUTE = 0,		// nor adaptive up-routes
	parameter integer MCAST = 0,		// nor multicast
	parameter integer LINK_BITS = 2,
	parameter integer CLKS_PER_BIT = 104,
	parameter integer HEARTBEAT_BIT = 23
) (
	input  logic clk,
	input  logic uart_rx,
	output logic uart_tx,
	output logic [N_NET-1:0] link_tx_frame,
	output logic [N_NET*LINK_BITS-1:0] link_tx_d,
	input  logic [N_NET*VCS-1:0] link_cr_in,
	input  logic [N_NET-1:0] link_rx_frame,
	input  logic [N_NET*LINK_BITS-1:0] link_rx_d,
	output logic [N_NET*VCS-1:0] link_cr_out,
	output logic [7:0] led
);
	localparam integer N_NET = PORTS - 1;
	localparam integer FW = 8 * FLIT_BYTES;
	localparam integer HOST = PORTS - 1;
	localparam integer HB = 8 * `LOOM_PKT_HDR_SIZE;

	if (N_NET > 4) begin : g_chk_ports
		$error("board parameter PORTS: the LEDs show at most 4 network ports");
	end

	// ---- reset: held for the first 256 cycles ----
	logic [8:0] por = '0;
	logic rst;
	assign rst = !por[8];
	always_ff @(posedge clk)
		if (!por[8])
			por <= por + 1'b1;

	// ---- the router ----
	logic [PORTS-1:0] in_valid, in_head, in_tail, out_valid, out_head, out_tail, out_ready;
	logic [PORTS*3-1:0] in_vc, out_vc;
	logic [PORTS*FW-1:0] in_data, out_data;
	logic [PORTS*VCS*8-1:0] in_credit, out_credit;
	logic cfg_we;
	logic [1:0] cfg_blk;
	logic [`RTL_CFG_ADDR_BITS-1:0] cfg_addr, info_addr;
	logic [31:0] cfg_wdata, info_rdata;
	logic [PORTS-1:0] port_dead, port_event, drop_in_valid, drop_out_valid;
	logic [PORTS*3-1:0] drop_in_reason, drop_in_vc, drop_out_reason, drop_out_vc;
	logic [PORTS*8-1:0] drop_in_out_port;
	logic [PORTS*7-1:0] drop_in_bytes, drop_out_bytes;
	logic [PORTS*HB-1:0] drop_in_hdr, drop_out_hdr;
	logic [PORTS*VCS-1:0] drop_mc_valid;
	logic [PORTS*VCS*3-1:0] drop_mc_reason;
	logic [PORTS*VCS*8-1:0] drop_mc_out_port;
	logic [PORTS*VCS*7-1:0] drop_mc_bytes;
	logic [PORTS*VCS*HB-1:0] drop_mc_hdr;
	logic [PORTS*9*64-1:0] cnt_port;
	logic [(3+`ROUTE_DROP_REASONS)*64-1:0] cnt_glob;
	logic [PORTS*VCS*3*64-1:0] cnt_vc;
	logic [PORTS*VCS*2-1:0] vc_last;
	logic [PORTS*VCS*3-1:0] dbg_state;
	logic [PORTS*VCS*16-1:0] dbg_fill;

	loom_router #(
		.PORTS(PORTS), .HOST_PORTS(1), .VCS(VCS), .VC_MODEL(VC_MODEL),
		.FLIT_BYTES(FLIT_BYTES), .BUF_DEPTH(BUF_DEPTH), .WORMHOLE_VCS(WORMHOLE_VCS),
		.ORG(ORG), .RT_ENTRIES(RT_ENTRIES), .START_VC1_BITS(START_VC1_BITS),
		.FP_TIMER_BITS(FP_TIMER_BITS), .CREDIT_BITS(CREDIT_BITS), .VALIANT(VALIANT),
		.VC_COUNTERS(VC_COUNTERS),
		.WAR(WAR), .UPROUTE(UPROUTE), .MCAST(MCAST)
	) router (
		.clk, .rst,
		.in_valid, .in_head, .in_tail, .in_vc, .in_data, .in_credit,
		.out_valid, .out_head, .out_tail, .out_vc, .out_data, .out_ready, .out_credit,
		.cfg_we, .cfg_blk, .cfg_addr, .cfg_wdata, .info_addr, .info_rdata,
		.port_dead, .port_event,
		.drop_in_valid, .drop_in_reason, .drop_in_out_port, .drop_in_vc, .drop_in_bytes,
		.drop_in_hdr, .drop_out_valid, .drop_out_reason, .drop_out_vc, .drop_out_bytes,
		.drop_out_hdr, .drop_mc_valid, .drop_mc_reason, .drop_mc_out_port, .drop_mc_bytes,
		.drop_mc_hdr, .cnt_port, .cnt_glob, .cnt_vc, .vc_last, .dbg_state,
		.dbg_fill
	);

	// ---- the network ports ----
	logic [N_NET-1:0] link_err;
	for (genvar p = 0; p < N_NET; p = p + 1) begin : g_link
		loom_board_link #(.FLIT_BYTES(FLIT_BYTES), .VCS(VCS), .LINK_BITS(LINK_BITS)) link (
			.clk, .rst,
			.o_valid(out_valid[p]), .o_head(out_head[p]), .o_tail(out_tail[p]),
			.o_vc(out_vc[p*3 +: 3]), .o_data(out_data[p*FW +: FW]),
			.o_ready(out_ready[p]), .o_credit(out_credit[p*VCS*8 +: VCS*8]),
			.i_valid(in_valid[p]), .i_head(in_head[p]), .i_tail(in_tail[p]),
			.i_vc(in_vc[p*3 +: 3]), .i_data(in_data[p*FW +: FW]),
			.i_credit(in_credit[p*VCS*8 +: VCS*8]),
			.tx_frame(link_tx_frame[p]), .tx_d(link_tx_d[p*LINK_BITS +: LINK_BITS]),
			.cr_in(link_cr_in[p*VCS +: VCS]),
			.rx_frame(link_rx_frame[p]), .rx_d(link_rx_d[p*LINK_BITS +: LINK_BITS]),
			.cr_out(link_cr_out[p*VCS +: VCS]), .rx_err(link_err[p])
		);
	end

	// ---- the host port: UART and bridge ----
	logic [7:0] rx_data, tx_data;
	logic rx_valid, rx_err, tx_valid, tx_ready, bridge_err;

	loom_uart #(.CLKS_PER_BIT(CLKS_PER_BIT)) uart (
		.clk, .rst, .rx(uart_rx), .rx_data, .rx_valid, .rx_err,
		.tx_data, .tx_valid, .tx_ready, .tx(uart_tx)
	);

	loom_uart_bridge #(.FLIT_BYTES(FLIT_BYTES), .VCS(VCS), .BUF_DEPTH(BUF_DEPTH)) bridge (
		.clk, .rst, .rx_data, .rx_valid, .rx_err, .tx_data, .tx_valid, .tx_ready,
		.cfg_we, .cfg_blk, .cfg_addr, .cfg_wdata, .info_addr, .info_rdata,
		.in_valid(in_valid[HOST]), .in_head(in_head[HOST]), .in_tail(in_tail[HOST]),
		.in_vc(in_vc[HOST*3 +: 3]), .in_data(in_data[HOST*FW +: FW]),
		.in_credit(in_credit[HOST*VCS*8 +: VCS*8]),
		.out_valid(out_valid[HOST]), .out_head(out_head[HOST]), .out_tail(out_tail[HOST]),
		.out_vc(out_vc[HOST*3 +: 3]), .out_data(out_data[HOST*FW +: FW]),
		.out_ready(out_ready[HOST]), .out_credit(out_credit[HOST*VCS*8 +: VCS*8]),
		.err(bridge_err)
	);

	// ---- LEDs ----
	logic [HEARTBEAT_BIT:0] beat;
	logic seen_bridge_err, seen_link_err;
	always_ff @(posedge clk) begin
		if (rst) begin
			beat <= '0;
			seen_bridge_err <= 1'b0;
			seen_link_err <= 1'b0;
		end else begin
			beat <= beat + 1'b1;
			seen_bridge_err <= seen_bridge_err | bridge_err;
			seen_link_err <= seen_link_err | (|link_err);
		end
	end
	always_comb begin
		led = '0;
		led[0] = beat[HEARTBEAT_BIT];
		led[1] = seen_bridge_err;
		led[2] = seen_link_err;
		led[4 +: N_NET] = port_dead[N_NET-1:0];
	end

	logic unused;
	assign unused = ^{port_dead[HOST], port_event, drop_in_valid, drop_in_reason, drop_in_out_port,
			  drop_in_vc, drop_in_bytes, drop_in_hdr, drop_out_valid, drop_out_reason,
			  drop_out_vc, drop_out_bytes, drop_out_hdr, drop_mc_valid, drop_mc_reason,
			  drop_mc_out_port, drop_mc_bytes, drop_mc_hdr, cnt_port, cnt_glob, cnt_vc, vc_last,
			  dbg_state, dbg_fill, beat[HEARTBEAT_BIT-1:0]};
endmodule
