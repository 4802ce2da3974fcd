#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Walking skeleton, end to end: in a 2-host lab, host 0 puts 1 MiB of a known
# pattern into host 1's segment through loom.ko and the card emulators, and
# host 1 verifies every byte.  Then the same transfer with one source byte
# corrupted must be caught by the check.  The guest kernel logs must stay
# free of oopses and warnings.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"

tap_plan 6
lab_start_test "lab with 2 hosts starts and loads loom.ko" --hosts 2

out=$(mktemp -d)
# receiver first, in the background; the sender retries until its context exists
lab_exec 1 loom-xfer recv --ctx 5 --key 0x5eed --size 1M --seed 7 >"$out/recv" 2>&1 &
recv_pid=$!
lab_exec 0 loom-xfer send --to 1 --ctx 5 --key 0x5eed --size 1M --seed 7 >"$out/send" 2>&1
send_rc=$?
wait $recv_pid
recv_rc=$?
tap_diag "$(cat "$out/send" "$out/recv")"
if [ $send_rc = 0 ] && grep -q '^send: 1048576 bytes to node 1' "$out/send"; then
	tap_ok "host 0 put 1 MiB to host 1 and every put completed"
else
	tap_fail "host 0 put 1 MiB to host 1 and every put completed (exit $send_rc)"
fi
if [ $recv_rc = 0 ] && grep -q '^recv: 1048576 bytes in .* every byte verified' "$out/recv"; then
	tap_ok "host 1 received 1 MiB and verified every byte"
else
	tap_fail "host 1 received 1 MiB and verified every byte (exit $recv_rc)"
fi

# negative: the check must catch a corrupted byte
lab_exec 1 loom-xfer recv --ctx 5 --key 0x5eed --size 1M --seed 7 >"$out/recv2" 2>&1 &
recv_pid=$!
lab_exec 0 loom-xfer send --to 1 --ctx 5 --key 0x5eed --size 1M --seed 7 \
	--corrupt-at 123457 >"$out/send2" 2>&1
wait $recv_pid
recv_rc=$?
tap_diag "$(cat "$out/send2" "$out/recv2")"
if [ $recv_rc = 1 ] && grep -q 'verification FAILED: 1 bad bytes, first at offset 123457' "$out/recv2"; then
	tap_ok "a corrupted byte is detected at its offset"
else
	tap_fail "a corrupted byte is detected at its offset (exit $recv_rc)"
fi

# wrong key: the target must refuse and the sender must be told
lab_exec 1 loom-xfer recv --ctx 6 --key 0x1111 --size 64K --timeout $(lab_scaled 10) >"$out/recv3" 2>&1 &
recv_pid=$!
lab_exec 0 loom-xfer send --to 1 --ctx 6 --key 0x2222 --size 64K --timeout $(lab_scaled 10) >"$out/send3" 2>&1
send_rc=$?
wait $recv_pid
tap_diag "$(cat "$out/send3")"
if [ $send_rc = 1 ] && grep -q 'rejected the key' "$out/send3"; then
	tap_ok "a put with the wrong key fails with a key error at the sender"
else
	tap_fail "a put with the wrong key fails with a key error at the sender (exit $send_rc)"
fi
rm -rf "$out"

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel logs have no oops, BUG or warning"
else
	tap_fail "guest kernel logs have no oops, BUG or warning"
fi
tap_done
