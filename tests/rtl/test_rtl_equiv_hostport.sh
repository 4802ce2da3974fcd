#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The host port's RTL (loom_host_port) steps cycle by cycle against the C
# model's host port (card/hostport.c) in its Verilated harness
# (fpga_bitstreams/rtl/harness/equiv_hostport.cpp) at the card's host port
# (16-byte flits, buffers of 24 flits) and at 64-byte flits (buffers of 8,
# a header alone one flit, flits that do not divide the reassembly
# buffer): packets of every class and size
# written a word a cycle (now and then refused: no room, another class, a
# payload too long), the router's credits returned after random delays,
# packets ejected on every VC the host port sinks (now and then malformed
# flits, flits beyond its credits, an overlong packet).  Three seeds of
# 10^5 cycles at the card's, two at 64-byte flits and the checked-in
# regression seeds are equal, a bad command
# line is refused with exit 2, and the build whose packets start with one
# credit too few is caught at its first differing cycle with the unit,
# signal, both values, a replay line and a VCD.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
h=$build/rtl/equiv_hostport
seeds=$top/fpga_bitstreams/rtl/harness/regress-hostport.seeds
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$top/fpga_bitstreams/rtl/harness/equiv_tap.sh"

tap_plan 8
equiv_require "make -C fpga_bitstreams rtl-hostport" "$h" "$h-wide" "$h-mutate"
for seed in 1 2 3; do
	equiv_seed "$h" hostport "$seed" 100000
done
for seed in 1 4; do
	equiv_seed "$h-wide" "hostport, 64-byte flits," "$seed" 100000
done
equiv_regress "$h" hostport "$seeds" hostport

equiv_usage "$h"
equiv_mutant "$h-mutate" hostport \
	"cycle [0-9]+: unit loom_host_port .*signal .*: RTL [0-9]+ .*C model [0-9]+" \
	"a host port whose packets start with one credit too few"
tap_done
