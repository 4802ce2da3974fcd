#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Valiant and UGAL on rings and tori in loom-sim (crossbar routers with four
# generic VCs: each phase its own dateline pair): every packet delivered at
# load 1 on torus:4x4 and ring:8 (no deadlock), and on ring:8, saturation
# by bisection, the classic result: under uniform random traffic Valiant
# gives about half of dimension order's throughput, under tornado (every
# packet k/2 - 1 hops the same way round) it beats dimension order; UGAL
# stays near the better of the two.  The card's VC model is refused with
# the limit.  Ratios with margins, never exact figures; every run prints
# its figure.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"
xbar=(--router xbar --param VCS=4)

tap_plan 8
for t in torus:4x4 ring:8; do
	for e in valiant ugal; do
		delivers "$t $e at load 1" --topology "$t" --engine "$e" "${xbar[@]}" --load 1 \
			--seed 3 --warmup 100 --cycles 400
	done
done

for e in dor valiant ugal; do
	for p in uniform tornado; do
		saturation "$e-$p" --topology ring:8 --engine "$e" "${xbar[@]}" --pattern "$p" \
			--seed 1 --warmup 200 --cycles 600
	done
done

sat_check "ring:8 uniform: valiant ${sat[valiant-uniform]} about half of dor ${sat[dor-uniform]} (0.35..0.75 x)" \
	'dor_uniform > 0 && valiant_uniform > 0.35 * dor_uniform && valiant_uniform < 0.75 * dor_uniform'
sat_check "ring:8 tornado: valiant ${sat[valiant-tornado]} > 1.2 x dor ${sat[dor-tornado]}" \
	'dor_tornado > 0 && valiant_tornado > 1.2 * dor_tornado'
sat_check "ring:8: ugal ${sat[ugal-uniform]}/${sat[ugal-tornado]} >= 0.7 x the better of dor and valiant (uniform/tornado)" \
	'ugal_uniform >= 0.7 * (dor_uniform > valiant_uniform ? dor_uniform : valiant_uniform) && ugal_tornado >= 0.7 * (dor_tornado > valiant_tornado ? dor_tornado : valiant_tornado)'

"$sim" --topology torus:4x4 --engine valiant --cycles 10 >/dev/null 2>"$tmp/err"
r=$?
if [ $r != 0 ] && grep -q "needs 4 deterministic VCs per traffic class.*--router xbar --param VCS=4" "$tmp/err"; then
	tap_ok "the card's VC model refused: $(cat "$tmp/err")"
else
	tap_fail "torus:4x4 valiant with the card's VCs: want an error naming 4 VCs and the fix (exit $r: $(cat "$tmp/err"))"
fi
