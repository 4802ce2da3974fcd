/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The card: the top that instantiates the hardware blocks, wires them and
 * clocks them with one clock.
 *
 *   host interface (hostif/: admin mailbox, DMA engines, rings, doorbells)
 *     | host port (card/hostport.c: packets <-> flits under credits)
 *   router (router/: the cycle-level tiled router, one instance)
 *     | network ports 0..n-1 (link/netport.c: a link unit each, cables)
 *   BSUs (bsu/) at the host port, maintenance network (maint/) beside the
 *   router, RMA target (rma/) behind the host interface.
 *
 * The register space is a plain byte array (in the lab: the ivshmem memfd,
 * BAR2 of the guest's device) laid out as the block chain of
 * <loom_hw/regs.h>.  The card never does I/O itself: whoever runs it
 * (emu/ for the lab, the native lockstep harness, the simulator) feeds
 * the link units' framers with the bytes a cable brought and takes the
 * frames from their outboxes, calls card_service() after a doorbell, and
 * raises the interrupts collected in vectors_pending.  Documented in
 * Documentation/hw/card.rst.
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
#include "hostport.h"
#include "maint.h"
#include "mr_table.h"
#include "netport.h"
#include "link/link_params.h"
#include "router/params.h"
#include "router/router.h"
#include "router/route.h"
#include "strict_regs.h"

#define CARD_N_CTX		64	/* at most 64: a bit each in ctx_running */
#define CARD_RT_ENTRIES		LOOM_MAX_NODES
#define CARD_DESIGN_VERSION	((0u << 16) | (4u << 8) | 0u)	/* 0.4.0: memory regions, cycle-level blocks */
#define CARD_DESC		"loom-card-emu"
#define CARD_FP_TIMEOUT_MS	1000	/* PORTS_FP_TIMEOUT_MS at reset */
#define CARD_LANES		4	/* lanes per link */
#define CARD_LANE_THRESHOLD	16	/* LINK_LANE_THRESHOLD at reset */
#define CARD_LANE_WINDOW_MS	1000	/* LINK_LANE_WINDOW_MS at reset */
#define CARD_CLOCK_KHZ		250000	/* nominal clock: 250 MHz */
#define CARD_LANE_BYTES		4	/* bytes per lane and cycle (link LANE_BYTES) */
/* bandwidth of one lane at the nominal clock: 8000 Mbit/s */
#define CARD_LANE_MBPS		(CARD_LANE_BYTES * 8 * (CARD_CLOCK_KHZ / 1000))
#define CARD_CLOCK_KHZ_MAX	1000000
/*
 * Input buffers per VC: eight packets of the largest size, which covers a
 * link's credit round trip (a single stream is never credit-bound).
 */
#define CARD_VC_PACKETS		8

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
#define CARD_OFF_PERF		0xd000	/* performance counters (card/perf.c) */
/* bytes of the PERF block of a card of @n_ports network ports (+ the host port) */
#define CARD_PERF_SIZE(n_ports)	LOOM_PERF_SIZE((n_ports) + 1)
#define CARD_OFF_MCAST		0xe400	/* multicast group table (card/mcast.c) */
#define CARD_MCAST_GROUPS	256	/* entries of the group table */
#define CARD_MCAST_SIZE		LOOM_MCAST_SIZE(CARD_MCAST_GROUPS)
#define CARD_DB_AREA		0x10000	/* page aligned */
#define CARD_BSU_AREA		(CARD_DB_AREA + CARD_N_CTX * LOOM_DB_PAGE_SIZE)	/* 0x50000 */
#define CARD_REGS_MIN		(CARD_BSU_AREA + LOOM_BSU_COUNT * LOOM_BSU_PAGE_SIZE)

struct card_rtl;
struct hostile;
struct router;

/*
 * What a card is built with (the command line of loom-card, or whoever
 * instantiates it): fixed while it runs.
 */
struct card_params {
	unsigned int node;
	unsigned int n_ports;		/* network ports, 0..LOOM_MAX_PORTS */
	uint32_t clock_khz;		/* nominal clock: timers in ms become cycles */
	uint32_t op_timeout_ms;		/* an operation without any answer this long fails */
	struct router_params router;	/* PORTS = n_ports + 1 (the host port) */
	struct link_params link;	/* FLIT_BYTES, VCS, BUF_DEPTH follow the router */
	/* the router's RTL plugin (card_router.h), NULL: the C model */
	const char *rtl_plugin;
};

/*
 * The card's defaults for @n_ports network ports: the router preset
 * "card" with CARD_VC_PACKETS maximal packets of input buffer per VC, the
 * link unit's defaults with the router's flit width, VCs and depth, and
 * CARD_CLOCK_KHZ.
 */
void card_params_default(struct card_params *p, unsigned int node, unsigned int n_ports);
/*
 * Make the link follow the router (FLIT_BYTES, VCS, BUF_DEPTH) and check
 * everything: 0, or -1 with a message naming the parameter, its value and
 * its limit in @err.
 */
int card_params_check(struct card_params *p, char *err, size_t errlen);

/* Per-packet trace (the lockstep harness): @pkt enters or leaves the host port. */
typedef void (*card_trace_fn)(void *opaque, const struct card *c, const uint8_t *pkt,
			      bool delivered);

/*
 * Whether the neighbour on @port may be judged by the forward-progress
 * timer now (the live lab: false while it has been silent lately and may
 * be starved of CPU rather than stuck).
 */
typedef bool (*card_peer_heard_fn)(void *opaque, unsigned int port);

struct card {
	uint8_t *regs;
	size_t regs_size;
	unsigned int node;
	unsigned int n_ports;
	unsigned int n_ctx;
	bool verbose;
	struct card_params p;
	struct guest_mem *gm;
	uint64_t now;		/* the clock: cycles since the card started */
	uint64_t now_ms;	/* the same at the nominal clock, for the host interface */
	uint32_t boot_rt[CARD_RT_ENTRIES * 2];	/* routing table restored by RESET */
	/* VC table (PORT_CFG .. START_VC1) restored by RESET */
	uint8_t boot_vct[LOOM_VCT_SIZE - LOOM_VCT_PORT_CFG];
	uint32_t resets;	/* admin RESETs: the router core clears its dead flags */
	struct hif_ctx ctx[CARD_N_CTX];
	uint64_t ctx_running;	/* bit per context whose state is RUNNING */
	struct maint maint;	/* maintenance network: port slots */
	uint32_t vectors_pending;	/* MSI-X vectors to raise, bit per vector */
	bool more_work;		/* a service round stopped on its budget */
	bool killed;		/* 'kill' on the control socket: the card dies */
	bool stalled;		/* completions wait for completion ring space */
	bool hif_wake;		/* the host interface has work at the next edge */
	uint64_t host_drops;	/* packets from the host interface dropped */
	uint64_t stale_acks;	/* acks for no operation in flight */
	struct bsu_block bsu;	/* barrier/eureka units */
	struct mr_table mr;	/* registered memory regions */
	struct strict_regs strict;	/* --strict-registers: access checking */
	struct hostile *hostile;	/* its hostile mode (hostile.h), or NULL */
	/* the router block (card_router.h) */
	struct router *router;
	/* its wires (router_in/router_out of every port), fixed from its creation on */
	struct chan *wire_in[ROUTER_PORTS_MAX], *wire_out[ROUTER_PORTS_MAX];
	struct card_rtl *rtl;	/* --router rtl: the Verilated router on its wires */
	struct route_view view;	/* its tables: the ROUTER and VCT registers */
	unsigned int host_port;	/* router port of the host port (= n_ports) */
	bool drop_held;		/* a drop event waits for response room */
	struct router_drop drop;
	uint32_t fp_timeout_ms;	/* registers last applied to the blocks */
	uint32_t lane_threshold, lane_window_ms;
	uint32_t disabled;	/* ports whose CTRL.DISABLE is applied */
	uint32_t resets_seen;
	/* the host port and the network ports */
	struct hostport hp;
	struct netport port[LOOM_MAX_PORTS];
	card_trace_fn trace;
	void *trace_opaque;
	/* NULL (in one process): the forward-progress timer alone decides */
	card_peer_heard_fn peer_heard;
	void *peer_opaque;
	uint64_t fp_deferred;	/* verdicts deferred on a silent neighbour */
};

/*
 * Build card @c over a zeroed register window @regs of @regs_size bytes
 * (>= CARD_REGS_MIN) with parameters @p (card_params_check'ed here too):
 * every block, its registers and the routing table with one entry (own
 * node -> host).  False with a message in @err.
 */
bool card_init(struct card *c, uint8_t *regs, size_t regs_size, const struct card_params *p,
	       struct guest_mem *gm, char *err, size_t errlen);
void card_free(struct card *c);
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
/*
 * A doorbell (any kick): the admin and maintenance mailboxes, the
 * registers software may have written (fault masks, timers, lanes), every
 * context's engines and the BSU pages, at the current cycle.
 */
void card_service(struct card *c);

/* ---- the clock ---- */
/* One clock edge of every block: the end of cycle c->now. */
void card_step(struct card *c);
/*
 * The first cycle >= c->now whose edge changes something without new
 * input (c->now when the card is busy), or UINT64_MAX: nothing can move
 * until a cable, a doorbell or the host brings something.
 */
uint64_t card_next_event(const struct card *c);
/* Jump the clock to @cycle (<= card_next_event()) without stepping. */
void card_skip_to(struct card *c, uint64_t cycle);
/* Cycles of @ms milliseconds at the card's nominal clock. */
static inline uint64_t card_ms_cycles(const struct card *c, uint64_t ms)
{
	return ms * c->p.clock_khz;
}
/* Copy every block's statistics into its registers (PORTS, LINK, COUNTERS). */
void card_publish(struct card *c);

/* ---- the network ports, as a transport (cable) sees them ---- */
/* The cable of port @port has a carrier (connected) or not. */
void card_port_carrier(struct card *c, unsigned int port, bool on);
static inline struct link_unit *card_port_link(struct card *c, unsigned int port)
{
	return &c->port[port].link;
}
/* Link of @port trained and carrying packets. */
bool card_port_up(const struct card *c, unsigned int port);

/* ---- inside the card ---- */
/*
 * A packet this card makes (host interface, RMA target, BSUs) enters the
 * router through the host port; false when its class's queue is full.
 */
bool card_inject(struct card *c, const struct loom_pkt_hdr *h, const void *payload);
/* May the host interface queue one more request? */
bool card_can_inject(const struct card *c);
/* Send the acknowledgement of request @req with @status back to its source. */
void card_respond(struct card *c, const struct loom_pkt_hdr *req, uint8_t status);
/*
 * The host port delivers a packet (@avail bytes of payload space behind
 * the header): barrier packets to the BSUs, the rest to the host
 * interface.
 */
void card_host_deliver(struct card *c, const struct loom_pkt_hdr *h, const void *payload,
		       unsigned int avail);
/* The routing decision of the table in the register space (op tracking). */
struct router_decision card_route(const struct card *c, const struct loom_pkt_hdr *h);
static inline void card_trace(struct card *c, const uint8_t *pkt, bool delivered)
{
	if (c->trace)
		c->trace(c->trace_opaque, c, pkt, delivered);
}

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

/* Write the header of a block at @off: its type, version, next block and size. */
void card_blk(struct card *c, uint32_t off, uint32_t type, uint32_t version, uint32_t next,
	      uint32_t size);

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
