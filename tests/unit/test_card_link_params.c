// SPDX-License-Identifier: GPL-2.0
/*
 * The link unit's parameters: the defaults are valid; every impossible
 * configuration is refused with a message naming the parameter, its value
 * and its limit, by link_params_check(), link_unit_init() and, for two
 * ends built differently, link_wire_init(); and Documentation/hw/link.rst
 * lists exactly the parameters of LINK_PARAMS (name, default, range,
 * description) and the counters of LINK_COUNTERS.
 */
#include "link/link_unit.h"
#include "link/link_wire.h"
#include "tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

TAP_DEFINE;

struct bad {
	const char *name;
	uint32_t value;
	const char *says;	/* in the message besides "NAME = VALUE" */
};

static const struct bad bad[] = {
	{ "LANES", 0, "below its minimum 1" },
	{ "LANES", 3, "1, 2 or 4" },
	{ "LANES", 8, "above its maximum 4" },
	{ "LANE_BYTES", 0, "below its minimum 1" },
	{ "FLIT_BYTES", 12, "multiple of 8" },
	{ "FLIT_BYTES", 4, "below its minimum 8" },
	{ "VCS", 0, "below its minimum 1" },
	{ "VCS", 9, "above its maximum 8" },
	{ "BUF_DEPTH", 18, "maximal packet (19 flits" },
	{ "WIRE_LATENCY", 0, "below its minimum 1" },
	{ "REPLAY_FRAMES", 0, "below its minimum 1" },
	{ "REPLAY_FRAMES", 5000, "above its maximum 4096" },
	{ "ACK_TIMEOUT", 200, "round trip at one lane (228 cycles)" },
	{ "TX_QUEUE", 0, "below its minimum 1" },
	{ "RX_QUEUE", 0, "below its minimum 1" },
	{ "LANE_WINDOW", 0, "below its minimum 1" },
};

static char *read_doc(void)
{
	char path[512];
	const char *me = __FILE__, *cut = strstr(me, "tests/unit/");
	FILE *f;
	char *buf;
	long n;

	if (!cut)
		return NULL;
	snprintf(path, sizeof(path), "%.*sDocumentation/hw/link.rst", (int)(cut - me), me);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

/* The row of a simple table of the doc that starts with ``@name``, or NULL. */
static const char *doc_row(const char *doc, const char *name)
{
	char key[80];
	const char *p = doc;

	snprintf(key, sizeof(key), "\n``%s``", name);
	while ((p = strstr(p, key))) {
		p++;
		if (p[strlen(key) - 1] == ' ')
			return p;
	}
	return NULL;
}

/* The csv-table rows of the doc's parameter table against LINK_PARAMS. */
static unsigned int doc_params(const char *doc, unsigned int *seen)
{
	unsigned int differ = 0;

	*seen = 0;
	for (const char *line = doc; line; line = strchr(line, '\n')) {
		char name[64];
		unsigned int def, min, max;

		line++;
		if (*line == '\n' ||
		    sscanf(line, " \"``%63[A-Z_]``\", %u, %u, %u,", name, &def, &min, &max) != 4)
			continue;	/* " " in the format would skip a blank line */
		(*seen)++;
		for (unsigned int i = 0; i < link_param_count; i++) {
			const struct link_param_desc *d = &link_param_table[i];
			const char *end = strchr(line, '\n'), *desc = strstr(line, d->desc);

			if (strcmp(d->name, name))
				continue;
			if (d->def != def || d->min != min || d->max != max || !desc || desc > end) {
				tap_diag("doc row %s: %u %u %u, LINK_PARAMS: %u %u %u \"%s\"", name, def,
					 min, max, d->def, d->min, d->max, d->desc);
				differ++;
			}
			break;
		}
	}
	return differ;
}

int main(void)
{
	static struct link_unit a, b;
	struct link_params p, q;
	char err[256], want[128], *doc;
	bool ok = true;
	unsigned int missing = 0, seen = 0;

	tap_plan(6);
	link_params_default(&p);
	tap_ok(link_params_check(&p, err, sizeof(err)), "the defaults are valid");

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		link_params_default(&q);
		link_params_set(&q, bad[i].name, bad[i].value);
		snprintf(want, sizeof(want), "link parameter %s = %u", bad[i].name, bad[i].value);
		err[0] = 0;
		if (link_params_check(&q, err, sizeof(err)) || !strstr(err, want) ||
		    !strstr(err, bad[i].says)) {
			tap_diag("%s = %u: got \"%s\", want \"%s\" and \"%s\"", bad[i].name,
				 bad[i].value, err, want, bad[i].says);
			ok = false;
		}
	}
	tap_ok(ok, "%zu impossible configurations refused, each message naming the parameter, its value and its limit",
	       sizeof(bad) / sizeof(bad[0]));

	link_params_default(&q);
	q.buf_depth = 10;
	err[0] = 0;
	ok = !link_unit_init(&a, &q, err, sizeof(err)) && strstr(err, "BUF_DEPTH = 10");
	tap_ok(ok, "link_unit_init refuses them too: \"%s\"", err);

	link_params_default(&q);
	q.wire_latency = 9;
	ok = link_unit_init(&a, &p, err, sizeof(err)) && link_unit_init(&b, &q, err, sizeof(err));
	{
		struct link_wire w;

		err[0] = 0;
		ok = ok && !link_wire_init(&w, &a, &b, 1, err, sizeof(err)) &&
		     strstr(err, "different parameters");
	}
	tap_ok(ok, "a wire refuses two ends built differently: \"%s\"", err);
	link_unit_free(&a);
	link_unit_free(&b);

	doc = read_doc();
	ok = doc != NULL;
	if (ok)
		missing = doc_params(doc, &seen);
	tap_ok(ok && !missing && seen == link_param_count,
	       "Documentation/hw/link.rst: %u parameter rows (LINK_PARAMS has %u), %u differ", seen,
	       link_param_count, missing);
	missing = 0;
	for (unsigned int i = 0; ok && i < link_counter_count; i++) {
		if (!doc_row(doc, link_counter_table[i].name)) {
			tap_diag("Documentation/hw/link.rst: no row for counter ``%s``",
				 link_counter_table[i].name);
			missing++;
		}
	}
	tap_ok(ok && !missing, "Documentation/hw/link.rst describes all %u counters", link_counter_count);
	free(doc);
	return tap_exit_status();
}
