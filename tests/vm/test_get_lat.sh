#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom_get_lat and loom_atomic_lat in the VM lab (2 hosts): a get sweep
# 8 B..1 KiB and the three atomics complete with the perftest columns and
# consistent statistics (the atomic client also checks every fetched
# value), --json carries the same keys plus "op", bad options exit 2, and
# the guest kernel logs stay clean.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT

tap_plan 5
lab_start_test "lab with 2 hosts starts" --hosts 2

# rows: bytes iters min max typical avg stdev p99 p999 x_floor op
good_rows() { # file op iters
	awk -v op="$2" -v n="$3" '/^ [0-9]/ && $2 == n && $3 > 0 && $3 <= $5 && $5 <= $4 &&
		$3 <= $8 && $8 <= $9 && $9 <= $4 && $10 > 0 && $11 == op' "$1" | wc -l
}

lab_exec 1 loom_get_lat -n 30 >"$out/srv" 2>&1 &
srv=$!
lab_exec 0 loom_get_lat -n 30 -a --max-size 1K 1 >"$out/get" 2>&1
cli_rc=$?
wait $srv
srv_rc=$?
tap_diag "$(cat "$out/get")"
rows=$(good_rows "$out/get" get 30)
if [ $cli_rc = 0 ] && [ $srv_rc = 0 ] && [ "$rows" = 8 ] &&
   grep -q '^ #bytes .*t_typical\[usec\].*x_floor op$' "$out/get" &&
   grep -q '^# transport floor' "$out/get"; then
	tap_ok "loom_get_lat: 8 sizes 8 B..1 KiB with perftest columns and consistent statistics"
else
	tap_fail "loom_get_lat: 8 sizes 8 B..1 KiB (client $cli_rc, server $srv_rc, $rows good rows)"
fi

lab_exec 1 loom_atomic_lat -n 30 >"$out/srv" 2>&1 &
srv=$!
lab_exec 0 loom_atomic_lat -n 30 1 >"$out/amo" 2>&1
cli_rc=$?
wait $srv
srv_rc=$?
tap_diag "$(cat "$out/amo")"
n=0
for op in fetch_add swap cswap; do
	[ "$(good_rows "$out/amo" $op 30)" = 1 ] && n=$((n + 1))
done
if [ $cli_rc = 0 ] && [ $srv_rc = 0 ] && [ $n = 3 ]; then
	tap_ok "loom_atomic_lat: fetch_add, swap and cswap rows, every fetched value as expected"
else
	tap_fail "loom_atomic_lat: fetch_add, swap and cswap rows (client $cli_rc, server $srv_rc, $n good rows)"
fi

lab_exec 1 loom_atomic_lat -n 20 -m poll >"$out/srv" 2>&1 &
srv=$!
lab_exec 0 loom_atomic_lat -n 20 -m poll --json 1 >"$out/json" 2>&1
cli_rc=$?
wait $srv
tap_diag "$(cat "$out/json")"
if [ $cli_rc = 0 ] && python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
keys = {"bytes", "iterations", "t_min", "t_max", "t_typical", "t_avg", "t_stdev",
        "p99", "p99.9", "floor_rtt", "floor_poll_rtt", "x_floor", "mode", "op"}
assert [r["op"] for r in rows] == ["fetch_add", "swap", "cswap"], rows
for r in rows:
    assert set(r) == keys and r["bytes"] == 8 and r["mode"] == "poll", r
    assert 0 < r["t_min"] <= r["t_typical"] <= r["t_max"] and r["floor_rtt"] > 0, r
' "$out/json"; then
	tap_ok "poll mode with --json: three objects with the perftest keys and op"
else
	tap_fail "poll mode with --json: three objects with the perftest keys and op"
fi

bad=0
for args in "--size 0" "--mode spin" "1 2"; do
	for prog in loom_get_lat loom_atomic_lat; do
		# shellcheck disable=SC2086
		lab_exec 0 $prog $args >"$out/bad" 2>&1
		rc=$?
		if [ $rc != 2 ] || ! grep -q "$prog: " "$out/bad"; then
			tap_diag "$prog '$args' gave exit $rc: $(cat "$out/bad")"
			bad=$((bad + 1))
		fi
	done
done
if [ $bad = 0 ] && "$LOOM_LAB" check-log --dir "$LAB_DIR" >"$out/log" 2>&1; then
	tap_ok "bad options exit 2 with a message; guest kernel logs have no oops, BUG or warning"
else
	tap_diag "$(cat "$out/log")"
	tap_fail "bad options exit 2 with a message; guest kernel logs have no oops, BUG or warning"
fi
tap_done
