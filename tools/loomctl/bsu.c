// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl bsu: the barrier/eureka units of a card and their spanning-tree
 * registers (LOOM_CMD_BSU_GET, LOOM_CMD_BSU_SET).
 */
#include <errno.h>
#include <string.h>

#include "loomctl.h"

static const char lc_bsu_usage[] =
"DESCRIPTION\n"
"    A card has 32 BSUs.  Unit N of every card of a fabric forms one\n"
"    barrier network whose spanning tree is written, card by card, into\n"
"    each unit's tree register: the port toward the parent (or root), and\n"
"    the children: ports, and \"host\" when the card's own unit takes part.\n"
"\n"
"    show: for every unit (or BSU): parent, children, the children that\n"
"    joined the current barrier (arrived), whether a eureka passed this\n"
"    round, the unit's state (bar = ready, arm = joined and waiting,\n"
"    eur = a eureka happened), its completion, eureka and illegal-op\n"
"    counters, and the context it is granted to.\n"
"\n"
"    set: write the tree register of BSU (needs CAP_NET_ADMIN).  LIST is\n"
"    comma-separated port numbers and \"host\", e.g. 0,2,host.  Change a\n"
"    tree only while the unit is idle on every card of the tree.  Prints\n"
"    nothing; with -j, the unit as the card has it afterwards, as\n"
"    \"bsu show BSU\" -j prints it.\n"
"\n"
"FIELDS (text and JSON)\n"
"    dev bsu parent children arrived state completions eurekas illegal\n"
"    eureka granted ctx\n"
"    (parent is a port number or \"root\"; children and arrived are lists\n"
"    of port numbers and \"host\", \"none\" in text when empty; ctx is\n"
"    absent when the unit is not granted)\n"
"\n"
"    Text:  dev loom0 bsu 3 parent 1 children 0,2,host arrived host state arm\n"
"               completions 12 eurekas 1 illegal 0 eureka granted ctx 5\n"
"\n"
"EXAMPLES\n"
"    loomctl bsu show 3\n"
"    loomctl bsu set 3 parent root children 0,1,host\n"
"    loomctl bsu set 3 parent 1 children host\n"
"    loomctl -j bsu set 3 children none\n";

static const char lc_perm_hint[] =
	"changing a BSU tree needs CAP_NET_ADMIN (run it as root)";

static struct nla_policy lc_bsu_policy[LOOM_ATTR_BSU_MAX + 1] = {
	[LOOM_ATTR_BSU_INDEX] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_PARENT] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_CHILDREN] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_ARRIVED] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_EUREKA] = { .type = NLA_FLAG },
	[LOOM_ATTR_BSU_STATE] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_COMPLETIONS] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_EUREKAS] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_ILLEGAL] = { .type = NLA_U32 },
	[LOOM_ATTR_BSU_GRANTED] = { .type = NLA_FLAG },
	[LOOM_ATTR_BSU_CTX] = { .type = NLA_U32 },
};

struct lc_bsu_req {
	uint32_t dev;
	uint32_t bsu;
	bool with_bsu;
	bool set_parent, set_children;
	uint32_t parent, children;
};

static int lc_bsu_build(struct nl_msg *msg, void *arg)
{
	const struct lc_bsu_req *r = arg;
	struct nlattr *nest;

	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, r->dev))
		return -ENOMEM;
	if (!r->with_bsu)
		return 0;
	nest = nla_nest_start(msg, LOOM_ATTR_BSU);
	if (!nest || nla_put_u32(msg, LOOM_ATTR_BSU_INDEX, r->bsu) ||
	    (r->set_parent && nla_put_u32(msg, LOOM_ATTR_BSU_PARENT, r->parent)) ||
	    (r->set_children && nla_put_u32(msg, LOOM_ATTR_BSU_CHILDREN, r->children)))
		return -ENOMEM;
	nla_nest_end(msg, nest);
	return 0;
}

static const char *lc_bsu_state_name(uint32_t s)
{
	switch (s) {
	case LOOM_BSU_S_BAR:
		return "bar";
	case LOOM_BSU_S_ARM:
		return "arm";
	case LOOM_BSU_S_EUR:
		return "eur";
	default:
		return "unknown";
	}
}

static int lc_bsu_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct nlattr *b[LOOM_ATTR_BSU_MAX + 1];
	uint32_t parent;
	char name[24];

	(void)arg;
	if (cmd != LOOM_CMD_BSU_GET || !tb[LOOM_ATTR_BSU])
		return 0;
	if (lc_nl_parse_nest(b, LOOM_ATTR_BSU_MAX, tb[LOOM_ATTR_BSU], lc_bsu_policy))
		return -EPROTO;
	parent = lc_get_u32(b, LOOM_ATTR_BSU_PARENT);
	snprintf(name, sizeof(name), "loom%u", lc_get_u32(tb, LOOM_ATTR_DEV_INDEX));
	lc_print_open_object(NULL);
	lc_print_str(LC_PRINT_ANY, "dev", name);
	lc_print_uint(LC_PRINT_ANY, "bsu", lc_get_u32(b, LOOM_ATTR_BSU_INDEX));
	if (parent == LOOM_BSU_PARENT_ROOT)
		lc_print_str(LC_PRINT_ANY, "parent", "root");
	else
		lc_print_uint(LC_PRINT_ANY, "parent", parent);
	lc_print_port_set("children", lc_get_u32(b, LOOM_ATTR_BSU_CHILDREN), LOOM_BSU_CHILDREN_HOST);
	lc_print_port_set("arrived", lc_get_u32(b, LOOM_ATTR_BSU_ARRIVED), LOOM_BSU_CHILDREN_HOST);
	lc_print_str(LC_PRINT_ANY, "state", lc_bsu_state_name(lc_get_u32(b, LOOM_ATTR_BSU_STATE)));
	lc_print_nl();
	lc_print_uint(LC_PRINT_ANY, "completions", lc_get_u32(b, LOOM_ATTR_BSU_COMPLETIONS));
	lc_print_uint(LC_PRINT_ANY, "eurekas", lc_get_u32(b, LOOM_ATTR_BSU_EUREKAS));
	lc_print_uint(LC_PRINT_ANY, "illegal", lc_get_u32(b, LOOM_ATTR_BSU_ILLEGAL));
	lc_print_bool(LC_PRINT_ANY, "eureka", b[LOOM_ATTR_BSU_EUREKA] != NULL);
	lc_print_bool(LC_PRINT_ANY, "granted", b[LOOM_ATTR_BSU_GRANTED] != NULL);
	if (b[LOOM_ATTR_BSU_CTX])
		lc_print_uint(LC_PRINT_ANY, "ctx", lc_get_u32(b, LOOM_ATTR_BSU_CTX));
	lc_print_close_object();
	return 0;
}

static const char *const lc_bsu_set_words[] = { "parent", "children", NULL };

static int lc_bsu_parse_set(int argc, char **argv, struct lc_bsu_req *r)
{
	const char *const *keys = lc_bsu_set_words;
	static const char usage[] =
		"usage: loomctl bsu set BSU [parent PORT|root] [children P1,P2,host|none]";

	if (argc < 1)
		return lc_usage_error("bsu set: missing BSU: %s", usage);
	if (lc_parse_u32(argv[0], &r->bsu) || r->bsu >= LOOM_BSU_COUNT)
		return lc_usage_error("bsu set: BSU \"%s\" is not a unit number 0..%d", argv[0],
				      LOOM_BSU_COUNT - 1);
	r->with_bsu = true;
	for (int i = 1; i < argc; i += 2) {
		int k = lc_keyword("bsu set", argv[i], keys);

		if (k < 0)
			return LC_EXIT_USAGE;
		if (i + 1 >= argc)
			return lc_usage_error("bsu set: \"%s\" needs a value: %s", keys[k], usage);
		if (k == 0) {
			if (!strcmp(argv[i + 1], "root"))
				r->parent = LOOM_BSU_PARENT_ROOT;
			else if (lc_parse_u32(argv[i + 1], &r->parent) ||
				 r->parent >= LOOM_MAX_PORTS)
				return lc_usage_error("bsu set: parent \"%s\" is neither a port number 0..%d nor root",
						      argv[i + 1], LOOM_MAX_PORTS - 1);
			r->set_parent = true;
		} else {
			if (lc_parse_port_set(argv[i + 1], LOOM_MAX_PORTS, LOOM_BSU_CHILDREN_HOST,
					       &r->children))
				return lc_usage_error("bsu set: children \"%s\": expected port numbers 0..%d and host, comma-separated, or none",
						      argv[i + 1], LOOM_MAX_PORTS - 1);
			r->set_children = true;
		}
	}
	if (!r->set_parent && !r->set_children)
		return lc_usage_error("bsu set: nothing to change: %s", usage);
	return 0;
}

static int lc_bsu_do(struct lc_opts *o, struct lc_bsu_req *r, bool set)
{
	struct lc_nl nl;
	char what[64];
	int err;

	err = lc_nl_open(&nl, o);
	if (err)
		return err;
	r->dev = o->dev;
	if (set) {
		snprintf(what, sizeof(what), "bsu set %u on loom%u", r->bsu, r->dev);
		err = lc_nl_request(&nl, LOOM_CMD_BSU_SET, false, lc_bsu_build, r, NULL, NULL);
		if (!err && o->json) {
			/* -j: the unit as the card now has it, as "bsu show BSU" */
			r->set_parent = r->set_children = false;
			snprintf(what, sizeof(what), "bsu show %u on loom%u after bsu set",
				 r->bsu, r->dev);
			err = lc_nl_request_list(&nl, LOOM_CMD_BSU_GET, false, lc_bsu_build,
						 r, lc_bsu_print, NULL);
		}
	} else {
		if (r->with_bsu)
			snprintf(what, sizeof(what), "bsu show %u on loom%u", r->bsu, r->dev);
		else
			snprintf(what, sizeof(what), "bsu show on loom%u", r->dev);
		err = lc_nl_request_list(&nl, LOOM_CMD_BSU_GET, !r->with_bsu,
					 lc_bsu_build, r, lc_bsu_print, NULL);
	}
	return lc_nl_finish(&nl, err, what, lc_perm_hint);
}

static int lc_bsu_show(struct lc_opts *o, int argc, char **argv)
{
	struct lc_bsu_req r = { .dev = 0 };

	if (argc > 1)
		return lc_usage_error("bsu show: unexpected argument \"%s\": usage: loomctl bsu show [dev DEV] [BSU]",
				      argv[1]);
	if (argc == 1) {
		if (lc_parse_u32(argv[0], &r.bsu))
			return lc_usage_error("bsu show: BSU \"%s\" is not a number", argv[0]);
		r.with_bsu = true;
	}
	return lc_bsu_do(o, &r, false);
}

static int lc_bsu_set(struct lc_opts *o, int argc, char **argv)
{
	struct lc_bsu_req r = { .dev = 0 };
	int err = lc_bsu_parse_set(argc, argv, &r);

	return err ? err : lc_bsu_do(o, &r, true);
}

static const char *const lc_bsu_set_completion[] = { "parent", "children", "root", "host",
						     "none", NULL };

static const struct lc_cmd lc_bsu_cmds[] = {
	{ "show", lc_bsu_show, "[BSU]",
	  "the units' trees, state and counters (all units, or BSU)", NULL, false },
	{ "set", lc_bsu_set, "BSU [parent PORT|root] [children P1,P2,host|none]",
	  "write a unit's tree register (needs CAP_NET_ADMIN; -j prints the unit after)",
	  lc_bsu_set_completion, false },
	{ NULL },
};

const struct lc_object lc_obj_bsu = {
	.name = "bsu",
	.summary = "barrier/eureka units (BSUs) of a card and their spanning trees",
	.usage = lc_bsu_usage,
	.cmds = lc_bsu_cmds,
};
