#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What every VM test and the debug-kernel campaign rely on: loom-lab
# check-log fails on a KASAN report and a WARNING in a guest's console log
# and on a strict-register violation in a card's log, and shows each with
# the lines around it; the same logs without the reports pass.  Both ways
# the logs reach it: a lab directory (--dir, as a test runs it before
# stopping its lab) and saved logs named as files (hN.console.log,
# cardN.log, as tests/debug/check-debug scans the logs of every lab), and
# the DMA API's error count that check-debug writes at a lab's stop.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
lab=$build/bin/loom-lab
if [ ! -x "$lab" ]; then
	echo "1..0 # SKIP loom-lab not built (make)"
	exit 4
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ts() { printf '[%5d.%06d] %s\n' "$1" 0 "$2"; }
boot() { # a clean boot of the debug kernel with the module loaded
	ts 0 "Linux version 6.1.192-loom-debug (root@lab) #1 SMP PREEMPT_DYNAMIC"
	ts 0 "kasan: KernelAddressSanitizer initialized"
	ts 0 "kfence: initialized - using 2097152 bytes for 255 objects"
	ts 1 "kmemleak: Kernel memory leak detector initialized (mem pool available: 15734)"
	ts 2 "loom: loading out-of-tree module taints kernel."
	ts 2 "loom 0000:00:03.0: loom0: node 0, 4 ports, 16 BSU units"
}
kasan() {
	ts 40 "=================================================================="
	ts 40 "BUG: KASAN: slab-use-after-free in loom_ctx_release+0x1d/0x90 [loom]"
	ts 40 "Read of size 8 at addr ffff888004a1c010 by task ioctl_test/312"
	ts 40 ""
	ts 40 "CPU: 0 PID: 312 Comm: ioctl_test Tainted: G           O       6.1.192-loom-debug #1"
	ts 40 "Call Trace:"
	ts 40 " <TASK>"
	ts 40 " kasan_report+0xad/0x130"
	ts 40 " loom_ctx_release+0x1d/0x90 [loom]"
	ts 40 " __fput+0x1a2/0x4a0"
	ts 40 " </TASK>"
	ts 40 "=================================================================="
}
warn() {
	ts 90 "------------[ cut here ]------------"
	ts 90 "WARNING: CPU: 1 PID: 12 at drivers/loom/loom_irq.c:70 loom_irq+0x1c/0x80 [loom]"
	ts 90 "RIP: 0010:loom_irq+0x1c/0x80 [loom]"
	ts 90 "Call Trace:"
	ts 90 " __handle_irq_event_percpu+0x8b/0x2a0"
	ts 90 "---[ end trace 0000000000000000 ]---"
}
ordinary() { for ((i = 0; i < 40; i++)); do ts $((50 + i)) "loom 0000:00:03.0: loom0: ordinary line $i"; done; }
card_clean() {
	echo "loom-card[0]: strict-registers: on (write-only registers read back as 0xdeadbeef)"
	echo "loom-card[0]: host: ivshmem peer 0 connected"
}
card_bad() {
	card_clean
	echo "loom-card[0]: context 3 enabled"
	echo "loom-card[0]: strict-registers: violation: software wrote 0x00000001 to read-only register 0x00014 (CAPS); restored 0x00000004"
	echo "loom-card[0]: context 3 disabled"
}
mkdir -p "$tmp/bad" "$tmp/clean" "$tmp/badlab" "$tmp/cleanlab"
{ boot; kasan; ordinary; warn; } >"$tmp/bad/h0.console.log"
card_bad >"$tmp/bad/card0.log"
boot >"$tmp/clean/h0.console.log"
card_clean >"$tmp/clean/card0.log"
printf 'shape=ring\nhosts=1\n' >"$tmp/badlab/lab.conf"
printf 'shape=ring\nhosts=1\n' >"$tmp/cleanlab/lab.conf"
cp "$tmp/bad/"* "$tmp/badlab/"
cp "$tmp/clean/"* "$tmp/cleanlab/"

show() { tap_diag "check-log (exit $rc) printed:"; tap_diag "$(cat "$tmp/out")"; tap_diag "stderr: $(cat "$tmp/err")"; }
# has PREFIX FILE SEP LINE TEXT: check-log printed line LINE of FILE (SEP ':'
# for a finding, '-' for a line around one) with that text
has() { grep -qF -- "$1$2$3$4$3 $5" "$tmp/out"; }
bad_console() { # PREFIX DIR
	local c=$2/h0.console.log
	has "$1" "$c" - 7 "$(ts 40 '==================================================================')" &&
	grep -qxF "$1$c:8: [KASAN] $(ts 40 'BUG: KASAN: slab-use-after-free in loom_ctx_release+0x1d/0x90 [loom]')" "$tmp/out" &&
	has "$1" "$c" - 9 "$(ts 40 'Read of size 8 at addr ffff888004a1c010 by task ioctl_test/312')" &&
	has "$1" "$c" - 15 "$(ts 40 ' loom_ctx_release+0x1d/0x90 [loom]')" &&
	has "$1" "$c" - 59 "$(ts 90 '------------[ cut here ]------------')" &&
	grep -qxF "$1$c:60: [WARNING] $(ts 90 'WARNING: CPU: 1 PID: 12 at drivers/loom/loom_irq.c:70 loom_irq+0x1c/0x80 [loom]')" "$tmp/out" &&
	has "$1" "$c" - 61 "$(ts 90 'RIP: 0010:loom_irq+0x1c/0x80 [loom]')"
}
bad_card() { # PREFIX DIR
	local c=$2/card0.log
	has "$1" "$c" - 3 "loom-card[0]: context 3 enabled" &&
	grep -qxF "$1$c:4: [strict registers] loom-card[0]: strict-registers: violation: software wrote 0x00000001 to read-only register 0x00014 (CAPS); restored 0x00000004" "$tmp/out" &&
	has "$1" "$c" - 5 "loom-card[0]: context 3 disabled"
}

# result DESCRIPTION CHECK...: one TAP result; on failure what check-log printed
result() {
	local desc=$1
	shift
	if "$@"; then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		show
	fi
}
run() { "$lab" check-log "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
clean() { [ $rc = 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; }

# what make check-debug's stop hook writes when the DMA API's checker
# counted errors (it prints only the first of a boot)
{ boot; ordinary; ts 95 "loom-check-debug: DMA-API error_count 3 (the checker printed only the first)"; } \
	>"$tmp/dma.console.log"

tap_plan 7
run "$tmp/bad/h0.console.log" "$tmp/bad/card0.log"
result "saved console log: fails, the KASAN report and the WARNING shown with the lines around them" \
	eval '[ $rc = 1 ] && bad_console "" "$tmp/bad"'
result "saved card log: fails, the strict-register violation shown with the lines around it" \
	eval '[ $rc = 1 ] && bad_card "" "$tmp/bad" &&
	grep -q "check-log: .* in 2 logs: .*strict registers 1" "$tmp/err"'
run "$tmp/clean/h0.console.log" "$tmp/clean/card0.log"
result "the same saved logs without the reports: exit 0, nothing printed" clean
run --dir "$tmp/badlab"
result "a lab's console log (--dir): fails, the KASAN report and the WARNING shown with the lines around them" \
	eval '[ $rc = 1 ] && bad_console "host 0: " "$tmp/badlab"'
result "a lab's card log (--dir): fails, the strict-register violation shown with the lines around it" \
	eval '[ $rc = 1 ] && bad_card "host 0: " "$tmp/badlab"'
run --dir "$tmp/cleanlab"
result "a lab with clean logs (--dir): exit 0, nothing printed" clean
run "$tmp/dma.console.log"
result "the DMA API's error count written at a lab's stop is a report" \
	eval '[ $rc = 1 ] && grep -qxF "$tmp/dma.console.log:47: [DMA-API] $(ts 95 "loom-check-debug: DMA-API error_count 3 (the checker printed only the first)")" "$tmp/out"'
tap_done
