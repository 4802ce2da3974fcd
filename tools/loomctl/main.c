// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl: configure and inspect loom cards through the "loom" generic
 * netlink family, iproute2/devlink style:
 *
 *	loomctl [OPTIONS] OBJECT [COMMAND] [dev DEV] [ARGUMENTS]
 *
 * This file parses the options, finds the object and the command in the
 * objects' tables (struct lc_object in each object's file), picks the card,
 * prints the help and the bash completion from those same tables, and holds
 * the helpers every object uses (prefix matching, suggestions, numbers,
 * usage errors).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "loomctl.h"
#include "../common/cli.h"

/* the objects, in the order a prefix is matched ("m" is monitor) */
static const struct lc_object *const lc_objects[] = {
	&lc_obj_dev, &lc_obj_route, &lc_obj_port, &lc_obj_monitor, &lc_obj_vc,
	&lc_obj_stats, &lc_obj_key, &lc_obj_bsu, &lc_obj_maint, &lc_obj_mcast, NULL,
};

struct lc_option {
	const char *shrt, *lng;
	const char *help;
};

static const struct lc_option lc_options[] = {
	{ "-j", "--json", "print JSON instead of text (same field names)" },
	{ "-p", "--pretty", "print indented JSON (implies -j)" },
	{ "-V", "--version", "print the version and exit" },
	{ "-h", "--help", "print this help and exit" },
	{ NULL, "--bash-completion", "print the bash completion script and exit" },
	{ NULL, NULL, NULL },
};

static const char lc_usage_tail[] =
"\n"
"    Objects, commands and keywords may be abbreviated to any prefix; the\n"
"    first match in the order above wins (\"loomctl r s\" is route show).\n"
"    Without COMMAND an object runs its first command (show).\n"
"\n"
"    DEV names a card: loomN, as in /dev/loomN.  Without \"dev DEV\" a\n"
"    command acts on the only card; with several cards it must be named\n"
"    (dev show and monitor cover every card unless one is named).\n"
"\n"
"EXIT STATUS\n"
"    0  success\n"
"    1  the kernel refused the request (the errno text and the kernel's\n"
"       explanation are printed), loom.ko is not loaded, or no card is bound\n"
"    2  usage error: unknown object, command, option or keyword, a\n"
"       malformed value, or several cards and none named\n"
"\n"
"EXAMPLES\n"
"    loomctl dev\n"
"    loomctl -j route show dev loom0\n"
"    loomctl route set 3 port 1 adaptive\n"
"    loomctl port show 0\n"
"    loomctl route help\n"
"\n"
"SEE ALSO\n"
"    loomctl(8), loom-fm(8), Documentation/tools/loomctl.rst\n";

static void lc_print_synopsis(FILE *f, const struct lc_object *obj)
{
	for (const struct lc_cmd *c = obj->cmds; c->name; c++)
		fprintf(f, "    loomctl [-j] %s %s [dev DEV]%s%s\n", obj->name, c->name,
			c->args[0] ? " " : "", c->args);
	fprintf(f, "    loomctl %s help\n", obj->name);
}

static void lc_print_usage(FILE *f)
{
	fputs("NAME\n"
	      "    loomctl - configure and inspect loom router cards\n"
	      "\n"
	      "SYNOPSIS\n"
	      "    loomctl [OPTIONS] OBJECT [COMMAND] [dev DEV] [ARGUMENTS]\n"
	      "    loomctl OBJECT help\n"
	      "    loomctl help [OBJECT]\n"
	      "\n"
	      "OBJECTS\n", f);
	for (int i = 0; lc_objects[i]; i++)
		fprintf(f, "    %-8s %s\n", lc_objects[i]->name, lc_objects[i]->summary);
	fputs("\nCOMMANDS\n", f);
	for (int i = 0; lc_objects[i]; i++) {
		const struct lc_object *obj = lc_objects[i];

		for (const struct lc_cmd *c = obj->cmds; c->name; c++)
			fprintf(f, "    %s %s%s%s\n        %s\n", obj->name, c->name,
				c->args[0] ? " " : "", c->args, c->summary);
	}
	fputs("\nOPTIONS\n", f);
	for (const struct lc_option *op = lc_options; op->lng; op++)
		fprintf(f, "    %-3s%s%-18s %s\n", op->shrt ? op->shrt : "",
			op->shrt ? ", " : "  ", op->lng, op->help);
	fputs(lc_usage_tail, f);
}

static void lc_print_object_help(const struct lc_object *obj)
{
	printf("NAME\n    loomctl %s - %s\n\nSYNOPSIS\n", obj->name, obj->summary);
	lc_print_synopsis(stdout, obj);
	putchar('\n');
	fputs(obj->usage, stdout);
}

/**
 * lc_usage_error() - report bad command-line input
 * @fmt: what is wrong, and what to do
 *
 * Return: LC_EXIT_USAGE.
 */
int lc_usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("loomctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return LC_EXIT_USAGE;
}

/**
 * lc_match() - which of @words @arg abbreviates
 * @arg: a non-empty prefix
 * @words: NULL-terminated, in order of preference
 *
 * Return: the index of the first word starting with @arg, or -1.
 */
int lc_match(const char *arg, const char *const *words)
{
	size_t n = strlen(arg);

	if (!n)
		return -1;
	for (int i = 0; words[i]; i++)
		if (!strncmp(words[i], arg, n))
			return i;
	return -1;
}

/**
 * lc_parse_u32() - a decimal or 0x-hex number that fits 32 bits
 * @s: the text
 * @out: the number
 *
 * Return: 0, or -1 when @s is not entirely such a number.
 */
int lc_parse_u32(const char *s, uint32_t *out)
{
	unsigned long long v;
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || v > UINT32_MAX)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/**
 * lc_parse_port_set() - "0,2,host" or "none" into a mask of ports
 * @arg: comma-separated port numbers below @n_ports, and "host" when
 *	@host_bit is not 0; or "none"
 * @n_ports: ports that may be named
 * @host_bit: the bit "host" sets, or 0 when "host" is not accepted
 * @mask: bit n = port n, and @host_bit
 *
 * Return: 0, or -1 when a word is none of those.
 */
int lc_parse_port_set(const char *arg, unsigned int n_ports, uint32_t host_bit,
		      uint32_t *mask)
{
	char buf[128], *save = NULL, *tok;

	*mask = 0;
	if (!strcmp(arg, "none"))
		return 0;
	if (strlen(arg) >= sizeof(buf))
		return -1;
	strcpy(buf, arg);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint32_t port;

		if (host_bit && !strcmp(tok, "host")) {
			*mask |= host_bit;
			continue;
		}
		if (lc_parse_u32(tok, &port) || port >= n_ports)
			return -1;
		*mask |= 1u << port;
	}
	return 0;
}

/**
 * lc_print_port_set() - a mask of ports as "0,2,host" (text) or
 *	[0,2,"host"] (JSON); "none" / [] when empty
 * @key: the field
 * @mask: bit n = port n (ports 0..15), and @host_bit
 * @host_bit: the bit printed "host", or 0
 */
void lc_print_port_set(const char *key, uint32_t mask, uint32_t host_bit)
{
	lc_print_open_array(LC_PRINT_ANY, key);
	for (unsigned int p = 0; p < 16; p++)
		if (mask & ~host_bit & (1u << p))
			lc_print_uint(LC_PRINT_ANY, NULL, p);
	if (mask & host_bit)
		lc_print_str(LC_PRINT_ANY, NULL, "host");
	lc_print_close_array(LC_PRINT_ANY);
}

/**
 * lc_is_help() - is @arg a request for help ("help", "-h", "--help")
 * @arg: a command word
 *
 * Return: true when it is.
 */
bool lc_is_help(const char *arg)
{
	return !strcmp(arg, "help") || !strcmp(arg, "-h") || !strcmp(arg, "--help");
}

/**
 * lc_suggest() - the word of @words that @arg is most likely a misspelling of
 * @arg: what was typed
 * @words: NULL-terminated candidates
 *
 * Return: the closest word (cli_suggest()), or NULL when none is close.
 */
const char *lc_suggest(const char *arg, const char *const *words)
{
	return cli_suggest(arg, words);
}

/* "a, b, c" into @buf */
static const char *lc_join(char *buf, size_t len, const char *const *words)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; words[i] && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 words[i]);
	return buf;
}

/**
 * lc_keyword() - which keyword @arg abbreviates, or a usage error saying so
 * @what: the command, for the message ("route set")
 * @arg: the word typed
 * @words: NULL-terminated keywords, in order of preference
 *
 * Return: the index in @words, or -1 after printing "WHAT: unknown keyword
 * "ARG": did you mean ...? (keywords are ...)".
 */
int lc_keyword(const char *what, const char *arg, const char *const *words)
{
	int w = lc_match(arg, words);
	const char *near;
	char list[256];

	if (w >= 0)
		return w;
	near = lc_suggest(arg, words);
	lc_join(list, sizeof(list), words);
	if (near)
		lc_usage_error("%s: unknown keyword \"%s\": did you mean \"%s\"? (keywords are %s)",
			       what, arg, near, list);
	else
		lc_usage_error("%s: unknown keyword \"%s\": keywords are %s", what, arg, list);
	return -1;
}

/**
 * lc_parse_dev() - a card's name, "loomN"
 * @s: the text
 * @dev: N
 *
 * Return: 0, or -1 when @s is not loomN.
 */
int lc_parse_dev(const char *s, uint32_t *dev)
{
	if (strncmp(s, "loom", 4))
		return -1;
	s += 4;
	if (*s < '0' || *s > '9' || lc_parse_u32(s, dev) || *dev == LC_DEV_ALL)
		return -1;
	return 0;
}

static int lc_unknown(const char *ctx, const char *what, const char *arg,
		      const char *const *words, const char *hint)
{
	const char *near = lc_suggest(arg, words);
	char list[256];

	lc_join(list, sizeof(list), words);
	if (near)
		return lc_usage_error("%s%sunknown %s \"%s\": did you mean \"%s\"? (%ss are %s; %s)",
				      ctx ? ctx : "", ctx ? ": " : "", what, arg, near,
				      what, list, hint);
	return lc_usage_error("%s%sunknown %s \"%s\": %ss are %s; %s", ctx ? ctx : "",
			      ctx ? ": " : "", what, arg, what, list, hint);
}

static const struct lc_object *lc_find_object(const char *arg)
{
	const char *names[16];
	int n = 0, w;

	for (; lc_objects[n]; n++)
		names[n] = lc_objects[n]->name;
	names[n] = NULL;
	w = lc_match(arg, names);
	return w < 0 ? NULL : lc_objects[w];
}

static int lc_object_error(const char *arg)
{
	const char *names[16];
	int n = 0;

	for (; lc_objects[n]; n++)
		names[n] = lc_objects[n]->name;
	names[n++] = "help";
	names[n] = NULL;
	return lc_unknown(NULL, "object", arg, names, "try \"loomctl help\"");
}

static const struct lc_cmd *lc_find_cmd(const struct lc_object *obj, const char *arg,
					int *err)
{
	const char *names[16];
	char hint[64];
	int n = 0, w;

	for (; obj->cmds[n].name && n < 14; n++)
		names[n] = obj->cmds[n].name;
	names[n] = NULL;
	w = lc_match(arg, names);
	if (w >= 0)
		return &obj->cmds[w];
	names[n++] = "help";
	names[n] = NULL;
	snprintf(hint, sizeof(hint), "try \"loomctl %s help\"", obj->name);
	*err = lc_unknown(obj->name, "command", arg, names, hint);
	return NULL;
}

static const char *const lc_option_words[] = {
	"-j", "--json", "-p", "--pretty", "-V", "--version", "-h", "--help",
	"--bash-completion", NULL,
};

static int lc_option_error(const char *a)
{
	if (!strcmp(a, "-d") || !strncmp(a, "--dev", 5))
		return lc_usage_error("unknown option \"%s\": name the card after the command, e.g. \"loomctl route show dev loom0\"",
				      a);
	return lc_unknown(NULL, "option", a, lc_option_words, "try \"loomctl help\"");
}

/* the bash completion script, from the same tables the parser reads */
static void lc_print_completion(void)
{
	printf("# bash completion for loomctl, printed by \"loomctl --bash-completion\"\n"
	       "# from the command table loomctl parses its command line with.\n"
	       "_loomctl()\n"
	       "{\n"
	       "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	       "\tlocal i obj= cmd= at=0 words\n"
	       "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	       "\t\tcase ${COMP_WORDS[i]} in\n"
	       "\t\t-*) ;;\n"
	       "\t\t*) if [ -z \"$obj\" ]; then obj=${COMP_WORDS[i]}; at=$i\n"
	       "\t\t   elif [ -z \"$cmd\" ]; then cmd=${COMP_WORDS[i]}; fi ;;\n"
	       "\t\tesac\n"
	       "\tdone\n"
	       "\tif [ -n \"$obj\" ] && [ \"$prev\" = dev ] && [ $((COMP_CWORD - 1)) -gt $at ]; then\n"
	       "\t\twords=$(cd /dev 2>/dev/null && echo loom[0-9]*)\n"
	       "\t\t[ \"$words\" = \"loom[0-9]*\" ] && words=loom0\n"
	       "\telif [ -z \"$obj\" ]; then\n"
	       "\t\tcase $cur in\n"
	       "\t\t-*) words=\"");
	for (int i = 0; lc_option_words[i]; i++)
		printf("%s%s", i ? " " : "", lc_option_words[i]);
	printf("\" ;;\n\t\t*) words=\"");
	for (int i = 0; lc_objects[i]; i++)
		printf("%s ", lc_objects[i]->name);
	printf("help\" ;;\n\t\tesac\n"
	       "\telif [ -z \"$cmd\" ]; then\n"
	       "\t\tcase $obj in\n");
	for (int i = 0; lc_objects[i]; i++) {
		printf("\t\t%s) words=\"", lc_objects[i]->name);
		for (const struct lc_cmd *c = lc_objects[i]->cmds; c->name; c++)
			printf("%s ", c->name);
		printf("help\" ;;\n");
	}
	printf("\t\t*) words= ;;\n\t\tesac\n"
	       "\telse\n"
	       "\t\tcase \"$obj $cmd\" in\n");
	for (int i = 0; lc_objects[i]; i++) {
		for (const struct lc_cmd *c = lc_objects[i]->cmds; c->name; c++) {
			printf("\t\t\"%s %s\") words=\"dev", lc_objects[i]->name, c->name);
			for (int w = 0; c->words && c->words[w]; w++)
				printf(" %s", c->words[w]);
			printf("\" ;;\n");
		}
	}
	printf("\t\t*) words=dev ;;\n\t\tesac\n"
	       "\tfi\n"
	       "\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
	       "}\n"
	       "complete -F _loomctl loomctl\n");
}

int main(int argc, char **argv)
{
	struct lc_opts o = { .dev = LC_DEV_ALL };
	const struct lc_object *obj;
	const struct lc_cmd *cmd;
	bool pretty = false;
	int i = 1, err = 0;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			o.json = true;
		} else if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
			o.json = true;
			pretty = true;
		} else if (!strcmp(a, "-jp") || !strcmp(a, "-pj")) {
			o.json = true;
			pretty = true;
		} else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
			return cli_version("loomctl");
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			lc_print_usage(stdout);
			return LC_EXIT_OK;
		} else if (!strcmp(a, "--bash-completion")) {
			lc_print_completion();
			return LC_EXIT_OK;
		} else {
			return lc_option_error(a);
		}
	}
	if (i >= argc) {
		lc_print_usage(stderr);
		return LC_EXIT_USAGE;
	}
	if (!strcmp(argv[i], "help")) {
		if (i + 1 >= argc) {
			lc_print_usage(stdout);
			return LC_EXIT_OK;
		}
		obj = lc_find_object(argv[i + 1]);
		if (!obj)
			return lc_object_error(argv[i + 1]);
		lc_print_object_help(obj);
		return LC_EXIT_OK;
	}
	obj = lc_find_object(argv[i]);
	if (!obj)
		return lc_object_error(argv[i]);
	argc -= i + 1;
	argv += i + 1;
	cmd = &obj->cmds[0];
	if (argc > 0 && lc_is_help(argv[0])) {
		lc_print_object_help(obj);
		return LC_EXIT_OK;
	}
	if (argc > 0 && strcmp(argv[0], "dev")) {
		cmd = lc_find_cmd(obj, argv[0], &err);
		if (!cmd)
			return err;
		argc--;
		argv++;
	}
	if (argc > 0 && !strcmp(argv[0], "dev")) {
		if (argc < 2)
			return lc_usage_error("%s %s: \"dev\" needs a card name, e.g. dev loom0",
					      obj->name, cmd->name);
		if (lc_parse_dev(argv[1], &o.dev))
			return lc_usage_error("%s %s: dev \"%s\" is not a card name: give loomN, e.g. dev loom0",
					      obj->name, cmd->name, argv[1]);
		o.dev_given = true;
		argc -= 2;
		argv += 2;
	}
	o.all_devs = cmd->all_devs;
	lc_print_start(o.json, pretty);
	return cmd->run(&o, argc, argv);
}
