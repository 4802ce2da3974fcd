#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loomctl and the "loom" generic netlink family of loom.ko, in a 2-host lab
# (a 2-ring: on host 0, dest 0 -> host, dest 1 -> a port): dev show against
# sysfs, route show/set/del and their effect on real traffic (a deleted
# route makes loom-xfer fail UNREACHABLE, setting it back restores
# delivery), port show, bad input with its exit status and message, the
# CAP_NET_ADMIN rule for an unprivileged user, monitor events, a dump of a
# full 1024-entry table (several netlink messages), an unbind and rebind of
# the card under a stream of netlink requests (dev still lists the unbound
# card from libpci, with no driver), rmmod (the family goes, a
# monitor notices) and insmod, bsu set -j printing the unit it wrote, every
# printing command (monitor too) naming its fields alike in text and JSON
# and in loomctl(8), a clean kernel log.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loomctl" ]; then
	echo "1..0 # SKIP loom-lab or loomctl not built (make all)"
	exit 4
fi
if ! command -v jq >/dev/null; then
	echo "1..0 # SKIP jq is not installed (apt-get install jq)"
	exit 4
fi

tap_plan 44
lab_start_test "lab with 2 hosts starts and loads loom.ko" --hosts 2

out=$(mktemp -d)
trap "lab_cleanup; rm -rf '$out' '$(dirname "$LAB_DIR")'" EXIT

# run loomctl in host 0: stdout, stderr and status into $out/{o,e,rc};
# a request the kernel never answers fails in a minute instead of hanging
lc() {
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- loomctl "$@" >"$out/o" 2>"$out/e"
	echo $? >"$out/rc"
}
rc() { cat "$out/rc"; }
show() { tap_diag "exit $(rc): $(cat "$out/o" "$out/e")"; }

# ---- dev show ----------------------------------------------------------
sys=$(lab_exec 0 'cd /sys/class/loom/loom0 && echo $(cat node_id logical_id fw_version fw_build_id emulated) $(basename "$(readlink device)")')
read -r s_node s_logical s_fwver s_build s_emul pci <<<"$sys"
lc dev show
if [ "$(rc)" = 0 ] && grep -q "^dev loom0 index 0 pci $pci driver loom pci_id 1af4:1110 kind lab$" "$out/o" &&
	grep -q "^    node_id $s_node logical_id $s_logical n_ports 2 n_contexts [0-9]* rt_entries 1024$" "$out/o" &&
	grep -q "^    fw_desc .* fw_version $s_fwver fw_build_id $s_build fw_build_time [0-9]* (.*) emulated$" "$out/o" &&
	[ "$s_emul" = 1 ]; then
	tap_ok "dev show: node, logical id, firmware version and build id equal sysfs"
else
	show
	tap_fail "dev show: node, logical id, firmware version and build id equal sysfs ($sys)"
fi
lc -j dev
j=$(jq -r '.[0] | "\(.dev) \(.node_id) \(.logical_id) \(.fw_version) \(.fw_build_id) \(.emulated) \(.n_ports) \(.pci) \(.driver) \(.pci_id) \(.kind)"' "$out/o" 2>&1)
if [ "$(rc)" = 0 ] && [ "$j" = "loom0 $s_node $s_logical $s_fwver $s_build true 2 $pci loom 1af4:1110 lab" ] &&
	[ "$(jq length "$out/o")" = 1 ]; then
	tap_ok "dev show -j: valid JSON whose values equal sysfs, pci address, driver loom"
else
	show
	tap_fail "dev show -j: valid JSON whose values equal sysfs (got '$j')"
fi
lc dev show dev loom3
if [ "$(rc)" = 1 ] && grep -q 'No such device: no loom device with index 3' "$out/e"; then
	tap_ok "dev show dev loom3: exit 1, 'no loom device with index 3'"
else
	show
	tap_fail "dev show dev loom3: exit 1, 'no loom device with index 3'"
fi

# ---- route show --------------------------------------------------------
lc route show
port1=$(sed -n 's/^dev loom0 dest 1 port \([0-9]\) phys_dest 1 valid$/\1/p' "$out/o")
if [ "$(rc)" = 0 ] && grep -qx 'dev loom0 dest 0 port host phys_dest 0 valid' "$out/o" && [ -n "$port1" ] &&
	[ "$(wc -l <"$out/o")" = 2 ]; then
	tap_ok "route show: dest 0 -> host, dest 1 -> port $port1, nothing else"
else
	show
	tap_fail "route show: dest 0 -> host, dest 1 -> a port, nothing else"
fi
cp "$out/o" "$out/routes"
lc r s
if [ "$(rc)" = 0 ] && cmp -s "$out/o" "$out/routes"; then
	tap_ok "'loomctl r s' is route show"
else
	show
	tap_fail "'loomctl r s' is route show"
fi
lc -j route show
j=$(jq -c '[.[] | [.dest, .port, .valid]]' "$out/o" 2>&1)
if [ "$(rc)" = 0 ] && [ "$j" = "[[0,\"host\",true],[1,$port1,true]]" ]; then
	tap_ok "route show -j: the same two entries as JSON"
else
	show
	tap_fail "route show -j: the same two entries as JSON (got $j)"
fi

# ---- route set / del round trip ----------------------------------------
lc route set 7 port 1 adaptive phys_dest 9
lc route show dev loom0 7
a=$(cat "$out/o")
lc route show
if grep -qx 'dev loom0 dest 7 port 1 phys_dest 9 adaptive valid' <<<"$a" &&
	grep -qx 'dev loom0 dest 7 port 1 phys_dest 9 adaptive valid' "$out/o"; then
	tap_ok "route set 7 port 1 adaptive phys_dest 9 is seen by route show"
else
	show
	tap_fail "route set 7 port 1 adaptive phys_dest 9 is seen by route show ($a)"
fi
lc route del 7
lc route show 7
a=$(cat "$out/o")
lc route show
if grep -qx 'dev loom0 dest 7 port 1 phys_dest 9 adaptive invalid' <<<"$a" && ! grep -q ' dest 7 ' "$out/o" &&
	cmp -s "$out/o" "$out/routes"; then
	tap_ok "route del 7: the entry is invalid and gone from route show"
else
	show
	tap_fail "route del 7: the entry is invalid and gone from route show ($a)"
fi

# ---- bsu set: nothing printed; with -j the unit read back ----------------
lc -j bsu set 9 parent root children 0,host
j=$(jq -c '.[0] | [.dev, .bsu, .parent, .children]' "$out/o" 2>&1); r1=$(rc)
lc bsu set 9 children none
t=$(cat "$out/o"); r2=$(rc)
lc -j bsu show 9
k=$(jq -c '.[0].children' "$out/o" 2>&1)
if [ "$r1" = 0 ] && [ "$j" = '["loom0",9,"root",[0,"host"]]' ] && [ "$r2" = 0 ] && [ -z "$t" ] &&
	[ "$k" = '[]' ]; then
	tap_ok "bsu set -j prints unit 9 as written (root, children 0,host); without -j nothing"
else
	show
	tap_fail "bsu set -j prints unit 9 as written (got '$j' exit $r1; then '$t' exit $r2; children $k)"
fi

# ---- a deleted route stops traffic, setting it back restores it ---------
lc route del 1
lab_exec 1 loom-xfer recv --ctx 5 --key 0x5eed --size 64K --timeout $(lab_scaled 5) >"$out/recv" 2>&1 &
recv_pid=$!
lab_exec 0 loom-xfer send --to 1 --ctx 5 --key 0x5eed --size 64K --timeout $(lab_scaled 5) >"$out/send" 2>&1
send_rc=$?
wait $recv_pid
if [ $send_rc = 1 ] && grep -q 'destination node unreachable' "$out/send"; then
	tap_ok "after route del 1, loom-xfer send --to 1 fails UNREACHABLE"
else
	tap_diag "$(cat "$out/send")"
	tap_fail "after route del 1, loom-xfer send --to 1 fails UNREACHABLE (exit $send_rc)"
fi
lc route set 1 port "$port1"
lab_exec 1 loom-xfer recv --ctx 5 --key 0x5eed --size 64K --seed 3 --timeout $(lab_scaled 20) >"$out/recv" 2>&1 &
recv_pid=$!
lab_exec 0 loom-xfer send --to 1 --ctx 5 --key 0x5eed --size 64K --seed 3 --timeout $(lab_scaled 20) >"$out/send" 2>&1
send_rc=$?
wait $recv_pid
recv_rc=$?
if [ $send_rc = 0 ] && [ $recv_rc = 0 ] && grep -q 'every byte verified' "$out/recv"; then
	tap_ok "route set 1 port $port1 restores delivery (64 KiB verified)"
else
	tap_diag "$(cat "$out/send" "$out/recv")"
	tap_fail "route set 1 port $port1 restores delivery (send $send_rc, recv $recv_rc)"
fi

# ---- port show ---------------------------------------------------------
lc port show
if [ "$(rc)" = 0 ] && [ "$(grep -c '^dev loom0 port [01] cabled up lanes [0-9]* peer_node 1 peer_port [01]$' "$out/o")" = 2 ] &&
	grep -q '^    tx_frames [0-9]* tx_bytes [0-9]* rx_frames [0-9]* rx_bytes' "$out/o"; then
	tap_ok "port show: 2 ports cabled and up to node 1, with counters"
else
	show
	tap_fail "port show: 2 ports cabled and up to node 1, with counters"
fi
lc -j port show 1
j=$(jq -r '.[0] | "\(.port) \(.up) \(.peer_node) \(.tx_frames > 0)"' "$out/o" 2>&1)
if [ "$(rc)" = 0 ] && { [ "$j" = "1 true 1 true" ] || [ "$j" = "1 true 1 false" ]; }; then
	tap_ok "port show -j 1: port 1, up, peer node 1"
else
	show
	tap_fail "port show -j 1: port 1, up, peer node 1 (got $j)"
fi

# ---- bad input ---------------------------------------------------------
lc frobnicate
if [ "$(rc)" = 2 ] && grep -q 'unknown object "frobnicate"' "$out/e"; then
	tap_ok "unknown object: exit 2 and names it"
else
	show
	tap_fail "unknown object: exit 2 and names it"
fi
lc route frob 1
if [ "$(rc)" = 2 ] && grep -q 'route: unknown command "frob"' "$out/e"; then
	tap_ok "unknown command: exit 2 and names it"
else
	show
	tap_fail "unknown command: exit 2 and names it"
fi
lc route set 3 port 9
if [ "$(rc)" = 1 ] && grep -q 'Numerical result out of range: port 9 out of range: card has 2 ports' "$out/e"; then
	tap_ok "port out of range: exit 1 with the errno text and the kernel's extack message"
else
	show
	tap_fail "port out of range: exit 1 with the errno text and the kernel's extack message"
fi
lc route set 5000 port 0
if [ "$(rc)" = 1 ] && grep -q 'out of range.*LOOM_ATTR_ROUTE_DEST is at most 1023' "$out/e"; then
	tap_ok "dest out of range: exit 1, the policy's limit and the attribute named"
else
	show
	tap_fail "dest out of range: exit 1, the policy's limit and the attribute named"
fi
lc route set 3
r1=$(rc) e1=$(cat "$out/e")
lc route del
if [ "$r1" = 2 ] && grep -q 'missing "port PORT|host"' <<<"$e1" && [ "$(rc)" = 2 ] &&
	grep -q 'route del: missing DEST' "$out/e"; then
	tap_ok "missing arguments: exit 2 and say what is missing"
else
	tap_diag "$e1"
	show
	tap_fail "missing arguments: exit 2 and say what is missing"
fi
lc route show 3
lc route show
if cmp -s "$out/o" "$out/routes"; then
	tap_ok "refused requests changed nothing"
else
	show
	tap_fail "refused requests changed nothing"
fi

# ---- permissions -------------------------------------------------------
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
lab_exec 0 $nobody loomctl route set 1 port 0 >"$out/o" 2>"$out/e"
r=$?
if [ $r = 1 ] && grep -q 'Operation not permitted: changing routes needs CAP_NET_ADMIN' "$out/e"; then
	tap_ok "route set as an unprivileged user: EPERM, CAP_NET_ADMIN named"
else
	tap_diag "exit $r: $(cat "$out/e")"
	tap_fail "route set as an unprivileged user: EPERM, CAP_NET_ADMIN named"
fi
lab_exec 0 $nobody loomctl route show >"$out/o" 2>"$out/e"
r=$?
if [ $r = 0 ] && cmp -s "$out/o" "$out/routes"; then
	tap_ok "route show works for an unprivileged user"
else
	tap_diag "exit $r: $(cat "$out/e")"
	tap_fail "route show works for an unprivileged user"
fi

# ---- monitor -----------------------------------------------------------
lab_exec 0 'loomctl monitor >/tmp/nl-mon 2>/tmp/nl-mon.err & m=$!
	for i in 1 2 3 4 5 6 7 8 9 10; do grep -q listening /tmp/nl-mon.err && break; sleep 0.3; done
	loomctl route set 9 port 0 phys_dest 11; loomctl route del 9; sleep 0.5
	kill -INT $m; wait $m; echo "exit $?"; cat /tmp/nl-mon; rm -f /tmp/nl-mon /tmp/nl-mon.err' >"$out/mon" 2>&1
if grep -qx 'exit 0' "$out/mon" && grep -qx 'event route_changed dev loom0 dest 9 port 0 phys_dest 11 valid' "$out/mon" &&
	grep -qx 'event route_changed dev loom0 dest 9 port 0 phys_dest 11 invalid' "$out/mon"; then
	tap_ok "monitor prints the ROUTE_CHANGED events of a set and a del, exits 0 on SIGINT"
else
	tap_diag "$(cat "$out/mon")"
	tap_fail "monitor prints the ROUTE_CHANGED events of a set and a del, exits 0 on SIGINT"
fi

# ---- one printer: text and JSON name every field alike, as the manual -----
man=$here/../../../Documentation/man/loomctl.8.rst
lc key grant 0x5eed user nobody
lc mcast set group 3 ports 0 host 1 members 2
for cmd in "dev show" "route show" "port show" "vc show" "stats show all" "key show" \
	"bsu show 9" "maint read route 0 node_id" "mcast show group 3"; do
	# shellcheck disable=SC2086 # the words of the command
	lc $cmd
	cp "$out/o" "$out/ft"
	# shellcheck disable=SC2086
	lc -j $cmd
	if "$here/../../lib/lc_fields.py" "$out/ft" "$out/o" "$man" >"$out/fd" 2>&1; then
		tap_ok "$cmd: every JSON field is named alike in the text and in loomctl(8)"
	else
		tap_diag "$(cat "$out/fd")"
		tap_fail "$cmd: every JSON field is named alike in the text and in loomctl(8)"
	fi
done
lc key revoke 0x5eed user nobody
lc mcast del group 3
lab_exec 0 'loomctl monitor >/tmp/nl-mt 2>/tmp/nl-mt.err & m=$!
	loomctl -j monitor >/tmp/nl-mj 2>/tmp/nl-mj.err & k=$!
	for i in $(seq 20); do grep -q listening /tmp/nl-mt.err && grep -q listening /tmp/nl-mj.err && break; sleep 0.3; done
	loomctl route set 9 port 0; loomctl route del 9; loomctl maint read route 0 node_id >/dev/null
	loomctl port set 1 down; loomctl port set 1 up; sleep 1.5
	kill -INT $m $k; wait $m $k; cat /tmp/nl-mt; echo "=== JSON"; cat /tmp/nl-mj; rm -f /tmp/nl-m?*' \
	>"$out/mon2" 2>&1
sed '/^=== JSON$/,$d' "$out/mon2" >"$out/mt"
sed '1,/^=== JSON$/d' "$out/mon2" >"$out/mj"
if "$here/../../lib/lc_fields.py" "$out/mt" "$out/mj" "$man" >"$out/fd" 2>&1 &&
	grep -q '^event route_changed' "$out/mt" && grep -q '^event port_changed' "$out/mt" &&
	grep -q '^event maint_resp' "$out/mt"; then
	tap_ok "monitor: route, port and maint events name their fields alike in text, JSON and loomctl(8)"
else
	tap_diag "$(cat "$out/fd" "$out/mt")"
	tap_fail "monitor: route, port and maint events name their fields alike in text, JSON and loomctl(8)"
fi

# ---- help --------------------------------------------------------------
lc help
a=$(rc)
lc route help
if [ "$a" = 0 ] && [ "$(rc)" = 0 ] && grep -q 'route set \[dev DEV\] DEST port PORT|host' "$out/o"; then
	tap_ok "help and route help print the usage, exit 0"
else
	show
	tap_fail "help and route help print the usage, exit 0"
fi

# ---- a full table: the dump spans several netlink messages --------------
# Every entry is made valid from the host, in the card's register window
# (the emulator's memfd): 1024 entries of ~60 bytes exceed a dump buffer.
card=$("$LOOM_LAB" status --dir "$LAB_DIR" | sed -n 's/^card 0: loom-card pid \([0-9]*\).*/\1/p')
regs=
for fd in /proc/"$card"/fd/*; do
	case "$(readlink "$fd")" in *memfd:loom-card-regs*) regs=$fd ;; esac
done
rd32() { od -An -tu4 -j "$1" -N4 "$regs" | tr -d ' '; }
router=
off=0
for _ in $(seq 64); do
	[ -n "$regs" ] || break
	[ "$(rd32 $off)" = 3 ] && { router=$off; break; }
	off=$(rd32 $((off + 8)))
	[ "$off" = 0 ] && break
done
if [ -n "$router" ]; then
	perl -e 'print pack("V*", map { (0x80000000 | ($_ % 2), $_) } 2..1023)' |
		dd of="$regs" bs=8 seek=$(((router + 0x40) / 8 + 2)) conv=notrunc status=none
	lc route show
	n=$(wc -l <"$out/o")
	u=$(awk '{print $4}' "$out/o" | sort -un | wc -l)
	last=$(tail -n 1 "$out/o")
	if [ "$(rc)" = 0 ] && [ "$n" = 1024 ] && [ "$u" = 1024 ] && [ "$last" = 'dev loom0 dest 1023 port 1 phys_dest 1023 valid' ]; then
		tap_ok "route show of a full table: 1024 entries, each once, in order"
	else
		tap_diag "exit $(rc), $n lines, $u distinct, last '$last': $(head -c 300 "$out/e")"
		tap_fail "route show of a full table: 1024 entries, each once, in order"
	fi
	lc -j route show
	j=$(jq length "$out/o" 2>&1)
	if [ "$(rc)" = 0 ] && [ "$j" = 1024 ]; then
		tap_ok "route show -j of a full table: 1024 objects"
	else
		tap_fail "route show -j of a full table: 1024 objects (got $j)"
	fi
else
	tap_fail "route show of a full table: the card's router block is found in its memfd"
	tap_fail "route show -j of a full table"
fi

# ---- unbind and rebind while requests keep coming ----------------------
lab_exec 0 "rm -f /tmp/nl-stop
	(n=0; while [ ! -e /tmp/nl-stop ]; do
		{ loomctl route show; loomctl dev; loomctl port show; } >/dev/null 2>&1
		n=\$((n + 1)); done; echo \"readers: \$n rounds\" >&2) >/dev/null &
	r=\$!
	(n=0; while [ ! -e /tmp/nl-stop ]; do loomctl route set 9 port 0 >/dev/null 2>&1; n=\$((n + 1)); done
		echo \"writer: \$n rounds\" >&2) >/dev/null &
	w=\$!
	sleep 1
	echo $pci > /sys/bus/pci/drivers/loom/unbind
	loomctl route show; echo \"route show: exit \$?\"
	loomctl route show dev loom0; echo \"route show dev loom0: exit \$?\"
	loomctl dev; echo \"dev: exit \$?\"
	loomctl -j dev > /tmp/nl-dev.json; echo \"dev -j: exit \$?\"
	setpriv --reuid=65534 --regid=65534 --clear-groups loomctl dev | sed 's/^/nobody: /'
	echo $pci > /sys/bus/pci/drivers/loom/bind
	sleep 1
	touch /tmp/nl-stop; wait \$r \$w; rm -f /tmp/nl-stop
	loomctl route del 9" >"$out/unbind" 2>&1
lab_exec 0 'cat /tmp/nl-dev.json; rm -f /tmp/nl-dev.json' >"$out/devj" 2>&1
tap_diag "$(cat "$out/unbind")"
readers=$(sed -n 's/^readers: \([0-9]*\) rounds$/\1/p' "$out/unbind")
writes=$(sed -n 's/^writer: \([0-9]*\) rounds$/\1/p' "$out/unbind")
if grep -q 'loom.ko has no card bound' "$out/unbind" &&
	grep -qx 'route show: exit 1' "$out/unbind" &&
	grep -q 'route show on loom0: No such device: no loom device with index 0' "$out/unbind" &&
	grep -qx 'route show dev loom0: exit 1' "$out/unbind" &&
	[ "${readers:-0}" -ge 3 ] && [ "${writes:-0}" -ge 3 ]; then
	tap_ok "route show of an unbound card: exit 1, 'no card bound' (dev loom0: 'no loom device with index 0')"
else
	tap_fail "route show of an unbound card: exit 1, 'no card bound' (dev loom0: 'no loom device with index 0')"
fi
if grep -q 'loom.ko is loaded but has no card bound' "$out/unbind" && grep -qx 'dev: exit 0' "$out/unbind"; then
	tap_ok "dev show with no card bound: exit 0 and says so"
else
	tap_fail "dev show with no card bound: exit 0 and says so"
fi
if grep -qx -- "pci $pci driver none pci_id 1af4:1110 kind lab" "$out/unbind" &&
	grep -q '^    (firmware, node and logical id unknown: only loom.ko reads them' "$out/unbind" &&
	grep -qx -- "nobody: pci $pci driver none pci_id 1af4:1110 kind ivshmem-unchecked" "$out/unbind"; then
	tap_ok "dev show of the unbound card: listed from PCI, driver none, lab signature (unchecked without root)"
else
	tap_fail "dev show of the unbound card: listed from PCI, driver none, lab signature (unchecked without root)"
fi
j=$(jq -c '[.[] | [.dev, .pci, .driver, .pci_id, .kind, .node_id]]' "$out/devj" 2>&1)
if grep -qx 'dev -j: exit 0' "$out/unbind" && [ "$j" = "[[null,\"$pci\",null,\"1af4:1110\",\"lab\",null]]" ]; then
	tap_ok "dev show -j of the unbound card: pci address, driver null, no node id"
else
	tap_diag "$(cat "$out/devj")"
	tap_fail "dev show -j of the unbound card: pci address, driver null, no node id (got $j)"
fi
lc route show
if [ "$(rc)" = 0 ] && cmp -s "$out/o" "$out/routes"; then
	tap_ok "after the rebind under load the card answers with its boot routes"
else
	show
	tap_fail "after the rebind under load the card answers with its boot routes"
fi

# ---- rmmod: the family goes away, insmod brings it back -----------------
# (bounded: a module that cannot unload or load again must not hang the test)
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- 'loomctl monitor >/tmp/nl-mon 2>&1 & m=$!
	for i in 1 2 3 4 5 6 7 8 9 10; do grep -q listening /tmp/nl-mon && break; sleep 0.3; done
	rmmod loom; echo "rmmod: exit $?"
	loomctl dev; echo "dev: exit $?"
	for i in $(seq 20); do kill -0 $m 2>/dev/null || break; sleep 0.25; done
	kill $m 2>/dev/null; wait $m; echo "monitor: exit $?"; cat /tmp/nl-mon; rm -f /tmp/nl-mon
	insmod kmod/loom.ko; echo "insmod: exit $?"' >"$out/rmmod" 2>&1
tap_diag "$(cat "$out/rmmod")"
if grep -qx 'rmmod: exit 0' "$out/rmmod" && grep -qx 'dev: exit 1' "$out/rmmod" &&
	grep -q 'the loom netlink family is not registered: is loom.ko loaded?' "$out/rmmod" &&
	grep -qx -- "pci $pci driver none pci_id 1af4:1110 kind lab" "$out/rmmod" &&
	grep -qx 'monitor: exit 1' "$out/rmmod" &&
	grep -q 'monitor: the loom netlink family went away' "$out/rmmod"; then
	tap_ok "after rmmod: dev lists the card from PCI, 'is loom.ko loaded?' (exit 1), and monitor says the family went away"
else
	tap_fail "after rmmod: dev lists the card from PCI, 'is loom.ko loaded?' (exit 1), and monitor says the family went away"
fi
lc route show
if grep -qx 'insmod: exit 0' "$out/rmmod" && [ "$(rc)" = 0 ] && cmp -s "$out/o" "$out/routes"; then
	tap_ok "after insmod the family answers again"
else
	show
	tap_fail "after insmod the family answers again"
fi

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel logs have no oops, BUG or warning"
else
	tap_fail "guest kernel logs have no oops, BUG or warning"
fi
tap_done
