// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl route: show and change a card's routing table
 * (LOOM_CMD_ROUTE_GET/SET/DEL), and replace it whole from a file in the
 * format route show prints (LOOM_CMD_ROUTE_LOAD).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loomctl.h"

static const char lc_route_usage[] =
"DESCRIPTION\n"
"    The routing table is indexed by logical destination node (0..1023 on\n"
"    the card emulator).  An entry names the output port a packet for that\n"
"    destination leaves by (0..ports-1), or \"host\" (port 15) to deliver it\n"
"    to this host; it carries the physical destination node and whether\n"
"    adaptive routing is allowed.  Packets to a destination without a\n"
"    valid entry are answered UNREACHABLE.\n"
"\n"
"    show    the valid entries; with DEST, that entry (valid or not)\n"
"    set     make the entry of DEST valid with the given port; phys_dest\n"
"            defaults to DEST; adaptive allows adaptive routing\n"
"    del     make the entry of DEST invalid\n"
"    load    replace the whole table at once with the entries of FILE (-:\n"
"            standard input): every entry not listed becomes invalid.\n"
"            FILE has the lines route show prints, \"[dev DEV] dest D port\n"
"            P|host [phys_dest N] [adaptive] [valid|invalid]\", so that\n"
"            \"route show > f\" and \"route load f\" round-trip; dev is\n"
"            ignored (the table goes to the card named on the command\n"
"            line), a line marked invalid is skipped, blank lines and lines\n"
"            starting with # are ignored.  The file is checked whole (by\n"
"            loomctl, then by the kernel) before anything is written: a\n"
"            refused load changes nothing.\n"
"\n"
"    set, del and load need CAP_NET_ADMIN; every change is announced to\n"
"    \"loomctl monitor\" (a load as one route_table_loaded event).\n"
"\n"
"FIELDS (text and JSON)\n"
"    dev dest port phys_dest adaptive valid\n"
"    (port is a number or \"host\"; text marks an invalid entry \"invalid\")\n"
"\n"
"    Text:  dev loom0 dest 1 port 0 phys_dest 1 adaptive valid\n"
"\n"
"EXAMPLES\n"
"    loomctl route show\n"
"    loomctl route set 1 port 0\n"
"    loomctl route set 0 port host\n"
"    loomctl route set 7 port 1 adaptive phys_dest 9\n"
"    loomctl route del 1\n"
"    loomctl route show dev loom0 > table; loomctl route load dev loom1 table\n";

static const char lc_perm_hint[] =
	"changing routes needs CAP_NET_ADMIN (run it as root)";

struct lc_route_req {
	uint32_t dev;
	uint32_t dest;
	bool with_dest;
	uint32_t port;
	bool with_port;
	bool adaptive;
	uint32_t phys;
	bool with_phys;
};

static int lc_route_build(struct nl_msg *msg, void *arg)
{
	const struct lc_route_req *r = arg;
	struct nlattr *nest;

	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, r->dev))
		return -ENOMEM;
	if (!r->with_dest)
		return 0;
	nest = nla_nest_start(msg, LOOM_ATTR_ROUTE);
	if (!nest || nla_put_u32(msg, LOOM_ATTR_ROUTE_DEST, r->dest) ||
	    (r->with_port && nla_put_u32(msg, LOOM_ATTR_ROUTE_PORT, r->port)) ||
	    (r->with_phys && nla_put_u32(msg, LOOM_ATTR_ROUTE_PHYS_DEST, r->phys)) ||
	    (r->adaptive && nla_put_flag(msg, LOOM_ATTR_ROUTE_ADAPTIVE)))
		return -ENOMEM;
	nla_nest_end(msg, nest);
	return 0;
}

/**
 * lc_route_print_entry() - print one route as loomctl shows it
 * @dev: the card's index
 * @route: the LOOM_ATTR_ROUTE nest
 * @event: the event's name, the record's first field (monitor), or NULL
 *
 * Return: 0 or -EPROTO.
 */
int lc_route_print_entry(uint32_t dev, struct nlattr *route, const char *event)
{
	struct nlattr *rt[LOOM_ATTR_ROUTE_MAX + 1];
	uint32_t port;
	char name[24];
	bool valid;

	if (lc_nl_parse_nest(rt, LOOM_ATTR_ROUTE_MAX, route, lc_route_policy))
		return -EPROTO;
	if (!rt[LOOM_ATTR_ROUTE_DEST] || !rt[LOOM_ATTR_ROUTE_PORT]) {
		fprintf(stderr, "loomctl: the kernel sent a route without DEST or PORT\n");
		return -EPROTO;
	}
	port = nla_get_u32(rt[LOOM_ATTR_ROUTE_PORT]);
	valid = rt[LOOM_ATTR_ROUTE_VALID] != NULL;
	snprintf(name, sizeof(name), "loom%u", dev);
	lc_print_open_object(NULL);
	if (event)
		lc_print_str(LC_PRINT_ANY, "event", event);
	lc_print_str(LC_PRINT_ANY, "dev", name);
	lc_print_uint(LC_PRINT_ANY, "dest", nla_get_u32(rt[LOOM_ATTR_ROUTE_DEST]));
	if (port == LOOM_ROUTE_PORT_HOST)
		lc_print_str(LC_PRINT_ANY, "port", "host");
	else
		lc_print_uint(LC_PRINT_ANY, "port", port);
	lc_print_uint(LC_PRINT_ANY, "phys_dest", lc_get_u32(rt, LOOM_ATTR_ROUTE_PHYS_DEST));
	lc_print_bool(LC_PRINT_ANY, "adaptive", rt[LOOM_ATTR_ROUTE_ADAPTIVE] != NULL);
	lc_print_bool(LC_PRINT_ANY, "valid", valid);
	if (!valid)
		lc_print_text("invalid");
	lc_print_close_object();
	return 0;
}

static int lc_route_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	(void)arg;
	if (cmd != LOOM_CMD_ROUTE_GET)
		return 0;
	return lc_route_print_entry(lc_get_u32(tb, LOOM_ATTR_DEV_INDEX), tb[LOOM_ATTR_ROUTE], NULL);
}

static int lc_route_dest(const char *cmd, int argc, char **argv, uint32_t *dest)
{
	if (argc < 1)
		return lc_usage_error("route %s: missing DEST (a logical node number): usage: loomctl route %s DEST%s",
				      cmd, cmd, strcmp(cmd, "set") ? "" : " port PORT|host [adaptive] [phys_dest PHYS]");
	if (lc_parse_u32(argv[0], dest))
		return lc_usage_error("route %s: DEST \"%s\" is not a number: give a logical node number, e.g. 1",
				      cmd, argv[0]);
	return 0;
}

static const char *const lc_route_set_words[] = { "port", "adaptive", "phys_dest", NULL };

static int lc_route_parse_set(int argc, char **argv, struct lc_route_req *r)
{
	for (int i = 1; i < argc; i++) {
		switch (lc_keyword("route set", argv[i], lc_route_set_words)) {
		case 0:
			if (++i >= argc)
				return lc_usage_error("route set: \"port\" needs a value: a port number or host");
			if (!strcmp(argv[i], "host")) {
				r->port = LOOM_ROUTE_PORT_HOST;
			} else if (lc_parse_u32(argv[i], &r->port)) {
				return lc_usage_error("route set: port \"%s\" is neither a number nor \"host\"",
						      argv[i]);
			}
			r->with_port = true;
			break;
		case 1:
			r->adaptive = true;
			break;
		case 2:
			if (++i >= argc)
				return lc_usage_error("route set: \"phys_dest\" needs a physical node number");
			if (lc_parse_u32(argv[i], &r->phys))
				return lc_usage_error("route set: phys_dest \"%s\" is not a number", argv[i]);
			r->with_phys = true;
			break;
		default:
			return LC_EXIT_USAGE;
		}
	}
	if (!r->with_port)
		return lc_usage_error("route set: missing \"port PORT|host\": usage: loomctl route set DEST port PORT|host [adaptive] [phys_dest PHYS]");
	return 0;
}

struct lc_route_line {
	uint32_t dest, port, phys;
	bool adaptive;
};

struct lc_route_table {
	uint32_t dev;
	struct lc_route_line *e;
	size_t n;
};

/* One line of a route file; 1 when it lists a valid entry, 0 to skip. */
static int lc_route_parse_line(char *line, const char *file, unsigned int lineno,
			       struct lc_route_line *e)
{
	static const char *const words[] = { "dest", "port", "phys_dest", "dev",
					     "adaptive", "valid", "invalid", NULL };
	bool have_dest = false, have_port = false, have_phys = false;
	char *save = NULL, *tok;

	memset(e, 0, sizeof(*e));
	tok = strtok_r(line, " \t\r\n", &save);
	if (!tok || tok[0] == '#')
		return 0;
	for (; tok; tok = strtok_r(NULL, " \t\r\n", &save)) {
		int w = lc_match(tok, words);
		char *val = NULL;

		if (w >= 0 && w <= 3) {
			val = strtok_r(NULL, " \t\r\n", &save);
			if (!val)
				return -lc_usage_error("route load: %s:%u: \"%s\" needs a value",
						       file, lineno, words[w]);
		}
		switch (w) {
		case 0:
			if (lc_parse_u32(val, &e->dest))
				goto bad_number;
			have_dest = true;
			break;
		case 1:
			if (!strcmp(val, "host"))
				e->port = LOOM_ROUTE_PORT_HOST;
			else if (lc_parse_u32(val, &e->port))
				goto bad_number;
			have_port = true;
			break;
		case 2:
			if (lc_parse_u32(val, &e->phys))
				goto bad_number;
			have_phys = true;
			break;
		case 3:
			break;
		case 4:
			e->adaptive = true;
			break;
		case 5:
			break;
		case 6:
			return 0;
		default:
			return -lc_usage_error("route load: %s:%u: unexpected \"%s\": lines are \"[dev DEV] dest D port P|host [phys_dest N] [adaptive] [valid]\", as route show prints them",
					       file, lineno, tok);
		}
		continue;
bad_number:
		return -lc_usage_error("route load: %s:%u: %s \"%s\" is not a number%s",
				       file, lineno, words[w], val,
				       w == 1 ? " nor \"host\"" : "");
	}
	if (!have_dest || !have_port)
		return -lc_usage_error("route load: %s:%u: a route needs \"dest D\" and \"port P|host\"",
				       file, lineno);
	if (!have_phys)
		e->phys = e->dest;
	return 1;
}

static int lc_route_read_file(const char *file, struct lc_route_table *t)
{
	FILE *f = strcmp(file, "-") ? fopen(file, "r") : stdin;
	char line[512];
	unsigned int lineno = 0;
	size_t cap = 0;
	int err = 0;

	if (!f)
		return lc_usage_error("route load: cannot open %s: %s", file, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		struct lc_route_line e;
		int r;

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			err = lc_usage_error("route load: %s:%u: line longer than %zu bytes",
					     file, lineno, sizeof(line) - 1);
			break;
		}
		r = lc_route_parse_line(line, file, lineno, &e);
		if (r < 0) {
			err = -r;
			break;
		}
		if (!r)
			continue;
		for (size_t i = 0; i < t->n; i++) {
			if (t->e[i].dest == e.dest) {
				err = lc_usage_error("route load: %s:%u: dest %u is listed twice",
						     file, lineno, e.dest);
				goto out;
			}
		}
		if (t->n == LOOM_MAX_NODES) {
			err = lc_usage_error("route load: %s:%u: more than %d routes: a table has at most %d entries",
					     file, lineno, LOOM_MAX_NODES, LOOM_MAX_NODES);
			break;
		}
		if (t->n == cap) {
			struct lc_route_line *ne;

			cap = cap ? cap * 2 : 64;
			ne = realloc(t->e, cap * sizeof(*ne));
			if (!ne) {
				err = lc_usage_error("route load: out of memory");
				break;
			}
			t->e = ne;
		}
		t->e[t->n++] = e;
	}
	if (!err && ferror(f))
		err = lc_usage_error("route load: cannot read %s: %s", file, strerror(errno));
out:
	if (f != stdin)
		fclose(f);
	return err;
}

static int lc_route_load_build(struct nl_msg *msg, void *arg)
{
	const struct lc_route_table *t = arg;
	struct nlattr *list, *nest;

	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, t->dev))
		return -ENOMEM;
	list = nla_nest_start(msg, LOOM_ATTR_ROUTE_TABLE);
	if (!list)
		return -ENOMEM;
	for (size_t i = 0; i < t->n; i++) {
		nest = nla_nest_start(msg, LOOM_ATTR_ROUTE);
		if (!nest || nla_put_u32(msg, LOOM_ATTR_ROUTE_DEST, t->e[i].dest) ||
		    nla_put_u32(msg, LOOM_ATTR_ROUTE_PORT, t->e[i].port) ||
		    nla_put_u32(msg, LOOM_ATTR_ROUTE_PHYS_DEST, t->e[i].phys) ||
		    (t->e[i].adaptive && nla_put_flag(msg, LOOM_ATTR_ROUTE_ADAPTIVE)))
			return -ENOMEM;
		nla_nest_end(msg, nest);
	}
	nla_nest_end(msg, list);
	return 0;
}

static int lc_route_load(struct lc_opts *o, int argc, char **argv)
{
	struct lc_route_table t = { .dev = 0 };
	struct lc_nl nl;
	char what[64];
	int err;

	if (argc < 1)
		return lc_usage_error("route load: missing FILE: usage: loomctl route load [dev DEV] FILE|-");
	if (argc > 1)
		return lc_usage_error("route load: unexpected argument \"%s\": usage: loomctl route load [dev DEV] FILE|-",
				      argv[1]);
	err = lc_route_read_file(argv[0], &t);
	if (err) {
		free(t.e);
		return err;
	}
	err = lc_nl_open(&nl, o);
	if (!err) {
		t.dev = o->dev;
		snprintf(what, sizeof(what), "route load of %zu routes on loom%u", t.n, t.dev);
		err = lc_nl_request(&nl, LOOM_CMD_ROUTE_LOAD, false, lc_route_load_build,
				    &t, NULL, NULL);
		err = lc_nl_finish(&nl, err, what, lc_perm_hint);
	}
	free(t.e);
	return err;
}

static int lc_route_do(struct lc_opts *o, uint8_t nlcmd, const char *cmd,
		       struct lc_route_req *r)
{
	bool get = nlcmd == LOOM_CMD_ROUTE_GET;
	struct lc_nl nl;
	char what[64];
	int err;

	err = lc_nl_open(&nl, o);
	if (err)
		return err;
	r->dev = o->dev;
	if (r->with_dest)
		snprintf(what, sizeof(what), "route %s %u on loom%u", cmd, r->dest, r->dev);
	else
		snprintf(what, sizeof(what), "route %s on loom%u", cmd, r->dev);
	if (get)
		err = lc_nl_request_list(&nl, nlcmd, !r->with_dest, lc_route_build, r,
					 lc_route_print, NULL);
	else
		err = lc_nl_request(&nl, nlcmd, false, lc_route_build, r, NULL, NULL);
	return lc_nl_finish(&nl, err, what, lc_perm_hint);
}

static int lc_route_show(struct lc_opts *o, int argc, char **argv)
{
	struct lc_route_req r = { .dev = 0 };
	int err;

	if (argc > 1)
		return lc_usage_error("route show: unexpected argument \"%s\": usage: loomctl route show [dev DEV] [DEST]",
				      argv[1]);
	if (argc == 1) {
		err = lc_route_dest("show", argc, argv, &r.dest);
		if (err)
			return err;
		r.with_dest = true;
	}
	return lc_route_do(o, LOOM_CMD_ROUTE_GET, "show", &r);
}

static int lc_route_set(struct lc_opts *o, int argc, char **argv)
{
	struct lc_route_req r = { .dev = 0 };
	int err;

	err = lc_route_dest("set", argc, argv, &r.dest);
	if (!err)
		err = lc_route_parse_set(argc, argv, &r);
	if (err)
		return err;
	r.with_dest = true;
	return lc_route_do(o, LOOM_CMD_ROUTE_SET, "set", &r);
}

static int lc_route_del(struct lc_opts *o, int argc, char **argv)
{
	struct lc_route_req r = { .dev = 0 };
	int err;

	err = lc_route_dest("del", argc, argv, &r.dest);
	if (err)
		return err;
	if (argc > 1)
		return lc_usage_error("route del: unexpected argument \"%s\": usage: loomctl route del [dev DEV] DEST",
				      argv[1]);
	r.with_dest = true;
	return lc_route_do(o, LOOM_CMD_ROUTE_DEL, "del", &r);
}

static const struct lc_cmd lc_route_cmds[] = {
	{ "show", lc_route_show, "[DEST]",
	  "the valid routing-table entries, or the entry of DEST", NULL, false },
	{ "set", lc_route_set, "DEST port PORT|host [adaptive] [phys_dest PHYS]",
	  "make the entry of DEST valid (needs CAP_NET_ADMIN)", lc_route_set_words, false },
	{ "del", lc_route_del, "DEST",
	  "make the entry of DEST invalid (needs CAP_NET_ADMIN)", NULL, false },
	{ "load", lc_route_load, "FILE|-",
	  "replace the whole table with the lines of FILE (needs CAP_NET_ADMIN)", NULL, false },
	{ NULL },
};

const struct lc_object lc_obj_route = {
	.name = "route",
	.summary = "a card's routing table",
	.usage = lc_route_usage,
	.cmds = lc_route_cmds,
};
