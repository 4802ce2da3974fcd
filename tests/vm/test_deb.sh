#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages work with their own files only.  The packages of
# "make deb" (built here when build/deb has none) are unpacked into a
# scratch root (dpkg -x); DKMS builds loom.ko from loom-dkms's source and
# dkms.conf for the lab's kernel, in a scratch DKMS tree; a 2-host lab
# starts without any module, each guest loads that loom.ko, and the
# packaged loom-xfer, linked to the packaged libloom1 (not the tree's),
# puts 64 KiB from host 0 to host 1, which verifies every byte; the
# packaged loomctl shows the card; libfabric finds the packaged provider
# (libfabric-loom) in its provider directory, and man finds the packaged
# pages.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/lab.sh"

debdir=$loom_build/deb
have_debs() { compgen -G "$debdir/loom-dkms_*_all.deb" >/dev/null &&
	compgen -G "$debdir/libloom1_*.deb" >/dev/null && compgen -G "$debdir/loom-tools_*.deb" >/dev/null &&
	compgen -G "$debdir/libfabric-loom_*.deb" >/dev/null; }
if ! have_debs; then
	if [ "$(id -u)" != 0 ] && ! "$loom_top/tools/deps/install-deps" --check --deb >/dev/null 2>&1; then
		echo "1..0 # SKIP no packages in $debdir and the Debian tools are missing (make deb as root)"
		exit 4
	fi
	if ! make -s -C "$loom_top" deb >"$loom_build/deb-build.log" 2>&1; then
		echo "1..1"
		tap_diag "$(tail -n 30 "$loom_build/deb-build.log")"
		tap_fail "make deb builds the packages (log: $loom_build/deb-build.log)"
		exit 1
	fi
fi
kver=$("$loom_top/tools/deps/guest-kver") || { echo "1..0 # SKIP no guest kernel"; exit 4; }
# a lab that boots another kernel (LOOM_LAB_MODULES, make check-debug's):
# DKMS builds for that one, against its build tree
ksrc=()
if [ -n "${LOOM_LAB_MODULES:-}" ]; then
	kver=$(basename "$LOOM_LAB_MODULES")
	ksrc=(--kernelsourcedir "$LOOM_LAB_MODULES/build")
fi

# the scratch root lives in the tree, which the guests see at the same path
scratch=$loom_build/tests/vm-deb
root=$scratch/root
rm -rf "$scratch"
mkdir -p "$root" "$scratch/dkms"
trap 'lab_cleanup; rm -rf "$scratch"' EXIT

tap_plan 8
ok=1
for p in loom-dkms libloom1 loom-tools; do
	dpkg -x "$(ls "$debdir"/${p}_*.deb | head -n 1)" "$root" || ok=0
done
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
libdir=$root/usr/lib/$multiarch
src=$(ls -d "$root"/usr/src/loom-* 2>/dev/null | head -n 1)
tap_check "the packages unpack: the module source with dkms.conf, libloom.so.1, loom-xfer, loomctl" \
	test $ok = 1 -a -f "$src/dkms.conf" -a -f "$libdir/libloom.so.1" -a -x "$root/usr/bin/loom-xfer" \
	-a -x "$root/usr/bin/loomctl"

# DKMS with the package's dkms.conf, into a scratch tree; its signing key too
ver=${src##*/loom-}
mok_signing_key=$scratch/mok.key mok_certificate=$scratch/mok.pub \
	dkms build -m loom -v "$ver" -k "$kver" "${ksrc[@]}" --sourcetree "$root/usr/src" \
	--dkmstree "$scratch/dkms" >"$scratch/dkms.log" 2>&1
rc=$?
ko=$(find "$scratch/dkms/loom/$ver/$kver" -name 'loom.ko*' 2>/dev/null | head -n 1)
if [ $rc = 0 ] && [ -n "$ko" ]; then
	tap_ok "dkms build of loom $ver for $kver from the package's source and dkms.conf"
else
	tap_diag "exit $rc: $(tail -n 20 "$scratch/dkms.log")"
	tap_fail "dkms build of loom $ver for $kver from the package's source and dkms.conf"
fi

lab_start_test "lab with 2 hosts starts without a module" --hosts 2 --no-module
# (lab_start replaced the exit trap: remove the scratch root too)
trap "lab_cleanup; rm -rf '$(dirname "$LAB_DIR")' '$scratch'" EXIT
ok=1
for h in 0 1; do
	lab_exec $h "insmod $ko && grep -qx live /sys/module/loom/initstate && ls /dev/loom0" \
		>"$scratch/insmod$h" 2>&1 || ok=0
done
tap_diag "$(cat "$scratch/insmod0" "$scratch/insmod1")"
tap_check "both guests load the DKMS-built loom.ko and get /dev/loom0" test $ok = 1

env="LD_LIBRARY_PATH=$libdir"
lab_exec 0 "$env ldd $root/usr/bin/loom-xfer" >"$scratch/ldd" 2>&1
lab_exec 1 "$env $root/usr/bin/loom-xfer recv --ctx 5 --key 0x5eed --size 64K --seed 9 --timeout $(lab_scaled 60)" \
	>"$scratch/recv" 2>&1 &
recv_pid=$!
lab_exec 0 "$env $root/usr/bin/loom-xfer send --to 1 --ctx 5 --key 0x5eed --size 64K --seed 9 --timeout $(lab_scaled 60)" \
	>"$scratch/send" 2>&1
send_rc=$?
wait $recv_pid
recv_rc=$?
tap_diag "$(cat "$scratch/ldd" "$scratch/send" "$scratch/recv")"
if [ $send_rc = 0 ] && [ $recv_rc = 0 ] && grep -q 'every byte verified' "$scratch/recv" &&
	grep -q "libloom.so.1 => $libdir/libloom.so.1" "$scratch/ldd"; then
	tap_ok "the packaged loom-xfer with the packaged libloom1 puts 64 KiB from host 0 to host 1, every byte verified"
else
	tap_fail "the packaged loom-xfer with the packaged libloom1 puts 64 KiB from host 0 to host 1 (send $send_rc, recv $recv_rc)"
fi

lab_exec 0 "$root/usr/bin/loomctl dev show dev loom0" >"$scratch/dev" 2>&1
rc=$?
tap_diag "$(cat "$scratch/dev")"
tap_check "the packaged loomctl shows the card (exit $rc)" \
	sh -c "[ $rc = 0 ] && grep -q '^dev loom0 index 0 ' '$scratch/dev'"

# the provider package: libfabric loads it from its provider directory
dpkg -x "$(ls "$debdir"/libfabric-loom_*.deb | head -n 1)" "$root"
prov=$libdir/libfabric/libloom-fi.so
lab_exec 0 "FI_PROVIDER_PATH=$libdir/libfabric LD_LIBRARY_PATH=$libdir fi_info -p loom -c FI_RMA;
	LD_LIBRARY_PATH=$libdir ldd $prov" >"$scratch/fi_info" 2>&1
rc=$?
tap_diag "$(cat "$scratch/fi_info")"
if [ $rc = 0 ] && [ -f "$prov" ] && grep -q '^ *provider: loom$' "$scratch/fi_info" &&
	grep -q '^ *domain: loom0$' "$scratch/fi_info" &&
	grep -q "libloom.so.1 => $libdir/libloom.so.1" "$scratch/fi_info"; then
	tap_ok "libfabric-loom installs libloom-fi.so into libfabric's provider directory; fi_info -p loom -c FI_RMA finds loom0 through it and the packaged libloom1"
else
	tap_fail "libfabric-loom installs libloom-fi.so into libfabric's provider directory; fi_info -p loom -c FI_RMA finds loom0 (exit $rc)"
fi

# the pages of the tools package, through man
dpkg -x "$(ls "$debdir"/libloom-dev_*.deb | head -n 1)" "$root"
if [ -n "$(MANPATH=$root/usr/share/man man -w loomctl 2>/dev/null)" ] &&
	[ -n "$(MANPATH=$root/usr/share/man man -w 7 fi_loom 2>/dev/null)" ] &&
	[ -n "$(MANPATH=$root/usr/share/man man -w 3 loom_put 2>/dev/null)" ] &&
	[ -n "$(MANPATH=$root/usr/share/man man -w loom_put_bw 2>/dev/null)" ] &&
	"$LOOM_LAB" check-log --dir "$LAB_DIR" >"$scratch/log" 2>&1; then
	tap_ok "man finds loomctl(8), loom_put(3), loom_put_bw(1), fi_loom(7) in the packages; guest logs clean"
else
	tap_diag "$(cat "$scratch/log")"
	tap_fail "man finds loomctl(8), loom_put(3), loom_put_bw(1), fi_loom(7) in the packages; guest logs clean"
fi
tap_done
