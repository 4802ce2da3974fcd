// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* libloom: messages for errno values and completion statuses. */
#include <string.h>

#include <loom.h>

static const char *const status_text[] = {
	[LOOM_STATUS_OK] = "success",
	[LOOM_STATUS_BAD_DESC] = "the card rejected a malformed command descriptor",
	[LOOM_STATUS_LOCAL_BOUNDS] = "local offset/length outside this context's segment",
	[LOOM_STATUS_UNREACHABLE] = "destination node unreachable: no valid route (check the routing table)",
	[LOOM_STATUS_REMOTE_KEY] = "the target rejected the key: it is in another partition (context key) than this context",
	[LOOM_STATUS_REMOTE_BOUNDS] = "remote offset/length outside the target's segment",
	[LOOM_STATUS_NO_CTX] = "the target context does not exist or is not running",
	[LOOM_STATUS_LINK] = "lost to a link failure on the path",
	[LOOM_STATUS_UNSUPPORTED] = "operation not supported by this card design",
	[LOOM_STATUS_DISCARDED] = "discarded: a port on the path is disabled or dead (check the fault masks)",
	[LOOM_STATUS_COUNTER] = "no such counter (id beyond the context's counters, or no counters page)",
	[LOOM_STATUS_BUSY] = "too many counter notifications pending on this context (64 at most)",
	[LOOM_STATUS_MR_KEY] = "memory-region key unknown or revoked (deregistered), or an lkey of another context",
	[LOOM_STATUS_MR_BOUNDS] = "offset/length outside the memory region (or an atomic not 8-byte aligned in memory)",
	[LOOM_STATUS_MR_ACCESS] = "the memory region lacks the right for this operation (see loom_mr_reg() access)",
};

const char *loom_strerror(int err)
{
	if (err <= 0)
		return strerror(-err);
	if ((size_t)err < sizeof(status_text) / sizeof(status_text[0]) && status_text[err])
		return status_text[err];
	return "unknown completion status";
}
