#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-lab failure paths: a start that fails (boot timeout, a module that
# does not load) says why and leaves nothing behind; a guest that crashes
# fails its execs with 125 and check-log reports it; a crashed supervisor
# with a hanging exec and a frozen VM is still torn down completely by stop;
# a dead card emulator fails its host's execs with 125 and spares the others.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
lab=$build/bin/loom-lab

if [ ! -x "$lab" ] || [ ! -x "$build/bin/loom-lab-agent" ]; then
	echo "1..0 # SKIP loom-lab is not built (make -C tools/loom-lab)"
	exit 4
fi
if ! "$top/tools/deps/guest-kver" >/dev/null 2>&1; then
	echo "1..0 # SKIP no guest kernel (tools/deps/install-deps)"
	exit 4
fi

tmp=$(mktemp -d /tmp/loom-lab-test.XXXXXX)
dirs=()
bg_pids=()
cleanup() {
	for p in "${bg_pids[@]}"; do kill "$p" 2>/dev/null; done
	for d in "${dirs[@]}"; do "$lab" stop --dir "$d" >/dev/null 2>&1; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# gone DIR PIDS SHM: nothing of a lab is left
gone() {
	local d=$1 p f ok=0
	for p in $2; do [ -e "/proc/$p" ] && { tap_diag "pid $p still exists"; ok=1; }; done
	for f in $3; do [ -e "$f" ] && { tap_diag "$f still exists"; ok=1; }; done
	pgrep -f "$d/" >/dev/null && { tap_diag "processes naming $d remain"; ok=1; }
	[ -e "$d" ] && { tap_diag "$d remains"; ok=1; }
	return $ok
}
lab_pids() { awk '{print $3}' "$1/pids" 2>/dev/null | sort -u; }
# start_failing LOG ARGS...: runs a start that is meant to fail; sets rc and
# leftover (the guest RAM files of that start still in /dev/shm: their
# names carry the pid of the start process)
start_failing() {
	local log=$1 spid
	shift
	"$lab" start "$@" 2>"$log" &
	spid=$!
	wait $spid
	rc=$?
	leftover=$(ls /dev/shm | grep "^loom-lab-$spid-")
	[ -z "$leftover" ] || tap_diag "left in /dev/shm: $leftover"
}

tap_plan 9

# ---- A: boot timeout
d=$tmp/a; dirs+=("$d")
start_failing "$tmp/a.log" --dir "$d" --hosts 1 --no-card --no-module --boot-timeout 1
# LOOM_LAB_TIMEOUT_SCALE (a loaded machine's setting) multiplies the timeout
want_s=$((1 * ${LOOM_LAB_TIMEOUT_SCALE:-1}))
if [ $rc = 1 ] && [ -z "$leftover" ] && grep -q "did not come up within $want_s s" "$tmp/a.log" &&
	grep -q 'host 0: .*console log' "$tmp/a.log" && gone "$d" "" ""; then
	tap_ok "boot timeout: start exits 1, names the host, shows its console, leaves nothing"
else
	tap_fail "boot timeout: start exits 1, names the host, shows its console, leaves nothing (rc $rc)"
	tap_diag "$(tail -n 20 "$tmp/a.log")"
fi

# ---- B: a module that does not load
d=$tmp/b; dirs+=("$d")
start_failing "$tmp/b.log" --dir "$d" --hosts 1 --no-card --module "$top/tools/loom-lab/Makefile"
if [ $rc = 1 ] && [ -z "$leftover" ] && grep -q 'insmod .*Makefile failed' "$tmp/b.log" && gone "$d" "" ""; then
	tap_ok "bad module: start exits 1 with insmod's complaint and leaves nothing"
else
	tap_fail "bad module: start exits 1 with insmod's complaint and leaves nothing (rc $rc)"
	tap_diag "$(tail -n 20 "$tmp/b.log")"
fi

# ---- C: a guest that crashes
d=$tmp/c; dirs+=("$d")
if "$lab" start --dir "$d" --hosts 1 --no-card --no-module 2>"$tmp/c.log"; then
	pids=$(lab_pids "$d"); shm=$(cat "$d/shm")
	"$lab" exec --dir "$d" 0 -- 'echo c > /proc/sysrq-trigger; sleep 60' 2>"$tmp/c.err"; rc=$?
	if [ $rc = 125 ] && grep -q 'host 0 is down: QEMU' "$tmp/c.err"; then
		tap_ok "guest crash: the running exec fails with 125 and says the host is down"
	else
		tap_fail "guest crash: the running exec fails with 125 (rc $rc)"
		tap_diag "$(cat "$tmp/c.err")"
	fi
	"$lab" exec --dir "$d" 0 -- true 2>/dev/null; rc=$?
	"$lab" check-log --dir "$d" >"$tmp/c.check" 2>/dev/null; rc2=$?
	if [ $rc = 125 ] && [ $rc2 = 1 ] && grep -q '^host 0: .*h0.console.log:[0-9]*: .*Call Trace' "$tmp/c.check"; then
		tap_ok "guest crash: later execs fail with 125, check-log reports the trace (exit 1)"
	else
		tap_fail "guest crash: later execs 125 ($rc), check-log exit 1 ($rc2)"
		tap_diag "$(cat "$tmp/c.check")"
	fi
	"$lab" stop --dir "$d"; rc=$?
	if [ $rc = 0 ] && gone "$d" "$pids" "$shm"; then
		tap_ok "guest crash: stop leaves nothing"
	else
		tap_fail "guest crash: stop leaves nothing (rc $rc)"
	fi
else
	tap_diag "$(tail -n 20 "$tmp/c.log")"
	for i in 1 2 3; do tap_fail "guest crash lab did not start"; done
fi

# ---- D: supervisor crash, hanging exec, frozen VM
d=$tmp/d; dirs+=("$d")
if "$lab" start --dir "$d" --hosts 1 --no-card --no-module 2>"$tmp/d.log"; then
	pids=$(lab_pids "$d"); shm=$(cat "$d/shm")
	"$lab" exec --dir "$d" --timeout 0 0 -- 'sleep 1000' 2>"$tmp/d.err" &
	hang=$!
	bg_pids+=("$hang")
	sleep 1
	sup=$(awk '$1 == "supervisor" {print $3; exit}' "$d/pids")
	qemu=$(awk '$1 == "qemu" {print $3; exit}' "$d/pids")
	kill -KILL "$sup"
	wait "$hang"; rc=$?
	kill -STOP "$qemu"
	"$lab" status --dir "$d" >"$tmp/d.status"; rc2=$?
	if [ $rc = 125 ] && [ $rc2 = 1 ] && grep -q '^supervisor: pid [0-9]* dead' "$tmp/d.status" &&
		grep -q '^host 0: qemu pid [0-9]* alive' "$tmp/d.status"; then
		tap_ok "supervisor crash: the hanging exec ends with 125, status shows who is dead"
	else
		tap_fail "supervisor crash: hanging exec 125 ($rc), status exit 1 ($rc2)"
		tap_diag "$(cat "$tmp/d.err" "$tmp/d.status")"
	fi
	t0=$(date +%s)
	"$lab" stop --dir "$d"; rc=$?
	el=$(($(date +%s) - t0))
	if [ $rc = 0 ] && [ $el -lt 20 ] && gone "$d" "$pids" "$shm"; then
		tap_ok "supervisor crash + frozen VM: stop removes everything (${el} s)"
	else
		tap_fail "supervisor crash + frozen VM: stop removes everything (rc $rc, ${el} s)"
	fi
else
	tap_diag "$(tail -n 20 "$tmp/d.log")"
	for i in 1 2; do tap_fail "supervisor crash lab did not start"; done
fi

# ---- E: a card emulator dies
if [ -x "$build/bin/loom-card" ]; then
	d=$tmp/e; dirs+=("$d")
	if "$lab" start --dir "$d" --hosts 2 --no-module 2>"$tmp/e.log"; then
		pids=$(lab_pids "$d"); shm=$(cat "$d/shm")
		card1=$(awk '$1 == "card" && $2 == 1 {print $3; exit}' "$d/pids")
		kill -KILL "$card1"
		sleep 0.5
		"$lab" exec --dir "$d" 1 -- true 2>"$tmp/e.err"; rc=$?
		out=$("$lab" exec --dir "$d" 0 -- echo alive); rc2=$?
		if [ $rc = 125 ] && grep -q 'card emulator' "$tmp/e.err" && [ $rc2 = 0 ] && [ "$out" = alive ]; then
			tap_ok "card death: its host's execs fail with 125, the other host works on"
		else
			tap_fail "card death: host 1 exec 125 ($rc), host 0 exec 0 ($rc2)"
			tap_diag "$(cat "$tmp/e.err")"
		fi
		"$lab" stop --dir "$d"; rc=$?
		if [ $rc = 0 ] && gone "$d" "$pids" "$shm"; then
			tap_ok "card death: stop leaves nothing"
		else
			tap_fail "card death: stop leaves nothing (rc $rc)"
		fi
	else
		tap_diag "$(tail -n 20 "$tmp/e.log")"
		for i in 1 2; do tap_fail "lab with cards did not start"; done
	fi
else
	tap_skip "card death: loom-card is not built"
	tap_skip "card death: stop leaves nothing"
fi

tap_done
