# SPDX-License-Identifier: GPL-2.0
# TAP helpers for loom's shell tests.  Source it; call tap_plan N first.
tap_n=0
tap_failed=0

tap_plan() { echo "1..$1"; }
tap_ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $*"; }
tap_fail() { tap_n=$((tap_n + 1)); tap_failed=$((tap_failed + 1)); echo "not ok $tap_n - $*"; }
tap_skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - $* # SKIP"; }
tap_diag() { sed 's/^/# /' <<<"$*"; }
# tap_check DESCRIPTION COMMAND... : ok if the command succeeds
tap_check() {
	local desc=$1
	shift
	if "$@"; then tap_ok "$desc"; else tap_fail "$desc"; fi
}
# tap_relay FILE: relay another program's TAP as ours: its results
# renumbered and prefixed "guest: ", its plan dropped, the rest as diagnostics
tap_relay() {
	local line
	while IFS= read -r line; do
		case "$line" in
		"ok "*) tap_ok "guest: ${line#ok [0-9]* - }" ;;
		"not ok "*) tap_fail "guest: ${line#not ok [0-9]* - }" ;;
		"1.."*) ;;
		*) tap_diag "$line" ;;
		esac
	done <"$1"
}
tap_done() { [ "$tap_failed" = 0 ] && exit 0; exit 1; }
