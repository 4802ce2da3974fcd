#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-fm watch reroutes around a cable cut mid-traffic (2x2 torus,
# --no-routes, 4 VMs): host 0 configures the fabric with dor and watches it;
# while node 0 puts 4 MiB (16 KiB puts) to node 1 over the +X cable 0:0-1:2, that cable is
# cut (loom-lab cut).  The put does not hang: it completes and the receiver
# verifies every byte, or it ends with an error status -- never "sent" with
# data missing.  The watch reports the cut cable and reroutes (updown: dor
# cannot route around it), exits 0 (--once); afterwards puts between all
# 12 ordered pairs arrive verified; when the cable is restored the watch
# reports it up and programs dor's tables again; the guest kernel logs stay
# clean.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
. "$here/../lib/lab_pairs.sh"
tap_plan 11
lab_start_test "torus:2x2 with --no-routes starts 4 hosts" --shape torus:2x2 --no-routes
out=$(mktemp -d)
trap "lab_cleanup; rm -rf '$out' '$(dirname "$LAB_DIR")'" EXIT

lab_exec 0 loom-fm configure --shape torus:2x2 >"$out/conf" 2>&1
tap_check "configure --shape torus:2x2 succeeds" test $? = 0
tap_diag "$(cat "$out/conf")"

lab_exec 0 loom-fm watch --shape torus:2x2 --once --interval 500 --timeout $(lab_scaled 120) >"$out/watch" 2>&1 &
watch_pid=$!
for ((i = 0; i < $(lab_scaled 100); i++)); do
	grep -q 'watching' "$out/watch" && break
	sleep 0.3
done

# traffic over the cable to cut: node 0 -> node 1 leaves by port 0 (+X)
lab_exec 1 loom-xfer recv --ctx 9 --key 0x99 --size 4M --seed 5 --timeout $(lab_scaled 15) >"$out/recv" 2>&1 &
recv_pid=$!
lab_exec 0 loom-xfer send --to 1 --ctx 9 --key 0x99 --size 4M --chunk 16K --seed 5 --timeout $(lab_scaled 25) >"$out/send" 2>&1 &
send_pid=$!
for ((i = 0; i < $(lab_scaled 100); i++)); do
	grep -q 'ready for' "$out/recv" && break
	sleep 0.1
done
sleep 0.2
running=no
kill -0 $send_pid 2>/dev/null && running=yes
"$LOOM_LAB" cut --dir "$LAB_DIR" 0:0 >"$out/cut" 2>&1
tap_check "cut 0:0 (the cable node 0 -> node 1 uses)" grep -q ': cut' "$out/cut"
tap_diag "the put was still running when the cable was cut: $running"

t0=$(date +%s)
wait $send_pid; src=$?
wait $recv_pid; rrc=$?
tap_diag "$(cat "$out/send" "$out/recv") (send exit $src, recv exit $rrc, $(($(date +%s) - t0)) s)"
if [ $src = 0 ]; then
	[ $rrc = 0 ] && grep -q 'every byte verified' "$out/recv"
else
	grep -q 'failed' "$out/send"
fi
tap_check "the put under the cut ends: verified, or with an error status (none lost silently)" test $? = 0

wait $watch_pid; wrc=$?
tap_diag "$(cat "$out/watch")"
[ $wrc = 0 ] && grep -q '^cable 0:0-1:2 ' "$out/watch" && grep -q '^rerouted [1-9][0-9]* destination' "$out/watch"
tap_check "watch reports cable 0:0-1:2 and reroutes, exit 0" test $? = 0
grep -q 'falling back to engine updown\|routing it with updown\|engine updown' "$out/watch"
tap_check "the reroute uses updown (dor cannot route around the cut)" test $? = 0

# the lab's cables as a topology file: discover now names the missing one
"$LOOM_LAB" topology --shape torus:2x2 -j | python3 -c '
import json, sys
for c in json.load(sys.stdin)["cables"]:
    print("%d:%d %d:%d" % (c["a"]["node"], c["a"]["port"], c["b"]["node"], c["b"]["port"]))' >"$out/expected.topo"
"$LOOM_LAB" exec --dir "$LAB_DIR" --stdin 0 -- \
	'cat >/tmp/expected.topo && loom-fm discover --topology /tmp/expected.topo' \
	<"$out/expected.topo" >"$out/disc" 2>&1
rc=$?
tap_diag "$(grep -v '^[0-9]' "$out/disc")"
[ $rc = 1 ] && grep -q '^missing cable 0:0 1:2' "$out/disc" && grep -q '(1 difference)' "$out/disc"
tap_check "discover --topology names the cut cable missing, exit 1" test $? = 0

lab_put_all_pairs 0x600 "$out"
tap_check "after the reroute, puts between all 12 ordered pairs arrive verified" test $? = 0

# the cable comes back: watch sees it up and returns to dor's tables
lab_exec 0 loom-fm watch --shape torus:2x2 --once --interval 500 --timeout $(lab_scaled 60) >"$out/watch2" 2>&1 &
watch_pid=$!
for ((i = 0; i < $(lab_scaled 100); i++)); do
	grep -q 'watching' "$out/watch2" && break
	sleep 0.3
done
"$LOOM_LAB" restore --dir "$LAB_DIR" 0:0 >"$out/restore" 2>&1
wait $watch_pid; wrc=$?
tap_diag "$(cat "$out/restore" "$out/watch2")"
[ $wrc = 0 ] && grep -q '^cable 0:0-1:2 up' "$out/watch2" &&
	grep -q '^rerouted 3 destinations on .* with engine dor' "$out/watch2"
tap_check "restored: watch reports cable 0:0-1:2 up and goes back to dor's tables" test $? = 0
lab_exec 0 loomctl route show >"$out/rt0" 2>&1
grep -q '^dev loom0 dest 1 port 0 ' "$out/rt0" && grep -q '^dev loom0 dest 3 port 0 ' "$out/rt0"
tap_check "node 0 routes to nodes 1 and 3 over port 0 (+X) again" test $? = 0

tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
