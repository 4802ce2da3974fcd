// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs: /sys/kernel/debug/loom/loomN/regs (the register blocks the
 * driver knows, each register by name), .../contexts (every context in
 * use: index, owner, rings, producer/consumer indices, state), .../uring
 * (the io_uring wait commands of its open files) and
 * /sys/kernel/debug/loom/memory (what the contexts of every card hold, kept
 * across unbinds: a leak shows there).  For people and tests, not
 * programs: the format may change.  A kernel without debugfs,
 * or a failure to create a file, is not an error: the driver works the
 * same without it.  The files are removed before the card is released;
 * debugfs itself keeps a reader from outliving that.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sizes.h>

#include "loom_drv.h"
#include "loom_genl.h"

static struct dentry *loom_debugfs_root;

struct loom_reg_name {
	u32 off;
	const char *name;
};

static const struct loom_reg_name loom_dbg_router[] = {
	{ LOOM_ROUTER_NODE_ID, "node_id" },
	{ LOOM_ROUTER_LOGICAL_ID, "logical_id" },
	{ LOOM_ROUTER_N_PORTS, "n_ports" },
	{ LOOM_ROUTER_RT_ENTRIES, "rt_entries" },
};

static const struct loom_reg_name loom_dbg_admin[] = {
	{ LOOM_ADMIN_CMD, "cmd" }, { LOOM_ADMIN_ARG0, "arg0" },
	{ LOOM_ADMIN_ARG1, "arg1" }, { LOOM_ADMIN_SEQ, "seq" },
	{ LOOM_ADMIN_ACK, "ack" }, { LOOM_ADMIN_RESULT, "result" },
	{ LOOM_ADMIN_N_CTX, "n_ctx" }, { LOOM_ADMIN_N_VECTORS, "n_vectors" },
	{ LOOM_ADMIN_STATUS, "status" },
};

static const struct loom_reg_name loom_dbg_ports[] = {
	{ LOOM_PORTS_COUNT, "count" }, { LOOM_PORTS_STRIDE, "stride" },
	{ LOOM_PORTS_FP_TIMEOUT_MS, "fp_timeout_ms" },
	{ LOOM_PORTS_EVENTS, "events" },
};

static const struct loom_reg_name loom_dbg_port[] = {
	{ LOOM_PORT_STATUS, "status" }, { LOOM_PORT_CTRL, "ctrl" },
	{ LOOM_PORT_PEER_NODE, "peer_node" },
	{ LOOM_PORT_PEER_PORT, "peer_port" },
	{ LOOM_PORT_TX_FRAMES, "tx_frames" },
	{ LOOM_PORT_RX_FRAMES, "rx_frames" },
	{ LOOM_PORT_TX_BYTES, "tx_bytes" }, { LOOM_PORT_RX_BYTES, "rx_bytes" },
	{ LOOM_PORT_CRC_ERRORS, "crc_errors" },
	{ LOOM_PORT_SEQ_ERRORS, "seq_errors" }, { LOOM_PORT_DROPS, "drops" },
	{ LOOM_PORT_RETRIES, "retries" }, { LOOM_PORT_NAKS_SENT, "naks_sent" },
	{ LOOM_PORT_INJECTED, "injected" }, { LOOM_PORT_REPLAYED, "replayed" },
	{ LOOM_PORT_ACK_TIMEOUTS, "ack_timeouts" },
};

static const struct loom_reg_name loom_dbg_cnt[] = {
	{ LOOM_CNT_N_PORTS, "n_ports" }, { LOOM_CNT_N_VCS, "n_vcs" },
	{ LOOM_CNT_STRIDE, "stride" }, { LOOM_CNT_DROP_KEY, "drop_key" },
	{ LOOM_CNT_DROP_BOUNDS, "drop_bounds" },
	{ LOOM_CNT_DROP_NO_CTX, "drop_no_ctx" },
	{ LOOM_CNT_DROP_NO_ROUTE, "drop_no_route" },
	{ LOOM_CNT_DROP_HOP_LIMIT, "drop_hop_limit" },
	{ LOOM_CNT_DROP_MALFORMED, "drop_malformed" },
	{ LOOM_CNT_MAINT_LOST, "maint_lost" },
};

static const struct loom_reg_name loom_dbg_link[] = {
	{ LOOM_LINK_N_LANES, "n_lanes" },
	{ LOOM_LINK_LANE_THRESHOLD, "lane_threshold" },
	{ LOOM_LINK_LANE_WINDOW_MS, "lane_window_ms" },
};

static void loom_dbg_block(struct seq_file *s, struct loom_dev *ldev,
			   const char *name, const struct loom_blk *b,
			   const struct loom_reg_name *regs, unsigned int n,
			   u32 min_size)
{
	unsigned int i;

	if (!b->size) {
		seq_printf(s, "%s: absent\n", name);
		return;
	}
	seq_printf(s, "%s: offset %#x size %#x version %u.%u\n", name, b->off,
		   b->size, LOOM_BLK_VER_MAJOR(b->version),
		   LOOM_BLK_VER_MINOR(b->version));
	if (b->size < min_size)
		return;
	for (i = 0; i < n; i++)
		seq_printf(s, "  %-16s %#010x\n", regs[i].name,
			   loom_rd(ldev, b->off + regs[i].off));
}

/*
 * Raw registers, as they read now, for people: printed, never used.  The
 * geometry (record counts and strides) is the one checked at probe.
 */
static void loom_dbg_regs_locked(struct seq_file *s, struct loom_dev *ldev)
{
	u32 n, port, i, rec;

	seq_printf(s, "FWID: magic %#010x design %#x build %08x flags %#x \"%s\"\n",
		   loom_rd(ldev, LOOM_FWID_MAGIC), ldev->fwid.design_version,
		   ldev->fwid.build_id, ldev->fwid.flags, ldev->fwid.desc);
	loom_dbg_block(s, ldev, "ADMIN", &ldev->blk_admin, loom_dbg_admin,
		       ARRAY_SIZE(loom_dbg_admin), LOOM_ADMIN_SIZE);
	loom_dbg_block(s, ldev, "ROUTER", &ldev->blk_router, loom_dbg_router,
		       ARRAY_SIZE(loom_dbg_router), LOOM_ROUTER_RT);
	loom_dbg_block(s, ldev, "PORTS", &ldev->blk_ports, loom_dbg_ports,
		       ARRAY_SIZE(loom_dbg_ports), LOOM_PORTS_BASE);
	n = loom_hw_ports_count(ldev);
	for (port = 0; port < n; port++) {
		rec = ldev->blk_ports.off + LOOM_PORTS_BASE +
		      port * ldev->geo.port_stride;
		seq_printf(s, "  port %u:", port);
		for (i = 0; i < ARRAY_SIZE(loom_dbg_port); i++)
			seq_printf(s, " %s %#x", loom_dbg_port[i].name,
				   loom_rd(ldev, rec + loom_dbg_port[i].off));
		seq_putc(s, '\n');
	}
	loom_dbg_block(s, ldev, "VCT", &ldev->blk_vct, NULL, 0, LOOM_VCT_SIZE);
	if (ldev->blk_vct.size >= LOOM_VCT_SIZE) {
		seq_printf(s, "  %-16s %u\n", "n_ports",
			   loom_rd(ldev, ldev->blk_vct.off + LOOM_VCT_N_PORTS));
		for (port = 0; port < LOOM_MAX_PORTS; port++)
			seq_printf(s, "  port_cfg[%u]      %#010x\n", port,
				   loom_rd(ldev, ldev->blk_vct.off +
					   LOOM_VCT_PORT_CFG + port * 4));
	}
	loom_dbg_block(s, ldev, "COUNTERS", &ldev->blk_cnt, loom_dbg_cnt,
		       ARRAY_SIZE(loom_dbg_cnt), LOOM_CNT_BASE);
	loom_dbg_block(s, ldev, "LINK", &ldev->blk_link, loom_dbg_link,
		       ARRAY_SIZE(loom_dbg_link), LOOM_LINK_BASE);
	seq_printf(s, "CTX: offset %#x size %#x contexts %u stride %#x\n",
		   ldev->blk_ctx.off, ldev->blk_ctx.size, ldev->n_ctx,
		   ldev->ctx_stride);
	seq_printf(s, "DOORBELL: offset %#x pages at %#x\n", ldev->blk_db.off,
		   ldev->db_area);
	if (loom_hw_bsu_count(ldev))
		seq_printf(s, "BSU: offset %#x units %u pages at %#x\n",
			   ldev->blk_bsu.off, loom_hw_bsu_count(ldev),
			   ldev->geo.bsu_area);
}

static int loom_dbg_regs_show(struct seq_file *s, void *unused)
{
	struct loom_dev *ldev = s->private;

	mutex_lock(&ldev->lock);
	if (loom_hw_failed(ldev))
		seq_puts(s, "the card failed: its registers are not read\n");
	else if (ldev->dead)
		seq_puts(s, "the card is gone\n");
	else
		loom_dbg_regs_locked(s, ldev);
	mutex_unlock(&ldev->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(loom_dbg_regs);

/* One context; its registers only while the card is alive. */
static void loom_dbg_ctx(struct seq_file *s, struct loom_dev *ldev,
			 struct loom_ctx *ctx, const char *owner)
{
	u32 i = ctx->index, state, error, ci, cq_ci;

	seq_printf(s, "ctx %u (%s): key %#x cmdq %u@%pad cq %u@%pad seg %zu@%pad\n",
		   i, owner, ctx->key, 1u << ctx->cmdq_log2, &ctx->cmdq.dma,
		   1u << ctx->cq_log2, &ctx->cq.dma, ctx->seg.size,
		   &ctx->seg.dma);
	if (ldev->dead || loom_hw_ctx_state(ldev, i, &state, &error) ||
	    loom_hw_ctx_cmd_ci(ldev, i, &ci) ||
	    loom_hw_db_cq_ci_seen(ldev, i, &cq_ci)) {
		seq_printf(s, "    enabled %d mapped %d\n", ctx->enabled,
			   atomic_read(&ctx->map_count));
		return;
	}
	/* CMD_PI and CQ_CI are write-only: the kernel's copy, the card's view */
	seq_printf(s, "    state %u error %u uring_pi %u cmd_ci %u cq_ci_seen %u enabled %d mapped %d\n",
		   state, error, ctx->uring_pi, ci, cq_ci, ctx->enabled,
		   atomic_read(&ctx->map_count));
}

static int loom_dbg_contexts_show(struct seq_file *s, void *unused)
{
	struct loom_dev *ldev = s->private;
	struct loom_file *lf;
	struct loom_ctx *ctx;
	unsigned long slot;
	unsigned int n = 0;

	mutex_lock(&ldev->lock);
	if (loom_hw_failed(ldev)) {
		seq_puts(s, "the card failed: its registers are not read\n");
	} else if (ldev->dead) {
		seq_puts(s, "the card is gone\n");
		goto out;
	}
	list_for_each_entry(lf, &ldev->files, node) {
		xa_for_each(&lf->ctxs, slot, ctx) {
			loom_dbg_ctx(s, ldev, ctx, "open file");
			n++;
		}
	}
	list_for_each_entry(ctx, &ldev->orphans, orphan_node) {
		loom_dbg_ctx(s, ldev, ctx, "orphan: kept until the card is quiet");
		n++;
	}
	seq_printf(s, "%u context%s in use of %u\n", n, n == 1 ? "" : "s",
		   ldev->n_ctx);
	seq_printf(s, "pinned %lu KiB (max_pinned_kb %u)\n",
		   atomic_long_read(&ldev->pinned_pages) * (PAGE_SIZE / SZ_1K),
		   READ_ONCE(loom_max_pinned_kb));
	loom_quota_show(s, ldev);
out:
	mutex_unlock(&ldev->lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(loom_dbg_contexts);

static int loom_dbg_uring_show(struct seq_file *s, void *unused)
{
	loom_uring_waits_show(s, s->private);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(loom_dbg_uring);

/**
 * loom_debugfs_add() - create /sys/kernel/debug/loom/loomN
 * @ldev: the card, registered
 */
void loom_debugfs_add(struct loom_dev *ldev)
{
	char name[16];

	if (IS_ERR_OR_NULL(loom_debugfs_root))
		return;
	snprintf(name, sizeof(name), "loom%d", ldev->minor);
	ldev->debugfs = debugfs_create_dir(name, loom_debugfs_root);
	debugfs_create_file("regs", 0400, ldev->debugfs, ldev,
			    &loom_dbg_regs_fops);
	debugfs_create_file("contexts", 0400, ldev->debugfs, ldev,
			    &loom_dbg_contexts_fops);
	debugfs_create_file("uring", 0400, ldev->debugfs, ldev,
			    &loom_dbg_uring_fops);
}

/**
 * loom_debugfs_remove() - remove the card's directory; waits for readers
 * @ldev: the card
 */
void loom_debugfs_remove(struct loom_dev *ldev)
{
	debugfs_remove_recursive(ldev->debugfs);
	ldev->debugfs = NULL;
}

static int loom_dbg_memory_show(struct seq_file *s, void *unused)
{
	seq_printf(s, "contexts %ld\ndma_bytes %ld\nmemory_regions %ld\nmr_pinned_pages %ld\nkept_bytes %ld\n",
		   atomic_long_read(&loom_mem_contexts),
		   atomic_long_read(&loom_mem_dma_bytes),
		   atomic_long_read(&loom_mem_mrs),
		   atomic_long_read(&loom_mem_mr_pages),
		   atomic_long_read(&loom_mem_kept_bytes));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(loom_dbg_memory);

/**
 * loom_debugfs_init() - create /sys/kernel/debug/loom and its "memory"
 */
void loom_debugfs_init(void)
{
	loom_debugfs_root = debugfs_create_dir(LOOM_DRV_NAME, NULL);
	if (IS_ERR_OR_NULL(loom_debugfs_root))
		return;
	debugfs_create_file("memory", 0400, loom_debugfs_root, NULL,
			    &loom_dbg_memory_fops);
}

/**
 * loom_debugfs_exit() - remove /sys/kernel/debug/loom
 */
void loom_debugfs_exit(void)
{
	debugfs_remove_recursive(loom_debugfs_root);
	loom_debugfs_root = NULL;
}
