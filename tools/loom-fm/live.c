// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm discover | configure | watch: the command line of the live
 * mode (Documentation/tools/loom-fm.rst, "Live mode").
 */
#include "live.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../common/cli.h"
#include "fm.h"
#include "fm_nl.h"
#include "logical.h"
#include "topo_file.h"

/* /dev/loomN or loomN: N */
static int parse_dev(const char *s, uint32_t *out)
{
	long v;

	if (!strncmp(s, "/dev/", 5))
		s += 5;
	if (strncmp(s, "loom", 4) || fm_parse_uint(s + 4, 0, 255, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

static int parse_live(const char *cmd, int argc, char **argv, struct live_opts *o)
{
	enum { OPT_DEV = 256, OPT_TOPO, OPT_SHAPE, OPT_ENGINE, OPT_ROOT, OPT_NODL,
	       OPT_INTERVAL, OPT_ONCE, OPT_TIMEOUT, OPT_MTIMEOUT, OPT_MRETRIES, OPT_LOGICAL,
	       OPT_FORCE, OPT_NOADAPT, OPT_TIES, OPT_VCASSIGN, OPT_GROUPS, OPT_DEROUTES };
	static const struct option longopts[] = {
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "topology", required_argument, NULL, OPT_TOPO },
		{ "groups", required_argument, NULL, OPT_GROUPS },
		{ "shape", required_argument, NULL, OPT_SHAPE },
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "no-datelines", no_argument, NULL, OPT_NODL },
		{ "no-adaptive", no_argument, NULL, OPT_NOADAPT },
		{ "ties", required_argument, NULL, OPT_TIES },
		{ "vc-assign", required_argument, NULL, OPT_VCASSIGN },
		{ "deroutes", required_argument, NULL, OPT_DEROUTES },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "maint-timeout", required_argument, NULL, OPT_MTIMEOUT },
		{ "maint-retries", required_argument, NULL, OPT_MRETRIES },
		{ "logical", required_argument, NULL, OPT_LOGICAL },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "json", no_argument, NULL, 'j' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	bool is_discover = !strcmp(cmd, "discover"), is_watch = !strcmp(cmd, "watch");
	bool engine_opt = false;	/* --root, --no-*, --ties, --vc-assign, --deroutes */
	int c;
	long v;

	memset(o, 0, sizeof(*o));
	engine_default_opts(&o->eopts);
	o->interval_ms = 2000;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":jvhV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_DEV:
			if (parse_dev(optarg, &o->dev))
				return fm_usage_error("--dev '%s': expected a card name, loomN "
						      "(or /dev/loomN)", optarg);
			break;
		case OPT_TOPO:
			o->topology = optarg;
			break;
		case OPT_SHAPE:
			o->shape = optarg;
			break;
		case OPT_GROUPS:
			o->groups = optarg;
			break;
		case OPT_ENGINE:
			if (!engine_find(optarg))
				return fm_usage_error("unknown engine '%s'; engines: %s",
						      optarg, engine_names());
			o->engine = optarg;
			break;
		case OPT_ROOT:
			engine_opt = true;
			if (fm_parse_root(optarg, &o->eopts) >= 0)
				return FM_EXIT_USAGE;
			break;
		case OPT_NODL:
			engine_opt = true;
			o->eopts.datelines = false;
			break;
		case OPT_NOADAPT:
			engine_opt = true;
			o->eopts.adaptive = false;
			break;
		case OPT_DEROUTES:
			engine_opt = true;
			if (fm_parse_deroutes(optarg, &o->eopts) >= 0)
				return FM_EXIT_USAGE;
			break;
		case OPT_TIES:
			engine_opt = true;
			if (engine_parse_ties(optarg, &o->eopts))
				return fm_usage_error("--ties '%s': expected split or plus", optarg);
			break;
		case OPT_VCASSIGN:
			engine_opt = true;
			if (engine_parse_vc_assign(optarg, &o->eopts))
				return fm_usage_error("--vc-assign '%s': expected balanced or crossing",
						      optarg);
			break;
		case OPT_INTERVAL:
			if (fm_parse_uint(optarg, 100, 3600000, &v))
				return fm_usage_error("--interval '%s': expected 100..3600000 ms",
						      optarg);
			o->interval_ms = (int)v;
			break;
		case OPT_ONCE:
			o->once = true;
			break;
		case OPT_TIMEOUT:
			if (fm_parse_uint(optarg, 1, 86400, &v))
				return fm_usage_error("--timeout '%s': expected 1..86400 s", optarg);
			o->timeout_s = (int)v;
			break;
		case OPT_MTIMEOUT:
			if (fm_parse_uint(optarg, 1, 60000, &v))
				return fm_usage_error("--maint-timeout '%s': expected 1..60000 ms",
						      optarg);
			o->maint_timeout_ms = (uint32_t)v;
			break;
		case OPT_MRETRIES:
			if (fm_parse_uint(optarg, 0, 100, &v))
				return fm_usage_error("--maint-retries '%s': expected 0..100", optarg);
			o->maint_retries = (uint32_t)v;
			break;
		case OPT_LOGICAL:
			if (logical_parse_policy(optarg, &o->logical))
				return fm_usage_error("--logical '%s': expected identity or compact",
						      optarg);
			o->logical_given = true;
			break;
		case OPT_FORCE:
			o->force = true;
			break;
		case 'j':
			o->json = true;
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'h':
			fm_usage(stdout);
			exit(FM_EXIT_OK);
		case 'V':
			exit(cli_version("loom-fm"));
		default:
			return fm_bad_option(c, argv, longopts);
		}
	}
	if (optind < argc)
		return fm_usage_error("unexpected argument '%s'", argv[optind]);
	if (is_discover && (o->shape || o->engine || engine_opt || o->once || o->timeout_s ||
			    o->force || o->groups))
		return fm_usage_error("discover takes --dev, --topology, --logical, -j, -v "
				      "and the --maint-* options only%s", "");
	if (!is_watch && (o->once || o->timeout_s))
		return fm_usage_error("--once and --timeout are options of watch%s", "");
	if (o->shape) {
		char err[512];
		struct fm_graph *g = graph_from_shape(o->shape, err, sizeof(err));

		if (!g)
			return fm_usage_error("--shape: %s", err);
		graph_free(g);
	}
	if (o->engine && !strcmp(o->engine, "dor") && !o->shape)
		return fm_usage_error("engine dor needs the fabric's coordinates: give --shape "
				      "SHAPE%s", "");
	if (o->topology) {
		char err[4096];
		struct fm_graph *g = topo_load(o->topology, err, sizeof(err));

		if (!g)
			return fm_usage_error("%s", err);
		graph_free(g);
	}
	return -1;
}

static int cmd_discover(struct fm_maint *m, const struct live_opts *o)
{
	static struct fm_fabric fab;
	long t0 = live_now_ms();
	struct fm_graph *g, *expected = NULL;
	char err[4096];
	int status = FM_EXIT_OK;

	if (fabric_discover(m, &fab, stderr, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: %s\n", err);
		return FM_EXIT_CHECK;
	}
	g = fabric_graph(&fab);
	if (!g) {
		fprintf(stderr, "loom-fm: out of memory\n");
		return FM_EXIT_CHECK;
	}
	if (o->json)
		fabric_print_json(stdout, &fab, g);
	else
		fabric_print(stdout, &fab, g);
	fprintf(stderr, "loom-fm: discovered %d card%s and %d cable%s in %ld ms (%ld maintenance "
		"reads)\n", fab.ncards, fab.ncards == 1 ? "" : "s", graph_cable_count(g),
		graph_cable_count(g) == 1 ? "" : "s", live_now_ms() - t0, m->reads);
	if (o->topology) {
		expected = topo_load(o->topology, err, sizeof(err));
		if (expected) {
			int diffs = fabric_compare(stderr, &fab, g, expected);

			fprintf(stderr, "loom-fm: %s %s (%d difference%s)\n", o->topology,
				diffs ? "does not match the fabric" : "matches the fabric", diffs,
				diffs == 1 ? "" : "s");
			if (diffs)
				status = FM_EXIT_CHECK;
		}
	}
	/* the logical ids configure would program */
	if (o->logical_given || (expected && expected->logical)) {
		if (logical_assign(&fab, o->logical, expected, o->topology, stderr, err,
				   sizeof(err))) {
			fprintf(stderr, "loom-fm: %s\n", err);
			status = FM_EXIT_CHECK;
		} else {
			fprintf(stderr, "loom-fm: configure would program these ");
			logical_print(stderr, &fab);
		}
	}
	graph_free(expected);
	graph_free(g);
	return status;
}

static int cmd_configure(struct fm_maint *m, const struct live_opts *o)
{
	static struct fm_fabric fab;
	struct live_result res;
	int rc = live_configure(m, o, false, o->verbose, &fab, &res);

	if (rc)
		return FM_EXIT_CHECK;
	if (o->json) {
		printf("{\"cards\":%d,\"cables\":%d,\"failed_ports\":%d,\"engine\":\"%s\","
		       "\"routes_changed\":%ld,\"cards_changed\":%d,\"registers_written\":%ld,"
		       "\"maintenance_reads\":%ld,\"verified\":%ld,\"ms\":%ld,\"logical\":", res.cards,
		       res.cables, res.failed_ports, res.engine, res.routes_changed,
		       res.cards_changed, res.written, res.reads, res.verified, res.ms);
		logical_print_json(stdout, &fab);
		printf(",\"reprogramming\":\"%s\",\"states_checked\":%ld,\"order\":[",
		       transition_how_name(res.how), res.states_checked);
		for (int k = 0; k < res.nsteps; k++)
			printf("%s{\"node\":%u,\"drain\":%s}", k ? "," : "",
			       fab.card[res.order[k].card].node, res.order[k].drain ? "true" : "false");
		printf("]}\n");
		return FM_EXIT_OK;
	}
	printf("configured %d card%s, %d cable%s", res.cards, res.cards == 1 ? "" : "s",
	       res.cables, res.cables == 1 ? "" : "s");
	if (res.failed_ports)
		printf(" (%d failed port%s left out)", res.failed_ports,
		       res.failed_ports == 1 ? "" : "s");
	printf(" with engine %s: %ld routing entr%s changed on %d card%s, %ld registers written, "
	       "%ld read back and verified, %ld maintenance reads, %ld ms\n", res.engine,
	       res.routes_changed, res.routes_changed == 1 ? "y" : "ies", res.cards_changed,
	       res.cards_changed == 1 ? "" : "s", res.written, res.verified, res.reads, res.ms);
	return FM_EXIT_OK;
}

int live_main(int argc, char **argv)
{
	struct live_opts o;
	struct fm_nl *nl;
	char err[512];
	int status = parse_live(argv[0], argc, argv, &o);

	if (status >= 0)
		return status;
	nl = fm_nl_open(o.dev, o.maint_timeout_ms, o.maint_retries, err, sizeof(err));
	if (!nl) {
		fprintf(stderr, "loom-fm: %s\n", err);
		return FM_EXIT_CHECK;
	}
	if (!strcmp(argv[0], "discover"))
		status = cmd_discover(fm_nl_maint(nl), &o);
	else if (!strcmp(argv[0], "configure"))
		status = cmd_configure(fm_nl_maint(nl), &o);
	else
		status = live_watch(nl, &o);
	fm_nl_close(nl);
	return status;
}
