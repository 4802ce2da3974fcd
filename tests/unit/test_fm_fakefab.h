/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake fabric for loom-fm's discovery and programming tests: one
 * register space per card, laid out as a block chain at offsets that
 * differ from card to card (the code under test must walk the chain), and
 * a maintenance back end that follows a directed route hop by hop over
 * usable ports (link up, not dead, not disabled) and loses the request
 * otherwise, as the card does.  Cables come from an fm_graph; cut, disable
 * and silence cards by hand.
 */
#ifndef TEST_FM_FAKEFAB_H
#define TEST_FM_FAKEFAB_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "graph.h"
#include "maint.h"

#define FAKE_SPACE	0x4000
#define FAKE_RT_ENTRIES	64

struct fake_card {
	uint32_t regs[FAKE_SPACE / 4];
	uint32_t router, ports, vct;
	int n_ports;
	bool silent;			/* loses every maintenance request */
	bool rt_read_only;		/* routing table writes are ignored */
};

struct fake_fabric {
	struct fm_maint m;		/* first: the back end's handle */
	int ncards;
	struct fake_card *card;
	uint32_t id[FM_MAX_NODES];	/* physical id of fake card i */
	int fail_writes_after;		/* < 0: never; else writes until they time out */
};

static inline void fake_blk(struct fake_card *c, uint32_t off, uint32_t type, uint32_t ver,
		     uint32_t next, uint32_t size)
{
	c->regs[(off + LOOM_BLK_TYPE) / 4] = type;
	c->regs[(off + LOOM_BLK_VERSION) / 4] = ver;
	c->regs[(off + LOOM_BLK_NEXT) / 4] = next;
	c->regs[(off + LOOM_BLK_SIZE) / 4] = size;
}

static inline uint32_t *fake_reg(struct fake_card *c, uint32_t off)
{
	return &c->regs[off / 4];
}

static inline uint32_t *fake_port_reg(struct fake_card *c, int port, uint32_t reg)
{
	return fake_reg(c, c->ports + LOOM_PORTS_BASE + (uint32_t)port * LOOM_PORT_REC_SIZE + reg);
}

static inline int fake_index(const struct fake_fabric *ff, uint32_t id)
{
	for (int i = 0; i < ff->ncards; i++)
		if (ff->id[i] == id)
			return i;
	return -1;
}

/* Follow the route from card 0; the target card's index or -ETIMEDOUT. */
static inline int fake_route(struct fake_fabric *ff, const struct fm_path *path)
{
	int cur = 0;

	if (ff->card[0].silent)
		return -ETIMEDOUT;
	for (int h = 0; h < path->hops; h++) {
		struct fake_card *c = &ff->card[cur];
		int p = path->port[h];
		uint32_t st;

		if (p >= c->n_ports)
			return -ETIMEDOUT;
		st = *fake_port_reg(c, p, LOOM_PORT_STATUS);
		if (!fabric_port_usable(st))
			return -ETIMEDOUT;
		cur = fake_index(ff, *fake_port_reg(c, p, LOOM_PORT_PEER_NODE));
		if (cur < 0 || ff->card[cur].silent)
			return -ETIMEDOUT;
	}
	return cur;
}

static inline int fake_read(struct fm_maint *m, const struct fm_path *path, uint32_t addr,
		     uint32_t *value)
{
	struct fake_fabric *ff = (struct fake_fabric *)m;
	int i = fake_route(ff, path);

	m->err[0] = 0;
	if (i < 0) {
		snprintf(m->err, sizeof(m->err), "lost on the way");
		return i;
	}
	if (addr % 4 || addr >= FAKE_SPACE)
		return -EIO;
	*value = ff->card[i].regs[addr / 4];
	return 0;
}

static inline int fake_write(struct fm_maint *m, const struct fm_path *path, uint32_t addr,
		      uint32_t value)
{
	struct fake_fabric *ff = (struct fake_fabric *)m;
	int i = fake_route(ff, path);
	struct fake_card *c;

	m->err[0] = 0;
	if (i < 0)
		return i;
	if (ff->fail_writes_after == 0)
		return -ETIMEDOUT;
	if (ff->fail_writes_after > 0)
		ff->fail_writes_after--;
	if (addr % 4 || addr >= FAKE_SPACE)
		return -EIO;
	c = &ff->card[i];
	if (c->rt_read_only && addr >= c->router + LOOM_ROUTER_RT &&
	    addr < c->router + LOOM_ROUTER_RT + FAKE_RT_ENTRIES * 8)
		return 0;
	c->regs[addr / 4] = value;
	return 0;
}

/* Cards for the nodes of g, with physical id id_base + node; cabled as g. */
static inline struct fake_fabric *fake_new(const struct fm_graph *g, uint32_t id_base)
{
	struct fake_fabric *ff = calloc(1, sizeof(*ff));

	ff->m.read = fake_read;
	ff->m.write = fake_write;
	ff->fail_writes_after = -1;
	ff->ncards = g->nodes;
	ff->card = calloc((size_t)g->nodes, sizeof(*ff->card));
	for (int i = 0; i < g->nodes; i++) {
		struct fake_card *c = &ff->card[i];
		/* a different layout per card: the router moves by 0x40 * (i % 5) */
		uint32_t admin = 0x100, router = 0x200 + 0x40 * (uint32_t)(i % 5);
		uint32_t ports = router + 0x400, vct = ports + 0x400;

		ff->id[i] = id_base + (uint32_t)i;
		c->router = router;
		c->ports = ports;
		c->vct = vct;
		c->n_ports = g->ports;
		fake_blk(c, 0, LOOM_BLK_FWID, LOOM_FWID_VERSION, admin, LOOM_FWID_SIZE);
		c->regs[LOOM_FWID_MAGIC / 4] = LOOM_MAGIC;
		fake_blk(c, admin, LOOM_BLK_ADMIN, LOOM_ADMIN_VERSION, router, LOOM_ADMIN_SIZE);
		fake_blk(c, router, LOOM_BLK_ROUTER, LOOM_ROUTER_VERSION, ports,
			 LOOM_ROUTER_RT + FAKE_RT_ENTRIES * 8);
		*fake_reg(c, router + LOOM_ROUTER_NODE_ID) = ff->id[i];
		/* a card comes out of reset with logical id = physical id */
		*fake_reg(c, router + LOOM_ROUTER_LOGICAL_ID) = ff->id[i];
		*fake_reg(c, router + LOOM_ROUTER_N_PORTS) = (uint32_t)g->ports;
		*fake_reg(c, router + LOOM_ROUTER_RT_ENTRIES) = FAKE_RT_ENTRIES;
		fake_blk(c, ports, LOOM_BLK_PORTS, LOOM_PORTS_VERSION, vct,
			 LOOM_PORTS_BASE + (uint32_t)g->ports * LOOM_PORT_REC_SIZE);
		*fake_reg(c, ports + LOOM_PORTS_COUNT) = (uint32_t)g->ports;
		*fake_reg(c, ports + LOOM_PORTS_STRIDE) = LOOM_PORT_REC_SIZE;
		fake_blk(c, vct, LOOM_BLK_VCT, LOOM_VCT_VERSION, 0, LOOM_VCT_SIZE);
		*fake_reg(c, vct + LOOM_VCT_N_PORTS) = (uint32_t)g->ports;
		for (int p = 0; p < g->ports; p++)
			*fake_reg(c, vct + LOOM_VCT_PORT_CFG + 4 * (uint32_t)p) = LOOM_VCT_PORT_DIM_NONE;
		/* as a card started with --no-routes: only its own route */
		*fake_reg(c, router + LOOM_ROUTER_RT + (uint32_t)i * 8) =
			LOOM_RT_W0_VALID | LOOM_RT_PORT_HOST;
		*fake_reg(c, router + LOOM_ROUTER_RT + (uint32_t)i * 8 + 4) = ff->id[i];
		for (int p = 0; p < g->ports; p++) {
			const struct fm_port_end *e = graph_peer(g, i, p);

			if (e->node == FM_NO_PEER)
				continue;
			*fake_port_reg(c, p, LOOM_PORT_STATUS) =
				LOOM_PORT_ST_CABLED | LOOM_PORT_ST_UP | (4u << LOOM_PORT_ST_LANES_SHIFT);
			*fake_port_reg(c, p, LOOM_PORT_PEER_NODE) = id_base + (uint32_t)e->node;
			*fake_port_reg(c, p, LOOM_PORT_PEER_PORT) = (uint32_t)e->port;
		}
	}
	return ff;
}

static inline void fake_free(struct fake_fabric *ff)
{
	free(ff->card);
	free(ff);
}

/* Cut the cable on fake card i's port p: both ends go down. */
static inline void fake_cut(struct fake_fabric *ff, int i, int p)
{
	uint32_t *st = fake_port_reg(&ff->card[i], p, LOOM_PORT_STATUS);
	int j = fake_index(ff, *fake_port_reg(&ff->card[i], p, LOOM_PORT_PEER_NODE));
	int q = (int)*fake_port_reg(&ff->card[i], p, LOOM_PORT_PEER_PORT);

	*st = LOOM_PORT_ST_CABLED;
	*fake_port_reg(&ff->card[j], q, LOOM_PORT_STATUS) = LOOM_PORT_ST_CABLED;
}

/*
 * Follow the routing tables in the fake registers from card s to the card
 * with logical id dl, over usable ports; the hop count, or -1.
 */
static inline int fake_walk(struct fake_fabric *ff, int s, uint32_t dl)
{
	int cur = s;

	for (int hops = 0; hops <= ff->ncards; hops++) {
		struct fake_card *c = &ff->card[cur];
		uint32_t w0 = *fake_reg(c, c->router + LOOM_ROUTER_RT + dl * 8);
		uint32_t port = w0 & LOOM_RT_W0_PORT_MASK, st;

		if (!(w0 & LOOM_RT_W0_VALID))
			return -1;
		if (port == LOOM_RT_PORT_HOST)
			return *fake_reg(c, c->router + LOOM_ROUTER_LOGICAL_ID) == dl ? hops : -1;
		if ((int)port >= c->n_ports)
			return -1;
		st = *fake_port_reg(c, (int)port, LOOM_PORT_STATUS);
		if (!fabric_port_usable(st))
			return -1;
		cur = fake_index(ff, *fake_port_reg(c, (int)port, LOOM_PORT_PEER_NODE));
		if (cur < 0)
			return -1;
	}
	return -1;
}

/* One TAP diagnostic line per line of text. */
static inline void diag_lines(const char *text)
{
	while (*text) {
		int n = (int)strcspn(text, "\n");

		printf("# %.*s\n", n, text);
		text += n + (text[n] == '\n');
	}
}

#endif
