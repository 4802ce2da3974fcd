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
# a ring.  At the first one the script prints, for every task of the
# processes named by PATTERN (default the fuzz's, io_uring's SQPOLL
# threads and io-wq workers) and for every task in D state: its tid,
# name, state, wait channel and kernel stack; and asks the kernel to log
# the blocked tasks (sysrq w).  Output: "ring-watch: ..." lines on stdout.
# Ends when STOPFILE exists.
limit=${1:?usage: ring_watch.sh LIMIT_S STOPFILE}
stop=${2:?usage: ring_watch.sh LIMIT_S STOPFILE}
pattern=${RING_WATCH_PATTERN:-iface_fuzz|nl_fuzz|iou-sqp|iou-wrk}
seen=/tmp/ring_watch.$$
reported=
: >"$seen"

dump_tasks() {
	for t in /proc/[0-9]*/task/[0-9]*; do
		comm=$(cat "$t/comm" 2>/dev/null) || continue
		state=$(sed -n 's/^State:[[:space:]]*//p' "$t/status" 2>/dev/null)
		case $state in
		D*) ;;
		*) echo "$comm" | grep -Eq "^($pattern)" || continue ;;
		esac
		echo "ring-watch: task ${t##*/} ($comm) pid $(echo "$t" | cut -d/ -f3) state $state wchan $(cat "$t/wchan" 2>/dev/null)"
		sed 's/^/ring-watch:     /' "$t/stack" 2>/dev/null
	done
	echo w >/proc/sysrq-trigger 2>/dev/null
}

echo "ring-watch: watching ring teardowns (limit ${limit} s)"
while [ ! -e "$stop" ]; do
	now=$(cut -d. -f1 /proc/uptime)
	: >"$seen.new"
	for p in /proc/[0-9]*; do
		case $(cat "$p/comm" 2>/dev/null) in kworker*) ;; *) continue ;; esac
		grep -q io_ring_exit_work "$p/stack" 2>/dev/null || continue
		pid=${p#/proc/}
		since=$(sed -n "s/^$pid //p" "$seen")
		echo "$pid ${since:-$now}" >>"$seen.new"
		[ -n "$since" ] && [ $((now - since)) -ge "$limit" ] || continue
		case " $reported " in *" $pid:$since "*) continue ;; esac
		reported="$reported $pid:$since"
		echo "ring-watch: LINGERING: kworker $pid in io_ring_exit_work for $((now - since)) s (since uptime $since s)"
		dump_tasks
	done
	mv "$seen.new" "$seen"
	sleep 1
done
rm -f "$seen"
echo "ring-watch: done, $(echo "$reported" | wc -w) lingering teardown(s)"
