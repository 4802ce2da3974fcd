# SPDX-License-Identifier: GPL-2.0
# VM-lab helpers for loom's tests.  Source after tap.sh.
#   lab_start ARGS...  starts a lab in a fresh directory (LAB_DIR) and arranges
#                      for it to be stopped when the test exits, however it exits
#                      (a test that sets its own EXIT trap calls lab_cleanup in it)
#   lab_require FILE...  skips the test (exit 4) unless every FILE exists
#   lab_exec HOST CMD  runs CMD in guest HOST
#   lab_udev HOST      runs udev with the tree's rules in guest HOST
#   lab_hosts N        prints the names of hosts 0..N-1 for mpirun --host:
#                      loom-h0,loom-h1,...
#   lab_stop_clean     stops the lab and checks that it left nothing
#   lab_scaled N       prints N times the lab's timeout scale (loom-lab start
#                      --timeout-scale): a wall-clock limit of a test
loom_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
loom_build=${BUILD:-$loom_top/build}
LOOM_LAB=$loom_build/bin/loom-lab
LAB_DIR=
LAB_PARENT=

lab_cleanup() {
	[ -n "$LAB_DIR" ] && "$LOOM_LAB" stop --dir "$LAB_DIR" >/dev/null 2>&1
	LAB_DIR=
	[ -n "$LAB_PARENT" ] && rm -rf "$LAB_PARENT"
	LAB_PARENT=
}

lab_require() {
	local f
	for f in "$@"; do
		if [ ! -e "$f" ]; then
			echo "1..0 # SKIP $f is missing (make; tools/deps/install-deps)"
			exit 4
		fi
	done
}

lab_start() {
	local parent
	parent=$(mktemp -d /tmp/loom-test.XXXXXX)
	LAB_PARENT=$parent
	LAB_DIR=$parent/lab
	trap lab_cleanup EXIT
	trap 'exit 130' INT TERM
	"$LOOM_LAB" start --dir "$LAB_DIR" "$@" 2>"$parent/start.log"
	local rc=$?
	[ $rc = 0 ] || tap_diag "$(tail -n 30 "$parent/start.log")"
	return $rc
}

lab_exec() {
	local host=$1
	shift
	"$LOOM_LAB" exec --dir "$LAB_DIR" "$host" -- "$@"
}

# lab_scaled N: N multiplied by the timeout scale of the lab in LAB_DIR (or,
# before a lab is started, LOOM_LAB_TIMEOUT_SCALE; 1 by default).  Every
# wall-clock limit a test sets on a guest -- a bound on how long a step may
# take, a timeout(1) or sleep in the guest, a module timeout the test waits
# out -- goes through it, so that a slower guest kernel (a debug build)
# stretches the test's limits as it stretches the lab's own.
lab_scaled() {
	local scale=
	[ -n "$LAB_DIR" ] && [ -r "$LAB_DIR/lab.conf" ] &&
		scale=$(sed -n 's/^timeout_scale=\([0-9]*\)$/\1/p' "$LAB_DIR/lab.conf")
	[ -n "$scale" ] || scale=${LOOM_LAB_TIMEOUT_SCALE:-1}
	[[ "$scale" =~ ^[1-9][0-9]*$ ]] || scale=1
	echo $(($1 * scale))
}

lab_hosts() {
	local i names=
	for ((i = 0; i < $1; i++)); do names+=${names:+,}loom-h$i; done
	echo "$names"
}

# lab_stop_clean: stops the lab in LAB_DIR and checks that none of its
# recorded processes, RAM files or processes naming DIR, nor DIR itself, is
# left.  What is left is told as a TAP diagnostic; 0 when stop succeeded
# and nothing is.
lab_stop_clean() {
	local dir=$LAB_DIR pids shm left="" rc p f
	pids=$(awk '{print $3}' "$dir/pids" | sort -u)
	shm=$(cat "$dir/shm")
	"$LOOM_LAB" stop --dir "$dir"
	rc=$?
	LAB_DIR=
	for p in $pids; do [ -e "/proc/$p" ] && left="$left pid $p"; done
	for f in $shm; do [ -e "$f" ] && left="$left $f"; done
	pgrep -f "$dir/" >/dev/null && left="$left processes naming $dir"
	[ -e "$dir" ] && left="$left $dir"
	[ -z "$left" ] || tap_diag "stop (exit $rc) left:$left"
	[ $rc = 0 ] && [ -z "$left" ]
}

# lab_start_test DESCRIPTION ARGS...: lab_start ARGS reported as one TAP
# result; a lab that does not start ends the test there.
lab_start_test() {
	local desc=$1
	shift
	if lab_start "$@"; then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		tap_done
	fi
}

# lab_udev HOST: run udev in guest HOST with the tree's udev/ rules, as a
# real system would: a "loom" group (added to a guest-local copy of
# /etc/group when the host has none), the rules of udev/ in /run/udev
# (or over a stale copy in /etc/udev), systemd-udevd started, the loom
# devices already there announced again (udevadm trigger) and settled.
# Prints the loom group's gid; non-zero status when udev could not run.
lab_udev() {
	lab_exec "$1" "set -e
	if ! getent group loom >/dev/null; then
		mkdir -p /run/loom-lab-etc
		cp /etc/group /run/loom-lab-etc/group
		gid=999
		while getent group \$gid >/dev/null; do gid=\$((gid - 1)); done
		echo loom:x:\$gid: >>/run/loom-lab-etc/group
		mount --bind /run/loom-lab-etc/group /etc/group
	fi
	mkdir -p /run/udev/rules.d
	for r in $loom_top/udev/*.rules; do
		if [ -e /etc/udev/rules.d/\${r##*/} ]; then
			mount --bind \$r /etc/udev/rules.d/\${r##*/}
		else
			cp \$r /run/udev/rules.d/
		fi
	done
	pgrep -x systemd-udevd >/dev/null || /lib/systemd/systemd-udevd --daemon >/dev/null 2>&1
	udevadm control --reload
	udevadm trigger --action=add --subsystem-match=loom
	udevadm settle --timeout=$(lab_scaled 240)
	getent group loom | cut -d: -f3"
}
