// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim: the results of a run as text, CSV or JSON.  Loads are flits
 * per node per cycle over the measurement window; latencies are cycles
 * from a packet's creation (it joins its source queue) to the cycle its
 * tail is on the destination router's host port; utilisation is the
 * fraction of window cycles a channel carried a flit.
 */
#include "sim.h"

#include <string.h>

struct summary {
	double offered, accepted, lat_avg, hops_avg, util_avg, util_max;
	uint64_t p50, p99, drops, undelivered;
	double rtt_avg;
	uint64_t rtt_p50, rtt_p99, rtt_max;
	int busiest;
	const char *result;
};

static void summarise(const struct sim *s, struct summary *m)
{
	const struct sim_stats *st = &s->st;
	double cells = (double)s->window * s->terminals;
	int channels = 0;

	memset(m, 0, sizeof(*m));
	m->offered = cells ? (double)st->created_flits / cells : 0;
	m->accepted = cells ? (double)st->delivered_flits / cells : 0;
	m->lat_avg = st->all.packets ? (double)st->all.sum / (double)st->all.packets : 0;
	m->hops_avg = st->all.packets ? (double)st->hops_sum / (double)st->all.packets : 0;
	m->p50 = sim_percentile(s, 0.5);
	m->p99 = sim_percentile(s, 0.99);
	m->rtt_avg = st->rtt.packets ? (double)st->rtt.sum / (double)st->rtt.packets : 0;
	m->rtt_p50 = sim_rtt_percentile(s, 0.5);
	m->rtt_p99 = sim_rtt_percentile(s, 0.99);
	m->rtt_max = st->rtt.packets ? st->rtt.max : 0;
	for (int d = 0; d < ROUTE_DROP_REASONS; d++)
		m->drops += st->drops[d];
	m->undelivered = st->created - st->measured_done + st->requests - st->rtt.packets;
	m->busiest = -1;
	for (int c = 0; c < s->nodes * s->ports; c++) {
		double u;

		if (s->lines[c].a < 0)
			continue;
		u = s->window ? (double)st->chan_flits[c] / (double)s->window : 0;
		channels++;
		m->util_avg += u;
		if (m->busiest < 0 || u > m->util_max) {
			m->util_max = u;
			m->busiest = c;
		}
	}
	if (channels)
		m->util_avg /= channels;
	m->result = s->deadlocked ? "deadlock" : m->undelivered ? "not-drained" :
		    st->misdelivered ? "misdelivered" : "ok";
}

static const char *org_name(const struct router_params *p)
{
	return p->org == ROUTER_ORG_XBAR ? "crossbar" : "tiled";
}

static void text(FILE *out, const struct sim *s, const struct summary *m, bool channels)
{
	const struct sim_stats *st = &s->st;
	const struct router_params *p = &s->params;

	fprintf(out, "topology   %s: %d nodes", s->g->name, s->nodes);
	if (s->terminals != s->nodes)
		fprintf(out, " (%d terminals, %d switches), network ports %d and the host port "
			"per terminal, %d per switch", s->terminals, s->nodes - s->terminals,
			s->term_ports, s->ports);
	else
		fprintf(out, ", %d network ports each", s->ports);
	fprintf(out, ", engine %s\n", s->engine_name);
	fprintf(out, "router     %s (%s, %u VCs, %u-byte flits, %u-flit buffers, %u cycles "
		"zero-load, %u routing entries); ", s->cfg.router, org_name(p), p->vcs,
		p->flit_bytes, p->buf_depth, router_zero_load_latency(p), s->rt_entries);
	if (s->cfg.card_links)
		fprintf(out, "the card's links\n");
	else
		fprintf(out, "links %u cycles\n", s->cfg.link_latency);
	if (s->inj)
		fprintf(out, "traffic    schedule of %zu packets, %.4g flits/node/cycle offered, ",
			s->n_inj, s->cfg.load);
	else if (s->replay)
		fprintf(out, "traffic    replay of %d trace files, %llu requests (open loop), ",
			s->cfg.nreplay, (unsigned long long)replay_requests(s));
	else if (s->cfg.burst_on > 0)
		fprintf(out, "traffic    %s, on/off (on %g, off %g cycles) %.4g flits/node/cycle, ",
			s->cfg.pattern, s->cfg.burst_on, s->cfg.burst_off, s->cfg.load);
	else
		fprintf(out, "traffic    %s, Bernoulli %.4g flits/node/cycle, ", s->cfg.pattern,
			s->cfg.load);
	if (s->inj) {
		fprintf(out, "sizes as scheduled\n");
	} else if (s->replay) {
		fprintf(out, "sizes as recorded\n");
	} else if (s->cfg.n_sizes) {
		fprintf(out, "packets of");
		for (unsigned int k = 0; k < s->cfg.n_sizes; k++)
			fprintf(out, "%s %u (weight %u)", k ? "," : "", s->cfg.sizes[k],
				s->cfg.size_weight[k]);
		fprintf(out, " flits, mean %.4g\n", s->mean_flits);
	} else {
		fprintf(out, "%u-flit packets\n", s->packet_flits);
	}
	if (s->traffic.kind == PAT_WORSTCASE)
		fprintf(out, "worst case  %d of the permutation's flows cross node %d port %d\n",
			s->traffic.worst_flows, s->traffic.worst_node, s->traffic.worst_port);
	if (s->cfg.requests != SIM_PUT)
		fprintf(out, "requests   %s, %u-flit responses on the %s, at most %u outstanding, "
			"response queue %u\n", sim_requests_name(s->cfg.requests), s->response_flits,
			s->cfg.merged_classes ? "request class (merged)" : "response class",
			s->cfg.outstanding, s->cfg.resp_queue);
	fprintf(out, "cycles     warmup %llu, measured %llu, run %llu\n",
		(unsigned long long)s->cfg.warmup, (unsigned long long)s->window,
		(unsigned long long)s->now);
	fprintf(out, "offered    %.4f flits/node/cycle (%llu packets)\n", m->offered,
		(unsigned long long)st->created);
	fprintf(out, "accepted   %.4f flits/node/cycle\n", m->accepted);
	fprintf(out, "latency    avg %.2f, p50 %llu, p99 %llu, max %llu cycles (%llu packets, "
		"%.2f hops avg)\n", m->lat_avg, (unsigned long long)m->p50,
		(unsigned long long)m->p99, (unsigned long long)(st->all.packets ? st->all.max : 0),
		(unsigned long long)st->all.packets, m->hops_avg);
	if (sim_answers(s))
		fprintf(out, "round trip avg %.2f, p50 %llu, p99 %llu, max %llu cycles (%llu requests)\n",
			m->rtt_avg, (unsigned long long)m->rtt_p50, (unsigned long long)m->rtt_p99,
			(unsigned long long)m->rtt_max, (unsigned long long)st->rtt.packets);
	if (m->busiest >= 0)
		fprintf(out, "channels   utilisation avg %.4f, max %.4f (%d:%d -> %d:%d)\n",
			m->util_avg, m->util_max, s->lines[m->busiest].a, s->lines[m->busiest].pa,
			s->lines[m->busiest].b, s->lines[m->busiest].pb);
	if (s->cfg.ranks > 1)
		fprintf(out, "ranks      %d, partition %s: routers %d..%d, %ld of %ld channels cut; "
			"router edges %llu..%llu, CPU %.2f..%.2f s per rank (%.2f s in all)\n",
			s->cfg.ranks, s->partition_how, s->part.routers_min, s->part.routers_max,
			s->part.cut, s->part.channels, (unsigned long long)s->spread.cycles_min,
			(unsigned long long)s->spread.cycles_max, s->spread.cpu_min,
			s->spread.cpu_max, s->spread.cpu_sum);
	fprintf(out, "drops      %llu\n", (unsigned long long)m->drops);
	fprintf(out, "result     %s", m->result);
	if (s->deadlocked)
		fprintf(out, ": no packet delivered for %llu cycles with %llu packets in the network",
			(unsigned long long)s->cfg.deadlock_cycles,
			(unsigned long long)s->in_network);
	else if (m->undelivered)
		fprintf(out, ": %llu measured packets or round trips unfinished after %llu drain cycles",
			(unsigned long long)m->undelivered, (unsigned long long)s->cfg.drain_max);
	else if (st->misdelivered)
		fprintf(out, ": %llu packets reached the wrong node",
			(unsigned long long)st->misdelivered);
	fprintf(out, "\n");
	if (s->deadlocked)
		fprintf(out, "waits      %s\n", s->deadlock_cycle[0] ? s->deadlock_cycle :
			"no cycle of waits closes (packets wait for something outside the fabric)");
	if (!channels)
		return;
	fprintf(out, "channel    from -> to      flits  utilisation\n");
	for (int c = 0; c < s->nodes * s->ports; c++) {
		const struct sim_line *l = &s->lines[c];

		if (l->a >= 0)
			fprintf(out, "channel    %d:%d -> %d:%d %llu %.4f\n", l->a, l->pa, l->b,
				l->pb, (unsigned long long)st->chan_flits[c],
				s->window ? (double)st->chan_flits[c] / (double)s->window : 0.0);
	}
}

static void csv(FILE *out, const struct sim *s, const struct summary *m)
{
	fprintf(out, "topology,nodes,engine,router,vcs,flit_bytes,link_latency,pattern,load,"
		"packet_flits,seed,warmup,measured,offered,accepted,packets,latency_avg,"
		"latency_p50,latency_p99,latency_max,hops_avg,util_avg,util_max,drops,requests,"
		"response_flits,classes,round_trips,rtt_avg,rtt_p50,rtt_p99,rtt_max,result\n");
	fprintf(out, "%s,%d,%s,%s,%u,%u,%u,%s,%.6g,%u,%llu,%llu,%llu,%.6f,%.6f,%llu,%.4f,%llu,"
		"%llu,%llu,%.4f,%.6f,%.6f,%llu,%s,%u,%s,%llu,%.4f,%llu,%llu,%llu,%s\n",
		s->g->name, s->nodes, s->engine_name,
		s->cfg.router, s->params.vcs, s->params.flit_bytes, s->cfg.link_latency,
		s->cfg.pattern, s->cfg.load, s->packet_flits, (unsigned long long)s->cfg.seed,
		(unsigned long long)s->cfg.warmup, (unsigned long long)s->window, m->offered,
		m->accepted, (unsigned long long)s->st.all.packets, m->lat_avg,
		(unsigned long long)m->p50, (unsigned long long)m->p99,
		(unsigned long long)(s->st.all.packets ? s->st.all.max : 0), m->hops_avg,
		m->util_avg, m->util_max, (unsigned long long)m->drops,
		sim_requests_name(s->cfg.requests),
		s->cfg.requests != SIM_PUT ? s->response_flits : 0,
		s->cfg.merged_classes ? "merged" : "separate",
		(unsigned long long)s->st.rtt.packets, m->rtt_avg, (unsigned long long)m->rtt_p50,
		(unsigned long long)m->rtt_p99, (unsigned long long)m->rtt_max, m->result);
}

void sim_json_string(FILE *out, const char *v)
{
	fputc('"', out);
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			fprintf(out, "\\%c", *v);
		else if ((unsigned char)*v < 0x20)
			fprintf(out, "\\u%04x", *v);
		else
			fputc(*v, out);
	}
	fputc('"', out);
}

static void json(FILE *out, const struct sim *s, const struct summary *m, const char *cmdline,
		 double seconds)
{
	const struct sim_stats *st = &s->st;
	const struct router_params *p = &s->params;
	bool first = true;

	fprintf(out, "{\n  \"command\": ");
	sim_json_string(out, cmdline);
	fprintf(out, ",\n  \"topology\": ");
	sim_json_string(out, s->g->name);
	fprintf(out, ",\n  \"nodes\": %d,\n  \"terminals\": %d,\n  \"network_ports\": %d,\n"
		"  \"terminal_network_ports\": %d,\n  \"engine\": \"%s\",\n", s->nodes,
		s->terminals, s->ports, s->term_ports, s->engine_name);
	fprintf(out, "  \"router\": {\"preset\": \"%s\", \"org\": \"%s\", \"vcs\": %u, "
		"\"flit_bytes\": %u, \"buf_depth\": %u, \"zero_load_latency\": %u, "
		"\"rt_entries\": %u},\n",
		s->cfg.router, org_name(p), p->vcs, p->flit_bytes, p->buf_depth,
		router_zero_load_latency(p), s->rt_entries);
	fprintf(out, "  \"link_latency\": %u,\n  \"pattern\": ", s->cfg.link_latency);
	sim_json_string(out, s->replay ? "replay" : s->cfg.pattern);
	if (s->replay)
		fprintf(out, ",\n  \"replay\": {\"files\": %d, \"requests\": %llu}", s->cfg.nreplay,
			(unsigned long long)replay_requests(s));
	if (s->traffic.kind == PAT_WORSTCASE)
		fprintf(out, ",\n  \"worst_channel\": {\"node\": %d, \"port\": %d, \"flows\": %d}",
			s->traffic.worst_node, s->traffic.worst_port, s->traffic.worst_flows);
	fprintf(out, ",\n  \"load\": %.6g,\n  \"packet_flits\": %u,\n  \"seed\": %llu,\n",
		s->cfg.load, s->packet_flits, (unsigned long long)s->cfg.seed);
	fprintf(out, "  \"packet_sizes\": [");
	for (unsigned int k = 0; k < (s->cfg.n_sizes ? s->cfg.n_sizes : 1); k++)
		fprintf(out, "%s{\"flits\": %u, \"weight\": %u}", k ? ", " : "",
			s->cfg.n_sizes ? s->cfg.sizes[k] : s->packet_flits,
			s->cfg.n_sizes ? s->cfg.size_weight[k] : 1);
	fprintf(out, "],\n  \"mean_flits\": %.6g,\n", s->mean_flits);
	fprintf(out, "  \"injection\": {\"process\": \"%s\", \"on\": %g, \"off\": %g},\n",
		s->cfg.burst_on > 0 ? "onoff" : "bernoulli", s->cfg.burst_on, s->cfg.burst_off);
	fprintf(out, "  \"warmup\": %llu,\n  \"measured\": %llu,\n  \"cycles\": %llu,\n",
		(unsigned long long)s->cfg.warmup, (unsigned long long)s->window,
		(unsigned long long)s->now);
	fprintf(out, "  \"router_cycles\": %llu,\n  \"seconds\": %.3f,\n",
		(unsigned long long)s->router_cycles, seconds);
	if (s->cfg.ranks > 1)
		fprintf(out, "  \"partition\": {\"ranks\": %d, \"kind\": \"%s\", \"how\": \"%s\", "
			"\"routers_per_rank\": [%d, %d], \"work_per_rank\": [%ld, %ld], "
			"\"channels_cut\": %ld, \"channels\": %ld, \"router_cycles_per_rank\": "
			"[%llu, %llu], \"cpu_seconds_per_rank\": [%.3f, %.3f], \"cpu_seconds\": "
			"%.3f},\n", s->cfg.ranks,
			s->cfg.partition == SIM_PARTITION_IDS ? "ids" : "topology",
			s->partition_how, s->part.routers_min, s->part.routers_max, s->part.work_min,
			s->part.work_max, s->part.cut, s->part.channels,
			(unsigned long long)s->spread.cycles_min,
			(unsigned long long)s->spread.cycles_max, s->spread.cpu_min,
			s->spread.cpu_max, s->spread.cpu_sum);
	fprintf(out, "  \"offered\": %.6f,\n  \"accepted\": %.6f,\n  \"packets\": %llu,\n",
		m->offered, m->accepted, (unsigned long long)st->all.packets);
	fprintf(out, "  \"latency\": {\"avg\": %.4f, \"p50\": %llu, \"p99\": %llu, \"min\": %llu, "
		"\"max\": %llu},\n", m->lat_avg, (unsigned long long)m->p50,
		(unsigned long long)m->p99,
		(unsigned long long)(st->all.packets ? st->all.min : 0),
		(unsigned long long)(st->all.packets ? st->all.max : 0));
	fprintf(out, "  \"requests\": {\"kind\": \"%s\", \"response_flits\": %u, "
		"\"classes\": \"%s\", \"outstanding\": %u, \"response_queue\": %u},\n",
		sim_requests_name(s->cfg.requests),
		s->cfg.requests != SIM_PUT ? s->response_flits : 0,
		s->cfg.merged_classes ? "merged" : "separate", s->cfg.outstanding, s->cfg.resp_queue);
	fprintf(out, "  \"round_trip\": {\"requests\": %llu, \"avg\": %.4f, \"p50\": %llu, "
		"\"p99\": %llu, \"min\": %llu, \"max\": %llu},\n",
		(unsigned long long)st->rtt.packets, m->rtt_avg, (unsigned long long)m->rtt_p50,
		(unsigned long long)m->rtt_p99,
		(unsigned long long)(st->rtt.packets ? st->rtt.min : 0),
		(unsigned long long)m->rtt_max);
	fprintf(out, "  \"hops_avg\": %.4f,\n  \"latency_by_hops\": [", m->hops_avg);
	for (int h = 0; h <= SIM_MAX_HOPS; h++) {
		const struct sim_latency *l = &st->by_hops[h];

		if (!l->packets)
			continue;
		fprintf(out, "%s\n    {\"hops\": %d, \"packets\": %llu, \"avg\": %.4f, \"min\": %llu, "
			"\"max\": %llu}", first ? "" : ",", h, (unsigned long long)l->packets,
			(double)l->sum / (double)l->packets, (unsigned long long)l->min,
			(unsigned long long)l->max);
		first = false;
	}
	fprintf(out, "\n  ],\n  \"drops\": %llu,\n  \"delivered\": %llu,\n  \"created\": %llu,\n",
		(unsigned long long)m->drops, (unsigned long long)st->total_delivered,
		(unsigned long long)st->total_created);
	fprintf(out, "  \"undelivered\": %llu,\n  \"misdelivered\": %llu,\n  \"deadlock\": %s,\n",
		(unsigned long long)m->undelivered, (unsigned long long)st->misdelivered,
		s->deadlocked ? "true" : "false");
	fprintf(out, "  \"wait_cycle\": ");
	sim_json_string(out, s->deadlock_cycle);
	fprintf(out, ",\n");
	fprintf(out, "  \"result\": \"%s\",\n  \"utilisation\": {\"avg\": %.6f, \"max\": %.6f},\n",
		m->result, m->util_avg, m->util_max);
	fprintf(out, "  \"channels\": [");
	first = true;
	for (int c = 0; c < s->nodes * s->ports; c++) {
		const struct sim_line *l = &s->lines[c];

		if (l->a < 0)
			continue;
		fprintf(out, "%s\n    {\"from\": [%d, %d], \"to\": [%d, %d], \"flits\": %llu, "
			"\"utilisation\": %.6f}", first ? "" : ",", l->a, l->pa, l->b, l->pb,
			(unsigned long long)st->chan_flits[c],
			s->window ? (double)st->chan_flits[c] / (double)s->window : 0.0);
		first = false;
	}
	fprintf(out, "\n  ]\n}\n");
}

void sim_report(FILE *out, const struct sim *s, enum sim_format f, const char *cmdline,
		double seconds, bool channels)
{
	struct summary m;

	summarise(s, &m);
	if (f == SIM_JSON) {
		json(out, s, &m, cmdline, seconds);
		return;
	}
	if (f == SIM_CSV) {
		csv(out, s, &m);
		return;
	}
	fprintf(out, "# %s\n", cmdline);
	text(out, s, &m, channels);
}
