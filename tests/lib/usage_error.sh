# SPDX-License-Identifier: GPL-2.0
# A tool's usage error, without a kernel.  Source after tap.sh.
#   expect_usage_error PROG MESSAGE ARGS...
#       runs PROG ARGS (stdin empty) and reports one TAP result: exit
#       status 2, MESSAGE (a fixed string) on stderr, nothing on stdout;
#       on failure both outputs are shown.
expect_usage_error() {
	local prog=$1 msg=$2 r o e
	shift 2
	o=$(mktemp)
	e=$(mktemp)
	"$prog" "$@" >"$o" 2>"$e" </dev/null
	r=$?
	if [ $r = 2 ] && grep -qF -- "$msg" "$e" && [ ! -s "$o" ]; then
		tap_ok "${prog##*/} $*: exit 2, '$msg'"
	else
		tap_diag "exit $r; stdout: $(cat "$o"); stderr: $(cat "$e")"
		tap_fail "${prog##*/} $*: exit 2, '$msg'"
	fi
	rm -f "$o" "$e"
}
