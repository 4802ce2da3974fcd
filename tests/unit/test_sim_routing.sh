#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim's routing algorithms beyond dimension order, each run beyond
# saturation where it must deliver every measured packet (deadlock
# freedom in the router as loom-fm's dependency check proved it on the
# tables): minimal adaptive (minhop) on a torus with its dimension-order
# escape paths, DimWAR on 2- and 3-dimensional HyperX.  DimWAR's packets
# deroute under load, at most once per dimension they had to correct
# (from the --trace lines: hops against the minimal hop count).
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

# deroutes NAME SIZES TRACE: some packets took more hops than minimal, none
# more than one extra per dimension it corrected
deroutes() {
	local name=$1 sizes=$2 trace=$3 got
	got=$(hyperx_hops "$sizes" "$trace" | awk '
		{
			n++
			if ($1 > $2) der++
			if ($1 < $2 || $1 > 2 * $2) bad++
		}
		END { printf "%d packets, %d derouted, %d outside minimal..2x minimal hops", n, der, bad }')
	if [[ $got =~ ^[1-9][0-9]*\ packets,\ [1-9][0-9]*\ derouted,\ 0\ outside ]]; then
		tap_ok "$name: $got"
	else
		tap_diag "$(head -5 "$trace")"
		tap_fail "$name: some packets derouted, every one within one deroute per dimension (got $got)"
	fi
}

tap_plan 5
delivers "4x4 torus, minhop (minimal adaptive, dor escape paths), uniform at load 1" \
	--topology torus:4x4 --engine minhop --load 1 --seed 7 --warmup 200 --cycles 1500
delivers "4x4 hyperx, dimwar, uniform at load 1" \
	--topology hyperx:4x4 --engine dimwar --load 1 --seed 7 --warmup 200 --cycles 1500 \
	--trace "$tmp/hx2.trace"
deroutes "4x4 hyperx, dimwar at load 1" 4x4 "$tmp/hx2.trace"
delivers "3x3x3 hyperx, dimwar, uniform at load 1" \
	--topology hyperx:3x3x3 --engine dimwar --load 1 --seed 8 --warmup 200 --cycles 1000 \
	--trace "$tmp/hx3.trace"
deroutes "3x3x3 hyperx, dimwar at load 1" 3x3x3 "$tmp/hx3.trace"
