#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim at the design's scale: a 16x16x16 torus (4096 routers) and a
# folded Clos of 4864 routers (fattree:16:3: 4096 terminal cards under
# 768 32-port switches) and one of 64-port switches (fattree:32:2: 1024
# terminal cards under 64 switches without a host port) build, with
# tables of one entry per node, and run a few hundred cycles with every
# measured packet delivered, as do two nodes with terminals and 63
# network ports each (with the host port, the router's 64); fabrics
# beyond the graph's limit, and routing tables too small for the fabric,
# are refused naming the parameter.  The optimised build runs these (the
# sanitized one takes minutes for 4096 routers; the other sim tests run
# it on small fabrics).
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"
[ -x "$build/bin/loom-sim" ] && sim=$build/bin/loom-sim

tap_plan 11
short=(--router xbar --param FLIT_BYTES=64 --packet-flits 1 --load 0.05 --seed 7
       --warmup 50 --cycles 150)

# large NAME NODES ARGS...: delivers, and the report names NODES nodes and as many entries
large() {
	local name=$1 nodes=$2 got
	shift 2
	delivers "$name" "${short[@]}" "$@"
	got=$(sim_json "$tmp/d.json" '"%d nodes, %d routing entries" % (d["nodes"], d["router"]["rt_entries"])' 2>&1)
	if [ "$got" = "$nodes nodes, $nodes routing entries" ]; then
		tap_ok "$name: the report says $got"
	else
		tap_fail "$name: $nodes nodes and routing entries (the report says: $got)"
	fi
}

large "torus:16x16x16, 4096 routers, dor with datelines" 4096 \
	--topology torus:16x16x16 --param VCS=3 --vc-assign crossing
large "fattree:16:3, 4864 routers (4096 terminals), updown with adaptive up-routes" 4864 \
	--topology fattree:16:3 --param VCS=2
# the 32K-endpoint Clos's switches: 64 network ports, no host port
large "fattree:32:2, 1088 routers (1024 terminals, 64 switches of 64 ports)" 1088 \
	--topology fattree:32:2 --param VCS=2
got=$(sim_json "$tmp/d.json" '"%d terminals of %d network ports and the host port, switches of %d" % (d["terminals"], d["terminal_network_ports"], d["network_ports"])' 2>&1)
tap_check "fattree:32:2: the report says $got" \
	test "$got" = "1024 terminals of 1 network ports and the host port, switches of 64"
# a node with a terminal: 63 network ports and the host port, the router's 64
printf '0:62 1:0\n1:62 0:0\n' >"$tmp/wide.topo"
delivers "a topology file of 2 nodes with terminals and 63 network ports" \
	--topology "$tmp/wide.topo" "${short[@]}" --load 0.3

# refused_with NAME EXPECTED ARGS...: exit 1 and the message names the parameter
refused_with() {
	local name=$1 want=$2 r
	shift 2
	"$sim" "$@" >"$tmp/out" 2>&1
	r=$?
	if [ $r = 1 ] && grep -qF -- "$want" "$tmp/out"; then
		tap_ok "$name: $(head -c 300 "$tmp/out")"
	else
		tap_diag "exit $r: $(cat "$tmp/out")"
		tap_fail "$name: exit 1 with '$want'"
	fi
}

refused_with "a torus beyond the graph's limit names the shape and the limit" \
	"shape 'torus:64x64x64': more than 46340 nodes is too many: a fabric has at most 46340 nodes" \
	--topology torus:64x64x64
refused_with "a fat tree beyond the limit names the shape" \
	"shape 'fattree:32:4': 1179648 nodes is too many" --topology fattree:32:4
refused_with "routing tables smaller than the fabric name --rt-entries" \
	"--rt-entries 1024: torus:8x8x32 has 2048 nodes, each a logical id, but a card with 1024 routing entries addresses only 1024" \
	--topology torus:8x8x32 --rt-entries 1024 "${short[@]}"
