#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs a Yosys script once per content, like vbuild.sh does for Verilator:
# the key is the SHA-256 of the script, the Yosys version and every input
# file; the script writes OUT-NAME into the directory it is run in
# (CACHE/NAME-KEY), and OUT is a copy of that file.  A rerun with the same
# inputs only copies.
#
#   ysynth.sh OUT CACHE NAME SCRIPT -- INPUT-FILES...
set -euo pipefail
[ $# -ge 6 ] || { echo "usage: ysynth.sh OUT CACHE NAME SCRIPT -- FILES" >&2; exit 2; }
out=$1 cache=$2 name=$3 script=$4
shift 4
[ "$1" = -- ] || { echo "ysynth.sh: expected -- after SCRIPT" >&2; exit 2; }
shift
# the script names files by absolute path: the key holds them relative to
# the tree, so that a clone at another path finds the same netlists
root=$(cd "$(dirname "$0")/../../.." && pwd)
key=$( {
	printf '%s\n' "$name" "${script//"$root"\//@TOP@/}"
	yosys -V
	sha256sum "$@" | sed 's/ .*//'
} | sha256sum | cut -c1-16)
dir=$cache/$name-$key
base=$(basename "$out")
mkdir -p "$cache"
# one synthesis per key: another make that wants it waits here, then finds it
exec 9>"$dir.lock"
flock -n 9 || { echo "ysynth: waiting for another synthesis of $name in $dir"; flock 9; }
if [ -f "$dir/$base" ]; then
	echo "ysynth: $name cached in $dir"
else
	echo "ysynth: synthesizing $name into $dir (log: $dir/yosys.log)"
	tmp=$(mktemp -d "$cache/.synth.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	(cd "$tmp" && nice -n 10 yosys -q -l yosys.log -p "$script") >"$tmp/out.log" 2>&1 || {
		tail -20 "$tmp/out.log" >&2
		echo "ysynth: $name failed; the log is above" >&2
		exit 1
	}
	[ -f "$tmp/$base" ] || { echo "ysynth: the script wrote no $base" >&2; exit 1; }
	rm -rf "$dir"
	mv "$tmp" "$dir"
	trap - EXIT
fi
cp "$dir/$base" "$out.tmp"
mv "$out.tmp" "$out"
