#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom.ko's register discovery in a 1-host lab: the card emulator's register
# window (its memfd, reached from the host through /proc) is altered before
# each insmod, and the driver must refuse the card with the exact message:
# an incompatible block version, a missing block, a looping block chain,
# an ivshmem device without the loom signature.  Restored, the card binds.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"
. "$here/../../lib/card_regs.sh"

if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loom-card" ]; then
	echo "1..0 # SKIP loom-lab or loom-card not built"
	exit 4
fi
tap_plan 7
lab_start_test "lab with 1 host starts (no module)" --hosts 1 --no-module

if ! card_regs_open 0; then
	tap_fail "the emulator's register memfd is found"
	tap_done
fi
rd32() { card_rd32 "$@"; }
wr32() { card_wr32 "$@"; }
blk() { card_blk "$@"; }

# insmod with the window as it is; prints the driver's log lines
probe() {
	lab_exec 0 "dmesg -C; insmod kmod/loom.ko; sleep 0.5; dmesg | grep 'loom 0'; ls /dev/loom0 2>&1; rmmod loom" 2>&1
}

expect() { # description pattern output
	tap_diag "$3"
	if grep -q -- "$2" <<<"$3" && grep -q 'No such file' <<<"$3"; then
		tap_ok "$1"
	else
		tap_fail "$1"
	fi
}

router=$(blk 3)
ctx=$(blk 5)
db=$(blk 6)
tap_diag "blocks: ROUTER at $router, CTX at $ctx, DOORBELL at $db"

v=$(rd32 $((router + 4)))
wr32 $((router + 4)) $((2 << 16))
expect "ROUTER v2.0: refused with 'block ROUTER v2.0 found, driver needs v1.x'" \
	'block ROUTER v2.0 found, driver needs v1.x' "$(probe)"
wr32 $((router + 4)) "$v"

wr32 "$ctx" 255
expect "CTX block replaced by an unknown type: refused with 'block CTX missing'" \
	'block CTX missing' "$(probe)"
wr32 "$ctx" 5

next=$(rd32 $((db + 8)))
wr32 $((db + 8)) "$router"
expect "a block chain that loops back: refused" 'chain loops back' "$(probe)"
wr32 $((db + 8)) "$next"

magic=$(rd32 16)
wr32 16 0
expect "an ivshmem device without the LOOM signature is not bound" \
	'not a loom card emulator' "$(probe)"
wr32 16 "$magic"

out=$(lab_exec 0 "insmod kmod/loom.ko; sleep 0.5; dmesg | grep 'loom 0' | tail -n 2; ls /dev/loom0" 2>&1)
tap_diag "$out"
if grep -q '^/dev/loom0' <<<"$out"; then
	tap_ok "with the window restored the card binds"
else
	tap_fail "with the window restored the card binds"
fi

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel log has no oops, BUG or warning"
else
	tap_fail "guest kernel log has no oops, BUG or warning"
fi
tap_done
