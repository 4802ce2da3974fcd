#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom_put_bw in the VM lab: a sweep completes with the perftest columns and
# sane figures (peak >= average > 0, message rate = average / size), --json
# carries the documented keys, poll mode works, bad options exit 2.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT

tap_plan 5
lab_start_test "lab with 2 hosts starts" --hosts 2

lab_exec 1 loom_put_bw >"$out/srv" 2>&1 &
srv=$!
lab_exec 0 loom_put_bw -a --max-size 4K -n 300 -D 16 1 >"$out/cli" 2>&1
cli_rc=$?
wait $srv
srv_rc=$?
tap_diag "$(cat "$out/cli")"
# rows: bytes iters peak avg rate; rate * bytes must equal avg (MB/s) within rounding
rows=$(awk '/^ [0-9]/ && $2 == 300 && $4 > 0 && $3 >= $4 &&
	    ($5 * $1 - $4 < 0.01 * $4 + 0.01) && ($4 - $5 * $1 < 0.01 * $4 + 0.01)' "$out/cli" | wc -l)
if [ $cli_rc = 0 ] && [ $srv_rc = 0 ] && [ "$rows" = 10 ] &&
   grep -q '^ #bytes .*BW peak\[MB/sec\] .*BW average\[MB/sec\] .*MsgRate\[Mpps\]' "$out/cli"; then
	tap_ok "sweep 8 B..4 KiB: perftest columns, peak >= average > 0, rate x size = average"
else
	tap_fail "sweep 8 B..4 KiB: perftest columns, peak >= average > 0, rate x size = average (client $cli_rc, server $srv_rc, $rows good rows)"
fi

lab_exec 1 loom_put_bw -m poll >"$out/srv" 2>&1 &
srv=$!
lab_exec 0 loom_put_bw -m poll -s 1K -n 200 -D 4 --cable-floor 1000 --json 1 >"$out/json" 2>&1
cli_rc=$?
wait $srv
tap_diag "$(cat "$out/json")"
if [ $cli_rc = 0 ] && python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
assert len(rows) == 1, rows
r = rows[0]
assert set(r) == {"bytes", "iterations", "bw_peak", "bw_avg", "msg_rate", "post_rate", "depth",
                  "mode", "cable_floor", "x_cable"}, r
assert r["bytes"] == 1024 and r["iterations"] == 200 and r["depth"] == 4 and r["mode"] == "poll"
assert r["bw_peak"] >= r["bw_avg"] > 0 and r["post_rate"] >= r["msg_rate"] > 0, r
assert r["cable_floor"] == 1000 and abs(r["x_cable"] - r["bw_avg"] / 1000) < 0.0001, r
' "$out/json"; then
	tap_ok "poll mode with --json and --cable-floor: one object with the documented keys, x_cable = average / floor"
else
	tap_fail "poll mode with --json and --cable-floor: one object with the documented keys, x_cable = average / floor"
fi

bad=0
for args in "--depth 0" "--depth 257" "--size 0" "--mode x" "-D" "--cable-floor 0" "--cable-floor x"; do
	# shellcheck disable=SC2086
	lab_exec 0 loom_put_bw $args >"$out/bad" 2>&1
	rc=$?
	if [ $rc != 2 ]; then
		tap_diag "'$args' gave exit $rc: $(cat "$out/bad")"
		bad=$((bad + 1))
	fi
done
tap_check "bad options exit 2" [ $bad = 0 ]
tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
