# SPDX-License-Identifier: GPL-2.0
# loom-sim for the tests: the sanitized build if there is one, else the
# tool; $sim names it, or the test skips; $tmp is a directory removed on
# exit.  Source after tap.sh.
#   sim_json FILE EXPR: a Python expression over the JSON result d
#   delivers NAME ARGS...: a tap test that the run exits 0, result ok, every
#     measured packet delivered (none dropped or misdelivered)
#   hyperx_hops SIZES TRACE: per --trace line of a HyperX (sizes SxSx...),
#     the packet's hops and its minimal hops
#   refused STATUS MESSAGE ARGS...: a tap test that the run exits STATUS
#     with MESSAGE on stderr and nothing on stdout
#   saturation KEY ARGS...: a saturation search, its figure in sat[KEY]
#   sat_check NAME CONDITION: a tap test of an awk condition over sat[]
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

# delivers NAME ARGS...: exit 0, result ok, every measured packet delivered
delivers() {
	local name=$1 r got
	shift
	"$sim" -j "$@" >"$tmp/d.json" 2>"$tmp/err"
	r=$?
	got=$(sim_json "$tmp/d.json" '"result %s packets %d undelivered %d drops %d misdelivered %d accepted %.3f" % (d["result"], d["packets"], d["undelivered"], d["drops"], d["misdelivered"], d["accepted"])' 2>&1)
	if [ $r = 0 ] && grep -q '^result ok packets [1-9][0-9]* undelivered 0 drops 0 misdelivered 0' <<<"$got"; then
		tap_ok "$name: $got"
	else
		tap_diag "exit $r: $(cat "$tmp/err")"
		tap_fail "$name: exit 0, result ok, nothing undelivered, dropped or misdelivered (got exit $r, $got)"
	fi
}

# refused STATUS MESSAGE ARGS...: exit STATUS, MESSAGE (fixed string) on
# stderr, stdout empty
refused() {
	local want=$1 msg=$2 r
	shift 2
	"$sim" "$@" >"$tmp/o" 2>"$tmp/e" </dev/null
	r=$?
	if [ $r = "$want" ] && grep -qF -- "$msg" "$tmp/e" && [ ! -s "$tmp/o" ]; then
		tap_ok "loom-sim ${*//"$tmp"\//}: exit $want, '$msg'"
	else
		tap_diag "exit $r; stdout: $(head -c 400 "$tmp/o"); stderr: $(cat "$tmp/e")"
		tap_fail "loom-sim $*: exit $want, '$msg'"
	fi
}

# saturation KEY ARGS...: the saturation throughput of 'loom-sim ARGS
# --saturation' (the optimised build where there is one) in sat[KEY],
# printed
declare -A sat
saturation() {
	local key=$1 bin=$sim
	shift
	[ -x "$build/bin/loom-sim" ] && bin=$build/bin/loom-sim
	"$bin" -j "$@" --saturation >"$tmp/sat.json" 2>"$tmp/err"
	sat[$key]=$(sed -n 's/.*"saturation": *\([0-9.]*\).*/\1/p' "$tmp/sat.json")
	[ -n "${sat[$key]}" ] || tap_diag "$key: $(cat "$tmp/err")"
	tap_diag "$key: saturation ${sat[$key]:-none} flits/node/cycle"
}

# sat_check NAME CONDITION: a tap test that the awk CONDITION holds over
# the figures of sat[], sat[dor-uniform] as dor_uniform (0 if missing);
# all of them printed when it does not
sat_check() {
	local k args=() all=
	for k in "${!sat[@]}"; do
		args+=(-v "${k//-/_}=${sat[$k]:-0}")
		all="$all ${k//-/_}=${sat[$k]:-none}"
	done
	if awk "${args[@]}" "BEGIN { exit !($2) }"; then
		tap_ok "$1"
	else
		tap_fail "$1 (${all# })"
	fi
}

# hyperx_hops SIZES TRACE: "HOPS MINIMAL" per trace line (node x + S1 * (y + ...))
hyperx_hops() {
	awk -v sizes="$1" '
		BEGIN { nd = split(sizes, k, "x") }
		{
			s = $1; d = $2; min = 0
			for (i = 1; i <= nd; i++) {
				if (s % k[i] != d % k[i]) min++
				s = int(s / k[i]); d = int(d / k[i])
			}
			print $5, min
		}' "$2"
}
