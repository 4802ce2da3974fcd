#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The lab as a cluster (4 hosts, torus:2x2, cables over TCP on 127.0.0.1):
# every guest has its name and management address and nothing else to
# reach; ssh between the guests works as Open MPI's rsh launcher needs it
# (exit statuses, stdin/stdout/stderr, long argument lists, environment)
# and only with the lab's key; Debian's Open MPI runs a job across the 4
# hosts over the management network and every rank reports its host; a
# job killed mid-run leaves nothing behind and the next one runs; puts
# cross the TCP cables byte-exact; stop leaves no process, socket, port
# or file.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}

lab_require "$LOOM_LAB" "$build/bin/loom-card" "$build/bin/loom-xfer" "$top/kmod/loom.ko" \
	/usr/bin/vde_switch /usr/sbin/sshd /usr/bin/mpicc /usr/bin/mpirun

out=$(mktemp -d)
bg=()
cleanup() {
	for p in "${bg[@]}"; do kill "$p" 2>/dev/null; done
	lab_cleanup
	rm -rf "$out"
}
trap cleanup EXIT
hosts=$(lab_hosts 4)
mpi_prog=$build/tests/cluster/mpi_hosts
# Open MPI refuses root unless told; the lab's guests run everything as root
mpirun="mpirun --allow-run-as-root -np 4 --host $hosts --mca btl tcp,self"

tap_plan 14

mkdir -p "$(dirname "$mpi_prog")"
if mpicc -O2 -Wall -Wextra -Werror -o "$mpi_prog" "$here/mpi_hosts.c" 2>"$out/mpicc"; then
	tap_ok "mpicc builds the MPI test program"
else
	tap_fail "mpicc builds the MPI test program"
	tap_diag "$(cat "$out/mpicc")"
fi

lab_start_test "torus:2x2, cables over TCP, management network: 4 hosts up, loom.ko loaded" \
	--shape torus:2x2 --cables tcp
trap cleanup EXIT

"$LOOM_LAB" status --dir "$LAB_DIR" >"$out/status"
if grep -q '^shape: torus:2x2, 4 hosts, cables over TCP$' "$out/status" &&
   grep -q '^network: vde_switch pid [0-9]* alive$' "$out/status" &&
   [ "$(grep -c ' alive$' "$out/status")" = 10 ]; then
	tap_ok "status: the switch, 4 VMs and 4 cards alive, cables over TCP"
else
	tap_fail "status: the switch, 4 VMs and 4 cards alive, cables over TCP"
	tap_diag "$(cat "$out/status")"
fi

# ---- names, addresses, no way out
bad=0
for h in 0 1 2 3; do
	# IPv6: link-local and loopback only (no router, no address beyond)
	lab_exec $h 'hostname; ip -4 -o addr show | awk "{print \$2, \$4}"; ip -4 route
		ip -6 -o addr show | awk "{print \$2, \$4}" | grep -v "^lo ::1/128\$\|^eth0 fe80:"
		getent hosts loom-h3 h1; getent hosts deb.debian.org || echo unresolved' 2>&1 |
		tr -s ' ' | sed 's/ $//' >"$out/net$h"
	want=$(printf '%s\n' "loom-h$h" "lo 127.0.0.1/8" "eth0 10.77.0.$((h + 1))/24" \
		"10.77.0.0/24 dev eth0 proto kernel scope link src 10.77.0.$((h + 1))" \
		"10.77.0.4 loom-h3 h3" "10.77.0.2 loom-h1 h1" "unresolved")
	if [ "$(cat "$out/net$h")" != "$want" ]; then
		tap_diag "host $h: got:"
		tap_diag "$(cat "$out/net$h")"
		tap_diag "expected:"
		tap_diag "$want"
		bad=1
	fi
done
tap_check "each guest is loom-hN at 10.77.0.N+1/24, names from the lab's /etc/hosts, no other route or name" test $bad = 0

# ---- ssh as a launch agent
lab_exec 0 'for h in loom-h1 h2 loom-h3 10.77.0.1; do ssh $h hostname; done' >"$out/names" 2>&1
if [ "$(cat "$out/names")" = "$(printf 'loom-h1\nloom-h2\nloom-h3\nloom-h0')" ]; then
	tap_ok "ssh from host 0 reaches every host by name, alias and address"
else
	tap_fail "ssh from host 0 reaches every host by name, alias and address"
	tap_diag "$(cat "$out/names")"
fi

lab_exec 1 'ssh loom-h2 "exit 7"; echo "status $?"
head -c 100000 /dev/urandom >/tmp/in; sha256sum </tmp/in
ssh loom-h3 "cat; echo to-stderr >&2" </tmp/in 2>/tmp/err | sha256sum; cat /tmp/err
ssh loom-h0 echo $(seq 1 20000) | wc -w
ssh loom-h2 "echo \$LOOM_LAB_HOST \$HOME \$PATH \$LD_LIBRARY_PATH \$LOOM_TREE"' >"$out/ssh" 2>&1
sum=$(sed -n 2p "$out/ssh")
want=$(printf '%s\n' "status 7" "$sum" "$sum" "to-stderr" "20000" \
	"2 /tmp $top/build/bin:/usr/sbin:/usr/bin:/sbin:/bin $top/build/lib $top")
if [ "$(cat "$out/ssh")" = "$want" ] && [ -n "$sum" ]; then
	tap_ok "ssh: exit status, 100 kB of stdin byte-exact, stderr apart, 20000 arguments, exec's environment"
else
	tap_fail "ssh: exit status, 100 kB of stdin byte-exact, stderr apart, 20000 arguments, exec's environment"
	tap_diag "$(diff <(echo "$want") "$out/ssh")"
fi

lab_exec 0 'ssh-keygen -q -t ed25519 -N "" -f /tmp/stranger && ssh -F /dev/null -o IdentityFile=/tmp/stranger -o IdentitiesOnly=yes -o BatchMode=yes -o UserKnownHostsFile=/root/.ssh/known_hosts loom-h1 true; echo "status $?"' >"$out/stranger" 2>&1
if grep -qx 'status 255' "$out/stranger" && grep -q 'Permission denied' "$out/stranger"; then
	tap_ok "a key that is not the lab's is refused"
else
	tap_fail "a key that is not the lab's is refused"
	tap_diag "$(cat "$out/stranger")"
fi

# ---- Open MPI across the 4 hosts over the management network
check_job() { # OUTFILE: every rank on its own host, ring and allreduce ok
	local r bad=0
	for r in 0 1 2 3; do
		grep -qx "rank $r of 4 on loom-h$r" "$1" || bad=1
		grep -qx "gathered: rank $r on loom-h$r" "$1" || bad=1
	done
	grep -qx 'ok: ring and allreduce across 4 ranks' "$1" || bad=1
	[ $bad = 0 ] || tap_diag "$(cat "$1")"
	return $bad
}
lab_exec 0 "$mpirun $mpi_prog" >"$out/mpi1" 2>&1
rc=$?
check_job "$out/mpi1" && [ $rc = 0 ]
tap_check "mpirun -np 4 --host $hosts: every rank reports its own host; ring and allreduce cross the network" test $? = 0

# killed mid-run: the exec ends, its mpirun is killed in guest 0, and the
# orteds and ranks on the other hosts go too
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 900 0 -- "$mpirun $mpi_prog --hold 900" >"$out/hold" 2>&1 &
job=$!
bg+=($job)
for ((i = 0; i < 300; i++)); do
	[ "$(grep -c ' holding$' "$out/hold")" = 4 ] && break
	kill -0 $job 2>/dev/null || break	# the job failed to start
	sleep 1
done
held=$(grep -c ' holding$' "$out/hold")
kill -TERM $job
wait $job 2>/dev/null
left=""
for ((i = 0; i < 20; i++)); do
	left=$(for h in 0 1 2 3; do lab_exec $h 'pgrep -a -x orted; pgrep -a -x mpirun; pgrep -a -x mpi_hosts' | sed "s/^/host $h: /"; done)
	[ -z "$left" ] && break
	sleep 2
done
if [ "$held" = 4 ] && [ -z "$left" ]; then
	tap_ok "a job killed while its 4 ranks run leaves no mpirun, orted or rank on any host"
else
	tap_fail "a job killed while its 4 ranks run leaves no mpirun, orted or rank on any host ($held ranks held)"
	tap_diag "$left"
	tap_diag "$(cat "$out/hold")"
fi
lab_exec 0 "$mpirun $mpi_prog" >"$out/mpi2" 2>&1
rc=$?
check_job "$out/mpi2" && [ $rc = 0 ]
tap_check "the next job runs across the 4 hosts" test $? = 0

# ---- the fabric over TCP cables
if grep -q 'connected to tcp-connect:127.0.0.1:' "$LAB_DIR/card3.log" &&
   ! grep -q 'connect to [^t]' "$LAB_DIR"/card*.log; then
	tap_ok "the cards are cabled by TCP on 127.0.0.1 only"
else
	tap_fail "the cards are cabled by TCP on 127.0.0.1 only"
	tap_diag "$(grep -h 'port [0-9]:' "$LAB_DIR"/card*.log)"
fi
ports=$(sed -n 's/.*listen on tcp-listen:127.0.0.1:\([0-9]*\)$/\1/p' "$LAB_DIR"/card*.log)
lab_exec 3 loom-xfer recv --ctx 5 --key 0x7012 --size 1M --seed 11 --timeout 60 >"$out/recv3" 2>&1 &
r3=$!
lab_exec 2 loom-xfer recv --ctx 5 --key 0x7012 --size 1M --seed 12 --timeout 60 >"$out/recv2" 2>&1 &
r2=$!
lab_exec 0 loom-xfer send --to 3 --ctx 5 --key 0x7012 --size 1M --seed 11 --timeout 60 >"$out/send0" 2>&1 &
s0=$!
lab_exec 1 loom-xfer send --to 2 --ctx 5 --key 0x7012 --size 1M --seed 12 --timeout 60 >"$out/send1" 2>&1
wait $s0 $r3 $r2
if grep -q '^recv: 1048576 bytes in .* every byte verified' "$out/recv3" &&
   grep -q '^recv: 1048576 bytes in .* every byte verified' "$out/recv2"; then
	tap_ok "puts 0 -> 3 and 1 -> 2 (two hops each) cross the TCP cables, every byte verified"
else
	tap_fail "puts 0 -> 3 and 1 -> 2 (two hops each) cross the TCP cables, every byte verified"
	tap_diag "$(cat "$out/send0" "$out/recv3" "$out/send1" "$out/recv2")"
fi

tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"

# ---- stop leaves nothing: processes, RAM files, sockets, TCP ports
lab_stop_clean
rc=$?
left=""
for p in $ports; do
	# a port still listening answers; a closed one refuses
	(exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && left="$left $p"
done
if [ $rc = 0 ] && [ -z "$left" ] && [ -n "$ports" ]; then
	tap_ok "stop: no process, RAM file, socket, directory or TCP port left"
else
	tap_fail "stop: no process, RAM file, socket, directory or TCP port left"
	tap_diag "ports still listening:$left (the cards listened on: $ports)"
fi
tap_done
