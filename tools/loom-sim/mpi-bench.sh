#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run time of loom-sim-mpi against the fabric's size and the number of
# ranks (make -C tools/loom-sim mpi-bench): tori of 64 to 4096 crossbar
# routers (3 VCs, one-flit packets, uniform traffic at 0.1, links of 4
# cycles, start VCs by time of crossing, so that the ranks compute their
# own rows of the tables), each with loom-sim and with 1, 2 and 4 ranks:
# wall-clock seconds, CPU seconds of all ranks together, node-cycles per
# wall-clock second, the speed-up over one rank, the largest resident
# memory of a rank (each rank holds the tables of its own routers), and
# the partition's channels cut and work per rank (ports, least..most).  A
# figure, not a test: the machine's cores and load decide it.
#   mpi-bench.sh [BINDIR] [RANKS...]
#   MPI_BENCH_TOPOLOGIES="torus:8x8x8 fattree:16:3" mpi-bench.sh   other fabrics
#   MPI_BENCH_CYCLES=N                                              cycles measured
#   MPI_BENCH_PARTITIONS="topology ids"                  each partition in turn
set -u
bin=${1:-$(dirname "$0")/../../build/bin}
shift || true
ranks=("$@")
[ ${#ranks[@]} -gt 0 ] || ranks=(1 2 4)
if [ ! -x "$bin/loom-sim-mpi" ] || ! command -v mpirun >/dev/null; then
	echo "mpi-bench: $bin/loom-sim-mpi or mpirun missing (make -C tools/loom-sim mpi)" >&2
	exit 1
fi
if [ ! -x /usr/bin/time ]; then
	echo "mpi-bench: /usr/bin/time missing (Debian: time)" >&2
	exit 1
fi
read -r -a topologies <<<"${MPI_BENCH_TOPOLOGIES:-torus:4x4x4 torus:8x8x4 torus:8x8x8 \
torus:16x8x8 torus:16x16x8 torus:16x16x16}"
args=(--router xbar --param VCS=3 --param FLIT_BYTES=64 --packet-flits 1 --load 0.1
      --pattern uniform --seed 1 --warmup 200 --cycles "${MPI_BENCH_CYCLES:-1000}"
      --link-latency 4 --vc-assign crossing --format csv)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "cores $(nproc), load average $(cut -d' ' -f1-3 /proc/loadavg); ${args[*]}"
read -r -a partitions <<<"${MPI_BENCH_PARTITIONS:-topology}"
printf "%-16s %7s %6s %-8s %9s %9s %12s %8s %9s %6s %11s\n" topology routers ranks partition \
	wall-s cpu-s node-cyc/s speedup rank-MiB cut work/rank
# run NP CMD...: every process's wall, user and system seconds and peak
# resident KiB, a line each in $tmp/time
run() {
	local np=$1
	shift
	: >"$tmp/time"
	if [ "$np" = - ]; then
		/usr/bin/time -a -o "$tmp/time" -f "%e %U %S %M" "$@"
	else
		mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl self,vader \
			-np "$np" /usr/bin/time -a -o "$tmp/time" -f "%e %U %S %M" "$@"
	fi
}
for topo in "${topologies[@]}"; do
	one=
	for np in - "${ranks[@]}"; do
	for part in "${partitions[@]}"; do
		[ "$np" != - ] || [ "$part" = "${partitions[0]}" ] || continue
		t0=$(date +%s.%N)
		if [ "$np" = - ]; then
			row=$(run - "$bin/loom-sim" --topology "$topo" "${args[@]}" | tail -1)
		else
			run "$np" "$bin/loom-sim-mpi" --topology "$topo" "${args[@]}" \
				--partition "$part" >/dev/null 2>"$tmp/err"
		fi || { echo "mpi-bench: $topo on $np ranks failed: $(tail -2 "$tmp/err")" >&2
			 exit 1; }
		s=$(echo "$(date +%s.%N) - $t0" | bc -l)
		nodes=$(cut -d, -f2 <<<"$row")
		cycles=$(( $(cut -d, -f12 <<<"$row") + $(cut -d, -f13 <<<"$row") ))
		read -r cpu mib < <(awk '{ c += $2 + $3; if ($4 > m) m = $4 }
					END { printf "%.2f %.1f\n", c, m / 1024 }' "$tmp/time")
		cut=- work=-
		if [ "$np" = - ]; then
			speedup="(loom-sim)"
		else
			[ -n "$one" ] || one=$s
			speedup=$(printf "%.2f" "$(echo "$one / $s" | bc -l)")
			# rank 0's line: "... work per rank A..B ports, C of D channels cut"
			if [[ $(cat "$tmp/err") =~ work\ per\ rank\ ([0-9.]+)\ ports,\ ([0-9]+)\ of ]]; then
				work=${BASH_REMATCH[1]}
				cut=${BASH_REMATCH[2]}
			fi
		fi
		printf "%-16s %7d %6s %-8s %9.2f %9s %12.0f %8s %9s %6s %11s\n" "$topo" "$nodes" \
			"$np" "$( [ "$np" = - ] && echo - || echo "$part")" "$s" "$cpu" \
			"$(echo "$nodes * $cycles / $s" | bc -l)" "$speedup" "$mib" "$cut" "$work"
	done
	done
done
echo "node-cycles: routers x (warmup + measured cycles); wall seconds include mpirun's start;"
echo "cpu-s: all ranks; rank-MiB: the largest peak resident memory of one rank;"
echo "cut: directed channels between ranks; work/rank: ports in use per rank, least..most;"
echo "load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
