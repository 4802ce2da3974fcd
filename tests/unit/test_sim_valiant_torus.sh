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
# saturation searches: the optimised build where there is one
fast=$sim
[ -x "$build/bin/loom-sim" ] && fast=$build/bin/loom-sim
xbar=(--router xbar --param VCS=4)

tap_plan 8
for t in torus:4x4 ring:8; do
	for e in valiant ugal; do
		delivers "$t $e at load 1" --topology "$t" --engine "$e" "${xbar[@]}" --load 1 \
			--seed 3 --warmup 100 --cycles 400
	done
done

declare -A sat
for e in dor valiant ugal; do
	for p in uniform tornado; do
		"$fast" -j --topology ring:8 --engine "$e" "${xbar[@]}" --pattern "$p" --seed 1 \
			--saturation --warmup 200 --cycles 600 >"$tmp/$e-$p.json" 2>"$tmp/err"
		sat[$e-$p]=$(sed -n 's/.*"saturation": *\([0-9.]*\).*/\1/p' "$tmp/$e-$p.json")
		[ -n "${sat[$e-$p]}" ] || tap_diag "$e $p: $(cat "$tmp/err")"
		tap_diag "ring:8 $e $p: saturation ${sat[$e-$p]:-none} flits/node/cycle"
	done
done

# check NAME AWK-CONDITION: over du, dt (dor uniform, tornado), vu, vt
# (valiant), uu, ut (ugal)
check() {
	local name=$1 cond=$2
	if awk -v du="${sat[dor-uniform]:-0}" -v dt="${sat[dor-tornado]:-0}" \
		-v vu="${sat[valiant-uniform]:-0}" -v vt="${sat[valiant-tornado]:-0}" \
		-v uu="${sat[ugal-uniform]:-0}" -v ut="${sat[ugal-tornado]:-0}" \
		"BEGIN { exit !($cond) }"; then
		tap_ok "$name"
	else
		tap_fail "$name (dor ${sat[dor-uniform]}/${sat[dor-tornado]}, valiant ${sat[valiant-uniform]}/${sat[valiant-tornado]}, ugal ${sat[ugal-uniform]}/${sat[ugal-tornado]} uniform/tornado)"
	fi
}

check "ring:8 uniform: valiant ${sat[valiant-uniform]} about half of dor ${sat[dor-uniform]} (0.35..0.75 x)" \
	'du > 0 && vu > 0.35 * du && vu < 0.75 * du'
check "ring:8 tornado: valiant ${sat[valiant-tornado]} > 1.2 x dor ${sat[dor-tornado]}" \
	'dt > 0 && vt > 1.2 * dt'
check "ring:8: ugal ${sat[ugal-uniform]}/${sat[ugal-tornado]} >= 0.7 x the better of dor and valiant (uniform/tornado)" \
	'uu >= 0.7 * (du > vu ? du : vu) && ut >= 0.7 * (dt > vt ? dt : vt)'

"$sim" --topology torus:4x4 --engine valiant --cycles 10 >/dev/null 2>"$tmp/err"
r=$?
if [ $r != 0 ] && grep -q "needs 4 deterministic VCs per traffic class.*--router xbar --param VCS=4" "$tmp/err"; then
	tap_ok "the card's VC model refused: $(cat "$tmp/err")"
else
	tap_fail "torus:4x4 valiant with the card's VCs: want an error naming 4 VCs and the fix (exit $r: $(cat "$tmp/err"))"
fi
