// SPDX-License-Identifier: GPL-2.0
/*
 * The host port: packets from the host interface into the router's host
 * input as flits under credits, and flits from the router's host output
 * back into packets for the host interface and the BSUs.
 */
#include "hostport.h"
#include "card.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t hostport_vc[HOSTPORT_LEVELS] = HOSTPORT_LEVEL_VCS;
static const uint8_t hostport_class[HOSTPORT_LEVELS] = HOSTPORT_LEVEL_CLASSES;

static bool q_init(struct hostport_q *q, unsigned int cap)
{
	q->v = calloc(cap, sizeof(*q->v));
	q->cap = cap;
	q->head = q->count = 0;
	return q->v != NULL;
}

static struct hostport_pkt *q_tail(struct hostport_q *q)
{
	unsigned int i = q->head + q->count;

	return &q->v[i >= q->cap ? i - q->cap : i];
}

static void q_pop(struct hostport_q *q)
{
	if (++q->head == q->cap)
		q->head = 0;
	q->count--;
}

/* Level of the queue a packet of @class waits in, -1 for none. */
static int hostport_level(uint8_t class)
{
	for (int l = 0; l < HOSTPORT_LEVELS; l++)
		if (hostport_class[l] == class)
			return l;
	return -1;
}

/* Level of the ejection buffer of @vc, -1 if the router never delivers on it. */
static int hostport_sink_level(unsigned int vc)
{
	for (int l = 0; l < HOSTPORT_LEVELS; l++)
		if (hostport_vc[l] == vc)
			return l;
	return -1;
}

bool hostport_init(struct hostport *hp, unsigned int flit_bytes, unsigned int buf_depth,
		   unsigned int depth)
{
	static const unsigned int cap[HOSTPORT_LEVELS] = {
		HOSTPORT_BAR_Q, HOSTPORT_RESP_Q, HOSTPORT_REQ_Q,
	};
	/* the smallest packet is a header: its flits bound what a buffer holds */
	unsigned int min_flits = (LOOM_PKT_HDR_SIZE + flit_bytes - 1) / flit_bytes;
	bool ok = true;

	memset(hp, 0, sizeof(*hp));
	hp->flit_bytes = flit_bytes;
	hp->depth = depth;
	hp->cur = -1;
	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		hp->credits[v] = buf_depth;
	hp->back.ready = true;
	for (unsigned int l = 0; l < HOSTPORT_LEVELS; l++) {
		ok = q_init(&hp->q[l], cap[l]) && ok;
		ok = q_init(&hp->sink[l].done, depth / min_flits + 1) && ok;
	}
	if (!ok)
		hostport_free(hp);
	return ok;
}

void hostport_free(struct hostport *hp)
{
	for (unsigned int l = 0; l < HOSTPORT_LEVELS; l++) {
		free(hp->q[l].v);
		free(hp->sink[l].done.v);
		hp->q[l].v = NULL;
		hp->sink[l].done.v = NULL;
	}
}

bool hostport_room(const struct hostport *hp, uint8_t class)
{
	int l = hostport_level(class);

	return l >= 0 && hp->q[l].count < hp->q[l].cap;
}

bool hostport_send(struct hostport *hp, const struct loom_pkt_hdr *h, const void *payload)
{
	int l = hostport_level(h->class);
	struct hostport_pkt *p;
	unsigned int len = LOOM_PKT_HDR_SIZE + h->len;

	if (l < 0 || h->len > LOOM_PKT_MAX_PAYLOAD || hp->q[l].count == hp->q[l].cap)
		return false;
	p = q_tail(&hp->q[l]);
	p->len = (uint16_t)len;
	p->vc = hostport_vc[l];
	p->flits = (uint8_t)((len + hp->flit_bytes - 1) / hp->flit_bytes);
	memcpy(p->bytes, h, LOOM_PKT_HDR_SIZE);
	if (h->len)
		memcpy(p->bytes + LOOM_PKT_HDR_SIZE, payload, h->len);
	memset(p->bytes + len, 0, (size_t)p->flits * hp->flit_bytes - len);
	hp->q[l].count++;
	return true;
}

/* Drive the next flit toward the router, if a packet can go. */
static void hostport_source(struct hostport *hp, struct card *c)
{
	struct hostport_pkt *p;
	struct flit *f = &hp->out;

	f->valid = false;
	if (hp->cur < 0) {
		for (int l = 0; l < HOSTPORT_LEVELS; l++) {
			struct hostport_q *q = &hp->q[l];

			if (!q->count)
				continue;
			p = &q->v[q->head];
			if (hp->credits[p->vc] < p->flits)
				continue;	/* virtual cut-through: room for all of it */
			hp->credits[p->vc] -= p->flits;
			hp->cur = l;
			hp->cur_flit = 0;
			break;
		}
		if (hp->cur < 0)
			return;
		p = &hp->q[hp->cur].v[hp->q[hp->cur].head];
		card_trace(c, p->bytes, false);
	}
	p = &hp->q[hp->cur].v[hp->q[hp->cur].head];
	f->valid = true;
	f->head = hp->cur_flit == 0;
	f->tail = hp->cur_flit + 1 == p->flits;
	f->vc = p->vc;
	memcpy(f->data, p->bytes + (size_t)hp->cur_flit * hp->flit_bytes, hp->flit_bytes);
	if (++hp->cur_flit == p->flits) {
		q_pop(&hp->q[hp->cur]);
		/* room for the DMA engines or the BSUs, who may have waited for it */
		if (hp->cur != 1)
			c->hif_wake = true;
		hp->cur = -1;
		hp->injected++;
	}
}

/* Take a flit the router delivered into its VC's ejection buffer. */
static void hostport_take(struct hostport *hp, const struct flit *in)
{
	int l = hostport_sink_level(in->vc);
	struct hostport_sink *s;

	if (l < 0) {
		hp->malformed++;
		hp->back.credits[in->vc & (CHAN_VCS_MAX - 1)]++;
		return;
	}
	s = &hp->sink[l];
	/* a flit is taken only while all of it fits the reassembly buffer */
	if (in->head != !s->open || (s->cur_flits + 1) * hp->flit_bytes > sizeof(s->cur.bytes) ||
	    s->done.count == s->done.cap) {
		/* the router never does this; count it and give the buffer back */
		hp->malformed++;
		hp->back.credits[in->vc]++;
		return;
	}
	memcpy(s->cur.bytes + (size_t)s->cur_flits * hp->flit_bytes, in->data, hp->flit_bytes);
	s->cur_flits++;
	s->open = !in->tail;
	if (s->open)
		return;
	s->cur.flits = (uint8_t)s->cur_flits;
	s->cur.vc = in->vc;
	*q_tail(&s->done) = s->cur;
	s->done.count++;
	s->cur_flits = 0;
}

/* Hand one complete packet to the card: barriers, then responses, then requests. */
static void hostport_deliver(struct hostport *hp, struct card *c)
{
	for (int l = 0; l < HOSTPORT_LEVELS; l++) {
		struct hostport_sink *s = &hp->sink[l];
		struct hostport_pkt *p;
		struct loom_pkt_hdr h;

		if (!s->done.count)
			continue;
		/* a request's answer must find room, or the request waits */
		if (l == 2 && hp->q[1].count == hp->q[1].cap)
			continue;
		p = &s->done.v[s->done.head];
		memcpy(&h, p->bytes, sizeof(h));
		hp->back.credits[p->vc] += p->flits;
		hp->delivered++;
		card_trace(c, p->bytes, true);
		card_host_deliver(c, &h, p->bytes + LOOM_PKT_HDR_SIZE,
				  (unsigned int)p->flits * hp->flit_bytes - LOOM_PKT_HDR_SIZE);
		q_pop(&s->done);
		return;
	}
}

void hostport_step(struct hostport *hp, struct card *c, const struct flit *in,
		   const uint8_t *credits)
{
	memset(hp->back.credits, 0, sizeof(hp->back.credits));
	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		hp->credits[v] += credits[v];
	if (in->valid)
		hostport_take(hp, in);
	hostport_deliver(hp, c);
	hostport_source(hp, c);
}

bool hostport_busy(const struct hostport *hp)
{
	if (hp->cur >= 0 || hp->out.valid)
		return true;
	for (unsigned int v = 0; v < CHAN_VCS_MAX; v++)
		if (hp->back.credits[v])
			return true;
	for (int l = 0; l < HOSTPORT_LEVELS; l++) {
		const struct hostport_q *q = &hp->q[l];

		if (q->count && hp->credits[q->v[q->head].vc] >= q->v[q->head].flits)
			return true;
		if (hp->sink[l].done.count && (l != 2 || hp->q[1].count < hp->q[1].cap))
			return true;
	}
	return false;
}
