// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * libloom data path: posting commands and reaping completions through the
 * mapped rings, without system calls (kernel bypass).
 *
 * Command slots are credited back by completions: every command the library
 * posts asks for exactly one LOCAL completion, and the card fetches commands
 * in ring order, so once N local completions have arrived the first N slots
 * have been read by the card and may be reused.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <loom.h>

#include "ctx_internal.h"

static void ring_doorbell(struct loom_ctx *ctx)
{
	/* descriptors must be visible before the producer index */
	atomic_thread_fence(memory_order_release);
	ctx->doorbell[LOOM_DB_CMD_PI / 4] = ctx->cmd_pi;
	if (ctx->kick) {
		/* lab card: the doorbell page is plain memory; tell the card */
		atomic_thread_fence(memory_order_seq_cst);
		*ctx->kick = ctx->kick_value;
	}
}

struct loom_cmd *loom_next_cmd(struct loom_ctx *ctx)
{
	struct loom_cmd *cmd;

	if (!ctx->cmd_credits)
		return NULL;
	cmd = &ctx->cmdq[ctx->cmd_pi & ((1u << ctx->cmdq_log2) - 1)];
	memset(cmd, 0, sizeof(*cmd));
	return cmd;
}

struct loom_cmd *loom_claim_remote_cmd(struct loom_ctx *ctx, uint8_t opcode,
					const struct loom_remote *peer, uint64_t tag)
{
	struct loom_cmd *cmd = loom_next_cmd(ctx);

	if (!cmd)
		return NULL;
	cmd->opcode = opcode;
	cmd->flags = LOOM_CMD_F_SIGNAL;
	cmd->dst_ctx = (uint16_t)peer->ctx;
	cmd->dst_node = peer->node;
	/* no key: the card stamps the context's partition on the request */
	cmd->tag = tag;
	return cmd;
}

void loom_post_cmd(struct loom_ctx *ctx, struct loom_cmd *cmd)
{
	if (ctx->fence_next) {
		cmd->flags |= LOOM_CMD_F_FENCE;
		ctx->fence_next = false;
	}
	ctx->cmd_pi++;
	ctx->cmd_credits--;
	ring_doorbell(ctx);
}

int loom_nop(struct loom_ctx *ctx, uint64_t tag)
{
	struct loom_cmd *cmd;

	if (!ctx)
		return -EINVAL;
	cmd = loom_next_cmd(ctx);
	if (!cmd)
		return -EAGAIN;
	cmd->opcode = LOOM_OP_NOP;
	cmd->flags = LOOM_CMD_F_SIGNAL;
	cmd->tag = tag;
	loom_post_cmd(ctx, cmd);
	return 0;
}

int loom_put(struct loom_ctx *ctx, const struct loom_remote *dst,
	     uint64_t remote_off, uint64_t local_off, uint64_t len,
	     uint32_t flags, uint64_t tag)
{
	struct loom_cmd *cmd;

	if (!ctx || !dst || !len || (flags & ~LOOM_PUT_REMOTE_EVENT))
		return -EINVAL;
	if (local_off > ctx->segment_size || len > ctx->segment_size - local_off)
		return -ERANGE;
	if (dst->ctx > UINT16_MAX)
		return -EINVAL;
	cmd = loom_claim_remote_cmd(ctx, LOOM_OP_PUT, dst, tag);
	if (!cmd)
		return -EAGAIN;
	if (flags & LOOM_PUT_REMOTE_EVENT)
		cmd->flags |= LOOM_CMD_F_REMOTE_CQE;
	cmd->local_off = local_off;
	cmd->remote_off = remote_off;
	cmd->length = len;
	loom_post_cmd(ctx, cmd);
	return 0;
}

int loom_put_mcast(struct loom_ctx *ctx, uint32_t group, uint64_t remote_off,
		   uint64_t local_off, uint64_t len, uint32_t flags, uint64_t tag)
{
	/* each member's context comes from its card's group entry: dst_ctx 0 */
	const struct loom_remote members = { .node = group, .ctx = 0 };
	struct loom_cmd *cmd;

	if (!ctx || !len || flags || group > UINT16_MAX)
		return -EINVAL;
	if (local_off > ctx->segment_size || len > ctx->segment_size - local_off)
		return -ERANGE;
	cmd = loom_claim_remote_cmd(ctx, LOOM_OP_PUT, &members, tag);
	if (!cmd)
		return -EAGAIN;
	cmd->flags |= LOOM_CMD_F_MCAST;
	cmd->local_off = local_off;
	cmd->remote_off = remote_off;
	cmd->length = len;
	loom_post_cmd(ctx, cmd);
	return 0;
}

/* Is @e the completion of one of the library's own commands? */
static bool is_internal(const struct loom_cqe *e)
{
	return (e->tag & LOOM_TAG_RESERVED) == LOOM_TAG_RESERVED &&
	       (e->opcode == LOOM_OP_NOP || e->opcode == LOOM_OP_COUNTER_WAIT);
}

/* Reap up to @max completions from the ring, consuming internal ones. */
static int reap(struct loom_ctx *ctx, struct loom_completion *out, int max)
{
	uint32_t mask = (1u << ctx->cq_log2) - 1;
	int n = 0, seen = 0;

	while (n < max) {
		const struct loom_cqe *e = &ctx->cq[ctx->cq_ci & mask];
		uint32_t f = __atomic_load_n(&e->flags, __ATOMIC_ACQUIRE);

		if ((f & LOOM_CQE_PHASE) != loom_cq_phase(ctx->cq_ci, ctx->cq_log2))
			break;
		/*
		 * every command posts exactly one LOCAL or COUNTER entry; one
		 * the card posts beyond that must not free a slot a command
		 * still occupies
		 */
		if ((e->kind == LOOM_CQE_LOCAL || e->kind == LOOM_CQE_COUNTER) &&
		    ctx->cmd_credits < 1u << ctx->cmdq_log2)
			ctx->cmd_credits++;
		ctx->cq_ci++;
		seen++;
		if (is_internal(e)) {
			uint32_t seq = (uint32_t)e->tag;

			if (e->opcode == LOOM_OP_NOP && (int32_t)(seq - ctx->quiet_done) > 0)
				ctx->quiet_done = seq;
			continue;
		}
		out[n].tag = e->tag;
		out[n].value = e->value;
		out[n].node = e->src_node;
		out[n].ctx = e->src_ctx;
		out[n].kind = e->kind;
		out[n].status = e->status;
		out[n].opcode = e->opcode;
		n++;
	}
	if (seen) {
		/* entries are copied out before the slots are handed back */
		atomic_thread_fence(memory_order_release);
		ctx->doorbell[LOOM_DB_CQ_CI / 4] = ctx->cq_ci;
	}
	return n;
}

int loom_stash_reap(struct loom_ctx *ctx)
{
	for (;;) {
		size_t room, tail;
		int n;

		if (ctx->stash_len == ctx->stash_cap) {
			size_t cap = ctx->stash_cap ? 2 * ctx->stash_cap : 64;
			struct loom_completion *p = malloc(cap * sizeof(*p));

			if (!p)
				return -ENOMEM;
			for (size_t i = 0; i < ctx->stash_len; i++)
				p[i] = ctx->stash[(ctx->stash_head + i) % ctx->stash_cap];
			free(ctx->stash);
			ctx->stash = p;
			ctx->stash_cap = cap;
			ctx->stash_head = 0;
		}
		tail = (ctx->stash_head + ctx->stash_len) % ctx->stash_cap;
		room = ctx->stash_cap - ctx->stash_len;
		if (room > ctx->stash_cap - tail)
			room = ctx->stash_cap - tail;	/* contiguous part */
		n = reap(ctx, &ctx->stash[tail], room > INT32_MAX ? INT32_MAX : (int)room);
		ctx->stash_len += (size_t)n;
		if ((size_t)n < room)
			return 0;
	}
}

int loom_poll(struct loom_ctx *ctx, struct loom_completion *out, int max)
{
	int n = 0;

	if (!ctx || !out || max < 0)
		return -EINVAL;
	/* what quiet/counter_wait reaped first: completions stay in order */
	while (n < max && ctx->stash_len) {
		out[n++] = ctx->stash[ctx->stash_head];
		ctx->stash_head = (ctx->stash_head + 1) % ctx->stash_cap;
		ctx->stash_len--;
	}
	if (ctx->stash_len)
		return n;
	return n + reap(ctx, out + n, max - n);
}

int64_t loom_now_ms(void)
{
	return loom_now_ns() / 1000000;
}

int64_t loom_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void loom_backoff(int64_t since_ns, int64_t spin_ns, long nap_ns)
{
	if (loom_now_ns() - since_ns < spin_ns) {
		sched_yield();
	} else {
		struct timespec ts = { 0, nap_ns };

		nanosleep(&ts, NULL);
	}
}

static int wait_sleeping(struct loom_ctx *ctx, struct loom_completion *out, int max,
			 int64_t deadline);

int loom_wait(struct loom_ctx *ctx, struct loom_completion *out, int max,
	      int timeout_ms)
{
	int64_t deadline = timeout_ms < 0 ? -1 : loom_now_ms() + timeout_ms;
	int64_t start_ns;
	int n;

	if (!ctx || !out || max <= 0)
		return -EINVAL;
	n = loom_busy_poll(ctx, out, max, deadline, &start_ns);
	if (n)
		return n;
	n = wait_sleeping(ctx, out, max, deadline);
	if (n > 0)
		loom_busy_poll_slept(ctx, start_ns);
	return n;
}

/* loom_wait() once busy polling found nothing: sleep until @deadline */
static int wait_sleeping(struct loom_ctx *ctx, struct loom_completion *out, int max,
			 int64_t deadline)
{
	if (ctx->uring) {
		int64_t left = deadline < 0 ? -1 : deadline - loom_now_ms();

		return loom_uring_wait(ctx, out, max, left < 0 && deadline >= 0 ? 0 : (int)left);
	}
	for (;;) {
		struct pollfd pfd = { .fd = ctx->dev->fd, .events = POLLIN };
		int n = loom_poll(ctx, out, max);
		int wait;

		if (n)
			return n;
		if (deadline < 0) {
			wait = -1;
		} else {
			int64_t left = deadline - loom_now_ms();

			if (left <= 0)
				return -ETIMEDOUT;
			wait = (int)left;
		}
		/*
		 * The kernel reports POLLIN when the entry at our consumer
		 * index (as the card took it from the doorbell page) is valid,
		 * so there is no lost wake-up between loom_poll() and poll().
		 */
		loom_cq_sync(ctx);
		if (poll(&pfd, 1, wait) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
			return -EIO;
	}
}

/* how long loom_cq_sync() waits for the card to take our consumer index */
#define CQ_SYNC_NS	2000000
/*
 * How it waits (loom_backoff()): it spins for CQ_SYNC_SPIN_NS (a card in
 * hardware takes the index within a microsecond or two), then naps
 * CQ_SYNC_NAP_NS at a time, so that a lab card sharing this guest's CPU runs.
 */
#define CQ_SYNC_SPIN_NS	5000
#define CQ_SYNC_NAP_NS	20000

void loom_cq_sync(struct loom_ctx *ctx)
{
	int64_t t0;

	if (ctx->doorbell[LOOM_DB_CQ_CI_SEEN / 4] == ctx->cq_ci)
		return;
	if (ctx->kick) {
		/* lab card: it takes CQ_CI when it runs; make it run */
		atomic_thread_fence(memory_order_seq_cst);
		*ctx->kick = ctx->kick_value;
	}
	t0 = loom_now_ns();
	do
		loom_backoff(t0, CQ_SYNC_SPIN_NS, CQ_SYNC_NAP_NS);
	while (ctx->doorbell[LOOM_DB_CQ_CI_SEEN / 4] != ctx->cq_ci &&
	       loom_now_ns() - t0 < CQ_SYNC_NS);
}

int loom_sleep_cq(struct loom_ctx *ctx, int wait_ms)
{
	struct pollfd pfd = { .fd = ctx->dev->fd, .events = POLLIN };

	loom_cq_sync(ctx);

	if (poll(&pfd, 1, wait_ms) < 0)
		return errno == EINTR ? 0 : -errno;
	if (pfd.revents & (POLLERR | POLLHUP | POLLNVAL))
		return -EIO;
	return 0;
}
