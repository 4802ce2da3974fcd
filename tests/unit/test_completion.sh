#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The bash completion files of loom-fm and loomctl: sourced in a clean
# shell, they complete commands, options and option values (engines, the
# --no-adaptive switch; the engines are the ones loom-fm names); loomctl's is the one the build generated from the
# command table (loomctl --bash-completion) and completes objects, commands
# and keywords; loom-fm's Makefile installs its file next to loomctl's
# (share/bash-completion/completions).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
fm=$top/tools/loom-fm/loom-fm.bash-completion
build=${BUILD:-$top/build}
lc=$build/share/bash-completion/completions/loomctl
if [ ! -f "$lc" ] || [ ! -x "$build/bin/loomctl" ] || [ ! -x "$build/bin/loom-fm" ]; then
	echo "1..0 # SKIP loomctl, its completion or loom-fm not built (make -C tools/loomctl tools/loom-fm)"
	exit 4
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# comp FILE FUNC WORDS...: the completions of the last word
comp() {
	local file=$1 func=$2
	shift 2
	bash --norc --noprofile -c '. "$1"; f=$2; shift 2
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
		$f; echo "${COMPREPLY[*]}"' comp "$file" "$func" "$@" 2>&1
}
check() { # description expected got
	if [ "$2" = "$3" ]; then
		tap_ok "$1"
	else
		tap_diag "expected '$2', got '$3'"
		tap_fail "$1"
	fi
}

tap_plan 14
check "loom-fm: the commands" "routes discover configure watch" "$(comp "$fm" _loom_fm loom-fm "")"
check "loom-fm con -> configure" "configure" "$(comp "$fm" _loom_fm loom-fm con)"
# the engines loom-fm itself knows, from its refusal of an unknown one
engines=$("$build/bin/loom-fm" routes --shape ring:4 --engine none 2>&1 | sed -n 's/.*; engines: //p' | tr -d ,)
check "loom-fm configure --engine: the engines loom-fm knows ($engines)" "$engines" \
	"$(comp "$fm" _loom_fm loom-fm configure --engine "")"
check "loom-fm routes --no-: --no-datelines --no-adaptive" "--no-datelines --no-adaptive" \
	"$(comp "$fm" _loom_fm loom-fm routes --shape torus:4x4 --no-)"
check "loom-fm watch --interval 100 --o -> --once" "--once" \
	"$(comp "$fm" _loom_fm loom-fm watch --interval 100 --o)"
check "loom-fm --logical: identity compact" "identity compact" \
	"$(comp "$fm" _loom_fm loom-fm discover --logical "")"
check "loomctl dev: show set help" "show set help" "$(comp "$lc" _loomctl loomctl dev "")"
check "loomctl: the objects" "dev route port monitor vc stats key bsu maint mcast help" \
	"$(comp "$lc" _loomctl loomctl "")"
check "loomctl -j route: its commands" "show set del load help" \
	"$(comp "$lc" _loomctl loomctl -j route "")"
check "loomctl route set 1: dev and the keywords" "dev port adaptive phys_dest" \
	"$(comp "$lc" _loomctl loomctl route set 1 "")"
check "loomctl mcast set: dev and the keywords" "dev group ports host members none" \
	"$(comp "$lc" _loomctl loomctl mcast set "")"
check "loomctl --j -> --json" "--json" "$(comp "$lc" _loomctl loomctl --j)"
if "$build/bin/loomctl" --bash-completion | cmp -s - "$lc"; then
	tap_ok "the installed completion is what loomctl --bash-completion prints"
else
	tap_fail "the installed completion is what loomctl --bash-completion prints (stale: make -C tools/loomctl)"
fi
# (make -n: what install would do, without building or installing anything)
if make -s -n -C "$top/tools/loom-fm" install DESTDIR="$tmp" PREFIX=/usr >"$tmp/log" 2>&1 &&
	tr -d '\\\n' <"$tmp/log" |
	grep -q "install -D -m 0644 loom-fm.bash-completion[[:space:]]*$tmp/usr/share/bash-completion/completions/loom-fm$"; then
	tap_ok "make -C tools/loom-fm install puts loom-fm's completion next to loomctl's"
else
	tap_diag "$(cat "$tmp/log")"
	tap_fail "make -C tools/loom-fm install puts loom-fm's completion next to loomctl's"
fi
tap_done
