// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm: discovery of the fabric over the maintenance network.
 * Breadth-first from the local card: on each card, walk the register
 * block chain by maintenance reads (no offset is assumed) to find the
 * ROUTER, PORTS and VCT blocks, read the node id, the port count and each
 * port's STATUS, PEER_NODE and PEER_PORT; every usable port whose peer is
 * new gives that peer its route: this card's route plus the port.
 */
#include "fabric.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void path_format(const struct fm_path *path, char *out, size_t len)
{
	size_t used = 0;

	if (!path->hops) {
		snprintf(out, len, "local");
		return;
	}
	out[0] = 0;
	for (int i = 0; i < path->hops && used < len; i++) {
		int n = snprintf(out + used, len - used, "%s%u", i ? "." : "", path->port[i]);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

const char *fabric_port_state(uint32_t status)
{
	if (status & LOOM_PORT_ST_DISABLED)
		return "disabled";
	if (status & LOOM_PORT_ST_DEAD)
		return "dead";
	if (status & LOOM_PORT_ST_UP)
		return "up";
	if (status & LOOM_PORT_ST_CABLED)
		return "down";
	return "uncabled";
}

int fabric_find(const struct fm_fabric *f, uint32_t node)
{
	for (int i = 0; i < f->ncards; i++)
		if (f->card[i].node == node)
			return i;
	return -1;
}

/* Find the blocks we need on one card; 0 or a negative errno. */
static int walk_blocks(struct fm_maint *m, struct fm_card *c, FILE *log, const char *where)
{
	uint32_t off = 0;

	for (int i = 0; i < LOOM_BLK_MAX_CHAIN; i++) {
		uint32_t type, version, next;
		int err;

		err = maint_read(m, &c->path, off + LOOM_BLK_TYPE, &type);
		if (!err)
			err = maint_read(m, &c->path, off + LOOM_BLK_VERSION, &version);
		if (!err)
			err = maint_read(m, &c->path, off + LOOM_BLK_NEXT, &next);
		if (err)
			return err;
		if (i == 0 && type != LOOM_BLK_FWID) {
			if (log)
				fprintf(log, "loom-fm: card at %s: offset 0 holds block type %#x, "
					"not the firmware id: not a loom card?\n", where, type);
			return -EPROTO;
		}
		if (type == LOOM_BLK_ROUTER || type == LOOM_BLK_PORTS || type == LOOM_BLK_VCT) {
			uint32_t want = type == LOOM_BLK_ROUTER ? LOOM_ROUTER_VERSION :
					type == LOOM_BLK_PORTS ? LOOM_PORTS_VERSION :
					LOOM_VCT_VERSION;

			if (LOOM_BLK_VER_MAJOR(version) != LOOM_BLK_VER_MAJOR(want)) {
				if (log)
					fprintf(log, "loom-fm: card at %s: block %#x version %u.%u, "
						"this loom-fm knows %u.x: ignored\n", where, type,
						LOOM_BLK_VER_MAJOR(version),
						LOOM_BLK_VER_MINOR(version),
						LOOM_BLK_VER_MAJOR(want));
			} else if (type == LOOM_BLK_ROUTER) {
				c->router = off;
			} else if (type == LOOM_BLK_PORTS) {
				c->ports = off;
			} else {
				c->vct = off;
			}
		}
		if ((c->router && c->ports && c->vct) || !next)
			break;
		if (next <= off || next % 4) {
			if (log)
				fprintf(log, "loom-fm: card at %s: block chain goes from %#x to "
					"%#x: stopped there\n", where, off, next);
			break;
		}
		off = next;
	}
	if (!c->router || !c->ports) {
		if (log)
			fprintf(log, "loom-fm: card at %s has no %s block: cannot route it\n",
				where, c->router ? "PORTS" : "ROUTER");
		return -EPROTO;
	}
	return 0;
}

int fabric_find_mcast(struct fm_maint *m, struct fm_fabric *f, char *err, size_t errlen)
{
	for (int i = 0; i < f->ncards; i++) {
		struct fm_card *c = &f->card[i];
		uint32_t off = 0, type, version, next;
		int rc = 0;

		c->mcast = c->n_groups = 0;
		for (int k = 0; k < LOOM_BLK_MAX_CHAIN && !rc; k++) {
			rc = maint_read(m, &c->path, off + LOOM_BLK_TYPE, &type);
			if (!rc)
				rc = maint_read(m, &c->path, off + LOOM_BLK_VERSION, &version);
			if (!rc)
				rc = maint_read(m, &c->path, off + LOOM_BLK_NEXT, &next);
			if (rc)
				break;
			if (type == LOOM_BLK_MCAST && LOOM_BLK_VER_MAJOR(version) ==
			    LOOM_BLK_VER_MAJOR(LOOM_MCAST_VERSION)) {
				rc = maint_read(m, &c->path, off + LOOM_MCAST_N_GROUPS, &c->n_groups);
				c->mcast = rc ? 0 : off;
				break;
			}
			if (!next || next <= off || next % 4)
				break;
			off = next;
		}
		if (rc) {
			snprintf(err, errlen, "node %u: reading its register blocks by maintenance: "
				 "%s%s%s", c->node, strerror(-rc), m->err[0] ? ": " : "", m->err);
			return -1;
		}
	}
	return 0;
}

/* Read one card's identity and ports; 0 or a negative errno. */
static int read_card(struct fm_maint *m, struct fm_card *c, FILE *log)
{
	char where[64];
	uint32_t count = 0;
	int err;

	path_format(&c->path, where, sizeof(where));
	err = walk_blocks(m, c, log, where);
	if (err)
		return err;
	err = maint_read(m, &c->path, c->router + LOOM_ROUTER_NODE_ID, &c->node);
	if (!err)
		err = maint_read(m, &c->path, c->router + LOOM_ROUTER_LOGICAL_ID, &c->cur_logical);
	if (!err)
		err = maint_read(m, &c->path, c->router + LOOM_ROUTER_N_PORTS, &c->n_ports);
	if (!err)
		err = maint_read(m, &c->path, c->router + LOOM_ROUTER_RT_ENTRIES, &c->rt_entries);
	if (!err)
		err = maint_read(m, &c->path, c->ports + LOOM_PORTS_COUNT, &count);
	if (!err)
		err = maint_read(m, &c->path, c->ports + LOOM_PORTS_STRIDE, &c->port_stride);
	if (!err && c->vct)
		err = maint_read(m, &c->path, c->vct + LOOM_VCT_N_PORTS, &c->vct_ports);
	if (err)
		return err;
	if (c->n_ports > LOOM_MAX_PORTS || count < c->n_ports ||
	    c->port_stride < LOOM_PORT_REC_SIZE || c->port_stride > 0x1000) {
		if (log)
			fprintf(log, "loom-fm: card at %s (node %u): %u ports, %u port records "
				"of %u bytes: inconsistent, ignored\n", where, c->node,
				c->n_ports, count, c->port_stride);
		return -EPROTO;
	}
	if (c->vct_ports > LOOM_MAX_PORTS)
		c->vct_ports = LOOM_MAX_PORTS;
	c->logical = c->node;
	for (uint32_t p = 0; p < c->n_ports; p++) {
		uint32_t rec = c->ports + LOOM_PORTS_BASE + p * c->port_stride;
		struct fm_card_port *cp = &c->port[p];

		err = maint_read(m, &c->path, rec + LOOM_PORT_STATUS, &cp->status);
		if (!err && (cp->status & LOOM_PORT_ST_UP))
			err = maint_read(m, &c->path, rec + LOOM_PORT_PEER_NODE, &cp->peer_node);
		if (!err && (cp->status & LOOM_PORT_ST_UP))
			err = maint_read(m, &c->path, rec + LOOM_PORT_PEER_PORT, &cp->peer_port);
		if (err)
			return err;
	}
	return 0;
}

static int by_node(const void *a, const void *b)
{
	const struct fm_card *x = a, *y = b;

	return (x->node > y->node) - (x->node < y->node);
}

int fabric_discover(struct fm_maint *m, struct fm_fabric *f, FILE *log, char *err,
		    size_t errlen)
{
	/* expected[i]: the node id card i was enqueued for (the peer's word) */
	static uint32_t expected[FM_MAX_CARDS];
	int head = 0;

	memset(f, 0, sizeof(*f));
	f->ncards = 1;
	expected[0] = UINT32_MAX;
	while (head < f->ncards) {
		struct fm_card *c = &f->card[head];
		char where[64];
		int rc = read_card(m, c, log);

		path_format(&c->path, where, sizeof(where));
		if (rc) {
			if (head == 0) {
				snprintf(err, errlen, "cannot read the local card by maintenance: %s%s%s",
					 strerror(-rc), m->err[0] ? ": " : "", m->err);
				return -1;
			}
			if (log)
				fprintf(log, "loom-fm: node %u (route %s) does not answer: %s%s%s; "
					"left out\n", expected[head], where, strerror(-rc),
					m->err[0] ? ": " : "", m->err);
			memmove(c, c + 1, (size_t)(f->ncards - head - 1) * sizeof(*c));
			memmove(&expected[head], &expected[head + 1],
				(size_t)(f->ncards - head - 1) * sizeof(expected[0]));
			f->ncards--;
			continue;
		}
		if (head && c->node != expected[head] && log)
			fprintf(log, "loom-fm: route %s was to reach node %u but node %u answered\n",
				where, expected[head], c->node);
		if (fabric_find(f, c->node) != head) {
			/* reached twice (a peer that lied about its id): drop this one */
			if (log)
				fprintf(log, "loom-fm: node %u answered again at route %s: "
					"two cards with one id? kept the first\n", c->node, where);
			memmove(c, c + 1, (size_t)(f->ncards - head - 1) * sizeof(*c));
			memmove(&expected[head], &expected[head + 1],
				(size_t)(f->ncards - head - 1) * sizeof(expected[0]));
			f->ncards--;
			continue;
		}
		for (uint32_t p = 0; p < c->n_ports; p++) {
			const struct fm_card_port *cp = &c->port[p];
			bool known = false;

			if (!fabric_port_usable(cp->status))
				continue;
			for (int i = 0; i < f->ncards && !known; i++)
				known = (i <= head ? f->card[i].node : expected[i]) == cp->peer_node;
			if (known)
				continue;
			if (c->path.hops == LOOM_MAINT_MAX_HOPS) {
				if (log)
					fprintf(log, "loom-fm: node %u is more than %d hops away: "
						"left out\n", cp->peer_node, LOOM_MAINT_MAX_HOPS);
				continue;
			}
			if (f->ncards == FM_MAX_CARDS) {
				snprintf(err, errlen, "more than %d cards: loom-fm cannot manage "
					 "this fabric", FM_MAX_CARDS);
				return -1;
			}
			struct fm_card *n = &f->card[f->ncards];

			memset(n, 0, sizeof(*n));
			n->path = c->path;
			n->path.port[n->path.hops++] = (unsigned char)p;
			expected[f->ncards++] = cp->peer_node;
		}
		head++;
	}
	qsort(f->card, (size_t)f->ncards, sizeof(f->card[0]), by_node);
	return 0;
}

int fabric_changed(struct fm_maint *m, const struct fm_fabric *f)
{
	const uint32_t state = LOOM_PORT_ST_CABLED | LOOM_PORT_ST_UP | LOOM_PORT_ST_DEAD |
			       LOOM_PORT_ST_DISABLED;

	for (int i = 0; i < f->ncards; i++) {
		const struct fm_card *c = &f->card[i];

		for (uint32_t p = 0; p < c->n_ports; p++) {
			uint32_t st;

			if (maint_read(m, &c->path, c->ports + LOOM_PORTS_BASE + p * c->port_stride +
				       LOOM_PORT_STATUS, &st))
				return 1;
			if ((st & state) != (c->port[p].status & state))
				return 1;
		}
	}
	return 0;
}
