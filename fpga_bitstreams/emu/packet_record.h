/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The packet recorder (loom-card --record FILE, control command "record"):
 * one text line per request the card's host sends into its router, for
 * loom-sim --replay.  The format (Documentation/emulator.rst):
 *
 *   # loom packet trace 1
 *   # node N clock_khz K start_cycle C start_ns T
 *   CYCLE DST TYPE BYTES RESP_BYTES
 *
 * CYCLE is the card's cycle when the packet's head entered the router,
 * DST its destination node, TYPE put, get or amo (a counted put is a put),
 * BYTES its payload and RESP_BYTES the payload of the answer it asks for
 * (a get's bytes, an atomic's 8; 0 for a put).  start_ns is CLOCK_REALTIME
 * at start_cycle, so the traces of several cards can be aligned.
 * Responses, barrier and maintenance packets are not recorded: the
 * simulator's terminals answer requests themselves.
 */
#ifndef LOOM_CARD_PACKET_RECORD_H
#define LOOM_CARD_PACKET_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct card;

/*
 * Start recording card @c's requests into @path (created or truncated).
 * A recording already running is finished first.  false with a message in
 * @err (the file cannot be created).
 */
bool packet_record_start(struct card *c, const char *path, char *err, size_t errlen);
/*
 * Finish the recording (flush, close); the number of packets it holds in
 * *@packets when not NULL.  false with a message in @err when none was
 * running or the file could not be written completely.
 */
bool packet_record_stop(struct card *c, uint64_t *packets, char *err, size_t errlen);
/* Whether card @c is recording. */
bool packet_record_active(const struct card *c);

#endif
