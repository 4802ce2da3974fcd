#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Partitions enforced by the card, in the VM lab (2 hosts, loom.ko): host 1
# holds context 20 in partition A and context 21 in partition B.  From a
# context in partition B, host 0 issues a put, a get, an atomic and a
# counted put to context 20: each completes with REMOTE_KEY and the get and
# atomic bring nothing back; two descriptors that forge A's key in their
# key field, written straight into a raw-ABI context's ring, are refused
# too; the same four operations to context 21 succeed.  Host 1 then finds
# context 20's segment and counters byte-identical to before, no arrival,
# and everything in context 21; its DROPS key counter grew by exactly the
# refused packets.  Barriers: BSU unit 6 with a tree across the 2 hosts
# completes when both open it in one partition; with host 1 in another
# partition its join is refused (loom_barrier: EACCES), host 0's unit is
# untouched (ARRIVED empty, COMPLETIONS unchanged), its DROPS bsu-key
# counter +1, and host 0's own barrier cannot complete (times out).  The
# cards run with --strict-registers; check-log fails on a violation.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT
prog=$loom_build/tests/vm/rma/partition_test
UNIT=6

tap_plan 12
if ! make -s -C "$here/rma" >"$out/make" 2>&1 || [ ! -x "$prog" ]; then
	tap_diag "$(cat "$out/make")"
	tap_fail "guest program $prog builds (make -C tests/vm/rma)"
	tap_done
fi
# LOOM_MODULE=PATH tests another build of loom.ko (e.g. a deliberately broken one)
lab_start_test "lab with 2 hosts starts" --hosts 2 ${LOOM_MODULE:+--module "$LOOM_MODULE"}

# drops.KEY of host H's card, from loomctl -j stats
drops() {
	lab_exec "$1" loomctl -j stats 2>/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["drops"][sys.argv[1]])' "$2"
}
# wait until FILE holds a line matching RE (60 s)
wait_for() {
	for _ in $(seq 600); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}

# ---- put, get, atomic, counted put ----------------------------------------
key0=$(drops 1 key)
lab_exec 1 rm -f /tmp/pt.stop
lab_exec 1 "$prog" target /tmp/pt.stop >"$out/target" 2>&1 &
tgt=$!
if ! wait_for "$out/target" "^target ready"; then
	tap_diag "$(cat "$out/target")"
fi
lab_exec 0 "$prog" source 1 >"$out/source" 2>&1
src_rc=$?
lab_exec 1 touch /tmp/pt.stop
wait $tgt
tgt_rc=$?
key1=$(drops 1 key)
tap_diag "source (exit $src_rc): $(cat "$out/source")"
tap_diag "target (exit $tgt_rc): $(cat "$out/target")"

n=$(grep -c '^ok: cross-partition \(put\|get\|atomic\|counted put\) to context 20 .*status 4 ' "$out/source")
if [ "$n" = 4 ]; then
	tap_ok "cross-partition put, get, atomic and counted put each complete with REMOTE_KEY (protection error)"
else
	tap_fail "cross-partition put, get, atomic and counted put each complete with REMOTE_KEY ($n of 4)"
fi
tap_check "the refused get and atomic brought nothing of the other partition back" \
	grep -q '^ok: cross-partition get and atomic brought nothing back' "$out/source"
tap_check "descriptors forging the target's key in their key field are refused with REMOTE_KEY" \
	grep -q '^ok: descriptors with a forged key' "$out/source"
tap_check "the same four operations inside one partition succeed, data checked" \
	grep -q '^ok: same partition: ' "$out/source"
tap_check "the target context of the other partition is byte-identical after all of it: segment, counter, no arrival" \
	grep -q "^ok: target: partition A's segment byte-identical" "$out/target"
tap_check "the target context of the same partition got every operation" \
	grep -q '^ok: target: partition B got the put' "$out/target"
# put 1000 B = 4 packets, get 1000 B = 4 requests, atomic 1, counted 600 B = 3,
# forged put 4 and atomic 1
if [ -n "$key0" ] && [ -n "$key1" ] && [ $((key1 - key0)) = 17 ]; then
	tap_ok "host 1's card counted the 17 refused packets in DROPS key"
else
	tap_fail "host 1's card counted the 17 refused packets in DROPS key ($key0 -> $key1)"
fi

# ---- barriers -------------------------------------------------------------
# ring of 2: host 0's port 0 is cabled to host 1's port 1
lab_exec 0 loomctl bsu set $UNIT parent root children 0,host >"$out/bsu" 2>&1 &&
	lab_exec 1 loomctl bsu set $UNIT parent 1 children host >>"$out/bsu" 2>&1 ||
	tap_diag "bsu set: $(cat "$out/bsu")"
lab_exec 0 "$prog" barrier $UNIT 0xa11ce 20000 >"$out/b0" 2>&1 &
p0=$!
lab_exec 1 "$prog" barrier $UNIT 0xa11ce 20000 >"$out/b1" 2>&1
r1=$?
wait $p0
r0=$?
if [ $r0 = 0 ] && [ $r1 = 0 ] && grep -q '^barrier: ok' "$out/b0" && grep -q '^barrier: ok' "$out/b1"; then
	tap_ok "a barrier across both hosts with the unit in one partition completes on both"
else
	tap_diag "host 0: $(cat "$out/b0"); host 1: $(cat "$out/b1")"
	tap_fail "a barrier across both hosts with the unit in one partition completes on both"
fi

# host 0 holds the unit in partition 0xa11ce and waits; host 1 joins in 0x0b0b
lab_exec 0 rm -f /tmp/pt.go
lab_exec 0 "$prog" barrier $UNIT 0xa11ce 3000 /tmp/pt.go >"$out/b0" 2>&1 &
p0=$!
wait_for "$out/b0" "^unit $UNIT open" || tap_diag "host 0: $(cat "$out/b0")"
lab_exec 0 loomctl -j bsu show $UNIT >"$out/before" 2>&1
bkey0=$(drops 0 bsu_key)
lab_exec 1 "$prog" barrier $UNIT 0x0b0b 20000 >"$out/b1" 2>&1
r1=$?
lab_exec 0 loomctl -j bsu show $UNIT >"$out/after" 2>&1
bkey1=$(drops 0 bsu_key)
lab_exec 0 touch /tmp/pt.go
wait $p0
r0=$?
tap_diag "host 1 (exit $r1): $(cat "$out/b1"); host 0 (exit $r0): $(cat "$out/b0")"
tap_diag "host 0's unit before: $(cat "$out/before") after: $(cat "$out/after")"
if [ $r1 = 1 ] && grep -q '^barrier: .*(-13)$' "$out/b1" &&
   python3 -c '
import json, sys
b, a = (json.load(open(f))[0] for f in sys.argv[1:3])
assert a["arrived"] == [] and b["arrived"] == [], (b, a)
assert a["completions"] == b["completions"] and a["state"] == b["state"] == "bar", (b, a)
' "$out/before" "$out/after" && [ -n "$bkey0" ] && [ $((bkey1 - bkey0)) = 1 ]; then
	tap_ok "a join from another partition is refused: EACCES at host 1; host 0's unit untouched, DROPS bsu-key +1"
else
	tap_fail "a join from another partition is refused: EACCES at host 1; host 0's unit untouched, DROPS bsu-key +1 ($bkey0 -> $bkey1)"
fi
if [ $r0 = 1 ] && grep -q '^barrier: .*(-110)$' "$out/b0"; then
	tap_ok "host 0's own barrier cannot complete without its child of the other partition (times out)"
else
	tap_fail "host 0's own barrier cannot complete without its child of the other partition (times out)"
fi

tap_check "guest kernel and card logs have no oops, BUG, warning or register violation" \
	"$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
