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

const char lc_key_usage[] =
"NAME\n"
"    loomctl key - partition keys of a loom card: who may use which key\n"
"\n"
"SYNOPSIS\n"
"    loomctl [-j] [-d DEV] key show\n"
"    loomctl [-d DEV] key grant KEY user USER|group GROUP\n"
"    loomctl [-d DEV] key revoke KEY user USER|group GROUP\n"
"    loomctl key help\n"
"\n"
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
"    Text:  key 0x5eed user 1000 (alice)\n"
"           key 0x5eed group 100 (users)\n"
"    JSON:  an array of objects with the keys dev, key, and uid or gid.\n"
"\n"
"EXIT STATUS\n"
"    0 success; 1 the kernel refused (e.g. already granted, no such\n"
"    grant, table full, no permission); 2 usage error (e.g. unknown user)\n"
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

struct lc_key_out {
	const struct lc_opts *o;
	unsigned int n;
};

static int lc_key_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct lc_key_out *out = arg;
	struct nlattr *k[LOOM_ATTR_KEY_MAX + 1];
	bool group;
	uint32_t id;
	const char *name = NULL;

	if (cmd != LOOM_CMD_KEY_GET)
		return 0;
	if (lc_nl_parse_nest(k, LOOM_ATTR_KEY_MAX, tb[LOOM_ATTR_KEY], lc_key_policy))
		return -EPROTO;
	group = k[LOOM_ATTR_KEY_GID] != NULL;
	id = lc_get_u32(k, group ? LOOM_ATTR_KEY_GID : LOOM_ATTR_KEY_UID);
	if (out->o->json) {
		printf("%s{\"dev\":\"loom%u\",\"key\":%u,\"%s\":%u}", out->n ? "," : "",
		       lc_get_u32(tb, LOOM_ATTR_DEV_INDEX), lc_get_u32(k, LOOM_ATTR_KEY_VALUE),
		       group ? "gid" : "uid", id);
	} else {
		if (group) {
			struct group *gr = getgrgid(id);

			name = gr ? gr->gr_name : NULL;
		} else {
			struct passwd *pw = getpwuid(id);

			name = pw ? pw->pw_name : NULL;
		}
		printf("key %#x %s %u", lc_get_u32(k, LOOM_ATTR_KEY_VALUE),
		       group ? "group" : "user", id);
		if (name)
			printf(" (%s)", name);
		putchar('\n');
	}
	out->n++;
	return 0;
}

static int lc_key_parse(const char *cmd, int argc, char **argv, struct lc_key_req *r)
{
	static const char *const who[] = { "user", "group", NULL };

	if (argc != 3)
		return lc_usage_error("key %s: usage: loomctl key %s KEY user USER|group GROUP",
				      cmd, cmd);
	if (lc_parse_u32(argv[0], &r->key))
		return lc_usage_error("key %s: KEY \"%s\" is not a number (e.g. 0x5eed)",
				      cmd, argv[0]);
	switch (lc_match(argv[1], who)) {
	case 0:
		if (lc_parse_u32(argv[2], &r->id)) {
			struct passwd *pw = getpwnam(argv[2]);

			if (!pw)
				return lc_usage_error("key %s: no user \"%s\": give a user name or a uid",
						      cmd, argv[2]);
			r->id = pw->pw_uid;
		}
		break;
	case 1:
		r->is_group = true;
		if (lc_parse_u32(argv[2], &r->id)) {
			struct group *gr = getgrnam(argv[2]);

			if (!gr)
				return lc_usage_error("key %s: no group \"%s\": give a group name or a gid",
						      cmd, argv[2]);
			r->id = gr->gr_gid;
		}
		break;
	default:
		return lc_usage_error("key %s: \"%s\" is neither user nor group", cmd, argv[1]);
	}
	r->with_key = true;
	return 0;
}

int lc_key_run(const struct lc_opts *o, int argc, char **argv)
{
	static const char *const cmds[] = { "show", "list", "grant", "revoke", NULL };
	struct lc_key_req r = { .dev = o->dev };
	struct lc_key_out out = { .o = o };
	struct lc_nl nl;
	char what[64];
	uint8_t nlcmd = LOOM_CMD_KEY_GET;
	int cmd = 0, err;

	err = lc_subcommand("key", argc, argv, cmds, "show, grant, revoke, help", lc_key_usage,
			    &cmd);
	if (err || cmd < 0)
		return err;
	if (cmd >= 2) {
		err = lc_key_parse(cmds[cmd], argc - 1, argv + 1, &r);
		if (err)
			return err;
		nlcmd = cmd == 2 ? LOOM_CMD_KEY_GRANT : LOOM_CMD_KEY_REVOKE;
		snprintf(what, sizeof(what), "key %s %#x on loom%u", cmds[cmd], r.key, r.dev);
	} else {
		if (argc > 1)
			return lc_usage_error("key show: unexpected argument \"%s\": usage: loomctl key show",
					      argv[1]);
		snprintf(what, sizeof(what), "key show on loom%u", r.dev);
	}
	err = lc_nl_open(&nl);
	if (err)
		return err;
	if (nlcmd == LOOM_CMD_KEY_GET) {
		err = lc_nl_request_list(&nl, o->json, nlcmd, true, lc_key_build, &r,
					 lc_key_print, &out);
	} else {
		err = lc_nl_request(&nl, nlcmd, false, lc_key_build, &r, NULL, NULL);
	}
	return lc_nl_finish(&nl, err, what, lc_perm_hint);
}
