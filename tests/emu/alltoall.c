// SPDX-License-Identifier: GPL-2.0
/*
 * All-to-all put workload (see alltoall.h).
 */
#include "alltoall.h"
#include "tap.h"

#include <string.h>

#define A2A_CTX		1
#define A2A_KEY(node)	(0xa2a00000u + (node))
#define A2A_TAG(s, d)	(0x7a9000u + (s) * 16 + (d))

static uint8_t a2a_pattern(unsigned int src, uint64_t off)
{
	uint64_t x = (off + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)(src + 1) * 0xc2b2ae3d27d4eb4full;

	return (uint8_t)(x >> 29);
}

/* segment: [0, len) my pattern; slot s at (1 + s) * len receives node s */
static uint64_t a2a_slot(unsigned int src, uint32_t len)
{
	return (uint64_t)(1 + src) * len;
}

static void a2a_reap(struct fh_ctx *ctx, unsigned int i, unsigned int n, uint32_t len,
		     unsigned int seen[FABRIC_MAX_CARDS][FABRIC_MAX_CARDS], struct alltoall *r)
{
	struct loom_cqe e;

	while (fh_wait_cqe(ctx, &e, 5) == 1) {
		if (e.kind == LOOM_CQE_LOCAL) {
			unsigned int d = (unsigned int)(e.tag - A2A_TAG(i, 0));
			bool ok = e.status == LOOM_CQE_ST_OK && e.value == len && d < n &&
				  e.opcode == LOOM_OP_PUT;

			ok ? r->local_ok++ : r->local_bad++;
			if (!ok)
				tap_diag("card %u: LOCAL tag 0x%llx status %u value %llu", i,
					 (unsigned long long)e.tag, e.status,
					 (unsigned long long)e.value);
		} else {
			unsigned int s = e.src_node;
			bool ok = e.kind == LOOM_CQE_ARRIVAL && s < n && e.tag == a2a_slot(s, len) &&
				  e.value == len && e.src_ctx == A2A_CTX &&
				  e.status == LOOM_CQE_ST_OK && !seen[i][s]++;

			ok ? r->arrival_ok++ : r->arrival_bad++;
			if (!ok)
				tap_diag("card %u: kind %u tag 0x%llx value %llu from %u.%u status %u (seen %u)",
					 i, e.kind, (unsigned long long)e.tag,
					 (unsigned long long)e.value, e.src_node, e.src_ctx, e.status,
					 s < n ? seen[i][s] : 0);
		}
	}
}

int alltoall_run(struct fabric *f, unsigned int n, uint32_t len, int timeout_ms,
		 struct alltoall *r)
{
	static struct fh_ctx ctx[FABRIC_MAX_CARDS];
	unsigned int seen[FABRIC_MAX_CARDS][FABRIC_MAX_CARDS] = { { 0 } };
	unsigned int want = n * n;
	uint64_t t0, deadline;

	memset(r, 0, sizeof(*r));
	for (unsigned int i = 0; i < n; i++) {
		int rc = fh_ctx_create(&f->fh[i], &ctx[i], A2A_CTX, A2A_KEY(i), 6, 8,
				       (uint64_t)(n + 1) * len);

		if (rc != LOOM_ADMIN_E_OK) {
			tap_diag("card %u: context enable returned %d", i, rc);
			return -1;
		}
		for (uint64_t o = 0; o < len; o++)
			ctx[i].segp[o] = a2a_pattern(i, o);
		memset(ctx[i].segp + len, 0xee, (size_t)n * len);
	}
	t0 = fh_now_ms();
	for (unsigned int i = 0; i < n; i++) {
		for (unsigned int d = 0; d < n; d++) {
			struct loom_cmd cmd = {
				.opcode = LOOM_OP_PUT,
				.flags = LOOM_CMD_F_SIGNAL | LOOM_CMD_F_REMOTE_CQE,
				.dst_ctx = A2A_CTX,
				.dst_node = d,
				.tag = A2A_TAG(i, d),
				.remote_off = a2a_slot(i, len),
				.length = len,
				.key = A2A_KEY(d),
			};

			if (!fh_submit(&ctx[i], &cmd))
				tap_diag("card %u: command ring full", i);
		}
	}
	deadline = t0 + (uint64_t)timeout_ms;
	/* done when every put completed and every successful one has arrived
	 * (a failed put may never post an arrival)
	 */
	while ((r->local_ok + r->local_bad < want ||
		r->arrival_ok + r->arrival_bad < r->local_ok) &&
	       fh_now_ms() < deadline)
		for (unsigned int i = 0; i < n; i++)
			a2a_reap(&ctx[i], i, n, len, seen, r);
	r->elapsed_ms = fh_now_ms() - t0;
	/* anything extra (a duplicate completion) shows up within a moment */
	for (unsigned int k = 0; k < 20; k++)
		for (unsigned int i = 0; i < n; i++)
			a2a_reap(&ctx[i], i, n, len, seen, r);
	r->data_ok = true;
	for (unsigned int d = 0; d < n; d++) {
		for (unsigned int s = 0; s < n; s++) {
			const uint8_t *p = ctx[d].segp + a2a_slot(s, len);

			for (uint64_t o = 0; o < len; o++) {
				if (p[o] != a2a_pattern(s, o)) {
					tap_diag("node %u, data from %u: first bad byte at %llu: 0x%02x != 0x%02x",
						 d, s, (unsigned long long)o, p[o], a2a_pattern(s, o));
					r->data_ok = false;
					break;
				}
			}
		}
	}
	return 0;
}

bool alltoall_perfect(const struct alltoall *r, unsigned int n)
{
	return r->local_ok == n * n && !r->local_bad && r->arrival_ok == n * n &&
	       !r->arrival_bad && r->data_ok;
}
