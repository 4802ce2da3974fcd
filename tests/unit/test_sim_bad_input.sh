#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim refuses bad input before it simulates anything, naming what is
# wrong: topology files (file, line and reason: bad lines, duplicate
# ports, ports beyond the router's radix; unreachable destinations),
# nodes with a terminal and 64 network ports (65 router ports), a
# routing with a channel dependency cycle (the cycle printed), and
# impossible parameters; usage errors exit 2, the others 1, and nothing
# goes to standard output.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/usage_error.sh"
. "$here/../lib/sim.sh"

printf '0:0 1:0\n1:1 x\n' >"$tmp/syntax.topo"
printf '0:0 1:0\n1:1 2:0\n0:0 2:1\n' >"$tmp/dup.topo"
printf '0:0 1:0\n1:9 0:1\n' >"$tmp/radix.topo"
printf '0:0 1:0\n0:63 1:1\n' >"$tmp/wide.topo"
printf '# two islands: 0-1 and 2-3\n0:0 1:0\n2:0 3:0\n' >"$tmp/islands.topo"
printf '0:0 1:0\n1:1 3:0\n3:1 0:1\n' >"$tmp/gap.topo"

tap_plan 35
refused 1 "$tmp/syntax.topo:2: '1:1 x' is not 'NODE:PORT NODE:PORT'" --topology "$tmp/syntax.topo"
refused 1 "$tmp/dup.topo:3: duplicate port: 0:0 is already cabled at line 1" \
	--topology "$tmp/dup.topo"
refused 1 "$tmp/radix.topo:2: port 9 is beyond the router's radix: it has ports 0..7" \
	--topology "$tmp/radix.topo"
refused 1 "node 0 cannot reach 2" --topology "$tmp/islands.topo"
# a router has 64 ports: a node with a terminal has 63 network ports beside its host port
refused 1 "$tmp/wide.topo: node 0 has a terminal and 64 network ports, but a router has at most 64 ports: a node with a terminal has at most 63 network ports beside its host port (a switch, a node without a terminal such as a fat tree's, has up to 64)" \
	--topology "$tmp/wide.topo" --router xbar
refused 1 "hyperx:33x33: node 0 has a terminal and 64 network ports, but a router has at most 64 ports" \
	--topology hyperx:33x33 --router xbar
refused 1 "fattree:32:2: the switches' routers (64 network ports, no host port): COLS x VCS = 64 x 2 exceeds 64" \
	--topology fattree:32:2 --router fbx
# node 2 is named by no cable: unknown to the fabric, so unreachable
refused 1 "cannot reach 2" --topology "$tmp/gap.topo" --engine minhop
refused 1 "/nonexistent.topo: cannot open topology file" --topology /nonexistent.topo
refused 1 "engine dor gives a channel dependency cycle of 4 channels, so the fabric can deadlock: 0:0/vc0 -> 1:0/vc0 -> 2:0/vc0 -> 3:0/vc0 -> (back to the first); --allow-deadlock" \
	--topology torus:4x4 --no-datelines --ties plus
refused 1 "engine dimwar routes HyperX shapes only (hyperx:S1xS2[x...]): its deroutes are lateral hops within a fully connected dimension, which a torus has not" \
	--topology torus:4x4 --engine dimwar
refused 1 "engine dimwar: hyperx:5x6 has 9 network ports, but the deroute ports come from the VC table's 8 port entries" \
	--topology hyperx:5x6 --engine dimwar --router xbar
refused 1 "engine dimwar: deroutes travel on VC1, but the router has VCS=1: use --param VCS=2 or more" \
	--topology hyperx:4x4 --engine dimwar --router xbar --param VCS=1
refused 1 "engine omniwar: hyperx:3x3x3 needs 4 distance classes (3 dimensions + 1 deroutes), but the card's VCs carry 3 per traffic class (VC0, VC1 and the adaptive VC): use --deroutes 0 or fewer" \
	--topology hyperx:3x3x3 --engine omniwar
refused 1 "engine omniwar: hyperx:4x4 needs 3 distance classes (2 dimensions + 1 deroutes), but the routers have VCS=2, one per distance class: use --param VCS=3 or more" \
	--topology hyperx:4x4 --engine omniwar --router xbar
refused 2 "--deroutes '8': not a number of deroutes (0..7)" --engine omniwar --deroutes 8
refused 1 "unknown engine 'war': use dor, minhop, updown, dimwar" --engine war
refused 1 "--burst 10:90 with --load 0.5: the on periods would have to carry 5 flits per cycle, but a host port takes at most 1" \
	--burst 10:90 --load 0.5
refused 2 "--burst '0:5': ON:OFF, the mean cycles on and off, each at least 1" --burst 0:5
refused 2 "--saturation with --burst: the saturation search runs Bernoulli arrivals only" \
	--burst 5:5 --saturation
refused 2 "--packet-flits '3:1,x': N or N:WEIGHT[,N:WEIGHT...]" --packet-flits 3:1,x
refused 1 "--packet-flits 40: with 16-byte flits a packet has 3..19 flits" --packet-flits 3:1,40:1
refused 1 "--load 1.5: the offered load is flits per node per cycle, more than 0 and at most 1" \
	--load 1.5
refused 1 "--packet-flits 1: with 16-byte flits a packet has 3..19 flits" --packet-flits 1
refused 1 "VCS = 9 is above its maximum 8" --param VCS=9
refused 1 "--param LAT_FOO: no such router parameter" --param LAT_FOO=1
refused 1 "the card router has at most 8" --topology torus:3x3x3x3x3
refused 1 "datelines on 10 ports, but the VC table holds 8 port entries" \
	--topology torus:2x2x2x2x2 --router xbar
refused 1 "pattern transpose needs at least two dimensions" --topology ring:8 --pattern transpose
refused 1 "pattern bitcomp needs a power-of-two node count; torus:3x3 has 9 nodes" \
	--topology torus:3x3 --pattern bitcomp
refused 1 "unknown pattern 'tornadoo': did you mean 'tornado'?" --pattern tornadoo
expect_usage_error "$sim" "unknown option '--laod': did you mean '--load'?" --laod 0.2
expect_usage_error "$sim" "--cycles 0: measure at least one cycle" --cycles 0
v=$("$sim" -V 2>&1)
tap_check "loom-sim -V: '$v' is 'loom-sim $(cat "$top/VERSION")'" test "$v" = "loom-sim $(cat "$top/VERSION")"
"$sim" --help >"$tmp/h" 2>&1
r=$?
missing=
for p in uniform permutation transpose bitcomp bitrev shuffle tornado neighbour hotspot alltoall worstcase; do
	grep -qw "$p" "$tmp/h" || missing="$missing $p"
done
tap_check "loom-sim --help exits 0 and names every pattern (exit $r, missing:${missing:- none})" \
	sh -c "[ $r = 0 ] && [ -z '$missing' ] && grep -q -- '--bench' '$tmp/h' && grep -q -- '--replay' '$tmp/h'"
tap_done
