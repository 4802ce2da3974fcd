// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's memory registration (fi_mr_reg() and its forms) and
 * the domain's RMA context that owns the regions.  A registration pins the
 * buffer and enters it into the card's region table (loom_mr_reg()); its
 * key (fi_mr_key()) is the card's rkey, its descriptor (fi_mr_desc()) lets
 * RMA on this domain read and write the buffer with no copy.  Remote
 * addresses are offsets in the region.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lofi.h"
#include "rmaproto.h"
#include "stubs.h"

#define RMA_SEGMENT	(64u << 10)	/* the RMA context's segment: unused */

int lofi_errno_from_neg(int err)
{
	switch (err) {
	case 0:
		return 0;
	case -EAGAIN:
		return -FI_EAGAIN;
	case -ENOMEM:
		return -FI_ENOMEM;
	case -EFAULT:
		return -FI_EFAULT;
	case -EACCES:
		return -FI_EACCES;
	case -EBUSY:
		return -FI_EBUSY;
	case -ENOSPC:
		return -FI_ENOSPC;
	case -EOPNOTSUPP:
		return -FI_EOPNOTSUPP;
	case -ETIMEDOUT:
		return -FI_ETIMEDOUT;
	case -EINVAL:
	case -ERANGE:
		return -FI_EINVAL;
	default:
		return -FI_EIO;
	}
}

/* the domain's RMA context, created on first use; the lock is held */
struct lofi_rma *lofi_rma_get(struct lofi_domain *d)
{
	struct loom_ctx_attr cattr = { .segment_size = RMA_SEGMENT };
	struct lofi_rma *rma;
	uint32_t i;
	int ret;

	if (d->rma)
		return d->rma;
	rma = calloc(1, sizeof(*rma));
	if (!rma)
		return NULL;
	ret = loom_ctx_create(d->dev, &cattr, &rma->ctx);
	if (ret) {
		LOFI_WARN(FI_LOG_DOMAIN, "cannot create the domain's RMA context: %s\n",
			  loom_strerror(ret));
		free(rma);
		return NULL;
	}
	if (posix_memalign((void **)&rma->bounce, 4096,
			   (size_t)LOFI_BOUNCE_CHUNK * LOFI_BOUNCE_CHUNKS)) {
		loom_ctx_destroy(rma->ctx);
		free(rma);
		return NULL;
	}
	memset(rma->bounce, 0, (size_t)LOFI_BOUNCE_CHUNK * LOFI_BOUNCE_CHUNKS);
	ret = loom_mr_reg(rma->ctx, rma->bounce,
			  (size_t)LOFI_BOUNCE_CHUNK * LOFI_BOUNCE_CHUNKS,
			  LOOM_MR_LOCAL_WRITE, &rma->bounce_mr);
	if (ret) {
		LOFI_WARN(FI_LOG_DOMAIN, "cannot register the RMA bounce buffers (%u KiB): %s\n",
			  LOFI_BOUNCE_CHUNK * LOFI_BOUNCE_CHUNKS / 1024, loom_strerror(ret));
		loom_ctx_destroy(rma->ctx);
		free(rma->bounce);
		free(rma);
		return NULL;
	}
	rma->chunk_free = (uint32_t)((1ull << LOFI_BOUNCE_CHUNKS) - 1);
	lofi_regcache_init(&rma->cache);
	for (i = 0; i < LOFI_RMA_OPS; i++)
		rma->ops[i].next_free = i + 1 < LOFI_RMA_OPS ? i + 1 : LOFI_NONE;
	rma->free_op = 0;
	d->rma = rma;
	return rma;
}

void lofi_rma_close(struct lofi_domain *d)
{
	struct lofi_rma *rma = d->rma;
	uint32_t i;

	if (!rma)
		return;
	lofi_regcache_close(&rma->cache, d->name);
	loom_mr_dereg(rma->bounce_mr);
	for (i = 0; i < LOFI_RMA_OPS; i++)
		if (rma->ops[i].busy && rma->ops[i].tmp)
			loom_mr_dereg(rma->ops[i].tmp);
	/* the card does no more DMA for the context after this */
	loom_ctx_destroy(rma->ctx);
	free(rma->bounce);
	free(rma);
	d->rma = NULL;
}

static int lofi_mr_close(struct fid *fid)
{
	struct lofi_mr *mr = lofi_container_of(fid, struct lofi_mr, mr.fid);
	struct lofi_domain *d = mr->dom;
	int ret;

	pthread_mutex_lock(&d->lock);
	/* returns once the card dropped the region: operations naming it fail */
	ret = loom_mr_dereg(mr->lmr);
	if (ret)
		LOFI_WARN(FI_LOG_MR, "deregistering %zu bytes at %p: %s (the pages stay pinned until the domain closes)\n",
			  mr->len, (void *)mr->addr, loom_strerror(ret));
	d->refs--;
	pthread_mutex_unlock(&d->lock);
	mr->magic = 0;
	free(mr);
	return 0;
}

static struct fi_ops lofi_mr_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = lofi_mr_close,
	.bind = lofi_no_bind,
	.control = lofi_no_control,
	.ops_open = lofi_no_ops_open,
};

static int lofi_mr_regattr(struct fid *fid, const struct fi_mr_attr *attr,
			   uint64_t flags, struct fid_mr **mrp)
{
	struct lofi_domain *d = lofi_container_of(fid, struct lofi_domain, domain.fid);
	struct lofi_rma *rma;
	struct lofi_mr *mr;
	uint32_t access;
	void *addr;
	size_t len;
	int ret;

	if (!attr || !mrp || flags || attr->iov_count != 1 || !attr->mr_iov)
		return -FI_EINVAL;
	addr = attr->mr_iov[0].iov_base;
	len = attr->mr_iov[0].iov_len;
	if (!addr || !len)
		return -FI_EINVAL;
	/* remote addresses are offsets from the region's first byte */
	if (attr->offset) {
		LOFI_WARN(FI_LOG_MR, "fi_mr_reg with offset %llu: remote addresses are offsets from the region's start, give 0\n",
			  (unsigned long long)attr->offset);
		return -FI_EINVAL;
	}
	if (attr->iface != FI_HMEM_SYSTEM)
		return -FI_EOPNOTSUPP;
	mr = calloc(1, sizeof(*mr));
	if (!mr)
		return -FI_ENOMEM;
	access = lofi_mr_access(attr->access);
	pthread_mutex_lock(&d->lock);
	rma = lofi_rma_get(d);
	if (!rma) {
		ret = -FI_ENOMEM;
		goto fail;
	}
	ret = loom_mr_reg(rma->ctx, addr, len, access, &mr->lmr);
	/* read-only memory: a region my reads cannot land in */
	if (ret == -EACCES && !(attr->access & (FI_RECV | FI_READ | FI_REMOTE_WRITE))) {
		access &= ~LOOM_MR_LOCAL_WRITE;
		ret = loom_mr_reg(rma->ctx, addr, len, access, &mr->lmr);
	}
	if (ret) {
		LOFI_WARN(FI_LOG_MR, "registering %zu bytes at %p: %s\n", len, addr,
			  loom_strerror(ret));
		ret = lofi_errno_from_neg(ret);
		goto fail;
	}
	mr->magic = LOFI_MR_MAGIC;
	mr->dom = d;
	mr->addr = addr;
	mr->len = len;
	mr->loom_access = access;
	mr->mr.fid.fclass = FI_CLASS_MR;
	mr->mr.fid.context = attr->context;
	mr->mr.fid.ops = &lofi_mr_fi_ops;
	mr->mr.mem_desc = mr;
	mr->mr.key = loom_mr_rkey(mr->lmr);
	d->refs++;
	pthread_mutex_unlock(&d->lock);
	*mrp = &mr->mr;
	return 0;
fail:
	pthread_mutex_unlock(&d->lock);
	free(mr);
	return ret;
}

static int lofi_mr_regv(struct fid *fid, const struct iovec *iov, size_t count,
			uint64_t access, uint64_t offset, uint64_t requested_key,
			uint64_t flags, struct fid_mr **mr, void *context)
{
	struct fi_mr_attr attr = {
		.mr_iov = iov, .iov_count = count, .access = access,
		.offset = offset, .requested_key = requested_key,
		.context = context, .iface = FI_HMEM_SYSTEM,
	};

	return lofi_mr_regattr(fid, &attr, flags, mr);
}

static int lofi_mr_reg(struct fid *fid, const void *buf, size_t len,
		       uint64_t access, uint64_t offset, uint64_t requested_key,
		       uint64_t flags, struct fid_mr **mr, void *context)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return lofi_mr_regv(fid, &iov, 1, access, offset, requested_key, flags,
			    mr, context);
}

struct fi_ops_mr lofi_mr_ops = {
	.size = sizeof(struct fi_ops_mr),
	.reg = lofi_mr_reg,
	.regv = lofi_mr_regv,
	.regattr = lofi_mr_regattr,
};
