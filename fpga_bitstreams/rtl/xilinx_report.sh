#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The resource report of the router's synth_xilinx run (make -C
# fpga_bitstreams synth): from Yosys's statistics of the hierarchical
# netlist (stat -json -top TOP), the 7-series cells of each unit (every
# instance of the module, its submodules on their own lines) and of the
# whole router, in LUTs, flip-flops, carry chains, distributed RAM and
# shift registers (and the LUTs they take), block RAMs and DSPs, and the
# smallest Artix-7, Kintex-7 or Virtex-7 part whose LUTs, flip-flops, LUTs usable
# as memory, block RAMs and DSPs hold those counts.  Fails if the
# netlist holds a latch.
#
#   xilinx_report.sh STAT.json TOP
set -euo pipefail
[ $# = 2 ] || { echo "usage: xilinx_report.sh STAT.json TOP" >&2; exit 2; }
python3 - "$1" "$2" <<'PY'
import json, re, sys
path, top = sys.argv[1], sys.argv[2]
# Yosys 0.23's stat -json -top writes the hierarchy's text lines into
# its JSON: every line of the JSON itself starts with a quote or a brace
text = "".join(l for l in open(path) if l.lstrip()[:1] in ('"', "{", "}"))
mods = json.loads(text)["modules"]
def ident(n):
    return n[1:] if n.startswith("\\") else n
mods = {ident(k): v["num_cells_by_type"] for k, v in mods.items()}
if top not in mods:
    sys.exit("xilinx_report.sh: %s holds no module %s (modules: %s)"
             % (path, top, " ".join(sorted(mods)) or "none"))

# instances of each module below the top: parents before children, each
# passing its count times its instances of the child on
def topo(m, seen, out):
    if m in seen:
        return
    seen.add(m)
    for t in mods[m]:
        if ident(t) in mods:
            topo(ident(t), seen, out)
    out.append(m)
out = []
topo(top, set(), out)
count = {m: 0 for m in out}
count[top] = 1
for m in reversed(out):
    for t, n in mods[m].items():
        if ident(t) in mods:
            count[ident(t)] += count[m] * n

# 7-series cells: (column, LUTs the cell takes)
LUTRAM = {"RAM16X1S": 1, "RAM32X1S": 1, "RAM64X1S": 1, "RAM128X1S": 2, "RAM256X1S": 4,
          "RAM16X1D": 2, "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4, "RAM32M": 4,
          "RAM64M": 4, "RAM32M16": 8, "RAM64M8": 8, "RAM512X1S": 8}
def kind(c):
    if re.fullmatch(r"LUT[1-6]", c):
        return "luts", 1
    if re.fullmatch(r"FD[RSCP]E(_1)?", c):
        return "ffs", 0
    if c == "CARRY4":
        return "carry", 0
    if c in LUTRAM:
        return "lutram", LUTRAM[c]
    if c in ("SRL16E", "SRLC16E", "SRLC32E"):
        return "srl", 1
    if c in ("MUXF7", "MUXF8"):
        return "muxf", 0
    if c == "RAMB18E1":
        return "bram18", 0
    if c == "RAMB36E1":
        return "bram36", 0
    if c.startswith("DSP48"):
        return "dsp", 0
    if re.fullmatch(r"LD[CP]E(_1)?|\$_?DLATCH.*|\$dlatch.*|\$adlatch", c):
        return "latch", 0
    if c in ("BUFG", "IBUF", "OBUF", "GND", "VCC", "INV"):
        return "other", 0
    return "unmapped", 0
COLS = ["luts", "ffs", "carry", "lutram", "srl", "muxf", "bram18", "bram36", "dsp"]

units, total, unknown, latches = {}, dict.fromkeys(COLS, 0), {}, []
for m in out:
    # $paramod\NAME\PARAMS or $paramod$HASH\NAME: one parameter set of NAME
    base = m.split("\\")[1] if m.startswith("$paramod") else m
    u = units.setdefault(base, dict.fromkeys(COLS + ["inst", "sets"], 0))
    u["inst"] += count[m]
    u["sets"] += 1
    for c, n in mods[m].items():
        if ident(c) in mods:
            continue
        k, luts = kind(c)
        n *= count[m]
        if k == "latch":
            latches.append("%s (%d in %s)" % (c, n, base))
        elif k == "unmapped":
            unknown[c] = unknown.get(c, 0) + n
        elif k != "other":
            # distributed RAM in the LUTs it takes
            n *= luts if k == "lutram" else 1
            u[k] += n
            total[k] += n
if latches:
    sys.exit("xilinx_report.sh: the netlist holds latches: " + ", ".join(latches))

hdr = ("unit", "inst", "sets", "LUTs", "FFs", "CARRY4", "LUTRAM", "SRL", "MUXF7/8", "BRAM18", "BRAM36", "DSP")
fmt = "%-22s %5s %4s %8s %8s %7s %7s %6s %8s %6s %6s %5s"
print(fmt % hdr)
for base in sorted(units, key=lambda b: -units[b]["luts"]):
    u = units[base]
    print(fmt % ((base, u["inst"], u["sets"]) + tuple(u[c] for c in COLS)))
print(fmt % (("total", "", "") + tuple(total[c] for c in COLS)))
if unknown:
    print("cells not mapped to 7-series primitives: "
          + ", ".join("%s %d" % kv for kv in sorted(unknown.items())))
memluts = total["lutram"] + total["srl"]
lut_all = total["luts"] + memluts
bram = total["bram36"] + (total["bram18"] + 1) // 2
print("LUTs in all: %d (%d logic, %d as distributed RAM and shift registers); "
      "flip-flops %d; block RAM %d RAMB36 sites (%d RAMB36, %d RAMB18); DSP %d; no latches"
      % (lut_all, total["luts"], memluts, total["ffs"], bram, total["bram36"],
         total["bram18"], total["dsp"]))

# 7-series parts (Xilinx DS180): LUTs, flip-flops, LUTs of SLICEMs (usable
# as distributed RAM or shift registers), RAMB36, DSP48E1
PARTS = [("XC7A35T", 20800, 41600, 6400, 50, 90),
         ("XC7A50T", 32600, 65200, 9600, 75, 120),
         ("XC7A75T", 47200, 94400, 14272, 105, 180),
         ("XC7A100T", 63400, 126800, 19008, 135, 240),
         ("XC7A200T", 134600, 269200, 46208, 365, 740),
         ("XC7K325T", 203800, 407600, 64000, 445, 840),
         ("XC7K410T", 254200, 508400, 90608, 795, 1540),
         ("XC7K480T", 298600, 597200, 108608, 955, 1920),
         ("XC7VX690T", 433200, 866400, 174208, 1470, 3600)]
need = (lut_all, total["ffs"], memluts, bram, total["dsp"])
fit = [p for p in PARTS if all(n <= a for n, a in zip(need, p[1:]))]
if fit:
    p = fit[0]
    print("smallest 7-series part that holds these cells: %s (%d%% of its LUTs, "
          "%d%% of its flip-flops, %d%% of its block RAM); before placement and routing"
          % (p[0], 100 * lut_all // p[1], 100 * total["ffs"] // p[2], 100 * bram // p[4]))
else:
    p = PARTS[-1]
    print("no part up to %s holds these cells (it has %d LUTs, %d flip-flops)"
          % (p[0], p[1], p[2]))
PY
