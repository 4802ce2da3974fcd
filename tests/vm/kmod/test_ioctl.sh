#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom.ko's character device in a 1-host lab: runs the guest program
# ioctl_test (DEV_INFO, CTX_CREATE and every documented error, mmap by
# token, CTX_DESTROY while mapped, poll on a NOP completion, thousands of
# random ioctls) and relays its TAP, then scans the guest kernel log.
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

if ! lab_start --hosts 1; then
	tap_plan 1
	tap_fail "lab with 1 host starts and loads loom.ko"
	tap_done
fi
tap_ok "lab with 1 host starts and loads loom.ko"

out=$(mktemp)
lab_exec 0 "$guest_bin/ioctl_test" >"$out" 2>&1
rc=$?
# renumber the guest's TAP into ours
while IFS= read -r line; do
	case "$line" in
	"ok "*) tap_ok "guest: ${line#ok [0-9]* - }" ;;
	"not ok "*) tap_fail "guest: ${line#not ok [0-9]* - }" ;;
	"1.."*) ;;
	*) tap_diag "$line" ;;
	esac
done <"$out"
rm -f "$out"
if [ $rc = 0 ]; then
	tap_ok "ioctl_test exits 0"
else
	tap_fail "ioctl_test exits 0 (exit $rc)"
fi

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel log has no oops, BUG or warning"
else
	tap_fail "guest kernel log has no oops, BUG or warning"
fi
tap_plan "$tap_n"
tap_done
