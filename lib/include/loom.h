/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libloom: remote memory operations over a loom card (contract 3 of 3).
 *
 * Functions return 0 (or a count) on success and a negative errno on
 * failure; loom_strerror() describes both errno values and completion
 * statuses.  A struct loom_ctx is not thread-safe: use one per thread.
 * Documented in Documentation/lib/api.rst.  Symbols are versioned
 * (LOOM_0.1, LOOM_0.2, LOOM_0.3); the ABI only grows.
 */
#ifndef LOOM_H
#define LOOM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LOOM_API_VERSION_MAJOR	0
#define LOOM_API_VERSION_MINOR	3

struct loom_dev;
struct loom_ctx;

/** Card identity, from loom_dev_query(). */
struct loom_dev_attr {
	uint32_t node_id;		/* physical node id */
	uint32_t logical_id;		/* logical node id: address puts by it */
	uint32_t n_ports;
	uint32_t n_contexts;
	uint32_t design_version;	/* major << 16 | minor << 8 | patch */
	uint32_t build_id;
	uint32_t emulated;		/* 1: card emulator (VM lab) */
	uint32_t max_payload;
};

/* Open /dev/loomN (path NULL: $LOOM_DEVICE, else /dev/loom0). */
int loom_dev_open(const char *path, struct loom_dev **devp);
void loom_dev_close(struct loom_dev *dev);
int loom_dev_query(struct loom_dev *dev, struct loom_dev_attr *attr);

/** Context creation parameters; zeroed fields take the defaults. */
struct loom_ctx_attr {
	uint32_t flags;			/* LOOM_CTX_ATTR_* */
	uint32_t index;			/* with LOOM_CTX_ATTR_INDEX */
	uint32_t key;			/* the context's partition: the card
					 * stamps it on every operation, and
					 * accepts only operations of it */
	uint32_t cmdq_entries;		/* default 256 */
	uint32_t cq_entries;		/* default 1024 */
	uint64_t segment_size;		/* default 1 MiB, at most 4 MiB */
};

#define LOOM_CTX_ATTR_INDEX	(1u << 0)	/* ask for a fixed context index */
/*
 * Completion mode io_uring: loom_wait() sleeps on an io_uring command of
 * the device (the context owns a small ring) instead of poll().
 */
#define LOOM_CTX_ATTR_URING	(1u << 1)

int loom_ctx_create(struct loom_dev *dev, const struct loom_ctx_attr *attr,
		    struct loom_ctx **ctxp);
void loom_ctx_destroy(struct loom_ctx *ctx);
uint32_t loom_ctx_index(const struct loom_ctx *ctx);
uint32_t loom_ctx_node(const struct loom_ctx *ctx);
/* The context's registered segment: remote puts land here. */
void *loom_ctx_segment(const struct loom_ctx *ctx, size_t *size);

/** Where a remote operation goes. */
struct loom_remote {
	uint32_t node;			/* logical node id */
	uint32_t ctx;			/* context index on that node */
	uint32_t key;			/* ignored since API 0.3: the card
					 * stamps the issuing context's
					 * partition key */
};

#define LOOM_PUT_REMOTE_EVENT	(1u << 0)	/* target gets an arrival event */

/*
 * Start a put of @len bytes from offset @local_off of my segment to
 * @remote_off of the remote context's segment.  Returns 0 once the
 * command is queued, -EAGAIN if the command ring is full (reap
 * completions first).  Completion reports @tag.
 */
int loom_put(struct loom_ctx *ctx, const struct loom_remote *dst,
	     uint64_t remote_off, uint64_t local_off, uint64_t len,
	     uint32_t flags, uint64_t tag);

/*
 * Queue a command the card completes at once, without touching the
 * network: its round trip (doorbell -> card -> completion) is the floor
 * under every other operation's latency.  Completion reports @tag.
 */
int loom_nop(struct loom_ctx *ctx, uint64_t tag);

/** A completion: a finished operation or an arrival. */
struct loom_completion {
	uint64_t tag;		/* LOCAL, COUNTER: the operation's tag; ARRIVAL: remote_off */
	uint64_t value;		/* bytes moved; atomics: the fetched value;
				 * COUNTER: the counter's value */
	uint32_t node;		/* the other end */
	uint32_t ctx;		/* the other end's context; COUNTER: counter id */
	uint8_t kind;		/* LOOM_COMPLETION_* */
	uint8_t status;		/* 0 or LOOM_STATUS_* */
	uint8_t opcode;
};

#define LOOM_COMPLETION_LOCAL	1
#define LOOM_COMPLETION_ARRIVAL	2
#define LOOM_COMPLETION_COUNTER	3	/* loom_counter_notify() threshold reached */

/* statuses (same values as the card's) */
#define LOOM_STATUS_OK			0
#define LOOM_STATUS_BAD_DESC		1
#define LOOM_STATUS_LOCAL_BOUNDS	2
#define LOOM_STATUS_UNREACHABLE		3
#define LOOM_STATUS_REMOTE_KEY		4	/* protection: the target is in
						 * another partition */
#define LOOM_STATUS_REMOTE_BOUNDS	5
#define LOOM_STATUS_NO_CTX		6
#define LOOM_STATUS_LINK		7
#define LOOM_STATUS_UNSUPPORTED		8
#define LOOM_STATUS_DISCARDED		9	/* a port on the path is disabled or dead */
#define LOOM_STATUS_COUNTER		10	/* no such counter at the target */
#define LOOM_STATUS_BUSY		11	/* too many counter notifications pending */

/* Reap up to @max completions without blocking; returns how many. */
int loom_poll(struct loom_ctx *ctx, struct loom_completion *out, int max);
/*
 * Wait for at least one completion (sleeping on the card's interrupt,
 * through poll() or, with LOOM_CTX_ATTR_URING, io_uring),
 * up to @timeout_ms (-1: forever).  Returns how many were reaped (>= 1),
 * or -ETIMEDOUT, or -EIO if the card went away.
 */
int loom_wait(struct loom_ctx *ctx, struct loom_completion *out, int max,
	      int timeout_ms);
/* File descriptor to use with poll()/epoll for this context's device. */
int loom_ctx_fd(const struct loom_ctx *ctx);

/* Text for a negative errno (err < 0) or a LOOM_STATUS_* (err > 0). */
const char *loom_strerror(int err);

/* ---- LOOM_0.2: get, counted puts, atomics, counters, fence, quiet ---- */

/*
 * Tags from LOOM_TAG_RESERVED up are the library's own (loom_quiet(),
 * loom_counter_wait()); do not use them for operations.
 */
#define LOOM_TAG_RESERVED	0xffff000000000000ull

/*
 * Start a get of @len bytes from @remote_off of the remote context's
 * segment to @local_off of mine; @flags must be 0.  The LOCAL completion
 * (value = bytes read) comes when every byte has landed in my segment.
 */
int loom_get(struct loom_ctx *ctx, const struct loom_remote *src,
	     uint64_t remote_off, uint64_t local_off, uint64_t len,
	     uint32_t flags, uint64_t tag);

/* counter ids a counted put can name (the target has loom_ctx_counters()) */
#define LOOM_COUNTERS_MAX	0x10000u
/* remote offsets of counted puts are below this */
#define LOOM_COUNTED_OFF_LIMIT	(1ull << 48)

/*
 * A put that also adds the bytes it lands to counter @counter of the
 * remote context (see loom_counter_read()).  Arguments as loom_put().
 */
int loom_put_counted(struct loom_ctx *ctx, const struct loom_remote *dst,
		     uint64_t remote_off, uint64_t local_off, uint64_t len,
		     uint32_t counter, uint32_t flags, uint64_t tag);

#define LOOM_ATOMIC_FETCH_ADD	1	/* word += operand */
#define LOOM_ATOMIC_SWAP	2	/* word = operand */
#define LOOM_ATOMIC_CSWAP	3	/* if (word == compare) word = operand */

/*
 * Start an 8-byte atomic @op on the word at @remote_off (8-aligned) of the
 * remote context's segment.  Its LOOM_COMPLETION_LOCAL carries the word's
 * value before the operation in .value (CSWAP swapped iff it == @compare).
 */
int loom_atomic(struct loom_ctx *ctx, const struct loom_remote *dst,
		uint64_t remote_off, uint32_t op, uint64_t operand,
		uint64_t compare, uint64_t tag);

/* The next operation posted starts only after every earlier one completed. */
int loom_fence(struct loom_ctx *ctx);
/*
 * Wait until every operation posted so far has completed (their
 * completions are kept for loom_poll()/loom_wait()), up to @timeout_ms
 * (-1: forever).  0, -ETIMEDOUT, -EIO, -ENOMEM.
 */
int loom_quiet(struct loom_ctx *ctx, int timeout_ms);

/* Counters in this context's counters page (0: the kernel has none). */
uint32_t loom_ctx_counters(const struct loom_ctx *ctx);
/* Current value of my counter @id. */
int loom_counter_read(const struct loom_ctx *ctx, uint32_t id, uint64_t *value);
/*
 * Wait until my counter @id is >= @value, up to @timeout_ms (-1: forever),
 * sleeping on the device; completions reaped meanwhile are kept for
 * loom_poll().  0, -ETIMEDOUT, -EINVAL, -EOPNOTSUPP, -EIO.
 */
int loom_counter_wait(struct loom_ctx *ctx, uint32_t id, uint64_t value,
		      int timeout_ms);
/*
 * Ask for one LOOM_COMPLETION_COUNTER (tag @tag) when my counter @id is
 * >= @threshold (at once if it already is).
 */
int loom_counter_notify(struct loom_ctx *ctx, uint32_t id, uint64_t threshold,
			uint64_t tag);

/* ---- barrier/eureka units (BSUs), API 0.2 ---------------------------- */
/*
 * A BSU is one of the card's 32 hardware barrier/eureka units; the same
 * unit number on every card of a fabric forms one barrier network, whose
 * spanning tree the administrator configures ("loomctl bsu set").  A
 * process claims a unit with loom_bsu_open() (one process per unit and
 * card: -EBUSY otherwise; the handle holds a small context of its own).
 * Barrier: every participant calls loom_barrier() (or loom_barrier_join()
 * then loom_barrier_test()/loom_barrier_wait()); it returns once all have
 * joined.  Eureka: one participant calls loom_eureka_signal(); every other
 * one sees loom_eureka_test() become 1 (state LOOM_BSU_STATE_EUR), then all
 * join the barrier that follows (the signaller too, or at once with
 * LOOM_EUREKA_JOIN), which makes the unit ready for the next eureka.
 * Timeouts in milliseconds, -1 waits forever.  Documented in
 * Documentation/lib/api.rst.
 */
struct loom_bsu;

#define LOOM_BSU_STATE_BAR	1	/* ready */
#define LOOM_BSU_STATE_ARM	2	/* joined, barrier not complete yet */
#define LOOM_BSU_STATE_EUR	3	/* a eureka happened; join the barrier */

#define LOOM_EUREKA_JOIN	(1u << 0)	/* signal and join the barrier */

int loom_bsu_open(struct loom_dev *dev, unsigned int unit, struct loom_bsu **bsup);
void loom_bsu_close(struct loom_bsu *bsu);
unsigned int loom_bsu_unit(const struct loom_bsu *bsu);
/* LOOM_BSU_STATE_*, or -EIO when the card reads back garbage */
int loom_bsu_state(const struct loom_bsu *bsu);
/* 0, -EALREADY when already joined, -ETIMEDOUT when the card is stuck */
int loom_barrier_join(struct loom_bsu *bsu);
/*
 * 1 when the barrier joined last has completed, 0 not yet, -EINVAL none,
 * -EACCES when it ended refused: a card of the unit's tree holds the unit
 * in another partition (loom_bsu_open_key()); loom_barrier_wait() and
 * loom_barrier() return -EACCES then too
 */
int loom_barrier_test(struct loom_bsu *bsu);
int loom_barrier_wait(struct loom_bsu *bsu, int timeout_ms);
/* join, then wait */
int loom_barrier(struct loom_bsu *bsu, int timeout_ms);
/* flags: 0 or LOOM_EUREKA_JOIN; -EALREADY when already joined */
int loom_eureka_signal(struct loom_bsu *bsu, unsigned int flags);
/* 1 when the unit is in LOOM_BSU_STATE_EUR */
int loom_eureka_test(struct loom_bsu *bsu);
int loom_eureka_wait(struct loom_bsu *bsu, int timeout_ms);

/* ---- how BSU waits wait (API 0.2) ------------------------------------- */
#define LOOM_BSU_MODE_POLL	0	/* read the unit's page (default) */
#define LOOM_BSU_MODE_INTERRUPT	1	/* sleep in the kernel until the card's
					 * BSU interrupt */
#define LOOM_BSU_MODE_URING	2	/* sleep on an io_uring command */
/*
 * Choose how loom_barrier_wait() and loom_eureka_wait() (and
 * loom_barrier()) wait.  0; -EINVAL; -EOPNOTSUPP when the kernel has no
 * such wait; -ENOMEM or an io_uring_queue_init() error.
 */
int loom_bsu_set_mode(struct loom_bsu *bsu, unsigned int mode);
unsigned int loom_bsu_mode(const struct loom_bsu *bsu);

/* ---- partitions (API 0.3) --------------------------------------------- */
/*
 * loom_bsu_open() with the unit in partition @key (loom_bsu_open() is
 * partition 0).  The card stamps @key on the unit's barrier packets; a
 * card holding the unit in another partition refuses them, and the
 * barrier ends with -EACCES here.  Needs what a context with @key needs:
 * a grant of @key ("loomctl key grant") or CAP_NET_ADMIN (-EACCES).
 */
int loom_bsu_open_key(struct loom_dev *dev, unsigned int unit, uint32_t key,
		      struct loom_bsu **bsup);

#ifdef __cplusplus
}
#endif

#endif /* LOOM_H */
