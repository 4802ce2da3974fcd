/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-sim: injection schedules (--inject-schedule FILE), the packets a
 * run injects at given cycles through the card's host port (sim_inject_set).
 * The format is in Documentation/man/loom-sim.1.rst:
 *
 *	# comment
 *	CYCLE NODE DST [FLITS [CLASS]]
 *
 * one packet per line: from terminal NODE to terminal DST, on the host
 * input wires from cycle CYCLE on, FLITS flits (default the smallest
 * packet), CLASS req (default: a PUT) or resp (a GET response).  Each
 * node's packets in cycle order.
 */
#ifndef LOOM_SIM_SCHEDULE_H
#define LOOM_SIM_SCHEDULE_H

#include <stddef.h>

struct sim;
struct sim_inject;

/*
 * Read schedule @path for the built run @s (its terminals, flit width and
 * buffer depth bound the fields): *@v (malloc'd, free() it) and *@n.  Each
 * header carries the source, and its cycle in bytes 32..39 as generated
 * packets carry their creation.  0, or -1 with "FILE:LINE: field K (NAME)
 * 'TEXT': what is wrong" in @err.
 */
int sim_schedule_read(const char *path, const struct sim *s, struct sim_inject **v, size_t *n,
		      char *err, size_t errlen);

#endif
