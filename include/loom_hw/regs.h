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
/* reserved for later blocks: 0x0007 VC table, 0x0008 BSU, 0x0009 maintenance,
 * 0x000a counters, 0x000b link layer/lanes, 0x000c partitions (keys)
 */

#define LOOM_BLK_MAX_CHAIN		64	/* loop guard for readers */

/* ---- firmware id block (always at offset 0) ---------------------------- */
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
#define LOOM_ADMIN_CMD			0x10
#define LOOM_ADMIN_ARG0			0x14
#define LOOM_ADMIN_ARG1			0x18
#define LOOM_ADMIN_ARG2			0x1c
#define LOOM_ADMIN_ARG3			0x20
#define LOOM_ADMIN_SEQ			0x24
#define LOOM_ADMIN_ACK			0x28
#define LOOM_ADMIN_RESULT		0x2c	/* 0 or LOOM_ADMIN_E_* */
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

#define LOOM_ADMIN_E_OK			0
#define LOOM_ADMIN_E_UNKNOWN_CMD	1
#define LOOM_ADMIN_E_BAD_CTX		2	/* index out of range */
#define LOOM_ADMIN_E_BAD_RING		3	/* ring size/address invalid */
#define LOOM_ADMIN_E_BAD_SEGMENT	4	/* segment address/size invalid */
#define LOOM_ADMIN_E_BUSY		5	/* context already enabled */

#define LOOM_ADMIN_ST_READY		(1u << 0)

/* MSI-X vectors raised by the card */
#define LOOM_VEC_ADMIN			0	/* admin ack, card events */
#define LOOM_VEC_CQ			1	/* some completion queue advanced */
#define LOOM_NUM_VECTORS		4	/* vectors the card is built with */

/* Lab transport: the emulator is ivshmem peer 0; the driver rings its
 * vectors with the ivshmem Doorbell register (BAR0 + 0x0c) as
 * (peer << 16 | vector).  Vector meanings for guest -> card kicks:
 */
#define LOOM_KICK_ADMIN			0	/* registers changed: rescan */
#define LOOM_KICK_DOORBELL		1	/* a context doorbell moved */

/* ---- router block ------------------------------------------------------ */
#define LOOM_ROUTER_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_ROUTER_NODE_ID		0x10	/* RO: physical who-am-I */
#define LOOM_ROUTER_LOGICAL_ID		0x14	/* RW: logical who-am-I */
#define LOOM_ROUTER_N_PORTS		0x18	/* RO: network ports */
#define LOOM_ROUTER_RT_ENTRIES		0x1c	/* RO: routing table entries */
#define LOOM_ROUTER_RT			0x40	/* routing table, 8 bytes/entry */
#define LOOM_ROUTER_RT_ENTRY_SIZE	8

/*
 * Routing table entry, indexed by logical destination node (T3E style).
 * word 0: valid, adaptive-allowed, initial direction, output port
 * word 1: physical destination node
 * The port LOOM_RT_PORT_HOST delivers to the local host interface.
 */
#define LOOM_RT_W0_PORT_MASK		0x0000000fu
#define LOOM_RT_W0_INIT_DIR_SHIFT	4		/* 0 = none, 1..6 = +X..-Z */
#define LOOM_RT_W0_INIT_DIR_MASK	0x00000070u
#define LOOM_RT_W0_ADAPTIVE		(1u << 8)
#define LOOM_RT_W0_VALID		(1u << 31)
#define LOOM_RT_PORT_HOST		0xf
#define LOOM_MAX_PORTS			8
#define LOOM_MAX_NODES			1024

/* ---- ports block: one 64-byte record per network port ------------------ */
#define LOOM_PORTS_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_PORTS_COUNT		0x10
#define LOOM_PORTS_STRIDE		0x14
#define LOOM_PORTS_BASE			0x40
#define LOOM_PORT_REC_SIZE		0x40
/* offsets inside a port record */
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

#define LOOM_PORT_ST_CABLED		(1u << 0)	/* socket connected */
#define LOOM_PORT_ST_UP			(1u << 1)	/* link trained */

/* ---- context block: one 64-byte record per context --------------------- */
/*
 * The driver fills a record while the context is disabled, then issues
 * LOOM_ADMIN_CMD_CTX_ENABLE.  Addresses are bus addresses of host memory.
 */
#define LOOM_CTX_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_CTX_COUNT			0x10
#define LOOM_CTX_STRIDE			0x14
#define LOOM_CTX_BASE			0x40
#define LOOM_CTX_REC_SIZE		0x40
/* offsets inside a context record */
#define LOOM_CTXR_CMDQ_LO		0x00	/* command ring, 64-byte aligned */
#define LOOM_CTXR_CMDQ_HI		0x04
#define LOOM_CTXR_CQ_LO			0x08	/* completion ring */
#define LOOM_CTXR_CQ_HI			0x0c
#define LOOM_CTXR_SEG_LO		0x10	/* memory segment (contiguous) */
#define LOOM_CTXR_SEG_HI		0x14
#define LOOM_CTXR_SEG_SIZE_LO		0x18
#define LOOM_CTXR_SEG_SIZE_HI		0x1c
#define LOOM_CTXR_RINGS			0x20	/* log2 cmdq entries [7:0],
						 * log2 cq entries [15:8]
						 */
#define LOOM_CTXR_KEY			0x24	/* segment protection key */
#define LOOM_CTXR_VECTOR		0x28	/* MSI-X vector for CQ events */
#define LOOM_CTXR_STATE			0x2c	/* RO: LOOM_CTX_ST_* */
#define LOOM_CTXR_ERROR			0x30	/* RO: last LOOM_CQE_ST_* fault */
#define LOOM_CTXR_CMD_CI		0x34	/* RO: commands consumed */

#define LOOM_CTX_ST_DISABLED		0
#define LOOM_CTX_ST_RUNNING		1
#define LOOM_CTX_ST_FAULTED		2	/* descriptor or DMA fault: stopped */

#define LOOM_RING_LOG2_MIN		4	/* 16 entries */
#define LOOM_RING_LOG2_MAX		15	/* 32768 entries */

/* ---- doorbell block: one page per context ------------------------------ */
#define LOOM_DOORBELL_VERSION		LOOM_BLK_VER(1, 0)
#define LOOM_DOORBELL_AREA		0x10	/* offset of page 0, page aligned */
#define LOOM_DOORBELL_STRIDE		0x14	/* 4096: one page per context */
#define LOOM_DOORBELL_COUNT		0x18
/* offsets inside a context's doorbell page */
#define LOOM_DB_CMD_PI			0x00	/* WO by software: command producer */
#define LOOM_DB_CQ_CI			0x04	/* WO by software: completions consumed */
#define LOOM_DB_PAGE_SIZE		4096

/* ---- lab layout chosen by the emulator (informative: drivers walk the chain) */
#define LOOM_LAB_SHM_SIZE		(1u << 20)	/* BAR2 size, power of two */

#endif /* LOOM_HW_REGS_H */
