/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The card: register space, routing glue and the state of its engines.
 *
 * The register space is a plain byte array (in the lab: the ivshmem
 * memfd, BAR2 of the guest's device) laid out as the block chain of
 * <loom_hw/regs.h>.  The card's logic never does I/O itself: packets for
 * network ports go through struct card_io, interrupts are collected in
 * vectors_pending and raised by the caller after each service round.
 */
#ifndef LOOM_CARD_CARD_H
#define LOOM_CARD_CARD_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <loom_hw/packet.h>
#include <loom_hw/regs.h>

#include "bsu.h"
#include "guest_mem.h"
#include "host_if.h"
#include "maint.h"
#include "mr_table.h"
#include "router/route.h"
#include "strict_regs.h"

#define CARD_N_CTX		64
#define CARD_RT_ENTRIES		LOOM_MAX_NODES
#define CARD_DESIGN_VERSION	((0u << 16) | (4u << 8) | 0u)	/* 0.4.0: memory regions */
#define CARD_DESC		"loom-card-emu"
#define CARD_FP_TIMEOUT_MS	1000	/* PORTS_FP_TIMEOUT_MS at reset */
#define CARD_LANES		4	/* lanes per link */
#define CARD_LANE_THRESHOLD	16	/* LINK_LANE_THRESHOLD at reset */
#define CARD_LANE_WINDOW_MS	1000	/* LINK_LANE_WINDOW_MS at reset */
#define CARD_LANE_MBPS		10000	/* emulated bandwidth of one lane */

/* Block layout inside the register window (drivers walk the chain). */
#define CARD_OFF_FWID		0x0000
#define CARD_OFF_ADMIN		0x0040
#define CARD_OFF_ROUTER		0x0080
#define CARD_ROUTER_SIZE	(LOOM_ROUTER_RT + CARD_RT_ENTRIES * LOOM_ROUTER_RT_ENTRY_SIZE)
#define CARD_OFF_PORTS		0x2100
#define CARD_PORTS_SIZE		(LOOM_PORTS_BASE + LOOM_MAX_PORTS * LOOM_PORT_REC_SIZE)
#define CARD_OFF_CTX		0x2400
#define CARD_CTX_SIZE		(LOOM_CTX_BASE + CARD_N_CTX * LOOM_CTX_REC_SIZE)
#define CARD_OFF_DOORBELL	0x3500
#define CARD_DOORBELL_SIZE	0x20
#define CARD_OFF_VCT		0x3600
#define CARD_OFF_COUNTERS	0x3800
#define CARD_COUNTERS_SIZE	(LOOM_CNT_BASE + LOOM_MAX_PORTS * LOOM_NUM_VCS * LOOM_CNT_REC_SIZE)
#define CARD_OFF_LINK		0x4100
#define CARD_LINK_SIZE		(LOOM_LINK_BASE + LOOM_MAX_PORTS * LOOM_LINK_REC_SIZE)
#define CARD_OFF_MAINT		0x4300
#define CARD_OFF_BSU		0x4800	/* BSU block header; its pages follow the doorbells */
#define CARD_OFF_MR		0x4c00	/* memory-region table (rma/mr_table.c) */
#define CARD_MR_SIZE		(LOOM_MR_BASE + CARD_N_MR * LOOM_MR_REC_SIZE)
#define CARD_DB_AREA		0x10000	/* page aligned */
#define CARD_BSU_AREA		(CARD_DB_AREA + CARD_N_CTX * LOOM_DB_PAGE_SIZE)	/* 0x50000 */
#define CARD_REGS_MIN		(CARD_BSU_AREA + LOOM_BSU_COUNT * LOOM_BSU_PAGE_SIZE)

struct hostile;

/* Hooks to the network ports, supplied by whoever runs the card. */
struct card_io {
	void *opaque;
	/* link trained and able to carry packets */
	bool (*port_up)(void *opaque, unsigned int port);
	/* may the host interface inject one more request on @port? */
	bool (*port_can_inject)(void *opaque, unsigned int port);
	/* queue a packet for transmission; false if it could not be queued */
	bool (*port_send)(void *opaque, unsigned int port,
			  const struct loom_pkt_hdr *h, const void *payload);
};

struct card {
	uint8_t *regs;
	size_t regs_size;
	unsigned int node;
	unsigned int n_ports;
	unsigned int n_ctx;
	bool verbose;
	struct guest_mem *gm;
	struct card_io io;
	uint32_t boot_rt[CARD_RT_ENTRIES * 2];	/* routing table restored by RESET */
	/* VC table (PORT_CFG .. START_VC1) restored by RESET */
	uint8_t boot_vct[LOOM_VCT_SIZE - LOOM_VCT_PORT_CFG];
	uint32_t resets;	/* admin RESETs: the router core clears its dead flags */
	struct hif_ctx ctx[CARD_N_CTX];
	struct maint maint;	/* maintenance network: port slots */
	uint64_t now_ms;	/* card time, set by whoever runs the card */
	uint32_t vectors_pending;	/* MSI-X vectors to raise, bit per vector */
	bool more_work;		/* a service round stopped on its budget */
	bool killed;		/* 'kill' on the control socket: the card dies */
	bool stalled;		/* completions wait for completion ring space */
	uint64_t host_drops;	/* packets from the host interface dropped */
	uint64_t stale_acks;	/* acks for no operation in flight */
	struct bsu_block bsu;	/* barrier/eureka units */
	struct mr_table mr;	/* registered memory regions */
	struct strict_regs strict;	/* --strict-registers: access checking */
	struct hostile *hostile;	/* its hostile mode (hostile.h), or NULL */
};

/*
 * Initialise @c over a zeroed register window @regs of @regs_size bytes
 * (>= CARD_REGS_MIN) with @n_ports network ports.  The routing table holds
 * one entry: own node -> host.  Returns false if the window is too small.
 */
bool card_init(struct card *c, uint8_t *regs, size_t regs_size, unsigned int node,
	       unsigned int n_ports, struct guest_mem *gm, const struct card_io *io);
/* Set routing entry @dst to @port (number or LOOM_RT_PORT_HOST). */
void card_set_route(struct card *c, unsigned int dst, unsigned int port);
/* Remember the current routing table and VC table as the reset state. */
void card_save_boot_config(struct card *c);
/*
 * Admin RESET: the power-on state of everything software configures
 * (Documentation/hw/registers.rst, "RESET"): every context disabled and its
 * record and doorbells zero, routing and VC tables from the boot config,
 * LOGICAL_ID = node, fault masks (port CTRL) 0, DEAD and DISABLED cleared,
 * forward-progress and lane settings at their reset values, BSUs at
 * power-on.  Links, buffered transit packets and the statistics counters
 * are kept.
 */
void card_reset(struct card *c);
/* Admin mailbox and every context's engines: one round. */
void card_service(struct card *c);

/* The routing decision for @h with the table in the register space. */
struct router_decision card_route(const struct card *c, const struct loom_pkt_hdr *h);
/*
 * Switch a packet: route it to the host interface or a port.  @in_port is
 * the arrival port or -1 for packets made by this card.  Undeliverable
 * requests are answered with an error acknowledgement to their source.
 */
void card_switch(struct card *c, struct loom_pkt_hdr *h, const void *payload, int in_port);
/* Send the acknowledgement of request @req with @status back to its source. */
void card_respond(struct card *c, const struct loom_pkt_hdr *req, uint8_t status);

/* ---- register access (the window is shared with the host) ---- */
static inline uint32_t card_rd32(const struct card *c, uint32_t off)
{
	return __atomic_load_n((const uint32_t *)(const void *)(c->regs + off), __ATOMIC_ACQUIRE);
}

static inline void card_wr32(struct card *c, uint32_t off, uint32_t v)
{
	__atomic_store_n((uint32_t *)(void *)(c->regs + off), v, __ATOMIC_RELEASE);
	if (c->strict.shadow)
		c->strict.shadow[off / 4] = v;
}

static inline uint64_t card_rd64(const struct card *c, uint32_t off_lo)
{
	return card_rd32(c, off_lo) | (uint64_t)card_rd32(c, off_lo + 4) << 32;
}

static inline uint32_t card_port_reg(unsigned int port, uint32_t field)
{
	return CARD_OFF_PORTS + LOOM_PORTS_BASE + port * LOOM_PORT_REC_SIZE + field;
}

static inline uint32_t card_ctx_reg(unsigned int idx, uint32_t field)
{
	return CARD_OFF_CTX + LOOM_CTX_BASE + idx * LOOM_CTX_REC_SIZE + field;
}

static inline uint32_t card_db_reg(unsigned int idx, uint32_t field)
{
	return CARD_DB_AREA + idx * LOOM_DB_PAGE_SIZE + field;
}

static inline void card_port_count(struct card *c, unsigned int port, uint32_t field, uint32_t n)
{
	uint32_t off = card_port_reg(port, field);

	card_wr32(c, off, card_rd32(c, off) + n);
}

static inline uint32_t card_cnt_reg(unsigned int port, unsigned int vc, uint32_t field)
{
	return CARD_OFF_COUNTERS + LOOM_CNT_BASE + (port * LOOM_NUM_VCS + vc) * LOOM_CNT_REC_SIZE +
	       field;
}

/* Per (port, VC) counter of the COUNTERS block. */
static inline void card_cnt_add(struct card *c, unsigned int port, unsigned int vc,
				uint32_t field, uint32_t n)
{
	uint32_t off = card_cnt_reg(port, vc, field);

	card_wr32(c, off, card_rd32(c, off) + n);
}

/* Card-wide drop counter of the COUNTERS block (LOOM_CNT_DROP_*). */
static inline void card_drop_count(struct card *c, uint32_t cause)
{
	card_wr32(c, CARD_OFF_COUNTERS + cause, card_rd32(c, CARD_OFF_COUNTERS + cause) + 1);
}

static inline uint32_t card_link_reg(unsigned int port, uint32_t field)
{
	return CARD_OFF_LINK + LOOM_LINK_BASE + port * LOOM_LINK_REC_SIZE + field;
}

/*
 * Change port @port's STATUS: clear @clear, set @set.  A change increments
 * PORTS_EVENTS and raises LOOM_VEC_EVENT.
 */
void card_port_status(struct card *c, unsigned int port, uint32_t clear, uint32_t set);

static inline uint16_t card_logical_id(const struct card *c)
{
	return (uint16_t)card_rd32(c, CARD_OFF_ROUTER + LOOM_ROUTER_LOGICAL_ID);
}

/* Does any context have operations in flight? */
static inline bool card_ops_busy(const struct card *c)
{
	for (unsigned int i = 0; i < c->n_ctx; i++)
		if (c->ctx[i].ops_busy)
			return true;
	return false;
}

/* stderr log line prefixed "loom-card[N]: " */
void card_log(const struct card *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
