// SPDX-License-Identifier: GPL-2.0
// The drop collector's functions, included inside a module that defines
// FW (flit bits), FLIT_BYTES and HB (header bits): the header of a packet
// being discarded is gathered from its flits, as the C model keeps the
// first LOOM_PKT_HDR_SIZE bytes for router_drop_pop().
	// add flit d to the have bytes gathered in hdr: {bytes gathered, header}
	function automatic [HB+6:0] collect(input logic [6:0] have, input logic [HB-1:0] hdr,
					      input logic [FW-1:0] d);
		integer b;
		logic [6:0] n;
		logic [HB-1:0] h;
		begin
			n = (32'(`LOOM_PKT_HDR_SIZE) - 32'(have)) > FLIT_BYTES ? 7'(FLIT_BYTES) :
			    7'(32'(`LOOM_PKT_HDR_SIZE) - 32'(have));
			h = hdr;
			for (b = 0; b < `LOOM_PKT_HDR_SIZE; b = b + 1)
				if (b >= 32'(have) && b < 32'(have) + 32'(n) && b - 32'(have) < FLIT_BYTES)
					h[8*b +: 8] = d[8*((b - 32'(have)) % FLIT_BYTES) +: 8];
			collect = {have + n, h};
		end
	endfunction

	// the header with the bytes beyond the n gathered cleared
	function automatic [HB-1:0] mask_hdr(input logic [HB-1:0] h, input logic [6:0] n);
		integer b;
		begin
			mask_hdr = h;
			for (b = 0; b < `LOOM_PKT_HDR_SIZE; b = b + 1)
				if (b >= 32'(n))
					mask_hdr[8*b +: 8] = 8'h00;
		end
	endfunction
