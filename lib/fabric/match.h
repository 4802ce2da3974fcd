/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * Matching of arriving messages against posted receives, and the queue of
 * unexpected messages (those that arrived before their receive was
 * posted).  Both queues keep arrival and posting order, which with the
 * per-peer ordering of fragments gives MPI's non-overtaking rule.  No
 * card and no libfabric objects: the unit tests drive it directly.
 */
#ifndef LOFI_MATCH_H
#define LOFI_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "list.h"
#include "proto.h"

/* the source of a receive that takes any sender */
#define LOFI_SRC_ANY	UINT64_MAX

/* struct lofi_recv - a posted receive */
struct lofi_recv {
	struct lofi_list link;
	void *context;		/* the application's */
	void *buf;
	size_t len;
	uint64_t tag;
	uint64_t ignore;	/* tag bits that need not match */
	uint64_t src;		/* peer key (lofi_peer_key()) or LOFI_SRC_ANY */
	uint64_t src_addr;	/* the fi_addr_t the application gave */
	uint64_t flags;		/* FI_* flags of the operation */
};

/* struct lofi_unexp - a message that arrived before its receive */
struct lofi_unexp {
	struct lofi_list link;
	uint64_t src;		/* peer key of the sender */
	uint64_t tag;
	uint64_t data;
	uint32_t wire_flags;	/* LOFI_F_TAGGED, LOFI_F_DATA */
	uint64_t total_len;
	uint64_t received;	/* bytes landed so far */
	void *buf;		/* total_len bytes (malloc) */
	int complete;		/* every fragment landed */
	int failed;		/* could not be buffered: delivered truncated */
	struct lofi_recv *recv;	/* the receive that took it while incomplete */
	void *claim_context;	/* FI_PEEK | FI_CLAIM: claimed for this */
	int rdv;		/* a rendezvous: @rts says where the message is */
	struct lofi_rts rts;
	uint32_t node, ctx;	/* the sender */
};

/* struct lofi_matchq - the two queues of one kind (tagged or not) */
struct lofi_matchq {
	struct lofi_list posted;
	struct lofi_list unexp;
};

/* the peer key of (node, context index): what receives match on */
static inline uint64_t lofi_peer_key(uint32_t node, uint32_t ctx)
{
	return (uint64_t)node << 16 | (ctx & 0xffff);
}

void lofi_matchq_init(struct lofi_matchq *q);

/* does a message from @src with @tag satisfy a receive (@want_src, @want_tag, @ignore) */
int lofi_matches(uint64_t want_src, uint64_t want_tag, uint64_t ignore,
		 uint64_t src, uint64_t tag);

/* the first posted receive a message from @src with @tag matches, removed from the queue; NULL if none */
struct lofi_recv *lofi_take_posted(struct lofi_matchq *q, uint64_t src,
				   uint64_t tag);

/*
 * the first unexpected message @r would take (not claimed by FI_CLAIM),
 * still queued; NULL if none
 */
struct lofi_unexp *lofi_find_unexp(struct lofi_matchq *q,
				   const struct lofi_recv *r);

/* the unexpected message claimed with @context (FI_PEEK | FI_CLAIM); NULL if none */
struct lofi_unexp *lofi_find_claimed(struct lofi_matchq *q, void *context);

/* the posted receive with @context, removed from the queue (fi_cancel); NULL if none */
struct lofi_recv *lofi_take_by_context(struct lofi_matchq *q, void *context);

#endif /* LOFI_MATCH_H */
