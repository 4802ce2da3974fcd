/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: register access to any card of the fabric over the maintenance
 * network.  A card is named by its directed route from the local card: the
 * output port taken at each hop (no hop: the local card).  The back end is
 * the module's LOOM_CMD_MAINT (fm_nl.c) or, in the unit tests, a fake
 * fabric of register spaces.
 */
#ifndef LOOM_FM_MAINT_H
#define LOOM_FM_MAINT_H

#include <stdint.h>
#include <stdio.h>

#include <loom_hw/regs.h>

struct fm_path {
	int hops;				/* 0: the local card */
	unsigned char port[LOOM_MAINT_MAX_HOPS];
};

struct fm_maint {
	/*
	 * 0, or a negative errno: -ETIMEDOUT the request or its answer was
	 * lost (every retry), -EIO the card refused (bad address, read-only),
	 * others from the transport.  The message, if any, is in err.
	 */
	int (*read)(struct fm_maint *m, const struct fm_path *path, uint32_t addr,
		    uint32_t *value);
	int (*write)(struct fm_maint *m, const struct fm_path *path, uint32_t addr,
		     uint32_t value);
	char err[256];
	long reads, writes;			/* counted by maint_read/maint_write */
};

static inline int maint_read(struct fm_maint *m, const struct fm_path *path, uint32_t addr,
			     uint32_t *value)
{
	m->reads++;
	return m->read(m, path, addr, value);
}

static inline int maint_write(struct fm_maint *m, const struct fm_path *path, uint32_t addr,
			      uint32_t value)
{
	m->writes++;
	return m->write(m, path, addr, value);
}

/* "local" or "0.3.1" (ports, hop by hop) into out. */
void path_format(const struct fm_path *path, char *out, size_t len);

#endif
