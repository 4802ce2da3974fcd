// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim's table store (tools/loom-sim/tables.h): the tables of cards
 * with one network port share a template's pages copy-on-write, and every
 * router reads, word for word, what it reads from tables of its own
 * memory (--own-tables); a run of the shared tables is the run of the
 * own ones, packet for packet; a shared row copies only the page where it
 * differs; a write to one router's table changes that router's route
 * only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "sim.h"
#include "router/route.h"

TAP_DEFINE;

static int build(struct sim *s, const char *topology, bool own, FILE *trace)
{
	struct sim_config c;
	char err[1024];

	sim_config_default(&c);
	c.topology = topology;
	c.router = "xbar";
	c.params[0] = "VCS=2";
	c.nparams = 1;
	c.own_tables = own;
	c.load = 0.3;
	c.seed = 7;
	c.warmup = 50;
	c.measure = 150;
	c.trace = trace;
	if (sim_build(s, &c, err, sizeof(err))) {
		tap_diag("%s%s: %s", topology, own ? " (own tables)" : "", err);
		sim_free(s);
		return -1;
	}
	return 0;
}

/* The first word where the two stores differ, or -1; the values in @got, @want. */
static long first_difference(const struct sim *a, const struct sim *b, uint32_t *got,
			     uint32_t *want)
{
	for (int row = 0; row < a->nmine; row++)
		for (size_t k = 0; k < a->tables.words; k++) {
			*got = sim_tables_rt(&a->tables, row)[k];
			*want = sim_tables_rt(&b->tables, row)[k];
			if (*got != *want)
				return (long)((size_t)row * a->tables.words + k);
		}
	return -1;
}

/* The trace and the report's figures of a run, in @buf. */
static int run(struct sim *s, FILE *trace, char *buf, size_t len)
{
	char err[1024];
	long n;

	if (sim_run(s, err, sizeof(err))) {
		tap_diag("run: %s", err);
		return -1;
	}
	fflush(trace);
	n = ftell(trace);
	rewind(trace);
	if (n < 0 || (size_t)n >= len - 128 || fread(buf, 1, (size_t)n, trace) != (size_t)n)
		return -1;
	snprintf(buf + n, len - (size_t)n, "end %llu delivered %llu hops %llu latency %llu",
		 (unsigned long long)s->now, (unsigned long long)s->st.total_delivered,
		 (unsigned long long)s->st.hops_sum, (unsigned long long)s->st.all.sum);
	return 0;
}

/* A fat tree: cards of one network port under switches, rows of two pages or more. */
static void shared_like_own(const char *topology)
{
	static char got[1 << 22], want[1 << 22];
	FILE *ta = tmpfile(), *tb = tmpfile();
	struct sim a, b;
	uint32_t gw = 0, ww = 0;
	long at;
	size_t pages, own_bytes, resident, bound;

	if (!ta || !tb || build(&a, topology, false, ta)) {
		for (int k = 0; k < 4; k++)
			tap_ok(0, "%s: builds with shared tables", topology);
		return;
	}
	if (build(&b, topology, true, tb)) {
		for (int k = 0; k < 4; k++)
			tap_ok(0, "%s: builds with its own tables", topology);
		sim_free(&a);
		return;
	}
	pages = a.tables.row_bytes / (size_t)sysconf(_SC_PAGESIZE);
	at = first_difference(&a, &b, &gw, &ww);
	tap_ok(a.tables.nshared == a.terminals - SIM_TABLES_SAMPLES && !b.tables.nshared && at < 0,
	       "%s: %d of %d rows share the template (%zu pages a row), none with --own-tables; "
	       "word %ld differs (0x%x, own 0x%x)", topology, a.tables.nshared, a.nodes, pages,
	       at, gw, ww);
	/* the samples and the switches in their own memory, the template, a page per shared row */
	own_bytes = (size_t)(a.nodes - a.tables.nshared) * a.tables.words * sizeof(uint32_t);
	resident = sim_tables_resident(&a.tables);
	bound = own_bytes + a.tables.row_bytes +
		(size_t)a.tables.nshared * (size_t)sysconf(_SC_PAGESIZE);
	tap_ok(pages >= 2 && resident <= bound && resident < sim_tables_resident(&b.tables),
	       "%s: the tables hold %zu bytes (at most %zu: one copied page per shared row); "
	       "with --own-tables %zu", topology, resident, bound, sim_tables_resident(&b.tables));
	if (run(&a, ta, got, sizeof(got)) || run(&b, tb, want, sizeof(want)))
		tap_ok(0, "%s: both runs", topology);
	else
		tap_ok(!strcmp(got, want) && strstr(got, "delivered"),
		       "%s: the run on shared tables is the run on its own (%zu bytes of trace; "
		       "%s / own: %s)", topology, strlen(want), strrchr(got, '\n') + 1,
		       strrchr(want, '\n') + 1);

	/*
	 * A write to one shared row, in a page it has not copied: that
	 * router's route to @dst changes, no other router's.
	 */
	{
		int x = -1, dst, changed = 0, other = 0;
		size_t before = sim_tables_resident(&a.tables), pagesize = (size_t)sysconf(_SC_PAGESIZE);
		struct loom_pkt_hdr h = { 0 };

		/* the last node, its entry in another page than x's own entry */
		dst = a.nodes - 1;
		for (int row = 0; row < a.nmine && x < 0; row++)
			if (a.tables.shared[row] && (size_t)a.mine[row] * 8 / pagesize !=
							    (size_t)dst * 8 / pagesize)
				x = row;
		h.dst_node = (uint16_t)dst;
		sim_tables_set(&sim_tables_rt(&a.tables, x)[2 * dst], 0);
		for (int row = 0; row < a.nmine; row++) {
			unsigned int n = (unsigned int)sim_router_ports(&a, a.mine[row]);
			struct router_decision d = router_decide(&a.views[row], n, &h);
			struct router_decision e = router_decide(&b.views[row], n, &h);

			if (row == x)
				changed = d.verdict == ROUTE_NO_ROUTE && e.verdict == ROUTE_PORT;
			else
				other += d.verdict != e.verdict || d.port != e.port;
		}
		tap_ok(changed && !other &&
			       sim_tables_resident(&a.tables) == before + (size_t)sysconf(_SC_PAGESIZE),
		       "%s: clearing node %d's entry for %d: its route is %s, %d other routers' "
		       "differ; the tables grew %zu bytes (one page)", topology, a.mine[x], dst,
		       changed ? "gone" : "unchanged", other, sim_tables_resident(&a.tables) - before);
	}
	sim_free(&a);
	sim_free(&b);
	fclose(ta);
	fclose(tb);
}

int main(void)
{
	tap_plan(4 * 2);
	shared_like_own("fattree:8:3");	/* 704 nodes: rows of 2 pages */
	shared_like_own("fattree:4:5");	/* 2304 nodes: rows of 5 pages */
	return tap_exit_status();
}
