#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-bench (make bench) without a lab: bad options exit 2 with a message
# naming the option before any lab starts; --report turns a results.json
# into the tables (the registration times too), the goal ratios (checked against figures worked out by
# hand), the CSV files and PNG plots.  The Ctrl-C path, which needs a lab,
# is tests/vm/test_bench_interrupt.sh.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
bench=$top/tools/bench/loom-bench
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

tap_plan 6

bad=0
for args in "--iters 0" "--iters x" "--bw-iters 0" "--max-size 2M" "--max-size 4" "--modes spin" \
	    "--ops put,nap" "--modes ," "--bogus" "--report $out/none" "--lab-dir $out"; do
	t0=$(date +%s)
	# every option is bad: a timeout stops a loom-bench that would start a lab
	# shellcheck disable=SC2086 # the words are the options
	timeout 30 "$bench" $args >"$out/msg" 2>&1
	rc=$?
	opt=${args%% *}
	if [ $rc != 2 ] || ! grep -q -- "$opt" "$out/msg" || grep -q 'starting a 2-host lab' "$out/msg" ||
	   [ $(($(date +%s) - t0)) -gt 10 ]; then
		tap_diag "loom-bench $args: exit $rc: $(cat "$out/msg")"
		bad=1
	fi
done
tap_check "bad options exit 2 naming the option, before any lab starts" test $bad = 0

# a run's results: put 8 B poll 60 us against a 40 us polled floor (1.5),
# interrupt 150 against 60 (2.5), 4 KiB / 8 B = 90 / 60 (1.5) in poll mode,
# 1 MiB at 500 MB/s against a 2000 MB/s cable (0.25), 8 B message rate
# 0.02 of a posting rate 0.05 Mpps (0.4), p99 / typical 240 / 60 (4.0),
# 64 MiB registered in 25 ms (median) against 20 ms (1.25); the cards alone
# reach 40 MB/s a CPU second (0.020 of the cable, below the goal) and 0.1 M
# 8-byte puts a CPU second (2.0 times the posting rate)
mkdir -p "$out/run"
cat >"$out/run/results.json" <<'JSON'
{"version": "0", "date": "2026-01-01T00:00:00Z", "load": "0.10 0.20 0.30",
 "placement": "host 0: card and VM share CPU 0 (2 CPUs for 2 hosts, fewer than 2 per host)",
 "options": {"iters": 10},
 "floors": {"nop": {"poll": 40.0, "interrupt": 60.0}, "cable": {"bw": 2000.0},
            "card": {"put_bytes": 1048576, "puts": 64, "wall_ms": 3000, "cpu_card0": 1.6, "cpu_card1": 1.5, "bw_wall": 22.37, "bw": 40.0,
                     "rate_puts": 65536, "rate_wall_ms": 1000, "msg_rate_wall": 0.0655, "msg_rate": 0.1}},
 "latency": [
  {"op": "put", "mode": "poll", "bytes": 8, "iterations": 10, "t_min": 50, "t_typical": 60, "t_avg": 70, "t_stdev": 5, "p99": 240, "p99.9": 250, "t_max": 260, "floor_rtt": 40, "floor_poll_rtt": 40, "x_floor": 1.5},
  {"op": "put", "mode": "poll", "bytes": 4096, "iterations": 10, "t_min": 80, "t_typical": 90, "t_avg": 95, "t_stdev": 5, "p99": 120, "p99.9": 130, "t_max": 140, "floor_rtt": 40, "floor_poll_rtt": 40, "x_floor": 2.25},
  {"op": "put", "mode": "interrupt", "bytes": 8, "iterations": 10, "t_min": 100, "t_typical": 150, "t_avg": 160, "t_stdev": 5, "p99": 300, "p99.9": 310, "t_max": 320, "floor_rtt": 60, "floor_poll_rtt": 40, "x_floor": 2.5},
  {"op": "get", "mode": "interrupt", "bytes": 8, "iterations": 10, "t_min": 100, "t_typical": 200, "t_avg": 210, "t_stdev": 5, "p99": 300, "p99.9": 310, "t_max": 320, "floor_rtt": 60, "floor_poll_rtt": 40, "x_floor": 3.33},
  {"op": "fetch_add", "mode": "interrupt", "bytes": 8, "iterations": 10, "t_min": 100, "t_typical": 210, "t_avg": 210, "t_stdev": 5, "p99": 300, "p99.9": 310, "t_max": 320, "floor_rtt": 60, "floor_poll_rtt": 40, "x_floor": 3.5},
  {"op": "barrier", "mode": "poll", "bytes": 0, "iterations": 10, "t_min": 10, "t_typical": 20, "t_avg": 21, "t_stdev": 1, "p99": 30, "p99.9": 31, "t_max": 32}
 ],
 "bandwidth": [
  {"op": "put_bw", "mode": "interrupt", "bytes": 8, "iterations": 100, "bw_peak": 0.2, "bw_avg": 0.16, "msg_rate": 0.02, "post_rate": 0.05, "depth": 64, "cable_floor": 2000, "x_cable": 0.00008},
  {"op": "put_bw", "mode": "interrupt", "bytes": 1048576, "iterations": 100, "bw_peak": 600, "bw_avg": 500, "msg_rate": 0.0005, "post_rate": 0.05, "depth": 64, "cable_floor": 2000, "x_cable": 0.25}
 ],
 "registration": [
  {"bytes": 4096, "reg_min": 0.01, "reg_med": 0.02, "reg_max": 0.05, "reg_gib_s": 0.19, "dereg_med": 0.01},
  {"bytes": 67108864, "reg_min": 20.5, "reg_med": 25.0, "reg_max": 31.0, "reg_gib_s": 2.5, "dereg_med": 4.0}
 ]}
JSON
"$bench" --report "$out/run" >"$out/report" 2>"$out/report.err"
rc=$?
tap_diag "$(cat "$out/report" "$out/report.err")"
if [ $rc = 0 ] && grep -q '^# put latency, poll mode' "$out/report" &&
   grep -q '^# get latency, interrupt mode' "$out/report" &&
   grep -q '^# atomic latency, interrupt mode' "$out/report" &&
   grep -q '^# barrier latency, poll mode' "$out/report" &&
   grep -q '^# put bandwidth, interrupt mode' "$out/report" &&
   grep -q '^# memory registration' "$out/report" &&
   grep -qE '^ 67108864 +20\.500 +25\.000 +31\.000 +2\.50 +4\.000$' "$out/report" &&
   grep -q 'floors: NOP round trip.*interrupt 60.00 usec, poll 40.00 usec' "$out/report" &&
   grep -q 'cable (loom_cable_bw, UNIX stream socket): 2000.00 MB/sec' "$out/report" &&
   grep -q 'cards (loom-card-bench ceiling, 1 MiB puts, no hosts): 40.00 MB/sec a CPU second of the busier card, 22.37 MB/sec wall' "$out/report" &&
   grep -q 'cards (loom-card-bench ceiling, 8 B puts, no hosts): 0.1000 M puts/sec a CPU second of the busier card, 0.0655 wall' "$out/report"; then
	tap_ok "--report prints a table per benchmark and mode, and the floors"
else
	tap_fail "--report prints a table per benchmark and mode, and the floors (exit $rc)"
fi

goal() { grep -F "$1" "$out/report" | grep -qE "$2"; }
if goal "put 8 B one-way / poll NOP round trip" " 1\.500  goal <= 1\.5  met " &&
   goal "put 8 B one-way / interrupt NOP round trip" " 2\.500  goal <= 2\.0  NOT met " &&
   goal "put 4 KiB / 8 B one-way, poll mode" " 1\.500  goal <= 1\.5  met " &&
   goal "put 4 KiB / 8 B one-way, interrupt mode" " -  goal <= 1\.5  n/a " &&
   goal "put bandwidth at 1 MiB / cable floor" " 0\.250  goal >= 0\.5  NOT met .*the cards alone reach 40\.0 MB/s a CPU second \(0\.020 of the cable\): the goal is beyond" &&
   goal "8 B put message rate / doorbell-posting rate" " 0\.400  goal >= 0\.5  NOT met .*the cards alone reach 0\.1000 M puts a CPU second \(2\.000 of the posting rate\)\)$" &&
   goal "put 8 B p99 / typical, poll mode" " 4\.000  goal <= 3\.0  NOT met .*shares a CPU" &&
   goal "registration of 64 MiB, median / 20 ms" " 1\.250  goal <= 1\.0  NOT met .*25\.00 ms"; then
	tap_ok "the goal ratios are the hand-computed ones, each with its goal and verdict"
else
	tap_fail "the goal ratios are the hand-computed ones, each with its goal and verdict"
fi

if python3 - "$out/run" <<'PY'
import csv, sys, os
d = sys.argv[1]
lat = list(csv.DictReader(open(os.path.join(d, "latency.csv"))))
assert len(lat) == 6 and lat[0]["op"] == "put" and lat[0]["t_typical"] == "60", lat[0]
bw = list(csv.DictReader(open(os.path.join(d, "bandwidth.csv"))))
assert len(bw) == 2 and bw[1]["x_cable"] == "0.25", bw
fl = {r["floor"]: r for r in csv.DictReader(open(os.path.join(d, "floors.csv")))}
assert fl["nop_rtt_poll"]["value"] == "40.0" and fl["cable_bw"]["unit"] == "MB/sec", fl
assert fl["card_bw_per_cpu_s"]["value"] == "40.0", fl
assert fl["card_msg_rate_per_cpu_s"]["value"] == "0.1", fl
goals = list(csv.DictReader(open(os.path.join(d, "goals.csv"))))
assert goals[0]["ratio"] == "1.5000" and goals[0]["relation"] == "<=", goals[0]
mr = list(csv.DictReader(open(os.path.join(d, "registration.csv"))))
assert len(mr) == 2 and mr[1]["bytes"] == "67108864" and mr[1]["reg_med"] == "25.0", mr
PY
then
	tap_ok "latency.csv, bandwidth.csv, floors.csv, registration.csv and goals.csv carry the rows"
else
	tap_fail "latency.csv, bandwidth.csv, floors.csv, registration.csv and goals.csv carry the rows"
fi

if ! command -v gnuplot >/dev/null; then
	tap_skip "PNG plots (no gnuplot: apt-get install gnuplot-nox)"
else
	good=0
	for f in latency-put.png latency-get.png bandwidth.png; do
		[ "$(head -c 4 "$out/run/$f" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] &&
			good=$((good + 1))
	done
	tap_check "latency-put.png, latency-get.png and bandwidth.png are PNG images ($good of 3)" \
		test $good = 3
fi

"$bench" --help >"$out/help" 2>&1
tap_check "--help lists the options and the goals" \
	grep -q -- '--max-size' "$out/help" && grep -q 'cable floor' "$out/help"
tap_done
