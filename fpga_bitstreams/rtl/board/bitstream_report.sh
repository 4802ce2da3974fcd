#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The summary of the iCE40 flow (make -C fpga_bitstreams bitstream):
# utilisation of the HX8K from nextpnr's report, LUTs, flip-flops and
# block RAMs from Yosys's statistics, Fmax from nextpnr and from icetime,
# against the goal and against the board's clock.  Fails if the design
# would not run at the board's clock.
#
#   bitstream_report.sh DIR GOAL-MHZ BOARD-CLOCK-MHZ
set -euo pipefail
[ $# = 3 ] || { echo "usage: bitstream_report.sh DIR GOAL-MHZ BOARD-CLOCK-MHZ" >&2; exit 2; }
dir=$1 goal=$2 board=$3
python3 - "$dir" "$goal" "$board" <<'PY'
import json, re, sys
d, goal, board = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
rep = json.load(open(d + "/nextpnr-report.json"))
stat = open(d + "/yosys-stat.txt").read()
def cells(pat):
    return sum(int(n) for c, n in re.findall(r"^\s+(\S+)\s+(\d+)\s*$", stat, re.M)
               if re.fullmatch(pat, c))
print("bitstream: %s/loom_board_hx8k.bin (iCE40-HX8K, ct256)" % d)
print("utilisation (nextpnr):")
for k in ("ICESTORM_LC", "ICESTORM_RAM", "SB_IO", "SB_GB"):
    u = rep["utilization"].get(k)
    if u:
        print("  %-13s %5d / %5d  %3d%%" % (k, u["used"], u["available"],
                                          100 * u["used"] // max(u["available"], 1)))
print("cells (yosys): LUTs %d (SB_LUT4), flip-flops %d (SB_DFF*), carries %d, block RAMs %d"
      % (cells(r"SB_LUT4"), cells(r"SB_DFF\w*"), cells(r"SB_CARRY"), cells(r"SB_RAM40_4K\w*")))
fmax = min(v["achieved"] for v in rep["fmax"].values())
t = open(d + "/icetime.txt").read()
m = re.search(r"Total path delay: ([\d.]+) ns \(([\d.]+) MHz\)", t)
ice = " icetime: %s MHz (%s ns);" % (m.group(2), m.group(1)) if m else ""
print("Fmax: nextpnr %.2f MHz;%s goal %g MHz: %s; board clock %g MHz: %s"
      % (fmax, ice, goal, "met" if fmax >= goal else "NOT met", board,
         "met" if fmax >= board else "NOT met"))
if fmax < board:
    print("the design does not reach the board's clock: the critical path is in "
          + d + "/nextpnr.log")
    sys.exit(1)
PY
