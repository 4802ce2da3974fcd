// SPDX-License-Identifier: GPL-2.0
/* loom-sim: replay of recorded request traces (replay.h). */
#include "replay.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <loom_hw/packet.h>

#include "sim.h"

/* What the header of one file says. */
struct replay_file {
	const char *path;
	unsigned int node, khz;
	uint64_t start_cycle, start_ns;
};

static int read_header(FILE *f, struct replay_file *h, unsigned int *line, char *err,
		       size_t errlen)
{
	char buf[256];
	unsigned long long sc, ns;

	*line = 1;
	if (!fgets(buf, sizeof(buf), f) || strcmp(buf, "# loom packet trace 1\n")) {
		snprintf(err, errlen, "--replay %s:1: not a loom packet trace (the first line "
			 "must be '# loom packet trace 1'; loom-card --record writes them)", h->path);
		return -1;
	}
	*line = 2;
	if (!fgets(buf, sizeof(buf), f) ||
	    sscanf(buf, "# node %u clock_khz %u start_cycle %llu start_ns %llu", &h->node, &h->khz,
		   &sc, &ns) != 4 || !h->khz) {
		snprintf(err, errlen, "--replay %s:2: expected '# node N clock_khz K start_cycle C "
			 "start_ns T' with a clock above 0", h->path);
		return -1;
	}
	h->start_cycle = sc;
	h->start_ns = ns;
	return 0;
}

static unsigned int flits_of(const struct sim *s, unsigned int bytes)
{
	unsigned int fb = s->params.flit_bytes;

	return (LOOM_PKT_HDR_SIZE + bytes + fb - 1) / fb;
}

/* Parse one record line into @r (cycle still the card's); 0 or -1 with @err. */
static int parse_record(const struct sim *s, const struct replay_file *h, unsigned int line,
			const char *buf, struct sim_replay_rec *r, char *err, size_t errlen)
{
	unsigned long long cycle, resp;
	unsigned int dst, bytes, max_flits = router_max_packet_flits(s->params.flit_bytes);
	char type[8];
	int used = 0;

	if (sscanf(buf, "%llu %u %7s %u %llu%n", &cycle, &dst, type, &bytes, &resp, &used) != 5 ||
	    buf[used] != '\n') {
		snprintf(err, errlen, "--replay %s:%u: expected 'CYCLE DST TYPE BYTES RESP_BYTES'",
			 h->path, line);
		return -1;
	}
	if (!strcmp(type, "put"))
		r->type = LOOM_PKT_PUT;
	else if (!strcmp(type, "get"))
		r->type = LOOM_PKT_GET_REQ;
	else if (!strcmp(type, "amo"))
		r->type = LOOM_PKT_AMO_REQ;
	else {
		snprintf(err, errlen, "--replay %s:%u: type '%s': expected put, get or amo", h->path,
			 line, type);
		return -1;
	}
	if (dst >= (unsigned int)s->terminals) {
		snprintf(err, errlen, "--replay %s:%u: destination %u is not a terminal of %s "
			 "(%d terminals)", h->path, line, dst, s->g->name, s->terminals);
		return -1;
	}
	if (cycle < h->start_cycle) {
		snprintf(err, errlen, "--replay %s:%u: cycle %llu is before the trace's start_cycle "
			 "%llu", h->path, line, cycle, (unsigned long long)h->start_cycle);
		return -1;
	}
	if (bytes > LOOM_PKT_MAX_PAYLOAD || resp > LOOM_PKT_MAX_PAYLOAD ||
	    (r->type == LOOM_PKT_PUT && resp)) {
		snprintf(err, errlen, "--replay %s:%u: %u bytes asking %llu back: a packet carries "
			 "at most %u bytes, and a put asks for none", h->path, line, bytes, resp,
			 LOOM_PKT_MAX_PAYLOAD);
		return -1;
	}
	r->cycle = cycle;
	r->dst = dst;
	r->flits = (uint16_t)flits_of(s, bytes);
	r->resp_flits = (uint8_t)(r->type == LOOM_PKT_PUT ? 0 : flits_of(s, (unsigned int)resp));
	if (r->flits > max_flits || r->resp_flits > max_flits) {
		snprintf(err, errlen, "--replay %s:%u: a packet of %u bytes needs more than the "
			 "%u flits of %u bytes a packet may have", h->path, line,
			 LOOM_PKT_HDR_SIZE + bytes, max_flits, s->params.flit_bytes);
		return -1;
	}
	return 0;
}

/* Read file @h into terminal h->node's list; its cycles shifted by @offset. */
static int read_records(struct sim *s, FILE *f, const struct replay_file *h, uint64_t offset,
			unsigned int line, char *err, size_t errlen)
{
	struct sim_replay *rp = &s->replay[h->node];
	uint32_t cap = 0;
	char buf[256];
	uint64_t last = 0;

	while (fgets(buf, sizeof(buf), f)) {
		struct sim_replay_rec r;

		line++;
		if (buf[0] == '#')
			continue;
		if (parse_record(s, h, line, buf, &r, err, errlen))
			return -1;
		if (r.cycle < last) {
			snprintf(err, errlen, "--replay %s:%u: cycle %llu after %llu: the records "
				 "must be in time order", h->path, line,
				 (unsigned long long)r.cycle, (unsigned long long)last);
			return -1;
		}
		last = r.cycle;
		r.cycle = r.cycle - h->start_cycle + offset;
		if (rp->n == cap) {
			struct sim_replay_rec *n;

			cap = cap ? 2 * cap : 256;
			n = realloc(rp->rec, (size_t)cap * sizeof(*n));
			if (!n) {
				snprintf(err, errlen, "--replay %s: out of memory at line %u", h->path,
					 line);
				return -1;
			}
			rp->rec = n;
		}
		rp->rec[rp->n++] = r;
		if (r.cycle + 1 > s->replay_end)
			s->replay_end = r.cycle + 1;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "--replay %s: read error after line %u", h->path, line);
		return -1;
	}
	return 0;
}

int replay_load(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	struct replay_file h[SIM_MAX_REPLAY];
	uint64_t first_ns = UINT64_MAX;
	int rc = -1;

	s->replay = calloc((size_t)s->terminals, sizeof(*s->replay));
	if (!s->replay) {
		snprintf(err, errlen, "out of memory for the replay of %d terminals", s->terminals);
		return -1;
	}
	/* the headers first: the earliest start aligns the files */
	for (int k = 0; k < c->nreplay; k++) {
		FILE *f = fopen(c->replay[k], "r");
		unsigned int line;

		h[k].path = c->replay[k];
		if (!f) {
			snprintf(err, errlen, "--replay %s: cannot open: %s", c->replay[k],
				 strerror(errno));
			return -1;
		}
		rc = read_header(f, &h[k], &line, err, errlen);
		fclose(f);
		if (rc)
			return -1;
		if (h[k].node >= (unsigned int)s->terminals) {
			snprintf(err, errlen, "--replay %s:2: node %u is not a terminal of %s (%d "
				 "terminals)", h[k].path, h[k].node, s->g->name, s->terminals);
			return -1;
		}
		for (int j = 0; j < k; j++) {
			if (h[j].node == h[k].node) {
				snprintf(err, errlen, "--replay %s and %s: both are node %u's trace",
					 h[j].path, h[k].path, h[k].node);
				return -1;
			}
		}
		if (h[k].start_ns < first_ns)
			first_ns = h[k].start_ns;
	}
	for (int k = 0; k < c->nreplay; k++) {
		FILE *f = fopen(c->replay[k], "r");
		unsigned int line;
		uint64_t offset = (uint64_t)((double)(h[k].start_ns - first_ns) * h[k].khz / 1e6);

		if (!f) {
			snprintf(err, errlen, "--replay %s: cannot open: %s", c->replay[k],
				 strerror(errno));
			return -1;
		}
		rc = read_header(f, &h[k], &line, err, errlen) ||
		     read_records(s, f, &h[k], offset, line, err, errlen);
		fclose(f);
		if (rc)
			return -1;
	}
	return 0;
}

void replay_free(struct sim *s)
{
	if (!s->replay)
		return;
	for (int i = 0; i < s->terminals; i++)
		free(s->replay[i].rec);
	free(s->replay);
	s->replay = NULL;
}

uint64_t replay_requests(const struct sim *s)
{
	uint64_t n = 0;

	for (int i = 0; s->replay && i < s->terminals; i++)
		n += s->replay[i].n;
	return n;
}
