// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim: saturation throughput by search.  Runs of the same fabric
 * and traffic at loads chosen by bisection over (0, 1]: a load is stable
 * when the run delivers every measured packet within as many cycles again
 * as it measured and accepts at least 95% of what was offered.  The
 * saturation throughput is the highest stable load found, to 1/256.
 */
#include "sim.h"

#include <string.h>

#define SAT_STEPS	8
#define SAT_ACCEPTED	0.95

struct probe {
	double load, offered, accepted, latency;
	const char *result;
	bool stable;
};

static int probe(const struct sim_config *base, double load, struct probe *p, char *err,
		 size_t errlen)
{
	struct sim_config c = *base;
	struct sim s;
	double cells;

	c.load = load;
	c.drain_max = c.measure;
	c.trace = NULL;
	c.progress = NULL;
	if (sim_build(&s, &c, err, errlen) || sim_run(&s, err, errlen)) {
		sim_free(&s);
		return -1;
	}
	cells = (double)s.window * s.terminals;
	p->load = load;
	p->offered = cells ? (double)s.st.created_flits / cells : 0;
	p->accepted = cells ? (double)s.st.delivered_flits / cells : 0;
	p->latency = s.st.all.packets ? (double)s.st.all.sum / (double)s.st.all.packets : 0;
	p->result = s.deadlocked ? "deadlock" : s.st.measured_done < s.st.created ?
		    "not-drained" : "ok";
	p->stable = !strcmp(p->result, "ok") && p->accepted >= SAT_ACCEPTED * p->offered;
	sim_free(&s);
	return 0;
}

/* The probes in order of load as the curve's points, drawn to @prefix. */
static int plot_probes(const struct sim_config *c, const struct probe *p, int n,
		       const char *prefix, char *err, size_t errlen)
{
	struct sim_curve_point pt[SAT_STEPS + 1];
	char title[256];

	for (int i = 0; i < n; i++) {
		int j = i;

		while (j > 0 && pt[j - 1].offered > p[i].offered) {
			pt[j] = pt[j - 1];
			j--;
		}
		pt[j] = (struct sim_curve_point){ p[i].offered, p[i].accepted, p[i].latency };
	}
	snprintf(title, sizeof(title), "%s, %s, %s router, saturation search", c->topology,
		 c->pattern, c->router);
	return sim_plot_curve(pt, n, prefix, title, err, errlen);
}

int sim_saturation(const struct sim_config *c, FILE *out, enum sim_format f,
		   const char *cmdline, const char *plot, char *err, size_t errlen)
{
	struct probe p[SAT_STEPS + 1];
	double lo = 0, hi = 1;
	int n = 0;

	/* the injection limit first: a fabric that takes 1 flit/node/cycle */
	if (probe(c, 1.0, &p[n], err, errlen))
		return -1;
	if (p[n++].stable) {
		lo = 1;
	} else {
		for (int i = 0; i < SAT_STEPS; i++, n++) {
			double mid = (lo + hi) / 2;

			if (probe(c, mid, &p[n], err, errlen))
				return -1;
			if (p[n].stable)
				lo = mid;
			else
				hi = mid;
		}
	}
	if (plot && plot_probes(c, p, n, plot, err, errlen))
		return -1;
	if (f == SIM_JSON) {
		fprintf(out, "{\n  \"command\": ");
		sim_json_string(out, cmdline);
		fprintf(out, ",\n  \"saturation\": %.6f,\n  \"unstable\": %.6f,\n  \"probes\": [",
			lo, lo == 1 ? 1.0 : hi);
		for (int i = 0; i < n; i++)
			fprintf(out, "%s\n    {\"load\": %.6f, \"offered\": %.6f, \"accepted\": %.6f, "
				"\"latency\": %.4f, \"result\": \"%s\", \"stable\": %s}",
				i ? "," : "", p[i].load, p[i].offered, p[i].accepted, p[i].latency,
				p[i].result, p[i].stable ? "true" : "false");
		fprintf(out, "\n  ]\n}\n");
		return 0;
	}
	if (f == SIM_CSV) {
		fprintf(out, "load,offered,accepted,latency_avg,result,stable\n");
		for (int i = 0; i < n; i++)
			fprintf(out, "%.6f,%.6f,%.6f,%.4f,%s,%d\n", p[i].load, p[i].offered,
				p[i].accepted, p[i].latency, p[i].result, p[i].stable);
		return 0;
	}
	fprintf(out, "# %s\n", cmdline);
	for (int i = 0; i < n; i++)
		fprintf(out, "probe      load %.4f: offered %.4f, accepted %.4f, latency %.2f, %s: "
			"%s\n", p[i].load, p[i].offered, p[i].accepted, p[i].latency, p[i].result,
			p[i].stable ? "stable" : "saturated");
	if (lo == 1)
		fprintf(out, "saturation 1 flit/node/cycle or more (the injection limit)\n");
	else
		fprintf(out, "saturation %.4f flits/node/cycle (stable), %.4f not\n", lo, hi);
	return 0;
}
