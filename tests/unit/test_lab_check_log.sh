#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-lab check-log prints every kernel report it finds with the lines
# around it, so that a failed check can be understood from its output:
# a dump_stack() whose header (the driver's message, the CPU and task)
# matches no rule shows that header, a WARNING shows its "cut here" line and
# its call trace, reports far apart are printed apart ("--") without the
# lines between them, --before/--after choose how many lines, a clean log
# prints nothing and exits 0, and a bad count is a usage error.
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
filler() { # N FIRST_SECOND: N ordinary console lines
	for ((i = 0; i < $1; i++)); do ts $(($2 + i)) "loom 0000:00:03.0: loom0: port 0 link up (ordinary line $i)"; done
}
{
	ts 1 "Linux version 6.1.192-loom-debug (root@lab) #1 SMP PREEMPT_DYNAMIC"
	ts 1 "kmemleak: Kernel memory leak detector initialized (mem pool available: 15734)"
	filler 20 2
	ts 30 "loom 0000:00:03.0: loom0: event for port 9 of 4 ignored"
	ts 30 "CPU: 0 PID: 57 Comm: kworker/0:2 Tainted: G           O       6.1.192-loom-debug #1"
	ts 30 "Hardware name: QEMU Standard PC (i440FX + PIIX, 1996), BIOS 1.16.2-debian-1.16.2-1 04/01/2014"
	ts 30 "Call Trace:"
	ts 30 " <TASK>"
	ts 30 " dump_stack_lvl+0x5b/0x77"
	ts 30 " loom_event_work+0x1c/0x80 [loom]"
	ts 30 " </TASK>"
	filler 60 40
	ts 200 "------------[ cut here ]------------"
	ts 200 "WARNING: CPU: 1 PID: 12 at drivers/loom/loom_irq.c:70 loom_irq+0x1c/0x80 [loom]"
	ts 200 "Modules linked in: loom(O)"
	ts 200 "RIP: 0010:loom_irq+0x1c/0x80 [loom]"
	ts 200 "Call Trace:"
	ts 200 " <IRQ>"
	ts 200 " __handle_irq_event_percpu+0x8b/0x2a0"
	ts 200 " </IRQ>"
	ts 200 "---[ end trace 0000000000000000 ]---"
	filler 5 300
} >"$tmp/report.log"
# the line numbers of what must be shown, and of a line between the reports
at() { grep -nF -- "$1" "$tmp/report.log" | head -n 1 | cut -d: -f1; }
n_header=$(at "event for port 9 of 4 ignored") n_trace1=$(at "Call Trace:")
n_cut=$(at "cut here") n_warn=$(at "WARNING: CPU: 1") n_rip=$(at "RIP: ") n_end=$(at "end trace")
n_far=$(at "(ordinary line 40)")

"$lab" check-log "$tmp/report.log" >"$tmp/out" 2>"$tmp/err"
rc=$?
show() { tap_diag "check-log printed:"; tap_diag "$(cat "$tmp/out")"; tap_diag "stderr: $(cat "$tmp/err")"; }

tap_plan 9
tap_check "a log with reports: exit 1 (got $rc)" test "$rc" = 1
if grep -qxF "$tmp/report.log-$n_header- $(ts 30 'loom 0000:00:03.0: loom0: event for port 9 of 4 ignored')" "$tmp/out" &&
   grep -qxF "$tmp/report.log:$n_trace1: [stack trace] $(ts 30 'Call Trace:')" "$tmp/out" &&
   grep -qF " loom_event_work+0x1c/0x80 [loom]" "$tmp/out"; then
	tap_ok "a dump_stack(): its header line $n_header (matched by no rule), the finding and the trace are printed"
else
	tap_fail "a dump_stack(): its header line $n_header (matched by no rule), the finding and the trace are printed"
	show
fi
if grep -qxF "$tmp/report.log-$n_cut- $(ts 200 '------------[ cut here ]------------')" "$tmp/out" &&
   grep -q "^$tmp/report.log:$n_warn: \[WARNING\] .*WARNING: CPU: 1 PID: 12 at drivers/loom/loom_irq.c:70" "$tmp/out" &&
   grep -qxF "$tmp/report.log-$n_rip- $(ts 200 'RIP: 0010:loom_irq+0x1c/0x80 [loom]')" "$tmp/out" &&
   grep -qF "$tmp/report.log-$n_end- $(ts 200 '---[ end trace 0000000000000000 ]---')" "$tmp/out"; then
	tap_ok "a WARNING: its cut-here line, RIP and the end of its trace are printed"
else
	tap_fail "a WARNING: its cut-here line, RIP and the end of its trace are printed"
	show
fi
if ! grep -qF -- "-$n_far- " "$tmp/out" && [ "$(grep -cx -- '--' "$tmp/out")" = 1 ]; then
	tap_ok "reports far apart are printed apart (one '--'), the lines between them are not"
else
	tap_fail "reports far apart are printed apart (one '--'), the lines between them are not"
	show
fi
if grep -qx "loom-lab: check-log: 3 findings in 1 log: stack trace 2, WARNING 1" "$tmp/err"; then
	tap_ok "stderr counts the findings per class: $(cat "$tmp/err")"
else
	tap_fail "stderr counts the findings per class"
	show
fi

"$lab" check-log --before 0 --after 0 "$tmp/report.log" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && [ "$(grep -vcx -- '--' "$tmp/out")" = 3 ] &&
   [ "$(grep -c "^$tmp/report.log:[0-9]*: \[" "$tmp/out")" = 3 ]; then
	tap_ok "--before 0 --after 0: only the 3 finding lines"
else
	tap_fail "--before 0 --after 0: only the 3 finding lines (exit $rc)"
	show
fi
"$lab" check-log -B 1 -A 1 "$tmp/report.log" >"$tmp/out" 2>"$tmp/err"
if grep -qF -- "-$((n_trace1 - 1))- " "$tmp/out" && ! grep -qF -- "-$((n_trace1 - 2))- " "$tmp/out" &&
   grep -qF -- "-$((n_trace1 + 1))- " "$tmp/out" && ! grep -qF -- "-$((n_trace1 + 2))- " "$tmp/out"; then
	tap_ok "-B 1 -A 1: one line each side"
else
	tap_fail "-B 1 -A 1: one line each side"
	show
fi

head -n 22 "$tmp/report.log" >"$tmp/clean.log"
"$lab" check-log "$tmp/clean.log" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ]; then
	tap_ok "a clean log: exit 0, nothing printed"
else
	tap_fail "a clean log: exit 0, nothing printed (exit $rc)"
	show
fi

"$lab" check-log --before x "$tmp/report.log" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 2 ] && grep -q "before wants a number of lines" "$tmp/err" && [ ! -s "$tmp/out" ]; then
	tap_ok "--before x: exit 2, says what it wants"
else
	tap_fail "--before x: exit 2, says what it wants (exit $rc)"
	show
fi
tap_done
