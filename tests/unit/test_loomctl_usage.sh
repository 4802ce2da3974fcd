#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loomctl's command line without a kernel: unknown objects, commands,
# options and keywords and malformed values exit 2 with a message naming
# the token and, where one is close, the right spelling; every usage error
# of the configuration commands (dev set, port set, vc set, stats, key, bsu
# set and show, mcast set and del, with and without -j, route load and its
# file checks) is
# found before anything is sent (nothing on standard output, not even
# JSON's '['); every help exits 0 with its synopsis, and -V prints the
# version.  (The kernel side is tested in tests/vm/netlink/.)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/usage_error.sh"
top=$(cd "$here/../.." && pwd)
lc=${BUILD:-$top/build}/bin/loomctl
if [ ! -x "$lc" ]; then
	echo "1..0 # SKIP loomctl not built (make -C tools/loomctl)"
	exit 4
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# usage EXPECTED-MESSAGE ARGS...: exit 2 and the message on stderr
usage() { expect_usage_error "$lc" "$@"; }

printf 'dest 0 port host phys 0\n\n# comment\ndest 1 port 0 phys 1 adaptive\ndest 1 port 1\n' >"$tmp/dup"
printf 'dest 0 port host\ndest 1 port 0 colour blue\n' >"$tmp/word"
printf 'dest 0 port\n' >"$tmp/noval"
printf 'dest x port 0\n' >"$tmp/nan"
printf 'port 0 phys 3\n' >"$tmp/nodest"
printf 'dest 4 port sideways\n' >"$tmp/badport"

tap_plan 68
usage 'dev set: nothing to set' dev set
usage 'loomctl: unknown object "rute": did you mean "route"?' rute show
usage 'loomctl: unknown object "xyzzy": objects are dev, route, port' xyzzy
usage 'loomctl: route: unknown command "shwo": did you mean "show"?' route shwo
usage 'loomctl: port: unknown command "frob": commands are show, set, help' port frob
usage 'loomctl: unknown option "--jsn": did you mean "--json"?' --jsn dev
usage 'loomctl: unknown option "-x": options are -j, --json' -x dev
usage 'loomctl: unknown option "-d": name the card after the command, e.g. "loomctl route show dev loom0"' -d loom0 route
usage 'route show: dev "0" is not a card name: give loomN, e.g. dev loom0' route show dev 0
usage 'route show: "dev" needs a card name' route show dev
usage 'route set: unknown keyword "prot": did you mean "port"?' route set 1 prot 2
usage 'route set: phys_dest "x" is not a number' route set 1 port 2 phys x
usage 'dev set: unknown keyword "speed": keywords are logical_id, fp_timeout_ms, lane_threshold' dev set speed 3
usage 'dev set: unknown keyword "lane-threshold": did you mean "lane_threshold"?' dev set lane-threshold 3
usage 'dev set: "fp_timeout_ms" needs a number' dev set fp_timeout_ms
usage 'dev set: lane_threshold "many" is not a number' dev set lane_threshold many
usage 'maint read: unknown option "--route": did you mean the keyword "route"?' maint read --route 0 node_id
usage 'maint read: timeout "soon" is not a number of milliseconds' maint read timeout soon node_id
usage 'monitor: unknown command "routes": did you mean "route"?' monitor routes
usage 'port set: missing PORT and state' port set 1
usage 'port set: PORT "x" is not a number' port set x down
usage 'port set: unknown keyword "sideways": keywords are up, down, fault' port set 1 sideways
usage 'port set: "fault" needs on or off' port set 1 fault
usage 'port set: fault "maybe" is neither on nor off' port set 1 fault maybe
usage 'port set: unexpected argument "now"' port set 1 down now
usage 'vc set: port 1: nothing to set' vc set port 1
usage 'vc set: dest 3: missing "vc 0|1"' vc set dest 3
usage 'vc set: give either "port PORT ..." or "dest DEST vc V"' vc set port 1 dim 0 dest 3 vc 1
usage 'vc set: dim "x" is neither a number nor "none"' vc set port 1 dim x
usage 'vc set: dateline "yes" is neither on nor off' vc set port 1 dateline yes
usage 'stats show: unknown keyword "-a": keywords are all, port' stats show -a
usage 'stats show: "port" needs a port number or host' stats show all port
usage 'stats show: port "9" is neither a network port 0..7 nor host' stats show port 9
usage 'stats show: port given twice' stats show port 1 port host
usage 'key grant: usage: loomctl key grant [dev DEV] KEY user USER|group GROUP' key grant 5
usage 'key grant: KEY "zz" is not a number' key grant zz user 0
usage 'key revoke: no user "no-such-user-here"' key revoke 5 user no-such-user-here
usage 'key grant: unknown keyword "team": keywords are user, group' key grant 5 team 0
usage "route load: $tmp/dup:5: dest 1 is listed twice" route load "$tmp/dup"
usage "route load: $tmp/word:2: unexpected \"colour\"" route load "$tmp/word"
usage "route load: $tmp/noval:1: \"port\" needs a value" route load "$tmp/noval"
usage "route load: $tmp/nan:1: dest \"x\" is not a number" route load "$tmp/nan"
usage "route load: $tmp/nodest:1: a route needs \"dest D\" and \"port P|host\"" route load "$tmp/nodest"
usage "route load: cannot open $tmp/none" route load "$tmp/none"
usage "route load: $tmp/badport:1: port \"sideways\" is not a number nor \"host\"" route load "$tmp/badport"

usage 'bsu set: missing BSU' bsu set
usage 'bsu set: BSU "32" is not a unit number 0..31' bsu set 32 parent root
usage 'bsu set: unknown keyword "colour"' bsu set 3 colour 1
usage 'bsu set: "parent" needs a value' bsu set 3 parent
usage 'bsu set: parent "9" is neither a port number 0..7 nor root' bsu set 3 parent 9
usage 'bsu set: children "0,x": expected port numbers 0..7 and host' bsu set 3 children 0,x
usage 'bsu set: nothing to change' bsu set 3
usage 'bsu set: nothing to change' -j bsu set 3
usage 'bsu set: BSU "-j" is not a unit number' bsu set -j 3 parent root
usage 'bsu show: unexpected argument "2"' -j bsu show 1 2
usage 'mcast set: missing "group G"' mcast set
usage 'mcast set: expected "group G", got "ports"' mcast set ports 0
usage 'mcast set: group "65536" is not a group id 0..65535' mcast set group 65536 ports 0
usage 'mcast set: the entry sends no copy' -j mcast set group 3 members 2
usage 'mcast set: ports "0,16": expected port numbers 0..15' mcast set group 3 ports 0,16
usage 'mcast set: unknown keyword "hots": did you mean "host"?' mcast set group 3 hots 1
usage 'mcast set: host "x" is not a context number' mcast set group 3 host x
usage 'mcast del: unexpected argument "ports"' mcast del dev loom0 group 3 ports 1

ok=0
for obj in dev route port vc stats key monitor bsu maint mcast; do
	"$lc" "$obj" help >"$tmp/o" 2>&1 && grep -q "^SYNOPSIS" "$tmp/o" &&
		"$lc" help "$obj" | cmp -s - "$tmp/o" && ok=$((ok + 1))
done
if [ $ok = 10 ]; then
	tap_ok "help of dev, route, port, vc, stats, key, monitor, bsu, maint and mcast (OBJECT help = help OBJECT): exit 0 with a synopsis"
else
	tap_fail "help of dev, route, port, vc, stats, key, monitor, bsu, maint and mcast: exit 0 with a synopsis ($ok of 10)"
fi
"$lc" bsu help >"$tmp/o" 2>&1
tap_check "bsu set takes -j and dev (its help says so)" \
	grep -qF -- 'loomctl [-j] bsu set [dev DEV] BSU' "$tmp/o"
"$lc" help >"$tmp/o" 2>&1
missing=
for obj in dev route port vc stats key monitor bsu maint mcast; do
	grep -q "^    $obj " "$tmp/o" || missing="$missing $obj"
done
tap_check "loomctl help lists every object and its commands (missing:${missing:- none})" test -z "$missing"
version=$(cat "$top/VERSION")
out=$("$lc" -V 2>&1)
if [ "$out" = "loomctl $version" ] && [ "$("$lc" --version)" = "$out" ]; then
	tap_ok "loomctl -V and --version print 'loomctl $version'"
else
	tap_fail "loomctl -V prints 'loomctl $version' (got '$out')"
fi
"$lc" >"$tmp/o" 2>"$tmp/e"
r=$?
tap_check "loomctl without an object: exit 2, the usage on stderr (exit $r)" \
	sh -c "[ $r = 2 ] && grep -q '^SYNOPSIS' '$tmp/e' && [ ! -s '$tmp/o' ]"
tap_done
