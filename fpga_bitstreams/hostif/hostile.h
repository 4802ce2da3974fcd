/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hostile mode: a card that misbehaves on purpose, so that software's
 * distrust of its card can be tested (loom-card --hostile SEED, or
 * 'hostile SEED' on the control socket).  Driven by its own PRNG: the same
 * seed draws the same sequence of misbehaviours (where each lands relative
 * to the driver's accesses depends on timing).  Documented in
 * Documentation/emulator.rst, "Hostile mode".
 *
 * Misbehaviours, each a kind with a weight drawn from the seed:
 *  - register: a read-only register (firmware id, block headers, counts,
 *    strides, page areas, node ids, states, consumer indices...) reads an
 *    out-of-range or changed value for a while, then its old one again
 *    (unless the card wrote it meanwhile);
 *  - completion: a completion entry with the wrong phase, at the wrong
 *    index, or with impossible kind, status, length and value;
 *  - counters: garbage in a context's counters page;
 *  - storm: every MSI-X vector raised every service round for a while;
 *  - admin: the next admin command is ignored (it vanishes: no ACK),
 *    refused with an error or an undefined result without being executed,
 *    executed but answered with an error, or acknowledged with a wrong
 *    sequence number first.  A command is never answered OK unless it was
 *    executed: that is what software must be able to trust;
 *  - maint: a maintenance response nobody asked for, or a jump of the
 *    response producer index;
 *  - port: a port's STATUS changes at random, with an event interrupt.
 *
 * The card logic never calls this: whoever runs the card calls
 * hostile_before() and hostile_after() around each card_service().
 */
#ifndef LOOM_CARD_HOSTILE_H
#define LOOM_CARD_HOSTILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct card;

enum hostile_kind {
	HOSTILE_REGISTER,
	HOSTILE_COMPLETION,
	HOSTILE_COUNTERS,
	HOSTILE_STORM,
	HOSTILE_ADMIN,
	HOSTILE_MAINT,
	HOSTILE_PORT,
	HOSTILE_N_KINDS
};

#define HOSTILE_ALL_KINDS	((1u << HOSTILE_N_KINDS) - 1)
#define HOSTILE_PATCHES		8	/* registers held bad at once */
#define HOSTILE_POLL_MS		5	/* the event loop sleeps at most this long */
#define HOSTILE_TRACE		64	/* last misbehaviours remembered */

enum hostile_admin {
	HOSTILE_ADMIN_NONE,
	HOSTILE_ADMIN_IGNORE,		/* SEQ rewritten to ACK: no answer */
	HOSTILE_ADMIN_REFUSE,		/* RESULT = error, ACK = SEQ, not executed */
	HOSTILE_ADMIN_LIE,		/* executed, then RESULT = error */
	HOSTILE_ADMIN_WRONG_ACK,	/* ACK = another sequence number first */
};

/* One register held at a bad value. */
struct hostile_patch {
	bool used;
	uint32_t off;
	uint32_t saved;		/* its value before */
	uint32_t bad;		/* what it reads meanwhile */
	uint64_t until_ms;	/* card time it is restored at */
};

/* One misbehaviour done: kind, and the register or context it hit. */
struct hostile_event {
	uint8_t kind;		/* enum hostile_kind */
	uint8_t variant;
	uint32_t where;		/* register offset, context index, port... */
	uint32_t value;
};

struct hostile {
	bool on;
	bool verbose;
	uint64_t seed;
	uint64_t rng;
	unsigned int kinds;	/* bit per enum hostile_kind allowed */
	unsigned int weight[HOSTILE_N_KINDS];
	uint64_t next_ms;	/* card time the next misbehaviour is due */
	struct hostile_patch patch[HOSTILE_PATCHES];
	uint64_t storm_until_ms;
	enum hostile_admin admin;	/* what the next admin command gets */
	uint32_t admin_result;
	bool lying;		/* HOSTILE_ADMIN_LIE in progress for lie_seq */
	uint32_t lie_seq;
	/* HOSTILE_ADMIN_WRONG_ACK: command hold_seq waits under hold_wrong */
	bool holding;
	uint32_t hold_seq;
	uint32_t hold_wrong;
	uint64_t hold_until_ms;
	/* one shot, from the control socket: the next admin command once_cmd */
	bool once;
	uint32_t once_cmd;
	enum hostile_admin once_what;
	uint32_t once_result;
	uint64_t count[HOSTILE_N_KINDS];
	uint64_t skipped;	/* due, but nothing to do it to (no context...) */
	struct hostile_event trace[HOSTILE_TRACE];
	unsigned int n_trace;	/* total events; trace[] keeps the last ones */
};

/* Start misbehaving with @seed, the kinds in @kinds (bit per kind). */
void hostile_start(struct hostile *h, struct card *c, uint64_t seed, unsigned int kinds);
/* Stop; every register still held bad reads its old value again. */
void hostile_stop(struct hostile *h, struct card *c);
/* Around each service round of the card (c->now_ms set). */
void hostile_before(struct hostile *h, struct card *c);
void hostile_after(struct hostile *h, struct card *c);
/* Longest the event loop may sleep: HOSTILE_POLL_MS when on, else -1. */
int hostile_poll_ms(const struct hostile *h);
/*
 * The next admin command @cmd (LOOM_ADMIN_CMD_*) is refused with @result
 * without being executed (@what HOSTILE_ADMIN_REFUSE), executed and
 * answered @result (HOSTILE_ADMIN_LIE) or ignored (HOSTILE_ADMIN_IGNORE),
 * once, whether or not hostile mode is on.
 */
void hostile_admin_once(struct hostile *h, uint32_t cmd, enum hostile_admin what,
			uint32_t result);
/* One line: on/off, seed, and counts per kind. */
void hostile_describe(const struct hostile *h, char *out, size_t len);
const char *hostile_kind_name(unsigned int kind);

#endif
