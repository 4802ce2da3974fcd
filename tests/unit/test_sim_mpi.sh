#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-sim over MPI ranks (loom-sim-mpi): with 1, 2 and 4 ranks a run is
# the single-process run packet for packet (the trace, every line in
# order) and result for result (the JSON report but its timing), for
# Bernoulli and bursty PUT traffic and for request/response traffic on a
# torus, a mesh and fat trees (one of 64-port switches without a host
# port, fattree:32:2), with the topology partitions (a torus in
# boxes that are not blocks of ids, a fat tree by pods) and with blocks of
# ids; each run over ranks prints its partition; a deadlock is found on the
# same cycle; impossible partitions are named.  Skips without Open MPI.
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/sim.sh"

mpi=$build/bin/loom-sim-mpi
if [ ! -x "$mpi" ] || ! command -v mpirun >/dev/null; then
	echo "1..0 # SKIP loom-sim-mpi or mpirun missing (make -C tools/loom-sim mpi; openmpi-bin)"
	exit 4
fi
# local ranks only, over shared memory, more ranks than cores: a rank that
# waits for its neighbours' boundary yields the CPU (mpi_yield_when_idle)
# rather than spinning through its time slice, which on two loaded cores
# took 4 ranks 27 CPU-seconds instead of 1.5 for the same run
mpirun_np() {
	local np=$1
	shift
	timeout 120 mpirun --allow-run-as-root --oversubscribe --bind-to none \
		--mca btl self,vader --mca mpi_yield_when_idle 1 -np "$np" "$mpi" "$@"
}
same_json() {
	python3 -c '
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    for k in ("seconds", "command", "wait_cycle", "partition"):
        d.pop(k, None)
diff = [k for k in a if a[k] != b.get(k)]
print("identical" if not diff else "differ in " + ", ".join(diff))' "$1" "$2"
}

tap_plan 20
# same NAME NP ARGS...: NP ranks give the single-process run's trace and report
same() {
	local name=$1 np=$2 r got
	shift 2
	"$sim" -j "$@" --trace "$tmp/one.trace" >"$tmp/one.json" 2>"$tmp/one.err"
	mpirun_np "$np" -j "$@" --trace "$tmp/mpi.trace" >"$tmp/mpi.json" 2>"$tmp/mpi.err"
	r=$?
	got="exit $r, report $(same_json "$tmp/mpi.json" "$tmp/one.json" 2>&1), trace"
	if cmp -s "$tmp/mpi.trace" "$tmp/one.trace"; then
		got+=" identical ($(wc -l <"$tmp/one.trace") packets)"
	else
		got+=" differs: $(diff "$tmp/one.trace" "$tmp/mpi.trace" | head -4 | tr '\n' ' ')"
	fi
	if [[ $got =~ ^exit\ [03],\ report\ identical,\ trace\ identical\ \([1-9] ]]; then
		tap_ok "$name, $np ranks: $got"
	else
		tap_diag "$(tail -5 "$tmp/mpi.err")"
		tap_fail "$name, $np ranks: want the single-process run's report and trace, got $got"
	fi
}
# every boundary (each link latency) the ranks exchange: links of 4 cycles keep it quick
put=(--topology torus:4x4 --load 0.3 --seed 7 --warmup 200 --cycles 1200 --link-latency 4)
for np in 1 2 4; do
	same "4x4 torus, uniform 0.3, links of 4 cycles" $np "${put[@]}"
done
# boxes of the torus, a cut along x (not blocks of ids): runs of ids on every rank
box=(--topology torus:8x4 --load 0.3 --seed 5 --warmup 200 --cycles 1000 --link-latency 2)
for np in 2 4; do
	same "8x4 torus in boxes, uniform 0.3, links of 2 cycles" $np "${box[@]}"
done
got=$(head -1 "$tmp/mpi.err")
tap_check "the partition printed: $got" grep -q \
	'^loom-sim: 4 ranks, partition topology (torus boxes 4x1): routers per rank 8..8, work per rank 40..40 ports, 32 of 128 channels cut$' \
	<<<"$got"
got=$(sim_json "$tmp/mpi.json" '"%s %s %d %s %s" % (d["partition"]["kind"], d["partition"]["how"],
	d["partition"]["channels_cut"], d["partition"]["routers_per_rank"],
	d["partition"]["router_cycles_per_rank"][0] > 0)')
tap_check "the report's partition: $got" grep -q '^topology torus boxes 4x1 32 \[8, 8\] True$' \
	<<<"$got"
same "8x4 torus in blocks of ids" 4 "${box[@]}" --partition ids
got=$(head -1 "$tmp/mpi.err")
tap_check "blocks of ids printed: $got" grep -q \
	'^loom-sim: 4 ranks, partition ids (blocks of ids): routers per rank 8..8, .* 64 of 128 channels cut$' \
	<<<"$got"
same "5x3 mesh, on/off 20:60, links of 1 cycle" 2 --topology mesh:5x3 --load 0.2 --burst 20:60 \
	--seed 9 --warmup 100 --cycles 600
for np in 2 4; do
	same "fat tree 4:2 by pods, sizes 3:9,19:1" $np --topology fattree:4:2 --load 0.5 \
		--seed 2 --packet-flits 3:9,19:1 --warmup 200 --cycles 1200 --link-latency 3
done
got=$(head -1 "$tmp/mpi.err")
tap_check "the fat tree's pods printed: $got" grep -q \
	'^loom-sim: 4 ranks, partition topology (fat tree pods of 1 leaves): routers per rank 6..6, work per rank 20..20 ports, 24 of 64 channels cut$' \
	<<<"$got"
# switches of 64 network ports and no host port beside terminals of one network port
same "fat tree 32:2 of 64-port switches, uniform 0.05" 2 --topology fattree:32:2 --router xbar \
	--param VCS=2 --param FLIT_BYTES=64 --packet-flits 1 --load 0.05 --seed 3 --warmup 50 \
	--cycles 150 --link-latency 4
# each router draws its Valiant intermediates from its own LFSR, seeded alike on every rank
same "4x4 mesh, ugal, transpose 0.4" 2 --topology mesh:4x4 --engine ugal --pattern transpose \
	--load 0.4 --seed 3 --warmup 200 --cycles 800
same "4x4 torus, GET with 7-flit responses" 4 --topology torus:4x4 --requests get \
	--response-flits 7 --load 0.3 --seed 4 --warmup 200 --cycles 1200 --link-latency 4
same "merged classes, deadlock" 2 --topology torus:4x4 --requests get --response-flits 19 \
	--load 0.8 --seed 2 --warmup 300 --cycles 1500 --outstanding 16 --response-queue 1 \
	--deadlock-cycles 500 --classes merged --link-latency 4
got=$(sim_json "$tmp/mpi.json" '"%s %d %s" % (d["result"], d["cycles"], d["wait_cycle"])')
tap_check "the deadlock over 2 ranks: $got" \
	grep -q '^deadlock [0-9]* (not followed: the routers are on 2 ranks' <<<"$got"

mpirun_np 4 --topology ring:3 >"$tmp/o" 2>"$tmp/e"
r=$?
tap_check "4 ranks for 3 routers: refused, named ($(head -1 "$tmp/e"))" \
	sh -c "[ $r != 0 ] && grep -q '4 ranks for 3 routers: at most one rank per router' '$tmp/e'"
mpirun_np 2 --link-latency 0 >"$tmp/o" 2>"$tmp/e"
r=$?
tap_check "links of 0 cycles over 2 ranks: refused, named ($(head -1 "$tmp/e"))" \
	sh -c "[ $r != 0 ] && grep -q 'need a link latency of at least 1 cycle' '$tmp/e'"
tap_done
