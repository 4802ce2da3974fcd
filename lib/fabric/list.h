/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/* An intrusive doubly linked list for the loom provider's queues. */
#ifndef LOFI_LIST_H
#define LOFI_LIST_H

#include <stddef.h>

struct lofi_list {
	struct lofi_list *next, *prev;
};

static inline void lofi_list_init(struct lofi_list *h)
{
	h->next = h;
	h->prev = h;
}

static inline int lofi_list_empty(const struct lofi_list *h)
{
	return h->next == h;
}

/* append @e at the tail of @h */
static inline void lofi_list_add_tail(struct lofi_list *h, struct lofi_list *e)
{
	e->prev = h->prev;
	e->next = h;
	h->prev->next = e;
	h->prev = e;
}

static inline void lofi_list_del(struct lofi_list *e)
{
	e->prev->next = e->next;
	e->next->prev = e->prev;
	e->next = e;
	e->prev = e;
}

#define lofi_container_of(p, type, member) \
	((type *)(void *)((char *)(p) - offsetof(type, member)))

#define lofi_list_for_each(pos, h) \
	for ((pos) = (h)->next; (pos) != (h); (pos) = (pos)->next)

#endif /* LOFI_LIST_H */
