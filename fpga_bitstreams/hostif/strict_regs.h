/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strict register checking (loom-card --strict-registers): the card
 * enforces the access type of every register of its window (RO, WO, RW;
 * include/loom_hw/regs.h) as far as a window of shared memory allows.
 *
 * The card keeps a shadow of every word it writes.  A write-only register
 * is consumed by the card (strict_take_wo()): it takes the value and
 * replaces it, with a compare-and-swap that never loses a newer write,
 * by LOOM_REG_POISON, so a later read by software sees poison.  The card
 * cannot see reads of shared memory: reads are counted only where the
 * host side is a program of ours that reads through an accessor (the
 * native harness, tests/emu/fakehost.c, asks strict_regs_access()).
 * Read-only registers are compared with the shadow after every kick
 * (strict_regs_check()): a word that differs was written by software; it
 * is counted, logged and restored.  Documented in Documentation/emulator.rst
 * ("Strict registers") and Documentation/hw/registers.rst.
 */
#ifndef LOOM_CARD_STRICT_REGS_H
#define LOOM_CARD_STRICT_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct card;

enum strict_access {
	STRICT_RESERVED,	/* no register: not checked */
	STRICT_RO,		/* the card writes, software reads */
	STRICT_WO,		/* software writes, the card consumes */
	STRICT_RW,		/* configuration: both */
};

/* A run of read-only words. */
struct strict_range {
	uint32_t off;		/* byte offset in the window */
	uint32_t words;
	bool user;		/* in a page the driver maps into processes */
};

struct strict_regs {
	uint32_t *shadow;	/* the card's last word at each offset; NULL: off */
	struct strict_range *ro;
	unsigned int n_ro;
	uint64_t violations;	/* RO words of the driver's registers overwritten */
	uint64_t user_writes;	/* RO words of user-mapped pages overwritten */
	unsigned int logged;	/* log lines written (capped) */
};

/*
 * The access type of the word at @off of a card's window (the emulator's
 * layout, card.h).  Words outside every register are STRICT_RESERVED.
 */
enum strict_access strict_regs_access(uint32_t off);
/* Name of the register at @off ("CTX 3 +0x2c") into @buf. */
void strict_regs_name(uint32_t off, char *buf, size_t len);
/*
 * Turn checking on for @c (after card_init and the command-line tables):
 * the shadow starts as a copy of the window.  False when out of memory.
 */
bool strict_regs_enable(struct card *c);
void strict_regs_disable(struct card *c);
/*
 * Compare every read-only word with the shadow; count, log and restore
 * each one software changed.  Returns how many this call found.
 */
unsigned int strict_regs_check(struct card *c);
/* One log line summing up the counts, if any. */
void strict_regs_report(struct card *c);
/*
 * Take the value software last wrote to write-only register @off into
 * *@taken (the card's copy); true when a write happened since the last
 * take.  Without checking, a plain read.
 */
bool strict_take_wo(struct card *c, uint32_t off, uint32_t *taken);

#endif
