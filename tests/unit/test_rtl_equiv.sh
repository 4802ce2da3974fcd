#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The router RTL's units (flit FIFOs, credit counters, arbiters of every
# policy) step cycle by cycle against the C model's units in the Verilated
# equivalence harness (fpga_bitstreams/rtl/harness): three seeds of 10^5
# cycles each and the checked-in regression seeds are equal, the generated
# constants agree with the C tables (drift check), and the builds with a
# mutated arbiter and an off-by-one credit counter are caught at the first
# differing cycle with the unit, signal, both values and a VCD.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
h=$build/rtl/equiv_units
seeds=$top/fpga_bitstreams/rtl/harness/regress.seeds
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_plan 6
for b in "$h" "$h-mutate-arbiter" "$h-mutate-credit"; do
	if [ ! -x "$b" ]; then
		tap_fail "harness $b is not built (make -C fpga_bitstreams rtl-harness; needs verilator)"
		tap_done
	fi
done

for seed in 1 2 3; do
	"$h" --seed $seed --cycles 100000 --vcd "$tmp/v.vcd" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc = 0 ] && grep -q "seed $seed cycles 100000 .*: equal" "$tmp/out"; then
		tap_ok "seed $seed: 10^5 cycles equal ($(sed -n 's/.*equal, //p' "$tmp/out"))"
	else
		tap_fail "seed $seed: exit $rc"
		tap_diag "$(cat "$tmp/out")"
	fi
done

"$h" --regress "$seeds" --cycles 1000 --vcd "$tmp/v.vcd" >"$tmp/out" 2>&1
rc=$?
want=$(grep -c '^units ' "$seeds")
got=$(grep -c ': equal' "$tmp/out")
if [ $rc = 0 ] && [ "$got" = $((want + 1)) ]; then
	tap_ok "the $want regression seeds of regress.seeds replay equal (and the drift check passes)"
else
	tap_fail "regression seeds: exit $rc, $got of $((want + 1)) runs equal"
	tap_diag "$(cat "$tmp/out")"
fi

# the mutants: caught, with unit, signal, both values, a replay line and a VCD
mutant() { # variant unit-pattern description
	rm -f "$tmp/m.vcd"
	"$h-$1" --seed 1 --cycles 100000 --vcd "$tmp/m.vcd" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "DIFFERENCE" "$tmp/out" &&
		grep -Eq "cycle [0-9]+: unit $2.*signal .*: RTL [0-9]+ .*C model [0-9]+" "$tmp/out" &&
		grep -q "keep it: add 'units 1 " "$tmp/out" && [ -s "$tmp/m.vcd" ] &&
		grep -q '\$enddefinitions' "$tmp/m.vcd"; then
		tap_ok "$3 is caught: $(grep -m1 'cycle [0-9]*:' "$tmp/out" | sed 's/^ *//')"
	else
		tap_fail "$3 is not caught as it should be (exit $rc)"
		tap_diag "$(cat "$tmp/out")"
	fi
}
mutant mutate-arbiter "arbiter" "a round-robin arbiter that keeps the winner's priority"
mutant mutate-credit "credit counter" "a credit counter that accepts one return beyond its depth"
tap_done
