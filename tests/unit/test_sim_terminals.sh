#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim's terminals: on/off (bursty) injection offers the load asked for
# on average, delivers it, and queues more than Bernoulli arrivals of the
# same load (a higher p99 latency), as bursts do.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

tap_plan 3
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
