// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim --validate: the seeds' published figures rerun with loom's own
 * engines, tables and router, one line per table row: the paper's value,
 * loom's, the difference and the verdict.  The experiments, what the
 * papers leave unstated and what is assumed: Documentation/sim/validation.rst.
 */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vc_balance.h"
#include "verdict.h"

enum val_kind {
	VAL_EXACT,	/* deterministic: equal to the paper's printed digits */
	VAL_WITHIN,	/* statistical: within the stated tolerance */
	VAL_AT_MOST,	/* a bound: loom's value is the paper's or better (lower) */
	VAL_REPORTED,	/* printed for comparison, not judged (validation.rst says why) */
};

struct val {
	FILE *out;
	enum sim_format format;
	bool quick;
	int rows, failed;
	const char *experiment;		/* printed once above its rows */
};

static void val_experiment(struct val *v, const char *title)
{
	v->experiment = title;
	if (v->format != SIM_TEXT)
		return;
	fprintf(v->out, "\n%s\n", title);
	fprintf(v->out, "  %-40s %9s %9s %9s  %-14s %s\n", "row", "paper", "loom-sim", "diff",
		"criterion", "verdict");
}

/* A row as CSV or JSON (@paper, @ours NULL: the row could not be run). */
static void val_record(struct val *v, const char *row, const double *paper, const double *ours,
		       const char *criterion, const char *verdict, const char *error)
{
	if (v->format == SIM_CSV) {
		fprintf(v->out, "\"%s\",\"%s\",", v->experiment, row);
		if (paper)
			fprintf(v->out, "%.10g,%.10g,%.10g,", *paper, *ours, *ours - *paper);
		else
			fprintf(v->out, ",,,");
		fprintf(v->out, "%s,%s\n", criterion, verdict);
		return;
	}
	fprintf(v->out, "%s\n    {\"experiment\": ", v->rows > 1 ? "," : "");
	sim_json_string(v->out, v->experiment);
	fprintf(v->out, ", \"row\": ");
	sim_json_string(v->out, row);
	if (paper) {
		fprintf(v->out, ", \"paper\": %.10g, \"loom_sim\": %.10g, \"diff\": %.10g", *paper,
			*ours, *ours - *paper);
	} else {
		fprintf(v->out, ", \"error\": ");
		sim_json_string(v->out, error);
	}
	fprintf(v->out, ", \"criterion\": \"%s\", \"verdict\": \"%s\"}", criterion, verdict);
}

/*
 * One row.  @digits: the decimals the paper prints (an exact value matches
 * when it rounds to the paper's figure); @tol: the tolerance of VAL_WITHIN.
 */
static void val_row(struct val *v, const char *row, enum val_kind kind, double paper,
		    double ours, int digits, double tol)
{
	double rounding = 0.5 * pow(10, -digits) + 1e-12, diff = ours - paper;
	char criterion[32];
	bool ok;

	switch (kind) {
	case VAL_EXACT:
		ok = fabs(diff) <= rounding;
		snprintf(criterion, sizeof(criterion), "exact");
		break;
	case VAL_WITHIN:
		ok = fabs(diff) <= tol;
		snprintf(criterion, sizeof(criterion), "+-%g", tol);
		break;
	case VAL_AT_MOST:
		ok = diff <= rounding;
		snprintf(criterion, sizeof(criterion), "<= paper");
		break;
	default:
		ok = true;
		snprintf(criterion, sizeof(criterion), "reported");
		break;
	}
	v->rows++;
	v->failed += !ok;
	if (v->format != SIM_TEXT) {
		val_record(v, row, &paper, &ours, criterion,
			   kind == VAL_REPORTED ? "-" : ok ? "ok" : "FAIL", NULL);
		return;
	}
	fprintf(v->out, "  %-40s %9.*f %9.*f %+9.*f  %-14s %s\n", row, digits, paper, digits + 1,
		ours, digits + 1, diff, criterion, kind == VAL_REPORTED ? "-" : ok ? "ok" : "FAIL");
}

static void val_error(struct val *v, const char *row, const char *err)
{
	v->rows++;
	v->failed++;
	if (v->format != SIM_TEXT)
		val_record(v, row, NULL, NULL, "run", "FAIL", err);
	else
		fprintf(v->out, "  %-40s could not be run: %s  FAIL\n", row, err);
}

/* loom-fm's dor engine on @shape (ties split), with balanced or all-VC0 start VCs. */
static int dor_routes(const char *shape, bool balanced, struct fm_graph **g,
		      struct fm_verdict *v, char *err, size_t errlen)
{
	struct fm_engine_opts o;

	engine_default_opts(&o);
	o.tie_split = true;
	o.vc_balance = balanced;
	*g = graph_from_shape(shape, err, errlen);
	if (!*g)
		return -1;
	if (verdict_run(&fm_engine_dor, *g, &o, v, err, errlen)) {
		graph_free(*g);
		*g = NULL;
		return -1;
	}
	return 0;
}

/*
 * Scott and Thorson, The Cray T3E Network, Table 1: VC balance of whole
 * rings and their power-of-two subrings under all-to-all traffic, for the
 * time-of-crossing assignment (every start VC 0) and for optimised start
 * VCs with full tables.
 */
static void t3e_vc_balance(struct val *v)
{
	static const struct {
		int ring, subring;
		double tc_avg, opt_avg, opt_max;
	} rows[] = {
		{ 4, 4, 1, 0, 0 },
		{ 8, 8, .813, .031, .250 },
		{ 8, 4, .625, .125, .250 },
		{ 16, 16, .813, .133, .563 },
		{ 16, 8, .656, .063, .313 },
		{ 16, 4, .625, .125, .250 },
		{ 32, 32, .807, .173, .797 },
		{ 32, 16, .664, .062, .250 },
		{ 32, 8, .656, .031, .063 },
		{ 32, 4, .625, .125, .250 },
	};

	val_experiment(v, "T3E Table 1: VC balance under all-to-all traffic "
		       "(ring, subring; time of crossing, optimised full tables)");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fm_graph *g;
		struct fm_verdict fv;
		struct fm_vc_balance tc, opt;
		char shape[32], name[64], err[512];
		int rc;

		if (v->quick && rows[i].ring > 16)
			continue;
		snprintf(shape, sizeof(shape), "ring:%d", rows[i].ring);
		snprintf(name, sizeof(name), "ring %d subring %d", rows[i].ring, rows[i].subring);
		if (dor_routes(shape, false, &g, &fv, err, sizeof(err))) {
			val_error(v, name, err);
			continue;
		}
		rc = vc_balance_measure_among(g, fv.routes, 0, rows[i].subring, &tc);
		verdict_free(&fv);
		graph_free(g);
		if (rc) {
			val_error(v, name, "out of memory");
			continue;
		}
		snprintf(name, sizeof(name), "%d/%d time of crossing avg", rows[i].ring,
			 rows[i].subring);
		val_row(v, name, VAL_EXACT, rows[i].tc_avg, tc.avg, 3, 0);
		snprintf(name, sizeof(name), "%d/%d time of crossing max", rows[i].ring,
			 rows[i].subring);
		val_row(v, name, VAL_EXACT, 1, tc.max, 3, 0);
		/* loom-fm optimises for whole-ring traffic only */
		if (rows[i].subring != rows[i].ring)
			continue;
		if (dor_routes(shape, true, &g, &fv, err, sizeof(err))) {
			val_error(v, name, err);
			continue;
		}
		rc = vc_balance_measure(g, fv.routes, &opt);
		verdict_free(&fv);
		graph_free(g);
		if (rc) {
			val_error(v, name, "out of memory");
			continue;
		}
		snprintf(name, sizeof(name), "%d/%d optimised avg", rows[i].ring, rows[i].subring);
		val_row(v, name, VAL_AT_MOST, rows[i].opt_avg, opt.avg, 3, 0);
		snprintf(name, sizeof(name), "%d/%d optimised max", rows[i].ring, rows[i].subring);
		val_row(v, name, VAL_AT_MOST, rows[i].opt_max, opt.max, 3, 0);
	}
}

/*
 * Scott, Abts, Kim and Dally, The BlackWidow High-Radix Clos Network,
 * Table 4, the torus columns: k x k x k tori with minimal dimension-order
 * routing; the average channel load of uniform traffic (k/8 of the
 * injection bandwidth) and the most loaded channel of a random permutation,
 * averaged over random permutations.
 */
static void bw_permutation_contention(struct val *v)
{
	static const struct {
		int k;
		double avg, worst;
	} rows[] = {
		{ 4, 0.5, 2.46 },
		{ 6, 0.75, 3.92 },
		{ 8, 1, 5.02 },
	};
	int perms = v->quick ? 1000 : 10000;

	val_experiment(v, "BlackWidow Table 4: channel load of a k-ary 3-cube, dimension order "
		       "(uniform average; worst channel of a random permutation)");
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fm_graph *g;
		struct fm_verdict fv;
		struct fm_hop *hops;
		long *load, chans, total = 0, worst_sum = 0;
		int *perm, n, k = rows[i].k;
		char shape[32], name[64], err[512];
		struct sim_rng rng;

		if (v->quick && k > 4)
			continue;
		snprintf(shape, sizeof(shape), "torus:%dx%dx%d", k, k, k);
		if (dor_routes(shape, false, &g, &fv, err, sizeof(err))) {
			val_error(v, shape, err);
			continue;
		}
		n = g->nodes;
		chans = (long)n * g->ports;
		hops = malloc((size_t)n * sizeof(*hops));
		load = calloc((size_t)chans, sizeof(*load));
		perm = malloc((size_t)n * sizeof(*perm));
		if (!hops || !load || !perm) {
			val_error(v, shape, "out of memory");
			goto next;
		}
		/* every endpoint sends to every endpoint, itself included (0 hops) */
		for (int s = 0; s < n; s++)
			for (int d = 0; d < n; d++) {
				int stuck, h = s == d ? 0 : routes_walk(g, fv.routes, s, d, hops, &stuck);

				total += h > 0 ? h : 0;
			}
		snprintf(name, sizeof(name), "%d-ary 3-cube (%d) average", k, n);
		val_row(v, name, VAL_EXACT, rows[i].avg, (double)total / n / (6.0 * n), 2, 0);
		sim_rng_seed(&rng, 0x7ab1e4, (uint64_t)k);
		for (int p = 0; p < perms; p++) {
			long worst = 0;

			for (int s = 0; s < n; s++)
				perm[s] = s;
			for (int s = n - 1; s > 0; s--) {
				int j = (int)sim_rng_below(&rng, (uint32_t)s + 1), t = perm[s];

				perm[s] = perm[j];
				perm[j] = t;
			}
			memset(load, 0, (size_t)chans * sizeof(*load));
			for (int s = 0; s < n; s++) {
				int stuck, h = perm[s] == s ? 0 :
					routes_walk(g, fv.routes, s, perm[s], hops, &stuck);

				for (int j = 0; j < h; j++) {
					long c = (long)hops[j].node * g->ports + hops[j].port;

					if (++load[c] > worst)
						worst = load[c];
				}
			}
			worst_sum += worst;
		}
		snprintf(name, sizeof(name), "%d-ary 3-cube worst, %d perms", k, perms);
		val_row(v, name, VAL_WITHIN, rows[i].worst, (double)worst_sum / perms, 2,
			0.05 * rows[i].worst);
next:
		free(hops);
		free(load);
		free(perm);
		verdict_free(&fv);
		graph_free(g);
	}
}

/*
 * Zero-load latency: a packet of F flits over H links and H + 1 routers
 * takes (H + 1) R + H W + F - 1 cycles, R the router's stages
 * (router_zero_load_latency()), W the link's.  Measured per hop count at a
 * load where packets rarely meet; statistical (a rare meeting adds
 * cycles), tolerance 0.25 cycles.
 */
static void zero_load_latency(struct val *v)
{
	static const struct {
		const char *what, *router, *param;
		unsigned int link, flits;
	} cases[] = {
		{ "card, 1 flit, link 1", "card", "FLIT_BYTES=64", 1, 1 },
		{ "card, 3 flits, link 2", "card", "FLIT_BYTES=16", 2, 3 },
		{ "xbar, 1 flit, link 1", "xbar", "FLIT_BYTES=64", 1, 1 },
	};

	val_experiment(v, "Zero-load latency per hop count, 4x4 torus: (H+1) x router stages "
		       "+ H x link + flits - 1");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sim_config c;
		struct sim s;
		char err[1024], name[64];
		unsigned int r;

		if (v->quick && i > 0)
			continue;
		sim_config_default(&c);
		c.topology = "torus:4x4";
		c.router = cases[i].router;
		c.params[c.nparams++] = cases[i].param;
		c.link_latency = cases[i].link;
		c.packet_flits = cases[i].flits;
		c.load = 0.004;
		c.seed = 7;
		c.warmup = 200;
		c.measure = v->quick ? 10000 : 30000;
		if (sim_build(&s, &c, err, sizeof(err)) || sim_run(&s, err, sizeof(err))) {
			val_error(v, cases[i].what, err);
			sim_free(&s);
			continue;
		}
		r = router_zero_load_latency(&s.params);
		for (int h = 1; h <= 4; h++) {
			const struct sim_latency *l = &s.st.by_hops[h];
			double want = (h + 1.0) * r + h * (double)c.link_latency + c.packet_flits - 1;

			snprintf(name, sizeof(name), "%s: %d hop%s, %llu pkts", cases[i].what, h,
				 h > 1 ? "s" : "", (unsigned long long)l->packets);
			if (l->packets < 20) {
				val_error(v, name, "fewer than 20 packets measured");
				continue;
			}
			val_row(v, name, VAL_WITHIN, want, (double)l->sum / (double)l->packets, 0,
				0.25);
		}
		sim_free(&s);
	}
}

int sim_validate(FILE *out, enum sim_format f, bool quick)
{
	struct val v = { .out = out, .format = f, .quick = quick };

	if (f == SIM_CSV)
		fprintf(out, "experiment,row,paper,loom_sim,diff,criterion,verdict\n");
	else if (f == SIM_JSON)
		fprintf(out, "{\n  \"quick\": %s,\n  \"rows\": [", quick ? "true" : "false");
	else
		fprintf(out, "loom-sim --validate%s: the seeds' figures rerun with loom's engines, "
			"tables and router\n(Documentation/sim/validation.rst: setups and "
			"assumptions)\n", quick ? " --quick" : "");
	t3e_vc_balance(&v);
	bw_permutation_contention(&v);
	zero_load_latency(&v);
	if (f == SIM_JSON)
		fprintf(out, "\n  ],\n  \"total\": %d,\n  \"failed\": %d\n}\n", v.rows, v.failed);
	else if (f == SIM_TEXT)
		fprintf(out, "\n%d rows, %d failed\n", v.rows, v.failed);
	return v.failed;
}
