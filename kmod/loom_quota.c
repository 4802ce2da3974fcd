// SPDX-License-Identifier: GPL-2.0
/*
 * Per-user caps on what one user may hold of a card: contexts, BSU units
 * and pinned memory (module parameters max_ctx_per_user,
 * max_bsu_per_user and max_pinned_kb_per_user; 0 means no cap).  Without
 * them one user with a key grant could take every context and unit of the
 * card, opening as many files as it takes, and lock everybody else out,
 * root included.
 *
 * A context is charged to the real uid of the process that creates it
 * (the user whose RLIMIT_MEMLOCK pays for its memory, loom_pin.c) and
 * stays charged until the context is freed, whoever frees it.  A caller
 * with CAP_SYS_RESOURCE is charged but never refused, as for other
 * resource limits.  A refusal is -EDQUOT with one rate-limited log line
 * naming the user, the cap and its value.
 *
 * The charges live in ldev->quota, indexed by uid, under ldev->lock; an
 * entry is freed when its user holds nothing any more.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/user_namespace.h>

#include "loom_drv.h"

unsigned int loom_max_ctx_per_user = 32;
module_param_named(max_ctx_per_user, loom_max_ctx_per_user, uint, 0644);
MODULE_PARM_DESC(max_ctx_per_user,
		 "Most contexts of one card one user may hold, over all its open files (default 32; 0: no cap). Beyond it CTX_CREATE fails with EDQUOT; CAP_SYS_RESOURCE is exempt");

unsigned int loom_max_bsu_per_user = 16;
module_param_named(max_bsu_per_user, loom_max_bsu_per_user, uint, 0644);
MODULE_PARM_DESC(max_bsu_per_user,
		 "Most BSU units of one card one user may hold (default 16; 0: no cap). Beyond it CTX_CREATE fails with EDQUOT; CAP_SYS_RESOURCE is exempt");

unsigned int loom_max_pinned_kb_per_user = 262144;
module_param_named(max_pinned_kb_per_user, loom_max_pinned_kb_per_user, uint,
		   0644);
MODULE_PARM_DESC(max_pinned_kb_per_user,
		 "Most memory, in KiB, the contexts one user holds on one card may pin (default 262144; 0: no cap). Beyond it CTX_CREATE fails with EDQUOT; CAP_SYS_RESOURCE is exempt");

/**
 * struct loom_quota_use - what one user holds of a card
 * @ctxs: contexts
 * @bsus: BSU units
 * @pages: pages of context memory
 */
struct loom_quota_use {
	u32 ctxs;
	u32 bsus;
	unsigned long pages;
};

static unsigned long loom_quota_key(kuid_t uid)
{
	return from_kuid(&init_user_ns, uid);
}

/* Is @have + @add above @cap (0: no cap)? */
static bool loom_quota_over(unsigned long have, unsigned long add,
			    unsigned long cap)
{
	return cap && (add > cap || have > cap - add);
}

static void loom_quota_refused(struct loom_dev *ldev, kuid_t uid,
			       const char *what, unsigned long have,
			       const char *param, unsigned int cap)
{
	dev_notice_ratelimited(&ldev->pdev->dev,
			       "uid %u holds %lu %s of loom%d, %s is %u: context refused (EDQUOT)\n",
			       from_kuid(&init_user_ns, uid), have, what,
			       ldev->minor, param, cap);
}

/**
 * loom_quota_charge() - charge a new context to the user creating it
 * @ldev: the card, locked
 * @uid: the creator's real uid
 * @bsus: BSU units the context takes
 * @pages: pages of memory it takes
 *
 * Return: 0; -EDQUOT when a cap of the user would be exceeded (logged);
 * -ENOMEM.
 */
int loom_quota_charge(struct loom_dev *ldev, kuid_t uid, u32 bsus,
		      unsigned long pages)
{
	unsigned long pages_cap = READ_ONCE(loom_max_pinned_kb_per_user) /
				  (PAGE_SIZE / SZ_1K);
	unsigned int ctx_cap = READ_ONCE(loom_max_ctx_per_user);
	unsigned int bsu_cap = READ_ONCE(loom_max_bsu_per_user);
	unsigned long key = loom_quota_key(uid);
	struct loom_quota_use *use;
	bool exempt = capable(CAP_SYS_RESOURCE);
	int err;

	lockdep_assert_held(&ldev->lock);
	use = xa_load(&ldev->quota, key);
	if (!use) {
		use = kzalloc(sizeof(*use), GFP_KERNEL_ACCOUNT);
		if (!use)
			return -ENOMEM;
		err = xa_err(xa_store(&ldev->quota, key, use,
				      GFP_KERNEL_ACCOUNT));
		if (err) {
			kfree(use);
			return err;
		}
	}
	if (!exempt && loom_quota_over(use->ctxs, 1, ctx_cap)) {
		loom_quota_refused(ldev, uid, "contexts", use->ctxs,
				   "max_ctx_per_user", ctx_cap);
		err = -EDQUOT;
	} else if (!exempt && loom_quota_over(use->bsus, bsus, bsu_cap)) {
		loom_quota_refused(ldev, uid, "BSU units", use->bsus,
				   "max_bsu_per_user", bsu_cap);
		err = -EDQUOT;
	} else if (!exempt && loom_quota_over(use->pages, pages, pages_cap)) {
		loom_quota_refused(ldev, uid, "KiB pinned",
				   use->pages * (PAGE_SIZE / SZ_1K),
				   "max_pinned_kb_per_user",
				   READ_ONCE(loom_max_pinned_kb_per_user));
		err = -EDQUOT;
	} else {
		use->ctxs++;
		use->bsus += bsus;
		use->pages += pages;
		return 0;
	}
	if (!use->ctxs) {
		xa_erase(&ldev->quota, key);
		kfree(use);
	}
	return err;
}

/**
 * loom_quota_uncharge() - a context charged to @uid is freed
 * @ldev: the card, locked
 * @uid: the uid loom_quota_charge() charged
 * @bsus: its BSU units
 * @pages: its pages
 */
void loom_quota_uncharge(struct loom_dev *ldev, kuid_t uid, u32 bsus,
			 unsigned long pages)
{
	unsigned long key = loom_quota_key(uid);
	struct loom_quota_use *use;

	lockdep_assert_held(&ldev->lock);
	use = xa_load(&ldev->quota, key);
	if (WARN_ON_ONCE(!use || !use->ctxs || use->bsus < bsus ||
			 use->pages < pages))
		return;
	use->ctxs--;
	use->bsus -= bsus;
	use->pages -= pages;
	if (!use->ctxs) {
		xa_erase(&ldev->quota, key);
		kfree(use);
	}
}

/**
 * loom_quota_show() - one line per user holding something (debugfs)
 * @s: the file
 * @ldev: the card, locked
 */
void loom_quota_show(struct seq_file *s, struct loom_dev *ldev)
{
	struct loom_quota_use *use;
	unsigned long uid;

	lockdep_assert_held(&ldev->lock);
	xa_for_each(&ldev->quota, uid, use)
		seq_printf(s, "uid %lu: %u contexts, %u BSU units, %lu KiB pinned\n",
			   uid, use->ctxs, use->bsus,
			   use->pages * (PAGE_SIZE / SZ_1K));
}

/**
 * loom_quota_destroy() - free the charges of a card being freed
 * @ldev: the card; no context is left
 */
void loom_quota_destroy(struct loom_dev *ldev)
{
	struct loom_quota_use *use;
	unsigned long uid;

	xa_for_each(&ldev->quota, uid, use) {
		WARN_ON_ONCE(use->ctxs);
		kfree(use);
	}
	xa_destroy(&ldev->quota);
}

/**
 * loom_quota_charge_pages() - charge pinned pages of a memory region to
 *	the user holding its context
 * @ldev: the card, locked
 * @uid: the context's user (loom_quota_charge() charged it)
 * @pages: pages the region pins
 *
 * Return: 0; -EDQUOT beyond max_pinned_kb_per_user (logged); -EINVAL when
 * @uid holds no context.
 */
int loom_quota_charge_pages(struct loom_dev *ldev, kuid_t uid,
			    unsigned long pages)
{
	unsigned long cap = READ_ONCE(loom_max_pinned_kb_per_user) /
			    (PAGE_SIZE / SZ_1K);
	struct loom_quota_use *use;

	lockdep_assert_held(&ldev->lock);
	use = xa_load(&ldev->quota, loom_quota_key(uid));
	if (WARN_ON_ONCE(!use || !use->ctxs))
		return -EINVAL;
	if (!capable(CAP_SYS_RESOURCE) && loom_quota_over(use->pages, pages, cap)) {
		dev_notice_ratelimited(&ldev->pdev->dev,
				       "uid %u holds %lu KiB pinned of loom%d, max_pinned_kb_per_user is %u: memory region of %lu KiB refused (EDQUOT)\n",
				       from_kuid(&init_user_ns, uid),
				       use->pages * (PAGE_SIZE / SZ_1K), ldev->minor,
				       READ_ONCE(loom_max_pinned_kb_per_user),
				       pages * (PAGE_SIZE / SZ_1K));
		return -EDQUOT;
	}
	use->pages += pages;
	return 0;
}

/**
 * loom_quota_uncharge_pages() - give back loom_quota_charge_pages()
 * @ldev: the card, locked
 * @uid: the uid it charged
 * @pages: the pages it charged
 */
void loom_quota_uncharge_pages(struct loom_dev *ldev, kuid_t uid,
			       unsigned long pages)
{
	struct loom_quota_use *use;

	lockdep_assert_held(&ldev->lock);
	use = xa_load(&ldev->quota, loom_quota_key(uid));
	if (!use || use->pages < pages)
		return;	/* its contexts were kept for good and uncharged */
	use->pages -= pages;
}
