// SPDX-License-Identifier: GPL-2.0
/* loom-sim: injection schedules (schedule.h). */
#include "schedule.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "../common/parse_num.h"

static const char *const field_names[] = { "cycle", "node", "dst", "flits", "class" };

#define SCHED_FIELDS	5
/* a cycle beyond any run, small enough that cycle + latency never wraps */
#define SCHED_MAX_CYCLE	(1ull << 48)

struct sched_line {
	const char *path;
	unsigned int line;
	char *err;
	size_t errlen;
};

static int field_error(const struct sched_line *l, int k, const char *text, const char *what)
{
	snprintf(l->err, l->errlen, "%s:%u: field %d (%s) '%s': %s", l->path, l->line, k + 1,
		 field_names[k], text, what);
	return -1;
}

/* Field @k, a number within 0..@max; -1 with the reason in l->err. */
static int number(const struct sched_line *l, int k, const char *text, uint64_t max,
		  uint64_t *out)
{
	char what[96];

	if (!parse_num(text, out, false))
		return field_error(l, k, text, "not a number");
	if (*out > max) {
		snprintf(what, sizeof(what), "beyond %llu", (unsigned long long)max);
		return field_error(l, k, text, what);
	}
	return 0;
}

/* One packet line of @tok[0..@ntok) into @p; 0 or -1. */
static int packet(const struct sched_line *l, const struct sim *s, char **tok, int ntok,
		  struct sim_inject *p)
{
	unsigned int fb = s->params.flit_bytes, min_flits = (LOOM_PKT_HDR_SIZE + fb - 1) / fb;
	unsigned int max_flits = (LOOM_PKT_HDR_SIZE + LOOM_PKT_MAX_PAYLOAD) / fb;
	uint64_t cycle, node, dst, flits = min_flits;
	unsigned int len;
	bool resp = false;
	char what[160];

	if (max_flits > s->params.buf_depth)
		max_flits = s->params.buf_depth;
	if (ntok < 3 || ntok > SCHED_FIELDS) {
		snprintf(l->err, l->errlen, "%s:%u: %d fields, expected CYCLE NODE DST [FLITS "
			 "[CLASS]]", l->path, l->line, ntok);
		return -1;
	}
	if (number(l, 0, tok[0], SCHED_MAX_CYCLE, &cycle) ||
	    number(l, 1, tok[1], (uint64_t)s->terminals - 1, &node) ||
	    number(l, 2, tok[2], (uint64_t)s->terminals - 1, &dst))
		return -1;
	if (ntok > 3) {
		if (!parse_num(tok[3], &flits, false))
			return field_error(l, 3, tok[3], "not a number");
		if (flits < min_flits || flits > max_flits) {
			snprintf(what, sizeof(what), "a packet has %u to %u flits here (the %d-byte "
				 "header in %u-byte flits; the payload within %d bytes and "
				 "BUF_DEPTH %u)", min_flits, max_flits, LOOM_PKT_HDR_SIZE, fb,
				 LOOM_PKT_MAX_PAYLOAD, s->params.buf_depth);
			return field_error(l, 3, tok[3], what);
		}
	}
	if (ntok > 4) {
		if (strcmp(tok[4], "req") && strcmp(tok[4], "resp"))
			return field_error(l, 4, tok[4], "expected req or resp");
		resp = !strcmp(tok[4], "resp");
	}
	memset(p, 0, sizeof(*p));
	p->cycle = cycle;
	p->node = (int)node;
	/* flits >= min_flits: the header fits */
	len = (unsigned int)flits * fb - LOOM_PKT_HDR_SIZE;
	sim_header(p->hdr, resp ? LOOM_PKT_GET_RESP : LOOM_PKT_PUT,
		   resp ? LOOM_CLASS_RESP : LOOM_CLASS_REQ, len, (unsigned int)dst,
		   (unsigned int)node, cycle);
	return 0;
}

int sim_schedule_read(const char *path, const struct sim *s, struct sim_inject **v, size_t *n,
		      char *err, size_t errlen)
{
	struct sched_line l = { .path = path, .err = err, .errlen = errlen };
	uint64_t *last = calloc((size_t)s->terminals, sizeof(*last));
	unsigned int *last_line = calloc((size_t)s->terminals, sizeof(*last_line));
	FILE *f = fopen(path, "r");
	struct sim_inject *a = NULL;
	size_t cap = 0, len = 0;
	char buf[512];
	int rc = -1;

	*v = NULL;
	*n = 0;
	if (!f) {
		snprintf(err, errlen, "--inject-schedule %s: cannot open: %s", path,
			 strerror(errno));
		goto out;
	}
	if (!last || !last_line) {
		snprintf(err, errlen, "out of memory reading %s", path);
		goto out;
	}
	while (fgets(buf, sizeof(buf), f)) {
		char *tok[SCHED_FIELDS + 1], *hash = strchr(buf, '#'), *save = NULL;
		int ntok = 0;

		l.line++;
		if (!strchr(buf, '\n') && !feof(f)) {
			snprintf(err, errlen, "%s:%u: line longer than %zu characters", path, l.line,
				 sizeof(buf) - 2);
			goto out;
		}
		if (hash)
			*hash = '\0';
		for (char *t = strtok_r(buf, " \t\r\n", &save); t && ntok <= SCHED_FIELDS;
		     t = strtok_r(NULL, " \t\r\n", &save))
			tok[ntok++] = t;
		if (!ntok)
			continue;
		if (len == cap) {
			size_t c2 = cap ? 2 * cap : 256;
			struct sim_inject *b = realloc(a, c2 * sizeof(*b));

			if (!b) {
				snprintf(err, errlen, "%s:%u: out of memory for %zu packets", path,
					 l.line, c2);
				goto out;
			}
			a = b;
			cap = c2;
		}
		if (packet(&l, s, tok, ntok, &a[len]))
			goto out;
		if (last_line[a[len].node] && a[len].cycle < last[a[len].node]) {
			snprintf(err, errlen, "%s:%u: field 1 (cycle) '%s': node %d's packet of line "
				 "%u is at cycle %llu: give each node's packets in cycle order", path,
				 l.line, tok[0], a[len].node, last_line[a[len].node],
				 (unsigned long long)last[a[len].node]);
			goto out;
		}
		last[a[len].node] = a[len].cycle;
		last_line[a[len].node] = l.line;
		len++;
	}
	if (ferror(f)) {
		snprintf(err, errlen, "--inject-schedule %s: read error", path);
		goto out;
	}
	if (!len) {
		snprintf(err, errlen, "%s: no packets (lines CYCLE NODE DST [FLITS [CLASS]])",
			 path);
		goto out;
	}
	*v = a;
	*n = len;
	a = NULL;
	rc = 0;
out:
	if (f)
		fclose(f);
	free(a);
	free(last);
	free(last_line);
	return rc;
}
