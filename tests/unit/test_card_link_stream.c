// SPDX-License-Identifier: GPL-2.0
/*
 * The cycle-level link unit over a byte stream, as between two card
 * emulator processes: each end runs its own clock, its frames go out as
 * bytes on a stream socket (here a socketpair, written as the socket
 * takes them) and the peer's framer gets them in whatever pieces the reads
 * return, at the peer's current cycle.  Training, packets both ways and
 * credits all work, and faults applied to the frames before they are
 * written (fault.c, as the emulator's cables do) are repaired by replay.
 */
#include "link_harness.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

TAP_DEFINE;

struct end {
	struct link_unit l;
	struct lh_source src;
	struct lh_sink sink;
	struct fault fault;
	int fd;
	uint8_t out[16 * LOOM_FRAME_MAX];
	size_t out_len;
	uint64_t rng;
	uint64_t trains;
};

static struct end e[2];
static struct link_params params;

static unsigned int rnd(struct end *x, unsigned int n)
{
	x->rng = x->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned int)(x->rng >> 33) % n;
}

/* One cycle of end @x: the edge, then the socket both ways. */
static bool end_cycle(struct end *x)
{
	struct link_out lo = x->l.out;
	struct link_in in = { .flit = x->src.out, .back = x->sink.back };
	struct link_txframe *tf;
	uint64_t t = x->l.now;
	size_t room;
	uint8_t *tail;
	ssize_t n;

	link_unit_step(&x->l, &in);
	lh_source_edge(&x->src, &lo, t);
	lh_sink_edge(&x->sink, &lo, t);
	if (x->l.cnt.trains != x->trains) {	/* came up: BUF_DEPTH credits per VC */
		x->trains = x->l.cnt.trains;
		lh_source_reset_credits(&x->src);
	}
	/* frames that start on the lanes go out as bytes, faults applied first */
	while ((tf = link_unit_tx_peek(&x->l)) && sizeof(x->out) - x->out_len >= tf->len) {
		if (fault_apply(&x->fault, tf->bytes, tf->len) != FAULT_DROPPED) {
			memcpy(x->out + x->out_len, tf->bytes, tf->len);
			x->out_len += tf->len;
		}
		link_unit_tx_pop(&x->l);
	}
	if (x->out_len) {
		n = write(x->fd, x->out, x->out_len);
		if (n < 0 && errno != EAGAIN)
			return false;
		if (n > 0) {
			memmove(x->out, x->out + n, x->out_len - (size_t)n);
			x->out_len -= (size_t)n;
		}
	}
	/* whatever the socket holds, in pieces of random size */
	tail = link_unit_rx_tail(&x->l, &room);
	if (room) {
		n = read(x->fd, tail, 1 + rnd(x, (unsigned int)room));
		if (n > 0)
			link_unit_rx_commit(&x->l, (size_t)n);
		else if (n == 0 || errno != EAGAIN)
			return false;
	}
	return true;
}

static bool setup(void)
{
	int sv[2];
	char err[256];

	link_params_default(&params);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, sv))
		return false;
	for (unsigned int i = 0; i < 2; i++) {
		struct end *x = &e[i];

		if (!link_unit_init(&x->l, &params, err, sizeof(err))) {
			tap_diag("%s", err);
			return false;
		}
		link_unit_set_identity(&x->l, 100 + i, i);
		lh_source_init(&x->src, &x->l.p);
		lh_sink_init(&x->sink, &x->l.p);
		fault_init(&x->fault, 77 + i);
		x->fd = sv[i];
		x->rng = 99 + i;
		link_unit_carrier(&x->l, true);
	}
	return true;
}

/* Run until both sinks have what their peers sent; b's clock runs 3 cycles per 2 of a's. */
static bool run(uint64_t max)
{
	for (uint64_t i = 0; i < max; i++) {
		if (!end_cycle(&e[0]) || !end_cycle(&e[1]) || (i % 2 && !end_cycle(&e[1])))
			return false;
		if (e[0].sink.packets == e[1].src.limit && e[1].sink.packets == e[0].src.limit &&
		    !gbn_tx_held(&e[0].l.tx.gbn) && !gbn_tx_held(&e[1].l.tx.gbn) && i > 1000)
			return true;
	}
	return false;
}

int main(void)
{
	bool ok;

	tap_plan(3);
	if (!setup())
		return 1;
	ok = run(2000) && link_unit_up(&e[0].l) && link_unit_up(&e[1].l) &&
	     e[0].l.peer_node == 101 && e[1].l.peer_node == 100;
	tap_ok(ok, "over a socketpair with clocks at 2:3, both ends train (a at cycle %llu, b at %llu)",
	       (unsigned long long)e[0].l.now, (unsigned long long)e[1].l.now);
	e[0].src.limit = 1000;
	e[0].src.payload = 256;
	e[0].src.vc_mask = 1u << LOOM_VC_REQ0 | 1u << LOOM_VC_REQ1;
	e[1].src.limit = 2000;
	e[1].src.payload = 16;
	e[1].src.vc_mask = 1u << LOOM_VC_RESP0;
	ok = run(2000000);
	tap_ok(ok && !e[0].sink.errors && !e[1].sink.errors && !e[0].sink.overflows &&
	       !e[1].sink.overflows && !e[0].l.cnt.crc_errors && !e[1].l.cnt.crc_errors,
	       "1000 256-byte packets one way, 2000 16-byte ones the other, read in random pieces: all arrive once, in order, intact (%llu and %llu)",
	       (unsigned long long)e[1].sink.packets, (unsigned long long)e[0].sink.packets);
	fault_set_ber(&e[0].fault, 3e-5);
	fault_set_drop(&e[1].fault, 0.001);
	e[0].src.limit += 1000;
	e[1].src.limit += 1000;
	ok = run(4000000);
	tap_ok(ok && !e[0].sink.errors && !e[1].sink.errors && !e[0].sink.overflows &&
	       !e[1].sink.overflows && e[1].l.cnt.crc_errors > 0 && e[0].l.cnt.retries > 0,
	       "with bit errors one way and dropped frames the other, applied before the bytes are written: all still arrive once, in order (%llu CRC errors, %llu + %llu rewinds)",
	       (unsigned long long)e[1].l.cnt.crc_errors, (unsigned long long)e[0].l.cnt.retries,
	       (unsigned long long)e[1].l.cnt.retries);
	for (unsigned int i = 0; i < 2; i++) {
		close(e[i].fd);
		link_unit_free(&e[i].l);
	}
	return tap_exit_status();
}
