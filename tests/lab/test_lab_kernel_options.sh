#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# loom-lab start's options for another guest kernel (what make check-debug
# uses): a 1-host lab without card or module boots a kernel named by
# --kernel IMAGE --modules ROOT/lib/modules/KVER (Debian's own bzImage,
# standing in for a debug build), with --append on its command line
# beside the lab's own options (cryptomgr.notests);
# --timeout-scale multiplies exec's timeout; at stop, the --on-stop command
# runs in the guest before teardown and --keep-logs keeps every log in
# DEST/NAME.UNIQ (NAME from LOOM_TEST_NAME), the on-stop output included.
# The LOOM_LAB_* variables stand for the options (LOOM_LAB_MEM for --mem).  Bad values exit 2 with a
# message and create nothing.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
lab=$build/bin/loom-lab

if [ ! -x "$lab" ] || [ ! -x "$build/bin/loom-lab-agent" ]; then
	echo "1..0 # SKIP loom-lab is not built (make -C tools/loom-lab)"
	exit 4
fi
if ! kver=$("$top/tools/deps/guest-kver" 2>/dev/null); then
	echo "1..0 # SKIP no guest kernel (tools/deps/install-deps)"
	exit 4
fi
# Debian's bzImage: the lab boots its ELF by PVH by default, so this is the
# other kind of image --kernel takes (a debug kernel's)
vmlinux=/boot/vmlinuz-$kver

tmp=$(mktemp -d /tmp/loom-lab-test.XXXXXX)
dir=$tmp/lab
cleanup() {
	"$lab" stop --dir "$dir" >/dev/null 2>&1
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

tap_plan 6

# ---- bad values: exit 2, a message, nothing created
bad() { # expected-message option...
	local want=$1 rc
	shift
	"$lab" start --dir "$dir" --hosts 1 --no-card --no-module "$@" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ $rc = 2 ] && [ ! -e "$dir" ] && grep -q -- "$want" "$tmp/err"; then
		return 0
	fi
	tap_diag "start $*: exit $rc, said: $(cat "$tmp/err")"
	return 1
}
if bad "go together" --kernel /etc/hostname &&
	bad "neither an ELF vmlinux (booted by PVH) nor a bzImage" --kernel /etc/hostname --modules "/lib/modules/$kver" &&
	bad "expected a module tree ROOT/lib/modules/RELEASE" --kernel /bin/true --modules /etc &&
	bad "not a directory" --kernel /bin/true --modules /nonexistent/lib/modules/9.9 &&
	bad "--timeout-scale (LOOM_LAB_TIMEOUT_SCALE) 0" --timeout-scale 0 &&
	LOOM_LAB_TIMEOUT_SCALE=x bad "LOOM_LAB_TIMEOUT_SCALE) x" &&
	LOOM_LAB_MEM=32 bad "--mem (LOOM_LAB_MEM) 32"; then
	tap_ok "bad --kernel, --modules, --timeout-scale (option or variable), LOOM_LAB_MEM: exit 2 with a message"
else
	tap_fail "bad --kernel, --modules, --timeout-scale (option or variable), LOOM_LAB_MEM: exit 2 with a message"
fi

keep=$tmp/keep
t0=$(date +%s)
if LOOM_TEST_NAME=lab/kernel-options LOOM_LAB_APPEND="loom_lab_probe=append" LOOM_LAB_MEM=320 \
	LOOM_LAB_KEEP_LOGS="$keep" "$lab" start --dir "$dir" --hosts 1 --no-card --no-module \
	--kernel "$vmlinux" --modules "/lib/modules/$kver" --timeout-scale 10 \
	--on-stop "echo loom-lab-on-stop-ran > /dev/kmsg; echo on-stop-output" 2>"$tmp/start.log"; then
	tap_ok "start --kernel /boot/vmlinuz-$kver (a bzImage) --modules /lib/modules/$kver ($(($(date +%s) - t0)) s)"
else
	tap_fail "start --kernel /boot/vmlinuz-$kver (a bzImage) --modules /lib/modules/$kver"
	tap_diag "$(tail -n 30 "$tmp/start.log")"
	tap_done
fi

cmdline=$("$lab" exec --dir "$dir" 0 -- cat /proc/cmdline 2>&1)
if grep -q "loom_lab_probe=append" <<<"$cmdline" && grep -qw "cryptomgr.notests" <<<"$cmdline" &&
	grep -q "^kver=$kver$" "$dir/lab.conf" &&
	grep -qx "vmlinux=$vmlinux" "$dir/lab.conf" && grep -qx "mem_mib=320" "$dir/lab.conf"; then
	tap_ok "the guest runs that kernel with LOOM_LAB_APPEND and cryptomgr.notests on its command line and LOOM_LAB_MEM's RAM"
else
	tap_fail "the guest runs that kernel with LOOM_LAB_APPEND and cryptomgr.notests on its command line and LOOM_LAB_MEM's RAM"
	tap_diag "cmdline: $cmdline"
	tap_diag "$(cat "$dir/lab.conf")"
fi

# --timeout 1 is 10 s in a lab with --timeout-scale 10: a 3 s command,
# three times the unscaled limit, finishes (7 s of margin: a loaded machine
# slows the guest's sleep and the exec round trip)
"$lab" exec --dir "$dir" --timeout 1 0 -- sleep 3 >/dev/null 2>"$tmp/e1"; rc1=$?
"$lab" exec --dir "$dir" --timeout 1 0 -- sleep 60 >/dev/null 2>"$tmp/e2"; rc2=$?
if [ $rc1 = 0 ] && [ $rc2 = 124 ] && grep -q "timed out after 10 s" "$tmp/e2"; then
	tap_ok "--timeout-scale 10: exec --timeout 1 lets a 3 s command finish and kills a 60 s one after 10 s"
else
	tap_fail "--timeout-scale 10: exec --timeout 1 lets a 3 s command finish ($rc1) and kills a 60 s one after 10 s ($rc2)"
	tap_diag "$(cat "$tmp/e1" "$tmp/e2")"
fi

"$lab" stop --dir "$dir" 2>"$tmp/stop.log"; rc=$?
saved=$(find "$keep" -mindepth 1 -maxdepth 1 -type d -name 'lab_kernel-options.loom-lab-*' 2>/dev/null)
if [ $rc = 0 ] && [ ! -e "$dir" ] && [ "$(wc -l <<<"$saved")" = 1 ] && [ -n "$saved" ] &&
	[ -f "$saved/lab.conf" ] && [ -f "$saved/supervisor.log" ]; then
	tap_ok "stop: the lab is gone, its logs kept in $(basename "$keep")/$(basename "$saved")"
else
	tap_fail "stop: the lab is gone (exit $rc), its logs kept in $keep/lab_kernel-options.loom-lab-*"
	tap_diag "$(cat "$tmp/stop.log"; ls -R "$keep" 2>&1)"
fi
if [ -n "$saved" ] && grep -q "loom-lab-on-stop-ran" "$saved/h0.console.log" &&
	grep -qx "on-stop-output" "$saved/h0.on-stop.log"; then
	tap_ok "the on-stop command ran in the guest before teardown (console and h0.on-stop.log)"
else
	tap_fail "the on-stop command ran in the guest before teardown (console and h0.on-stop.log)"
	tap_diag "$(tail -n 5 "$saved/h0.console.log" "$saved/h0.on-stop.log" 2>&1)"
fi
tap_done
