#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ring_watch.sh LIMIT_S STOPFILE: runs in a guest beside a fuzz and reports
# every io_uring ring whose teardown takes longer than LIMIT_S seconds.
#
# A ring's last close queues io_ring_exit_work(), which waits until every
# request of the ring has ended; Linux warns only after five minutes
# (io_uring.c, "WARN_ON_ONCE(time_after(jiffies, timeout))").  A kworker
# seen in io_ring_exit_work() at every look for LIMIT_S seconds holds such
# a ring.  At each such kworker the script prints, for every task whose
# name matches RING_WATCH_PATTERN (an extended regular expression; default
# the fuzz's tasks, io_uring's SQPOLL threads and io-wq workers) and for
# every task in D state: its tid,
# name, state, wait channel and kernel stack; and asks the kernel to log
# the blocked tasks (sysrq w) unless RING_WATCH_SYSRQ is 0.  With
# RING_WATCH_INSPECT=MODULE.ko it first loads that module
# (tests/debug/iou_inspect: io_uring's state of every thread, logged by
# the kernel).  Output: "ring-watch: ..." lines on stdout.
# Ends when STOPFILE exists.
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
		read -r wchan 2>/dev/null <"$t/wchan"
		echo "ring-watch: task ${t##*/} ($comm) pid ${pid%%/*} state $state wchan $wchan"
		sed 's/^/ring-watch:     /' "$t/stack" 2>/dev/null
	done
	[ "${RING_WATCH_SYSRQ:-1}" = 0 ] || echo w >/proc/sysrq-trigger 2>/dev/null
}

echo "ring-watch: watching ring teardowns (limit ${limit} s)"
while [ ! -e "$stop" ]; do
	read -r up _ </proc/uptime
	now=${up%.*}
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
		[ -z "${RING_WATCH_INSPECT:-}" ] ||
			echo "ring-watch: $(insmod "$RING_WATCH_INSPECT" 2>&1 | tail -1) (io_uring state in the kernel log)"
		dump_tasks
	done
	seen=$next
	sleep 1
done
echo "ring-watch: done, $(echo "$reported" | wc -w) lingering teardown(s)"
