// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim: the command line.  One run per invocation (its results on
 * standard output, the command that repeats it first), or --bench.
 * Documented in Documentation/man/loom-sim.1.rst.
 */
#include "sim.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../common/cli.h"
#include "../common/parse_num.h"
#include "card_links.h"
#include "schedule.h"
#include "router/visits.h"

#ifdef LOOM_SIM_MPI
#include <mpi.h>
#endif

#define EXIT_DEADLOCK	3
#define EXIT_INVALID	4

static const char usage_text[] =
"Usage: loom-sim [--topology SHAPE|FILE] [--engine ENGINE] [--router PRESET]\n"
"                [--param NAME=VALUE]... [--link-latency CYCLES] [--pattern PATTERN]\n"
"                [--load FLITS] [--packet-flits N] [--seed N] [--warmup CYCLES]\n"
"                [--cycles CYCLES] [--drain CYCLES] [--deadlock-cycles CYCLES]\n"
"                [--requests put|get|amo] [--response-flits N] [--outstanding N]\n"
"                [--response-queue N] [--classes separate|merged]\n"
"                [--no-datelines] [--no-adaptive] [--ties split|plus]\n"
"                [--vc-assign balanced|crossing] [--deroutes M]\n"
"                [--allow-deadlock]\n"
"                [--format text|csv|json] [-j]\n"
"                [--channels] [--trace FILE] [--replay FILE]... [--no-skip]\n"
"                [--own-tables]\n"
"                [--links lines|card] [--inject-schedule FILE]\n"
"                [--saturation] [--partition topology|ids]\n"
"                [--progress] [--plot PREFIX]\n"
"       loom-sim --bench\n"
"       loom-sim --validate [--quick]\n"
"Simulate a fabric of the card's cycle-level routers, programmed with the\n"
"tables loom-fm computes, under synthetic traffic.\n"
"\n"
"  --topology T       a shape: ring:N, mesh:XxY[x...], torus:XxY[x...],\n"
"                     hyperx:S1xS2[x...], fattree:K:N (K-ary N-tree of\n"
"                     2K-port switches), dragonfly:A:P:H (A routers of P\n"
"                     terminals and H global links per group); or a\n"
"                     loom-fm topology file (default torus:4x4)\n"
"  --engine E         loom-fm routing engine: dor, minhop, updown, dimwar and\n"
"                     omniwar (HyperX), dragonfly, valiant and ugal (meshes,\n"
"                     HyperX; tori and rings with 4 generic VCs)\n"
"                     (default dor for grids and HyperX,\n"
"                     updown for fat trees and topology files, dragonfly)\n"
"  --no-datelines     dor without datelines (a torus then can deadlock)\n"
"  --no-adaptive      minhop, updown: no adaptive entries (updown on a fat\n"
"                     tree: deterministic up-routes)\n"
"  --ties T           dor: a half-way tie on a ring of 4 or more goes + from\n"
"                     odd coordinates, - from even ones (split, default), or\n"
"                     always + (plus)\n"
"  --vc-assign A      dor with datelines: start VCs chosen for VC balance\n"
"                     (balanced, default) or all VC0 (crossing)\n"
"  --deroutes M       omniwar: N + M distance classes for N dimensions (M 0..7,\n"
"                     default 1), one VC each (3 with the card's VC model)\n"
"  --allow-deadlock   run a routing whose channel dependency graph has a cycle\n"
"  --router P         card (default: tiled, 7 VCs, 16-byte flits), xbar or fbx\n"
"                     (generic VCs, 2 by default)\n"
"  --param NAME=V     a router parameter (router-model.rst), e.g. VCS=3,\n"
"                     FLIT_BYTES=64, BUF_DEPTH=8; repeatable\n"
"  --link-latency C   cycles per link (default 1)\n"
"  --links L          lines (default: channel lines of --link-latency cycles)\n"
"                     or card: the card's link units on every cable (frames,\n"
"                     CRC, go-back-N, lanes, training); scheduled runs only\n"
"  --inject-schedule FILE  inject the packets of FILE instead of a pattern, a\n"
"                     line 'CYCLE NODE DST [FLITS [req|resp]]' each ('#'\n"
"                     comments), through the card's host port; with --links\n"
"                     card; measures every packet\n"
"  --rt-entries N     routing entries of the simulated cards, at least the\n"
"                     nodes (default: the nodes rounded up to 32; the card\n"
"                     has 1024)\n"
"  --pattern P        uniform (default), permutation, transpose, bitcomp,\n"
"                     bitrev, shuffle, tornado, neighbour,\n"
"                     hotspot[:NODE[:FRACTION]], alltoall, worstcase (the\n"
"                     permutation that loads one channel most)\n"
"  --load L           offered load, flits per node per cycle, 0 < L <= 1\n"
"                     (default 0.1); Bernoulli packet arrivals\n"
"  --burst ON:OFF     on/off (bursty) arrivals instead: each terminal is on\n"
"                     for ON cycles and off for OFF cycles on average\n"
"                     (geometric), and creates the load while on\n"
"  --packet-flits N   packet size in flits (default: the smallest packet,\n"
"                     the 48-byte header); or a distribution of sizes with\n"
"                     relative weights N:W[,N:W...], e.g. 3:9,19:1\n"
"  --requests R       put (default): one-way PUTs; get, amo: requests that\n"
"                     every destination answers with a response (the load\n"
"                     counts the flits of both); round trips are reported\n"
"  --response-flits N response size in flits (default: the smallest packet)\n"
"  --outstanding N    requests a terminal has in flight at most (default 8)\n"
"  --response-queue N responses a terminal holds at most (default 4); a\n"
"                     request's head waits in the sink until there is room\n"
"  --classes C        separate (default): responses on the card's response\n"
"                     VCs; merged: on the request VCs (can deadlock)\n"
"  --seed N           random seed (default: from the clock; always printed)\n"
"  --warmup C         cycles before measuring (default 1000)\n"
"  --cycles C         measured cycles (default 10000)\n"
"  --drain C          cycles to wait for the measured packets (default 100000)\n"
"  --deadlock-cycles C  no delivery for C cycles with packets inside is a\n"
"                     deadlock (default 5000)\n"
"  --format F         text (default), csv, json; -j is --format json\n"
"  --channels         text: every channel's flits and utilisation\n"
"  --replay FILE      send the requests a card recorded (loom-card --record)\n"
"                     instead of a pattern, open loop, at their cycles; once\n"
"                     per card's file; measures the whole trace unless\n"
"                     --warmup/--cycles say otherwise\n"
"  --trace FILE       a line per delivered packet: source, destination,\n"
"                     created, delivered, hops, latency, flits ('-': stderr)\n"
"  --no-skip          clock every router every cycle (same results, slower)\n"
"  --own-tables       every router's tables in memory of their own, none\n"
"                     shared (same results, more memory)\n"
"  --progress         a progress line with the time left on stderr (the\n"
"                     default when stderr is a terminal)\n"
"  --saturation       find the saturation throughput: runs at loads chosen by\n"
"                     bisection (--load is not used)\n"
"  --plot PREFIX      figures by gnuplot, PNG and SVG: PREFIX-channels (a run:\n"
"                     every channel's utilisation, routers by ports) or\n"
"                     PREFIX-latency (--saturation: latency and accepted load\n"
"                     against offered load, a point per run)\n"
"  --partition P      loom-sim-mpi: the routers each rank steps: topology\n"
"                     (default: boxes of a grid, a fat tree's pods, a\n"
"                     dragonfly's groups; blocks of ids for a topology file)\n"
"                     or ids (blocks of node ids)\n"
"  --bench            speed and memory figures (8x8x8 and 16x16 tori)\n"
"  --validate         rerun the seeds' published figures: per table row the\n"
"                     paper's value, loom-sim's, the difference and the verdict\n"
"                     (exit 4 if a row fails); --quick: the small subset\n"
"  -h, --help         this help;  -V, --version  the version\n"
"\n"
"Exit status: 0 the run completed, 1 an error, 2 bad usage, 3 the fabric\n"
"deadlocked or the measured packets did not drain, 4 a validation row failed.\n";

static void progress(const struct sim *s, bool done);

struct cli {
	struct sim_config cfg;
	enum sim_format format;
	bool channels, bench, seeded, saturation, validate, quick;
	bool warmup_set, cycles_set;
	const char *traffic_opt;	/* the last option that shapes generated traffic */
	const char *trace, *plot;
	const char *schedule;		/* --inject-schedule FILE */
	struct link_params card_link;	/* --links card: cfg.card_links */
};

static int usage_error(const char *fmt, const char *arg);

/* --packet-flits N:W[,N:W...]: sizes in flits with relative weights. */
static int parse_sizes(const char *arg, struct sim_config *c)
{
	const char *p = arg;

	c->n_sizes = 0;
	for (;;) {
		unsigned int n, w;
		int used = -1;

		if (c->n_sizes == SIM_MAX_SIZES)
			return usage_error("--packet-flits '%s': at most 8 sizes", arg);
		if (sscanf(p, "%u:%u%n", &n, &w, &used) != 2 || used < 0 || !isdigit(*p) ||
		    n == 0 || n > 1024 || w == 0 || w > 1000000)
			return usage_error("--packet-flits '%s': N or N:WEIGHT[,N:WEIGHT...], "
					   "sizes in flits (1 or more), weights 1..1000000 "
					   "(e.g. 3:9,19:1)", arg);
		c->sizes[c->n_sizes] = n;
		c->size_weight[c->n_sizes++] = w;
		p += used;
		if (!*p)
			break;
		if (*p++ != ',')
			return usage_error("--packet-flits '%s': sizes are separated by ','", arg);
	}
	if (c->n_sizes == 1) {
		c->packet_flits = c->sizes[0];
		c->n_sizes = 0;
	}
	return 0;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "loom-sim: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'loom-sim --help'.\n");
	return CLI_EXIT_USAGE;
}

static int parse_u64(const char *opt, const char *v, uint64_t *out)
{
	if (!parse_num(v, out, false)) {
		fprintf(stderr, "loom-sim: %s '%s': not a number\nTry 'loom-sim --help'.\n", opt, v);
		return -1;
	}
	return 0;
}

/* @opt N: a packet size in flits, 1 to 1024 (the largest packet). */
static int parse_packet_size(const char *opt, const char *arg, unsigned int *flits)
{
	char fmt[96];
	uint64_t v;

	if (parse_u64(opt, arg, &v))
		return CLI_EXIT_USAGE;
	if (v == 0 || v > 1024) {
		snprintf(fmt, sizeof(fmt), "%s %%s: a packet has 1 flit or more "
			 "(at most the largest packet)", opt);
		return usage_error(fmt, arg);
	}
	*flits = (unsigned int)v;
	return 0;
}

static int parse_args(int argc, char **argv, struct cli *a)
{
	enum {
		O_TOPO = 256, O_ENGINE, O_NODL, O_ALLOW, O_ROUTER, O_PARAM, O_LINK, O_PATTERN,
		O_LOAD, O_PFLITS, O_SEED, O_WARMUP, O_CYCLES, O_DRAIN, O_DEADLOCK, O_FORMAT,
		O_CHANNELS, O_BENCH, O_NOSKIP, O_OWNTABLES, O_TRACE, O_SAT, O_PROGRESS, O_BURST, O_NOADAPT,
		O_TIES, O_VCASSIGN, O_RT_ENTRIES, O_VALIDATE, O_QUICK, O_PLOT, O_REQUESTS, O_RESPFLITS,
		O_OUTSTANDING, O_RESPQUEUE, O_CLASSES, O_REPLAY, O_DEROUTES, O_LINKS, O_SCHEDULE,
		O_PARTITION,
	};
	static const struct option longopts[] = {
		{ "topology", required_argument, NULL, O_TOPO },
		{ "engine", required_argument, NULL, O_ENGINE },
		{ "no-datelines", no_argument, NULL, O_NODL },
		{ "no-adaptive", no_argument, NULL, O_NOADAPT },
		{ "ties", required_argument, NULL, O_TIES },
		{ "vc-assign", required_argument, NULL, O_VCASSIGN },
		{ "deroutes", required_argument, NULL, O_DEROUTES },
		{ "allow-deadlock", no_argument, NULL, O_ALLOW },
		{ "router", required_argument, NULL, O_ROUTER },
		{ "param", required_argument, NULL, O_PARAM },
		{ "link-latency", required_argument, NULL, O_LINK },
		{ "links", required_argument, NULL, O_LINKS },
		{ "inject-schedule", required_argument, NULL, O_SCHEDULE },
		{ "rt-entries", required_argument, NULL, O_RT_ENTRIES },
		{ "pattern", required_argument, NULL, O_PATTERN },
		{ "load", required_argument, NULL, O_LOAD },
		{ "packet-flits", required_argument, NULL, O_PFLITS },
		{ "burst", required_argument, NULL, O_BURST },
		{ "requests", required_argument, NULL, O_REQUESTS },
		{ "response-flits", required_argument, NULL, O_RESPFLITS },
		{ "outstanding", required_argument, NULL, O_OUTSTANDING },
		{ "response-queue", required_argument, NULL, O_RESPQUEUE },
		{ "classes", required_argument, NULL, O_CLASSES },
		{ "seed", required_argument, NULL, O_SEED },
		{ "warmup", required_argument, NULL, O_WARMUP },
		{ "cycles", required_argument, NULL, O_CYCLES },
		{ "drain", required_argument, NULL, O_DRAIN },
		{ "deadlock-cycles", required_argument, NULL, O_DEADLOCK },
		{ "format", required_argument, NULL, O_FORMAT },
		{ "channels", no_argument, NULL, O_CHANNELS },
		{ "bench", no_argument, NULL, O_BENCH },
		{ "validate", no_argument, NULL, O_VALIDATE },
		{ "quick", no_argument, NULL, O_QUICK },
		{ "plot", required_argument, NULL, O_PLOT },
		{ "no-skip", no_argument, NULL, O_NOSKIP },
		{ "own-tables", no_argument, NULL, O_OWNTABLES },
		{ "trace", required_argument, NULL, O_TRACE },
		{ "replay", required_argument, NULL, O_REPLAY },
		{ "saturation", no_argument, NULL, O_SAT },
		{ "progress", no_argument, NULL, O_PROGRESS },
		{ "partition", required_argument, NULL, O_PARTITION },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct sim_config *c = &a->cfg;
	uint64_t v;
	char *end;
	int ch;

	opterr = 0;
	while ((ch = getopt_long(argc, argv, ":jhV", longopts, NULL)) != -1) {
		for (int k = 0; longopts[k].name; k++)
			if (longopts[k].val == ch && (ch == O_PATTERN || ch == O_LOAD ||
						      ch == O_PFLITS || ch == O_BURST ||
						      ch == O_REQUESTS || ch == O_SAT ||
						      ch == O_VALIDATE || ch == O_BENCH))
				a->traffic_opt = longopts[k].name;
		switch (ch) {
		case O_TOPO:
			c->topology = optarg;
			break;
		case O_ENGINE:
			c->engine = optarg;
			break;
		case O_NODL:
			c->engine_opts.datelines = false;
			break;
		case O_NOADAPT:
			c->engine_opts.adaptive = false;
			break;
		case O_TIES:
			if (engine_parse_ties(optarg, &c->engine_opts))
				return usage_error("--ties '%s': expected split or plus", optarg);
			break;
		case O_VCASSIGN:
			if (engine_parse_vc_assign(optarg, &c->engine_opts))
				return usage_error("--vc-assign '%s': expected balanced or crossing",
						   optarg);
			break;
		case O_PARTITION:
			if (sim_partition_parse(optarg, &c->partition))
				return usage_error("--partition '%s': expected topology or ids",
						   optarg);
			break;
		case O_DEROUTES:
			if (parse_u64("--deroutes", optarg, &v) || v >= LOOM_MAX_PORTS)
				return usage_error("--deroutes '%s': not a number of deroutes (0..7)",
						   optarg);
			c->engine_opts.deroutes = (int)v;
			break;
		case O_ALLOW:
			c->allow_deadlock = true;
			break;
		case O_ROUTER:
			c->router = optarg;
			break;
		case O_PARAM:
			if (c->nparams == (int)(sizeof(c->params) / sizeof(c->params[0])))
				return usage_error("more than 32 --param options%s", "");
			c->params[c->nparams++] = optarg;
			break;
		case O_LINK:
			if (parse_u64("--link-latency", optarg, &v))
				return CLI_EXIT_USAGE;
			if (v > CHAN_LINE_MAX_LATENCY)
				return usage_error("--link-latency %s: at most 256 cycles", optarg);
			c->link_latency = (unsigned int)v;
			break;
		case O_LINKS:
			if (!strcmp(optarg, "card")) {
				sim_card_link_params(&a->card_link);
				c->card_links = &a->card_link;
			} else if (!strcmp(optarg, "lines")) {
				c->card_links = NULL;
			} else {
				return usage_error("--links '%s': expected lines or card", optarg);
			}
			break;
		case O_SCHEDULE:
			a->schedule = optarg;
			break;
		case O_RT_ENTRIES:
			if (parse_u64("--rt-entries", optarg, &v))
				return CLI_EXIT_USAGE;
			if (v < 1 || v > FM_MAX_LOGICAL)
				return usage_error("--rt-entries %s: 1 to 65536 entries (the packet "
						   "header's 16-bit destination)", optarg);
			c->rt_entries = (unsigned int)v;
			break;
		case O_PATTERN:
			c->pattern = optarg;
			break;
		case O_LOAD:
			c->load = strtod(optarg, &end);
			if (end == optarg || *end)
				return usage_error("--load '%s': not a number", optarg);
			break;
		case O_PFLITS:
			if (strchr(optarg, ':')) {
				if (parse_sizes(optarg, c))
					return CLI_EXIT_USAGE;
				break;
			}
			if (parse_packet_size("--packet-flits", optarg, &c->packet_flits))
				return CLI_EXIT_USAGE;
			break;
		case O_BURST: {
			double on, off;
			int n = -1;

			if (sscanf(optarg, "%lf:%lf%n", &on, &off, &n) != 2 || n < 0 ||
			    optarg[n] || !(on >= 1) || !(off >= 1) || on > 1e9 || off > 1e9)
				return usage_error("--burst '%s': ON:OFF, the mean cycles on and "
						   "off, each at least 1 (e.g. 50:150)", optarg);
			c->burst_on = on;
			c->burst_off = off;
			break;
		}
		case O_REQUESTS:
			if (!strcmp(optarg, "put"))
				c->requests = SIM_PUT;
			else if (!strcmp(optarg, "get"))
				c->requests = SIM_GET;
			else if (!strcmp(optarg, "amo"))
				c->requests = SIM_AMO;
			else
				return usage_error("--requests '%s': expected put, get or amo", optarg);
			break;
		case O_RESPFLITS:
			if (parse_packet_size("--response-flits", optarg, &c->response_flits))
				return CLI_EXIT_USAGE;
			break;
		case O_OUTSTANDING:
		case O_RESPQUEUE: {
			const char *opt = ch == O_OUTSTANDING ? "--outstanding" : "--response-queue";

			if (parse_u64(opt, optarg, &v))
				return CLI_EXIT_USAGE;
			if (v == 0 || v > 65535) {
				fprintf(stderr, "loom-sim: %s %s: 1..65535\nTry 'loom-sim --help'.\n",
					opt, optarg);
				return CLI_EXIT_USAGE;
			}
			if (ch == O_OUTSTANDING)
				c->outstanding = (unsigned int)v;
			else
				c->resp_queue = (unsigned int)v;
			break;
		}
		case O_CLASSES:
			if (strcmp(optarg, "separate") && strcmp(optarg, "merged"))
				return usage_error("--classes '%s': expected separate or merged", optarg);
			c->merged_classes = optarg[0] == 'm';
			break;
		case O_SEED:
			if (parse_u64("--seed", optarg, &c->seed))
				return CLI_EXIT_USAGE;
			a->seeded = true;
			break;
		case O_WARMUP:
			if (parse_u64("--warmup", optarg, &c->warmup))
				return CLI_EXIT_USAGE;
			a->warmup_set = true;
			break;
		case O_CYCLES:
			a->cycles_set = true;
			if (parse_u64("--cycles", optarg, &c->measure))
				return CLI_EXIT_USAGE;
			if (!c->measure)
				return usage_error("--cycles %s: measure at least one cycle", optarg);
			break;
		case O_DRAIN:
			if (parse_u64("--drain", optarg, &c->drain_max))
				return CLI_EXIT_USAGE;
			break;
		case O_DEADLOCK:
			if (parse_u64("--deadlock-cycles", optarg, &c->deadlock_cycles))
				return CLI_EXIT_USAGE;
			if (!c->deadlock_cycles)
				return usage_error("--deadlock-cycles %s: at least one cycle", optarg);
			break;
		case O_FORMAT:
			if (!strcmp(optarg, "text")) {
				a->format = SIM_TEXT;
			} else if (!strcmp(optarg, "csv")) {
				a->format = SIM_CSV;
			} else if (!strcmp(optarg, "json")) {
				a->format = SIM_JSON;
			} else {
				static const char *const formats[] = { "text", "csv", "json", NULL };
				const char *near = cli_suggest(optarg, formats);

				fprintf(stderr, "loom-sim: unknown format '%s'%s%s%s; use text, csv "
					"or json\nTry 'loom-sim --help'.\n", optarg,
					near ? ": did you mean '" : "", near ? near : "",
					near ? "'?" : "");
				return CLI_EXIT_USAGE;
			}
			break;
		case 'j':
			a->format = SIM_JSON;
			break;
		case O_CHANNELS:
			a->channels = true;
			break;
		case O_BENCH:
			a->bench = true;
			break;
		case O_VALIDATE:
			a->validate = true;
			break;
		case O_PLOT:
			a->plot = optarg;
			break;
		case O_QUICK:
			a->quick = true;
			break;
		case O_NOSKIP:
			c->no_skip = true;
			break;
		case O_OWNTABLES:
			c->own_tables = true;
			break;
		case O_TRACE:
			a->trace = optarg;
			break;
		case O_REPLAY:
			if (c->nreplay == SIM_MAX_REPLAY)
				return usage_error("--replay %s: at most 1024 trace files", optarg);
			c->replay[c->nreplay++] = optarg;
			break;
		case O_SAT:
			a->saturation = true;
			break;
		case O_PROGRESS:
			c->progress = progress;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(0);
		case 'V':
			printf("loom-sim %s\n", LOOM_VERSION);
			exit(0);
		default: {
			char msg[160];

			cli_option_problem(msg, sizeof(msg), ch, argv, longopts);
			return usage_error("%s", msg);
		}
		}
	}
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	if (c->nreplay && a->traffic_opt)
		return usage_error("--%s: with --replay the terminals send the recorded requests",
				   a->traffic_opt);
	if (a->schedule && (a->traffic_opt || c->nreplay))
		return usage_error("--%s: with --inject-schedule the terminals send the scheduled "
				   "packets", c->nreplay ? "replay" : a->traffic_opt);
	if (a->schedule && (a->warmup_set || a->cycles_set))
		return usage_error("--%s: a scheduled run measures every scheduled packet",
				   a->warmup_set ? "warmup" : "cycles");
	if (a->schedule && !c->card_links)
		return usage_error("--inject-schedule %s: needs --links card (the packets enter "
				   "through the card's host port, beside the card's links)",
				   a->schedule);
	if (c->card_links && !a->schedule)
		return usage_error("%s: the card's links carry scheduled runs only; give "
				   "--inject-schedule FILE", "--links card");
	if (c->nreplay) {
		/* the whole trace is the measurement, unless told otherwise */
		if (!a->warmup_set)
			c->warmup = 0;
		if (!a->cycles_set)
			c->measure = 0;
	}
	return 0;
}

/* The command line that repeats this run: argv, and the seed if it was drawn. */
static char *command_line(int argc, char **argv, const struct cli *a)
{
	size_t len = 64;
	char *s, *p;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) * 4 + 3;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	p += sprintf(p, "loom-sim");
	for (int i = 1; i < argc; i++) {
		bool plain = argv[i][0] && !strpbrk(argv[i], " \t\n'\"\\$`*?;&|<>()#~");

		if (plain) {
			p += sprintf(p, " %s", argv[i]);
			continue;
		}
		*p++ = ' ';
		*p++ = '\'';
		for (const char *c = argv[i]; *c; c++) {
			if (*c == '\'')
				p += sprintf(p, "'\\''");
			else
				*p++ = *c;
		}
		*p++ = '\'';
		*p = '\0';
	}
	if (!a->seeded)
		sprintf(p, " --seed %llu", (unsigned long long)a->cfg.seed);
	return s;
}

static double seconds_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A field of /proc/self/status in KiB ("VmRSS: %ld kB"), -1 if absent. */
static long status_kib(const char *format)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	long kib = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, format, &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/*
 * The progress line on standard error: at most once a second, the cycle,
 * the share of warmup + measured cycles done and the time left at the
 * rate so far; while draining, the measured packets still out.
 */
static void progress(const struct sim *s, bool done)
{
	static double start, last;
	double now = seconds_now(), planned = (double)(s->cfg.warmup + s->cfg.measure);

	if (!start)
		start = last = now;
	if (done) {
		fprintf(stderr, "\rloom-sim: %llu cycles in %.1f s%30s\n",
			(unsigned long long)s->now, now - start, "");
		return;
	}
	if (now - last < 1)
		return;
	last = now;
	if ((double)s->now < planned)
		fprintf(stderr, "\rloom-sim: cycle %llu of %.0f (%.0f%%), %.0f s left   ",
			(unsigned long long)s->now, planned, 100 * (double)s->now / planned,
			(now - start) * (planned - (double)s->now) / (double)s->now);
	else
		fprintf(stderr, "\rloom-sim: cycle %llu, draining: %llu measured packets out   ",
			(unsigned long long)s->now,
			(unsigned long long)(s->st.created - s->st.measured_done));
}

struct bench_case {
	const char *what, *topology;
	double load;
};

/* A bench run: xbar routers of @vcs and 64-byte flits, 1-flit uniform packets. */
static void bench_config(struct sim_config *c, const struct bench_case *b, const char *vcs,
			 uint64_t warmup, uint64_t measure)
{
	sim_config_default(c);
	c->topology = b->topology;
	c->router = "xbar";
	c->params[0] = vcs;
	c->params[1] = "FLIT_BYTES=64";
	c->nparams = 2;
	c->packet_flits = 1;
	c->load = b->load;
	c->pattern = "uniform";
	c->seed = 1;
	c->warmup = warmup;
	c->measure = measure;
	c->drain_max = 1000;
}

/*
 * How cost grows with the fabric, 64 to 4096 routers and a 4864-router
 * fat tree: build time (routes, checks, tables), run rate, memory
 * resident after the build and at the peak of the process so far.
 */
static int bench_growth(void)
{
	static const struct bench_case cases[] = {
		{ "torus:4x4x4", "torus:4x4x4", 0.1 },
		{ "torus:8x8x4", "torus:8x8x4", 0.1 },
		{ "torus:8x8x8", "torus:8x8x8", 0.1 },
		{ "torus:16x8x8", "torus:16x8x8", 0.1 },
		{ "torus:16x16x8", "torus:16x16x8", 0.1 },
		{ "torus:16x16x16", "torus:16x16x16", 0.1 },
		{ "fattree:16:3 (4096 terminals)", "fattree:16:3", 0.1 },
	};
	char err[1024];

	printf("\ngrowth with size: the same routers and traffic at 0.1 flits/node/cycle, 100 + "
	       "500 cycles;\nstart VCs by time of crossing (--vc-assign crossing); the fat tree "
	       "with 2 VCs and\nupdown's adaptive up-routes.  build: routes, checks and tables "
	       "(CPU s); rss: resident\nafter the build; router: one router's state (a "
	       "terminal's; switch: a switch's); tables:\none router's routing table.\n");
	printf("%-30s %7s %8s %8s %11s %9s %9s %9s %9s %8s\n", "case", "routers", "build-s",
	       "run-s", "node-cyc/s", "rss-MiB", "peak-MiB", "router-B", "switch-B", "tables-B");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool clos = !strncmp(cases[i].topology, "fattree", 7);
		struct sim_config c;
		struct sim s;
		double c0, c1, c2;
		long rss;

		bench_config(&c, &cases[i], clos ? "VCS=2" : "VCS=3", 100, 500);
		c.engine_opts.vc_balance = false;
		c0 = sim_cpu_seconds();
		if (sim_build(&s, &c, err, sizeof(err))) {
			fprintf(stderr, "loom-sim: bench %s: %s\n", cases[i].what, err);
			sim_free(&s);
			return 1;
		}
		c1 = sim_cpu_seconds();
		rss = status_kib("VmRSS: %ld kB");
		if (sim_run(&s, err, sizeof(err))) {
			fprintf(stderr, "loom-sim: bench %s: %s\n", cases[i].what, err);
			sim_free(&s);
			return 1;
		}
		c2 = sim_cpu_seconds();
		printf("%-30s %7d %8.2f %8.2f %11.0f %9.1f %9.1f %9zu ", cases[i].what,
		       s.nodes, c1 - c0, c2 - c1, (double)s.now * s.nodes / (c2 - c1),
		       rss / 1024.0, status_kib("VmHWM: %ld kB") / 1024.0, router_memory(s.r[0]));
		/* the switches come after the terminals */
		if (s.terminals < s.nodes)
			printf("%9zu", router_memory(s.r[s.nodes - 1]));
		else
			printf("%9s", "-");
		printf(" %8zu\n", (size_t)s.rt_entries * 8);
		fflush(stdout);
		sim_free(&s);
	}
	return 0;
}

static int bench(void)
{
	static const struct bench_case cases[] = {
		{ "8x8x8 torus, half saturation", "torus:8x8x8", 0.2 },
		{ "16x16 torus, saturation", "torus:16x16", 0.5 },
		{ "8x8x8 torus, 0.05", "torus:8x8x8", 0.05 },
		{ "8x8x8 torus, beyond saturation", "torus:8x8x8", 0.8 },
		{ "4x4x4 torus, 0.2", "torus:4x4x4", 0.2 },
		{ "8x8 torus, 0.2", "torus:8x8", 0.2 },
		{ "16x16 torus, 0.05", "torus:16x16", 0.05 },
	};
	char err[1024];

	printf("loom-sim --bench: xbar routers, 3 VCs, 64-byte flits, 1-flit packets, uniform\n"
	       "random, dor with datelines, links 1 cycle, 200 + 1000 cycles (drain <= 1000).\n"
	       "Loads in flits/node/cycle: the 8x8x8 torus saturates near 0.40 with this router\n"
	       "(the 'beyond saturation' row), so 0.2 is half saturation; the 16x16 torus's\n"
	       "channel-load bound is 8/k = 0.5.  Rates per CPU second of this process and per\n"
	       "wall-clock second (the machine is shared).\n");
	printf("%-32s %7s %7s %7s %8s %11s %11s %8s %8s\n", "case", "routers", "cycles", "active",
	       "cpu-s", "node-cyc/s", "(wall)", "accepted", "latency");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim_config c;
		struct sim s;
		double t0, t1, c0, c1;

		bench_config(&c, &cases[i], "VCS=3", 200, 1000);
		if (sim_build(&s, &c, err, sizeof(err))) {
			fprintf(stderr, "loom-sim: bench %s: %s\n", cases[i].what, err);
			sim_free(&s);
			return 1;
		}
		t0 = seconds_now();
		c0 = sim_cpu_seconds();
		if (sim_run(&s, err, sizeof(err))) {
			fprintf(stderr, "loom-sim: bench %s: %s\n", cases[i].what, err);
			sim_free(&s);
			return 1;
		}
		c1 = sim_cpu_seconds();
		t1 = seconds_now();
		printf("%-32s %7d %7llu %6.1f%% %8.2f %11.0f %11.0f %8.4f %8.2f\n", cases[i].what,
		       s.nodes, (unsigned long long)s.now,
		       100.0 * (double)s.router_cycles / ((double)s.now * s.nodes), c1 - c0,
		       (double)s.now * s.nodes / (c1 - c0), (double)s.now * s.nodes / (t1 - t0),
		       s.window ? (double)s.st.delivered_flits / ((double)s.window * s.nodes) : 0,
		       s.st.all.packets ? (double)s.st.all.sum / (double)s.st.all.packets : 0);
		if (i == 0)
			printf("  memory: %.1f MiB resident with the 8x8x8 fabric (goal <= 32 MiB), "
			       "%.1f MiB peak (building the tables included); one router %zu bytes, "
			       "one channel line %zu bytes (%d lines)\n",
			       status_kib("VmRSS: %ld kB") / 1024.0,
			       status_kib("VmHWM: %ld kB") / 1024.0, router_memory(s.r[0]),
			       chan_line_memory(&s.line_store[0]), s.nodes * s.ports);
		fflush(stdout);
		sim_free(&s);
	}
	printf("goals: 8x8x8 torus at half saturation >= 1.5 M node-cycles/s, 16x16 at "
	       "saturation >= 2 M node-cycles/s\n");
	return bench_growth();
}

/*
 * The MPI variant: every rank parses the same command line and builds the
 * same fabric; rank 0's seed is everyone's; only rank 0 prints (the other
 * ranks' standard output is discarded, their standard error too until the
 * run starts: their messages would repeat rank 0's).
 */
static int ranks_setup(struct sim_config *c, int *saved_stderr)
{
	*saved_stderr = -1;
#ifdef LOOM_SIM_MPI
	unsigned long long seed = c->seed;

	MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c->ranks);
	MPI_Bcast(&seed, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
	c->seed = seed;
	c->dist = &sim_mpi_dist;
	if (c->rank) {
		*saved_stderr = dup(STDERR_FILENO);
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
			return -1;
	}
#else
	(void)c;
#endif
	return 0;
}

/*
 * A rank that fails on its own stops them all: the others would wait for
 * it.  Its message goes out first with one write() from the stack (a
 * stdio buffer would be lost in the abort, or not be had when memory is
 * what ran out).
 */
static void ranks_abort(const struct sim_config *c, const char *err)
{
#ifdef LOOM_SIM_MPI
	char line[2200];
	ssize_t written;
	int n;

	if (!c->dist)
		return;
	n = snprintf(line, sizeof(line), "loom-sim: rank %d of %d: %s\n", c->rank, c->ranks, err);
	if (n > 0) {
		written = write(STDERR_FILENO, line,
				(size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
		(void)written;	/* nothing else to tell it with */
	}
	MPI_Abort(MPI_COMM_WORLD, 1);
#else
	(void)c;
	(void)err;
#endif
}

/* Rank 0 writes every rank's trace lines, in order, to @out; 0 or -1. */
static int trace_merge(char *buf, size_t len, FILE *out)
{
#ifdef LOOM_SIM_MPI
	return sim_mpi_trace(buf, len, out);
#else
	(void)buf;
	(void)len;
	(void)out;
	return 0;
#endif
}

/*
 * --inject-schedule @path into the built run @s: its packets (*@inj, for
 * the caller to free after the run), measured as generated ones, the
 * offered load theirs.  0, or -1 with @err.
 */
static int schedule_set(struct sim *s, const char *path, struct sim_inject **inj, char *err,
			size_t errlen)
{
	uint64_t flits = 0;
	size_t n;

	if (sim_schedule_read(path, s, inj, &n, err, errlen) ||
	    sim_inject_set(s, *inj, n, err, errlen))
		return -1;
	for (size_t k = 0; k < n; k++)
		flits += (LOOM_PKT_HDR_SIZE + ((*inj)[k].hdr[2] | (*inj)[k].hdr[3] << 8) +
			  s->params.flit_bytes - 1) / s->params.flit_bytes;
	s->cfg.inject_measured = true;
	s->cfg.pattern = "schedule";
	s->cfg.load = (double)flits / ((double)s->cfg.measure * s->terminals);
	return 0;
}

static int sim_main(int argc, char **argv)
{
	struct cli a = { .format = SIM_TEXT };
	char err[2048], *cmd, *tbuf = NULL;
	struct sim_inject *inj = NULL;
	FILE *trace_out = NULL;
	size_t tlen = 0;
	struct sim s;
	double t0, t1;
	int rc, saved_stderr;

	sim_config_default(&a.cfg);
	a.cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20);
	if (ranks_setup(&a.cfg, &saved_stderr))
		return 1;
	rc = parse_args(argc, argv, &a);
	if (rc)
		return rc;
	if (a.bench)
		return bench();
	if (a.quick && !a.validate)
		return usage_error("%s: --quick selects the subset of --validate",
				   "--quick without --validate");
	if (a.validate)
		return sim_validate(stdout, a.format, a.quick) ? EXIT_INVALID : 0;
	if (a.plot && sim_plot_ready(a.plot, err, sizeof(err))) {
		fprintf(stderr, "loom-sim: %s\n", err);
		return 1;
	}
	if (a.saturation && a.cfg.burst_on > 0)
		return usage_error("%s: the saturation search runs Bernoulli arrivals only",
				   "--saturation with --burst");
	if (a.saturation) {
		cmd = command_line(argc, argv, &a);
		rc = sim_saturation(&a.cfg, stdout, a.format, cmd ? cmd : "loom-sim",
				    a.plot, err, sizeof(err));
		free(cmd);
		if (rc)
			fprintf(stderr, "loom-sim: %s\n", err);
		return rc ? 1 : 0;
	}
	if (a.trace) {
		if (a.cfg.rank == 0) {
			a.cfg.trace = !strcmp(a.trace, "-") ? stderr : fopen(a.trace, "w");
			if (!a.cfg.trace) {
				fprintf(stderr, "loom-sim: --trace %s: cannot create: %s\n", a.trace,
					strerror(errno));
				return 1;
			}
		}
		if (a.cfg.dist) {
			/* each rank's lines in memory, merged by rank 0 at the end */
			trace_out = a.cfg.trace;
			a.cfg.trace = open_memstream(&tbuf, &tlen);
			if (!a.cfg.trace) {
				fprintf(stderr, "loom-sim: --trace: out of memory\n");
				return 1;
			}
		}
	}
	if (isatty(STDERR_FILENO) && !a.cfg.dist)
		a.cfg.progress = progress;
	if (sim_build(&s, &a.cfg, err, sizeof(err))) {
		/* a rank's own failure: say so, and stop the ranks waiting for it */
		if (a.cfg.dist && a.cfg.ranks > 1 && !s.refused_alike) {
			if (saved_stderr >= 0)
				dup2(saved_stderr, STDERR_FILENO);
			ranks_abort(&a.cfg, err);
		}
		fprintf(stderr, "loom-sim: %s\n", err);
		sim_free(&s);
		return 1;
	}
	if (a.schedule && schedule_set(&s, a.schedule, &inj, err, sizeof(err))) {
		fprintf(stderr, "loom-sim: %s\n", err);
		free(inj);
		sim_free(&s);
		return 1;
	}
	if (saved_stderr >= 0)
		dup2(saved_stderr, STDERR_FILENO);
	if (a.cfg.ranks > 1 && a.cfg.rank == 0)
		fprintf(stderr, "loom-sim: %d ranks, partition %s (%s): routers per rank %d..%d, "
			"work per rank %ld..%ld ports, %ld of %ld channels cut\n", a.cfg.ranks,
			a.cfg.partition == SIM_PARTITION_IDS ? "ids" : "topology",
			s.partition_how, s.part.routers_min, s.part.routers_max, s.part.work_min,
			s.part.work_max, s.part.cut, s.part.channels);
	t0 = seconds_now();
	if (sim_run(&s, err, sizeof(err))) {
		ranks_abort(&a.cfg, err);
		fprintf(stderr, "loom-sim: %s\n", err);
		sim_free(&s);
		free(inj);
		return 1;
	}
	t1 = seconds_now();
#ifdef ROUTER_VISITS
	/* loom-sim-visits: what the routers' stages looked at during the run */
	fprintf(stderr, "router visits per node-cycle (%llu cycles x %d nodes):\n",
		(unsigned long long)s.now, s.nodes);
	router_visits_print(stderr, (double)s.now * s.nodes);
#endif
	cmd = command_line(argc, argv, &a);
	sim_report(stdout, &s, a.format, cmd ? cmd : "loom-sim", t1 - t0, a.channels);
	free(cmd);
	rc = s.deadlocked || s.st.measured_done < s.st.created ||
	     s.st.rtt.packets < s.st.requests ? EXIT_DEADLOCK : 0;
	if (a.plot) {
		char title[256];

		snprintf(title, sizeof(title), "%s, %s, load %g, %s router", a.cfg.topology,
			 a.cfg.pattern, a.cfg.load, a.cfg.router);
		if (sim_plot_channels(&s, a.plot, title, err, sizeof(err))) {
			fprintf(stderr, "loom-sim: %s\n", err);
			rc = 1;
		}
	}
	sim_free(&s);
	free(inj);
	if (trace_out || (a.cfg.dist && a.trace)) {
		fclose(a.cfg.trace);
		if (trace_merge(tbuf, tlen, trace_out))
			rc = 1;
		free(tbuf);
		a.cfg.trace = trace_out;
	}
	if (a.cfg.trace && a.cfg.trace != stderr && fclose(a.cfg.trace)) {
		fprintf(stderr, "loom-sim: --trace %s: %s\n", a.trace, strerror(errno));
		rc = 1;
	}
	return rc;
}

int main(int argc, char **argv)
{
#ifdef LOOM_SIM_MPI
	int rc;

	MPI_Init(&argc, &argv);
	rc = sim_main(argc, argv);
	MPI_Finalize();
	return rc;
#else
	return sim_main(argc, argv);
#endif
}
