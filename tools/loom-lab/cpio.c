// SPDX-License-Identifier: GPL-2.0
/* loom-lab: a writer of "newc" cpio archives (the initramfs format). */
#include <string.h>
#include <sys/stat.h>

#include "cpio.h"

void cpio_init(struct cpio *c, FILE *f)
{
	c->f = f;
	c->ino = 1;
	c->off = 0;
	c->error = 0;
}

static void put(struct cpio *c, const void *p, size_t len)
{
	if (len && fwrite(p, 1, len, c->f) != len)
		c->error = 1;
	c->off += len;
}

static void pad4(struct cpio *c)
{
	static const char zero[4];

	put(c, zero, (size_t)((4 - c->off % 4) % 4));
}

static void entry(struct cpio *c, const char *name, unsigned int mode,
		  const void *data, size_t len, unsigned int rmaj,
		  unsigned int rmin)
{
	char hdr[160];
	size_t namesize = strlen(name) + 1;

	snprintf(hdr, sizeof(hdr),
		 "070701%08lX%08X%08X%08X%08X%08X%08lX%08X%08X%08X%08X%08lX%08X",
		 c->ino++, mode, 0u, 0u, (mode & S_IFMT) == S_IFDIR ? 2u : 1u,
		 0u, (unsigned long)len, 0u, 0u, rmaj, rmin,
		 (unsigned long)namesize, 0u);
	put(c, hdr, 110);
	put(c, name, namesize);
	pad4(c);
	put(c, data, len);
	pad4(c);
}

void cpio_dir(struct cpio *c, const char *name)
{
	entry(c, name, S_IFDIR | 0755, NULL, 0, 0, 0);
}

void cpio_file(struct cpio *c, const char *name, unsigned int mode,
	       const void *data, size_t len)
{
	entry(c, name, S_IFREG | (mode & 07777), data, len, 0, 0);
}

void cpio_symlink(struct cpio *c, const char *name, const char *target)
{
	entry(c, name, S_IFLNK | 0777, target, strlen(target), 0, 0);
}

void cpio_chardev(struct cpio *c, const char *name, unsigned int major,
		  unsigned int minor)
{
	entry(c, name, S_IFCHR | 0600, NULL, 0, major, minor);
}

int cpio_finish(struct cpio *c)
{
	entry(c, "TRAILER!!!", 0, NULL, 0, 0, 0);
	return c->error ? -1 : 0;
}
