/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: the live back end over the loom generic netlink family
 * (Documentation/abi/netlink.rst): maintenance reads and writes through
 * LOOM_CMD_MAINT on /dev/loomN's card, and the events group for
 * LOOM_EVENT_PORT_CHANGED of that card.
 */
#ifndef LOOM_FM_NL_H
#define LOOM_FM_NL_H

#include <stddef.h>
#include <stdint.h>

#include "maint.h"

struct fm_nl;

/*
 * Connect and find the family; per-attempt timeout and retries of each
 * maintenance access (0: the module's defaults).  NULL with a message in
 * err (no module, no memory).
 */
struct fm_nl *fm_nl_open(uint32_t dev, uint32_t timeout_ms, uint32_t retries, char *err,
			 size_t errlen);
void fm_nl_close(struct fm_nl *nl);
struct fm_maint *fm_nl_maint(struct fm_nl *nl);

/* Join the events group; 0, or -1 with a message in err. */
int fm_nl_events(struct fm_nl *nl, char *err, size_t errlen);

/*
 * Wait up to timeout_ms for port events of our card: 1 when one or more
 * arrived (all pending ones are consumed), 0 on timeout or a signal, -1
 * with a message in err when the socket failed.
 */
int fm_nl_wait_port_event(struct fm_nl *nl, int timeout_ms, char *err, size_t errlen);

#endif
