#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim --replay of recorded traces (the card emulator's --record
# format): every recorded request is sent at its cycle, files of two cards
# aligned by their start_ns, gets and atomics answered with the recorded
# sizes; traces that are not traces, bad records, destinations beyond the
# fabric, records out of order, two files of one node, and --replay with a
# pattern option are refused, naming the file and line or the option.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

# trace FILE NODE START_CYCLE START_NS RECORD-LINES...
trace() {
	local f=$1 node=$2 sc=$3 ns=$4
	shift 4
	{
		echo "# loom packet trace 1"
		echo "# node $node clock_khz 125000 start_cycle $sc start_ns $ns"
		printf '%s\n' "$@"
	} >"$f"
}

tap_plan 10
trace "$tmp/a" 0 1000 5000000 "1000 1 put 256 0" "1010 2 get 0 256" "1020 3 amo 16 8" "2000 1 put 8 0"
trace "$tmp/b" 1 77 5001000 "77 0 put 64 0"
if "$sim" --topology torus:2x2 --replay "$tmp/a" --replay "$tmp/b" --trace "$tmp/t" -j >"$tmp/j" 2>"$tmp/e"; then
	# delivered: src dst created delivered hops latency flits type
	got=$(awk '{ printf "%s>%s@%s:%s:%s ", $1, $2, $3, $7, $8 }' "$tmp/t")
	want="0>1@0:19:put 0>2@10:3:get 0>3@20:4:amo 2>0@41:19:get-resp 3>0@56:4:amo-resp 1>0@125:7:put 0>1@1000:4:put "
	tap_check "replayed at the recorded cycles, node 1 shifted by 1 us = 125 cycles, answers of the recorded sizes (got '$got')" \
		test "$got" = "$want"
	tap_check "the result says replay, 5 requests, result ok ($(sim_json "$tmp/j" 'd["pattern"], d["replay"], d["result"]'))" \
		test "$(sim_json "$tmp/j" 'd["pattern"] == "replay" and d["replay"] == {"files": 2, "requests": 5} and d["result"] == "ok"')" = True
else
	tap_diag "$(cat "$tmp/e")"
	tap_fail "replay of two traces: the run failed"
	tap_fail "replay of two traces: no result"
fi

# refused FILE-CONTENT... : the message expected, as "refused MESSAGE EXIT ARGS..."
refused() {
	local msg=$1 code=$2
	shift 2
	"$sim" --topology torus:2x2 "$@" >"$tmp/o" 2>"$tmp/e"
	local r=$?
	if [ $r = "$code" ] && grep -qF -- "$msg" "$tmp/e"; then
		tap_ok "refused, exit $code: $(cat "$tmp/e")"
	else
		tap_diag "exit $r; stderr: $(cat "$tmp/e"); stdout: $(head -3 "$tmp/o")"
		tap_fail "$* refused with exit $code and '$msg'"
	fi
}
echo "hello" >"$tmp/not"
refused "--replay $tmp/not:1: not a loom packet trace" 1 --replay "$tmp/not"
trace "$tmp/bad" 0 0 0 "5 1 put 8 0" "6 1 frob 8 0"
refused "--replay $tmp/bad:4: type 'frob': expected put, get or amo" 1 --replay "$tmp/bad"
trace "$tmp/far" 0 0 0 "5 9 put 8 0"
refused "--replay $tmp/far:3: destination 9 is not a terminal of torus:2x2 (4 terminals)" 1 --replay "$tmp/far"
trace "$tmp/order" 0 0 0 "9 1 put 8 0" "5 1 put 8 0"
refused "--replay $tmp/order:4: cycle 5 after 9: the records must be in time order" 1 --replay "$tmp/order"
trace "$tmp/big" 0 0 0 "5 1 put 300 0"
refused "--replay $tmp/big:3: 300 bytes asking 0 back: a packet carries at most 256 bytes" 1 --replay "$tmp/big"
refused "both are node 0's trace" 1 --replay "$tmp/a" --replay "$tmp/far"
refused "--pattern: with --replay the terminals send the recorded requests" 2 --replay "$tmp/a" --pattern tornado
refused "--replay $tmp/none: cannot open: No such file or directory" 1 --replay "$tmp/none"
tap_done
