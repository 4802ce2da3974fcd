#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom_put_bw in the VM lab: a sweep completes with the perftest columns and
# sane figures (peak >= average > 0, message rate = average / size), --json
# carries the documented keys, poll mode works, bad options exit 2; the
# lab records the traffic of a run (loom-lab record) and loom-sim replays
# it.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT

tap_plan 7
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

# record a run of 100 puts of 1 KiB (4 packets each), then replay it
mkdir "$out/rec"
"$LOOM_LAB" record --dir "$LAB_DIR" "$out/rec" >"$out/rec.log" 2>&1
rec_rc=$?
lab_exec 1 loom_put_bw -m poll >"$out/srv" 2>&1 &
srv=$!
lab_exec 0 loom_put_bw -m poll -s 1K -n 100 -D 4 1 >"$out/cli" 2>&1
cli_rc=$?
wait $srv
"$LOOM_LAB" record --dir "$LAB_DIR" off >>"$out/rec.log" 2>&1
off_rc=$?
tap_diag "$(cat "$out/rec.log")"
n0=$(grep -c . "$out/rec/card0.trace" 2>/dev/null)
puts=$(awk '$2 == 1 && $3 == "put" && $4 == 256 && $5 == 0' "$out/rec/card0.trace" 2>/dev/null | wc -l)
said=$(sed -n 's/^node 0: record off packets //p' "$out/rec.log")
hint=$(grep -c '^replay: loom-sim --topology ring:2 --replay' "$out/rec.log")
tap_check "loom-lab record: card 0 recorded its 400 packets of 256 bytes to node 1 ($puts) and 'record off' counts its lines ($said of $((n0 - 2))) and prints the replay command ($hint)" \
	sh -c "[ $rec_rc = 0 ] && [ $off_rc = 0 ] && [ $cli_rc = 0 ] && [ $puts -ge 400 ] && [ '$said' = $((n0 - 2)) ] && [ '$hint' = 1 ]"
"$loom_build/bin/loom-sim" --topology ring:2 --replay "$out/rec/card0.trace" \
	--replay "$out/rec/card1.trace" -j >"$out/replay.json" 2>"$out/replay.err"
sim_rc=$?
got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(d["result"], d["replay"]["requests"], d["packets"])' "$out/replay.json" 2>&1)
tap_diag "loom-sim: exit $sim_rc; result, requests, packets: $got; $(head -3 "$out/replay.err")"
tap_check "loom-sim --replay of the recording: every recorded request delivered ($got)" \
	sh -c "[ $sim_rc = 0 ] && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (d[\"result\"] == \"ok\" and d[\"replay\"][\"requests\"] >= 400 and d[\"packets\"] >= d[\"replay\"][\"requests\"]))' '$out/replay.json'"

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
