#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Builds a Verilated harness once per content: the key is the SHA-256 of
# every input (RTL, generated headers, harness, C model sources, flags,
# the Verilator and compiler versions), the build lives in CACHE/KEY and
# OUT is a copy of its binary.  A rerun with the same inputs only copies.
#
#   vbuild.sh OUT CACHE TOP VARIANT -- VERILATOR-ARGS... -- INPUT-FILES...
#
# TOP: the top module; VARIANT: a name for the build (rtl, mutate-arbiter,
# ...), printed by the harness; VERILATOR-ARGS: sources and flags, the same
# words every time for the same build; INPUT-FILES: every file the build
# reads (hashed).  Arguments under the tree are keyed relative to it, and
# the C objects are compiled with the tree's path mapped away (rtl.mk), so
# a clone at another path reuses the builds.
set -euo pipefail
[ $# -ge 6 ] || { echo "usage: vbuild.sh OUT CACHE TOP VARIANT -- VERILATOR-ARGS -- FILES" >&2; exit 2; }
out=$1 cache=$2 top=$3 variant=$4
shift 4
[ "$1" = -- ] || { echo "vbuild.sh: expected -- after VARIANT" >&2; exit 2; }
shift
vargs=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do vargs+=("$1"); shift; done
[ $# -gt 0 ] || { echo "vbuild.sh: expected -- before the input files" >&2; exit 2; }
shift
files=("$@")

# the arguments name files by absolute path: the key holds them relative
# to the tree, so that a clone at another path finds the same builds
root=$(cd "$(dirname "$0")/../../.." && pwd)
key=$( {
	printf '%s\n' "$top" "$variant" "${vargs[@]//"$root"\//@TOP@/}"
	verilator --version
	${CXX:-c++} --version | head -1
	sha256sum "${files[@]}" | sed 's/ .*//'
} | sha256sum | cut -c1-16)
dir=$cache/$top-$variant-$key
mkdir -p "$cache"
# one builder per key: another make (a second tree, make -j) that wants the
# same build waits for it here and then finds it cached
exec 9>"$dir.lock"
flock -n 9 || { echo "vbuild: waiting for another build of $top ($variant) in $dir"; flock 9; }
if [ -x "$dir/V$top" ]; then
	echo "vbuild: $top ($variant) cached in $dir"
else
	echo "vbuild: verilating $top ($variant) into $dir"
	tmp=$(mktemp -d "$cache/.build.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	nice -n 10 verilator --cc --exe --build -j 2 --top-module "$top" --Mdir "$tmp" \
		-CFLAGS "-DLOOM_RTL_BUILD='\"$key\"' -DLOOM_RTL_VARIANT='\"$variant\"'" \
		"${vargs[@]}" >"$tmp/build.log" 2>&1 || {
		tail -40 "$tmp/build.log" >&2
		echo "vbuild: verilating $top ($variant) failed; the log is above" >&2
		exit 1
	}
	rm -rf "$dir"
	mv "$tmp" "$dir"
	trap - EXIT
fi
cp "$dir/V$top" "$out.tmp"
mv "$out.tmp" "$out"
