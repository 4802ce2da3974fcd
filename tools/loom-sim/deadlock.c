// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim: the cycle of waits behind a deadlock.  Every input buffer
 * (router, input port, VC) that holds a packet waits for one thing: the
 * output VC it owns or asks for, that is the input buffer at the other
 * end of that output's cable, or, for the host output, the terminal.  A
 * terminal waits while its sink holds a request it cannot take (its
 * response queue is full) and then for its own host input buffer, where
 * its next response goes.  Each element has at most one successor, so
 * following them from every full buffer finds the cycle, if one closes.
 *
 * Which output an input VC wants is router state the router's public
 * interface does not show; it is read here from the router's registers
 * (router_int.h), read only.
 */
#include "sim.h"

#include <stdlib.h>
#include <string.h>

#include "router/router_int.h"

#define NO_WAIT	(-1L)

/*
 * Elements: input buffers [(node * (ports + 1) + port) * vcs + vc], then
 * terminals; port is the graph's network port, or @ports for the host
 * input (its router's own host port: sim_host_port()).
 */
struct waits {
	const struct sim *s;
	long bufs;
	unsigned int vcs;
	int ports;		/* the graph's network ports; the host input is port @ports */
};

/* Input buffer (@port of @node's router, @vc). */
static long buf_id(const struct waits *w, int node, int port, unsigned int vc)
{
	if (port == sim_host_port(w->s, node))
		port = w->ports;
	return ((long)node * (w->ports + 1) + port) * w->vcs + vc;
}

/* The router port of buffer @id's port, or -1: no such port on its router. */
static int buf_router_port(const struct waits *w, long id)
{
	int port = (int)(id / w->vcs % (w->ports + 1));
	int node = (int)(id / w->vcs / (w->ports + 1));

	if (port == w->ports)
		return sim_host_port(w->s, node);
	return port < sim_router_ports(w->s, node) ? port : -1;
}

/* The terminal @node's own wait: its next response's host input VC, or none. */
static long terminal_waits(const struct waits *w, int node)
{
	const struct sim *s = w->s;
	const struct sim_term *T = &s->term[node];
	bool blocked = false;

	for (unsigned int v = 0; v < w->vcs; v++)
		if (T->ej[v].len)
			blocked = true;
	if (!blocked)
		return NO_WAIT;
	if (T->sending)
		return buf_id(w, node, sim_host_port(s, node),
			      T->sending == &T->resp ? s->resp_vc : s->inject_vc);
	if (T->resp.len)
		return buf_id(w, node, sim_host_port(s, node), s->resp_vc);
	return NO_WAIT;
}

/* The input buffer at the far end of output (@port, @vc), or the terminal (host output). */
static long downstream(const struct waits *w, int node, unsigned int port, unsigned int vc)
{
	const struct fm_port_end *e;

	if ((int)port == sim_host_port(w->s, node))
		return w->bufs + node;
	if ((int)port >= sim_router_ports(w->s, node) || vc >= w->vcs)
		return NO_WAIT;
	e = graph_peer(w->s->g, node, (int)port);
	if (e->node == FM_NO_PEER)
		return NO_WAIT;
	return buf_id(w, e->node, e->port, vc);
}

/*
 * Tiles: the input VC whose packet holds output (@port, @vc) from column
 * buffer @c: it is still crossing the subswitch of @c's row from that
 * input's row buffer.  NO_WAIT if its tail is in @c already, or its input
 * buffer is empty: it waits for the downstream buffer only.
 */
static long feeder(const struct waits *w, int node, unsigned int port, unsigned int vc,
		   unsigned int c)
{
	const struct router *R = w->s->r[node];
	unsigned int ri = c / w->vcs, cols = R->p.cols;
	const struct tile *sub = &R->tiles[ri * cols + R->port_col[port]];
	const struct flit_fifo *cb = &R->tiles[port].colbuf[c];
	int own = sub->colvc[R->port_row[port] * w->vcs + vc].own;
	int in_port;

	for (unsigned int k = 0; k < cb->count; k++)
		if (R->pool.meta[cb->slot[(cb->head + k) & cb->mask]].flags & FM_TAIL)
			return NO_WAIT;
	if (own < 0)
		return NO_WAIT;
	in_port = (int)(ri * cols + (unsigned int)own / w->vcs);
	if (!R->in[in_port].vc[(unsigned int)own % w->vcs].buf.count)
		return NO_WAIT;
	return buf_id(w, node, in_port, (unsigned int)own % w->vcs);
}

/*
 * What a packet of router @node bound for output (@port, @vc) waits for,
 * coming from column buffer @c (tiles) or input VC @self (crossbar): the
 * packet holding that output VC (its input VC), else the downstream
 * buffer.
 */
static long output_waits(const struct waits *w, int node, long self, unsigned int port,
			 unsigned int vc, unsigned int c)
{
	const struct router *R = w->s->r[node];
	const struct out_vc *ov = &R->out[port].vc[vc];
	long owner = NO_WAIT;

	if (ov->owner >= 0 && R->p.org == ROUTER_ORG_XBAR)
		owner = buf_id(w, node, (int)(ov->owner / w->vcs),
			       (unsigned int)ov->owner % w->vcs);
	else if (ov->owner >= 0 && (unsigned int)ov->owner != c)
		owner = feeder(w, node, port, vc, (unsigned int)ov->owner);
	if (owner != NO_WAIT && owner != self)
		return owner;
	return downstream(w, node, port, vc);
}

/*
 * Tiles: what the head of row buffer @b of tile @t waits for: the packet
 * crossing into its column buffer (the input VC it comes from, or that
 * input's row buffer once the input is empty), else its output.  @depth
 * bounds the row buffers followed.
 */
static long row_buffer_waits(const struct waits *w, int node, const struct tile *t,
			     unsigned int b, long self, int depth)
{
	const struct router *R = w->s->r[node];
	const struct flit_fifo *rb = &t->rowbuf[b];
	const struct fifo_meta *m;
	unsigned int own;
	int in_port;

	if (!rb->count || depth > 4)
		return NO_WAIT;
	m = &R->pool.meta[rb->slot[rb->head]];
	if ((m->flags & FM_HEAD) && t->colvc[m->sub_k].own >= 0 &&
	    (unsigned int)t->colvc[m->sub_k].own != b) {
		own = (unsigned int)t->colvc[m->sub_k].own;
		in_port = (int)(t->row * R->p.cols + own / w->vcs);
		if (R->in[in_port].vc[own % w->vcs].buf.count)
			return buf_id(w, node, in_port, own % w->vcs);
		return row_buffer_waits(w, node, t, own, self, depth + 1);
	}
	return output_waits(w, node, self, m->port, m->vc, t->row * w->vcs + m->vc);
}

/*
 * Tiles, an active input VC: the head of the row buffer it sends into
 * (its own earlier packets may be there, bound elsewhere), or its output.
 */
static long tiled_active_waits(const struct waits *w, int node, int port, unsigned int vc,
			       long self)
{
	const struct router *R = w->s->r[node];
	const struct in_vc *iv = &R->in[port].vc[vc];
	const struct tile *t = &R->tiles[iv->row_tile];
	unsigned int b = R->in[port].row_slot + vc;

	if (!t->rowbuf[b].count)
		return output_waits(w, node, self, iv->out_port, iv->out_vc,
				    R->port_row[port] * w->vcs + iv->out_vc);
	return row_buffer_waits(w, node, t, b, self, 0);
}

static long successor(const struct waits *w, long id)
{
	const struct sim *s = w->s;
	const struct router *R;
	const struct in_vc *iv;
	unsigned int vc;
	int node, port;

	if (id >= w->bufs)
		return terminal_waits(w, (int)(id - w->bufs));
	vc = (unsigned int)(id % w->vcs);
	port = buf_router_port(w, id);
	node = (int)(id / w->vcs / (w->ports + 1));
	if (port < 0)
		return NO_WAIT;
	R = s->r[node];
	iv = &R->in[port].vc[vc];
	if (!iv->buf.count)
		return NO_WAIT;
	if (iv->state == IVC_ACTIVE && R->p.org != ROUTER_ORG_XBAR)
		return tiled_active_waits(w, node, port, vc, id);
	if (iv->state == IVC_ACTIVE)
		return output_waits(w, node, id, iv->out_port, iv->out_vc, 0);
	if (iv->state == IVC_ROUTING && !iv->rt.drop)
		return output_waits(w, node, id, iv->rt.port, iv->rt.vc,
				    R->port_row[port] * w->vcs + iv->rt.vc);
	return NO_WAIT;
}

static size_t describe(const struct waits *w, long id, char *buf, size_t len)
{
	const struct sim *s = w->s;
	int n;

	if (id >= w->bufs) {
		const struct sim_term *T = &s->term[id - w->bufs];

		n = snprintf(buf, len, "term %ld (holds a request, response queue %u/%u full)",
			     id - w->bufs, T->resp.len, s->cfg.resp_queue);
	} else {
		int port = (int)(id / w->vcs % (w->ports + 1));
		long node = id / w->vcs / (w->ports + 1);

		if (port == w->ports)
			n = snprintf(buf, len, "%ld:host/vc%ld", node, id % w->vcs);
		else
			n = snprintf(buf, len, "%ld:%d/vc%ld", node, port, id % w->vcs);
	}
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len;
}

void sim_find_wait_cycle(struct sim *s)
{
	struct waits w = { .s = s, .vcs = s->params.vcs, .ports = s->ports };
	long total, *path, *pos;
	char *out = s->deadlock_cycle;
	size_t len = sizeof(s->deadlock_cycle), n = 0;

	out[0] = '\0';
	w.bufs = (long)s->nodes * (s->ports + 1) * w.vcs;
	total = w.bufs + s->nodes;
	path = malloc((size_t)total * sizeof(*path));
	pos = malloc((size_t)total * sizeof(*pos));	/* -2 unseen, -1 done, else on path */
	if (!path || !pos) {
		snprintf(out, len, "(out of memory following the waits)");
		goto out;
	}
	for (long i = 0; i < total; i++)
		pos[i] = -2;
	for (long start = 0; start < w.bufs; start++) {
		long depth = 0, id = start;

		while (id != NO_WAIT && pos[id] == -2) {
			pos[id] = depth;
			path[depth++] = id;
			id = successor(&w, id);
		}
		if (id != NO_WAIT && pos[id] >= 0) {
			for (long k = pos[id]; k < depth && n < len; k++) {
				n += describe(&w, path[k], out + n, len - n);
				n += (size_t)snprintf(out + n, len - n, " -> ");
			}
			if (n < len)
				describe(&w, id, out + n, len - n);
			goto out;
		}
		for (long k = 0; k < depth; k++)
			pos[path[k]] = -1;
	}
out:
	free(path);
	free(pos);
}
