# SPDX-License-Identifier: GPL-2.0
# loom-sim for the tests: the sanitized build if there is one, else the
# tool; $sim names it, or the test skips; $tmp is a directory removed on
# exit.  Source after tap.sh.
#   sim_json FILE EXPR: a Python expression over the JSON result d
build=${BUILD:-$top/build}
sim=$build/tests/sim/loom-sim-asan
[ -x "$sim" ] || sim=$build/bin/loom-sim
if [ ! -x "$sim" ]; then
	echo "1..0 # SKIP loom-sim not built (make -C tools/loom-sim)"
	exit 4
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sim_json() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
