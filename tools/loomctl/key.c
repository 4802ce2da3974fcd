// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl key: partitions, i.e. which users and groups may create contexts
 * with which network key (LOOM_CMD_KEY_GRANT/KEY_REVOKE/KEY_GET).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <string.h>

#include "loomctl.h"

static const char lc_key_usage[] =
"DESCRIPTION\n"
"    A context's key is its partition: the card stamps it on every\n"
"    operation of the context and refuses operations of other partitions,\n"
"    so choosing it is a privilege.  Unless loom.ko is loaded with\n"
"    open_partition=1, a process without CAP_NET_ADMIN can create a\n"
"    context (LOOM_IOC_CTX_CREATE) only with a key granted to its user or\n"
"    to one of its groups; otherwise it gets EACCES.  Root may use any\n"
"    key.  A card holds at most 256 grants; they last while the card is\n"
"    bound (a module reload or an unbind forgets them).  Revoking does not\n"
"    stop contexts already created with the key.\n"
"\n"
"    show     every grant of the card\n"
"    grant    let USER (a name or a uid) or the members of GROUP (a name\n"
"             or a gid) use KEY (a number, e.g. 0x5eed)\n"
"    revoke   remove that grant\n"
"\n"
"    show, grant and revoke need CAP_NET_ADMIN.\n"
"\n"
"FIELDS (text and JSON)\n"
"    dev key, then uid and user (its name), or gid and group (its name);\n"
"    the name is left out when the system does not know the id\n"
"\n"
"    Text:  dev loom0 key 0x5eed uid 1000 user alice\n"
"           dev loom0 key 0x5eed gid 100 group users\n"
"\n"
"EXAMPLES\n"
"    loomctl key grant 0x5eed user alice\n"
"    loomctl key grant 7 group 100\n"
"    loomctl key show\n"
"    loomctl key revoke 0x5eed user alice\n";

static const char lc_perm_hint[] =
	"listing and changing grants needs CAP_NET_ADMIN (run it as root)";

struct lc_key_req {
	uint32_t dev;
	bool with_key;
	uint32_t key;
	bool is_group;
	uint32_t id;
};

static int lc_key_build(struct nl_msg *msg, void *arg)
{
	const struct lc_key_req *r = arg;
	struct nlattr *nest;

	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, r->dev))
		return -ENOMEM;
	if (!r->with_key)
		return 0;
	nest = nla_nest_start(msg, LOOM_ATTR_KEY);
	if (!nest || nla_put_u32(msg, LOOM_ATTR_KEY_VALUE, r->key) ||
	    nla_put_u32(msg, r->is_group ? LOOM_ATTR_KEY_GID : LOOM_ATTR_KEY_UID, r->id))
		return -ENOMEM;
	nla_nest_end(msg, nest);
	return 0;
}

static int lc_key_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct nlattr *k[LOOM_ATTR_KEY_MAX + 1];
	const char *who = NULL;
	char name[24];
	bool group;
	uint32_t id;

	(void)arg;
	if (cmd != LOOM_CMD_KEY_GET)
		return 0;
	if (lc_nl_parse_nest(k, LOOM_ATTR_KEY_MAX, tb[LOOM_ATTR_KEY], lc_key_policy))
		return -EPROTO;
	group = k[LOOM_ATTR_KEY_GID] != NULL;
	id = lc_get_u32(k, group ? LOOM_ATTR_KEY_GID : LOOM_ATTR_KEY_UID);
	if (group) {
		struct group *gr = getgrgid(id);

		who = gr ? gr->gr_name : NULL;
	} else {
		struct passwd *pw = getpwuid(id);

		who = pw ? pw->pw_name : NULL;
	}
	snprintf(name, sizeof(name), "loom%u", lc_get_u32(tb, LOOM_ATTR_DEV_INDEX));
	lc_print_open_object(NULL);
	lc_print_str(LC_PRINT_ANY, "dev", name);
	lc_print_hex(LC_PRINT_ANY, "key", lc_get_u32(k, LOOM_ATTR_KEY_VALUE));
	lc_print_uint(LC_PRINT_ANY, group ? "gid" : "uid", id);
	if (who)
		lc_print_str(LC_PRINT_ANY, group ? "group" : "user", who);
	lc_print_close_object();
	return 0;
}

static int lc_key_parse(const char *cmd, int argc, char **argv, struct lc_key_req *r)
{
	static const char *const who[] = { "user", "group", NULL };

	if (argc != 3)
		return lc_usage_error("%s: usage: loomctl %s [dev DEV] KEY user USER|group GROUP",
				      cmd, cmd);
	if (lc_parse_u32(argv[0], &r->key))
		return lc_usage_error("%s: KEY \"%s\" is not a number (e.g. 0x5eed)",
				      cmd, argv[0]);
	switch (lc_keyword(cmd, argv[1], who)) {
	case 0:
		if (lc_parse_u32(argv[2], &r->id)) {
			struct passwd *pw = getpwnam(argv[2]);

			if (!pw)
				return lc_usage_error("%s: no user \"%s\": give a user name or a uid",
						      cmd, argv[2]);
			r->id = pw->pw_uid;
		}
		break;
	case 1:
		r->is_group = true;
		if (lc_parse_u32(argv[2], &r->id)) {
			struct group *gr = getgrnam(argv[2]);

			if (!gr)
				return lc_usage_error("%s: no group \"%s\": give a group name or a gid",
						      cmd, argv[2]);
			r->id = gr->gr_gid;
		}
		break;
	default:
		return LC_EXIT_USAGE;
	}
	r->with_key = true;
	return 0;
}

static int lc_key_do(struct lc_opts *o, struct lc_key_req *r, uint8_t nlcmd,
		     const char *cmd)
{
	struct lc_nl nl;
	char what[64];
	int err;

	err = lc_nl_open(&nl, o);
	if (err)
		return err;
	r->dev = o->dev;
	if (nlcmd == LOOM_CMD_KEY_GET) {
		snprintf(what, sizeof(what), "key show on loom%u", r->dev);
		err = lc_nl_request_list(&nl, nlcmd, true, lc_key_build, r, lc_key_print, NULL);
	} else {
		snprintf(what, sizeof(what), "key %s %#x on loom%u", cmd, r->key, r->dev);
		err = lc_nl_request(&nl, nlcmd, false, lc_key_build, r, NULL, NULL);
	}
	return lc_nl_finish(&nl, err, what, lc_perm_hint);
}

static int lc_key_show(struct lc_opts *o, int argc, char **argv)
{
	struct lc_key_req r = { .dev = 0 };

	if (argc > 0)
		return lc_usage_error("key show: unexpected argument \"%s\": usage: loomctl key show [dev DEV]",
				      argv[0]);
	return lc_key_do(o, &r, LOOM_CMD_KEY_GET, "show");
}

static int lc_key_grant(struct lc_opts *o, int argc, char **argv)
{
	struct lc_key_req r = { .dev = 0 };
	int err = lc_key_parse("key grant", argc, argv, &r);

	return err ? err : lc_key_do(o, &r, LOOM_CMD_KEY_GRANT, "grant");
}

static int lc_key_revoke(struct lc_opts *o, int argc, char **argv)
{
	struct lc_key_req r = { .dev = 0 };
	int err = lc_key_parse("key revoke", argc, argv, &r);

	return err ? err : lc_key_do(o, &r, LOOM_CMD_KEY_REVOKE, "revoke");
}

static const char *const lc_key_words[] = { "user", "group", NULL };

static const struct lc_cmd lc_key_cmds[] = {
	{ "show", lc_key_show, "",
	  "every grant of the card (needs CAP_NET_ADMIN)", NULL, false },
	{ "grant", lc_key_grant, "KEY user USER|group GROUP",
	  "let a user or a group use KEY (needs CAP_NET_ADMIN)", lc_key_words, false },
	{ "revoke", lc_key_revoke, "KEY user USER|group GROUP",
	  "remove that grant (needs CAP_NET_ADMIN)", lc_key_words, false },
	{ NULL },
};

const struct lc_object lc_obj_key = {
	.name = "key",
	.summary = "partition keys of a card: which users and groups may use which key",
	.usage = lc_key_usage,
	.cmds = lc_key_cmds,
};
