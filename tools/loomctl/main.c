// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl: configure and inspect loom cards through the "loom" generic
 * netlink family, iproute2/devlink style: loomctl [OPTIONS] OBJECT COMMAND.
 * This file parses the global options, picks the object and holds the
 * helpers every object uses (prefix matching, numbers, usage errors).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "loomctl.h"

static const char lc_usage[] =
"NAME\n"
"    loomctl - configure and inspect loom router cards\n"
"\n"
"SYNOPSIS\n"
"    loomctl [-j] [-d DEV] OBJECT [COMMAND [ARGUMENTS]]\n"
"    loomctl help\n"
"    loomctl OBJECT help\n"
"\n"
"    OBJECT := dev | route | port | vc | stats | key | bsu | monitor | maint\n"
"\n"
"DESCRIPTION\n"
"    loomctl talks to loom.ko through its generic netlink family \"loom\".\n"
"    It shows the cards, their routing tables and their network ports,\n"
"    changes routes, and follows route changes as they happen.\n"
"\n"
"    loomctl [-j] [-d DEV] dev [show]\n"
"        identity of a card: PCI address, node ids, ports, contexts,\n"
"        firmware.  Without -d, every card.\n"
"    loomctl [-j] [-d DEV] route show [DEST]\n"
"        the valid routing-table entries, or the entry of DEST.\n"
"    loomctl [-d DEV] route set DEST port PORT|host [adaptive] [phys PHYS]\n"
"    loomctl [-d DEV] route del DEST\n"
"        change the routing table (needs CAP_NET_ADMIN).\n"
"    loomctl [-d DEV] route load FILE\n"
"        replace the whole routing table (the lines route show prints).\n"
"    loomctl [-d DEV] dev set [logical-id N] [fp-timeout MS] [lane-threshold N]\n"
"        card settings (needs CAP_NET_ADMIN).\n"
"    loomctl [-j] [-d DEV] port show [PORT]\n"
"        status, peer and counters of the network ports.\n"
"    loomctl [-d DEV] port set PORT up|down|fault on|off\n"
"        the port's fault mask (down = fault on: the port is disabled).\n"
"    loomctl [-j] [-d DEV] vc show\n"
"    loomctl [-d DEV] vc set port PORT [dim DIM|none] [dateline on|off]\n"
"    loomctl [-d DEV] vc set dest DEST vc 0|1\n"
"        the virtual-channel table: dimensions, datelines, start VCs.\n"
"    loomctl [-j] [-d DEV] stats [-a]\n"
"        per port and VC traffic counters, drops by cause.\n"
"    loomctl [-j] [-d DEV] key show|grant|revoke [KEY user U|group G]\n"
"        partitions: which users and groups may use which key.\n"
"    loomctl [-j] [-d DEV] bsu show [BSU]\n"
"    loomctl [-j] [-d DEV] bsu set BSU [parent PORT|root] [children P1,P2,host|none]\n"
"        barrier/eureka units and their spanning-tree registers.\n"
"    loomctl [-j] monitor\n"
"        print route and port changes of every card until interrupted.\n"
"    loomctl [-j] [-d DEV] maint read [--route P1,P2,..] REG\n"
"    loomctl [-d DEV] maint write [--route P1,P2,..] REG VALUE\n"
"        any card's registers over the maintenance network (directed\n"
"        route of output ports; needs CAP_NET_ADMIN).\n"
"\n"
"    Objects, commands and keywords may be abbreviated to any prefix; the\n"
"    first match in the order above wins (\"loomctl r s\" is route show).\n"
"\n"
"OPTIONS\n"
"    -d, --dev DEV   the card: loomN or N (default loom0)\n"
"    -j, --json      print JSON instead of text\n"
"    -h, --help      print this help\n"
"\n"
"EXIT STATUS\n"
"    0  success\n"
"    1  the kernel refused the request (the errno text and the kernel's\n"
"       explanation are printed), or loom.ko is not loaded\n"
"    2  usage error\n"
"\n"
"EXAMPLES\n"
"    loomctl dev\n"
"    loomctl -j -d loom0 route show\n"
"    loomctl route set 3 port 1 adaptive\n"
"    loomctl route del 3\n"
"    loomctl port show 0\n"
"\n"
"SEE ALSO\n"
"    Documentation/tools/loomctl.rst, Documentation/abi/netlink.rst\n";

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
 * lc_subcommand() - the command word of an object ("show", "set", ...)
 * @obj: the object's name, for the error ("port")
 * @argc: words after the object's name
 * @argv: the words
 * @cmds: NULL-terminated command words; the first is the default
 * @listed: the commands named in the error ("show, set, help")
 * @usage: the object's help text, printed for "help"
 * @cmd: the index in @cmds, or -1 when the help was printed
 *
 * Return: LC_EXIT_OK, or LC_EXIT_USAGE (said) for an unknown command.
 */
int lc_subcommand(const char *obj, int argc, char **argv,
		  const char *const *cmds, const char *listed,
		  const char *usage, int *cmd)
{
	*cmd = 0;
	if (argc > 0 && lc_is_help(argv[0])) {
		fputs(usage, stdout);
		*cmd = -1;
		return LC_EXIT_OK;
	}
	if (argc > 0) {
		*cmd = lc_match(argv[0], cmds);
		if (*cmd < 0)
			return lc_usage_error("%s: unknown command \"%s\": commands are %s",
					      obj, argv[0], listed);
	}
	return LC_EXIT_OK;
}

static int lc_parse_dev(const char *s, uint32_t *dev)
{
	if (!strncmp(s, "loom", 4))
		s += 4;
	if (*s < '0' || *s > '9' || lc_parse_u32(s, dev))
		return -1;
	return 0;
}

struct lc_object {
	const char *name;
	int (*run)(const struct lc_opts *o, int argc, char **argv);
	const char *usage;
};

static const struct lc_object lc_objects[] = {
	{ "dev", lc_dev_run, lc_dev_usage },
	{ "route", lc_route_run, lc_route_usage },
	{ "port", lc_port_run, lc_port_usage },
	{ "monitor", lc_monitor_run, lc_monitor_usage },
	{ "vc", lc_vc_run, lc_vc_usage },
	{ "stats", lc_stats_run, lc_stats_usage },
	{ "key", lc_key_run, lc_key_usage },
	{ "bsu", lc_bsu_run, lc_bsu_usage },
	{ "maint", lc_maint_run, lc_maint_usage },
	{ "help", NULL, lc_usage },
};

int main(int argc, char **argv)
{
	static const char *const names[] = { "dev", "route", "port", "monitor",
					     "vc", "stats", "key", "bsu", "maint", "help", NULL };
	struct lc_opts o = { .json = false, .dev = 0 };
	bool dev_given = false;
	int i = 1, which;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			o.json = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			fputs(lc_usage, stdout);
			return LC_EXIT_OK;
		} else if (!strcmp(a, "-d") || !strcmp(a, "--dev")) {
			if (++i >= argc)
				return lc_usage_error("%s needs a device (loomN or N)", a);
			if (lc_parse_dev(argv[i], &o.dev))
				return lc_usage_error("-d %s: not a loom device name: give loomN or N, e.g. -d loom0",
						      argv[i]);
			dev_given = true;
		} else {
			return lc_usage_error("unknown option \"%s\": try \"loomctl help\"", a);
		}
	}
	if (i >= argc) {
		fputs(lc_usage, stderr);
		return LC_EXIT_USAGE;
	}
	which = lc_match(argv[i], names);
	if (which < 0)
		return lc_usage_error("unknown object \"%s\": objects are dev, route, port, vc, stats, key, bsu, monitor, maint; try \"loomctl help\"",
				      argv[i]);
	if (!lc_objects[which].run) {
		fputs(lc_usage, stdout);
		return LC_EXIT_OK;
	}
	/* "dev" without -d lists every card; the others default to loom0 */
	if (which == 0 && !dev_given)
		o.dev = UINT32_MAX;
	return lc_objects[which].run(&o, argc - i - 1, argv + i + 1);
}
