#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# After nextpnr-ice40 --pack-only (make -C fpga_bitstreams bitstream): the
# packed design's use of the HX8K, each resource against the device; fails,
# naming the resource and by how much, if one does not fit.
#
#   bitstream_fit.sh NEXTPNR-PACK-LOG
set -euo pipefail
[ $# = 1 ] || { echo "usage: bitstream_fit.sh NEXTPNR-PACK-LOG" >&2; exit 2; }
log=$1
[ -r "$log" ] || { echo "bitstream_fit.sh: cannot read $log (did nextpnr-ice40 --pack-only run?)" >&2; exit 2; }
awk -v f="$log" '
/Device utilisation:/ { on = 1; next }
on && /^Info:[ \t]+[A-Z_0-9]+:[ \t]+[0-9]+\/[ \t]*[0-9]+/ {
	line = $0
	sub(/^Info:[ \t]+/, "", line)
	split(line, a, /[: \/]+/)
	name = a[1]; used = a[2] + 0; avail = a[3] + 0
	printf "  %-13s %6d / %6d  %4d%%\n", name, used, avail, avail ? 100 * used / avail : 0
	n++
	if (used > avail) {
		bad = bad sprintf("the design needs %d %s, the HX8K has %d (%.1f times): it does not fit\n",
				  used, name, avail, used / avail)
	}
	next
}
on && n { on = 0 }
END {
	if (!n) { printf "bitstream_fit.sh: no utilisation in %s\n", f; exit 2 }
	if (bad != "") {
		printf "%s", bad
		print "where the cells go: Documentation/hw/rtl.rst (The board top, The flow)"
		exit 1
	}
}' "$log"
