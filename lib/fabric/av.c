// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's address vectors.  FI_AV_TABLE and FI_AV_MAP keep
 * the same table: fi_addr_t is the index, which a map may use as its
 * opaque value.  An address is a struct lofi_addr (fi_getname()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lofi.h"
#include "stubs.h"

static int lofi_av_close(struct fid *fid)
{
	struct lofi_av *av = lofi_container_of(fid, struct lofi_av, av.fid);

	if (av->refs)
		return -FI_EBUSY;
	pthread_mutex_lock(&av->dom->lock);
	av->dom->refs--;
	pthread_mutex_unlock(&av->dom->lock);
	free(av->addrs);
	free(av->used);
	free(av);
	return 0;
}

static int grow(struct lofi_av *av, size_t need)
{
	size_t cap = av->cap ? av->cap : 16;
	struct lofi_addr *a;
	uint8_t *u;

	while (cap < need)
		cap *= 2;
	if (cap == av->cap)
		return 0;
	a = realloc(av->addrs, cap * sizeof(*a));
	if (!a)
		return -FI_ENOMEM;
	av->addrs = a;
	u = realloc(av->used, cap);
	if (!u)
		return -FI_ENOMEM;
	memset(u + av->cap, 0, cap - av->cap);
	av->used = u;
	av->cap = cap;
	return 0;
}

static int lofi_av_insert(struct fid_av *fav, const void *addr, size_t count,
			  fi_addr_t *fi_addr, uint64_t flags, void *context)
{
	struct lofi_av *av = lofi_container_of(fav, struct lofi_av, av);
	const struct lofi_addr *in = addr;
	size_t i;
	int ret;

	(void)context;
	if ((!addr && count) || (flags & ~(uint64_t)FI_MORE))
		return -FI_EINVAL;
	/* every address is checked before any is inserted */
	for (i = 0; i < count; i++) {
		if (!lofi_addr_valid(&in[i])) {
			LOFI_WARN(FI_LOG_AV,
				  "address %zu of %zu is not a loom endpoint address (magic %#x, context %u): nothing inserted\n",
				  i, count, in[i].magic, in[i].ctx);
			return -FI_EINVAL;
		}
	}
	pthread_mutex_lock(&av->dom->lock);
	ret = grow(av, av->count + count);
	if (ret) {
		pthread_mutex_unlock(&av->dom->lock);
		return ret;
	}
	for (i = 0; i < count; i++) {
		av->addrs[av->count] = in[i];
		av->used[av->count] = 1;
		if (fi_addr)
			fi_addr[i] = av->count;
		av->count++;
	}
	pthread_mutex_unlock(&av->dom->lock);
	return (int)count;
}

static int lofi_av_insertsvc(struct fid_av *av, const char *node,
			     const char *service, fi_addr_t *fi_addr,
			     uint64_t flags, void *context)
{
	(void)av; (void)node; (void)service; (void)fi_addr; (void)flags;
	(void)context;
	return -FI_ENOSYS;
}

static int lofi_av_insertsym(struct fid_av *av, const char *node,
			     size_t nodecnt, const char *service, size_t svccnt,
			     fi_addr_t *fi_addr, uint64_t flags, void *context)
{
	(void)av; (void)node; (void)nodecnt; (void)service; (void)svccnt;
	(void)fi_addr; (void)flags; (void)context;
	return -FI_ENOSYS;
}

static int lofi_av_remove(struct fid_av *fav, fi_addr_t *fi_addr, size_t count,
			  uint64_t flags)
{
	struct lofi_av *av = lofi_container_of(fav, struct lofi_av, av);
	size_t i;

	if ((!fi_addr && count) || flags)
		return -FI_EINVAL;
	pthread_mutex_lock(&av->dom->lock);
	for (i = 0; i < count; i++) {
		if (fi_addr[i] >= av->count || !av->used[fi_addr[i]]) {
			pthread_mutex_unlock(&av->dom->lock);
			return -FI_EINVAL;
		}
	}
	for (i = 0; i < count; i++)
		av->used[fi_addr[i]] = 0;
	pthread_mutex_unlock(&av->dom->lock);
	return 0;
}

static int lofi_av_lookup(struct fid_av *fav, fi_addr_t fi_addr, void *addr,
			  size_t *addrlen)
{
	struct lofi_av *av = lofi_container_of(fav, struct lofi_av, av);
	struct lofi_addr a;
	size_t n;
	int ret;

	if (!addrlen || (!addr && *addrlen))
		return -FI_EINVAL;
	pthread_mutex_lock(&av->dom->lock);
	ret = lofi_av_get(av, fi_addr, &a);
	pthread_mutex_unlock(&av->dom->lock);
	if (ret)
		return ret;
	n = *addrlen < sizeof(a) ? *addrlen : sizeof(a);
	memcpy(addr, &a, n);
	*addrlen = sizeof(a);
	return 0;
}

static const char *lofi_av_straddr(struct fid_av *av, const void *addr,
				   char *buf, size_t *len)
{
	const struct lofi_addr *a = addr;
	int n;

	(void)av;
	if (!addr || !buf || !len)
		return NULL;
	n = snprintf(buf, *len, "loom://%u:%u", a->node, a->ctx);
	*len = (size_t)n + 1;
	return buf;
}

static struct fi_ops lofi_av_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = lofi_av_close,
	.bind = lofi_no_bind,
	.control = lofi_no_control,
	.ops_open = lofi_no_ops_open,
};

static struct fi_ops_av lofi_av_ops = {
	.size = sizeof(struct fi_ops_av),
	.insert = lofi_av_insert,
	.insertsvc = lofi_av_insertsvc,
	.insertsym = lofi_av_insertsym,
	.remove = lofi_av_remove,
	.lookup = lofi_av_lookup,
	.straddr = lofi_av_straddr,
};

/* the address at @fi_addr; the domain lock is held */
int lofi_av_get(struct lofi_av *av, fi_addr_t fi_addr, struct lofi_addr *out)
{
	if (fi_addr >= av->count || !av->used[fi_addr])
		return -FI_EINVAL;
	*out = av->addrs[fi_addr];
	return 0;
}

/* the fi_addr_t of the endpoint with peer key @key; the domain lock is held */
fi_addr_t lofi_av_reverse(struct lofi_av *av, uint64_t key)
{
	size_t i;

	if (!av)
		return FI_ADDR_NOTAVAIL;
	for (i = 0; i < av->count; i++)
		if (av->used[i] &&
		    lofi_peer_key(av->addrs[i].node, av->addrs[i].ctx) == key)
			return i;
	return FI_ADDR_NOTAVAIL;
}

int lofi_av_open(struct fid_domain *domain, struct fi_av_attr *attr,
		 struct fid_av **avp, void *context)
{
	struct lofi_domain *d = lofi_container_of(domain, struct lofi_domain, domain);
	struct lofi_av *av;

	if (!attr || !avp)
		return -FI_EINVAL;
	if (attr->type != FI_AV_UNSPEC && attr->type != FI_AV_MAP &&
	    attr->type != FI_AV_TABLE)
		return -FI_EINVAL;
	if (attr->flags & ~(uint64_t)FI_EVENT)
		return -FI_EINVAL;
	if ((attr->flags & FI_EVENT) || attr->name || attr->rx_ctx_bits)
		return -FI_ENOSYS;
	av = calloc(1, sizeof(*av));
	if (!av)
		return -FI_ENOMEM;
	av->dom = d;
	av->type = attr->type == FI_AV_UNSPEC ? FI_AV_TABLE : attr->type;
	if (grow(av, attr->count && attr->count < (1u << 20) ? attr->count : 16)) {
		free(av->addrs);
		free(av->used);
		free(av);
		return -FI_ENOMEM;
	}
	av->av.fid.fclass = FI_CLASS_AV;
	av->av.fid.context = context;
	av->av.fid.ops = &lofi_av_fi_ops;
	av->av.ops = &lofi_av_ops;
	pthread_mutex_lock(&d->lock);
	d->refs++;
	pthread_mutex_unlock(&d->lock);
	*avp = &av->av;
	return 0;
}
