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
for e in dor valiant ugal; do
	for p in uniform transpose; do
		saturation "$e-$p" --topology mesh:4x4 --engine "$e" --pattern "$p" --seed 1 \
			--warmup 200 --cycles 500
	done
done

sat_check "transpose: valiant ${sat[valiant-transpose]} > 1.4 x dor ${sat[dor-transpose]}" \
	'dor_transpose > 0 && valiant_transpose > 1.4 * dor_transpose'
sat_check "uniform: valiant ${sat[valiant-uniform]} about half of dor ${sat[dor-uniform]} (0.35..0.8 x)" \
	'dor_uniform > 0 && valiant_uniform > 0.35 * dor_uniform && valiant_uniform < 0.8 * dor_uniform'
sat_check "uniform: ugal ${sat[ugal-uniform]} >= 0.85 x the better of dor and valiant" \
	'ugal_uniform > 0 && ugal_uniform >= 0.85 * (dor_uniform > valiant_uniform ? dor_uniform : valiant_uniform)'
sat_check "transpose: ugal ${sat[ugal-transpose]} >= 0.7 x the better of dor and valiant, > dor" \
	'dor_transpose > 0 && ugal_transpose >= 0.7 * (dor_transpose > valiant_transpose ? dor_transpose : valiant_transpose) && ugal_transpose > dor_transpose'
