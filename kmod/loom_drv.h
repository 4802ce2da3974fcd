/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom.ko internal interfaces: the per-card structure, per-file and
 * per-context state, and the functions each file of the driver offers the
 * others.  Locking and lifetime rules are in Documentation/kmod/.
 */
#ifndef LOOM_DRV_H
#define LOOM_DRV_H

#include <linux/cdev.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/uidgid.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>

#include <linux/loom.h>
#include <loom_hw/regs.h>

#include "loom_hal.h"
#include "loom_hw.h"
#include "loom_maint.h"

#define LOOM_DRV_NAME		"loom"
#define LOOM_MAX_DEVS		64	/* minors of the chrdev region */
#define LOOM_FWID_DESC_LEN_BUF	(LOOM_FWID_DESC_LEN + 1)

/* module parameters (loom_main.c) */
extern unsigned int loom_admin_timeout_ms;
extern unsigned int loom_admin_poll_ms;
extern unsigned int loom_max_ctx_per_file;
extern bool loom_open_partition;
extern unsigned int loom_max_pinned_kb;
/* loom_quota.c */
extern unsigned int loom_max_ctx_per_user;
extern unsigned int loom_max_bsu_per_user;
extern unsigned int loom_max_pinned_kb_per_user;

/**
 * struct loom_blk - where one register block was found
 * @off: offset of the block in the register space, 0 when absent
 * @size: bytes the block covers
 * @version: LOOM_BLK_VER(major, minor) as read
 */
struct loom_blk {
	u32 off;
	u32 size;
	u32 version;
};

/**
 * struct loom_fwid - firmware identity read from the FWID block
 * @design_version: major << 16 | minor << 8 | patch
 * @build_id: 32 bits of the design's git hash
 * @build_time: seconds since the epoch
 * @flags: LOOM_FWID_F_*
 * @desc: NUL-terminated description
 */
struct loom_fwid {
	u32 design_version;
	u32 build_id;
	u32 build_time;
	u32 flags;
	char desc[LOOM_FWID_DESC_LEN_BUF];
};

/**
 * struct loom_events - what loom_events.c knows of the ports
 * @work: compares the ports' status with @status and multicasts the changes
 * @poll: runs @work every second, should an event interrupt be missed
 * @lock: serialises @work's comparisons (the work and the poll may race)
 * @status: STATUS of each port as last announced
 * @running: @work and @poll may be queued
 */
struct loom_events {
	struct work_struct work;
	struct delayed_work poll;
	struct mutex lock;		/* see @lock above */
	u32 status[LOOM_MAX_PORTS];
	bool running;
};

#define LOOM_KEY_GRANTS		256	/* grants per card */

/**
 * struct loom_key_grant - one partition grant: @key may be used by a user
 *	or by the members of a group
 * @key: network key
 * @is_group: @gid is meaningful, not @uid
 * @uid: the user
 * @gid: the group
 */
struct loom_key_grant {
	u32 key;
	bool is_group;
	kuid_t uid;
	kgid_t gid;
};

/**
 * struct loom_keys - the partition grants of a card
 * @n: grants in use, packed at the start of @grant
 * @grant: the grants
 */
struct loom_keys {
	unsigned int n;
	struct loom_key_grant grant[LOOM_KEY_GRANTS];
};

/**
 * struct loom_dev - one card; outlives the PCI device while files are open
 * @kref: one reference for the PCI binding, one per open file
 * @pdev: the PCI device (a reference is held until the last kref put)
 * @hal: hardware-access back end
 * @regs: mapped register space (BAR0 on the card, BAR2 in the lab)
 * @regs_len: bytes of @regs
 * @ctrl: lab only: ivshmem register BAR (kick register)
 * @class_dev: /dev/loomN class device, NULL once removed
 * @minor: N of /dev/loomN
 * @lock: protects @dead, @quiet, @files, @ctx_busy, @ctx_held, @quota and
 *	every file's contexts; never held across a DMA allocation or a wait
 *	for the card (but by removal, loom_ctx_hw_stop_all())
 * @dead: the PCI device is gone or the card failed (loom_hw.c): no register
 *	access, no new contexts, every call of its open files answers -EIO
 * @quiet: the card can no longer reach host memory (removed, and stopped
 *	or bus mastering off), so the memory of any context may be freed
 * @quota: what each user holds of the card, indexed by uid (loom_quota.c)
 * @files: open files (struct loom_file.node)
 * @ctx_busy: card context indices in use (bitmap of @n_ctx bits)
 * @ctx_held: threads holding contexts that are neither in a file nor in
 *	@orphans (being created, destroyed or released: loom_ctx.c); removal
 *	waits for none before it frees context memory
 * @ctx_held_wq: woken when @ctx_held drops to 0
 * @orphans: contexts of closed files whose CTX_DISABLE the card did not
 *	acknowledge as done (it timed out, was refused, or the card failed);
 *	their memory is freed once the card is quiet
 * @admin_lock: serialises the admin mailbox; protects @admin_off
 * @admin_off: the card is being torn down: no admin command goes out
 * @admin_seq: sequence number of the last admin command
 * @admin_wq: woken by the admin interrupt (vector LOOM_VEC_ADMIN)
 * @cq_wq: woken by the completion interrupt (vector LOOM_VEC_CQ)
 * @uring_waits: outstanding io_uring waits of all files (loom_uring.c)
 * @uring_work: scans the io_uring waits after a completion interrupt
 * @n_vectors: MSI-X vectors allocated
 * @fwid: firmware identity
 * @blk_admin: admin block
 * @blk_router: router block
 * @blk_ctx: context block
 * @blk_db: doorbell block
 * @blk_ports: ports block (optional: size 0 when the card has none)
 * @n_ctx: contexts usable by the driver (CTX and DOORBELL counts, checked)
 * @ctx_stride: bytes between context records
 * @db_area: register-space offset of doorbell page 0
 * @n_ports: network ports of the router, at most LOOM_MAX_PORTS
 * @maint: maintenance channel (loom_genl_maint.c)
 * @blk_vct: VC table block (optional)
 * @blk_cnt: counters block (optional)
 * @blk_link: link block (optional)
 * @events: port-event state (loom_events.c)
 * @keys: partition grants (loom_keys.c), protected by @lock
 * @debugfs: /sys/kernel/debug/loom/loomN, or NULL
 * @blk_bsu: BSU block (optional)
 * @bsu_busy: BSUs granted to a context (bit n = unit n), protected by @lock
 * @bsu_wq: woken by the event interrupt (vector LOOM_VEC_EVENT): a BSU may
 *	have moved (LOOM_IOC_BSU_WAIT sleepers)
 * @bsu_events: event interrupts seen; a BSU waiter reads it before testing
 *	its unit and sleeps only while it is unchanged
 * @pinned_pages: pages of context memory allocated for user space
 *	(loom_pin.c), checked against max_pinned_kb
 * @blk_maint: maintenance block (optional)
 * @blk_mr: memory-region block (optional)
 * @blk_perf: performance counters block (optional)
 * @blk_mcast: multicast group table block (optional)
 * @mr_busy: memory-region records in use (loom_mr.c), protected by @lock
 * @mr_gen: generation of the last key of each record, protected by @lock
 * @geo: the rest of the card's geometry, read once at probe (loom_hw.h)
 * @hw_flags: LOOM_HW_F_* (loom_hw.c)
 * @fail_work: cuts the open files off once the card failed (loom_hw.c)
 */
struct loom_dev {
	struct kref kref;
	struct pci_dev *pdev;
	const struct loom_hal_ops *hal;
	void __iomem *regs;
	u32 regs_len;
	void __iomem *ctrl;
	struct device *class_dev;
	int minor;

	struct mutex lock;		/* see @lock above */
	bool dead;
	bool quiet;
	struct list_head files;
	unsigned long *ctx_busy;
	unsigned int ctx_held;
	wait_queue_head_t ctx_held_wq;
	struct list_head orphans;
	struct xarray quota;

	struct mutex admin_lock;	/* see @admin_lock above */
	bool admin_off;
	u32 admin_seq;
	wait_queue_head_t admin_wq;
	wait_queue_head_t cq_wq;
	atomic_t uring_waits;
	struct work_struct uring_work;
	int n_vectors;

	struct loom_fwid fwid;
	struct loom_blk blk_admin;
	struct loom_blk blk_router;
	struct loom_blk blk_ctx;
	struct loom_blk blk_db;
	struct loom_blk blk_ports;
	u32 n_ctx;
	u32 ctx_stride;
	u32 db_area;
	u32 n_ports;
	struct loom_maint maint;

	struct loom_blk blk_vct;
	struct loom_blk blk_cnt;
	struct loom_blk blk_link;
	struct loom_events events;
	struct loom_keys keys;
	struct dentry *debugfs;
	struct loom_blk blk_bsu;
	u32 bsu_busy;
	wait_queue_head_t bsu_wq;
	atomic_t bsu_events;
	atomic_long_t pinned_pages;
	struct loom_blk blk_maint;
	struct loom_blk blk_mr;
	struct loom_blk blk_perf;
	struct loom_blk blk_mcast;
	DECLARE_BITMAP(mr_busy, LOOM_MR_MAX_ENTRIES);
	u32 mr_gen[LOOM_MR_MAX_ENTRIES];
	struct loom_geo geo;
	unsigned long hw_flags;
	struct work_struct fail_work;
};

/**
 * struct loom_file - state of one open /dev/loomN
 * @ldev: the card (holds a kref)
 * @node: entry in ldev->files (an RCU list)
 * @mapping: the file's address space, zapped when the device goes away
 * @cookie: per-open identity encoded in every mmap token of this file
 * @ctxs: contexts of this file indexed by slot (protected by ldev->lock)
 * @n_ctxs: number of entries in @ctxs
 * @uring_lock: protects @uring_waits and @n_uring_waits (taken in the
 *	timer interrupt: irqsave; inside ldev->lock when both are held)
 * @uring_waits: outstanding io_uring waits (struct loom_uwait, loom_uring.c)
 * @n_uring_waits: entries of @uring_waits, at most LOOM_URING_MAX_WAITS
 * @rcu: frees the file after a grace period: debugfs walks ldev->files
 *	under rcu_read_lock() (its writers hold ldev->lock)
 */
struct loom_file {
	struct loom_dev *ldev;
	struct list_head node;
	struct address_space *mapping;
	u32 cookie;
	struct xarray ctxs;
	unsigned int n_ctxs;
	spinlock_t uring_lock;		/* see @uring_lock above */
	struct list_head uring_waits;
	unsigned int n_uring_waits;
	struct rcu_head rcu;
};

/* mmap regions of a context, encoded in tokens */
enum loom_region {
	LOOM_REGION_CMDQ,
	LOOM_REGION_CQ,
	LOOM_REGION_DOORBELL,
	LOOM_REGION_SEGMENT,
	LOOM_REGION_KICK,
	LOOM_REGION_COUNTERS,	/* read-only for the user */
	LOOM_REGION_BSU,	/* the granted BSUs' user pages */
	LOOM_REGION_COUNT
};

/**
 * struct loom_dma_buf - pages mapped for the card (loom_dma_alloc())
 * @va: kernel address
 * @dma: bus address the card uses, while not @kept
 * @size: bytes allocated (page multiple)
 * @kept: unmapped but never freed: the card may still write the pages
 *	(loom_dma_keep())
 */
struct loom_dma_buf {
	void *va;
	dma_addr_t dma;
	size_t size;
	bool kept;
};

/**
 * struct loom_pin - a charge for pinned memory (loom_pin.c)
 * @pages: pages charged, 0 when nothing is
 * @user: user whose RLIMIT_MEMLOCK counter (locked_vm) holds the charge
 *	(a reference from get_uid()), NULL for a CAP_IPC_LOCK caller
 * @mm: address space whose pinned_vm (VmPin) shows the charge (a
 *	reference from mmgrab(): the struct outlives the process's exit)
 */
struct loom_pin {
	unsigned long pages;
	struct user_struct *user;
	struct mm_struct *mm;
};

/**
 * struct loom_ctx - one card context owned by a file
 * @lf: owning file
 * @slot: slot in lf->ctxs, encoded in the tokens
 * @index: context index on the card
 * @key: partition key (the card stamps it on the context's requests)
 * @uid: real uid of the creator, whose caps it is charged to (loom_quota.c)
 * @pages: pages of memory it takes (rings, segment, counters page)
 * @charged: @uid's caps hold the context
 * @cmdq_log2: log2 of command ring entries
 * @cq_log2: log2 of completion ring entries
 * @cmdq: command ring
 * @cq: completion ring
 * @seg: memory segment
 * @map_count: live vmas of this context's regions
 * @enabled: CTX_ENABLE was acknowledged and no CTX_DISABLE since
 * @orphan_node: entry in ldev->orphans once its file is closed
 * @bsu_mask: BSUs granted to this context (loom_bsu.c)
 * @uring_pi: LOOM_URING_SUBMIT: the command producer index after the
 *	descriptors the kernel wrote (loom_uring.c); the kernel's copy, as
 *	LOOM_DB_CMD_PI is write-only
 * @uring_pi_pending: @uring_pi is ahead of what was written to CMD_PI
 * @pin: what the context's memory is charged to (loom_pin.c)
 * @mrs: its memory regions (struct loom_mr, loom_mr.c), protected by
 *	ldev->lock
 * @mr_busy: registrations and deregistrations under way (ldev->lock)
 */
struct loom_ctx {
	struct loom_file *lf;
	u32 slot;
	u32 index;
	u32 key;
	kuid_t uid;
	unsigned long pages;
	bool charged;
	u32 cmdq_log2;
	u32 cq_log2;
	struct loom_dma_buf cmdq;
	struct loom_dma_buf cq;
	struct loom_dma_buf seg;
	struct loom_dma_buf counters;	/* LOOM_CTX_COUNTERS u64, card-written */
	atomic_t map_count;
	bool enabled;
	struct list_head orphan_node;
	u32 bsu_mask;
	struct loom_pin pin;
	u32 uring_pi;
	bool uring_pi_pending;
	struct list_head mrs;
	u32 mr_busy;
};

/* loom_main.c */
void loom_dev_put(struct loom_dev *ldev);
struct loom_dev *loom_dev_get_by_minor(unsigned int minor);
struct loom_dev *loom_dev_get_next(unsigned long *index);
int loom_dev_register(struct loom_dev *ldev);
void loom_dev_unregister(struct loom_dev *ldev);

/* loom_regs.c */
int loom_regs_discover(struct loom_dev *ldev);

/* loom_admin.c */
int loom_admin_cmd(struct loom_dev *ldev, u32 cmd, u32 arg0,
		   unsigned int timeout_ms);
int loom_admin_wait_ready(struct loom_dev *ldev);
void loom_admin_stop(struct loom_dev *ldev);
int loom_admin_quiesce(struct loom_dev *ldev);

/* loom_irq.c */
int loom_irq_setup(struct loom_dev *ldev);
void loom_irq_teardown(struct loom_dev *ldev);

/* loom_ctx.c: contexts and DMA bytes of every card (debugfs "memory") */
extern atomic_long_t loom_mem_contexts;
extern atomic_long_t loom_mem_dma_bytes;
extern atomic_long_t loom_mem_kept_bytes;
int loom_ctx_create(struct loom_file *lf, struct loom_ctx_create *req);
int loom_ctx_destroy(struct loom_file *lf, u32 index);
void loom_ctx_release_all(struct loom_file *lf);
bool loom_ctx_hw_stop_all(struct loom_dev *ldev);
void loom_ctx_wait_held(struct loom_dev *ldev);
void loom_ctx_free_dead(struct loom_dev *ldev, bool stopped);
void loom_ctx_keep_orphans(struct loom_dev *ldev);
void loom_ctx_kept_exit(void);
bool loom_ctx_cq_ready(struct loom_ctx *ctx);
u64 loom_token(const struct loom_ctx *ctx, enum loom_region region);

/* loom_ctx.c: memory mapped for the card (pages, streaming mapping) */
int loom_dma_alloc(struct loom_dev *ldev, struct loom_dma_buf *b, size_t size);
void loom_dma_free(struct loom_dev *ldev, struct loom_dma_buf *b);
size_t loom_dma_keep(struct loom_dev *ldev, struct loom_dma_buf *b);

/* loom_cdev.c: ioctl arguments */
int loom_arg_in(void *karg, size_t ksize, size_t minsz, void __user *uarg,
		u32 *argsz);
int loom_arg_out(void __user *uarg, const void *karg, size_t ksize, u32 argsz);

/* loom_mr.c: memory regions (debugfs "memory": regions, pinned pages) */
extern atomic_long_t loom_mem_mrs;
extern atomic_long_t loom_mem_mr_pages;
int loom_mr_reg(struct loom_file *lf, struct loom_mr_reg *req);
int loom_mr_dereg(struct loom_file *lf, const struct loom_mr_dereg *req);
int loom_mr_reg_user(struct loom_file *lf, void __user *uarg);
int loom_mr_dereg_user(struct loom_file *lf, void __user *uarg);
void loom_mr_free_all(struct loom_dev *ldev, struct loom_ctx *ctx);
void loom_mr_uncharge_all(struct loom_dev *ldev, struct loom_ctx *ctx);
size_t loom_mr_keep_all(struct loom_dev *ldev, struct loom_ctx *ctx);
void loom_mr_forget_all(struct loom_ctx *ctx);

/* loom_quota.c: memory regions */
int loom_quota_charge_pages(struct loom_dev *ldev, kuid_t uid,
			    unsigned long pages);
void loom_quota_uncharge_pages(struct loom_dev *ldev, kuid_t uid,
			       unsigned long pages);
/* loom_quota.c */
struct seq_file;
int loom_quota_charge(struct loom_dev *ldev, kuid_t uid, u32 bsus,
		      unsigned long pages);
void loom_quota_uncharge(struct loom_dev *ldev, kuid_t uid, u32 bsus,
			 unsigned long pages);
void loom_quota_show(struct seq_file *s, struct loom_dev *ldev);
void loom_quota_destroy(struct loom_dev *ldev);

/* loom_pin.c */
int loom_pin_charge(struct loom_dev *ldev, struct loom_pin *pin,
		    unsigned long pages);
void loom_pin_uncharge(struct loom_dev *ldev, struct loom_pin *pin);

/* loom_bsu.c */
int loom_bsu_grant(struct loom_dev *ldev, struct loom_ctx *ctx, u32 mask);
void loom_bsu_release(struct loom_dev *ldev, struct loom_ctx *ctx);
bool loom_bsu_owner(struct loom_dev *ldev, u32 bsu, u32 *index);
int loom_bsu_mmap_check(struct loom_dev *ldev, struct loom_ctx *ctx,
			struct vm_area_struct *vma);
bool loom_bsu_pfn(struct loom_dev *ldev, struct loom_ctx *ctx,
		  unsigned long unit, unsigned long *pfn);
int loom_bsu_wait_check(struct loom_dev *ldev, struct loom_ctx *ctx, u32 unit,
			u32 cond);
int loom_bsu_cond_met(struct loom_dev *ldev, u32 unit, u32 cond, u32 value);
long loom_bsu_wait_ioctl(struct loom_file *lf, struct loom_bsu_wait *req);
void loom_bsu_event(struct loom_dev *ldev);

/* loom_mmap.c */
int loom_mmap(struct file *file, struct vm_area_struct *vma);

/* loom_cdev.c */
extern const struct file_operations loom_fops;
void loom_files_kill(struct loom_dev *ldev);

/* loom_uring.c */
struct io_uring_cmd;
struct seq_file;
void loom_uring_waits_show(struct seq_file *s, struct loom_dev *ldev);
int loom_uring_cmd(struct io_uring_cmd *cmd, unsigned int issue_flags);
void loom_uring_file_init(struct loom_file *lf);
void loom_uring_file_release(struct loom_file *lf);
void loom_uring_file_kill(struct loom_file *lf);
void loom_uring_ctx_gone(struct loom_file *lf, u32 index);
void loom_uring_scan(struct work_struct *work);
void loom_uring_irq(struct loom_dev *ldev);
struct loom_ctx *loom_file_find_ctx(struct loom_file *lf, u32 index);

/* loom_events.c */
void loom_events_start(struct loom_dev *ldev);
void loom_events_stop(struct loom_dev *ldev);
void loom_port_event(struct loom_dev *ldev);

/* loom_keys.c */
int loom_keys_check(struct loom_dev *ldev, u32 key);
void loom_keys_bsu_grant(struct loom_dev *ldev, struct loom_ctx *ctx);
void loom_keys_bsu_sync(struct loom_dev *ldev);

/* loom_debugfs.c */
void loom_debugfs_add(struct loom_dev *ldev);
void loom_debugfs_remove(struct loom_dev *ldev);
void loom_debugfs_init(void);
void loom_debugfs_exit(void);

/* loom_sysfs.c */
extern const struct attribute_group *loom_dev_groups[];

/* loom_pci.c */
int loom_pci_register(void);
void loom_pci_unregister(void);

/*
 * Register access through the HAL: only for loom_regs.c, loom_admin.c and
 * the loom_hw_*.c files (one per register block), which check every value
 * they read before anything else sees it (loom_hw.h).
 */
static inline u32 loom_rd(struct loom_dev *ldev, u32 off)
{
	return ldev->hal->read32(ldev, off);
}

static inline void loom_wr(struct loom_dev *ldev, u32 off, u32 val)
{
	ldev->hal->write32(ldev, off, val);
}

#endif /* LOOM_DRV_H */
