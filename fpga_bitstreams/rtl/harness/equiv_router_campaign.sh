#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The router RTL's top (loom_router) steps cycle by cycle against the C
# model's router (router.h) in the Verilated equivalence harness
# (fpga_bitstreams/rtl/harness/equiv_router.cpp): for each configuration
# (the card router, tiled; a 2-D torus router as a crossbar and tiled;
# the bitstream's router; a high-radix tile grid)
# seeds of random traffic, credits, ready and configuration writes are
# equal every cycle, the checked-in regression seeds replay equal, and the
# builds with an off-by-one credit and a mutated arbiter (one build, each
# switched on alone at run time, equal with neither), a Valiant packet
# without its phase flag, a UGAL choice off by one, a DimWAR/OmniWAR
# deroute weighed as a minimal hop, an up-route's round robin modulo
# the network ports instead of its up ports and a multicast packet that
# loses the copy after each copy it routes are caught at
# their first differing cycle with the unit, port, VC, signal, both values
# and a VCD.  TAP output.  LOOM_RTL_EQUIV_CYCLES and LOOM_RTL_EQUIV_SEEDS
# set the cycles a seed and the seeds a configuration (make -C
# fpga_bitstreams rtl-equiv: 2 x 2 * 10^4; rtl-equiv-long: 8 x 10^6).
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
. "$top/tests/lib/tap.sh"
build=${BUILD:-$top/build}
h=$build/rtl/equiv_router
seeds=$top/fpga_bitstreams/rtl/harness/regress-router.seeds
cycles=${LOOM_RTL_EQUIV_CYCLES:-20000}
nseeds=${LOOM_RTL_EQUIV_SEEDS:-2}
configs="card torus torus-tiled ice40 radix16"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$here/equiv_tap.sh"

tap_plan $((5 * (nseeds + 1) + 8))
equiv_require "make -C fpga_bitstreams rtl-equiv-router" \
	"$h-card" "$h-torus" "$h-torus-tiled" "$h-ice40" "$h-radix16" "$h-card-mutate" \
	"$h-torus-mutate-valiant" "$h-torus-mutate-ugal" "$h-torus-mutate-war" "$h-torus-mutate-uproute" \
	"$h-torus-mutate-mcast"

# shellcheck disable=SC2086 # the configurations are words
equiv_router_configs "$h" "$seeds" "$nseeds" "$cycles" $configs
equiv_router_mutants "$h" card "the card router"
equiv_mutant "$h-torus-mutate-valiant" torus-mutate-valiant "$equiv_diff_re" \
	"the torus router sending a packet toward its drawn Valiant intermediate without the phase flag"
equiv_mutant "$h-torus-mutate-ugal" torus-mutate-ugal "$equiv_diff_re" \
	"the torus router whose UGAL choice goes Valiant on a tie"
# the WAR and up-route mutants differ only in rare cases (rtl.rst): seed 1's
# traffic has none within 10^5 cycles, seed 2's has
EQUIV_MUTANT_SEED=2 equiv_mutant "$h-torus-mutate-war" torus-mutate-war "$equiv_diff_re" \
	"the torus router weighing a DimWAR or OmniWAR deroute as a minimal hop (seed 2)"
EQUIV_MUTANT_SEED=2 equiv_mutant "$h-torus-mutate-uproute" torus-mutate-uproute "$equiv_diff_re" \
	"the torus router stepping an up-route's round robin modulo the network ports (seed 2)"
equiv_mutant "$h-torus-mutate-mcast" torus-mutate-mcast "$equiv_diff_re" \
	"the torus router losing the multicast copy after each copy it routes"
tap_done
