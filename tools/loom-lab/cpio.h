/* SPDX-License-Identifier: GPL-2.0 */
/* loom-lab: a writer of "newc" cpio archives (the initramfs format). */
#ifndef LOOM_LAB_CPIO_H
#define LOOM_LAB_CPIO_H

#include <stddef.h>
#include <stdio.h>

struct cpio {
	FILE *f;
	unsigned long ino;
	unsigned long long off;
	int error;
};

void cpio_init(struct cpio *c, FILE *f);
void cpio_dir(struct cpio *c, const char *name);
void cpio_file(struct cpio *c, const char *name, unsigned int mode,
	       const void *data, size_t len);
void cpio_symlink(struct cpio *c, const char *name, const char *target);
void cpio_chardev(struct cpio *c, const char *name, unsigned int major,
		  unsigned int minor);
/* Writes the trailer; 0 if every write succeeded. */
int cpio_finish(struct cpio *c);

#endif
