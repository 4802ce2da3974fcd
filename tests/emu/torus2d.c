// SPDX-License-Identifier: GPL-2.0
/*
 * 2-D torus of card emulators with dimension-order routes (see torus2d.h).
 */
#include "torus2d.h"
#include "card.h"
#include "tap.h"

#include <stdbool.h>
#include <stdio.h>

int torus2d_dor_port(unsigned int kx, unsigned int ky, unsigned int x, unsigned int y,
		     unsigned int dest)
{
	unsigned int tx = dest % kx, ty = dest / kx, fwd;

	if (tx != x) {
		fwd = (tx + kx - x) % kx;
		return fwd <= kx - fwd ? 0 : 2;
	}
	if (ty != y) {
		fwd = (ty + ky - y) % ky;
		return fwd <= ky - fwd ? 1 : 3;
	}
	return -1;
}

/* The command line of card (x, y): cables, VC table, routes. */
static int torus2d_start_card(struct fabric *f, unsigned int kx, unsigned int ky,
			      unsigned int i, bool cyclic)
{
	unsigned int x = i % kx, y = i / kx;
	char args[8 + FABRIC_MAX_CARDS][96];
	const char *extra[24 + 2 * FABRIC_MAX_CARDS];
	int k = 0, a = 0;

	extra[k++] = "--ports";
	extra[k++] = "4";
	extra[k++] = "--vc-buffers";
	extra[k++] = cyclic ? "1" : "2";
	if (cyclic) {
		/* the answers dropped at a dead port end their operations in 1 s, not 10 */
		extra[k++] = "--op-timeout";
		extra[k++] = "1000";
	}
	for (unsigned int d = 0; d < 2; d++) {
		unsigned int back = d == 0 ? (x + kx - 1) % kx + kx * y : x + kx * ((y + ky - 1) % ky);
		bool wrap_plus = d == 0 ? x == kx - 1 : y == ky - 1;
		bool wrap_minus = d == 0 ? x == 0 : y == 0;

		/* +d listens; -d connects to the +d port of the node behind */
		snprintf(args[a], sizeof(args[a]), "%u=listen:%s/c%u-%u.sock", d, f->dir, i, d);
		extra[k++] = "--cable";
		extra[k++] = args[a++];
		snprintf(args[a], sizeof(args[a]), "%u=connect:%s/c%u-%u.sock", 2 + d, f->dir,
			 back, d);
		extra[k++] = "--cable";
		extra[k++] = args[a++];
		snprintf(args[a], sizeof(args[a]), "%u=%u%s", d, d, wrap_plus ? ",dateline" : "");
		extra[k++] = "--vct";
		extra[k++] = args[a++];
		snprintf(args[a], sizeof(args[a]), "%u=%u%s", 2 + d, d,
			 wrap_minus ? ",dateline" : "");
		extra[k++] = "--vct";
		extra[k++] = args[a++];
	}
	for (unsigned int dst = 0; dst < kx * ky; dst++) {
		if (dst == i)
			continue;
		snprintf(args[a], sizeof(args[a]), "%u=%d", dst, torus2d_dor_port(kx, ky, x, y, dst));
		extra[k++] = "--route";
		extra[k++] = args[a++];
	}
	extra[k] = NULL;
	return fabric_start_card(f, i, extra);
}

int torus2d_start(struct fabric *f, unsigned int kx, unsigned int ky, bool cyclic)
{
	unsigned int n = kx * ky;

	if (kx < 2 || ky < 2 || n > FABRIC_MAX_CARDS) {
		tap_diag("a %ux%u torus does not fit the harness (2..%u cards)", kx, ky,
			 FABRIC_MAX_CARDS);
		return -1;
	}
	if (n > 8)
		f->ram_size = FABRIC_RAM_SIZE_BIG;
	for (unsigned int i = 0; i < n; i++)
		if (torus2d_start_card(f, kx, ky, i, cyclic))
			return -1;
	for (unsigned int i = 0; i < n; i++)
		if (fabric_attach(f, i))
			return -1;
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int p = 0; p < TORUS2D_PORTS; p++)
			if (fabric_wait_link(f, i, p, 30000))
				return -1;
	return 0;
}

void torus2d_make_cyclic(struct fabric *f, unsigned int n, uint32_t fp_timeout_ms)
{
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int p = 0; p < TORUS2D_PORTS; p++)
			fh_wr32(&f->fh[i], CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4 * p,
				LOOM_VCT_PORT_DIM_NONE);
		fh_wr32(&f->fh[i], CARD_OFF_PORTS + LOOM_PORTS_FP_TIMEOUT_MS, fp_timeout_ms);
	}
}

unsigned int torus2d_dead_ports(struct fabric *f, unsigned int n, uint32_t *events)
{
	unsigned int dead = 0;

	*events = 0;
	for (unsigned int i = 0; i < n; i++) {
		*events += fh_rd32(&f->fh[i], CARD_OFF_PORTS + LOOM_PORTS_EVENTS);
		for (unsigned int p = 0; p < TORUS2D_PORTS; p++)
			if (fh_rd32(&f->fh[i], fh_port_reg(&f->fh[i], p, LOOM_PORT_STATUS)) &
			    LOOM_PORT_ST_DEAD)
				dead++;
	}
	return dead;
}

static void torus2d_describe(char *out, size_t len, const struct alltoall_cfg *cfg)
{
	snprintf(out, len, "%u round%s of %s%u-byte puts%s%s", cfg->rounds,
		 cfg->rounds == 1 ? "" : "s", cfg->seed ? "1..": "", cfg->len,
		 cfg->seed ? " in random order" : cfg->shifted ? " in shifted order" : "",
		 cfg->gets ? ", then gets" : "");
}

void torus2d_vc_test(unsigned int kx, unsigned int ky, bool cyclic,
		     const struct alltoall_cfg *cfgs, unsigned int n_cfgs)
{
	const char *what = cyclic ? "cyclic VCs (all VC0), 1 buffer" : "datelines, 2 buffers";
	unsigned int n = kx * ky, dead;
	struct fabric f;
	uint32_t ev0, ev1;
	uint64_t t0 = fh_now_ms();
	bool ok;

	ok = fabric_init(&f, 150) == 0 && torus2d_start(&f, kx, ky, cyclic) == 0;
	tap_diag("%ux%u torus: %u cards started, attached, %u links trained in %llu ms", kx, ky,
		 n, n * TORUS2D_PORTS / 2, (unsigned long long)(fh_now_ms() - t0));
	if (ok && cyclic)
		torus2d_make_cyclic(&f, n, 300);
	if (!tap_ok(ok, "%ux%u torus, %s: cards up, links trained", kx, ky, what)) {
		for (unsigned int k = 0; k <= n_cfgs; k++)
			tap_ok(0, "skipped: the fabric did not start");
		fabric_stop();
		return;
	}
	torus2d_dead_ports(&f, n, &ev0);
	for (unsigned int k = 0; k < n_cfgs; k++) {
		struct alltoall r;
		char desc[128];

		torus2d_describe(desc, sizeof(desc), &cfgs[k]);
		ok = alltoall_run_cfg(&f, n, &cfgs[k], &r) == 0;
		dead = torus2d_dead_ports(&f, n, &ev1);
		tap_diag("%s, %s: %u puts (%llu bytes) and %u gets: %u OK, %u failed, %u arrivals, %llu ms, %u ports dead",
			 what, desc, r.puts, (unsigned long long)r.put_bytes, r.gets, r.local_ok,
			 r.local_bad, r.arrival_ok, (unsigned long long)r.elapsed_ms, dead);
		if (!cyclic)
			tap_ok(ok && alltoall_perfect(&r, n),
			       "datelines: all-to-all, %s: every operation completes once, byte-exact",
			       desc);
		else
			tap_ok(ok && r.local_ok + r.local_bad == r.puts + r.gets && r.local_bad > 0,
			       "cyclic VCs: all-to-all, %s: every operation completes, the stuck ones with an error",
			       desc);
	}
	dead = torus2d_dead_ports(&f, n, &ev1);
	tap_diag("%s: %u ports dead, port events %u -> %u", what, dead, ev0, ev1);
	if (!cyclic)
		tap_ok(dead == 0 && ev1 == ev0, "datelines: no port declared dead, no port events");
	else
		tap_ok(dead > 0 && ev1 > ev0,
		       "cyclic VCs: the deadlock is detected (ports DEAD, PORTS_EVENTS counted)");
	t0 = fh_now_ms();
	fabric_stop();
	tap_diag("%u cards stopped and cleaned up in %llu ms", n, (unsigned long long)(fh_now_ms() - t0));
}
