#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The router RTL's top (loom_router) steps cycle by cycle against the C
# model's router (router.h) in the Verilated equivalence harness
# (fpga_bitstreams/rtl/harness/equiv_router.cpp): for each configuration
# (the card router, tiled; a 2-D torus router as a crossbar and tiled)
# seeds of random traffic, credits, ready and configuration writes are
# equal every cycle, the checked-in regression seeds replay equal, and the
# builds with an off-by-one credit and a mutated arbiter are caught at
# their first differing cycle with the unit, port, VC, signal, both values
# and a VCD.  TAP output.  LOOM_RTL_EQUIV_CYCLES and LOOM_RTL_EQUIV_SEEDS
# set the cycles a seed and the seeds a configuration (make -C
# fpga_bitstreams rtl-equiv: 2 x 2 * 10^4; rtl-equiv-long: 8 x 10^6).
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
. "$top/tests/lib/tap.sh"
build=${BUILD:-$top/build}
h=$build/rtl/equiv_router
seeds=$top/fpga_bitstreams/rtl/harness/regress-router.seeds
cycles=${LOOM_RTL_EQUIV_CYCLES:-20000}
nseeds=${LOOM_RTL_EQUIV_SEEDS:-2}
configs="card torus torus-tiled"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_plan $((3 * (nseeds + 1) + 2))
for b in card torus torus-tiled card-mutate-credit card-mutate-arbiter; do
	if [ ! -x "$h-$b" ]; then
		tap_fail "harness $h-$b is not built (make -C fpga_bitstreams rtl-equiv-router; needs verilator)"
		tap_done
	fi
done

for c in $configs; do
	for seed in $(seq 1 "$nseeds"); do
		"$h-$c" --seed "$seed" --cycles "$cycles" --vcd "$tmp/v.vcd" >"$tmp/out" 2>&1
		rc=$?
		if [ $rc = 0 ] && grep -q "router $c seed $seed cycles $cycles .*: equal" "$tmp/out"; then
			tap_ok "$c seed $seed: $cycles cycles equal ($(sed -n 's/.*equal, //p' "$tmp/out"))"
		else
			tap_fail "$c seed $seed: exit $rc"
			tap_diag "$(cat "$tmp/out")"
		fi
	done
	"$h-$c" --regress "$seeds" --cycles 1000 --vcd "$tmp/v.vcd" >"$tmp/out" 2>&1
	rc=$?
	want=$(grep -c "^$c " "$seeds")
	got=$(grep -c ': equal' "$tmp/out")
	if [ $rc = 0 ] && [ "$got" = $((want + 1)) ]; then
		tap_ok "$c: the $want regression seeds of regress-router.seeds replay equal"
	else
		tap_fail "$c: regression seeds: exit $rc, $got of $((want + 1)) runs equal"
		tap_diag "$(cat "$tmp/out")"
	fi
done

# the mutants: caught, with unit, port, VC, signal, both values, a replay line and a VCD
mutant() { # variant description
	rm -f "$tmp/m.vcd"
	"$h-$1" --seed 1 --cycles 100000 --vcd "$tmp/m.vcd" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "DIFFERENCE" "$tmp/out" &&
		grep -Eq "cycle [0-9]+: unit .*, port -?[0-9]+, VC -?[0-9]+, signal .*: RTL [0-9]+ .*C model [0-9]+" "$tmp/out" &&
		grep -q "keep it: add '$1 1 " "$tmp/out" && [ -s "$tmp/m.vcd" ] &&
		grep -q '\$enddefinitions' "$tmp/m.vcd"; then
		tap_ok "$2 is caught: $(grep -m1 'cycle [0-9]*:' "$tmp/out" | sed 's/^ *//')"
	else
		tap_fail "$2 is not caught as it should be (exit $rc)"
		tap_diag "$(cat "$tmp/out")"
	fi
}
mutant card-mutate-credit "the card router with an output unit that holds one credit more than the downstream buffer"
mutant card-mutate-arbiter "the card router with round-robin arbiters that keep the winner's priority"
tap_done
