#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Documentation/ renders: every page parses without a docutils warning or
# error, every toctree entry exists, and every page is in the toctree.
# Sphinx's :doc: role and toctree directive are stood in for, since docutils
# alone does not know them.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)

mapfile -t pages < <(cd "$top/Documentation" && find . -name '*.rst' | sed 's|^\./||' | sort)
tap_plan $((${#pages[@]} + 2))
check_page() {
	/usr/bin/python3 - "$1" <<'PY'
import sys
from docutils import nodes
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives, roles

def doc_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.literal(rawtext, text)], []

class TocTree(Directive):
    has_content = True
    option_spec = {"maxdepth": directives.unchanged, "caption": directives.unchanged}
    def run(self):
        return []

roles.register_local_role("doc", doc_role)
directives.register_directive("toctree", TocTree)
path = sys.argv[1]
publish_doctree(open(path).read(), source_path=path,
                settings_overrides={"halt_level": 2, "report_level": 2})
PY
}
for p in "${pages[@]}"; do
	if out=$(check_page "$top/Documentation/$p" 2>&1); then
		tap_ok "Documentation/$p renders without warnings"
	else
		tap_diag "$out"
		tap_fail "Documentation/$p renders without warnings"
	fi
done

mapfile -t toc < <(awk '/^\.\. toctree::/ { t = 1; next } t && /^[^ ]/ { t = 0 } t' \
		   "$top/Documentation/index.rst" | sed -n 's/^   \([a-z].*\)$/\1/p')
missing=0
for t in "${toc[@]}"; do
	[ -f "$top/Documentation/$t.rst" ] || { tap_diag "toctree entry $t has no page"; missing=$((missing + 1)); }
done
tap_check "every toctree entry has a page" [ $missing = 0 ]
orphans=0
for p in "${pages[@]}"; do
	[ "$p" = index.rst ] && continue
	printf '%s\n' "${toc[@]}" | grep -qx "${p%.rst}" ||
		{ tap_diag "Documentation/$p is not in the toctree"; orphans=$((orphans + 1)); }
done
tap_check "every page is in the toctree" [ $orphans = 0 ]
tap_done
