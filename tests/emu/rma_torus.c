// SPDX-License-Identifier: GPL-2.0
/*
 * 2x2x2 torus and contexts with counters pages (see rma_torus.h).
 */
#include "rma_torus.h"
#include "tap.h"

#include <stdio.h>
#include <string.h>

int rma_torus_start(struct fabric *f)
{
	for (unsigned int i = 0; i < RMA_TORUS_CARDS; i++) {
		char args[2 * RMA_TORUS_DIMS + RMA_TORUS_CARDS][128];
		const char *extra[4 + 4 * RMA_TORUS_DIMS + 2 * RMA_TORUS_CARDS + 1];
		int k = 0, a = 0;

		extra[k++] = "--ports";
		extra[k++] = "6";
		for (unsigned int d = 0; d < RMA_TORUS_DIMS; d++) {
			extra[k++] = "--cable";
			snprintf(args[a], sizeof(args[a]), "%u=listen:%s/cable-%u-%u.sock", 2 * d,
				 f->dir, i, 2 * d);
			extra[k++] = args[a++];
			extra[k++] = "--cable";
			snprintf(args[a], sizeof(args[a]), "%u=connect:%s/cable-%u-%u.sock",
				 2 * d + 1, f->dir, i ^ (1u << d), 2 * d);
			extra[k++] = args[a++];
		}
		for (unsigned int dst = 0; dst < RMA_TORUS_CARDS; dst++) {
			unsigned int diff = i ^ dst, d = 0;

			if (!diff)
				continue;
			while (!(diff & (1u << d)))	/* lowest differing dimension first */
				d++;
			extra[k++] = "--route";
			snprintf(args[a], sizeof(args[a]), "%u=%u", dst, 2 * d);
			extra[k++] = args[a++];
		}
		extra[k] = NULL;
		if (fabric_start_card(f, i, extra))
			return -1;
	}
	for (unsigned int i = 0; i < RMA_TORUS_CARDS; i++)
		if (fabric_attach(f, i))
			return -1;
	for (unsigned int i = 0; i < RMA_TORUS_CARDS; i++)
		for (unsigned int p = 0; p < 2 * RMA_TORUS_DIMS; p++)
			if (fabric_wait_link(f, i, p, 20000))
				return -1;
	return 0;
}

int rma_ctx_create(struct fabric *f, unsigned int i, struct fh_ctx *ctx, unsigned int idx,
		   uint32_t key, uint64_t seg_size, volatile uint64_t **counters)
{
	struct fakehost *fh = &f->fh[i];
	uint64_t page = fh_alloc(fh, LOOM_CTX_COUNTERS * 8, 4096);

	if (!page)
		return -1;
	memset(fh->ram + page, 0, LOOM_CTX_COUNTERS * 8);
	*counters = (volatile uint64_t *)(void *)(fh->ram + page);
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_CNT_LO), (uint32_t)page);
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_CNT_HI), (uint32_t)(page >> 32));
	return fh_ctx_create(fh, ctx, idx, key, 8, 10, seg_size);
}
