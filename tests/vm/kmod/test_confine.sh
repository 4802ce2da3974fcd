#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What an unprivileged user of loom.ko can reach, in a 1-host lab: the
# guest program quota_test (per-user caps max_ctx_per_user across several
# files, max_bsu_per_user, max_pinned_kb_per_user: EDQUOT; other users and
# root unaffected; everything given back on close and kill; a context's
# memory charged to the creator's memory cgroup), the kernel log naming
# the user, the cap and its value for each refusal, and the lab card's
# kick page (mapped into every process that opens /dev/loomN): no BAR of
# another device lies in it, and the card is alone behind its own PCI
# bridge, so none ever can.  Then a clean kernel log.
# LOOM_MODULE=PATH tests another build of loom.ko.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

g=$loom_build/tests/vm/kmod
if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loom-card" ]; then
	echo "1..0 # SKIP loom-lab or loom-card not built"
	exit 4
fi
if [ ! -x "$g/quota_test" ]; then
	tap_plan 1
	tap_fail "guest program $g/quota_test exists (run: make -C kmod tests)"
	tap_done
fi
lab_start_test "lab with 1 host starts and loads loom.ko" --hosts 1 \
	${LOOM_MODULE:+--module "$LOOM_MODULE"}
out=$(dirname "$LAB_DIR")/out
mkdir -p "$out"

lab_exec 0 'mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug' >/dev/null 2>&1
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 120 0 -- "$g/quota_test" >"$out/guest" 2>&1
rc=$?
tap_relay "$out/guest"
if [ $rc = 0 ] && grep -q '^ok 7 ' "$out/guest"; then
	tap_ok "quota_test ran all 7 checks and exits 0"
else
	tap_fail "quota_test ran all 7 checks and exits 0 (exit $rc)"
fi

lab_exec 0 dmesg >"$out/dmesg" 2>&1
missing=
for cap in "3 contexts of loom0, max_ctx_per_user is 3" "2 BSU units of loom0, max_bsu_per_user is 2" \
	"152 KiB pinned of loom0, max_pinned_kb_per_user is 200"; do
	grep -q "uid 65534 holds $cap: context refused (EDQUOT)" "$out/dmesg" || missing="$missing; $cap"
done
if [ -z "$missing" ]; then
	tap_ok "each refusal is logged with the user, the cap and its value"
else
	tap_diag "$(grep -i 'loom' "$out/dmesg" | tail -n 20)"
	tap_fail "each refusal is logged with the user, the cap and its value (missing${missing})"
fi

# the kick page: BAR0 of the card rounded to its page, against every
# memory BAR of every device; and the bus the card sits on
lab_exec 0 'dev=$(basename "$(readlink /sys/class/loom/loom0/device)")
	set -- $(sed -n 1p /sys/bus/pci/devices/$dev/resource)
	page=$(( $1 & ~0xfff ))
	printf "card %s, kick page %#x\n" $dev $page
	for d in /sys/bus/pci/devices/*; do
		n=0
		while read s e f && [ $n -lt 6 ]; do
			if [ $(( s )) != 0 ] && [ $(( f & 0x200 )) != 0 ] &&
				[ $(( s )) -lt $(( page + 4096 )) ] && [ $(( e )) -ge $page ] &&
				! { [ "${d##*/}" = $dev ] && [ $n = 0 ]; }; then
				printf "shared with BAR%d of %s (%#x-%#x)\n" $n ${d##*/} $(( s )) $(( e ))
			fi
			n=$((n + 1))
		done <$d/resource
	done
	bus=${dev%:*}
	others=$(ls /sys/bus/pci/devices | grep "^$bus:" | grep -vx $dev)
	[ "${bus#*:}" = 00 ] && echo "the card sits on the root bus"
	[ -n "$others" ] && echo "devices beside the card: $others"
	echo done' >"$out/kick" 2>&1
if grep -qx done "$out/kick" && ! grep -q '^shared with\|root bus\|beside the card' "$out/kick"; then
	tap_ok "the kick page holds no other BAR, and the card is alone behind its own bridge ($(head -n 1 "$out/kick"))"
else
	tap_diag "$(cat "$out/kick")"
	tap_fail "the kick page holds no other BAR, and the card is alone behind its own bridge"
fi

tap_check "guest kernel log has no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
tap_plan "$tap_n"
tap_done
