/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The card's register blocks as the rest of loom.ko sees them: one file
 * per block (loom_hw_<block>.c, and loom_admin.c for the admin mailbox)
 * reads each value from the card once, checks it against the limit the
 * hardware interface gives it, and hands on only values in range.
 *
 * Geometry (counts, strides, offsets, page areas) is read once at probe
 * and kept in struct loom_geo; a card whose geometry is out of range, or
 * whose areas overlap or leave the register space, is not bound.  Values
 * the card changes at run time (indices, states, result codes, ids) are
 * checked at every read; one out of range marks the card failed
 * (loom_hw_fail()): one log line naming the block, the register, the value
 * and the limit, every later call of its open files answers -EIO, and the
 * driver stops using it.  Configuration registers that software writes
 * (routing and VC tables, BSU trees, port control) are read back only to
 * be reported, masked to their defined fields.
 *
 * Every accessor expects the card alive (the caller checked !ldev->dead
 * under ldev->lock, or runs where the registers are known to be mapped)
 * and its indices below the counts of struct loom_geo.  Those returning
 * int answer 0 or -EIO, the latter once the card has failed.
 * Documented in Documentation/kmod/trust.rst.
 */
#ifndef LOOM_HW_H
#define LOOM_HW_H

#include <linux/compiler.h>
#include <linux/types.h>

#include <loom_hw/regs.h>

struct loom_blk;
struct loom_dev;

/* contexts the driver accepts: a descriptor names one in 16 bits */
#define LOOM_HW_MAX_CTX		65536

/* multicast groups the driver accepts: a packet names one in 16 bits */
#define LOOM_HW_MCAST_MAX_GROUPS	65536

/* ldev->hw_flags */
#define LOOM_HW_F_FAILED	0	/* a value out of range was read */

/**
 * struct loom_geo - the card's geometry beyond the block offsets, as
 *	checked at probe; never read from the card again
 * @node_id: ROUTER NODE_ID, < LOOM_MAX_NODES
 * @rt_entries: ROUTER RT_ENTRIES, 1..LOOM_MAX_NODES, inside the block
 * @port_stride: PORTS STRIDE; the block holds ldev->n_ports records; 0
 *	when the card has no PORTS block
 * @cnt_n_vcs: COUNTERS N_VCS, 1..LOOM_NUM_VCS; 0 when the card has no
 *	COUNTERS block
 * @cnt_stride: COUNTERS STRIDE
 * @n_bsu: BSU units, 1..LOOM_BSU_COUNT; 0 when the card has no BSU block
 * @bsu_area: BSU PAGE_AREA: register-space offset of unit 0's page
 * @n_mr: memory-region records, 1..LOOM_MR_MAX_ENTRIES; 0 when the card
 *	has no MR block
 * @mr_stride: MR STRIDE
 * @perf_n_vcs: PERF N_VCS, 1..LOOM_NUM_VCS; 0 when the card has no PERF
 *	block (its N_PORTS is ldev->n_ports + 1, the host port last)
 * @perf_stride: PERF PORT_STRIDE
 * @n_groups: MCAST N_GROUPS, 1..LOOM_HW_MCAST_MAX_GROUPS, inside the
 *	block; 0 when the card has no MCAST block (no multicast)
 */
struct loom_geo {
	u32 node_id;
	u32 rt_entries;
	u32 port_stride;
	u32 cnt_n_vcs;
	u32 cnt_stride;
	u32 n_bsu;
	u32 bsu_area;
	u32 n_mr;
	u32 mr_stride;
	u32 perf_n_vcs;
	u32 perf_stride;
	u32 n_groups;
};

/**
 * struct loom_hw_mr_rec - what the driver programs into a region's record
 * @key: the region's key (index in its low LOOM_MR_KEY_INDEX_BITS)
 * @access: LOOM_MR_ACC_*
 * @first_off: offset of the region's first byte in its first page
 * @ctx: owning context index
 * @pkey: partition key (the owning context's)
 * @length: bytes
 * @pgl: bus address of the page directory
 */
struct loom_hw_mr_rec {
	u32 key;
	u32 access;
	u32 first_off;
	u32 ctx;
	u32 pkey;
	u64 length;
	u64 pgl;
};

/* ---- loom_hw_mr.c: memory-region table ------------------------------- */
int loom_hw_mr_probe(struct loom_dev *ldev);
void loom_hw_mr_program(struct loom_dev *ldev, u32 index,
			const struct loom_hw_mr_rec *rec);
u32 loom_hw_mr_prot_errors(struct loom_dev *ldev);

/* ---- loom_hw.c: failure ------------------------------------------------ */
void loom_hw_init(struct loom_dev *ldev);
void loom_hw_stop(struct loom_dev *ldev);
bool loom_hw_failed(struct loom_dev *ldev);
__printf(7, 8)
void loom_hw_fail(struct loom_dev *ldev, const char *block, const char *reg,
		  int index, u32 off, u32 value, const char *limit, ...);
__printf(7, 8)
int loom_hw_refuse(struct loom_dev *ldev, const char *block, const char *reg,
		   int index, u32 off, u32 value, const char *limit, ...);
void loom_hw_commit(struct loom_dev *ldev);
int loom_hw_probe_size(struct loom_dev *ldev, const char *block,
		       const struct loom_blk *b, u32 min);
int loom_hw_probe_stride(struct loom_dev *ldev, const char *block,
			 const struct loom_blk *b, u32 reg, u32 base,
			 u32 rec_size, u32 count, u32 *stride);
int loom_hw_probe_pages(struct loom_dev *ldev, const char *block,
			const char *reg, u32 off, u32 pages, u32 *area);

/* ---- loom_hw_fwid.c: firmware identity ------------------------------- */
void loom_hw_fwid_probe(struct loom_dev *ldev);
int loom_hw_fwid_check(struct loom_dev *ldev);
bool loom_hw_fwid_answers(struct loom_dev *ldev);

/* ---- loom_hw_router.c: node ids, ports, routing table ----------------- */
/**
 * struct loom_hw_route - one routing-table entry, fields as defined
 * @valid: LOOM_RT_W0_VALID
 * @adaptive: LOOM_RT_W0_ADAPTIVE
 * @port: output port (or LOOM_RT_PORT_HOST), 0..15
 * @init_dir: initial direction, 0..7
 * @phys: physical destination, 16 bits
 * @adapt_ports: minimal ports of an adaptive entry, bit per port
 */
struct loom_hw_route {
	bool valid;
	bool adaptive;
	u8 port;
	u8 init_dir;
	u16 phys;
	u8 adapt_ports;
};

int loom_hw_router_probe(struct loom_dev *ldev);
int loom_hw_logical_id(struct loom_dev *ldev, u32 *id);
int loom_hw_set_logical_id(struct loom_dev *ldev, u32 id);
int loom_hw_route_get(struct loom_dev *ldev, u32 dest, struct loom_hw_route *r);
int loom_hw_route_set(struct loom_dev *ldev, u32 dest,
		      const struct loom_hw_route *r);
int loom_hw_route_invalidate(struct loom_dev *ldev, u32 dest);

/* ---- loom_hw_ports.c: network ports ----------------------------------- */
/* counters of a port record, in this order (LOOM_PORT_*) */
enum loom_hw_port_counter {
	LOOM_HW_PORT_TX_FRAMES,
	LOOM_HW_PORT_RX_FRAMES,
	LOOM_HW_PORT_TX_BYTES,
	LOOM_HW_PORT_RX_BYTES,
	LOOM_HW_PORT_CRC_ERRORS,
	LOOM_HW_PORT_SEQ_ERRORS,
	LOOM_HW_PORT_DROPS,
	LOOM_HW_PORT_RETRIES,
	LOOM_HW_PORT_NAKS_SENT,
	LOOM_HW_PORT_REPLAYED,
	LOOM_HW_PORT_ACK_TIMEOUTS,
	LOOM_HW_PORT_N_COUNTERS
};

/**
 * struct loom_hw_port - what a port record says
 * @status: STATUS (LOOM_PORT_ST_*)
 * @peer_node: node at the other end, < LOOM_MAX_NODES
 * @peer_port: its port, < LOOM_MAX_PORTS
 * @counters: enum loom_hw_port_counter
 */
struct loom_hw_port {
	u32 status;
	u32 peer_node;
	u32 peer_port;
	u32 counters[LOOM_HW_PORT_N_COUNTERS];
};

int loom_hw_ports_probe(struct loom_dev *ldev);
u32 loom_hw_ports_count(struct loom_dev *ldev);
int loom_hw_port_status(struct loom_dev *ldev, u32 port, u32 *status);
int loom_hw_port_read(struct loom_dev *ldev, u32 port, u32 status,
		      struct loom_hw_port *p);
int loom_hw_port_set_enabled(struct loom_dev *ldev, u32 port, bool enabled);
int loom_hw_fp_timeout(struct loom_dev *ldev, u32 *ms);
int loom_hw_set_fp_timeout(struct loom_dev *ldev, u32 ms);

/* ---- loom_hw_ctx.c: context records and doorbell pages ---------------- */
/**
 * struct loom_hw_ctx_rec - what a context record is programmed with
 * @cmdq: bus address of the command ring
 * @cq: bus address of the completion ring
 * @seg: bus address of the segment
 * @seg_size: bytes of the segment
 * @cmdq_log2: log2 of the command ring's entries
 * @cq_log2: log2 of the completion ring's entries
 * @key: protection key
 * @vector: MSI-X vector of its completions
 * @counters: bus address of the counters page
 */
struct loom_hw_ctx_rec {
	u64 cmdq;
	u64 cq;
	u64 seg;
	u64 seg_size;
	u32 cmdq_log2;
	u32 cq_log2;
	u32 key;
	u32 vector;
	u64 counters;
};

int loom_hw_ctx_probe(struct loom_dev *ldev);
void loom_hw_ctx_program(struct loom_dev *ldev, u32 index,
			 const struct loom_hw_ctx_rec *rec);
int loom_hw_ctx_arm_counter_irq(struct loom_dev *ldev, u32 index,
				u32 cmdq_log2, u32 cq_log2);
int loom_hw_ctx_state(struct loom_dev *ldev, u32 index, u32 *state,
		      u32 *error);
int loom_hw_ctx_cmd_ci(struct loom_dev *ldev, u32 index, u32 *ci);
int loom_hw_db_cq_ci_seen(struct loom_dev *ldev, u32 index, u32 *ci);
void loom_hw_db_set_cmd_pi(struct loom_dev *ldev, u32 index, u32 pi);
u32 loom_hw_db_page(struct loom_dev *ldev, u32 index);

/* ---- loom_hw_vct.c: VC table ------------------------------------------ */
#define LOOM_HW_VCT_WORDS	(LOOM_MAX_NODES / 32)

int loom_hw_vct_probe(struct loom_dev *ldev);
u32 loom_hw_vct_ports(struct loom_dev *ldev);
int loom_hw_vct_port_cfg(struct loom_dev *ldev, u32 port, u32 *cfg);
int loom_hw_vct_set_port_cfg(struct loom_dev *ldev, u32 port, u32 cfg);
int loom_hw_vct_start_vc1(struct loom_dev *ldev, u32 word, u32 *bits);
int loom_hw_vct_set_start_vc1(struct loom_dev *ldev, u32 word, u32 bits);

/* ---- loom_hw_counters.c: per (port, VC) counters ---------------------- */
/* counters of a (port, VC) record, in this order (LOOM_CNTR_*) */
#define LOOM_HW_CNT_REC_WORDS	8
/* card-wide drops by cause, in this order (LOOM_CNT_DROP_* .. DROP_BSU_KEY) */
#define LOOM_HW_CNT_DROPS	8

int loom_hw_counters_probe(struct loom_dev *ldev);
u32 loom_hw_cnt_records(struct loom_dev *ldev, u32 *n_vcs);
int loom_hw_cnt_record(struct loom_dev *ldev, u32 rec,
		       u32 vals[LOOM_HW_CNT_REC_WORDS]);
int loom_hw_cnt_drops(struct loom_dev *ldev, u32 vals[LOOM_HW_CNT_DROPS]);

/* ---- loom_hw_perf.c: performance counters ----------------------------- */
/* how long a snapshot may take the card */
#define LOOM_HW_PERF_SNAP_TIMEOUT_MS	1000

/**
 * struct loom_hw_perf_router - router-wide values of a snapshot
 * @clock_khz: the clock the cycles count
 * @cycles: clock cycles since card reset
 * @va_conflicts: VC requests that lost VC allocation
 * @sa_conflicts: switch arbitrations with more than one requester
 */
struct loom_hw_perf_router {
	u32 clock_khz;
	u64 cycles;
	u64 va_conflicts;
	u64 sa_conflicts;
};

/**
 * struct loom_hw_perf_port - one router port's values of a snapshot
 * @flits_in: flits written into its input buffers
 * @flits_out: flits sent on its output
 * @pkts_in: packets received
 * @pkts_out: packets sent
 */
struct loom_hw_perf_port {
	u64 flits_in;
	u64 flits_out;
	u64 pkts_in;
	u64 pkts_out;
};

/**
 * struct loom_hw_perf_vc - one (port, VC)'s values of a snapshot
 * @occupancy: flits in the input buffer
 * @occupancy_max: most flits the input buffer held
 * @stall_cycles: cycles a ready head or flit of the input VC did not move
 * @credit_starved: cycles a packet waited only for the output VC's credits
 */
struct loom_hw_perf_vc {
	u32 occupancy;
	u32 occupancy_max;
	u64 stall_cycles;
	u64 credit_starved;
};

int loom_hw_perf_probe(struct loom_dev *ldev);
u32 loom_hw_perf_vcs(struct loom_dev *ldev);
int loom_hw_perf_snapshot(struct loom_dev *ldev, unsigned int timeout_ms);
int loom_hw_perf_router(struct loom_dev *ldev, struct loom_hw_perf_router *r);
int loom_hw_perf_port(struct loom_dev *ldev, u32 port,
		      struct loom_hw_perf_port *p);
int loom_hw_perf_vc(struct loom_dev *ldev, u32 port, u32 vc,
		    struct loom_hw_perf_vc *v);

/* ---- loom_hw_link.c: lanes -------------------------------------------- */
int loom_hw_link_probe(struct loom_dev *ldev);
bool loom_hw_link_present(struct loom_dev *ldev);
int loom_hw_lane_threshold(struct loom_dev *ldev, u32 *n);
int loom_hw_set_lane_threshold(struct loom_dev *ldev, u32 n);

/* ---- loom_hw_bsu.c: barrier/eureka units ------------------------------ */
/**
 * struct loom_hw_bsu_tree - a unit's tree record, fields as defined
 * @children: LOOM_BSU_CHILDREN_MASK bits
 * @parent: parent port or LOOM_BSU_ROOT, 0..15
 * @arrived: LOOM_BSU_CHILDREN_MASK bits
 * @eureka: LOOM_BSUT_F_EUREKA
 */
struct loom_hw_bsu_tree {
	u32 children;
	u32 parent;
	u32 arrived;
	bool eureka;
};

/**
 * struct loom_hw_bsu_page - a unit's user page
 * @state: LOOM_BSU_S_BAR..LOOM_BSU_S_EUR
 * @completions: barrier completions
 * @eurekas: eurekas delivered
 * @illegal: ops ignored as illegal
 */
struct loom_hw_bsu_page {
	u32 state;
	u32 completions;
	u32 eurekas;
	u32 illegal;
};

int loom_hw_bsu_probe(struct loom_dev *ldev);
u32 loom_hw_bsu_count(struct loom_dev *ldev);
u32 loom_hw_bsu_page_off(struct loom_dev *ldev, u32 unit);
int loom_hw_bsu_tree(struct loom_dev *ldev, u32 unit,
		     struct loom_hw_bsu_tree *t);
int loom_hw_bsu_set_partition(struct loom_dev *ldev, u32 unit, u32 key);
int loom_hw_bsu_set_owned(struct loom_dev *ldev, u32 units);
int loom_hw_bsu_set_tree(struct loom_dev *ldev, u32 unit, u32 children,
			 u32 parent);
int loom_hw_bsu_page_read(struct loom_dev *ldev, u32 unit,
			  struct loom_hw_bsu_page *p);
int loom_hw_bsu_page_field(struct loom_dev *ldev, u32 unit, u32 field,
			   u32 *value);

/* ---- loom_hw_mcast.c: multicast group table --------------------------- */
/**
 * struct loom_hw_mcast - one group-table entry, fields as defined
 * @valid: LOOM_MCAST_W0_VALID
 * @host: LOOM_MCAST_W0_HOST: a copy to this card's host
 * @ports: network ports a copy leaves by, bit per port, 16 bits
 * @host_ctx: context receiving the host copy, 16 bits
 * @members: at the root: acknowledgements that complete a put, 16 bits
 */
struct loom_hw_mcast {
	bool valid;
	bool host;
	u16 ports;
	u16 host_ctx;
	u16 members;
};

int loom_hw_mcast_probe(struct loom_dev *ldev);
u32 loom_hw_mcast_groups(struct loom_dev *ldev);
int loom_hw_mcast_get(struct loom_dev *ldev, u32 group,
		      struct loom_hw_mcast *e);
int loom_hw_mcast_set(struct loom_dev *ldev, u32 group,
		      const struct loom_hw_mcast *e);

#endif /* LOOM_HW_H */
