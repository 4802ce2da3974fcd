// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's domain: one card (/dev/loomN) and the lock that
 * serialises the objects under it.  Memory registration and the domain's
 * RMA context are mr.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lofi.h"
#include "stubs.h"

static int lofi_domain_close(struct fid *fid)
{
	struct lofi_domain *d = lofi_container_of(fid, struct lofi_domain, domain.fid);

	if (d->refs)
		return -FI_EBUSY;
	lofi_rma_close(d);
	loom_dev_close(d->dev);
	pthread_mutex_destroy(&d->lock);
	free(d);
	return 0;
}

static struct fi_ops lofi_domain_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = lofi_domain_close,
	.bind = lofi_no_bind,
	.control = lofi_no_control,
	.ops_open = lofi_no_ops_open,
};

static int no_scalable_ep(struct fid_domain *domain, struct fi_info *info,
			  struct fid_ep **sep, void *context)
{
	(void)domain; (void)info; (void)sep; (void)context;
	return -FI_ENOSYS;
}

static int no_poll_open(struct fid_domain *domain, struct fi_poll_attr *attr,
			struct fid_poll **pollset)
{
	(void)domain; (void)attr; (void)pollset;
	return -FI_ENOSYS;
}

static int no_stx_ctx(struct fid_domain *domain, struct fi_tx_attr *attr,
		      struct fid_stx **stx, void *context)
{
	(void)domain; (void)attr; (void)stx; (void)context;
	return -FI_ENOSYS;
}

static int no_srx_ctx(struct fid_domain *domain, struct fi_rx_attr *attr,
		      struct fid_ep **rx_ep, void *context)
{
	(void)domain; (void)attr; (void)rx_ep; (void)context;
	return -FI_ENOSYS;
}

static int no_query_collective(struct fid_domain *domain,
			       enum fi_collective_op coll,
			       struct fi_collective_attr *attr, uint64_t flags)
{
	(void)domain; (void)coll; (void)attr; (void)flags;
	return -FI_EOPNOTSUPP;
}

static struct fi_ops_domain lofi_domain_ops = {
	.size = sizeof(struct fi_ops_domain),
	.av_open = lofi_av_open,
	.cq_open = lofi_cq_open,
	.endpoint = lofi_ep_open,
	.scalable_ep = no_scalable_ep,
	.cntr_open = lofi_cntr_open,
	.poll_open = no_poll_open,
	.stx_ctx = no_stx_ctx,
	.srx_ctx = no_srx_ctx,
	.query_atomic = lofi_query_atomic,
	.query_collective = no_query_collective,
};

int lofi_domain_open(struct fid_fabric *fabric, struct fi_info *info,
		     struct fid_domain **domp, void *context)
{
	char path[64];
	struct lofi_domain *d;
	int ret;

	(void)fabric;
	if (!info || !domp || !info->domain_attr || !info->domain_attr->name ||
	    strncmp(info->domain_attr->name, "loom", 4) ||
	    strlen(info->domain_attr->name) > 16)
		return -FI_EINVAL;
	d = calloc(1, sizeof(*d));
	if (!d)
		return -FI_ENOMEM;
	snprintf(path, sizeof(path), "/dev/%s", info->domain_attr->name);
	snprintf(d->name, sizeof(d->name), "%s", info->domain_attr->name);
	ret = loom_dev_open(path, &d->dev);
	if (!ret)
		ret = loom_dev_query(d->dev, &d->attr);
	if (ret) {
		LOFI_WARN(FI_LOG_DOMAIN, "cannot open the card %s: %s\n", path,
			  loom_strerror(ret));
		loom_dev_close(d->dev);
		free(d);
		return ret == -ENOENT ? -FI_ENODEV : ret;
	}
	pthread_mutex_init(&d->lock, NULL);
	d->domain.fid.fclass = FI_CLASS_DOMAIN;
	d->domain.fid.context = context;
	d->domain.fid.ops = &lofi_domain_fi_ops;
	d->domain.ops = &lofi_domain_ops;
	d->domain.mr = &lofi_mr_ops;
	*domp = &d->domain;
	return 0;
}
