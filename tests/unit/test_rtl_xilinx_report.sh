#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The resource report of the router's synth_xilinx run
# (fpga_bitstreams/rtl/xilinx_report.sh, make -C fpga_bitstreams synth),
# on the statistics Yosys 0.23 wrote (stat -json -top top) for a small
# hierarchy: top holds two mid and one leaf at W 5, each mid two leaf at
# W 4.  The report reads Yosys's JSON with the hierarchy's text lines
# Yosys 0.23 writes into it; a unit's line counts every instance of every
# parameter set of the module; its totals are Yosys's own totals of the
# hierarchy; distributed RAM counts in the LUTs it takes; it names the
# smallest 7-series part that holds the cells; it fails on a latch,
# naming the cell and the unit, and on a top the statistics do not hold.
# A campaign of one process a unit (--units: xilinx_split.sh's unit list
# and xilinx_unit.sh's results) gives the same totals, lists each
# parameter set's CPU and memory, and fails naming a unit not
# synthesized yet.  No Yosys run: a second.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
report=$top/fpga_bitstreams/rtl/xilinx_report.sh
if ! command -v python3 >/dev/null; then
	echo "1..0 # SKIP python3 missing (tools/deps/install-deps)"
	exit 4
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 12

# stat -json -top top of the hierarchy above after synth_xilinx -noiopad,
# as Yosys 0.23 wrote it (the hierarchy line below "modules" included)
cat >"$tmp/stat.json" <<'JSON'
{
   "creator": "Yosys 0.23 (git sha1 7ce5011c24b)",
   "invocation": "stat -json -top top ",
   "modules": {
      "$paramod\\leaf\\W=s32'00000000000000000000000000000100": {
         "num_wires":         6,
         "num_wire_bits":     21,
         "num_pub_wires":     3,
         "num_pub_wire_bits": 9,
         "num_memories":      0,
         "num_memory_bits":   0,
         "num_processes":     0,
         "num_cells":         9,
         "num_cells_by_type": {
            "CARRY4": 1,
            "FDRE": 4,
            "LUT2": 4
         }
      },
      "$paramod\\leaf\\W=s32'00000000000000000000000000000101": {
         "num_wires":         8,
         "num_wire_bits":     42,
         "num_pub_wires":     3,
         "num_pub_wire_bits": 11,
         "num_memories":      0,
         "num_memory_bits":   0,
         "num_processes":     0,
         "num_cells":         12,
         "num_cells_by_type": {
            "CARRY4": 2,
            "FDRE": 5,
            "LUT2": 5
         }
      },
      "\\mid": {
         "num_wires":         3,
         "num_wire_bits":     13,
         "num_pub_wires":     3,
         "num_pub_wire_bits": 13,
         "num_memories":      0,
         "num_memory_bits":   0,
         "num_processes":     0,
         "num_cells":         2,
         "num_cells_by_type": {
            "$paramod\\leaf\\W=s32'00000000000000000000000000000100": 2
         }
      },
      "\\top": {
         "num_wires":         5,
         "num_wire_bits":     27,
         "num_pub_wires":     4,
         "num_pub_wire_bits": 26,
         "num_memories":      0,
         "num_memory_bits":   0,
         "num_processes":     0,
         "num_cells":         4,
         "num_cells_by_type": {
            "$paramod\\leaf\\W=s32'00000000000000000000000000000101": 1,
            "BUFG": 1,
            "mid": 2
         }
      }
   },
       $paramod\leaf\W=s32'00000000000000000000000000000100      2
      "design": {
         "num_wires":         43,
         "num_wire_bits":     179,
         "num_pub_wires":     25,
         "num_pub_wire_bits": 99,
         "num_memories":      0,
         "num_memory_bits":   0,
         "num_processes":     0,
         "num_cells":         49,
         "num_cells_by_type": {
            "BUFG": 1,
            "CARRY4": 6,
            "FDRE": 21,
            "LUT2": 21
         }
      }
}

JSON

# the statistics with cells added, one file a case: NAME.json has the
# cells of "NAME MODULE-SUFFIX:CELL=N ..." added to the modules whose names
# end in MODULE-SUFFIX
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
lines = [l for l in open(d + "/stat.json") if l.lstrip()[:1] in ('"', "{", "}")]
cases = ["ram 101:RAM64M=3 100:RAM32X1D=2", "bram 101:RAMB18E1=3 101:RAMB36E1=1",
         "big 100:LUT6=4160 101:LUT6=4160", "bram51 101:RAMB36E1=51", "latch 101:LDCE=2",
         "mul 100:$mul=1"]
for case in cases:
    name, *deltas = case.split()
    s = json.loads("".join(lines))
    for kv in deltas:
        mod, rest = kv.split(":")
        cell, n = rest.split("=")
        for mname, m in s["modules"].items():
            if mname.endswith(mod):
                m["num_cells_by_type"][cell] = m["num_cells_by_type"].get(cell, 0) + int(n)
    json.dump(s, open("%s/%s.json" % (d, name), "w"), indent=1)
PY
# row FILE UNIT: the unit's line of a report
row() { awk -v u="$2" '$1 == u' "$1"; }
col() { # col FILE UNIT N: field N of the unit's line
	row "$1" "$2" | awk -v n="$3" '{print $n}'
}

# says STATUS CASE PATTERN DESC [TOP]: one result, the report of CASE.json
# (top: top) exits with STATUS (0, or 1: fails) and prints PATTERN
says() {
	local want=$1 case=$2 pat=$3 desc=$4 rtop=${5:-top} st=0
	"$report" "$tmp/$case.json" "$rtop" >"$tmp/says" 2>&1 || st=$?
	if [ "$st" = "$want" ] && grep -q "$pat" "$tmp/says"; then
		tap_ok "$desc"
	else
		tap_fail "$desc: exit status $st (want $want), output:"
		tap_diag "$(cat "$tmp/says")"
	fi
}

# 1: Yosys's own JSON, stray lines and all, is read; the leaf line counts
# 4 instances at W 4 and 1 at W 5, two parameter sets
if "$report" "$tmp/stat.json" top >"$tmp/r0" 2>&1 &&
	[ "$(col "$tmp/r0" leaf 2)" = 5 ] && [ "$(col "$tmp/r0" leaf 3)" = 2 ]; then
	tap_ok "the report reads Yosys 0.23's stat -json -top; leaf: 5 instances of 2 parameter sets"
else
	tap_fail "the report of Yosys 0.23's statistics: leaf not 5 instances of 2 parameter sets"
	tap_diag "$(cat "$tmp/r0")"
fi

# 2: the totals are those of Yosys's design hierarchy (the "design" block)
want=$(python3 - "$tmp/stat.json" <<'PY'
import json, re, sys
lines = [l for l in open(sys.argv[1]) if l.lstrip()[:1] in ('"', "{", "}")]
c = json.loads("".join(lines))["design"]["num_cells_by_type"]
s = lambda p: sum(n for k, n in c.items() if re.fullmatch(p, k))
print(s(r"LUT\d"), s(r"FD\w+"), s(r"CARRY4"))
PY
)
got=$(row "$tmp/r0" total | awk '{print $2, $3, $4}')
if [ -n "$want" ] && [ "$got" = "$want" ]; then
	tap_ok "total LUTs, flip-flops, CARRY4 ($got) are Yosys's totals of the hierarchy"
else
	tap_fail "total LUTs, flip-flops, CARRY4: report '$got', Yosys's design block '$want'"
	tap_diag "$(cat "$tmp/r0")"
fi

# 3: distributed RAM in the LUTs it takes: RAM64M (4 LUTs) in the one
# leaf at W 5, RAM32X1D (2 LUTs) in the four at W 4
"$report" "$tmp/ram.json" top >"$tmp/r1" 2>&1
lr=$(col "$tmp/r1" leaf 7)
if [ "$lr" = $((3 * 4 + 4 * 2 * 2)) ] && grep -q "$((21 + lr)) (21 logic, $lr as distributed RAM" "$tmp/r1"; then
	tap_ok "distributed RAM counts in the LUTs it takes ($lr), in the LUTs in all"
else
	tap_fail "distributed RAM: leaf's LUTRAM '$lr', want $((3 * 4 + 4 * 2 * 2))"
	tap_diag "$(cat "$tmp/r1")"
fi

# 4: block RAM: RAMB18 count by halves of a RAMB36 site
says 0 bram "block RAM 3 RAMB36 sites (1 RAMB36, 3 RAMB18)" \
	"3 RAMB18 and 1 RAMB36 take 3 RAMB36 sites"

# 5, 6: the smallest part: the cells as they are fit the XC7A35T; 20,800
# more LUTs (5 x 4,160 in the leaves at W 4 and W 5) than the XC7A35T has
# need the XC7A50T, and 51 RAMB36 too (the XC7A35T has 50)
p0=$(sed -n 's/.*holds these cells: \(XC7[0-9A-Z]*\).*/\1/p' "$tmp/r0")
if [ "$p0" = XC7A35T ]; then tap_ok "21 LUTs fit the XC7A35T"
else tap_fail "21 LUTs: part '$p0', want XC7A35T"; tap_diag "$(cat "$tmp/r0")"; fi
"$report" "$tmp/big.json" top >"$tmp/r3" 2>&1
"$report" "$tmp/bram51.json" top >"$tmp/r4" 2>&1
p3=$(sed -n 's/.*holds these cells: \(XC7[0-9A-Z]*\).*/\1/p' "$tmp/r3")
p4=$(sed -n 's/.*holds these cells: \(XC7[0-9A-Z]*\).*/\1/p' "$tmp/r4")
if [ "$p3" = XC7A50T ] && [ "$p4" = XC7A50T ]; then
	tap_ok "20,821 LUTs and 51 RAMB36 need the XC7A50T"
else
	tap_fail "20,821 LUTs: part '$p3', 51 RAMB36: part '$p4', want XC7A50T for both"
	tap_diag "$(cat "$tmp/r3" "$tmp/r4")"
fi

# 7: a latch fails the report, naming the cell and the unit
says 1 latch "latches: LDCE (2 in leaf)" "a latch fails, naming LDCE and leaf"
# 8: a cell that is no 7-series primitive is listed
says 0 mul 'not mapped to 7-series primitives: \$mul 4' \
	"an unmapped \$mul in the 4 leaves at W 4 is listed as \$mul 4"
# 9: a top the statistics do not hold
says 1 stat "holds no module loom_router (modules: .*top" \
	"a missing top fails, naming the modules there are" loom_router

# the same hierarchy as a campaign: a result a module, named as
# xilinx_split.sh names them, with its CPU seconds and peak memory
mkdir -p "$tmp/cache"
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
lines = [l for l in open(d + "/stat.json") if l.lstrip()[:1] in ('"', "{", "}")]
mods = json.loads("".join(lines))["modules"]
def name(m):
    return "leaf__" + m[-3:] if m.startswith("$paramod") else m.lstrip("\\")
units = []
for i, (m, v) in enumerate(sorted(mods.items())):
    stem = "%s.%016x" % (name(m), i)
    cells = {name(t) if t.lstrip("\\") in ("mid",) or t.startswith("$paramod") else t: n
             for t, n in v["num_cells_by_type"].items()}
    json.dump({"module": name(m), "cells": cells, "cpu_s": 10.0 * (i + 1),
               "peak_kb": 1024 * 100 * (i + 1)}, open("%s/cache/%s.json" % (d, stem), "w"))
    units.append("%s %s -" % (stem, m))
open(d + "/units.txt", "w").write("\n".join(units) + "\n")
PY
printf '5.50 0.50 4194304\n' >"$tmp/elab.time"

# 10: the campaign's totals are those of the one process
"$report" --units "$tmp/units.txt" "$tmp/cache" top "$tmp/elab.time" >"$tmp/r5" 2>&1 || true
got=$(row "$tmp/r5" total | awk '{print $2, $3, $4}')
if [ -n "$want" ] && [ "$got" = "$want" ] && [ "$(col "$tmp/r5" leaf 2)" = 5 ]; then
	tap_ok "a campaign of one process a unit: totals ($got) and leaf's 5 instances as one process's"
else
	tap_fail "a campaign's totals '$got' (want '$want'), leaf's instances '$(col "$tmp/r5" leaf 2)' (want 5)"
	tap_diag "$(cat "$tmp/r5")"
fi
# 11: each parameter set's CPU and memory, the heaviest first, and the
# campaign's with the elaboration's (10+20+30+40 s and 6 s; 4096 MB)
first=$(sed -n '/^unit (parameter set)/{n;p}' "$tmp/r5" | awk '{print $1, $5, $6}')
if [ "$first" = "top 40 400" ] && grep -q "elaboration: CPU 6 s, peak 4096 MB" "$tmp/r5" &&
	grep -q "campaign: 4 units, CPU 106 s (user and system) with the elaboration, peak 4096 MB" "$tmp/r5"; then
	tap_ok "a campaign lists each unit's CPU and peak memory, the heaviest first, and the sums"
else
	tap_fail "a campaign's heaviest unit '$first' (want 'top 40 400'), or its sums, wrong:"
	tap_diag "$(cat "$tmp/r5")"
fi
# 12: a unit not synthesized yet fails the report, naming it
rm "$tmp/cache/mid."*.json
st=0
"$report" --units "$tmp/units.txt" "$tmp/cache" top >"$tmp/r6" 2>&1 || st=$?
if [ "$st" = 1 ] && grep -q "1 of the units in .* not synthesized yet: mid\.0" "$tmp/r6"; then
	tap_ok "a unit without its result fails the report, naming it"
else
	tap_fail "a unit without its result: exit status $st (want 1), output:"
	tap_diag "$(cat "$tmp/r6")"
fi
tap_done
