// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim's tables per rank: a process that steps its share of P (the
 * topology partition: boxes, pods; runs of ids that need not be one
 * block) holds their rows of the routing and VC tables only, and they are
 * the rows of the whole fabric's tables (the single process's), word for
 * word; loom-fm's engines give any block of the tables as the whole
 * tables have it; the completeness and channel-dependency checks split
 * over destinations and combined give the single check's verdict, a
 * refusal included (the same unreachable pair, the same cycle).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "sim.h"
#include "check.h"
#include "engine.h"
#include "topo_file.h"

TAP_DEFINE;

struct tcase {
	const char *topology, *engine;
	bool crossing;			/* --vc-assign crossing: dor computes blocks on a torus */
};

static const struct tcase cases[] = {
	{ "torus:4x4x2", NULL, true },
	{ "torus:8x4", NULL, true },	/* boxes of runs of 2 to 4 ids */
	{ "torus:4x4", NULL, false },	/* balanced VCs: whole tables, rows kept */
	{ "fattree:4:3", NULL, false },
	{ "mesh:5x3", NULL, false },
	{ "hyperx:3x3", NULL, false },
	{ "torus:3x3", "updown", false },
};

static int build(struct sim *s, const struct tcase *t, int rank, int ranks)
{
	struct sim_config c;
	char err[1024];

	sim_config_default(&c);
	c.topology = t->topology;
	c.engine = t->engine;
	c.router = "xbar";
	c.params[0] = "VCS=2";
	c.nparams = 1;
	c.engine_opts.vc_balance = !t->crossing;
	c.rank = rank;
	c.ranks = ranks;
	if (sim_build(s, &c, err, sizeof(err))) {
		tap_diag("%s, rank %d of %d: %s", t->topology, rank, ranks, err);
		return -1;
	}
	return 0;
}

/*
 * The first word where rank @p's rows differ from the whole tables', or
 * -1: what, and both values in @got and @want.
 */
static long rows_differ(const struct sim *one, const struct sim *p, const char **what,
			uint64_t *got, uint64_t *want)
{
	int rows = p->nmine;
	size_t words = p->tables.words;

	*what = "table row";
	for (int row = 0; row < rows; row++) {
		const uint32_t *mine = sim_tables_rt(&p->tables, row);
		const uint32_t *whole = sim_tables_rt(&one->tables, one->row[p->mine[row]]);

		for (size_t k = 0; k < words; k++) {
			*got = mine[k];
			*want = whole[k];
			if (*got != *want)
				return (long)((size_t)row * words + k);
		}
	}
	*what = "route view";
	for (int row = 0; row < rows; row++) {
		*got = (uintptr_t)p->views[row].rt;
		*want = (uintptr_t)sim_tables_rt(&p->tables, row);
		if (*got != *want)
			return row;
	}
	return -1;
}

static void rank_rows(const struct tcase *t)
{
	struct sim one, p;
	long valid = 0;

	if (build(&one, t, 0, 1)) {
		for (int k = 0; k < 5; k++)
			tap_ok(0, "%s: the single process builds", t->topology);
		return;
	}
	for (int row = 0; row < one.nodes; row++)
		for (size_t k = 0; k < 2 * (size_t)one.rt_entries; k += 2)
			valid += sim_tables_rt(&one.tables, row)[k] != 0;
	for (int ranks = 2; ranks <= 3; ranks++) {
		for (int rank = 0; rank < ranks; rank++) {
			size_t rows, have, whole;
			const char *what;
			uint64_t got = 0, want = 0;
			long at;

			if (build(&p, t, rank, ranks)) {
				tap_ok(0, "%s: rank %d of %d builds", t->topology, rank, ranks);
				continue;
			}
			rows = (size_t)p.nmine;
			have = (size_t)p.tables.rows;
			whole = (size_t)p.nodes;
			at = rows_differ(&one, &p, &what, &got, &want);
			tap_ok(at < 0 && have == rows && have < whole,
			       "%s, rank %d of %d (%s, routers %d..%d): holds %zu rows of tables "
			       "(want %zu of %zu); %s word %ld differs from the whole fabric's "
			       "(0x%llx, want 0x%llx; %ld valid entries in all)", t->topology, rank,
			       ranks, p.partition_how, p.mine[0], p.mine[p.nmine - 1], have, rows,
			       whole, at < 0 ? "no" : what, at,
			       (unsigned long long)got, (unsigned long long)want, valid);
			sim_free(&p);
		}
	}
	sim_free(&one);
}

/* Every entry of a block of the tables equals the whole tables'. */
static void engine_blocks(const char *shape, const char *engine)
{
	char err[512];
	struct fm_graph *g = graph_from_shape(shape, err, sizeof(err));
	const struct fm_engine *e = engine_find(engine);
	struct fm_engine_opts o;
	struct fm_routes *whole, *b;
	int n, r0, r1, d0, d1;
	long diff = 0, entries = 0;

	engine_default_opts(&o);
	o.vc_balance = false;
	whole = g ? engine_run(e, g, &o, err, sizeof(err)) : NULL;
	if (!whole) {
		tap_ok(0, "%s %s: the whole tables: %s", shape, engine, err);
		graph_free(g);
		return;
	}
	n = g->nodes;
	r0 = n / 3, r1 = n / 3 + n / 4 + 1, d0 = n / 5, d1 = n - n / 7;
	b = engine_run_block(e, g, &o, r0, r1, d0, d1, err, sizeof(err));
	for (int i = r0; b && i < r1; i++)
		for (int d = d0; d < d1; d++) {
			size_t w = (size_t)i * (size_t)n + (size_t)d, k = routes_at(b, i, d);

			entries++;
			diff += b->port[k] != whole->port[w] || b->start_vc[k] != whole->start_vc[w] ||
				b->up_first[k] != whole->up_first[w] ||
				b->adapt_ports[k] != whole->adapt_ports[w] ||
				b->hops_left[k] != whole->hops_left[w];
		}
	tap_ok(b && !diff && entries == (long)(r1 - r0) * (d1 - d0),
	       "%s %s: the block of nodes %d..%d toward %d..%d: %s%ld of %ld entries differ "
	       "from the whole tables'", shape, engine, r0, r1 - 1, d0, d1 - 1, b ? "" : err,
	       diff, entries);
	routes_free(b);
	routes_free(whole);
	graph_free(g);
}

/*
 * The checks split in two destination ranges, combined, against the
 * single checks: same count of bad routes and first pair, same cycle.
 */
static void split_checks(const char *shape, const char *engine, bool datelines)
{
	char err[512], got[256], want[256];
	struct fm_graph *g = shape[0] == '/' ? topo_load_ports(shape, FM_MAX_PORTS, err, sizeof(err)) :
					       graph_from_shape(shape, err, sizeof(err));
	const struct fm_engine *e = engine_find(engine);
	struct fm_engine_opts o;
	struct fm_routes *r;
	struct fm_route_check rc;
	struct fm_reach_check a, b;
	struct fm_cdg_check c1 = { 0 }, c2 = { 0 };
	struct fm_cdg_acc x, y;
	int n, mid;

	engine_default_opts(&o);
	o.datelines = datelines;
	r = g ? engine_run(e, g, &o, err, sizeof(err)) : NULL;
	if (!r) {
		tap_ok(0, "%s %s: %s", shape, engine, err);
		graph_free(g);
		return;
	}
	n = g->nodes;
	mid = n / 2;
	check_routes(g, r, &rc);
	cdg_check(g, r, &c1);
	check_reach_init(&a);
	check_reach_init(&b);
	check_reach(g, r, 0, mid, &a);
	check_reach(g, r, mid, n, &b);
	cdg_acc_init(&x, g, r);
	cdg_acc_init(&y, g, r);
	cdg_acc_add(&x, g, r, mid, n);
	cdg_acc_add(&y, g, r, 0, mid);
	for (size_t k = 0; k < x.nwords; k++)
		x.edges[k] |= y.edges[k];
	for (size_t k = 0; k < x.nused; k++)
		x.used[k] |= y.used[k];
	cdg_acc_check(&x, g, &c2);
	if (b.bad && (!a.bad || b.first.src < a.first.src ||
		      (b.first.src == a.first.src && b.first.dest < a.first.dest)))
		a.first = b.first;
	snprintf(want, sizeof(want), "%ld of %ld bad, first %d->%d; %ld vertices, %ld edges, "
		 "cycle %d from %d:%d/vc%d", rc.bad, rc.routes,
		 rc.nreported ? rc.reported[0].src : -1, rc.nreported ? rc.reported[0].dest : -1,
		 c1.vertices, c1.edges, c1.cycle_len, c1.cycle_len ? c1.cycle[0].node : -1,
		 c1.cycle_len ? c1.cycle[0].port : -1, c1.cycle_len ? c1.cycle[0].vc : -1);
	snprintf(got, sizeof(got), "%ld of %ld bad, first %d->%d; %ld vertices, %ld edges, "
		 "cycle %d from %d:%d/vc%d", a.bad + b.bad, a.routes + b.routes,
		 a.bad + b.bad ? a.first.src : -1, a.bad + b.bad ? a.first.dest : -1,
		 c2.vertices, c2.edges, c2.cycle_len, c2.cycle_len ? c2.cycle[0].node : -1,
		 c2.cycle_len ? c2.cycle[0].port : -1, c2.cycle_len ? c2.cycle[0].vc : -1);
	tap_ok(!strcmp(got, want), "%s %s%s, checks over two halves of the destinations: %s "
		  "(one check: %s)", shape, engine, datelines ? "" : " without datelines", got,
		  want);
	cdg_acc_free(&x);
	cdg_acc_free(&y);
	cdg_check_free(&c1);
	cdg_check_free(&c2);
	routes_free(r);
	graph_free(g);
}

int main(void)
{
	size_t ncases = sizeof(cases) / sizeof(cases[0]);

	char topo[] = "/tmp/test_sim_rank_tables.XXXXXX";
	int fd = mkstemp(topo);
	/* 0-1-4-5 and the island 2-3: unreachable pairs toward both halves */
	static const char islands[] = "0:0 1:0\n2:0 3:0\n4:0 5:0\n1:1 4:1\n";

	if (fd < 0 || write(fd, islands, sizeof(islands) - 1) != (ssize_t)sizeof(islands) - 1) {
		perror(topo);
		return 1;
	}
	close(fd);
	tap_plan((int)ncases * 5 + 4 + 4);
	for (size_t i = 0; i < ncases; i++)
		rank_rows(&cases[i]);
	engine_blocks("torus:5x4x3", "dor");
	engine_blocks("fattree:4:3", "updown");
	engine_blocks("torus:4x4", "updown");
	engine_blocks("hyperx:4x3", "dor");
	split_checks("fattree:4:3", "updown", true);
	split_checks("ring:6", "dor", false);
	split_checks("torus:4x4", "dor", true);
	split_checks(topo, "updown", true);
	unlink(topo);
	return tap_exit_status();
}
