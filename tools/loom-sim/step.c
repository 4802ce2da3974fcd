// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim: stepping the fabric, cycle by cycle, over the active set.
 *
 * Cycle t, in the order router/chan.h asks for (every unit reads the
 * wires of cycle t and drives those of t + 1, then the wires move):
 *  1. terminals: each takes the credits and the flit its router put on
 *     the host port's wires, creates packets (Bernoulli, drawn as
 *     geometric gaps) and drives the next flit of its queue's head packet
 *     while it holds a credit; a router whose host wires changed is listed
 *     for this cycle.  Routers whose pipeline stage or timer matures now
 *     (router_next_event) are listed too.
 *  2. the listed routers are clocked (after router_skip_to() over the
 *     cycles in which nothing could change); the others are not touched.
 *  3. the channel lines that carry something (a flit or credits driven in
 *     step 2, or still in flight) are stepped; a router that receives a
 *     flit or credits is listed for cycle t + 1.
 * Nothing else is visited, so idle routers and idle links cost nothing.
 */
#include "sim.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void list_now(struct sim *s, int r)
{
	if (s->listed[r] != s->now + 1) {
		s->listed[r] = s->now + 1;
		s->act[s->nact++] = r;
	}
}

static void list_next(struct sim *s, int r)
{
	if (s->listed[r] != s->now + 2) {
		s->listed[r] = s->now + 2;
		s->act_next[s->nact_next++] = r;
	}
}

static bool credits_any(const uint8_t *c)
{
	uint64_t w;

	memcpy(&w, c, sizeof(w));
	return w != 0;
}

/* A geometric number of trials >= 1 with success probability @p per trial. */
static uint64_t geometric(struct sim_rng *r, double p)
{
	double u;

	if (p >= 1)
		return 1;
	u = sim_rng_unit(r);
	return 1 + (uint64_t)floor(log1p(-u) / log1p(-p));
}

/*
 * Packets per cycle while a terminal injects (all the time for Bernoulli).
 * Request runs: each request brings its response, so requests arrive at
 * the rate that makes the flits of both the load.
 */
static double arrival_rate(const struct sim *s)
{
	double per = s->mean_flits + (s->cfg.requests != SIM_PUT ? s->response_flits : 0);
	double p = s->cfg.load / per;

	if (s->cfg.burst_on > 0)
		p *= (s->cfg.burst_on + s->cfg.burst_off) / s->cfg.burst_on;
	return p;
}

/*
 * The next creation cycle after @t.  On/off: arrivals at the on rate
 * within on periods; an arrival that falls past the period's end is
 * dropped (memoryless: as good as drawing afresh) and the next one is
 * drawn from the start of the following on period, after an off period.
 */
static uint64_t next_creation(struct sim *s, struct sim_term *T, uint64_t t)
{
	double p = arrival_rate(s);

	if (s->cfg.burst_on <= 0)
		return t + geometric(&T->rng, p);
	for (;;) {
		uint64_t c = t + geometric(&T->rng, p);

		if (c < T->on_end)
			return c;
		t = T->on_end + geometric(&T->rng, 1 / s->cfg.burst_off) - 1;
		T->on_end = t + 1 + geometric(&T->rng, 1 / s->cfg.burst_on);
	}
}

/* The first creation cycle: on/off terminals start on or off as in the long run. */
static uint64_t first_creation(struct sim *s, struct sim_term *T)
{
	if (s->cfg.burst_on > 0) {
		double on_share = s->cfg.burst_on / (s->cfg.burst_on + s->cfg.burst_off);

		T->on_end = sim_rng_unit(&T->rng) < on_share ?
			    geometric(&T->rng, 1 / s->cfg.burst_on) : 0;
	}
	return next_creation(s, T, (uint64_t)-1);
}

static bool in_window(const struct sim *s, uint64_t t)
{
	return t >= s->cfg.warmup && t < s->cfg.warmup + s->cfg.measure;
}

/* Flits of the next packet: the one size, or a draw from the distribution. */
static unsigned int packet_size(const struct sim *s, struct sim_term *T)
{
	unsigned int n = s->cfg.n_sizes, k = 0;
	uint64_t w;

	if (n < 2)
		return s->packet_flits;
	w = (uint64_t)(sim_rng_unit(&T->rng) * (double)s->size_cum[n - 1]);
	while (k + 1 < n && w >= s->size_cum[k])
		k++;
	return s->cfg.sizes[k];
}

/* Payload bytes of a packet of @flits flits. */
static unsigned int payload_of(const struct sim *s, unsigned int flits)
{
	unsigned int b = flits * s->params.flit_bytes - LOOM_PKT_HDR_SIZE;

	return b > LOOM_PKT_MAX_PAYLOAD ? LOOM_PKT_MAX_PAYLOAD : b;
}

/* Append @p to @q, growing it (the source queue) when @grow; -1 out of memory. */
static int queue_push(struct sim_queue *q, const struct sim_pkt *p, bool grow)
{
	if (q->len == q->cap) {
		uint32_t cap = q->cap ? 2 * q->cap : 16;
		struct sim_pkt *n;

		if (!grow)
			return -1;
		n = malloc((size_t)cap * sizeof(*n));
		if (!n)
			return -1;
		for (uint32_t k = 0; k < q->len; k++)
			n[k] = q->q[(q->head + k) % q->cap];
		free(q->q);
		q->q = n;
		q->cap = cap;
		q->head = 0;
	}
	q->q[(q->head + q->len) % q->cap] = *p;
	q->len++;
	return 0;
}

static void queue_pop(struct sim_queue *q)
{
	q->head = (q->head + 1) % q->cap;
	q->len--;
}

static void count_created(struct sim *s, const struct sim_pkt *p)
{
	s->st.total_created++;
	if (in_window(s, p->created)) {
		s->st.created++;
		s->st.created_flits += p->flits;
		if (sim_is_request(p->type))
			s->st.requests++;
	}
}

static const uint8_t request_type[] = {
	[SIM_PUT] = LOOM_PKT_PUT, [SIM_GET] = LOOM_PKT_GET_REQ, [SIM_AMO] = LOOM_PKT_AMO_REQ,
};

/* Packet @p joins terminal @T's source queue, counted as created; -1 out of memory. */
static int source_push(struct sim *s, struct sim_term *T, const struct sim_pkt *p)
{
	if (queue_push(&T->src, p, true))
		return -1;
	count_created(s, p);
	return 0;
}

/* A new packet of the source: a PUT or a request, to @dst. */
static int enqueue(struct sim *s, struct sim_term *T, uint64_t created, int dst)
{
	struct sim_pkt p = {
		.created = created, .dst = (uint32_t)dst,
		.flits = (uint16_t)packet_size(s, T), .type = request_type[s->cfg.requests],
	};

	return source_push(s, T, &p);
}

/* The cycle of terminal @i's next recorded request, or UINT64_MAX. */
static uint64_t replay_next(const struct sim *s, int i)
{
	const struct sim_replay *r = &s->replay[i];

	return r->next < r->n ? r->rec[r->next].cycle : UINT64_MAX;
}

/* Queue terminal @i's next recorded request, due now. */
static int replay_enqueue(struct sim *s, int i, struct sim_term *T)
{
	struct sim_replay *r = &s->replay[i];
	const struct sim_replay_rec *rec = &r->rec[r->next++];
	struct sim_pkt p = {
		.created = rec->cycle, .dst = rec->dst, .flits = rec->flits, .type = rec->type,
		.resp_flits = rec->resp_flits,
	};

	T->next_gen = replay_next(s, i);
	return source_push(s, T, &p);
}

static void put16(uint8_t *b, uint16_t v)
{
	b[0] = (uint8_t)v;
	b[1] = (uint8_t)(v >> 8);
}

static uint16_t get16(const uint8_t *b)
{
	return (uint16_t)(b[0] | b[1] << 8);
}

static uint64_t get64(const uint8_t *b)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

void sim_header(uint8_t *h, uint8_t type, uint8_t cls, unsigned int payload, unsigned int dst,
		unsigned int src, uint64_t created)
{
	memset(h, 0, LOOM_PKT_HDR_SIZE);
	h[0] = type;
	h[1] = cls;
	put16(h + 2, (uint16_t)payload);
	put16(h + 4, (uint16_t)dst);
	put16(h + 8, (uint16_t)src);
	for (int i = 0; i < 8; i++)
		h[32 + i] = (uint8_t)(created >> (8 * i));
}

/*
 * The header of a packet of this run (sim_header()); a response carries
 * its request's creation in 'aux'.
 */
static void make_header(const struct sim *s, int src, const struct sim_pkt *p, uint8_t *h)
{
	sim_header(h, p->type,
		   sim_is_response(p->type) && !s->cfg.merged_classes ? LOOM_CLASS_RESP : LOOM_CLASS_REQ,
		   payload_of(s, p->flits), p->dst, (unsigned int)src, p->created);
	h[12] = p->resp_flits;		/* the simulator's own use of dst_ctx */
	for (int i = 0; i < 8; i++)
		h[40 + i] = (uint8_t)(p->req_created >> (8 * i));
}

/* The VC a packet of @q enters on. */
static unsigned int queue_vc(const struct sim *s, const struct sim_term *T,
			     const struct sim_queue *q)
{
	return q == &T->resp ? s->resp_vc : s->inject_vc;
}

static void send_flit(struct sim *s, int i, struct sim_term *T, struct flit *f)
{
	struct sim_queue *q = T->sending;
	const struct sim_pkt *p = &q->q[q->head];
	unsigned int fb = s->params.flit_bytes, k = T->flit, off = k * fb;
	unsigned int vc = queue_vc(s, T, q);
	uint8_t h[LOOM_PKT_HDR_SIZE];

	memset(f->data, 0, fb);
	if (off < LOOM_PKT_HDR_SIZE) {
		make_header(s, i, p, h);
		memcpy(f->data, h + off, LOOM_PKT_HDR_SIZE - off < fb ? LOOM_PKT_HDR_SIZE - off : fb);
	}
	f->valid = true;
	f->head = k == 0;
	f->tail = k + 1 == p->flits;
	f->vc = (uint8_t)vc;
	T->credits[vc]--;
	if (f->head) {
		s->in_network++;
		if (sim_is_request(p->type))
			T->outstanding++;
	}
	if (f->tail) {
		T->flit = 0;
		T->sending = NULL;
		queue_pop(q);
	} else {
		T->flit++;
	}
}

/*
 * The packet to start: a response first (the card answers before it
 * asks), then a request while fewer than --outstanding are in flight;
 * each only with a credit of its VC.  NULL: none.
 */
static struct sim_queue *next_to_send(const struct sim *s, struct sim_term *T)
{
	if (T->resp.len && T->credits[s->resp_vc])
		return &T->resp;
	if (T->src.len && T->credits[s->inject_vc] &&
	    (s->cfg.requests == SIM_PUT || T->outstanding < s->cfg.outstanding))
		return &T->src;
	return NULL;
}

static void record(struct sim_latency *l, uint64_t lat)
{
	l->packets++;
	l->sum += lat;
	if (lat < l->min)
		l->min = lat;
	if (lat > l->max)
		l->max = lat;
}

/* A request's tail is in: queue its response (sink_takes() saw room). */
static void answer(struct sim *s, struct sim_term *T, const uint8_t *h, uint64_t t)
{
	struct sim_pkt p = {
		.created = t, .req_created = get64(h + 32), .dst = get16(h + 8),
		.flits = (uint16_t)(h[12] ? h[12] : s->response_flits),
		.type = sim_response_type(h[0]),
	};

	queue_push(&T->resp, &p, false);
	count_created(s, &p);
}

/* A response is back at its requester: the round trip of its request. */
static void round_trip(struct sim *s, struct sim_term *T, const uint8_t *h, uint64_t t)
{
	uint64_t req = get64(h + 40), rtt = t - req;

	T->outstanding--;
	if (!in_window(s, req))
		return;
	record(&s->st.rtt, rtt);
	s->st.rtt_hist[rtt < SIM_HIST_BINS ? rtt : SIM_HIST_BINS - 1]++;
}

static const char *type_name(uint8_t type)
{
	switch (type) {
	case LOOM_PKT_GET_REQ:
		return "get";
	case LOOM_PKT_GET_RESP:
		return "get-resp";
	case LOOM_PKT_AMO_REQ:
		return "amo";
	case LOOM_PKT_AMO_RESP:
		return "amo-resp";
	default:
		return "put";
	}
}

/* The --trace line of a packet delivered at node @i in cycle @t. */
static void trace_delivery(const struct sim *s, int i, const uint8_t *h, uint64_t t)
{
	uint64_t created = get64(h + 32);
	unsigned int fb = s->params.flit_bytes;

	if (s->cfg.trace)
		fprintf(s->cfg.trace, "%u %d %llu %llu %u %llu %u %s\n", get16(h + 8), i,
			(unsigned long long)created, (unsigned long long)t, h[7],
			(unsigned long long)(t - created),
			(LOOM_PKT_HDR_SIZE + get16(h + 2) + fb - 1) / fb, type_name(h[0]));
}

/* A measured packet's latency (created in bytes 32..39) and hops. */
static void measure_delivery(struct sim *s, const uint8_t *h, uint64_t t)
{
	uint64_t lat = t - get64(h + 32);
	unsigned int hops = h[7];

	s->st.hops_sum += hops;
	record(&s->st.all, lat);
	record(&s->st.by_hops[hops <= SIM_MAX_HOPS ? hops : SIM_MAX_HOPS], lat);
	s->st.hist[lat < SIM_HIST_BINS ? lat : SIM_HIST_BINS - 1]++;
}

static void delivered(struct sim *s, int i, const uint8_t *h, uint64_t t)
{
	uint64_t created = get64(h + 32);

	trace_delivery(s, i, h, t);
	if (sim_is_request(h[0]))
		answer(s, &s->term[i], h, t);
	else if (sim_is_response(h[0]))
		round_trip(s, &s->term[i], h, t);
	s->st.total_delivered++;
	s->in_network--;
	s->last_delivery = t;
	if (get16(h + 4) != i)
		s->st.misdelivered++;
	if (!in_window(s, created))
		return;
	s->st.measured_done++;
	measure_delivery(s, h, t);
}

static void sink_flit(struct sim *s, int i, struct sim_term *T, const struct flit *f, uint64_t t)
{
	unsigned int fb = s->params.flit_bytes, v = f->vc, off = T->rx_flits[v] * fb;

	if (off < LOOM_PKT_HDR_SIZE)
		memcpy(T->rx_hdr[v] + off, f->data,
		       LOOM_PKT_HDR_SIZE - off < fb ? LOOM_PKT_HDR_SIZE - off : fb);
	T->rx_flits[v]++;
	if (in_window(s, t))
		s->st.delivered_flits++;
	if (f->tail) {
		T->rx_flits[v] = 0;
		delivered(s, i, T->rx_hdr[v], t);
	}
}

/*
 * May the sink take flit @f (on VC @v) now?  A request's tail needs room
 * in the response queue, where its response goes; without room the sink
 * holds the tail and everything behind it on that VC, and credits none of
 * them.  (The packet's earlier flits were taken: its type is in rx_hdr.)
 */
static bool sink_takes(const struct sim *s, const struct sim_term *T, const struct flit *f)
{
	uint8_t type = f->head ? f->data[0] : T->rx_hdr[f->vc][0];

	return !f->tail || !sim_is_request(type) || T->resp.len < s->cfg.resp_queue;
}

/* The flit on the host output: taken (credited at once) or held. */
static void sink_or_hold(struct sim *s, int i, struct sim_term *T, struct chan *out, uint64_t t)
{
	unsigned int v = out->fwd.vc;
	struct sim_eject *e = &T->ej[v];

	if (!e->len && sink_takes(s, T, &out->fwd)) {
		sink_flit(s, i, T, &out->fwd, t);
		out->back.credits[v]++;
	} else {
		e->f[(e->head + e->len++) % s->params.buf_depth] = out->fwd;
	}
	out->fwd.valid = false;
}

/* Held flits: the sink takes the first of each VC once it may. */
static bool sink_held(struct sim *s, int i, struct sim_term *T, struct chan *out, uint64_t t)
{
	bool took = false;

	for (unsigned int v = 0; v < s->params.vcs; v++) {
		struct sim_eject *e = &T->ej[v];

		if (!e->len || !sink_takes(s, T, &e->f[e->head]))
			continue;
		sink_flit(s, i, T, &e->f[e->head], t);
		out->back.credits[v]++;
		e->head = (e->head + 1) % s->params.buf_depth;
		e->len--;
		took = true;
	}
	return took;
}

static int terminal_step(struct sim *s, int i, uint64_t t)
{
	struct sim_term *T = &s->term[i];
	struct chan *in = T->in, *out = T->out;
	bool touched = false;

	for (unsigned int v = 0; v < s->params.vcs; v++) {
		T->credits[v] += in->back.credits[v];
		in->back.credits[v] = 0;
	}
	if (sim_answers(s) && sink_held(s, i, T, out, t))
		touched = true;
	if (out->fwd.valid) {
		sink_or_hold(s, i, T, out, t);
		touched = true;
	}
	while (T->next_gen <= t) {
		if (s->replay) {
			if (replay_enqueue(s, i, T))
				return -1;
			continue;
		}
		if (enqueue(s, T, T->next_gen, traffic_dest(&s->traffic, i, &T->rng)))
			return -1;
		T->next_gen = next_creation(s, T, T->next_gen);
	}
	if (!T->sending)
		T->sending = next_to_send(s, T);
	if (T->sending && T->credits[queue_vc(s, T, T->sending)] && !in->fwd.valid) {
		send_flit(s, i, T, &in->fwd);
		touched = true;
	}
	if (touched)
		list_now(s, i);
	return 0;
}

static void lost(struct sim *s, const struct router_drop *d)
{
	s->st.drops[d->reason < ROUTE_DROP_REASONS ? d->reason : 0]++;
	s->in_network--;
	if (d->hdr_bytes >= 40 && in_window(s, get64(d->hdr + 32)))
		s->st.measured_done++;	/* it will never arrive: not waited for */
}

static void want_line(struct sim *s, struct sim_line *l)
{
	if (l->stamp != s->now + 1) {
		l->stamp = s->now + 1;
		s->busy[s->nbusy++] = (int)(l - s->lines);
	}
}

static int clock_router(struct sim *s, int i, char *err, size_t errlen)
{
	struct router *R = s->r[i];
	struct router_drop d;
	uint64_t ne;

	if (router_now(R) < s->now && !router_skip_to(R, s->now)) {
		snprintf(err, errlen, "internal: router %d cannot skip from cycle %llu to %llu "
			 "(next event %llu)", i, (unsigned long long)router_now(R),
			 (unsigned long long)s->now, (unsigned long long)router_next_event(R));
		return -1;
	}
	router_cycle(R);
	s->router_cycles++;
	while (router_drop_pop(R, &d))
		lost(s, &d);
	ne = router_next_event(R);
	s->wake[i] = ROUTER_NEVER;
	if (ne == router_now(R)) {
		list_next(s, i);
	} else if (ne != ROUTER_NEVER) {
		s->wake[i] = ne;
		if (!s->in_pending[i]) {
			s->in_pending[i] = true;
			s->pending[s->npending++] = i;
		}
	}
	/*
	 * The network ports whose wires the router drove (a flit out, credits
	 * back), in port order; the router's masks name every such port.
	 */
	for (uint64_t m = (router_out_driven(R) | router_in_credited(R)) & sim_net_mask(s, i); m;
	     m &= m - 1) {
		int p = __builtin_ctzll(m);
		struct sim_line *l = &s->lines[i * s->ports + p], *back;

		if (l->a < 0)
			continue;
		if (!l->cut && l->tx->fwd.valid)
			want_line(s, l);
		back = &s->lines[l->b * s->ports + l->pb];	/* its rx: this input */
		if (!back->cut && credits_any(back->rx->back.credits))
			want_line(s, back);
	}
	return 0;
}

static void step_lines(struct sim *s)
{
	s->nbusy_next = 0;
	for (int k = 0; k < s->nbusy; k++) {
		struct sim_line *l = &s->lines[s->busy[k]];
		struct chan *tx = l->tx, *rx = l->rx;

		chan_line_step(l->line, tx, rx);
		if (rx->fwd.valid)
			list_next(s, l->b);
		if (credits_any(tx->back.credits))
			list_next(s, l->a);
		if (chan_line_busy(l->line)) {
			/* stepped again next cycle */
			l->stamp = s->now + 2;
			s->busy_next[s->nbusy_next++] = s->busy[k];
		}
	}
}

static struct sim_msg *msg_add(struct sim_msgs *q)
{
	if (q->n == q->cap) {
		size_t cap = q->cap ? 2 * q->cap : 64;
		struct sim_msg *m = realloc(q->m, cap * sizeof(*m));

		if (!m)
			return NULL;
		q->m = m;
		q->cap = cap;
	}
	return &q->m[q->n++];
}

/*
 * The cut lines (their ends on two ranks), each side its half of
 * chan_line_step(): what enters at this step leaves at step + latency on
 * the other rank (sent at the next boundary); what the other rank sent
 * for this step arrives now.
 */
static int step_cut_lines(struct sim *s)
{
	uint64_t at = s->now + s->cfg.link_latency;

	for (int k = 0; k < s->ncuts; k++) {
		const struct sim_line *l = &s->lines[s->cuts[k]];
		struct sim_msg *m;

		if (sim_here(s, l->a)) {
			struct chan *tx = router_out(s->r[l->a], (unsigned int)l->pa);

			tx->back.ready = true;
			if (!tx->fwd.valid)
				continue;
			m = msg_add(&s->out[sim_rank_of(s, l->b)]);
			if (!m)
				return -1;
			*m = (struct sim_msg){ .line = (uint32_t)s->cuts[k], .at = at, .f = tx->fwd };
			tx->fwd.valid = false;
		} else {
			struct chan *rx = router_in(s->r[l->b], (unsigned int)l->pb);

			if (!credits_any(rx->back.credits))
				continue;
			m = msg_add(&s->out[sim_rank_of(s, l->a)]);
			if (!m)
				return -1;
			*m = (struct sim_msg){ .line = (uint32_t)s->cuts[k], .credits = 1, .at = at };
			memcpy(m->f.data, rx->back.credits, CHAN_VCS_MAX);
			memset(rx->back.credits, 0, CHAN_VCS_MAX);
		}
	}
	for (; s->in_next < s->in.n && s->in.m[s->in_next].at == s->now; s->in_next++) {
		const struct sim_msg *m = &s->in.m[s->in_next];
		const struct sim_line *l = &s->lines[m->line];

		if (m->credits) {
			struct chan *tx = router_out(s->r[l->a], (unsigned int)l->pa);

			for (int v = 0; v < CHAN_VCS_MAX; v++)
				tx->back.credits[v] = (uint8_t)(tx->back.credits[v] + m->f.data[v]);
			list_next(s, l->a);
		} else {
			router_in(s->r[l->b], (unsigned int)l->pb)->fwd = m->f;
			list_next(s, l->b);
		}
	}
	return 0;
}

static void snapshot_channels(struct sim *s, bool end)
{
	for (int m = 0; m < s->nmine; m++) {
		int i = s->mine[m];

		for (int p = 0; p < sim_router_ports(s, i); p++) {
			uint64_t n = router_port_counters(s->r[i], (unsigned int)p)->flits_out;
			uint64_t *c = &s->st.chan_flits[i * s->ports + p];

			*c = end ? *c + n : 0 - n;
		}
	}
}

/*
 * The VC a scheduled packet enters on: the card's host port's for its
 * class (its first deterministic VC), the request VC for another class.
 */
static uint8_t inject_vc_of(const struct sim *s, const uint8_t *hdr)
{
	int vc;

	if (!s->params.vc_model)
		return 0;
	vc = route_vc_of(hdr[1], false, false);
	return vc < 0 ? LOOM_VC_REQ0 : (uint8_t)vc;
}

/* Flits of a packet with header @hdr. */
static unsigned int hdr_flits(const struct sim *s, const uint8_t *hdr)
{
	unsigned int fb = s->params.flit_bytes;

	return (LOOM_PKT_HDR_SIZE + get16(hdr + 2) + fb - 1) / fb;
}

/*
 * The edge of cycle @t of a scheduled-injection terminal, as the card's
 * host port clocks it (hostport_step): @in is the flit on the router's
 * host output wires in cycle t and @credits the host input's credits
 * freed in cycle t.  A packet's tail returns the credits of all its
 * flits, as the host port does when it hands the packet on; a packet
 * starts once it is due and its VC has credits for all of it (virtual
 * cut-through), one flit per cycle.  The outputs are those of t + 1.
 */
static void inject_edge(struct sim *s, int i, const struct flit *in, const uint8_t *credits,
			uint64_t t)
{
	struct sim_term *T = &s->term[i];
	struct sim_injector *J = &T->inj;
	unsigned int fb = s->params.flit_bytes;

	memset(J->back.credits, 0, sizeof(J->back.credits));
	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		T->credits[v] += credits[v];
	if (in->valid) {
		unsigned int v = in->vc, off = T->rx_flits[v] * fb;

		if (off < LOOM_PKT_HDR_SIZE)
			memcpy(T->rx_hdr[v] + off, in->data,
			       LOOM_PKT_HDR_SIZE - off < fb ? LOOM_PKT_HDR_SIZE - off : fb);
		T->rx_flits[v]++;
		if (s->cfg.inject_measured && in_window(s, t))
			s->st.delivered_flits++;
		if (in->tail) {
			J->back.credits[v] = (uint8_t)(J->back.credits[v] + T->rx_flits[v]);
			T->rx_flits[v] = 0;
			if (s->cfg.packet_fn)
				s->cfg.packet_fn(s->cfg.packet_opaque, i, T->rx_hdr[v], t, true);
			if (s->cfg.inject_measured) {
				trace_delivery(s, i, T->rx_hdr[v], t);
				measure_delivery(s, T->rx_hdr[v], t);
			}
			s->st.total_delivered++;
			s->st.measured_done++;
			s->in_network--;
			s->last_delivery = t;
			if (get16(T->rx_hdr[v] + 4) != i)
				s->st.misdelivered++;
		}
	}
	J->out.valid = false;
	if (!J->sending && J->next < J->end) {
		const struct sim_inject *p = &s->inj[s->inj_order[J->next]];
		unsigned int vc = inject_vc_of(s, p->hdr), n = hdr_flits(s, p->hdr);

		if (p->cycle <= t + 1 && T->credits[vc] >= n) {
			T->credits[vc] -= n;
			J->sending = true;
			J->flit = 0;
			J->flits = n;
		}
	}
	if (J->sending) {
		const struct sim_inject *p = &s->inj[s->inj_order[J->next]];
		unsigned int off = J->flit * fb;

		memset(J->out.data, 0, fb);
		if (off < LOOM_PKT_HDR_SIZE)
			memcpy(J->out.data, p->hdr + off,
			       LOOM_PKT_HDR_SIZE - off < fb ? LOOM_PKT_HDR_SIZE - off : fb);
		J->out.valid = true;
		J->out.head = J->flit == 0;
		J->out.tail = J->flit + 1 == J->flits;
		J->out.vc = inject_vc_of(s, p->hdr);
		if (J->out.head) {
			s->in_network++;
			if (s->cfg.packet_fn)
				s->cfg.packet_fn(s->cfg.packet_opaque, i, p->hdr, t + 1, false);
		}
		if (J->out.tail) {
			J->sending = false;
			J->next++;
		} else {
			J->flit++;
		}
	}
}

/* The next cycle whose edge a scheduled-injection terminal has work at. */
static uint64_t inject_next_event(const struct sim *s, const struct sim_term *T)
{
	const struct sim_injector *J = &T->inj;
	const struct sim_inject *p;

	if (J->sending || J->out.valid || credits_any(J->back.credits))
		return s->now;
	if (J->next == J->end)
		return UINT64_MAX;
	p = &s->inj[s->inj_order[J->next]];
	/* it starts at the edge before its cycle, or waits for credits (an event elsewhere) */
	return p->cycle > s->now + 1 ? p->cycle - 1 : s->now;
}

/*
 * Scheduled injection: the next cycle anything can change (as
 * card_next_event() finds it for a card), or UINT64_MAX.
 */
static uint64_t inject_run_next_event(const struct sim *s)
{
	uint64_t next = UINT64_MAX;

	for (int w = 0; w < s->nwires; w++) {
		uint64_t e = link_wire_next_event(&s->wires[w]);

		next = e < next ? e : next;
	}
	for (int m = 0; m < s->nmine && next > s->now; m++) {
		int i = s->mine[m];
		uint64_t e = inject_next_event(s, &s->term[i]);

		next = e < next ? e : next;
		e = router_next_event(s->r[i]);
		next = e < next ? e : next;
		for (int p = 0; p < s->ports && next > s->now; p++) {
			int k = i * s->ports + p;

			if (s->lines[k].a < 0)
				continue;
			if (link_unit_up(&s->lu[k]) != s->lu_up[k])
				return s->now;
			e = link_unit_next_event(&s->lu[k]);
			next = e < next ? e : next;
		}
	}
	return next < s->now ? s->now : next;
}

/*
 * Scheduled injection: jump over the cycles in which nothing can change,
 * up to @limit, as the card's clock does (card_skip_to).
 */
static int inject_skip(struct sim *s, uint64_t limit, char *err, size_t errlen)
{
	uint64_t next = inject_run_next_event(s);

	if (next > limit)
		next = limit;
	if (next <= s->now)
		return 0;
	for (int m = 0; m < s->nmine; m++) {
		int i = s->mine[m];

		if (!router_skip_to(s->r[i], next)) {
			snprintf(err, errlen, "internal: router %d cannot skip from cycle %llu to %llu",
				 i, (unsigned long long)s->now, (unsigned long long)next);
			return -1;
		}
		for (int p = 0; p < s->ports; p++)
			if (s->lines[i * s->ports + p].a >= 0)
				link_unit_skip(&s->lu[i * s->ports + p], next);
	}
	s->now = next;
	return 0;
}

/*
 * A cycle of a scheduled run (the card's links, scheduled injection):
 * every router, link and terminal, in the card's order (card_step): the
 * registered outputs of every unit become the wires of cycle t, every
 * unit's edge, then the wires move.
 */
static int cycle_all(struct sim *s, char *err, size_t errlen)
{
	uint64_t t;
	int P = s->ports;
	struct link_in lin;
	struct flit hin;
	uint8_t hcred[CHAN_VCS_MAX];

	t = s->now;
	for (int w = 0; w < s->nwires; w++)
		link_wire_deliver(&s->wires[w], t);
	for (int m = 0; m < s->nmine; m++) {
		int i = s->mine[m], host = sim_host_port(s, i);
		struct router *R = s->r[i];
		struct router_drop d;

		if (host >= 0) {
			struct chan *hi = router_in(R, (unsigned int)host);
			struct chan *ho = router_out(R, (unsigned int)host);

			hin = ho->fwd;
			memcpy(hcred, hi->back.credits, sizeof(hcred));
			hi->fwd = s->term[i].inj.out;
			ho->back = s->term[i].inj.back;
		}
		for (int p = 0; p < P; p++) {
			struct link_unit *l = &s->lu[i * P + p];
			struct chan *ro, *ri;

			if (s->lines[i * P + p].a < 0)
				continue;
			ro = router_out(R, (unsigned int)p);
			ri = router_in(R, (unsigned int)p);
			lin.flit = ro->fwd;
			lin.back = ri->back;
			ri->fwd = l->out.flit;
			ro->back = l->out.back;
			link_unit_step(l, &lin);
		}
		s->router_cycles++;
		if (s->cfg.router_ops) {
			s->cfg.router_ops->cycle(s->cfg.router_opaque, i, R);
		} else {
			if (router_now(R) < t && !router_skip_to(R, t)) {
				snprintf(err, errlen, "internal: router %d cannot skip to cycle %llu",
					 i, (unsigned long long)t);
				return -1;
			}
			router_cycle(R);
			while (router_drop_pop(R, &d))
				lost(s, &d);
		}
		if (host >= 0)
			inject_edge(s, i, &hin, hcred, t);
	}
	for (int w = 0; w < s->nwires; w++)
		link_wire_carry(&s->wires[w]);
	/* a link that trained or went down: its router port follows (netport_after_edge) */
	for (int k = 0; k < s->nodes * P; k++) {
		bool up = s->lines[k].a >= 0 && link_unit_up(&s->lu[k]);

		if (up == s->lu_up[k])
			continue;
		s->lu_up[k] = up;
		if (s->cfg.router_ops)
			s->cfg.router_ops->port_up(s->cfg.router_opaque, k / P, (unsigned int)(k % P),
						   up);
		router_set_port_up(s->r[k / P], (unsigned int)(k % P), up);
		if (up)
			router_clear_port_dead(s->r[k / P], (unsigned int)(k % P));
	}
	s->now++;
	return 0;
}

static int cycle(struct sim *s, char *err, size_t errlen)
{
	uint64_t t = s->now;
	int *swap;

	if (s->inj)
		return cycle_all(s, err, errlen);
	/* the terminals: the first nodes, so the first of mine[] */
	for (int m = 0; m < s->nmine && sim_has_terminal(s, s->mine[m]); m++)
		if (terminal_step(s, s->mine[m], t)) {
			snprintf(err, errlen, "out of memory for the source queues at cycle %llu",
				 (unsigned long long)t);
			return -1;
		}
	for (int k = 0; k < s->npending;) {
		int i = s->pending[k];

		if (s->wake[i] <= t || s->wake[i] == ROUTER_NEVER) {
			if (s->wake[i] != ROUTER_NEVER)
				list_now(s, i);
			s->wake[i] = ROUTER_NEVER;
			s->in_pending[i] = false;
			s->pending[k] = s->pending[--s->npending];
			continue;
		}
		k++;
	}
	s->nact_next = 0;
	if (s->cfg.no_skip)
		for (int m = 0; m < s->nmine; m++)
			list_now(s, s->mine[m]);
	for (int k = 0; k < s->nact; k++) {
		/* the next router's state comes into the cache while this one is clocked */
		if (k + 1 < s->nact)
			router_prefetch(s->r[s->act[k + 1]]);
		if (clock_router(s, s->act[k], err, errlen))
			return -1;
	}
	step_lines(s);
	if (s->ncuts && step_cut_lines(s)) {
		snprintf(err, errlen, "out of memory for the flits crossing ranks at cycle %llu",
			 (unsigned long long)t);
		return -1;
	}
	swap = s->act;
	s->act = s->act_next;
	s->act_next = swap;
	s->nact = s->nact_next;
	swap = s->busy;
	s->busy = s->busy_next;
	s->busy_next = swap;
	s->nbusy = s->nbusy_next;
	s->now++;
	return 0;
}

/*
 * At a boundary: what the run's end and deadlock checks read, over every
 * rank (this process's own with one).
 */
struct sim_progress {
	int64_t created, measured_done, requests, round_trips, in_network;
	uint64_t last_delivery;
};

static void progress_now(const struct sim *s, struct sim_progress *g)
{
	*g = (struct sim_progress){
		(int64_t)s->st.created, (int64_t)s->st.measured_done, (int64_t)s->st.requests,
		(int64_t)s->st.rtt.packets, s->in_network, s->last_delivery,
	};
	if (s->cfg.dist)
		s->cfg.dist->allreduce(&g->created, 5, &g->last_delivery);
}

double sim_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/*
 * Step until the run is over.  The end and deadlock checks are made at
 * boundaries, every link latency cycles (every cycle with latency 0): a run
 * spread over ranks exchanges what crossed the cut channels there, and one
 * process checks where the ranks would, so both end on the same cycle.
 */
int sim_run(struct sim *s, char *err, size_t errlen)
{
	const struct sim_config *c = &s->cfg;
	uint64_t end = c->warmup + c->measure;
	uint64_t sync = c->link_latency ? c->link_latency : 1;
	struct sim_progress g;
	double cpu = sim_cpu_seconds();

	for (int m = 0; m < s->nmine; m++) {
		int i = s->mine[m];
		uint64_t ne = router_next_event(s->r[i]);

		/* switches (beyond the terminals) never create packets */
		if (s->inj)
			s->term[i].next_gen = UINT64_MAX;
		else if (s->replay)
			s->term[i].next_gen = i < s->terminals ? replay_next(s, i) : UINT64_MAX;
		else
			s->term[i].next_gen = i < s->terminals ? first_creation(s, &s->term[i]) :
				UINT64_MAX;
		/* registers set while building (ports down) count as events */
		if (ne != ROUTER_NEVER) {
			s->wake[i] = ne;
			s->in_pending[i] = true;
			s->pending[s->npending++] = i;
		}
	}
	if (c->card_links && !s->inj) {
		snprintf(err, errlen, "the card's links carry scheduled runs only (sim_inject_set)");
		return -1;
	}
	for (;;) {
		s->window = s->now < c->warmup ? 0 : (s->now < end ? s->now : end) - c->warmup;
		if (s->now == c->warmup)
			snapshot_channels(s, false);
		if (s->now == end)
			snapshot_channels(s, true);
		if (s->now % sync == 0) {
			if (c->dist && c->dist->exchange(s, err, errlen))
				return -1;
			progress_now(s, &g);
			if (s->now >= end && g.measured_done >= g.created &&
			    g.round_trips >= g.requests)
				break;
			if (s->now >= end + c->drain_max)
				break;
			if (g.in_network && s->now - g.last_delivery > c->deadlock_cycles) {
				s->deadlocked = true;
				if (c->ranks == 1)
					sim_find_wait_cycle(s);
				else
					snprintf(s->deadlock_cycle, sizeof(s->deadlock_cycle),
						 "(not followed: the routers are on %d ranks; "
						 "run loom-sim for the cycle)", c->ranks);
				if (s->now < end && s->now > c->warmup)
					snapshot_channels(s, true);
				break;
			}
			if (!g.in_network)
				s->last_delivery = s->now;
		}
		if (s->inj && !c->router_ops) {
			/* idle cycles are skipped, up to where a check could end the run */
			uint64_t was = s->now, lim = end + c->drain_max;

			if (g.in_network && s->last_delivery + c->deadlock_cycles + 1 < lim)
				lim = s->last_delivery + c->deadlock_cycles + 1;
			if (inject_skip(s, lim, err, errlen))
				return -1;
			if (s->now != was)
				continue;
		}
		if (cycle(s, err, errlen))
			return -1;
		if (c->progress && !(s->now % SIM_PROGRESS_CYCLES))
			c->progress(s, false);
	}
	if (c->progress)
		c->progress(s, true);
	cpu = sim_cpu_seconds() - cpu;
	s->spread = (struct sim_rank_spread){ s->router_cycles, s->router_cycles, cpu, cpu, cpu };
	if (c->dist && c->dist->gather(s, err, errlen))
		return -1;
	return 0;
}

static uint64_t percentile(const struct sim_latency *l, const uint64_t *hist, double q)
{
	uint64_t n = l->packets, want, cum = 0;

	if (!n)
		return 0;
	want = (uint64_t)ceil(q * (double)n);
	if (want < 1)
		want = 1;
	for (uint64_t b = 0; b < SIM_HIST_BINS; b++) {
		cum += hist[b];
		if (cum >= want)
			return b == SIM_HIST_BINS - 1 ? l->max : b;
	}
	return l->max;
}

uint64_t sim_percentile(const struct sim *s, double q)
{
	return percentile(&s->st.all, s->st.hist, q);
}

uint64_t sim_rtt_percentile(const struct sim *s, double q)
{
	return s->st.rtt_hist ? percentile(&s->st.rtt, s->st.rtt_hist, q) : 0;
}
