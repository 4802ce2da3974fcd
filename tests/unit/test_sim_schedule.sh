#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim's scheduled injection and the card's links from the command
# line (--inject-schedule FILE, --links card): a schedule on torus:4x4
# through the card's link units delivers every packet, measured (latency,
# hops, trace lines with the scheduled cycle as creation); refused where
# the run cannot honour it (no card links, card links without a schedule,
# with a pattern or --replay, --cycles), and bad schedule files name
# file, line, field and what is wrong; usage errors exit 2, the others 1.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/usage_error.sh"
. "$here/../lib/sim.sh"

# every node sends to the node across the torus and to its neighbour, two
# rounds, long and short packets, a response class among them; from cycle
# 100, when the links have trained
{
	echo "# CYCLE NODE DST [FLITS [CLASS]]"
	for r in 0 1; do
		for n in $(seq 0 15); do
			echo "$((100 + r * 40 + n)) $n $(((n + 10) % 16)) 3"
			echo "$((100 + r * 40 + n + 1)) $n $(((n + 1) % 16)) 8 $([ $r = 1 ] && echo resp || echo req)   # inline comment"
		done
	done
} >"$tmp/ok.sched"
want=$(grep -c '^[0-9]' "$tmp/ok.sched")
card=(--topology torus:4x4 --links card --seed 1)

tap_plan 17
delivers "torus:4x4, the card's links, the schedule" "${card[@]}" \
	--inject-schedule "$tmp/ok.sched" --trace "$tmp/trace"
got=$(sim_json "$tmp/d.json" '"packets %d pattern %s latency %.1f hops %.2f" % (d["packets"], d["pattern"], d["latency"]["avg"], d["hops_avg"])' 2>&1)
tap_check "the $want scheduled packets measured, pattern schedule ($got)" \
	grep -q "^packets $want pattern schedule" <<<"$got"
# trace: SRC DST CREATED DELIVERED HOPS LATENCY FLITS TYPE; created is the scheduled cycle
bad=$(awk 'NR == FNR { if ($0 !~ /^[0-9]/) next; sub(/#.*/, ""); k = $2 " " $1; sched[k] = 1; next }
	!(($1 " " $3) in sched) || $6 != $4 - $3 || $6 < 10 || $5 < 1 { b++ } END { print b + 0 }' \
	"$tmp/ok.sched" "$tmp/trace")
lines=$(wc -l <"$tmp/trace")
tap_check "trace: $lines lines (want $want), $bad with a creation that is no scheduled cycle of that source, or a latency not delivered - created or below 10 cycles" \
	test "$lines" = "$want" -a "$bad" = 0
types=$(awk '{ print $8 }' "$tmp/trace" | sort | uniq -c | tr -s ' ' | tr '\n' ',')
both=0
grep -q ' put,' <<<"$types" && grep -q ' get-resp,' <<<"$types" && both=1
tap_check "trace: PUTs and GET responses both delivered ($types)" test $both = 1

refused 2 "--inject-schedule $tmp/ok.sched: needs --links card" --inject-schedule "$tmp/ok.sched"
refused 2 "--links card: the card's links carry scheduled runs only; give --inject-schedule FILE" \
	--links card
refused 2 "--pattern: with --inject-schedule the terminals send the scheduled packets" \
	"${card[@]}" --inject-schedule "$tmp/ok.sched" --pattern tornado
refused 2 "--cycles: a scheduled run measures every scheduled packet" \
	"${card[@]}" --inject-schedule "$tmp/ok.sched" --cycles 100
expect_usage_error "$sim" "--links 'wires': expected lines or card" --links wires

printf '0 0 5\nten 1 2\n' >"$tmp/cycle.sched"
refused 1 "$tmp/cycle.sched:2: field 1 (cycle) 'ten': not a number" \
	"${card[@]}" --inject-schedule "$tmp/cycle.sched"
printf '# header\n\n0 16 5\n' >"$tmp/node.sched"
refused 1 "$tmp/node.sched:3: field 2 (node) '16': beyond 15" \
	"${card[@]}" --inject-schedule "$tmp/node.sched"
printf '0 1 99\n' >"$tmp/dst.sched"
refused 1 "$tmp/dst.sched:1: field 3 (dst) '99': beyond 15" \
	"${card[@]}" --inject-schedule "$tmp/dst.sched"
printf '0 1 2 2\n' >"$tmp/flits.sched"
refused 1 "$tmp/flits.sched:1: field 4 (flits) '2': a packet has 3 to" \
	"${card[@]}" --inject-schedule "$tmp/flits.sched"
printf '0 1 2 3 barrier\n' >"$tmp/class.sched"
refused 1 "$tmp/class.sched:1: field 5 (class) 'barrier': expected req or resp" \
	"${card[@]}" --inject-schedule "$tmp/class.sched"
printf '0 1\n' >"$tmp/short.sched"
refused 1 "$tmp/short.sched:1: 2 fields, expected CYCLE NODE DST [FLITS [CLASS]]" \
	"${card[@]}" --inject-schedule "$tmp/short.sched"
printf '5 1 2\n7 3 2\n4 1 0\n' >"$tmp/order.sched"
refused 1 "$tmp/order.sched:3: field 1 (cycle) '4': node 1's packet of line 1 is at cycle 5: give each node's packets in cycle order" \
	"${card[@]}" --inject-schedule "$tmp/order.sched"
printf '# nothing\n' >"$tmp/empty.sched"
refused 1 "$tmp/empty.sched: no packets" "${card[@]}" --inject-schedule "$tmp/empty.sched"
tap_done
