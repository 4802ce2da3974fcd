// SPDX-License-Identifier: GPL-2.0
// Helpers for loom_flit_fifo users: the age of a FIFO's front flit.
`ifndef LOOM_FIFO_VH
`define LOOM_FIFO_VH
// Has the front flit been in the FIFO for at least a cycles (written at an
// edge ending cycle now - a or earlier)?  cnt flits, h the write history
// (bit i: a write at the edge ending now - 1 - i), off: flits taken out at
// the front first (0 or 1).
`define LOOM_AGE_GE_FN(NAME, CWIDTH, HWIDTH) \
	function automatic logic NAME(input logic [CWIDTH-1:0] cnt, input logic [HWIDTH-1:0] h, \
				      input integer a, input integer off); \
		integer k; \
		logic [7:0] young; \
		begin \
			young = 8'd0; \
			for (k = 0; k < HWIDTH; k = k + 1) \
				if (k < a - 1) \
					young = young + {7'd0, h[k]}; \
			NAME = 32'(cnt) > 32'(young) + off; \
		end \
	endfunction
`endif
