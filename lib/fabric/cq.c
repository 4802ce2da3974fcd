// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's completion queues.  Reading one makes progress on
 * every endpoint bound to it (FI_PROGRESS_MANUAL): the card's completions
 * are reaped, arrived fragments matched, credits returned and waiting
 * fragments sent.  Blocking reads sleep on the card in slices of a few
 * milliseconds, so other threads of the domain get the lock meanwhile.
 */
#include <stdlib.h>
#include <string.h>

#include "lofi.h"
#include "stubs.h"

#define LOFI_WAIT_SLICE_MS	5

int lofi_cq_push(struct lofi_cq *cq, void *context, uint64_t flags, size_t len,
		 void *buf, uint64_t data, uint64_t tag, fi_addr_t src)
{
	struct lofi_cqe *e;

	if (cq->count == cq->cap) {
		size_t cap = cq->cap * 2, i;
		struct lofi_cqe *ring = malloc(cap * sizeof(*ring));

		if (!ring) {
			LOFI_WARN(FI_LOG_CQ, "no memory for a completion: lost\n");
			return -FI_ENOMEM;
		}
		for (i = 0; i < cq->count; i++)
			ring[i] = cq->ring[(cq->head + i) % cq->cap];
		free(cq->ring);
		cq->ring = ring;
		cq->head = 0;
		cq->cap = cap;
	}
	e = &cq->ring[(cq->head + cq->count) % cq->cap];
	e->e.op_context = context;
	e->e.flags = flags;
	e->e.len = len;
	e->e.buf = buf;
	e->e.data = data;
	e->e.tag = tag;
	e->src = src;
	cq->count++;
	return 0;
}

int lofi_cq_push_err(struct lofi_cq *cq, void *context, uint64_t flags,
		     size_t len, void *buf, uint64_t data, uint64_t tag,
		     size_t olen, int err, int prov_errno, fi_addr_t src)
{
	struct lofi_cqerr *e = calloc(1, sizeof(*e));

	if (!e) {
		LOFI_WARN(FI_LOG_CQ, "no memory for an error completion: lost\n");
		return -FI_ENOMEM;
	}
	e->e.op_context = context;
	e->e.flags = flags;
	e->e.len = len;
	e->e.buf = buf;
	e->e.data = data;
	e->e.tag = tag;
	e->e.olen = olen;
	e->e.err = err;
	e->e.prov_errno = prov_errno;
	e->src = src;
	if (cq->err_tail)
		cq->err_tail->next = e;
	else
		cq->err_head = e;
	cq->err_tail = e;
	return 0;
}

static void copy_entry(struct lofi_cq *cq, void *out, size_t i,
		       const struct lofi_cqe *e)
{
	switch (cq->format) {
	case FI_CQ_FORMAT_CONTEXT: {
		struct fi_cq_entry *o = (struct fi_cq_entry *)out + i;

		o->op_context = e->e.op_context;
		break;
	}
	case FI_CQ_FORMAT_MSG: {
		struct fi_cq_msg_entry *o = (struct fi_cq_msg_entry *)out + i;

		o->op_context = e->e.op_context;
		o->flags = e->e.flags;
		o->len = e->e.len;
		break;
	}
	case FI_CQ_FORMAT_DATA: {
		struct fi_cq_data_entry *o = (struct fi_cq_data_entry *)out + i;

		o->op_context = e->e.op_context;
		o->flags = e->e.flags;
		o->len = e->e.len;
		o->buf = e->e.buf;
		o->data = e->e.data;
		break;
	}
	default:
		((struct fi_cq_tagged_entry *)out)[i] = e->e;
		break;
	}
}

/* take up to @count entries; the lock is held */
static ssize_t cq_take(struct lofi_cq *cq, void *buf, size_t count,
		       fi_addr_t *src)
{
	size_t n = 0;

	if (cq->err_head)
		return -FI_EAVAIL;
	while (n < count && cq->count) {
		const struct lofi_cqe *e = &cq->ring[cq->head];

		copy_entry(cq, buf, n, e);
		if (src)
			src[n] = e->src;
		cq->head = (cq->head + 1) % cq->cap;
		cq->count--;
		n++;
	}
	return n ? (ssize_t)n : -FI_EAGAIN;
}

static ssize_t lofi_cq_readfrom(struct fid_cq *fcq, void *buf, size_t count,
				fi_addr_t *src)
{
	struct lofi_cq *cq = lofi_container_of(fcq, struct lofi_cq, cq);
	ssize_t n;

	if (!buf && count)
		return -FI_EINVAL;
	pthread_mutex_lock(&cq->dom->lock);
	lofi_epset_progress(&cq->set);
	n = cq_take(cq, buf, count, src);
	pthread_mutex_unlock(&cq->dom->lock);
	return n;
}

static ssize_t lofi_cq_read(struct fid_cq *cq, void *buf, size_t count)
{
	return lofi_cq_readfrom(cq, buf, count, NULL);
}

static ssize_t lofi_cq_sreadfrom(struct fid_cq *fcq, void *buf, size_t count,
				 fi_addr_t *src, const void *cond, int timeout)
{
	struct lofi_cq *cq = lofi_container_of(fcq, struct lofi_cq, cq);
	int64_t deadline = timeout < 0 ? -1 : lofi_now_ms() + timeout;
	ssize_t n;

	(void)cond;
	if ((!buf && count) || cq->wait_obj == FI_WAIT_NONE)
		return -FI_EINVAL;
	pthread_mutex_lock(&cq->dom->lock);
	for (;;) {
		int64_t left = deadline < 0 ? LOFI_WAIT_SLICE_MS : deadline - lofi_now_ms();
		int ret;

		lofi_epset_progress(&cq->set);
		n = cq_take(cq, buf, count, src);
		if (n != -FI_EAGAIN)
			break;
		if (cq->signaled) {
			cq->signaled = 0;
			break;
		}
		if (left <= 0)
			break;
		ret = lofi_epset_wait(&cq->set, left < LOFI_WAIT_SLICE_MS ?
						(int)left : LOFI_WAIT_SLICE_MS);
		if (ret) {
			n = ret;
			break;
		}
		/* let other threads in between slices */
		pthread_mutex_unlock(&cq->dom->lock);
		pthread_mutex_lock(&cq->dom->lock);
	}
	pthread_mutex_unlock(&cq->dom->lock);
	return n;
}

static ssize_t lofi_cq_sread(struct fid_cq *cq, void *buf, size_t count,
			     const void *cond, int timeout)
{
	return lofi_cq_sreadfrom(cq, buf, count, NULL, cond, timeout);
}

static ssize_t lofi_cq_readerr(struct fid_cq *fcq, struct fi_cq_err_entry *buf,
			       uint64_t flags)
{
	struct lofi_cq *cq = lofi_container_of(fcq, struct lofi_cq, cq);
	struct lofi_cqerr *e;

	if (!buf || flags)
		return -FI_EINVAL;
	pthread_mutex_lock(&cq->dom->lock);
	e = cq->err_head;
	if (!e) {
		pthread_mutex_unlock(&cq->dom->lock);
		return -FI_EAGAIN;
	}
	cq->err_head = e->next;
	if (!cq->err_head)
		cq->err_tail = NULL;
	pthread_mutex_unlock(&cq->dom->lock);
	/* the API 1.5+ fields the application gave room for stay untouched */
	buf->op_context = e->e.op_context;
	buf->flags = e->e.flags;
	buf->len = e->e.len;
	buf->buf = e->e.buf;
	buf->data = e->e.data;
	buf->tag = e->e.tag;
	buf->olen = e->e.olen;
	buf->err = e->e.err;
	buf->prov_errno = e->e.prov_errno;
	buf->err_data = NULL;
	buf->err_data_size = 0;
	free(e);
	return 1;
}

static int lofi_cq_signal(struct fid_cq *fcq)
{
	struct lofi_cq *cq = lofi_container_of(fcq, struct lofi_cq, cq);

	pthread_mutex_lock(&cq->dom->lock);
	cq->signaled = 1;
	pthread_mutex_unlock(&cq->dom->lock);
	return 0;
}

static const char *lofi_cq_strerror(struct fid_cq *cq, int prov_errno,
				    const void *err_data, char *buf, size_t len)
{
	(void)cq; (void)err_data;
	if (buf && len) {
		strncpy(buf, loom_strerror(prov_errno), len - 1);
		buf[len - 1] = '\0';
		return buf;
	}
	return loom_strerror(prov_errno);
}

static int lofi_cq_close(struct fid *fid)
{
	struct lofi_cq *cq = lofi_container_of(fid, struct lofi_cq, cq.fid);
	struct lofi_cqerr *e;

	if (cq->refs)
		return -FI_EBUSY;
	while ((e = cq->err_head)) {
		cq->err_head = e->next;
		free(e);
	}
	pthread_mutex_lock(&cq->dom->lock);
	cq->dom->refs--;
	pthread_mutex_unlock(&cq->dom->lock);
	free(cq->ring);
	free(cq);
	return 0;
}

static int lofi_cq_control(struct fid *fid, int command, void *arg)
{
	(void)fid; (void)arg;
	/* no wait object to hand out: sread sleeps on the card itself */
	return command == FI_GETWAIT ? -FI_ENODATA : -FI_ENOSYS;
}

static struct fi_ops lofi_cq_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = lofi_cq_close,
	.bind = lofi_no_bind,
	.control = lofi_cq_control,
	.ops_open = lofi_no_ops_open,
};

static struct fi_ops_cq lofi_cq_ops = {
	.size = sizeof(struct fi_ops_cq),
	.read = lofi_cq_read,
	.readfrom = lofi_cq_readfrom,
	.readerr = lofi_cq_readerr,
	.sread = lofi_cq_sread,
	.sreadfrom = lofi_cq_sreadfrom,
	.signal = lofi_cq_signal,
	.strerror = lofi_cq_strerror,
};

int lofi_cq_open(struct fid_domain *domain, struct fi_cq_attr *attr,
		 struct fid_cq **cqp, void *context)
{
	struct lofi_domain *d = lofi_container_of(domain, struct lofi_domain, domain);
	struct lofi_cq *cq;

	if (!attr || !cqp)
		return -FI_EINVAL;
	switch (attr->format) {
	case FI_CQ_FORMAT_UNSPEC:
	case FI_CQ_FORMAT_CONTEXT:
	case FI_CQ_FORMAT_MSG:
	case FI_CQ_FORMAT_DATA:
	case FI_CQ_FORMAT_TAGGED:
		break;
	default:
		return -FI_EINVAL;
	}
	switch (attr->wait_obj) {
	case FI_WAIT_NONE:
	case FI_WAIT_UNSPEC:
		break;
	case FI_WAIT_FD:
	case FI_WAIT_SET:
	case FI_WAIT_MUTEX_COND:
	case FI_WAIT_YIELD:
	case FI_WAIT_POLLFD:
		return -FI_ENOSYS;
	default:
		return -FI_EINVAL;
	}
	if (attr->flags & ~(uint64_t)FI_AFFINITY)
		return -FI_EINVAL;
	if (attr->wait_cond != FI_CQ_COND_NONE &&
	    attr->wait_cond != FI_CQ_COND_THRESHOLD)
		return -FI_EINVAL;
	cq = calloc(1, sizeof(*cq));
	if (!cq)
		return -FI_ENOMEM;
	cq->dom = d;
	cq->format = attr->format == FI_CQ_FORMAT_UNSPEC ? FI_CQ_FORMAT_TAGGED :
			attr->format;
	cq->wait_obj = attr->wait_obj;
	cq->cap = attr->size ? attr->size : 1024;
	if (cq->cap > (1u << 24))
		cq->cap = 1u << 24;
	cq->ring = calloc(cq->cap, sizeof(*cq->ring));
	if (!cq->ring) {
		free(cq);
		return -FI_ENOMEM;
	}
	cq->cq.fid.fclass = FI_CLASS_CQ;
	cq->cq.fid.context = context;
	cq->cq.fid.ops = &lofi_cq_fi_ops;
	cq->cq.ops = &lofi_cq_ops;
	pthread_mutex_lock(&d->lock);
	d->refs++;
	pthread_mutex_unlock(&d->lock);
	*cqp = &cq->cq;
	return 0;
}
