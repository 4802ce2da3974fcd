#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Valiant and UGAL in loom-sim (the card's router drawing intermediates,
# loom-fm's valiant and ugal tables) against dimension order on a 4x4
# mesh, saturation throughput by bisection: under transpose, dimension
# order's worst case, Valiant beats it by far; under uniform random traffic
# Valiant gives about half of minimal's; UGAL stays near the better of the
# two under both.  Ratios with margins, never exact figures.  Every run
# prints its figure.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"
# six saturation searches: the optimised build where there is one
[ -x "$build/bin/loom-sim" ] && sim=$build/bin/loom-sim

declare -A sat
for e in dor valiant ugal; do
	for p in uniform transpose; do
		"$sim" -j --topology mesh:4x4 --engine "$e" --pattern "$p" --seed 1 --saturation \
			--warmup 200 --cycles 500 >"$tmp/$e-$p.json" 2>"$tmp/err"
		sat[$e-$p]=$(sim_json "$tmp/$e-$p.json" '"%.4f" % d["saturation"]' 2>/dev/null)
		[ -n "${sat[$e-$p]}" ] || tap_diag "$e $p: $(cat "$tmp/err")"
		tap_diag "mesh:4x4 $e $p: saturation ${sat[$e-$p]:-none} flits/node/cycle"
	done
done

# check NAME PYTHON-CONDITION: over the figures d, uniform u, transpose t
check() {
	local name=$1 cond=$2 got
	got=$(python3 -c '
import sys
s = dict(a.split("=") for a in sys.argv[2:])
f = {k: float(v) for k, v in s.items()}
print(eval(sys.argv[1], {}, {"f": f}))' "$cond" \
		"dor-uniform=${sat[dor-uniform]:-0}" "dor-transpose=${sat[dor-transpose]:-0}" \
		"valiant-uniform=${sat[valiant-uniform]:-0}" \
		"valiant-transpose=${sat[valiant-transpose]:-0}" \
		"ugal-uniform=${sat[ugal-uniform]:-0}" "ugal-transpose=${sat[ugal-transpose]:-0}" 2>&1)
	if [ "$got" = True ]; then
		tap_ok "$name"
	else
		tap_fail "$name (got $got: dor ${sat[dor-uniform]}/${sat[dor-transpose]}, valiant ${sat[valiant-uniform]}/${sat[valiant-transpose]}, ugal ${sat[ugal-uniform]}/${sat[ugal-transpose]} uniform/transpose)"
	fi
}

tap_plan 4
check "transpose: valiant ${sat[valiant-transpose]} > 1.4 x dor ${sat[dor-transpose]}" \
	'f["valiant-transpose"] > 1.4 * f["dor-transpose"] > 0'
check "uniform: valiant ${sat[valiant-uniform]} about half of dor ${sat[dor-uniform]} (0.35..0.8 x)" \
	'0.35 * f["dor-uniform"] < f["valiant-uniform"] < 0.8 * f["dor-uniform"]'
check "uniform: ugal ${sat[ugal-uniform]} >= 0.85 x the better of dor and valiant" \
	'f["ugal-uniform"] >= 0.85 * max(f["dor-uniform"], f["valiant-uniform"]) > 0'
check "transpose: ugal ${sat[ugal-transpose]} >= 0.7 x the better of dor and valiant, > dor" \
	'f["ugal-transpose"] >= 0.7 * max(f["dor-transpose"], f["valiant-transpose"]) and f["ugal-transpose"] > f["dor-transpose"] > 0'
