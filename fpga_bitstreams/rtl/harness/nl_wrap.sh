#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Prints a Verilog module TOP with the ports of NETLIST's module TOP
# (vectors as the netlist declares them) around an instance of CELLS: that
# module after 'splitnets -ports', whose port bits are single-bit ports
# named 'NAME[I]'.  The harness drives and reads the vectors, as it does the
# RTL's.
#
#   nl_wrap.sh NETLIST TOP CELLS >WRAPPER.v
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: nl_wrap.sh NETLIST TOP CELLS" >&2; exit 2; }
nl=$1 top=$2 cells=$3
awk -v top="$top" -v cells="$cells" -v nl="$(basename "$nl")" '
	BEGIN { n = 0 }
	$1 == "module" { m = $2; sub(/\(.*/, "", m); inside = (m == top); next }
	$1 == "endmodule" { inside = 0; next }
	inside && ($1 == "input" || $1 == "output" || $1 == "inout") {
		dir[n] = $1
		if ($2 ~ /^\[/) {
			split(substr($2, 2, length($2) - 2), r, ":")
			hi[n] = r[1] + 0; lo[n] = r[2] + 0; range[n] = $2 " "; name[n] = $3
		} else {
			hi[n] = -1; range[n] = ""; name[n] = $2
		}
		sub(/;$/, "", name[n])
		if (hi[n] >= 0 && hi[n] < lo[n]) {
			printf "nl_wrap.sh: %s: port %s is declared %s; only [high:low] is handled\n",
			       nl, name[n], $2 >"/dev/stderr"
			exit 1
		}
		n++
	}
	END {
		if (!n) {
			printf "nl_wrap.sh: %s declares no ports of module %s\n", nl, top >"/dev/stderr"
			exit 1
		}
		printf "// %s: the ports of %s in %s, over %s whose ports are single bits\n",
		       top, top, nl, cells
		printf "module %s(", top
		for (i = 0; i < n; i++)
			printf "%s%s", i ? ", " : "", name[i]
		printf ");\n"
		for (i = 0; i < n; i++)
			printf "  %s %s%s;\n", dir[i], range[i], name[i]
		printf "  %s cells (\n", cells
		c = 0
		for (i = 0; i < n; i++) {
			if (hi[i] < 0) {
				printf "%s    .%s(%s)", c++ ? ",\n" : "", name[i], name[i]
				continue
			}
			for (b = lo[i]; b <= hi[i]; b++)
				printf "%s    .\\%s[%d] (%s[%d])", c++ ? ",\n" : "", name[i], b, name[i], b
		}
		printf "\n  );\nendmodule\n"
	}' "$nl"
