# SPDX-License-Identifier: GPL-2.0
# Bad command lines of a tool in the lab.  Source after tap.sh and lab.sh.
#   lab_usage_errors OUTFILE PROG ARGS...
#       runs PROG in guest 0 once per ARGS word (split on blanks); each must
#       exit 2 with a message starting "PROG: ".  Each that does not is told
#       as a TAP diagnostic (output in OUTFILE).  Returns 0 when all did.
lab_usage_errors() {
	local out=$1 prog=$2 bad=0 args rc

	shift 2
	for args in "$@"; do
		# shellcheck disable=SC2086
		lab_exec 0 $prog $args >"$out" 2>&1
		rc=$?
		if [ $rc != 2 ] || ! grep -q "$prog: " "$out"; then
			tap_diag "'$args' gave exit $rc: $(cat "$out")"
			bad=$((bad + 1))
		fi
	done
	[ $bad = 0 ]
}
