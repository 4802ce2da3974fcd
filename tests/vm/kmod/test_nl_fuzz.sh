#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fuzz of loom.ko's generic netlink family in a 1-host lab: nl_fuzz sends
# thousands of random messages (random commands, versions, flags,
# attribute types, lengths, values and nests; LOOM_CMD_MAINT with random
# and malformed MAINT nests and short timeouts) as root and reads every
# answer; every answer must come within seconds, and every refusal must
# carry an extack message except those the generic netlink core gives
# before the module is called (unknown command number, a dump of a
# doit-only command or a doit of a dump-only one: EOPNOTSUPP; EPERM of
# GENL_ADMIN_PERM without CAP_NET_ADMIN): nl_fuzz.c classifies each bare
# refusal by command, dump flag and errno, and lists them.  Then the
# module still answers, a normal request still works, rmmod succeeds (no reference leaked) and insmod
# brings the family back, and the guest kernel log has no oops, BUG,
# warning or leak report.  NL_FUZZ_COUNT (default 4000) and NL_FUZZ_SEED
# (default: the date) choose the messages; the seed is printed to replay
# a failure.  LOOM_MODULE=PATH tests another build of loom.ko.
# NL_FUZZ_VERBOSE=1 makes nl_fuzz print every MAINT answer and every bare
# refusal as it comes.
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

tap_plan 8
if [ ! -x "$guest_bin/nl_fuzz" ]; then
	tap_fail "guest program $guest_bin/nl_fuzz exists (run: make -C kmod tests)"
	tap_done
fi
lab_start_test "lab with 1 host starts and loads loom.ko" --hosts 1 \
	${LOOM_MODULE:+--module "$LOOM_MODULE"}
out=$(mktemp)
trap "lab_cleanup; rm -f '$out'; rm -rf '$(dirname "$LAB_DIR")'" EXIT

tap_diag "nl_fuzz $count $seed (replay with NL_FUZZ_COUNT=$count NL_FUZZ_SEED=$seed)"
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 500 0 -- \
	${NL_FUZZ_VERBOSE:+NL_FUZZ_VERBOSE=1} "$guest_bin/nl_fuzz" "$count" "$seed" >"$out" 2>&1
r=$?
if [ -n "$NL_FUZZ_VERBOSE" ]; then
	tap_diag "$(cat "$out")"
else
	tap_diag "$(grep -v '^maint \|^bare ' "$out")"
fi
# exit 1 with every message answered: a refusal without its message,
# which the checks below name
if { [ $r = 0 ] || [ $r = 1 ]; } && grep -q "^nl_fuzz: $count messages, seed $seed, 0 unanswered$" "$out"; then
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
bare=$(grep "^nl_fuzz: refusals without an extack message: " "$out")
# "C answered by the generic netlink core, M by the module"
set -- $(echo "$bare" | sed -E 's/^nl_fuzz: refusals without an extack message: ([0-9]+) answered by the generic netlink core, ([0-9]+) by the module$/\1 \2/')
if [ $# = 2 ] && [ "$1" -gt 0 ] && [ "$2" = 0 ]; then
	tap_ok "every refusal that reached the module carried an extack message ($1 bare ones from the generic netlink core)"
else
	tap_diag "$(grep "MODULE$" "$out")"
	tap_fail "every refusal that reached the module carried an extack message (${bare:-no summary line})"
fi
lab_exec 0 'loomctl port set 0 up; loomctl port set 1 up; loomctl route set 0 port host &&
	loomctl route show 0 && loomctl dev' >"$out" 2>&1
if grep -qx "dev loom0 dest 0 port host phys_dest 0 valid" "$out" && grep -q "^dev loom0 index 0 pci " "$out"; then
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
