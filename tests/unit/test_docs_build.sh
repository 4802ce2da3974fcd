#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The HTML documentation builds with Sphinx with warnings as errors, the
# way "make docs" builds it (Documentation/Makefile), into a scratch
# directory; a warning fails the test and is printed.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
if ! command -v sphinx-build >/dev/null; then
	echo "1..0 # SKIP sphinx-build is not installed (apt-get install python3-sphinx; tools/deps/install-deps does)"
	exit 4
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_plan 2
if make -s -C "$top/Documentation" html BUILD="$tmp" >"$tmp/log" 2>&1; then
	tap_ok "make docs: Sphinx builds Documentation/ without a warning"
else
	tap_diag "$(cat "$tmp/log")"
	tap_fail "make docs: Sphinx builds Documentation/ without a warning"
fi
tap_check "the site has the library API and loomctl's manual page" \
	test -s "$tmp/html/lib/api.html" -a -s "$tmp/html/man/loomctl.8.html"
tap_done
