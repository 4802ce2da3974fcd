#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom.ko when the card stops answering, in a 1-host lab: the card emulator
# is frozen (SIGSTOP) while a context is created.  CTX_CREATE must fail
# with ETIMEDOUT after admin_timeout_ms instead of hanging, the context's
# index must stay reserved (the card may still use it) once the card
# answers again, and unbinding the card must release it; the kernel log
# must name the command that timed out and stay free of warnings.  While
# one process's CTX_CREATE waits for the frozen card, another one's
# open, DEV_INFO ioctl and poll answer at once: no lock is held across a
# wait for the card.  Every wall-clock bound is multiplied by the lab's
# timeout scale (lab_scaled): a debug guest kernel is several times slower.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

g=$loom_build/tests/vm/kmod
if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loom-card" ]; then
	echo "1..0 # SKIP loom-lab or loom-card not built"
	exit 4
fi
tap_plan 8
if [ ! -x "$g/hold_ctx" ]; then
	tap_fail "guest program $g/hold_ctx exists (run: make -C kmod tests)"
	tap_done
fi
lab_start_test "lab with 1 host starts and loads loom.ko" --hosts 1 \
	${LOOM_MODULE:+--module "$LOOM_MODULE"}

card=$("$LOOM_LAB" status --dir "$LAB_DIR" | sed -n 's/^card 0: loom-card pid \([0-9]*\).*/\1/p')
if [ -z "$card" ]; then
	tap_fail "the card emulator's pid is known"
	tap_done
fi
# never leave the emulator frozen, whatever happens
eval "lab_exit_trap=$(trap -p EXIT | sed 's/^trap -- //; s/ EXIT$//')"
trap "kill -CONT $card 2>/dev/null; $lab_exit_trap" EXIT

lab_exec 0 "echo 1000 > /sys/module/loom/parameters/admin_timeout_ms" >/dev/null 2>&1
returned_within=$(lab_scaled 30) short=$(lab_scaled 3)
kill -STOP "$card"
t0=$(date +%s)
out=$("$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- "$g/hold_ctx ioctl; dmesg | tail -n 5" 2>&1)
t1=$(date +%s)
kill -CONT "$card"
tap_diag "$out"
if grep -q 'CTX_CREATE: Connection timed out' <<<"$out"; then
	tap_ok "CTX_CREATE with a frozen card: ETIMEDOUT"
else
	tap_fail "CTX_CREATE with a frozen card: ETIMEDOUT"
fi
if [ $((t1 - t0)) -lt "$returned_within" ]; then
	tap_ok "it returned in $((t1 - t0)) s, under $returned_within s (admin_timeout_ms 1000)"
else
	tap_fail "it returned in $((t1 - t0)) s, not under $returned_within s (admin_timeout_ms 1000)"
fi
if grep -q 'admin command CTX_ENABLE(0) not acknowledged within 1000 ms' <<<"$out"; then
	tap_ok "the kernel log names the command that timed out"
else
	tap_fail "the kernel log names the command that timed out"
fi

out=$(lab_exec 0 "timeout $short $g/hold_ctx poll" 2>&1)
tap_diag "$out"
if grep -q 'ready (context 1)' <<<"$out"; then
	tap_ok "once the card answers, new contexts work and index 0 stays reserved"
else
	tap_fail "once the card answers, new contexts work and index 0 stays reserved"
fi

out=$(lab_exec 0 "d=\$(basename \$(readlink /sys/class/loom/loom0/device))
	echo \$d > /sys/bus/pci/drivers/loom/unbind && echo \$d > /sys/bus/pci/drivers/loom/bind &&
	timeout $short $g/hold_ctx poll" 2>&1)
tap_diag "$out"
if grep -q 'ready (context 0)' <<<"$out"; then
	tap_ok "after unbind and bind, index 0 is free again"
else
	tap_fail "after unbind and bind, index 0 is free again"
fi

# others are not stalled by a CTX_CREATE waiting for a frozen card: the
# card stays frozen while the others are timed, and the create (its wait
# up to 20 s, scaled) finishes once the card answers again
stall_ms=$(lab_scaled 20000) at_once_ms=$(lab_scaled 1000) settle=$(lab_scaled 1)
lab_exec 0 "echo $stall_ms > /sys/module/loom/parameters/admin_timeout_ms" >/dev/null 2>&1
kill -STOP "$card"
out=$("$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- "setsid $g/hold_ctx ioctl </dev/null >/tmp/stalled 2>&1 &
	echo \$! >/tmp/stalled.pid
	sleep $settle
	$g/hold_ctx info
	kill -0 \$(cat /tmp/stalled.pid) && ! grep -q . /tmp/stalled && echo 'create still waiting'" 2>&1)
kill -CONT "$card"
out="$out
$(lab_exec 0 'for i in $(seq '"$((stall_ms / 200))"'); do grep -q ready /tmp/stalled && break; sleep 0.2; done
	kill $(cat /tmp/stalled.pid); cat /tmp/stalled' 2>&1)"
lab_exec 0 "echo 5000 > /sys/module/loom/parameters/admin_timeout_ms" >/dev/null 2>&1
tap_diag "$out"
a=$(sed -n 's/^info: .*(open, DEV_INFO and poll took \([0-9]*\) ms)$/\1/p' <<<"$out")
if [ -n "$a" ] && [ "$a" -lt "$at_once_ms" ] &&
	grep -qx 'create still waiting' <<<"$out" && grep -q '^ioctl: ready' <<<"$out"; then
	tap_ok "while a CTX_CREATE waits for the frozen card, another process's open, DEV_INFO and poll answer at once ($a ms, under $at_once_ms ms); the create completes once the card answers"
else
	tap_fail "while a CTX_CREATE waits for the frozen card, another process's open, DEV_INFO and poll answer at once (${a:-no time printed}, not under $at_once_ms ms); the create completes once the card answers"
fi

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel log has no oops, BUG or warning"
else
	tap_fail "guest kernel log has no oops, BUG or warning"
fi
tap_done
