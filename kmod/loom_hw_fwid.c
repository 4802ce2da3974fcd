// SPDX-License-Identifier: GPL-2.0
/*
 * The firmware-id block: the card's identity, read once at probe, and the
 * signature that says the card still answers.  The description is made
 * printable: whatever the card puts there ends up in logs and netlink
 * strings.
 */
#include <linux/pci.h>
#include <linux/string.h>

#include "loom_drv.h"

/**
 * loom_hw_fwid_probe() - read the firmware identity into ldev->fwid
 * @ldev: the card, its FWID block found at offset 0
 */
void loom_hw_fwid_probe(struct loom_dev *ldev)
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

/**
 * loom_hw_fwid_answers() - does the card's signature still read back?
 * @ldev: the card, registers mapped, failed or not
 *
 * For the removal path: whether a last command is worth sending (after a
 * surprise removal every register reads all ones).
 *
 * Return: true when LOOM_MAGIC reads back.
 */
bool loom_hw_fwid_answers(struct loom_dev *ldev)
{
	return loom_rd(ldev, LOOM_FWID_MAGIC) == LOOM_MAGIC;
}

/**
 * loom_hw_fwid_check() - is the card still there?  Before a change is
 *	written
 * @ldev: the card, alive
 *
 * A signature that no longer reads back marks the card failed.
 *
 * Return: 0 or -EIO.
 */
int loom_hw_fwid_check(struct loom_dev *ldev)
{
	u32 magic;

	if (loom_hw_failed(ldev))
		return -EIO;
	magic = loom_rd(ldev, LOOM_FWID_MAGIC);
	if (magic != LOOM_MAGIC) {
		loom_hw_fail(ldev, "FWID", "MAGIC", -1, LOOM_FWID_MAGIC, magic,
			     "exactly %#x", LOOM_MAGIC);
		return -EIO;
	}
	return 0;
}
