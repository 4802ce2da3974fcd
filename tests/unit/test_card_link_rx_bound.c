// SPDX-License-Identifier: GPL-2.0
/*
 * The receiver's bound, as hardware has one: the framer examines at most
 * RX_WINDOW bytes a cycle from where it stands and completes at most
 * RX_FRAMES frames and framing errors a cycle.  Garbage longer than the
 * window is skipped a window a cycle and the frame after it found in the
 * cycle the window first covers it; a stream of frames, garbage, cut
 * frames, bit errors and false frame starts gives the same results in the
 * same order bounded as unbounded, only spread over more cycles, never
 * more than RX_WINDOW bytes nor RX_FRAMES results in one; a link unit
 * checks RX_FRAMES frames an edge and keeps stepping while bytes wait
 * beyond its window; a window below one maximal frame is refused; and
 * the defaults are the whole buffer and 64 results.
 */
#include "link/link_internal.h"
#include "link/fault.h"
#include "tap.h"

#include <loom_util/prng.h>

#include <stdio.h>
#include <string.h>

TAP_DEFINE;

#define WINDOW	LOOM_FRAME_MAX		/* the smallest window */
#define STREAM	(64 * 1024)

static uint64_t rng_state = 0x6c696e6b7278ull;

static uint32_t rnd(uint32_t n)
{
	return (uint32_t)(loom_splitmix64(&rng_state) % n);
}

static size_t make_frame(uint8_t *out, size_t cap, uint8_t type, uint32_t seq, size_t body)
{
	uint8_t b[LINK_BODY_MAX];

	for (size_t i = 0; i < body; i++)
		b[i] = (uint8_t)rnd(256);
	return link_encode(out, cap, type, 0, seq, 0, b, body, NULL, 0);
}

/* Garbage without a first magic byte: nothing in it can start a frame. */
static void garbage(uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		p[i] = (uint8_t)rnd(256);
		if (p[i] == (LOOM_FRAME_MAGIC & 0xff))
			p[i]++;
	}
}

struct result {
	enum link_rx_status st;
	uint32_t seq;
	uint16_t len;
};

/*
 * Feed @n bytes of @s @chunk a cycle (all of them at once for chunk 0),
 * pulling at most @frames results a cycle from a window of @window bytes;
 * the results in @res (at most @max), their number returned; the cycles
 * in *cycles, the most bytes a cycle examined in *widest.
 */
static size_t run(const uint8_t *s, size_t n, size_t chunk, size_t window, unsigned int frames,
		  struct result *res, size_t max, uint64_t *cycles, size_t *widest)
{
	static struct link_rx rx;
	struct link_frame f;
	size_t fed = 0, got = 0;
	uint64_t c = 0;

	link_rx_init(&rx);
	*widest = 0;
	for (;;) {
		size_t take = chunk ? chunk : n, start;
		unsigned int done = 0;
		bool more = false;

		if (take > n - fed)
			take = n - fed;
		fed += link_rx_feed(&rx, s + fed, take);
		link_rx_window(&rx, window);
		start = rx.start;
		while (done < frames) {
			enum link_rx_status st = link_rx_next(&rx, &f);

			if (st == LINK_RX_MORE) {
				more = true;
				break;
			}
			done++;
			if (got < max)
				res[got++] = (struct result){ st, st == LINK_RX_FRAME ? f.hdr.seq : 0,
							      st == LINK_RX_FRAME ? f.hdr.len : 0 };
		}
		c++;
		if (rx.start - start > *widest)
			*widest = rx.start - start;
		if (fed == n && more && !link_rx_past_window(&rx))
			break;
		if (c > 10 * n + 100)
			break;	/* stuck: the caller sees the results short */
	}
	*cycles = c;
	return got;
}

/* 2000 bytes of garbage, then a frame: found in the cycle the window first covers it. */
static void garbage_then_frame(void)
{
	static uint8_t s[2000 + LOOM_FRAME_MAX];
	struct result res[4];
	size_t n, len, got;
	uint64_t cycles, want;
	size_t widest;

	garbage(s, 2000);
	len = make_frame(s + 2000, sizeof(s) - 2000, LOOM_FRAME_ACK, 77, 80);
	n = 2000 + len;
	/* window c starts at c * WINDOW (the skip stops at each window's end) */
	want = (n - WINDOW + WINDOW - 1) / WINDOW + 1;
	got = run(s, n, 0, WINDOW, 4, res, 4, &cycles, &widest);
	tap_ok(got == 2 && res[0].st == LINK_RX_BAD_MAGIC && res[1].st == LINK_RX_FRAME &&
	       res[1].seq == 77 && cycles == want && widest <= WINDOW,
	       "2000 bytes of garbage and a %zu-byte frame, window %d: bad magic once, the frame in cycle %llu (want %llu), at most %zu bytes examined a cycle",
	       len, WINDOW, (unsigned long long)cycles, (unsigned long long)want, widest);
	got = run(s, n, 0, SIZE_MAX, 4, res, 4, &cycles, &widest);
	tap_ok(got == 2 && res[1].st == LINK_RX_FRAME && cycles == 1,
	       "unbounded, the same two results in one cycle (took %llu)", (unsigned long long)cycles);
}

/* A stream with every kind of bad input: the same results bounded as unbounded. */
static void stream_same(void)
{
	static uint8_t s[STREAM];
	static struct result a[STREAM / 16], b[STREAM / 16];
	struct fault fl;
	size_t n = 0, na, nb, i;
	uint64_t ca, cb;
	size_t widest_a, widest_b;
	bool same;
	uint32_t seq = 0;
	unsigned int kinds[4] = { 0 };

	fault_init(&fl, 12);
	fault_set_ber(&fl, 2e-5);
	while (n + 2 * LOOM_FRAME_MAX < sizeof(s)) {
		unsigned int k = rnd(10);
		size_t len;

		if (k == 0) {		/* garbage */
			len = 1 + rnd(700);
			for (i = 0; i < len; i++)
				s[n + i] = (uint8_t)rnd(256);
			if (len > LOOM_FRAME_MAX && rnd(2)) {
				/* a frame start that leads nowhere, first or inside */
				size_t at = n + (rnd(2) ? 0 : 5);

				s[at] = LOOM_FRAME_MAGIC & 0xff;
				s[at + 1] = LOOM_FRAME_MAGIC >> 8;
				s[at + 4] = (uint8_t)rnd(256);
				s[at + 5] = (uint8_t)rnd(3);
			}
			n += len;
			continue;
		}
		len = make_frame(s + n, sizeof(s) - n, (uint8_t)(1 + rnd(7)), seq++,
				 rnd(3) ? LINK_BODY_MAX : rnd(LINK_BODY_MAX + 1));
		fault_apply(&fl, s + n, len);
		if (k == 1)		/* cut short */
			len = 1 + rnd((uint32_t)len);
		n += len;
	}
	na = run(s, n, 0, SIZE_MAX, 1000000, a, sizeof(a) / sizeof(a[0]), &ca, &widest_a);
	nb = run(s, n, 16, WINDOW, 1, b, sizeof(b) / sizeof(b[0]), &cb, &widest_b);
	same = na == nb;
	for (i = 0; same && i < na; i++)
		same = a[i].st == b[i].st && a[i].seq == b[i].seq && a[i].len == b[i].len;
	if (!same) {
		tap_diag("unbounded %zu results, bounded %zu; first difference at %zu", na, nb, i - 1);
		if (i && i - 1 < na && i - 1 < nb)
			tap_diag("unbounded: %s seq %u len %u; bounded: %s seq %u len %u",
				 link_rx_status_name(a[i - 1].st), a[i - 1].seq, a[i - 1].len,
				 link_rx_status_name(b[i - 1].st), b[i - 1].seq, b[i - 1].len);
	}
	for (i = 0; i < na; i++)
		kinds[a[i].st - LINK_RX_FRAME]++;
	tap_ok(same && widest_b <= WINDOW && kinds[0] > 50 && kinds[1] && kinds[2] && kinds[3],
	       "%zu bytes of frames, garbage, cut frames, bit errors and false starts fed 16 a cycle, window %d, one result a cycle: the same %zu results as unbounded (%u frames, %u bad magic, %u bad length, %u bad CRC) over %llu cycles, at most %zu bytes examined a cycle",
	       n, WINDOW, nb, kinds[0], kinds[1], kinds[2], kinds[3], (unsigned long long)cb,
	       widest_b);
}

/* A lone link unit, training: every frame it receives is counted, then dropped. */
static bool unit_new(struct link_unit *l, unsigned int rx_frames, unsigned int rx_window)
{
	struct link_params p;
	char err[256];

	link_params_default(&p);
	p.rx_frames = rx_frames;
	p.rx_window = rx_window;
	if (!link_unit_init(l, &p, err, sizeof(err))) {
		tap_diag("%s", err);
		return false;
	}
	link_unit_carrier(l, true);
	return true;
}

static void unit_step(struct link_unit *l)
{
	struct link_in in;

	memset(&in, 0, sizeof(in));
	link_unit_step(l, &in);
	while (link_unit_tx_peek(l))
		link_unit_tx_pop(l);
}

static void unit_frames(void)
{
	static struct link_unit l;
	uint8_t f[6 * LINK_FRAME_MIN];
	uint64_t seen[4];
	size_t n = 0;
	bool busy = true;

	for (unsigned int i = 0; i < 6; i++)
		n += make_frame(f + n, sizeof(f) - n, LOOM_FRAME_ACK, i, 0);
	if (!unit_new(&l, 2, 1024)) {
		tap_ok(false, "a link unit with RX_FRAMES 2");
		return;
	}
	unit_step(&l);
	link_unit_rx_bytes(&l, f, n);
	for (unsigned int c = 0; c < 4; c++) {
		/* while frames wait the next edge is now */
		if (c < 3 && link_unit_next_event(&l) != l.now)
			busy = false;
		unit_step(&l);
		seen[c] = l.cnt.rx_frames;
	}
	tap_ok(seen[0] == 2 && seen[1] == 4 && seen[2] == 6 && seen[3] == 6 &&
	       l.cnt.not_up_drops == 6 && busy,
	       "six frames at once, RX_FRAMES 2: checked 2 an edge (%llu, %llu, %llu, %llu after each), each dropped (not up), the unit %s while frames wait",
	       (unsigned long long)seen[0], (unsigned long long)seen[1],
	       (unsigned long long)seen[2], (unsigned long long)seen[3],
	       busy ? "stepping" : "NOT stepping");
	link_unit_free(&l);
}

static void unit_window(void)
{
	static struct link_unit l;
	static uint8_t s[3000 + LINK_FRAME_MIN];
	uint64_t found = 0, errors_first = 0;
	size_t n;
	unsigned int want;

	garbage(s, 3000);
	n = 3000 + make_frame(s + 3000, sizeof(s) - 3000, LOOM_FRAME_ACK, 5, 0);
	if (!unit_new(&l, 4, 1024)) {
		tap_ok(false, "a link unit with RX_WINDOW 1024");
		return;
	}
	unit_step(&l);
	link_unit_rx_bytes(&l, s, n);
	for (unsigned int c = 1; c <= 10 && !found; c++) {
		if (link_unit_next_event(&l) != l.now)
			break;
		unit_step(&l);
		if (c == 1)
			errors_first = l.cnt.crc_errors;
		if (l.cnt.rx_frames)
			found = c;
	}
	want = (unsigned int)((n - 1024 + 1023) / 1024 + 1);
	tap_ok(found == want && errors_first == 1 && l.cnt.crc_errors == 1,
	       "3000 bytes of garbage and a frame, RX_WINDOW 1024: one framing error at the first edge, the frame at edge %llu (want %u), the unit stepping while bytes wait",
	       (unsigned long long)found, want);
	link_unit_free(&l);
}

static void params(void)
{
	struct link_params p;
	char err[256];
	bool refused;

	link_params_default(&p);
	p.rx_window = LOOM_FRAME_MAX - 1;
	refused = !link_params_check(&p, err, sizeof(err));
	tap_ok(refused && strstr(err, "RX_WINDOW = 327") && strstr(err, "minimum 328"),
	       "RX_WINDOW below one maximal frame is refused: %s", refused ? err : "(accepted)");
	link_params_default(&p);
	tap_ok(p.rx_window == LINK_RX_BUF && p.rx_frames == 64,
	       "the defaults: RX_WINDOW %u (the framer's whole buffer of %d bytes), RX_FRAMES %u (want 64)",
	       p.rx_window, LINK_RX_BUF, p.rx_frames);
}

int main(void)
{
	tap_plan(7);
	garbage_then_frame();
	stream_same();
	unit_frames();
	unit_window();
	params();
	return tap_exit_status();
}
