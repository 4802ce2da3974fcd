#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom.ko's io_uring commands and libloom's completion mode io_uring in a
# 2-host lab: the guest program uring_test (SQE128 required, bad context,
# flags and timeout, -ETIME, completion from the interrupt, cancel, 200 and
# 1025 outstanding waits, context destroyed / file and ring closed /
# process exiting under waits, LOOM_CTX_ATTR_URING), the guest program
# uring_wait_test (LOOM_URING_WAIT_BSU, LOOM_URING_WAIT_COUNTER,
# LOOM_IOC_BSU_WAIT, libloom's BSU wait modes and counter wait in io_uring
# mode), uring_submit_test (LOOM_URING_SUBMIT: batches, a put, ring full,
# refused descriptors, one doorbell per batch), uring_paths_test (every
# command completes exactly once when issued inline, from io-wq
# (IOSQE_ASYNC), linked behind an io-wq request, on SQPOLL and
# DEFER_TASKRUN rings, under IORING_OP_ASYNC_CANCEL and LINK_TIMEOUT; a
# process killed, exiting or calling execve() with 60 s waits outstanding
# is gone (or runs its new program) at once, a ring closed under them lets
# go of the file at once;
# afterwards no context is in use and nothing pinned), uring_defer_test
# (on a DEFER_TASKRUN ring, each of 13 kinds of command, inline and from
# io-wq, completes exactly once, and what the driver completes through task
# work is posted only when the submitter waits with GETEVENTS), a counter wait
# woken by the other host's counted puts,
# loom_put_lat across the hosts in interrupt and uring modes, loom-xfer,
# waits failing with -EIO when the card is unbound, a clean log.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

guest_bin=$loom_build/tests/vm/uring
if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loom-card" ]; then
	echo "1..0 # SKIP loom-lab or loom-card not built"
	exit 4
fi
if [ ! -x "$guest_bin/uring_test" ] || [ ! -x "$guest_bin/uring_wait_test" ] ||
   [ ! -x "$guest_bin/uring_submit_test" ] || [ ! -x "$guest_bin/uring_paths_test" ] ||
   [ ! -x "$guest_bin/uring_defer_test" ] ||
   [ ! -x "$loom_build/tests/vm/rma/counted_test" ]; then
	tap_plan 1
	tap_fail "guest programs uring_test, uring_wait_test, uring_submit_test, uring_paths_test, uring_defer_test, counted_test exist (run: make tests)"
	tap_done
fi

# LOOM_MODULE=PATH tests another build of loom.ko (e.g. a deliberately broken one)
if ! lab_start --hosts 2 ${LOOM_MODULE:+--module "$LOOM_MODULE"}; then
	tap_plan 1
	tap_fail "lab with 2 hosts starts and loads loom.ko"
	tap_done
fi
tap_ok "lab with 2 hosts starts and loads loom.ko"
# beside the lab: lab_start's exit trap removes both
out=$(dirname "$LAB_DIR")/out
mkdir -p "$out"

# run_guest PROGRAM TIMEOUT CHECKS: run a guest program on host 0 (a wait
# that never completes keeps its process from exiting: bounded by
# TIMEOUT), renumber its TAP into ours, and check it ran all CHECKS and
# exited 0
run_guest() {
	local prog=$1 timeout=$2 checks=$3 rc
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout "$timeout" 0 -- "$guest_bin/$prog" >"$out/$prog" 2>&1
	rc=$?
	tap_relay "$out/$prog"
	if [ $rc = 0 ] && grep -q "^ok $checks " "$out/$prog"; then
		tap_ok "$prog ran all $checks checks and exits 0"
	else
		tap_fail "$prog ran all $checks checks and exits 0 (exit $rc)"
	fi
}

run_guest uring_test 40 19
# the BSU and counter waits (io_uring and LOOM_IOC_BSU_WAIT) on host 0 alone
run_guest uring_wait_test 120 21
# command descriptors through io_uring (LOOM_URING_SUBMIT) on host 0
run_guest uring_submit_test 60 7
# every command on every path io_uring issues it, and processes that exit
# or are killed under outstanding waits (a lost completion leaves a child
# that cannot be killed: bounded by the exec timeout)
run_guest uring_paths_test 300 18
# every kind of command on a DEFER_TASKRUN ring, counted
run_guest uring_defer_test 90 3
lab_exec 0 'mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	cat /sys/kernel/debug/loom/loom0/contexts' >"$out/ctxs" 2>&1
if grep -qx '0 contexts in use of [0-9]*' "$out/ctxs" && grep -q '^pinned 0 KiB' "$out/ctxs"; then
	tap_ok "afterwards no context of host 0 is in use and nothing is pinned"
else
	tap_diag "$(cat "$out/ctxs")"
	tap_fail "afterwards no context of host 0 is in use and nothing is pinned"
fi

# a counter wait woken by counted puts from the other host: they post no
# completion on host 0, so only the card's counter interrupt ends it early
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- "$guest_bin/uring_wait_test" remote-counter 65536 >"$out/rcnt" 2>&1 &
waiter=$!
for _ in $(seq 100); do
	grep -q '^armed' "$out/rcnt" && break
	sleep 0.2
done
lab_exec 1 "$loom_build/tests/vm/rma/counted_test" source 0 0 65536 >"$out/rsrc" 2>&1
src_rc=$?
wait $waiter
w_rc=$?
# the wait's own timeout is 30 s: well under it means the interrupt woke it
if [ $src_rc = 0 ] && [ $w_rc = 0 ] &&
   awk '/^res 0 after/ { exit !($4 < 20) } END { if (NR == 0) exit 1 }' "$out/rcnt"; then
	tap_ok "LOOM_URING_WAIT_COUNTER wakes on counted puts from host 1 ($(grep '^res' "$out/rcnt"))"
else
	tap_diag "$(cat "$out/rcnt" "$out/rsrc")"
	tap_fail "LOOM_URING_WAIT_COUNTER wakes on counted puts from host 1 (source $src_rc, waiter $w_rc)"
fi

for mode in interrupt uring; do
	lab_exec 1 loom_put_lat -n 20 -m $mode >"$out/srv" 2>&1 &
	srv=$!
	lab_exec 0 loom_put_lat -n 20 -s 64 -m $mode 1 >"$out/cli" 2>&1
	cli_rc=$?
	wait $srv
	srv_rc=$?
	if [ $cli_rc = 0 ] && [ $srv_rc = 0 ] && grep -q '^ *64 *20 ' "$out/cli" &&
	   grep -q "completion mode $mode" "$out/cli"; then
		tap_ok "loom_put_lat between the hosts works in $mode mode"
	else
		tap_diag "$(cat "$out/cli" "$out/srv")"
		tap_fail "loom_put_lat between the hosts works in $mode mode (client $cli_rc, server $srv_rc)"
	fi
done

lab_exec 1 loom-xfer recv --ctx 7 --key 0x7e57 --size 256K --timeout 20 >"$out/recv" 2>&1 &
rcv=$!
lab_exec 0 loom-xfer send --to 1 --ctx 7 --key 0x7e57 --size 256K >"$out/send" 2>&1
snd_rc=$?
wait $rcv
rcv_rc=$?
if [ $snd_rc = 0 ] && [ $rcv_rc = 0 ]; then
	tap_ok "loom-xfer moves 256 KiB between the hosts"
else
	tap_diag "$(cat "$out/send" "$out/recv")"
	tap_fail "loom-xfer moves 256 KiB between the hosts (send $snd_rc, recv $rcv_rc)"
fi

# unbind host 0's card under 8 outstanding waits: all complete with -EIO
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 40 0 -- "$guest_bin/uring_test" hold 8 >"$out/hold" 2>&1 &
holder=$!
for _ in $(seq 50); do
	grep -q '^held' "$out/hold" && break
	sleep 0.2
done
dev=$(lab_exec 0 'basename "$(readlink /sys/class/loom/loom0/device)"')
lab_exec 0 "echo $dev > /sys/bus/pci/drivers/loom/unbind"
for _ in $(seq 100); do
	kill -0 $holder 2>/dev/null || break
	sleep 0.2
done
if kill -0 $holder 2>/dev/null; then
	kill $holder
	tap_fail "unbind completes 8 outstanding waits within 20 s"
else
	wait $holder
	n=$(grep -c '^res -5$' "$out/hold")
	if [ "$n" = 8 ]; then
		tap_ok "unbind completes 8 outstanding waits with -EIO"
	else
		tap_diag "$(cat "$out/hold")"
		tap_fail "unbind completes 8 outstanding waits with -EIO ($n)"
	fi
fi
lab_exec 0 "echo $dev > /sys/bus/pci/drivers/loom/bind"

tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_plan "$tap_n"
tap_done
