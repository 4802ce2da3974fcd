# SPDX-License-Identifier: GPL-2.0
# TAP steps shared by the equivalence tests of the Verilated harnesses
# (tests/rtl/test_rtl_equiv.sh for the units, test_rtl_equiv_router.sh and
# equiv_router_campaign.sh for the router top).  Source after
# tests/lib/tap.sh, with $tmp a scratch directory of the caller's.
#   equiv_require HINT BIN...     fails and ends the test unless every BIN
#                                 is built (HINT: how to build them)
#   equiv_seed BIN LABEL SEED CYCLES [ARG...]
#                                 one seed equal for CYCLES cycles (run
#                                 with the ARGs)
#   equiv_regress BIN LABEL SEEDS WORD
#                                 the WORD lines of the regression file
#                                 SEEDS replay equal
#   equiv_usage BIN [OPTION]      a bad command line (a number that is not
#                                 one, an unknown option, --cycles and
#                                 OPTION without a value) ends with exit 2,
#                                 each token named
#   equiv_mutant BIN WORD DIFF-RE DESCRIPTION [ARG...]
#                                 a deliberately wrong build (run with the
#                                 ARGs) is caught: a DIFFERENCE whose cycle
#                                 line matches DIFF-RE, a "keep it" line for
#                                 WORD, a VCD; on seed EQUIV_MUTANT_SEED
#                                 (default 1) for 10^5 cycles
#   equiv_router_configs PREFIX SEEDS N CYCLES CONFIG...
#                                 router top: for each CONFIG, build
#                                 PREFIX-CONFIG, seeds 1..N of CYCLES
#                                 equal and its lines of SEEDS replayed
#   equiv_router_mutants PREFIX CONFIG NAME
#                                 router top: PREFIX-CONFIG-mutate (NAME:
#                                 the router it is) with its credit
#                                 mutation alone on (--mutate credit) and
#                                 with its arbiter mutation alone on, each
#                                 caught with the cycle, unit, port, VC,
#                                 signal, both values, a "keep it" line and
#                                 a VCD; with both off, 10^4 cycles equal

equiv_require() {
	local hint=$1 b
	shift
	for b in "$@"; do
		if [ ! -x "$b" ]; then
			tap_fail "harness $b is not built ($hint; needs verilator)"
			tap_done
		fi
	done
}

equiv_seed() {
	local bin=$1 label=$2 seed=$3 cycles=$4 rc
	shift 4
	"$bin" --seed "$seed" --cycles "$cycles" --vcd "$tmp/v.vcd" "$@" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc = 0 ] && grep -q "seed $seed cycles $cycles .*: equal" "$tmp/out"; then
		tap_ok "$label seed $seed: $cycles cycles equal ($(sed -n 's/.*equal, //p' "$tmp/out"))"
	else
		tap_fail "$label seed $seed: $cycles cycles: exit $rc"
		tap_diag "$(cat "$tmp/out")"
	fi
}

equiv_regress() {
	local bin=$1 label=$2 seeds=$3 word=$4 rc want got
	"$bin" --regress "$seeds" --cycles 1000 --vcd "$tmp/v.vcd" >"$tmp/out" 2>&1
	rc=$?
	want=$(grep -c "^$word " "$seeds")
	got=$(grep -c ': equal' "$tmp/out")
	# the replays, then the run of --seed
	if [ $rc = 0 ] && [ "$got" = $((want + 1)) ]; then
		tap_ok "$label: the $want regression seeds of $(basename "$seeds") replay equal"
	else
		tap_fail "$label: regression seeds of $(basename "$seeds"): exit $rc, $got of $((want + 1)) runs equal"
		tap_diag "$(cat "$tmp/out")"
	fi
}

equiv_usage() {
	local bin=$1 opt=$2 rcs want="2 2 2" what="a bad number, an unknown option and a missing value"
	"$bin" --seed 12x >"$tmp/out" 2>&1; rcs=$?
	"$bin" --frobnicate 1 >>"$tmp/out" 2>&1; rcs="$rcs $?"
	"$bin" --cycles >>"$tmp/out" 2>&1; rcs="$rcs $?"
	if [ -n "$opt" ]; then
		"$bin" --seed 1 "$opt" >>"$tmp/out" 2>&1; rcs="$rcs $?"
		want="$want 2"
		what="a bad number, an unknown option and two missing values"
	fi
	if [ "$rcs" = "$want" ] && grep -q "'12x' is not a non-negative number" "$tmp/out" &&
		grep -q "unknown option '--frobnicate'" "$tmp/out" &&
		grep -q -- "--cycles needs a value" "$tmp/out" &&
		{ [ -z "$opt" ] || grep -q -- "$opt needs a value" "$tmp/out"; }; then
		tap_ok "$what: exit 2, each named"
	else
		tap_fail "$what: exit $rcs (want $want)"
		tap_diag "$(cat "$tmp/out")"
	fi
}

equiv_mutant() {
	local bin=$1 word=$2 re=$3 desc=$4 seed=${EQUIV_MUTANT_SEED:-1} rc
	shift 4
	rm -f "$tmp/m.vcd"
	"$bin" --seed "$seed" --cycles 100000 --vcd "$tmp/m.vcd" "$@" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "DIFFERENCE" "$tmp/out" && grep -Eq "$re" "$tmp/out" &&
		grep -q "keep it: add '$word $seed " "$tmp/out" && [ -s "$tmp/m.vcd" ] &&
		grep -q '\$enddefinitions' "$tmp/m.vcd"; then
		tap_ok "$desc is caught: $(grep -m1 'cycle [0-9]*:' "$tmp/out" | sed 's/^ *//')"
	else
		tap_fail "$desc is not caught as it should be (exit $rc)"
		tap_diag "$(cat "$tmp/out")"
	fi
}

equiv_router_configs() {
	local prefix=$1 seeds=$2 n=$3 cycles=$4 c seed
	shift 4
	for c in "$@"; do
		for seed in $(seq 1 "$n"); do
			equiv_seed "$prefix-$c" "$c" "$seed" "$cycles"
		done
		equiv_regress "$prefix-$c" "$c" "$seeds" "$c"
	done
}

# what a router-top mutant's report must hold: cycle, unit, port, VC, signal, both values
equiv_diff_re="cycle [0-9]+: unit .*, port -?[0-9]+, VC -?[0-9]+, signal .*: RTL [0-9]+ .*C model [0-9]+"
equiv_router_mutants() {
	local prefix=$1 c=$2 name=$3
	equiv_mutant "$prefix-$c-mutate" "$c-mutate-credit" "$equiv_diff_re" \
		"$name with an output unit that holds one credit more than the downstream buffer" \
		--mutate credit
	equiv_mutant "$prefix-$c-mutate" "$c-mutate-arbiter" "$equiv_diff_re" \
		"$name with round-robin arbiters that keep the winner's priority" --mutate arbiter
	# both switched off equal: neither mutation is on unless its run names it
	equiv_seed "$prefix-$c-mutate" "$c-mutate with its mutations switched off" 1 10000 \
		--mutate none
}
