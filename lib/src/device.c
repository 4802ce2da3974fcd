// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/* libloom: opening a card and asking who it is. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/loom.h>
#include <loom.h>

#include "ctx_internal.h"

int loom_dev_open(const char *path, struct loom_dev **devp)
{
	struct loom_dev *dev;

	if (!devp)
		return -EINVAL;
	if (!path)
		path = getenv("LOOM_DEVICE");
	if (!path || !*path)
		path = "/dev/loom0";
	if (strlen(path) >= sizeof(dev->path))
		return -ENAMETOOLONG;

	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	dev->fd = open(path, O_RDWR | O_CLOEXEC);
	if (dev->fd < 0) {
		int err = -errno;

		free(dev);
		return err;
	}
	snprintf(dev->path, sizeof(dev->path), "%s", path);
	*devp = dev;
	return 0;
}

void loom_dev_close(struct loom_dev *dev)
{
	if (!dev)
		return;
	close(dev->fd);
	free(dev);
}

int loom_dev_query(struct loom_dev *dev, struct loom_dev_attr *attr)
{
	struct loom_dev_info info = { .argsz = sizeof(info) };

	if (!dev || !attr)
		return -EINVAL;
	if (ioctl(dev->fd, LOOM_IOC_DEV_INFO, &info) < 0)
		return -errno;
	memset(attr, 0, sizeof(*attr));
	attr->node_id = info.node_id;
	attr->logical_id = info.logical_id;
	attr->n_ports = info.n_ports;
	attr->n_contexts = info.n_contexts;
	attr->design_version = info.design_version;
	attr->build_id = info.build_id;
	attr->emulated = !!(info.hw_flags & LOOM_DEV_HW_EMULATED);
	attr->max_payload = info.max_payload;
	return 0;
}
