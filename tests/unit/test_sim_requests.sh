#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim's request/response traffic: GET requests are answered, each
# response matched to its request in the trace, no terminal with more than
# --outstanding requests in flight, the round trip reported beside the
# one-way latency (text, JSON, CSV alike).  Protocol deadlock: with
# responses in the request class and a one-slot response queue the fabric
# deadlocks and the report prints the cycle of waits through the
# terminals (on a torus and on a fat tree, whose switches have no host
# port); the card's separate classes run the same load to completion.
# The ring without datelines prints its channel cycle.  Bad options are
# named.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

tap_plan 12
args=(--topology torus:4x4 --requests get --response-flits 7 --load 0.2 --seed 4
      --warmup 300 --cycles 3000 --outstanding 2)
delivers "4x4 torus, GET with 7-flit responses at load 0.2" "${args[@]}" --trace "$tmp/get.trace"
got=$(python3 - "$tmp/get.trace" <<'PY'
import sys, collections
reqs, resps = [], {}
for line in open(sys.argv[1]):
    src, dst, created, done, hops, lat, flits, kind = line.split()
    if kind == "get":
        reqs.append((int(src), int(dst), int(done), int(flits)))
    elif kind == "get-resp":
        resps[(int(dst), int(src), int(created))] = (int(done), int(flits))
    else:
        print("unexpected packet type", kind); sys.exit()
# the run ends once the measured requests are answered (cycle 3300 on):
# every request delivered before that has its response
bad = [r for r in reqs if r[2] < 3300 and (r[0], r[1], r[2]) not in resps]
sizes = collections.Counter(f for _, f in resps.values())
# in flight per source: requests delivered but not yet answered, at every
# request's delivery (it was sent before it arrived, so this is a lower
# bound of what was in flight then)
worst = 0
by_src = collections.defaultdict(list)
for s, d, t, _ in reqs:
    if (s, d, t) in resps:
        by_src[s].append((t, resps[(s, d, t)][0]))
for s, l in by_src.items():
    for t, _ in l:
        worst = max(worst, sum(1 for a, b in l if a <= t < b))
print("%d requests, %d unanswered, response sizes %s, most in flight %d"
      % (len(reqs), len(bad), dict(sizes), worst))
PY
)
if [[ $got =~ ^[1-9][0-9]*\ requests,\ 0\ unanswered,\ response\ sizes\ \{7:\ [0-9]+\},\ most\ in\ flight\ [12]$ ]]; then
	tap_ok "every request answered by a 7-flit response, at most 2 in flight per terminal: $got"
else
	tap_diag "$(head -4 "$tmp/get.trace")"
	tap_fail "every request answered by a 7-flit response, at most 2 in flight: got $got"
fi
got=$(sim_json "$tmp/d.json" '"%d round trips, rtt p50 %d p99 %d max %d, one-way p50 %d p99 %d max %d, kind %s" % (d["round_trip"]["requests"], d["round_trip"]["p50"], d["round_trip"]["p99"], d["round_trip"]["max"], d["latency"]["p50"], d["latency"]["p99"], d["latency"]["max"], d["requests"]["kind"])')
if python3 - "$got" <<'PY'
import re, sys
m = re.match(r"(\d+) round trips, rtt p50 (\d+) p99 (\d+) max (\d+), one-way p50 (\d+) p99 (\d+) max (\d+), kind get$", sys.argv[1])
n, r50, r99, rmax, o50, o99, omax = map(int, m.groups()) if m else [0] * 7
# a round trip is a request's trip and its response's: longer than one
sys.exit(0 if m and n > 0 and o50 < r50 <= r99 <= rmax and o99 < r99 else 1)
PY
then
	tap_ok "round trip beside one-way latency (JSON): $got"
else
	tap_fail "round trip beside one-way latency: want round trips, rtt p50 > one-way p50, rtt p99 > one-way p99, p50 <= p99 <= max; got $got"
fi
"$sim" --format csv "${args[@]}" >"$tmp/csv"
"$sim" "${args[@]}" >"$tmp/text"
got=$(python3 - "$tmp/csv" "$tmp/d.json" "$tmp/text" <<'PY'
import csv, json, sys
row = next(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))["round_trip"]
text = [l for l in open(sys.argv[3]) if l.startswith("round trip")]
want = "round trip avg %.2f, p50 %d, p99 %d, max %d cycles (%d requests)" % (d["avg"], d["p50"], d["p99"], d["max"], d["requests"])
print("csv %s/%s/%s/%s json %d/%d/%d/%d text %s" % (row["round_trips"], row["rtt_p50"], row["rtt_p99"], row["rtt_max"], d["requests"], d["p50"], d["p99"], d["max"], "same" if text and text[0].strip() == want else "differs: %r" % text))
PY
)
if [[ $got =~ ^csv\ ([0-9]+/[0-9]+/[0-9]+/[0-9]+)\ json\ ([0-9/]+)\ text\ same$ ]] && [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ]; then
	tap_ok "the same round trips in CSV, JSON and text: $got"
else
	tap_fail "the same round trips in CSV, JSON and text: got $got"
fi

# protocol deadlock: responses in the request class, one response slot
dl=(--topology torus:4x4 --requests get --response-flits 19 --load 0.8 --seed 2
    --warmup 500 --cycles 3000 --outstanding 16 --response-queue 1 --deadlock-cycles 1000)
"$sim" "${dl[@]}" --classes merged >"$tmp/merged" 2>&1
r=$?
waits=$(sed -n 's/^waits      //p' "$tmp/merged")
first=${waits%% -> *}
last=${waits##* -> }
if [ $r = 3 ] && grep -q '^result     deadlock: no packet delivered for 1000 cycles' "$tmp/merged" &&
   [[ $waits == *"term "*" (holds a request, response queue 1/1 full) -> "*":host/vc0 -> "* ]] &&
   [ -n "$first" ] && [ "$first" = "$last" ]; then
	tap_ok "merged classes, one response slot: deadlock, the cycle of waits through the terminals: $waits"
else
	tap_diag "$(cat "$tmp/merged")"
	tap_fail "merged classes, one response slot: want exit 3, deadlock and a closed cycle through 'term N (holds a request...) -> N:host/vc0' (exit $r, waits '$waits')"
fi
# the same on a fat tree: terminals' routers have 1 network port and the host port, switches none
"$sim" --topology fattree:4:2 --requests get --response-flits 19 --load 0.8 --seed 2 \
	--warmup 300 --cycles 1500 --outstanding 16 --response-queue 1 --deadlock-cycles 500 \
	--classes merged -j >"$tmp/ftdl.json"
r=$?
got=$(sim_json "$tmp/ftdl.json" 'd["wait_cycle"]')
if [ $r = 3 ] && python3 -c "
import re, sys
w = sys.argv[1].split(' -> ')
ok = len(w) > 2 and w[0] == w[-1] and any(e.startswith('term ') for e in w)
for a, b in zip(w, w[1:]):
    if a.startswith('term '):
        # a terminal waits for its own host input
        ok = ok and b.startswith(a.split()[1] + ':host/')
    else:
        n, port = re.match(r'(\d+):(\w+)/vc\d+$', a).groups()
        # terminal cards 0..15: port 0 and the host; switches 16..23: ports 0..7, no host
        ok = ok and (port in ('0', 'host') if int(n) < 16 else port != 'host')
sys.exit(0 if ok else 1)" "$got"; then
	tap_ok "fattree:4:2, merged classes: deadlock, a closed cycle through terminals' host inputs: $got"
else
	tap_fail "fattree:4:2, merged classes: want exit 3 and a closed cycle naming terminals' port 0 and host inputs, switches' network ports (exit $r, waits '$got')"
fi
delivers "separate classes (the card's), the same load and queues: completes" "${dl[@]}"
got=$(sim_json "$tmp/d.json" '"%s %s" % (d["wait_cycle"] == "", d["requests"]["classes"])')
tap_check "no wait cycle reported when nothing deadlocks ($got)" test "$got" = "True separate"

# a routing deadlock: the ring's channels
"$sim" --topology ring:8 --no-datelines --allow-deadlock --pattern tornado --param FLIT_BYTES=64 \
	--param BUF_DEPTH=5 --packet-flits 1 --load 1 --seed 5 --warmup 100 --cycles 2000 \
	--deadlock-cycles 500 -j >"$tmp/ring.json"
got=$(sim_json "$tmp/ring.json" 'd["wait_cycle"]')
if python3 -c "
import sys
w = sys.argv[1].split(' -> ')
sys.exit(0 if len(w) == 9 and w[0] == w[-1] and all(e.endswith('/vc0') and ':host' not in e for e in w) else 1)" "$got"; then
	tap_ok "8-ring without datelines: the cycle of its 8 channels: $got"
else
	tap_fail "8-ring without datelines: want the 8 ring buffers, first = last, got '$got'"
fi

# bad options
"$sim" --router xbar --requests get >"$tmp/o" 2>"$tmp/e"
r=$?
tap_check "generic VCs with separate classes: exit 1, named ($(cat "$tmp/e"))" \
	sh -c "[ $r = 1 ] && grep -q 'separate classes needs the card.s VC model (--router card).*--classes merged' '$tmp/e'"
"$sim" --requests get --outstanding 0 >"$tmp/o" 2>"$tmp/e"
r=$?
tap_check "--outstanding 0: usage error ($(head -1 "$tmp/e"))" \
	sh -c "[ $r = 2 ] && grep -q -- '--outstanding 0: 1..65535' '$tmp/e'"
"$sim" --requests get --response-flits 2 >"$tmp/o" 2>"$tmp/e"
r=$?
tap_check "--response-flits below the header: exit 1, named ($(cat "$tmp/e"))" \
	sh -c "[ $r = 1 ] && grep -q -- '--response-flits 2: with 16-byte flits a packet has 3..' '$tmp/e'"
tap_done
