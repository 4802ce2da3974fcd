/* SPDX-License-Identifier: LGPL-2.1-or-later OR MIT */
/* libloom internals: the device handle and a context's mapped rings. */
#ifndef LOOM_CTX_INTERNAL_H
#define LOOM_CTX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <loom_hw/regs.h>
#include <loom_hw/ring.h>

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
};

struct loom_completion;

/* uring.c: completion mode io_uring */
int loom_uring_open(struct loom_ctx *ctx);
void loom_uring_close(struct loom_ctx *ctx);
int loom_uring_wait(struct loom_ctx *ctx, struct loom_completion *out, int max,
		    int timeout_ms);

#endif
