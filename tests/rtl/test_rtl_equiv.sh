#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The RTL's units (flit FIFOs, credit counters, one of them also as its
# Yosys iCE40 netlist, arbiters of every policy,
# the link's CRC-32C at 1, 6 and 16 bytes a cycle, its go-back-N sender
# and receiver across carrier edges and acknowledgements asked for again,
# its credit return with one VC's grant or every VC's in a cycle, its
# lanes under bit errors and failing
# lanes, its frame encoder and serialiser at 64 and 16 bytes a cycle fed
# the frames of C link units' transmitters under traffic, bit errors and
# narrowing lanes, its receiver's framer at its smallest window and one
# result a cycle and at a window of 1024 bytes and 4 results, fed frames of every
# size with bit errors, cut frames, garbage and false frame starts, idle
# cycles and narrowing lanes, its transmitter's packet assembly fed the
# flits of C link units' routers, made malformed now and then, under
# traffic, bit errors and cut cables, its transmitter's frame builder and
# replay buffer fed the state of C link units' transmitters between their
# parts under traffic, bit errors, maintenance frames and cut cables, its
# receiver's frame checker fed the frames and framing errors C link units
# check, their peers' frames made bad on the wire and sealed with a good
# CRC, and its delivery queue fed the frames C link units accept, their
# routers' inputs not ready now and then) step cycle by cycle
# against the C model's units in the Verilated equivalence harness
# (fpga_bitstreams/rtl/harness): three seeds of 10^5 cycles each and the
# checked-in regression seeds are equal, the generated constants agree
# with the C tables (drift check), a bad command line is refused with exit
# 2, and the mutant build, checked one unit at a time (--units), is
# caught with a mutated arbiter, an off-by-one credit counter, a CRC-32C
# with one polynomial bit flipped, a go-back-N sender whose window takes
# an acknowledgement one past its last frame, a link credit return that
# takes a grant one flit beyond the peer's buffer, a lane unit whose
# error window closes a cycle early, a frame encoder that numbers DATA
# frames one ahead, a framer whose header length check refuses a
# maximal frame, a packet assembly that takes one flit more than a
# header announces, a frame builder whose coalescing deadline is a cycle
# late, a replay buffer that keeps a packet one slot off, a delivery
# queue that drives a packet's tail a flit late and a frame checker whose
# acknowledgement window is one frame off, each at the first
# differing cycle with the unit, signal, both values and a VCD.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
h=$build/rtl/equiv_units
seeds=$top/fpga_bitstreams/rtl/harness/regress.seeds
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$top/fpga_bitstreams/rtl/harness/equiv_tap.sh"

tap_plan 18
equiv_require "make -C fpga_bitstreams rtl-harness" "$h" "$h-mutate"
for seed in 1 2 3; do
	equiv_seed "$h" units "$seed" 100000
done
equiv_regress "$h" units "$seeds" units

# a bad command line: usage, exit 2, the token named
equiv_usage "$h" --units

# the mutants: caught, with unit, signal, both values, a replay line and a VCD
equiv_mutant "$h-mutate" units "cycle [0-9]+: unit arbiter.*signal .*: RTL [0-9]+ .*C model [0-9]+" \
	"a round-robin arbiter that keeps the winner's priority" --units arbiter
equiv_mutant "$h-mutate" units "cycle [0-9]+: unit credit counter.*signal .*: RTL [0-9]+ .*C model [0-9]+" \
	"a credit counter that accepts one return beyond its depth" --units "credit counter"
equiv_mutant "$h-mutate" units "cycle [0-9]+: unit crc32c \(LANES .*signal .*: RTL [0-9]+ .*C model [0-9]+" \
	"a CRC-32C with one polynomial bit flipped" --units crc32c
equiv_mutant "$h-mutate" units "cycle [0-9]+: unit gbn_tx \(.*signal .*: RTL [0-9]+ .*C model [0-9]+" \
	"a go-back-N sender that takes an acknowledgement one past its last frame" --units gbn_tx
equiv_mutant "$h-mutate" units \
	"cycle [0-9]+: unit link_credit \(.*signal upd_ok of VC [0-7] \(link_credit_valid\): RTL 1 .*C model 0" \
	"a link credit return that takes a grant one flit beyond the peer's buffer" --units link_credit
equiv_mutant "$h-mutate" units \
	"cycle [0-9]+: unit lanes \(.*signal win_(age|count) of lane [0-3].*: RTL [0-9]+ .*C model [0-9]+" \
	"a lane unit whose error window closes a cycle early" --units "lanes ("
equiv_mutant "$h-mutate" units \
	"cycle [0-9]+: unit link_xmit_serialise \(.*signal lane_data byte [0-9]+ \(lane [0-3]\): RTL [0-9]+ .*C model [0-9]+" \
	"a frame encoder that numbers DATA frames one ahead" --units link_xmit_serialise
equiv_mutant "$h-mutate" units \
	"cycle [0-9]+: unit link_rx_framer \(RX_WINDOW .*signal (res_n|res_status|held|garbage).*: RTL [0-9]+ .*C model [0-9]+" \
	"a framer whose header length check refuses a maximal frame" --units link_rx_framer
equiv_mutant "$h-mutate" units \
	"cycle [0-9]+: unit link_xmit_assemble \(.*signal .*: RTL [0-9]+ .*C model [0-9]+" \
	"a packet assembly that takes one flit more than its header announces" --units link_xmit_assemble
equiv_mutant "$h-mutate" units \
	"cycle [0-9]+: unit link_xmit_build \(.*signal status_left \(status_deadline - start\): RTL [0-9]+ .*C model [0-9]+" \
	"a frame builder whose coalescing deadline is a cycle late" --units link_xmit_build
equiv_mutant "$h-mutate" units \
	"cycle [0-9]+: unit link_xmit_replay \(.*signal frame_(vc|len|body).*: RTL [0-9]+ .*C model [0-9]+" \
	"a replay buffer that keeps a packet one slot off" --units link_xmit_replay
equiv_mutant "$h-mutate" units \
	"cycle [0-9]+: unit link_recv_deliver \(.*signal (flit_|q_count|room|rx_flit).*: RTL [0-9]+ .*C model [0-9]+" \
	"a delivery queue that drives a packet's tail a flit late" --units link_recv_deliver
equiv_mutant "$h-mutate" units \
	"cycle [0-9]+: unit link_recv \(LANES .*signal .*: RTL [0-9]+ .*C model [0-9]+" \
	"a frame checker whose acknowledgement window is one frame off" \
	--units "link_recv ("
tap_done
