// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* Matching and the unexpected-message queue (match.h). */
#include "match.h"

void lofi_matchq_init(struct lofi_matchq *q)
{
	lofi_list_init(&q->posted);
	lofi_list_init(&q->unexp);
}

int lofi_matches(uint64_t want_src, uint64_t want_tag, uint64_t ignore,
		 uint64_t src, uint64_t tag)
{
	if (want_src != LOFI_SRC_ANY && want_src != src)
		return 0;
	return ((want_tag ^ tag) & ~ignore) == 0;
}

struct lofi_recv *lofi_take_posted(struct lofi_matchq *q, uint64_t src,
				   uint64_t tag)
{
	struct lofi_list *pos;

	lofi_list_for_each(pos, &q->posted) {
		struct lofi_recv *r = lofi_container_of(pos, struct lofi_recv, link);

		if (lofi_matches(r->src, r->tag, r->ignore, src, tag)) {
			lofi_list_del(&r->link);
			return r;
		}
	}
	return NULL;
}

struct lofi_unexp *lofi_find_unexp(struct lofi_matchq *q,
				   const struct lofi_recv *r)
{
	struct lofi_list *pos;

	lofi_list_for_each(pos, &q->unexp) {
		struct lofi_unexp *u = lofi_container_of(pos, struct lofi_unexp, link);

		if (!u->claim_context &&
		    lofi_matches(r->src, r->tag, r->ignore, u->src, u->tag))
			return u;
	}
	return NULL;
}

struct lofi_unexp *lofi_find_claimed(struct lofi_matchq *q, void *context)
{
	struct lofi_list *pos;

	lofi_list_for_each(pos, &q->unexp) {
		struct lofi_unexp *u = lofi_container_of(pos, struct lofi_unexp, link);

		if (u->claim_context && u->claim_context == context)
			return u;
	}
	return NULL;
}

struct lofi_recv *lofi_take_by_context(struct lofi_matchq *q, void *context)
{
	struct lofi_list *pos;

	lofi_list_for_each(pos, &q->posted) {
		struct lofi_recv *r = lofi_container_of(pos, struct lofi_recv, link);

		if (r->context == context) {
			lofi_list_del(&r->link);
			return r;
		}
	}
	return NULL;
}
