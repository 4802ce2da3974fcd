#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# One unit of the router's synth_xilinx campaign (make -C fpga_bitstreams
# synth): synthesizes CACHE/STEM.il (one module, its submodules black
# boxes, written by xilinx_split.sh) for Xilinx 7-series, niced, under a
# limit of MEM_KB of virtual memory, fails on a latch, and writes
# CACHE/STEM.json: the module, its cells by type (Yosys's stat -json),
# the CPU seconds (user and system) and the peak resident memory the
# process took.  Its log is CACHE/STEM.log (its warnings there, its
# standard error in CACHE/STEM.err).  The synthesis script below
# (xilinx_unit.sh --flow prints it) is part of every unit's cache key.
# A latch fails the unit.
#
# synth_xilinx runs by its labels without the coarse step's resource
# sharing (share), whose SAT pass in Yosys 0.23 grows past 13 GB on the
# router; no I/O buffers (-noiopad: the router is a block of the card).
#
#   xilinx_unit.sh CACHE MEM_KB STEM
#   xilinx_unit.sh --flow
set -euo pipefail
# the synthesis of unit TOP, Yosys's commands a line
flow() {
	echo "synth_xilinx -top $1 -noiopad -noclkbuf -run begin:coarse"
	echo "techmap -map +/cmp2lut.v -map +/cmp2lcu.v -D LUT_WIDTH=6; alumacc; opt; memory -nomap; opt_clean"
	echo "synth_xilinx -top $1 -noiopad -noclkbuf -run map_memory:"
	echo "select -assert-none t:\$dlatch t:\$_DLATCH_* t:LDCE t:LDPE"
}
if [ "${1:-}" = --flow ]; then
	flow TOP
	exit 0
fi
[ $# = 3 ] || { echo "usage: xilinx_unit.sh CACHE MEM_KB STEM | --flow" >&2; exit 2; }
dir=$1 mem=$2 stem=$3
top=${stem%%.*}
[ -f "$dir/$stem.il" ] || { echo "xilinx_unit.sh: no unit $dir/$stem.il (run xilinx_split.sh first)" >&2; exit 2; }
echo "yosys synth_xilinx $top (log: $dir/$stem.log)"
rm -f "$dir/$stem.json" "$dir/$stem.stat"
if ! (ulimit -v "$mem"; /usr/bin/time -f '%U %S %M' -o "$dir/$stem.time" \
	nice -n 10 yosys -q -l "$dir/$stem.log" -p "read_rtlil $dir/$stem.il" \
		-p "$(flow "$top" | sed 's/$/;/' | tr '\n' ' ')" -p "tee -q -o $dir/$stem.stat stat -json -top $top" \
		2>"$dir/$stem.err"); then
	grep -v '^Warning: ' "$dir/$stem.err" | tail -n 5 >&2
	echo "xilinx_unit.sh: synth_xilinx of $top failed (CPU user, system s, peak KB:" \
	     "$(tail -n 1 "$dir/$stem.time"); log $dir/$stem.log; out of memory past" \
	     "MEM_KB $mem: raise SYNTH_MEM_KB)" >&2
	exit 1
fi
python3 - "$dir/$stem" "$top" <<'PY'
import json, os, sys
base, top = sys.argv[1:]
# Yosys 0.23's stat -json writes text lines into its JSON: every line of
# the JSON itself starts with a quote or a brace
text = "".join(l for l in open(base + ".stat") if l.lstrip()[:1] in ('"', "{", "}"))
mods = json.loads(text)["modules"]
cells = mods.get("\\" + top)
if cells is None:
    sys.exit("xilinx_unit.sh: %s.stat holds no module %s" % (base, top))
user, system, peak_kb = open(base + ".time").read().split()[-3:]
res = {"module": top, "cells": cells["num_cells_by_type"],
       "cpu_s": round(float(user) + float(system), 2), "peak_kb": int(peak_kb)}
with open(base + ".json.tmp", "w") as f:
    json.dump(res, f, indent=1, sort_keys=True)
os.replace(base + ".json.tmp", base + ".json")
PY
