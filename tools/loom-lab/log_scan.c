// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: the kernel reports check-log finds.  Each rule is a text the
 * kernel prints in one class of report and in nothing else; the first rule
 * that matches names the class, so the specific rules come before the
 * generic BUG/WARNING/Call Trace ones.  Boot messages of the checkers
 * themselves ("kmemleak: Kernel memory leak detector initialized", "kfence:
 * initialized", the lockdep banner) match nothing.
 */
#include <stddef.h>
#include <string.h>

#include "log_scan.h"

struct log_rule {
	const char *text;
	const char *class;
};

static const struct log_rule rules[] = {
	/* memory errors */
	{ "KASAN:", "KASAN" },
	{ "KFENCE:", "KFENCE" },
	{ "UBSAN:", "UBSAN" },
	{ "Bad page state", "bad page" },
	{ "Bad page map", "bad page" },
	{ "Bad rss-counter", "bad page" },
	/* locking (lockdep, the RCU checks, the atomic-sleep check) */
	{ "possible circular locking dependency", "lockdep" },
	{ "possible recursive locking", "lockdep" },
	{ "inconsistent lock state", "lockdep" },
	{ "possible irq lock inversion", "lockdep" },
	{ "bad unlock balance", "lockdep" },
	{ "held lock freed", "lockdep" },
	{ "lock held when returning to user space", "lockdep" },
	{ "lock held at task exit", "lockdep" },
	{ "trying to register non-static key", "lockdep" },
	{ "suspicious RCU usage", "lockdep" },
	{ "DEBUG_LOCKS_WARN_ON", "lockdep" },
	{ "BUG: MAX_LOCKDEP", "lockdep" },
	{ "turning off the locking correctness validator", "lockdep" },
	{ "sleeping function called from invalid context", "atomic sleep" },
	{ "scheduling while atomic", "atomic sleep" },
	/* leaks */
	{ "unreferenced object 0x", "kmemleak" },
	{ "new suspected memory leaks", "kmemleak" },
	{ "Kernel memory leak detector disabled", "kmemleak" },
	/*
	 * the DMA API's checker prints only its first error of a boot; make
	 * check-debug's stop hook writes the count of all of them
	 */
	{ "DMA-API error_count ", "DMA-API" },
	/* corrupted or misused objects */
	{ "refcount_t: ", "refcount" },
	{ "list_add corruption", "list corruption" },
	{ "list_del corruption", "list corruption" },
	{ "list_add double add", "list corruption" },
	{ "ODEBUG: ", "debugobjects" },
	/* hangs */
	{ "blocked for more than", "hung task" },
	{ "soft lockup - CPU#", "soft lockup" },
	{ "detected hard LOCKUP", "hard lockup" },
	{ "BUG: workqueue lockup", "workqueue lockup" },
	{ "detected stalls on CPUs", "RCU stall" },
	{ "self-detected stall on CPU", "RCU stall" },
	/* crashes and the generic reports */
	{ "Kernel panic", "panic" },
	{ "general protection fault", "oops" },
	{ "unable to handle page fault", "oops" },
	{ "Unable to handle kernel", "oops" },
	{ "Oops", "oops" },
	{ "kernel BUG at", "BUG" },
	{ "BUG:", "BUG" },
	{ "WARNING:", "WARNING" },
	{ "Call Trace", "stack trace" },
};

const char *log_scan_line(const char *line)
{
	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (strstr(line, rules[i].text))
			return rules[i].class;
	return NULL;
}
