// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl mcast: show and change a card's multicast group table
 * (LOOM_CMD_MCAST_GET/SET/DEL).
 */
#include <errno.h>
#include <string.h>

#include "loomctl.h"

static const char lc_mcast_usage[] =
"DESCRIPTION\n"
"    The multicast group table says what this card's router does with a\n"
"    packet of a multicast group (a put that libloom's loom_put_mcast()\n"
"    sends to every member at once): the network ports a copy leaves by,\n"
"    whether this card's host gets a copy and into which context, and, on\n"
"    the group's root (the card whose hosts send to the group), how many\n"
"    members acknowledge each put.  Group ids are global in the fabric\n"
"    (0..255 on the card emulator); every branch of a group's tree must be\n"
"    a unicast route.  loom-fm computes and writes the entries of every\n"
"    card from its group file; this object shows and sets them by hand.\n"
"\n"
"    show    the valid entries; with group G, that entry (valid or not)\n"
"    set     make the entry of group G valid: ports P,P.. (or none), host\n"
"            CTX (a copy for this host, into context CTX), members N (at\n"
"            the root); fields left out are none / no host copy / 0.  An\n"
"            entry must send a copy: ports or host\n"
"    del     make the entry of group G invalid\n"
"\n"
"    set and del need CAP_NET_ADMIN.  A card without a multicast block has\n"
"    no group table: every command answers \"Operation not supported\".\n"
"\n"
"FIELDS (text and JSON)\n"
"    dev group ports host_ctx members valid\n"
"    (ports is a list of port numbers, \"none\" in text when empty;\n"
"    host_ctx is absent without a host copy; text marks an invalid entry\n"
"    \"invalid\")\n"
"\n"
"    Text:  dev loom0 group 3 ports 0,1 host_ctx 2 members 3 valid\n"
"\n"
"EXAMPLES\n"
"    loomctl mcast show\n"
"    loomctl mcast set dev loom0 group 3 ports 0,1 members 3\n"
"    loomctl mcast set dev loom1 group 3 ports 1 host 0\n"
"    loomctl -j mcast show group 3\n"
"    loomctl mcast del dev loom0 group 3\n";

static const char lc_perm_hint[] =
	"changing multicast groups needs CAP_NET_ADMIN (run it as root)";

static struct nla_policy lc_mcast_policy[LOOM_ATTR_MCAST_MAX + 1] = {
	[LOOM_ATTR_MCAST_GROUP] = { .type = NLA_U32 },
	[LOOM_ATTR_MCAST_PORTS] = { .type = NLA_U32 },
	[LOOM_ATTR_MCAST_HOST_CTX] = { .type = NLA_U32 },
	[LOOM_ATTR_MCAST_MEMBERS] = { .type = NLA_U32 },
	[LOOM_ATTR_MCAST_VALID] = { .type = NLA_FLAG },
};

struct lc_mcast_req {
	uint32_t dev;
	uint32_t group;
	bool with_group;
	uint32_t ports;
	bool with_host;
	uint32_t host_ctx;
	uint32_t members;
	bool with_members;
};

static int lc_mcast_build(struct nl_msg *msg, void *arg)
{
	const struct lc_mcast_req *r = arg;
	struct nlattr *nest;

	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, r->dev))
		return -ENOMEM;
	if (!r->with_group)
		return 0;
	nest = nla_nest_start(msg, LOOM_ATTR_MCAST);
	if (!nest || nla_put_u32(msg, LOOM_ATTR_MCAST_GROUP, r->group) ||
	    (r->ports && nla_put_u32(msg, LOOM_ATTR_MCAST_PORTS, r->ports)) ||
	    (r->with_host && nla_put_u32(msg, LOOM_ATTR_MCAST_HOST_CTX, r->host_ctx)) ||
	    (r->with_members && nla_put_u32(msg, LOOM_ATTR_MCAST_MEMBERS, r->members)))
		return -ENOMEM;
	nla_nest_end(msg, nest);
	return 0;
}

static int lc_mcast_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct nlattr *m[LOOM_ATTR_MCAST_MAX + 1];
	char name[24];
	bool valid;

	(void)arg;
	if (cmd != LOOM_CMD_MCAST_GET || !tb[LOOM_ATTR_MCAST])
		return 0;
	if (lc_nl_parse_nest(m, LOOM_ATTR_MCAST_MAX, tb[LOOM_ATTR_MCAST], lc_mcast_policy))
		return -EPROTO;
	if (!m[LOOM_ATTR_MCAST_GROUP]) {
		fprintf(stderr, "loomctl: the kernel sent a multicast entry without GROUP\n");
		return -EPROTO;
	}
	valid = m[LOOM_ATTR_MCAST_VALID] != NULL;
	snprintf(name, sizeof(name), "loom%u", lc_get_u32(tb, LOOM_ATTR_DEV_INDEX));
	lc_print_open_object(NULL);
	lc_print_str(LC_PRINT_ANY, "dev", name);
	lc_print_uint(LC_PRINT_ANY, "group", lc_get_u32(m, LOOM_ATTR_MCAST_GROUP));
	lc_print_port_set("ports", lc_get_u32(m, LOOM_ATTR_MCAST_PORTS), 0);
	if (m[LOOM_ATTR_MCAST_HOST_CTX])
		lc_print_uint(LC_PRINT_ANY, "host_ctx", lc_get_u32(m, LOOM_ATTR_MCAST_HOST_CTX));
	lc_print_uint(LC_PRINT_ANY, "members", lc_get_u32(m, LOOM_ATTR_MCAST_MEMBERS));
	lc_print_bool(LC_PRINT_ANY, "valid", valid);
	if (!valid)
		lc_print_text("invalid");
	lc_print_close_object();
	return 0;
}

/* "group G" first: the group every command but a dump needs */
static int lc_mcast_group(const char *cmd, int argc, char **argv, struct lc_mcast_req *r)
{
	static const char *const words[] = { "group", NULL };

	if (argc < 1)
		return lc_usage_error("mcast %s: missing \"group G\": usage: loomctl mcast %s [dev DEV] group G%s",
				      cmd, cmd, strcmp(cmd, "set") ? "" :
				      " [ports P,P..|none] [host CTX] [members N]");
	if (lc_match(argv[0], words) != 0)
		return lc_usage_error("mcast %s: expected \"group G\", got \"%s\"", cmd, argv[0]);
	if (argc < 2)
		return lc_usage_error("mcast %s: \"group\" needs a group id, e.g. group 3", cmd);
	if (lc_parse_u32(argv[1], &r->group) || r->group > 0xffff)
		return lc_usage_error("mcast %s: group \"%s\" is not a group id 0..65535", cmd,
				      argv[1]);
	r->with_group = true;
	return 0;
}

static const char *const lc_mcast_set_words[] = { "ports", "host", "members", NULL };

static int lc_mcast_parse_set(int argc, char **argv, struct lc_mcast_req *r)
{
	for (int i = 2; i < argc; i += 2) {
		int k = lc_keyword("mcast set", argv[i], lc_mcast_set_words);

		if (k < 0)
			return LC_EXIT_USAGE;
		if (i + 1 >= argc)
			return lc_usage_error("mcast set: \"%s\" needs a value%s",
					      lc_mcast_set_words[k],
					      k == 0 ? ": port numbers, e.g. 0,1, or none" :
					      k == 1 ? ": the context that receives this host's copy" :
					      ": the number of members (at the root)");
		if (k == 0 && lc_parse_port_set(argv[i + 1], 16, 0, &r->ports))
			return lc_usage_error("mcast set: ports \"%s\": expected port numbers 0..15, comma-separated, or none",
					      argv[i + 1]);
		if (k == 1) {
			if (lc_parse_u32(argv[i + 1], &r->host_ctx) || r->host_ctx > 0xffff)
				return lc_usage_error("mcast set: host \"%s\" is not a context number 0..65535",
						      argv[i + 1]);
			r->with_host = true;
		}
		if (k == 2) {
			if (lc_parse_u32(argv[i + 1], &r->members) || r->members > 0xffff)
				return lc_usage_error("mcast set: members \"%s\" is not a count 0..65535",
						      argv[i + 1]);
			r->with_members = true;
		}
	}
	if (!r->ports && !r->with_host)
		return lc_usage_error("mcast set: the entry sends no copy: give \"ports P,P..\" or \"host CTX\" (mcast del clears an entry)");
	return 0;
}

static int lc_mcast_do(struct lc_opts *o, uint8_t nlcmd, const char *cmd,
		       struct lc_mcast_req *r)
{
	struct lc_nl nl;
	char what[64];
	int err;

	err = lc_nl_open(&nl, o);
	if (err)
		return err;
	r->dev = o->dev;
	if (r->with_group)
		snprintf(what, sizeof(what), "mcast %s group %u on loom%u", cmd, r->group, r->dev);
	else
		snprintf(what, sizeof(what), "mcast %s on loom%u", cmd, r->dev);
	if (nlcmd == LOOM_CMD_MCAST_GET)
		err = lc_nl_request_list(&nl, nlcmd, !r->with_group, lc_mcast_build, r,
					 lc_mcast_print, NULL);
	else
		err = lc_nl_request(&nl, nlcmd, false, lc_mcast_build, r, NULL, NULL);
	return lc_nl_finish(&nl, err, what, lc_perm_hint);
}

static int lc_mcast_show(struct lc_opts *o, int argc, char **argv)
{
	struct lc_mcast_req r = { .dev = 0 };

	if (argc > 0) {
		int err = lc_mcast_group("show", argc, argv, &r);

		if (err)
			return err;
	}
	if (argc > 2)
		return lc_usage_error("mcast show: unexpected argument \"%s\": usage: loomctl mcast show [dev DEV] [group G]",
				      argv[2]);
	return lc_mcast_do(o, LOOM_CMD_MCAST_GET, "show", &r);
}

static int lc_mcast_set(struct lc_opts *o, int argc, char **argv)
{
	struct lc_mcast_req r = { .dev = 0 };
	int err;

	err = lc_mcast_group("set", argc, argv, &r);
	if (!err)
		err = lc_mcast_parse_set(argc, argv, &r);
	return err ? err : lc_mcast_do(o, LOOM_CMD_MCAST_SET, "set", &r);
}

static int lc_mcast_del(struct lc_opts *o, int argc, char **argv)
{
	struct lc_mcast_req r = { .dev = 0 };
	int err;

	err = lc_mcast_group("del", argc, argv, &r);
	if (err)
		return err;
	if (argc > 2)
		return lc_usage_error("mcast del: unexpected argument \"%s\": usage: loomctl mcast del [dev DEV] group G",
				      argv[2]);
	return lc_mcast_do(o, LOOM_CMD_MCAST_DEL, "del", &r);
}

static const char *const lc_mcast_group_word[] = { "group", NULL };
static const char *const lc_mcast_set_completion[] = { "group", "ports", "host", "members",
						       "none", NULL };

static const struct lc_cmd lc_mcast_cmds[] = {
	{ "show", lc_mcast_show, "[group G]",
	  "the valid group-table entries, or the entry of group G", lc_mcast_group_word, false },
	{ "set", lc_mcast_set, "group G [ports P,P..|none] [host CTX] [members N]",
	  "make the entry of group G valid (needs CAP_NET_ADMIN)", lc_mcast_set_completion,
	  false },
	{ "del", lc_mcast_del, "group G",
	  "make the entry of group G invalid (needs CAP_NET_ADMIN)", lc_mcast_group_word, false },
	{ NULL },
};

const struct lc_object lc_obj_mcast = {
	.name = "mcast",
	.summary = "a card's multicast group table",
	.usage = lc_mcast_usage,
	.cmds = lc_mcast_cmds,
};
