/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host memory as seen by the card's DMA engines.  In the lab it is the
 * file QEMU uses as guest RAM, mapped shared: bus address == file offset.
 * Every access is bounds-checked; a failed check is a DMA fault that the
 * caller turns into a context fault, never a crash.
 */
#ifndef LOOM_CARD_GUEST_MEM_H
#define LOOM_CARD_GUEST_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct guest_mem {
	uint8_t *base;
	uint64_t size;
	bool mapped;		/* base came from mmap() and is ours to unmap */
};

/* Map @path shared; on failure returns -errno and writes a message to @err. */
int guest_mem_open(struct guest_mem *gm, const char *path, char *err, size_t errlen);
/* Use caller-owned memory (unit tests, simulators). */
void guest_mem_attach(struct guest_mem *gm, void *base, uint64_t size);
void guest_mem_close(struct guest_mem *gm);

/* Is [addr, addr + len) inside host memory? (len 0 is inside if addr <= size) */
bool guest_mem_range_ok(const struct guest_mem *gm, uint64_t addr, uint64_t len);
/* Pointer to [addr, addr + len), or NULL when outside. */
void *guest_mem_ptr(const struct guest_mem *gm, uint64_t addr, uint64_t len);
/* DMA read/write; return false (and copy nothing) when outside. */
bool guest_mem_read(const struct guest_mem *gm, uint64_t addr, void *dst, uint64_t len);
bool guest_mem_write(const struct guest_mem *gm, uint64_t addr, const void *src, uint64_t len);

#endif
