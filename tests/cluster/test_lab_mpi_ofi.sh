#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Open MPI on loom across 4 lab hosts (torus:2x2) through the libfabric
# provider, with --mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include
# loom: the point-to-point and collective checks of mpi_loom with 4 ranks
# (one per host) and 8 (two per host), every rank on loom (the MTL's
# verbose output names the provider, one line per rank); one-sided MPI
# (mpi_rma: osc rdma on the ofi BTL restricted to loom) with 4 ranks; a
# rank killed
# mid-job ends the job and the next job runs; then the OSU-layout
# benchmarks (loom_osu latency, bw, bibw, allreduce, barrier; put, get and
# put_bw over osc rdma on the ofi BTL) and, on the
# same hosts in the same run, loom_put_lat (poll mode, as the MTL polls)
# and loom_put_bw, and the ratios: MPI 8-byte latency / put latency and
# MPI 1 MiB bandwidth / put bandwidth.  Too long for `make check`.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
. "$here/../lib/mpi_rma.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
prov=$build/lib/libfabric
mpi_prog=$build/tests/lab/mpi_loom
rma_prog=$build/tests/lab/mpi_rma
osu=$build/bin/loom_osu

lab_require "$LOOM_LAB" "$build/bin/loom-card" "$prov/libloom-fi.so" "$top/kmod/loom.ko" \
	/usr/bin/mpicc /usr/bin/mpirun
out=$(mktemp -d)
bg=()
cleanup() {
	for p in "${bg[@]}"; do kill "$p" 2>/dev/null; done
	lab_cleanup
	rm -rf "$out"
}
trap cleanup EXIT
hosts=$(lab_hosts 4)
mpirun="timeout 900 mpirun --allow-run-as-root --mca pml cm --mca mtl ofi \
	--mca mtl_ofi_provider_include loom -x FI_PROVIDER_PATH=$prov --mca mtl_base_verbose 100"

tap_plan 12
mkdir -p "$(dirname "$mpi_prog")"
if mpicc -O2 -Wall -Wextra -Werror -o "$mpi_prog" "$top/tests/lab/mpi_loom.c" 2>"$out/mpicc" &&
   mpicc -O2 -Wall -Wextra -Werror -o "$rma_prog" "$top/tests/lab/mpi_rma.c" 2>>"$out/mpicc" &&
   make -s -C "$top/tools/bench" mpi BUILD="$build" >>"$out/mpicc" 2>&1 && [ -x "$osu" ]; then
	tap_ok "mpicc builds mpi_loom, mpi_rma and loom_osu"
else
	tap_fail "mpicc builds mpi_loom, mpi_rma and loom_osu"
	tap_diag "$(cat "$out/mpicc")"
fi
lab_start_test "torus:2x2: 4 hosts up, loom.ko loaded, management network" --shape torus:2x2
trap cleanup EXIT

on_loom() { # FILE NP: every rank's MTL reports the loom provider
	[ "$(grep -c 'mtl:ofi:provider: loom0$' "$1")" = "$2" ]
}
for spec in "4 $hosts" "8 loom-h0:2,loom-h1:2,loom-h2:2,loom-h3:2"; do
	set -- $spec
	lab_exec 0 "$mpirun -np $1 --host $2 $mpi_prog" >"$out/mpi$1" 2>&1
	rc=$?
	if [ $rc = 0 ] && on_loom "$out/mpi$1" "$1" && grep -q "^PASSED: $1 ranks$" "$out/mpi$1" &&
	   ! grep -q '^FAIL' "$out/mpi$1"; then
		tap_ok "mpi_loom, $1 ranks on 4 hosts, all on loom: point-to-point and collectives, every byte"
	else
		tap_fail "mpi_loom, $1 ranks on 4 hosts, all on loom: point-to-point and collectives, every byte (rc $rc, $(grep -c 'mtl:ofi:provider: loom0$' "$out/mpi$1") ranks on loom)"
		tap_diag "$(grep -v '^\[' "$out/mpi$1" | tail -n 40)"
	fi
	tap_diag "$(grep -E '^(ok|FAIL|PASSED|FAILED)' "$out/mpi$1")"
done

# one-sided: osc rdma over the ofi BTL, which may only use loom (and self)
lab_exec 0 "$mpirun --mca osc rdma --mca btl ofi,self --mca btl_ofi_provider_include loom \
	--mca btl_base_verbose 100 -np 4 --host $hosts $rma_prog" >"$out/rma" 2>&1
rc=$?
btls=$(mpi_rma_btls "$out/rma")
if [ $rc = 0 ] && mpi_rma_passed "$out/rma" 4; then
	tap_ok "mpi_rma, 4 ranks on 4 hosts, osc rdma on the ofi BTL over loom: put, get, accumulate, fence, locks, every byte"
else
	tap_fail "mpi_rma, 4 ranks on 4 hosts, osc rdma on the ofi BTL over loom (rc $rc, $btls ranks with the ofi BTL)"
	tap_diag "$(grep -v '^\[' "$out/rma" | tail -n 40)"
fi
tap_diag "$(grep -E '^(ok|FAIL|PASSED|FAILED)' "$out/rma")"

# a rank killed mid-job: the job ends, the next one runs
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 900 0 -- \
	"$mpirun -np 4 --host $hosts $osu -i 1000000 -x 0 -m 8 latency" >"$out/killed" 2>&1 &
job=$!
bg+=($job)
pid=""
for ((i = 0; i < 120; i++)); do
	sleep 1
	pid=$(lab_exec 1 'pgrep -x loom_osu' | head -n 1)
	[ -n "$pid" ] && break
done
[ -n "$pid" ] && lab_exec 1 "kill -9 $pid"
for ((i = 0; i < 120; i++)); do
	kill -0 $job 2>/dev/null || break
	sleep 1
done
ended=1
kill -0 $job 2>/dev/null && ended=0
left=$(for h in 0 1 2 3; do lab_exec $h 'pgrep -a -x loom_osu; pgrep -a -x orted' | sed "s/^/host $h: /"; done)
lab_exec 0 "$mpirun -np 4 --host $hosts $mpi_prog" >"$out/after" 2>&1
rc=$?
if [ -n "$pid" ] && [ $ended = 1 ] && [ -z "$left" ] && [ $rc = 0 ] && on_loom "$out/after" 4 &&
   grep -q '^PASSED: 4 ranks$' "$out/after"; then
	tap_ok "a rank killed mid-job (pid $pid on loom-h1) ends the job, leaves no rank behind, and the next job runs on loom"
else
	tap_fail "a rank killed mid-job ends the job, leaves no rank behind, and the next job runs on loom (pid '$pid', ended $ended, next rc $rc)"
	tap_diag "$left"
	tap_diag "$(grep -v '^\[' "$out/after" | tail -n 20)"
fi

# ---- benchmarks in the OSU layout, and the ratios to libloom's own
osu_run() { # NAME NP HOSTS ARGS...: beyond exec's 300 s (bw moves 64 MiB per iteration at 1 MiB)
	local name=$1 np=$2 h=$3
	shift 3
	"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 900 0 -- \
		"$mpirun -np $np --host $h $osu $*" >"$out/$name" 2>&1
}
osu_rows() { # FILE: the rows of an OSU table
	awk '/^[0-9]/ && NF == 2' "$1"
}
osu_run lat 2 loom-h0,loom-h1 -i 200 -x 20 -m 65536 latency
osu_run bw 2 loom-h0,loom-h1 -i 2 -x 1 -m 1048576 bw
osu_run bibw 2 loom-h0,loom-h1 -i 2 -x 1 -m 1048576 bibw
osu_run allreduce 4 "$hosts" -i 50 -x 5 -m 65536 allreduce
osu_run barrier 4 "$hosts" -i 100 -x 10 barrier
"$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 900 0 -- \
	"$mpirun --mca osc rdma --mca btl ofi,self --mca btl_ofi_provider_include loom \
	--mca btl_base_verbose 100 -np 2 --host loom-h0,loom-h1 \
	$osu -i 5 -x 1 -m 1048576 put get put_bw" >"$out/rma_osu" 2>&1
rc=$?
grep -v '^\[' "$out/rma_osu" | grep -E '^(#|[0-9 ]|FAIL)' >"$out/rma_osu.table"
tap_diag "$(cat "$out/rma_osu.table")"
if [ $rc = 0 ] && [ "$(mpi_rma_btls "$out/rma_osu")" = 2 ] &&
   [ "$(osu_rows "$out/rma_osu" | wc -l)" = 63 ] &&
   [ "$(grep -c '^# Synchronization: MPI_Win_flush$' "$out/rma_osu")" = 3 ] &&
   ! grep -q '^FAIL' "$out/rma_osu"; then
	tap_ok "loom_osu put, get and put_bw (1 B to 1 MiB, bytes checked) over osc rdma on loom"
else
	tap_fail "loom_osu put, get and put_bw over osc rdma on loom (rc $rc, $(mpi_rma_btls "$out/rma_osu") ranks with the ofi BTL)"
	tap_diag "$(grep -v '^\[' "$out/rma_osu" | tail -n 20)"
fi
for b in lat bw bibw allreduce barrier; do
	grep -v '^\[' "$out/$b" | grep -E '^(#|[0-9 ])' >"$out/$b.table"
	tap_diag "$(cat "$out/$b.table")"
done
if [ "$(osu_rows "$out/lat" | wc -l)" = 18 ] && [ "$(osu_rows "$out/bw" | wc -l)" = 21 ] &&
   [ "$(osu_rows "$out/bibw" | wc -l)" = 21 ] && [ "$(osu_rows "$out/allreduce" | wc -l)" = 15 ] &&
   grep -q '^# Size          Latency (us)$' "$out/lat" &&
   grep -q '^# Size      Bandwidth (MB/s)$' "$out/bw" &&
   grep -q '^# Avg Latency(us)$' "$out/barrier" &&
   awk '/^ *[0-9.]+$/ { v = $1 } END { exit !(v > 0) }' "$out/barrier"; then
	tap_ok "loom_osu latency, bw, bibw, allreduce and barrier print OSU tables over loom"
else
	tap_fail "loom_osu latency, bw, bibw, allreduce and barrier print OSU tables over loom"
	tap_diag "$(tail -n 20 "$out/lat" "$out/bw" "$out/barrier")"
fi
bad_prov=0
for spec in "lat 2" "bw 2" "bibw 2" "allreduce 4" "barrier 4"; do
	set -- $spec
	on_loom "$out/$1" "$2" || { bad_prov=1; tap_diag "$1: not every one of $2 ranks on loom"; }
done
tap_check "every benchmark rank ran on loom" test $bad_prov = 0

# libloom's own put latency (poll mode: the MTL polls too) and bandwidth,
# same hosts; a client that comes before its server's context exists
# fails at once and tries again
put_bench() { # PROGRAM OUTFILE ARGS...
	local prog=$1 file=$2 try s
	shift 2
	for ((try = 0; try < 5; try++)); do
		lab_exec 1 "$prog $*" >"$file.srv" 2>&1 &
		s=$!
		sleep 2
		lab_exec 0 "$prog $* 1" >"$file" 2>&1
		wait $s
		grep -q 'does not exist or is not running' "$file" || break
	done
}
put_bench loom_put_lat "$out/plat" -m poll -n 200 -s 8
put_bench loom_put_bw "$out/pbw" -m poll -n 64 -s 1M
tap_diag "$(cat "$out/plat" "$out/pbw")"
put_lat=$(awk '/^ 8 / { print $6 }' "$out/plat")
put_typ=$(awk '/^ 8 / { print $5 }' "$out/plat")
put_bw=$(awk '/^ 1048576 / { print $4 }' "$out/pbw")
mpi_lat=$(awk '$1 == 8 && NF == 2 { print $2 }' "$out/lat")
mpi_bw=$(awk '$1 == 1048576 && NF == 2 { print $2 }' "$out/bw")
if [ -n "$put_lat" ] && [ -n "$put_bw" ] && [ -n "$mpi_lat" ] && [ -n "$mpi_bw" ]; then
	ratios=$(awk -v a="$mpi_lat" -v b="$put_lat" -v c="$mpi_bw" -v d="$put_bw" -v t="$put_typ" 'BEGIN {
		printf "MPI 8-byte latency %.2f us / loom_put_lat (poll) average %.2f us = %.2fx (goal <= 1.3x)\n", a, b, a / b
		printf "MPI 8-byte latency %.2f us / loom_put_lat (poll) typical %.2f us = %.2fx\n", a, t, a / t
		printf "MPI 1 MiB bandwidth %.2f MB/s / loom_put_bw %.2f MB/s = %.2fx (goal >= 0.8x)", c, d, c / d }')
	tap_ok "the speed ratios are measured"
	tap_diag "$ratios"
	echo "$ratios" | sed 's/^/# ratio: /' >&2
else
	tap_fail "the speed ratios are measured (mpi lat '$mpi_lat', put lat '$put_lat', mpi bw '$mpi_bw', put bw '$put_bw')"
fi

tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
lab_stop_clean
tap_check "stop leaves nothing behind" test $? = 0
tap_done
