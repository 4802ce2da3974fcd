#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim runs: dimension-order routing with datelines delivers every
# measured packet even beyond saturation (no drop, none misdelivered); the
# same routing without datelines on a ring deadlocks and the run says so
# (exit 3); the active set (idle routers and links skipped) gives exactly
# what clocking every router every cycle gives; a run is repeated exactly
# from its seed and the command line it prints; tori of 4 dimensions and
# meshes of 5 route and deliver; the saturation search finds tornado's
# saturation on a ring below the channel-load bound.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

tap_plan 10
delivers "4x4 torus, dor with datelines, uniform at load 1 (beyond saturation)" \
	--topology torus:4x4 --load 1 --seed 11 --warmup 200 --cycles 2000
delivers "8-ring, dor with datelines, tornado near saturation, 5-flit buffers" \
	--topology ring:8 --pattern tornado --param FLIT_BYTES=64 --param BUF_DEPTH=5 \
	--packet-flits 1 --load 0.15 --seed 5 --warmup 200 --cycles 2000

# without datelines the 8-ring's channel dependencies form a cycle: refused,
# then observed when asked
args=(--topology ring:8 --pattern tornado --param FLIT_BYTES=64 --param BUF_DEPTH=5
      --packet-flits 1 --load 1 --seed 5 --warmup 100 --cycles 2000 --no-datelines
      --deadlock-cycles 500)
"$sim" "${args[@]}" --allow-deadlock >"$tmp/out" 2>&1
r=$?
if [ $r = 3 ] && grep -q '^result     deadlock: no packet delivered for 500 cycles' "$tmp/out"; then
	tap_ok "8-ring without datelines, --allow-deadlock: deadlock reported, exit 3"
else
	tap_diag "$(cat "$tmp/out")"
	tap_fail "8-ring without datelines, --allow-deadlock: deadlock reported, exit 3 (exit $r)"
fi

# active set against every router every cycle, a loaded 4x4x2 torus
args=(--topology torus:4x4x2 --load 0.05 --seed 3 --warmup 300 --cycles 1500 -j)
"$sim" "${args[@]}" | grep -v '"seconds"' >"$tmp/skip.json"
"$sim" "${args[@]}" --no-skip | grep -v -e '"seconds"' -e '"command"' -e '"router_cycles"' >"$tmp/all.json"
grep -v -e '"command"' -e '"router_cycles"' "$tmp/skip.json" >"$tmp/skip2.json"
n=$(grep -c '"from"' "$tmp/all.json")
skipped=$(sim_json "$tmp/skip.json" '"%.2f" % (1 - d["router_cycles"] / (d["cycles"] * d["nodes"]))')
if [ "$n" = 192 ] && cmp -s "$tmp/skip2.json" "$tmp/all.json" && [ "${skipped%%.*}" = 0 ] &&
   [ "${skipped#0.}" -ge 20 ]; then
	tap_ok "active-set stepping ($skipped of the router edges skipped) gives the same results as --no-skip ($n channels, every figure)"
else
	tap_diag "$(diff "$tmp/skip2.json" "$tmp/all.json" | head -20)"
	tap_fail "active-set stepping gives the same results as --no-skip ($n channels, $skipped of the edges skipped, at least 0.20 expected)"
fi

# the seed: printed when drawn, and the printed command repeats the run
"$sim" --topology torus:4x4 --load 0.2 --warmup 100 --cycles 1000 >"$tmp/a" 2>&1
cmd=$(sed -n '1s/^# loom-sim //p' "$tmp/a")
# shellcheck disable=SC2086
"$sim" $cmd >"$tmp/b" 2>&1
if grep -q -- '--seed [0-9]' <<<"$cmd" && cmp -s "$tmp/a" "$tmp/b"; then
	tap_ok "the printed command line ($cmd) repeats the run exactly"
else
	tap_diag "$(diff "$tmp/a" "$tmp/b")"
	tap_fail "the printed command line ($cmd) repeats the run exactly"
fi
"$sim" --topology torus:4x4 --load 0.2 --warmup 100 --cycles 1000 --seed 99 -j | grep -v '"seconds"' >"$tmp/c"
"$sim" --topology torus:4x4 --load 0.2 --warmup 100 --cycles 1000 --seed 100 -j | grep -v -e '"seconds"' >"$tmp/d"
if [ "$(diff "$tmp/c" "$tmp/d" | grep -c '"packets"')" -ge 1 ]; then
	tap_ok "another seed gives another run"
else
	tap_fail "another seed gives another run (seeds 99 and 100 gave the same packet count)"
fi

delivers "2x2x2x2 torus (4 dimensions, 8 ports: the card router), uniform 0.3" \
	--topology torus:2x2x2x2 --load 0.3 --seed 4 --warmup 100 --cycles 1500
delivers "2x2x2x2x2 mesh (5 dimensions, 10 ports: crossbar routers), transpose 0.2" \
	--topology mesh:2x2x2x2x2 --router xbar --pattern transpose --load 0.2 --seed 4 \
	--warmup 100 --cycles 1500

# --progress: on stderr, ending with the cycles run; the results unchanged
args=(--topology torus:4x4 --load 0.2 --seed 8 --warmup 100 --cycles 3000)
"$sim" "${args[@]}" >"$tmp/p0" 2>/dev/null
"$sim" "${args[@]}" --progress >"$tmp/p1" 2>"$tmp/perr"
last=$(tr '\r' '\n' <"$tmp/perr" | tail -n 1)
run=$(sed -n 's/^cycles .* run \([0-9]*\)$/\1/p' "$tmp/p1")
if [ "$(tail -n +2 "$tmp/p0")" = "$(tail -n +2 "$tmp/p1")" ] && grep -q "^loom-sim: $run cycles in [0-9.]* s" <<<"$last"; then
	tap_ok "--progress: '$last' on stderr, the results unchanged"
else
	tap_diag "$(diff "$tmp/p0" "$tmp/p1"; cat "$tmp/perr")"
	tap_fail "--progress: 'loom-sim: $run cycles in ... s' on stderr (got '$last'), the results unchanged"
fi

# tornado on an 8-ring: every packet 3 hops the same way, so a channel
# carries 3x the offered load: saturation at most 1/3
"$sim" --topology ring:8 --pattern tornado --param FLIT_BYTES=64 --packet-flits 1 --seed 1 \
	--warmup 500 --cycles 2000 --saturation -j >"$tmp/sat.json" 2>"$tmp/err"
got=$(python3 - "$tmp/sat.json" <<'PY' 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
sat, uns, pr = d["saturation"], d["unstable"], d["probes"]
ok = 0.1 < sat <= 1 / 3 and uns - sat <= 1 / 128 and len(pr) == 9 and \
     all(p["stable"] == (p["load"] <= sat) for p in pr) and \
     all(p["accepted"] >= 0.95 * p["offered"] and p["result"] == "ok" for p in pr if p["stable"])
print("saturation %.4f, unstable %.4f, %d probes%s" % (sat, uns, len(pr), "" if ok else ": WRONG"))
PY
)
if [ $? = 0 ] && ! grep -q WRONG <<<"$got"; then
	tap_ok "--saturation: 8-ring tornado saturates in (0.1, 1/3]: $got"
else
	tap_diag "$(cat "$tmp/err" "$tmp/sat.json")"
	tap_fail "--saturation: 8-ring tornado saturates in (0.1, 1/3] ($got)"
fi
tap_done
