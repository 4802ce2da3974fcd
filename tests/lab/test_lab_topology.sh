#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-lab topology (no VM): the text and JSON descriptions of rings, meshes
# and tori -- nodes, ports, cables, routes -- follow the documented
# conventions; bad shapes and a --hosts that does not match exit 2 with a
# message saying what is accepted, and `start` refuses them before creating
# anything.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
lab=$build/bin/loom-lab

if [ ! -x "$lab" ]; then
	echo "1..0 # SKIP loom-lab is not built (make -C tools/loom-lab)"
	exit 4
fi
tmp=$(mktemp -d /tmp/loom-lab-topo.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

tap_plan 11

# ---- text: torus:2x2
"$lab" topology --shape torus:2x2 >"$tmp/t.txt" 2>"$tmp/t.err"
rc=$?
if [ $rc = 0 ] && [ ! -s "$tmp/t.err" ] &&
   grep -qx 'shape torus:2x2: 4 nodes, 4 ports per node (0 +X, 1 +Y, 2 -X, 3 -Y)' "$tmp/t.txt" &&
   grep -qx '  node 3: (1,1)' "$tmp/t.txt" &&
   grep -qx 'cables (8):' "$tmp/t.txt" &&
   grep -qx '  node 1 port 0 (+X) <-> node 0 port 2 (-X)' "$tmp/t.txt" &&
   grep -qx '  node 2 port 1 (+Y) <-> node 0 port 3 (-Y)' "$tmp/t.txt" &&
   [ "$(grep -c ' <-> ' "$tmp/t.txt")" = 8 ] &&
   grep -qx '  node 0: 0=host 1=0(+X) 2=1(+Y) 3=0(+X)' "$tmp/t.txt" &&
   grep -qx '  node 3: 0=0(+X) 1=1(+Y) 2=0(+X) 3=host' "$tmp/t.txt"; then
	tap_ok "topology torus:2x2: nodes, both wrap cables per dimension, routes X first, tie +"
else
	tap_fail "topology torus:2x2: nodes, both wrap cables per dimension, routes X first, tie +"
	tap_diag "$(cat "$tmp/t.txt" "$tmp/t.err")"
fi

# ---- text: the ring stays what the lab always built
"$lab" topology --hosts 4 >"$tmp/r.txt" 2>&1
rc=$?
"$lab" topology --shape ring >"$tmp/r2.txt" 2>&1
rc2=$?
if [ $rc = 0 ] && [ $rc2 = 0 ] &&
   grep -qx 'shape ring: 4 nodes, 2 ports per node (0 +X, 1 -X)' "$tmp/r.txt" &&
   grep -qx '  node 3 port 0 (+X) <-> node 0 port 1 (-X)' "$tmp/r.txt" &&
   grep -qx '  node 0: 0=host 1=0(+X) 2=0(+X) 3=1(-X)' "$tmp/r.txt" &&
   grep -qx 'shape ring: 2 nodes, 2 ports per node (0 +X, 1 -X)' "$tmp/r2.txt"; then
	tap_ok "topology ring: port 0 to port 1 of the next node, shorter way, 2 nodes by default"
else
	tap_fail "topology ring: port 0 to port 1 of the next node, shorter way, 2 nodes by default"
	tap_diag "$(cat "$tmp/r.txt" "$tmp/r2.txt")"
fi

# ---- text: the largest lab, a 4x4 torus
"$lab" topology --shape torus:4x4 >"$tmp/t16.txt" 2>&1
rc=$?
if [ $rc = 0 ] && grep -qx 'shape torus:4x4: 16 nodes, 4 ports per node (0 +X, 1 +Y, 2 -X, 3 -Y)' "$tmp/t16.txt" &&
   grep -qx 'cables (32):' "$tmp/t16.txt" && grep -qx '  node 15: (3,3)' "$tmp/t16.txt" &&
   grep -qx '  node 3 port 0 (+X) <-> node 0 port 2 (-X)' "$tmp/t16.txt" &&
   grep -q '^  node 0: 0=host .* 10=0(+X) .* 15=2(-X)$' "$tmp/t16.txt"; then
	tap_ok "topology torus:4x4: 16 nodes, 32 cables with wrap-around, routes to the far corner"
else
	tap_fail "topology torus:4x4: 16 nodes, 32 cables with wrap-around, routes to the far corner"
	tap_diag "$(cat "$tmp/t16.txt")"
fi

# ---- text: a mesh has no cable at its edges
"$lab" topology --shape mesh:2x3 >"$tmp/m.txt" 2>&1
rc=$?
if [ $rc = 0 ] && grep -qx 'cables (7):' "$tmp/m.txt" &&
   grep -qx '  node 5: (1,2)' "$tmp/m.txt" &&
   grep -qx '  node 5: 0=2(-X) 1=3(-Y) 2=2(-X) 3=3(-Y) 4=2(-X) 5=host' "$tmp/m.txt" &&
   ! grep -q '(+X) <-> node 0 ' "$tmp/m.txt"; then
	tap_ok "topology mesh:2x3: 7 cables, none wrapping; routes the direct way"
else
	tap_fail "topology mesh:2x3: 7 cables, none wrapping; routes the direct way"
	tap_diag "$(cat "$tmp/m.txt")"
fi

# ---- JSON
json_check() { # SHAPE PYTHON-CONDITION
	"$lab" topology -j --shape "$1" >"$tmp/j.json" 2>&1 &&
	python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))
sys.exit(0 if eval("(" + sys.argv[2] + ")") else 1)' "$tmp/j.json" "$2"
}
if json_check torus:2x2x2 't["shape"] == "torus:2x2x2" and t["kind"] == "torus" and
	t["size"] == [2, 2, 2] and t["node_count"] == 8 and
	t["ports"] == ["+X", "+Y", "+Z", "-X", "-Y", "-Z"] and len(t["cables"]) == 24 and
	t["nodes"][7]["coords"] == [1, 1, 1] and
	{"dst": 7, "port": 0} in t["nodes"][0]["routes"] and len(t["nodes"][0]["routes"]) == 7' &&
   json_check mesh:2x2x2 'len(t["cables"]) == 12 and t["cables"][0] ==
	{"a": {"node": 0, "port": 0}, "b": {"node": 1, "port": 3}} and
	{"dst": 0, "port": 5} in t["nodes"][4]["routes"]' &&
   json_check ring 't["node_count"] == 2 and len(t["cables"]) == 2'; then
	tap_ok "topology -j: JSON with shape, sizes, ports, nodes with routes, cables"
else
	tap_fail "topology -j: JSON with shape, sizes, ports, nodes with routes, cables"
	tap_diag "$(cat "$tmp/j.json")"
fi

# ---- bad shapes
bad=0
for s in torus:9x1 mesh:2x cube torus:4x5 mesh:2x2x2x2 torus: mesh:1 ""; do
	"$lab" topology --shape "$s" >"$tmp/b.out" 2>"$tmp/b.err"
	rc=$?
	if [ $rc != 2 ] || [ -s "$tmp/b.out" ] ||
	   ! grep -q -- "--shape $s: .*accepted: ring (nodes from --hosts), mesh:X\[xY\[xZ\]\] or torus:X\[xY\[xZ\]\] with each dimension 2 to 8 and at most 16 nodes" "$tmp/b.err"; then
		tap_diag "shape '$s': exit $rc: $(cat "$tmp/b.out" "$tmp/b.err")"
		bad=1
	fi
done
[ $bad = 0 ] && tap_ok "bad shapes exit 2 saying what is accepted" ||
	tap_fail "bad shapes exit 2 saying what is accepted"

# ---- --hosts must match a mesh or torus
"$lab" topology --shape torus:2x2 --hosts 3 >"$tmp/h.out" 2>"$tmp/h.err"
rc=$?
"$lab" topology --shape torus:2x2 --hosts 4 >/dev/null 2>&1
rc2=$?
"$lab" topology --hosts 17 >/dev/null 2>"$tmp/h2.err"
rc3=$?
if [ $rc = 2 ] && [ $rc2 = 0 ] && [ $rc3 = 2 ] && [ ! -s "$tmp/h.out" ] &&
   grep -q -- '--hosts 3 does not match --shape torus:2x2, which has 4 nodes' "$tmp/h.err"; then
	tap_ok "--hosts that does not match the shape exits 2 with a message"
else
	tap_fail "--hosts that does not match the shape exits 2 with a message ($rc $rc2 $rc3)"
	tap_diag "$(cat "$tmp/h.err" "$tmp/h2.err")"
fi

# ---- start refuses the same before creating anything
"$lab" start --dir "$tmp/lab1" --shape cube --no-module >"$tmp/s.out" 2>"$tmp/s.err"
rc=$?
"$lab" start --dir "$tmp/lab2" --shape mesh:2x2 --hosts 2 --no-module >>"$tmp/s.out" 2>>"$tmp/s.err"
rc2=$?
if [ $rc = 2 ] && [ $rc2 = 2 ] && [ ! -e "$tmp/lab1" ] && [ ! -e "$tmp/lab2" ] &&
   grep -q -- '--shape cube: unknown shape; accepted:' "$tmp/s.err" &&
   grep -q -- '--hosts 2 does not match --shape mesh:2x2' "$tmp/s.err"; then
	tap_ok "start with a bad shape or a mismatched --hosts exits 2 and creates nothing"
else
	tap_fail "start with a bad shape or a mismatched --hosts exits 2 and creates nothing ($rc $rc2)"
	tap_diag "$(cat "$tmp/s.out" "$tmp/s.err")"
fi

# ---- start: cable kinds, and labs that do not fit the memory
"$lab" start --dir "$tmp/lab3" --cables serial --no-module >"$tmp/c.out" 2>&1
rc=$?
"$lab" start --dir "$tmp/lab4" --cables tcp --no-card --no-module >>"$tmp/c.out" 2>&1
rc2=$?
"$lab" start --dir "$tmp/lab5" --hosts 17 --no-module >>"$tmp/c.out" 2>&1
rc3=$?
avail=$(awk '/^MemAvailable:/ {print int($2 / 1024)}' /proc/meminfo)
if [ "$avail" -lt 34000 ]; then
	"$lab" start --dir "$tmp/lab6" --shape torus:4x4 --mem 2048 --no-card --no-module >>"$tmp/c.out" 2>&1
	rc4=$?
	grep -q -- 'start: 16 hosts need about 34304 MiB (each 2048 MiB guest RAM, 64 MiB TCG cache, 32 MiB QEMU) but only [0-9]* MiB are available' "$tmp/c.out" || rc4=x
else
	rc4=1	# a machine this big takes the lab: nothing to refuse
fi
if [ $rc = 2 ] && [ $rc2 = 2 ] && [ $rc3 = 2 ] && [ "$rc4" = 1 ] &&
   [ ! -e "$tmp/lab3" ] && [ ! -e "$tmp/lab4" ] && [ ! -e "$tmp/lab5" ] && [ ! -e "$tmp/lab6" ] &&
   grep -q -- '--cables serial: expected unix (UNIX sockets, the default) or tcp (TCP on 127.0.0.1)' "$tmp/c.out" &&
   grep -q -- '--cables tcp and --no-card exclude each other' "$tmp/c.out" &&
   grep -q -- '--hosts 17: expected a whole number from 1 to 16' "$tmp/c.out"; then
	tap_ok "start: a bad --cables, tcp without cards, 17 hosts exit 2; a lab beyond the memory available exits 1; nothing created"
else
	tap_fail "start: a bad --cables, tcp without cards, 17 hosts exit 2; a lab beyond the memory available exits 1 ($rc $rc2 $rc3 $rc4)"
	tap_diag "$(cat "$tmp/c.out")"
fi

# ---- bad options
"$lab" topology --shape torus:2x2 extra >/dev/null 2>"$tmp/o.err"
rc=$?
"$lab" topology --bogus >/dev/null 2>>"$tmp/o.err"
rc2=$?
"$lab" topology --hosts 2x >/dev/null 2>>"$tmp/o.err"
rc3=$?
if [ $rc = 2 ] && [ $rc2 = 2 ] && [ $rc3 = 2 ] &&
   grep -q "unexpected argument 'extra'" "$tmp/o.err" &&
   grep -q -- '--hosts 2x: expected a whole number from 1 to 16' "$tmp/o.err"; then
	tap_ok "topology: bad options exit 2 with a message"
else
	tap_fail "topology: bad options exit 2 with a message ($rc $rc2 $rc3)"
	tap_diag "$(cat "$tmp/o.err")"
fi

# ---- help
if "$lab" topology --help | grep -q 'usage: loom-lab topology \[--shape SHAPE\] \[--hosts N\] \[-j\]' &&
   "$lab" --help | grep -q '^  topology ' &&
   "$lab" start --help | grep -q 'mesh:X\[xY\[xZ\]\] or torus:X\[xY\[xZ\]\]'; then
	tap_ok "help describes topology and the shapes start accepts"
else
	tap_fail "help describes topology and the shapes start accepts"
fi
tap_done
