#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make bench interrupted: loom-bench starts its 2-host lab and a benchmark
# in it; SIGINT (what Ctrl-C sends) while the benchmark runs makes it exit
# 130 having stopped the lab: none of the lab's processes, RAM files in
# /dev/shm, sockets or its directory are left, nor any process naming it.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
parent=$(mktemp -d /tmp/loom-test.XXXXXX)
dir=$parent/lab
bench_pid=
cleanup() {
	[ -n "$bench_pid" ] && kill "$bench_pid" 2>/dev/null && wait "$bench_pid"
	[ -e "$dir" ] && "$LOOM_LAB" stop --dir "$dir" >/dev/null 2>&1
	rm -rf "$parent"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tap_plan 3
# a run far longer than the test: it can only end by the signal
"$loom_top/tools/bench/loom-bench" --lab-dir "$dir" --out "$parent/out" --ops put \
	--modes poll --iters 1000000 --max-size 8 >"$parent/bench.log" 2>&1 &
bench_pid=$!
limit=$(lab_scaled 300)
for ((i = 0; i < limit * 5; i++)); do
	grep -q 'put latency, poll mode' "$parent/bench.log" && break
	kill -0 $bench_pid 2>/dev/null || break
	sleep 0.2
done
pids=$(awk '{print $3}' "$dir/pids" 2>/dev/null | sort -u)
shm=$(cat "$dir/shm" 2>/dev/null)
socks=$(ls "$dir"/*.sock 2>/dev/null)
running=0
for p in $pids; do [ -e "/proc/$p" ] && running=$((running + 1)); done
sleep 2	# the benchmark's client and server are running in the guests
if grep -q 'put latency, poll mode' "$parent/bench.log" && [ "$running" -ge 4 ] &&
   [ -n "$shm" ] && [ -n "$socks" ]; then
	tap_ok "loom-bench started a lab ($running processes, RAM files, sockets) and a benchmark in it"
else
	tap_diag "$(cat "$parent/bench.log")"
	tap_fail "loom-bench started a lab and a benchmark in it ($running processes running)"
fi

kill -INT $bench_pid
t0=$(date +%s)
# wait returns when the signal is delivered or loom-bench ends: poll instead
while kill -0 $bench_pid 2>/dev/null && [ $(($(date +%s) - t0)) -le "$(lab_scaled 120)" ]; do
	sleep 0.5
done
kill -0 $bench_pid 2>/dev/null && kill -KILL $bench_pid
wait $bench_pid
rc=$?
bench_pid=
tap_diag "$(tail -n 3 "$parent/bench.log")"
took=$(($(date +%s) - t0))
tap_check "SIGINT: loom-bench exits 130 within $(lab_scaled 60) s (exit $rc after $took s)" \
	test $rc = 130 -a $took -le "$(lab_scaled 60)"

left=""
for p in $pids; do [ -e "/proc/$p" ] && left="$left pid $p ($(tr '\0' ' ' </proc/$p/cmdline | cut -c1-60))"; done
for f in $shm $socks; do [ -e "$f" ] && left="$left $f"; done
pgrep -f "$dir" >/dev/null && left="$left processes naming $dir: $(pgrep -af "$dir" | head -3)"
[ -e "$dir" ] && left="$left $dir ($(ls "$dir" | head -5 | tr '\n' ' '))"
[ -z "$left" ] || tap_diag "left behind:$left"
tap_check "nothing of the lab is left: processes, RAM files, sockets, its directory" test -z "$left"
tap_done
