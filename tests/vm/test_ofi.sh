#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The libfabric provider "loom" in the VM lab (2 hosts): fi_info -p loom
# describes it; ofi_check exercises its API in one guest (bad arguments,
# messages to itself through the card, truncation, cancel, peek/claim,
# counters, sread, a missing peer, close order); ofi_rma its RMA and
# atomics (every size class byte for byte, fi_writedata, each bad key
# answered by an error completion); ofi_rdv its rendezvous of large
# messages and registration cache; fi_pingpong runs between
# the two hosts over RDM endpoints, tagged and untagged, checking data;
# Open MPI's ofi MTL runs 4 ranks on the 2 hosts over the provider (and
# only over it), every byte checked; then one-sided MPI (osc rdma on the
# ofi BTL, restricted to loom) on the same ranks: windows with put, get,
# accumulate, fence and locks, every byte checked; and loom_osu's one-sided
# benchmarks (put and get latency, put bandwidth: OSU tables, every byte of
# each size's last transfer checked) on 2 ranks, one per host, in a few
# sizes.  The 4-host job and the full benchmarks are
# tests/cluster/test_lab_mpi_ofi.sh (make check-cluster).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"
. "$here/../lib/mpi_rma.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
prov=$build/lib/libfabric
check=$build/tests/vm/ofi/ofi_check
rma=$build/tests/vm/ofi/ofi_rma
rdv=$build/tests/vm/ofi/ofi_rdv
mpi_prog=$build/tests/lab/mpi_loom
rma_prog=$build/tests/lab/mpi_rma
osu=$build/bin/loom_osu

lab_require "$prov/libloom-fi.so" "$check" "$rma" "$rdv" /usr/bin/fi_pingpong /usr/bin/fi_info \
	/usr/bin/mpicc /usr/bin/mpirun
out=$(mktemp -d)
trap 'lab_cleanup; rm -rf "$out"' EXIT
env="FI_PROVIDER_PATH=$prov"

tap_plan 104
mkdir -p "$(dirname "$mpi_prog")"
if mpicc -O2 -Wall -Wextra -Werror -o "$mpi_prog" "$top/tests/lab/mpi_loom.c" 2>"$out/mpicc" &&
   mpicc -O2 -Wall -Wextra -Werror -o "$rma_prog" "$top/tests/lab/mpi_rma.c" 2>>"$out/mpicc" &&
   make -s -C "$top/tools/bench" mpi BUILD="$build" >>"$out/mpicc" 2>&1 && [ -x "$osu" ]; then
	tap_ok "mpicc builds the MPI test programs"
else
	tap_fail "mpicc builds the MPI test programs"
	tap_diag "$(cat "$out/mpicc")"
fi
lab_start_test "lab with 2 hosts starts" --hosts 2
# the bounds on the programs grow with the lab's timeout scale (a debug kernel)
t_prog=$(lab_scaled 120)
t_mpi=$(lab_scaled 300)

lab_exec 0 "$env fi_info -p loom -v" >"$out/info" 2>&1
if grep -q '^ *prov_name: loom$' "$out/info" && grep -q 'type: *FI_EP_RDM' "$out/info" &&
   grep -q 'name: loom0' "$out/info" && grep -q 'caps:.*FI_TAGGED' "$out/info" &&
   grep -q 'msg_order:.*FI_ORDER_SAS' "$out/info"; then
	tap_ok "fi_info -p loom: provider loom, domain loom0, FI_EP_RDM, FI_TAGGED, send-after-send order"
else
	tap_fail "fi_info -p loom: provider loom, domain loom0, FI_EP_RDM, FI_TAGGED, send-after-send order"
	tap_diag "$(head -n 80 "$out/info")"
fi
lab_exec 0 "fi_info -p loom" >"$out/noinfo" 2>&1
tap_check "without FI_PROVIDER_PATH the system's libfabric has no loom provider (fi_info fails)" \
	test $? != 0

lab_exec 0 "$env timeout $t_prog $check" >"$out/check" 2>&1
rc=$?
tap_relay "$out/check"
[ $rc = 0 ] || tap_diag "ofi_check exit status $rc"

lab_exec 0 "$env timeout $t_prog $rma" >"$out/rma" 2>&1
rc=$?
tap_relay "$out/rma"
[ $rc = 0 ] || tap_diag "ofi_rma exit status $rc"

lab_exec 0 "$env timeout $t_prog $rdv" >"$out/rdv" 2>&1
rc=$?
tap_relay "$out/rdv"
[ $rc = 0 ] || tap_diag "ofi_rdv exit status $rc"

# 5 round trips of each size: each reuses the buffers of the one before and
# is checked byte for byte; more add no case, and under TCG each 1 MiB
# round trip costs over a second of both guests' CPU
pp_iters=5
pingpong() { # MODE: server on host 1, client on host 0 (management network)
	lab_exec 1 "$env timeout $t_prog fi_pingpong -p loom -e rdm -m $1 -c -I $pp_iters" >"$out/srv" 2>&1 &
	local srv=$! rc try
	# a loaded guest may take seconds to start the server listening
	for ((try = 0; try < 20; try++)); do
		sleep 1
		lab_exec 0 "$env timeout $t_prog fi_pingpong -p loom -e rdm -m $1 -c -I $pp_iters 10.77.0.2" \
			>"$out/cli" 2>&1
		rc=$?
		grep -q 'failed to connect: Connection refused' "$out/cli" || break
	done
	wait $srv || rc=1
	return $rc
}
for mode in tagged msg; do
	pingpong $mode
	rc=$?
	rows=$(awk -v n=$pp_iters '$2 == n && $3 == "=" n' "$out/cli" | wc -l)
	if [ $rc = 0 ] && [ "$rows" = 6 ] && ! grep -qi 'error' "$out/cli" "$out/srv"; then
		tap_ok "fi_pingpong -p loom -e rdm -m $mode -c between the hosts: 64 B to 1 MiB, data checked"
	else
		tap_fail "fi_pingpong -p loom -e rdm -m $mode -c between the hosts: 64 B to 1 MiB, data checked ($rows rows, rc $rc)"
		tap_diag "client: $(cat "$out/cli")"
		tap_diag "server: $(cat "$out/srv")"
	fi
done

# sshd runs only for a connection (the agent starts it): none on host 1 yet
lab_exec 1 'pgrep -ax sshd' >"$out/sshd-before" 2>&1
sshd_before=$?
# 4 ranks, 2 per host: ranks on one card talk through it too; each guest
# has one vCPU, so a rank that waits yields it to the other
# (mpi_yield_when_idle) rather than spinning through its time slice
yield="--mca mpi_yield_when_idle 1"
lab_exec 0 "timeout $t_mpi mpirun --allow-run-as-root -np 4 --host loom-h0:2,loom-h1:2 $yield \
	--mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include loom -x $env \
	--mca mtl_base_verbose 100 $mpi_prog" >"$out/mpi" 2>&1
rc=$?
provs=$(grep -c 'mtl:ofi:provider: loom0$' "$out/mpi")
if [ $rc = 0 ] && [ "$provs" = 4 ] && grep -q '^PASSED: 4 ranks$' "$out/mpi" && ! grep -q '^FAIL' "$out/mpi"; then
	tap_ok "Open MPI, pml cm + mtl ofi on loom, 4 ranks on 2 hosts: point-to-point and collectives, every byte"
else
	tap_fail "Open MPI, pml cm + mtl ofi on loom, 4 ranks on 2 hosts: point-to-point and collectives, every byte (rc $rc, $provs ranks on loom)"
fi
tap_diag "$(grep -E '^(ok|FAIL|PASSED|FAILED)' "$out/mpi")"
[ $rc = 0 ] || tap_diag "$(grep -v '^\[' "$out/mpi" | tail -n 30)"
lab_exec 1 'cat /run/sshd.log' >"$out/sshd-log" 2>&1
if [ $sshd_before = 1 ] && grep -q '^Accepted publickey for root from 10\.77\.0\.1 ' "$out/sshd-log"; then
	tap_ok "no sshd in a guest until a connection comes; mpirun's ssh from host 0 starts one on host 1"
else
	tap_fail "no sshd in a guest until a connection comes; mpirun's ssh from host 0 starts one on host 1 (pgrep exit $sshd_before)"
	tap_diag "before mpirun: $(cat "$out/sshd-before")"
	tap_diag "host 1's /run/sshd.log: $(cat "$out/sshd-log")"
fi

# one-sided: osc rdma over the ofi BTL, which may only use loom (and self)
lab_exec 0 "timeout $t_mpi mpirun --allow-run-as-root -np 4 --host loom-h0:2,loom-h1:2 $yield \
	--mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include loom \
	--mca osc rdma --mca btl ofi,self --mca btl_ofi_provider_include loom -x $env \
	--mca btl_base_verbose 100 $rma_prog" >"$out/mpirma" 2>&1
rc=$?
btls=$(mpi_rma_btls "$out/mpirma")
if [ $rc = 0 ] && mpi_rma_passed "$out/mpirma" 4; then
	tap_ok "Open MPI one-sided, osc rdma on the ofi BTL over loom, 4 ranks on 2 hosts: put, get, accumulate, fence, locks, every byte"
else
	tap_fail "Open MPI one-sided, osc rdma on the ofi BTL over loom, 4 ranks on 2 hosts (rc $rc, $btls ranks with the ofi BTL)"
	tap_diag "$(grep -v '^ok\|^PASSED' "$out/mpirma" | tail -n 40)"
fi
tap_diag "$(grep -E '^(ok|FAIL|PASSED|FAILED)' "$out/mpirma")"

# loom_osu's one-sided benchmarks, one rank per host, 1 B to 4 KiB
lab_exec 0 "timeout $t_mpi mpirun --allow-run-as-root -np 2 --host loom-h0,loom-h1 \
	--mca pml cm --mca mtl ofi --mca mtl_ofi_provider_include loom \
	--mca osc rdma --mca btl ofi,self --mca btl_ofi_provider_include loom -x $env \
	--mca btl_base_verbose 100 $osu -m 4096 -i 5 -x 1 put get put_bw" >"$out/osu" 2>&1
rc=$?
btls=$(mpi_rma_btls "$out/osu")
grep -v '^\[' "$out/osu" | grep -E '^(#|[0-9]|FAIL)' >"$out/osu.table"
want=$(printf '%s\n' "# OSU MPI_Put Latency Test (loom_osu)" "# OSU MPI_Get latency Test (loom_osu)" \
	"# OSU MPI_Put Bandwidth Test (loom_osu)")
if [ $rc = 0 ] && [ "$btls" = 2 ] && [ "$(grep '^# OSU' "$out/osu.table")" = "$want" ] &&
   [ "$(grep -c '^# Synchronization: MPI_Win_flush$' "$out/osu.table")" = 3 ] &&
   [ "$(awk '/^[0-9]/ && NF == 2' "$out/osu.table" | wc -l)" = 39 ] &&
   ! grep -q '^FAIL' "$out/osu.table"; then
	tap_ok "loom_osu put, get, put_bw over osc rdma on loom, 2 hosts: OSU tables, 1 B to 4 KiB, bytes checked"
else
	tap_fail "loom_osu put, get, put_bw over osc rdma on loom, 2 hosts (rc $rc, $btls ranks with the ofi BTL)"
	tap_diag "$(grep -v '^\[' "$out/osu" | tail -n 40)"
fi
tap_diag "$(cat "$out/osu.table")"

tap_check "guest kernel logs have no oops, BUG or warning" "$LOOM_LAB" check-log --dir "$LAB_DIR"
lab_stop_clean
tap_check "stop leaves nothing behind" test $? = 0
tap_done
