/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * What the loom provider's one-sided operations map to on the card: the
 * libfabric atomics the card has, the rights a registration asks for, and
 * which local memory an operation may name.  Pure functions, no card: the
 * unit tests run them without one.
 */
#ifndef LOFI_RMAPROTO_H
#define LOFI_RMAPROTO_H

#include <stddef.h>
#include <stdint.h>

#include <rdma/fi_atomic.h>

/* the three families of libfabric atomics */
enum lofi_atomic_kind {
	LOFI_ATOMIC_WRITE,	/* fi_atomic(): no result */
	LOFI_ATOMIC_FETCH,	/* fi_fetch_atomic() */
	LOFI_ATOMIC_COMPARE,	/* fi_compare_atomic() */
};

/* bytes of the one datatype size the card's atomics work on */
#define LOFI_ATOMIC_SIZE	8u

/*
 * lofi_atomic_map() - the card's operation for a libfabric atomic
 * @kind: which family of call
 * @op: the libfabric operation
 * @dt: the datatype
 * @loom_op: where the LOOM_ATOMIC_* is stored
 * @zero_operand: set to 1 when the card's operand must be 0 (FI_ATOMIC_READ
 *		  is a fetch-and-add of 0)
 * The card has 8-byte fetch-and-add, swap and compare-and-swap, so: FI_SUM
 * and FI_ATOMIC_WRITE with and without fetch, FI_ATOMIC_READ with fetch,
 * FI_CSWAP compared; on FI_INT64 and FI_UINT64.
 * Returns 0, or -FI_EOPNOTSUPP for anything else.
 */
int lofi_atomic_map(enum lofi_atomic_kind kind, enum fi_op op,
		    enum fi_datatype dt, uint32_t *loom_op, int *zero_operand);

/*
 * lofi_mr_access() - LOOM_MR_* rights for libfabric access flags
 * FI_REMOTE_READ gives remote reads; FI_REMOTE_WRITE remote writes and
 * atomics; 0 means every right.  LOOM_MR_LOCAL_WRITE (my reads land in it)
 * is always asked for: the caller drops it for read-only memory.
 */
uint32_t lofi_mr_access(uint64_t fi_access);

/* is [buf, buf + len) inside the region [base, base + size) */
int lofi_range_inside(const void *base, size_t size, const void *buf,
		      size_t len);

/* is @key one the card can have given (rkeys are 32 bits) */
static inline int lofi_rkey_valid(uint64_t key)
{
	return key <= UINT32_MAX;
}

#endif /* LOFI_RMAPROTO_H */
