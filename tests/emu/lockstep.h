/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The native harness in lockstep: N cards in this process, each with its
 * register window and host memory in plain memory and a fake host driving
 * it through the same registers and rings as over ivshmem, cabled by
 * in-process wires (link/link_wire.h), all stepped by one clock.  Nothing
 * depends on wall time or scheduling: the same inputs give the same cycle
 * for every event, run after run.  Cycles where nothing can move are
 * skipped.  The network simulator builds on it.
 */
#ifndef LOOM_TESTS_LOCKSTEP_H
#define LOOM_TESTS_LOCKSTEP_H

#include <stdbool.h>
#include <stdint.h>

#include "card.h"
#include "fakehost.h"
#include "link/link_wire.h"

#define LS_MAX_CARDS	16
#define LS_MAX_WIRES	64

struct lockstep;

/*
 * Per-packet record: a packet entering the router at one host port, leaving
 * at another.  The host port's events (injected, delivered) and the router's
 * host wires (head_in, tail_out) are both kept: the host port drives the
 * head at the edge of cycle injected and it is on the router's host input
 * wires in cycle injected + 1 = head_in (the router samples it at that
 * edge); the tail is on the router's host output wires in cycle tail_out
 * and the host port hands the packet on at that edge or, if an earlier
 * packet still waits to be handed on, later (delivered).
 */
struct ls_packet {
	uint16_t src_node, dst_node;
	uint16_t src_ctx;
	uint8_t type;
	uint32_t op_id;
	uint64_t offset;
	uint64_t injected;	/* cycle its head left the source's host port */
	uint64_t delivered;	/* cycle the destination's host port delivered it, 0: not yet */
	uint64_t head_in;	/* cycle its head is on the source router's host input wires */
	uint64_t tail_out;	/* cycle its tail is on the destination router's host output */
	uint16_t in_card, out_card;	/* where it entered and left */
	uint8_t hdr[LOOM_PKT_HDR_SIZE];	/* as the source's host port sent it */
};

/* Tails seen on a card's host output wires, per VC, not yet handed on. */
#define LS_TAILS	64
struct ls_tails {
	uint64_t cycle[LS_TAILS];
	unsigned int head, count;
};

struct ls_card {
	struct lockstep *ls;
	unsigned int idx;
	struct card card;
	uint8_t *regs;
	uint8_t *ram;
	uint64_t ram_size;
	struct guest_mem gm;
	struct fakehost fh;
	struct ls_tails tails[CHAN_VCS_MAX];	/* when tracing */
};

struct lockstep {
	unsigned int n;
	uint64_t cycle;		/* the one clock: every card's c->now */
	uint64_t steps;		/* edges stepped (skipped cycles not counted) */
	struct ls_card *c[LS_MAX_CARDS];
	struct link_wire wire[LS_MAX_WIRES];
	unsigned int n_wires;
	/* the per-packet trace, when enabled */
	struct ls_packet *pkts;
	unsigned int n_pkts, cap_pkts;
};

/*
 * @n cards of @ports network ports each with @ram_size bytes of host
 * memory; @p (may be NULL: the card's defaults) is copied for every card,
 * the node id set to its index.  0, or -1 with @err.
 */
int ls_init(struct lockstep *ls, unsigned int n, unsigned int ports, uint64_t ram_size,
	    const struct card_params *p, char *err, size_t errlen);
void ls_free(struct lockstep *ls);
/* Cable port @pa of card @a to port @pb of card @b; faults seeded by @seed. */
int ls_cable(struct lockstep *ls, unsigned int a, unsigned int pa, unsigned int b,
	     unsigned int pb, uint64_t seed, char *err, size_t errlen);
/*
 * Ring of the cards as the VM lab and the native ring harness cable it:
 * port 0 of card i to port 1 of card i+1, shortest-direction routes,
 * both ports in dimension 0 with the wrap-around channels as datelines.
 */
int ls_ring(struct lockstep *ls, char *err, size_t errlen);
/* Record every packet's injection and delivery cycle (ls->pkts). */
void ls_trace(struct lockstep *ls, unsigned int cap);

/* One clock edge of every card and wire. */
void ls_step(struct lockstep *ls);
/* The next cycle anything can change, or UINT64_MAX. */
uint64_t ls_next_event(const struct lockstep *ls);
/* Run @cycles cycles (skipping idle ones); stops early when all is idle if @until_idle. */
void ls_run(struct lockstep *ls, uint64_t cycles, bool until_idle);
/* Run until every link is up or @cycles passed; true if up. */
bool ls_train(struct lockstep *ls, uint64_t cycles);

#endif
