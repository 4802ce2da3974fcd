#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-fm logical ids on the real cards (2 hosts): a topology file from
# `loom-fm discover` plus 'node 0 logical 1' and 'node 1 logical 0' makes
# `loom-fm configure` swap the two cards' logical ids (printed as the
# mapping, programmed in a checked order); each card's LOGICAL_ID and its
# routing table follow (host 1 answers to 0); a put from host 0 to logical
# 0 lands on host 1 and one from host 1 to logical 1 on host 0, every byte
# verified; configure without the file puts the identity back and a put to
# logical 1 lands on host 1 again; clean kernel logs.
here=$(dirname "$0")
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
tap_plan 8
lab_start_test "lab with 2 hosts starts" --hosts 2
out=$(mktemp -d)
trap "lab_cleanup; rm -rf '$out' '$(dirname "$LAB_DIR")'" EXIT

# put 64 KiB from host $1 to logical id $2, received on host $3
put() {
	local rpid src
	lab_exec "$3" loom-xfer recv --ctx 11 --key 0x1d --size 64K --seed "$4" --timeout $(lab_scaled 20) \
		>"$out/recv" 2>&1 &
	rpid=$!
	for ((i = 0; i < $(lab_scaled 100); i++)); do
		grep -q 'ready for' "$out/recv" && break
		sleep 0.1
	done
	lab_exec "$1" loom-xfer send --to "$2" --ctx 11 --key 0x1d --size 64K --seed "$4" \
		--timeout $(lab_scaled 20) >"$out/send" 2>&1
	src=$?
	wait $rpid
	tap_diag "$(cat "$out/send" "$out/recv")"
	[ $src = 0 ] && grep -q 'every byte verified' "$out/recv"
}

lab_exec 0 'loom-fm discover >/tmp/f.topo 2>/dev/null && printf "node 0 logical 1\nnode 1 logical 0\n" >>/tmp/f.topo && loom-fm configure --topology /tmp/f.topo' >"$out/conf" 2>&1
rc=$?
tap_diag "$(cat "$out/conf")"
[ $rc = 0 ] && grep -q '^logical ids (physical=logical): 0=1 (was 0) 1=0 (was 1)$' "$out/conf" &&
	grep -q '^reprogramming 2 cards' "$out/conf" && grep -q '^configured 2 cards' "$out/conf"
tap_check "configure with 'node 0 logical 1' and 'node 1 logical 0': the swap printed and programmed" test $? = 0

l0=$(lab_exec 0 loomctl maint read logical_id 2>&1)
l1=$(lab_exec 1 loomctl maint read logical_id 2>&1)
r1=$(lab_exec 1 loomctl route show 0 2>&1)
tap_diag "host 0: $l0; host 1: $l1; host 1: $r1"
grep -q ' value 1 status ok' <<<"$l0" && grep -q ' value 0 status ok' <<<"$l1" &&
	grep -q '^dev loom0 dest 0 port host phys_dest 1 valid' <<<"$r1"
tap_check "LOGICAL_ID reads 1 on host 0 and 0 on host 1, whose entry 0 delivers to its host" test $? = 0

put 0 0 1 3
tap_check "a put from host 0 to logical 0 lands on host 1, verified" test $? = 0
put 1 1 0 4
tap_check "a put from host 1 to logical 1 lands on host 0, verified" test $? = 0

lab_exec 0 loom-fm configure >"$out/conf2" 2>&1
rc=$?
tap_diag "$(cat "$out/conf2")"
[ $rc = 0 ] && grep -q '^logical ids: the physical ids (2 cards); changed: 0=0 (was 1) 1=1 (was 0)$' "$out/conf2"
tap_check "configure without the file: identity again, the change printed" test $? = 0
put 0 1 1 5
tap_check "a put from host 0 to logical 1 lands on host 1 again, verified" test $? = 0

tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
