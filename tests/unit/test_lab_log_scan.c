// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab check-log's report classes (tools/loom-lab/log_scan.c): one
 * sample of every kind of report the debug guest kernel prints (KASAN,
 * KFENCE, UBSAN, lockdep, sleeping in atomic context, kmemleak, refcount_t,
 * list corruption, debug objects, hung task, lockups, RCU stall, oopses,
 * BUG and WARNING), each as it appears on the serial console with its
 * timestamps: the report's headline must get the report's class, and its
 * call trace must be found too.  Then the lines a clean boot of that kernel
 * prints (the checkers announcing themselves, the lab's own messages) must
 * match nothing.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log_scan.h"
#include "tap.h"

TAP_DEFINE;

struct sample {
	const char *class;	/* what the headline must be classed as */
	const char *headline;	/* the line that starts the report */
	const char *body;	/* the lines that follow it */
};

#define TS "[  812.034125] "

static const struct sample samples[] = {
	{ "KASAN",
	  TS "BUG: KASAN: use-after-free in loom_ctx_release+0x1d/0x90 [loom]",
	  TS "Read of size 8 at addr ffff888004a1c010 by task ioctl_test/312\n"
	  TS "\n"
	  TS "CPU: 0 PID: 312 Comm: ioctl_test Tainted: G           O       6.1.192-loom-debug #1\n"
	  TS "Call Trace:\n"
	  TS " <TASK>\n"
	  TS " dump_stack_lvl+0x5b/0x77\n"
	  TS " kasan_report+0xad/0x130\n" },
	{ "KFENCE",
	  TS "BUG: KFENCE: out-of-bounds read in loom_genl_route_set+0x4c/0x1a0 [loom]",
	  TS "Out-of-bounds read at 0xffff88801fd3e000 (32B right of kfence-#17):\n"
	  TS " loom_genl_route_set+0x4c/0x1a0 [loom]\n" },
	{ "UBSAN",
	  TS "UBSAN: shift-out-of-bounds in drivers/loom/loom_events.c:88:12",
	  TS "shift exponent 64 is too large for 64-bit type 'long unsigned int'\n"
	  TS "CPU: 0 PID: 57 Comm: kworker/0:2 Not tainted 6.1.192-loom-debug #1\n"
	  TS "Call Trace:\n" },
	{ "lockdep",
	  TS "WARNING: possible circular locking dependency detected",
	  TS "6.1.192-loom-debug #1 Tainted: G           O\n"
	  TS "------------------------------------------------------\n"
	  TS "loomctl/401 is trying to acquire lock:\n"
	  TS "ffff888005c2a0c8 (&ldev->lock){+.+.}-{3:3}, at: loom_genl_route_set+0x5e/0x1a0 [loom]\n"
	  TS "but task is already holding lock:\n"
	  TS "Call Trace:\n" },
	{ "lockdep", TS "WARNING: inconsistent lock state",
	  TS "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage.\n"
	  TS "Call Trace:\n" },
	{ "lockdep", TS "WARNING: possible recursive locking detected",
	  TS "uring_test/300 is trying to acquire lock:\n" TS "Call Trace:\n" },
	{ "lockdep", TS "WARNING: suspicious RCU usage",
	  TS "drivers/loom/loom_keys.c:40 suspicious rcu_dereference_check() usage!\n"
	  TS "Call Trace:\n" },
	{ "lockdep", TS "WARNING: bad unlock balance detected!",
	  TS "loomctl/77 is trying to release lock (&ldev->lock) at:\n" TS "Call Trace:\n" },
	{ "lockdep", TS "INFO: trying to register non-static key.",
	  TS "The code is fine but needs lockdep annotation, or maybe\n"
	  TS "you didn't initialize this object before use?\n"
	  TS "Call Trace:\n" },
	{ "atomic sleep",
	  TS "BUG: sleeping function called from invalid context at kernel/locking/mutex.c:580",
	  TS "in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 0, name: swapper/0\n"
	  TS "preempt_count: 101, expected: 0\n"
	  TS "Call Trace:\n" },
	{ "kmemleak",
	  TS "kmemleak: 2 new suspected memory leaks (see /sys/kernel/debug/kmemleak)", "" },
	{ "kmemleak", "unreferenced object 0xffff888006b3e400 (size 512):",
	  "  comm \"insmod\", pid 233, jiffies 4294893410 (age 61.530s)\n"
	  "  hex dump (first 32 bytes):\n"
	  "  backtrace:\n"
	  "    [<ffffffff8151d2b6>] kmalloc_trace+0x26/0x60\n" },
	{ "refcount", TS "refcount_t: underflow; use-after-free.",
	  TS "WARNING: CPU: 0 PID: 298 at lib/refcount.c:28 refcount_warn_saturate+0xba/0x110\n"
	  TS "Call Trace:\n" },
	{ "refcount", TS "refcount_t: addition on 0; use-after-free.",
	  TS "WARNING: CPU: 1 PID: 40 at lib/refcount.c:25 refcount_warn_saturate+0x97/0x110\n" },
	{ "list corruption",
	  TS "list_del corruption, ffff888005d1e018->next is LIST_POISON1 (dead000000000100)",
	  TS "WARNING: CPU: 1 PID: 77 at lib/list_debug.c:53 __list_del_entry_valid+0x9b/0xf0\n"
	  TS "Call Trace:\n" },
	{ "list corruption",
	  TS "list_add corruption. next->prev should be prev (ffff888005d1e000), but was 0000000000000000. (next=ffff888005d1e018).",
	  TS "kernel BUG at lib/list_debug.c:29!\n" },
	{ "debugobjects",
	  TS "ODEBUG: free active (active state 0) object: ffff888005c2a1e0 object type: work_struct hint: loom_event_work+0x0/0x300 [loom]",
	  TS "WARNING: CPU: 0 PID: 412 at lib/debugobjects.c:505 debug_print_object+0xd7/0x100\n" },
	{ "hung task", TS "INFO: task uring_test:355 blocked for more than 120 seconds.",
	  TS "      Tainted: G           O       6.1.192-loom-debug #1\n"
	  TS "\"echo 0 > /proc/sys/kernel/hung_task_timeout_secs\" disables this message.\n"
	  TS "task:uring_test      state:D stack:27848 pid:355   ppid:350    flags:0x00004002\n"
	  TS "Call Trace:\n" },
	{ "soft lockup", TS "watchdog: BUG: soft lockup - CPU#0 stuck for 26s! [loom-card:99]",
	  TS "Call Trace:\n" },
	{ "RCU stall", TS "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:",
	  TS "rcu: \t0-...!: (1 GPs behind) idle=b1c/1/0x4000000000000000\n" },
	{ "RCU stall", TS "rcu: INFO: rcu_preempt self-detected stall on CPU", "" },
	{ "workqueue lockup",
	  TS "BUG: workqueue lockup - pool cpus=0 node=0 flags=0x0 nice=0 stuck for 31s!", "" },
	{ "bad page", TS "BUG: Bad page state in process loom-xfer  pfn:0a1b2",
	  TS "page:00000000a1b2c3d4 refcount:-1 mapcount:0 mapping:0000000000000000\n" },
	{ "oops",
	  TS "general protection fault, probably for non-canonical address 0xdffffc0000000002: 0000 [#1] PREEMPT SMP KASAN NOPTI",
	  TS "KASAN: null-ptr-deref in range [0x0000000000000010-0x0000000000000017]\n"
	  TS "RIP: 0010:loom_uring_cmd+0x3a/0x2f0 [loom]\n"
	  TS "Call Trace:\n" },
	{ "oops", TS "BUG: unable to handle page fault for address: ffffc90000a48000",
	  TS "#PF: supervisor read access in kernel mode\n"
	  TS "Oops: 0000 [#1] PREEMPT SMP KASAN NOPTI\n" },
	{ "BUG", TS "BUG: kernel NULL pointer dereference, address: 0000000000000008",
	  TS "Oops: 0000 [#1] PREEMPT SMP KASAN NOPTI\n" },
	{ "BUG", TS "kernel BUG at drivers/loom/loom_ctx.c:210!",
	  TS "invalid opcode: 0000 [#1] PREEMPT SMP KASAN NOPTI\n" TS "Call Trace:\n" },
	{ "WARNING",
	  TS "WARNING: CPU: 0 PID: 12 at drivers/loom/loom_irq.c:70 loom_irq+0x1c/0x80 [loom]",
	  TS "Modules linked in: loom(O)\n" TS "Call Trace:\n" },
	{ "panic", TS "Kernel panic - not syncing: Fatal exception", "" },
};

/* Lines of a clean boot and run of the debug kernel in the lab. */
static const char *const clean[] = {
	TS "Linux version 6.1.192-loom-debug (root@lab) (gcc (Debian 12.2.0-14) 12.2.0) #1 SMP PREEMPT_DYNAMIC",
	TS "Command line: console=ttyS0 panic=-1 kmemleak.verbose=1 loom_lab.host=0",
	TS "kasan: KernelAddressSanitizer initialized (generic)",
	TS "kmemleak: Kernel memory leak detector initialized (mem pool available: 15734)",
	TS "kmemleak: Automatic memory scanning thread started",
	TS "kfence: initialized - using 2097152 bytes for 255 objects at 0x(____ptrval____)-0x(____ptrval____)",
	TS "Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar",
	TS "... MAX_LOCKDEP_SUBCLASSES:  8",
	TS "... MAX_LOCKDEP_ENTRIES:     65536",
	TS "rcu: \tRCU lockdep checking is enabled.",
	TS "DMA-API: preallocated 65536 debug entries",
	TS "DMA-API: debugging enabled by kernel config",
	TS "x86/mm: Checked W+X mappings: passed, no W+X pages found.",
	TS "Run /init as init process",
	"loom-lab init: starting /work/main/build/bin/loom-lab-agent",
	TS "loom 0000:00:03.0: loom0: card 1.0 (node 0), 4 ports, 16 contexts",
	TS "loom: loading out-of-tree module taints kernel.",
};

/* The classes of every line of text, comma-separated, into out. */
static void classes_of(const char *text, char *out, size_t len)
{
	char *copy = strdup(text), *save = NULL;

	out[0] = 0;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		const char *c = log_scan_line(l);

		if (c && strlen(out) + strlen(c) + 2 < len) {
			if (out[0])
				strcat(out, ",");
			strcat(out, c);
		}
	}
	free(copy);
}

int main(void)
{
	size_t n = sizeof(samples) / sizeof(samples[0]);
	size_t nclean = sizeof(clean) / sizeof(clean[0]);

	tap_plan((int)(2 * n + 1));
	for (size_t i = 0; i < n; i++) {
		const struct sample *s = &samples[i];
		const char *got = log_scan_line(s->headline);
		char body[512];
		bool traced = !strstr(s->body, "Call Trace:");

		tap_ok(got && !strcmp(got, s->class), "%s report: headline classed %s",
		       s->class, s->class);
		if (!got || strcmp(got, s->class))
			tap_diag("headline '%s' classed %s, expected %s", s->headline,
				 got ? got : "(nothing)", s->class);
		classes_of(s->body, body, sizeof(body));
		if (!traced)
			traced = strstr(body, "stack trace") != NULL;
		tap_ok(traced, "%s report: its call trace is found too", s->class);
		if (!traced)
			tap_diag("body classes: %s", body[0] ? body : "(none)");
	}
	{
		int bad = 0;

		for (size_t i = 0; i < nclean; i++) {
			const char *got = log_scan_line(clean[i]);

			if (got) {
				tap_diag("clean line classed %s: '%s'", got, clean[i]);
				bad++;
			}
		}
		tap_ok(!bad, "%zu lines of a clean debug-kernel boot match nothing (%d did)",
		       nclean, bad);
	}
	return tap_exit_status();
}
