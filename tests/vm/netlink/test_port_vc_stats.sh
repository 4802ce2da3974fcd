#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The configuration commands of loom.ko's netlink family through loomctl,
# in a 2-host lab (a 2-ring): dev set (forward-progress timeout, lane
# threshold, logical id) and its bad input; port show's new fields; port
# set down/up and fault on/off with the port shown disabled, a
# PORT_CHANGED event in monitor for each change, traffic to a disabled
# port discarded and counted; vc show/set and bad port, dim, VC and dest;
# stats after traffic (-a, -j, drops by cause) with the performance
# counters (router, ports, per VC, one port); route load: a round trip
# equals route show, an event, bad files and a refused table change
# nothing; key grant/revoke/show and bad keys, users, duplicates; debugfs
# regs and contexts; a clean kernel log.
# LOOM_MODULE=PATH tests another build of loom.ko (e.g. a deliberately
# broken one).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loomctl" ] ||
	[ ! -x "$loom_build/bin/loom-xfer" ]; then
	echo "1..0 # SKIP loom-lab, loomctl or loom-xfer not built (make all)"
	exit 4
fi
if ! command -v jq >/dev/null; then
	echo "1..0 # SKIP jq is not installed (apt-get install jq)"
	exit 4
fi

tap_plan 44
lab_start_test "lab with 2 hosts starts and loads loom.ko" --hosts 2 \
	${LOOM_MODULE:+--module "$LOOM_MODULE"}

out=$(mktemp -d)
trap "lab_cleanup; rm -rf '$out' '$(dirname "$LAB_DIR")'" EXIT

# lc ARGS: loomctl in host 0, stdout/stderr/status into $out/{o,e,rc}
lc() {
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- loomctl "$@" >"$out/o" 2>"$out/e"
	echo $? >"$out/rc"
}
# g CMD: a shell command in host 0, stdout+stderr into $out/o
g() {
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 90 0 -- "$@" >"$out/o" 2>&1
	echo $? >"$out/rc"
	: >"$out/e"
}
rc() { cat "$out/rc"; }
show() { tap_diag "exit $(rc): $(cat "$out/o" "$out/e")"; }
ok_if() {
	local desc=$1
	shift
	if eval "$*"; then tap_ok "$desc"; else show; tap_fail "$desc"; fi
}
# refused EXIT PATTERN: the last loomctl exited EXIT and said PATTERN
refused() { [ "$(rc)" = "$1" ] && grep -q -- "$2" "$out/e"; }

# ---- dev set -----------------------------------------------------------
lc dev set fp_timeout_ms 500 lane_threshold 8
lc dev show
a=$(cat "$out/o")
lc -j dev
ok_if "dev set fp_timeout_ms 500 lane_threshold 8: dev show and -j show both" \
	'grep -qx "    fp_timeout_ms 500 lane_threshold 8" <<<"$a" &&
	[ "$(jq -r ".[0] | \"\(.fp_timeout_ms) \(.lane_threshold)\"" "$out/o")" = "500 8" ]'
lc dev set lane_threshold 0
ok_if "dev set lane_threshold 0: exit 1, the attribute and its range named" \
	'refused 1 "out of range (LOOM_ATTR_DEV_LANE_THRESHOLD is 1..65535)"'
lc dev set logical_id 5000
ok_if "dev set logical_id 5000: exit 1, LOOM_ATTR_DEV_LOGICAL_ID is at most 1023" \
	'refused 1 "LOOM_ATTR_DEV_LOGICAL_ID is at most 1023"'
lc dev set fp_timeout_ms
r1=$(rc)
lc dev set speed 3
ok_if "dev set with a missing value or an unknown setting: exit 2, named" \
	'[ "$r1" = 2 ] && refused 2 "unknown keyword \"speed\""'
lc dev set logical_id 0 fp_timeout_ms 1000 lane_threshold 16
lc -j dev
ok_if "dev set of the three settings at once restores the defaults" \
	'[ "$(jq -r ".[0] | \"\(.logical_id) \(.fp_timeout_ms) \(.lane_threshold)\"" "$out/o")" = "0 1000 16" ]'

# ---- port show and port set, with monitor ------------------------------
lc -j port show
ok_if "port show -j: both ports up, enabled, not dead, with the link-layer counters" \
	'[ "$(jq -c "[.[] | [.port, .up, .disabled, .dead, (.retries >= 0), (.ack_timeouts >= 0)]]" "$out/o")" = \
	"[[0,true,false,false,true,true],[1,true,false,false,true,true]]" ]'
lc port show
ok_if "port show: a third line with retries, naks_sent, replayed, ack_timeouts" \
	'[ "$(grep -c "^    retries [0-9]* naks_sent [0-9]* replayed [0-9]* ack_timeouts [0-9]*$" "$out/o")" = 2 ]'
port1=$("$LOOM_LAB" exec --dir "$LAB_DIR" 0 -- loomctl route show 1 | sed -n 's/^dev loom0 dest 1 port \([0-9]\).*/\1/p')
g "loomctl monitor >/tmp/pv-mon 2>/tmp/pv-mon.err & echo \$! >/tmp/pv-mon.pid
	for i in \$(seq 20); do grep -q listening /tmp/pv-mon.err && break; sleep 0.3; done; echo started"
lc port set "$port1" down
lc port show "$port1"
ok_if "port set $port1 down: port show says disabled, still up" \
	'[ "$(rc)" = 0 ] && grep -q "^dev loom0 port $port1 cabled up disabled lanes [0-9]* peer_node 1 peer_port [01]$" "$out/o"'
"$LOOM_LAB" exec --dir "$LAB_DIR" 1 -- loom-xfer recv --ctx 5 --key 0x5eed --size 4K --timeout $(lab_scaled 5) >"$out/recv" 2>&1 &
recv_pid=$!
g loom-xfer send --to 1 --ctx 5 --key 0x5eed --size 4K --timeout $(lab_scaled 5)
wait $recv_pid
send=$(cat "$out/o")
lc -j stats show
# (the sender is told DISCARDED, or times out on a card that does not
# answer discarded requests yet)
ok_if "traffic to the disabled port fails and stats counts drops_disabled on port $port1" \
	'grep -qi "discard\|timed out" <<<"$send" &&
	[ "$(jq "[.counters[] | select(.port == $port1) | .drops_disabled] | add" "$out/o")" -gt 0 ] ||
	{ tap_diag "send: $send"; false; }'
sleep 1.2
lc port set "$port1" fault off
lc -j port show "$port1"
ok_if "port set $port1 fault off: enabled again" \
	'[ "$(jq -c ".[0] | [.port, .disabled]" "$out/o")" = "[$port1,false]" ]'
sleep 1.2
lc port set 0 fault on
lc port show 0
a=$(cat "$out/o")
sleep 1.2
lc port set 0 up
lc port show 0
ok_if "port set 0 fault on disables it, port set 0 up enables it" \
	'grep -q "^dev loom0 port 0 .* disabled " <<<"$a" && ! grep -q disabled "$out/o"'
sleep 1.5
g 'kill -INT $(cat /tmp/pv-mon.pid); sleep 0.5; cat /tmp/pv-mon; rm -f /tmp/pv-mon*'
mon=$(cat "$out/o")
events=$(sed -n 's/^event port_changed dev loom0 port \([01]\) cabled up\( disabled\)\{0,1\} lanes [0-9]* peer_node 1 peer_port [01]$/\1\2/p' <<<"$mon" | tr '\n' ,)
ok_if "monitor shows a PORT_CHANGED event for each of the four changes, in order" \
	'[ "$events" = "$port1 disabled,$port1,0 disabled,0," ] && [ "$(wc -l <<<"$mon")" = 4 ]'
lc port set 5 down
r1=$(rc) e1=$(cat "$out/e")
lc port set 9 down
ok_if "port set 5 / 9 down: exit 1, 'port 5 out of range: card has 2 ports' / 'LOOM_ATTR_PORT_INDEX is at most 7'" \
	'[ "$r1" = 1 ] && grep -q "port 5 out of range: card has 2 ports" <<<"$e1" &&
	refused 1 "LOOM_ATTR_PORT_INDEX is at most 7"'
lc port show 5
ok_if "port show 5: exit 1, out of range" 'refused 1 "port 5 out of range: card has 2 ports"'
lc port set 0 sideways
r1=$(rc)
lc port set 0 fault maybe
ok_if "port set with an unknown state or fault value: exit 2" \
	'[ "$r1" = 2 ] && refused 2 "fault \"maybe\" is neither on nor off"'

# ---- vc ----------------------------------------------------------------
lc vc show
ok_if "vc show: the lab's VC table -- both ports in dimension 0, the wrap-around -X port a dateline, no destination on VC 1" \
	'[ "$(cat "$out/o")" = "$(printf "dev loom0 start_vc1 none\n    port 0 dim 0\n    port 1 dim 0 dateline")" ]'
lc vc set port 0 dim none
lc vc set port 1 dim none dateline off
lc vc show
ok_if "vc set port 0/1 dim none: every port without a dimension" \
	'[ "$(cat "$out/o")" = "$(printf "dev loom0 start_vc1 none\n    port 0 dim none\n    port 1 dim none")" ]'
lc vc set port 1 dim 0 dateline on
lc vc set dest 5 vc 1
lc vc set dest 6 vc 1
lc vc set dest 9 vc 1
lc vc show
ok_if "vc set port 1 dim 0 dateline on, dest 5, 6, 9 on VC 1: vc show" \
	'[ "$(cat "$out/o")" = "$(printf "dev loom0 start_vc1 5-6,9\n    port 0 dim none\n    port 1 dim 0 dateline")" ]'
lc -j vc show
ok_if "vc show -j" \
	'[ "$(jq -c . "$out/o")" = "{\"dev\":\"loom0\",\"start_vc1\":[5,6,9],\"ports\":[{\"port\":0,\"dim\":null,\"dateline\":false},{\"port\":1,\"dim\":0,\"dateline\":true}]}" ]'
lc vc set port 7 dim 0
ok_if "vc set port 7: exit 1, out of range" 'refused 1 "port 7 out of range: card has 2 ports"'
lc vc set port 0 dim 16
ok_if "vc set dim 16: exit 1, LOOM_ATTR_VCT_PORT_DIM is at most 15" \
	'refused 1 "LOOM_ATTR_VCT_PORT_DIM is at most 15"'
lc vc set dest 3 vc 2
r1=$(rc) e1=$(cat "$out/e")
lc vc set dest 4096 vc 1
ok_if "vc set vc 2 / dest 4096: exit 1, the limits named" \
	'[ "$r1" = 1 ] && grep -q "LOOM_ATTR_VCT_VC is at most 1" <<<"$e1" && refused 1 "LOOM_ATTR_VCT_DEST is at most 1023"'
lc vc set port 0
r1=$(rc)
lc vc set port 0 dim 1 dest 3 vc 1
ok_if "vc set with nothing to set, or port and dest mixed: exit 2" \
	'[ "$r1" = 2 ] && [ "$(rc)" = 2 ]'
lc vc set port 1 dim none dateline off
lc vc set dest 5 vc 0
lc vc set dest 6 vc 0
lc vc set dest 9 vc 0
lc vc show
ok_if "refused requests changed nothing; the table is back to no dimensions" \
	'[ "$(cat "$out/o")" = "$(printf "dev loom0 start_vc1 none\n    port 0 dim none\n    port 1 dim none")" ]'

# ---- stats ---------------------------------------------------------------
"$LOOM_LAB" exec --dir "$LAB_DIR" 1 -- loom-xfer recv --ctx 5 --key 0x5eed --size 64K --timeout $(lab_scaled 30) >"$out/recv" 2>&1 &
recv_pid=$!
g loom-xfer send --to 1 --ctx 5 --key 0x5eed --size 64K --timeout $(lab_scaled 30)
wait $recv_pid
recv_rc=$?
lc -j stats show
ok_if "after 64 KiB to node 1, stats -j counts packets sent on port $port1 and has the drops object" \
	'[ $recv_rc = 0 ] && [ "$(jq "[.counters[] | select(.port == $port1) | .tx_pkts] | add" "$out/o")" -ge 64 ] &&
	[ "$(jq ".drops | keys | length" "$out/o")" = 8 ]'
lc -j stats show all
nrec=$(jq '[.counters[] | select(.host | not)] | length' "$out/o")
nvc=$(jq '[.counters[] | select(.host | not) | .vc] | max + 1' "$out/o")
cp "$out/o" "$out/perf1"
lc stats show
a=$(cat "$out/o")
lc stats show all
ok_if "stats hides all-zero rows, stats show all shows 2 ports x $nvc VCs, both end with the drops line" \
	'[ "$nrec" = $((2 * nvc)) ] && [ "$(grep -c "^    port [01] vc [0-9] " <<<"$a")" -lt "$nrec" ] &&
	[ "$(grep -c "^    port [01] vc [0-9] " "$out/o")" = "$nrec" ] &&
	tail -n 1 "$out/o" | grep -q "^    drops: key [0-9]* bounds [0-9]* no_ctx [0-9]* no_route [0-9]* hop_limit [0-9]* malformed [0-9]* maint_lost [0-9]* bsu_key [0-9]*$"'

# ---- performance counters (the PERF block, one snapshot per dump) -------
p1=$out/perf1
ok_if "stats -j: a router object with cycles and clock_khz, 3 port rows (2 network, host last), host rows for every PERF VC" \
	'[ "$(jq "[.router.cycles > 0, .router.clock_khz > 0, (.ports | length), ([.ports[] | select(.host)] | map(.port)), ([.counters[] | select(.host)] | length > 0)]" -c "$p1")" = "[true,true,3,[2],true]" ]'
ok_if "the 64 KiB left card 0: host port pkts_in and port $port1 pkts_out >= 256, each the COUNTERS tx_pkts of port $port1, flits >= packets on every port" \
	'[ "$(jq "(.ports[] | select(.port == $port1) | .pkts_out) == ([.counters[] | select(.port == $port1 and (.host | not)) | .tx_pkts] | add)" "$p1")" = true ] &&
	[ "$(jq "[(.ports[] | select(.port == $port1) | .pkts_out >= 256), (.ports[] | select(.host) | .pkts_in >= 256)] | all" "$p1")" = true ] &&
	[ "$(jq "[.ports[] | .flits_in >= .pkts_in and .flits_out >= .pkts_out] | all" "$p1")" = true ] ||
	{ tap_diag "$(jq -c ".ports, .router" "$p1")"; false; }'
ok_if "idle card: every input buffer empty, a high-water mark > 0 somewhere, stall and credit-starved cycles on every row of the PERF VCs (3 ports of them)" \
	'[ "$(jq "[([.counters[] | .occupancy // 0] | add) == 0, ([.counters[] | .occupancy_max // 0] | max) > 0, ([.counters[] | select(has(\"occupancy\")) | has(\"stall_cycles\") and has(\"credit_starved\")] | all), ([.counters[] | select(has(\"occupancy\"))] | length) == 3 * ([.counters[] | select(.host)] | length)]" -c "$p1")" = "[true,true,true,true]" ] ||
	{ tap_diag "$(jq -c "[.counters[] | [.port, .vc, .occupancy, .occupancy_max, .stall_cycles, .credit_starved]]" "$p1")"; false; }'
lc -j stats show port host
ok_if "stats show port host: only the host port rows; the cycle counter advanced since the last dump" \
	'[ "$(jq "[([.counters[] | .host] | all), ([.ports[] | .host] | all), (.ports | length), (.router.cycles > $(jq .router.cycles "$p1"))]" -c "$out/o")" = "[true,true,1,true]" ]'
lc stats show
ok_if "stats show (text): per port rows with flits and packets, then the router line" \
	'[ "$(grep -cE "^    port [0-9]( host)? flits_in [0-9]+ flits_out [0-9]+ pkts_in [0-9]+ pkts_out [0-9]+$" "$out/o")" = 3 ] &&
	grep -qE "^    router: cycles [0-9]+ clock_khz [0-9]+ va_conflicts [0-9]+ sa_conflicts [0-9]+$" "$out/o"'

# ---- route load ----------------------------------------------------------
g 'loomctl route show > /tmp/pv-rt1; loomctl route set 7 port 1 adaptive phys_dest 9;
	loomctl route set 8 port host; loomctl route show > /tmp/pv-rt2; loomctl route load /tmp/pv-rt1 &&
	loomctl route show | cmp - /tmp/pv-rt1 && echo same1 && loomctl route load /tmp/pv-rt2 &&
	loomctl route show | cmp - /tmp/pv-rt2 && echo same2 && wc -l < /tmp/pv-rt2'
ok_if "route load of route show's output round-trips (both ways)" \
	'grep -qx same1 "$out/o" && grep -qx same2 "$out/o" && [ "$(tail -n 1 "$out/o")" = 4 ]'
g 'loomctl monitor >/tmp/pv-mon 2>/tmp/pv-mon.err & m=$!
	for i in $(seq 20); do grep -q listening /tmp/pv-mon.err && break; sleep 0.3; done
	loomctl route load /tmp/pv-rt1; sleep 0.5; kill -INT $m; wait $m; cat /tmp/pv-mon; rm -f /tmp/pv-mon*'
ok_if "route load sends one 'route table loaded' event" \
	'[ "$(cat "$out/o")" = "event route_table_loaded dev loom0" ]'
g 'printf "# a comment\n\ndest 0 port host phys 0\ndest 3 port 5\n" > /tmp/pv-bad; loomctl route load /tmp/pv-bad'
ok_if "route load of a port the card lacks: exit 1, the kernel's message" \
	'[ "$(rc)" = 1 ] && grep -q "route load of 2 routes on loom0: Numerical result out of range: port 5 out of range: card has 2 ports" "$out/o"'
g 'printf "dest 3 port 1\ndest 3 port 0\n" > /tmp/pv-bad; loomctl route load /tmp/pv-bad; echo "rc $?";
	printf "dest 3 port 1 colour blue\n" > /tmp/pv-bad; loomctl route load /tmp/pv-bad; echo "rc $?";
	loomctl route load /tmp/pv-none; echo "rc $?"'
ok_if "route load of a duplicate dest, an unknown word, a missing file: exit 2, file and line named" \
	'grep -q "/tmp/pv-bad:2: dest 3 is listed twice" "$out/o" && grep -q "/tmp/pv-bad:1: unexpected \"colour\"" "$out/o" &&
	grep -q "cannot open /tmp/pv-none" "$out/o" && [ "$(grep -c "^rc 2$" "$out/o")" = 3 ]'
g 'loomctl route show | cmp - /tmp/pv-rt1 && echo unchanged'
ok_if "the refused loads changed nothing" 'grep -qx unchanged "$out/o"'

# ---- keys ------------------------------------------------------------------
lc key grant 0x5eed user nobody
lc key grant 7 group 100
lc key show
a=$(cat "$out/o")
lc -j key show
ok_if "key grant to a user and a group: key show and -j list both" \
	'[ "$a" = "$(printf "dev loom0 key 0x5eed uid 65534 user nobody\ndev loom0 key 0x7 gid 100 group users")" ] &&
	[ "$(jq -c . "$out/o")" = "[{\"dev\":\"loom0\",\"key\":24301,\"uid\":65534,\"user\":\"nobody\"},{\"dev\":\"loom0\",\"key\":7,\"gid\":100,\"group\":\"users\"}]" ]'
lc key grant 0x5eed user 65534
ok_if "a second identical grant: exit 1, 'already granted'" 'refused 1 "File exists: this key is already granted"'
lc key revoke 0x5eed user nobody
lc key revoke 0x5eed user nobody
ok_if "revoking a grant twice: exit 1, 'no such grant'" 'refused 1 "No such file or directory: no such grant"'
lc key grant zz user 0
r1=$(rc)
lc key grant 5 user no-such-user-here
ok_if "a key that is not a number, an unknown user: exit 2" \
	'[ "$r1" = 2 ] && refused 2 "no user \"no-such-user-here\""'
lc key revoke 7 group users
lc key show
ok_if "after the revokes key show is empty" '[ "$(rc)" = 0 ] && [ ! -s "$out/o" ]'

# ---- debugfs ---------------------------------------------------------------
"$LOOM_LAB" exec --dir "$LAB_DIR" 0 -- loom-xfer recv --ctx 5 --key 0x5eed --size 4K --timeout $(lab_scaled 4) >/dev/null 2>&1 &
recv_pid=$!
g 'd=/sys/kernel/debug/loom/loom0; mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	for i in $(seq 20); do grep -q "^ctx 5 " $d/contexts && break; sleep 0.2; done; cat $d/contexts; cat $d/regs'
wait $recv_pid
ok_if "debugfs: contexts lists context 5 with its key and state, regs names the blocks and registers" \
	'grep -q "^ctx 5 (open file): key 0x5eed cmdq " "$out/o" && grep -q "^    state 1 " "$out/o" &&
	grep -q "^ROUTER: offset " "$out/o" && grep -q "^  logical_id " "$out/o" &&
	grep -q "^  port 1: status " "$out/o" && grep -q "^COUNTERS: offset" "$out/o"'

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel logs have no oops, BUG or warning"
else
	tap_fail "guest kernel logs have no oops, BUG or warning"
fi
tap_done
