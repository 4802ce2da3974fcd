// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* The loom provider's mapping of one-sided operations (rmaproto.h). */
#include <rdma/fi_domain.h>
#include <rdma/fi_errno.h>

#include "loom.h"
#include "rmaproto.h"

int lofi_atomic_map(enum lofi_atomic_kind kind, enum fi_op op,
		    enum fi_datatype dt, uint32_t *loom_op, int *zero_operand)
{
	if (dt != FI_INT64 && dt != FI_UINT64)
		return -FI_EOPNOTSUPP;
	*zero_operand = 0;
	switch (kind) {
	case LOFI_ATOMIC_WRITE:
	case LOFI_ATOMIC_FETCH:
		if (op == FI_SUM) {
			*loom_op = LOOM_ATOMIC_FETCH_ADD;
			return 0;
		}
		if (op == FI_ATOMIC_WRITE) {
			*loom_op = LOOM_ATOMIC_SWAP;
			return 0;
		}
		if (op == FI_ATOMIC_READ && kind == LOFI_ATOMIC_FETCH) {
			*loom_op = LOOM_ATOMIC_FETCH_ADD;
			*zero_operand = 1;
			return 0;
		}
		return -FI_EOPNOTSUPP;
	case LOFI_ATOMIC_COMPARE:
		if (op != FI_CSWAP)
			return -FI_EOPNOTSUPP;
		*loom_op = LOOM_ATOMIC_CSWAP;
		return 0;
	}
	return -FI_EOPNOTSUPP;
}

uint32_t lofi_mr_access(uint64_t fi_access)
{
	uint32_t a = LOOM_MR_LOCAL_WRITE;

	if (!(fi_access & (FI_REMOTE_READ | FI_REMOTE_WRITE | FI_SEND | FI_RECV |
			   FI_READ | FI_WRITE)))
		fi_access = FI_REMOTE_READ | FI_REMOTE_WRITE;
	if (fi_access & FI_REMOTE_READ)
		a |= LOOM_MR_REMOTE_READ;
	if (fi_access & FI_REMOTE_WRITE)
		a |= LOOM_MR_REMOTE_WRITE | LOOM_MR_REMOTE_ATOMIC;
	return a;
}

int lofi_range_inside(const void *base, size_t size, const void *buf,
		      size_t len)
{
	uintptr_t b = (uintptr_t)base, p = (uintptr_t)buf;

	return p >= b && p - b <= size && len <= size - (p - b);
}
