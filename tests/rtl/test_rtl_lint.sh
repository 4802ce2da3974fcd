#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The router RTL (fpga_bitstreams/rtl) is clean under
# 'verilator --lint-only -Wall': every module as its own top at its
# defaults, the router top as the card router (host + 8 ports, 7 VCs) and
# as a 2-D torus router (4 network ports + host, 4 generic VCs, crossbar),
# the link's CRC-32C and frame serialiser at their widest (4 lanes of 16
# bytes), the link's lanes never dropping with windows of one cycle, the
# link receiver's framer at its smallest window and one result a cycle,
# the link transmitter's packet assembly at one VC of 64-byte flits, its
# frame builder at one VC with no coalescing delay and a timeout of one
# cycle, its replay buffer of one frame, the receiver's delivery queue of
# one packet of 64-byte flits, its frame checker at one VC of 64-byte
# flits and a buffer of one flit;
# the host port at 8-byte flits with queues of one packet and at 64-byte
# flits; the generated
# headers in the build are what rtl_gen prints from the C sources now; a
# parameter set the RTL cannot build fails at elaboration with a message
# naming the parameter; no unary operator stands right before a size
# cast (Yosys 0.23 reads ~8'(x) as (~8)'(x)).  Each result is kept by the
# content hash of what it read (~/.cache/loom/rtl, or $LOOM_RTL_CACHE), so
# a rerun with nothing changed is quick, in this tree or a fresh clone.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
rtl=$top/fpga_bitstreams/rtl
gen=$build/rtl/gen
cache=${LOOM_RTL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loom/rtl}
if ! command -v verilator >/dev/null || [ ! -x "$build/rtl/rtl_gen" ]; then
	echo "1..1"
	echo "not ok 1 - verilator or build/rtl/rtl_gen missing (tools/deps/install-deps; make -C fpga_bitstreams rtl-gen)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$cache"
sv=("$rtl"/*.sv)
key() { # words... -> a hash of the words, the sources and the generated headers
	{ printf '%s\n' "$@"; verilator --version; cat "${sv[@]}" "$rtl"/*.vh "$gen"/*.vh; } |
		sha256sum | cut -c1-16
}
# lint TOP [FLAGS...]: cached verilator -Wall lint; the output in $tmp/lint
lint() {
	local k stamp
	k=$(key lint "$@")
	stamp=$cache/lint-$1-$k.ok
	[ -f "$stamp" ] && { : >"$tmp/lint"; return 0; }
	nice -n 10 verilator --lint-only -Wall -I"$rtl" -I"$gen" --top-module "$@" "${sv[@]}" \
		>"$tmp/lint" 2>&1 || return 1
	touch "$stamp"
}
# refuse [-top TOP KIND] WHAT-PARAM FLAGS...: elaboration of TOP (loom_router)
# fails, naming the KIND (router) parameter.  A parameter check is an
# elaboration-time \$error (a USERERROR warning): made an error that ends the
# run at once, the refused router is not linted whole (30 CPU-s cold).
refuse() {
	local rtop=loom_router kind=router name k stamp
	if [ "$1" = -top ]; then rtop=$2 kind=$3; shift 3; fi
	name=$1
	shift
	k=$(key refuse-first "$rtop" "$@")
	stamp=$cache/refuse-$rtop-$name-$k.ok
	if [ -f "$stamp" ]; then
		cp "$stamp" "$tmp/lint"
		return 0
	fi
	if verilator --lint-only -Wall -Werror-USERERROR --error-limit 1 -I"$rtl" -I"$gen" \
		--top-module "$rtop" "$@" "${sv[@]}" >"$tmp/lint" 2>&1; then
		return 1
	fi
	grep -q "$kind parameter $name" "$tmp/lint" || return 1
	grep -m1 "$kind parameter $name" "$tmp/lint" >"$stamp"
	cp "$stamp" "$tmp/lint"
}

# lint_check DESC TOP [FLAGS...]: one result, TOP lint-clean with FLAGS
lint_check() {
	local desc=$1
	shift
	if lint "$@"; then tap_ok "$desc: lint-clean"
	else tap_fail "$desc: not lint-clean"; tap_diag "$(head -30 "$tmp/lint")"; fi
}
# refuse_check DESC REFUSE-ARGS...: one result, refuse REFUSE-ARGS holds
refuse_check() {
	local desc=$1
	shift
	if refuse "$@"; then tap_ok "$desc is refused: $(head -1 "$tmp/lint")"
	else tap_fail "$desc is not refused naming the parameter"; tap_diag "$(head -20 "$tmp/lint")"; fi
}

tap_plan 28
"$build/rtl/rtl_gen" "$tmp" >/dev/null 2>&1
stale=
for f in "$tmp"/*.vh; do cmp -s "$f" "$gen/$(basename "$f")" || stale="$stale $(basename "$f")"; done
tap_check "the generated headers in $gen are what rtl_gen prints now (stale:${stale:- none})" \
	test -z "$stale"

bad=
for f in "${sv[@]}"; do
	m=$(basename "$f" .sv)
	lint "$m" || { bad="$bad $m"; tap_diag "$(head -20 "$tmp/lint")"; }
done
tap_check "every module lint-clean at its defaults (failing:${bad:- none})" test -z "$bad"

# Yosys 0.23 reads a unary operator right before a size cast as part of
# the size (~8'(x) as (~8)'(x)), so its netlist would differ from the RTL
unary=
for f in "${sv[@]}" "$rtl"/*.vh "$rtl"/board/*.sv; do
	u=$(sed 's|//.*||' "$f" | grep -nE "(~|!|(^|[-=(,?:&|^+*/<>])[[:space:]]*-)[[:space:]]*[\`A-Za-z0-9_]+'\(")
	[ -n "$u" ] && unary="$unary $(basename "$f"):${u%%:*}" && tap_diag "$(basename "$f"): $u"
done
tap_check "no unary operator right before a size cast (Yosys 0.23 takes it into the size; found:${unary:- none})" \
	test -z "$unary"

lint_check "router top, card router (host + 8 ports, 7 VCs)" loom_router
lint_check "router top, 2-D torus router (4 network + host port, 4 generic VCs, crossbar)" \
	loom_router -GPORTS=5 -GVCS=4 -GVC_MODEL=0 -GORG=1 -GROWS=1 -GCOLS=5
refuse_check "a 2x2 grid for 9 ports" PORTS -GROWS=2 -GCOLS=2
refuse_check "RT_ENTRIES 100" RT_ENTRIES -GRT_ENTRIES=100
refuse_check "VCS 9" VCS -GVCS=9
refuse_check "BUF_DEPTH 24 with credit counts of 4 bits" BUF_DEPTH -GCREDIT_BITS=4
lint_check "link CRC-32C at 4 lanes of 16 bytes (64 bytes a cycle)" loom_crc32c -GLANES=4 -GLANE_BYTES=16
refuse_check "a link CRC-32C of 3 lanes" -top loom_crc32c link LANES -GLANES=3
lint_check "link lanes at 2 lanes, never dropping, windows of one cycle" \
	loom_lanes -GLANES=2 -GLANE_THRESHOLD=0 -GLANE_WINDOW=1
refuse_check "a link lane unit with a window of 0 cycles" -top loom_lanes link LANE_WINDOW -GLANE_WINDOW=0
lint_check "link frame serialiser at 4 lanes of 16 bytes (3 frames a cycle)" \
	loom_link_xmit_serialise -GLANES=4 -GLANE_BYTES=16
refuse_check "a link frame serialiser of 3 lanes" -top loom_link_xmit_serialise link LANES -GLANES=3
lint_check "link receiver's framer at its smallest window, one result a cycle, 64 bytes a cycle" \
	loom_link_rx_framer -GRX_WINDOW=328 -GRX_FRAMES=1 -GLANES=4 -GLANE_BYTES=16 -GRX_BUF=1024
refuse_check "a link receiver's framer whose window is below a maximal frame" \
	-top loom_link_rx_framer link RX_WINDOW -GRX_WINDOW=327
lint_check "link packet assembly at 1 VC of 64-byte flits, a queue of one packet" \
	loom_link_xmit_assemble -GVCS=1 -GFLIT_BYTES=64 -GTX_QUEUE=1
refuse_check "a link packet assembly of 12-byte flits" \
	-top loom_link_xmit_assemble link FLIT_BYTES -GFLIT_BYTES=12
lint_check "link frame builder at 1 VC, no coalescing delay, a timeout of one cycle" \
	loom_link_xmit_build -GVCS=1 -GCOALESCE_DELAY=0 -GACK_TIMEOUT=1
refuse_check "a link frame builder with a coalescing delay beyond its maximum" \
	-top loom_link_xmit_build link COALESCE_DELAY -GCOALESCE_DELAY=65537
lint_check "link replay buffer of one frame" loom_link_xmit_replay -GREPLAY_FRAMES=1
lint_check "link delivery queue of one packet of 64-byte flits, one frame a cycle" \
	loom_link_recv_deliver -GFLIT_BYTES=64 -GRX_QUEUE=1 -GRX_FRAMES=1
lint_check "link frame checker at 1 VC of 64-byte flits, a buffer of one flit" \
	loom_link_recv -GVCS=1 -GFLIT_BYTES=64 -GBUF_DEPTH=1
refuse_check "a link frame checker of 9 VCs" -top loom_link_recv link VCS -GVCS=9
lint_check "host port at 8-byte flits, queues of one packet, buffers of one flit" \
	loom_host_port -GFLIT_BYTES=8 -GREQ_Q=1 -GRESP_Q=1 -GBAR_Q=1 -GBUF_DEPTH=1 -GDEPTH=1
lint_check "host port at 64-byte flits (a packet in one word)" loom_host_port -GFLIT_BYTES=64
refuse_check "a host port of 4-byte flits" -top loom_host_port "host port" FLIT_BYTES -GFLIT_BYTES=4
tap_done
