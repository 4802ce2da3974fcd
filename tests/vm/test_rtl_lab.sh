#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The router RTL in the live lab: two hosts whose cards both run the
# Verilated loom_router (loom-card --router rtl, the plugin of 'make -C
# fpga_bitstreams rtl-card'), so that loom.ko and libloom drive the RTL.
# Host 0 puts 1 MiB of a known pattern into host 1, which verifies every
# byte, and loomctl stats shows the RTL's per-VC counters of it (the
# buffers' high-water marks, through the PERF block); both hosts complete
# barriers on a BSU tree; the guest kernel and
# card logs stay clean.  First, without VMs, loom-card's refusals: a
# missing plugin (naming the make target), a card configuration the build
# was not made for (naming the parameter, its value and the build's), a
# routing entry beyond the RTL's table.  Part of make check (the plugin is
# built by make tests); alone: make check-rtl.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
plugin=$loom_build/rtl/loom-router-rtl.so
card=$loom_build/bin/loom-card
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT
ITERS=${LOOM_RTL_BARRIER_ITERS:-50}
PLAN=8

tap_plan $PLAN
if [ ! -e "$plugin" ]; then
	tap_fail "the RTL router plugin $plugin exists (run: make -C fpga_bitstreams rtl-card)"
	for ((i = 2; i <= PLAN; i++)); do tap_fail "not run: no RTL router plugin"; done
	tap_done
fi

# loom-card alone: CARD ARGS... -> its exit status, stderr in $out/card.err
truncate -s 16M "$out/ram"
run_card() {
	timeout 20 "$@" --node 0 --ivshmem "$out/ivs.sock" --guest-ram "$out/ram" \
		>"$out/card.out" 2>"$out/card.err"
}
LOOM_RTL_PLUGIN=$out/none.so run_card "$card" --router rtl
rc=$?
if [ $rc = 2 ] && grep -q "cannot load the Verilated router $out/none.so" "$out/card.err" &&
   grep -q "make -C fpga_bitstreams rtl-card" "$out/card.err"; then
	tap_ok "loom-card --router rtl without the plugin: exit 2, names the file and the make target"
else
	tap_diag "exit $rc: $(cat "$out/card.err")"
	tap_fail "loom-card --router rtl without the plugin: exit 2, names the file and the make target"
fi
bad=0
LOOM_RTL_PLUGIN=$plugin run_card "$card" --router rtl --ports 4
rc=$?
grep -q "built with PORTS = 3, the model has 5" "$out/card.err" && [ $rc = 2 ] || {
	bad=1; tap_diag "--ports 4: exit $rc: $(cat "$out/card.err")"; }
LOOM_RTL_PLUGIN=$plugin run_card "$card" --router rtl --ports 2 --vc-buffers 4
rc=$?
grep -q "built with BUF_DEPTH = 152, the model has 76" "$out/card.err" && [ $rc = 2 ] || {
	bad=1; tap_diag "--vc-buffers 4: exit $rc: $(cat "$out/card.err")"; }
grep -q "the build was made for PORTS=3,BUF_DEPTH=152" "$out/card.err" || {
	bad=1; tap_diag "no 'the build was made for': $(cat "$out/card.err")"; }
LOOM_RTL_PLUGIN=$plugin run_card "$card" --router rtl --ports 2 --route 100=1
rc=$?
grep -q "routing entry 100 is valid, but the Verilated router holds 64 entries" "$out/card.err" &&
	[ $rc = 2 ] || { bad=1; tap_diag "--route 100=1: exit $rc: $(cat "$out/card.err")"; }
[ -e "$out/ivs.sock" ] && { bad=1; tap_diag "a refused loom-card left its socket"; }
"$LOOM_LAB" start --dir "$out/lab" --router verilog >"$out/lab.err" 2>&1
rc=$?
grep -q -- "--router verilog: expected model .* or rtl" "$out/lab.err" && [ $rc = 2 ] || {
	bad=1; tap_diag "loom-lab start --router verilog: exit $rc: $(cat "$out/lab.err")"; }
tap_check "loom-card refuses --router rtl for 4 ports, for 4 packets a VC and for node 100, naming the parameter, both values and the build; loom-lab refuses --router verilog" [ $bad = 0 ]

lab_start_test "lab with 2 hosts whose cards run the Verilated router starts" --hosts 2 --router rtl

n=0
for h in 0 1; do
	grep -q "router: Verilated RTL $plugin (build " "$LAB_DIR/card$h.log" && n=$((n + 1))
done
[ $n = 2 ] || tap_diag "$(grep -h "router" "$LAB_DIR"/card[01].log)"
tap_check "both cards log that their router is the Verilated RTL" [ $n = 2 ]

lab_exec 1 loom-xfer recv --ctx 5 --key 0x5eed --size 1M --seed 7 \
	--timeout "$(lab_scaled 120)" >"$out/recv" 2>&1 &
recv_pid=$!
lab_exec 0 loom-xfer send --to 1 --ctx 5 --key 0x5eed --size 1M --seed 7 \
	--timeout "$(lab_scaled 120)" >"$out/send" 2>&1
send_rc=$?
wait $recv_pid
recv_rc=$?
tap_diag "$(cat "$out/send" "$out/recv")"
if [ $send_rc = 0 ] && grep -q '^send: 1048576 bytes to node 1' "$out/send" &&
   [ $recv_rc = 0 ] && grep -q '^recv: 1048576 bytes in .* every byte verified' "$out/recv"; then
	tap_ok "host 0 put 1 MiB to host 1 through the RTL routers; every put completed, every byte verified"
else
	tap_fail "host 0 put 1 MiB to host 1 through the RTL routers; every put completed, every byte verified (exit $send_rc, $recv_rc)"
fi

# the largest occupancy_max (the RTL's fill_max) of host H's rows of port P (or host), from loomctl -j stats
occupancy_max() {
	lab_exec "$1" loomctl -j stats 2>/dev/null | python3 -c '
import json, sys
p = sys.argv[1]
rows = [r for r in json.load(sys.stdin)["counters"]
        if (r["host"] if p == "host" else not r["host"] and str(r["port"]) == p)]
print(max([r.get("occupancy_max", 0) for r in rows] or [0]))' "$2"
}
m0=$(occupancy_max 0 host)
m1=$(occupancy_max 1 1)
if [ "${m0:-0}" -gt 0 ] 2>/dev/null && [ "${m1:-0}" -gt 0 ] 2>/dev/null; then
	tap_ok "loomctl stats shows the RTL's per-VC counters: buffer high-water marks $m0 (host 0's host input), $m1 (host 1's port 1 input)"
else
	tap_diag "host 0: $(lab_exec 0 loomctl stats 2>&1)"
	tap_diag "host 1: $(lab_exec 1 loomctl stats 2>&1)"
	tap_fail "loomctl stats shows the RTL's per-VC counters: buffer high-water marks '$m0' (host 0's host input), '$m1' (host 1's port 1 input), both above 0"
fi

# ring of 2: node 0's port 0 is cabled to node 1's port 1; unit 3's tree rooted at node 0
bad=0
lab_exec 0 loomctl bsu set 3 parent root children 0,host >"$out/set" 2>&1 || bad=1
lab_exec 1 loomctl bsu set 3 parent 1 children host >>"$out/set" 2>&1 || bad=1
lab_exec 1 loom_barrier_lat -b 3 -n "$ITERS" -w 2 -T "$(lab_scaled 120)" >"$out/lat1" 2>&1 &
lat1_pid=$!
lab_exec 0 loom_barrier_lat -b 3 -n "$ITERS" -w 2 -T "$(lab_scaled 120)" >"$out/lat0" 2>&1
rcs=" $?"
wait $lat1_pid
rcs="$rcs $?"
rows=0
for h in 0 1; do
	awk -v n="$ITERS" '/^ [0-9]/ && $1 == n && $2 > 0' "$out/lat$h" | grep -q . && rows=$((rows + 1))
done
if [ $bad = 0 ] && [ "$rcs" = " 0 0" ] && [ $rows = 2 ]; then
	tap_ok "$ITERS barriers on BSU unit 3 across the 2 hosts complete through the RTL routers"
else
	tap_diag "bsu set: $(cat "$out/set")"
	for h in 0 1; do tap_diag "host $h: $(cat "$out/lat$h")"; done
	tap_fail "$ITERS barriers on BSU unit 3 across the 2 hosts complete through the RTL routers (exit statuses:$rcs)"
fi

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel and card logs have no oops, BUG, warning or violation"
else
	tap_fail "guest kernel and card logs have no oops, BUG, warning or violation"
fi
tap_done
