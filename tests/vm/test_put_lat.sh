#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom_put_lat in the VM lab: a client and a server on two hosts complete a
# ping-pong sweep, the table has the perftest columns with consistent
# statistics, --json carries the same keys, both completion modes work, a
# client without a server fails with a clear message, bad options exit 2.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
. "$here/../lib/lab_usage.sh"
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT

tap_plan 7
lab_start_test "lab with 2 hosts starts" --hosts 2

lab_exec 1 loom_put_lat -n 50 >"$out/srv" 2>&1 &
srv=$!
lab_exec 0 loom_put_lat -n 50 -a --max-size 1K 1 >"$out/cli" 2>&1
cli_rc=$?
wait $srv
srv_rc=$?
tap_diag "$(cat "$out/cli")"
# rows: bytes iters min max typical avg stdev p99 p999 x_floor
rows=$(awk '/^ [0-9]/ && $2 == 50 && $3 <= $5 && $5 <= $4 && $3 <= $8 && $8 <= $9 && $9 <= $4 && $10 > 0' "$out/cli" | wc -l)
if [ $cli_rc = 0 ] && [ $srv_rc = 0 ] && [ "$rows" = 8 ] &&
   grep -q '^ #bytes .*t_typical\[usec\].*99% percentile\[usec\] 99.9% percentile\[usec\]' "$out/cli" &&
   grep -q '^# transport floor' "$out/cli"; then
	tap_ok "interrupt mode: 8 sizes 8 B..1 KiB with perftest columns and consistent statistics"
else
	tap_fail "interrupt mode: 8 sizes 8 B..1 KiB with perftest columns and consistent statistics (client $cli_rc, server $srv_rc, $rows good rows)"
fi
header_ok() {
	grep -qE '^# transport floor .*: polled t_typical [0-9.]+ usec, 99% [0-9.]+ usec; interrupt t_typical [0-9.]+ usec' "$out/cli" &&
		grep -q '^# x_floor: t_typical / the interrupt floor' "$out/cli" &&
		grep -q '^# busy polling before sleeping: at most 50 usec (LOOM_BUSY_POLL)' "$out/cli" &&
		grep -q "^# placement: host 0: .*; host 1: " "$out/cli"
}
tap_check "the header has both floors, the busy-poll ceiling and the lab's placement" header_ok

lab_exec 1 loom_put_lat -n 50 -m poll >"$out/srv" 2>&1 &
srv=$!
lab_exec 0 loom_put_lat -n 50 -m poll -s 64 --json 1 >"$out/json" 2>&1
cli_rc=$?
wait $srv
tap_diag "$(cat "$out/json")"
if [ $cli_rc = 0 ] && python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
keys = {"bytes", "iterations", "t_min", "t_max", "t_typical", "t_avg", "t_stdev",
        "p99", "p99.9", "floor_rtt", "floor_poll_rtt", "x_floor", "mode", "op"}
assert len(rows) == 1 and set(rows[0]) == keys, rows
r = rows[0]
assert r["bytes"] == 64 and r["mode"] == "poll" and r["iterations"] == 50 and r["op"] == "put"
assert r["floor_rtt"] == r["floor_poll_rtt"], r   # poll mode: its floor is the polled one
assert 0 < r["t_min"] <= r["t_typical"] <= r["t_max"] and r["floor_rtt"] > 0
' "$out/json"; then
	tap_ok "poll mode with --json: one object with the perftest keys"
else
	tap_fail "poll mode with --json: one object with the perftest keys"
fi

lab_exec 0 loom_put_lat -n 5 -T 3 1 >"$out/nosrv" 2>&1
rc=$?
if [ $rc = 1 ] && grep -q 'no server on node 1 context 40' "$out/nosrv"; then
	tap_ok "a client with no server fails after its timeout and says so"
else
	tap_diag "$(cat "$out/nosrv")"
	tap_fail "a client with no server fails after its timeout and says so (exit $rc)"
fi

lab_usage_errors "$out/bad" loom_put_lat "--size 0" "--size 2M" "--mode spin" "--iters x" "1 2" "--max-size 4"
tap_check "bad options exit 2 with a message naming the option" test $? = 0

tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
