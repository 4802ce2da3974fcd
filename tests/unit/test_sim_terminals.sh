#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim's terminals: on/off (bursty) injection offers the load asked for
# on average, delivers it, and queues more than Bernoulli arrivals of the
# same load (a higher p99 latency), as bursts do.  A packet size
# distribution gives each size its weight's share of the packets (from the
# trace's flits column) and offers the load in flits.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

tap_plan 6
args=(--topology torus:4x4 --load 0.2 --seed 3 --warmup 500 --cycles 10000)
delivers "4x4 torus, on/off 100:300 at load 0.2" "${args[@]}" --burst 100:300
mv "$tmp/d.json" "$tmp/onoff.json"
"$sim" -j "${args[@]}" >"$tmp/bern.json"
got=$(sim_json "$tmp/onoff.json" '"%s offered %.4f" % (d["injection"]["process"], d["offered"])')
if [[ $got =~ ^onoff\ offered\ 0\.(1[89]|2[01]) ]]; then
	tap_ok "on/off offers the load on average: $got (want 0.18..0.22)"
else
	tap_fail "on/off offers the load on average: want onoff offered 0.18..0.22, got $got"
fi
p_on=$(sim_json "$tmp/onoff.json" 'd["latency"]["p99"]')
p_b=$(sim_json "$tmp/bern.json" 'd["latency"]["p99"]')
if python3 -c "import sys; sys.exit(0 if float('$p_on') > 1.3 * float('$p_b') else 1)"; then
	tap_ok "bursts queue: p99 latency on/off $p_on > 1.3 x Bernoulli $p_b"
else
	tap_fail "bursts queue: p99 latency on/off $p_on, want > 1.3 x Bernoulli $p_b"
fi

args=(--topology torus:4x4 --load 0.3 --seed 5 --warmup 500 --cycles 8000 --packet-flits 3:9,19:1)
delivers "4x4 torus, sizes 3:9,19:1 at load 0.3" "${args[@]}" --trace "$tmp/sz.trace"
got=$(sim_json "$tmp/d.json" '"offered %.4f mean_flits %.2f" % (d["offered"], d["mean_flits"])')
if [[ $got =~ ^offered\ 0\.(2[89]|3[01]).*\ mean_flits\ 4\.60$ ]]; then
	tap_ok "size distribution offers the load in flits: $got (want 0.28..0.32, mean 4.6)"
else
	tap_fail "size distribution offers the load in flits: want offered 0.28..0.32 mean_flits 4.60, got $got"
fi
got=$(awk '{ n[$7]++; t++ } END { printf "%d packets: %d of 3 flits, %d of 19, %d other, long share %.3f", t, n[3], n[19], t - n[3] - n[19], n[19] / t }' "$tmp/sz.trace")
if [[ $got =~ ,\ 0\ other,\ long\ share\ 0\.(0[7-9]|1[0-3]) ]]; then
	tap_ok "each size its share: $got (want 0.07..0.13 long)"
else
	tap_diag "$(head -3 "$tmp/sz.trace")"
	tap_fail "each size its share: want only 3 and 19 flits, 0.07..0.13 long, got $got"
fi
