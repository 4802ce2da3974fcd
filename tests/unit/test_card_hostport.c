// SPDX-License-Identifier: GPL-2.0
/*
 * The host port's ejection buffer bounds a packet the router delivers by
 * whole flits: a flit is taken only while it fits in the reassembly
 * buffer (flits past it are refused and counted as malformed, their
 * credits returned), at 64-byte flits, which do not divide the buffer,
 * as at 16- and 8-byte flits, which do; the state beside the buffer (the
 * flits received, the open packet) is untouched.
 */
#include "card.h"
#include "hostport.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

/* Offer a head and @n - 1 body flits, none a tail, of bytes 0xff on the request VC. */
static void offer(unsigned int fb, unsigned int n)
{
	struct card *c = calloc(1, sizeof(*c));
	struct hostport *hp = &c->hp;
	const unsigned int fit = (unsigned int)sizeof(hp->sink[2].cur.bytes) / fb;
	uint8_t credits[CHAN_VCS_MAX] = { 0 };
	unsigned int refused = 0;

	if (!c || !hostport_init(hp, fb, 64, 64)) {
		tap_ok(0, "%u-byte flits: host port initialised", fb);
		free(c);
		return;
	}
	for (unsigned int i = 0; i < n; i++) {
		struct flit f = { .valid = true, .head = i == 0, .tail = false, .vc = LOOM_VC_REQ0 };

		memset(f.data, 0xff, sizeof(f.data));
		hostport_step(hp, c, &f, credits);
		refused += hp->back.credits[LOOM_VC_REQ0];
	}
	tap_ok(hp->sink[2].cur_flits == fit && hp->sink[2].open,
	       "%u-byte flits: %u of %u flits taken, the packet open (saw %u, open %d)", fb, fit, n,
	       hp->sink[2].cur_flits, hp->sink[2].open);
	tap_ok(hp->malformed == n - fit && refused == n - fit,
	       "%u-byte flits: the %u past the buffer refused, their credits returned (saw %llu refused, %u credits)",
	       fb, n - fit, (unsigned long long)hp->malformed, refused);
	hostport_free(hp);
	free(c);
}

int main(void)
{
	tap_plan(6);
	offer(64, 8);
	offer(16, 26);
	offer(8, 50);
	return tap_exit_status();
}
