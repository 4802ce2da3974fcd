#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The walkthroughs (Documentation/walkthroughs/) name real code: every
# ``function()`` in ``path/file.c`` they cite is defined in that file, every
# path they name exists, and a function named on its own is defined in one of
# the files its page cites.  A failure prints the page, the line, the section
# (sections titled "Card: ..." are the card emulator's, under fpga_bitstreams/)
# and what is missing.  The checker is first run on a page with a wrong
# function and a wrong file, and must report both, so it cannot pass by
# seeing nothing.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
dir=$top/Documentation/walkthroughs

if [ ! -d "$dir" ]; then
	tap_plan 1
	tap_fail "Documentation/walkthroughs/ exists"
	tap_done
fi
mapfile -t pages < <(cd "$top" && find Documentation/walkthroughs -name '*.rst' ! -name index.rst | sort)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check_page ROOT PAGE MIN_CITATIONS: print what is missing, exit 1 if anything is
check_page() {
	/usr/bin/python3 - "$@" <<'PY'
import os, re, sys

root, page, min_cites = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(os.path.join(root, page)).read()
lines = text.split("\n")

# section titles: a text line underlined by one punctuation character
starts, titles, off = [], [], 0
for i, line in enumerate(lines):
    if i + 1 < len(lines):
        u = lines[i + 1]
        if (line.strip() and u and len(set(u)) == 1 and u[0] in "=-~^\"'`#*+"
                and len(u) >= len(line.rstrip())):
            starts.append(off)
            titles.append(line.strip())
    off += len(line) + 1

def where(pos):
    lineno = text.count("\n", 0, pos) + 1
    sect = "(no section)"
    for s, t in zip(starts, titles):
        if s <= pos:
            sect = t
    return "%s:%d [%s]" % (page, lineno, sect)

defs_cache = {}
def defined(path, name):
    key = (path, name)
    if key not in defs_cache:
        src = open(os.path.join(root, path), errors="replace").read()
        pat = re.compile(r"^[A-Za-z_][^;{}=\n]*?\b" + re.escape(name) +
                         r"\s*\([^;{]*?\)\s*\{", re.M)
        defs_cache[key] = pat.search(src) is not None
    return defs_cache[key]

problems = []
cited_files = set()
hop = re.compile(r"``([A-Za-z_][A-Za-z0-9_]*)\(\)``\s+in\s+``([^`\s]+)``")
hops = list(hop.finditer(text))
for m in hops:
    name, path = m.group(1), m.group(2)
    full = os.path.join(root, path)
    if not os.path.isfile(full):
        problems.append("%s: %s() is cited in %s, which does not exist"
                        % (where(m.start()), name, path))
        continue
    cited_files.add(path)
    if not defined(path, name):
        problems.append("%s: %s() is not defined in %s" % (where(m.start()), name, path))

hop_spans = [(m.start(), m.end()) for m in hops]
def in_hop(pos):
    return any(a <= pos < b for a, b in hop_spans)

for m in re.finditer(r"``([^`\s]+)``", text):
    if in_hop(m.start()):
        continue
    lit = m.group(1)
    fn = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*)\(\)", lit)
    if fn:
        name = fn.group(1)
        if not any(defined(p, name) for p in sorted(cited_files)):
            problems.append("%s: %s() is named without a file and is defined in none of the "
                            "files this page cites" % (where(m.start()), name))
        continue
    if re.fullmatch(r"[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+)+/?", lit) and not lit.startswith("/"):
        if not os.path.exists(os.path.join(root, lit)):
            problems.append("%s: %s does not exist" % (where(m.start()), lit))

for p in problems:
    print(p)
if len(hops) < min_cites:
    print("%s: only %d ``function()`` in ``file`` citations found (at least %d expected): "
          "has the format changed?" % (page, len(hops), min_cites))
    sys.exit(1)
sys.exit(1 if problems else 0)
PY
}

tap_plan $((${#pages[@]} + 3))

# the checker sees a wrong function and a wrong file
mkdir -p "$tmp/root/src" "$tmp/root/doc"
printf 'int real_fn(int a)\n{\n\treturn a;\n}\n' >"$tmp/root/src/real.c"
cat >"$tmp/root/doc/bad.rst" <<'EOF'
Steps
=====

#. ``real_fn()`` in ``src/real.c`` is fine.
#. ``renamed_fn()`` in ``src/real.c`` is not there.

Card: blocks
============

#. ``real_fn()`` in ``src/moved.c`` names a file that is gone.
EOF
out=$(check_page "$tmp/root" doc/bad.rst 1)
rc=$?
if [ $rc != 0 ] && grep -q 'doc/bad.rst:5 \[Steps\]: renamed_fn() is not defined in src/real.c' <<<"$out" &&
   grep -q 'doc/bad.rst:10 \[Card: blocks\]: real_fn() is cited in src/moved.c, which does not exist' <<<"$out" &&
   ! grep -q 'bad.rst:4' <<<"$out"; then
	tap_ok "the checker reports a wrong function and a wrong file with page, line and section"
else
	tap_diag "checker exit status $rc, output:"
	tap_diag "$out"
	tap_fail "the checker reports a wrong function and a wrong file with page, line and section"
fi

for p in "${pages[@]}"; do
	if out=$(check_page "$top" "$p" 10 2>&1); then
		tap_ok "$p: every function and file it names exists"
	else
		tap_diag "$out"
		tap_fail "$p: every function and file it names exists"
	fi
done

# the index says what each walkthrough covers, and nothing else is missing
missing=0
for p in "${pages[@]}"; do
	b=$(basename "$p" .rst)
	grep -q ":doc:\`$b\`" "$dir/index.rst" 2>/dev/null ||
		{ tap_diag "Documentation/walkthroughs/index.rst does not link $b (:doc:\`$b\`)"; missing=$((missing + 1)); }
done
tap_check "the walkthrough index links every walkthrough" [ $missing = 0 ]
missing=0
for w in put get barrier fabric; do
	[ -f "$dir/$w.rst" ] || { tap_diag "Documentation/walkthroughs/$w.rst is missing"; missing=$((missing + 1)); }
done
tap_check "the put, get, barrier and fabric walkthroughs exist" [ $missing = 0 ]
tap_done
