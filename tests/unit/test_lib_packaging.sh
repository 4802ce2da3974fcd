#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# libloom packaging: a program builds against the tree through pkg-config,
# the exported symbols are exactly the documented API at versions LOOM_0.1,
# LOOM_0.2 (the operations added by ABI 0.2), LOOM_0.3 (partitions), LOOM_0.4 (memory regions, busy polling),
# LOOM_0.5 (multicast put),
# and 'make install' lays out library, header and pkg-config file.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../lib/tap.sh"
top=$(cd "$here/../.." && pwd)
build=${BUILD:-$top/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tap_plan 4
cat >"$tmp/app.c" <<'C'
#include <loom.h>
#include <stdio.h>
#include <string.h>
int main(void)
{
	struct loom_dev *dev;
	int err = loom_dev_open("/nonexistent/loom", &dev);
	printf("%s\n", loom_strerror(err));
	return err == -2 && strstr(loom_strerror(LOOM_STATUS_REMOTE_KEY), "key") ? 0 : 1;
}
C
export PKG_CONFIG_PATH=$build/lib/pkgconfig
if cc -std=c11 -Wall -Werror -o "$tmp/app" "$tmp/app.c" $(pkg-config --cflags --libs libloom) 2>"$tmp/err" &&
   LD_LIBRARY_PATH=$build/lib "$tmp/app" >/dev/null; then
	tap_ok "a program builds and runs against libloom through pkg-config"
else
	tap_diag "$(cat "$tmp/err")"
	tap_fail "a program builds and runs against libloom through pkg-config"
fi

api=$(sed -n 's/^[a-z].*[ *]\(loom_[a-z_]*\)(.*/\1/p' "$top/lib/include/loom.h" | sort)
exported=$(nm -D --defined-only "$build/lib/libloom.so.1" | awk '$3 ~ /^loom_/ {print $3}' | sort)
if [ -n "$api" ] && [ "$api" = "$(sed 's/@.*//' <<<"$exported")" ]; then
	tap_ok "exported symbols are exactly the functions of loom.h"
else
	tap_diag "header: $(echo $api)"
	tap_diag "library: $(echo $exported)"
	tap_fail "exported symbols are exactly the functions of loom.h"
fi
# LOOM_0.1 never changes; later additions are LOOM_0.2, LOOM_0.3, LOOM_0.4 and LOOM_0.5
v01="loom_ctx_create loom_ctx_destroy loom_ctx_fd loom_ctx_index loom_ctx_node loom_ctx_segment loom_dev_close loom_dev_open loom_dev_query loom_nop loom_poll loom_put loom_strerror loom_wait"
got01=$(sed -n 's/@@LOOM_0\.1$//p' <<<"$exported" | tr '\n' ' ' | sed 's/ $//')
v04="loom_atomic_mr loom_ctx_busy_poll loom_ctx_set_busy_poll loom_get_mr loom_mr_addr loom_mr_dereg loom_mr_length loom_mr_lkey loom_mr_reg loom_mr_rkey loom_put_counted_mr loom_put_mr"
got04=$(sed -n 's/@@LOOM_0\.4$//p' <<<"$exported" | sort | tr '\n' ' ' | sed 's/ $//')
if [ -n "$exported" ] && ! grep -qv '@@LOOM_0\.[12345]$' <<<"$exported" && [ "$got01" = "$v01" ] &&
   grep -q '^loom_get@@LOOM_0\.2$' <<<"$exported" &&
   [ "$(sed -n 's/@@LOOM_0\.3$//p' <<<"$exported")" = loom_bsu_open_key ] && [ "$got04" = "$v04" ] &&
   [ "$(sed -n 's/@@LOOM_0\.5$//p' <<<"$exported")" = loom_put_mcast ]; then
	tap_ok "LOOM_0.1 holds exactly the ABI 0.1 functions, then LOOM_0.2, LOOM_0.3 = loom_bsu_open_key, LOOM_0.4 = the memory-region and busy-poll calls, LOOM_0.5 = loom_put_mcast"
else
	tap_diag "LOOM_0.1: $got01"
	tap_diag "exported: $(echo $exported)"
	tap_diag "LOOM_0.4: $got04"
	tap_fail "LOOM_0.1 holds exactly the ABI 0.1 functions, then LOOM_0.2, LOOM_0.3 = loom_bsu_open_key, LOOM_0.4 = the memory-region and busy-poll calls, LOOM_0.5 = loom_put_mcast"
fi

if make -s -C "$top/lib" install DESTDIR="$tmp/root" PREFIX=/usr >/dev/null 2>"$tmp/err" &&
   [ -f "$tmp/root/usr/include/loom.h" ] && [ -x "$tmp/root/usr/lib/libloom.so.1" ] &&
   [ -L "$tmp/root/usr/lib/libloom.so" ] &&
   grep -q '^prefix=/usr$' "$tmp/root/usr/lib/pkgconfig/libloom.pc"; then
	tap_ok "make install lays out the library, header and pkg-config file"
else
	tap_diag "$(cat "$tmp/err")"
	tap_fail "make install lays out the library, header and pkg-config file"
fi
tap_done
