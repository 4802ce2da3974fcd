// SPDX-License-Identifier: GPL-2.0
// route_vc_of (router/route.c), included inside a module: the cable VC of
// a class with the card's VCs (3 bits; 7 for none).
	function automatic [2:0] vc_of(input logic [7:0] c, input logic vc1, input logic adaptive);
		case (32'(c))
		`LOOM_CLASS_REQ: vc_of = adaptive ? 3'(`LOOM_VC_REQ_ADAPT) :
			vc1 ? 3'(`LOOM_VC_REQ1) : 3'(`LOOM_VC_REQ0);
		`LOOM_CLASS_RESP: vc_of = adaptive ? 3'(`LOOM_VC_RESP_ADAPT) :
			vc1 ? 3'(`LOOM_VC_RESP1) : 3'(`LOOM_VC_RESP0);
		`LOOM_CLASS_BARRIER: vc_of = 3'(`LOOM_VC_BARRIER);
		default: vc_of = 3'd7;
		endcase
	endfunction
