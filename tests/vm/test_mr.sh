#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# User memory registration in the VM lab (2 hosts, loom.ko, cards with
# --strict-registers): host 1 registers anonymous memory at an odd address,
# a MAP_SHARED file, a hugetlbfs page, a remote-read-only region, a region
# it deregisters again, and one in another partition; host 0 registers an
# odd-address buffer (and the same buffer a second time) and puts, gets,
# counted-puts and atomics between them with no copy (every byte checked on
# both sides), then names an unknown
# key, the revoked key, the other partition, bytes out of bounds and a
# missing right: each answers its protection status and host 1 finds every
# region byte-identical but for the good puts.  Registration errors:
# unmapped memory (EFAULT), read-only memory for write (EACCES), beyond
# RLIMIT_MEMLOCK without CAP_IPC_LOCK (ENOMEM), beyond
# max_pinned_kb_per_user (EDQUOT), bad arguments (EINVAL), the uring_cmd
# forms.  A 256 MiB region within the memlock limit (the guests get
# 640 MiB for it).  A get whose local region is deregistered in flight.  A
# process killed with regions registered leaves nothing pinned (debugfs
# "memory"), and rmmod works.  LOOM_MODULE=PATH tests another loom.ko.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT
prog=$loom_build/tests/vm/rma/mr_test
BIG_MIB=256

tap_plan 14
if ! make -s -C "$here/rma" >"$out/make" 2>&1 || [ ! -x "$prog" ]; then
	tap_diag "$(cat "$out/make")"
	tap_fail "guest program $prog builds (make -C tests/vm/rma)"
	tap_done
fi
lab_start_test "lab with 2 hosts of 640 MiB starts" --hosts 2 --mem 640 \
	${LOOM_MODULE:+--module "$LOOM_MODULE"}

wait_for() {
	for _ in $(seq 900); do
		grep -q "$2" "$1" 2>/dev/null && return 0
		sleep 0.1
	done
	return 1
}
memory() { lab_exec "$1" cat /sys/kernel/debug/loom/memory 2>&1 | tr '\n' ' '; }
# every "ok:" line of FILE present and no "FAILED:" line
all_ok() { grep -q '^ok: ' "$1" && ! grep -q '^FAILED' "$1"; }

# ---- data movement and protection ------------------------------------------
lab_exec 1 "echo 4 >/proc/sys/vm/nr_hugepages; rm -f /tmp/mr.stop"
lab_exec 1 "$prog" target /tmp/mr.stop >"$out/target" 2>&1 &
tgt=$!
wait_for "$out/target" "^target ready" || tap_diag "target: $(cat "$out/target")"
keys=$(sed -n 's/^keys //p' "$out/target")
lab_exec 0 "$prog" source 1 $keys >"$out/source" 2>&1
lab_exec 1 touch /tmp/mr.stop
wait $tgt
tap_diag "source: $(cat "$out/source")"
tap_diag "target: $(cat "$out/target")"
n=$(grep -c '^ok: \(put [0-9]* bytes\|put into\|put 64 KiB\|counted put into\|atomic fetch-add\)' "$out/source")
tap_check "puts into anonymous, file-backed and huge-page regions, a counted put and an atomic complete OK ($n of 5)" \
	test "$n" = 5
n=$(grep -c '^ok: get [0-9]* bytes' "$out/source")
tap_check "gets from anonymous, file-backed, huge-page and remote-read-only regions bring every byte ($n of 4)" \
	test "$n" = 4
tap_check "the source buffer registered twice for the card to write: a get lands through each" \
	grep -q '^ok: the source buffer registered twice' "$out/source"
n=$(grep -c '^ok: \(put and atomic naming\|get from another\|get past\)' "$out/source")
tap_check "unknown key, revoked key, other partition, out of bounds, missing right: each its protection status ($n of 7)" \
	test "$n" = 7
n=$(grep -c '^ok: target: .* region: every byte as expected' "$out/target")
tap_check "the target's six regions hold the good puts and nothing else ($n of 6)" test "$n" = 6
tap_check "the target's counter and arrival came from the counted put" \
	grep -q '^ok: target: counter' "$out/target"

# ---- registration errors -----------------------------------------------------
lab_exec 0 "setpriv --bounding-set -ipc_lock,-sys_resource --inh-caps -ipc_lock,-sys_resource \
	prlimit --memlock=8388608 $prog reg-errors" >"$out/errors" 2>&1
tap_diag "$(cat "$out/errors")"
tap_check "unmapped memory EFAULT, read-only memory for write EACCES, beyond memlock ENOMEM, bad arguments EINVAL, uring_cmd forms" \
	all_ok "$out/errors"
lab_exec 0 "echo 2048 >/sys/module/loom/parameters/max_pinned_kb_per_user;
	prlimit --memlock=unlimited setpriv --bounding-set -ipc_lock,-sys_resource \
	--inh-caps -ipc_lock,-sys_resource $prog quota 2048; rc=\$?;
	echo 262144 >/sys/module/loom/parameters/max_pinned_kb_per_user; dmesg | grep 'memory region'; exit \$rc" \
	>"$out/quota" 2>&1
tap_diag "$(cat "$out/quota")"
tap_check "beyond max_pinned_kb_per_user: EDQUOT, and the kernel log says why" \
	sh -c "grep -q '^ok: ' '$out/quota' && grep -q 'max_pinned_kb_per_user is 2048: memory region' '$out/quota'"

# ---- a big region ------------------------------------------------------------
lab_exec 0 "echo 0 >/sys/module/loom/parameters/max_pinned_kb_per_user;
	prlimit --memlock=$(((BIG_MIB + 16) << 20)) setpriv --bounding-set -ipc_lock,-sys_resource \
	--inh-caps -ipc_lock,-sys_resource $prog big $BIG_MIB; rc=\$?;
	echo 262144 >/sys/module/loom/parameters/max_pinned_kb_per_user; exit \$rc" >"$out/big" 2>&1
tap_diag "$(cat "$out/big")"
tap_check "a $BIG_MIB MiB region within RLIMIT_MEMLOCK registers, carries a put to its last page, deregisters" \
	all_ok "$out/big"

# ---- deregistration while a get runs -------------------------------------
lab_exec 1 "rm -f /tmp/mr.stop"
lab_exec 1 "$prog" target /tmp/mr.stop >"$out/target2" 2>&1 &
tgt=$!
wait_for "$out/target2" "^target ready" || tap_diag "target: $(cat "$out/target2")"
key1=$(sed -n 's/^keys \([0-9]*\).*/\1/p' "$out/target2")
lab_exec 0 "$prog" inflight 1 "$key1" >"$out/inflight" 2>&1
lab_exec 1 touch /tmp/mr.stop
wait $tgt
tap_diag "$(cat "$out/inflight")"
tap_check "a get into a region deregistered in flight: the deregistration waits for the card, the get completes with MR_KEY" \
	all_ok "$out/inflight"

# ---- a process killed with regions registered --------------------------------
lab_exec 0 "$prog" hold >"$out/hold" 2>&1 &
holder=$!
wait_for "$out/hold" "^holding" || tap_diag "hold: $(cat "$out/hold")"
during=$(memory 0)
lab_exec 0 "pkill -KILL -x mr_test; sleep 1"
wait $holder
after=$(memory 0)
tap_diag "debugfs memory while held: $during; after the kill: $after"
if echo "$during" | grep -q 'memory_regions 3 mr_pinned_pages 6147' &&
   echo "$after" | grep -q 'contexts 0 .*memory_regions 0 mr_pinned_pages 0'; then
	tap_ok "a process killed with 3 regions (6147 pages) registered leaves no region and no page pinned"
else
	tap_fail "a process killed with 3 regions (6147 pages) registered leaves no region and no page pinned"
fi
out_rm=$(lab_exec 0 "rmmod loom && echo unloaded" 2>&1)
tap_check "rmmod works afterwards ($out_rm)" test "$out_rm" = unloaded

tap_check "guest kernel and card logs have no oops, BUG, warning or register violation" \
	"$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
