#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom.ko lifetime in a 1-host lab: processes hold contexts (all regions
# mapped) while the PCI device is unbound through sysfs; each must get its
# answer (ioctl -> EIO, poll -> POLLERR|POLLHUP, access -> SIGBUS; threads
# churning contexts -> EIO or SIGBUS) instead of hanging.  The DMA memory
# of a context that a live process still holds and maps is freed by the
# unbind itself (debugfs loom/memory), and the process's next access gets
# SIGBUS instead of reaching the freed pages.  Then: rebind,
# rmmod refused while a file is open, rmmod and insmod again, the card
# works; the removal racing the users' mappings; no memory leaked over
# UNBIND_LEAK_ROUNDS unbinds (default 6; make check-debug 20); and the guest
# kernel log stays clean.
#
# The race: the guest has 2 vCPUs and a fully preemptible kernel
# (preempt=full, unless LOOM_LAB_APPEND chooses a preemption model), so
# that the zap of every mapping at unbind runs truly at the same time as
# munmap() and page faults.  Three map_race processes (4 threads each)
# map, touch and unmap every region of a context without pause while the
# card is unbound and bound again, 0.2 to 1 s apart, for MAP_RACE_SECONDS
# (default 5; make check-debug 30) and at least MAP_RACE_CYCLES times (default 3;
# make check-debug 5); every racer must see removals and
# meet no error other than the card going (EIO, SIGBUS), and the final log
# check catches any WARN or BUG the race provoked.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../lib/tap.sh"
. "$here/../../lib/lab.sh"

g=$loom_build/tests/vm/kmod
race_secs=${MAP_RACE_SECONDS:-5}
race_cycles=${MAP_RACE_CYCLES:-3}
leak_rounds=${UNBIND_LEAK_ROUNDS:-6}
# a 4 MiB segment leaked on either path (every other round) loses
# 2 MiB per round on average; the noise of a clean run is below 1 MiB
leak_limit_kib=$((leak_rounds * 1024 + 2048))
if [ ! -x "$LOOM_LAB" ] || [ ! -x "$loom_build/bin/loom-card" ]; then
	echo "1..0 # SKIP loom-lab or loom-card not built"
	exit 4
fi
tap_plan 25
if [ ! -x "$g/hold_ctx" ] || [ ! -x "$g/map_race" ]; then
	tap_fail "guest programs $g/hold_ctx and map_race exist (run: make vm-tests)"
	tap_done
fi
out=$("$LOOM_LAB" start --dir "$(mktemp -u /tmp/loom-cpus.XXXXXX)" --cpus 5 2>&1)
rc=$?
tap_diag "$out"
if [ $rc = 2 ] && grep -q -- '--cpus 5: expected a whole number from 1 to 4' <<<"$out"; then
	tap_ok "loom-lab start --cpus 5 is refused (exit 2) with the range"
else
	tap_fail "loom-lab start --cpus 5 is refused (exit 2) with the range (exit $rc)"
fi
append=${LOOM_LAB_APPEND:-}
[[ " $append" == *" preempt="* ]] || append="${append:+$append }preempt=full"
lab_start_test "lab with 1 host of 2 vCPUs ($append) starts and loads loom.ko" \
	--hosts 1 --cpus 2 --append "$append"

# guest helper: the PCI address of loom0
bdf='$(basename "$(readlink /sys/class/loom/loom0/device)")'

out=$(lab_exec 0 "rm -f /tmp/hold.*; for m in ioctl poll touch churn; do
	setsid $g/hold_ctx \$m </dev/null >/tmp/hold.\$m 2>&1 & done
	for i in \$(seq 150); do
		[ \"\$(cat /tmp/hold.* | grep -c ready)\" = 4 ] && break; sleep 0.2; done
	cat /tmp/hold.*; echo bdf=$bdf" 2>&1)
tap_diag "$out"
if [ "$(grep -c ': ready' <<<"$out")" = 4 ]; then
	tap_ok "four processes hold mapped contexts (one churning them in 4 threads)"
else
	tap_fail "four processes hold mapped contexts (one churning them in 4 threads)"
fi
dev=$(sed -n 's/^bdf=//p' <<<"$out")

if "$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- "echo $dev > /sys/bus/pci/drivers/loom/unbind"; then
	tap_ok "unbind of $dev returns while files are open"
else
	tap_fail "unbind of $dev returns while files are open"
fi

out=$(lab_exec 0 "for i in \$(seq 100); do pgrep -x hold_ctx >/dev/null || break; sleep 0.2; done
	pgrep -x hold_ctx >/dev/null && echo STILL-RUNNING; cat /tmp/hold.*; ls /dev/loom0 2>&1" 2>&1)
tap_diag "$out"
if grep -q STILL-RUNNING <<<"$out"; then
	tap_fail "every holder finished within 20 s of the unbind"
else
	tap_ok "every holder finished within 20 s of the unbind"
fi
if grep -q '^ioctl: EIO' <<<"$out"; then tap_ok "ioctl after unbind: EIO"
else tap_fail "ioctl after unbind: EIO"; fi
if grep -q '^poll: POLLERR POLLHUP' <<<"$out"; then tap_ok "poll after unbind: POLLERR|POLLHUP"
else tap_fail "poll after unbind: POLLERR|POLLHUP"; fi
if grep -q '^touch: SIGBUS' <<<"$out"; then tap_ok "access to a mapped segment after unbind: SIGBUS"
else tap_fail "access to a mapped segment after unbind: SIGBUS"; fi
if grep -qE '^churn: (EIO|SIGBUS)' <<<"$out"; then tap_ok "threads creating, mapping and destroying contexts: EIO or SIGBUS"
else tap_fail "threads creating, mapping and destroying contexts: EIO or SIGBUS"; fi
if grep -q 'No such file' <<<"$out"; then tap_ok "/dev/loom0 is gone after unbind"
else tap_fail "/dev/loom0 is gone after unbind"; fi

out=$(lab_exec 0 "echo $dev > /sys/bus/pci/drivers/loom/bind && $g/hold_ctx info" 2>&1)
tap_diag "$out"
if grep -q '^info: node' <<<"$out"; then tap_ok "rebind: the card answers DEV_INFO again"
else tap_fail "rebind: the card answers DEV_INFO again"; fi

out=$(lab_exec 0 "sleep 60 </dev/loom0 & p=\$!; sleep 0.5
	if rmmod loom 2>&1; then echo RMMOD-OK; fi; kill \$p; wait \$p 2>/dev/null
	rmmod loom && echo RMMOD-AFTER-CLOSE-OK" 2>&1)
tap_diag "$out"
if ! grep -q '^RMMOD-OK' <<<"$out" && grep -q 'in use' <<<"$out"; then
	tap_ok "rmmod is refused while /dev/loom0 is open"
else
	tap_fail "rmmod is refused while /dev/loom0 is open"
fi
if grep -q RMMOD-AFTER-CLOSE-OK <<<"$out"; then tap_ok "rmmod succeeds once it is closed"
else tap_fail "rmmod succeeds once it is closed"; fi

out=$(lab_exec 0 "insmod kmod/loom.ko && for i in \$(seq 50); do [ -e /dev/loom0 ] && break; sleep 0.1; done; $g/hold_ctx info" 2>&1)
tap_diag "$out"
if grep -q '^info: node' <<<"$out"; then tap_ok "insmod again: the card works"
else tap_fail "insmod again: the card works"; fi

out=$("$LOOM_LAB" exec --dir "$LAB_DIR" --timeout "$(lab_scaled $((race_secs + 240)))" 0 -- "
	g=$g; secs=$race_secs; rm -f /tmp/race.*; echo cpus=\$(nproc)
	d=\$(basename \$(readlink /sys/class/loom/loom0/device))
	pids=
	for i in 1 2 3; do
		setsid \$g/map_race $(lab_scaled 1200) </dev/null >/tmp/race.\$i 2>&1 &
		pids=\"\$pids \$!\"
	done
	for i in \$(seq 100); do
		[ \"\$(cat /tmp/race.* | grep -c ready)\" = 3 ] && break; sleep 0.1
	done
	end=\$((\$(date +%s) + secs)); cycles=0
	while [ \$cycles -lt $race_cycles ] || [ \$(date +%s) -lt \$end ]; do
		sleep 0.\$((RANDOM % 9 + 2))
		t0=\$(date +%s%N)
		echo \$d > /sys/bus/pci/drivers/loom/unbind || { echo UNBIND-FAILED; break; }
		echo \"unbind \$cycles took \$(((\$(date +%s%N) - t0) / 1000000)) ms\"
		sleep 0.\$((RANDOM % 9 + 2))
		echo \$d > /sys/bus/pci/drivers/loom/bind || { echo BIND-FAILED; break; }
		for i in \$(seq 100); do [ -e /dev/loom0 ] && break; sleep 0.05; done
		cycles=\$((cycles + 1))
	done
	echo cycles=\$cycles
	kill -TERM \$pids
	for i in \$(seq $(lab_scaled 600)); do pgrep -x map_race >/dev/null || break; sleep 0.2; done
	pgrep -x map_race >/dev/null && echo STILL-RUNNING
	cat /tmp/race.*" 2>&1)
tap_diag "$out"
if grep -q '^cpus=2$' <<<"$out"; then tap_ok "the guest has the 2 vCPUs of --cpus 2"
else tap_fail "the guest has the 2 vCPUs of --cpus 2 ($(grep '^cpus=' <<<"$out"))"; fi
cycles=$(sed -n 's/^cycles=//p' <<<"$out")
if [ -n "$cycles" ] && [ "$cycles" -ge "$race_cycles" ] && ! grep -qE 'UNBIND-FAILED|BIND-FAILED' <<<"$out"; then
	tap_ok "race: the card was unbound and bound again $cycles times under the racers"
else
	tap_fail "race: the card was unbound and bound again at least $race_cycles times under the racers (cycles=${cycles:-none})"
fi
good=$(grep -cE '^map_race: [0-9]+ rounds, [1-9][0-9]* maps, [0-9]+ SIGBUS caught, [1-9][0-9]* removals seen, 0 unexpected$' <<<"$out")
if [ "$good" = 3 ] && ! grep -q STILL-RUNNING <<<"$out"; then
	tap_ok "race: each of 3 racers mapped, saw the card go and come back, and met nothing unexpected"
else
	tap_fail "race: each of 3 racers mapped, saw the card go and come back, and met nothing unexpected ($good of 3 did)"
fi

# unbinds under a context with a 4 MiB segment, mapped (freed when the
# process has died of SIGBUS) or not (freed by the unbind itself): a leak
# on either path loses 4 MiB every other round, which MemAvailable shows
out=$(lab_exec 0 "g=$g; d=\$(basename \$(readlink /sys/class/loom/loom0/device)); i=0
	avail() { sed -n 's/^MemAvailable: *\\([0-9]*\\) kB/\\1/p' /proc/meminfo; }
	before=\$(avail)
	while [ \$i -lt $leak_rounds ]; do
		if [ \$((i % 2)) = 0 ]; then m=touch; else m=ioctl; fi
		HOLD_SEG_SIZE=4194304 HOLD_NO_MAP=1 \$g/hold_ctx \$m >/tmp/leak.out 2>&1 & p=\$!
		while kill -0 \$p 2>/dev/null && ! grep -q ready /tmp/leak.out; do sleep 0.05; done
		grep -q ready /tmp/leak.out || { echo \"round \$i:\"; cat /tmp/leak.out; break; }
		echo \$d > /sys/bus/pci/drivers/loom/unbind; wait \$p
		echo \$d > /sys/bus/pci/drivers/loom/bind; i=\$((i + 1))
	done
	echo rounds=\$i lost_kib=\$((before - \$(avail)))" 2>&1)
tap_diag "$out"
lost=$(sed -n 's/.*lost_kib=\(-*[0-9]*\).*/\1/p' <<<"$out")
if grep -q "^rounds=$leak_rounds " <<<"$out" && [ -n "$lost" ] && [ "$lost" -lt "$leak_limit_kib" ]; then
	tap_ok "$leak_rounds unbinds under a 4 MiB context (mapped or not) leak no memory (lost $lost KiB, limit $leak_limit_kib)"
else
	tap_fail "$leak_rounds unbinds under a 4 MiB context (mapped or not) leak no memory (lost ${lost:-?} KiB, limit $leak_limit_kib)"
fi

# the device's DMA memory does not outlive its binding: a process that holds
# a context with every region mapped (and faulted in) keeps its file open
# across the unbind; the memory is freed all the same, and the process's
# next access faults (SIGBUS) instead of reaching the freed pages
out=$(lab_exec 0 "g=$g; d=\$(basename \$(readlink /sys/class/loom/loom0/device))
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	dma() { sed -n 's/^dma_bytes //p' /sys/kernel/debug/loom/memory; }
	HOLD_SEG_SIZE=1048576 \$g/hold_ctx hold >/tmp/held.out 2>&1 & p=\$!
	while kill -0 \$p 2>/dev/null && ! grep -q ready /tmp/held.out; do sleep 0.05; done
	echo before=\$(dma)
	echo \$d > /sys/bus/pci/drivers/loom/unbind
	echo after=\$(dma) holder=\$(kill -0 \$p 2>/dev/null && echo alive || echo gone)
	ls -l /proc/\$p/fd 2>/dev/null | grep -c loom | sed 's/^/open_files=/'
	kill -USR1 \$p; wait \$p; echo rc=\$?; cat /tmp/held.out
	echo \$d > /sys/bus/pci/drivers/loom/bind" 2>&1)
tap_diag "$out"
before=$(sed -n 's/^before=//p' <<<"$out")
after=$(sed -n 's/^after=\([0-9]*\) .*/\1/p' <<<"$out")
if grep -q 'holder=alive' <<<"$out" && grep -q '^open_files=1' <<<"$out" &&
	[ -n "$before" ] && [ "$before" -ge 1048576 ] && [ "$after" = 0 ]; then
	tap_ok "unbind frees the DMA memory of a context a live process holds mapped ($before bytes -> $after)"
else
	tap_fail "unbind frees the DMA memory of a context a live process holds mapped (dma_bytes before '${before}', after '${after}', holder $(grep -o 'holder=[a-z]*' <<<"$out"), $(grep '^open_files=' <<<"$out"))"
fi
if grep -q '^hold: SIGBUS' <<<"$out" && grep -q '^rc=0' <<<"$out"; then
	tap_ok "that process's next access to its mappings: SIGBUS"
else
	tap_fail "that process's next access to its mappings: SIGBUS ($(grep '^hold: ' <<<"$out" | tail -n 1))"
fi

# an unbind while a CTX_CREATE waits for its CTX_ENABLE: the card is frozen
# (SIGSTOP of its emulator) until the creator and the unbind both wait,
# then answers.  The unbind returns, the creator gets EIO, and the
# context's memory is gone when the unbind returns: the creation ends
# (its context an orphan or freed) before removal frees context memory,
# never after it with the device already unbound
card=$("$LOOM_LAB" status --dir "$LAB_DIR" | sed -n 's/^card 0: loom-card pid \([0-9]*\).*/\1/p')
settle=$(lab_scaled 1)
lab_exec 0 "mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	p=/sys/module/loom/parameters/admin_timeout_ms; cat \$p >/tmp/unbind.admin_ms
	echo $(lab_scaled 60000) > \$p" >/dev/null 2>&1
[ -n "$card" ] && kill -STOP "$card"
out=$("$LOOM_LAB" exec --dir "$LAB_DIR" --timeout 60 0 -- 'g='"$g"'; s='"$settle"'
	d=$(basename $(readlink /sys/class/loom/loom0/device)); echo $d >/tmp/unbind.bdf
	rm -f /tmp/creating /tmp/unbinding
	setsid $g/hold_ctx ioctl </dev/null >/tmp/creating 2>&1 & p=$!
	# one read per look: the wait wakes every slice to poll the card, so a
	# second read may find the creator running (wchan 0) for a moment
	for i in $(seq 300); do
		w=$(cat /proc/$p/wchan); case $w in loom_admin*) break ;; esac; sleep 0.1
	done
	echo "creator sleeps in $w"
	grep -q . /tmp/creating || echo "create waiting"
	(echo $d > /sys/bus/pci/drivers/loom/unbind; echo unbind_rc=$?
	 sed -n "s/^\(contexts\|dma_bytes\) /\1=/p" /sys/kernel/debug/loom/memory
	) </dev/null >/tmp/unbinding 2>&1 &
	sleep $s
	grep -q . /tmp/unbinding || echo "unbind waiting"' 2>&1)
[ -n "$card" ] && kill -CONT "$card"
out="card pid ${card:-none}
$out
$(lab_exec 0 'for i in $(seq '"$(lab_scaled 600)"'); do grep -q "^dma_bytes=" /tmp/unbinding && break; sleep 0.2; done
	for i in $(seq 50); do pgrep -x hold_ctx >/dev/null || break; sleep 0.2; done
	cat /tmp/unbinding /tmp/creating
	cat /tmp/unbind.admin_ms > /sys/module/loom/parameters/admin_timeout_ms
	echo $(cat /tmp/unbind.bdf) > /sys/bus/pci/drivers/loom/bind
	for i in $(seq 50); do [ -e /dev/loom0 ] && break; sleep 0.1; done; ls /dev/loom0' 2>&1)"
tap_diag "$out"
if grep -q '^creator sleeps in loom_admin' <<<"$out" && grep -qx 'create waiting' <<<"$out" &&
	grep -qx 'unbind waiting' <<<"$out" &&
	grep -qx 'unbind_rc=0' <<<"$out"; then
	tap_ok "an unbind while CTX_CREATE waits for the frozen card's CTX_ENABLE returns once the card answers"
else
	tap_fail "an unbind while CTX_CREATE waits for the frozen card's CTX_ENABLE returns once the card answers ($(grep -E 'sleeps in|waiting|unbind_rc' <<<"$out" | tr '\n' ' '))"
fi
if grep -q '^ioctl: CTX_CREATE: Input/output error' <<<"$out"; then
	tap_ok "that CTX_CREATE answers EIO"
else
	tap_fail "that CTX_CREATE answers EIO ($(grep '^ioctl: ' <<<"$out"))"
fi
if grep -qx 'contexts=0' <<<"$out" && grep -qx 'dma_bytes=0' <<<"$out"; then
	tap_ok "the waiting context's memory is freed by the time the unbind returns"
else
	tap_fail "the waiting context's memory is freed by the time the unbind returns (debugfs loom/memory then: $(grep -E '^(contexts|dma_bytes)=' <<<"$out" | tr '\n' ' '))"
fi
if grep -q '^/dev/loom0$' <<<"$out"; then tap_ok "bound again after it: /dev/loom0 is back"
else tap_fail "bound again after it: /dev/loom0 is back"; fi

if "$LOOM_LAB" check-log --dir "$LAB_DIR"; then
	tap_ok "guest kernel log has no oops, BUG or warning"
else
	tap_fail "guest kernel log has no oops, BUG or warning"
fi
tap_done
