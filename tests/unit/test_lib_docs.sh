#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
# libloom documented where it is used: every function of <loom.h> has its
# comment (what it does, every argument, Return:, Errors:, Thread safety:;
# lib/gen-man3.py --check, the build's own check), the header declares
# exactly the symbols libloom.map exports, every exported symbol has its
# section 3 page in the build and is named in Documentation/lib/api.rst.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
hdr=$top/lib/include/loom.h
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_plan 4
if python3 "$top/lib/gen-man3.py" --check "$hdr" "$tmp" >"$tmp/check" 2>&1; then
	tap_ok "every public declaration of loom.h has its comment: summary, arguments, Return, Errors, Thread safety"
else
	tap_diag "$(cat "$tmp/check")"
	tap_fail "every public declaration of loom.h has its comment: summary, arguments, Return, Errors, Thread safety"
fi

sed -n 's/^[[:space:]]*\(loom_[a-z0-9_]*\);$/\1/p' "$top/lib/libloom.map" | sort -u >"$tmp/map"
# functions the header declares: a name followed by "(" at the start of a
# declaration (after the return type)
grep -v '^ \*\|^/\*\|^#' "$hdr" | grep -o '\bloom_[a-z0-9_]*(' | tr -d '(' | sort -u >"$tmp/hdr.all"
# names only mentioned in comments are not declarations: keep those with a prototype
while read -r f; do
	grep -Eq "^[a-z].*[ *]$f\(" "$hdr" && echo "$f"
done <"$tmp/hdr.all" >"$tmp/hdr"
if [ -s "$tmp/map" ] && cmp -s "$tmp/map" "$tmp/hdr"; then
	tap_ok "loom.h declares exactly the $(wc -l <"$tmp/map") functions libloom.map exports"
else
	tap_diag "only in libloom.map: $(comm -23 "$tmp/map" "$tmp/hdr" | tr '\n' ' '); only in loom.h: $(comm -13 "$tmp/map" "$tmp/hdr" | tr '\n' ' ')"
	tap_fail "loom.h declares exactly the functions libloom.map exports"
fi

missing=
while read -r f; do
	[ -f "$build/man/man3/$f.3" ] || missing="$missing $f"
done <"$tmp/map"
tap_check "every exported function has its page in section 3 of the build (make -C Documentation man; missing:${missing:- none})" test -z "$missing"

missing=
while read -r f; do
	grep -q "\b$f\b" "$top/Documentation/lib/api.rst" || missing="$missing $f"
done <"$tmp/map"
tap_check "Documentation/lib/api.rst names every exported function (missing:${missing:- none})" test -z "$missing"
tap_done
