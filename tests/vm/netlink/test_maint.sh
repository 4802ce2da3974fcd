#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The maintenance network through loom.ko and loomctl, in a 2-host lab
# whose cards have no routes but their own: read this card's and the
# peer's NODE_ID (the peer through port 0), write a routing entry of the
# peer and read it back (host 1's own driver sees it too), the monitor
# event of a response, CAP_NET_ADMIN for reads, a route through a
# nonexistent port (timed out after every attempt, counted in MAINT_LOST),
# a refused write (READ_ONLY), bad input refused with the kernel's message
# (17 hops, port 9, timeout 20000; raw netlink: bad op, no ADDR, write
# without VALUE, no ROUTE, a reply-only attribute, timeout 0), the
# responses arriving on the event interrupt, and a clean kernel log.
# Confinement: the responses go to the "maint" multicast group, which an
# unprivileged user cannot join (and the "events" group it can join
# carries none of them); a request whose caller catches a signal during
# the wait is answered at its timeout; one whose caller is killed is
# answered ECANCELED (read from a socket the killed process shared) with
# an extack that says whether the request went out.
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
if ! command -v setpriv >/dev/null; then
	echo "1..0 # SKIP setpriv is not installed (util-linux)"
	exit 4
fi

tap_plan 21
lab_start_test "lab with 2 hosts and no routes starts and loads loom.ko" --hosts 2 --no-routes \
	${LOOM_MODULE:+--module "$LOOM_MODULE"}

out=$(mktemp -d)
trap "lab_cleanup; rm -rf '$out' '$(dirname "$LAB_DIR")'" EXIT

# loomctl in host H: stdout, stderr and status into $out/{o,e,rc}
lc_on() {
	local h=$1
	shift
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 "$h" -- loomctl "$@" >"$out/o" 2>"$out/e"
	echo $? >"$out/rc"
}
lc() { lc_on 0 "$@"; }
rc() { cat "$out/rc"; }
show() { tap_diag "exit $(rc): $(cat "$out/o" "$out/e")"; }
raw_cmd="python3 $loom_top/tests/vm/netlink/maint_raw.py $loom_top/include/uapi/linux/loom_netlink.h"
raw() { lab_exec 0 $raw_cmd "$@" 2>&1; }

# ---- reads -----------------------------------------------------------------
# a record's lines as one (the text continues a record on indented lines)
flat() { tr '\n' ' ' <"$out/o" | sed 's/  */ /g; s/ $//'; }

lc maint read node_id
if [ "$(rc)" = 0 ] && [[ "$(flat)" =~ ^"dev loom0 op read route local reg node_id addr 0x90 value 0 status ok node 0 seq "[0-9]+" attempts 1"$ ]]; then
	tap_ok "maint read node_id (route local): node 0"
else
	show
	tap_fail "maint read node_id (route local): node 0"
fi
lc maint read route 0 node_id
if [ "$(rc)" = 0 ] && [[ "$(flat)" =~ ^"dev loom0 op read route 0 reg node_id addr 0x90 value 1 status ok node 1 " ]]; then
	tap_ok "maint read route 0 node_id: the peer, node 1, with no routing table"
else
	show
	tap_fail "maint read route 0 node_id: the peer, node 1, with no routing table"
fi
lc -j maint read route 0 port1.peer_node
j=$(jq -r '"\(.node) \(.value) \(.status) \(.attempts) \(.route)"' "$out/o" 2>&1)
if [ "$(rc)" = 0 ] && [ "$j" = "1 0 ok 1 [0]" ]; then
	tap_ok "maint read -j route 0 port1.peer_node: JSON, the peer's port 1 leads back to node 0"
else
	show
	tap_fail "maint read -j route 0 port1.peer_node (got '$j')"
fi

# ---- a write on the peer -----------------------------------------------------
lc maint write route 0 rt5 0x80000001
a=$(rc)
lc maint read route 0 rt5
b=$(flat)
lc_on 1 route show 5
if [ "$a" = 0 ] && [[ "$b" =~ ^"dev loom0 op read route 0 reg rt5 addr 0xe8 value 2147483649 status ok node 1 " ]] &&
	grep -qx 'dev loom0 dest 5 port 1 phys_dest 0 valid' "$out/o"; then
	tap_ok "maint write route 0 rt5: read back over maintenance, and host 1's route show has it"
else
	show
	tap_diag "write: exit $a; read back: $b"
	tap_fail "maint write route 0 rt5: read back over maintenance, and host 1's route show has it"
fi
lc maint write route 0 node_id 9
if [ "$(rc)" = 1 ] && grep -q 'node 1 answered read_only' "$out/e"; then
	tap_ok "maint write node_id: the card answers READ_ONLY, exit 1"
else
	show
	tap_fail "maint write node_id: the card answers READ_ONLY, exit 1"
fi

# ---- monitor -----------------------------------------------------------------
lab_exec 0 'loomctl monitor >/tmp/mt-mon 2>/tmp/mt-mon.err & m=$!
	for i in 1 2 3 4 5 6 7 8 9 10; do grep -q listening /tmp/mt-mon.err && break; sleep 0.3; done
	loomctl maint read route 0 n_ports >/dev/null; sleep 0.5
	kill -INT $m; wait $m; echo "exit $?"; cat /tmp/mt-mon' >"$out/mon" 2>&1
if grep -qx 'exit 0' "$out/mon" &&
	grep -q '^event maint_resp dev loom0 seq [0-9]* node 1 status ok value 2 op read addr 0x98 route 0$' "$out/mon"; then
	tap_ok "monitor prints the MAINT_RESP event of a read"
else
	tap_diag "$(cat "$out/mon")"
	tap_fail "monitor prints the MAINT_RESP event of a read"
fi

# ---- privileges ----------------------------------------------------------------
nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
lab_exec 0 $nobody loomctl maint read route 0 node_id >"$out/o" 2>"$out/e"
r=$?
if [ $r = 1 ] && grep -q 'Operation not permitted.*CAP_NET_ADMIN' "$out/e"; then
	tap_ok "maint read as an unprivileged user: EPERM, CAP_NET_ADMIN named"
else
	tap_diag "exit $r: $(cat "$out/e")"
	tap_fail "maint read as an unprivileged user: EPERM, CAP_NET_ADMIN named"
fi

# ---- who sees maintenance responses -------------------------------------------
# (python starts slowly in a loaded guest: wait for the joins, stop the
# listeners once the response had time to arrive)
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 200 0 -- "$nobody $raw_cmd listen events 120 >/tmp/mt-ev-nobody 2>&1 & a=\$!
	$nobody $raw_cmd listen maint 120 >/tmp/mt-mg-nobody 2>&1 & b=\$!
	$raw_cmd listen maint 120 >/tmp/mt-mg-root 2>&1 & c=\$!
	for i in \$(seq 600); do [ \$(cat /tmp/mt-ev-nobody /tmp/mt-mg-nobody /tmp/mt-mg-root | grep -c '^join') = 3 ] && break; sleep 0.2; done
	loomctl maint read route 0 node_id >/dev/null; sleep 2; kill \$a \$b \$c 2>/dev/null; wait
	echo '== events group, uid 65534'; cat /tmp/mt-ev-nobody
	echo '== maint group, uid 65534'; cat /tmp/mt-mg-nobody
	echo '== maint group, root'; cat /tmp/mt-mg-root" >"$out/who" 2>&1
if sed -n '/^== events group/,/^== maint group, uid/p' "$out/who" | grep -qx 'join: errno=0' &&
	! sed -n '/^== events group/,/^== maint group, uid/p' "$out/who" | grep -q 'MAINT_RESP' &&
	sed -n '/^== maint group, uid/,/^== maint group, root/p' "$out/who" | grep -qx 'join: errno=1' &&
	sed -n '/^== maint group, root/,$p' "$out/who" | grep -qx 'event LOOM_EVENT_MAINT_RESP value=1'; then
	tap_ok "a maintenance response reaches root on the \"maint\" group; uid 65534 cannot join it (EPERM) and sees none on \"events\""
else
	tap_diag "$(cat "$out/who")"
	tap_fail "a maintenance response reaches root on the \"maint\" group; uid 65534 cannot join it (EPERM) and sees none on \"events\""
fi

# ---- every request is answered -------------------------------------------------
# answered CASE DESCRIPTION PATTERN...: maint_raw.py CASE prints lines
# matching every PATTERN (grep -E)
answered() {
	local case=$1 desc=$2 a p
	shift 2
	a=$(raw "$case")
	for p in "$@"; do
		if ! grep -Eq "$p" <<<"$a"; then
			tap_diag "$a"
			tap_fail "$desc"
			return
		fi
	done
	tap_ok "$desc"
}
answered signal_wait "a caller that catches a signal during the wait gets its answer (ETIMEDOUT at the timeout)" \
	'^errno=110 msg=loom: no maintenance response to any attempt' '^signals=1$'
answered killed_wait "a caller killed during the wait is answered ECANCELED: the request went out, the access may have happened" \
	'^errno=125 msg=loom: ended by a fatal signal while waiting for the maintenance response: the request went out, so the access may have been performed'
answered killed_queued "a caller killed while queued behind another request is answered ECANCELED: nothing was accessed" \
	'^errno=125 msg=loom: ended by a fatal signal while waiting for another maintenance request of this card: no request went out, nothing was accessed'

# ---- lost packets --------------------------------------------------------------
lc maint read maint_lost
lost0=$(sed -n 's/.* value \([0-9]*\) .*/\1/p' "$out/o")
lc maint read route 7 timeout 50 retries 2 node_id
a=$(rc)
cp "$out/e" "$out/lost"
lc maint read maint_lost
lost1=$(sed -n 's/.* value \([0-9]*\) .*/\1/p' "$out/o")
if [ "$a" = 1 ] && grep -q 'timed out after 3 attempts of 50 ms: no response over route 7: the route crosses a down or nonexistent port' "$out/lost" &&
	[ -n "$lost0" ] && [ -n "$lost1" ] && [ $((lost1 - lost0)) = 3 ]; then
	tap_ok "route through nonexistent port 7: timed out after 3 attempts, 3 packets counted in MAINT_LOST"
else
	tap_diag "exit $a: $(cat "$out/lost"); maint_lost $lost0 -> $lost1"
	tap_fail "route through nonexistent port 7: timed out after 3 attempts, 3 packets counted in MAINT_LOST"
fi
lc maint read route 0,1,0 node_id
if [ "$(rc)" = 0 ] && [[ "$(flat)" =~ ^"dev loom0 op read route 0,1,0 reg node_id addr 0x90 value 1 status ok node 1 " ]]; then
	tap_ok "the channel works after the losses: a 3-hop route bouncing between the cards"
else
	show
	tap_fail "the channel works after the losses: a 3-hop route bouncing between the cards"
fi

# ---- bad input -------------------------------------------------------------------
lc maint read route 0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1,0 node_id
a="$(rc) $(cat "$out/e")"
lc maint read route 9 0x90
b="$(rc) $(cat "$out/e")"
lc maint read timeout 20000 0x90
c="$(rc) $(cat "$out/e")"
if grep -q '^1 .*Invalid argument: route longer than 16 hops' <<<"$a" &&
	grep -q '^1 .*Invalid argument: route names a port above 7' <<<"$b" &&
	grep -q '^1 .*Invalid argument: timeout per attempt must be 1..10000 ms' <<<"$c"; then
	tap_ok "17 hops, port 9, timeout 20000: refused by the kernel with its message, exit 1"
else
	tap_diag "$a / $b / $c"
	tap_fail "17 hops, port 9, timeout 20000: refused by the kernel with its message, exit 1"
fi
lc maint read
a="$(rc) $(cat "$out/e")"
lc maint write 0x90
b="$(rc) $(cat "$out/e")"
lc maint frob 0x90
c="$(rc) $(cat "$out/e")"
if grep -q '^2 .*missing REG' <<<"$a" && grep -q '^2 .*missing VALUE' <<<"$b" &&
	grep -q '^2 .*unknown command "frob"' <<<"$c"; then
	tap_ok "loomctl usage errors: missing REG, missing VALUE, unknown command (exit 2)"
else
	tap_diag "$a / $b / $c"
	tap_fail "loomctl usage errors: missing REG, missing VALUE, unknown command (exit 2)"
fi
bad_op=$(raw bad_op)
no_addr=$(raw no_addr)
no_value=$(raw write_no_value)
no_route=$(raw no_route)
if [ "$bad_op" = "errno=22 msg=bad LOOM_ATTR_MAINT_OP: 1 (read) or 2 (write)" ] &&
	[ "$no_addr" = "errno=22 msg=missing LOOM_ATTR_MAINT_ADDR (register offset at the target)" ] &&
	[ "$no_value" = "errno=22 msg=a write needs LOOM_ATTR_MAINT_VALUE" ] &&
	[ "$no_route" = "errno=22 msg=missing LOOM_ATTR_MAINT_ROUTE (empty for this card)" ]; then
	tap_ok "raw netlink: bad op, no ADDR, write without VALUE, no ROUTE: EINVAL with a message each"
else
	tap_diag "$bad_op / $no_addr / $no_value / $no_route"
	tap_fail "raw netlink: bad op, no ADDR, write without VALUE, no ROUTE: EINVAL with a message each"
fi
reply=$(raw reply_attr)
zero=$(raw timeout_zero)
if [ "$reply" = "errno=22 msg=LOOM_ATTR_MAINT_STATUS is set by the reply only" ] &&
	[ "$zero" = "errno=22 msg=timeout per attempt must be 1..10000 ms" ]; then
	tap_ok "raw netlink: a reply-only attribute and timeout 0 are refused with a message"
else
	tap_diag "$reply / $zero"
	tap_fail "raw netlink: a reply-only attribute and timeout 0 are refused with a message"
fi
lc maint read route 0 node_id
if [ "$(rc)" = 0 ] && grep -q '^dev loom0 op read route 0 reg node_id .* status ok$' "$out/o"; then
	tap_ok "after the refusals the channel still answers"
else
	show
	tap_fail "after the refusals the channel still answers"
fi

irqs=$(lab_exec 0 awk "'/loom-event/ { n = 0; for (i = 2; i <= NF; i++) if (\$i ~ /^[0-9]+\$/) n += \$i; print n }'" /proc/interrupts)
if [ -n "$irqs" ] && [ "$irqs" -gt 0 ]; then
	tap_ok "responses arrive on the loom-event interrupt (vector 2: $irqs interrupts)"
else
	tap_diag "$(lab_exec 0 cat /proc/interrupts | grep -i loom)"
	tap_fail "responses arrive on the loom-event interrupt (vector 2: '$irqs' interrupts)"
fi

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel logs have no oops, BUG or warning"
else
	tap_fail "guest kernel logs have no oops, BUG or warning"
fi
tap_done
