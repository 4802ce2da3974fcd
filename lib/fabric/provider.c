// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's entry point: fi_prov_ini(), fi_getinfo() (one
 * fi_info per card found), the fabric object and the event queue.
 */
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lofi.h"
#include "stubs.h"

struct lofi_params lofi_params = {
	.seg_size = 4u << 20,
	.slot_size = 16u << 10,
	.slots = 8,
	.tx_bufs = 32,
};

static int lofi_getinfo(uint32_t version, const char *node, const char *service,
			uint64_t flags, const struct fi_info *hints,
			struct fi_info **info);
static void lofi_cleanup(void);

struct fi_provider lofi_prov = {
	.name = LOFI_PROV_NAME,
	.version = LOFI_PROV_VERSION,
	.fi_version = LOFI_FI_VERSION,
	.getinfo = lofi_getinfo,
	.fabric = lofi_fabric_open,
	.cleanup = lofi_cleanup,
};

int lofi_errno_from_status(int status)
{
	switch (status) {
	case LOOM_STATUS_OK:
		return 0;
	case LOOM_STATUS_UNREACHABLE:
	case LOOM_STATUS_DISCARDED:
	case LOOM_STATUS_LINK:
		return FI_EHOSTUNREACH;
	case LOOM_STATUS_REMOTE_KEY:
		return FI_EACCES;
	case LOOM_STATUS_REMOTE_BOUNDS:
	case LOOM_STATUS_LOCAL_BOUNDS:
		return FI_EINVAL;
	case LOOM_STATUS_NO_CTX:
		return FI_ENOTCONN;
	case LOOM_STATUS_UNSUPPORTED:
		return FI_EOPNOTSUPP;
	case LOOM_STATUS_BUSY:
		return FI_EAGAIN;
	case LOOM_STATUS_MR_KEY:
		return FI_EKEYREJECTED;
	case LOOM_STATUS_MR_ACCESS:
		return FI_EACCES;
	case LOOM_STATUS_MR_BOUNDS:
		return FI_EINVAL;
	default:
		return FI_EIO;
	}
}

/* ---- fi_getinfo ------------------------------------------------------ */

/* may the application's hints get FI_RMA and FI_ATOMIC (it takes our mr_mode) */
static int rma_allowed(uint32_t version, const struct fi_info *h)
{
	if (!h || !h->domain_attr)
		return 1;
	if (FI_VERSION_LT(version, FI_VERSION(1, 5)))
		return 0;	/* FI_MR_BASIC and FI_MR_SCALABLE are neither */
	return (h->domain_attr->mr_mode & LOFI_RMA_MR_MODE) == LOFI_RMA_MR_MODE;
}

static int hints_fit(uint32_t version, const struct fi_info *h)
{
	if (!h)
		return 1;
	if (h->caps & ~LOFI_CAPS)
		return 0;
	if ((h->caps & (FI_RMA | FI_ATOMIC)) && !rma_allowed(version, h))
		return 0;
	if (h->addr_format != FI_FORMAT_UNSPEC)
		return 0;
	if (h->ep_attr) {
		if (h->ep_attr->type != FI_EP_UNSPEC && h->ep_attr->type != FI_EP_RDM)
			return 0;
		if (h->ep_attr->max_msg_size > LOFI_MAX_MSG)
			return 0;
		if (h->ep_attr->protocol != FI_PROTO_UNSPEC)
			return 0;
	}
	if (h->domain_attr) {
		const struct fi_domain_attr *d = h->domain_attr;

		if (d->control_progress == FI_PROGRESS_AUTO ||
		    d->data_progress == FI_PROGRESS_AUTO)
			return 0;
		if (d->cq_data_size > 8)
			return 0;
		/* old API: the application must accept one of the two modes */
		if (FI_VERSION_LT(version, FI_VERSION(1, 5)) &&
		    d->mr_mode == FI_MR_BASIC)
			return 1;
	}
	if (h->tx_attr) {
		if (h->tx_attr->msg_order & ~(uint64_t)FI_ORDER_SAS)
			return 0;
		if (h->tx_attr->iov_limit > 1 || h->tx_attr->rma_iov_limit > 1)
			return 0;
		if (h->tx_attr->inject_size > lofi_slot_payload(lofi_params.slot_size))
			return 0;
	}
	if (h->rx_attr) {
		if (h->rx_attr->msg_order & ~(uint64_t)FI_ORDER_SAS)
			return 0;
		if (h->rx_attr->iov_limit > 1 || h->rx_attr->total_buffered_recv)
			return 0;
	}
	return 1;
}

static struct fi_info *info_for_card(uint32_t version, const char *devname,
				     const struct loom_dev_attr *attr,
				     const struct fi_info *h)
{
	struct fi_info *fi = fi_allocinfo();
	uint64_t caps = rma_allowed(version, h) ? LOFI_CAPS : LOFI_MSG_CAPS;

	if (!fi)
		return NULL;
	if (h && h->caps) {
		caps = h->caps;
		if ((caps & (FI_RMA | FI_ATOMIC)) &&
		    !(caps & (FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE)))
			caps |= FI_READ | FI_WRITE | FI_REMOTE_READ | FI_REMOTE_WRITE;
		if (!(caps & (FI_SEND | FI_RECV)))
			caps |= FI_SEND | FI_RECV;
		if (!(caps & (FI_LOCAL_COMM | FI_REMOTE_COMM)))
			caps |= FI_LOCAL_COMM | FI_REMOTE_COMM;
		if (!(caps & (FI_MSG | FI_TAGGED)))
			caps |= FI_MSG | FI_TAGGED;
	}
	fi->caps = caps;
	fi->mode = 0;
	fi->addr_format = FI_FORMAT_UNSPEC;

	fi->tx_attr->caps = caps;
	fi->tx_attr->msg_order = FI_ORDER_SAS;
	fi->tx_attr->comp_order = FI_ORDER_NONE;
	fi->tx_attr->inject_size = lofi_slot_payload(lofi_params.slot_size);
	fi->tx_attr->size = LOFI_QUEUE_SIZE;
	fi->tx_attr->iov_limit = 1;
	fi->tx_attr->rma_iov_limit = caps & (FI_RMA | FI_ATOMIC) ? 1 : 0;
	fi->tx_attr->op_flags = h && h->tx_attr ? h->tx_attr->op_flags : 0;

	fi->rx_attr->caps = caps;
	fi->rx_attr->msg_order = FI_ORDER_SAS;
	fi->rx_attr->comp_order = FI_ORDER_NONE;
	fi->rx_attr->size = LOFI_QUEUE_SIZE;
	fi->rx_attr->iov_limit = 1;
	fi->rx_attr->op_flags = h && h->rx_attr ? h->rx_attr->op_flags : 0;

	fi->ep_attr->type = FI_EP_RDM;
	fi->ep_attr->protocol = FI_PROTO_UNSPEC;
	fi->ep_attr->protocol_version = 1;
	fi->ep_attr->max_msg_size = LOFI_MAX_MSG;
	fi->ep_attr->msg_prefix_size = 0;
	fi->ep_attr->max_order_raw_size = 0;
	fi->ep_attr->max_order_war_size = 0;
	fi->ep_attr->max_order_waw_size = 0;
	fi->ep_attr->mem_tag_format = 0xaaaaaaaaaaaaaaaaull;	/* all 64 bits, generic */
	fi->ep_attr->tx_ctx_cnt = 1;
	fi->ep_attr->rx_ctx_cnt = 1;

	fi->domain_attr->name = strdup(devname);
	fi->domain_attr->threading = h && h->domain_attr &&
		h->domain_attr->threading != FI_THREAD_UNSPEC ?
		h->domain_attr->threading : FI_THREAD_SAFE;
	fi->domain_attr->control_progress = FI_PROGRESS_MANUAL;
	fi->domain_attr->data_progress = FI_PROGRESS_MANUAL;
	fi->domain_attr->resource_mgmt = FI_RM_ENABLED;
	fi->domain_attr->av_type = h && h->domain_attr &&
		h->domain_attr->av_type != FI_AV_UNSPEC ?
		h->domain_attr->av_type : FI_AV_TABLE;
	if (FI_VERSION_LT(version, FI_VERSION(1, 5)))
		fi->domain_attr->mr_mode = h && h->domain_attr &&
			h->domain_attr->mr_mode == FI_MR_BASIC ?
			FI_MR_BASIC : FI_MR_SCALABLE;
	else
		fi->domain_attr->mr_mode = caps & (FI_RMA | FI_ATOMIC) ?
					   LOFI_RMA_MR_MODE : 0;
	fi->domain_attr->mr_key_size = 4;	/* the card's rkey */
	fi->domain_attr->cq_data_size = 8;
	fi->domain_attr->cq_cnt = 256;
	fi->domain_attr->ep_cnt = attr->n_contexts;
	fi->domain_attr->tx_ctx_cnt = attr->n_contexts;
	fi->domain_attr->rx_ctx_cnt = attr->n_contexts;
	fi->domain_attr->max_ep_tx_ctx = 1;
	fi->domain_attr->max_ep_rx_ctx = 1;
	fi->domain_attr->cntr_cnt = 256;
	fi->domain_attr->mr_iov_limit = 1;
	fi->domain_attr->mr_cnt = 65536;
	fi->domain_attr->caps = FI_LOCAL_COMM | FI_REMOTE_COMM;
	fi->domain_attr->max_err_data = 0;

	fi->fabric_attr->name = strdup(LOFI_PROV_NAME);
	fi->fabric_attr->prov_version = LOFI_PROV_VERSION;
	fi->fabric_attr->api_version = version;
	if (!fi->domain_attr->name || !fi->fabric_attr->name) {
		fi_freeinfo(fi);
		return NULL;
	}
	return fi;
}

static int lofi_getinfo(uint32_t version, const char *node, const char *service,
			uint64_t flags, const struct fi_info *hints,
			struct fi_info **info)
{
	struct fi_info *head = NULL, **tail = &head;
	const char *want_dom = hints && hints->domain_attr ?
			       hints->domain_attr->name : NULL;
	const char *want_fab = hints && hints->fabric_attr ?
			       hints->fabric_attr->name : NULL;
	glob_t g;
	size_t i;

	(void)service;
	(void)flags;
	(void)node;
	*info = NULL;
	if (!hints_fit(version, hints))
		return -FI_ENODATA;
	if (want_fab && strcmp(want_fab, LOFI_PROV_NAME))
		return -FI_ENODATA;
	if (glob("/dev/loom[0-9]*", 0, NULL, &g))
		return -FI_ENODATA;
	for (i = 0; i < g.gl_pathc; i++) {
		const char *devname = strrchr(g.gl_pathv[i], '/') + 1;
		struct loom_dev_attr attr;
		struct loom_dev *dev;
		struct fi_info *fi;

		if (want_dom && strcmp(want_dom, devname))
			continue;
		if (loom_dev_open(g.gl_pathv[i], &dev))
			continue;
		if (loom_dev_query(dev, &attr)) {
			loom_dev_close(dev);
			continue;
		}
		loom_dev_close(dev);
		fi = info_for_card(version, devname, &attr, hints);
		if (!fi) {
			globfree(&g);
			fi_freeinfo(head);
			return -FI_ENOMEM;
		}
		*tail = fi;
		tail = &fi->next;
	}
	globfree(&g);
	if (!head)
		return -FI_ENODATA;
	*info = head;
	return 0;
}

static void lofi_cleanup(void)
{
}

/* ---- the fabric ------------------------------------------------------ */

static int lofi_fabric_close(struct fid *fid)
{
	free(lofi_container_of(fid, struct lofi_fabric, fabric.fid));
	return 0;
}

static int lofi_trywait(struct fid_fabric *fabric, struct fid **fids, int count)
{
	(void)fabric;
	(void)fids;
	(void)count;
	/* waits look at the card's rings before they sleep: always safe */
	return 0;
}

static struct fi_ops lofi_fabric_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = lofi_fabric_close,
	.bind = lofi_no_bind,
	.control = lofi_no_control,
	.ops_open = lofi_no_ops_open,
};

static struct fi_ops_fabric lofi_fabric_ops = {
	.size = sizeof(struct fi_ops_fabric),
	.domain = lofi_domain_open,
	.passive_ep = lofi_no_passive_ep,
	.eq_open = lofi_eq_open,
	.wait_open = lofi_no_wait_open,
	.trywait = lofi_trywait,
};

int lofi_fabric_open(struct fi_fabric_attr *attr, struct fid_fabric **fabric,
		     void *context)
{
	struct lofi_fabric *f;

	if (!attr || !fabric)
		return -FI_EINVAL;
	if (attr->name && strcmp(attr->name, LOFI_PROV_NAME))
		return -FI_EINVAL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -FI_ENOMEM;
	f->fabric.fid.fclass = FI_CLASS_FABRIC;
	f->fabric.fid.context = context;
	f->fabric.fid.ops = &lofi_fabric_fi_ops;
	f->fabric.ops = &lofi_fabric_ops;
	*fabric = &f->fabric;
	return 0;
}

/* ---- the event queue: RDM endpoints post no events ------------------- */

static int lofi_eq_close(struct fid *fid)
{
	struct lofi_eq *eq = lofi_container_of(fid, struct lofi_eq, eq.fid);

	if (eq->refs)
		return -FI_EBUSY;
	free(eq);
	return 0;
}

static ssize_t lofi_eq_read(struct fid_eq *eq, uint32_t *event, void *buf,
			    size_t len, uint64_t flags)
{
	(void)eq; (void)event; (void)buf; (void)len; (void)flags;
	return -FI_EAGAIN;
}

static ssize_t lofi_eq_readerr(struct fid_eq *eq, struct fi_eq_err_entry *buf,
			       uint64_t flags)
{
	(void)eq; (void)buf; (void)flags;
	return -FI_EAGAIN;
}

static ssize_t lofi_eq_sread(struct fid_eq *eq, uint32_t *event, void *buf,
			     size_t len, int timeout, uint64_t flags)
{
	(void)eq; (void)event; (void)buf; (void)len; (void)flags;
	if (timeout > 0)
		usleep((useconds_t)timeout * 1000);
	return -FI_EAGAIN;
}

static const char *lofi_eq_strerror(struct fid_eq *eq, int prov_errno,
				    const void *err_data, char *buf, size_t len)
{
	(void)eq; (void)err_data;
	if (buf && len) {
		snprintf(buf, len, "%s", loom_strerror(prov_errno));
		return buf;
	}
	return loom_strerror(prov_errno);
}

static struct fi_ops lofi_eq_fi_ops = {
	.size = sizeof(struct fi_ops),
	.close = lofi_eq_close,
	.bind = lofi_no_bind,
	.control = lofi_no_control,
	.ops_open = lofi_no_ops_open,
};

static struct fi_ops_eq lofi_eq_ops = {
	.size = sizeof(struct fi_ops_eq),
	.read = lofi_eq_read,
	.readerr = lofi_eq_readerr,
	.write = lofi_no_eq_write,
	.sread = lofi_eq_sread,
	.strerror = lofi_eq_strerror,
};

int lofi_eq_open(struct fid_fabric *fabric, struct fi_eq_attr *attr,
		 struct fid_eq **eqp, void *context)
{
	struct lofi_eq *eq;

	(void)fabric;
	if (!attr || !eqp)
		return -FI_EINVAL;
	if (attr->wait_obj != FI_WAIT_NONE && attr->wait_obj != FI_WAIT_UNSPEC)
		return -FI_ENOSYS;
	eq = calloc(1, sizeof(*eq));
	if (!eq)
		return -FI_ENOMEM;
	eq->eq.fid.fclass = FI_CLASS_EQ;
	eq->eq.fid.context = context;
	eq->eq.fid.ops = &lofi_eq_fi_ops;
	eq->eq.ops = &lofi_eq_ops;
	*eqp = &eq->eq;
	return 0;
}

static void read_params(void)
{
	size_t v;

	fi_param_define(&lofi_prov, "segment_size", FI_PARAM_SIZE_T,
			"bytes of each endpoint's segment (default 4 MiB, the most a context has)");
	fi_param_define(&lofi_prov, "slot_size", FI_PARAM_SIZE_T,
			"bytes of one receive slot, header included: the eager fragment size (default 16384)");
	fi_param_define(&lofi_prov, "slots", FI_PARAM_SIZE_T,
			"receive slots per sending peer: the credit window (default 8, at most 64)");
	fi_param_define(&lofi_prov, "rdv_threshold", FI_PARAM_SIZE_T,
			"messages of this many bytes or more go by rendezvous: the receiver reads them from the sender's buffer (default 65536; 0: never)");
	fi_param_define(&lofi_prov, "tx_bufs", FI_PARAM_SIZE_T,
			"staging buffers of outgoing fragments per endpoint (default 32)");
	if (!fi_param_get_size_t(&lofi_prov, "segment_size", &v))
		lofi_params.seg_size = v;
	if (!fi_param_get_size_t(&lofi_prov, "slot_size", &v))
		lofi_params.slot_size = v;
	if (!fi_param_get_size_t(&lofi_prov, "slots", &v))
		lofi_params.slots = v;
	if (!fi_param_get_size_t(&lofi_prov, "tx_bufs", &v))
		lofi_params.tx_bufs = v;
	if (!fi_param_get_size_t(&lofi_prov, "rdv_threshold", &v))
		lofi_rdv_threshold = v;
}

FI_EXT_INI
{
	struct lofi_layout lay;

	read_params();
	if (lofi_params.slot_size > UINT32_MAX || lofi_params.slots > UINT32_MAX ||
	    lofi_params.tx_bufs > UINT32_MAX ||
	    lofi_layout_init(&lay, lofi_params.seg_size, (uint32_t)lofi_params.slot_size,
			     (uint32_t)lofi_params.slots, (uint32_t)lofi_params.tx_bufs)) {
		LOFI_WARN(FI_LOG_CORE,
			  "FI_LOOM_SEGMENT_SIZE=%zu, FI_LOOM_SLOT_SIZE=%zu, FI_LOOM_SLOTS=%zu, FI_LOOM_TX_BUFS=%zu leave no receive region (slot size a multiple of 64 from 256, 1..64 slots); using the defaults\n",
			  lofi_params.seg_size, lofi_params.slot_size,
			  lofi_params.slots, lofi_params.tx_bufs);
		lofi_params = (struct lofi_params){ 4u << 20, 16u << 10, 8, 32 };
	}
	return &lofi_prov;
}
