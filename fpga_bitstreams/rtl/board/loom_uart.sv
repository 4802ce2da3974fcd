// SPDX-License-Identifier: GPL-2.0
//
// UART of the board top: 8 data bits, no parity, one stop bit, LSB first,
// CLKS_PER_BIT clock cycles a bit (12 MHz / 115200 baud: 104).  The
// receiver synchronises the line with two registers, finds the start bit
// by its falling edge, checks it again half a bit later and samples every
// bit in its middle; a byte whose stop bit is low is not delivered and
// raises rx_err for one cycle instead.  The transmitter sends one byte
// at a time: tx_ready is high while it is idle, and a byte offered with
// tx_valid while it is ready is taken at that edge.
module loom_uart #(
	parameter integer CLKS_PER_BIT = 104
) (
	input  logic clk,
	input  logic rst,
	input  logic rx,
	output logic [7:0] rx_data,
	output logic rx_valid,
	output logic rx_err,
	input  logic [7:0] tx_data,
	input  logic tx_valid,
	output logic tx_ready,
	output logic tx
);
	localparam integer CW = $clog2(CLKS_PER_BIT + 1);

	if (CLKS_PER_BIT < 4) begin : g_chk_cpb
		$error("UART parameter CLKS_PER_BIT is below 4 (the receiver samples in the middle of a bit)");
	end

	// ---- receiver ----
	logic [1:0] rx_sync;
	logic rx_busy;
	logic [CW-1:0] rx_cnt;
	logic [3:0] rx_bit;	// 0: start bit, 1..8: data, 9: stop bit
	logic [7:0] rx_shift;

	always_ff @(posedge clk) begin
		if (rst) begin
			rx_sync <= 2'b11;
			rx_busy <= 1'b0;
			rx_cnt <= '0;
			rx_bit <= '0;
			rx_shift <= '0;
			rx_data <= '0;
			rx_valid <= 1'b0;
			rx_err <= 1'b0;
		end else begin
			rx_sync <= {rx_sync[0], rx};
			rx_valid <= 1'b0;
			rx_err <= 1'b0;
			if (!rx_busy) begin
				if (!rx_sync[1]) begin
					// a falling edge: look again in the middle of the start bit
					rx_busy <= 1'b1;
					rx_bit <= '0;
					rx_cnt <= CW'(CLKS_PER_BIT / 2 - 1);
				end
			end else if (rx_cnt != '0) begin
				rx_cnt <= rx_cnt - 1'b1;
			end else begin
				rx_cnt <= CW'(CLKS_PER_BIT - 1);
				rx_bit <= rx_bit + 1'b1;
				if (rx_bit == 4'd0) begin
					if (rx_sync[1])		// a glitch, not a start bit
						rx_busy <= 1'b0;
				end else if (rx_bit <= 4'd8) begin
					rx_shift <= {rx_sync[1], rx_shift[7:1]};
				end else begin
					rx_busy <= 1'b0;
					if (rx_sync[1]) begin
						rx_data <= rx_shift;
						rx_valid <= 1'b1;
					end else begin
						rx_err <= 1'b1;
					end
				end
			end
		end
	end

	// ---- transmitter ----
	logic [8:0] tx_shift;	// what is left to send after the current bit
	logic [3:0] tx_left;	// bits left, the current one included
	logic [CW-1:0] tx_cnt;

	assign tx_ready = tx_left == '0;

	always_ff @(posedge clk) begin
		if (rst) begin
			tx <= 1'b1;
			tx_shift <= '1;
			tx_left <= '0;
			tx_cnt <= '0;
		end else if (tx_left == '0) begin
			if (tx_valid) begin
				tx <= 1'b0;	// the start bit
				tx_shift <= {1'b1, tx_data};
				tx_left <= 4'd10;
				tx_cnt <= CW'(CLKS_PER_BIT - 1);
			end
		end else if (tx_cnt != '0) begin
			tx_cnt <= tx_cnt - 1'b1;
		end else begin
			tx_cnt <= CW'(CLKS_PER_BIT - 1);
			tx_left <= tx_left - 1'b1;
			tx <= tx_left == 4'd1 ? 1'b1 : tx_shift[0];
			tx_shift <= {1'b1, tx_shift[8:1]};
		end
	end
endmodule
