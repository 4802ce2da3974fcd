// SPDX-License-Identifier: GPL-2.0
/*
 * The link unit's parameters: the defaults are valid; every impossible
 * configuration is refused with a message naming the parameter, its value
 * and its limit, by link_params_check(), link_unit_init() and, for two
 * ends built differently, link_wire_init(); and Documentation/hw/link.rst
 * lists exactly the parameters of LINK_PARAMS (RTL name, default, range)
 * and the counters of LINK_COUNTERS.
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
	{ "lanes", 0, "1..4" },
	{ "lanes", 3, "1, 2 or 4" },
	{ "lanes", 8, "1..4" },
	{ "lane_bytes", 0, "1..16" },
	{ "flit_bytes", 12, "power of two" },
	{ "flit_bytes", 4, "8..64" },
	{ "vcs", 0, "1..8" },
	{ "vcs", 9, "1..8" },
	{ "vc_buf_flits", 18, "maximal packet (19 flits" },
	{ "wire_latency", 0, "1..4096" },
	{ "replay_frames", 0, "1..4096" },
	{ "replay_frames", 5000, "1..4096" },
	{ "ack_timeout", 200, "round trip at one lane (228 cycles)" },
	{ "tx_queue", 0, "1..16" },
	{ "rx_queue", 0, "1..64" },
	{ "lane_window", 0, "1..1073741824" },
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

/* The table row of the doc that starts with ``@name``, or NULL. */
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

int main(void)
{
	static struct link_unit a, b;
	struct link_params p, q;
	char err[256], want[128], *doc;
	bool ok = true;
	unsigned int missing = 0;

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
	q.vc_buf_flits = 10;
	err[0] = 0;
	ok = !link_unit_init(&a, &q, err, sizeof(err)) && strstr(err, "vc_buf_flits = 10");
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
	for (unsigned int i = 0; ok && i < link_param_count; i++) {
		const struct link_param_info *pi = &link_param_table[i];
		const char *row = doc_row(doc, pi->name);
		char rtl[64], def[32], range[80];

		snprintf(rtl, sizeof(rtl), "``%s``", pi->rtl);
		snprintf(def, sizeof(def), " %u ", pi->def);
		snprintf(range, sizeof(range), "%u..%u", pi->min, pi->max);
		if (!row || !strstr(row, rtl) || strstr(row, rtl) > strchr(row, '\n') ||
		    !strstr(row, def) || strstr(row, def) > strchr(row, '\n') ||
		    !strstr(row, range) || strstr(row, range) > strchr(row, '\n')) {
			tap_diag("Documentation/hw/link.rst: no row ``%s`` %s %u %s", pi->name, rtl,
				 pi->def, range);
			missing++;
		}
	}
	tap_ok(ok && !missing, "Documentation/hw/link.rst lists all %u parameters with their RTL name, default and range",
	       link_param_count);
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
