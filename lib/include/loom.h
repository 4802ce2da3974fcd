/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/*
 * libloom: remote memory operations over a loom card.
 *
 * Functions return 0 (or a count) on success and a negative errno on
 * failure; loom_strerror() describes both errno values and completion
 * statuses.  A struct loom_dev may be shared by threads; a struct loom_ctx
 * and a struct loom_bsu may not: use one per thread.  Overview: loom(7);
 * one manual page per function (loom_put(3), ...), generated from the
 * comments below; Documentation/lib/api.rst.  Symbols are versioned
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
#define LOOM_API_VERSION_MINOR	4

struct loom_dev;
struct loom_ctx;

/**
 * struct loom_dev_attr - a card's identity, from loom_dev_query()
 * @node_id: physical node id
 * @logical_id: logical node id: the node number peers address puts to
 * @n_ports: network ports
 * @n_contexts: contexts the card has
 * @design_version: firmware design, major << 16 | minor << 8 | patch
 * @build_id: firmware build id
 * @emulated: 1 for the VM lab's card emulator
 * @max_payload: largest payload of one packet, bytes
 */
struct loom_dev_attr {
	uint32_t node_id;
	uint32_t logical_id;
	uint32_t n_ports;
	uint32_t n_contexts;
	uint32_t design_version;
	uint32_t build_id;
	uint32_t emulated;
	uint32_t max_payload;
};

/**
 * loom_dev_open() - open a loom card
 * @path: its device node, e.g. "/dev/loom1"; NULL: $LOOM_DEVICE, else
 *	  /dev/loom0
 * @devp: where the handle is stored
 *
 * Opens the card's character device, on which contexts (loom_ctx_create())
 * and barrier units (loom_bsu_open()) are created.
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL @devp is NULL.  -ENAMETOOLONG @path is too long.
 *	   -ENOMEM.  Any errno of open(2): -ENOENT no such device node (is
 *	   loom.ko loaded and a card bound?), -ENODEV the card is going away,
 *	   -EACCES not allowed (udev gives /dev/loomN to group loom).
 * Thread safety: MT-Safe.
 */
int loom_dev_open(const char *path, struct loom_dev **devp);

/**
 * loom_dev_close() - close a card opened with loom_dev_open()
 * @dev: the handle, or NULL (nothing is done)
 *
 * Destroy the handle's contexts and barrier units first.
 *
 * Return: nothing.
 * Errors: none.
 * Thread safety: MT-Safe, but no other thread may use @dev meanwhile or
 *		  after.
 */
void loom_dev_close(struct loom_dev *dev);

/**
 * loom_dev_query() - the identity of a card
 * @dev: the card
 * @attr: filled in: node ids, ports, contexts, firmware, emulated
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL @dev or @attr is NULL.  -EIO the card was unbound or
 *	   failed.  Any other errno of the LOOM_IOC_DEV_INFO ioctl.
 * Thread safety: MT-Safe.
 */
int loom_dev_query(struct loom_dev *dev, struct loom_dev_attr *attr);

/**
 * struct loom_ctx_attr - how to create a context; zeroed fields take the
 *			  defaults
 * @flags: LOOM_CTX_ATTR_INDEX, LOOM_CTX_ATTR_URING
 * @index: the card index to take, with LOOM_CTX_ATTR_INDEX
 * @key: the context's partition (default 0): the card stamps it on every
 *	 operation of the context and accepts only operations of it
 * @cmdq_entries: command ring entries, a power of two (default 256)
 * @cq_entries: completion ring entries, a power of two (default 1024)
 * @segment_size: bytes of the registered segment (default 1 MiB, at most
 *		  4 MiB)
 */
struct loom_ctx_attr {
	uint32_t flags;
	uint32_t index;
	uint32_t key;
	uint32_t cmdq_entries;
	uint32_t cq_entries;
	uint64_t segment_size;
};

/* ask for a fixed context index (struct loom_ctx_attr.index) */
#define LOOM_CTX_ATTR_INDEX	(1u << 0)
/*
 * Completion mode io_uring: loom_wait() sleeps on an io_uring command of
 * the device (the context owns a small ring) instead of poll().
 */
#define LOOM_CTX_ATTR_URING	(1u << 1)

/**
 * loom_ctx_create() - create a context: rings, doorbell and segment
 * @dev: the card
 * @attr: sizes, key, index and completion mode; NULL for the defaults
 * @ctxp: where the context is stored
 *
 * Creates a context on the card and maps its command and completion
 * rings, its doorbell page and its registered segment (the memory remote
 * operations read and write) into the process.  Peers address it by the
 * card's logical node id (loom_ctx_node()), its index (loom_ctx_index())
 * and its key.  Size the completion ring for the outstanding commands plus
 * the arrivals expected between two polls.
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL a NULL argument, unknown flags, sizes that are not
 *	   powers of two or too large, an index the card lacks.  -EBUSY the
 *	   index asked for is taken, or the card has no free context.
 *	   -EMFILE the open file holds its maximum of contexts.  -EACCES the
 *	   key is not granted to the caller ("loomctl key grant").  -ENOMEM
 *	   the memory would exceed RLIMIT_MEMLOCK, or none is left.  -ENOSPC
 *	   the card's max_pinned_kb would be exceeded.  -EIO the card refused
 *	   the context or is gone.  -ETIMEDOUT the card did not answer.  With
 *	   LOOM_CTX_ATTR_URING also the ring's error (-ENOSYS without
 *	   io_uring).
 * Thread safety: MT-Safe; the context belongs to the calling thread.
 */
int loom_ctx_create(struct loom_dev *dev, const struct loom_ctx_attr *attr,
		    struct loom_ctx **ctxp);

/**
 * loom_ctx_destroy() - destroy a context
 * @ctx: the context, or NULL (nothing is done)
 *
 * Unmaps the context and destroys it on the card: the card does no more DMA
 * for it.  Operations still in flight are abandoned.
 *
 * Return: nothing.
 * Errors: none.
 * Thread safety: MT-Unsafe: only the thread that uses @ctx.
 */
void loom_ctx_destroy(struct loom_ctx *ctx);

/**
 * loom_ctx_index() - the context's index on its card
 * @ctx: the context
 *
 * With the card's logical node id and the key, what a peer needs to
 * address operations to this context.
 *
 * Return: the index.
 * Errors: none.
 * Thread safety: MT-Safe.
 */
uint32_t loom_ctx_index(const struct loom_ctx *ctx);

/**
 * loom_ctx_node() - the logical node id of the context's card
 * @ctx: the context
 *
 * Return: the logical node id when the context was created.
 * Errors: none.
 * Thread safety: MT-Safe.
 */
uint32_t loom_ctx_node(const struct loom_ctx *ctx);

/**
 * loom_ctx_segment() - the context's registered segment
 * @ctx: the context
 * @size: where its size in bytes is stored, or NULL
 *
 * Local data of puts is read from the segment, remote puts and the data of
 * gets land in it; offsets of every operation are offsets in it.
 *
 * Return: the address of the segment in the process.
 * Errors: none.
 * Thread safety: MT-Safe.
 */
void *loom_ctx_segment(const struct loom_ctx *ctx, size_t *size);

/**
 * struct loom_remote - where a remote operation goes
 * @node: the logical node id of the target card
 * @ctx: the context index on that card (at most 65535)
 * @key: no longer used (the card stamps the issuing context's partition
 *	 key); kept so the structure keeps its layout
 */
struct loom_remote {
	uint32_t node;
	uint32_t ctx;
	uint32_t key;
};

/* loom_put(), loom_put_counted(): the target gets an ARRIVAL completion */
#define LOOM_PUT_REMOTE_EVENT	(1u << 0)

/**
 * loom_put() - write bytes of my segment into a remote context's segment
 * @ctx: my context
 * @dst: the target node and context
 * @remote_off: offset in the target's segment
 * @local_off: offset in my segment
 * @len: bytes, at least 1
 * @flags: 0 or LOOM_PUT_REMOTE_EVENT (the target gets an ARRIVAL
 *	   completion when every byte has landed)
 * @tag: reported by the completion
 *
 * Queues the put and rings the doorbell; no system call.  Its
 * LOOM_COMPLETION_LOCAL completion (with @tag) comes when every byte is in
 * the remote memory, or carries a LOOM_STATUS_* that says why not
 * (UNREACHABLE, REMOTE_KEY, REMOTE_BOUNDS, NO_CTX, ...).
 *
 * Return: 0 once the command is queued, or a negative errno.
 * Errors: -EINVAL a NULL argument, @len 0, unknown @flags, @dst->ctx above
 *	   65535.  -ERANGE the local range is outside my segment.  -EAGAIN
 *	   the command ring is full: reap completions (loom_poll()) first.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_put(struct loom_ctx *ctx, const struct loom_remote *dst,
	     uint64_t remote_off, uint64_t local_off, uint64_t len,
	     uint32_t flags, uint64_t tag);

/**
 * loom_put_mcast() - write bytes of my segment into the segment of every
 *	member of a multicast group
 * @ctx: my context, on the group's root card
 * @group: the group id (0..65535; the cards' group tables say which
 *	   members it has: loomctl mcast, loom-fm --groups)
 * @remote_off: offset in every member's segment
 * @local_off: offset in my segment
 * @len: bytes, at least 1
 * @flags: 0
 * @tag: reported by the completion
 *
 * One source buffer to every member: the card injects each packet once
 * and the routers copy it where the group's tree branches, each member's
 * card delivering it into the context its group entry names.  The
 * LOOM_COMPLETION_LOCAL completion (with @tag) comes when every member
 * acknowledged every byte; its status is the first error any member
 * returned (LOOM_STATUS_REMOTE_KEY: a member's context is in another
 * partition, nothing was written there; REMOTE_BOUNDS, NO_CTX, ...), or
 * LOOM_STATUS_UNREACHABLE when my card has no valid entry for @group (or
 * no multicast group table at all).  Do not change the bytes before the
 * completion.
 *
 * Return: 0 once the command is queued, or a negative errno.
 * Errors: -EINVAL @ctx NULL, @len 0, @flags not 0, @group above 65535.
 *	   -ERANGE the local range is outside my segment.  -EAGAIN the
 *	   command ring is full: reap completions (loom_poll()) first.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_put_mcast(struct loom_ctx *ctx, uint32_t group, uint64_t remote_off,
		   uint64_t local_off, uint64_t len, uint32_t flags, uint64_t tag);

/**
 * loom_nop() - queue a command the card completes at once
 * @ctx: my context
 * @tag: reported by the completion
 *
 * The command does not touch the network: its round trip (doorbell, card,
 * completion) is the floor under every other operation's latency, which
 * the benchmarks report latencies as multiples of.
 *
 * Return: 0 once queued, or a negative errno.
 * Errors: -EINVAL @ctx is NULL.  -EAGAIN the command ring is full.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_nop(struct loom_ctx *ctx, uint64_t tag);

/**
 * struct loom_completion - a finished operation or an arrival
 * @tag: LOCAL and COUNTER: the operation's tag; ARRIVAL: the remote offset
 *	 the data landed at
 * @value: bytes moved; atomics: the word before the operation; COUNTER:
 *	   the counter's value
 * @node: the other end's logical node id
 * @ctx: the other end's context index; COUNTER: the counter id
 * @kind: LOOM_COMPLETION_LOCAL, _ARRIVAL or _COUNTER
 * @status: 0 (LOOM_STATUS_OK) or a LOOM_STATUS_*
 * @opcode: the operation's opcode (the card's)
 */
struct loom_completion {
	uint64_t tag;
	uint64_t value;
	uint32_t node;
	uint32_t ctx;
	uint8_t kind;
	uint8_t status;
	uint8_t opcode;
};

#define LOOM_COMPLETION_LOCAL	1	/* an operation of mine finished */
#define LOOM_COMPLETION_ARRIVAL	2	/* data landed in my segment */
#define LOOM_COMPLETION_COUNTER	3	/* loom_counter_notify() threshold reached */

/* statuses (same values as the card's) */
#define LOOM_STATUS_OK			0
#define LOOM_STATUS_BAD_DESC		1	/* the card refused the command */
#define LOOM_STATUS_LOCAL_BOUNDS	2	/* outside my segment */
#define LOOM_STATUS_UNREACHABLE		3	/* no route to the node */
#define LOOM_STATUS_REMOTE_KEY		4	/* protection: the target is in
						 * another partition */
#define LOOM_STATUS_REMOTE_BOUNDS	5	/* outside the target's segment */
#define LOOM_STATUS_NO_CTX		6	/* no such context running there */
#define LOOM_STATUS_LINK		7	/* a link failed on the way */
#define LOOM_STATUS_UNSUPPORTED		8	/* the card lacks the operation */
#define LOOM_STATUS_DISCARDED		9	/* a port on the path is disabled or dead */
#define LOOM_STATUS_COUNTER		10	/* no such counter at the target */
#define LOOM_STATUS_BUSY		11	/* too many counter notifications pending */
#define LOOM_STATUS_MR_KEY		12	/* memory-region key unknown or revoked
						 * (or an lkey of another context)
						 */
#define LOOM_STATUS_MR_BOUNDS		13	/* outside the memory region */
#define LOOM_STATUS_MR_ACCESS		14	/* the region lacks the right */

/**
 * loom_poll() - reap completions without blocking
 * @ctx: my context
 * @out: room for @max completions
 * @max: how many at most
 *
 * Completions come in the order the card posted them; those that
 * loom_quiet() or loom_counter_wait() reaped meanwhile come first.
 *
 * Return: how many were reaped (0 when none waits), or a negative errno.
 * Errors: -EINVAL @ctx or @out is NULL, @max negative.  -ENOMEM.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_poll(struct loom_ctx *ctx, struct loom_completion *out, int max);

/**
 * loom_wait() - wait for completions
 * @ctx: my context
 * @out: room for @max completions
 * @max: how many at most, at least 1
 * @timeout_ms: how long to wait, -1 forever
 *
 * Like loom_poll(), but waits until at least one completion is there: it
 * polls for an adaptive window first (loom_ctx_set_busy_poll()), then
 * sleeps on the card's interrupt through poll(2), or with
 * LOOM_CTX_ATTR_URING on an io_uring command of the device.
 *
 * Return: how many were reaped (at least 1), or a negative errno.
 * Errors: -EINVAL @ctx or @out is NULL, @max below 1.  -ETIMEDOUT nothing
 *	   came within @timeout_ms.  -EIO the card went away (unbound or
 *	   failed).  -ENOMEM.  Any errno of poll(2) other than EINTR.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_wait(struct loom_ctx *ctx, struct loom_completion *out, int max,
	      int timeout_ms);

/* loom_wait()'s busy-poll ceiling in microseconds when nothing sets it */
#define LOOM_BUSY_POLL_DEFAULT_US	50
/* the largest ceiling loom_ctx_set_busy_poll() and LOOM_BUSY_POLL take */
#define LOOM_BUSY_POLL_MAX_US		100000

/**
 * loom_ctx_set_busy_poll() - how long loom_wait() polls before it sleeps
 * @ctx: my context
 * @usec: the ceiling in microseconds, 0 .. LOOM_BUSY_POLL_MAX_US; 0 turns
 *	  busy polling off (loom_wait() sleeps at once)
 *
 * loom_wait() polls the completion ring for an adaptive window of at most
 * @usec before it sleeps: the window doubles when a completion came after
 * it closed but within the ceiling, and halves when one came later than
 * the ceiling, so a peer that answers quickly is met by polling and a slow
 * one costs little CPU.  A new context starts with the ceiling from the
 * environment variable LOOM_BUSY_POLL (decimal microseconds) or, without
 * it, LOOM_BUSY_POLL_DEFAULT_US; loom_ctx_create() fails with -EINVAL
 * when LOOM_BUSY_POLL is not a number in range.
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL @ctx is NULL or @usec out of range.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_ctx_set_busy_poll(struct loom_ctx *ctx, int usec);

/**
 * loom_ctx_busy_poll() - loom_wait()'s busy-poll ceiling
 * @ctx: my context
 *
 * Return: the ceiling in microseconds (0: busy polling off), or -EINVAL
 *	   when @ctx is NULL.
 * Errors: -EINVAL.
 * Thread safety: MT-Safe.
 */
int loom_ctx_busy_poll(const struct loom_ctx *ctx);

/**
 * loom_ctx_fd() - a file descriptor to wait on with poll(2) or epoll(7)
 * @ctx: my context
 *
 * The device's descriptor: readable when a completion of @ctx waits.  Reap
 * with loom_poll(); do not read or close it.
 *
 * Return: the descriptor.
 * Errors: none.
 * Thread safety: MT-Safe.
 */
int loom_ctx_fd(const struct loom_ctx *ctx);

/**
 * loom_strerror() - text for an error or a completion status
 * @err: a negative errno, or a LOOM_STATUS_* (positive)
 *
 * Return: a constant string, e.g. "destination node unreachable".
 * Errors: none.
 * Thread safety: MT-Safe.
 */
const char *loom_strerror(int err);

/* ---- LOOM_0.2: get, counted puts, atomics, counters, fence, quiet ---- */

/*
 * Tags from LOOM_TAG_RESERVED up are the library's own (loom_quiet(),
 * loom_counter_wait()); do not use them for operations.
 */
#define LOOM_TAG_RESERVED	0xffff000000000000ull

/**
 * loom_get() - read bytes of a remote context's segment into mine
 * @ctx: my context
 * @src: the node, context and key read from
 * @remote_off: offset in the remote segment
 * @local_off: offset in my segment
 * @len: bytes, at least 1
 * @flags: 0
 * @tag: reported by the completion
 *
 * Queues the get; no system call.  The LOOM_COMPLETION_LOCAL completion
 * (value = bytes read) comes when every byte has landed in my segment;
 * with an error status some 256-byte chunks may have landed and others
 * not.  Remote refusals arrive as statuses: REMOTE_KEY, REMOTE_BOUNDS,
 * NO_CTX.  Needs a card of design 0.2 (else UNSUPPORTED).
 *
 * Return: 0 once queued, or a negative errno.
 * Errors: -EINVAL a NULL argument, @len 0, @flags not 0, @src->ctx above
 *	   65535.  -ERANGE the local range is outside my segment.  -EAGAIN
 *	   the command ring is full.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_get(struct loom_ctx *ctx, const struct loom_remote *src,
	     uint64_t remote_off, uint64_t local_off, uint64_t len,
	     uint32_t flags, uint64_t tag);

/* counter ids a counted put can name (the target has loom_ctx_counters()) */
#define LOOM_COUNTERS_MAX	0x10000u
/* remote offsets of counted puts are below this */
#define LOOM_COUNTED_OFF_LIMIT	(1ull << 48)

/**
 * loom_put_counted() - a put that also counts its bytes at the target
 * @ctx: my context
 * @dst: the target node and context
 * @remote_off: offset in the target's segment, below
 *		LOOM_COUNTED_OFF_LIMIT
 * @local_off: offset in my segment
 * @len: bytes, at least 1
 * @counter: the target's counter the landed bytes are added to
 * @flags: 0 or LOOM_PUT_REMOTE_EVENT
 * @tag: reported by the completion
 *
 * A loom_put() whose bytes, as they land, advance counter @counter of the
 * target context (loom_counter_read(), loom_counter_wait()).  A counter
 * the target lacks completes with LOOM_STATUS_COUNTER and writes nothing.
 *
 * Return: 0 once queued, or a negative errno.
 * Errors: those of loom_put(), and -EINVAL for @counter at or above
 *	   LOOM_COUNTERS_MAX or @remote_off at or above
 *	   LOOM_COUNTED_OFF_LIMIT.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_put_counted(struct loom_ctx *ctx, const struct loom_remote *dst,
		     uint64_t remote_off, uint64_t local_off, uint64_t len,
		     uint32_t counter, uint32_t flags, uint64_t tag);

#define LOOM_ATOMIC_FETCH_ADD	1	/* word += operand */
#define LOOM_ATOMIC_SWAP	2	/* word = operand */
#define LOOM_ATOMIC_CSWAP	3	/* if (word == compare) word = operand */

/**
 * loom_atomic() - an 8-byte atomic operation on a remote word
 * @ctx: my context
 * @dst: the target node and context
 * @remote_off: offset of the word in the target's segment, a multiple of 8
 * @op: LOOM_ATOMIC_FETCH_ADD, LOOM_ATOMIC_SWAP or LOOM_ATOMIC_CSWAP
 * @operand: what is added or stored
 * @compare: CSWAP: the value the word must have to be swapped
 * @tag: reported by the completion
 *
 * The target card executes it with the host's atomic instructions, so it is
 * atomic against other cards and the target's own CPU.  The completion's
 * value is the word before the operation; a CSWAP swapped exactly when
 * value == @compare.
 *
 * Return: 0 once queued, or a negative errno.
 * Errors: -EINVAL a NULL argument, unknown @op, @remote_off not a multiple
 *	   of 8, @dst->ctx above 65535.  -EAGAIN the command ring is full.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_atomic(struct loom_ctx *ctx, const struct loom_remote *dst,
		uint64_t remote_off, uint32_t op, uint64_t operand,
		uint64_t compare, uint64_t tag);

/**
 * loom_fence() - order the next operation after every earlier one
 * @ctx: my context
 *
 * The next operation queued on @ctx starts only after every operation
 * queued before it has completed.  One fence covers one operation.
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL @ctx is NULL.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_fence(struct loom_ctx *ctx);

/**
 * loom_quiet() - wait until every operation queued so far has completed
 * @ctx: my context
 * @timeout_ms: how long to wait, -1 forever
 *
 * Queues a fenced no-op and waits for it.  Completions reaped meanwhile are
 * kept, in order, for the next loom_poll() or loom_wait().
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL @ctx is NULL.  -ETIMEDOUT not done within @timeout_ms
 *	   (the operations go on).  -EIO the card went away.  -ENOMEM.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_quiet(struct loom_ctx *ctx, int timeout_ms);

/**
 * loom_ctx_counters() - how many counters the context has
 * @ctx: my context
 *
 * The counters live in a page the card writes and the library maps
 * read-only; counted puts (loom_put_counted()) add their landed bytes to
 * them.
 *
 * Return: the number of counters, 0 when the kernel has none.
 * Errors: none.
 * Thread safety: MT-Safe.
 */
uint32_t loom_ctx_counters(const struct loom_ctx *ctx);

/**
 * loom_counter_read() - the current value of one of my counters
 * @ctx: my context
 * @id: the counter, below loom_ctx_counters()
 * @value: where the value is stored
 *
 * A reader that sees counter @id at N or more also sees the N bytes: the
 * card writes the data first.
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL a NULL argument, @id out of range.  -EOPNOTSUPP the
 *	   kernel has no counters.
 * Thread safety: MT-Safe.
 */
int loom_counter_read(const struct loom_ctx *ctx, uint32_t id, uint64_t *value);

/**
 * loom_counter_wait() - wait until one of my counters reaches a value
 * @ctx: my context
 * @id: the counter, below loom_ctx_counters()
 * @value: the value to reach (counter >= @value)
 * @timeout_ms: how long to wait, -1 forever
 *
 * Reads the counter page, asks the card for a completion when the counter
 * gets there and sleeps on the device between looks; completions reaped
 * meanwhile are kept for loom_poll().  With LOOM_CTX_ATTR_URING it sleeps on
 * io_uring commands the kernel completes when the counter gets there.
 *
 * Return: 0 once the counter is there, or a negative errno.
 * Errors: -EINVAL @ctx is NULL, @id out of range.  -EOPNOTSUPP the kernel
 *	   has no counters.  -ETIMEDOUT not there within @timeout_ms.  -EIO
 *	   the card went away.  -ENOMEM.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_counter_wait(struct loom_ctx *ctx, uint32_t id, uint64_t value,
		      int timeout_ms);

/**
 * loom_counter_notify() - ask for a completion when a counter gets there
 * @ctx: my context
 * @id: the counter, below loom_ctx_counters()
 * @threshold: the value to reach (counter >= @threshold)
 * @tag: reported by the completion, below LOOM_TAG_RESERVED
 *
 * One LOOM_COMPLETION_COUNTER completion (value = the counter, ctx = @id)
 * comes when the counter is at @threshold or more, at once if it already
 * is.  At most 64 are pending per context; more complete with
 * LOOM_STATUS_BUSY.
 *
 * Return: 0 once queued, or a negative errno.
 * Errors: -EINVAL @ctx is NULL, @id out of range, a reserved @tag.
 *	   -EOPNOTSUPP the kernel has no counters.  -EAGAIN the command ring
 *	   is full.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_counter_notify(struct loom_ctx *ctx, uint32_t id, uint64_t threshold,
			uint64_t tag);

/* ---- barrier/eureka units (BSUs), API 0.2 ---------------------------- */
/*
 * A BSU is one of the card's 32 hardware barrier/eureka units; the same
 * unit number on every card of a fabric forms one barrier network, whose
 * spanning tree the administrator configures ("loomctl bsu set").
 */
struct loom_bsu;

#define LOOM_BSU_STATE_BAR	1	/* ready */
#define LOOM_BSU_STATE_ARM	2	/* joined, barrier not complete yet */
#define LOOM_BSU_STATE_EUR	3	/* a eureka happened; join the barrier */

#define LOOM_EUREKA_JOIN	(1u << 0)	/* signal and join the barrier */

/**
 * loom_bsu_open() - claim a barrier/eureka unit of the card
 * @dev: the card
 * @unit: the unit, 0..31
 * @bsup: where the handle is stored
 *
 * One process per unit and card: the handle creates a small context of its
 * own holding the unit and maps the unit's page.  Waits poll until
 * loom_bsu_set_mode() says otherwise.
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL a NULL argument, @unit out of range or missing on the
 *	   card.  -EBUSY another context holds the unit.  -EMFILE the open
 *	   file holds its maximum of contexts.  -EOPNOTSUPP the
 *	   kernel does not grant units.  -ENOMEM.  -EPROTO the kernel's answer
 *	   is inconsistent.  Any other errno of the LOOM_IOC_CTX_CREATE ioctl
 *	   or of mmap(2).
 * Thread safety: MT-Safe; the handle belongs to the calling thread.
 */
int loom_bsu_open(struct loom_dev *dev, unsigned int unit, struct loom_bsu **bsup);

/**
 * loom_bsu_close() - release a unit claimed with loom_bsu_open()
 * @bsu: the handle, or NULL (nothing is done)
 *
 * Return: nothing.
 * Errors: none.
 * Thread safety: MT-Unsafe: only the thread that uses @bsu.
 */
void loom_bsu_close(struct loom_bsu *bsu);

/**
 * loom_bsu_unit() - the unit a handle holds
 * @bsu: the handle
 *
 * Return: the unit number.
 * Errors: none.
 * Thread safety: MT-Safe.
 */
unsigned int loom_bsu_unit(const struct loom_bsu *bsu);

/**
 * loom_bsu_state() - the unit's state
 * @bsu: the handle
 *
 * Return: LOOM_BSU_STATE_BAR (ready), LOOM_BSU_STATE_ARM (joined, barrier
 * not complete) or LOOM_BSU_STATE_EUR (a eureka happened), or a negative
 * errno.
 * Errors: -EINVAL @bsu is NULL.  -EIO the card reads back garbage (gone or
 *	   broken).
 * Thread safety: MT-Safe.
 */
int loom_bsu_state(const struct loom_bsu *bsu);

/**
 * loom_barrier_join() - join the unit's barrier without waiting
 * @bsu: the handle
 *
 * Completion is detected by the unit's completion counter moving past its
 * value at the join (loom_barrier_test(), loom_barrier_wait()), so a fast
 * barrier is never missed.
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL @bsu is NULL.  -EALREADY already joined.  -ETIMEDOUT the
 *	   card did not take the join.
 * Thread safety: MT-Unsafe: one thread per handle.
 */
int loom_barrier_join(struct loom_bsu *bsu);

/**
 * loom_barrier_test() - has the barrier joined last completed
 * @bsu: the handle
 *
 * Return: 1 completed, 0 not yet, or a negative errno.
 * Errors: -EINVAL @bsu is NULL, or no barrier was joined.  -EACCES the
 *	   barrier ended refused: a card of the unit's tree holds the unit in
 *	   another partition (loom_bsu_open_key()).
 * Thread safety: MT-Unsafe: one thread per handle.
 */
int loom_barrier_test(struct loom_bsu *bsu);

/**
 * loom_barrier_wait() - wait for the barrier joined last to complete
 * @bsu: the handle
 * @timeout_ms: how long to wait, -1 forever
 *
 * Waits the way loom_bsu_set_mode() chose: polling the unit's page, on the
 * card's BSU interrupt, or on an io_uring command.
 *
 * Return: 0 once every participant has joined, or a negative errno.
 * Errors: -EINVAL @bsu is NULL, or no barrier was joined.  -ETIMEDOUT not
 *	   complete within @timeout_ms.  -EIO the card went away.  -EACCES
 *	   the barrier ended refused: a card of the unit's tree holds the unit
 *	   in another partition (loom_bsu_open_key()).
 * Thread safety: MT-Unsafe: one thread per handle.
 */
int loom_barrier_wait(struct loom_bsu *bsu, int timeout_ms);

/**
 * loom_barrier() - join the unit's barrier and wait for it to complete
 * @bsu: the handle
 * @timeout_ms: how long to wait, -1 forever
 *
 * loom_barrier_join(), then loom_barrier_wait().
 *
 * Return: 0 once every participant has joined, or a negative errno.
 * Errors: those of loom_barrier_join() and loom_barrier_wait().
 * Thread safety: MT-Unsafe: one thread per handle.
 */
int loom_barrier(struct loom_bsu *bsu, int timeout_ms);

/**
 * loom_eureka_signal() - signal a eureka on the unit
 * @bsu: the handle
 * @flags: 0, or LOOM_EUREKA_JOIN to signal and join the following barrier
 *	   at once
 *
 * Every other participant sees loom_eureka_test() become 1; then all join
 * the barrier that follows (the signaller too, unless LOOM_EUREKA_JOIN
 * joined it already), which readies the unit for the next eureka.
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL @bsu is NULL, unknown @flags.  -EALREADY already joined.
 *	   -ETIMEDOUT the card did not take the signal.
 * Thread safety: MT-Unsafe: one thread per handle.
 */
int loom_eureka_signal(struct loom_bsu *bsu, unsigned int flags);

/**
 * loom_eureka_test() - has a eureka happened
 * @bsu: the handle
 *
 * Return: 1 when the unit is in LOOM_BSU_STATE_EUR, 0 when not, or a
 * negative errno.
 * Errors: -EINVAL @bsu is NULL.  -EIO the card reads back garbage.
 * Thread safety: MT-Safe.
 */
int loom_eureka_test(struct loom_bsu *bsu);

/**
 * loom_eureka_wait() - wait for a eureka
 * @bsu: the handle
 * @timeout_ms: how long to wait, -1 forever
 *
 * Waits the way loom_bsu_set_mode() chose.  Then join the barrier that
 * follows (loom_barrier()).
 *
 * Return: 0 once a eureka happened, or a negative errno.
 * Errors: -EINVAL @bsu is NULL.  -ETIMEDOUT none within @timeout_ms.  -EIO
 *	   the card went away.
 * Thread safety: MT-Unsafe: one thread per handle.
 */
int loom_eureka_wait(struct loom_bsu *bsu, int timeout_ms);

/* ---- how BSU waits wait (API 0.2) ------------------------------------- */
#define LOOM_BSU_MODE_POLL	0	/* read the unit's page (default) */
#define LOOM_BSU_MODE_INTERRUPT	1	/* sleep in the kernel until the card's
					 * BSU interrupt */
#define LOOM_BSU_MODE_URING	2	/* sleep on an io_uring command */

/**
 * loom_bsu_set_mode() - choose how the handle's waits wait
 * @bsu: the handle
 * @mode: LOOM_BSU_MODE_POLL (spin 50 us, then sleep 20 us between looks),
 *	  LOOM_BSU_MODE_INTERRUPT (sleep until the card's BSU interrupt) or
 *	  LOOM_BSU_MODE_URING (sleep on an io_uring command of a small ring
 *	  the handle creates)
 *
 * Applies to loom_barrier_wait(), loom_eureka_wait() and loom_barrier().
 *
 * Return: 0, or a negative errno; on error the handle keeps its mode.
 * Errors: -EINVAL @bsu is NULL, unknown @mode.  -EOPNOTSUPP the kernel has
 *	   no such wait.  -ENOMEM, or an io_uring_queue_init() error.
 * Thread safety: MT-Unsafe: one thread per handle.
 */
int loom_bsu_set_mode(struct loom_bsu *bsu, unsigned int mode);

/**
 * loom_bsu_mode() - how the handle's waits wait
 * @bsu: the handle
 *
 * Return: LOOM_BSU_MODE_POLL, LOOM_BSU_MODE_INTERRUPT or
 * LOOM_BSU_MODE_URING.
 * Errors: none.
 * Thread safety: MT-Safe.
 */
unsigned int loom_bsu_mode(const struct loom_bsu *bsu);

/* ---- partitions (API 0.3) --------------------------------------------- */

/**
 * loom_bsu_open_key() - claim a barrier/eureka unit in a partition
 * @dev: the card
 * @unit: the unit, 0..31
 * @key: the partition the unit joins (loom_bsu_open() is partition 0)
 * @bsup: where the handle is stored
 *
 * loom_bsu_open() with the unit in partition @key.  The card stamps @key on
 * the unit's barrier packets; a card of the unit's tree that holds the unit
 * in another partition refuses them, and the barrier ends with -EACCES
 * (loom_barrier_test(), loom_barrier_wait(), loom_barrier()).
 *
 * Return: 0, or a negative errno.
 * Errors: those of loom_bsu_open(), and -EACCES: @key is neither granted
 *	   to the caller ("loomctl key grant") nor is the caller privileged
 *	   (CAP_NET_ADMIN).
 * Thread safety: MT-Safe; the handle belongs to the calling thread.
 */
int loom_bsu_open_key(struct loom_dev *dev, unsigned int unit, uint32_t key,
		      struct loom_bsu **bsup);

/* ---- memory regions (API 0.4) ----------------------------------------- */

/* access rights of a memory region (loom_mr_reg()) */
#define LOOM_MR_LOCAL_WRITE	(1u << 0)	/* my gets may land in it */
#define LOOM_MR_REMOTE_READ	(1u << 1)	/* remote gets may read it */
#define LOOM_MR_REMOTE_WRITE	(1u << 2)	/* remote puts, counted puts */
#define LOOM_MR_REMOTE_ATOMIC	(1u << 3)	/* remote atomics */

/* A registered memory region (opaque). */
struct loom_mr;

/**
 * loom_mr_reg() - register user memory with the card
 * @ctx: the context that owns the region
 * @addr: first byte, any alignment
 * @len: bytes, 1 .. 1 GiB - 4 KiB
 * @access: LOOM_MR_* rights; 0 lets the region only be the source of my
 *	    puts
 * @mrp: where the handle is stored
 *
 * Pins the pages (anonymous, file-backed or huge pages alike) and gives
 * the card a page list of them: puts, gets, atomics and counted puts then
 * move bytes between registered memory of two nodes with no copy
 * (loom_put_mr() and the others).  The pinned memory counts against
 * RLIMIT_MEMLOCK (unless CAP_IPC_LOCK) and the card's per-user cap
 * (module parameter max_pinned_kb_per_user).  The kernel logs why a
 * registration was refused.  One system call.
 *
 * Return: 0, or a negative errno.
 * Errors: -EINVAL a NULL argument, @len 0 or too large, unknown @access
 *	   bits.  -EFAULT part of the range is not mapped.  -EACCES a write
 *	   right asked for memory the process cannot write (read-only
 *	   mapping).  -ENOMEM RLIMIT_MEMLOCK would be exceeded (raise it:
 *	   ulimit -l), or no memory.  -EDQUOT the user's
 *	   max_pinned_kb_per_user would be exceeded.  -ENOSPC the card's
 *	   region table is full, or its max_pinned_kb.  -EOPNOTSUPP the card
 *	   has no region table.  -ETIMEDOUT, -EIO the card did not answer or
 *	   is gone.
 * Thread safety: MT-Safe.
 */
int loom_mr_reg(struct loom_ctx *ctx, void *addr, size_t len, uint32_t access,
		struct loom_mr **mrp);

/**
 * loom_mr_dereg() - drop a memory region and free its handle
 * @mr: the region, or NULL (nothing happens)
 *
 * Returns once the card has confirmed it will not touch the memory again;
 * operations still naming the region then complete with
 * LOOM_STATUS_MR_KEY.  The handle is freed whatever the result.
 *
 * Return: 0, or a negative errno.
 * Errors: -ETIMEDOUT, -EIO the card did not confirm: the pages stay pinned
 *	   until the context is destroyed.  -EINVAL the region was already
 *	   gone (its context destroyed).
 * Thread safety: MT-Safe, but not concurrently with operations naming @mr.
 */
int loom_mr_dereg(struct loom_mr *mr);

/**
 * loom_mr_lkey() - the key my own operations name the region by
 * @mr: the region
 *
 * Return: the lkey.
 * Errors: none.
 * Thread safety: MT-Safe.
 */
uint32_t loom_mr_lkey(const struct loom_mr *mr);

/**
 * loom_mr_rkey() - the key remote nodes name the region by
 * @mr: the region
 *
 * Send it to the peers that may reach the region (nodes of my context's
 * partition, within the region's rights).  Keys carry a random generation:
 * a key of a deregistered region does not match a later one.
 *
 * Return: the rkey.
 * Errors: none.
 * Thread safety: MT-Safe.
 */
uint32_t loom_mr_rkey(const struct loom_mr *mr);

/**
 * loom_mr_addr() - the first byte of a region
 * @mr: the region
 *
 * Return: the address given to loom_mr_reg().
 * Errors: none.
 * Thread safety: MT-Safe.
 */
void *loom_mr_addr(const struct loom_mr *mr);

/**
 * loom_mr_length() - the bytes of a region
 * @mr: the region
 *
 * Return: the length given to loom_mr_reg().
 * Errors: none.
 * Thread safety: MT-Safe.
 */
size_t loom_mr_length(const struct loom_mr *mr);

/**
 * loom_put_mr() - write bytes of my region into a remote region
 * @ctx: my context (the owner of @mr)
 * @node: the target's logical node id
 * @rkey: the target region's rkey
 * @remote_off: offset in the target region
 * @mr: my region
 * @local_off: offset in @mr
 * @len: bytes, at least 1
 * @flags: LOOM_PUT_REMOTE_EVENT, or 0
 * @tag: reported by the completion
 *
 * loom_put() between registered memory: the card reads the bytes from my
 * pages and writes them into the target's, no copy on either side.  The
 * target card checks the rkey, its partition, LOOM_MR_REMOTE_WRITE and the
 * bounds before writing anything; refusals arrive as LOOM_STATUS_MR_KEY,
 * LOOM_STATUS_REMOTE_KEY (other partition), LOOM_STATUS_MR_ACCESS,
 * LOOM_STATUS_MR_BOUNDS.  A REMOTE_EVENT arrival goes to the context
 * owning the target region, tag = @remote_off.  Do not change the bytes
 * before the completion.
 *
 * Return: 0 once queued, or a negative errno.
 * Errors: -EINVAL a NULL argument, @len 0, unknown @flags, @mr not of
 *	   @ctx.  -ERANGE the local range is outside @mr.  -EAGAIN the
 *	   command ring is full.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_put_mr(struct loom_ctx *ctx, uint32_t node, uint32_t rkey, uint64_t remote_off,
		const struct loom_mr *mr, uint64_t local_off, uint64_t len, uint32_t flags,
		uint64_t tag);

/**
 * loom_get_mr() - read bytes of a remote region into my region
 * @ctx: my context (the owner of @mr)
 * @node: the target's logical node id
 * @rkey: the target region's rkey (needs LOOM_MR_REMOTE_READ)
 * @remote_off: offset in the target region
 * @mr: my region (needs LOOM_MR_LOCAL_WRITE)
 * @local_off: offset in @mr
 * @len: bytes, at least 1
 * @flags: 0
 * @tag: reported by the completion
 *
 * loom_get() between registered memory.  Statuses as loom_put_mr(); a
 * get whose local region is deregistered while it runs completes with
 * LOOM_STATUS_MR_KEY and writes nothing more into it.
 *
 * Return: 0 once queued, or a negative errno.
 * Errors: -EINVAL a NULL argument, @len 0, @flags not 0, @mr not of @ctx
 *	   or without LOOM_MR_LOCAL_WRITE.  -ERANGE the local range is
 *	   outside @mr.  -EAGAIN the command ring is full.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_get_mr(struct loom_ctx *ctx, uint32_t node, uint32_t rkey, uint64_t remote_off,
		const struct loom_mr *mr, uint64_t local_off, uint64_t len, uint32_t flags,
		uint64_t tag);

/**
 * loom_atomic_mr() - 8-byte atomic on a remote region
 * @ctx: my context
 * @node: the target's logical node id
 * @rkey: the target region's rkey (needs LOOM_MR_REMOTE_ATOMIC)
 * @remote_off: offset in the target region; the word must be 8-byte
 *		aligned in memory (else LOOM_STATUS_MR_BOUNDS)
 * @op: LOOM_ATOMIC_*
 * @operand: as loom_atomic()
 * @compare: as loom_atomic()
 * @tag: reported by the completion (value = the word before)
 *
 * Return: 0 once queued, or a negative errno.
 * Errors: -EINVAL @ctx NULL, unknown @op.
 *	   -EAGAIN the command ring is full.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_atomic_mr(struct loom_ctx *ctx, uint32_t node, uint32_t rkey, uint64_t remote_off,
		   uint32_t op, uint64_t operand, uint64_t compare, uint64_t tag);

/**
 * loom_put_counted_mr() - loom_put_mr() that advances a counter of the
 *	context owning the target region
 * @ctx: my context (the owner of @mr)
 * @node: the target's logical node id
 * @rkey: the target region's rkey (needs LOOM_MR_REMOTE_WRITE)
 * @remote_off: offset in the target region, below 2^48
 * @mr: my region
 * @local_off: offset in @mr
 * @len: bytes, at least 1
 * @counter: counter id of the target region's context
 * @flags: LOOM_PUT_REMOTE_EVENT, or 0
 * @tag: reported by the completion
 *
 * Return: 0 once queued, or a negative errno.
 * Errors: those of loom_put_mr(), and -EINVAL @counter above
 *	   LOOM_COUNTERS_MAX - 1 or @remote_off too large.
 * Thread safety: MT-Unsafe: one thread per context.
 */
int loom_put_counted_mr(struct loom_ctx *ctx, uint32_t node, uint32_t rkey,
			uint64_t remote_off, const struct loom_mr *mr, uint64_t local_off,
			uint64_t len, uint32_t counter, uint32_t flags, uint64_t tag);

#ifdef __cplusplus
}
#endif

#endif /* LOOM_H */
