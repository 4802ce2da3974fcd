// SPDX-License-Identifier: GPL-2.0
/* loom-fm: plans of register writes, applied by maintenance (program.h). */
#include "program.h"

#include "mcast.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int plan_add(struct fm_plan *p, int card, enum fm_write_kind kind, uint32_t addr,
		    uint32_t value, int dest)
{
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 256;
		struct fm_write *w = realloc(p->w, (size_t)cap * sizeof(*w));

		if (!w)
			return -1;
		p->w = w;
		p->cap = cap;
	}
	p->w[p->n++] = (struct fm_write){ card, kind, addr, value, dest, false, 0 };
	return 0;
}

void plan_free(struct fm_plan *plan)
{
	free(plan->w);
	memset(plan, 0, sizeof(*plan));
}

/* Entries of card c's table that we manage. */
static uint32_t rt_span(const struct fm_card *c, uint32_t max_logical)
{
	uint32_t span = (max_logical / FM_RT_SPAN + 1) * FM_RT_SPAN;

	return span < c->rt_entries ? span : c->rt_entries;
}

static int plan_card(const struct fm_card *card, const struct fm_routes *r, int i,
		     const int *by_logical, uint32_t max_logical, struct fm_plan *p)
{
	const struct fm_card *c = &card[i];
	uint32_t span = rt_span(c, max_logical);
	/* a block of the tables: the card's own registers with its first column,
	 * the entries of no card with its last */
	bool first = !r->dest_lo, last = r->dest_hi == r->nodes;
	int bad = 0;

	if (first)
		bad |= plan_add(p, i, FM_W_LOGICAL, c->router + LOOM_ROUTER_LOGICAL_ID,
				c->logical, -1);
	for (uint32_t e = 0; e < span; e++) {
		uint32_t entry = c->router + LOOM_ROUTER_RT + e * LOOM_ROUTER_RT_ENTRY_SIZE;
		int j = by_logical[e];
		int port = FM_PORT_NONE;
		uint32_t w0, w1;
		unsigned int adapt;
		size_t at;

		if (j < 0 ? !last : !routes_holds(r, i, j))
			continue;
		at = j < 0 ? 0 : routes_at(r, i, j);
		if (j >= 0)
			port = r->port[at];
		if (port == FM_PORT_NONE) {
			bad |= plan_add(p, i, FM_W_RT_ENTRY, entry, 0, (int)e);
			continue;
		}
		if (c->n_ports > LOOM_RT_PORT_HOST)
			/* a high-radix router: the port in the wide field */
			w0 = LOOM_RT_W0_VALID |
			     (port == FM_PORT_HOST ? LOOM_RT_WIDE_PORT_HOST : (uint32_t)port)
				     << LOOM_RT_W0_WIDE_PORT_SHIFT;
		else
			w0 = LOOM_RT_W0_VALID |
			     (port == FM_PORT_HOST ? LOOM_RT_PORT_HOST : (uint32_t)port);
		w1 = card[j].node & LOOM_RT_W1_PHYS_MASK;
		if (port >= 0 && r->up_first[at] != FM_NO_UPROUTE) {
			w0 |= LOOM_RT_W0_UPROUTE;
			w1 |= (uint32_t)r->up_first[at] << LOOM_RT_W1_UP_FIRST_SHIFT;
		}
		/* several minimal ports: the adaptive VC may take any of them */
		adapt = port >= 0 ? r->adapt_ports[at] : 0;
		if (r->omniwar && port >= 0) {
			/* the minimal ports of the unaligned dimensions */
			w0 |= LOOM_RT_W0_OMNIWAR |
			      ((uint32_t)r->classes << LOOM_RT_W0_CLASSES_SHIFT &
			       LOOM_RT_W0_CLASSES_MASK) |
			      ((uint32_t)r->hops_left[at] << LOOM_RT_W0_HOPS_SHIFT &
			       LOOM_RT_W0_HOPS_MASK);
			w1 |= adapt << LOOM_RT_W1_ADAPT_PORTS_SHIFT;
		} else if (adapt & (adapt - 1)) {
			w0 |= LOOM_RT_W0_ADAPTIVE;
			w1 |= adapt << LOOM_RT_W1_ADAPT_PORTS_SHIFT;
		}
		if (r->dimwar && port >= 0)
			w0 |= LOOM_RT_W0_DIMWAR |
			      ((uint32_t)r->hops_left[at] << LOOM_RT_W0_HOPS_SHIFT &
			       LOOM_RT_W0_HOPS_MASK);
		if (r->valiant) {
			/* intermediates: every logical id up to the highest; the
			 * host entry marks this node as an intermediate
			 */
			w0 |= LOOM_RT_W0_VALIANT | (r->ugal ? LOOM_RT_W0_UGAL : 0) |
			      (r->val_datelines ? LOOM_RT_W0_VAL_DATELINES : 0) |
			      ((uint32_t)r->hops_left[at] << LOOM_RT_W0_HOPS_SHIFT &
			       LOOM_RT_W0_HOPS_MASK);
			w1 |= max_logical << LOOM_RT_W1_VAL_LAST_SHIFT & LOOM_RT_W1_VAL_LAST_MASK;
		}
		bad |= plan_add(p, i, FM_W_RT_PHYS, entry + 4, w1, (int)e);
		bad |= plan_add(p, i, FM_W_RT_ENTRY, entry, w0, (int)e);
	}
	if (!c->vct)
		return bad;
	for (uint32_t port = 0; first && port < c->vct_ports; port++) {
		uint32_t cfg = LOOM_VCT_PORT_DIM_NONE;

		if ((int)port < r->ports && r->port_dim[port] >= 0)
			cfg = (uint32_t)r->port_dim[port] & LOOM_VCT_PORT_DIM_MASK;
		if ((int)port < r->ports && r->uses_vcs && r->dateline[i * r->ports + (int)port])
			cfg |= LOOM_VCT_PORT_DATELINE;
		bad |= plan_add(p, i, FM_W_VCT_PORT, c->vct + LOOM_VCT_PORT_CFG + port * 4, cfg,
				(int)port);
	}
	for (uint32_t w = 0; w < (span + 31) / 32; w++) {
		uint32_t bits = 0;
		int held = 0, other = 0;

		for (uint32_t b = 0; b < 32 && w * 32 + b < span; b++) {
			int j = by_logical[w * 32 + b];

			if (j < 0)
				continue;
			if (!routes_holds(r, i, j)) {
				other++;
				continue;
			}
			held++;
			if (r->uses_vcs && r->start_vc[routes_at(r, i, j)])
				bits |= 1u << b;
		}
		/* a word of start VCs is written whole, from one block */
		if (held && other)
			return -2;
		if (!held && (other || !last))
			continue;
		bad |= plan_add(p, i, FM_W_VCT_START, c->vct + LOOM_VCT_START_VC1 + w * 4, bits,
				(int)(w * 32));
	}
	return bad;
}

int plan_build_cards(const struct fm_card *card, int ncards, const struct fm_routes *r,
		     int lo, int hi, struct fm_plan *plan, char *err, size_t errlen)
{
	uint32_t max_logical = 0;
	int *by_logical;

	memset(plan, 0, sizeof(*plan));
	for (int i = 0; i < ncards; i++) {
		uint32_t l = card[i].logical;

		if (l >= FM_MAX_LOGICAL) {
			snprintf(err, errlen, "node %u: logical id %u is beyond %d", card[i].node,
				 l, FM_MAX_LOGICAL - 1);
			return -1;
		}
		if (l > max_logical)
			max_logical = l;
	}
	/* the index covers every entry a card's span may reach */
	by_logical = malloc(((size_t)max_logical / FM_RT_SPAN + 1) * FM_RT_SPAN *
			    sizeof(*by_logical));
	if (!by_logical) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (uint32_t e = 0; e < (max_logical / FM_RT_SPAN + 1) * FM_RT_SPAN; e++)
		by_logical[e] = -1;
	for (int i = 0; i < ncards; i++) {
		uint32_t l = card[i].logical;

		if (by_logical[l] >= 0) {
			snprintf(err, errlen, "nodes %u and %u both have logical id %u",
				 card[by_logical[l]].node, card[i].node, l);
			free(by_logical);
			return -1;
		}
		by_logical[l] = i;
	}
	if (r->valiant && max_logical > FM_VAL_MAX_LOGICAL) {
		snprintf(err, errlen, "engine %s: logical id %u, but a Valiant packet carries its "
			 "intermediate and destination in one byte each of dst_node: logical ids "
			 "0..%d only (renumber the nodes, or use another engine)",
			 r->ugal ? "ugal" : "valiant", max_logical, FM_VAL_MAX_LOGICAL);
		free(by_logical);
		return -1;
	}
	if (lo < r->row_lo || hi > r->row_hi) {
		snprintf(err, errlen, "internal: planning cards %d..%d, but the tables hold the "
			 "rows of %d..%d", lo, hi - 1, r->row_lo, r->row_hi - 1);
		free(by_logical);
		return -1;
	}
	for (int i = lo; i < hi; i++) {
		if (max_logical >= card[i].rt_entries) {
			snprintf(err, errlen, "node %u has %u routing entries: too few for logical "
				 "id %u", card[i].node, card[i].rt_entries, max_logical);
			plan_free(plan);
			free(by_logical);
			return -1;
		}
		int bad = plan_card(card, r, i, by_logical, max_logical, plan);

		if (bad) {
			plan_free(plan);
			free(by_logical);
			if (bad == -2)
				snprintf(err, errlen, "node %u: the tables' block of destinations "
					 "%d..%d splits a word of its start VCs (32 entries): plan "
					 "blocks of whole words", card[i].node, r->dest_lo,
					 r->dest_hi - 1);
			else
				snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	free(by_logical);
	return 0;
}

int plan_build(const struct fm_fabric *f, const struct fm_routes *r, struct fm_plan *plan,
	       char *err, size_t errlen)
{
	return plan_build_cards(f->card, f->ncards, r, 0, f->ncards, plan, err, errlen);
}

int plan_add_mcast(const struct fm_fabric *f, const struct fm_mcast_trees *t,
		   struct fm_plan *plan, char *err, size_t errlen)
{
	int max_id = 0;

	for (int k = 0; k < t->gs->n; k++)
		max_id = t->gs->g[k].id > max_id ? t->gs->g[k].id : max_id;
	for (int i = 0; i < f->ncards; i++) {
		const struct fm_card *c = &f->card[i];
		uint32_t span = ((uint32_t)max_id / FM_RT_SPAN + 1) * FM_RT_SPAN;

		for (int k = 0; k < t->gs->n; k++) {
			const struct fm_mcast_group *grp = &t->gs->g[k];

			if (!t->e[(size_t)k * t->nodes + i].used)
				continue;
			if (!c->mcast) {
				snprintf(err, errlen, "node %u is on the tree of group %d but has no "
					 "multicast group table (no MCAST block)", c->node, grp->id);
				return -1;
			}
			if ((uint32_t)grp->id >= c->n_groups) {
				snprintf(err, errlen, "group %d is beyond node %u's group table "
					 "(N_GROUPS %u: groups 0..%u)", grp->id, c->node,
					 c->n_groups, c->n_groups - 1);
				return -1;
			}
		}
		if (!c->mcast)
			continue;
		span = span < c->n_groups ? span : c->n_groups;
		for (uint32_t id = 0; id < span; id++) {
			const struct fm_mcast_entry *e = NULL;
			uint32_t entry = c->mcast + LOOM_MCAST_TABLE + id * LOOM_MCAST_ENTRY_SIZE;
			uint32_t w0, w1;
			int bad = 0;

			for (int k = 0; k < t->gs->n && !e; k++)
				if (t->gs->g[k].id == (int)id)
					e = &t->e[(size_t)k * t->nodes + i];
			if (e && e->used) {
				mcast_entry_words(e, &w0, &w1);
				bad |= plan_add(plan, i, FM_W_MCAST_W1, entry + 4, w1, (int)id);
			} else {
				w0 = 0;
			}
			bad |= plan_add(plan, i, FM_W_MCAST_W0, entry, w0, (int)id);
			if (bad) {
				snprintf(err, errlen, "out of memory");
				return -1;
			}
		}
	}
	return 0;
}

static void entry_text(uint32_t w0, char *out, size_t len)
{
	if (!(w0 & LOOM_RT_W0_VALID))
		snprintf(out, len, "-");
	else if ((w0 & LOOM_RT_W0_PORT_MASK) == LOOM_RT_PORT_HOST)
		snprintf(out, len, "host");
	else
		snprintf(out, len, "%u", w0 & LOOM_RT_W0_PORT_MASK);
}

static int failed(struct fm_maint *m, const struct fm_card *c, const char *what, uint32_t addr,
		  int rc, char *err, size_t errlen)
{
	snprintf(err, errlen, "node %u: %s register %#x by maintenance: %s%s%s", c->node, what,
		 addr, strerror(-rc), m->err[0] ? ": " : "", m->err);
	return -1;
}

bool plan_write_changes(const struct fm_write *w, uint32_t cur)
{
	if (w->kind == FM_W_RT_ENTRY && !(cur & LOOM_RT_W0_VALID) && !(w->value & LOOM_RT_W0_VALID))
		return false;
	if (w->kind == FM_W_MCAST_W0 && !(cur & LOOM_MCAST_W0_VALID) &&
	    !(w->value & LOOM_MCAST_W0_VALID))
		return false;
	return cur != w->value;
}

int plan_snapshot(struct fm_maint *m, const struct fm_fabric *f, struct fm_plan *plan,
		  char *err, size_t errlen)
{
	for (int k = 0; k < plan->n; k++) {
		struct fm_write *w = &plan->w[k];
		const struct fm_card *c = &f->card[w->card];
		int rc = maint_read(m, &c->path, w->addr, &w->cur);

		if (rc)
			return failed(m, c, "reading", w->addr, rc, err, errlen);
		w->have_cur = true;
	}
	return 0;
}

/* Write the card's changing routing entries invalid (a drain step). */
static int drain_card(struct fm_maint *m, const struct fm_fabric *f, const struct fm_plan *plan,
		      int card, int lo, int hi, struct fm_apply_stats *st, FILE *log, char *err,
		      size_t errlen)
{
	for (int k = lo; k < hi; k++) {
		const struct fm_write *w = &plan->w[k];
		const struct fm_card *c = &f->card[card];
		uint32_t cur = w->cur;
		int rc;

		if (w->card != card || w->kind != FM_W_RT_ENTRY)
			continue;
		if (!w->have_cur) {
			rc = maint_read(m, &c->path, w->addr, &cur);
			if (rc)
				return failed(m, c, "reading", w->addr, rc, err, errlen);
			st->checked++;
		}
		if (!(cur & LOOM_RT_W0_VALID) || !plan_write_changes(w, cur))
			continue;
		rc = maint_write(m, &c->path, w->addr, 0);
		if (rc)
			return failed(m, c, "writing", w->addr, rc, err, errlen);
		st->written++;
		if (log)
			fprintf(log, "  node %u: destination %d: drained\n", c->node, w->dest);
	}
	return 0;
}

/* Write what differs on one card; *changed when something was written. */
static int program_card(struct fm_maint *m, const struct fm_fabric *f,
			const struct fm_plan *plan, int card, int lo, int hi,
			struct fm_apply_stats *st, FILE *log, bool *changed, char *err,
			size_t errlen)
{
	*changed = false;
	for (int k = lo; k < hi; k++) {
		const struct fm_write *w = &plan->w[k];
		const struct fm_card *c = &f->card[card];
		uint32_t cur = w->cur;
		int rc;

		if (w->card != card)
			continue;
		if (!w->have_cur) {
			rc = maint_read(m, &c->path, w->addr, &cur);
			if (rc)
				return failed(m, c, "reading", w->addr, rc, err, errlen);
		}
		st->checked++;
		if (!plan_write_changes(w, cur))
			continue;
		if (w->kind == FM_W_RT_ENTRY) {
			st->routes_changed++;
			if (log) {
				char was[16], now[16];

				entry_text(cur, was, sizeof(was));
				entry_text(w->value, now, sizeof(now));
				fprintf(log, "  node %u: destination %d: port %s -> %s\n", c->node,
					w->dest, was, now);
			}
		}
		rc = maint_write(m, &c->path, w->addr, w->value);
		if (rc)
			return failed(m, c, "writing", w->addr, rc, err, errlen);
		st->written++;
		*changed = true;
	}
	return 0;
}

int plan_apply(struct fm_maint *m, const struct fm_fabric *f, const struct fm_plan *plan,
	       const struct fm_step *steps, int nsteps, struct fm_apply_stats *st, FILE *log,
	       char *err, size_t errlen)
{
	static int lo[FM_MAX_CARDS], hi[FM_MAX_CARDS];
	int n = steps ? nsteps : f->ncards;

	memset(st, 0, sizeof(*st));
	/* each card's writes: plan_build() appends them card by card */
	for (int i = 0; i < f->ncards; i++)
		lo[i] = hi[i] = 0;
	for (int k = plan->n - 1; k >= 0; k--) {
		if (!hi[plan->w[k].card])
			hi[plan->w[k].card] = k + 1;
		lo[plan->w[k].card] = k;
	}
	for (int s = 0; s < n; s++) {
		int card = steps ? steps[s].card : s;
		bool changed;

		if (steps && steps[s].drain) {
			if (drain_card(m, f, plan, card, lo[card], hi[card], st, log, err, errlen))
				return -1;
			continue;
		}
		if (program_card(m, f, plan, card, lo[card], hi[card], st, log, &changed, err,
				 errlen))
			return -1;
		st->cards_changed += changed;
	}
	return 0;
}

int plan_verify(struct fm_maint *m, const struct fm_fabric *f, const struct fm_plan *plan,
		long *checked, char *err, size_t errlen)
{
	*checked = 0;
	for (int i = 0; i < f->ncards; i++) {
		int entries = 0, seen = 0, step;

		for (int k = 0; k < plan->n; k++)
			entries += plan->w[k].card == i && plan->w[k].kind == FM_W_RT_ENTRY &&
				   (plan->w[k].value & LOOM_RT_W0_VALID);
		step = entries > 16 ? (entries + 15) / 16 : 1;
		for (int k = 0; k < plan->n; k++) {
			const struct fm_write *w = &plan->w[k];
			const struct fm_card *c = &f->card[i];
			uint32_t cur;
			int rc;

			if (w->card != i)
				continue;
			if (w->kind == FM_W_RT_ENTRY) {
				if (!(w->value & LOOM_RT_W0_VALID) || seen++ % step)
					continue;
			} else if (w->kind != FM_W_LOGICAL) {
				continue;
			}
			rc = maint_read(m, &c->path, w->addr, &cur);
			if (rc)
				return failed(m, c, "reading back", w->addr, rc, err, errlen);
			++*checked;
			if (cur != w->value) {
				snprintf(err, errlen, "node %u: register %#x reads %#x after writing "
					 "%#x", c->node, w->addr, cur, w->value);
				return -1;
			}
		}
	}
	return 0;
}
