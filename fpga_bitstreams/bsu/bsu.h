/* SPDX-License-Identifier: GPL-2.0 */
/*
 * BSUs: the card's 32 barrier/eureka synchronisation units (T3E section 6)
 * and the router's tree register for each.
 *
 * Two layers.  The state machine (bsu_local_op, bsu_wire_in) is pure
 * logic over struct bsu_unit and a tree: it updates the unit and lists the
 * barrier packets the router must send, nothing else.  The glue (bsu_init,
 * bsu_service, bsu_receive) connects it to the register space and to the
 * ports, and keeps barrier packets that a port cannot take yet in a small
 * per-port FIFO, so they are delayed, never dropped.
 *
 * Partitions: a unit whose LOOM_BSU_OWNED bit is set belongs to the
 * partition in its LOOM_BSU_KEY word (the driver sets both when it grants
 * the unit).  Its packets carry that key; a packet with another key is
 * refused before it touches the unit: counted (COUNTERS DROP_BSU_KEY) and
 * answered with a REFUSED packet back to its sender, which ends the round
 * with an error on the sender's side.  A unit not owned (a router only
 * passing the barrier on) checks nothing and sends what a packet causes
 * with that packet's key.
 */
#ifndef LOOM_CARD_BSU_H
#define LOOM_CARD_BSU_H

#include <stdbool.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/regs.h>

struct card;

/* One unit and its router-side state. */
struct bsu_unit {
	uint8_t state;		/* LOOM_BSU_S_* of the local unit */
	bool eureka;		/* a eureka passed this router this round */
	uint16_t arrived;	/* children (LOOM_BSUT_CHILDREN bits) joined this round */
	uint32_t completions;	/* barrier completions delivered to the local unit */
	uint32_t eurekas;	/* eurekas delivered to the local unit */
	uint32_t illegal;	/* local ops ignored */
	uint32_t refused;	/* rounds refused by a card of another partition */
};

/* A unit's tree register, as the router reads it. */
struct bsu_tree {
	uint16_t children;	/* port bits and LOOM_BSU_CHILD_HOST */
	uint8_t parent;		/* port, or LOOM_BSU_ROOT */
};

/* Barrier packets an event asks for, in the order they must leave. */
#define BSU_OUT_MAX	4
struct bsu_out {
	unsigned int n;
	struct {
		uint8_t op;		/* LOOM_BSU_WIRE_* */
		uint8_t ports;		/* one bit per destination port */
	} msg[BSU_OUT_MAX];
	bool host_event;	/* the local unit completed or saw a eureka */
};

/* Power-on state of a unit. */
void bsu_unit_reset(struct bsu_unit *u);
/*
 * The local processor wrote @op (LOOM_BSU_OP_*) to the unit.  Returns true
 * if the op was taken; false if it was illegal in the unit's state, or the
 * local host is not a child in the tree (counted in u->illegal, no effect).
 */
bool bsu_local_op(struct bsu_unit *u, struct bsu_tree t, uint32_t op, struct bsu_out *out);
/*
 * Barrier packet @wire_op (LOOM_BSU_WIRE_*) arrived on @in_port, from the
 * unit's own partition.  Returns false, with no effect, when it does not
 * fit the tree: an UP op from a port that is not a child, a DOWN op from a
 * port that is not the parent, REFUSED from a port that is neither, or an
 * unknown op.  REFUSED from the parent (a card of another partition refused
 * this subtree's packet) ends the round here and below it: ARRIVED and
 * EUREKA cleared, REFUSED sent on to the child ports, and the local unit
 * counts it (refused + 1) and, if it had joined, completes with the error
 * (S_ARM -> S_BAR, completions + 1).  REFUSED from a child (our packet
 * down to it was refused) changes nothing.
 */
bool bsu_wire_in(struct bsu_unit *u, struct bsu_tree t, unsigned int in_port,
		 unsigned int wire_op, struct bsu_out *out);

/* ---- glue to the card ---- */

#define BSU_PORT_FIFO	256	/* barrier packets waiting for one port */

/* A barrier packet waiting for its port. */
struct bsu_wire {
	uint32_t aux;		/* bsu | op << 8 (REFUSED: | refused op << 16) */
	uint32_t key;		/* partition it carries */
};

struct bsu_fifo {
	struct bsu_wire v[BSU_PORT_FIFO];
	unsigned int head, count;
};

struct bsu_block {
	struct bsu_unit unit[LOOM_BSU_COUNT];
	struct bsu_fifo fifo[LOOM_MAX_PORTS];
	uint32_t bad_pkts;	/* mirrored to LOOM_BSU_BAD_PKTS */
	uint64_t lost;		/* a FIFO overflowed (a port down for long) */
};

/* Write the block header and the reset state of every unit and tree. */
void bsu_init(struct card *c);
/* Admin RESET: units and trees back to power-on state, FIFOs emptied. */
void bsu_reset(struct card *c);
/* One service round: take ops written to the user pages, send held packets. */
void bsu_service(struct card *c);
/* A LOOM_CLASS_BARRIER packet from port @in_port (-1: from this card). */
void bsu_receive(struct card *c, const struct loom_pkt_hdr *h, int in_port);

#endif
