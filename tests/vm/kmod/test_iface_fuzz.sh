#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# All of loom.ko's user interfaces fuzzed at once in a 1-host lab, as root
# and as an unprivileged user (uid 65534 in the loom group udev gives
# /dev/loom0 to, with key 0x5eed granted): iface_fuzz runs worker
# processes of several threads each making random ioctl, mmap and
# io_uring calls (inline, IOSQE_ASYNC, linked, on plain, SQPOLL and
# DEFER_TASKRUN rings, rings torn down with commands pending), forking
# and closing files under each other, trying other processes' tokens and
# contexts and privileged netlink commands; the parent kills workers at
# random, runs nl_fuzz (the generic netlink fuzzer) as root and as the
# user, and unbinds and rebinds the device every IFACE_FUZZ_UNBIND_MS.
# Then: no violation (privilege, or a completion seen twice), no lost
# completion, no unkillable process, every kind of call made, no context
# in use, nothing pinned and nothing charged to any user afterwards, no
# fuzz process left, no command of loom.ko waiting a second (times the
# lab's timeout scale) on a torn-down io_uring ring (ring_watch.sh, which
# also reports ring teardowns slower than IFACE_FUZZ_RING_LIMIT seconds,
# default 20 times the scale, with where every fuzz thread sleeps then;
# IFACE_FUZZ_RING_INSPECT=MODULE.ko has it load tests/debug/iou_inspect
# built for the guest's kernel), rmmod succeeds (no reference leaked) and insmod
# brings the card back, and the guest kernel log has no oops, BUG, warning
# or leak report.
#
# IFACE_FUZZ_CALLS (default 10000; 'make fuzz' runs 100000),
# IFACE_FUZZ_SEED (default 4242, so 'make check' repeats one run; 'make fuzz'
# passes the date; printed, to replay a run),
# IFACE_FUZZ_PROCS (4), IFACE_FUZZ_THREADS (3), IFACE_FUZZ_UNBIND_MS
# (5000, and at the latest once a third of the calls are made; 0: never),
# IFACE_FUZZ_SECONDS (time limit of the calls, 1200), IFACE_FUZZ_RINGS
# (the io_uring ring kinds: default psd, plain, SQPOLL and DEFER_TASKRUN).
# LOOM_MODULE=PATH tests another build of loom.ko.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

g=$loom_build/tests/vm/kmod
if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loom-card" ] || [ ! -x "$loom_build/bin/loomctl" ]; then
	echo "1..0 # SKIP loom-lab, loom-card or loomctl not built (make all)"
	exit 4
fi
calls=${IFACE_FUZZ_CALLS:-10000}
seed=${IFACE_FUZZ_SEED:-4242}
procs=${IFACE_FUZZ_PROCS:-4}
threads=${IFACE_FUZZ_THREADS:-3}
unbind_ms=${IFACE_FUZZ_UNBIND_MS:-5000}
rings=${IFACE_FUZZ_RINGS:-psd}
seconds=${IFACE_FUZZ_SECONDS:-1200}
ring_limit=${IFACE_FUZZ_RING_LIMIT:-20}

tap_plan 10
if [ ! -x "$g/iface_fuzz" ] || [ ! -x "$g/nl_fuzz" ]; then
	tap_fail "guest programs $g/iface_fuzz and nl_fuzz exist (run: make -C kmod tests)"
	tap_done
fi
lab_start_test "lab with 1 host starts and loads loom.ko" --hosts 1 \
	${LOOM_MODULE:+--module "$LOOM_MODULE"}
out=$(dirname "$LAB_DIR")/out
mkdir -p "$out"

loomgid=$(lab_udev 0 2>"$out/udev")
if [ -n "$loomgid" ] && lab_exec 0 'loomctl key grant 0x5eed user 65534 &&
	{ mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug; }' >"$out/setup" 2>&1; then
	tap_ok "udev runs (loom is gid $loomgid), key 0x5eed granted to uid 65534"
else
	tap_diag "$(cat "$out/udev" "$out/setup")"
	tap_fail "udev runs, key 0x5eed granted to uid 65534"
	tap_done
fi

tap_diag "iface_fuzz -n $calls -s $seed -p $procs -t $threads -U $unbind_ms -r $rings (replay with IFACE_FUZZ_CALLS=$calls IFACE_FUZZ_SEED=$seed IFACE_FUZZ_RINGS=$rings)"
# ring_watch.sh in the guest: watch_start LIMIT [PATTERN]; watch_stop prints
# its report (no sysrq dump: a slow teardown alone is not a failure, and
# the kernel log is checked).  At nice 0: at nice -10 on the debug kernel,
# where a look takes tens of seconds of CPU, it kept ksoftirqd from
# running RCU callbacks and the rings' teardowns waited for them.
held_ms=$(lab_scaled 1000)
watch_start() {
	lab_exec 0 "rm -f /tmp/ring_watch.stop; RING_WATCH_PATTERN='${2:-}' RING_WATCH_SYSRQ=0 \
		RING_WATCH_HELD_MS=$held_ms \
		RING_WATCH_INSPECT='${IFACE_FUZZ_RING_INSPECT:-}' \
		setsid $here/ring_watch.sh $1 /tmp/ring_watch.stop </dev/null >/tmp/ring_watch.out 2>&1 &"
}
watch_stop() {
	lab_exec 0 "touch /tmp/ring_watch.stop
		for i in \$(seq $(lab_scaled 100)); do grep -q '^ring-watch: done' /tmp/ring_watch.out && break; sleep 0.2; done
		cat /tmp/ring_watch.out"
}

# the watcher sees a teardown that a stopped task holds (ring_hold.c)
watch_start 2 ring_hold >"$out/watch-self" 2>&1
lab_exec 0 "$g/ring_hold $(lab_scaled 6); echo \"ring_hold: exit \$?\"" >>"$out/watch-self" 2>&1
watch_stop >>"$out/watch-self" 2>&1
if grep -q '^ring_hold: exit 0' "$out/watch-self" &&
	grep -q '^ring-watch: LINGERING: kworker' "$out/watch-self" &&
	grep -Eq '^ring-watch: task [0-9]+ \(ring_hold\) pid [0-9]+ state T' "$out/watch-self"; then
	tap_ok "ring_watch.sh reports a ring teardown held by a stopped task, and the task"
else
	tap_diag "$(cat "$out/watch-self")"
	tap_fail "ring_watch.sh reports a ring teardown held by a stopped task, and the task"
fi

# the fuzz, watched: slow teardowns reported, the module's waits checked
ring_limit=$(lab_scaled "$ring_limit")
watch_start "$ring_limit" >"$out/watch-start" 2>&1
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout $((seconds + 300)) 0 -- "$g/iface_fuzz" -n "$calls" \
	-s "$seed" -p "$procs" -t "$threads" -u 65534 -g "$loomgid" -U "$unbind_ms" -r "$rings" -T "$seconds" \
	>"$out/fuzz" 2>&1
rc=$?
tap_diag "$(cat "$out/fuzz")"
summary=$(grep '^iface_fuzz: [0-9]* calls in ' "$out/fuzz")
# "N calls in T s, seed S, V violations, L lost completions, K unkillable, W workers killed"
set -- $(sed -E 's/^iface_fuzz: ([0-9]+) calls in ([0-9]+) s, seed [0-9]+, ([0-9]+) violations, ([0-9]+) lost completions, ([0-9]+) unkillable, ([0-9]+) workers killed$/\1 \2 \3 \4 \5 \6/' <<<"$summary")
if [ $rc = 0 ] && [ $# = 6 ] && [ "$1" -ge "$calls" ] && [ "$3" = 0 ] && [ "$4" = 0 ] && [ "$5" = 0 ]; then
	tap_ok "$1 calls in $2 s (seed $seed): no privilege violation, no completion twice or lost, no unkillable process ($6 workers killed on the way)"
else
	tap_fail "$calls calls (seed $seed): no privilege violation, no completion twice or lost, no unkillable process (exit $rc: ${summary:-no summary line})"
fi
watch_stop >"$out/watch" 2>&1
# a slow teardown without the module's commands is io_uring's (reported);
# a command of the module waiting on a torn-down ring is a defect
done_line=$(grep '^ring-watch: done, ' "$out/watch")
if grep -q ', 0 wait(s) of loom.ko on torn-down rings, ' <<<"$done_line"; then
	grep -q '^ring-watch: done, 0 lingering' <<<"$done_line" || tap_diag "$(cat "$out/watch")"
	tap_ok "no command of loom.ko waited $held_ms ms or more on a torn-down ring (${done_line#ring-watch: done, })"
else
	tap_diag "$(cat "$out/watch-start" "$out/watch")"
	tap_fail "no command of loom.ko waited $held_ms ms or more on a torn-down ring (${done_line:-the watcher did not finish})"
fi
missing=
for op in "ioctl" "ctx create" "ctx destroy" "mmap" "io_uring sqe" "fork" "close+reopen" \
	"cross-file check" "netlink" "ring teardown" "worker killed"; do
	grep -q "^  $op  *[1-9]" "$out/fuzz" || missing="$missing, $op"
done
[ "$unbind_ms" = 0 ] || grep -Eq "^  unbind\+bind +[1-9]" "$out/fuzz" || missing="$missing, unbind+bind"
if [ -z "$missing" ]; then
	tap_ok "every kind of call was made (ioctl, mmap, io_uring, fork, close, cross-file, netlink, ring teardown, kill$([ "$unbind_ms" = 0 ] || echo ", unbind"))"
else
	tap_fail "every kind of call was made (none of: ${missing#, })"
fi

lab_exec 0 'd=/sys/kernel/debug/loom/loom0/contexts
	for i in $(seq 50); do [ -e $d ] && break; sleep 0.2; done
	cat $d; echo "fuzz processes: $(pgrep -c "iface_fuzz|nl_fuzz")"' >"$out/after" 2>&1
if grep -qx '0 contexts in use of [0-9]*' "$out/after" && grep -q '^pinned 0 KiB' "$out/after" &&
	! grep -q '^uid ' "$out/after"; then
	tap_ok "afterwards no context is in use, nothing is pinned, nothing is charged to any user"
else
	tap_diag "$(cat "$out/after")"
	tap_fail "afterwards no context is in use, nothing is pinned, nothing is charged to any user"
fi
if grep -qx 'fuzz processes: 0' "$out/after"; then
	tap_ok "no fuzz process is left"
else
	tap_diag "$(lab_exec 0 'ps -eo pid,stat,wchan:30,cmd | grep -E "iface_fuzz|nl_fuzz"')"
	tap_fail "no fuzz process is left"
fi
lab_exec 0 'rmmod loom; echo "rmmod: exit $?"; insmod kmod/loom.ko; echo "insmod: exit $?"
	for i in $(seq 50); do [ -e /dev/loom0 ] && break; sleep 0.2; done
	'"$g"'/hold_ctx info' >"$out/reload" 2>&1
if grep -qx 'rmmod: exit 0' "$out/reload" && grep -qx 'insmod: exit 0' "$out/reload" &&
	grep -q '^info: node' "$out/reload"; then
	tap_ok "rmmod succeeds (no reference leaked), insmod brings the card back"
else
	tap_diag "$(cat "$out/reload")"
	tap_fail "rmmod succeeds (no reference leaked), insmod brings the card back"
fi
tap_check "guest kernel log has no oops, BUG, warning or leak report" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_done
