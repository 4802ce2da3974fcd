#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim on a folded Clos and a dragonfly: beyond saturation both
# deliver every measured packet (updown with adaptive up-routes, also on
# 16-port routers with wide routing entries; the
# dragonfly engine's VC classes: deadlock free in the router as loom-fm's
# check proved it on the tables); the full-bisection fat tree accepts
# under uniform traffic near what one of its routers accepts on its own
# (fattree:4:1, a single switch); on transpose, which d-mod-k routing
# piles onto one up port per leaf, adaptive up-routes accept clearly more
# than the deterministic routes (--no-adaptive); patterns and engines the
# shapes cannot have are refused with the reason.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

short=(--seed 3 --warmup 300 --cycles 1500)

# accepted ARGS...: the accepted load of a run
accepted() {
	"$sim" -j "$@" >"$tmp/a.json" 2>"$tmp/err" && sim_json "$tmp/a.json" '"%.4f" % d["accepted"]'
}

# ratio_at_least NAME A B MIN: A / B >= MIN
ratio_at_least() {
	local name=$1 a=$2 b=$3 min=$4
	if [ -n "$a" ] && [ -n "$b" ] && python3 -c "import sys; sys.exit(not ($a / $b >= $min))"; then
		tap_ok "$name: $a vs $b, ratio $(python3 -c "print('%.2f' % ($a / $b))") (want >= $min)"
	else
		tap_diag "$(cat "$tmp/err")"
		tap_fail "$name: ratio of '$a' to '$b' at least $min"
	fi
}

# refused NAME WANT ARGS...: exit 2 or 1 with WANT in the message
refused() {
	local name=$1 want=$2 r
	shift 2
	"$sim" "$@" >/dev/null 2>"$tmp/err"
	r=$?
	if [ $r != 0 ] && grep -qF -- "$want" "$tmp/err"; then
		tap_ok "$name: $(head -1 "$tmp/err")"
	else
		tap_fail "$name: an error naming '$want' (got exit $r: $(head -3 "$tmp/err"))"
	fi
}

tap_plan 7
delivers "fattree:4:2, updown with adaptive up-routes, uniform at load 1" \
	--topology fattree:4:2 --load 1 "${short[@]}"
delivers "dragonfly:4:2:2, minimal with VC1 from the global hop, uniform at load 1" \
	--topology dragonfly:4:2:2 --load 1 "${short[@]}"
delivers "fattree:8:2 of 16-port fbx routers (wide routing entries), uniform at load 1" \
	--topology fattree:8:2 --router fbx --load 1 "${short[@]}"
star=$(accepted --topology fattree:4:1 --load 1 "${short[@]}")
tree=$(accepted --topology fattree:4:2 --load 1 "${short[@]}")
ratio_at_least "fattree:4:2 uniform accepted at load 1 against one of its switches alone (fattree:4:1)" \
	"$tree" "$star" 0.85
long=(--seed 2 --warmup 1000 --cycles 3000)
adaptive=$(accepted --topology fattree:4:2 --pattern transpose --load 1 "${long[@]}")
fixed=$(accepted --topology fattree:4:2 --pattern transpose --load 1 --no-adaptive "${long[@]}")
ratio_at_least "fattree:4:2 transpose at load 1: adaptive up-routes against deterministic (d mod k)" \
	"$adaptive" "$fixed" 1.2
refused "transpose on 72 terminals" "needs 4^k terminals, not 72" \
	--topology dragonfly:4:2:2 --pattern transpose
refused "dimension order on a fat tree" "engine dor needs coordinates" \
	--topology fattree:4:2 --engine dor
