// SPDX-License-Identifier: GPL-2.0
// The tile grid's row and column of a port (p / COLS and p % COLS) without a
// divider: a chain of comparisons with constants, exact for every PB-bit p.
// Include inside a module that has the parameters PB (bits of a port
// number) and COLS.
`ifndef LOOM_GRID_VH
`define LOOM_GRID_VH
`define LOOM_GRID_FNS \
	function automatic integer grid_row(input logic [PB-1:0] p); \
		integer r; \
		begin \
			grid_row = 0; \
			for (r = 1; r * COLS < (1 << PB); r = r + 1) \
				if (32'(p) >= r * COLS) \
					grid_row = r; \
		end \
	endfunction \
	function automatic integer grid_col(input logic [PB-1:0] p); \
		integer r; \
		begin \
			grid_col = 32'(p); \
			for (r = 1; r * COLS < (1 << PB); r = r + 1) \
				if (32'(p) >= r * COLS) \
					grid_col = 32'(p) - r * COLS; \
		end \
	endfunction
`endif
