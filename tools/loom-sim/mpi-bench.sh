#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run time of loom-sim-mpi against the fabric's size and the number of
# ranks (make -C tools/loom-sim mpi-bench): tori of 64 to 512 crossbar
# routers (3 VCs, one-flit packets, uniform traffic at 0.1, links of 4
# cycles), each with loom-sim and with 1, 2 and 4 ranks; wall-clock
# seconds, node-cycles per second and the speed-up over one rank.  A
# figure, not a test: the machine's cores and load decide it.
#   mpi-bench.sh [BINDIR] [RANKS...]
set -u
bin=${1:-$(dirname "$0")/../../build/bin}
shift || true
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2 4)
if [ ! -x "$bin/loom-sim-mpi" ] || ! command -v mpirun >/dev/null; then
	echo "mpi-bench: $bin/loom-sim-mpi or mpirun missing (make -C tools/loom-sim mpi)" >&2
	exit 1
fi
args=(--router xbar --param VCS=3 --param FLIT_BYTES=64 --packet-flits 1 --load 0.1
      --pattern uniform --seed 1 --warmup 200 --cycles 1000 --link-latency 4 --format csv)
now() { date +%s.%N; }
echo "cores $(nproc), load average $(cut -d' ' -f1 /proc/loadavg); ${args[*]}"
printf "%-14s %7s %6s %9s %12s %8s\n" topology routers ranks seconds node-cyc/s speedup
for topo in torus:4x4x4 torus:8x8x2 torus:8x8x4 torus:8x8x8; do
	t0=$(now)
	row=$("$bin/loom-sim" --topology "$topo" "${args[@]}" | tail -1)
	t1=$(now)
	nodes=$(cut -d, -f2 <<<"$row")
	cycles=$(( $(cut -d, -f12 <<<"$row") + $(cut -d, -f13 <<<"$row") ))
	base=$(echo "$t1 - $t0" | bc -l)
	printf "%-14s %7d %6s %9.2f %12.0f %8s\n" "$topo" "$nodes" "-" "$base" \
		"$(echo "$nodes * $cycles / $base" | bc -l)" "(loom-sim)"
	one=
	for np in "${ranks[@]}"; do
		t0=$(now)
		mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl self,vader \
			-np "$np" "$bin/loom-sim-mpi" --topology "$topo" "${args[@]}" >/dev/null 2>&1 ||
			{ echo "mpi-bench: $topo on $np ranks failed" >&2; exit 1; }
		t1=$(now)
		s=$(echo "$t1 - $t0" | bc -l)
		[ -n "$one" ] || one=$s
		printf "%-14s %7d %6d %9.2f %12.0f %8.2f\n" "$topo" "$nodes" "$np" "$s" \
			"$(echo "$nodes * $cycles / $s" | bc -l)" "$(echo "$one / $s" | bc -l)"
	done
done
echo "node-cycles: routers x (warmup + measured cycles); seconds include mpirun's start"
