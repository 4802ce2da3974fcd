/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/* libloom internals: the device handle and a context's mapped rings. */
#ifndef LOOM_CTX_INTERNAL_H
#define LOOM_CTX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <loom_hw/regs.h>
#include <loom_hw/ring.h>

struct loom_remote;

struct loom_dev {
	int fd;
	char path[64];
};

struct loom_ctx {
	struct loom_dev *dev;
	uint32_t index;
	uint32_t node;

	struct loom_cmd *cmdq;		/* mapped command ring */
	uint32_t cmdq_log2;
	uint32_t cmd_pi;		/* next free command slot (free running) */
	uint32_t cmd_credits;		/* commands we may still post */

	struct loom_cqe *cq;		/* mapped completion ring */
	uint32_t cq_log2;
	uint32_t cq_ci;			/* next completion to read (free running) */

	volatile uint32_t *doorbell;	/* mapped doorbell page */
	volatile uint32_t *kick;	/* lab only: kick register, or NULL */
	uint32_t kick_value;

	void *segment;
	size_t segment_size;

	size_t cmdq_bytes, cq_bytes;
	void *kick_page;

	struct loom_uring *uring;	/* LOOM_CTX_ATTR_URING, else NULL */

	const uint64_t *counters;	/* mapped read-only counters page, or NULL */
	uint32_t n_counters;

	bool fence_next;		/* loom_fence(): FENCE on the next command */
	uint32_t internal_seq;		/* last library-internal tag issued */
	uint32_t quiet_done;		/* last loom_quiet() NOP seen completed */

	/* completions reaped by loom_quiet()/loom_counter_wait() for loom_poll() */
	struct loom_completion *stash;
	size_t stash_head, stash_len, stash_cap;

	/* busy polling before loom_wait() sleeps (busy_poll.c), microseconds */
	uint32_t busy_max_us;		/* the ceiling; 0: never poll */
	uint32_t busy_cur_us;		/* the adaptive window, at most the ceiling */
};

struct loom_completion;

/* The ceiling from LOOM_BUSY_POLL or the default; -EINVAL if it is malformed. */
int loom_busy_poll_init(struct loom_ctx *ctx);
/*
 * Polls for up to the adaptive window (not past @deadline_ms, a
 * loom_now_ms() time, when it is not negative); returns what loom_poll()
 * returned last.  *@start_ns: when it started, for loom_busy_poll_slept().
 */
int loom_busy_poll(struct loom_ctx *ctx, struct loom_completion *out, int max,
		   int64_t deadline_ms, int64_t *start_ns);
/* After a wait that had to sleep: adapts the window to how long it took. */
void loom_busy_poll_slept(struct loom_ctx *ctx, int64_t start_ns);

/*
 * Tags the library uses for its own commands (quiet's NOP, counter_wait's
 * COUNTER_WAIT): LOOM_TAG_RESERVED | sequence.  Their completions are
 * consumed inside the library, never returned.
 */
#define LOOM_TAG_INTERNAL(seq)	(LOOM_TAG_RESERVED | (uint64_t)(seq))

/* datapath.c */
/* Claim the next command slot, zeroed, or NULL when the ring is full. */
struct loom_cmd *loom_next_cmd(struct loom_ctx *ctx);
/*
 * loom_next_cmd() for an operation on @peer: opcode, SIGNAL, the peer's
 * node and context, and @tag filled in (no key: the card stamps the
 * context's own); NULL when the ring is full.
 */
struct loom_cmd *loom_claim_remote_cmd(struct loom_ctx *ctx, uint8_t opcode,
				       const struct loom_remote *peer, uint64_t tag);
/*
 * The arguments a counted put takes beyond a put's, by segment or by key:
 * @flags only LOOM_PUT_REMOTE_EVENT, a counter id and a remote offset the
 * card can count at; true when they are valid.
 */
static inline bool loom_counted_args_ok(uint32_t flags, uint32_t counter,
					uint64_t remote_off)
{
	return !(flags & ~LOOM_PUT_REMOTE_EVENT) && counter < LOOM_COUNTERS_MAX &&
	       remote_off < LOOM_COUNTED_OFF_LIMIT;
}
/* Publish the command claimed by loom_next_cmd() (adds a pending fence). */
void loom_post_cmd(struct loom_ctx *ctx, struct loom_cmd *cmd);
/*
 * Before sleeping on the device: the kernel tests the completion entry at
 * the consumer index the card took (LOOM_DB_CQ_CI_SEEN; CQ_CI is
 * write-only).  Wait briefly until the card has taken ours (kicking the
 * lab card), so the kernel does not wake us for entries already reaped.
 */
void loom_cq_sync(struct loom_ctx *ctx);
/* Reap every completion there is into the stash; 0 or -ENOMEM. */
int loom_stash_reap(struct loom_ctx *ctx);
/*
 * Sleep on the device until a completion may be there, at most @wait_ms
 * (-1: no limit).  0, or -EIO when the card went away, -errno.
 */
int loom_sleep_cq(struct loom_ctx *ctx, int wait_ms);
int64_t loom_now_ms(void);
/* CLOCK_MONOTONIC in nanoseconds */
int64_t loom_now_ns(void);
/*
 * One pause of a wait that began at @since_ns (loom_now_ns()): a
 * sched_yield() for the first @spin_ns, a nanosleep of @nap_ns after.  A
 * nap idles the CPU, so that a lab card sharing it with this guest's vCPU
 * can run (sched_yield() inside a guest keeps the vCPU thread busy).
 */
void loom_backoff(int64_t since_ns, int64_t spin_ns, long nap_ns);

/* uring.c: completion mode io_uring */
struct loom_uring;
/* A small SQE128 ring, or NULL with *err set. */
struct loom_uring *loom_uring_new(int *err);
void loom_uring_free(struct loom_uring *u);
uint64_t loom_uring_next_id(struct loom_uring *u);
/*
 * Submit one IORING_OP_URING_CMD @cmd_op on @fd with @len bytes of
 * @payload (user_data @id) and reap it: its result (cqe->res).
 */
int loom_uring_cmd(struct loom_uring *u, int fd, uint32_t cmd_op, uint64_t id,
		   const void *payload, size_t len);
/*
 * Timeout for the next wait command: at most one second (Linux 6.1
 * cannot cancel it), less when the deadline (CLOCK_MONOTONIC ns, < 0:
 * none) is nearer; 0 when it has passed.
 */
uint64_t loom_uring_slice(int64_t deadline_ns);
int loom_uring_open(struct loom_ctx *ctx);
void loom_uring_close(struct loom_ctx *ctx);
int loom_uring_wait(struct loom_ctx *ctx, struct loom_completion *out, int max,
		    int timeout_ms);

#endif
