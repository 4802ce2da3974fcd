#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The largest lab: 16 hosts in a 4x4 torus, on this machine's memory.
# `loom-lab start --shape torus:4x4` boots all 16 with loom.ko; the QEMUs
# and the guest RAM files stay within the per-host budget start checks;
# every host answers, by the agent and by ssh from host 0; puts between
# opposite corners (0 <-> 15, 3 <-> 12) and to the farthest node (0 -> 10,
# four hops) arrive byte-exact at the same time; the guests' logs are
# clean; stop leaves nothing.  Too long for `make check` on two cores:
# `make check-cluster` runs it (Documentation/testing.rst).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}

lab_require "$LOOM_LAB" "$build/bin/loom-card" "$build/bin/loom-xfer" "$top/kmod/loom.ko"
out=$(mktemp -d)
cleanup() {
	lab_cleanup
	rm -rf "$out"
}
trap cleanup EXIT
t0=$(date +%s)

tap_plan 7
lab_start_test "torus:4x4: 16 hosts up with loom.ko loaded" --shape torus:4x4 --boot-timeout 1200
trap cleanup EXIT
tap_diag "16 hosts up in $(($(date +%s) - t0)) s (load: $(cut -d' ' -f1-3 /proc/loadavg))"

# ---- memory: what start budgets per host (--mem 128 by default here)
anon=0
for p in $(awk '$1 == "qemu" {print $3}' "$LAB_DIR/pids"); do
	anon=$((anon + $(awk '/^RssAnon:/ {print $2}' "/proc/$p/status")))
done
ram=$(du -ck $(cat "$LAB_DIR/shm") | awk 'END {print $1}')
card=$(awk '/^VmRSS:/ {print $2}' "/proc/$(awk '$1 == "card" {print $3; exit}' "$LAB_DIR/pids")/status")
tap_diag "16 QEMUs: $((anon / 1024)) MiB of their own ($((anon / 16 / 1024)) MiB each); guest RAM in use: $((ram / 1024)) MiB ($((ram / 16 / 1024)) MiB each); a card: $((card / 1024)) MiB"
if grep -qx 'mem_mib=128' "$LAB_DIR/lab.conf" && [ $anon -le $((16 * (64 + 32) * 1024)) ] &&
   [ $ram -le $((16 * 128 * 1024)) ]; then
	tap_ok "16 hosts within budget: 128 MiB guest RAM and 96 MiB of QEMU each at most"
else
	tap_fail "16 hosts within budget: 128 MiB guest RAM and 96 MiB of QEMU each at most"
	tap_diag "$(grep mem_mib "$LAB_DIR/lab.conf")"
fi

# ---- every host answers
for h in $(seq 0 15); do
	lab_exec $h hostname >"$out/name$h" 2>&1 &
done
wait
bad=""
for h in $(seq 0 15); do
	[ "$(cat "$out/name$h")" = "loom-h$h" ] || bad="$bad $h:$(cat "$out/name$h")"
done
tap_check "all 16 hosts answer exec with their names" test -z "$bad"
[ -z "$bad" ] || tap_diag "wrong answers:$bad"

lab_exec 0 'for h in $(seq 1 15); do ssh loom-h$h hostname; done' >"$out/ssh" 2>&1
if [ "$(cat "$out/ssh")" = "$(seq 1 15 | sed 's/^/loom-h/')" ]; then
	tap_ok "host 0 reaches the 15 others by ssh over the management network"
else
	tap_fail "host 0 reaches the 15 others by ssh over the management network"
	tap_diag "$(cat "$out/ssh")"
fi

# ---- puts across the torus, all at once
pairs="0:15 15:0 3:12 12:3 0:10"
k=0
pids=()
for pr in $pairs; do
	k=$((k + 1))
	lab_exec ${pr#*:} loom-xfer recv --ctx $((20 + k)) --key $((0x7100 + k)) --size 1M \
		--seed $k --timeout 120 >"$out/recv$k" 2>&1 &
	pids+=($!)
done
k=0
for pr in $pairs; do
	k=$((k + 1))
	lab_exec ${pr%:*} loom-xfer send --to ${pr#*:} --ctx $((20 + k)) --key $((0x7100 + k)) \
		--size 1M --seed $k --timeout 120 >"$out/send$k" 2>&1 &
	pids+=($!)
done
wait "${pids[@]}"
bad=0
k=0
for pr in $pairs; do
	k=$((k + 1))
	if ! grep -q '^recv: 1048576 bytes in .* every byte verified' "$out/recv$k"; then
		tap_diag "put ${pr%:*} -> ${pr#*:}: $(cat "$out/send$k" "$out/recv$k")"
		bad=1
	fi
done
tap_check "1 MiB puts 0<->15, 3<->12 (opposite corners) and 0->10 (4 hops) at once, every byte verified" test $bad = 0

if "$LOOM_LAB" check-log --dir "$LAB_DIR" >"$out/checklog" 2>&1; then
	tap_ok "the 16 guest kernel logs have no oops, BUG or warning"
else
	tap_fail "the 16 guest kernel logs have no oops, BUG or warning"
	tap_diag "$(cat "$out/checklog")"
	# what led to each host's first finding
	for f in $(sed -n 's/^host [0-9]*: \([^:]*\):\([0-9]*\):.*/\1:\2/p' "$out/checklog" |
		   sort -t: -k1,1 -u); do
		tap_diag "--- ${f%:*} before line ${f##*:}:"
		tap_diag "$(head -n "${f##*:}" "${f%:*}" | tail -n 15)"
	done
fi

lab_stop_clean
tap_check "stop: no process, RAM file or directory left" test $? = 0
tap_diag "the whole test took $(($(date +%s) - t0)) s"
tap_done
