#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# OmniWAR in loom-sim (loom-fm's omniwar tables, the card's router
# choosing among the minimal ports of every unaligned dimension and the
# deroutes its distance classes allow), beside DimWAR and dimension order
# on small HyperX fabrics at load 1, beyond saturation: every measured
# packet arrives (no deadlock), no packet takes more hops than its N + M
# distance classes (a packet with fewer dimensions to correct than N may
# deroute more than M times), packets do deroute, and
# OmniWAR keeps at least 0.9 of the others' throughput under uniform
# random and bit-complement traffic.  With one terminal per router a
# permutation loads no HyperX link twice under dimension order, so the
# paper's adversarial gains are not there to assert; the figures are
# printed.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"
# the 3x3x3 fabric and the comparison runs: the optimised build where
# there is one; the first run in the sanitized one ($asan)
asan=$sim
[ -x "$build/bin/loom-sim" ] && sim=$build/bin/loom-sim

run=(--load 1 --seed 7 --warmup 200 --cycles 1000)

# hops NAME SIZES TRACE CLASSES: some packets derouted, none took more
# than CLASSES hops, and one took them all
hops() {
	local name=$1 sizes=$2 trace=$3 classes=$4 got
	got=$(hyperx_hops "$sizes" "$trace" | awk -v classes="$classes" '
		{
			n++
			if ($1 > $2) der++
			if ($1 > most) most = $1
			if ($1 < $2 || $1 > classes) bad++
		}
		END { printf "%d packets, %d derouted, at most %d hops, %d beyond the bounds", n, der, most, bad }')
	if [[ $got =~ ^[1-9][0-9]*\ packets,\ [1-9][0-9]*\ derouted,\ at\ most\ $classes\ hops,\ 0\ beyond ]]; then
		tap_ok "$name: $got"
	else
		tap_diag "$(head -5 "$trace")"
		tap_fail "$name: packets derouted, some $classes hops, none more than that or fewer than minimal (got $got)"
	fi
}

# accepted FILE: the accepted load in a JSON result
accepted() {
	sed -n 's/.*"accepted": *\([0-9.]*\).*/\1/p' "$1"
}

declare -A acc
for p in uniform bitcomp; do
	for e in dor dimwar; do
		"$sim" -j --topology hyperx:4x4 --engine $e --pattern $p "${run[@]}" \
			>"$tmp/$e-$p.json" 2>"$tmp/err"
		acc[$e-$p]=$(accepted "$tmp/$e-$p.json")
		[ -n "${acc[$e-$p]}" ] || tap_diag "$e $p: $(cat "$tmp/err")"
	done
done

tap_plan 7
sim=$asan delivers "4x4 hyperx, omniwar (3 classes: the card's VCs), uniform at load 1" \
	--topology hyperx:4x4 --engine omniwar --pattern uniform "${run[@]}" \
	--trace "$tmp/u.trace"
acc[omniwar-uniform]=$(accepted "$tmp/d.json")
hops "4x4 hyperx, omniwar at load 1" 4x4 "$tmp/u.trace" 3
delivers "4x4 hyperx, omniwar, bit complement at load 1" \
	--topology hyperx:4x4 --engine omniwar --pattern bitcomp "${run[@]}"
acc[omniwar-bitcomp]=$(accepted "$tmp/d.json")
delivers "3x3x3 hyperx, omniwar --deroutes 3 (6 classes on VCS=6), uniform at load 1" \
	--topology hyperx:3x3x3 --engine omniwar --deroutes 3 --router xbar --param VCS=6 \
	"${run[@]}" --trace "$tmp/g.trace"
hops "3x3x3 hyperx, omniwar --deroutes 3 at load 1" 3x3x3 "$tmp/g.trace" 6

for p in uniform bitcomp; do
	tap_diag "hyperx:4x4 $p at load 1, accepted flits/node/cycle: dor ${acc[dor-$p]:-none}, dimwar ${acc[dimwar-$p]:-none}, omniwar ${acc[omniwar-$p]:-none}"
	if awk -v d="${acc[dor-$p]:-0}" -v w="${acc[dimwar-$p]:-0}" -v o="${acc[omniwar-$p]:-0}" \
		'BEGIN { exit !(d > 0 && w > 0 && o >= 0.9 * d && o >= 0.9 * w) }'; then
		tap_ok "$p: omniwar ${acc[omniwar-$p]} >= 0.9 x dor ${acc[dor-$p]} and dimwar ${acc[dimwar-$p]}"
	else
		tap_fail "$p: omniwar >= 0.9 x dor and dimwar (got omniwar ${acc[omniwar-$p]:-none}, dor ${acc[dor-$p]:-none}, dimwar ${acc[dimwar-$p]:-none})"
	fi
done
