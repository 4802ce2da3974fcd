// SPDX-License-Identifier: GPL-2.0
/* loom-fm: logical node ids by policy and topology file (logical.h). */
#include "logical.h"

#include <stdbool.h>
#include <string.h>

int logical_parse_policy(const char *s, enum fm_logical_policy *policy)
{
	size_t n = strlen(s);

	if (n && !strncmp(s, "identity", n))
		*policy = FM_LOGICAL_IDENTITY;
	else if (n && !strncmp(s, "compact", n))
		*policy = FM_LOGICAL_COMPACT;
	else
		return -1;
	return 0;
}

const char *logical_policy_name(enum fm_logical_policy policy)
{
	return policy == FM_LOGICAL_COMPACT ? "compact" : "identity";
}

/* The logical id the file states for physical id node, or -1. */
static int stated_id(const struct fm_graph *stated, uint32_t node)
{
	if (!stated || !stated->logical || node >= (uint32_t)stated->nodes)
		return -1;
	return stated->logical[node];
}

/* Where a card's id came from, for the messages. */
static const char *origin(const struct fm_graph *stated, const char *name,
			  const struct fm_card *c, enum fm_logical_policy policy, char *buf,
			  size_t len)
{
	if (stated_id(stated, c->node) >= 0)
		snprintf(buf, len, "stated in %s", name);
	else if (policy == FM_LOGICAL_IDENTITY)
		snprintf(buf, len, "its physical id");
	else
		snprintf(buf, len, "by --logical compact");
	return buf;
}

int logical_assign(struct fm_fabric *f, enum fm_logical_policy policy,
		   const struct fm_graph *stated, const char *stated_name, FILE *log,
		   char *err, size_t errlen)
{
	static int owner[FM_MAX_LOGICAL];	/* card index holding an id, or -1 */
	const char *name = stated_name ? stated_name : "the topology file";
	uint32_t n = (uint32_t)f->ncards, min_rt = UINT32_MAX;
	int min_card = 0;
	char o1[96], o2[96];

	for (int l = 0; l < FM_MAX_LOGICAL; l++)
		owner[l] = -1;
	for (int i = 0; i < f->ncards; i++) {
		if (f->card[i].rt_entries < min_rt) {
			min_rt = f->card[i].rt_entries;
			min_card = i;
		}
	}
	if (stated && stated->logical && log)
		for (int node = 0; node < stated->nodes; node++)
			if (stated->logical[node] >= 0 && fabric_find(f, (uint32_t)node) < 0)
				fprintf(log, "loom-fm: %s states logical id %d for node %d, which "
					"was not found: the id stays free\n", name,
					stated->logical[node], node);
	/* pass 1: stated ids (unique within the file: topo_parse checked) */
	for (int i = 0; i < f->ncards; i++) {
		struct fm_card *c = &f->card[i];
		int l = stated_id(stated, c->node);

		c->logical = UINT32_MAX;
		if (l < 0)
			continue;
		if (policy == FM_LOGICAL_COMPACT && (uint32_t)l >= n) {
			snprintf(err, errlen, "node %u: logical id %d stated in %s is not one of the "
				 "0..%u that --logical compact gives the %u cards found", c->node, l,
				 name, n - 1, n);
			return -1;
		}
		c->logical = (uint32_t)l;
		owner[l] = i;
	}
	/* pass 2: the policy */
	for (int i = 0; i < f->ncards; i++) {
		struct fm_card *c = &f->card[i];
		uint32_t want;

		if (c->logical != UINT32_MAX)
			continue;
		if (policy == FM_LOGICAL_IDENTITY) {
			if (c->node >= FM_MAX_LOGICAL) {
				snprintf(err, errlen, "node %u: its physical id is not a logical id "
					 "(0..%d): use --logical compact, or state its logical id in a "
					 "topology file ('node %u logical ID')", c->node,
					 FM_MAX_LOGICAL - 1, c->node);
				return -1;
			}
			want = c->node;
			if (owner[want] >= 0) {
				const struct fm_card *o = &f->card[owner[want]];

				snprintf(err, errlen, "nodes %u and %u both have logical id %u (node "
					 "%u: %s; node %u: its physical id): state another id for "
					 "node %u or use --logical compact", o->node, c->node, want,
					 o->node, origin(stated, name, o, policy, o1, sizeof(o1)),
					 c->node, o->node);
				return -1;
			}
		} else {
			want = c->cur_logical;
			if (want >= n || owner[want] >= 0)
				continue;	/* pass 3 numbers it */
		}
		c->logical = want;
		owner[want] = i;
	}
	/* pass 3 (compact): the lowest free ids, in physical order */
	for (int i = 0, next = 0; i < f->ncards; i++) {
		struct fm_card *c = &f->card[i];

		if (c->logical != UINT32_MAX)
			continue;
		while (owner[next] >= 0)
			next++;
		c->logical = (uint32_t)next;
		owner[next] = i;
	}
	/* every id must index every card's table */
	for (int i = 0; i < f->ncards; i++) {
		const struct fm_card *c = &f->card[i];

		if (c->logical >= min_rt) {
			const struct fm_card *t = &f->card[min_card];

			snprintf(err, errlen, "node %u: logical id %u (%s) is beyond the routing "
				 "table of node %u (%u entries, ids 0..%u): give node %u a smaller "
				 "id", c->node, c->logical,
				 origin(stated, name, c, policy, o2, sizeof(o2)), t->node,
				 t->rt_entries, t->rt_entries ? t->rt_entries - 1 : 0, c->node);
			return -1;
		}
	}
	return 0;
}

int logical_is_identity(const struct fm_fabric *f)
{
	for (int i = 0; i < f->ncards; i++)
		if (f->card[i].logical != f->card[i].node)
			return 0;
	return 1;
}

void logical_print(FILE *out, const struct fm_fabric *f)
{
	bool moved = false, identity = logical_is_identity(f);

	for (int i = 0; i < f->ncards; i++)
		moved |= f->card[i].logical != f->card[i].cur_logical;
	if (identity)
		fprintf(out, "logical ids: the physical ids (%d card%s)%s", f->ncards,
			f->ncards == 1 ? "" : "s", moved ? "; changed:" : "");
	else
		fprintf(out, "logical ids (physical=logical):");
	for (int i = 0; i < f->ncards; i++) {
		const struct fm_card *c = &f->card[i];
		bool changed = c->logical != c->cur_logical;

		if (identity && !changed)
			continue;
		fprintf(out, " %u=%u", c->node, c->logical);
		if (changed)
			fprintf(out, " (was %u)", c->cur_logical);
	}
	fprintf(out, "\n");
}

void logical_print_json(FILE *out, const struct fm_fabric *f)
{
	fprintf(out, "[");
	for (int i = 0; i < f->ncards; i++)
		fprintf(out, "%s{\"node\":%u,\"logical\":%u,\"was\":%u}", i ? "," : "",
			f->card[i].node, f->card[i].logical, f->card[i].cur_logical);
	fprintf(out, "]");
}
