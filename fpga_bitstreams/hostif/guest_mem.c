// SPDX-License-Identifier: GPL-2.0
/*
 * Guest RAM mapping with bounds-checked DMA.
 */
#include "guest_mem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int guest_mem_open(struct guest_mem *gm, const char *path, char *err, size_t errlen)
{
	struct stat st;
	void *p;
	int fd, e;

	memset(gm, 0, sizeof(*gm));
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "cannot open guest RAM file %s: %s (create it, sized to the VM's RAM, before starting the card)",
			 path, strerror(e));
		return -e;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0) {
		e = errno ? errno : EINVAL;
		snprintf(err, errlen, "guest RAM file %s is not a non-empty regular file (truncate it to the VM's RAM size)",
			 path);
		close(fd);
		return -e;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	e = errno;
	close(fd);
	if (p == MAP_FAILED) {
		snprintf(err, errlen, "cannot map guest RAM file %s (%lld bytes): %s",
			 path, (long long)st.st_size, strerror(e));
		return -e;
	}
	gm->base = p;
	gm->size = (uint64_t)st.st_size;
	gm->mapped = true;
	return 0;
}

void guest_mem_attach(struct guest_mem *gm, void *base, uint64_t size)
{
	gm->base = base;
	gm->size = size;
	gm->mapped = false;
}

void guest_mem_close(struct guest_mem *gm)
{
	if (gm->mapped && gm->base)
		munmap(gm->base, (size_t)gm->size);
	memset(gm, 0, sizeof(*gm));
}

bool guest_mem_range_ok(const struct guest_mem *gm, uint64_t addr, uint64_t len)
{
	return gm->base && addr <= gm->size && len <= gm->size - addr;
}

void *guest_mem_ptr(const struct guest_mem *gm, uint64_t addr, uint64_t len)
{
	if (!guest_mem_range_ok(gm, addr, len))
		return NULL;
	return gm->base + addr;
}

bool guest_mem_read(const struct guest_mem *gm, uint64_t addr, void *dst, uint64_t len)
{
	void *p = guest_mem_ptr(gm, addr, len);

	if (!p)
		return false;
	memcpy(dst, p, (size_t)len);
	return true;
}

bool guest_mem_write(const struct guest_mem *gm, uint64_t addr, const void *src, uint64_t len)
{
	void *p = guest_mem_ptr(gm, addr, len);

	if (!p)
		return false;
	memmove(p, src, (size_t)len);	/* a put to self may overlap */
	return true;
}
