#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim --validate --quick, the small subset of make validate: the T3E's
# VC balance rows, the BlackWidow permutation contention of the 4-ary
# 3-cube and the zero-load latency of the card router rerun, and every
# row within its criterion; the table prints per row the paper's value,
# loom-sim's and the difference, and the JSON has the same rows; --quick
# alone is refused.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

tap_plan 6
"$sim" --validate --quick >"$tmp/v.txt" 2>"$tmp/err"
rc=$?
tap_diag "$(cat "$tmp/v.txt" "$tmp/err")"
summary=$(tail -n 1 "$tmp/v.txt")
if [ $rc = 0 ] && [[ $summary =~ ^([0-9]+)\ rows,\ 0\ failed$ ]] && [ "${BASH_REMATCH[1]}" -ge 20 ]; then
	tap_ok "--validate --quick: exit 0, $summary"
else
	tap_fail "--validate --quick: exit 0 and '<20 or more> rows, 0 failed' (got exit $rc, '$summary')"
fi
# every judged row: paper, loom-sim, diff, criterion, ok
bad=$(grep -E '^  [0-9a-z]' "$tmp/v.txt" | grep -vE '^  row ' |
	grep -vE ' -?[0-9.]+ +-?[0-9.]+ +[-+][0-9.]+  (exact|\+-[0-9.]+|<= paper) +ok$')
if [ -z "$bad" ]; then
	tap_ok "every row prints paper, loom-sim, difference, criterion and ok"
else
	tap_fail "rows without paper, loom-sim, difference, criterion and ok: $bad"
fi
row() { grep -E "^  $1 " "$tmp/v.txt"; }
got=$(row '8/8 time of crossing avg')
if [[ $got =~ 0\.813\ +0\.8125\ +-0\.0005\ +exact\ +ok$ ]]; then
	tap_ok "T3E Table 1, ring 8: time of crossing 0.8125 against the paper's .813 ($got)"
else
	tap_fail "T3E Table 1, ring 8: want 0.813 0.8125 -0.0005 exact ok, got '$got'"
fi
got=$(row '4-ary 3-cube \(64\) average')
if [[ $got =~ 0\.50\ +0\.500\ .*ok$ ]]; then
	tap_ok "BlackWidow Table 4: the 4-ary 3-cube's average channel load k/8 = 0.5 ($got)"
else
	tap_fail "BlackWidow Table 4: want 0.50 0.500 ... ok for the 4-ary 3-cube, got '$got'"
fi
"$sim" --validate --quick -j >"$tmp/v.json" 2>"$tmp/err"
got=$(sim_json "$tmp/v.json" '"%d %d %d" % (d["total"], d["failed"], sum(1 for r in d["rows"] if r["verdict"] == "ok" and abs(r["loom_sim"] - r["paper"] - r["diff"]) < 1e-5))' 2>&1)
rows=$(grep -oE '^[0-9]+' <<<"$summary")
if [ "$got" = "$rows 0 $rows" ]; then
	tap_ok "-j: $rows rows, none failed, each with paper, loom_sim, diff and verdict ok, as the text"
else
	tap_fail "-j: want '$rows 0 $rows' (total, failed, rows ok with paper, loom_sim, diff), got '$got'"
fi
"$sim" --quick >"$tmp/out" 2>&1
rc=$?
if [ $rc = 2 ] && grep -q -- '--quick without --validate' "$tmp/out"; then
	tap_ok "--quick alone: exit 2, $(head -n 1 "$tmp/out")"
else
	tap_fail "--quick alone: want exit 2 and '--quick without --validate', got exit $rc: $(cat "$tmp/out")"
fi
tap_done
