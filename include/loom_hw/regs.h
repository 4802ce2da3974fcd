/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note OR MIT */
/*
 * loom card register map (hardware interface, contract 1 of 3).
 *
 * Shared verbatim by the kernel module, libloom and the card emulator.
 * Documented in Documentation/hw/registers.rst; never renumber a field,
 * retire it and add a new one.
 *
 * Register space: BAR0 on the real card, BAR2 of the ivshmem-doorbell
 * device in the VM lab (same layout, same offsets).  All registers are
 * 32-bit, little-endian, naturally aligned.  The space is a chain of
 * self-describing register blocks, starting at offset 0 with the
 * firmware-id block; each block begins with struct loom_blk_hdr.
 *
 * Access types, noted at each register: RO registers are written by the
 * card only (software writes are errors), WO registers by software only
 * (the card consumes them; software never reads them back: it keeps its
 * own copy), RW registers are configuration both sides may read.  Block
 * headers and everything the card reports are RO.
 */
#ifndef LOOM_HW_REGS_H
#define LOOM_HW_REGS_H

/* ---- PCI identity of the real card ------------------------------------ */
#define LOOM_PCI_VENDOR_ID		0x10ee	/* FPGA vendor id, as FPGA prototypes do */
#define LOOM_PCI_DEVICE_ID		0x4c4d	/* "LM": loom router card */
#define LOOM_REG_BAR			0	/* real card: registers in BAR0 */

/* ---- block chain ------------------------------------------------------ */
/* Every block starts with these four words. */
#define LOOM_BLK_TYPE			0x00	/* LOOM_BLK_* */
#define LOOM_BLK_VERSION		0x04	/* major << 16 | minor */
#define LOOM_BLK_NEXT			0x08	/* offset of next block, 0 = end */
#define LOOM_BLK_SIZE			0x0c	/* bytes covered by this block */
#define LOOM_BLK_HDR_SIZE		0x10

#define LOOM_BLK_VER(major, minor)	(((major) << 16) | (minor))
#define LOOM_BLK_VER_MAJOR(v)		((v) >> 16)
#define LOOM_BLK_VER_MINOR(v)		((v) & 0xffff)

/* Block types.  A reader accepts a block whose major version equals the
 * one it was written for and whose minor version is >= it.
 */
#define LOOM_BLK_FWID			0x0001
#define LOOM_BLK_ADMIN			0x0002
#define LOOM_BLK_ROUTER			0x0003
#define LOOM_BLK_PORTS			0x0004
#define LOOM_BLK_CTX			0x0005
#define LOOM_BLK_DOORBELL		0x0006
#define LOOM_BLK_VCT			0x0007	/* VC table: datelines, start VCs */
#define LOOM_BLK_BSU			0x0008	/* barrier/eureka units */
#define LOOM_BLK_MAINT			0x0009	/* maintenance network mailbox */
#define LOOM_BLK_COUNTERS		0x000a	/* per port, per VC counters */
#define LOOM_BLK_LINK			0x000b	/* lanes and link-layer settings */
#define LOOM_BLK_MR			0x000d	/* memory-region table */
#define LOOM_BLK_PERF			0x000e	/* router performance counters */
#define LOOM_BLK_MCAST			0x000f	/* multicast group table */
/* reserved: 0x000c (partition keys live in the CTX records and the BSU
 * block: Documentation/hw/partitions.rst)
 */

#define LOOM_BLK_MAX_CHAIN		64	/* loop guard for readers */

/*
 * What a read of a WO register returns on a card run with strict register
 * checking (loom-card --strict-registers): the card replaces the value it
 * consumed with LOOM_REG_POISON, or with LOOM_REG_POISON_ALT when the
 * value written was within 2^16 of LOOM_REG_POISON, so a poison is never
 * a value software may write next.
 */
#define LOOM_REG_POISON			0xdeadbeefu
#define LOOM_REG_POISON_ALT		0x5eadbeefu

/* ---- firmware id block (always at offset 0); all RO --------------------- */
#define LOOM_FWID_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_FWID_MAGIC			0x10	/* LOOM_MAGIC */
#define LOOM_FWID_DESIGN_VERSION	0x14	/* major << 16 | minor << 8 | patch */
#define LOOM_FWID_BUILD_ID		0x18	/* 32 bits of the design's git hash */
#define LOOM_FWID_BUILD_TIME		0x1c	/* seconds since the epoch */
#define LOOM_FWID_FLAGS			0x20	/* LOOM_FWID_F_* */
#define LOOM_FWID_DESC			0x24	/* 28 bytes, NUL-padded ASCII */
#define LOOM_FWID_DESC_LEN		28
#define LOOM_FWID_SIZE			0x40

#define LOOM_MAGIC			0x4d4f4f4c	/* "LOOM" little-endian */
/* Set by the card emulator: this is the lab's signature.  The lab back end
 * of the driver binds an ivshmem device only when LOOM_MAGIC and this flag
 * are both present at offset 0 of BAR2.
 */
#define LOOM_FWID_F_EMULATED		(1u << 0)

/* ---- admin block: one command mailbox -------------------------------- */
/*
 * The driver writes ARG0..ARG3 and CMD, then writes SEQ (and kicks, in the
 * lab).  The card executes the command and writes RESULT then ACK = SEQ.
 * Only one command is in flight; the driver serialises.
 */
#define LOOM_ADMIN_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_ADMIN_CMD			0x10	/* RW */
#define LOOM_ADMIN_ARG0			0x14	/* RW */
#define LOOM_ADMIN_ARG1			0x18	/* RW */
#define LOOM_ADMIN_ARG2			0x1c	/* RW */
#define LOOM_ADMIN_ARG3			0x20	/* RW */
#define LOOM_ADMIN_SEQ			0x24	/* RW */
#define LOOM_ADMIN_ACK			0x28	/* RO */
#define LOOM_ADMIN_RESULT		0x2c	/* RO: 0 or LOOM_ADMIN_E_* */
#define LOOM_ADMIN_N_CTX		0x30	/* RO: contexts on the card */
#define LOOM_ADMIN_N_VECTORS		0x34	/* RO: MSI-X vectors used */
#define LOOM_ADMIN_STATUS		0x38	/* RO: LOOM_ADMIN_ST_* */
#define LOOM_ADMIN_SIZE			0x40

#define LOOM_ADMIN_CMD_NOP		0
#define LOOM_ADMIN_CMD_RESET		1	/* stop every context, clear state */
#define LOOM_ADMIN_CMD_CTX_ENABLE	2	/* ARG0 = context index */
#define LOOM_ADMIN_CMD_CTX_DISABLE	3	/* ARG0 = context index; waits for
						 * the context's DMA to stop
						 */
#define LOOM_ADMIN_CMD_MR_ENABLE	4	/* ARG0 = region index: latch its
						 * record (LOOM_BLK_MR) and serve it
						 */
#define LOOM_ADMIN_CMD_MR_DISABLE	5	/* ARG0 = region index: drop it; once
						 * acknowledged the card never reads
						 * its page list or pages again
						 */

#define LOOM_ADMIN_E_OK			0
#define LOOM_ADMIN_E_UNKNOWN_CMD	1
#define LOOM_ADMIN_E_BAD_CTX		2	/* index out of range */
#define LOOM_ADMIN_E_BAD_RING		3	/* ring size/address invalid */
#define LOOM_ADMIN_E_BAD_SEGMENT	4	/* segment address/size invalid */
#define LOOM_ADMIN_E_BUSY		5	/* context already enabled */
#define LOOM_ADMIN_E_BAD_MR		6	/* region index out of range or its
						 * record invalid (key, rights,
						 * context, length, page list)
						 */

#define LOOM_ADMIN_ST_READY		(1u << 0)

/* MSI-X vectors raised by the card */
#define LOOM_VEC_ADMIN			0	/* admin ack, card events */
#define LOOM_VEC_CQ			1	/* some completion queue advanced */
#define LOOM_VEC_EVENT			2	/* port state changed (PORTS_EVENTS),
						 * maintenance response arrived
						 * (MAINT_RESP_PI), BSU completed
						 */
#define LOOM_NUM_VECTORS		4	/* vectors the card is built with */

/* Lab transport: the emulator is ivshmem peer 0; the driver rings its
 * vectors with the ivshmem Doorbell register (BAR0 + 0x0c) as
 * (peer << 16 | vector).  Vector meanings for guest -> card kicks:
 */
#define LOOM_KICK_ADMIN			0	/* registers changed: rescan */
#define LOOM_KICK_DOORBELL		1	/* a context doorbell moved */
#define LOOM_KICK_BSU			2	/* a BSU page's OP was written */

/* ---- router block ------------------------------------------------------ */
#define LOOM_ROUTER_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_ROUTER_NODE_ID		0x10	/* RO: physical who-am-I */
#define LOOM_ROUTER_LOGICAL_ID		0x14	/* RW: logical who-am-I */
#define LOOM_ROUTER_N_PORTS		0x18	/* RO: network ports */
#define LOOM_ROUTER_RT_ENTRIES		0x1c	/* RO: routing table entries */
#define LOOM_ROUTER_RT			0x40	/* RW: routing table, 8 bytes/entry */
#define LOOM_ROUTER_RT_ENTRY_SIZE	8

/*
 * Routing table entry, indexed by logical destination node (T3E style).
 * word 0: valid, adaptive-allowed, DimWAR, OmniWAR with its distance
 *	   classes, minimal hops left, initial direction, output port
 * word 1: physical destination node
 * The port LOOM_RT_PORT_HOST delivers to the local host interface.
 */
#define LOOM_RT_W0_PORT_MASK		0x0000000fu
#define LOOM_RT_W0_INIT_DIR_SHIFT	4		/* 0 = none, 1..6 = +X..-Z */
#define LOOM_RT_W0_INIT_DIR_MASK	0x00000070u
#define LOOM_RT_W0_ADAPTIVE		(1u << 8)
/* DimWAR (weighted adaptive routing in dimension order, HyperX): the
 * packet may deroute to another port of the W0 port's dimension (VCT
 * PORT_CFG) on the class's VC1, once per dimension, choosing by weight
 * (congestion x hops); minimal hops travel on VC0.  Bits 15:12: the
 * minimal hops left from this router to the destination (the weight).
 */
#define LOOM_RT_W0_DIMWAR		(1u << 9)
#define LOOM_RT_W0_HOPS_SHIFT		12
#define LOOM_RT_W0_HOPS_MASK		0x0000f000u
/* Adaptive up-route (up/down routing in a folded Clos, BlackWidow): the
 * packet may leave by any usable network port from W1 UP_FIRST to the
 * last one instead of the W0 port, on the VC the W0 port would give it,
 * choosing the port with the fewest flits sent and not yet credited.
 * Every such port goes up toward a common ancestor of the destination,
 * so any choice keeps the up-then-down order that makes routes
 * deadlock free.
 */
#define LOOM_RT_W0_UPROUTE		(1u << 10)
/* Valiant (randomised two-phase routing): a packet injected by this
 * router's host toward this destination first travels to an intermediate
 * drawn by the router's LFSR among the logical nodes 0 .. W1 VAL_LAST
 * (phase 0, LOOM_PKT_F_VAL_PHASE, on the class's VC0), then from there to
 * its destination (phase 1, on VC1).  Both phases follow the W0 ports of
 * their destinations' entries.  With LOOM_RT_W0_UGAL as well, the source
 * router chooses per packet between the minimal route (on VC1) and the
 * Valiant one by (occupancy + packet) x hops, the minimal hops from W0
 * HOPS.  Logical nodes 0..255 only (the intermediate rides in dst_node
 * bits 15:8).
 */
#define LOOM_RT_W0_VALIANT		(1u << 11)
#define LOOM_RT_W0_UGAL			(1u << 24)
/* With LOOM_RT_W0_VALIANT, on a torus or ring: each phase takes its VC by
 * the VC model's dateline rule (START_VC1, PORT_CFG DATELINE) on a pair of
 * its own, phase 0 on VC0/VC1 and phase 1 on VC2/VC3, four VCs per class.
 * Generic VCs (VC_MODEL 0) with at least 4 VCs only: the card's VC model
 * has two deterministic VCs per class, and a router without the VCs drops
 * packets toward such an entry (no route).
 */
#define LOOM_RT_W0_VAL_DATELINES	(1u << 30)
/* OmniWAR (omni-dimensional weighted adaptive routing, HyperX): the
 * packet may leave by any minimal port of W1 ADAPT_PORTS (one per
 * unaligned dimension; the W0 port among them) or, while its distance
 * classes left exceed W0 HOPS, deroute to any other port of those ports'
 * dimensions (VCT PORT_CFG), choosing by weight as DimWAR does.  Every
 * router-to-router hop takes the next distance class, the first one
 * class 0: the class is the VC (the card's VC0, VC1 and adaptive VC of
 * the packet's class, LOOM_RT_OMNI_CARD_CLASSES; VC k with generic VCs).
 * Bits 29:26: the distance classes N + M the route has (N dimensions,
 * M deroutes).
 */
#define LOOM_RT_W0_OMNIWAR		(1u << 25)
#define LOOM_RT_W0_CLASSES_SHIFT	26
#define LOOM_RT_W0_CLASSES_MASK		0x3c000000u
#define LOOM_RT_OMNI_CARD_CLASSES	3
#define LOOM_RT_W0_VALID		(1u << 31)
/* word 1: physical destination [15:0]; the first up port of an UPROUTE
 * entry [23:16]; minimal output ports the adaptive VC may choose among
 * [31:24] (bit n = port n; 0 = only the W0 port)
 */
#define LOOM_RT_W1_UP_FIRST_SHIFT	16
#define LOOM_RT_W1_UP_FIRST_MASK	0x00ff0000u
/* VALIANT entries: the last intermediate, in the UP_FIRST field [23:16] */
#define LOOM_RT_W1_VAL_LAST_SHIFT	16
#define LOOM_RT_W1_VAL_LAST_MASK	0x00ff0000u
#define LOOM_RT_W1_PHYS_MASK		0x0000ffffu
#define LOOM_RT_W1_ADAPT_PORTS_SHIFT	24
#define LOOM_RT_W1_ADAPT_PORTS_MASK	0xff000000u
#define LOOM_RT_PORT_HOST		0xf
/* routers with more than 15 network ports (the simulator's high-radix
 * routers; never the card): the output port in word 0 bits 23:16 instead
 * of bits 3:0, LOOM_RT_WIDE_PORT_HOST for the host
 */
#define LOOM_RT_W0_WIDE_PORT_SHIFT	16
#define LOOM_RT_W0_WIDE_PORT_MASK	0x00ff0000u
#define LOOM_RT_WIDE_PORT_HOST		0xff
#define LOOM_MAX_PORTS			8
#define LOOM_MAX_NODES			1024

/* ---- ports block: one 64-byte record per network port ------------------ */
#define LOOM_PORTS_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_PORTS_COUNT		0x10	/* RO */
#define LOOM_PORTS_STRIDE		0x14	/* RO */
#define LOOM_PORTS_FP_TIMEOUT_MS	0x18	/* RW: forward-progress timer: a VC
						 * holding packets with no credit
						 * back for this long declares its
						 * port dead; 0 = off; reset 1000
						 */
#define LOOM_PORTS_EVENTS		0x1c	/* RO: +1 on every change of any
						 * port's STATUS; raises
						 * LOOM_VEC_EVENT
						 */
#define LOOM_PORTS_BASE			0x40
#define LOOM_PORT_REC_SIZE		0x40
/* offsets inside a port record: all RO but CTRL */
#define LOOM_PORT_STATUS		0x00	/* LOOM_PORT_ST_* */
#define LOOM_PORT_PEER_NODE		0x04	/* learnt at link training */
#define LOOM_PORT_PEER_PORT		0x08
#define LOOM_PORT_TX_FRAMES		0x0c	/* counters wrap at 2^32 */
#define LOOM_PORT_RX_FRAMES		0x10
#define LOOM_PORT_TX_BYTES		0x14
#define LOOM_PORT_RX_BYTES		0x18
#define LOOM_PORT_CRC_ERRORS		0x1c
#define LOOM_PORT_SEQ_ERRORS		0x20
#define LOOM_PORT_DROPS			0x24
#define LOOM_PORT_RETRIES		0x28	/* go-back-N replays (NAK or timeout) */
#define LOOM_PORT_NAKS_SENT		0x2c	/* NAK frames sent by the receiver */
#define LOOM_PORT_INJECTED		0x30	/* frames corrupted or dropped by injection */
#define LOOM_PORT_REPLAYED		0x34	/* DATA frames retransmitted */
#define LOOM_PORT_ACK_TIMEOUTS		0x38	/* replays started by the ack timer */
#define LOOM_PORT_CTRL			0x3c	/* RW: LOOM_PORT_CTRL_*; reset 0 */

#define LOOM_PORT_ST_CABLED		(1u << 0)	/* socket connected */
#define LOOM_PORT_ST_UP			(1u << 1)	/* link trained */
#define LOOM_PORT_ST_DEAD		(1u << 2)	/* declared dead by the forward-
							 * progress timer; cleared when
							 * the link trains again
							 */
#define LOOM_PORT_ST_DISABLED		(1u << 3)	/* CTRL.DISABLE is set */
#define LOOM_PORT_ST_LANES_SHIFT	8		/* lanes in use [11:8] */
#define LOOM_PORT_ST_LANES_MASK		0x00000f00u

/* Fault mask: a disabled port carries nothing; packets routed to it are
 * discarded and counted (COUNTERS DROPS_DISABLED), requests answered with
 * LOOM_CQE_ST_DISCARDED.  The same happens on a port declared dead.
 */
#define LOOM_PORT_CTRL_DISABLE		(1u << 0)

/* ---- context block: one 64-byte record per context --------------------- */
/*
 * The driver fills a record while the context is disabled, then issues
 * LOOM_ADMIN_CMD_CTX_ENABLE.  Addresses are bus addresses of host memory.
 */
#define LOOM_CTX_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_CTX_COUNT			0x10	/* RO */
#define LOOM_CTX_STRIDE			0x14	/* RO */
#define LOOM_CTX_BASE			0x40
#define LOOM_CTX_REC_SIZE		0x40
/* offsets inside a context record: RW but STATE, ERROR, CMD_CI (RO) */
#define LOOM_CTXR_CMDQ_LO		0x00	/* command ring, 64-byte aligned */
#define LOOM_CTXR_CMDQ_HI		0x04
#define LOOM_CTXR_CQ_LO			0x08	/* completion ring */
#define LOOM_CTXR_CQ_HI			0x0c
#define LOOM_CTXR_SEG_LO		0x10	/* memory segment (contiguous) */
#define LOOM_CTXR_SEG_HI		0x14
#define LOOM_CTXR_SEG_SIZE_LO		0x18
#define LOOM_CTXR_SEG_SIZE_HI		0x1c
#define LOOM_CTXR_RINGS			0x20	/* log2 cmdq entries [7:0],
						 * log2 cq entries [15:8],
						 * LOOM_CTXR_RINGS_CNT_IRQ
						 */
/*
 * Bit of LOOM_CTXR_RINGS the card reads at every counter write-back (not
 * only at CTX_ENABLE): when set, the card raises the context's vector
 * after writing a counter, so the driver can sleep on a counter threshold.
 * The driver may set it while the context runs.
 */
#define LOOM_CTXR_RINGS_CNT_IRQ		(1u << 16)
/*
 * The context's partition key, set by the driver (with privilege): the
 * card stamps it on every request the context issues (the key field of a
 * descriptor is ignored) and accepts a request for the context only when
 * it carries the same key.
 */
#define LOOM_CTXR_KEY			0x24
#define LOOM_CTXR_VECTOR		0x28	/* MSI-X vector for CQ events */
#define LOOM_CTXR_STATE			0x2c	/* RO: LOOM_CTX_ST_* */
#define LOOM_CTXR_ERROR			0x30	/* RO: last LOOM_CQE_ST_* fault */
#define LOOM_CTXR_CMD_CI		0x34	/* RO: commands consumed */
#define LOOM_CTXR_CNT_LO		0x38	/* counters page (4 KiB aligned,
						 * LOOM_CTX_COUNTERS u64), 0 = none
						 */
#define LOOM_CTXR_CNT_HI		0x3c
#define LOOM_CTX_COUNTERS		512	/* counters per context */

#define LOOM_CTX_ST_DISABLED		0
#define LOOM_CTX_ST_RUNNING		1
#define LOOM_CTX_ST_FAULTED		2	/* descriptor or DMA fault: stopped */

#define LOOM_RING_LOG2_MIN		4	/* 16 entries */
#define LOOM_RING_LOG2_MAX		15	/* 32768 entries */

/* ---- doorbell block: one page per context ------------------------------ */
#define LOOM_DOORBELL_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_DOORBELL_AREA		0x10	/* RO: offset of page 0, page aligned */
#define LOOM_DOORBELL_STRIDE		0x14	/* RO: 4096: one page per context */
#define LOOM_DOORBELL_COUNT		0x18	/* RO */
/* offsets inside a context's doorbell page */
#define LOOM_DB_CMD_PI			0x00	/* WO: command producer */
#define LOOM_DB_CQ_CI			0x04	/* WO: completions consumed */
#define LOOM_DB_CQ_CI_SEEN		0x08	/* RO: the last CQ_CI the card took
						 * (0 at CTX_ENABLE)
						 */
#define LOOM_DB_PAGE_SIZE		4096

/* ---- VC table block --------------------------------------------------- */
/*
 * Virtual channels (T3E model, Documentation/hw/routing.rst): a packet
 * takes the VC named by START_VC1 for its destination when it is injected
 * or enters a new dimension (the dimension of its output port differs from
 * that of its input port), keeps it while it continues in the same
 * dimension, and moves to VC1 when it leaves through a DATELINE port.
 */
#define LOOM_VCT_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_VCT_N_PORTS		0x10	/* RO: entries in PORT_CFG */
#define LOOM_VCT_PORT_CFG		0x40	/* RW: one word per port, LOOM_MAX_PORTS */
#define LOOM_VCT_START_VC1		0x80	/* RW: bitmap, bit d of word d / 32:
						 * start on VC1 toward logical
						 * destination d (LOOM_MAX_NODES)
						 */
#define LOOM_VCT_SIZE			(LOOM_VCT_START_VC1 + LOOM_MAX_NODES / 8)

#define LOOM_VCT_PORT_DIM_MASK		0x0000000fu	/* dimension 0..n, */
#define LOOM_VCT_PORT_DIM_NONE		0xf		/* or none (reset) */
#define LOOM_VCT_PORT_DATELINE		(1u << 8)	/* leaving here: VC1 */

/* ---- counters block: one record per (port, VC); all RO ----------------- */
#define LOOM_COUNTERS_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_CNT_N_PORTS		0x10	/* RO */
#define LOOM_CNT_N_VCS			0x14	/* RO: LOOM_NUM_VCS */
#define LOOM_CNT_STRIDE			0x18	/* RO: record size */
/* card-wide drops by cause (packets), all counters wrap at 2^32 */
#define LOOM_CNT_DROP_KEY		0x20	/* target: wrong key */
#define LOOM_CNT_DROP_BOUNDS		0x24	/* target: outside the segment */
#define LOOM_CNT_DROP_NO_CTX		0x28	/* target: context not running */
#define LOOM_CNT_DROP_NO_ROUTE		0x2c	/* no valid routing entry */
#define LOOM_CNT_DROP_HOP_LIMIT		0x30	/* LOOM_PKT_MAX_HOPS reached */
#define LOOM_CNT_DROP_MALFORMED		0x34	/* bad header, length or type */
#define LOOM_CNT_MAINT_LOST		0x38	/* maintenance packets lost */
#define LOOM_CNT_DROP_BSU_KEY		0x3c	/* barrier packets refused: the
						 * unit is in another partition
						 */
#define LOOM_CNT_BASE			0x40	/* record (port * N_VCS + vc) */
#define LOOM_CNT_REC_SIZE		0x20
/* offsets inside a (port, VC) record; the VC is the output VC */
#define LOOM_CNTR_TX_PKTS		0x00
#define LOOM_CNTR_TX_BYTES		0x04	/* packet header + payload */
#define LOOM_CNTR_RX_PKTS		0x08	/* arrived on this port and VC */
#define LOOM_CNTR_CREDIT_STALLS		0x0c	/* cycles waited for credits: VC 0's record, per port */
#define LOOM_CNTR_ADAPTIVE		0x10	/* adaptive choices */
#define LOOM_CNTR_DETERMINISTIC		0x14	/* table (deterministic) choices */
#define LOOM_CNTR_DROPS_DISABLED	0x18	/* discarded: port disabled */
#define LOOM_CNTR_DROPS_DEAD		0x1c	/* discarded: port down or dead */

/* ---- performance counters block: the router's, 64 bits wide ----------- */
/*
 * Every counter counts clock cycles or events from card reset and is 64
 * bits wide: two words, the low word at the offset named here, the high
 * word at offset + 4.  The card updates the registers only when software
 * asks for a snapshot: it writes a new value to SNAP_SEQ (and kicks
 * vector 0 in the lab); the card copies every counter of the block, all
 * taken at the same clock edge, into the registers, then writes SNAP_ACK
 * = SNAP_SEQ.  Software reads the block after it sees SNAP_ACK equal to
 * the value it wrote, so the two halves of a counter and the counters of
 * one snapshot agree with each other.  Cycles the card's clock skipped
 * while idle count as cycles.
 *
 * Records: one per router port (N_PORTS = ROUTER N_PORTS + 1), the
 * network ports 0..N_PORTS - 2 and the host port last (HOST_PORT), each
 * with one VC record per VC of the router (N_VCS).
 */
#define LOOM_PERF_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_PERF_N_PORTS		0x10	/* RO: port records */
#define LOOM_PERF_N_VCS			0x14	/* RO: VC records per port */
#define LOOM_PERF_PORT_STRIDE		0x18	/* RO: bytes between port records */
#define LOOM_PERF_HOST_PORT		0x1c	/* RO: record of the host port */
#define LOOM_PERF_SNAP_SEQ		0x20	/* RW: software: take a snapshot */
#define LOOM_PERF_SNAP_ACK		0x24	/* RO: snapshot SNAP_SEQ is in the registers */
#define LOOM_PERF_CLOCK_KHZ		0x28	/* RO: the clock the cycles count */
#define LOOM_PERF_CYCLES		0x30	/* RO 64: clock cycles */
#define LOOM_PERF_VA_CONFLICTS		0x38	/* RO 64: VC requests that lost
						 * VC allocation
						 */
#define LOOM_PERF_SA_CONFLICTS		0x40	/* RO 64: switch arbitrations
						 * (input, subswitch, output) with
						 * more than one requester
						 */
#define LOOM_PERF_PORT_BASE		0x80	/* RO: port records */
/* a port record; all RO 64 */
#define LOOM_PERFP_FLITS_IN		0x00	/* flits written into its input buffers */
#define LOOM_PERFP_FLITS_OUT		0x08	/* flits sent on its output */
#define LOOM_PERFP_PKTS_IN		0x10	/* packets (head flits) received */
#define LOOM_PERFP_PKTS_OUT		0x18	/* packets (tail flits) sent */
#define LOOM_PERFP_VC_BASE		0x20	/* its VC records */
#define LOOM_PERF_VC_REC_SIZE		0x20
#define LOOM_PERF_PORT_REC_SIZE		0x120	/* VC_BASE + LOOM_NUM_VCS VC records */
/* a VC record: input buffer of (port, VC), and output VC (port, VC) */
#define LOOM_PERFV_OCCUPANCY		0x00	/* RO 32: flits in the input buffer now */
#define LOOM_PERFV_OCCUPANCY_MAX	0x04	/* RO 32: most flits it held at once */
#define LOOM_PERFV_STALL_CYCLES		0x08	/* RO 64: cycles its head, past route
						 * computation, waited for an output
						 * VC, or its ready flits were not
						 * switched
						 */
#define LOOM_PERFV_CREDIT_STARVED	0x10	/* RO 64: cycles a packet waited for
						 * the credits of this output VC
						 * only
						 */
#define LOOM_PERF_SIZE(ports)		(LOOM_PERF_PORT_BASE + (ports) * LOOM_PERF_PORT_REC_SIZE)

/* ---- link block: lanes -------------------------------------------------- */
#define LOOM_LINK_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_LINK_N_LANES		0x10	/* RO: lanes per link (4) */
#define LOOM_LINK_LANE_THRESHOLD	0x14	/* RW: errors on one lane within
						 * LANE_WINDOW_MS that drop it;
						 * reset 16
						 */
#define LOOM_LINK_LANE_WINDOW_MS	0x18	/* RW: reset 1000 */
#define LOOM_LINK_BASE			0x40	/* RO: one record per port */
#define LOOM_LINK_REC_SIZE		0x20
#define LOOM_LINKR_LANE_ERRORS		0x00	/* 4 words: CRC errors per lane */
#define LOOM_LINKR_LANES		0x10	/* lanes in use: 4, 2, 1 (0 down) */
#define LOOM_LINKR_LANE_DROPS		0x14	/* lanes dropped since training */
#define LOOM_LINKR_RATE_MBPS		0x18	/* emulated bandwidth now */

/* ---- maintenance block -------------------------------------------------- */
/*
 * Directed-route access to the registers of any card (this one included,
 * with ROUTE_LEN 0), with no routing table and no flow control.  Issue:
 * write OP, ADDR, VALUE, ROUTE_LEN, ROUTE, then REQ_SEQ (and kick vector 0
 * in the lab); the card sends the packet and writes REQ_ACK = REQ_SEQ.
 * The response lands in the response ring below: the card writes the
 * entry, then RESP_PI + 1, and raises LOOM_VEC_EVENT.  A packet that meets
 * a busy, down or nonexistent port is lost (counted in MAINT_LOST):
 * software times out and retries with a new sequence id.
 */
#define LOOM_MAINT_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_MAINT_OP			0x10	/* RW: LOOM_MAINT_OP_* */
#define LOOM_MAINT_ADDR			0x14	/* RW: register offset at the target */
#define LOOM_MAINT_VALUE		0x18	/* RW: WRITE: value */
#define LOOM_MAINT_ROUTE_LEN		0x1c	/* RW: hops, 0..LOOM_MAINT_MAX_HOPS */
#define LOOM_MAINT_ROUTE		0x20	/* RW: 16 bytes: output port per hop */
#define LOOM_MAINT_REQ_SEQ		0x30	/* RW: software: issue this request */
#define LOOM_MAINT_REQ_ACK		0x34	/* RO: request sent */
#define LOOM_MAINT_RESP_PI		0x38	/* RO: responses written, free-running */
#define LOOM_MAINT_RESP_BASE		0x40	/* RO: ring of LOOM_MAINT_RESP_SLOTS */
#define LOOM_MAINT_RESP_SIZE		0x10
#define LOOM_MAINT_RESP_SLOTS		16
#define LOOM_MAINT_SIZE			(LOOM_MAINT_RESP_BASE + \
					 LOOM_MAINT_RESP_SLOTS * LOOM_MAINT_RESP_SIZE)
/* response entry */
#define LOOM_MAINTR_SEQ			0x00	/* REQ_SEQ of the request */
#define LOOM_MAINTR_STATUS		0x04	/* LOOM_MAINT_ST_* */
#define LOOM_MAINTR_VALUE		0x08	/* READ: value; WRITE: value written */
#define LOOM_MAINTR_NODE		0x0c	/* target's physical node id */

#define LOOM_MAINT_OP_READ		1
#define LOOM_MAINT_OP_WRITE		2
#define LOOM_MAINT_MAX_HOPS		16

#define LOOM_MAINT_ST_OK		0
#define LOOM_MAINT_ST_BAD_ADDR		1	/* outside the space or unaligned */
#define LOOM_MAINT_ST_READ_ONLY		2	/* not writable by maintenance */
#define LOOM_MAINT_ST_BAD_OP		3

/* ---- BSU block: barrier/eureka synchronisation units (T3E) ------------- */
/*
 * LOOM_BSU_COUNT units per card.  Each has a tree register record in this
 * block (the router's view: which ports and whether the local host are its
 * children, which port leads to its parent) and one user page, page
 * aligned at PAGE_AREA + bsu * PAGE_STRIDE, that the driver maps into the
 * one process it granted the unit to.  Documented in
 * Documentation/hw/registers.rst (BSU) and Documentation/hw/packets.rst.
 */
#define LOOM_BSU_VERSION		LOOM_BLK_VER(1, 1)	/* 1.1: partitions */
#define LOOM_BSU_COUNT			32	/* units per card */
#define LOOM_BSU_N_UNITS		0x10	/* RO: units on the card (32) */
#define LOOM_BSU_PAGE_AREA		0x14	/* RO: offset of unit 0's user page */
#define LOOM_BSU_PAGE_STRIDE		0x18	/* RO: 4096 */
#define LOOM_BSU_BAD_PKTS		0x1c	/* RO: barrier packets dropped as
						 * malformed or off the tree
						 */
/* 1.1: bit b = unit b belongs to the partition in its KEY word (RW) */
#define LOOM_BSU_OWNED			0x20
#define LOOM_BSU_TREE_BASE		0x40	/* one record per unit */
#define LOOM_BSU_TREE_SIZE		0x10
/* 1.1: one RW word per unit: the partition key of unit b */
#define LOOM_BSU_KEY_BASE		(LOOM_BSU_TREE_BASE + \
					 LOOM_BSU_COUNT * LOOM_BSU_TREE_SIZE)
#define LOOM_BSU_SIZE_V1_0		LOOM_BSU_KEY_BASE
#define LOOM_BSU_SIZE			(LOOM_BSU_KEY_BASE + LOOM_BSU_COUNT * 4)
/* offsets inside a tree record */
#define LOOM_BSUT_CHILDREN		0x00	/* RW: bit n = port n is a child,
						 * LOOM_BSU_CHILD_HOST = local host
						 */
#define LOOM_BSUT_PARENT		0x04	/* RW: parent port, or LOOM_BSU_ROOT */
#define LOOM_BSUT_ARRIVED		0x08	/* RO: children that joined this round */
#define LOOM_BSUT_FLAGS			0x0c	/* RO: LOOM_BSUT_F_* */

#define LOOM_BSU_CHILD_HOST		(1u << 8)
#define LOOM_BSU_CHILDREN_MASK		0x000001ffu	/* ports 0..7 + host */
#define LOOM_BSU_ROOT			0xf		/* PARENT: no parent */
#define LOOM_BSUT_F_EUREKA		(1u << 0)	/* a eureka passed this round */

/* offsets inside a unit's user page */
#define LOOM_BSUP_STATE			0x00	/* RO: LOOM_BSU_S_* */
#define LOOM_BSUP_OP			0x04	/* RW: software writes LOOM_BSU_OP_*
						 * (when it reads 0), then kicks
						 * LOOM_KICK_BSU in the lab; the
						 * card consumes it and writes 0
						 */
#define LOOM_BSUP_COMPLETIONS		0x08	/* RO: +1 on every barrier completion */
#define LOOM_BSUP_EUREKAS		0x0c	/* RO: +1 on every eureka delivered */
#define LOOM_BSUP_ILLEGAL		0x10	/* RO: ops ignored as illegal */
#define LOOM_BSUP_REFUSED		0x14	/* RO: +1 on every round of the unit
						 * that a card holding the unit in
						 * another partition refused
						 */
#define LOOM_BSU_PAGE_SIZE		4096

#define LOOM_BSU_S_BAR			1	/* ready (reset state) */
#define LOOM_BSU_S_ARM			2	/* joined, waiting for completion */
#define LOOM_BSU_S_EUR			3	/* a eureka happened */

#define LOOM_BSU_OP_BAR			1	/* join the barrier */
#define LOOM_BSU_OP_EUR			2	/* signal eureka */
#define LOOM_BSU_OP_EUR_B		3	/* signal eureka and join the barrier */

/* Barrier-class packets (LOOM_PKT_BARRIER, aux = bsu | op << 8), sent hop
 * by hop to the neighbour on a tree port, never table routed.
 */
#define LOOM_BSU_WIRE_BAR_UP		1	/* child -> parent: subtree joined */
#define LOOM_BSU_WIRE_EUR_UP		2	/* child -> parent: eureka */
#define LOOM_BSU_WIRE_BAR_DOWN		3	/* parent -> child: barrier complete */
#define LOOM_BSU_WIRE_EUR_DOWN		4	/* parent -> child: eureka happened */
/* back to the sender of a packet that a card holding the unit in another
 * partition refused; aux bits 23:16 = the refused op, key = its key
 */
#define LOOM_BSU_WIRE_REFUSED		5

/* ---- memory-region (MR) table block ------------------------------------ */
/*
 * Registered user memory: one 32-byte record per region.  The driver
 * fills a record while the region is disabled, then issues
 * LOOM_ADMIN_CMD_MR_ENABLE; the card latches it (later writes to the
 * record change nothing until the next enable).  LOOM_ADMIN_CMD_MR_DISABLE
 * drops it; a region is also dropped when its owning context stops (CTX_
 * DISABLE, a fault, RESET).  Requests name a region by its 32-bit key:
 * bits [LOOM_MR_KEY_INDEX_BITS-1:0] are the index, the rest a generation
 * the driver chooses, so a stale or guessed key does not match.
 *
 * Pages: the region's bytes start at byte FIRST_OFF of its first 4 KiB
 * page.  PGL is the bus address of a page directory (one 4 KiB page of
 * LOOM_MR_PGL_ENTRIES little-endian u64 bus addresses of page-list pages),
 * each page-list page holding LOOM_MR_PGL_ENTRIES bus addresses of the
 * region's 4 KiB pages in order.  The card reads both with the checks of
 * every DMA read of host memory.  Documented in Documentation/hw/mr.rst.
 */
#define LOOM_MR_VERSION			LOOM_BLK_VER(1, 0)
#define LOOM_MR_COUNT			0x10	/* RO: records (regions) */
#define LOOM_MR_STRIDE			0x14	/* RO: bytes between records */
#define LOOM_MR_PROT_ERRORS		0x18	/* RO: requests refused by a region
						 * check (key, partition, right,
						 * bounds), wraps at 2^32
						 */
#define LOOM_MR_BASE			0x40
#define LOOM_MR_REC_SIZE		0x20
/* offsets inside a record: all RW */
#define LOOM_MRR_KEY			0x00	/* the region's key */
#define LOOM_MRR_ACCESS			0x04	/* LOOM_MR_ACC_* [7:0],
						 * FIRST_OFF [27:16]
						 */
#define LOOM_MRR_CTX			0x08	/* owning context index */
#define LOOM_MRR_PKEY			0x0c	/* partition key of the region */
#define LOOM_MRR_LEN_LO			0x10	/* bytes, 1..LOOM_MR_MAX_LEN */
#define LOOM_MRR_LEN_HI			0x14
#define LOOM_MRR_PGL_LO			0x18	/* page directory, 4 KiB aligned */
#define LOOM_MRR_PGL_HI			0x1c

#define LOOM_MR_ACC_LOCAL_WRITE		(1u << 0)	/* GETs of the owner land here */
#define LOOM_MR_ACC_REMOTE_READ		(1u << 1)	/* remote GETs */
#define LOOM_MR_ACC_REMOTE_WRITE	(1u << 2)	/* remote PUTs, counted PUTs */
#define LOOM_MR_ACC_REMOTE_ATOMIC	(1u << 3)	/* remote atomics */
#define LOOM_MR_ACC_MASK		0x0000000fu
#define LOOM_MR_FIRST_OFF_SHIFT		16
#define LOOM_MR_FIRST_OFF_MASK		0x0fff0000u

#define LOOM_MR_KEY_INDEX_BITS		10
#define LOOM_MR_KEY_INDEX_MASK		((1u << LOOM_MR_KEY_INDEX_BITS) - 1)
#define LOOM_MR_MAX_ENTRIES		(1u << LOOM_MR_KEY_INDEX_BITS)
#define LOOM_MR_PAGE_SIZE		4096
#define LOOM_MR_PGL_ENTRIES		512	/* u64 per directory or list page */
#define LOOM_MR_MAX_PAGES		(LOOM_MR_PGL_ENTRIES * LOOM_MR_PGL_ENTRIES)
#define LOOM_MR_MAX_LEN			((unsigned long long)LOOM_MR_MAX_PAGES * \
					 LOOM_MR_PAGE_SIZE - LOOM_MR_PAGE_SIZE)	/* 1 GiB - 4 KiB */

/* ---- multicast block: the group table ---------------------------------- */
/*
 * Entry g says what this card's router does with a packet of multicast
 * group g (LOOM_PKT_F_MCAST, dst_node = g): send a copy on every network
 * port whose bit is set in PORTS and, with HOST, one to this card's host,
 * delivered into context HOST_CTX.  At the group's root, MEMBERS is the
 * number of member acknowledgements that complete each packet of a
 * multicast put.  A card without the block has no multicast.  Documented
 * in Documentation/hw/registers.rst and Documentation/hw/routing.rst.
 */
#define LOOM_MCAST_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_MCAST_N_GROUPS		0x10	/* RO: entries in the group table */
#define LOOM_MCAST_TABLE		0x40	/* RW: group table, 8 bytes per entry */
#define LOOM_MCAST_ENTRY_SIZE		8
/* word 0 */
#define LOOM_MCAST_W0_VALID		(1u << 31)
#define LOOM_MCAST_W0_HOST		(1u << 30)	/* a copy to this card's host */
#define LOOM_MCAST_W0_PORTS_MASK	0x0000ffffu	/* bit n: a copy on network port n */
/* word 1 */
#define LOOM_MCAST_W1_HOST_CTX_MASK	0x0000ffffu	/* context that receives the host copy */
#define LOOM_MCAST_W1_MEMBERS_SHIFT	16		/* at the root: member count, whose */
#define LOOM_MCAST_W1_MEMBERS_MASK	0xffff0000u	/* acknowledgements complete a put  */
#define LOOM_MCAST_SIZE(groups)		(LOOM_MCAST_TABLE + (groups) * LOOM_MCAST_ENTRY_SIZE)

/* ---- lab layout chosen by the emulator (informative: drivers walk the chain) */
#define LOOM_LAB_SHM_SIZE		(1u << 20)	/* BAR2 size, power of two */

#endif /* LOOM_HW_REGS_H */
