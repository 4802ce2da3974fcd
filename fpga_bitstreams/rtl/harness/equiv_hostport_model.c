// SPDX-License-Identifier: GPL-2.0
/*
 * The C model's host port on a card of its own, for the host-port harness
 * (equiv_hostport_model.h).
 */
#include "equiv_hostport_model.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "card/card.h"
#include "card/hostport.h"

_Static_assert(HPM_LEVELS == HOSTPORT_LEVELS, "levels");
_Static_assert(HPM_VCS == CHAN_VCS_MAX, "VCs");
_Static_assert(HPM_FLIT_MAX == FLIT_BYTES_MAX, "flit bytes");

const unsigned int hpm_hdr_size = LOOM_PKT_HDR_SIZE;
const unsigned int hpm_payload_max = LOOM_PKT_MAX_PAYLOAD;
const unsigned int hpm_pkt_bytes = sizeof(((struct hostport_pkt *)NULL)->bytes);
const uint8_t hpm_level_vc[HPM_LEVELS] = HOSTPORT_LEVEL_VCS;
const uint8_t hpm_level_class[HPM_LEVELS] = HOSTPORT_LEVEL_CLASSES;
const uint8_t hpm_class_maint = LOOM_CLASS_MAINT;

struct hpm {
	struct card card;		/* first: card_host_deliver() finds the hpm */
	const struct hostport_pkt *dlv;	/* delivered at the last edge */
};

/* The host port's delivery: the packet it handed over (its header is in it). */
void card_host_deliver(struct card *c, const struct loom_pkt_hdr *h, const void *payload,
		       unsigned int avail)
{
	struct hpm *m = (struct hpm *)(void *)c;
	const uint8_t *bytes = (const uint8_t *)payload - LOOM_PKT_HDR_SIZE;

	(void)h;
	(void)avail;
	m->dlv = (const struct hostport_pkt *)(const void *)(bytes -
							      offsetof(struct hostport_pkt, bytes));
}

struct hpm *hpm_new(unsigned int flit_bytes, unsigned int buf_depth, unsigned int depth)
{
	struct hpm *m = calloc(1, sizeof(*m));

	if (!m)
		return NULL;
	if (!hostport_init(&m->card.hp, flit_bytes, buf_depth, depth)) {
		free(m);
		return NULL;
	}
	return m;
}

void hpm_free(struct hpm *m)
{
	if (!m)
		return;
	hostport_free(&m->card.hp);
	free(m);
}

void hpm_step(struct hpm *m, const struct hpm_flit *in, const uint8_t credits[HPM_VCS])
{
	struct flit f = { .valid = in->valid, .head = in->head, .tail = in->tail, .vc = in->vc };

	memcpy(f.data, in->data, sizeof(f.data));
	m->dlv = NULL;
	hostport_step(&m->card.hp, &m->card, &f, credits);
}

bool hpm_send(struct hpm *m, const uint8_t *pkt)
{
	struct loom_pkt_hdr h;

	memcpy(&h, pkt, sizeof(h));
	return hostport_send(&m->card.hp, &h, pkt + LOOM_PKT_HDR_SIZE);
}

void hpm_state(const struct hpm *m, struct hpm_state *s)
{
	const struct hostport *hp = &m->card.hp;

	memset(s, 0, sizeof(*s));
	s->out.valid = hp->out.valid;
	s->out.head = hp->out.head;
	s->out.tail = hp->out.tail;
	s->out.vc = hp->out.vc;
	memcpy(s->out.data, hp->out.data, sizeof(s->out.data));
	memcpy(s->back_credits, hp->back.credits, sizeof(s->back_credits));
	s->ready = hp->back.ready;
	for (unsigned int l = 0; l < HPM_LEVELS; l++) {
		s->credits[l] = hp->credits[hpm_level_vc[l]];
		s->queued[l] = hp->q[l].count;
		s->done[l] = hp->sink[l].done.count;
		s->pop_next[l] = hp->cur == (int)l &&
				 hp->cur_flit + 1 == hp->q[l].v[hp->q[l].head].flits;
	}
	for (unsigned int c = 0; c < 4; c++)
		s->room[c] = hostport_room(hp, (uint8_t)c);
	s->busy = hostport_busy(hp);
	s->malformed = hp->malformed;
	s->injected = hp->injected;
	s->delivered = hp->delivered;
	if (m->dlv) {
		s->dlv = true;
		s->dlv_vc = m->dlv->vc;
		s->dlv_flits = m->dlv->flits;
		s->dlv_bytes = m->dlv->bytes;
	}
}
