#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The router RTL's top (loom_router) steps cycle by cycle against the C
# model's router in the Verilated router-top harness
# (fpga_bitstreams/rtl/harness/equiv_router.cpp), at three of its
# configurations (RTL_EQ_G_* of fpga_bitstreams/rtl/rtl.mk): a 2-D torus
# router (host + 4 network ports, one crossbar), the same on 2 x 3 tiles
# with IWA, matrix and T3E arbiters, and a high-radix tile grid (host + 15
# network ports on 4 x 4 tiles).  For each, two seeds of 10^5 cycles of
# random traffic, credits, ready and configuration writes are equal every
# cycle and the checked-in regression seeds of the configuration replay
# equal; the torus router built with an output unit that holds one credit
# more than the downstream buffer and with round-robin arbiters that keep
# the winner's priority (one build, each mutation switched on alone at run
# time) is caught at its first differing cycle with each, with the unit,
# port, VC, signal, both values, a replay line and a VCD, and with neither
# switched on is equal for 10^4 cycles.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
h=$build/rtl/equiv_router
seeds=$top/fpga_bitstreams/rtl/harness/regress-router.seeds
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$top/fpga_bitstreams/rtl/harness/equiv_tap.sh"

tap_plan 12
equiv_require "make -C fpga_bitstreams rtl-equiv-check" "$h-torus" "$h-torus-tiled" "$h-radix16" \
	"$h-torus-mutate"

equiv_router_configs "$h" "$seeds" 2 100000 torus torus-tiled radix16
equiv_router_mutants "$h" torus "the torus router"
tap_done
