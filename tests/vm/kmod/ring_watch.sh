#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ring_watch.sh LIMIT_S STOPFILE: runs in a guest beside a fuzz and reports
# every io_uring ring whose teardown takes longer than LIMIT_S seconds, and
# every command of loom.ko that waits on a torn-down ring for longer than
# RING_WATCH_HELD_MS (default 1000) milliseconds.
#
# loom.ko ends its waits on a torn-down ring within 100 ms (loom_uring.c),
# so a command of the module waiting longer on one is the module's defect.
# A teardown can take long without the module: on Linux 6.1 a
# DEFER_TASKRUN ring torn down by a thread that goes on running does so
# with io_uring's own requests (tests/debug/defer_linger.c shows it
# without any driver).  debugfs loom/loomN/uring lists each card's waits.
#
# A ring's last close queues io_ring_exit_work(), which waits until every
# request of the ring has ended; Linux warns only after five minutes
# (io_uring.c, "WARN_ON_ONCE(time_after(jiffies, timeout))").  A kworker
# seen in io_ring_exit_work() at every look for LIMIT_S seconds is
# reported; it may have run one teardown after another between two looks
# (iou_inspect tells the rings apart).  For each one the script prints
# loom.ko's waits on torn-down rings and its totals, and the tid, name,
# state, wait channel and kernel stack of every task in D state and of
# every task whose name matches RING_WATCH_PATTERN (an extended regular
# expression; default the fuzz's tasks, io_uring's SQPOLL threads and
# io-wq workers);
# then it asks the kernel to log the blocked tasks (sysrq w) unless
# RING_WATCH_SYSRQ is 0.  With RING_WATCH_INSPECT=MODULE.ko it also loads
# that module (tests/debug/iou_inspect: io_uring's state of every thread,
# which the kernel logs) and prints what it logged.
#
# Output: "ring-watch: ..." lines on stdout, the last one "ring-watch:
# done, ..." with the counts and the number of looks.  Ends when STOPFILE
# exists.
limit=${1:?usage: ring_watch.sh LIMIT_S STOPFILE}
stop=${2:?usage: ring_watch.sh LIMIT_S STOPFILE}
pattern=${RING_WATCH_PATTERN:-iface_fuzz|nl_fuzz|iou-sqp|iou-wrk}
reported=
# "PID:SINCE" of each kworker in io_ring_exit_work() at the last look
seen=

# every task in D state or named by the pattern: builtins per task, then
# one grep, so that a dump takes seconds, not minutes, in a TCG guest
dump_tasks() {
	for t in /proc/[0-9]*/task/[0-9]*; do
		read -r comm 2>/dev/null <"$t/comm" || continue
		state=
		while read -r key value; do
			[ "$key" = State: ] && state=$value && break
		done 2>/dev/null <"$t/status"
		echo "$t|$state|$comm"
	done | grep -E "^[^|]*\|D|\|($pattern)" | while IFS='|' read -r t state comm; do
		pid=${t#/proc/}
		echo "ring-watch: task ${t##*/} ($comm) pid ${pid%%/*} state $state wchan $(cat "$t/wchan" 2>/dev/null)"
		cat "$t/stack" 2>/dev/null | sed 's/^/ring-watch:     /'
	done
	[ "${RING_WATCH_SYSRQ:-1}" = 0 ] || echo w >/proc/sysrq-trigger 2>/dev/null
}

held_ms=${RING_WATCH_HELD_MS:-1000}
module=0

echo "ring-watch: watching ring teardowns (limit ${limit} s) and loom.ko's waits on torn-down rings (limit ${held_ms} ms)"
looks=0
while [ ! -e "$stop" ]; do
	looks=$((looks + 1))
	read -r up _ </proc/uptime
	now=${up%.*}
	# the waits of every card's files, read once a look
	held=$(cat /sys/kernel/debug/loom/loom*/uring 2>/dev/null)
	# "cmd OP waiting MS ms ring torn_down": the module should have ended it
	while read -r _ op state ms _ _ ring; do
		[ "$state" = waiting ] && [ "$ring" = torn_down ] && [ "$ms" -ge "$held_ms" ] || continue
		module=$((module + 1))
		echo "ring-watch: MODULE: command $op waits $ms ms on a torn-down ring"
	done 2>/dev/null <<EOF
$held
EOF
	next=
	# one process reads every stack: the loop must stay cheap in a TCG guest
	for f in $(grep -l io_ring_exit_work /proc/[0-9]*/stack 2>/dev/null); do
		pid=${f#/proc/}
		pid=${pid%/stack}
		since=$now
		for e in $seen; do
			[ "${e%%:*}" = "$pid" ] && since=${e#*:}
		done
		next="$next $pid:$since"
		[ $((now - since)) -ge "$limit" ] || continue
		case " $reported " in *" $pid:$since "*) continue ;; esac
		reported="$reported $pid:$since"
		echo "ring-watch: LINGERING: kworker $pid in io_ring_exit_work for $((now - since)) s (since uptime $since s)"
		# loom.ko's waits on torn-down rings, and each card's totals
		printf '%s\n' "$held" | grep -E 'torn_down$|^waiting ' | sed 's/^/ring-watch: loom: /'
		if [ -n "${RING_WATCH_INSPECT:-}" ]; then
			dmesg -c >/dev/null 2>&1
			insmod "$RING_WATCH_INSPECT" >/dev/null 2>&1
			dmesg | sed -n 's/^.*iou_inspect: /ring-watch: io_uring: /p'
		fi
		dump_tasks
	done
	seen=$next
	sleep 1
done
echo "ring-watch: done, $(echo "$reported" | wc -w) lingering teardown(s), $module wait(s) of loom.ko on torn-down rings, $looks looks"
