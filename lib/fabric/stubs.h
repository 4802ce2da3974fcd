/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/* The loom provider's answers to what it does not do (stubs.c). */
#ifndef LOFI_STUBS_H
#define LOFI_STUBS_H

#include <rdma/fabric.h>
#include <rdma/fi_cm.h>
#include <rdma/fi_eq.h>
#include <rdma/fi_atomic.h>
#include <rdma/fi_collective.h>
#include <rdma/fi_rma.h>

int lofi_no_bind(struct fid *fid, struct fid *bfid, uint64_t flags);
int lofi_no_control(struct fid *fid, int command, void *arg);
int lofi_no_ops_open(struct fid *fid, const char *name, uint64_t flags,
		     void **ops, void *context);
int lofi_no_passive_ep(struct fid_fabric *fabric, struct fi_info *info,
		       struct fid_pep **pep, void *context);
int lofi_no_wait_open(struct fid_fabric *fabric, struct fi_wait_attr *attr,
		      struct fid_wait **waitset);
ssize_t lofi_no_eq_write(struct fid_eq *eq, uint32_t event, const void *buf,
			 size_t len, uint64_t flags);

extern struct fi_ops_cm lofi_cm_ops;
extern struct fi_ops_rma lofi_no_rma_ops;
extern struct fi_ops_atomic lofi_no_atomic_ops;
extern struct fi_ops_collective lofi_no_collective_ops;

#endif /* LOFI_STUBS_H */
