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
		sat[$e-$p]=$(sed -n 's/.*"saturation": *\([0-9.]*\).*/\1/p' "$tmp/$e-$p.json")
		[ -n "${sat[$e-$p]}" ] || tap_diag "$e $p: $(cat "$tmp/err")"
		tap_diag "mesh:4x4 $e $p: saturation ${sat[$e-$p]:-none} flits/node/cycle"
	done
done

# check NAME AWK-CONDITION: over the figures du, dt (dor uniform, transpose),
# vu, vt (valiant), uu, ut (ugal)
check() {
	local name=$1 cond=$2
	if awk -v du="${sat[dor-uniform]:-0}" -v dt="${sat[dor-transpose]:-0}" \
		-v vu="${sat[valiant-uniform]:-0}" -v vt="${sat[valiant-transpose]:-0}" \
		-v uu="${sat[ugal-uniform]:-0}" -v ut="${sat[ugal-transpose]:-0}" \
		"BEGIN { exit !($cond) }"; then
		tap_ok "$name"
	else
		tap_fail "$name (dor ${sat[dor-uniform]}/${sat[dor-transpose]}, valiant ${sat[valiant-uniform]}/${sat[valiant-transpose]}, ugal ${sat[ugal-uniform]}/${sat[ugal-transpose]} uniform/transpose)"
	fi
}

tap_plan 4
check "transpose: valiant ${sat[valiant-transpose]} > 1.4 x dor ${sat[dor-transpose]}" \
	'dt > 0 && vt > 1.4 * dt'
check "uniform: valiant ${sat[valiant-uniform]} about half of dor ${sat[dor-uniform]} (0.35..0.8 x)" \
	'du > 0 && vu > 0.35 * du && vu < 0.8 * du'
check "uniform: ugal ${sat[ugal-uniform]} >= 0.85 x the better of dor and valiant" \
	'uu > 0 && uu >= 0.85 * (du > vu ? du : vu)'
check "transpose: ugal ${sat[ugal-transpose]} >= 0.7 x the better of dor and valiant, > dor" \
	'dt > 0 && ut >= 0.7 * (dt > vt ? dt : vt) && ut > dt'
