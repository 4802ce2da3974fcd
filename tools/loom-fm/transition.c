// SPDX-License-Identifier: GPL-2.0
/* loom-fm: a deadlock-free order to reprogram the cards (transition.h). */
#include "transition.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "routes.h"

#define DEFAULT_LIMIT_WALKS	(20L * 1000 * 1000)

enum { MODE_OLD, MODE_NEW, MODE_DRAINED };

/* Old ([0], the snapshot) and new ([1], the plan) tables as the registers say. */
struct model {
	const struct fm_graph *g;
	int ncards, ports, span;
	signed char *port[2];		/* [card * span + dest]: port, FM_PORT_HOST/NONE */
	unsigned char *svc[2];		/* [card * span + dest]: start on VC1 */
	unsigned char *dl[2];		/* [card * ports + port]: dateline */
	signed char *dim[2];		/* [card * ports + port]: dimension, -1 none */
	unsigned char *changes;		/* [card * span + dest]: the entry changes */
	unsigned char *card_changes;	/* [card]: some register changes */
	unsigned char *card_rt_changes;	/* [card]: some routing entry changes */
};

static void model_free(struct model *m)
{
	for (int t = 0; t < 2; t++) {
		free(m->port[t]);
		free(m->svc[t]);
		free(m->dl[t]);
		free(m->dim[t]);
	}
	free(m->changes);
	free(m->card_changes);
	free(m->card_rt_changes);
}

static signed char entry_port(uint32_t w0)
{
	if (!(w0 & LOOM_RT_W0_VALID))
		return FM_PORT_NONE;
	if ((w0 & LOOM_RT_W0_PORT_MASK) == LOOM_RT_PORT_HOST)
		return FM_PORT_HOST;
	return (signed char)(w0 & LOOM_RT_W0_PORT_MASK);
}

static void set_vct_port(struct model *m, int t, int card, int port, uint32_t cfg)
{
	uint32_t dim = cfg & LOOM_VCT_PORT_DIM_MASK;

	if (port >= m->ports)
		return;
	m->dim[t][card * m->ports + port] = dim == LOOM_VCT_PORT_DIM_NONE ? -1 : (signed char)dim;
	m->dl[t][card * m->ports + port] = (cfg & LOOM_VCT_PORT_DATELINE) != 0;
}

static int model_build(struct model *m, const struct fm_fabric *f, const struct fm_graph *g,
		       const struct fm_plan *plan)
{
	size_t entries, chans;

	memset(m, 0, sizeof(*m));
	m->g = g;
	m->ncards = f->ncards;
	m->ports = g->ports;
	for (int k = 0; k < plan->n; k++)
		if (plan->w[k].kind == FM_W_RT_ENTRY && plan->w[k].dest + 1 > m->span)
			m->span = plan->w[k].dest + 1;
	entries = (size_t)m->ncards * (size_t)(m->span ? m->span : 1);
	chans = (size_t)m->ncards * (size_t)m->ports;
	for (int t = 0; t < 2; t++) {
		m->port[t] = malloc(entries);
		m->svc[t] = calloc(entries, 1);
		m->dl[t] = calloc(chans, 1);
		m->dim[t] = malloc(chans);
		if (!m->port[t] || !m->svc[t] || !m->dl[t] || !m->dim[t])
			return -1;
		memset(m->port[t], FM_PORT_NONE, entries);
		memset(m->dim[t], -1, chans);
	}
	m->changes = calloc(entries, 1);
	m->card_changes = calloc((size_t)m->ncards, 1);
	m->card_rt_changes = calloc((size_t)m->ncards, 1);
	if (!m->changes || !m->card_changes || !m->card_rt_changes)
		return -1;
	for (int k = 0; k < plan->n; k++) {
		const struct fm_write *w = &plan->w[k];
		uint32_t cur = w->have_cur ? w->cur : w->value;
		bool changes = plan_write_changes(w, cur);
		int c = w->card;

		m->card_changes[c] |= changes;
		switch (w->kind) {
		case FM_W_RT_ENTRY:
			m->port[0][c * m->span + w->dest] = entry_port(cur);
			m->port[1][c * m->span + w->dest] = entry_port(w->value);
			m->changes[c * m->span + w->dest] = changes;
			m->card_rt_changes[c] |= changes;
			break;
		case FM_W_VCT_PORT:
			set_vct_port(m, 0, c, w->dest, cur);
			set_vct_port(m, 1, c, w->dest, w->value);
			break;
		case FM_W_VCT_START:
			for (int b = 0; b < 32 && w->dest + b < m->span; b++) {
				m->svc[0][c * m->span + w->dest + b] = (cur >> b) & 1;
				m->svc[1][c * m->span + w->dest + b] = (w->value >> b) & 1;
			}
			break;
		default:
			break;
		}
	}
	return 0;
}

/*
 * The hop a packet to dest takes at node in table t (drained: changing
 * entries invalid), having arrived on in_port (-1: injected) on VC vc_in:
 * the output port and VC, or -1 when it leaves the network there.
 */
static int next_hop(const struct model *m, int t, bool drained, int node, int dest, int in_port,
		    int vc_in, int *vc_out)
{
	size_t e = (size_t)node * (size_t)m->span + (size_t)dest;
	int port = m->port[t][e], in_dim, out_dim, vc = vc_in;

	if (drained && m->changes[e])
		return -1;
	if (port < 0 || port >= m->ports || graph_peer(m->g, node, port)->node == FM_NO_PEER)
		return -1;
	out_dim = m->dim[t][node * m->ports + port];
	in_dim = in_port < 0 ? -1 : m->dim[t][node * m->ports + in_port];
	if (in_port < 0 || in_dim < 0 || out_dim < 0 || in_dim != out_dim)
		vc = m->svc[t][e];
	if (m->dl[t][node * m->ports + port])
		vc = 1;
	*vc_out = vc;
	return port;
}

/* The CDG of one state (mode per card): walks from every card to every destination. */
static int state_cdg(const struct model *m, const unsigned char *mode, struct fm_cdg_check *c)
{
	struct fm_cdg_edges es = { 0 };
	int cap = m->ncards * m->ports * FM_NUM_VCS + 2, rc = -1;

	for (int s = 0; s < m->ncards; s++) {
		for (int d = 0; d < m->span; d++) {
			int node = s, in_port = -1, vc = 0;
			uint32_t prev = UINT32_MAX;

			/* a loop in a mixed state shows as a cycle: cap the walk past it */
			for (int h = 0; h < cap; h++) {
				const struct fm_port_end *e;
				int port = next_hop(m, mode[node] == MODE_NEW, mode[node] == MODE_DRAINED,
						    node, d, in_port, vc, &vc);
				uint32_t v;

				if (port < 0)
					break;
				v = cdg_vertex_id(m->g, node, port, vc);
				if (prev != UINT32_MAX && cdg_edges_add(&es, prev, v))
					goto out;
				prev = v;
				e = graph_peer(m->g, node, port);
				in_port = e->port;
				node = e->node;
			}
		}
		if (es.n > (1u << 20))
			cdg_edges_dedup(&es);
	}
	rc = cdg_check_edges(m->g, &es, NULL, c);
out:
	free(es.e);
	return rc;
}

/*
 * The union: every card may route a packet with its old or its new
 * table, independently at every hop.  A search per destination over
 * (card, input port, VC) collects every dependency any mixed state (and
 * any in-flight packet that met several) can have.
 */
static int union_cdg(const struct model *m, struct fm_cdg_check *c)
{
	size_t nstates = (size_t)m->ncards * (size_t)(m->ports + 1) * FM_NUM_VCS;
	unsigned char *seen = malloc(nstates);
	int *queue = malloc(nstates * sizeof(*queue));
	struct fm_cdg_edges es = { 0 };
	int rc = -1;

	if (!seen || !queue)
		goto out;
	for (int d = 0; d < m->span; d++) {
		size_t head = 0, tail = 0;

		memset(seen, 0, nstates);
		for (int s = 0; s < m->ncards; s++) {
			int st = (s * (m->ports + 1)) * FM_NUM_VCS;

			seen[st] = 1;
			queue[tail++] = st;
		}
		while (head < tail) {
			int st = queue[head++], vc_in = st % FM_NUM_VCS;
			int node = st / FM_NUM_VCS / (m->ports + 1);
			int in_port = st / FM_NUM_VCS % (m->ports + 1) - 1;

			for (int t = 0; t < 2; t++) {
				int vc, port = next_hop(m, t, false, node, d, in_port, vc_in, &vc), nst;
				const struct fm_port_end *e;

				if (port < 0)
					continue;
				if (in_port >= 0) {
					const struct fm_port_end *from = graph_peer(m->g, node, in_port);

					if (cdg_edges_add(&es, cdg_vertex_id(m->g, from->node, from->port,
									   vc_in),
							  cdg_vertex_id(m->g, node, port, vc)))
						goto out;
				}
				e = graph_peer(m->g, node, port);
				nst = (e->node * (m->ports + 1) + e->port + 1) * FM_NUM_VCS + vc;
				if (!seen[nst]) {
					seen[nst] = 1;
					queue[tail++] = nst;
				}
			}
		}
		if (es.n > (1u << 20))
			cdg_edges_dedup(&es);
	}
	rc = cdg_check_edges(m->g, &es, NULL, c);
out:
	free(seen);
	free(queue);
	free(es.e);
	return rc;
}

static void keep_bad(struct fm_transition *t, const struct fm_step *steps, int n,
		     const struct fm_step *last, struct fm_cdg_check *c)
{
	if (t->bad.cycle_len) {
		cdg_check_free(c);
		return;
	}
	t->bad = *c;
	memset(c, 0, sizeof(*c));
	t->bad_step = malloc((size_t)(n + 1) * sizeof(*t->bad_step));
	if (!t->bad_step) {
		t->bad_nsteps = 0;
		return;
	}
	memcpy(t->bad_step, steps, (size_t)n * sizeof(*steps));
	if (last)
		t->bad_step[n++] = *last;
	t->bad_nsteps = n;
}

/*
 * Program the changing cards one at a time from the state mode (each
 * card's mode there is its base), each time the first card that keeps the
 * state acyclic; steps appended to t.  1 found, 0 none, -1 ENOMEM.
 */
static int greedy(const struct model *m, unsigned char *mode, struct fm_transition *t)
{
	int left = 0;

	for (int i = 0; i < m->ncards; i++)
		left += m->card_changes[i];
	while (left) {
		bool found = false;

		for (int i = 0; i < m->ncards && !found; i++) {
			struct fm_cdg_check c;
			unsigned char base = mode[i];
			struct fm_step s = { i, false };

			if (!m->card_changes[i] || base == MODE_NEW)
				continue;
			mode[i] = MODE_NEW;
			if (state_cdg(m, mode, &c))
				return -1;
			t->states_checked++;
			if (!c.cycle_len) {
				t->step[t->nsteps++] = s;
				found = true;
				left--;
				break;
			}
			keep_bad(t, t->step, t->nsteps, &s, &c);
			mode[i] = base;
		}
		if (!found)
			return 0;
	}
	return 1;
}

static void in_index_order(const struct model *m, struct fm_transition *t)
{
	t->nsteps = 0;
	for (int i = 0; i < m->ncards; i++)
		if (m->card_changes[i])
			t->step[t->nsteps++] = (struct fm_step){ i, false };
}

static void clear_bad(struct fm_transition *t)
{
	cdg_check_free(&t->bad);
	free(t->bad_step);
	t->bad_step = NULL;
	t->bad_nsteps = 0;
}

int transition_plan(const struct fm_fabric *f, const struct fm_graph *g,
		    const struct fm_plan *plan, bool force, long limit_walks,
		    struct fm_transition *t, char *err, size_t errlen)
{
	struct model m;
	unsigned char *mode = NULL;
	struct fm_cdg_check c;
	long walks_per_state;
	int rc = -1, found;

	memset(t, 0, sizeof(*t));
	if (!limit_walks)
		limit_walks = DEFAULT_LIMIT_WALKS;
	if (model_build(&m, f, g, plan))
		goto nomem;
	mode = calloc((size_t)m.ncards, 1);
	t->step = malloc((size_t)(2 * m.ncards + 1) * sizeof(*t->step));
	if (!mode || !t->step)
		goto nomem;
	for (int i = 0; i < m.ncards; i++) {
		t->cards_changing += m.card_changes[i];
		for (int d = 0; d < m.span; d++)
			t->entries_changing += m.changes[i * m.span + d];
	}
	if (!t->cards_changing) {
		t->how = FM_TR_NOTHING;
		rc = 0;
		goto out;
	}
	/* the state the cards are in now */
	if (state_cdg(&m, mode, &c))
		goto nomem;
	t->states_checked++;
	if (c.cycle_len) {
		t->how = FM_TR_OLD_CYCLIC;
		keep_bad(t, NULL, 0, NULL, &c);
		in_index_order(&m, t);
		rc = 0;
		goto out;
	}
	if (union_cdg(&m, &c))
		goto nomem;
	t->states_checked++;
	if (!c.cycle_len) {
		t->how = FM_TR_UNION;
		in_index_order(&m, t);
		rc = 0;
		goto out;
	}
	cdg_check_free(&c);
	walks_per_state = (long)m.ncards * (m.span ? m.span : 1);
	if ((long)t->cards_changing * (t->cards_changing + 1) / 2 * walks_per_state <= limit_walks) {
		found = greedy(&m, mode, t);
		if (found < 0)
			goto nomem;
		if (found) {
			t->how = FM_TR_GREEDY;
			clear_bad(t);
			rc = 0;
			goto out;
		}
		/* drain: invalidate the changing entries card by card, each state checked */
		t->nsteps = 0;
		memset(mode, MODE_OLD, (size_t)m.ncards);
		found = 1;
		for (int i = 0; i < m.ncards && found; i++) {
			struct fm_step s = { i, true };

			if (!m.card_rt_changes[i])
				continue;
			mode[i] = MODE_DRAINED;
			if (state_cdg(&m, mode, &c))
				goto nomem;
			t->states_checked++;
			t->step[t->nsteps++] = s;
			if (c.cycle_len) {
				keep_bad(t, t->step, t->nsteps, NULL, &c);
				found = 0;
			}
		}
		if (found)
			found = greedy(&m, mode, t);
		if (found < 0)
			goto nomem;
		if (found) {
			t->how = FM_TR_DRAIN;
			rc = 0;
			goto out;
		}
	} else {
		t->too_large = true;
	}
	t->how = force ? FM_TR_FORCED : FM_TR_REFUSED;
	in_index_order(&m, t);
	if (!force)
		t->nsteps = 0;
	rc = 0;
	goto out;
nomem:
	snprintf(err, errlen, "out of memory checking the order of reprogramming %d cards",
		 f->ncards);
	transition_free(t);
out:
	free(mode);
	model_free(&m);
	return rc;
}

int transition_check_order(const struct fm_fabric *f, const struct fm_graph *g,
			   const struct fm_plan *plan, const struct fm_step *steps, int n,
			   int *at, struct fm_cdg_check *c)
{
	unsigned char *mode = calloc((size_t)f->ncards + 1, 1);
	struct model m = { 0 };
	int rc = -1;

	memset(c, 0, sizeof(*c));
	if (!mode || model_build(&m, f, g, plan))
		goto out;
	for (int k = 0; k <= n; k++) {
		if (k)
			mode[steps[k - 1].card] = steps[k - 1].drain ? MODE_DRAINED : MODE_NEW;
		if (state_cdg(&m, mode, c))
			goto out;
		if (c->cycle_len) {
			*at = k;
			rc = 1;
			goto out;
		}
	}
	rc = 0;
out:
	free(mode);
	model_free(&m);
	return rc;
}

const char *transition_how_name(enum fm_transition_how how)
{
	static const char *const names[] = { "nothing", "union", "greedy", "drain", "old-cyclic",
					     "forced", "refused" };

	return (unsigned int)how < sizeof(names) / sizeof(names[0]) ? names[how] : "?";
}

void transition_free(struct fm_transition *t)
{
	free(t->step);
	t->step = NULL;
	t->nsteps = 0;
	clear_bad(t);
}

static void print_steps(FILE *out, const struct fm_fabric *f, const struct fm_step *s, int n,
			bool drains)
{
	for (int k = 0; k < n; k++)
		if (s[k].drain == drains)
			fprintf(out, " %u", f->card[s[k].card].node);
}

static void print_cycle(FILE *out, const struct fm_fabric *f, const struct fm_cdg_check *c)
{
	fprintf(out, "cycle");
	for (int k = 0; k < c->cycle_len && k < 8; k++)
		fprintf(out, " %s%u:%d/vc%d", k ? "-> " : "", f->card[c->cycle[k].node].node,
			c->cycle[k].port, c->cycle[k].vc);
	fprintf(out, "%s", c->cycle_len > 8 ? " -> ..." : "");
}

/* "after draining nodes 1 2 and programming nodes 3: cycle ..." */
static void print_bad(FILE *out, const struct fm_fabric *f, const struct fm_transition *t)
{
	bool drains = false, programs = false;

	for (int k = 0; k < t->bad_nsteps; k++) {
		drains |= t->bad_step[k].drain;
		programs |= !t->bad_step[k].drain;
	}
	fprintf(out, "after");
	if (drains) {
		fprintf(out, " draining nodes");
		print_steps(out, f, t->bad_step, t->bad_nsteps, true);
	}
	if (programs) {
		fprintf(out, "%s programming nodes", drains ? " and" : "");
		print_steps(out, f, t->bad_step, t->bad_nsteps, false);
	}
	fprintf(out, ": ");
	print_cycle(out, f, &t->bad);
}

void transition_print(FILE *out, const struct fm_fabric *f, const struct fm_transition *t)
{
	if (t->how == FM_TR_NOTHING) {
		fprintf(out, "reprogramming: nothing changes\n");
		return;
	}
	fprintf(out, "reprogramming %d card%s (%d routing entr%s): ", t->cards_changing,
		t->cards_changing == 1 ? "" : "s", t->entries_changing,
		t->entries_changing == 1 ? "y" : "ies");
	switch (t->how) {
	case FM_TR_UNION:
		fprintf(out, "old and new tables together have no dependency cycle, so every "
			"order is deadlock-free; nodes");
		print_steps(out, f, t->step, t->nsteps, false);
		break;
	case FM_TR_GREEDY:
		fprintf(out, "old and new tables together have a dependency cycle; the order "
			"nodes");
		print_steps(out, f, t->step, t->nsteps, false);
		fprintf(out, " keeps every intermediate state acyclic (%ld states checked)",
			t->states_checked);
		break;
	case FM_TR_DRAIN:
		fprintf(out, "no card-by-card order is deadlock-free (");
		print_bad(out, f, t);
		fprintf(out, "); draining: the changing entries are invalidated first on nodes");
		print_steps(out, f, t->step, t->nsteps, true);
		fprintf(out, " (packets for those destinations are discarded there until the card "
			"is programmed), then nodes");
		print_steps(out, f, t->step, t->nsteps, false);
		fprintf(out, " are programmed; every state acyclic (%ld states checked)",
			t->states_checked);
		break;
	case FM_TR_OLD_CYCLIC:
		fprintf(out, "warning: the tables the cards hold now already have a dependency "
			"cycle (");
		print_cycle(out, f, &t->bad);
		fprintf(out, "), no order can avoid it; nodes");
		print_steps(out, f, t->step, t->nsteps, false);
		break;
	case FM_TR_FORCED:
	case FM_TR_REFUSED:
		if (t->too_large)
			fprintf(out, "old and new tables together have a dependency cycle, and "
				"%d changing cards are too many to search for an order", t->cards_changing);
		else
			fprintf(out, "no order is deadlock-free, not even draining first");
		if (t->bad.cycle_len) {
			fprintf(out, " (");
			print_bad(out, f, t);
			fprintf(out, ")");
		}
		if (t->how == FM_TR_FORCED) {
			fprintf(out, "; --force: programming nodes");
			print_steps(out, f, t->step, t->nsteps, false);
			fprintf(out, " anyway");
		} else {
			fprintf(out, "; nothing written (--force programs anyway)");
		}
		break;
	default:
		break;
	}
	fprintf(out, "\n");
}
