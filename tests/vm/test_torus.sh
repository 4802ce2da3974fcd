#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# A 2x2 torus in the VM lab: the cards are cabled and routed as
# `loom-lab topology --shape torus:2x2` says, and 1 MiB put through loom.ko
# crosses two hops -- node 0 (0,0) to node 3 (1,1) by +X then +Y, and node 1
# (1,0) to node 2 (0,1) round the X wrap then +Y -- at the same time, and
# every byte is verified at the target.  A statistics dump that spans
# batches reports one snapshot of the performance counters while another
# reader takes its own.  The guest kernel logs stay clean.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT

tap_plan 9
lab_start_test "lab shaped torus:2x2 starts 4 hosts and loads loom.ko" --shape torus:2x2

"$LOOM_LAB" status --dir "$LAB_DIR" >"$out/status"
if grep -q '^shape: torus:2x2, 4 hosts' "$out/status" &&
   [ "$(grep -c '^card [0-3]: loom-card pid [0-9]* alive$' "$out/status")" = 4 ]; then
	tap_ok "status shows the shape and 4 live card emulators"
else
	tap_fail "status shows the shape and 4 live card emulators"
	tap_diag "$(cat "$out/status")"
fi

# node 3's card has four ports and links up on all of them
links=$(grep -c 'link up to node' "$LAB_DIR/card3.log")
if grep -q ', 4 ports,' "$LAB_DIR/card3.log" && [ "$links" -ge 4 ]; then
	tap_ok "card 3 has 4 ports, all linked"
else
	tap_fail "card 3 has 4 ports, all linked ($links links up)"
	tap_diag "$(head -n 20 "$LAB_DIR/card3.log")"
fi

# receivers first, in the background; each sender retries until its target
# context exists; both puts run at the same time
lab_exec 3 loom-xfer recv --ctx 5 --key 0x7012 --size 1M --seed 11 --timeout $(lab_scaled 20) >"$out/recv3" 2>&1 &
recv3_pid=$!
lab_exec 2 loom-xfer recv --ctx 5 --key 0x7012 --size 1M --seed 12 --timeout $(lab_scaled 20) >"$out/recv2" 2>&1 &
recv2_pid=$!
lab_exec 0 loom-xfer send --to 3 --ctx 5 --key 0x7012 --size 1M --seed 11 --timeout $(lab_scaled 20) >"$out/send0" 2>&1 &
send0_pid=$!
lab_exec 1 loom-xfer send --to 2 --ctx 5 --key 0x7012 --size 1M --seed 12 --timeout $(lab_scaled 20) >"$out/send1" 2>&1 &
send1_pid=$!
wait $send0_pid; echo $? >"$out/sendrc0"
wait $send1_pid; echo $? >"$out/sendrc1"
wait $recv3_pid; recv3=$?
wait $recv2_pid; recv2=$?

check_put() { # SRC DST RECV_RC
	local src=$1 dst=$2 rc=$3
	tap_diag "$(cat "$out/send$src" "$out/recv$dst")"
	if [ "$(cat "$out/sendrc$src")" = 0 ] &&
	   grep -q "^send: 1048576 bytes to node $dst" "$out/send$src" &&
	   [ "$rc" = 0 ] &&
	   grep -q '^recv: 1048576 bytes in .* every byte verified' "$out/recv$dst"; then
		tap_ok "node $src put 1 MiB to node $dst over 2 hops, every byte verified"
	else
		tap_fail "node $src put 1 MiB to node $dst over 2 hops, every byte verified (recv exit $rc)"
	fi
}
check_put 0 3 "$recv3"
check_put 1 2 "$recv2"

# every card's ports as loom.ko reports them, against the topology's cables;
# the second hops (node 1 +Y for 0->3, node 0 +Y for 1->2) carried the data
"$LOOM_LAB" topology --shape torus:2x2 -j >"$out/topo.json"
port_pids=()
for h in 0 1 2 3; do
	lab_exec $h loomctl -j port show >"$out/ports$h.json" 2>&1 &
	port_pids+=($!)
done
wait "${port_pids[@]}"
python3 - "$out" >"$out/cabling" 2>&1 <<'PY'
import json, sys
out = sys.argv[1]
topo = json.load(open(out + "/topo.json"))
ports = {}
for h in range(topo["node_count"]):
    for p in json.load(open("%s/ports%d.json" % (out, h))):
        ports[(h, p["port"])] = p
cabling_ok = True
for c in topo["cables"]:
    for me, peer in ((c["a"], c["b"]), (c["b"], c["a"])):
        p = ports.get((me["node"], me["port"]))
        if not p or not p["up"] or (p["peer_node"], p["peer_port"]) != (peer["node"], peer["port"]):
            print("node %d port %d: expected up to node %d port %d, got %s" %
                  (me["node"], me["port"], peer["node"], peer["port"], p))
            cabling_ok = False
forwarding_ok = True
for node in (0, 1):
    tx = ports.get((node, 1), {}).get("tx_bytes", 0)
    print("node %d port 1 (+Y) sent %d bytes" % (node, tx))
    forwarding_ok = forwarding_ok and tx >= 1048576
if cabling_ok:
    print("cabling ok")
if forwarding_ok:
    print("forwarding ok")
PY
tap_diag "$(cat "$out/cabling")"
if grep -q '^cabling ok$' "$out/cabling"; then
	tap_ok "loom.ko sees every port up to the peer the topology names"
else
	tap_fail "loom.ko sees every port up to the peer the topology names"
	tap_diag "$(cat "$out"/ports*.json)"
fi
if grep -q '^forwarding ok$' "$out/cabling"; then
	tap_ok "the middle nodes forwarded both puts on their +Y ports"
else
	tap_fail "the middle nodes forwarded both puts on their +Y ports"
fi

# A statistics dump of node 0's 4-port card takes more than one batch of
# messages: paused after its first batch while a put crosses the card and
# another reader dumps, it still reports the one snapshot it started with.
lab_exec 1 loom-xfer recv --ctx 6 --key 0x7012 --size 4K --timeout $(lab_scaled 20) >"$out/recv_snap" 2>&1 &
recv_snap_pid=$!
lab_exec 0 python3 "$loom_top/tests/vm/netlink/stats_snapshot.py" \
	"$loom_top/include/uapi/linux/loom_netlink.h" \
	-- loom-xfer send --to 1 --ctx 6 --key 0x7012 --size 4K --timeout $(lab_scaled 20) >"$out/snap" 2>&1
snap_rc=$?
wait $recv_snap_pid
tap_diag "$(cat "$out/snap")"
if [ $snap_rc = 0 ] && grep -q "perf_ports_in_first_batch 0$" "$out/snap" &&
   grep -q "^a_equals_d0 1 b_equals_d0 0 traffic_rc 0$" "$out/snap"; then
	tap_ok "a stats dump paused while traffic passes and another reader dumps reports its own snapshot"
else
	tap_fail "a stats dump paused while traffic passes and another reader dumps reports its own snapshot (exit $snap_rc)"
fi

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel logs have no oops, BUG or warning"
else
	tap_fail "guest kernel logs have no oops, BUG or warning"
fi
tap_done
