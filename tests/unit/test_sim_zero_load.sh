#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim at a load low enough that packets rarely meet: for every hop
# count H the mean latency is the zero-load latency the stage latencies
# predict, (H + 1) routers of LAT_* stages plus H links plus the packet's
# serialisation, computed here from the parameters the run is given (not
# from the simulator's own report).
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

# check NAME ROUTER_LATENCY LINK FLITS ARGS...: every hop count within 0.25 cycles
check() {
	local name=$1 lr=$2 lw=$3 fl=$4 out bad
	shift 4
	"$sim" --topology torus:4x4 --seed 7 --load 0.004 --warmup 200 --cycles 30000 \
		--link-latency "$lw" -j "$@" >"$tmp/r.json" 2>"$tmp/err"
	if [ $? != 0 ]; then
		tap_diag "$(cat "$tmp/err")"
		tap_fail "$name: the run failed"
		return
	fi
	out=$(python3 - "$tmp/r.json" "$lr" "$lw" "$fl" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lr, lw, fl = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rows, bad = d["latency_by_hops"], []
for r in rows:
    h = r["hops"]
    want = (h + 1) * lr + h * lw + fl - 1
    print("hops %d: %d packets, mean %.3f, min %d, predicted %d" % (h, r["packets"], r["avg"], r["min"], want))
    if abs(r["avg"] - want) > 0.25 or r["packets"] < 20:
        bad.append(h)
if [r["hops"] for r in rows] != [1, 2, 3, 4]:
    bad.append("hop counts %s, a 4x4 torus has 1..4" % [r["hops"] for r in rows])
print("BAD %s" % bad if bad else "GOOD")
PY
)
	tap_diag "$out"
	if grep -q '^GOOD' <<<"$out"; then
		tap_ok "$name: mean latency per hop count = (H+1)*$lr + H*$lw + $((fl - 1))"
	else
		tap_fail "$name: mean latency per hop count = (H+1)*$lr + H*$lw + $((fl - 1)) ($(grep BAD <<<"$out"))"
	fi
}

tap_plan 4
# the card router: tiles, every stage 1 cycle: BW RC VA SA ROW SUB COL OUT LT = 9
check "card router, 1-flit packets, links 2 cycles" 9 2 1 --param FLIT_BYTES=64 --packet-flits 1
# three 16-byte flits: the tail two cycles behind the head
check "card router, 3-flit packets, links 1 cycle" 9 1 3
# crossbar with slower stages: BW 1 RC 2 VA 1 SA 1 ST 3 LT 1 = 9, links 0
check "crossbar LAT_RC=2 LAT_ST=3, links 0 cycles" 9 0 1 --router xbar --param FLIT_BYTES=64 \
	--packet-flits 1 --param LAT_RC=2 --param LAT_ST=3
# stage latencies the zero-load figure must follow: LAT_LT=3 adds 2 per router
check "card router LAT_LT=3" 11 1 1 --param FLIT_BYTES=64 --packet-flits 1 --param LAT_LT=3
tap_done
