# SPDX-License-Identifier: GPL-2.0
# TAP steps shared by the equivalence tests of the Verilated harnesses
# (tests/unit/test_rtl_equiv.sh for the units, equiv_router_campaign.sh for
# the router top).  Source after tests/lib/tap.sh, with $tmp a scratch
# directory of the caller's.
#   equiv_require HINT BIN...     fails and ends the test unless every BIN
#                                 is built (HINT: how to build them)
#   equiv_seed BIN LABEL SEED CYCLES
#                                 one seed equal for CYCLES cycles
#   equiv_regress BIN LABEL SEEDS WORD
#                                 the WORD lines of the regression file
#                                 SEEDS replay equal
#   equiv_mutant BIN WORD DIFF-RE DESCRIPTION [ARG...]
#                                 a deliberately wrong build (run with the
#                                 ARGs) is caught: a DIFFERENCE whose cycle
#                                 line matches DIFF-RE, a "keep it" line for
#                                 WORD, a VCD

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
	"$bin" --seed "$seed" --cycles "$cycles" --vcd "$tmp/v.vcd" >"$tmp/out" 2>&1
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

equiv_mutant() {
	local bin=$1 word=$2 re=$3 desc=$4 rc
	shift 4
	rm -f "$tmp/m.vcd"
	"$bin" --seed 1 --cycles 100000 --vcd "$tmp/m.vcd" "$@" >"$tmp/out" 2>&1
	rc=$?
	if [ $rc = 1 ] && grep -q "DIFFERENCE" "$tmp/out" && grep -Eq "$re" "$tmp/out" &&
		grep -q "keep it: add '$word 1 " "$tmp/out" && [ -s "$tmp/m.vcd" ] &&
		grep -q '\$enddefinitions' "$tmp/m.vcd"; then
		tap_ok "$desc is caught: $(grep -m1 'cycle [0-9]*:' "$tmp/out" | sed 's/^ *//')"
	else
		tap_fail "$desc is not caught as it should be (exit $rc)"
		tap_diag "$(cat "$tmp/out")"
	fi
}
