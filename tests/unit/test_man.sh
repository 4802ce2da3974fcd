#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The manual pages: every tool has one (section 8; section 1 for loom-xfer
# and the benchmarks) and loom(7) exists; "make -C Documentation install"
# puts them where man finds them (man -w and man through MANPATH, as after
# make install) and the top-level install runs it; every page renders
# without a groff warning; loomctl(8) names every command of loomctl's
# command table and every field loomctl prints; every long option a tool's
# --help lists is in its page.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
man8="loomctl loom-fm loom-lab loom-card"
man1="loom-xfer loom-sim loom-bench loom_put_lat loom_put_bw loom_get_lat loom_atomic_lat loom_barrier_lat loom_cable_bw loom_mr_reg"
if [ ! -d "$build/man/man8" ] || [ ! -x "$build/bin/loomctl" ] || ! command -v man >/dev/null; then
	echo "1..0 # SKIP manual pages or loomctl not built (make), or no man (apt-get install man-db)"
	exit 4
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_plan 10
missing=
for p in $man8; do [ -f "$build/man/man8/$p.8" ] || missing="$missing $p.8"; done
for p in $man1; do [ -f "$build/man/man1/$p.1" ] || missing="$missing $p.1"; done
[ -f "$build/man/man7/loom.7" ] || missing="$missing loom.7"
tap_check "a page per tool in section 8 and 1, and loom(7) (missing:${missing:- none})" test -z "$missing"

make -s -C "$top/Documentation" install DESTDIR="$tmp" PREFIX=/usr >"$tmp/log" 2>&1
export MANPATH=$tmp/usr/share/man
bad=
for p in $man8 $man1 loom; do
	[ "$(man -w "$p" 2>/dev/null)" ] || bad="$bad $p"
done
if [ -z "$bad" ] && MANWIDTH=80 man loomctl 2>/dev/null | col -b | grep -q 'loomctl - configure and inspect loom router cards' &&
	MANWIDTH=80 man 3 loom_put 2>/dev/null | col -b | grep -q '^ERRORS'; then
	tap_ok "installed with DESTDIR, 'man loomctl', 'man 3 loom_put' and every page are found through MANPATH"
else
	tap_diag "not found:$bad; $(cat "$tmp/log")"
	tap_fail "installed with DESTDIR, 'man loomctl', 'man 3 loom_put' and every page are found through MANPATH"
fi
if make -s -n -C "$top" install DESTDIR="$tmp" PREFIX=/usr 2>/dev/null | grep -q -- '-C Documentation install'; then
	tap_ok "the top-level make install installs the manual pages"
else
	tap_fail "the top-level make install installs the manual pages (make -n install does not run Documentation install)"
fi
# (one groff for every page, with man's warnings; .so links resolve from
# the top of the installed tree, as man does)
warn=$(cd "$tmp/usr/share/man" && groff -man -Tutf8 -wmac -z man*/* 2>&1)
npages=$(ls "$tmp"/usr/share/man/man*/* | wc -l)
tap_check "every one of the $npages pages renders without a groff warning (${warn:-none})" \
	sh -c "[ -z \"$warn\" ] && [ $npages -ge 47 ]"

page=$(MANWIDTH=200 man loomctl 2>/dev/null | col -b)
missing=
while read -r obj cmd; do
	grep -q "loomctl $obj $cmd" <<<"$page" || missing="$missing '$obj $cmd'"
done < <("$build/bin/loomctl" help | sed -n '/^COMMANDS/,/^OPTIONS/p' | sed -n 's/^    \([a-z][a-z]*\) \([a-z][a-z]*\).*/\1 \2/p')
n=$("$build/bin/loomctl" help | sed -n '/^COMMANDS/,/^OPTIONS/p' | grep -c '^    [a-z][a-z]* [a-z]')
tap_check "loomctl(8) has every one of the $n commands of loomctl's table (missing:${missing:- none})" \
	sh -c "[ -z \"$missing\" ] && [ $n -ge 17 ]"

# every field loomctl prints: the keys of its lc_print_* calls and tables
python3 - "$top/tools/loomctl" >"$tmp/keys" <<'PY'
import glob, re, sys
keys = set()
for f in glob.glob(sys.argv[1] + "/*.c"):
    s = open(f).read()
    for m in re.finditer(r"lc_print_(?:uint|hex|str|bool|null|open_array|open_object)\((?:LC_PRINT_(?:ANY|JSON|TEXT),\s*)?", s):
        arg, depth = "", 0
        for ch in s[m.end():]:
            if ch in "(":
                depth += 1
            if ch in ")" and depth == 0:
                break
            if ch == ")":
                depth -= 1
            if ch == "," and depth == 0:
                break
            arg += ch
        keys.update(re.findall(r'"([a-z][a-z0-9_]*)"', arg))
    for m in re.finditer(r'\{\s*LOOM_ATTR_\w+,\s*"([a-z][a-z0-9_]*)"\s*\}', s):
        keys.add(m.group(1))
print("\n".join(sorted(keys)))
PY
missing=
nkeys=0
while read -r k; do
	nkeys=$((nkeys + 1))
	grep -qw -- "$k" <<<"$page" || missing="$missing $k"
done <"$tmp/keys"
tap_check "loomctl(8) names every one of the $nkeys fields loomctl prints (missing:${missing:- none})" \
	sh -c "[ -z \"$missing\" ] && [ $nkeys -ge 80 ]"

# every long option of a tool's --help is in its page
optcheck() { # tool page-name
	local tool=$1 page=$2 text o miss=
	text=$(MANWIDTH=200 man "$page" 2>/dev/null | col -b)
	for o in $("$build/bin/$tool" --help 2>&1 | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
		grep -q -- "$o" <<<"$text" || miss="$miss $o"
	done
	echo "$miss"
}
m=$(optcheck loom-fm loom-fm)
tap_check "loom-fm(8) has every option of loom-fm --help (missing:${m:- none})" test -z "$m"
m="$(optcheck loom-xfer loom-xfer)$(optcheck loom-sim loom-sim)$(optcheck loom_put_bw loom_put_lat)$(optcheck loom_cable_bw loom_cable_bw)$(optcheck loom_barrier_lat loom_barrier_lat)"
tap_check "loom-xfer(1), loom-sim(1) and the benchmarks' page have every option of their --help (missing:${m:- none})" test -z "$m"
m="$(optcheck loom-card loom-card)"
[ -x "$build/bin/loom_osu" ] && m="$m$(optcheck loom_osu loom_osu)"
m=$(echo $m)
tap_check "loom-card(8) and loom_osu(1) have every option of their --help (missing:${m:- none})" test -z "$m"
m=$(optcheck loom-lab loom-lab)
labpage=$(MANWIDTH=200 man loom-lab 2>/dev/null | col -b)
for c in start exec stop status check-log topology cut; do
	for o in $("$build/bin/loom-lab" $c --help 2>&1 | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
		grep -q -- "$o" <<<"$labpage" || m="$m $c:$o"
	done
done
tap_check "loom-lab(8) has every option of every command's --help (missing:${m:- none})" test -z "$m"
tap_done
