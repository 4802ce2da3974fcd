#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# BSU barriers and eurekas in the VM lab: 4 hosts cabled as a 2x2 torus,
# unit 3's spanning tree (rooted at node 0) written with "loomctl bsu set"
# on every host, then loom_barrier_lat on all 4 hosts at once (many timed
# barriers, then a eureka from host 0 that the 3 others see, and the
# barrier after it), then again in the interrupt and uring modes (-m).  Also: the grant rules through the raw ABI (EBUSY for
# a unit held by another context, SIGBUS on the page of a unit not granted,
# release at destroy and at exit), loomctl's refusals of bad trees, and a
# clean guest kernel log.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
. "$here/../lib/lab_usage.sh"
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT
guest_bin=$loom_build/tests/vm/kmod
ITERS=${LOOM_BARRIER_ITERS:-300}

tap_plan 10
lab_start_test "lab with 4 hosts cabled as a 2x2 torus starts" --hosts 4 --shape torus:2x2

# torus:2x2 ports: 0 +X, 1 +Y, 2 -X, 3 -Y; node 1 = (1,0), 2 = (0,1), 3 = (1,1)
bad=0
lab_exec 0 loomctl bsu set 3 parent root children 0,1,host >"$out/set" 2>&1 || bad=1
lab_exec 1 loomctl bsu set 3 parent 2 children 1,host >>"$out/set" 2>&1 || bad=1
lab_exec 2 loomctl bsu set 3 parent 3 children host >>"$out/set" 2>&1 || bad=1
lab_exec 3 loomctl bsu set 3 parent 3 children host >>"$out/set" 2>&1 || bad=1
lab_exec 1 loomctl -j bsu show 3 >"$out/show1" 2>&1 || bad=1
if [ $bad = 0 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert len(r) == 1, r
r = r[0]
assert r["bsu"] == 3 and r["parent"] == 2 and r["children"] == [1, "host"], r
assert r["state"] == "bar" and r["arrived"] == [] and r["granted"] is False, r
' "$out/show1"; then
	tap_ok "loomctl bsu set writes unit 3's tree on the 4 hosts; bsu show -j reads it back"
else
	tap_diag "$(cat "$out/set" "$out/show1")"
	tap_fail "loomctl bsu set writes unit 3's tree on the 4 hosts; bsu show -j reads it back"
fi

pids=()
for h in 0 1 2 3; do
	flag=-E
	[ $h = 0 ] && flag=-e
	lab_exec $h loom_barrier_lat -b 3 -n "$ITERS" -w 5 -T 60 $flag >"$out/lat$h" 2>&1 &
	pids+=($!)
done
rcs=
for p in "${pids[@]}"; do
	wait "$p"
	rcs="$rcs $?"
done
tap_diag "exit statuses:$rcs"
tap_diag "$(cat "$out/lat0")"
rows=0
for h in 0 1 2 3; do
	# iters min max typical avg stdev p99 p999, min <= typical <= p99 <= p999 <= max
	awk -v n="$ITERS" '/^ [0-9]/ && $1 == n && $2 > 0 && $2 <= $4 && $4 <= $7 && $7 <= $8 && $8 <= $3' \
		"$out/lat$h" | grep -q . && rows=$((rows + 1))
done
if [ "$rcs" = " 0 0 0 0" ] && [ $rows = 4 ] && grep -q 'completion mode poll$' "$out/lat0" &&
   grep -q 't_typical\[usec\].*99% percentile\[usec\]  99.9% percentile\[usec\]' "$out/lat0"; then
	tap_ok "$ITERS barriers across 4 hosts, then a eureka from host 0 seen by the 3 others: all complete, perftest columns"
else
	for h in 1 2 3; do tap_diag "host $h: $(cat "$out/lat$h")"; done
	tap_fail "$ITERS barriers across 4 hosts, then a eureka from host 0 seen by the 3 others: all complete, perftest columns"
fi

# the same in the sleeping modes, fewer barriers, JSON (its "mode" key)
MODE_ITERS=${LOOM_BARRIER_MODE_ITERS:-50}
for mode in interrupt uring; do
	pids=()
	for h in 0 1 2 3; do
		lab_exec $h loom_barrier_lat -b 3 -n "$MODE_ITERS" -w 2 -T 60 -m $mode -j >"$out/$mode$h" 2>&1 &
		pids+=($!)
	done
	rcs=
	for p in "${pids[@]}"; do
		wait "$p"
		rcs="$rcs $?"
	done
	good=0
	for h in 0 1 2 3; do
		python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read())
assert r["mode"] == sys.argv[2] and r["iterations"] == int(sys.argv[3]), r
assert 0 < r["t_min"] <= r["t_typical"] <= r["p99"] <= r["t_max"], r
' "$out/$mode$h" $mode "$MODE_ITERS" 2>/dev/null && good=$((good + 1))
	done
	tap_diag "$mode: exit statuses:$rcs; host 0: $(cat "$out/${mode}0")"
	if [ "$rcs" = " 0 0 0 0" ] && [ $good = 4 ]; then
		tap_ok "loom_barrier_lat -m $mode: $MODE_ITERS barriers across 4 hosts, --json mode \"$mode\""
	else
		for h in 1 2 3; do tap_diag "host $h: $(cat "$out/$mode$h")"; done
		tap_fail "loom_barrier_lat -m $mode: $MODE_ITERS barriers across 4 hosts, --json mode \"$mode\""
	fi
done

lab_exec 2 loomctl -j bsu show 3 >"$out/show2" 2>&1
if python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))[0]
n = int(sys.argv[2]) + 5 + 1 + 1 + 2 * (int(sys.argv[3]) + 2 + 1)
assert r["completions"] == n and r["eurekas"] == 1 and r["state"] == "bar", (r, n)
assert r["illegal"] == 0 and r["granted"] is False, r
' "$out/show2" "$ITERS" "$MODE_ITERS"; then
	tap_ok "host 2's unit 3 counted every barrier and the one eureka, and is free again"
else
	tap_diag "$(cat "$out/show2")"
	tap_fail "host 2's unit 3 counted every barrier and the one eureka, and is free again"
fi

if [ ! -x "$guest_bin/bsu_grant" ]; then
	tap_fail "guest program $guest_bin/bsu_grant exists (run: make -C kmod tests)"
else
	lab_exec 0 "$guest_bin/bsu_grant" >"$out/grant" 2>&1
	rc=$?
	tap_diag "$(cat "$out/grant")"
	tap_check "grants: EBUSY for a held unit, SIGBUS on pages not granted, release at destroy and exit" [ $rc = 0 ]
fi

bad=0
expect_refusal() { # host message args...
	local h=$1 msg=$2 rc
	shift 2
	lab_exec "$h" loomctl "$@" >"$out/ref" 2>&1
	rc=$?
	if [ $rc != 1 ] || ! grep -q "$msg" "$out/ref"; then
		tap_diag "loomctl $*: exit $rc: $(cat "$out/ref")"
		bad=$((bad + 1))
	fi
}
expect_refusal 0 "port 5 out of range" bsu set 3 parent 5
expect_refusal 0 "parent port cannot also be a child" bsu set 3 parent 1 children 1,host
expect_refusal 0 "does not have" bsu set 3 children 5
tap_check "the kernel refuses bad trees with a clear message (loomctl exit 1)" [ $bad = 0 ]

lab_usage_errors "$out/bad" loomctl "bsu set 40 parent root" "bsu set 3" "bsu set 3 parent x" "bsu set 3 children 0,y" "bsu frob"
tap_check "loomctl bsu usage errors exit 2 with a message" test $? = 0

tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
