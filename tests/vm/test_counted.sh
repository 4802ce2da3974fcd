#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Counted writes in the VM lab (4 hosts): hosts 1, 2 and 3 each put 64 KiB
# into host 0's segment as counted puts of varying sizes (then loom_quiet);
# host 0 waits with loom_counter_wait() until its counter reaches 192 KiB,
# checks it stays exactly there and that every byte landed.  Then
# multicast on the same lab (a ring of 4): loom-fm computes the tree of a
# group rooted at host 0 with a member context on each of the 3 others
# (it branches at the root), loomctl mcast writes it into the 4 cards'
# group tables, host 0 puts 64 KiB once with loom_put_mcast() and every
# member verifies every byte.  The guest kernel logs must stay clean.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT
prog=$loom_build/tests/vm/rma/counted_test
mprog=$loom_build/tests/vm/rma/mcast_test
bytes=65536
group=5

tap_plan 10
if ! make -s -C "$here/rma" >"$out/make" 2>&1 || [ ! -x "$prog" ] || [ ! -x "$mprog" ]; then
	tap_diag "$(cat "$out/make")"
	tap_fail "guest program $prog builds (make -C tests/vm/rma)"
	tap_done
fi
lab_start_test "lab with 4 hosts starts" --hosts 4

lab_exec 0 "$prog" target 3 $bytes >"$out/target" 2>&1 &
tgt=$!
pids=()
for s in 1 2 3; do
	lab_exec $s "$prog" source 0 $s $bytes >"$out/src$s" 2>&1 &
	pids+=($!)
done
src_ok=0
for i in 0 1 2; do
	wait "${pids[$i]}" && src_ok=$((src_ok + 1))
done
wait $tgt
tgt_rc=$?
tap_diag "$(cat "$out/src1" "$out/src2" "$out/src3" "$out/target")"
if [ $src_ok = 3 ] && [ "$(cat "$out"/src? | grep -c 'counted puts to node 0, all completed')" = 3 ]; then
	tap_ok "3 hosts each completed 64 KiB of counted puts to host 0 (loom_quiet)"
else
	tap_fail "3 hosts each completed 64 KiB of counted puts to host 0 ($src_ok sources OK)"
fi
if [ $tgt_rc = 0 ] && grep -q "^target: counter 3 reached $((3 * bytes)) bytes, every byte from 3 sources verified" "$out/target"; then
	tap_ok "host 0's counter is exactly 196608 = the bytes landed, and every byte is right"
else
	tap_fail "host 0's counter is exactly 196608 = the bytes landed, and every byte is right (exit $tgt_rc)"
fi

# ---- multicast: one put from host 0 to a context on each other host ------
printf 'group %d root 0 member 1:52 2:52 3:52\n' $group >"$out/groups"
"$loom_build/bin/loom-fm" routes --shape ring:4 --engine dor --groups "$out/groups" -j \
	>"$out/tree.json" 2>"$out/tree.err"
python3 - "$out/tree.json" >"$out/set" 2>>"$out/tree.err" <<'PY'
import json, sys
for e in json.load(open(sys.argv[1]))["groups"]:
    words = ["%d" % e["node"], "mcast", "set", "group", "%d" % e["group"],
             "ports", ",".join("%d" % p for p in e["ports"]) or "none"]
    if "host_ctx" in e:
        words += ["host", "%d" % e["host_ctx"]]
    words += ["members", "%d" % e["members"]]
    print(" ".join(words))
PY
tap_diag "$(cat "$out/tree.err" "$out/set")"
branch=$(grep -c '^0 mcast set .* ports [0-9]*,[0-9]' "$out/set")
tap_check "loom-fm computes the tree of group $group on ring:4: an entry for each of the 4 hosts, branching at the root" \
	test "$(wc -l <"$out/set")" = 4 -a "$branch" = 1
set_ok=0
while read -r h args; do
	# shellcheck disable=SC2086 # the words of the command
	lab_exec "$h" loomctl $args >>"$out/lc" 2>&1 && set_ok=$((set_ok + 1))
	lab_exec "$h" loomctl mcast show group $group >>"$out/lc" 2>&1
done <"$out/set"
tap_diag "$(cat "$out/lc")"
tap_check "loomctl mcast set writes the entry of each host; mcast show reads them back valid" \
	test "$set_ok" = 4 -a "$(grep -c "^dev loom0 group $group .* valid$" "$out/lc")" = 4
pids=()
for m in 1 2 3; do
	lab_exec $m "$mprog" member $bytes >"$out/member$m" 2>&1 &
	pids+=($!)
done
for m in 1 2 3; do
	for i in $(seq 100); do grep -q ready "$out/member$m" && break; sleep 0.3; done
done
lab_exec 0 "$mprog" root $group 3 $bytes >"$out/root" 2>&1
root_rc=$?
members_ok=0
for i in 0 1 2; do
	wait "${pids[$i]}" && members_ok=$((members_ok + 1))
done
tap_diag "$(cat "$out/root" "$out"/member?)"
tap_check "host 0's loom_put_mcast completes OK with 3 x $bytes bytes acknowledged" \
	grep -q "^ok: root: loom_put_mcast of $bytes bytes to group $group completed OK" "$out/root"
tap_check "a put to a group without an entry completes UNREACHABLE" \
	grep -q "^ok: root: a put to group $((group + 1)), which has no entry, completes UNREACHABLE" "$out/root"
tap_check "each of the 3 members got every byte of the one put (exit $root_rc)" \
	test "$members_ok" = 3 -a "$(cat "$out"/member? | grep -c '^ok: member on node [123]: every one')" = 3
lab_exec 0 loomctl mcast del group $group >"$out/del" 2>&1
lab_exec 0 loomctl mcast show group $group >>"$out/del" 2>&1
tap_diag "$(cat "$out/del")"
tap_check "loomctl mcast del makes the root's entry invalid" \
	grep -q "^dev loom0 group $group ports none members 0 invalid$" "$out/del"
tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
