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

#define LOFI_MSG_CAPS	(FI_MSG | FI_TAGGED | FI_SEND | FI_RECV | \
			 FI_DIRECTED_RECV | FI_SOURCE | FI_REMOTE_CQ_DATA | \
			 FI_LOCAL_COMM | FI_REMOTE_COMM)
/* one-sided: they need registered memory (LOFI_RMA_MR_MODE) */
#define LOFI_RMA_CAPS	(FI_RMA | FI_ATOMIC | FI_READ | FI_WRITE | \
			 FI_REMOTE_READ | FI_REMOTE_WRITE)
#define LOFI_CAPS	(LOFI_MSG_CAPS | LOFI_RMA_CAPS)
/*
 * The card names a memory region by the key it gave (FI_MR_PROV_KEY), for
 * memory that is mapped (FI_MR_ALLOCATED), and addresses bytes by their
 * offset in the region (no FI_MR_VIRT_ADDR).
 */
#define LOFI_RMA_MR_MODE	(FI_MR_PROV_KEY | FI_MR_ALLOCATED)
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

#define LOFI_RMA_OPS		256		/* one-sided operations in flight */
#define LOFI_BOUNCE_CHUNK	(64u << 10)	/* bytes of a bounce buffer */
#define LOFI_BOUNCE_CHUNKS	16u

#define LOFI_REGCACHE_ENTRIES	64
#define LOFI_REGCACHE_BYTES	(512ull << 20)

/* one registration of the cache (regcache.c) */
struct lofi_reg {
	struct lofi_reg *next;
	uint64_t base, end;		/* page-aligned range */
	struct loom_mr *lmr;
	uint32_t access;		/* LOOM_MR_* */
	int refs;			/* operations using it */
	int stale;			/* its memory was unmapped */
	int cached;			/* 0: for one operation only */
	uint64_t last_use;
};

struct lofi_regcache {
	pthread_mutex_t lock;		/* the list; taken by the monitor too */
	struct lofi_reg *head;
	int entries;
	uint64_t bytes;
	int state;			/* 0 not started, 1 watching, -1 no cache */
	int uffd;
	int stop[2];
	pthread_t thread;
	uint64_t uses, hits, registrations, invalidated;
};

struct lofi_recv;

/* a one-sided operation the card works on */
struct lofi_rma_op {
	struct lofi_ep *ep;		/* NULL: the endpoint closed meanwhile */
	void *context;
	uint64_t cq_flags;		/* FI_RMA or FI_ATOMIC, FI_READ or FI_WRITE */
	uint64_t op_flags;		/* FI_COMPLETION, FI_REMOTE_CQ_DATA */
	void *copy_to;			/* bounce or fetch: where the bytes go */
	size_t len;
	uint64_t data;			/* FI_REMOTE_CQ_DATA */
	fi_addr_t dest;
	int chunk;			/* bounce buffer, -1: none */
	struct loom_mr *tmp;		/* registered for this operation only */
	/* a rendezvous read into a receive */
	struct lofi_reg *reg;		/* the receive buffer's registration */
	struct lofi_recv *recv;
	uint64_t src_key, tag, total;
	uint32_t wire_flags;
	uint32_t node, ctx;		/* the sender */
	uint64_t fin_off;		/* its FIN cell */
	uint64_t rdv_len;		/* bytes to read */
	uint32_t rkey;
	uint64_t roff;			/* in the sender's region */
	int rdv;
	int unissued;			/* the ring was full: issued by progress */
	uint32_t next_free;
	int busy;
};

/*
 * The domain's RMA context: one libloom context per domain that owns every
 * memory region registered on the domain (so a key names a region of the
 * domain, whichever endpoint uses it) and issues every RMA and atomic.
 * Bounce buffers (one registered block) carry small operations on
 * unregistered memory.
 */
struct lofi_rma {
	struct loom_ctx *ctx;
	uint8_t *bounce;
	struct loom_mr *bounce_mr;
	uint32_t chunk_free;		/* bit mask of free bounce buffers */
	struct lofi_rma_op ops[LOFI_RMA_OPS];
	uint32_t free_op;
	int inflight;			/* at the card or waiting to be issued */
	int unissued;
	struct lofi_regcache cache;
};

struct lofi_domain {
	struct fid_domain domain;
	pthread_mutex_t lock;
	struct loom_dev *dev;
	struct loom_dev_attr attr;
	struct lofi_rma *rma;	/* created by the first registration */
	char name[20];		/* loomN */
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

#define LOFI_MR_MAGIC	0x6c6d7231u	/* "lmr1" */

/* fi_mr_reg(): a region of the domain's RMA context (rma.c) */
struct lofi_mr {
	struct fid_mr mr;
	uint32_t magic;
	struct lofi_domain *dom;
	struct loom_mr *lmr;
	uint8_t *addr;
	size_t len;
	uint32_t loom_access;		/* LOOM_MR_* */
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
	/* rendezvous: the receiver reads the message, then sends a FIN */
	struct lofi_reg *reg;	/* the registration of buf */
	struct lofi_rts rts;	/* what the fragment carries */
	uint32_t cookie;	/* the rendezvous slot, LOFI_NONE: eager */
	int await_fin;
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

/* a rendezvous FIN to put */
struct lofi_fin {
	uint32_t node, ctx;
	uint64_t fin_off;
	int status;
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
	struct lofi_cntr *wr_cntr, *rd_cntr;	/* FI_WRITE, FI_READ */
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
	struct lofi_txop *rdv[LOFI_MAX_RDV];	/* rendezvous sends awaiting FIN */
	struct lofi_txpeer *rdv_peer[LOFI_MAX_RDV];
	struct lofi_fin *fins;		/* FINs waiting for room in the ring */
	uint32_t n_fins, cap_fins;
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
int lofi_send_notice(struct lofi_ep *ep, fi_addr_t dest, uint64_t data,
		     void *context, uint64_t fi_flags);

/* mr.c: memory registration and the domain's RMA context */
extern struct fi_ops_mr lofi_mr_ops;
struct lofi_rma *lofi_rma_get(struct lofi_domain *d);
void lofi_rma_close(struct lofi_domain *d);
int lofi_errno_from_neg(int err);

/* regcache.c */
void lofi_regcache_init(struct lofi_regcache *c);
void lofi_regcache_close(struct lofi_regcache *c, const char *domain);
int lofi_reg_get(struct lofi_rma *rma, struct lofi_regcache *c, const void *buf,
		 size_t len, uint32_t access, struct lofi_reg **out);
void lofi_reg_put(struct lofi_regcache *c, struct lofi_reg *r);

/* rdv.c: the rendezvous of large messages */
extern size_t lofi_rdv_threshold;
int lofi_rdv_prepare(struct lofi_ep *ep, struct lofi_txop *op);
void lofi_rdv_fin(struct lofi_ep *ep, uint32_t cookie, uint32_t node,
		  uint32_t ctx);
void lofi_rdv_read(struct lofi_ep *ep, struct lofi_recv *r, uint64_t src_key,
		   uint32_t node, uint32_t ctx, const struct lofi_rts *rts,
		   uint64_t tag, uint64_t data, uint32_t wire_flags, uint64_t total);
void lofi_rdv_read_done(struct lofi_rma *rma, struct lofi_rma_op *op, int status);
int lofi_rdv_issue(struct lofi_rma *rma, uint32_t idx);
void lofi_txop_release(struct lofi_ep *ep, struct lofi_txop *op);

/* rma.c: RMA and atomics over the domain's RMA context */
extern struct fi_ops_rma lofi_rma_ops;
extern struct fi_ops_atomic lofi_atomic_ops;
int lofi_query_atomic(struct fid_domain *domain, enum fi_datatype datatype,
		      enum fi_op op, struct fi_atomic_attr *attr, uint64_t flags);
void lofi_rma_progress(struct lofi_domain *d);
int lofi_rma_busy(struct lofi_domain *d);
int lofi_rma_wait(struct lofi_domain *d, int timeout_ms);
void lofi_rma_ep_gone(struct lofi_domain *d, struct lofi_ep *ep);
struct lofi_rma_op *lofi_rma_op_get(struct lofi_rma *rma, uint32_t *idx);
void lofi_rma_op_put(struct lofi_rma *rma, uint32_t idx);

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
void lofi_send_fin(struct lofi_ep *ep, uint32_t node, uint32_t ctx,
		   uint64_t fin_off, int status);

#define LOFI_WARN(subsys, ...)	FI_WARN(&lofi_prov, subsys, __VA_ARGS__)
#define LOFI_INFO(subsys, ...)	FI_INFO(&lofi_prov, subsys, __VA_ARGS__)
#define LOFI_DBG(subsys, ...)	FI_DBG(&lofi_prov, subsys, __VA_ARGS__)

#endif /* LOFI_H */
