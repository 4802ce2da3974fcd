// SPDX-License-Identifier: GPL-2.0
/*
 * Router top: builds the units from the parameters (all state in one
 * allocation) and clocks them.  One router_cycle() is one clock edge; the
 * units run in reverse pipeline order and every resource freed in a cycle
 * (buffer slots, output VCs of wormhole tails aside) reaches its user
 * through a credit that is applied at the edge, so each unit computes its
 * next state from registered state only, as the RTL does.
 */
#include "router_int.h"

#include <stdio.h>
#include <stdlib.h>

#ifdef ROUTER_VISITS
uint64_t router_visits[ROUTER_VISITS_N];

void router_visits_print(FILE *out, double per)
{
#define ROUTER_VISIT_NAME(name, what) #name,
#define ROUTER_VISIT_WHAT(name, what) what,
	static const char *const names[] = { ROUTER_VISIT_LIST(ROUTER_VISIT_NAME) };
	static const char *const whats[] = { ROUTER_VISIT_LIST(ROUTER_VISIT_WHAT) };

	for (unsigned int i = 0; i < ROUTER_VISITS_N; i++)
		fprintf(out, "    %-17s %7.3f  %s\n", names[i],
			per > 0 ? (double)router_visits[i] / per : 0.0, whats[i]);
}
#endif

/* ---- allocation ---------------------------------------------------------- */

struct arena {
	char *base;
	size_t off;
};

static void *arena_take(struct arena *a, size_t bytes)
{
	void *p = a->base ? a->base + a->off : NULL;

	a->off += (bytes + 15) & ~(size_t)15;
	return p;
}

/* The arena starts on a cache line: a block that begins on one touches fewest lines. */
#define ARENA_LINE	64

static void *arena_take_line(struct arena *a, size_t bytes)
{
	a->off = (a->off + ARENA_LINE - 1) & ~(size_t)(ARENA_LINE - 1);
	return arena_take(a, bytes);
}

static void arb_make(struct arena *a, struct arbiter *arb, unsigned int kind, unsigned int n,
		     unsigned int m_bits)
{
	uint64_t *st = arena_take(a, arb_storage_words(kind, n) * sizeof(uint64_t));

	if (a->base)
		arb_attach(arb, kind, n, m_bits, st);
}

/* A FIFO of @cap flits: its slot numbers, and @cap more slots in the pool. */
static void fifo_make(struct arena *a, struct flit_fifo *q, unsigned int cap, uint32_t *pool_slots)
{
	uint32_t *s = arena_take(a, fifo_ring_size(cap) * sizeof(*s));

	if (a->base)
		fifo_attach(q, s, cap);
	*pool_slots += cap;
}

/* The flit pool: as many slots as all the FIFOs hold together. */
static void pool_make(struct arena *a, struct flit_pool *pl, uint32_t slots,
		      unsigned int flit_bytes)
{
	struct fifo_meta *m = arena_take(a, (size_t)slots * sizeof(*m));
	uint8_t *d = arena_take_line(a, (size_t)slots * flit_bytes);	/* a flit per line */
	uint32_t *f = arena_take(a, (size_t)slots * sizeof(*f));

	if (!a->base)
		return;
	pl->meta = m;
	pl->data = d;
	pl->free = f;
	pl->flit_bytes = flit_bytes;
	/* slot 0 on top: handed out first */
	for (uint32_t i = 0; i < slots; i++)
		f[i] = slots - 1 - i;
	pl->n_free = slots;
}

/* Lay out (a->base NULL: measure) every unit of @r. */
static void router_layout(struct router *r, struct arena *a)
{
	const struct router_params *p = &r->p;
	unsigned int P = p->ports, V = p->vcs, fb = p->flit_bytes, tiles = 0;
	unsigned int pipe_cap, pipe_ring;
	uint32_t slots = 0, *pipe_rings;

	r->wires = arena_take_line(a, P * sizeof(struct port_wires));
	r->credits_in = arena_take(a, P * sizeof(uint64_t));
	r->in = arena_take_line(a, P * sizeof(struct in_port));
	r->out = arena_take_line(a, P * sizeof(struct out_port));
	if (p->org == ROUTER_ORG_TILED)
		pipe_cap = p->lat_out + p->lat_lt + 1;
	else
		pipe_cap = p->lat_sa + p->lat_st + p->lat_lt + 1 +
			   (p->speedup > 1 ? p->col_depth : 0);
	/* the output stages' rings side by side: the output stage walks them every cycle */
	pipe_ring = fifo_ring_size(pipe_cap);
	pipe_rings = arena_take(a, P * pipe_ring * sizeof(uint32_t));
	r->pcnt = arena_take(a, P * sizeof(struct router_port_counters));
	r->vcnt = arena_take(a, P * V * sizeof(struct router_vc_counters));
	if (p->org == ROUTER_ORG_TILED) {
		tiles = p->rows * p->cols;
		r->tiles = arena_take(a, tiles * sizeof(struct tile));
	}
	for (unsigned int i = 0; i < P; i++) {
		struct in_port *ip = a->base ? &r->in[i] : NULL;
		struct out_port *op = a->base ? &r->out[i] : NULL;
		struct in_vc *ivc = arena_take_line(a, V * sizeof(struct in_vc));
		struct out_vc *ovc = arena_take_line(a, V * sizeof(struct out_vc));
		struct credit *rowcred = NULL;

		if (p->org == ROUTER_ORG_TILED)
			rowcred = arena_take(a, p->cols * V * sizeof(struct credit));
		if (op) {
			op->vc = ovc;
			ip->vc = ivc;
			ip->rowcred = rowcred;
		}
		for (unsigned int v = 0; v < V; v++) {
			fifo_make(a, ip ? &ip->vc[v].buf : NULL, p->buf_depth, &slots);
			arb_make(a, op ? &ovc[v].va_arb : NULL, p->arb_va_out, P, p->iwa_bits);
		}
		arb_make(a, ip ? &ip->sa_arb : NULL, p->arb_sa_in, V, p->iwa_bits);
		arb_make(a, ip ? &ip->va_arb : NULL, p->arb_va_in, V, p->iwa_bits);
		if (op)
			fifo_attach(&op->pipe, pipe_rings + i * pipe_ring, pipe_cap);
		slots += pipe_cap;
		if (p->org == ROUTER_ORG_XBAR)
			arb_make(a, op ? &op->sa_arb : NULL, p->arb_sa_out, P, p->iwa_bits);
		else
			arb_make(a, op ? &op->mux_arb : NULL, p->arb_out, p->rows * V, p->iwa_bits);
	}
	for (unsigned int g = 0; g < tiles; g++) {
		struct tile *t = a->base ? &r->tiles[g] : NULL;
		struct arbiter *sa = arena_take(a, p->rows * sizeof(struct arbiter));
		struct flit_fifo *rowbuf = arena_take(a, p->cols * V * sizeof(struct flit_fifo));
		struct col_vc *colvc = arena_take(a, p->rows * V * sizeof(struct col_vc));
		struct credit **row_src = arena_take(a, p->cols * V * sizeof(struct credit *));
		struct flit_fifo *colbuf = NULL;
		struct credit **col_src = NULL;

		if (g < P) {
			colbuf = arena_take(a, p->rows * V * sizeof(struct flit_fifo));
			col_src = arena_take(a, p->rows * V * sizeof(struct credit *));
		}
		if (t) {
			t->row = (uint8_t)(g / p->cols);
			t->col = (uint8_t)(g % p->cols);
			t->sub_arb = sa;
			t->rowbuf = rowbuf;
			t->colvc = colvc;
			t->colbuf = colbuf;
			t->row_src = row_src;
			t->col_src = col_src;
		}
		for (unsigned int i = 0; i < p->cols * V; i++)
			fifo_make(a, t ? &t->rowbuf[i] : NULL, p->row_depth, &slots);
		for (unsigned int i = 0; i < p->rows; i++)
			arb_make(a, sa ? &sa[i] : NULL, p->arb_sa_out, p->cols * V, p->iwa_bits);
		if (g < P)
			for (unsigned int i = 0; i < p->rows * V; i++)
				fifo_make(a, t ? &t->colbuf[i] : NULL, p->col_depth, &slots);
	}
	if (tiles) {
		/* credits in flight: at most one per buffer read per cycle and latency */
		unsigned int row_n = fifo_ring_size(tiles * p->rows * p->speedup * p->lat_row + 1);
		unsigned int col_n = fifo_ring_size(P * p->lat_col + 1);

		r->row_ret.mask = row_n - 1;
		r->col_ret.mask = col_n - 1;
		r->row_ret.latency = p->lat_row;
		r->col_ret.latency = p->lat_col;
		r->row_ret.v = arena_take(a, row_n * sizeof(struct credit_ret));
		r->col_ret.v = arena_take(a, col_n * sizeof(struct credit_ret));
	}
	pool_make(a, &r->pool, slots, fb);
	r->in_drop_hdr = arena_take(a, (size_t)P * V * LOOM_PKT_HDR_SIZE);
	r->out_drop = arena_take(a, (size_t)P * V * sizeof(struct out_drop));
}

/* The power-on state of every register. */
static void router_reset_state(struct router *r)
{
	const struct router_params *p = &r->p;
	unsigned int V = p->vcs;

	for (unsigned int i = 0; i < p->ports; i++) {
		struct out_port *op = &r->out[i];

		r->wires[i].out.back.ready = true;
		r->wires[i].in.back.ready = true;
		op->up = true;
		out_usable_update(r, i);
		for (unsigned int v = 0; v < V; v++) {
			credit_init(&op->vc[v].cred, p->buf_depth);
			op->vc[v].owner = -1;
		}
		if (p->org == ROUTER_ORG_TILED) {
			for (unsigned int k = 0; k < p->cols * V; k++)
				credit_init(&r->in[i].rowcred[k], p->row_depth);
			r->in[i].row_slot = (i % p->cols) * V;
		}
	}
	for (unsigned int g = 0; r->tiles && g < p->rows * p->cols; g++) {
		struct tile *t = &r->tiles[g];

		for (unsigned int k = 0; k < p->rows * V; k++) {
			credit_init(&t->colvc[k].cred, p->col_depth);
			t->colvc[k].own = -1;
		}
		/* row buffer (ci, v) at subswitch (row, col): input row * COLS + ci */
		for (unsigned int ci = 0; ci < p->cols; ci++)
			for (unsigned int v = 0; v < V; v++)
				t->row_src[ci * V + v] = t->row * p->cols + ci < p->ports ?
					&r->in[t->row * p->cols + ci].rowcred[t->col * V + v] : NULL;
		/* column buffer (ri, v) of this output: subswitch (ri, col), slot row */
		for (unsigned int ri = 0; g < p->ports && ri < p->rows; ri++)
			for (unsigned int v = 0; v < V; v++)
				t->col_src[ri * V + v] =
					&r->tiles[ri * p->cols + t->col].colvc[t->row * V + v].cred;
	}
	for (unsigned int i = 0; i < p->ports; i++) {
		r->port_row[i] = (uint8_t)(i / p->cols);
		r->port_col[i] = (uint8_t)(i % p->cols);
	}
	r->next_event = ROUTER_NEVER;
}

static int router_check_view(const struct router *r, const struct route_view *v, char *err,
			     size_t errlen)
{
	if (!v || !v->rt) {
		snprintf(err, errlen, "router: no routing table in the table view");
		return -1;
	}
	if (r->n_net > LOOM_RT_PORT_HOST && !v->wide_ports) {
		snprintf(err, errlen,
			 "router: %u network ports need wide routing entries (route_view.wide_ports): W0 bits 3:0 name at most %u ports",
			 r->n_net, LOOM_RT_PORT_HOST);
		return -1;
	}
	return 0;
}

struct router *router_new(const struct router_params *p, const struct route_view *view,
			  char *err, size_t errlen)
{
	struct router *r;
	void *raw;
	struct arena a = { NULL, 0 };

	if (router_params_check(p, err, errlen))
		return NULL;
	/* calloc, aligned by hand: the drop queue stays untouched (not resident) until used */
	raw = calloc(1, sizeof(*r) + ARENA_LINE - 1);
	r = raw ? (void *)(((uintptr_t)raw + ARENA_LINE - 1) & ~(uintptr_t)(ARENA_LINE - 1)) : NULL;
	if (!r) {
		snprintf(err, errlen, "router: out of memory");
		return NULL;
	}
	r->alloc = raw;
	r->p = *p;
	r->n_net = p->ports - p->host_ports;
	r->host_port = p->host_ports ? (int)p->ports - 1 : -1;
	if (router_check_view(r, view, err, errlen)) {
		free(raw);
		return NULL;
	}
	r->view = *view;
	r->rcfg.n_net = r->n_net;
	r->rcfg.host_port = r->host_port;
	r->rcfg.vcs = p->vcs;
	r->rcfg.card_vcs = p->vc_model == 1;
	/* card VCs: exactly the routed one; generic: its dateline class */
	r->vc_step = p->vc_model == 1 ? p->vcs : p->vcs >= 2 ? 2 : 1;
	r->rcfg.flit_bytes = p->flit_bytes;
	r->rcfg.max_flits = router_max_packet_flits(p->flit_bytes);
	r->rcfg.mc_max_flits = p->buf_depth;
	r->lfsr = ROUTER_LFSR_RESET;
	r->rcfg.lfsr = &r->lfsr;
	r->vc_bytes = p->vcs >= 8 ? ~0ull : (1ull << (8 * p->vcs)) - 1;
	router_layout(r, &a);
	/* calloc, aligned by hand: a large arena stays untouched (not resident) until used */
	r->arena_size = a.off + ARENA_LINE - 1;
	r->arena_alloc = calloc(1, r->arena_size);
	r->arena = r->arena_alloc ? (void *)(((uintptr_t)r->arena_alloc + ARENA_LINE - 1) &
					     ~(uintptr_t)(ARENA_LINE - 1)) : NULL;
	if (!r->arena) {
		snprintf(err, errlen, "router: out of memory for %zu bytes of state", a.off);
		free(raw);
		return NULL;
	}
	a.base = r->arena;
	a.off = 0;
	router_layout(r, &a);
	router_reset_state(r);
	return r;
}

void router_free(struct router *r)
{
	if (!r)
		return;
	free(r->arena_alloc);
	free(r->alloc);
}

const struct router_params *router_params(const struct router *r)
{
	return &r->p;
}

int router_set_view(struct router *r, const struct route_view *view, char *err, size_t errlen)
{
	if (router_check_view(r, view, err, errlen))
		return -1;
	r->view = *view;
	return 0;
}

struct chan *router_in(struct router *r, unsigned int port)
{
	return port < r->p.ports ? &r->wires[port].in : NULL;
}

struct chan *router_out(struct router *r, unsigned int port)
{
	return port < r->p.ports ? &r->wires[port].out : NULL;
}

uint64_t router_now(const struct router *r)
{
	return r->now;
}

uint64_t router_out_driven(const struct router *r)
{
	return r->out_driven;
}

uint64_t router_in_credited(const struct router *r)
{
	return r->in_credited;
}

/* ---- the clock ------------------------------------------------------------ */

/*
 * Sample the wires at the edge: credits from downstream (applied at the
 * end of the edge, output_commit) and which inputs carry a flit.
 */
static void router_sample(struct router *r)
{
	struct port_wires *w = r->wires;
	const unsigned int P = r->p.ports;
	uint64_t cp = 0, valid = 0;

	for (uint64_t m = r->out_driven; m; m &= m - 1)
		w[__builtin_ctzll(m)].out.fwd.valid = false;
	r->out_driven = 0;
	for (uint64_t m = r->in_credited; m; m &= m - 1)
		memset(w[__builtin_ctzll(m)].in.back.credits, 0, CHAN_VCS_MAX);
	r->in_credited = 0;
	/*
	 * Every port's wires are read without a branch on what they carry
	 * (credits arrive at random); only the ports that brought credits
	 * are written (their word taken into credits_in, the wire cleared),
	 * so the others' wires and credits_in stay clean in the cache.
	 * credits_in is zero outside the edge (output_apply_credits).
	 */
	for (unsigned int o = 0; o < P; o++) {
		uint64_t c;

		memcpy(&c, w[o].out.back.credits, sizeof(c));
		cp |= (uint64_t)(c != 0) << o;
		valid |= (uint64_t)w[o].in.fwd.valid << o;
	}
	for (uint64_t m = cp; m; m &= m - 1) {
		unsigned int o = (unsigned int)__builtin_ctzll(m);

		memcpy(&r->credits_in[o], w[o].out.back.credits, sizeof(uint64_t));
		memset(w[o].out.back.credits, 0, CHAN_VCS_MAX);
	}
	r->credits_ports = cp;
	r->in_valid = valid;
}

void router_cycle(struct router *r)
{
	r->wake = ROUTER_NEVER;
	r->changed = false;
	router_sample(r);
	/* the units in reverse pipeline order; a unit with nothing to do is skipped */
	if (r->pipes_nonempty)
		output_drive(r);
	if (r->cols_nonempty)
		tile_output_mux(r);
	if (r->rows_nonempty)
		tile_subswitch(r);
	if (r->sa_ports)
		sw_alloc(r);
	if (r->va_ports)
		vc_alloc(r);
	if (r->in_valid)
		input_write(r);
	if (r->credits_ports | r->fp_ports | r->row_ret.count | r->col_ret.count)
		output_commit(r);
	if (r->in_active)
		input_count_stalls(r);
	r->cnt.cycles++;
	r->now++;
	if (r->changed)
		r->next_event = r->now;
	else
		r->next_event = r->wake < r->now ? r->now : r->wake;
}

void router_prefetch(const struct router *r)
{
	const char *p = (const char *)r;

	/* the registers and parameters nearly every edge reads; each port's sampled line */
	for (size_t off = 0; off < offsetof(struct router, view); off += 64)
		__builtin_prefetch(p + off);
	for (unsigned int o = 0; o < r->p.ports; o++)
		__builtin_prefetch(&r->wires[o].out.back);
}

bool router_quiescent(const struct router *r)
{
	return !r->in_active && !r->rows_nonempty && !r->cols_nonempty && !r->pipes_nonempty &&
	       !r->row_ret.count && !r->col_ret.count;
}

uint64_t router_next_event(const struct router *r)
{
	return r->next_event;
}

bool router_skip_to(struct router *r, uint64_t cycle)
{
	const unsigned int V = r->p.vcs;
	uint64_t skipped;

	if (cycle < r->now || cycle > r->next_event)
		return false;
	/* the skipped edges change nothing: the last edge's stalls last through them */
	skipped = cycle - r->now;
	for (uint64_t m = r->in_active; m && skipped; m &= m - 1) {
		unsigned int p = (unsigned int)__builtin_ctzll(m);

		for (uint32_t s = r->in[p].stalled & r->in[p].busy; s; s &= s - 1)
			r->vcnt[p * V + (unsigned int)__builtin_ctz(s)].stall_cycles += skipped;
	}
	for (uint64_t m = r->fp_ports; m && skipped; m &= m - 1) {
		unsigned int o = (unsigned int)__builtin_ctzll(m);

		for (uint32_t s = r->out[o].stalled; s; s &= s - 1) {
			r->vcnt[o * V + (unsigned int)__builtin_ctz(s)].credit_starved_cycles += skipped;
			r->pcnt[o].credit_stall_cycles += skipped;
		}
	}
	r->now = cycle;
	return true;
}

/* ---- registers -------------------------------------------------------------- */

void router_set_port_up(struct router *r, unsigned int port, bool up)
{
	struct out_port *op;

	if (port >= r->n_net)
		return;
	op = &r->out[port];
	if (up && !op->up)
		for (unsigned int v = 0; v < r->p.vcs; v++)
			op->vc[v].cred.avail = op->vc[v].cred.max;
	op->up = up;
	out_usable_update(r, port);
	r->next_event = r->now;
}

void router_set_port_disabled(struct router *r, unsigned int port, bool disabled)
{
	if (port >= r->n_net)
		return;
	r->out[port].disabled = disabled;
	out_usable_update(r, port);
	r->next_event = r->now;
}

bool router_port_dead(const struct router *r, unsigned int port)
{
	return port < r->p.ports && r->out[port].dead;
}

void router_clear_dead(struct router *r)
{
	for (unsigned int o = 0; o < r->p.ports; o++) {
		struct out_port *op = &r->out[o];

		op->dead = false;
		out_usable_update(r, o);
		for (unsigned int v = 0; v < r->p.vcs; v++)
			if (op->stalled & (1u << v))
				op->vc[v].stall_since = r->now;
	}
	r->next_event = r->now;
}

void router_clear_port_dead(struct router *r, unsigned int port)
{
	struct out_port *op;

	if (port >= r->p.ports)
		return;
	op = &r->out[port];
	op->dead = false;
	out_usable_update(r, port);
	for (unsigned int v = 0; v < r->p.vcs; v++)
		if (op->stalled & (1u << v))
			op->vc[v].stall_since = r->now;
	r->next_event = r->now;
}

void router_seed_lfsr(struct router *r, uint16_t seed)
{
	r->lfsr = seed ? seed : ROUTER_LFSR_RESET;
}

void router_set_fp_timeout(struct router *r, uint32_t cycles)
{
	/* the timer holds FP_TIMER_BITS bits: a longer timeout is held at its most */
	if (r->p.fp_timer_bits < 32 && cycles >> r->p.fp_timer_bits)
		cycles = (1u << r->p.fp_timer_bits) - 1;
	r->p.fp_timeout = cycles;
	r->next_event = r->now;
}

uint64_t router_take_port_events(struct router *r)
{
	uint64_t e = r->port_events;

	r->port_events = 0;
	return e;
}

void router_set_out_depth(struct router *r, unsigned int port, unsigned int vc,
			  unsigned int depth)
{
	if (port >= r->p.ports || vc >= r->p.vcs)
		return;
	/* a count of 16 bits at most (struct credit); of CREDIT_BITS bits, a
	 * larger depth held at its most */
	depth &= 0xffff;
	if (r->p.credit_bits < 16 && depth >> r->p.credit_bits)
		depth = (1u << r->p.credit_bits) - 1;
	credit_init(&r->out[port].vc[vc].cred, depth);
}

int router_set_arb_weight(struct router *r, enum router_arb_unit unit, unsigned int index,
			  unsigned int requester, unsigned int pattern, unsigned int weight)
{
	const struct router_params *p = &r->p;
	struct arbiter *a = NULL;

	switch (unit) {
	case ROUTER_ARB_SA_IN:
		if (index < p->ports)
			a = &r->in[index].sa_arb;
		break;
	case ROUTER_ARB_VA_IN:
		if (index < p->ports)
			a = &r->in[index].va_arb;
		break;
	case ROUTER_ARB_VA_OUT:
		if (index < p->ports * p->vcs)
			a = &r->out[index / p->vcs].vc[index % p->vcs].va_arb;
		break;
	case ROUTER_ARB_SA_OUT:
		if (p->org == ROUTER_ORG_XBAR && index < p->ports)
			a = &r->out[index].sa_arb;
		else if (p->org == ROUTER_ORG_TILED && index < p->rows * p->cols * p->rows)
			a = &r->tiles[index / p->rows].sub_arb[index % p->rows];
		break;
	case ROUTER_ARB_OUT:
		if (p->org == ROUTER_ORG_TILED && index < p->ports)
			a = &r->out[index].mux_arb;
		break;
	}
	if (!a || a->kind != ARB_IWA || requester >= a->n || pattern >= ARB_PATTERNS)
		return -1;
	arb_set_weight(a, requester, pattern, weight);
	return 0;
}

/* ---- drops, counters ------------------------------------------------------ */

void router_emit_drop(struct router *r, enum route_drop why, unsigned int in_port,
		      unsigned int out_port, unsigned int vc, const uint8_t *hdr,
		      unsigned int bytes)
{
	struct router_drop *d;

	r->cnt.drops[why < ROUTE_DROP_REASONS ? why : ROUTE_DROP_MALFORMED]++;
	if (r->drop_count == ROUTER_DROP_QUEUE) {
		r->cnt.drop_events_lost++;
		return;
	}
	d = &r->drops[(r->drop_head + r->drop_count) % ROUTER_DROP_QUEUE];
	r->drop_count++;
	d->reason = (uint8_t)why;
	d->in_port = (uint8_t)in_port;
	d->out_port = (uint8_t)out_port;
	d->vc = (uint8_t)vc;
	d->hdr_bytes = (uint8_t)bytes;
	memset(d->hdr, 0, sizeof(d->hdr));
	memcpy(d->hdr, hdr, bytes);
	d->cycle = r->now;
}

bool router_drop_pop(struct router *r, struct router_drop *d)
{
	if (!r->drop_count)
		return false;
	*d = r->drops[r->drop_head];
	r->drop_head = (r->drop_head + 1) % ROUTER_DROP_QUEUE;
	r->drop_count--;
	return true;
}

const struct router_counters *router_counters(const struct router *r)
{
	return &r->cnt;
}

const struct router_port_counters *router_port_counters(const struct router *r,
							unsigned int port)
{
	return port < r->p.ports ? &r->pcnt[port] : NULL;
}

const struct router_vc_counters *router_vc_counters(const struct router *r, unsigned int port,
						    unsigned int vc)
{
	return port < r->p.ports && vc < r->p.vcs ? &r->vcnt[port * r->p.vcs + vc] : NULL;
}

enum router_vc_state router_in_vc_state(const struct router *r, unsigned int port,
					unsigned int vc)
{
	const struct in_vc *iv;

	if (port >= r->p.ports || vc >= r->p.vcs)
		return IVC_IDLE;
	iv = &r->in[port].vc[vc];
	if (iv->state == IVC_ROUTING && iv->va_at <= r->now)
		return IVC_VC_WAIT;
	return (enum router_vc_state)iv->state;
}

unsigned int router_in_vc_fill(const struct router *r, unsigned int port, unsigned int vc)
{
	if (port >= r->p.ports || vc >= r->p.vcs)
		return 0;
	return r->in[port].vc[vc].buf.count;
}

size_t router_memory(const struct router *r)
{
	return sizeof(*r) + r->arena_size;
}

unsigned int router_zero_load_latency(const struct router_params *p)
{
	unsigned int l = p->lat_bw + p->lat_rc + p->lat_va + p->lat_sa + p->lat_lt;

	if (p->org == ROUTER_ORG_XBAR)
		return l + p->lat_st;
	return l + p->lat_row + p->lat_sub + p->lat_col + p->lat_out;
}
