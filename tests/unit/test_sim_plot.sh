#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim --plot: a run draws its channel-utilisation heat map and a
# saturation search its latency-throughput curve, each as a PNG of the
# figure's size and an SVG with the data in it (the heat map's image, a
# point per probe); without gnuplot in PATH, or with a prefix gnuplot
# cannot quote, the run says so before it starts.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

if ! command -v gnuplot >/dev/null; then
	echo "1..0 # SKIP gnuplot not installed (gnuplot-nox; tools/deps/install-deps)"
	exit 4
fi

# png_size FILE: "WIDTHxHEIGHT" from the PNG header
png_size() {
	python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read(32)
ok = b[:8] == b"\x89PNG\r\n\x1a\n" and b[12:16] == b"IHDR"
print("%dx%d" % struct.unpack(">II", b[16:24]) if ok else "not-a-png")
PY
}

# png_ok WHAT RC FILE: the run exited 0 and drew FILE (in $tmp) at 900x700
png_ok() {
	local size
	size=$( [ -f "$tmp/$3" ] && png_size "$tmp/$3")
	if [ "$2" = 0 ] && [ "$size" = 900x700 ]; then
		tap_ok "$1: $3, $size"
	else
		tap_diag "$(cat "$tmp/err")"
		tap_fail "$1: exit 0 and a 900x700 $3 (got exit $2, '$size')"
	fi
}

tap_plan 6
"$sim" --topology torus:4x4 --load 0.3 --seed 1 --warmup 200 --cycles 2000 \
	--plot "$tmp/run" >"$tmp/out" 2>"$tmp/err"
png_ok "a run" $? run-channels.png
svg=$tmp/run-channels.svg
if [ -f "$svg" ] && grep -q '<svg' "$svg" && grep -q '<image' "$svg" &&
	grep -q 'channel utilisation: torus:4x4' "$svg"; then
	tap_ok "a run: run-channels.svg holds the heat map's image and its title"
else
	tap_fail "a run: run-channels.svg with <svg, <image and the title (got $(ls -l "$tmp"))"
fi

"$sim" --topology ring:8 --pattern tornado --router xbar --param FLIT_BYTES=64 \
	--packet-flits 1 --seed 1 --warmup 300 --cycles 2000 --saturation \
	--plot "$tmp/sat" >"$tmp/out" 2>"$tmp/err"
png_ok "saturation search" $? sat-latency.png
probes=$(grep -c '^probe ' "$tmp/out")
# a point per probe and one in the key, on each curve
lat=$(grep -o "#gpPt6'" "$tmp/sat-latency.svg" 2>/dev/null | wc -l)
acc=$(grep -o "#gpPt4'" "$tmp/sat-latency.svg" 2>/dev/null | wc -l)
if [ "$probes" -ge 5 ] && [ "$lat" = $((probes + 1)) ] && [ "$acc" = $((probes + 1)) ]; then
	tap_ok "sat-latency.svg: $probes probes, $lat latency and $acc accepted points (one in the key)"
else
	tap_fail "sat-latency.svg: want $probes + 1 points per curve, got latency $lat, accepted $acc"
fi

mkdir "$tmp/bin"
ln -s "$(command -v python3)" "$tmp/bin/python3"
PATH=$tmp/bin "$sim" --topology torus:4x4 --cycles 500 --plot "$tmp/none" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q 'gnuplot not found in PATH; install gnuplot-nox' "$tmp/err" &&
	[ ! -s "$tmp/out" ] && [ ! -e "$tmp/none-channels.png" ]; then
	tap_ok "no gnuplot: exit 1, $(cat "$tmp/err")"
else
	tap_fail "no gnuplot: want exit 1 and 'gnuplot not found in PATH; install gnuplot-nox', got exit $rc: $(cat "$tmp/err")"
fi
"$sim" --topology torus:4x4 --cycles 500 --plot "$tmp/it's" >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 1 ] && grep -q "without quotes or line breaks" "$tmp/err" && [ ! -s "$tmp/out" ]; then
	tap_ok "a prefix with a quote: exit 1 before the run, $(cat "$tmp/err")"
else
	tap_fail "a prefix with a quote: want exit 1, 'without quotes or line breaks' and no run, got exit $rc: $(cat "$tmp/err")"
fi
tap_done
