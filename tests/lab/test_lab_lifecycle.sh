#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-lab lifecycle: a 2-host lab without cards, module or management
# network boots the guest kernel (each guest named, with loopback only),
# exec relays stdout and stderr separately and byte for byte,
# propagates exit statuses, runs commands concurrently on one host and on
# two, kills a command at its timeout (124), reports a lab error (125) and
# bad options (2), and stop leaves no process, socket, /dev/shm file or
# directory behind, twice in a row.  The guests cache the host's root but
# not the tree: a file the host rewrites in the tree is seen at once.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
lab=$build/bin/loom-lab

if [ ! -x "$lab" ] || [ ! -x "$build/bin/loom-lab-agent" ]; then
	echo "1..0 # SKIP loom-lab is not built (make -C tools/loom-lab)"
	exit 4
fi
if ! kver=$("$top/tools/deps/guest-kver" 2>/dev/null); then
	echo "1..0 # SKIP no guest kernel (tools/deps/install-deps)"
	exit 4
fi

tmp=$(mktemp -d /tmp/loom-lab-test.XXXXXX)
# guests see the host's /var/tmp (not its /tmp): data for them goes here
shared=$(mktemp /var/tmp/loom-lab-test.XXXXXX)
# a file in the tree that the host rewrites while the lab runs
fresh=$(mktemp "$top/.lab-fresh.XXXXXX")
dir=$tmp/lab
bg_pids=()
cleanup() {
	for p in "${bg_pids[@]}"; do kill "$p" 2>/dev/null; done
	"$lab" stop --dir "$dir" >/dev/null 2>&1
	rm -rf "$tmp" "$shared" "$fresh" "$fresh.new"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

lx() { "$lab" exec --dir "$dir" "$@"; }

tap_plan 21

# ---- bad options: message and exit 2, nothing created
"$lab" start --hosts 2 >/dev/null 2>"$tmp/err"; rc=$?
"$lab" start --dir "$dir" --hosts 17 >/dev/null 2>>"$tmp/err"; rc2=$?
"$lab" frobnicate >/dev/null 2>>"$tmp/err"; rc3=$?
if [ $rc = 2 ] && [ $rc2 = 2 ] && [ $rc3 = 2 ] && [ ! -e "$dir" ] &&
	grep -q -- '--dir DIR is required' "$tmp/err" && grep -q -- '--hosts 17' "$tmp/err"; then
	tap_ok "bad options exit 2 with a message and create nothing"
else
	tap_fail "bad options exit 2 with a message and create nothing ($rc $rc2 $rc3)"
	tap_diag "$(cat "$tmp/err")"
fi

t0=$(date +%s)
if "$lab" start --dir "$dir" --hosts 2 --no-card --no-module --no-net 2>"$tmp/start.log"; then
	tap_ok "start: 2 hosts, --no-card --no-module --no-net ($(($(date +%s) - t0)) s)"
else
	tap_fail "start: 2 hosts, --no-card --no-module --no-net"
	tap_diag "$(tail -n 40 "$tmp/start.log")"
	tap_done
fi
if grep -q 'booting host 1/2' "$tmp/start.log" && grep -q 'host 1 up in' "$tmp/start.log"; then
	tap_ok "start reports progress on stderr"
else
	tap_fail "start reports progress on stderr"
	tap_diag "$(cat "$tmp/start.log")"
fi

# record what must be gone after stop
pids=$(awk '{print $3}' "$dir/pids" | sort -u)
shm=$(cat "$dir/shm")

r0=$(lx 0 -- uname -r); r1=$(lx 1 -- uname -r)
if [ "$r0" = "$kver" ] && [ "$r1" = "$kver" ]; then
	tap_ok "uname -r in both guests is $kver"
else
	tap_fail "uname -r in both guests is $kver (got '$r0' and '$r1')"
fi

lx 1 -- exit 7; rc=$?
lx 0 -- 'kill -9 $$'; rc2=$?
if [ $rc = 7 ] && [ $rc2 = 137 ]; then
	tap_ok "exit status propagates (exit 7 -> 7, SIGKILL -> 137)"
else
	tap_fail "exit status propagates (exit 7 -> $rc, SIGKILL -> $rc2)"
fi

lx 0 -- 'echo to-out; echo to-err >&2; echo more-out' >"$tmp/o" 2>"$tmp/e"
if [ "$(cat "$tmp/o")" = "$(printf 'to-out\nmore-out')" ] && [ "$(cat "$tmp/e")" = "to-err" ]; then
	tap_ok "stdout and stderr are relayed separately"
else
	tap_fail "stdout and stderr are relayed separately"
	tap_diag "stdout: $(cat "$tmp/o")"
	tap_diag "stderr: $(cat "$tmp/e")"
fi

lx 1 -- 'hostname; ip -4 -o addr show | cut -d" " -f2; ip -o link show | grep -c "link/ether"' >"$tmp/net" 2>&1
if [ "$(cat "$tmp/net")" = "$(printf 'loom-h1\nlo\n0')" ] && ! grep -q 'management network up' "$tmp/start.log"; then
	tap_ok "--no-net: the guest is named loom-h1 and has loopback only"
else
	tap_fail "--no-net: the guest is named loom-h1 and has loopback only"
	tap_diag "$(cat "$tmp/net")"
fi

lx 1 -- 'echo $PWD $HOME $LOOM_TREE $PATH $LD_LIBRARY_PATH' >"$tmp/env"
if [ "$(cat "$tmp/env")" = "$top /tmp $top $top/build/bin:/usr/sbin:/usr/bin:/sbin:/bin $top/build/lib" ]; then
	tap_ok "commands run in TREE with the documented environment"
else
	tap_fail "commands run in TREE with the documented environment"
	tap_diag "$(cat "$tmp/env")"
fi

# the host root is mounted with a cache, the tree without one: a file the
# host replaces (as a linker does) or rewrites in place shows its new
# content to the next command, whatever the guest read before
echo "first" >"$fresh"
seen1=$(lx 0 -- cat "$fresh")
echo "second, longer than the first" >"$fresh.new" && mv "$fresh.new" "$fresh"
seen2=$(lx 0 -- cat "$fresh")
echo "third" >"$fresh"
seen3=$(lx 0 -- cat "$fresh")
lx 0 -- cat /proc/mounts >"$tmp/mounts"
root_opts=$(awk '$2 == "/" && $3 == "9p" { print $4 }' "$tmp/mounts")
tree_opts=$(awk -v t="$top" '$2 == t && $3 == "9p" { print $4 }' "$tmp/mounts")
if [ "$seen1|$seen2|$seen3" = "first|second, longer than the first|third" ] &&
	[[ ",$root_opts," == *,loose,* ]] && [ -n "$tree_opts" ] &&
	[[ ",$tree_opts," != *,loose,* ]]; then
	tap_ok "the root is cached, the tree is not: a rewritten tree file is seen at once"
else
	tap_fail "the root is cached, the tree is not: a rewritten tree file is seen at once"
	tap_diag "guest read: '$seen1' / '$seen2' / '$seen3'"
	tap_diag "root mount options: '$root_opts', tree ($top) mount options: '$tree_opts'"
fi

# every byte value, both directions of the relay: a host file through stdout
# and stdin through --stdin
head -c 500000 /dev/urandom >"$shared"
head -c 300000 /dev/urandom >"$tmp/rand"
lx 0 -- cat "$shared" >"$tmp/shared.copy"
lx 1 --stdin -- 'cat; echo END' <"$tmp/rand" >"$tmp/rand.back"
printf 'END\n' >>"$tmp/rand"
if cmp -s "$shared" "$tmp/shared.copy" && cmp -s "$tmp/rand" "$tmp/rand.back"; then
	tap_ok "binary data crosses the serial channel intact (stdout and --stdin)"
else
	tap_fail "binary data crosses the serial channel intact (stdout and --stdin)"
	tap_diag "stdout: $(cmp "$shared" "$tmp/shared.copy" 2>&1)"
	tap_diag "stdin: $(cmp "$tmp/rand" "$tmp/rand.back" 2>&1)"
fi

# concurrency on one host: the first command only ends when the second has run
lx 0 --timeout 60 -- 'while [ ! -e /tmp/go ]; do sleep 0.1; done; echo first' >"$tmp/c1" &
c1=$!
bg_pids+=("$c1")
sleep 0.5
lx 0 -- 'touch /tmp/go; echo second' >"$tmp/c2"
wait "$c1"; rc=$?
if [ $rc = 0 ] && [ "$(cat "$tmp/c1")" = first ] && [ "$(cat "$tmp/c2")" = second ]; then
	tap_ok "two execs run at the same time on one host"
else
	tap_fail "two execs run at the same time on one host (rc $rc)"
fi

# concurrency across hosts, several at once: the three jobs on a host
# each wait until all three have started, so they finish only if they run
# at the same time (one after the other, the first would wait in vain)
lx 0 -- 'rm -f /tmp/meet.*' && lx 1 -- 'rm -f /tmp/meet.*'
for i in 0 1 2 3 4 5; do
	lx $((i % 2)) -- "touch /tmp/meet.$i; n=0
		while [ \$(ls /tmp/meet.* | wc -l) -lt 3 ] && [ \$n -lt 300 ]; do sleep 0.1; n=\$((n + 1)); done
		[ \$(ls /tmp/meet.* | wc -l) = 3 ] && echo job$i || echo job$i alone" >"$tmp/j$i" &
	bg_pids+=($!)
done
ok=1
for i in 0 1 2 3 4 5; do
	wait "${bg_pids[-1]}" 2>/dev/null
	unset 'bg_pids[-1]'
done
for i in 0 1 2 3 4 5; do
	[ "$(cat "$tmp/j$i")" = "job$i" ] || ok=0
done
if [ $ok = 1 ]; then
	tap_ok "six concurrent execs on two hosts ran at the same time and each got its own output"
else
	tap_fail "six concurrent execs on two hosts ran at the same time and each got its own output"
	for i in 0 1 2 3 4 5; do tap_diag "job $i printed: $(cat "$tmp/j$i")"; done
fi

t0=$(date +%s)
lx 1 --timeout 2 -- 'sleep 4711' >/dev/null 2>"$tmp/to"; rc=$?
el=$(($(date +%s) - t0))
left=$(lx 1 -- 'ps -eo args | grep -c "^sleep 4711"')
if [ $rc = 124 ] && [ $el -lt 10 ] && [ "$left" = 0 ] && grep -q 'timed out' "$tmp/to"; then
	tap_ok "timeout: exit 124 after ${el} s and the guest command is killed"
else
	tap_fail "timeout: exit 124 (got $rc after ${el} s, $left left running)"
fi

# a background child that keeps the output open neither hangs exec (it
# returns a second after the shell, long before the child ends) nor dies
# of SIGPIPE when it writes after exec returned
t0=$(date +%s)
out=$(lx 0 -- '(sleep 6; echo late; touch /tmp/bg-done) & echo started'); rc=$?
el=$(($(date +%s) - t0))
bg=0
for i in $(seq 1 30); do
	lx 0 -- test -e /tmp/bg-done && { bg=1; break; }
	sleep 0.5
done
if [ $rc = 0 ] && [ "$out" = started ] && [ $el -lt 5 ] && [ $bg = 1 ]; then
	tap_ok "exec returns ~1 s after the shell; its background child lives on (${el} s)"
else
	tap_fail "exec returns ~1 s after the shell; its background child lives on (rc $rc, ${el} s, '$out', child done: $bg)"
fi

lx 5 -- true 2>"$tmp/e5"; rc=$?
"$lab" exec --dir "$tmp/nolab" 0 -- true 2>"$tmp/e6"; rc2=$?
if [ $rc = 2 ] && [ $rc2 = 125 ] && grep -q 'hosts 0 to 1' "$tmp/e5" && grep -q 'no lab' "$tmp/e6"; then
	tap_ok "exec: bad HOST exits 2, no lab exits 125, both with a message"
else
	tap_fail "exec: bad HOST exits 2, no lab exits 125 (got $rc, $rc2)"
fi

if "$lab" status --dir "$dir" >"$tmp/st" && [ "$(grep -c ' alive$' "$tmp/st")" = 3 ] &&
   grep -qx 'shape: ring, 2 hosts, no cards, no management network' "$tmp/st"; then
	tap_ok "status: supervisor and both VMs alive, no cards, no management network"
else
	tap_fail "status: supervisor and both VMs alive, no cards, no management network"
	tap_diag "$(cat "$tmp/st")"
fi

if "$lab" check-log --dir "$dir" >"$tmp/cl"; then
	tap_ok "check-log: clean guest logs"
else
	tap_fail "check-log: clean guest logs"
	tap_diag "$(cat "$tmp/cl")"
fi

"$lab" stop --dir "$dir" --save-logs "$tmp/logs"; rc=$?
gone=1
for p in $pids; do [ -e "/proc/$p" ] && gone=0 && tap_diag "pid $p still exists"; done
for f in $shm; do [ -e "$f" ] && gone=0 && tap_diag "$f still exists"; done
pgrep -f "$dir/" >/dev/null && gone=0 && tap_diag "processes naming $dir remain"
[ -e "$dir" ] && gone=0 && tap_diag "$dir remains"
if [ $rc = 0 ] && [ $gone = 1 ]; then
	tap_ok "stop: no process, shm file, socket or directory left"
else
	tap_fail "stop: no process, shm file, socket or directory left (rc $rc)"
fi
if grep -q 'Linux version' "$tmp/logs/h1.console.log" 2>/dev/null &&
	grep -q 'stopping on request' "$tmp/logs/supervisor.log" 2>/dev/null; then
	tap_ok "stop --save-logs keeps the complete logs"
else
	tap_fail "stop --save-logs keeps the complete logs"
	tap_diag "$(ls -l "$tmp/logs" 2>&1)"
fi

"$lab" stop --dir "$dir"; rc=$?
if [ $rc = 0 ]; then
	tap_ok "stop again: nothing to do, exit 0"
else
	tap_fail "stop again: exit $rc"
fi
lx 0 -- true 2>/dev/null; rc=$?
if [ $rc = 125 ]; then
	tap_ok "exec after stop: lab error 125"
else
	tap_fail "exec after stop: lab error 125 (got $rc)"
fi
tap_done
