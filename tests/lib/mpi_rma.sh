# SPDX-License-Identifier: GPL-2.0
# The verdict of a one-sided MPI job (tests/lab/mpi_rma.c) run with
# --mca osc rdma --mca btl ofi,self --mca btl_ofi_provider_include loom
# --mca btl_base_verbose 100.
#   mpi_rma_btls FILE        prints how many ranks' ofi BTL came up
#   mpi_rma_passed FILE NP   0 when every one of NP ranks had the ofi BTL
#                            (it may only take loom), the job printed
#                            'PASSED: NP ranks' and no check failed
mpi_rma_btls() {
	grep -c 'select: init of component ofi returned success' "$1"
}

mpi_rma_passed() {
	[ "$(mpi_rma_btls "$1")" = "$2" ] && grep -q "^PASSED: $2 ranks\$" "$1" &&
		! grep -q '^FAIL' "$1"
}
