// SPDX-License-Identifier: GPL-2.0
/*
 * Register-space discovery: walk the chain of self-describing blocks that
 * starts with the firmware-id block at offset 0, check that every block
 * the driver needs is there in a compatible version, have each block's
 * file read and check its geometry (loom_hw.h), check that no two blocks
 * or page areas overlap, and log what the card is.
 */
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "loom_drv.h"

struct loom_blk_need {
	u32 type;
	const char *name;
	u32 version;		/* LOOM_BLK_VER(major, lowest minor) */
	bool required;
	size_t dev_off;		/* where struct loom_dev keeps it, or 0 */
};

static const struct loom_blk_need loom_blk_needs[] = {
	{ LOOM_BLK_FWID, "FWID", LOOM_FWID_VERSION, true, 0 },
	{ LOOM_BLK_ADMIN, "ADMIN", LOOM_ADMIN_VERSION, true,
	  offsetof(struct loom_dev, blk_admin) },
	{ LOOM_BLK_ROUTER, "ROUTER", LOOM_ROUTER_VERSION, true,
	  offsetof(struct loom_dev, blk_router) },
	{ LOOM_BLK_CTX, "CTX", LOOM_CTX_VERSION, true,
	  offsetof(struct loom_dev, blk_ctx) },
	{ LOOM_BLK_DOORBELL, "DOORBELL", LOOM_DOORBELL_VERSION, true,
	  offsetof(struct loom_dev, blk_db) },
	{ LOOM_BLK_PORTS, "PORTS", LOOM_PORTS_VERSION, false,
	  offsetof(struct loom_dev, blk_ports) },
	{ LOOM_BLK_VCT, "VCT", LOOM_VCT_VERSION, false,
	  offsetof(struct loom_dev, blk_vct) },
	{ LOOM_BLK_COUNTERS, "COUNTERS", LOOM_COUNTERS_VERSION, false,
	  offsetof(struct loom_dev, blk_cnt) },
	{ LOOM_BLK_LINK, "LINK", LOOM_LINK_VERSION, false,
	  offsetof(struct loom_dev, blk_link) },
	{ LOOM_BLK_BSU, "BSU", LOOM_BSU_VERSION, false,
	  offsetof(struct loom_dev, blk_bsu) },
	{ LOOM_BLK_MAINT, "MAINT", LOOM_MAINT_VERSION, false,
	  offsetof(struct loom_dev, blk_maint) },
	{ LOOM_BLK_MR, "MR", LOOM_MR_VERSION, false,
	  offsetof(struct loom_dev, blk_mr) },
	{ LOOM_BLK_PERF, "PERF", LOOM_PERF_VERSION, false,
	  offsetof(struct loom_dev, blk_perf) },
	{ LOOM_BLK_MCAST, "MCAST", LOOM_MCAST_VERSION, false,
	  offsetof(struct loom_dev, blk_mcast) },
};

/*
 * Every block of the chain, and the page areas, as spans of the register
 * space: they must not overlap (a doorbell page on top of the admin
 * mailbox would hand the mailbox to whoever maps that page).
 */
struct loom_span {
	const char *block;	/* block name, NULL for an unknown type */
	const char *reg;	/* register that placed it */
	u32 reg_off;		/* offset of that register */
	u32 type;
	u32 start;
	u64 end;
};

/* at most every block of the chain and the two page areas */
#define LOOM_SPANS	(LOOM_BLK_MAX_CHAIN + 2)

static const char *loom_blk_name(u32 type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(loom_blk_needs); i++)
		if (loom_blk_needs[i].type == type)
			return loom_blk_needs[i].name;
	return NULL;
}

/*
 * Walk the chain; remember the first block of each type the driver knows
 * and every block as a span.  Each header word is read once.
 */
static int loom_regs_walk(struct loom_dev *ldev, struct loom_blk *found,
			  size_t n_found, struct loom_span *spans,
			  unsigned int *n_spans)
{
	struct device *dev = &ldev->pdev->dev;
	u32 off = 0;
	unsigned int n, i;

	for (n = 0; n < LOOM_BLK_MAX_CHAIN; n++) {
		u32 type, version, next, size;

		if (off % 4 || off > ldev->regs_len - LOOM_BLK_HDR_SIZE) {
			dev_err(dev, "register block %u at %#x lies outside the %#x-byte register space\n",
				n, off, ldev->regs_len);
			return -EPROTO;
		}
		for (i = 0; i < n; i++) {
			if (spans[i].start == off) {
				dev_err(dev, "register block chain loops back to %#x after %u blocks\n",
					off, n);
				return -EPROTO;
			}
		}

		type = loom_rd(ldev, off + LOOM_BLK_TYPE);
		version = loom_rd(ldev, off + LOOM_BLK_VERSION);
		next = loom_rd(ldev, off + LOOM_BLK_NEXT);
		size = loom_rd(ldev, off + LOOM_BLK_SIZE);
		if (size < LOOM_BLK_HDR_SIZE || size > ldev->regs_len - off) {
			dev_err(dev, "register block type %#x at %#x claims %#x bytes: outside the register space\n",
				type, off, size);
			return -EPROTO;
		}
		spans[n] = (struct loom_span){
			.block = loom_blk_name(type), .reg = "SIZE",
			.reg_off = off + LOOM_BLK_SIZE, .type = type,
			.start = off, .end = (u64)off + size,
		};
		*n_spans = n + 1;
		for (i = 0; i < n_found; i++) {
			if (loom_blk_needs[i].type == type && !found[i].size) {
				found[i].off = off;
				found[i].size = size;
				found[i].version = version;
			}
		}
		if (!next)
			return 0;
		off = next;
	}
	dev_err(dev, "register block chain longer than %d blocks: corrupt\n",
		LOOM_BLK_MAX_CHAIN);
	return -EPROTO;
}

static int loom_regs_check_versions(struct loom_dev *ldev,
				    const struct loom_blk *found)
{
	struct device *dev = &ldev->pdev->dev;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(loom_blk_needs); i++) {
		const struct loom_blk_need *need = &loom_blk_needs[i];
		u32 want_major = LOOM_BLK_VER_MAJOR(need->version);
		u32 want_minor = LOOM_BLK_VER_MINOR(need->version);
		u32 major = LOOM_BLK_VER_MAJOR(found[i].version);
		u32 minor = LOOM_BLK_VER_MINOR(found[i].version);

		if (!found[i].size) {
			if (!need->required)
				continue;
			dev_err(dev, "block %s missing\n", need->name);
			return -EPROTO;
		}
		if (major != want_major || minor < want_minor) {
			if (want_minor)
				dev_err(dev, "block %s v%u.%u found, driver needs v%u.%u or a later v%u.x\n",
					need->name, major, minor, want_major,
					want_minor, want_major);
			else
				dev_err(dev, "block %s v%u.%u found, driver needs v%u.x\n",
					need->name, major, minor, want_major);
			return -EPROTO;
		}
		if (need->dev_off)
			*(struct loom_blk *)((char *)ldev + need->dev_off) = found[i];
	}
	if (found[0].off != 0) {
		dev_err(dev, "block FWID found at %#x, must be at offset 0\n",
			found[0].off);
		return -EPROTO;
	}
	return 0;
}

/* Do any two spans overlap?  Say which, as the later one's register. */
static int loom_regs_check_spans(struct loom_dev *ldev,
				 const struct loom_span *spans,
				 unsigned int n)
{
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++) {
			const struct loom_span *a = &spans[j], *b = &spans[i];
			char name[16];

			if (b->start >= a->end || a->start >= b->end)
				continue;
			snprintf(name, sizeof(name), "type %#x", a->type);
			return loom_hw_refuse(ldev, b->block ?: "(unknown)", b->reg,
					      -1, b->reg_off, b->start,
					      "[0x%x, 0x%llx) apart from block %s at [0x%x, 0x%llx)",
					      b->start, b->end,
					      a->block ?: name, a->start, a->end);
		}
	}
	return 0;
}

/* The page areas join the spans; then nothing may overlap. */
static int loom_regs_check_layout(struct loom_dev *ldev,
				  struct loom_span *spans, unsigned int n)
{
	spans[n++] = (struct loom_span){
		.block = "DOORBELL", .reg = "AREA",
		.reg_off = ldev->blk_db.off + LOOM_DOORBELL_AREA,
		.type = LOOM_BLK_DOORBELL, .start = ldev->db_area,
		.end = ldev->db_area + (u64)ldev->n_ctx * LOOM_DB_PAGE_SIZE,
	};
	if (loom_hw_bsu_count(ldev))
		spans[n++] = (struct loom_span){
			.block = "BSU", .reg = "PAGE_AREA",
			.reg_off = ldev->blk_bsu.off + LOOM_BSU_PAGE_AREA,
			.type = LOOM_BLK_BSU, .start = ldev->geo.bsu_area,
			.end = ldev->geo.bsu_area +
			       (u64)loom_hw_bsu_count(ldev) * LOOM_BSU_PAGE_SIZE,
		};
	return loom_regs_check_spans(ldev, spans, n);
}

/**
 * loom_regs_discover() - find and check the register blocks of a card
 * @ldev: the card, with its register space mapped by the HAL
 *
 * Walks the chain, checks the versions, reads the firmware identity and
 * every block's geometry once (loom_hw_*_probe()), and checks that no two
 * blocks or page areas overlap.  Logs the firmware identity and the reason
 * for any refusal, e.g. "block ROUTER v2.0 found, driver needs v1.x",
 * "block CTX missing" or "block ROUTER register N_PORTS (offset 0x98)
 * reads 9 (0x9), limit: at most 8 (LOOM_MAX_PORTS): not binding the card".
 *
 * Return: 0, or -EPROTO when the card is not usable by this driver.
 */
int loom_regs_discover(struct loom_dev *ldev)
{
	struct loom_blk found[ARRAY_SIZE(loom_blk_needs)] = {};
	struct device *dev = &ldev->pdev->dev;
	struct loom_span *spans;
	unsigned int n_spans = 0;
	time64_t built;
	int err;

	spans = kcalloc(LOOM_SPANS, sizeof(*spans), GFP_KERNEL);
	if (!spans)
		return -ENOMEM;
	err = loom_regs_walk(ldev, found, ARRAY_SIZE(found), spans, &n_spans);
	if (!err)
		err = loom_regs_check_versions(ldev, found);
	if (err)
		goto out;

	err = loom_hw_probe_size(ldev, "FWID", &found[0], LOOM_FWID_SIZE);
	if (err)
		goto out;
	loom_hw_fwid_probe(ldev);
	built = ldev->fwid.build_time;
	dev_info(dev, "firmware \"%s\" design %u.%u.%u build %08x built %ptTs UTC%s\n",
		 ldev->fwid.desc, ldev->fwid.design_version >> 16,
		 (ldev->fwid.design_version >> 8) & 0xff,
		 ldev->fwid.design_version & 0xff, ldev->fwid.build_id, &built,
		 ldev->fwid.flags & LOOM_FWID_F_EMULATED ? " (card emulator)" : "");

	err = loom_hw_probe_size(ldev, "ADMIN", &ldev->blk_admin,
				 LOOM_ADMIN_SIZE);
	if (!err)
		err = loom_hw_router_probe(ldev);
	if (!err)
		err = loom_hw_ports_probe(ldev);
	if (!err)
		err = loom_hw_ctx_probe(ldev);
	if (!err)
		err = loom_hw_vct_probe(ldev);
	if (!err)
		err = loom_hw_counters_probe(ldev);
	if (!err)
		err = loom_hw_link_probe(ldev);
	if (!err)
		err = loom_hw_bsu_probe(ldev);
	if (!err)
		err = loom_hw_mr_probe(ldev);
	if (!err)
		err = loom_hw_perf_probe(ldev);
	if (!err)
		err = loom_hw_mcast_probe(ldev);
	if (!err)
		err = loom_regs_check_layout(ldev, spans, n_spans);
out:
	kfree(spans);
	return err;
}
