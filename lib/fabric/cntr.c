// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's counters: completed and failed operations of the
 * endpoints bound to them.  Reading one makes progress on those
 * endpoints, as reading a completion queue does.
 */
#include <stdlib.h>

#include "lofi.h"
#include "stubs.h"

static uint64_t lofi_cntr_read(struct fid_cntr *fc)
{
	struct lofi_cntr *c = lofi_container_of(fc, struct lofi_cntr, cntr);
	uint64_t v;

	pthread_mutex_lock(&c->dom->lock);
	lofi_epset_progress(&c->set);
	v = c->value;
	pthread_mutex_unlock(&c->dom->lock);
	return v;
}

static uint64_t lofi_cntr_readerr(struct fid_cntr *fc)
{
	struct lofi_cntr *c = lofi_container_of(fc, struct lofi_cntr, cntr);
	uint64_t v;

	pthread_mutex_lock(&c->dom->lock);
	lofi_epset_progress(&c->set);
	v = c->err;
	pthread_mutex_unlock(&c->dom->lock);
	return v;
}

static int cntr_update(struct fid_cntr *fc, uint64_t v, int err, int set)
{
	struct lofi_cntr *c = lofi_container_of(fc, struct lofi_cntr, cntr);
	uint64_t *p = err ? &c->err : &c->value;

	pthread_mutex_lock(&c->dom->lock);
	*p = set ? v : *p + v;
	pthread_mutex_unlock(&c->dom->lock);
	return 0;
}

static int lofi_cntr_add(struct fid_cntr *c, uint64_t v)
{
	return cntr_update(c, v, 0, 0);
}

static int lofi_cntr_set(struct fid_cntr *c, uint64_t v)
{
	return cntr_update(c, v, 0, 1);
}

static int lofi_cntr_adderr(struct fid_cntr *c, uint64_t v)
{
	return cntr_update(c, v, 1, 0);
}

static int lofi_cntr_seterr(struct fid_cntr *c, uint64_t v)
{
	return cntr_update(c, v, 1, 1);
}

static int lofi_cntr_wait(struct fid_cntr *fc, uint64_t threshold, int timeout)
{
	struct lofi_cntr *c = lofi_container_of(fc, struct lofi_cntr, cntr);
	int64_t deadline = timeout < 0 ? -1 : lofi_now_ms() + timeout;
	uint64_t err0;
	int ret = 0;

	pthread_mutex_lock(&c->dom->lock);
	err0 = c->err;
	for (;;) {
		int64_t left = deadline < 0 ? 5 : deadline - lofi_now_ms();

		lofi_epset_progress(&c->set);
		if (c->value >= threshold)
			break;
		if (c->err != err0) {
			ret = -FI_EAVAIL;
			break;
		}
		if (left <= 0) {
			ret = -FI_ETIMEDOUT;
			break;
		}
		ret = lofi_epset_wait(&c->set, left < 5 ? (int)left : 5);
		if (ret)
			break;
		pthread_mutex_unlock(&c->dom->lock);
		pthread_mutex_lock(&c->dom->lock);
	}
	pthread_mutex_unlock(&c->dom->lock);
	return ret;
}

static int lofi_cntr_close(struct fid *fid)
{
	struct lofi_cntr *c = lofi_container_of(fid, struct lofi_cntr, cntr.fid);

	if (c->refs)
		return -FI_EBUSY;
	pthread_mutex_lock(&c->dom->lock);
	c->dom->refs--;
	pthread_mutex_unlock(&c->dom->lock);
	free(c);
	return 0;
}

static struct fi_ops lofi_cntr_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = lofi_cntr_close,
	.bind = lofi_no_bind,
	.control = lofi_no_control,
	.ops_open = lofi_no_ops_open,
};

static struct fi_ops_cntr lofi_cntr_ops = {
	.size = sizeof(struct fi_ops_cntr),
	.read = lofi_cntr_read,
	.readerr = lofi_cntr_readerr,
	.add = lofi_cntr_add,
	.set = lofi_cntr_set,
	.wait = lofi_cntr_wait,
	.adderr = lofi_cntr_adderr,
	.seterr = lofi_cntr_seterr,
};

int lofi_cntr_open(struct fid_domain *domain, struct fi_cntr_attr *attr,
		   struct fid_cntr **cp, void *context)
{
	struct lofi_domain *d = lofi_container_of(domain, struct lofi_domain, domain);
	struct lofi_cntr *c;

	if (!attr || !cp || attr->flags)
		return -FI_EINVAL;
	if (attr->events != FI_CNTR_EVENTS_COMP)
		return -FI_EINVAL;
	if (attr->wait_obj != FI_WAIT_NONE && attr->wait_obj != FI_WAIT_UNSPEC)
		return -FI_ENOSYS;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -FI_ENOMEM;
	c->dom = d;
	c->cntr.fid.fclass = FI_CLASS_CNTR;
	c->cntr.fid.context = context;
	c->cntr.fid.ops = &lofi_cntr_fi_ops;
	c->cntr.ops = &lofi_cntr_ops;
	pthread_mutex_lock(&d->lock);
	d->refs++;
	pthread_mutex_unlock(&d->lock);
	*cp = &c->cntr;
	return 0;
}
