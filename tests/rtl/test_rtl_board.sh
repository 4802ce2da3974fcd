#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The board top for the iCE40-HX8K breakout board (fpga_bitstreams/rtl/board):
# its modules are clean under 'verilator --lint-only -Wall' (each as its
# own top, and the board top with the router in it), and the Verilated
# board top, driven on its pins only (build/rtl/board_test), answers the
# serial bridge's commands: INFO reads, routing-table writes, a packet in
# and back out through the bridge, a packet out on a network port's pins
# and one in on another's, and error answers to bad commands.  The lint
# results are kept by the content hash of what they read (like
# test_rtl_lint.sh).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
rtl=$top/fpga_bitstreams/rtl
gen=$build/rtl/gen
bin=$build/rtl/board_test
cache=${LOOM_RTL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loom/rtl}
if ! command -v verilator >/dev/null || [ ! -x "$bin" ]; then
	echo "1..1"
	echo "not ok 1 - verilator or $bin missing (tools/deps/install-deps; make -C fpga_bitstreams rtl-board)"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$cache"
sv=()
for f in "$rtl"/*.sv "$rtl"/board/*.sv; do sv+=("$f"); done

tap_plan 9

# lint: each board module as top, then the board top with the router
k=$({ verilator --version; cat "${sv[@]}" "$rtl"/*.vh "$gen"/*.vh; } | sha256sum | cut -c1-16)
stamp=$cache/lint-board-$k.ok
bad=
if [ ! -f "$stamp" ]; then
	for m in loom_uart loom_uart_bridge loom_board_link loom_board_hx8k; do
		nice -n 10 verilator --lint-only -Wall -I"$rtl" -I"$gen" --top-module $m "${sv[@]}" \
			>"$tmp/lint" 2>&1 || { bad="$bad $m"; tap_diag "$(cat "$tmp/lint")"; }
	done
	[ -n "$bad" ] || touch "$stamp"
fi
if [ -z "$bad" ]; then
	tap_ok "verilator --lint-only -Wall: loom_uart, loom_uart_bridge, loom_board_link, loom_board_hx8k"
else
	tap_fail "verilator --lint-only -Wall: warnings in$bad"
fi

# the pins-only test of the board top: its own TAP, relayed
"$bin" >"$tmp/out" 2>&1
rc=$?
n=$(grep -c '^\(not \)\?ok ' "$tmp/out")
while IFS= read -r line; do
	case "$line" in
	"ok "*) tap_ok "board: ${line#ok [0-9]* - }" ;;
	"not ok "*) tap_fail "board: ${line#not ok [0-9]* - }" ;;
	"1.."*) ;;
	*) tap_diag "$line" ;;
	esac
done <"$tmp/out"
# a run that stopped early: the results it did not print fail
while [ "$n" -lt 8 ]; do
	n=$((n + 1))
	tap_fail "board_test result $n missing (exit status $rc)"
done
tap_done
