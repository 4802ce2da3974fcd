// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * What the loom provider does not do answers -FI_ENOSYS: the function
 * tables of libfabric objects must be complete, and an application that
 * calls fi_write() on an endpoint without FI_RMA gets an error, not a
 * crash.
 */
#include <rdma/fi_atomic.h>
#include <rdma/fi_collective.h>
#include <rdma/fi_rma.h>

#include "lofi.h"
#include "stubs.h"

int lofi_no_bind(struct fid *fid, struct fid *bfid, uint64_t flags)
{
	(void)fid; (void)bfid; (void)flags;
	return -FI_ENOSYS;
}

int lofi_no_control(struct fid *fid, int command, void *arg)
{
	(void)fid; (void)command; (void)arg;
	return -FI_ENOSYS;
}

int lofi_no_ops_open(struct fid *fid, const char *name, uint64_t flags,
		     void **ops, void *context)
{
	(void)fid; (void)name; (void)flags; (void)ops; (void)context;
	return -FI_ENOSYS;
}

int lofi_no_passive_ep(struct fid_fabric *fabric, struct fi_info *info,
		       struct fid_pep **pep, void *context)
{
	(void)fabric; (void)info; (void)pep; (void)context;
	return -FI_ENOSYS;
}

int lofi_no_wait_open(struct fid_fabric *fabric, struct fi_wait_attr *attr,
		      struct fid_wait **waitset)
{
	(void)fabric; (void)attr; (void)waitset;
	return -FI_ENOSYS;
}

ssize_t lofi_no_eq_write(struct fid_eq *eq, uint32_t event, const void *buf,
			 size_t len, uint64_t flags)
{
	(void)eq; (void)event; (void)buf; (void)len; (void)flags;
	return -FI_ENOSYS;
}

/* ---- connection management: RDM endpoints have none -------------------- */

static int no_setname(fid_t fid, void *addr, size_t addrlen)
{
	(void)fid; (void)addr; (void)addrlen;
	return -FI_ENOSYS;
}

static int no_getpeer(struct fid_ep *ep, void *addr, size_t *addrlen)
{
	(void)ep; (void)addr; (void)addrlen;
	return -FI_ENOSYS;
}

static int no_connect(struct fid_ep *ep, const void *addr, const void *param,
		      size_t paramlen)
{
	(void)ep; (void)addr; (void)param; (void)paramlen;
	return -FI_ENOSYS;
}

static int no_listen(struct fid_pep *pep)
{
	(void)pep;
	return -FI_ENOSYS;
}

static int no_accept(struct fid_ep *ep, const void *param, size_t paramlen)
{
	(void)ep; (void)param; (void)paramlen;
	return -FI_ENOSYS;
}

static int no_reject(struct fid_pep *pep, fid_t handle, const void *param,
		     size_t paramlen)
{
	(void)pep; (void)handle; (void)param; (void)paramlen;
	return -FI_ENOSYS;
}

static int no_shutdown(struct fid_ep *ep, uint64_t flags)
{
	(void)ep; (void)flags;
	return -FI_ENOSYS;
}

static int no_join(struct fid_ep *ep, const void *addr, uint64_t flags,
		   struct fid_mc **mc, void *context)
{
	(void)ep; (void)addr; (void)flags; (void)mc; (void)context;
	return -FI_ENOSYS;
}

struct fi_ops_cm lofi_cm_ops = {
	.size = sizeof(struct fi_ops_cm),
	.setname = no_setname,
	.getname = NULL,	/* ep.c fills it */
	.getpeer = no_getpeer,
	.connect = no_connect,
	.listen = no_listen,
	.accept = no_accept,
	.reject = no_reject,
	.shutdown = no_shutdown,
	.join = no_join,
};

/* ---- RMA, atomics, collectives: not provided ----------------------------- */

static ssize_t no_read(struct fid_ep *ep, void *buf, size_t len, void *desc,
		       fi_addr_t src_addr, uint64_t addr, uint64_t key,
		       void *context)
{
	(void)ep; (void)buf; (void)len; (void)desc; (void)src_addr;
	(void)addr; (void)key; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_readv(struct fid_ep *ep, const struct iovec *iov, void **desc,
			size_t count, fi_addr_t src_addr, uint64_t addr,
			uint64_t key, void *context)
{
	(void)ep; (void)iov; (void)desc; (void)count; (void)src_addr;
	(void)addr; (void)key; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_readmsg(struct fid_ep *ep, const struct fi_msg_rma *msg,
			  uint64_t flags)
{
	(void)ep; (void)msg; (void)flags;
	return -FI_ENOSYS;
}

static ssize_t no_write(struct fid_ep *ep, const void *buf, size_t len,
			void *desc, fi_addr_t dest_addr, uint64_t addr,
			uint64_t key, void *context)
{
	(void)ep; (void)buf; (void)len; (void)desc; (void)dest_addr;
	(void)addr; (void)key; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_inject_write(struct fid_ep *ep, const void *buf, size_t len,
			       fi_addr_t dest_addr, uint64_t addr, uint64_t key)
{
	(void)ep; (void)buf; (void)len; (void)dest_addr; (void)addr; (void)key;
	return -FI_ENOSYS;
}

static ssize_t no_writedata(struct fid_ep *ep, const void *buf, size_t len,
			    void *desc, uint64_t data, fi_addr_t dest_addr,
			    uint64_t addr, uint64_t key, void *context)
{
	(void)ep; (void)buf; (void)len; (void)desc; (void)data;
	(void)dest_addr; (void)addr; (void)key; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_injectdata(struct fid_ep *ep, const void *buf, size_t len,
			     uint64_t data, fi_addr_t dest_addr, uint64_t addr,
			     uint64_t key)
{
	(void)ep; (void)buf; (void)len; (void)data; (void)dest_addr;
	(void)addr; (void)key;
	return -FI_ENOSYS;
}

struct fi_ops_rma lofi_no_rma_ops = {
	.size = sizeof(struct fi_ops_rma),
	.read = no_read,
	.readv = no_readv,
	.readmsg = no_readmsg,
	.write = no_write,
	.writev = no_readv,	/* same signature as readv */
	.writemsg = no_readmsg,	/* same signature as readmsg */
	.inject = no_inject_write,
	.writedata = no_writedata,
	.injectdata = no_injectdata,
};

static ssize_t no_atomic_write(struct fid_ep *ep, const void *buf, size_t count,
			       void *desc, fi_addr_t dest_addr, uint64_t addr,
			       uint64_t key, enum fi_datatype datatype,
			       enum fi_op op, void *context)
{
	(void)ep; (void)buf; (void)count; (void)desc; (void)dest_addr;
	(void)addr; (void)key; (void)datatype; (void)op; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_atomic_writev(struct fid_ep *ep, const struct fi_ioc *iov,
				void **desc, size_t count, fi_addr_t dest_addr,
				uint64_t addr, uint64_t key,
				enum fi_datatype datatype, enum fi_op op,
				void *context)
{
	(void)ep; (void)iov; (void)desc; (void)count; (void)dest_addr;
	(void)addr; (void)key; (void)datatype; (void)op; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_atomic_writemsg(struct fid_ep *ep,
				  const struct fi_msg_atomic *msg,
				  uint64_t flags)
{
	(void)ep; (void)msg; (void)flags;
	return -FI_ENOSYS;
}

static ssize_t no_atomic_inject(struct fid_ep *ep, const void *buf,
				size_t count, fi_addr_t dest_addr,
				uint64_t addr, uint64_t key,
				enum fi_datatype datatype, enum fi_op op)
{
	(void)ep; (void)buf; (void)count; (void)dest_addr; (void)addr;
	(void)key; (void)datatype; (void)op;
	return -FI_ENOSYS;
}

static ssize_t no_atomic_readwrite(struct fid_ep *ep, const void *buf,
				   size_t count, void *desc, void *result,
				   void *result_desc, fi_addr_t dest_addr,
				   uint64_t addr, uint64_t key,
				   enum fi_datatype datatype, enum fi_op op,
				   void *context)
{
	(void)ep; (void)buf; (void)count; (void)desc; (void)result;
	(void)result_desc; (void)dest_addr; (void)addr; (void)key;
	(void)datatype; (void)op; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_atomic_readwritev(struct fid_ep *ep,
				    const struct fi_ioc *iov, void **desc,
				    size_t count, struct fi_ioc *resultv,
				    void **result_desc, size_t result_count,
				    fi_addr_t dest_addr, uint64_t addr,
				    uint64_t key, enum fi_datatype datatype,
				    enum fi_op op, void *context)
{
	(void)ep; (void)iov; (void)desc; (void)count; (void)resultv;
	(void)result_desc; (void)result_count; (void)dest_addr; (void)addr;
	(void)key; (void)datatype; (void)op; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_atomic_readwritemsg(struct fid_ep *ep,
				      const struct fi_msg_atomic *msg,
				      struct fi_ioc *resultv,
				      void **result_desc, size_t result_count,
				      uint64_t flags)
{
	(void)ep; (void)msg; (void)resultv; (void)result_desc;
	(void)result_count; (void)flags;
	return -FI_ENOSYS;
}

static ssize_t no_atomic_compwrite(struct fid_ep *ep, const void *buf,
				   size_t count, void *desc,
				   const void *compare, void *compare_desc,
				   void *result, void *result_desc,
				   fi_addr_t dest_addr, uint64_t addr,
				   uint64_t key, enum fi_datatype datatype,
				   enum fi_op op, void *context)
{
	(void)ep; (void)buf; (void)count; (void)desc; (void)compare;
	(void)compare_desc; (void)result; (void)result_desc; (void)dest_addr;
	(void)addr; (void)key; (void)datatype; (void)op; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_atomic_compwritev(struct fid_ep *ep,
				    const struct fi_ioc *iov, void **desc,
				    size_t count, const struct fi_ioc *comparev,
				    void **compare_desc, size_t compare_count,
				    struct fi_ioc *resultv, void **result_desc,
				    size_t result_count, fi_addr_t dest_addr,
				    uint64_t addr, uint64_t key,
				    enum fi_datatype datatype, enum fi_op op,
				    void *context)
{
	(void)ep; (void)iov; (void)desc; (void)count; (void)comparev;
	(void)compare_desc; (void)compare_count; (void)resultv;
	(void)result_desc; (void)result_count; (void)dest_addr; (void)addr;
	(void)key; (void)datatype; (void)op; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_atomic_compwritemsg(struct fid_ep *ep,
				      const struct fi_msg_atomic *msg,
				      const struct fi_ioc *comparev,
				      void **compare_desc, size_t compare_count,
				      struct fi_ioc *resultv,
				      void **result_desc, size_t result_count,
				      uint64_t flags)
{
	(void)ep; (void)msg; (void)comparev; (void)compare_desc;
	(void)compare_count; (void)resultv; (void)result_desc;
	(void)result_count; (void)flags;
	return -FI_ENOSYS;
}

/* no datatype and operation is valid: the answer fi_atomicvalid() gives */
static int no_atomic_valid(struct fid_ep *ep, enum fi_datatype datatype,
			   enum fi_op op, size_t *count)
{
	(void)ep; (void)datatype; (void)op;
	if (count)
		*count = 0;
	return -FI_EOPNOTSUPP;
}

struct fi_ops_atomic lofi_no_atomic_ops = {
	.size = sizeof(struct fi_ops_atomic),
	.write = no_atomic_write,
	.writev = no_atomic_writev,
	.writemsg = no_atomic_writemsg,
	.inject = no_atomic_inject,
	.readwrite = no_atomic_readwrite,
	.readwritev = no_atomic_readwritev,
	.readwritemsg = no_atomic_readwritemsg,
	.compwrite = no_atomic_compwrite,
	.compwritev = no_atomic_compwritev,
	.compwritemsg = no_atomic_compwritemsg,
	.writevalid = no_atomic_valid,
	.readwritevalid = no_atomic_valid,
	.compwritevalid = no_atomic_valid,
};

static ssize_t no_coll_barrier(struct fid_ep *ep, fi_addr_t coll_addr,
			       void *context)
{
	(void)ep; (void)coll_addr; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_coll_barrier2(struct fid_ep *ep, fi_addr_t coll_addr,
				uint64_t flags, void *context)
{
	(void)ep; (void)coll_addr; (void)flags; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_coll_broadcast(struct fid_ep *ep, void *buf, size_t count,
			      void *desc, fi_addr_t coll_addr,
			      fi_addr_t root_addr, enum fi_datatype datatype,
			      uint64_t flags, void *context)
{
	(void)ep; (void)buf; (void)count; (void)desc; (void)coll_addr;
	(void)root_addr; (void)datatype; (void)flags; (void)context;
	return -FI_ENOSYS;
}

/* scatter and gather */
static ssize_t no_coll_rooted(struct fid_ep *ep, const void *buf,
				     size_t count, void *desc, void *result,
				     void *result_desc, fi_addr_t coll_addr,
				     fi_addr_t root_addr,
				     enum fi_datatype datatype, uint64_t flags,
				     void *context)
{
	(void)ep; (void)buf; (void)count; (void)desc; (void)result;
	(void)result_desc; (void)coll_addr; (void)root_addr; (void)datatype;
	(void)flags; (void)context;
	return -FI_ENOSYS;
}

/* alltoall and allgather */
static ssize_t no_coll_all(struct fid_ep *ep, const void *buf, size_t count,
			   void *desc, void *result, void *result_desc,
			   fi_addr_t coll_addr, enum fi_datatype datatype,
			   uint64_t flags, void *context)
{
	(void)ep; (void)buf; (void)count; (void)desc; (void)result;
	(void)result_desc; (void)coll_addr; (void)datatype; (void)flags;
	(void)context;
	return -FI_ENOSYS;
}

/* allreduce and reduce_scatter */
static ssize_t no_coll_reduce_all(struct fid_ep *ep, const void *buf,
				  size_t count, void *desc, void *result,
				  void *result_desc, fi_addr_t coll_addr,
				  enum fi_datatype datatype, enum fi_op op,
				  uint64_t flags, void *context)
{
	(void)ep; (void)buf; (void)count; (void)desc; (void)result;
	(void)result_desc; (void)coll_addr; (void)datatype; (void)op;
	(void)flags; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_coll_reduce(struct fid_ep *ep, const void *buf,
			      size_t count, void *desc, void *result,
			      void *result_desc, fi_addr_t coll_addr,
			      fi_addr_t root_addr, enum fi_datatype datatype,
			      enum fi_op op, uint64_t flags, void *context)
{
	(void)ep; (void)buf; (void)count; (void)desc; (void)result;
	(void)result_desc; (void)coll_addr; (void)root_addr; (void)datatype;
	(void)op; (void)flags; (void)context;
	return -FI_ENOSYS;
}

static ssize_t no_coll_msg(struct fid_ep *ep,
			   const struct fi_msg_collective *msg,
			   struct fi_ioc *resultv, void **result_desc,
			   size_t result_count, uint64_t flags)
{
	(void)ep; (void)msg; (void)resultv; (void)result_desc;
	(void)result_count; (void)flags;
	return -FI_ENOSYS;
}

struct fi_ops_collective lofi_no_collective_ops = {
	.size = sizeof(struct fi_ops_collective),
	.barrier = no_coll_barrier,
	.broadcast = no_coll_broadcast,
	.alltoall = no_coll_all,
	.allreduce = no_coll_reduce_all,
	.allgather = no_coll_all,
	.reduce_scatter = no_coll_reduce_all,
	.reduce = no_coll_reduce,
	.scatter = no_coll_rooted,
	.gather = no_coll_rooted,
	.msg = no_coll_msg,
	.barrier2 = no_coll_barrier2,
};
