#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The resource report of the router's synth_xilinx run (make -C
# fpga_bitstreams synth): from Yosys's statistics of the hierarchical
# netlist, the 7-series cells of each unit (every instance of the module,
# its submodules on their own lines) and of the whole router, in LUTs,
# flip-flops, carry chains, distributed RAM and shift registers (and the
# LUTs they take), block RAMs and DSPs, and the smallest Artix-7, Kintex-7
# or Virtex-7 part whose LUTs, flip-flops, LUTs usable as memory, block
# RAMs and DSPs hold those counts.  Fails if the netlist holds a latch.
#
# The statistics are either one Yosys process's of the whole hierarchy
# (stat -json -top TOP), or a campaign's of one process a unit
# (--units: UNITS.txt and the results in CACHE that xilinx_split.sh and
# xilinx_unit.sh write); then the report also lists, a unit's parameter
# set a line, its instances, cells and the CPU and peak memory its
# synthesis took, and the campaign's (with the elaboration's, from
# /usr/bin/time -f '%U %S %M' in ELAB.time), and fails naming the units
# not synthesized yet.
#
#   xilinx_report.sh STAT.json TOP
#   xilinx_report.sh --units UNITS.txt CACHE TOP [ELAB.time]
set -euo pipefail
if [ "${1:-}" = --units ]; then
	[ $# = 4 ] || [ $# = 5 ] || { echo "usage: xilinx_report.sh --units UNITS.txt CACHE TOP [ELAB.time]" >&2; exit 2; }
	shift
else
	[ $# = 2 ] || { echo "usage: xilinx_report.sh STAT.json TOP | --units UNITS.txt CACHE TOP [ELAB.time]" >&2; exit 2; }
fi
python3 - "$@" <<'PY'
import json, os, re, sys
def ident(n):
    return n[1:] if n.startswith("\\") else n
campaign, elab = {}, None
if len(sys.argv) >= 4:
    # a campaign: each unit's cells from its own process
    units_txt, cache, top = sys.argv[1:4]
    if len(sys.argv) == 5:
        user, system, peak_kb = open(sys.argv[4]).read().split()[-3:]
        elab = (float(user) + float(system), int(peak_kb))
    path, mods, missing = units_txt, {}, []
    for line in open(units_txt):
        stem, name, params = line.rstrip("\n").split(" ", 2)
        try:
            res = json.load(open(os.path.join(cache, stem + ".json")))
        except FileNotFoundError:
            missing.append(stem)
            continue
        mods[res["module"]] = res["cells"]
        campaign[res["module"]] = res
    if missing:
        sys.exit("xilinx_report.sh: %d of the units in %s not synthesized yet: %s"
                 % (len(missing), units_txt, " ".join(missing)))
else:
    path, top = sys.argv[1], sys.argv[2]
    # Yosys 0.23's stat -json -top writes the hierarchy's text lines into
    # its JSON: every line of the JSON itself starts with a quote or a brace
    text = "".join(l for l in open(path) if l.lstrip()[:1] in ('"', "{", "}"))
    mods = json.loads(text)["modules"]
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
    # $paramod\NAME\PARAMS or $paramod$HASH\NAME (Yosys's names), or
    # NAME__HASH (xilinx_split.sh's): one parameter set of NAME
    base = m.split("\\")[1] if m.startswith("$paramod") else m.split("__")[0]
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

if campaign:
    # the synthesis, a parameter set a line, the heaviest to synthesize first
    print()
    fmt = "%-32s %5s %8s %8s %8s %8s"
    print(fmt % ("unit (parameter set)", "inst", "LUTs", "FFs", "CPU s", "peak MB"))
    for m in sorted(campaign, key=lambda m: -campaign[m]["cpu_s"]):
        c = campaign[m]["cells"]
        luts = sum(n for t, n in c.items() if re.fullmatch(r"LUT[1-6]", t))
        ffs = sum(n for t, n in c.items() if re.fullmatch(r"FD[RSCP]E(_1)?", t))
        print(fmt % (m, count.get(m, 0), luts, ffs, "%.0f" % campaign[m]["cpu_s"],
                     campaign[m]["peak_kb"] // 1024))
    cpu = sum(r["cpu_s"] for r in campaign.values())
    peak = max(r["peak_kb"] for r in campaign.values())
    if elab:
        print("elaboration: CPU %.0f s, peak %d MB" % (elab[0], elab[1] // 1024))
        cpu += elab[0]
        peak = max(peak, elab[1])
    print("campaign: %d units, CPU %.0f s (user and system)%s, peak %d MB"
          % (len(campaign), cpu, " with the elaboration" if elab else "", peak // 1024))
PY
