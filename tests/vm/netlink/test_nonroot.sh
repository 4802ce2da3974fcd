#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Partitions and privileges of loom.ko for an unprivileged user (uid 65534
# through setpriv), in a 1-host lab: every changing netlink command (route
# set/load, port set, vc set, dev set, key grant/revoke) and the listing of
# the partition grants (key show) answer EPERM with loomctl's CAP_NET_ADMIN
# hint, the other reading ones work; a context created
# with a key the user was not granted fails with EACCES ("Permission
# denied"), one granted to the user or to one of its groups works, a
# revoked grant stops working, open_partition=1 lets anyone use any key,
# root needs no grant; a clean kernel log.  The device node's permissions
# come from udev, as in production: the guest runs systemd-udevd with the
# tree's udev/ rules (lab_udev), /dev/loom0 must be root:loom 0660, a
# member of group loom can open it and a non-member cannot, and a node
# made anew (unbind and bind) gets the same from the running udevd.  The
# unprivileged user is a member of loom where it needs the device.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loomctl" ] ||
	[ ! -x "$loom_build/bin/loom-xfer" ]; then
	echo "1..0 # SKIP loom-lab, loomctl or loom-xfer not built (make all)"
	exit 4
fi
if ! command -v setpriv >/dev/null; then
	# the guests share this machine's root file system
	echo "1..0 # SKIP setpriv is not installed (util-linux)"
	exit 4
fi

tap_plan 21
# LOOM_MODULE=PATH tests another build of loom.ko (e.g. a deliberately broken one)
lab_start_test "lab with 1 host starts and loads loom.ko" --hosts 1 ${LOOM_MODULE:+--module "$LOOM_MODULE"}

out=$(mktemp -d)
trap "lab_cleanup; rm -rf '$out' '$(dirname "$LAB_DIR")'" EXIT

nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
# run CMD in host 0: stdout+stderr into $out/o, status into $out/rc
g() {
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- "$@" >"$out/o" 2>&1
	echo $? >"$out/rc"
}
rc() { cat "$out/rc"; }
show() { tap_diag "exit $(rc): $(cat "$out/o")"; }
# ok_if DESCRIPTION CONDITION...: one TAP line, the output shown on failure
ok_if() {
	local desc=$1
	shift
	if eval "$*"; then tap_ok "$desc"; else show; tap_fail "$desc"; fi
}

# ---- udev: the node's permissions ---------------------------------------
loomgid=$(lab_udev 0 2>"$out/udev")
[ -n "$loomgid" ] || tap_diag "udev: $(cat "$out/udev")"
node_perms='stat -c "%U %G %a" /dev/loom0'
g "$node_perms"
ok_if "udev (systemd-udevd, udev/60-loom.rules) makes /dev/loom0 root:loom 0660 (loom is gid $loomgid)" \
	'grep -qx "root loom 660" "$out/o"'
hold="$loom_build/tests/vm/kmod/hold_ctx info"
g "setpriv --reuid=65534 --regid=65534 --groups=$loomgid $hold; setpriv --reuid=65534 --regid=65534 --clear-groups $hold"
ok_if "a member of group loom opens /dev/loom0 (DEV_INFO works), a non-member gets EACCES" \
	'grep -q "^info: node" "$out/o" && grep -q "^info: cannot open /dev/loom0: Permission denied" "$out/o"'
# udev is slow in a loaded TCG guest: this one may take minutes
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 300 0 -- 'd=$(basename "$(readlink /sys/class/loom/loom0/device)")
	echo $d > /sys/bus/pci/drivers/loom/unbind && echo $d > /sys/bus/pci/drivers/loom/bind &&
	udevadm settle --timeout='"$(lab_scaled 240)"' && '"$node_perms" >"$out/o" 2>&1
echo $? >"$out/rc"
ok_if "after unbind and bind the running udevd gives the new /dev/loom0 root:loom 0660 again" \
	'grep -qx "root loom 660" "$out/o"'

g 'loomctl route show > /tmp/nr-routes; printf "dest 0 port host\n" > /tmp/nr-table; echo ok'

# ---- changes need CAP_NET_ADMIN -----------------------------------------
for c in "route set 1 port 0:changing routes" "route load /tmp/nr-table:changing routes" \
	"port set 0 down:changing a port" "vc set dest 1 vc 1:changing the VC table" \
	"dev set fp_timeout_ms 5:changing a card's settings" \
	"key grant 0x77 user 65534:listing and changing grants" \
	"key revoke 0x77 user 65534:listing and changing grants" \
	"key show:listing and changing grants"; do
	cmd=${c%%:*} hint=${c#*:}
	g $nobody loomctl $cmd
	ok_if "as uid 65534, loomctl $cmd: exit 1, EPERM, '$hint needs CAP_NET_ADMIN'" \
		'[ "$(rc)" = 1 ] && grep -q "Operation not permitted: $hint needs CAP_NET_ADMIN" "$out/o"'
done
g "$nobody loomctl route show | cmp - /tmp/nr-routes && $nobody loomctl vc show >/dev/null &&
	$nobody loomctl stats show >/dev/null && $nobody loomctl port show >/dev/null && echo reads-ok"
ok_if "as uid 65534, route/vc/port show and stats work, and the refused changes changed nothing" \
	'[ "$(rc)" = 0 ] && grep -qx reads-ok "$out/o"'

# ---- contexts and keys (uid 65534 in group loom: it may open the device) --
member="setpriv --reuid=65534 --regid=65534 --groups=$loomgid"
# loom-xfer recv creates context 5 with the key, says "ready", then times
# out waiting for data (nobody sends): "ready" is what is checked.
recv() { g "$1 loom-xfer recv --ctx 5 --key $2 --size 4K --timeout $(lab_scaled 1)"; }
recv "$member" 0x77
ok_if "as uid 65534, a context with an ungranted key: EACCES (Permission denied)" \
	'[ "$(rc)" = 1 ] && grep -q "Permission denied" "$out/o" && ! grep -q ready "$out/o"'
g loomctl key grant 0x77 user nobody
recv "$member" 0x77
ok_if "after key grant 0x77 user nobody, uid 65534 creates a context with key 0x77" \
	'grep -q "context 5 ready" "$out/o"'
recv "$member" 0x78
ok_if "... but not with key 0x78" 'grep -q "Permission denied" "$out/o"'
g loomctl key revoke 0x77 user nobody
recv "$member" 0x77
ok_if "after key revoke, key 0x77 is refused again" 'grep -q "Permission denied" "$out/o"'
g loomctl key grant 0x78 group 100
recv "setpriv --reuid=65534 --regid=65534 --groups=100,$loomgid" 0x78
a=$(cat "$out/o")
recv "$member" 0x78
ok_if "a grant to group 100 lets a member of group 100 use the key, not a non-member" \
	'grep -q "context 5 ready" <<<"$a" && grep -q "Permission denied" "$out/o"'
g 'echo 1 > /sys/module/loom/parameters/open_partition'
recv "$member" 0x99
b=$(cat "$out/o")
g 'echo 0 > /sys/module/loom/parameters/open_partition'
ok_if "with open_partition=1 uid 65534 uses an ungranted key" 'grep -q "context 5 ready" <<<"$b"'
recv "" 0x99
ok_if "root uses an ungranted key" 'grep -q "context 5 ready" "$out/o"'

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel log has no oops, BUG or warning"
else
	tap_fail "guest kernel log has no oops, BUG or warning"
fi
tap_done
