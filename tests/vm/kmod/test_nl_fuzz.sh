#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fuzz of loom.ko's generic netlink family in a 1-host lab: nl_fuzz sends
# thousands of random messages (random commands, versions, flags,
# attribute types, lengths, values and nests; LOOM_CMD_MAINT with random
# and malformed MAINT nests and short timeouts) as root and reads every
# answer; every refusal of a LOOM_CMD_MAINT request must carry an extack
# message and every answer come within seconds.  Then the module still answers, a normal
# request still works, rmmod succeeds (no reference leaked) and insmod
# brings the family back, and the guest kernel log has no oops, BUG,
# warning or leak report.  NL_FUZZ_COUNT (default 4000) and NL_FUZZ_SEED
# (default: the date) choose the messages; the seed is printed to replay
# a failure.  LOOM_MODULE=PATH tests another build of loom.ko.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

guest_bin=$loom_build/tests/vm/kmod
if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loomctl" ]; then
	echo "1..0 # SKIP loom-lab or loomctl not built (make all)"
	exit 4
fi
count=${NL_FUZZ_COUNT:-4000}
seed=${NL_FUZZ_SEED:-$(date +%Y%m%d)}

tap_plan 7
if [ ! -x "$guest_bin/nl_fuzz" ]; then
	tap_fail "guest program $guest_bin/nl_fuzz exists (run: make -C kmod tests)"
	tap_done
fi
lab_start_test "lab with 1 host starts and loads loom.ko" --hosts 1 \
	${LOOM_MODULE:+--module "$LOOM_MODULE"}
out=$(mktemp)
trap "lab_cleanup; rm -f '$out'; rm -rf '$(dirname "$LAB_DIR")'" EXIT

tap_diag "nl_fuzz $count $seed (replay with NL_FUZZ_COUNT=$count NL_FUZZ_SEED=$seed)"
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 500 0 -- "$guest_bin/nl_fuzz" "$count" "$seed" >"$out" 2>&1
r=$?
tap_diag "$(head -c 3000 "$out")"
if [ $r = 0 ] && grep -q "^nl_fuzz: $count messages, seed $seed, 0 unanswered$" "$out"; then
	tap_ok "$count random messages, each answered"
else
	tap_fail "$count random messages, each answered (exit $r)"
fi
if grep -q "Invalid argument" "$out" && grep -q "^  success" "$out"; then
	tap_ok "the fuzz reached the handlers: some messages succeeded, some were refused"
else
	tap_fail "the fuzz reached the handlers: some messages succeeded, some were refused"
fi
maint=$(grep "^nl_fuzz: LOOM_CMD_MAINT: " "$out")
# "N requests, S succeeded, R refusals without an extack message, slowest answer T ms"
set -- $(echo "$maint" | sed -E 's/^nl_fuzz: LOOM_CMD_MAINT: ([0-9]+) requests, ([0-9]+) succeeded, ([0-9]+) refusals without an extack message, slowest answer ([0-9]+) ms$/\1 \2 \3 \4/')
if [ $# = 4 ] && [ "$1" -gt 100 ] && [ "$2" -gt 0 ] && [ "$2" -lt "$1" ] && [ "$3" = 0 ] &&
	[ "$4" -lt 3000 ]; then
	tap_ok "LOOM_CMD_MAINT fuzzed ($1 requests, $2 answered): every refusal explained by extack, slowest answer $4 ms"
else
	tap_fail "LOOM_CMD_MAINT fuzzed: over 100 requests, some answered and some refused, every refusal with an extack message, each answered within 3 s (${maint:-no summary line})"
fi
lab_exec 0 'loomctl port set 0 up; loomctl port set 1 up; loomctl route set 0 port host &&
	loomctl route show 0 && loomctl dev' >"$out" 2>&1
if grep -qx "dest 0 port host phys 0" "$out" && grep -q "^loom0: pci " "$out"; then
	tap_ok "afterwards the family still answers: route set/show and dev show work"
else
	tap_diag "$(cat "$out")"
	tap_fail "afterwards the family still answers: route set/show and dev show work"
fi
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- 'rmmod loom; echo "rmmod: exit $?";
	insmod kmod/loom.ko; echo "insmod: exit $?"; loomctl dev >/dev/null; echo "dev: exit $?"' >"$out" 2>&1
if grep -qx "rmmod: exit 0" "$out" && grep -qx "insmod: exit 0" "$out" && grep -qx "dev: exit 0" "$out"; then
	tap_ok "rmmod succeeds (no reference leaked), insmod brings the family back"
else
	tap_diag "$(cat "$out")"
	tap_fail "rmmod succeeds (no reference leaked), insmod brings the family back"
fi
if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel log has no oops, BUG, warning or leak"
else
	tap_fail "guest kernel log has no oops, BUG, warning or leak"
fi
tap_done
