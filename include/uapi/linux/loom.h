/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * loom kernel ABI (contract 2 of 3): /dev/loomN character device.
 *
 * Every ioctl argument starts with argsz (bytes the caller passes) and
 * flags.  The kernel rejects unknown flags with -EINVAL, argsz smaller
 * than the first version of the structure with -EINVAL, and copies back at
 * most argsz bytes, so the structures can grow at the end.
 * mmap offsets are opaque tokens issued by LOOM_IOC_CTX_CREATE.
 * Never renumber; retire.  Documented in Documentation/abi/chardev.rst.
 */
#ifndef _UAPI_LINUX_LOOM_H
#define _UAPI_LINUX_LOOM_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define LOOM_IOC_MAGIC		0xb7

/**
 * struct loom_dev_info - LOOM_IOC_DEV_INFO
 * @argsz: in: sizeof(struct loom_dev_info)
 * @flags: in: 0
 * @node_id: physical node id of the card
 * @logical_id: logical node id of the card
 * @n_ports: network ports
 * @n_contexts: contexts the card offers
 * @design_version: firmware design version (major << 16 | minor << 8 | patch)
 * @build_id: firmware build id
 * @hw_flags: LOOM_DEV_HW_*
 * @max_payload: largest packet payload in bytes
 */
struct loom_dev_info {
	__u32	argsz;
	__u32	flags;
	__u32	node_id;
	__u32	logical_id;
	__u32	n_ports;
	__u32	n_contexts;
	__u32	design_version;
	__u32	build_id;
	__u32	hw_flags;
	__u32	max_payload;
};

#define LOOM_DEV_HW_EMULATED	(1u << 0)	/* card emulator in the VM lab */

/* LOOM_IOC_CTX_CREATE flags */
#define LOOM_CTX_F_INDEX	(1u << 0)	/* ask for context @index */

/* LOOM_IOC_CTX_CREATE out_flags */
#define LOOM_CTX_OUT_KICK	(1u << 0)	/* after a doorbell write, write
						 * @kick_value at @kick_offset
						 * of the kick mapping
						 */

/**
 * struct loom_ctx_create - LOOM_IOC_CTX_CREATE
 * @argsz: in: sizeof(struct loom_ctx_create)
 * @flags: in: LOOM_CTX_F_*
 * @index: in with LOOM_CTX_F_INDEX, out: context index on the card
 *         (remote nodes address this context by it)
 * @key: in: protection key remote puts must carry
 * @cmdq_entries: in: command ring entries, power of two, 16..32768
 * @cq_entries: in: completion ring entries, power of two, 16..32768
 * @seg_size: in: segment bytes, 4 KiB .. 4 MiB (rounded up to pages)
 * @cmdq_token: out: mmap offset of the command ring (cmdq_entries * 64 bytes)
 * @cq_token: out: mmap offset of the completion ring (cq_entries * 32 bytes)
 * @doorbell_token: out: mmap offset of the doorbell page (4096 bytes)
 * @seg_token: out: mmap offset of the segment (seg_size bytes)
 * @kick_token: out: mmap offset of the kick page (4096 bytes), if
 *              LOOM_CTX_OUT_KICK
 * @kick_offset: out: byte offset of the kick register in that page
 * @kick_value: out: 32-bit value to write there
 * @out_flags: out: LOOM_CTX_OUT_*
 * @node_id: out: logical node id of this card
 * @counters_token: out: mmap offset of the counters page (4096 bytes:
 *                  @n_counters 64-bit counters the card writes back as
 *                  counted puts land; see LOOM_OP_PUT_COUNTED)
 * @bsu_mask: in: barrier/eureka units wanted (bit n = BSU n); each is granted
 *            to one context of the card at a time (-EBUSY otherwise)
 * @n_counters: out: counters in the counters page
 * @bsu_token: out: mmap offset of the granted BSUs' register pages (one
 *             4096-byte page per BSU of the card; only granted ones are
 *             mapped), if @bsu_mask was not 0
 *
 * Fields from @counters_token on were added in ABI 0.2: the kernel takes
 * shorter @argsz (older callers) and returns the prefix they know.
 */
struct loom_ctx_create {
	__u32	argsz;
	__u32	flags;
	__u32	index;
	__u32	key;
	__u32	cmdq_entries;
	__u32	cq_entries;
	__u64	seg_size;
	__u64	cmdq_token;
	__u64	cq_token;
	__u64	doorbell_token;
	__u64	seg_token;
	__u64	kick_token;
	__u32	kick_offset;
	__u32	kick_value;
	__u32	out_flags;
	__u32	node_id;
	__u64	counters_token;
	__u32	bsu_mask;
	__u32	n_counters;
	__u64	bsu_token;
};

/* argsz of the ABI 0.1 struct loom_ctx_create (before counters and BSUs) */
#define LOOM_CTX_CREATE_SIZE_V1	88

/**
 * struct loom_ctx_destroy - LOOM_IOC_CTX_DESTROY
 * @argsz: in: sizeof(struct loom_ctx_destroy)
 * @flags: in: 0
 * @index: in: context index returned by LOOM_IOC_CTX_CREATE on this file
 * @pad: zero
 *
 * Fails with -EBUSY while any of the context's regions is still mapped.
 */
struct loom_ctx_destroy {
	__u32	argsz;
	__u32	flags;
	__u32	index;
	__u32	pad;
};

#define LOOM_IOC_DEV_INFO	_IOWR(LOOM_IOC_MAGIC, 0x00, struct loom_dev_info)
#define LOOM_IOC_CTX_CREATE	_IOWR(LOOM_IOC_MAGIC, 0x01, struct loom_ctx_create)
#define LOOM_IOC_CTX_DESTROY	_IOWR(LOOM_IOC_MAGIC, 0x02, struct loom_ctx_destroy)

/*
 * Conditions on a granted BSU's user page (Documentation/hw/bsu.rst), for
 * LOOM_IOC_BSU_WAIT and LOOM_URING_WAIT_BSU.  The caller passes the value it
 * read before acting (e.g. COMPLETIONS before joining): the kernel compares
 * the register with it, so an event that happened in between is not lost.
 */
#define LOOM_BSU_COND_COMPLETIONS_NE	0	/* COMPLETIONS != value */
#define LOOM_BSU_COND_EUREKAS_NE	1	/* EUREKAS != value */
#define LOOM_BSU_COND_STATE_EQ		2	/* STATE == value */
#define LOOM_BSU_COND_STATE_NE		3	/* STATE != value */

/**
 * struct loom_bsu_wait - LOOM_IOC_BSU_WAIT
 * @argsz: in: sizeof(struct loom_bsu_wait)
 * @flags: in: 0
 * @ctx_index: in: a context of this file holding @unit (LOOM_IOC_CTX_CREATE
 *             bsu_mask)
 * @unit: in: the BSU
 * @cond: in: LOOM_BSU_COND_*
 * @value: in: the value @cond compares with
 * @deadline_ns: in: absolute CLOCK_MONOTONIC time at which to give up with
 *               -ETIME (absolute, so that a wait interrupted by a signal
 *               restarts with the same deadline); 0: test once
 *
 * Sleeps until @cond holds (0), the deadline passes (-ETIME), a signal
 * arrives (-EINTR, or restarted), the context is destroyed meanwhile
 * (-ECANCELED), the card goes away (-EIO).  -EINVAL:
 * not a context of this file, unknown @cond, @flags not 0, no such unit;
 * -EACCES: @unit is not granted to that context.
 */
struct loom_bsu_wait {
	__u32	argsz;
	__u32	flags;
	__u32	ctx_index;
	__u32	unit;
	__u32	cond;
	__u32	value;
	__u64	deadline_ns;
};

#define LOOM_IOC_BSU_WAIT	_IOWR(LOOM_IOC_MAGIC, 0x03, struct loom_bsu_wait)

/* access rights of a memory region (LOOM_IOC_MR_REG access) */
#define LOOM_MR_ACCESS_LOCAL_WRITE	(1u << 0)	/* my GETs land in it */
#define LOOM_MR_ACCESS_REMOTE_READ	(1u << 1)	/* remote GETs read it */
#define LOOM_MR_ACCESS_REMOTE_WRITE	(1u << 2)	/* remote PUTs, counted PUTs */
#define LOOM_MR_ACCESS_REMOTE_ATOMIC	(1u << 3)	/* remote atomics */
#define LOOM_MR_ACCESS_ALL		0xfu

/* largest region: 1 GiB - 4 KiB (the card's two-level page list) */
#define LOOM_MR_MAX_LENGTH		((1ull << 30) - 4096)

/**
 * struct loom_mr_reg - LOOM_IOC_MR_REG: register user memory with the card
 * @argsz: in: sizeof(struct loom_mr_reg)
 * @flags: in: 0
 * @ctx_index: in: the owning context, a context of this file
 * @access: in: LOOM_MR_ACCESS_*; any write right pins the pages writable
 * @addr: in: first byte, any alignment
 * @length: in: bytes, 1..LOOM_MR_MAX_LENGTH
 * @lkey: out: key naming the region in the owner's descriptors
 *        (LOOM_CMD_F_LOCAL_MR)
 * @rkey: out: key remote nodes name it by (LOOM_CMD_F_REMOTE_MR); only
 *        nodes of the context's partition reach it.  Keys carry a random
 *        generation: a key of a deregistered region is refused.
 *
 * The pages are pinned (FOLL_LONGTERM) and charged to the caller's
 * RLIMIT_MEMLOCK and the context user's max_pinned_kb_per_user, as the
 * memory of contexts; anonymous, file-backed (MAP_SHARED or private) and
 * huge-page memory may be registered.  The region lives until
 * LOOM_IOC_MR_DEREG, the destruction of its context, or the close of the
 * file.  -EINVAL: bad flags, access, length, or a context not of this
 * file; -EFAULT: part of the range is not mapped; -EACCES: a write right
 * asked for memory the process cannot write; -ENOMEM: RLIMIT_MEMLOCK
 * (without CAP_IPC_LOCK) or kernel memory; -EDQUOT: the user's
 * max_pinned_kb_per_user; -ENOSPC: the card's table is full or
 * max_pinned_kb; -EOPNOTSUPP: the card has no memory-region table;
 * -ETIMEDOUT, -EIO: the card did not take the region.
 */
struct loom_mr_reg {
	__u32	argsz;
	__u32	flags;
	__u32	ctx_index;
	__u32	access;
	__u64	addr;
	__u64	length;
	__u32	lkey;
	__u32	rkey;
};

/**
 * struct loom_mr_dereg - LOOM_IOC_MR_DEREG: drop a region
 * @argsz: in: sizeof(struct loom_mr_dereg)
 * @flags: in: 0
 * @ctx_index: in: its context
 * @lkey: in: its lkey
 *
 * Waits until the card confirms it dropped the region (it then never
 * touches the pages again: operations still naming it complete with
 * LOOM_CQE_ST_MR_KEY), then unpins the pages.  -EINVAL: no such region
 * of that context of this file; -ETIMEDOUT or -EIO: the card did not
 * confirm: the region can no longer be used, but its pages stay pinned
 * until the context is destroyed and the card confirms that.
 */
struct loom_mr_dereg {
	__u32	argsz;
	__u32	flags;
	__u32	ctx_index;
	__u32	lkey;
};

#define LOOM_IOC_MR_REG		_IOWR(LOOM_IOC_MAGIC, 0x04, struct loom_mr_reg)
#define LOOM_IOC_MR_DEREG	_IOWR(LOOM_IOC_MAGIC, 0x05, struct loom_mr_dereg)

/*
 * io_uring commands (IORING_OP_URING_CMD on an open /dev/loomN, ring
 * created with IORING_SETUP_SQE128; sqe->cmd_op is one of the values
 * below, the payload is at the start of the 80-byte sqe->cmd area and
 * its unused bytes must be zero).  Without SQE128 every command
 * completes with -EINVAL.  See Documentation/abi/chardev.rst.
 */
#define LOOM_URING_WAIT_CQ	0x4c01	/* struct loom_uring_wait */
#define LOOM_URING_CANCEL	0x4c02	/* struct loom_uring_cancel */
#define LOOM_URING_WAIT_BSU	0x4c03	/* struct loom_uring_wait_bsu */
#define LOOM_URING_WAIT_COUNTER	0x4c04	/* struct loom_uring_wait_counter */
#define LOOM_URING_SUBMIT	0x4c05	/* struct loom_uring_submit */
#define LOOM_URING_MR_REG	0x4c06	/* struct loom_uring_mr -> loom_mr_reg */
#define LOOM_URING_MR_DEREG	0x4c07	/* struct loom_uring_mr -> loom_mr_dereg */

/* outstanding waits (WAIT_CQ, WAIT_BSU, WAIT_COUNTER) one open file may have */
#define LOOM_URING_MAX_WAITS	1024
/*
 * longest LOOM_URING_WAIT_CQ timeout: io_uring cannot cancel the command
 * (a process that exits, is killed or calls execve(), and a ring torn
 * down, do not wait for it: the driver ends its waits with -ECANCELED
 * within 100 ms)
 */
#define LOOM_URING_MAX_TIMEOUT_NS	60000000000ull	/* 60 s */

/**
 * struct loom_uring_wait - payload of LOOM_URING_WAIT_CQ
 * @ctx_index: context index (LOOM_IOC_CTX_CREATE) of a context of this file
 * @flags: 0
 * @timeout_ns: complete with -ETIME after this many nanoseconds, at most
 *              LOOM_URING_MAX_TIMEOUT_NS; 0: test once and complete at
 *              once (0 or -ETIME)
 * @user_id: any value; LOOM_URING_CANCEL selects waits by it
 *
 * Completes with res 0 as soon as the entry of the context's completion
 * ring at the consumer index published in its doorbell page (LOOM_DB_CQ_CI)
 * is valid (the test poll() makes), -ETIME on timeout, -ECANCELED when
 * cancelled (LOOM_URING_CANCEL, the context destroyed, the submitting
 * process exiting, killed or calling execve(), or the ring torn down),
 * -EIO when the
 * card goes away, -EINVAL for a context not of this file, bad flags or a
 * timeout above LOOM_URING_MAX_TIMEOUT_NS,
 * -EBUSY beyond LOOM_URING_MAX_WAITS outstanding waits of this file.
 */
struct loom_uring_wait {
	__u32	ctx_index;
	__u32	flags;
	__u64	timeout_ns;
	__u64	user_id;
};

/**
 * struct loom_uring_cancel - payload of LOOM_URING_CANCEL
 * @user_id: cancel the outstanding waits of this file with this user_id
 * @flags: 0
 * @pad: zero
 *
 * Completes with res = number of waits cancelled (each of them completes
 * with -ECANCELED).
 */
struct loom_uring_cancel {
	__u64	user_id;
	__u32	flags;
	__u32	pad;
};

/**
 * struct loom_uring_wait_bsu - payload of LOOM_URING_WAIT_BSU
 * @ctx_index: context index of a context of this file holding @unit
 * @flags: 0
 * @timeout_ns: as struct loom_uring_wait
 * @user_id: as struct loom_uring_wait (LOOM_URING_CANCEL selects by it)
 * @unit: the BSU
 * @cond: LOOM_BSU_COND_*
 * @value: the value @cond compares with
 * @pad: zero
 *
 * Completes with res 0 as soon as @cond holds on @unit's user page (tested
 * at submission and after every BSU event interrupt), -ETIME, -ECANCELED,
 * -EIO and -EBUSY as LOOM_URING_WAIT_CQ; -EINVAL for a context not of this
 * file, an unknown @cond, a unit the card does not have, non-zero
 * @flags/@pad; -EACCES for a unit not granted to that context.
 */
struct loom_uring_wait_bsu {
	__u32	ctx_index;
	__u32	flags;
	__u64	timeout_ns;
	__u64	user_id;
	__u32	unit;
	__u32	cond;
	__u32	value;
	__u32	pad;
};

/**
 * struct loom_uring_wait_counter - payload of LOOM_URING_WAIT_COUNTER
 * @ctx_index: context index of a context of this file
 * @flags: 0
 * @timeout_ns: as struct loom_uring_wait
 * @user_id: as struct loom_uring_wait (LOOM_URING_CANCEL selects by it)
 * @counter: counter id, below loom_ctx_create.n_counters
 * @pad: zero
 * @value: threshold
 *
 * Completes with res 0 as soon as counter @counter of the context's
 * counters page is >= @value, -ETIME, -ECANCELED, -EIO and -EBUSY as
 * LOOM_URING_WAIT_CQ; -EINVAL for a context not of this file, a counter
 * it does not have (or no counters page), non-zero @flags/@pad.
 */
struct loom_uring_wait_counter {
	__u32	ctx_index;
	__u32	flags;
	__u64	timeout_ns;
	__u64	user_id;
	__u32	counter;
	__u32	pad;
	__u64	value;
};

/**
 * struct loom_uring_submit - payload of LOOM_URING_SUBMIT
 * @ctx_index: context index of a context of this file
 * @flags: 0
 * @reserved: zero
 * @desc: one 64-byte command descriptor, laid out as struct loom_cmd of
 *        the card's ring contract (include/loom_hw/ring.h)
 *
 * The kernel checks the descriptor as the card would, copies it into the
 * context's command ring and publishes the ring's producer index in the
 * doorbell page (and, in the lab, kicks the card) once for all the
 * descriptors submitted by one io_uring_enter(), then completes every one
 * of them with res 0: the operation's own completion arrives in the
 * completion ring as usual.  -EINVAL: a context not of this file, non-zero
 * @flags/@reserved, unknown descriptor flags, an unknown opcode, a
 * transfer of 0 bytes or to a node >= 1024, a counted put with a counter
 * > 0xffff or remote_off >= 2^48, an atomic with a length other than 8,
 * an unaligned remote_off or an unknown operation, a COUNTER_WAIT on a
 * counter >= 512; -ERANGE: local_off/length outside the segment;
 * -EOPNOTSUPP: an opcode this card does not execute (BARRIER);
 * -ENOBUFS: the command ring is full (the card has not fetched enough);
 * -ECANCELED: the context was destroyed before the doorbell; -EIO: the
 * card is gone.  Do not mix with stores to the mapped ring on the same
 * context: both would use the same producer index.
 */
struct loom_uring_submit {
	__u32	ctx_index;
	__u32	flags;
	__u64	reserved;
	__u8	desc[64];
};

/**
 * struct loom_uring_mr - payload of LOOM_URING_MR_REG and LOOM_URING_MR_DEREG
 * @arg: user address of a struct loom_mr_reg (MR_REG) or struct
 *       loom_mr_dereg (MR_DEREG), read and (MR_REG) written back as by
 *       the ioctl of the same name
 * @flags: 0
 * @pad: zero
 *
 * Completes with res 0 or the negative errno of the ioctl; the work
 * (pinning, waiting for the card) runs in io_uring's worker, never in the
 * submitting io_uring_enter() when it asked not to block.
 */
struct loom_uring_mr {
	__u64	arg;
	__u32	flags;
	__u32	pad;
};

#endif /* _UAPI_LINUX_LOOM_H */
