#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Runs the kernel's checkpatch.pl --strict on the driver sources.
# usage: checkpatch.sh CACHE_DIR FILE...
# checkpatch.pl comes from Debian's linux-source-6.1 tarball: only
# scripts/checkpatch.pl, scripts/spelling.txt and
# scripts/const_structs.checkpatch are extracted, into CACHE_DIR.  When the
# tarball is missing it is installed if we are root; otherwise the check
# is skipped with a message (exit 0).
set -euo pipefail

cache=$1
shift
cp="$cache/scripts/checkpatch.pl"

if [ ! -x "$cp" ]; then
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1 || true)
	if [ -z "$tarball" ]; then
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
			echo "kmod: installing linux-source-6.1 for checkpatch.pl" >&2
			apt-get install -y -q linux-source-6.1 >/dev/null
			tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n 1 || true)
		fi
	fi
	if [ -z "$tarball" ]; then
		echo "kmod: SKIP checkpatch: no /usr/src/linux-source-*.tar.xz (apt-get install linux-source-6.1 as root)" >&2
		exit 0
	fi
	top=$(basename "$tarball" .tar.xz)
	mkdir -p "$cache"
	tar -xJf "$tarball" -C "$cache" --strip-components=1 \
		"$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch"
fi

# files in batches on every core: checkpatch.pl is one perl process per call
out=$(printf '%s\0' "$@" | xargs -0 -n 8 -P "$(nproc 2>/dev/null || echo 1)" \
	"$cp" --strict --no-tree --terse --show-types -f || true)
if printf '%s\n' "$out" | grep -E '(ERROR|WARNING|CHECK):'; then
	echo "kmod: checkpatch --strict reports problems (above)" >&2
	exit 1
fi
echo "kmod: checkpatch --strict clean ($# files)"
