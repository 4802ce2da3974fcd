// SPDX-License-Identifier: GPL-2.0
/*
 * The loom cards on the PCI bus, found with libpci: the real card by its
 * ids, the VM lab's card emulator as an ivshmem-doorbell device (1af4:1110)
 * with the loom signature (LOOM_MAGIC and LOOM_FWID_F_EMULATED at offset 0
 * of BAR2).  The driver bound to each comes from sysfs.
 *
 * The signature of an ivshmem device bound to loom.ko was checked by the
 * driver; for one bound to nothing it is read here through the sysfs
 * resource file (root only).  When it cannot be read the device is listed
 * with its signature unchecked rather than hidden.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <pci/pci.h>

#include "loomctl.h"

#define LC_IVSHMEM_VENDOR	0x1af4
#define LC_IVSHMEM_DEVICE	0x1110
#define LC_IVSHMEM_BAR_SHM	2

static const char *lc_sysfs_pci = "/sys/bus/pci/devices";

static void lc_pci_driver(const char *addr, char *drv, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s/driver", lc_sysfs_pci, addr);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0) {
		drv[0] = '\0';
		return;
	}
	link[n] = '\0';
	base = strrchr(link, '/');
	base = base ? base + 1 : link;
	if (strlen(base) >= len)
		drv[0] = '\0';
	else
		memcpy(drv, base, strlen(base) + 1);
}

/* LC_SIG_LAB: the loom signature; LC_SIG_NONE: another ivshmem device;
 * LC_SIG_UNCHECKED: BAR2 could not be read (not root, or memory decoding off)
 */
static enum lc_pci_sig lc_pci_signature(const char *addr)
{
	char path[PATH_MAX];
	enum lc_pci_sig sig = LC_SIG_UNCHECKED;
	long page = sysconf(_SC_PAGESIZE);
	volatile const uint32_t *w;
	uint32_t magic, flags;
	void *map;
	int fd;

	snprintf(path, sizeof(path), "%s/%s/resource%d", lc_sysfs_pci, addr,
		 LC_IVSHMEM_BAR_SHM);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return sig;
	map = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return sig;
	w = map;
	magic = w[LOOM_FWID_MAGIC / 4];
	flags = w[LOOM_FWID_FLAGS / 4];
	munmap(map, (size_t)page);
	if (magic == 0xffffffffu)
		return LC_SIG_UNCHECKED;	/* memory decoding is off */
	if (magic == LOOM_MAGIC && (flags & LOOM_FWID_F_EMULATED))
		return LC_SIG_LAB;
	return LC_SIG_NONE;
}

/**
 * lc_pci_scan() - list the loom cards on the PCI bus
 * @cards: filled with up to @max cards, in bus order
 * @max: room in @cards
 * @n: set to the number found (at most @max)
 *
 * Return: 0, or LC_EXIT_KERNEL after saying why the bus could not be read.
 */
int lc_pci_scan(struct lc_pci_card *cards, unsigned int max, unsigned int *n)
{
	struct pci_access *pacc;
	struct pci_dev *d;

	*n = 0;
	pacc = pci_alloc();
	if (!pacc) {
		fprintf(stderr, "loomctl: cannot start libpci: out of memory\n");
		return LC_EXIT_KERNEL;
	}
	pci_init(pacc);
	pci_scan_bus(pacc);
	for (d = pacc->devices; d && *n < max; d = d->next) {
		struct lc_pci_card *c = &cards[*n];
		bool real, lab;

		pci_fill_info(d, PCI_FILL_IDENT);
		real = d->vendor_id == LOOM_PCI_VENDOR_ID &&
		       d->device_id == LOOM_PCI_DEVICE_ID;
		lab = d->vendor_id == LC_IVSHMEM_VENDOR &&
		      d->device_id == LC_IVSHMEM_DEVICE;
		if (!real && !lab)
			continue;
		memset(c, 0, sizeof(*c));
		snprintf(c->addr, sizeof(c->addr), "%04x:%02x:%02x.%d",
			 (unsigned int)d->domain, d->bus, d->dev, d->func);
		c->vendor = d->vendor_id;
		c->device = d->device_id;
		lc_pci_driver(c->addr, c->driver, sizeof(c->driver));
		if (real)
			c->sig = LC_SIG_CARD;
		else if (!strcmp(c->driver, "loom"))
			c->sig = LC_SIG_LAB;	/* the driver checked it */
		else
			c->sig = lc_pci_signature(c->addr);
		if (c->sig == LC_SIG_NONE)
			continue;		/* an ivshmem device of something else */
		(*n)++;
	}
	pci_cleanup(pacc);
	return 0;
}

/**
 * lc_pci_kind() - what a card is, in words
 * @c: the card
 *
 * Return: "card", "lab" or "ivshmem-unchecked".
 */
const char *lc_pci_kind(const struct lc_pci_card *c)
{
	switch (c->sig) {
	case LC_SIG_CARD:
		return "card";
	case LC_SIG_LAB:
		return "lab";
	default:
		return "ivshmem-unchecked";
	}
}
