#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom.ko distrusts its card (Documentation/kmod/trust.rst), in a 1-host
# lab.  The card emulator's register window is altered from the host (its
# memfd) and its admin mailbox made to refuse, lie or answer nonsense (its
# control socket, 'hostile refuse|lie'), one defect at a time:
#  - a card with 200 ports, a doorbell area on top of the firmware-id block,
#    BSU pages on top of the doorbell pages or past the end of the BAR, a
#    multicast group table of 0 groups or more than its block holds:
#    refused at bind with a line naming block, register, value and limit;
#  - the BSU page area changed after probe: a granted unit still maps its
#    own page, not the one the register now names;
#  - a logical id out of range at run time: the card fails (one line), its
#    files answer EIO, and unbind/bind brings it back;
#  - a refused CTX_DISABLE: the card fails, the context stays allocated
#    (an orphan) while the card still runs it, and is freed at unbind;
#  - a CTX_ENABLE executed but answered with an error: the context is
#    disabled before its memory goes;
#  - a result code the interface does not define: the card fails;
#  - a card frozen at unbind (SIGSTOP): the RESET that stops its contexts
#    is never acknowledged, and since the lab's emulator does not see bus
#    mastering go off, the memory of its contexts is kept for good.
# Then rmmod works and the kernel log is clean.  LOOM_MODULE=PATH tests
# another build of loom.ko.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"
. "$here/../../lib/card_regs.sh"

ops=$loom_build/tests/vm/kmod/distrust_ops
if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loom-card" ] || [ ! -x "$ops" ]; then
	echo "1..0 # SKIP loom-lab, loom-card or distrust_ops not built (make -C kmod tests)"
	exit 4
fi
tap_plan 31
lab_start_test "lab with 1 host starts (no module)" --hosts 1 --no-module
if ! card_regs_open 0; then
	tap_fail "the emulator's register memfd is found"
	tap_done
fi

module=${LOOM_MODULE:-kmod/loom.ko}
out=$(lab_exec 0 "insmod $module && basename \$(readlink /sys/class/loom/loom0/device)" 2>&1)
pci=$(tail -n 1 <<<"$out")
tap_diag "$out"
tap_check "loom.ko loads and binds the card ($pci)" test -n "$pci"

# unbind if bound, bind; the driver's lines and whether /dev/loom0 is there
rebind() {
	lab_exec 0 "dmesg -C; d=/sys/bus/pci/drivers/loom; [ -e \$d/$pci ] && echo $pci > \$d/unbind;
		    echo $pci > \$d/bind 2>/dev/null; sleep 0.3; dmesg | grep 'loom 0'; ls /dev/loom0" 2>&1
}
# expect DESCRIPTION PATTERN OUTPUT: the pattern is in the output
expect() {
	tap_diag "$3"
	if grep -qE -- "$2" <<<"$3"; then tap_ok "$1"; else tap_fail "$1"; fi
}
refused() { # description pattern: bind refused with that line
	local o
	o=$(rebind)
	tap_diag "$o"
	if grep -qE -- "$2" <<<"$o" && grep -q 'No such file' <<<"$o"; then
		tap_ok "$1"
	else
		tap_fail "$1"
	fi
}
memory() { lab_exec 0 "cat /sys/kernel/debug/loom/memory" 2>&1 | tr '\n' ' '; }

router=$(card_blk 3)
ports=$(card_blk 4)
ctxb=$(card_blk 5)
db=$(card_blk 6)
bsu=$(card_blk 8)
perf=$(card_blk 14)
mcast=$(card_blk 15)
tap_diag "blocks: ROUTER $router PORTS $ports CTX $ctxb DOORBELL $db BSU $bsu PERF $perf MCAST $mcast"
ctx0_state=$((ctxb + 0x40 + 0x2c))

# ---- geometry refused at bind ------------------------------------------
np=$(card_rd32 $((router + 0x18))) cnt=$(card_rd32 $((ports + 0x10))) psz=$(card_rd32 $((ports + 0xc)))
card_wr32 $((router + 0x18)) 200
card_wr32 $((ports + 0x10)) 200
card_wr32 $((ports + 0xc)) $((0x40 + 200 * 0x40))
refused "a card with 200 ports is refused: N_PORTS, its value and the limit 8" \
	'block ROUTER register N_PORTS \(offset 0x98\) reads 200 \(0xc8\), limit: at most 8'
card_wr32 $((router + 0x18)) "$np"
card_wr32 $((ports + 0x10)) "$cnt"
card_wr32 $((ports + 0xc)) "$psz"

area=$(card_rd32 $((db + 0x10)))
card_wr32 $((db + 0x10)) 0
refused "doorbell pages on top of the firmware-id block are refused" \
	'block DOORBELL register AREA .* reads 0 \(0x0\), limit: \[0x0, 0x40000\) apart from block FWID at \[0x0, 0x40\)'
card_wr32 $((db + 0x10)) "$area"

barea=$(card_rd32 $((bsu + 0x14)))
card_wr32 $((bsu + 0x14)) "$area"
refused "BSU pages on top of the doorbell pages are refused" \
	'block BSU register PAGE_AREA .* apart from block DOORBELL at'
card_wr32 $((bsu + 0x14)) $((0x100000 - 0x1000))
refused "BSU pages past the end of the BAR are refused" \
	'block BSU register PAGE_AREA .* reads 1044480 .*inside the 0x100000-byte register space'
card_wr32 $((bsu + 0x14)) "$barea"

pvcs=$(card_rd32 $((perf + 0x14))) phost=$(card_rd32 $((perf + 0x1c)))
card_wr32 $((perf + 0x14)) 9
refused "PERF with 9 VCs per port is refused: N_VCS, its value and the limit 1..8" \
	"block PERF register N_VCS \\(offset $(printf '%#x' $((perf + 0x14)))\\) reads 9 \\(0x9\\), limit: 1..8"
card_wr32 $((perf + 0x14)) "$pvcs"
card_wr32 $((perf + 0x1c)) 0
refused "PERF naming network port 0 the host port is refused: HOST_PORT, its value and the limit" \
	"block PERF register HOST_PORT .* reads 0 \\(0x0\\), limit: exactly $phost \\(the last record\\)"
card_wr32 $((perf + 0x1c)) "$phost"

ngroups=$(card_rd32 $((mcast + 0x10))) msize=$(card_rd32 $((mcast + 0xc)))
fit=$(((msize - 0x40) / 8))
card_wr32 $((mcast + 0x10)) 0
refused "MCAST with 0 groups is refused: N_GROUPS, its value and the limit" \
	"block MCAST register N_GROUPS \\(offset $(printf '%#x' $((mcast + 0x10)))\\) reads 0 \\(0x0\\), limit: 1..$fit "
card_wr32 $((mcast + 0x10)) $((fit + 1))
refused "MCAST with more groups than its block holds is refused, naming the block's size" \
	"block MCAST register N_GROUPS .* reads $((fit + 1)) .*the $fit entries the $(printf '%#x' "$msize")-byte block holds"
card_wr32 $((mcast + 0x10)) "$ngroups"

expect "with the window restored the card binds" 'loom0: lab back end' "$(rebind)"

# ---- the BSU page area changes after probe -----------------------------
card_wr32 $((bsu + 0x14)) 0
out=$(lab_exec 0 "$ops bsu-page /dev/loom0" 2>&1)
card_wr32 $((bsu + 0x14)) "$barea"
expect "BSU page area changed to 0 after probe: unit 0 still maps its own page (STATE 1, not the FWID signature)" \
	'^state=1 word10=0$' "$out"

# ---- a value out of range at run time fails the card --------------------
lid=$(card_rd32 $((router + 0x14)))
card_wr32 $((router + 0x14)) 5000
out=$(lab_exec 0 "dmesg -C; $ops info /dev/loom0; $ops info /dev/loom0; dmesg | grep 'loom 0'" 2>&1)
card_wr32 $((router + 0x14)) "$lid"
expect "LOGICAL_ID 5000 at run time: EIO and one line naming register, value and limit" \
	'card failed: block ROUTER register LOGICAL_ID \(offset 0x94\) reads 5000 \(0x1388\), limit: below 1024' "$out"
expect "after the failure the card is not used: the next open answers ENODEV or EIO" \
	'^(open=-19|info=-5)$' "$(grep -E '^(open|info)=' <<<"$out" | sed -n 2p)"
out=$(lab_exec 0 "loomctl dev show dev loom0" 2>&1)
expect "netlink says the card failed" 'failed' "$out"
rebind >/dev/null
expect "unbind and bind bring the card back" '^info=0 ' "$(lab_exec 0 "$ops info /dev/loom0" 2>&1)"

# ---- a refused CTX_DISABLE: the context is kept -------------------------
expect "control socket: the next CTX_DISABLE is refused with BUSY" '^ok ' \
	"$(card_ctl 0 'hostile refuse ctx_disable 5')"
out=$(lab_exec 0 "dmesg -C; $ops destroy /dev/loom0; dmesg | grep 'loom 0';
		  cat /sys/kernel/debug/loom/loom0/contexts /sys/kernel/debug/loom/memory" 2>&1)
expect "a refused CTX_DISABLE answers EIO and fails the card" \
	'create=0 index=0 destroy=-5' "$out"
expect "... with one line: RESULT 5, CTX_DISABLE(0) cannot be refused" \
	'card failed: block ADMIN register RESULT .* reads 5 \(0x5\), limit: 0 \(LOOM_ADMIN_E_OK\): CTX_DISABLE\(0\) cannot be refused' "$out"
st=$(card_rd32 "$ctx0_state")
tap_diag "card: context 0 STATE $st"
expect "the context the card still runs (STATE $st) stays allocated after close: an orphan" \
	'ctx 0 \(orphan.*contexts 1 dma_bytes [1-9]' "$(tr '\n' ' ' <<<"$out")"
rebind >/dev/null
expect "unbind frees it: no context, no DMA memory left" 'contexts 0 dma_bytes 0 ' "$(memory)"

# ---- CTX_ENABLE executed but answered with an error ---------------------
card_ctl 0 'hostile lie ctx_enable 4' >/dev/null
out=$(lab_exec 0 "$ops create /dev/loom0; cat /sys/kernel/debug/loom/memory" 2>&1)
st=$(card_rd32 "$ctx0_state")
expect "an enable answered BUSY answers EIO" '^create=-5 ' "$out"
tap_diag "card: context 0 STATE $st"
tap_check "... and the driver disabled the context the card had enabled before freeing it (STATE $st)" \
	test "$st" = 0
expect "... and freed it" 'contexts 0 dma_bytes 0' "$(tr '\n' ' ' <<<"$out")"

# ---- a result code the interface does not define ------------------------
card_ctl 0 'hostile refuse ctx_enable 77' >/dev/null
out=$(lab_exec 0 "dmesg -C; $ops create /dev/loom0; dmesg | grep 'loom 0'" 2>&1)
expect "an undefined result code fails the card" \
	'card failed: block ADMIN register RESULT .* reads 77 \(0x4d\), limit: 0..6 \(LOOM_ADMIN_E_\*\), the answer to CTX_ENABLE\(0\)' "$out"
rebind >/dev/null
expect "unbind of the failed card frees what it kept" 'contexts 0 dma_bytes 0 ' "$(memory)"

# ---- a card that does not answer at unbind: its memory is kept ----------
hold=$loom_build/tests/vm/kmod/hold_ctx
card=$("$LOOM_LAB" status --dir "$LAB_DIR" | sed -n 's/^card 0: loom-card pid \([0-9]*\).*/\1/p')
out=$(lab_exec 0 "dmesg -C; (HOLD_MR=64 $hold poll /dev/loom0 > /tmp/hold.out 2>&1 &); sleep 2;
		  cat /tmp/hold.out /sys/kernel/debug/loom/memory" 2>&1)
tap_diag "$out"
kill -STOP "$card"
out=$(lab_exec 0 "echo $pci > /sys/bus/pci/drivers/loom/unbind; sleep 1; cat /tmp/hold.out;
		  cat /sys/kernel/debug/loom/memory; dmesg | grep 'loom 0'" 2>&1)
kill -CONT "$card"
expect "a card frozen at unbind: after five RESETs unanswered, one line keeps its context's memory" \
	'keeping the memory of 1 contexts \([0-9]+ bytes\) for good' "$out"
kept=$(sed -n 's/.*keeping the memory of 1 contexts (\([0-9]*\) bytes).*/\1/p' <<<"$out")
# its rings, segment and counters page and the region's page lists are
# unmapped (the device's mappings end with its binding) but never freed,
# and the region's 16 pages stay pinned
expect "... the holder got POLLERR; its memory is unmapped and kept ($kept bytes), its region pinned" \
	"POLLERR.*contexts 1 dma_bytes 0 memory_regions 1 mr_pinned_pages 16 kept_bytes ${kept:-x} " \
	"$(tr '\n' ' ' <<<"$out")"
expect "... and stays so once the card answers again" \
	"contexts 1 dma_bytes 0 memory_regions 1 mr_pinned_pages 16 kept_bytes ${kept:-x} " "$(memory)"

out=$(lab_exec 0 "rmmod loom && echo unloaded" 2>&1)
expect "rmmod works" 'unloaded' "$out"
if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel log has no oops, BUG or warning"
else
	tap_fail "guest kernel log has no oops, BUG or warning"
fi
tap_done
