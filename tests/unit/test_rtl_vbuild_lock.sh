#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Verilated-build cache (fpga_bitstreams/rtl/harness/vbuild.sh): two
# builds of the same inputs started at once verilate once -- the second
# waits on the key's lock, says so, and copies the first one's binary --
# and a third, later, only copies.  A stand-in verilator (first on PATH)
# counts its builds and takes two seconds, so the two overlap.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT

mkdir -p "$tmp/bin" "$tmp/cache" "$tmp/out"
cat >"$tmp/bin/verilator" <<'EOF'
#!/bin/bash
# stand-in: --version for the key; otherwise "build" Vtop into --Mdir
[ "$1" = --version ] && { echo "Verilator 0.000 stand-in"; exit 0; }
mdir= top=
while [ $# -gt 0 ]; do
	case "$1" in
	--Mdir) mdir=$2; shift ;;
	--top-module) top=$2; shift ;;
	esac
	shift
done
echo build >>"$VBUILD_TEST_COUNT"
sleep 2
printf '#!/bin/sh\necho %s\n' "$top" >"$mdir/V$top"
chmod +x "$mdir/V$top"
EOF
chmod +x "$tmp/bin/verilator"
echo 'module t; endmodule' >"$tmp/t.sv"
export PATH="$tmp/bin:$PATH" VBUILD_TEST_COUNT="$tmp/count"

vb() { # OUT LOG
	"$top/fpga_bitstreams/rtl/harness/vbuild.sh" "$1" "$tmp/cache" t locktest \
		-- "$tmp/t.sv" -- "$tmp/t.sv" >"$2" 2>&1
}

tap_plan 4
vb "$tmp/out/a" "$tmp/a.log" &
pids+=($!)
sleep 0.5
vb "$tmp/out/b" "$tmp/b.log" &
pids+=($!)
ok=1
for p in "${pids[@]}"; do wait "$p" || ok=0; done
pids=()
builds=$(wc -l <"$tmp/count" 2>/dev/null || echo 0)
if [ "$ok" = 1 ] && [ "$builds" = 1 ]; then
	tap_ok "two builds of one key at once verilate once"
else
	tap_fail "two builds of one key at once verilate once (exit codes ok: $ok, builds: $builds)"
	tap_diag "$(cat "$tmp/a.log" "$tmp/b.log")"
fi
if grep -q "waiting for another build" "$tmp/b.log" && grep -q "cached in" "$tmp/b.log"; then
	tap_ok "the second waits for the first, says so, and copies its build"
else
	tap_fail "the second waits for the first, says so, and copies its build"
	tap_diag "second build's output: $(cat "$tmp/b.log")"
fi
if [ "$("$tmp/out/a")" = t ] && [ "$("$tmp/out/b")" = t ]; then
	tap_ok "both outputs are the built binary"
else
	tap_fail "both outputs are the built binary (a: $("$tmp/out/a" 2>&1), b: $("$tmp/out/b" 2>&1))"
fi
vb "$tmp/out/c" "$tmp/c.log"
builds=$(wc -l <"$tmp/count")
if [ "$builds" = 1 ] && grep -q "cached in" "$tmp/c.log" && ! grep -q waiting "$tmp/c.log"; then
	tap_ok "a later build of the same key only copies, without waiting"
else
	tap_fail "a later build of the same key only copies, without waiting (builds: $builds)"
	tap_diag "$(cat "$tmp/c.log")"
fi
tap_done
