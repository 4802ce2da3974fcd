#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom.ko reads its card only through the file of each register block
# (Documentation/kmod/trust.rst): loom_rd(), loom_wr() and the HAL's kick
# appear nowhere else.  Netlink handlers, ioctls and the rest call the
# blocks' accessors, which check every value before handing it on.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)

# the block files; loom_debugfs.c only prints raw registers for people
allowed='^(loom_regs|loom_admin|loom_hw|loom_hw_[a-z]+|loom_genl_maint|loom_debugfs)\.c$'
tap_plan 3

cd "$top/kmod" || exit 1
check() { # description pattern
	local f hits= out rc
	for f in *.c; do
		[[ $f =~ $allowed ]] && continue
		out=$(grep -nE -- "$2" "$f")
		rc=$?
		[ $rc -gt 1 ] && { tap_diag "grep failed on $f"; hits+="$f: grep error"$'\n'; }
		[ -n "$out" ] && hits+=$(sed "s|^|$f:|" <<<"$out")$'\n'
	done
	if [ -z "$hits" ]; then
		tap_ok "$1"
	else
		tap_diag "$hits"
		tap_fail "$1"
	fi
}
check "loom_rd() only in the register-block files" '\<loom_rd\('
check "loom_wr() only in the register-block files" '\<loom_wr\('
# the HAL back ends implement kick; everyone else goes through loom_hw_commit()
allowed='^(loom_regs|loom_admin|loom_hw|loom_hw_[a-z]+|loom_genl_maint|loom_debugfs|loom_hal_[a-z]+)\.c$'
check "the HAL's kick only in the register-block files" '->kick\('
tap_done
