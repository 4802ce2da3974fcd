// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl vc: show and change a card's virtual-channel table
 * (LOOM_CMD_VC_GET/VC_SET): per port its dimension and dateline, per
 * destination the VC packets start on.
 */
#include <errno.h>
#include <string.h>

#include "loomctl.h"

static const char lc_vc_usage[] =
"DESCRIPTION\n"
"    The card moves packets between two virtual channels to break the\n"
"    cyclic dependencies of rings and tori (T3E datelines): a packet\n"
"    starts on the VC the table names for its destination when it is\n"
"    injected or enters a new dimension (the dimension of its output\n"
"    port differs from its input port's), keeps it within a dimension,\n"
"    and moves to VC 1 when it leaves through a dateline port.\n"
"\n"
"    show    each port's dimension (or none) and dateline flag, and the\n"
"            destinations that start on VC 1 (all others start on VC 0)\n"
"    set port PORT ...   the port's dimension (0..14, or none) and/or\n"
"            whether it is a dateline\n"
"    set dest DEST vc V  the VC packets toward DEST start on\n"
"\n"
"    set needs CAP_NET_ADMIN.\n"
"\n"
"FIELDS (text and JSON)\n"
"    dev start_vc1, and per port: port dim dateline\n"
"    (JSON: ports is the array of the port records, start_vc1 an array of\n"
"    destinations, dim null for none; text shows start_vc1 as ranges and\n"
"    \"dim none\")\n"
"\n"
"    Text:  dev loom0 start_vc1 1-3,7\n"
"               port 0 dim 0 dateline\n"
"               port 1 dim none\n"
"\n"
"EXAMPLES\n"
"    loomctl vc show\n"
"    loomctl vc set port 1 dim 0 dateline on\n"
"    loomctl vc set dest 5 vc 1\n";

static const char lc_perm_hint[] =
	"changing the VC table needs CAP_NET_ADMIN (run it as root)";

struct lc_vc_req {
	uint32_t dev;
	bool port_given, dim_given, dateline_given, dest_given;
	uint32_t port, dim, dest, vc;
	bool dateline;
};

static int lc_vc_build(struct nl_msg *msg, void *arg)
{
	const struct lc_vc_req *r = arg;
	struct nlattr *nest;

	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, r->dev))
		return -ENOMEM;
	if (r->port_given) {
		nest = nla_nest_start(msg, LOOM_ATTR_VCT_PORT);
		if (!nest || nla_put_u32(msg, LOOM_ATTR_VCT_PORT_INDEX, r->port) ||
		    (r->dim_given && nla_put_u32(msg, LOOM_ATTR_VCT_PORT_DIM, r->dim)) ||
		    (r->dateline_given &&
		     nla_put_u8(msg, LOOM_ATTR_VCT_PORT_DATELINE, r->dateline)))
			return -ENOMEM;
		nla_nest_end(msg, nest);
	}
	if (r->dest_given &&
	    (nla_put_u32(msg, LOOM_ATTR_VCT_DEST, r->dest) ||
	     nla_put_u32(msg, LOOM_ATTR_VCT_VC, r->vc)))
		return -ENOMEM;
	return 0;
}

/* the destinations starting on VC 1: JSON a list, text ranges "1-3,7" */
static void lc_vc_print_start(const uint8_t *bits)
{
	char text[512] = "none";
	size_t used = 0;

	lc_print_open_array(LC_PRINT_JSON, "start_vc1");
	for (unsigned int d = 0; d < LOOM_MAX_NODES; d++) {
		unsigned int e;

		if (!(bits[d / 8] & (1u << (d % 8))))
			continue;
		lc_print_uint(LC_PRINT_JSON, NULL, d);
		for (e = d; e + 1 < LOOM_MAX_NODES &&
		     (bits[(e + 1) / 8] & (1u << ((e + 1) % 8))); e++)
			lc_print_uint(LC_PRINT_JSON, NULL, e + 1);
		if (used < sizeof(text)) {
			if (e == d)
				used += (size_t)snprintf(text + used, sizeof(text) - used,
							 "%s%u", used ? "," : "", d);
			else
				used += (size_t)snprintf(text + used, sizeof(text) - used,
							 "%s%u-%u", used ? "," : "", d, e);
		}
		d = e;
	}
	lc_print_close_array(LC_PRINT_JSON);
	lc_print_str(LC_PRINT_TEXT, "start_vc1", text);
}

struct lc_vc_out {
	struct lc_nl *nl;
};

static void lc_vc_print_port(struct nlattr **p)
{
	uint32_t dim = lc_get_u32(p, LOOM_ATTR_VCT_PORT_DIM);

	lc_print_open_object(NULL);
	lc_print_uint(LC_PRINT_ANY, "port", lc_get_u32(p, LOOM_ATTR_VCT_PORT_INDEX));
	if (dim == LOOM_VCT_DIM_NONE) {
		lc_print_null(LC_PRINT_JSON, "dim");
		lc_print_str(LC_PRINT_TEXT, "dim", "none");
	} else {
		lc_print_uint(LC_PRINT_ANY, "dim", dim);
	}
	lc_print_bool(LC_PRINT_ANY, "dateline", p[LOOM_ATTR_VCT_PORT_DATELINE] &&
			nla_get_u8(p[LOOM_ATTR_VCT_PORT_DATELINE]));
	lc_print_close_object();
}

static int lc_vc_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct lc_vc_out *out = arg;
	struct genlmsghdr *g = nlmsg_data(out->nl->cur);
	struct nlattr *a, *p[LOOM_ATTR_VCT_MAX + 1];
	char name[24];
	int rem;

	if (cmd != LOOM_CMD_VC_GET)
		return 0;
	if (!tb[LOOM_ATTR_VCT_START_VC1]) {
		fprintf(stderr, "loomctl: the kernel sent a VC table without its start bitmap\n");
		return -EPROTO;
	}
	snprintf(name, sizeof(name), "loom%u", lc_get_u32(tb, LOOM_ATTR_DEV_INDEX));
	lc_print_open_object(NULL);
	lc_print_str(LC_PRINT_ANY, "dev", name);
	lc_vc_print_start(nla_data(tb[LOOM_ATTR_VCT_START_VC1]));
	lc_print_open_array(LC_PRINT_JSON, "ports");
	/* VCT_PORT repeats: walk the message, not the parsed table */
	nla_for_each_attr(a, genlmsg_attrdata(g, 0), genlmsg_attrlen(g, 0), rem) {
		if (nla_type(a) != LOOM_ATTR_VCT_PORT)
			continue;
		if (lc_nl_parse_nest(p, LOOM_ATTR_VCT_MAX, a, lc_vct_policy))
			return -EPROTO;
		lc_vc_print_port(p);
	}
	lc_print_close_array(LC_PRINT_JSON);
	lc_print_close_object();
	return 0;
}

static const char *const lc_vc_set_words[] = { "port", "dim", "dateline", "dest", "vc",
					       NULL };

static int lc_vc_parse_set(int argc, char **argv, struct lc_vc_req *r)
{
	static const char *const *words = lc_vc_set_words;
	static const char *const onoff[] = { "on", "off", NULL };
	static const char usage[] =
		"usage: loomctl vc set port PORT [dim DIM|none] [dateline on|off], or loomctl vc set dest DEST vc 0|1";
	bool vc_given = false;

	for (int i = 0; i < argc; i++) {
		int w = lc_keyword("vc set", argv[i], words);
		const char *v;

		if (w < 0)
			return LC_EXIT_USAGE;
		if (++i >= argc)
			return lc_usage_error("vc set: \"%s\" needs a value: %s", words[w], usage);
		v = argv[i];
		switch (w) {
		case 0:
			if (lc_parse_u32(v, &r->port))
				return lc_usage_error("vc set: port \"%s\" is not a number", v);
			r->port_given = true;
			break;
		case 1:
			if (!strcmp(v, "none"))
				r->dim = LOOM_VCT_DIM_NONE;
			else if (lc_parse_u32(v, &r->dim))
				return lc_usage_error("vc set: dim \"%s\" is neither a number nor \"none\"",
						      v);
			r->dim_given = true;
			break;
		case 2:
			switch (lc_match(v, onoff)) {
			case 0:
				r->dateline = true;
				break;
			case 1:
				r->dateline = false;
				break;
			default:
				return lc_usage_error("vc set: dateline \"%s\" is neither on nor off", v);
			}
			r->dateline_given = true;
			break;
		case 3:
			if (lc_parse_u32(v, &r->dest))
				return lc_usage_error("vc set: dest \"%s\" is not a number", v);
			r->dest_given = true;
			break;
		default:
			if (lc_parse_u32(v, &r->vc))
				return lc_usage_error("vc set: vc \"%s\" is not a number (0 or 1)", v);
			vc_given = true;
			break;
		}
	}
	if (r->port_given == r->dest_given)
		return lc_usage_error("vc set: give either \"port PORT ...\" or \"dest DEST vc V\": %s",
				      usage);
	if (r->port_given && !r->dim_given && !r->dateline_given)
		return lc_usage_error("vc set: port %u: nothing to set: give dim DIM|none and/or dateline on|off",
				      r->port);
	if (r->port_given && vc_given)
		return lc_usage_error("vc set: \"vc\" goes with \"dest\", not with \"port\": %s", usage);
	if (r->dest_given && !vc_given)
		return lc_usage_error("vc set: dest %u: missing \"vc 0|1\"", r->dest);
	if (r->dest_given && (r->dim_given || r->dateline_given))
		return lc_usage_error("vc set: dim and dateline go with \"port\", not with \"dest\": %s",
				      usage);
	return 0;
}

static int lc_vc_do(struct lc_opts *o, struct lc_vc_req *r, bool set)
{
	struct lc_vc_out out;
	struct lc_nl nl;
	char what[48];
	int err;

	err = lc_nl_open(&nl, o);
	if (err)
		return err;
	r->dev = o->dev;
	out.nl = &nl;
	snprintf(what, sizeof(what), "vc %s on loom%u", set ? "set" : "show", r->dev);
	if (set)
		err = lc_nl_request(&nl, LOOM_CMD_VC_SET, false, lc_vc_build, r, NULL, NULL);
	else
		err = lc_nl_request(&nl, LOOM_CMD_VC_GET, false, lc_vc_build, r,
				    lc_vc_print, &out);
	return lc_nl_finish(&nl, err, what, lc_perm_hint);
}

static int lc_vc_show(struct lc_opts *o, int argc, char **argv)
{
	struct lc_vc_req r = { .dev = 0 };

	if (argc > 0)
		return lc_usage_error("vc show: unexpected argument \"%s\": usage: loomctl vc show [dev DEV]",
				      argv[0]);
	return lc_vc_do(o, &r, false);
}

static int lc_vc_set(struct lc_opts *o, int argc, char **argv)
{
	struct lc_vc_req r = { .dev = 0 };
	int err = lc_vc_parse_set(argc, argv, &r);

	return err ? err : lc_vc_do(o, &r, true);
}

static const char *const lc_vc_set_completion[] = { "port", "dim", "dateline", "dest",
						    "vc", "none", "on", "off", NULL };

static const struct lc_cmd lc_vc_cmds[] = {
	{ "show", lc_vc_show, "",
	  "the VC table: per port its dimension and dateline, the destinations starting on VC 1",
	  NULL, false },
	{ "set", lc_vc_set, "port PORT [dim DIM|none] [dateline on|off] | dest DEST vc 0|1",
	  "change a port's dimension or dateline, or a destination's start VC (needs CAP_NET_ADMIN)",
	  lc_vc_set_completion, false },
	{ NULL },
};

const struct lc_object lc_obj_vc = {
	.name = "vc",
	.summary = "a card's virtual-channel table: dimensions, datelines, start VCs",
	.usage = lc_vc_usage,
	.cmds = lc_vc_cmds,
};
