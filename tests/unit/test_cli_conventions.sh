#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The command-line conventions every loom tool keeps (loomctl, loom-fm,
# loom-lab, loom-xfer, loom-sim, the card emulator loom-card, the
# benchmarks, loom-bench and, where mpicc is, loom_osu), without a kernel: -V and
# --version print "TOOL VERSION" (VERSION is the tree's), --help exits 0, a
# misspelt option or command exits 2 naming the token and the right
# spelling, an unknown one with no close spelling exits 2 naming it, and
# nothing of a usage error goes to standard output.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/usage_error.sh"
top=$(cd "$here/../.." && pwd)
bin=${BUILD:-$top/build}/bin
version=$(cat "$top/VERSION")
tools="loomctl loom-fm loom-lab loom-xfer loom-sim loom-card loom_put_lat loom_put_bw loom_get_lat loom_atomic_lat loom_barrier_lat loom_cable_bw loom_mr_reg"
for t in $tools; do
	if [ ! -x "$bin/$t" ]; then
		echo "1..0 # SKIP $t not built (make)"
		exit 4
	fi
done
# loom-bench runs from the tree; loom_osu is built where mpicc is
prog() {
	if [ "$1" = loom-bench ]; then echo "$top/tools/bench/loom-bench"; else echo "$bin/$1"; fi
}
tools="$tools loom-bench"
have_osu=false
if command -v mpicc >/dev/null && [ -x "$bin/loom_osu" ]; then
	tools="$tools loom_osu"
	have_osu=true
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# usage TOOL EXPECTED ARGS...: exit 2, EXPECTED on stderr, stdout empty
usage() {
	local tool=$1
	shift
	expect_usage_error "$(prog "$tool")" "$@"
}

# a -V check per tool, --help, the misspellings below
if $have_osu; then tap_plan 52; else tap_plan 51; fi
for t in $tools; do
	a=$("$(prog "$t")" -V 2>&1)
	r1=$?
	b=$("$(prog "$t")" --version 2>&1)
	r2=$?
	if [ $r1 = 0 ] && [ $r2 = 0 ] && [ "$a" = "$t $version" ] && [ "$b" = "$a" ]; then
		tap_ok "$t -V and --version: '$t $version'"
	else
		tap_fail "$t -V and --version: '$t $version' (got '$a' exit $r1, '$b' exit $r2)"
	fi
done
ok=0
for t in $tools; do
	"$(prog "$t")" --help >"$tmp/o" 2>&1 && [ -s "$tmp/o" ] && ok=$((ok + 1))
done
ntools=$(wc -w <<<"$tools")
tap_check "--help of every tool exits 0 and prints ($ok of $ntools)" [ $ok = "$ntools" ]

usage loomctl "unknown option \"--jsno\": did you mean \"--json\"?" --jsno dev
usage loomctl "unknown object \"rotue\": did you mean \"route\"?" rotue
usage loom-fm "unknown option '--egnine': did you mean '--engine'?" routes --egnine dor
usage loom-fm "unknown command 'discvoer': did you mean 'discover'?" discvoer
usage loom-fm "unknown option '--zzz'" routes --zzz
usage loom-lab "unknown command 'stpo': did you mean 'stop'?" stpo
usage loom-lab "start: unknown option '--hsots': did you mean '--hosts'?" start --hsots 2
usage loom-lab "stop: option '--dir' needs a value" stop --dir
usage loom-xfer "unknown command 'revc': did you mean 'recv'?" revc
usage loom-xfer "unknown option '--chunck': did you mean '--chunk'?" send --chunck 4K
usage loom-xfer "invalid --dev 'sda'" recv --dev sda --ctx 1 --key 1
for b in loom_put_lat loom_put_bw loom_get_lat loom_atomic_lat; do
	usage $b "unknown option '--itres': did you mean '--iters'?" --itres 5
done
usage loom_put_lat "option '-s' needs a value" -s
usage loom_put_lat "--depth is an option of the bandwidth test" --depth 4
usage loom_put_bw "invalid --dev 'sda'" --dev sda
usage loom_cable_bw "invalid --time '0'" --time 0
usage loom_barrier_lat "unknown option '--itres': did you mean '--iters'?" --itres 5
usage loom_barrier_lat "unknown option or argument 'frob'" frob
usage loom_barrier_lat "--dev: not a card name" --dev sda
usage loom_mr_reg "unknown option '--itres': did you mean '--iters'?" --itres 5
usage loom_mr_reg "invalid --size '3x'" --size 3x
usage loom_mr_reg "invalid --dev 'sda'" --dev sda
usage loom_barrier_lat "unknown option or argument '--zzz'" --zzz
usage loom_barrier_lat "option needs a value: '--iters'" --iters
usage loom-sim "unknown option '--topolgy': did you mean '--topology'?" --topolgy x
usage loom-card "unknown option '--lane-mpbs': did you mean '--lane-mbps'?" --lane-mpbs 3
usage loom-card "option '--node' needs a value" --node
usage loom-card "unknown option '--zzz'" --zzz
usage loom-bench "unknown option '--itres': did you mean '--iters'?" --itres 3
usage loom-bench "unexpected argument '5'" 5
if $have_osu; then
	usage loom_osu "unknown option '--verison': did you mean '--version'?" --verison
	usage loom_osu "unknown benchmark 'latncy': did you mean 'latency'?" latncy
	usage loom_osu "option -i needs a value" -i
else
	for i in 1 2 3; do tap_skip "loom_osu: not built (no mpicc)"; done
fi
tap_done
