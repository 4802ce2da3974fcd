#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Counted writes in the VM lab (4 hosts): hosts 1, 2 and 3 each put 64 KiB
# into host 0's segment as counted puts of varying sizes (then loom_quiet);
# host 0 waits with loom_counter_wait() until its counter reaches 192 KiB,
# checks it stays exactly there and that every byte landed.  The guest
# kernel logs must stay clean.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT
prog=$loom_build/tests/vm/rma/counted_test
bytes=65536

tap_plan 4
if ! make -s -C "$here/rma" >"$out/make" 2>&1 || [ ! -x "$prog" ]; then
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
tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
