#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom.ko's character device in a 1-host lab: runs the guest program
# ioctl_test (DEV_INFO, CTX_CREATE and every documented error, mmap by
# token, CTX_DESTROY while mapped, poll on a NOP completion, thousands of
# random ioctls), then limits_test (RLIMIT_MEMLOCK and max_pinned_kb
# charges, fork semantics of the mappings, fork/exit races; LIMITS_ROUNDS
# rounds of each race, default 20) and relays their TAP, then scans the
# guest kernel log.  LOOM_MODULE=PATH tests another build of loom.ko.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

guest_bin=$loom_build/tests/vm/kmod
if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loom-card" ]; then
	echo "1..0 # SKIP loom-lab or loom-card not built"
	exit 4
fi
if [ ! -x "$guest_bin/ioctl_test" ]; then
	tap_plan 1
	tap_fail "guest program $guest_bin/ioctl_test exists (run: make -C kmod tests)"
	tap_done
fi

if ! lab_start --hosts 1 ${LOOM_MODULE:+--module "$LOOM_MODULE"}; then
	tap_plan 1
	tap_fail "lab with 1 host starts and loads loom.ko"
	tap_done
fi
tap_ok "lab with 1 host starts and loads loom.ko"

out=$(mktemp)
# run_guest PROGRAM [ARGS...]: run a guest program, relay its TAP renumbered
run_guest() {
	local prog=$1 rc
	shift
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 600 0 -- "$guest_bin/$prog" "$@" >"$out" 2>&1
	rc=$?
	tap_relay "$out"
	if [ $rc = 0 ]; then
		tap_ok "$prog exits 0"
	else
		tap_fail "$prog exits 0 (exit $rc)"
	fi
}
run_guest ioctl_test

# pinned-memory limits and fork/exit races (LIMITS_ROUNDS of each race)
if [ -x "$guest_bin/limits_test" ]; then
	lab_exec 0 'mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug' >/dev/null 2>&1
	run_guest limits_test "${LIMITS_ROUNDS:-20}"
else
	tap_fail "guest program $guest_bin/limits_test exists (run: make -C kmod tests)"
fi
rm -f "$out"

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel log has no oops, BUG or warning"
else
	tap_fail "guest kernel log has no oops, BUG or warning"
fi
tap_plan "$tap_n"
tap_done
