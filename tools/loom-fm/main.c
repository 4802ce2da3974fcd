// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm: the fabric manager's command line.  'routes' builds the fabric
 * graph, runs a routing engine and checks the tables (loom-fm --help);
 * 'discover', 'configure' and 'watch' work on the live fabric (live.c).
 */
#include "fm.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../common/cli.h"
#include "check.h"
#include "engine.h"
#include "graph.h"
#include "live.h"
#include "mcast.h"
#include "report.h"
#include "topo_file.h"
#include "verdict.h"

#define MAX_FAILS 1024

struct fm_args {
	const char *shape, *topology, *engine, *groups;
	const char *fail[MAX_FAILS];
	int nfail;
	struct fm_engine_opts opts;
	int check_only, json;
};

static int parse_args(int argc, char **argv, struct fm_args *a)
{
	enum { OPT_SHAPE = 256, OPT_TOPO, OPT_ENGINE, OPT_FAIL, OPT_ROOT, OPT_NODL, OPT_CHECK, OPT_NOADAPT,
	       OPT_TIES, OPT_VCASSIGN, OPT_GROUPS, OPT_DEROUTES };
	static const struct option longopts[] = {
		{ "shape", required_argument, NULL, OPT_SHAPE },
		{ "topology", required_argument, NULL, OPT_TOPO },
		{ "engine", required_argument, NULL, OPT_ENGINE },
		{ "fail", required_argument, NULL, OPT_FAIL },
		{ "root", required_argument, NULL, OPT_ROOT },
		{ "no-datelines", no_argument, NULL, OPT_NODL },
		{ "no-adaptive", no_argument, NULL, OPT_NOADAPT },
		{ "ties", required_argument, NULL, OPT_TIES },
		{ "vc-assign", required_argument, NULL, OPT_VCASSIGN },
		{ "deroutes", required_argument, NULL, OPT_DEROUTES },
		{ "check-only", no_argument, NULL, OPT_CHECK },
		{ "groups", required_argument, NULL, OPT_GROUPS },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	engine_default_opts(&a->opts);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jhV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_SHAPE:
			a->shape = optarg;
			break;
		case OPT_TOPO:
			a->topology = optarg;
			break;
		case OPT_ENGINE:
			a->engine = optarg;
			break;
		case OPT_FAIL:
			if (a->nfail == MAX_FAILS)
				return fm_usage_error("more than 1024 --fail options%s", "");
			a->fail[a->nfail++] = optarg;
			break;
		case OPT_ROOT:
			if (fm_parse_root(optarg, &a->opts) >= 0)
				return FM_EXIT_USAGE;
			break;
		case OPT_NODL:
			a->opts.datelines = false;
			break;
		case OPT_NOADAPT:
			a->opts.adaptive = false;
			break;
		case OPT_TIES:
			if (engine_parse_ties(optarg, &a->opts))
				return fm_usage_error("--ties '%s': expected split or plus", optarg);
			break;
		case OPT_VCASSIGN:
			if (engine_parse_vc_assign(optarg, &a->opts))
				return fm_usage_error("--vc-assign '%s': expected balanced or crossing",
						      optarg);
			break;
		case OPT_DEROUTES:
			if (fm_parse_deroutes(optarg, &a->opts) >= 0)
				return FM_EXIT_USAGE;
			break;
		case OPT_CHECK:
			a->check_only = 1;
			break;
		case OPT_GROUPS:
			a->groups = optarg;
			break;
		case 'j':
			a->json = 1;
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
	if (optind >= argc)
		return fm_usage_error("no command given; commands: routes, discover, configure, "
				      "watch%s", "");
	if (strcmp(argv[optind], "routes"))
		return fm_bad_command(argv[optind]);
	if (optind + 1 < argc)
		return fm_usage_error("unexpected argument '%s'", argv[optind + 1]);
	if (!!a->shape == !!a->topology)
		return fm_usage_error("give exactly one of --shape SHAPE and --topology FILE%s", "");
	return -1;
}

static struct fm_graph *build_graph(const struct fm_args *a)
{
	char err[4096];
	struct fm_graph *g;

	g = a->shape ? graph_from_shape(a->shape, err, sizeof(err))
		     : topo_load(a->topology, err, sizeof(err));
	if (!g) {
		fprintf(stderr, "loom-fm: %s\n", err);
		return NULL;
	}
	for (int i = 0; i < a->nfail; i++) {
		int node, port;

		if (graph_parse_end(a->fail[i], &node, &port)) {
			fprintf(stderr, "loom-fm: --fail '%s': expected NODE:PORT (decimal)\n",
				a->fail[i]);
			graph_free(g);
			return NULL;
		}
		if (graph_fail_port(g, node, port, err, sizeof(err))) {
			fprintf(stderr, "loom-fm: %s\n", err);
			graph_free(g);
			return NULL;
		}
	}
	return g;
}

int main(int argc, char **argv)
{
	struct fm_args a = { 0 };
	struct fm_mcast_groups gs = { 0 };
	struct fm_mcast_trees trees = { 0 };
	const struct fm_engine *e;
	struct fm_verdict v;
	struct fm_report rep;
	struct fm_graph *g;
	char err[512];
	int status;

	if (argc > 1 && (!strcmp(argv[1], "discover") || !strcmp(argv[1], "configure") ||
			 !strcmp(argv[1], "watch")))
		return live_main(argc - 1, argv + 1);
	status = parse_args(argc, argv, &a);

	if (status >= 0)
		return status;
	e = a.engine ? engine_find(a.engine) : NULL;
	if (a.engine && !e)
		return fm_usage_error("unknown engine '%s'; engines: %s", a.engine,
				      engine_names());
	if (a.groups && mcast_load(a.groups, &gs, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: %s\n", err);
		return FM_EXIT_USAGE;
	}
	g = build_graph(&a);
	if (!g) {
		mcast_groups_free(&gs);
		return FM_EXIT_USAGE;
	}
	if (!e)
		e = engine_find(engine_default_name(g));
	if (verdict_run(e, g, &a.opts, &v, err, sizeof(err))) {
		fprintf(stderr, "loom-fm: %s\n", err);
		mcast_groups_free(&gs);
		graph_free(g);
		return FM_EXIT_USAGE;
	}
	rep = (struct fm_report){ g, e, &a.opts, v.routes, &v.routes_check, &v.cdg, !a.check_only,
				  NULL };
	status = FM_EXIT_OK;
	if (a.groups) {
		if (mcast_trees(g, v.routes, &gs, &trees, err, sizeof(err))) {
			fprintf(stderr, "loom-fm: %s: %s\n", a.groups, err);
			status = FM_EXIT_CHECK;
		} else {
			rep.mcast = &trees;
		}
	}
	if (a.json)
		report_json(stdout, &rep);
	else
		report_text(stdout, &rep);
	if (!report_ok(&rep))
		status = FM_EXIT_CHECK;
	mcast_trees_free(&trees);
	mcast_groups_free(&gs);
	verdict_free(&v);
	graph_free(g);
	return status;
}
