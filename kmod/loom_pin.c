// SPDX-License-Identifier: GPL-2.0
/*
 * Pinned-memory accounting.  The rings, segment and counters page of a
 * context are pages mapped for the card (loom_dma_alloc()) that stay
 * allocated (and mapped into the process) for the context's lifetime:
 * memory user space pins, like io_uring's registered buffers or an RDMA
 * memory region.  It is charged the way io_uring charges it:
 *
 * - to the user's locked_vm counter (struct user_struct), checked against
 *   the caller's RLIMIT_MEMLOCK, unless the caller has CAP_IPC_LOCK.  The
 *   user, not the address space, carries the limit: the memory belongs to
 *   the open file, which fork() shares and which outlives the process that
 *   created it, so a per-mm charge would vanish with the creator's exit
 *   while the memory stays pinned.  The charge holds a reference on the
 *   user (get_uid()), so the uncharge never touches freed memory, whoever
 *   closes the file last and whenever;
 * - to the creator's address space's pinned_vm, so that /proc/PID/status
 *   shows it as VmPin (information only, never a limit).  mmgrab() keeps
 *   the mm_struct (not the address space) until the uncharge;
 * - to the card's pinned_pages, checked against the module parameter
 *   max_pinned_kb (0: no device-wide cap).
 *
 * A refused charge is -ENOMEM for RLIMIT_MEMLOCK (as io_uring, vfio and
 * RDMA answer) and -ENOSPC for max_pinned_kb (as vfio answers for its
 * per-container limit): user space can tell the two apart without dmesg.
 */
#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/mm_types.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/sizes.h>

#include "loom_drv.h"

/* Add @pages to @counter unless that takes it above @limit. */
static bool loom_pin_add(atomic_long_t *counter, unsigned long pages,
			 unsigned long limit)
{
	long cur = atomic_long_read(counter);

	do {
		if (pages > limit || (unsigned long)cur > limit - pages)
			return false;
	} while (!atomic_long_try_cmpxchg(counter, &cur, cur + pages));
	return true;
}

/**
 * loom_pin_charge() - charge the memory of a new context
 * @ldev: the card
 * @pin: the context's charge, all zero
 * @pages: pages the context will allocate
 *
 * Called by the process creating the context (an ioctl).
 *
 * Return: 0; -ENOSPC when the card's max_pinned_kb would be exceeded;
 * -ENOMEM when the caller's RLIMIT_MEMLOCK would be (and it lacks
 * CAP_IPC_LOCK).
 */
int loom_pin_charge(struct loom_dev *ldev, struct loom_pin *pin,
		    unsigned long pages)
{
	unsigned long dev_limit = READ_ONCE(loom_max_pinned_kb) /
				  (PAGE_SIZE / SZ_1K);
	struct user_struct *user = NULL;

	if (!dev_limit)
		dev_limit = ULONG_MAX;
	if (!loom_pin_add(&ldev->pinned_pages, pages, dev_limit))
		return -ENOSPC;

	if (!capable(CAP_IPC_LOCK)) {
		user = get_uid(current_user());
		if (!loom_pin_add(&user->locked_vm, pages,
				  rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT)) {
			free_uid(user);
			atomic_long_sub(pages, &ldev->pinned_pages);
			return -ENOMEM;
		}
	}
	pin->user = user;
	pin->mm = current->mm;
	if (pin->mm) {
		mmgrab(pin->mm);
		atomic64_add(pages, &pin->mm->pinned_vm);
	}
	pin->pages = pages;
	return 0;
}

/**
 * loom_pin_uncharge() - give back what loom_pin_charge() took
 * @ldev: the card
 * @pin: the charge; nothing happens when it is empty (or already given back)
 *
 * Safe from any process and after the charged process has exited.
 */
void loom_pin_uncharge(struct loom_dev *ldev, struct loom_pin *pin)
{
	if (!pin->pages)
		return;
	if (pin->mm) {
		atomic64_sub(pin->pages, &pin->mm->pinned_vm);
		mmdrop(pin->mm);
		pin->mm = NULL;
	}
	if (pin->user) {
		atomic_long_sub(pin->pages, &pin->user->locked_vm);
		free_uid(pin->user);
		pin->user = NULL;
	}
	atomic_long_sub(pin->pages, &ldev->pinned_pages);
	pin->pages = 0;
}
