/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * The libfabric provider "loom": objects and functions shared by its
 * files.  One lock per domain serialises everything under it (endpoints,
 * completion queues, counters, address vectors): a libloom context is used
 * by one thread at a time, and Open MPI's threads may call in at once.
 */
#ifndef LOFI_H
#define LOFI_H

#include <pthread.h>
#include <stdint.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_errno.h>
#include <rdma/fi_tagged.h>
#include <rdma/providers/fi_log.h>
#include <rdma/providers/fi_prov.h>

#include "loom.h"
#include "match.h"
#include "proto.h"

#define LOFI_PROV_NAME		"loom"
#define LOFI_PROV_VERSION	FI_VERSION(0, 1)
#define LOFI_FI_VERSION		FI_VERSION(1, 17)

#define LOFI_CAPS	(FI_MSG | FI_TAGGED | FI_SEND | FI_RECV | \
			 FI_DIRECTED_RECV | FI_SOURCE | FI_REMOTE_CQ_DATA | \
			 FI_LOCAL_COMM | FI_REMOTE_COMM)
#define LOFI_MAX_MSG	(1ull << 32)	/* bytes of one message */
#define LOFI_QUEUE_SIZE	4096		/* tx_attr/rx_attr size */

extern struct fi_provider lofi_prov;

/* parameters (FI_LOOM_*), read once at load */
struct lofi_params {
	size_t seg_size;
	size_t slot_size;
	size_t slots;
	size_t tx_bufs;
};
extern struct lofi_params lofi_params;

struct lofi_fabric {
	struct fid_fabric fabric;
};

struct lofi_domain {
	struct fid_domain domain;
	pthread_mutex_t lock;
	struct loom_dev *dev;
	struct loom_dev_attr attr;
	int refs;		/* objects open on it */
};

struct lofi_av {
	struct fid_av av;
	struct lofi_domain *dom;
	enum fi_av_type type;
	struct lofi_addr *addrs;	/* index = fi_addr_t */
	uint8_t *used;
	size_t count, cap;
	int refs;
};

/* one completion as the CQ keeps it */
struct lofi_cqe {
	struct fi_cq_tagged_entry e;
	fi_addr_t src;
};

struct lofi_cqerr {
	struct fi_cq_err_entry e;
	fi_addr_t src;
	struct lofi_cqerr *next;
};

struct lofi_ep;

#define LOFI_CQ_MAX_EPS	64

/* the endpoints bound to a CQ or counter: reading it makes progress on them */
struct lofi_epset {
	struct lofi_ep *eps[LOFI_CQ_MAX_EPS];
	int n;
};

struct lofi_cq {
	struct fid_cq cq;
	struct lofi_domain *dom;
	enum fi_cq_format format;
	enum fi_wait_obj wait_obj;
	struct lofi_cqe *ring;
	size_t cap, head, count;
	struct lofi_cqerr *err_head, *err_tail;
	struct lofi_epset set;
	int signaled;		/* fi_cq_signal(): the next sread returns */
	int refs;
};

struct lofi_cntr {
	struct fid_cntr cntr;
	struct lofi_domain *dom;
	uint64_t value, err;
	struct lofi_epset set;
	int refs;
};

struct lofi_eq {
	struct fid_eq eq;
	int refs;
};

struct lofi_mr {
	struct fid_mr mr;
	struct lofi_domain *dom;
};

/* a message being sent */
struct lofi_txop {
	struct lofi_list link;
	void *context;
	const uint8_t *buf;
	void *owned;		/* inject: our copy of the data */
	uint64_t len;
	uint64_t sent;		/* bytes queued to the card so far */
	uint64_t tag, data;
	uint64_t fi_flags;	/* FI_TAGGED or FI_MSG, FI_COMPLETION, ... */
	uint16_t wire_flags;
	int queued_all;		/* every fragment is queued */
	int inflight;		/* fragments without a local completion */
	int err;		/* first failure, a positive FI_E* */
	int card_status;	/* LOOM_STATUS_* of the failure */
};

enum lofi_peer_state { LOFI_PEER_NEW, LOFI_PEER_CONNECTING, LOFI_PEER_READY,
		       LOFI_PEER_FAILED };

/* the sending side towards one peer endpoint */
struct lofi_txpeer {
	struct lofi_addr addr;
	uint64_t key;			/* lofi_peer_key() */
	uint32_t cell;			/* my credit-in cell for it: its index */
	enum lofi_peer_state state;
	int fail_err;			/* FAILED: the FI_E* */
	int fail_status;		/* FAILED: the LOOM_STATUS_* */
	uint32_t region;		/* mine at the peer */
	uint32_t seq;			/* next fragment's sequence number */
	struct lofi_list queue;		/* struct lofi_txop, in order */
	struct lofi_list active;	/* on ep->active_peers when queue holds work */
	int on_active;
};

/* the receiving side of one region of my segment */
struct lofi_rxregion {
	int bound;
	uint64_t key;			/* the sender's peer key */
	uint32_t node, ctx;
	uint32_t credit_cell;		/* in the sender's segment */
	uint32_t expect;		/* next sequence number */
	uint32_t consumed, returned;	/* credits */
	int credit_pending;		/* a return is due but was not queued */
	uint64_t arrived;		/* slot bit mask */
	uint64_t arrived_len[LOFI_MAX_SLOTS];
	/* the message being received */
	int in_message;
	uint64_t remaining;
	struct lofi_recv *recv;		/* matched: lands in recv->buf */
	struct lofi_unexp *unexp;	/* else buffered here */
	uint64_t offset;		/* bytes of the message landed */
	uint64_t total;
	uint64_t tag, data;
	uint32_t wire_flags;
};

struct lofi_txbuf {
	struct lofi_txop *op;		/* NULL: free */
	struct lofi_txpeer *peer;
	uint32_t next_free;
};

struct lofi_ep {
	struct fid_ep ep;
	struct lofi_domain *dom;
	struct loom_ctx *lctx;
	uint8_t *seg;
	struct lofi_layout lay;
	struct lofi_addr self;
	struct lofi_av *av;
	struct lofi_cq *tx_cq, *rx_cq;
	struct lofi_cntr *tx_cntr, *rx_cntr;
	struct lofi_eq *eq;
	uint64_t caps;			/* of the fi_info it was opened with */
	uint64_t tx_flags, rx_flags;	/* default op flags */
	int selective_tx;		/* FI_SELECTIVE_COMPLETION on the tx bind */
	int enabled;
	struct lofi_matchq tagged, untagged;
	struct lofi_txpeer **peers;	/* index = credit-in cell */
	uint32_t n_peers;
	struct lofi_list active_peers;
	struct lofi_rxregion *regions;
	struct lofi_txbuf *txbufs;
	uint32_t free_txbuf;		/* head of the free list, UINT32_MAX: none */
	int ring_full;			/* the card's command ring was full */
	int credits_pending;		/* regions whose credit return waits */
	int protocol_errors;
};

#define LOFI_NONE	UINT32_MAX

/* provider.c */
int lofi_fabric_open(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
		     void *context);
int lofi_eq_open(struct fid_fabric *fabric, struct fi_eq_attr *attr,
		 struct fid_eq **eq, void *context);
int lofi_errno_from_status(int status);

/* domain.c */
int lofi_domain_open(struct fid_fabric *fabric, struct fi_info *info,
		     struct fid_domain **dom, void *context);

/* av.c */
int lofi_av_open(struct fid_domain *domain, struct fi_av_attr *attr,
		 struct fid_av **av, void *context);
int lofi_av_get(struct lofi_av *av, fi_addr_t fi_addr, struct lofi_addr *out);
fi_addr_t lofi_av_reverse(struct lofi_av *av, uint64_t key);

/* cq.c */
int lofi_cq_open(struct fid_domain *domain, struct fi_cq_attr *attr,
		 struct fid_cq **cq, void *context);
int lofi_cq_push(struct lofi_cq *cq, void *context, uint64_t flags, size_t len,
		 void *buf, uint64_t data, uint64_t tag, fi_addr_t src);
int lofi_cq_push_err(struct lofi_cq *cq, void *context, uint64_t flags,
		     size_t len, void *buf, uint64_t data, uint64_t tag,
		     size_t olen, int err, int prov_errno, fi_addr_t src);
int lofi_epset_add(struct lofi_epset *set, int *refs, struct lofi_ep *ep);
void lofi_epset_del(struct lofi_epset *set, int *refs, struct lofi_ep *ep);
void lofi_epset_progress(struct lofi_epset *set);
int lofi_epset_wait(struct lofi_epset *set, int slice_ms);
int64_t lofi_now_ms(void);

/* cntr.c */
int lofi_cntr_open(struct fid_domain *domain, struct fi_cntr_attr *attr,
		   struct fid_cntr **cntr, void *context);

/* ep.c */
int lofi_ep_open(struct fid_domain *domain, struct fi_info *info,
		 struct fid_ep **ep, void *context);

/* xfer.c */
extern struct fi_ops_msg lofi_msg_ops;
extern struct fi_ops_tagged lofi_tagged_ops;
void lofi_txop_finish(struct lofi_ep *ep, struct lofi_txop *op);

/* progress.c */
void lofi_ep_progress(struct lofi_ep *ep);
int lofi_ep_wait(struct lofi_ep *ep, int timeout_ms);
void lofi_ep_push(struct lofi_ep *ep);
void lofi_peer_kick(struct lofi_ep *ep, struct lofi_txpeer *p);
void lofi_recv_complete(struct lofi_ep *ep, struct lofi_recv *r,
			uint64_t src_key, uint64_t tag, uint64_t data,
			uint32_t wire_flags, uint64_t total);
void lofi_recv_from_unexp(struct lofi_ep *ep, struct lofi_recv *r,
			  struct lofi_unexp *u);

#define LOFI_WARN(subsys, ...)	FI_WARN(&lofi_prov, subsys, __VA_ARGS__)
#define LOFI_INFO(subsys, ...)	FI_INFO(&lofi_prov, subsys, __VA_ARGS__)
#define LOFI_DBG(subsys, ...)	FI_DBG(&lofi_prov, subsys, __VA_ARGS__)

#endif /* LOFI_H */
