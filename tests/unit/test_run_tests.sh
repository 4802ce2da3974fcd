#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The test runner itself (tests/run-tests), on a tree of made-up tests: a
# test that prints fewer results than its plan, one whose exit status
# disagrees with its TAP, one that prints no result, and a skip are each
# reported as such; the summary counts them and the runner exits non-zero.
# On two CPUs or more the emu level runs while the unit level does, and is
# still reported after it, numbered in order.  A level's preparation
# (tests/LEVEL/prepare) runs from the start, beside the levels before it,
# the first level's at nice 19 and the later ones' at the lowest priority;
# its level waits for it, and one that fails fails its level with the end
# of its log, the level's tests not run.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/tests/unit" "$tmp/tests/emu" "$tmp/build"
cp "$top/tests/run-tests" "$tmp/tests/"
mk() { # name body [level]
	printf '#!/bin/bash\n%s\n' "$2" >"$tmp/tests/${3:-unit}/$1"
	chmod +x "$tmp/tests/${3:-unit}/$1"
}
mk test_a_short 'echo 1..3; echo "ok 1 - one"; echo "ok 2 - two"'
mk test_b_died 'echo 1..1; echo "ok 1 - fine"; exit 3'
mk test_c_silent 'echo 1..0; exit 0'
mk test_d_skip 'echo "1..0 # SKIP nothing to do"; exit 4'
mk test_e_good 'echo 1..2; echo "ok 1 - x"; echo "ok 2 - y"'

BUILD=$tmp/build "$tmp/tests/run-tests" unit >"$tmp/out" 2>&1
rc=$?
tap_plan 19
shown=
expect() { # description line: ok when the runner printed the line
	if grep -qxF -- "$2" "$tmp/out"; then
		tap_ok "$1"
	else
		tap_fail "$1 (no line '$2')"
		[ -n "$shown" ] || tap_diag "$(cat "$tmp/out")"
		shown=1
	fi
}
expect "a test printing 2 of its 3 planned results fails" \
	"not ok 3 - unit/test_a_short: planned 3 results, printed 2"
expect "a test exiting 3 after an ok fails" "not ok 5 - unit/test_b_died: exit status 3"
expect "a test printing no result fails" "not ok 6 - unit/test_c_silent: printed no TAP result"
expect "a test exiting 4 is a skip" "ok 7 - unit/test_d_skip # SKIP (exit 4)"
expect "the summary counts 5 passed, 3 failed, 1 skipped" "5 passed, 3 failed, 1 skipped"
tap_check "the runner exits non-zero (exit $rc)" test "$rc" != 0

# side by side: a unit test that waits for an emu test to have started, an
# emu test that waits for the unit test to have started
rm -f "$tmp"/tests/unit/*
mk test_u_meets_emu "echo 1..1; touch $tmp/unit-started
	for i in \$(seq 100); do [ -e $tmp/emu-started ] && break; sleep 0.1; done
	[ -e $tmp/emu-started ] && echo 'ok 1 - met' || echo 'not ok 1 - alone'
	for i in \$(seq 100); do [ -e $tmp/last-started ] && break; sleep 0.1; done; touch $tmp/unit-done"
mk test_v_after 'echo 1..1; echo "ok 1 - after"'
# the last unit test, taken by the emu lane once its level is done
mk test_z_last "echo 1..1; touch $tmp/last-started
	[ -e $tmp/unit-started ] && [ ! -e $tmp/unit-done ] && echo 'ok 1 - beside the first' ||
	echo 'not ok 1 - after the first'"
mk test_e_meets_unit "echo 1..1; touch $tmp/emu-started
	for i in \$(seq 100); do [ -e $tmp/unit-started ] && break; sleep 0.1; done
	[ -e $tmp/unit-started ] && echo 'ok 1 - met' || echo 'not ok 1 - alone'" emu
mk test_f_fails 'echo 1..1; echo "not ok 1 - broken"' emu
BUILD=$tmp/build "$tmp/tests/run-tests" unit emu >"$tmp/out" 2>&1
rc=$?
shown=
if [ "$(nproc)" -ge 2 ]; then
	expect "on $(nproc) CPUs the unit and emu levels run at the same time (unit)" \
		"ok 1 - unit/test_u_meets_emu: 1 - met"
	expect "on $(nproc) CPUs the unit and emu levels run at the same time (emu, after unit)" \
		"ok 4 - emu/test_e_meets_unit: 1 - met"
	expect "on $(nproc) CPUs the emu lane then runs unit tests from the last (reported in order)" \
		"ok 3 - unit/test_z_last: 1 - beside the first"
else
	tap_skip "one CPU: the levels run one after the other"
	tap_skip "one CPU: the levels run one after the other"
	tap_skip "one CPU: the levels run one after the other"
fi
expect "a failure of the side level is reported in its place" "not ok 5 - emu/test_f_fails: 1 - broken"
tap_check "the runner exits non-zero for it (exit $rc)" test "$rc" != 0

# preparations: the lab level's test and the rtl level's preparation each
# wait (up to 120 s) for the other to have started; the rtl test needs what
# the preparation made.  The preparation runs in the idle class, so on a
# machine whose cores are busy it may get its first slice of CPU only
# seconds after the test starts: the wait is long, and ends as soon as the
# other side has started
rm -f "$tmp"/tests/unit/* "$tmp"/tests/emu/*
mkdir -p "$tmp/tests/lab" "$tmp/tests/rtl"
cat >"$tmp/tests/rtl/prepare" <<PREP
#!/bin/bash
{ chrt -p \$\$; ps -o ni= -p \$\$; } | tr -s ' \n' ' ' >$tmp/prep-nice
cat /proc/self/autogroup >$tmp/prep-autogroup 2>/dev/null
touch $tmp/prep-started
for i in \$(seq 1200); do [ -e $tmp/lab-started ] && break; sleep 0.1; done
[ -e $tmp/lab-started ] && touch $tmp/prep-met
echo made >$tmp/prep-made
PREP
chmod +x "$tmp/tests/rtl/prepare"
printf '#!/bin/bash\n{ chrt -p $$; ps -o ni= -p $$; } | tr -s " \\n" " " >%s\n' \
	"$tmp/prep-first-nice" >"$tmp/tests/lab/prepare"
chmod +x "$tmp/tests/lab/prepare"
mk test_l_meets_prep "echo 1..1; touch $tmp/lab-started
	for i in \$(seq 1200); do [ -e $tmp/prep-met ] && break; sleep 0.1; done
	[ -e $tmp/prep-met ] && echo 'ok 1 - beside the preparation' || echo 'not ok 1 - alone'" lab
mk test_r_needs_prep "echo 1..1; [ -e $tmp/prep-made ] && echo 'ok 1 - prepared' ||
	echo 'not ok 1 - unprepared'" rtl
BUILD=$tmp/build "$tmp/tests/run-tests" lab rtl >"$tmp/out" 2>&1
rc=$?
shown=
expect "a later level's preparation runs beside the levels before it" \
	"ok 1 - lab/test_l_meets_prep: 1 - beside the preparation"
expect "a level's tests run after its preparation" "ok 2 - rtl/test_r_needs_prep: 1 - prepared"
# the idle class where the kernel grants it (ps shows no nice value then)
prio=$(cat "$tmp/prep-nice" 2>/dev/null)
want=" 19 "
chrt --idle 0 true 2>/dev/null && want=SCHED_IDLE
if [[ $prio == *"$want"* ]] && [ "$rc" = 0 ]; then
	tap_ok "a later level's preparation runs at the lowest priority ($prio) and the run passes"
else
	tap_fail "a later level's preparation runs at the lowest priority (saw: ${prio:-nothing}; exit $rc)"
fi
# where sessions are scheduled as groups, its group at nice 19 too
group=$(cat "$tmp/prep-autogroup" 2>/dev/null)
if [ "$(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null)" != 1 ]; then
	tap_skip "no autogroup scheduling here: a later preparation's group needs no nice"
elif [[ $group == *" nice 19" ]]; then
	tap_ok "a later level's preparation sets its scheduling group's nice to 19 ($group)"
else
	tap_fail "a later level's preparation sets its scheduling group's nice to 19 (saw: ${group:-nothing})"
fi
first=$(cat "$tmp/prep-first-nice" 2>/dev/null)
if [[ $first == *SCHED_OTHER* && $first == *" 19 "* ]]; then
	tap_ok "the first level's preparation runs at nice 19, ahead of the later ones ($first)"
else
	tap_fail "the first level's preparation runs at nice 19, ahead of the later ones (saw: ${first:-nothing})"
fi

# a preparation that fails
printf '#!/bin/bash\necho "cannot build the models"\nexit 3\n' >"$tmp/tests/rtl/prepare"
rm -f "$tmp/prep-made"
BUILD=$tmp/build "$tmp/tests/run-tests" lab rtl >"$tmp/out" 2>&1
rc=$?
shown=
expect "a failed preparation fails its level" \
	"not ok 2 - rtl/prepare: exit status 3; the end of its log:"
expect "with the end of its log" "#   cannot build the models"
if ! grep -q "test_r_needs_prep" "$tmp/out" && [ "$rc" != 0 ]; then
	tap_ok "the level's tests do not run, the runner exits non-zero (exit $rc)"
else
	tap_fail "the level's tests do not run, the runner exits non-zero (exit $rc)"
	tap_diag "$(cat "$tmp/out")"
fi
tap_done
