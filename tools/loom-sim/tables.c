// SPDX-License-Identifier: GPL-2.0
/*
 * loom-sim: the table store (tables.h).  The template lives in a memfd;
 * each shared row is a MAP_PRIVATE mapping of it, so that its pages are
 * the template's page-cache pages until the row writes one (the kernel
 * then copies that page for that row alone) and, until then, show every
 * change of the template.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <loom_hw/regs.h>

#include "tables.h"

/* Mappings left to the rest of the process (its large allocations, libraries). */
#define SIM_TABLES_MAP_RESERVE	16384

/* How many shared rows the kernel's limit of mappings (vm.max_map_count) leaves room for. */
static int map_budget(void)
{
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	long max = 65530;

	if (f) {
		if (fscanf(f, "%ld", &max) != 1)
			max = 65530;
		fclose(f);
	}
	max -= SIM_TABLES_MAP_RESERVE;
	return max < 0 ? 0 : max > 1 << 30 ? 1 << 30 : (int)max;
}

/* The template's memory and its writable mapping; false where the kernel has none. */
static bool template_open(struct sim_tables *t)
{
	t->fd = memfd_create("loom-sim-tables", MFD_CLOEXEC);
	if (t->fd < 0)
		return false;
	if (ftruncate(t->fd, (off_t)t->row_bytes) == 0) {
		void *p = mmap(NULL, t->row_bytes, PROT_READ | PROT_WRITE, MAP_SHARED, t->fd, 0);

		if (p != MAP_FAILED) {
			t->tmpl = p;
			return true;
		}
	}
	close(t->fd);
	t->fd = -1;
	return false;
}

int sim_tables_init(struct sim_tables *t, int rows, unsigned int rt_entries, const bool *alike,
		    bool own_memory, char *err, size_t errlen)
{
	long page = sysconf(_SC_PAGESIZE);
	int nalike = 0, nsample = 0, nown = 0, budget;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	for (int k = 0; k < SIM_TABLES_SAMPLES; k++)
		t->sample[k] = -1;
	t->rt_entries = rt_entries;
	t->rows = rows;
	t->words = 2 * (size_t)rt_entries + (rt_entries + 31) / 32 + LOOM_MAX_PORTS;
	if (page <= 0)
		page = 4096;
	t->row_bytes = (t->words * sizeof(uint32_t) + (size_t)page - 1) / (size_t)page *
		       (size_t)page;
	t->row = calloc(rows ? (size_t)rows : 1, sizeof(*t->row));
	t->shared = calloc(rows ? (size_t)rows : 1, sizeof(*t->shared));
	if (!t->row || !t->shared)
		goto oom;
	for (int r = 0; alike && r < rows; r++)
		nalike += alike[r];
	budget = map_budget();
	if (!own_memory && nalike > SIM_TABLES_SAMPLES && budget > 0 && template_open(t)) {
		for (int r = 0; r < rows; r++) {
			if (!alike[r])
				continue;
			if (nsample < SIM_TABLES_SAMPLES)
				t->sample[nsample++] = r;
			else if (t->nshared < budget)
				t->shared[r] = true, t->nshared++;
		}
	}
	for (int r = 0; r < rows; r++) {
		if (!t->shared[r])
			continue;
		void *p = mmap(NULL, t->row_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, t->fd, 0);

		if (p == MAP_FAILED) {
			/* the kernel's limit: this row and the rest have their own memory */
			for (int q = r; q < rows; q++)
				t->nshared -= t->shared[q], t->shared[q] = false;
			break;
		}
		t->row[r] = p;
	}
	nown = rows - t->nshared;
	t->own = calloc(nown ? (size_t)nown * t->words : 1, sizeof(uint32_t));
	if (!t->own)
		goto oom;
	for (int r = 0, k = 0; r < rows; r++)
		if (!t->shared[r])
			t->row[r] = t->own + (size_t)k++ * t->words;
	return 0;
oom:
	snprintf(err, errlen, "out of memory for the tables of %d routers (%zu bytes each)", rows,
		 t->words * sizeof(uint32_t));
	sim_tables_free(t);
	return -1;
}

void sim_tables_free(struct sim_tables *t)
{
	for (int r = 0; t->row && r < t->rows; r++)
		if (t->shared[r])
			munmap(t->row[r], t->row_bytes);
	if (t->tmpl) {
		munmap(t->tmpl, t->row_bytes);
		close(t->fd);
	}
	free(t->own);
	free(t->row);
	free(t->shared);
	memset(t, 0, sizeof(*t));
	t->fd = -1;
}

void sim_tables_learn(struct sim_tables *t)
{
	const uint32_t *a, *b, *c;

	if (!t->nshared)
		return;
	a = t->row[t->sample[0]];
	b = t->row[t->sample[1]];
	c = t->row[t->sample[2]];
	for (size_t k = 0; k < t->words; k++) {
		uint32_t v = a[k] == b[k] || a[k] == c[k] ? a[k] : b[k] == c[k] ? b[k] : a[k];

		sim_tables_set(&t->tmpl[k], v);
	}
}

/* Pages of the shared row @p the row copied: present, and no longer the memfd's. */
static size_t copied_pages(int fd, const void *p, size_t pages, long page)
{
	uint64_t e[128];
	size_t n = 0;

	for (size_t k = 0; k < pages; k += 128) {
		size_t m = pages - k < 128 ? pages - k : 128;
		off_t at = (off_t)(((uintptr_t)p / (uintptr_t)page + k) * sizeof(uint64_t));

		if (pread(fd, e, m * sizeof(uint64_t), at) != (ssize_t)(m * sizeof(uint64_t)))
			return pages;
		for (size_t i = 0; i < m; i++)
			/* bit 63: present; bit 61: a file page (the template's) */
			n += (e[i] >> 63 & 1) && !(e[i] >> 61 & 1);
	}
	return n;
}

size_t sim_tables_resident(const struct sim_tables *t)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t bytes = (size_t)(t->rows - t->nshared) * t->words * sizeof(uint32_t);
	size_t pages = t->row_bytes / (size_t)(page > 0 ? page : 4096);
	int fd;

	if (!t->nshared)
		return bytes;
	bytes += t->row_bytes;
	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	for (int r = 0; r < t->rows; r++)
		if (t->shared[r])
			bytes += (fd < 0 ? pages : copied_pages(fd, t->row[r], pages, page)) *
				 (size_t)page;
	if (fd >= 0)
		close(fd);
	return bytes;
}
