#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The router's synth_xilinx campaign, one Yosys process a unit (make -C
# fpga_bitstreams synth): splits the elaborated hierarchy (write_rtlil
# after hierarchy -top TOP) into one RTLIL file per module, each module
# with its submodules as black boxes (their ports alone), and writes the
# makefile that synthesizes them.
#
# Each module gets a name the shell and make pass as it is: NAME for a
# module at its defaults, NAME__HASH for a parameter set of NAME (HASH
# from Yosys's $paramod name); cells of a submodule are renamed alike.
# A unit's file is named NAME.KEY.il in CACHE, KEY the hash of its text
# and of the synthesis script (FLOW --flow prints it, FLOW being
# xilinx_unit.sh): a unit whose file is
# there already (with its result NAME.KEY.json) is not written or
# synthesized again, whatever campaign it came from.
#
# Writes OUT/units.txt (a line a unit: its file's stem, Yosys's name of
# the module, its parameters) and OUT/units.mk (target all: every unit's
# result, by $(UNIT_RUN) STEM, the smallest unit's first: an interrupted
# campaign has done the most units it could).
#
#   xilinx_split.sh ELAB.il TOP CACHE OUT FLOW
set -euo pipefail
[ $# = 5 ] || { echo "usage: xilinx_split.sh ELAB.il TOP CACHE OUT FLOW" >&2; exit 2; }
python3 - "$@" <<'PY'
import hashlib, os, re, subprocess, sys
elab, top, cache, out, flow = sys.argv[1:]
flow_key = hashlib.sha1(subprocess.run([flow, "--flow"], check=True, stdout=subprocess.PIPE).stdout).hexdigest()

# RTLIL as write_rtlil writes it: a module's attributes, "module NAME",
# its body indented, "end" at the line's start
mods, order, attrs, cur = {}, [], [], None
autoidx = "autoidx 1"
for line in open(elab):
    line = line.rstrip("\n")
    if cur is None:
        if line.startswith("autoidx "):
            autoidx = line
        elif line.startswith("attribute "):
            attrs.append(line)
        elif line.startswith("module "):
            cur = line.split(None, 1)[1]
            mods[cur] = {"attrs": attrs, "body": []}
            order.append(cur)
            attrs = []
    elif line == "end":
        cur = None
    else:
        mods[cur]["body"].append(line)
if cur is not None:
    sys.exit("xilinx_split.sh: %s ends inside module %s (a truncated write_rtlil?)" % (elab, cur))
if "\\" + top not in mods:
    sys.exit("xilinx_split.sh: %s holds no module %s (modules: %s)"
             % (elab, top, " ".join(sorted(mods)) or "none"))

CELL = re.compile(r"^(\s*cell )(\S+)( .*)$")
def safe(name):
    if name.startswith("$paramod"):
        base = name.rsplit("\\", 1)[1] if name.startswith("$paramod$") else name.split("\\")[1]
        return base + "__" + hashlib.sha1(name.encode()).hexdigest()[:8]
    return name[1:] if name.startswith("\\") else name
def children(m):
    return sorted({mt.group(2) for l in mods[m]["body"]
                   for mt in [CELL.match(l)] if mt and mt.group(2) in mods})

# the modules below the top, parents first
seen, stack = [], ["\\" + top]
while stack:
    m = stack.pop()
    if m not in seen:
        seen.append(m)
        stack.extend(children(m))

# Yosys names cells and wires after their source (\$add\$DIR/FILE.sv:LINE\$N):
# the directory left out, a unit reads the same from any tree
SRCDIR = re.compile(r"[^\s\"\\\\$]*/(?=[^\s/]*\.s?vh?:)")
def renamed(line):
    if not line.lstrip().startswith("attribute \\src "):
        line = SRCDIR.sub("", line)
    mt = CELL.match(line)
    if mt and mt.group(2) in mods:
        return mt.group(1) + "\\" + safe(mt.group(2)) + mt.group(3)
    return line
def stub(m):
    # a black box: the module's ports (their attribute lines dropped)
    ports = [l for l in mods[m]["body"]
             if re.match(r"^\s*wire .*\b(input|output|inout) \d+ ", l)]
    return ["attribute \\blackbox 1", "module \\" + safe(m)] + ports + ["end"]

os.makedirs(cache, exist_ok=True)
os.makedirs(out, exist_ok=True)
stems, lines = [], []
for m in seen:
    text = [autoidx] + [a for a in mods[m]["attrs"] if not a.startswith("attribute \\top ")]
    text += ["module \\" + safe(m)] + [renamed(l) for l in mods[m]["body"]] + ["end"]
    for c in children(m):
        text += stub(c)
    text = "\n".join(text) + "\n"
    # the key leaves the source positions out: a unit moved in its file
    # is the same unit
    keyed = "".join(l for l in text.splitlines(True) if not l.lstrip().startswith("attribute \\src "))
    key = hashlib.sha1((flow_key + keyed).encode()).hexdigest()[:16]
    stem = "%s.%s" % (safe(m), key)
    path = os.path.join(cache, stem + ".il")
    if not os.path.exists(path):
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    params = " ".join("%s=%s" % (p[1][1:], p[2]) for p in
                      (l.split(None, 2) for l in mods[m]["body"] if l.startswith("  parameter ")))
    stems.append(stem)
    lines.append("%s %s %s" % (stem, m, params or "-"))

with open(os.path.join(out, "units.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
with open(os.path.join(out, "units.mk"), "w") as f:
    f.write("# generated by xilinx_split.sh: one synth_xilinx process a unit\n")
    by_size = sorted(stems, key=lambda st: os.path.getsize(os.path.join(cache, st + ".il")))
    f.write("UNITS := %s\n" % " ".join(by_size))
    f.write("all: $(UNITS:%%=%s/%%.json)\n" % cache)
    f.write("%s/%%.json: %s/%%.il\n\t@$(UNIT_RUN) $*\n" % (cache, cache))
    f.write(".PHONY: all\n")
PY
