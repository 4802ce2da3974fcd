/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the guest-side libfabric test programs: time, data patterns,
 * and one side of a two-domain test (a domain on the card with its AV, CQ,
 * optional FI_WRITE and FI_READ counters, and an enabled endpoint).
 */
#ifndef OFI_UTIL_H
#define OFI_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_endpoint.h>

static inline int64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000ll + t.tv_nsec / 1000000;
}

static inline unsigned char pat(int seed, size_t i)
{
	return (unsigned char)(seed * 29 + i * 7 + (i >> 9));
}

static inline void fill(unsigned char *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = pat(seed, i);
}

/* the first byte of @b that is not pattern @seed, or -1 */
static inline long bad_byte(const unsigned char *b, size_t n, int seed)
{
	for (size_t i = 0; i < n; i++)
		if (b[i] != pat(seed, i))
			return (long)i;
	return -1;
}

struct side {
	struct fid_domain *dom;
	struct fid_av *av;
	struct fid_cq *cq;
	struct fid_cntr *wr, *rd;	/* with counters only */
	struct fid_ep *ep;
	fi_addr_t peer;			/* the other side */
};

/* open @s on @fabric for @info, CQ entries of @format; 0 or a -FI_E* */
static inline int open_side(struct fid_fabric *fabric, struct fi_info *info,
			    struct side *s, enum fi_cq_format format, int counters)
{
	struct fi_av_attr av_attr = { .type = FI_AV_TABLE };
	struct fi_cq_attr cq_attr = { .format = format };
	struct fi_cntr_attr cntr_attr = { .events = FI_CNTR_EVENTS_COMP };
	int ret;

	ret = fi_domain(fabric, info, &s->dom, NULL);
	if (!ret)
		ret = fi_av_open(s->dom, &av_attr, &s->av, NULL);
	if (!ret)
		ret = fi_cq_open(s->dom, &cq_attr, &s->cq, NULL);
	if (!ret && counters)
		ret = fi_cntr_open(s->dom, &cntr_attr, &s->wr, NULL);
	if (!ret && counters)
		ret = fi_cntr_open(s->dom, &cntr_attr, &s->rd, NULL);
	if (!ret)
		ret = fi_endpoint(s->dom, info, &s->ep, NULL);
	if (!ret)
		ret = fi_ep_bind(s->ep, &s->av->fid, 0);
	if (!ret)
		ret = fi_ep_bind(s->ep, &s->cq->fid, FI_TRANSMIT | FI_RECV);
	if (!ret && counters)
		ret = fi_ep_bind(s->ep, &s->wr->fid, FI_WRITE);
	if (!ret && counters)
		ret = fi_ep_bind(s->ep, &s->rd->fid, FI_READ);
	if (!ret)
		ret = fi_enable(s->ep);
	return ret;
}

/* close @s, endpoint first; its domain last */
static inline int close_side(struct side *s)
{
	fi_close(&s->ep->fid);
	if (s->wr)
		fi_close(&s->wr->fid);
	if (s->rd)
		fi_close(&s->rd->fid);
	fi_close(&s->cq->fid);
	fi_close(&s->av->fid);
	return fi_close(&s->dom->fid);
}

/* each side's address in the other's AV; 0 or -1 */
static inline int connect_sides(struct side *a, struct side *b)
{
	char na[64], nb[64];
	size_t la = sizeof(na), lb = sizeof(nb);

	if (fi_getname(&a->ep->fid, na, &la) || fi_getname(&b->ep->fid, nb, &lb))
		return -1;
	if (fi_av_insert(a->av, nb, 1, &a->peer, 0, NULL) != 1 ||
	    fi_av_insert(b->av, na, 1, &b->peer, 0, NULL) != 1)
		return -1;
	return 0;
}

#endif /* OFI_UTIL_H */
