/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-sim: the table store, the register arrays of this process's routers
 * (Documentation/sim/loom-sim.rst, "Table memory").  A row holds one
 * router's routing table (2 words an entry), its START_VC1 bitmap and its
 * PORT_CFG words, as the card's register window holds them; the router
 * reads it live through its struct route_view.
 *
 * Rows that are nearly alike (a card with one network port sends every
 * destination but itself out of that port) share the pages they have in
 * common: such a row is a private copy-on-write mapping of a template
 * that the store learns, word by word, as the majority of three sample
 * rows of the same kind held in their own memory.  A write that changes a
 * word of a shared row copies that one page of that row only; a write of
 * the value already there copies nothing.  Every row reads exactly what a
 * row of its own memory would.
 */
#ifndef LOOM_SIM_TABLES_H
#define LOOM_SIM_TABLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_TABLES_SAMPLES	3

struct sim_tables {
	unsigned int rt_entries;
	size_t words;			/* a row: rt, START_VC1, PORT_CFG */
	size_t row_bytes;		/* the words rounded up to whole pages */
	int rows, nshared;
	uint32_t **row;			/* [rows] */
	bool *shared;			/* [rows]: maps the template */
	uint32_t *own;			/* the rows of their own memory, one allocation */
	int sample[SIM_TABLES_SAMPLES];	/* rows the template is learned from, or -1 */
	int fd;				/* the template's memory, or -1 */
	uint32_t *tmpl;			/* the template, written through MAP_SHARED */
};

/*
 * The store of @rows rows of @rt_entries routing entries; @alike[row]
 * marks the rows that may share a template (NULL: none).  With three rows
 * alike or more, the first three are the samples and the others map the
 * template, as many as the kernel's limit of mappings leaves room for
 * (vm.max_map_count less 16384), unless @own_memory; the rest,
 * and without the kernel's support for it all rows, have their own
 * memory.  Every word reads 0.  0, or -1 with @err.
 */
int sim_tables_init(struct sim_tables *t, int rows, unsigned int rt_entries, const bool *alike,
		    bool own_memory, char *err, size_t errlen);
void sim_tables_free(struct sim_tables *t);

/* A row's parts: the routing table, START_VC1 words, PORT_CFG words. */
static inline uint32_t *sim_tables_rt(const struct sim_tables *t, int row)
{
	return t->row[row];
}

static inline uint32_t *sim_tables_start_vc1(const struct sim_tables *t, int row)
{
	return t->row[row] + 2 * (size_t)t->rt_entries;
}

static inline uint32_t *sim_tables_port_cfg(const struct sim_tables *t, int row)
{
	return sim_tables_start_vc1(t, row) + (t->rt_entries + 31) / 32;
}

/* Write @v at @w, a word of a row: only a change touches (and copies) its page. */
static inline void sim_tables_set(uint32_t *w, uint32_t v)
{
	if (*w != v)
		*w = v;
}

/*
 * The template: every word the majority of the samples agree on (two of
 * three), else the first sample's.  Called after the samples' words of a
 * block are written and before the shared rows' are, so that a shared
 * row copies only the pages where it differs.
 */
void sim_tables_learn(struct sim_tables *t);

/* Bytes of memory the rows hold: their own, the template, the pages shared rows copied. */
size_t sim_tables_resident(const struct sim_tables *t);

#endif
