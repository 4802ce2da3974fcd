// SPDX-License-Identifier: GPL-2.0
/* The packet recorder (packet_record.h). */
#include "packet_record.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <loom_hw/packet.h>

#include "card.h"

struct packet_record {
	FILE *f;
	char path[256];
	uint64_t packets;
	bool write_failed;
};

static const char *record_type(const struct loom_pkt_hdr *h)
{
	switch (h->type) {
	case LOOM_PKT_PUT:
	case LOOM_PKT_COUNTED_PUT:
		return "put";
	case LOOM_PKT_GET_REQ:
		return "get";
	case LOOM_PKT_AMO_REQ:
		return "amo";
	default:
		return NULL;
	}
}

/* The card's trace hook: a request from this card's host enters the router. */
static void record_packet(void *opaque, const struct card *c, const uint8_t *pkt, bool delivered)
{
	struct packet_record *r = opaque;
	struct loom_pkt_hdr h;
	const char *type;
	uint64_t resp = 0;

	if (delivered)
		return;
	memcpy(&h, pkt, sizeof(h));
	type = record_type(&h);
	if (!type || h.src_node != c->node)
		return;		/* responses and packets of other kinds */
	if (h.type == LOOM_PKT_GET_REQ)
		resp = h.op_len;
	else if (h.type == LOOM_PKT_AMO_REQ)
		resp = 8;
	if (fprintf(r->f, "%llu %u %s %u %llu\n", (unsigned long long)c->now, h.dst_node, type,
		    h.len, (unsigned long long)resp) < 0)
		r->write_failed = true;
	r->packets++;
}

bool packet_record_active(const struct card *c)
{
	return c->trace == record_packet;
}

bool packet_record_start(struct card *c, const char *path, char *err, size_t errlen)
{
	struct packet_record *r;
	struct timespec ts;

	if (packet_record_active(c) && !packet_record_stop(c, NULL, err, errlen))
		return false;
	if (c->trace) {
		snprintf(err, errlen, "record %s: the card's packet trace is in use", path);
		return false;
	}
	r = calloc(1, sizeof(*r));
	if (!r || strlen(path) >= sizeof(r->path)) {
		snprintf(err, errlen, "record %.64s: %s", path,
			 r ? "path too long (255 bytes at most)" : "out of memory");
		free(r);
		return false;
	}
	r->f = fopen(path, "w");
	if (!r->f) {
		snprintf(err, errlen, "record %s: cannot create: %s", path, strerror(errno));
		free(r);
		return false;
	}
	snprintf(r->path, sizeof(r->path), "%s", path);
	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(r->f, "# loom packet trace 1\n# node %u clock_khz %u start_cycle %llu start_ns %llu\n",
		c->node, c->p.clock_khz, (unsigned long long)c->now,
		(unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec);
	c->trace = record_packet;
	c->trace_opaque = r;
	return true;
}

bool packet_record_stop(struct card *c, uint64_t *packets, char *err, size_t errlen)
{
	struct packet_record *r = c->trace_opaque;
	bool ok;

	if (!packet_record_active(c)) {
		snprintf(err, errlen, "record off: the card is not recording");
		return false;
	}
	c->trace = NULL;
	c->trace_opaque = NULL;
	ok = !r->write_failed && !ferror(r->f);
	if (fclose(r->f))
		ok = false;
	if (!ok)
		snprintf(err, errlen, "record %s: writing failed (disk full?): the trace is incomplete",
			 r->path);
	if (packets)
		*packets = r->packets;
	free(r);
	return ok;
}
