#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The whole of loom.ko against a hostile card, in a 1-host lab.  For each
# seed loom.ko is loaded, the card emulator turns hostile ('hostile SEED' on
# its control socket: out-of-range and changing registers, bogus
# completions, interrupt storms, admin commands ignored or refused;
# fpga_bitstreams/hostif/hostile.h), and every user interface is kept busy for
# HOSTILE_SECONDS: ioctls, mmap and the data path through libloom, io_uring
# commands and BSU waits (hostile_load), netlink with every command
# including maintenance, stats and changes (loomctl), debugfs and sysfs;
# halfway the card is unbound under that load and bound again under
# hostility (probe meets the bad values).
# Then per seed: nothing hung, the card ended failed (one log line),
# working or refused by probe, no process is left, once the card is unbound
# no context and no DMA memory is left (debugfs "memory") but what the
# driver said it keeps for good (a card that never acknowledged its stop),
# rmmod works.  Then, the card tame again, it binds and works.  Last, the
# kernel log has no oops, WARN, BUG, hung task or stall.
#
#   HOSTILE_SEEDS="1 2 3"   seeds, one round each (make check: 3 short ones;
#   HOSTILE_SECONDS=6       make check-hostile: more seeds, longer rounds)
#   LOOM_MODULE=PATH        another build of loom.ko
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"
. "$here/../../lib/card_regs.sh"

seeds=${HOSTILE_SEEDS:-1 2 3}
secs=${HOSTILE_SECONDS:-6}
module=${LOOM_MODULE:-kmod/loom.ko}
load=$loom_build/tests/vm/kmod/hostile_load
ops=$loom_build/tests/vm/kmod/distrust_ops
if [ ! -x "$LOOM_LAB" ] || [ ! -x "$load" ] || [ ! -x "$ops" ]; then
	echo "1..0 # SKIP loom-lab, hostile_load or distrust_ops not built (make tests)"
	exit 4
fi
n_seeds=$(wc -w <<<"$seeds")
tap_plan $((1 + 6 * n_seeds + 2))
lab_start_test "lab with 1 host starts (no module)" --hosts 1 --no-module

# netlink, debugfs and sysfs, every command, until $1 seconds have passed
nl_load='end=$(($(date +%s) + '$secs'))
while [ $(date +%s) -lt $end ]; do
	for c in "dev show" "route show" "port show" "vc show" "stats" "bsu show" "key show" \
		 "maint read 0x14" "route set 7 port host" "route del 7" "port set 0 down" \
		 "port set 0 up" "dev set fp_timeout_ms 1000" "bsu set 30 parent root" \
		 "vc set dest 7 vc 1" "key grant 9 user 1000" "key revoke 9 user 1000"; do
		timeout '"$(lab_scaled 20)"' loomctl $c >/dev/null 2>&1
		case $? in
		124) echo "hang: loomctl $c" ;;
		2) echo "usage: loomctl $c" ;;
		esac
	done
	cat /sys/kernel/debug/loom/loom0/regs /sys/kernel/debug/loom/loom0/contexts \
	    /sys/class/loom/loom0/node_id /sys/class/loom/loom0/logical_id >/dev/null 2>&1
done'

for seed in $seeds; do
	# bound while tame, then hostile: probe is hit again by the rebind below
	out=$(lab_exec 0 "dmesg -C; insmod $module admin_timeout_ms=500 admin_poll_ms=5 &&
		  basename \$(readlink /sys/class/loom/loom0/device)" 2>&1)
	pci=$(tail -n 1 <<<"$out")
	out=$(card_ctl 0 "hostile $seed")
	tap_diag "$pci: $out"
	case "$out" in "ok hostile on seed $seed") tap_ok "seed $seed: the card turns hostile" ;;
		       *) tap_fail "seed $seed: the card turns hostile" ;; esac

	# halfway, an unbind under load and a bind under hostility
	out=$("$LOOM_LAB" exec --dir "$LAB_DIR" --timeout $((secs + 180)) 0 -- "
		$load /dev/loom0 $secs $seed & l=\$!
		( $nl_load ) & n=\$!
		sleep $((secs / 2)); d=/sys/bus/pci/drivers/loom
		echo $pci > \$d/unbind; echo $pci > \$d/bind 2>/dev/null
		dmesg | grep 'loom 0' | tail -n 4
		wait \$l; echo load=\$?; wait \$n; echo netlink=done" 2>&1)
	rc=$?
	tap_diag "$out"
	if [ $rc = 0 ] && grep -q '^load=0$' <<<"$out" && grep -q '^netlink=done$' <<<"$out" &&
	   ! grep -qE '^(hang|usage):' <<<"$out"; then
		tap_ok "seed $seed: ${secs}s of every interface at once, an unbind and a bind: every call returned"
	else
		tap_fail "seed $seed: ${secs}s of every interface at once, an unbind and a bind: every call returned (exec $rc)"
	fi

	out=$(card_ctl 0 "hostile off")
	tap_diag "$out"
	# one exec: the state it ended in (failure lines counted since the card
	# was last bound), leftovers, then unbind, memory, rmmod
	out=$(lab_exec 0 "if [ -e /dev/loom0 ]; then $ops info /dev/loom0; else echo unbound; fi
		  dmesg | awk '/loom 0.*lab back end/ { n = 0 } /loom 0.*card failed: block / { n++ }
			       END { print \"failures=\" n + 0 }'
		  echo left: \$(pgrep -l hostile_load; pgrep -l loomctl; ps -eo stat,comm | grep '^D')
		  d=/sys/bus/pci/drivers/loom; for p in \$d/0000:*; do [ -e \$p ] && echo \${p##*/} > \$d/unbind; done
		  cat /sys/kernel/debug/loom/memory
		  dmesg | sed -n 's/.*keeping the memory of \([0-9]*\) contexts (\([0-9]*\) bytes).*/kept \1 \2/p'
		  rmmod loom && echo unloaded" 2>&1)
	tap_diag "$out"
	if grep -qE '^(open=-19|info=-5)$' <<<"$out" && grep -q '^failures=1$' <<<"$out"; then
		tap_ok "seed $seed: the card ended failed (one log line) and is not used"
	elif grep -q '^info=0 ' <<<"$out"; then
		tap_ok "seed $seed: the card ended working"
	elif grep -q '^unbound$' <<<"$out"; then
		tap_ok "seed $seed: the card ended refused by probe (not bound)"
	else
		tap_fail "seed $seed: the card ended failed, working or refused"
	fi
	tap_check "seed $seed: no process left running or stuck" grep -q '^left: *$' <<<"$out"
	# left: what the driver said it keeps (a card that never acknowledged
	# the RESET may still write it, and the lab's does not stop with bus
	# mastering), nothing else
	kept_n=0 kept_b=0
	while read -r _ n b; do
		kept_n=$((kept_n + n)) kept_b=$((kept_b + b))
	done < <(grep '^kept ' <<<"$out")
	if grep -q "^contexts $kept_n\$" <<<"$out" && grep -q "^dma_bytes 0\$" <<<"$out" &&
	   grep -q "^kept_bytes $kept_b\$" <<<"$out"; then
		tap_ok "seed $seed: unbound, no context and no DMA memory is left but what the driver keeps ($kept_n, $kept_b bytes)"
	else
		tap_fail "seed $seed: unbound, no context and no DMA memory is left but what the driver keeps ($kept_n, $kept_b bytes)"
	fi
	tap_check "seed $seed: rmmod works" grep -q '^unloaded$' <<<"$out"
done

out=$(lab_exec 0 "insmod $module && $ops create /dev/loom0 && rmmod loom && echo again" 2>&1)
tap_diag "$out"
if grep -q '^create=0 ' <<<"$out" && grep -q '^again$' <<<"$out"; then
	tap_ok "with the card tame again it binds and works, and unloads"
else
	tap_fail "with the card tame again it binds and works, and unloads"
fi

# a stall report, not the boot line naming the stall timeout
# ("RCU CPU stall warnings timeout set to ...", with rcu_cpu_stall_timeout=)
stall_re='blocked for more than|detected stalls? on CPU|self-detected stall|kthread starved|soft lockup'
log=$("$LOOM_LAB" check-log --dir "$LAB_DIR" 2>&1; grep -hE "$stall_re" "$LAB_DIR"/h0.console.log)
if [ -z "$log" ]; then
	tap_ok "guest kernel log has no oops, WARN, BUG, hung task or stall"
else
	tap_diag "$log"
	# the first report in full
	first=$(grep -nE "Oops|BUG:|WARNING:|general protection|$stall_re" \
		"$LAB_DIR"/h0.console.log | head -n 1 | cut -d: -f1)
	[ -n "$first" ] && tap_diag "$(sed -n "$((first > 5 ? first - 5 : 1)),$((first + 60))p" "$LAB_DIR"/h0.console.log)"
	tap_fail "guest kernel log has no oops, WARN, BUG, hung task or stall"
fi
tap_done
