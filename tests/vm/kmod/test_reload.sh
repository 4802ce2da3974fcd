#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom.ko unloaded and loaded again many times in a 2-host lab (a 2-ring),
# with puts between the hosts after every load and netlink readers
# (stats, port show, key show, vc show, debugfs) hammering the family the
# whole time on the reloading host: every rmmod and insmod succeeds, every
# transfer is verified, the card comes back each time, the settings of
# the family start from the card's state again (no grant survives a
# reload), and the guest kernel logs have no oops, warning or leak.
# RELOAD_ROUNDS (default 10; make check-debug 20) sets the number of rounds.
# LOOM_MODULE=PATH tests another build of loom.ko.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loomctl" ] ||
	[ ! -x "$loom_build/bin/loom-xfer" ]; then
	echo "1..0 # SKIP loom-lab, loomctl or loom-xfer not built (make all)"
	exit 4
fi
rounds=${RELOAD_ROUNDS:-10}
module=${LOOM_MODULE:-kmod/loom.ko}

tap_plan 6
lab_start_test "lab with 2 hosts starts and loads loom.ko" --hosts 2 \
	${LOOM_MODULE:+--module "$LOOM_MODULE"}
out=$(mktemp -d)
trap "lab_cleanup; rm -rf '$out' '$(dirname "$LAB_DIR")'" EXIT

# readers on host 0 for the whole test; they stop when /tmp/rl-stop exists
lab_exec 0 "rm -f /tmp/rl-stop; (n=0; while [ ! -e /tmp/rl-stop ]; do
	loomctl stats; loomctl port show; loomctl key show; loomctl vc show
	cat /sys/kernel/debug/loom/loom0/regs /sys/kernel/debug/loom/loom0/contexts
	n=\$((n + 1)); done >/dev/null 2>&1; echo \$n > /tmp/rl-readers) >/dev/null 2>&1 &
	echo started" >/dev/null

reload_fail=0 xfer_fail=0 grant_kept=0
for i in $(seq "$rounds"); do
	# rmmod refuses ("in use") while a reader is inside a netlink call or
	# holds a debugfs file open (each holds a module reference): as
	# `modprobe -r --wait` does, retry that refusal for up to 5 s
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- "loomctl key grant 0x$i user nobody;
		n=0; until rmmod loom 2>/tmp/rl-rmmod; do
			grep -Eq 'in use|temporarily unavailable' /tmp/rl-rmmod && [ \$n -lt 50 ] || { cat /tmp/rl-rmmod; exit 1; }
			n=\$((n + 1)); sleep 0.1
		done
		insmod $module && loomctl key show | wc -l" >"$out/reload" 2>&1
	if [ $? != 0 ]; then
		reload_fail=$((reload_fail + 1))
		tap_diag "round $i: $(tail -n 5 "$out/reload")"
		continue
	fi
	[ "$(tail -n 1 "$out/reload")" = 0 ] || grant_kept=$((grant_kept + 1))
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 1 -- loom-xfer recv --ctx 3 --key 0x5eed \
		--size 16K --seed "$i" --timeout $(lab_scaled 20) >"$out/recv" 2>&1 &
	recv_pid=$!
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- loom-xfer send --to 1 --ctx 3 --key 0x5eed \
		--size 16K --seed "$i" --timeout $(lab_scaled 20) >"$out/send" 2>&1
	send_rc=$?
	wait $recv_pid
	recv_rc=$?
	if [ $send_rc != 0 ] || [ $recv_rc != 0 ] || ! grep -q "every byte verified" "$out/recv"; then
		xfer_fail=$((xfer_fail + 1))
		tap_diag "round $i: $(cat "$out/send" "$out/recv")"
	fi
done
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- 'touch /tmp/rl-stop
	for i in $(seq 50); do [ -e /tmp/rl-readers ] && break; sleep 0.2; done
	echo "readers $(cat /tmp/rl-readers)"; rm -f /tmp/rl-stop /tmp/rl-readers
	echo "probes $(dmesg | grep -c "loom0: lab back end")"' >"$out/end" 2>&1
tap_diag "$(cat "$out/end")"

if [ $reload_fail = 0 ]; then
	tap_ok "$rounds rounds of rmmod and insmod under netlink and debugfs readers all succeed"
else
	tap_fail "$rounds rounds of rmmod and insmod under netlink and debugfs readers all succeed ($reload_fail failed)"
fi
if [ $xfer_fail = 0 ]; then
	tap_ok "after every load a 16 KiB transfer between the hosts is verified"
else
	tap_fail "after every load a 16 KiB transfer between the hosts is verified ($xfer_fail failed)"
fi
if [ $grant_kept = 0 ]; then
	tap_ok "no key grant survives a reload"
else
	tap_fail "no key grant survives a reload ($grant_kept rounds kept one)"
fi
probes=$(sed -n 's/^probes \([0-9]*\)$/\1/p' "$out/end")
readers=$(sed -n 's/^readers \([0-9]*\)$/\1/p' "$out/end")
if [ "${probes:-0}" = $((rounds + 1)) ] && [ "${readers:-0}" -ge 1 ]; then
	tap_ok "the card was probed $((rounds + 1)) times; the readers ran $readers rounds"
else
	tap_fail "the card was probed $((rounds + 1)) times (got ${probes:-?}); the readers ran (${readers:-?})"
fi
if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel logs have no oops, BUG, warning or leak"
else
	tap_fail "guest kernel logs have no oops, BUG, warning or leak"
fi
tap_done
