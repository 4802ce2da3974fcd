#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom.ko meets the kernel's standards: warning-free with W=1, sparse-clean,
# and checkpatch --strict clean (kmod/Makefile 'check').
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
log=$(mktemp)
trap 'rm -f "$log"' EXIT

tap_plan 2
for step in check-static:"W=1 build of loom.ko with sparse (C=1) has no warnings" \
	    checkpatch:"checkpatch --strict is clean on kmod/"; do
	target=${step%%:*}
	if make -s -C "$top/kmod" "$target" >"$log" 2>&1; then
		if grep -q SKIP "$log"; then
			tap_skip "${step#*:} ($(grep -m1 SKIP "$log"))"
		else
			tap_ok "${step#*:}"
		fi
	else
		tap_diag "$(tail -n 20 "$log")"
		tap_fail "${step#*:}"
	fi
done
tap_done
