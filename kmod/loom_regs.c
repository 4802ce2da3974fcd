// SPDX-License-Identifier: GPL-2.0
/*
 * Register-space discovery: walk the chain of self-describing blocks that
 * starts with the firmware-id block at offset 0, check that every block
 * the driver needs is there in a compatible version, and log what the
 * card is.
 */
#include <linux/pci.h>
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
};

/* Walk the chain; remember the first block of each type the driver knows. */
static int loom_regs_walk(struct loom_dev *ldev, struct loom_blk *found,
			  size_t n_found)
{
	struct device *dev = &ldev->pdev->dev;
	u32 visited[LOOM_BLK_MAX_CHAIN];
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
			if (visited[i] == off) {
				dev_err(dev, "register block chain loops back to %#x after %u blocks\n",
					off, n);
				return -EPROTO;
			}
		}
		visited[n] = off;

		type = loom_rd(ldev, off + LOOM_BLK_TYPE);
		version = loom_rd(ldev, off + LOOM_BLK_VERSION);
		next = loom_rd(ldev, off + LOOM_BLK_NEXT);
		size = loom_rd(ldev, off + LOOM_BLK_SIZE);
		if (size < LOOM_BLK_HDR_SIZE || size > ldev->regs_len - off) {
			dev_err(dev, "register block type %#x at %#x claims %#x bytes: outside the register space\n",
				type, off, size);
			return -EPROTO;
		}
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

static void loom_regs_read_fwid(struct loom_dev *ldev)
{
	struct loom_fwid *fw = &ldev->fwid;
	unsigned int i;

	fw->design_version = loom_rd(ldev, LOOM_FWID_DESIGN_VERSION);
	fw->build_id = loom_rd(ldev, LOOM_FWID_BUILD_ID);
	fw->build_time = loom_rd(ldev, LOOM_FWID_BUILD_TIME);
	fw->flags = loom_rd(ldev, LOOM_FWID_FLAGS);
	for (i = 0; i < LOOM_FWID_DESC_LEN; i += 4) {
		__le32 w = cpu_to_le32(loom_rd(ldev, LOOM_FWID_DESC + i));

		memcpy(&fw->desc[i], &w, 4);
	}
	fw->desc[LOOM_FWID_DESC_LEN] = '\0';
	for (i = 0; i < LOOM_FWID_DESC_LEN && fw->desc[i]; i++) {
		if (fw->desc[i] < 0x20 || fw->desc[i] > 0x7e)
			fw->desc[i] = '?';
	}
}

/* Context records and doorbell pages: sizes, strides, bounds. */
static int loom_regs_check_ctx(struct loom_dev *ldev)
{
	struct device *dev = &ldev->pdev->dev;
	const struct loom_blk *c = &ldev->blk_ctx, *d = &ldev->blk_db;
	u32 n_ctx, stride, n_db, db_stride, area;

	if (c->size < LOOM_CTX_BASE || d->size < LOOM_DOORBELL_COUNT + 4) {
		dev_err(dev, "block CTX (%#x bytes) or DOORBELL (%#x bytes) too small for its header\n",
			c->size, d->size);
		return -EPROTO;
	}
	n_ctx = loom_rd(ldev, c->off + LOOM_CTX_COUNT);
	stride = loom_rd(ldev, c->off + LOOM_CTX_STRIDE);
	n_db = loom_rd(ldev, d->off + LOOM_DOORBELL_COUNT);
	db_stride = loom_rd(ldev, d->off + LOOM_DOORBELL_STRIDE);
	area = loom_rd(ldev, d->off + LOOM_DOORBELL_AREA);

	if (stride < LOOM_CTX_REC_SIZE || stride % 4) {
		dev_err(dev, "block CTX: record stride %#x, driver needs a multiple of 4 >= %#x\n",
			stride, LOOM_CTX_REC_SIZE);
		return -EPROTO;
	}
	if (db_stride != LOOM_DB_PAGE_SIZE || LOOM_DB_PAGE_SIZE != PAGE_SIZE ||
	    area % PAGE_SIZE) {
		dev_err(dev, "block DOORBELL: pages of %#x bytes at %#x, driver needs %#lx-byte pages at a page-aligned offset\n",
			db_stride, area, PAGE_SIZE);
		return -EPROTO;
	}
	n_ctx = min(n_ctx, n_db);
	if (!n_ctx) {
		dev_err(dev, "card offers no contexts (CTX count %u, doorbell pages %u)\n",
			loom_rd(ldev, c->off + LOOM_CTX_COUNT), n_db);
		return -EPROTO;
	}
	if ((u64)LOOM_CTX_BASE + (u64)n_ctx * stride > c->size) {
		dev_err(dev, "block CTX: %u records of %#x bytes do not fit its %#x bytes\n",
			n_ctx, stride, c->size);
		return -EPROTO;
	}
	if ((u64)area + (u64)n_ctx * db_stride > ldev->regs_len) {
		dev_err(dev, "block DOORBELL: %u pages at %#x do not fit the %#x-byte register space\n",
			n_ctx, area, ldev->regs_len);
		return -EPROTO;
	}
	if ((ldev->hal->regs_phys(ldev) + area) % PAGE_SIZE) {
		dev_err(dev, "doorbell pages are not page aligned in physical memory: cannot map them\n");
		return -EPROTO;
	}
	ldev->n_ctx = n_ctx;
	ldev->ctx_stride = stride;
	ldev->db_area = area;
	return 0;
}

/**
 * loom_regs_discover() - find and check the register blocks of a card
 * @ldev: the card, with its register space mapped by the HAL
 *
 * Logs the firmware identity and the reason for any refusal, e.g.
 * "block ROUTER v2.0 found, driver needs v1.x" or "block CTX missing".
 *
 * Return: 0, or -EPROTO when the card is not usable by this driver.
 */
int loom_regs_discover(struct loom_dev *ldev)
{
	struct loom_blk found[ARRAY_SIZE(loom_blk_needs)] = {};
	struct device *dev = &ldev->pdev->dev;
	time64_t built;
	int err;

	err = loom_regs_walk(ldev, found, ARRAY_SIZE(found));
	if (err)
		return err;
	err = loom_regs_check_versions(ldev, found);
	if (err)
		return err;

	loom_regs_read_fwid(ldev);
	built = ldev->fwid.build_time;
	dev_info(dev, "firmware \"%s\" design %u.%u.%u build %08x built %ptTs UTC%s\n",
		 ldev->fwid.desc, ldev->fwid.design_version >> 16,
		 (ldev->fwid.design_version >> 8) & 0xff,
		 ldev->fwid.design_version & 0xff, ldev->fwid.build_id, &built,
		 ldev->fwid.flags & LOOM_FWID_F_EMULATED ? " (card emulator)" : "");

	if (ldev->blk_admin.size < LOOM_ADMIN_SIZE ||
	    ldev->blk_router.size < LOOM_ROUTER_RT) {
		dev_err(dev, "block ADMIN (%#x bytes) or ROUTER (%#x bytes) smaller than its registers\n",
			ldev->blk_admin.size, ldev->blk_router.size);
		return -EPROTO;
	}
	err = loom_regs_check_ctx(ldev);
	if (err)
		return err;
	ldev->n_ports = loom_rd(ldev, ldev->blk_router.off + LOOM_ROUTER_N_PORTS);
	return 0;
}

/**
 * loom_ctx_reg() - register-space offset of a field of a context record
 * @ldev: the card
 * @index: context index, < ldev->n_ctx
 * @field: LOOM_CTXR_*
 *
 * Return: the offset.
 */
u32 loom_ctx_reg(struct loom_dev *ldev, u32 index, u32 field)
{
	return ldev->blk_ctx.off + LOOM_CTX_BASE + index * ldev->ctx_stride +
	       field;
}

/**
 * loom_db_reg() - register-space offset of a register in a doorbell page
 * @ldev: the card
 * @index: context index, < ldev->n_ctx
 * @field: LOOM_DB_*
 *
 * Return: the offset.
 */
u32 loom_db_reg(struct loom_dev *ldev, u32 index, u32 field)
{
	return ldev->db_area + index * LOOM_DB_PAGE_SIZE + field;
}
