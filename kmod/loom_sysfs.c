// SPDX-License-Identifier: GPL-2.0
/*
 * sysfs attributes of /sys/class/loom/loomN: who the card is.  They exist
 * only while the card is bound (the class device is destroyed before the
 * registers are unmapped), so reading registers here is safe; the logical
 * id answers -EIO once the card failed.
 */
#include <linux/device.h>
#include <linux/sysfs.h>

#include "loom_drv.h"

static ssize_t node_id_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct loom_dev *ldev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", ldev->geo.node_id);
}
static DEVICE_ATTR_RO(node_id);

static ssize_t logical_id_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct loom_dev *ldev = dev_get_drvdata(dev);
	u32 id;
	int err;

	err = loom_hw_logical_id(ldev, &id);
	return err ? err : sysfs_emit(buf, "%u\n", id);
}
static DEVICE_ATTR_RO(logical_id);

static ssize_t fw_version_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct loom_dev *ldev = dev_get_drvdata(dev);
	u32 v = ldev->fwid.design_version;

	return sysfs_emit(buf, "%u.%u.%u\n", v >> 16, (v >> 8) & 0xff, v & 0xff);
}
static DEVICE_ATTR_RO(fw_version);

static ssize_t fw_build_id_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct loom_dev *ldev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%08x\n", ldev->fwid.build_id);
}
static DEVICE_ATTR_RO(fw_build_id);

static ssize_t emulated_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct loom_dev *ldev = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n",
			  !!(ldev->fwid.flags & LOOM_FWID_F_EMULATED));
}
static DEVICE_ATTR_RO(emulated);

static struct attribute *loom_dev_attrs[] = {
	&dev_attr_node_id.attr,
	&dev_attr_logical_id.attr,
	&dev_attr_fw_version.attr,
	&dev_attr_fw_build_id.attr,
	&dev_attr_emulated.attr,
	NULL
};

static const struct attribute_group loom_dev_group = {
	.attrs = loom_dev_attrs,
};

const struct attribute_group *loom_dev_groups[] = {
	&loom_dev_group,
	NULL
};
