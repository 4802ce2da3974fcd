# SPDX-License-Identifier: GPL-2.0
# VM-lab helpers for loom's tests.  Source after tap.sh.
#   lab_start ARGS...  starts a lab in a fresh directory (LAB_DIR) and arranges
#                      for it to be stopped when the test exits, however it exits
#   lab_exec HOST CMD  runs CMD in guest HOST
#   lab_udev HOST      runs udev with the tree's rules in guest HOST
loom_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
loom_build=${BUILD:-$loom_top/build}
LOOM_LAB=$loom_build/bin/loom-lab
LAB_DIR=

lab_cleanup() {
	[ -n "$LAB_DIR" ] && "$LOOM_LAB" stop --dir "$LAB_DIR" >/dev/null 2>&1
	LAB_DIR=
}

lab_start() {
	local parent
	parent=$(mktemp -d /tmp/loom-test.XXXXXX)
	LAB_DIR=$parent/lab
	trap "lab_cleanup; rm -rf '$parent'" EXIT
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
	udevadm settle --timeout=240
	getent group loom | cut -d: -f3"
}
