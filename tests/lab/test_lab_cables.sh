#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-lab cable control (2 hosts, a ring, --no-routes): the cards start with
# only their own route; `cut` takes a link down on both ends (seen by the
# card and by the module), `restore` brings it back, `ber`/`drop` reach the
# card and its refusals come back as exit 1; bad options exit 2 and a
# missing lab 125.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
lab=$build/bin/loom-lab

if [ ! -x "$lab" ] || [ ! -x "$build/bin/loom-card" ] || [ ! -x "$build/bin/loomctl" ]; then
	echo "1..0 # SKIP loom-lab, loom-card or loomctl is not built (make)"
	exit 4
fi
if ! "$top/tools/deps/guest-kver" >/dev/null 2>&1 || [ ! -f "$top/kmod/loom.ko" ]; then
	echo "1..0 # SKIP no guest kernel or no kmod/loom.ko (make -C kmod)"
	exit 4
fi

tap_plan 16

# stat_word NODE:PORT KEY: the value of KEY in `loom-lab stats`
stat_word() {
	"$lab" stats --dir "$LAB_DIR" "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}
# wait_stat NODE:PORT KEY VALUE: up to 15 s for KEY=VALUE
wait_stat() {
	local i
	for ((i = 0; i < 150; i++)); do
		[ "$(stat_word "$1" "$2")" = "$3" ] && return 0
		sleep 0.1
	done
	tap_diag "$1: $2 is '$(stat_word "$1" "$2")', expected '$3'"
	return 1
}

out=$("$lab" start --dir /tmp/never-created-$$ --no-card --no-routes 2>&1)
rc=$?
[ $rc = 2 ] && grep -q -- "--no-routes and --no-card" <<<"$out" && [ ! -e /tmp/never-created-$$ ]
tap_check "start --no-routes --no-card exits 2 and creates nothing" test $? = 0

lab_start_test "a 2-host ring starts with --no-routes" --hosts 2 --no-routes
grep -qx "no_routes=1" "$LAB_DIR/lab.conf"
tap_check "lab.conf records no_routes=1" test $? = 0
[ -S "$LAB_DIR/card0.ctl" ] && [ -S "$LAB_DIR/card1.ctl" ]
tap_check "each card has its control socket cardN.ctl" test $? = 0

routes=$(lab_exec 0 loomctl route show 2>&1)
tap_diag "$routes"
[ "$(grep -c '^dev loom0 dest' <<<"$routes")" = 1 ] && grep -q '^dev loom0 dest 0 port host' <<<"$routes"
tap_check "host 0's card has only its own route" test $? = 0

wait_stat 0:0 up 1 && wait_stat 1:1 up 1
tap_check "stats: the cable 0:0-1:1 is up" test $? = 0

out=$("$lab" cut --dir "$LAB_DIR" 0:0)
rc=$?
tap_diag "$out"
[ $rc = 0 ] && [ "$out" = "node 0 port 0 (+X) <-> node 1 port 1 (-X): cut (link down until restored)" ]
tap_check "cut 0:0 exits 0 and names the cable" test $? = 0
wait_stat 0:0 up 0 && [ "$(stat_word 0:0 cut)" = 1 ] && wait_stat 1:1 up 0
tap_check "after cut both ends are down, node 0's port marked cut" test $? = 0

ports=""
for ((i = 0; i < 50; i++)); do
	ports=$(lab_exec 1 loomctl port show 2>&1)
	grep -Eq '^dev loom0 port 1( cabled)? lanes' <<<"$ports" && break
	sleep 0.2
done
tap_diag "$(grep '^port' <<<"$ports")"
grep -Eq '^dev loom0 port 1( cabled)? lanes' <<<"$ports" && grep -q '^dev loom0 port 0 cabled up ' <<<"$ports"
tap_check "the module on host 1 sees its port 1 down and port 0 still up" test $? = 0

out=$("$lab" restore --dir "$LAB_DIR" 0:0)
rc=$?
[ $rc = 0 ] && grep -q ': restored' <<<"$out"
tap_check "restore 0:0 exits 0" test $? = 0
wait_stat 0:0 up 1 && wait_stat 1:1 up 1 && [ "$(stat_word 0:0 cut)" = 0 ]
tap_check "after restore the link trains again" test $? = 0

out=$("$lab" ber --dir "$LAB_DIR" 1:0 1e-7) && grep -q 'bit error rate set to 1e-7' <<<"$out" &&
	out=$("$lab" drop --dir "$LAB_DIR" 1:0 0) && grep -q 'frame drop rate set to 0' <<<"$out" &&
	"$lab" ber --dir "$LAB_DIR" 1:0 0 >/dev/null
tap_check "ber and drop reach the card" test $? = 0

err=$("$lab" ber --dir "$LAB_DIR" 1:0 2 2>&1 >/dev/null)
rc=$?
tap_diag "$err"
[ $rc = 1 ] && grep -q 'card 1 refused: error:' <<<"$err"
tap_check "a rate the card refuses: exit 1 with the card's answer" test $? = 0

bad=0
for args in "0:9" "2:0" "x" "0:" "0:0 extra"; do
	# shellcheck disable=SC2086
	"$lab" cut --dir "$LAB_DIR" $args >/dev/null 2>&1
	rc=$?
	[ $rc = 2 ] || { tap_diag "cut $args: exit $rc, expected 2"; bad=1; }
done
"$lab" ber --dir "$LAB_DIR" 0:0 "1e-5;cut" >/dev/null 2>&1
[ $? = 2 ] || { tap_diag "ber with a non-number rate did not exit 2"; bad=1; }
tap_check "bad ends, ports beyond the shape and bad rates exit 2" test $bad = 0
[ "$(stat_word 0:0 up)" = 1 ] && [ "$(stat_word 0:0 cut)" = 0 ]
tap_check "bad commands changed nothing" test $? = 0

"$lab" cut --dir "$LAB_DIR.nothing" 0:0 >/dev/null 2>&1
tap_check "cut on a directory without a lab exits 125" test $? = 125

tap_done
