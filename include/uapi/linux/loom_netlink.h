/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * loom generic netlink family: configuration and management of loom cards
 * (kernel ABI, contract 2 of 3).  Documented in
 * Documentation/abi/netlink.rst.  Never renumber a command or an attribute:
 * retire it and add a new one at the end.
 *
 * Attribute tree (every integer is host-endian, as netlink integers are):
 *
 *   LOOM_ATTR_DEV_INDEX         u32     N of /dev/loomN
 *   LOOM_ATTR_DEV_PCI_NAME      string  PCI address, e.g. "0000:00:03.0"
 *   LOOM_ATTR_DEV_NODE_ID       u32     physical node id (router block)
 *   LOOM_ATTR_DEV_LOGICAL_ID    u32     logical node id (router block)
 *   LOOM_ATTR_DEV_N_PORTS       u32     network ports of the router
 *   LOOM_ATTR_DEV_N_CONTEXTS    u32     contexts usable through /dev/loomN
 *   LOOM_ATTR_DEV_RT_ENTRIES    u32     routing-table entries
 *   LOOM_ATTR_DEV_FW_VERSION    u32     design version: major << 16 |
 *                                       minor << 8 | patch
 *   LOOM_ATTR_DEV_FW_BUILD_ID   u32     32 bits of the design's git hash
 *   LOOM_ATTR_DEV_FW_BUILD_TIME u64     seconds since the epoch
 *   LOOM_ATTR_DEV_FW_DESC       string  firmware description
 *   LOOM_ATTR_DEV_EMULATED      flag    the card is the lab's card emulator
 *   LOOM_ATTR_ROUTE             nest    one routing-table entry:
 *     LOOM_ATTR_ROUTE_DEST        u32     logical destination (table index)
 *     LOOM_ATTR_ROUTE_PORT        u32     output port 0..n_ports-1, or
 *                                         LOOM_ROUTE_PORT_HOST (15)
 *     LOOM_ATTR_ROUTE_PHYS_DEST   u32     physical destination node
 *     LOOM_ATTR_ROUTE_ADAPTIVE    flag    adaptive routing allowed
 *     LOOM_ATTR_ROUTE_VALID       flag    the entry is valid
 *   LOOM_ATTR_PORT              nest    one network port:
 *     LOOM_ATTR_PORT_INDEX        u32     port number
 *     LOOM_ATTR_PORT_CABLED       flag    a cable is connected
 *     LOOM_ATTR_PORT_UP           flag    the link is trained
 *     LOOM_ATTR_PORT_PEER_NODE    u32     peer's node (learnt at training)
 *     LOOM_ATTR_PORT_PEER_PORT    u32     peer's port
 *     LOOM_ATTR_PORT_TX_FRAMES    u64     counters (the card's 32-bit
 *     LOOM_ATTR_PORT_RX_FRAMES    u64     registers wrap at 2^32)
 *     LOOM_ATTR_PORT_TX_BYTES     u64
 *     LOOM_ATTR_PORT_RX_BYTES     u64
 *     LOOM_ATTR_PORT_CRC_ERRORS   u64
 *     LOOM_ATTR_PORT_SEQ_ERRORS   u64
 *     LOOM_ATTR_PORT_DROPS        u64
 *     LOOM_ATTR_PORT_PAD          (alignment padding of the u64s)
 *     LOOM_ATTR_PORT_ENABLED      u8      PORT_SET: 1 enable, 0 disable (fault
 *                                         mask: traffic discarded and counted)
 *     LOOM_ATTR_PORT_DEAD         flag    declared dead by the forward-progress
 *                                         timer
 *     LOOM_ATTR_PORT_DISABLED     flag    disabled by the fault mask
 *     LOOM_ATTR_PORT_LANES        u32     lanes in use (4, 2, 1; 0 when down)
 *     LOOM_ATTR_PORT_RETRIES      u64     go-back-N replays
 *     LOOM_ATTR_PORT_NAKS_SENT    u64
 *     LOOM_ATTR_PORT_REPLAYED     u64     DATA frames retransmitted
 *     LOOM_ATTR_PORT_ACK_TIMEOUTS u64
 *   LOOM_ATTR_DEV_FP_TIMEOUT_MS u32     forward-progress timer (0 = off)
 *   LOOM_ATTR_DEV_LANE_THRESHOLD u32    lane errors per window that drop a lane
 *   LOOM_ATTR_ROUTE_TABLE       nest    ROUTE_LOAD: LOOM_ATTR_ROUTE nests
 *   LOOM_ATTR_VCT_PORT          nest    VC table, one port (repeated):
 *     LOOM_ATTR_VCT_PORT_INDEX    u32
 *     LOOM_ATTR_VCT_PORT_DIM      u32     dimension, LOOM_VCT_DIM_NONE (15)
 *     LOOM_ATTR_VCT_PORT_DATELINE u8      1: packets leaving here move to VC1
 *   LOOM_ATTR_VCT_START_VC1     binary  VC table start bitmap, LOOM_MAX_NODES
 *                                       bits, bit d = start on VC1 toward d
 *   LOOM_ATTR_VCT_DEST          u32     VC_SET of one destination's start VC:
 *   LOOM_ATTR_VCT_VC            u32       with VCT_VC 0 or 1
 *   LOOM_ATTR_STATS             nest    counters of one (port, VC):
 *     LOOM_ATTR_STATS_PORT        u32     network port, or the host port
 *                                         (DEV_N_PORTS, with STATS_HOST)
 *     LOOM_ATTR_STATS_VC          u32     LOOM_VC_* of <loom_hw/packet.h>
 *     LOOM_ATTR_STATS_TX_PKTS     u64     ... one u64 per LOOM_CNTR_* register
 *     LOOM_ATTR_STATS_TX_BYTES, _RX_PKTS, _CREDIT_STALLS, _ADAPTIVE,
 *     _DETERMINISTIC, _DROPS_DISABLED, _DROPS_DEAD  (network ports only)
 *     LOOM_ATTR_STATS_HOST        flag    the record is the host port's (it
 *                                         has only the PERF values below)
 *     the PERF block's (port, VC) record, when the card has one and the VC
 *     is one of its N_VCS (LOOM_BLK_PERF, one snapshot per dump):
 *     LOOM_ATTR_STATS_OCCUPANCY   u32     flits in the input buffer
 *     LOOM_ATTR_STATS_OCCUPANCY_MAX u32   most flits it held at once
 *     LOOM_ATTR_STATS_STALL_CYCLES u64    cycles a ready head or flit of the
 *                                         input VC could not move
 *     LOOM_ATTR_STATS_CREDIT_STARVED u64  cycles a packet waited only for the
 *                                         credits of the output VC
 *   LOOM_ATTR_PERF_PORT         nest    PERF block: one router port:
 *     LOOM_ATTR_PERF_PORT_INDEX   u32     network port, or the host port
 *                                         (DEV_N_PORTS, with PERF_PORT_HOST)
 *     LOOM_ATTR_PERF_PORT_HOST    flag
 *     LOOM_ATTR_PERF_PORT_FLITS_IN, _FLITS_OUT, _PKTS_IN, _PKTS_OUT  u64
 *   LOOM_ATTR_PERF              nest    PERF block: the router:
 *     LOOM_ATTR_PERF_CYCLES       u64     clock cycles since card reset
 *     LOOM_ATTR_PERF_CLOCK_KHZ    u32     the clock they count
 *     LOOM_ATTR_PERF_VA_CONFLICTS u64     VC requests that lost VC allocation
 *     LOOM_ATTR_PERF_SA_CONFLICTS u64     switch arbitrations with more than
 *                                         one requester
 *   LOOM_ATTR_DROPS             nest    card-wide drops by cause (u64 each):
 *     LOOM_ATTR_DROPS_KEY, _BOUNDS, _NO_CTX, _NO_ROUTE, _HOP_LIMIT,
 *     _MALFORMED, _MAINT_LOST, _BSU_KEY
 *   LOOM_ATTR_MAINT             nest    one maintenance access:
 *     LOOM_ATTR_MAINT_OP          u8      LOOM_MAINT_OP_READ (1) / _WRITE (2)
 *     LOOM_ATTR_MAINT_ROUTE       binary  output port per hop, 0..16 bytes
 *     LOOM_ATTR_MAINT_ADDR        u32     register offset at the target
 *     LOOM_ATTR_MAINT_VALUE       u32     WRITE: value; reply: value read
 *     LOOM_ATTR_MAINT_TIMEOUT_MS  u32     per attempt (default 100)
 *     LOOM_ATTR_MAINT_RETRIES     u32     extra attempts (default 3)
 *     LOOM_ATTR_MAINT_STATUS      u32     reply: LOOM_MAINT_ST_*
 *     LOOM_ATTR_MAINT_SEQ         u32     reply: sequence id that answered
 *     LOOM_ATTR_MAINT_NODE        u32     reply: target's physical node id
 *     LOOM_ATTR_MAINT_ATTEMPTS    u32     reply: attempts made
 *   LOOM_ATTR_KEY               nest    one partition grant:
 *     LOOM_ATTR_KEY_VALUE         u32     network key
 *     LOOM_ATTR_KEY_UID           u32     granted to this user, or
 *     LOOM_ATTR_KEY_GID           u32     to this group
 *   LOOM_ATTR_BSU               nest    one barrier/eureka unit and its
 *                                       tree register (Documentation/hw/bsu.rst):
 *     LOOM_ATTR_BSU_INDEX         u32     unit, 0..31
 *     LOOM_ATTR_BSU_PARENT        u32     port toward the parent, or
 *                                         LOOM_BSU_PARENT_ROOT (15): root
 *     LOOM_ATTR_BSU_CHILDREN      u32     children: bit n = port n,
 *                                         LOOM_BSU_CHILDREN_HOST (bit 8) =
 *                                         this card's own unit takes part
 *     LOOM_ATTR_BSU_ARRIVED       u32     reply: children that joined the
 *                                         current barrier
 *     LOOM_ATTR_BSU_EUREKA        flag    reply: a eureka passed this round
 *     LOOM_ATTR_BSU_STATE         u32     reply: LOOM_BSU_S_BAR/_ARM/_EUR
 *     LOOM_ATTR_BSU_COMPLETIONS   u32     reply: barrier completions (wraps)
 *     LOOM_ATTR_BSU_EUREKAS       u32     reply: eurekas delivered (wraps)
 *     LOOM_ATTR_BSU_ILLEGAL       u32     reply: ops ignored as illegal
 *     LOOM_ATTR_BSU_GRANTED       flag    reply: granted to a context
 *     LOOM_ATTR_BSU_CTX           u32     reply: that context's index
 *   LOOM_ATTR_MCAST             nest    one entry of the multicast group table
 *                                       (Documentation/abi/netlink.rst):
 *     LOOM_ATTR_MCAST_GROUP       u32     group id, below the card's N_GROUPS
 *     LOOM_ATTR_MCAST_PORTS       u32     network ports a copy leaves by:
 *                                         bit n = port n (below DEV_N_PORTS)
 *     LOOM_ATTR_MCAST_HOST_CTX    u32     present: this card's host gets a
 *                                         copy, into this context (below
 *                                         DEV_N_CONTEXTS)
 *     LOOM_ATTR_MCAST_MEMBERS     u32     at the group's root: members whose
 *                                         acknowledgements complete a put
 *                                         (16 bits); 0 elsewhere
 *     LOOM_ATTR_MCAST_VALID       flag    reply: the entry is valid
 *
 * Commands:
 *   LOOM_CMD_DEV_GET     doit: DEV_INDEX -> one device;  dump: all devices
 *   LOOM_CMD_ROUTE_GET   doit: DEV_INDEX, ROUTE{DEST} -> DEV_INDEX, ROUTE{...}
 *                        dump: DEV_INDEX -> every valid entry, one per message
 *   LOOM_CMD_ROUTE_SET   DEV_INDEX, ROUTE{DEST, PORT, [ADAPTIVE], [PHYS_DEST]}
 *                        (PHYS_DEST defaults to DEST); needs CAP_NET_ADMIN
 *   LOOM_CMD_ROUTE_DEL   DEV_INDEX, ROUTE{DEST}: clears VALID; CAP_NET_ADMIN
 *   LOOM_CMD_PORT_GET    doit: DEV_INDEX, PORT{INDEX};  dump: DEV_INDEX
 *
 *   LOOM_CMD_DEV_SET     DEV_INDEX, [DEV_LOGICAL_ID], [DEV_FP_TIMEOUT_MS],
 *                        [DEV_LANE_THRESHOLD]; CAP_NET_ADMIN
 *   LOOM_CMD_ROUTE_LOAD  DEV_INDEX, ROUTE_TABLE{ROUTE...}: replaces the whole
 *                        table at once (entries not listed become invalid);
 *                        CAP_NET_ADMIN
 *   LOOM_CMD_PORT_SET    DEV_INDEX, PORT{INDEX, ENABLED}; CAP_NET_ADMIN
 *   LOOM_CMD_VC_GET      DEV_INDEX -> VCT_PORT... , VCT_START_VC1
 *   LOOM_CMD_VC_SET      DEV_INDEX, [VCT_PORT...], [VCT_START_VC1 |
 *                        VCT_DEST + VCT_VC]; CAP_NET_ADMIN
 *   LOOM_CMD_STATS_GET   dump: DEV_INDEX -> one STATS per (port, VC), then one
 *                        DROPS; with a PERF block: first a counter snapshot
 *                        (-ETIMEDOUT when the card takes none within 1 s),
 *                        STATS of the host port's VCs after the network
 *                        ports', then one PERF_PORT per router port and one
 *                        PERF before DROPS
 *   LOOM_CMD_MAINT       DEV_INDEX, MAINT{OP, ROUTE, ADDR, [VALUE],
 *                        [TIMEOUT_MS], [RETRIES]} -> DEV_INDEX, MAINT{...};
 *                        retries with a new sequence id after each timeout,
 *                        -ETIMEDOUT when every attempt timed out,
 *                        -ECANCELED when a fatal signal ended the wait
 *                        (the extack says whether a request went out);
 *                        CAP_NET_ADMIN (reads included: privileged)
 *   LOOM_CMD_KEY_GRANT   DEV_INDEX, KEY{VALUE, UID | GID}; CAP_NET_ADMIN
 *   LOOM_CMD_KEY_REVOKE  DEV_INDEX, KEY{VALUE, UID | GID}; CAP_NET_ADMIN
 *   LOOM_CMD_KEY_GET     dump: DEV_INDEX -> one KEY per grant; CAP_NET_ADMIN
 *   LOOM_CMD_BSU_GET     doit: DEV_INDEX, BSU{INDEX}; dump: DEV_INDEX
 *   LOOM_CMD_BSU_SET     DEV_INDEX, BSU{INDEX, [PARENT], [CHILDREN]}: writes
 *                        the tree register (a port the card lacks, or the
 *                        parent among the children: -ERANGE / -EINVAL);
 *                        CAP_NET_ADMIN
 *   LOOM_CMD_MCAST_SET   DEV_INDEX, MCAST{GROUP, [PORTS], [HOST_CTX],
 *                        [MEMBERS]}: writes the group's entry, valid (an
 *                        entry that sends no copy, a port or context the card
 *                        lacks, a group beyond its table: -EINVAL / -ERANGE);
 *                        -EOPNOTSUPP without a multicast block; CAP_NET_ADMIN
 *   LOOM_CMD_MCAST_DEL   DEV_INDEX, MCAST{GROUP}: clears the entry;
 *                        CAP_NET_ADMIN
 *   LOOM_CMD_MCAST_GET   doit: DEV_INDEX, MCAST{GROUP} -> DEV_INDEX, MCAST{...}
 *                        (valid or not); dump: DEV_INDEX -> every valid entry,
 *                        one per message
 *
 * Multicast group LOOM_GENL_MCGRP_EVENTS carries
 *   LOOM_EVENT_ROUTE_CHANGED  DEV_INDEX, ROUTE{...} as it now is, after each
 *                             ROUTE_SET/ROUTE_DEL (one DEV_INDEX only message
 *                             after ROUTE_LOAD)
 *   LOOM_EVENT_PORT_CHANGED   DEV_INDEX, PORT{...} when a port's state changes:
 *                             link up/down, lane dropped, declared dead,
 *                             enabled/disabled
 *
 * Multicast group LOOM_GENL_MCGRP_MAINT (joining it needs CAP_NET_ADMIN:
 * what maintenance reads return is privileged) carries
 *   LOOM_EVENT_MAINT_RESP     DEV_INDEX, MAINT{...} for every maintenance
 *                             response the card delivers
 */
#ifndef _UAPI_LINUX_LOOM_NETLINK_H
#define _UAPI_LINUX_LOOM_NETLINK_H

#define LOOM_GENL_NAME		"loom"
#define LOOM_GENL_VERSION	1
#define LOOM_GENL_MCGRP_EVENTS	"events"
#define LOOM_GENL_MCGRP_MAINT	"maint"

#define LOOM_ROUTE_PORT_HOST	15	/* deliver to the local host */
#define LOOM_BSU_PARENT_ROOT	15	/* BSU_PARENT: no parent */
#define LOOM_BSU_CHILDREN_HOST	(1u << 8)	/* BSU_CHILDREN: the local unit */

enum loom_nl_cmd {
	LOOM_CMD_UNSPEC,
	LOOM_CMD_DEV_GET,
	LOOM_CMD_ROUTE_GET,
	LOOM_CMD_ROUTE_SET,
	LOOM_CMD_ROUTE_DEL,
	LOOM_CMD_PORT_GET,
	LOOM_EVENT_ROUTE_CHANGED,	/* multicast only */
	LOOM_CMD_DEV_SET,
	LOOM_CMD_ROUTE_LOAD,
	LOOM_CMD_PORT_SET,
	LOOM_CMD_VC_GET,
	LOOM_CMD_VC_SET,
	LOOM_CMD_STATS_GET,
	LOOM_CMD_MAINT,
	LOOM_CMD_KEY_GRANT,
	LOOM_CMD_KEY_REVOKE,
	LOOM_CMD_KEY_GET,
	LOOM_CMD_BSU_GET,
	LOOM_CMD_BSU_SET,
	LOOM_EVENT_PORT_CHANGED,	/* multicast only */
	LOOM_EVENT_MAINT_RESP,		/* multicast only */
	LOOM_CMD_MCAST_SET,
	LOOM_CMD_MCAST_DEL,
	LOOM_CMD_MCAST_GET,

	__LOOM_CMD_MAX,
	LOOM_CMD_MAX = __LOOM_CMD_MAX - 1
};

enum loom_nl_attr {
	LOOM_ATTR_UNSPEC,
	LOOM_ATTR_PAD,
	LOOM_ATTR_DEV_INDEX,
	LOOM_ATTR_DEV_PCI_NAME,
	LOOM_ATTR_DEV_NODE_ID,
	LOOM_ATTR_DEV_LOGICAL_ID,
	LOOM_ATTR_DEV_N_PORTS,
	LOOM_ATTR_DEV_N_CONTEXTS,
	LOOM_ATTR_DEV_RT_ENTRIES,
	LOOM_ATTR_DEV_FW_VERSION,
	LOOM_ATTR_DEV_FW_BUILD_ID,
	LOOM_ATTR_DEV_FW_BUILD_TIME,
	LOOM_ATTR_DEV_FW_DESC,
	LOOM_ATTR_DEV_EMULATED,
	LOOM_ATTR_ROUTE,
	LOOM_ATTR_PORT,
	LOOM_ATTR_DEV_FP_TIMEOUT_MS,
	LOOM_ATTR_DEV_LANE_THRESHOLD,
	LOOM_ATTR_ROUTE_TABLE,
	LOOM_ATTR_VCT_PORT,
	LOOM_ATTR_VCT_START_VC1,
	LOOM_ATTR_VCT_DEST,
	LOOM_ATTR_VCT_VC,
	LOOM_ATTR_STATS,
	LOOM_ATTR_DROPS,
	LOOM_ATTR_MAINT,
	LOOM_ATTR_KEY,
	LOOM_ATTR_BSU,
	LOOM_ATTR_PERF_PORT,
	LOOM_ATTR_PERF,
	LOOM_ATTR_MCAST,

	__LOOM_ATTR_MAX,
	LOOM_ATTR_MAX = __LOOM_ATTR_MAX - 1
};

enum loom_nl_route_attr {
	LOOM_ATTR_ROUTE_UNSPEC,
	LOOM_ATTR_ROUTE_DEST,
	LOOM_ATTR_ROUTE_PORT,
	LOOM_ATTR_ROUTE_PHYS_DEST,
	LOOM_ATTR_ROUTE_ADAPTIVE,
	LOOM_ATTR_ROUTE_VALID,

	__LOOM_ATTR_ROUTE_MAX,
	LOOM_ATTR_ROUTE_MAX = __LOOM_ATTR_ROUTE_MAX - 1
};

enum loom_nl_port_attr {
	LOOM_ATTR_PORT_UNSPEC,
	LOOM_ATTR_PORT_PAD,
	LOOM_ATTR_PORT_INDEX,
	LOOM_ATTR_PORT_CABLED,
	LOOM_ATTR_PORT_UP,
	LOOM_ATTR_PORT_PEER_NODE,
	LOOM_ATTR_PORT_PEER_PORT,
	LOOM_ATTR_PORT_TX_FRAMES,
	LOOM_ATTR_PORT_RX_FRAMES,
	LOOM_ATTR_PORT_TX_BYTES,
	LOOM_ATTR_PORT_RX_BYTES,
	LOOM_ATTR_PORT_CRC_ERRORS,
	LOOM_ATTR_PORT_SEQ_ERRORS,
	LOOM_ATTR_PORT_DROPS,
	LOOM_ATTR_PORT_ENABLED,
	LOOM_ATTR_PORT_DEAD,
	LOOM_ATTR_PORT_DISABLED,
	LOOM_ATTR_PORT_LANES,
	LOOM_ATTR_PORT_RETRIES,
	LOOM_ATTR_PORT_NAKS_SENT,
	LOOM_ATTR_PORT_REPLAYED,
	LOOM_ATTR_PORT_ACK_TIMEOUTS,

	__LOOM_ATTR_PORT_MAX,
	LOOM_ATTR_PORT_MAX = __LOOM_ATTR_PORT_MAX - 1
};

#define LOOM_VCT_DIM_NONE	15

enum loom_nl_vct_attr {
	LOOM_ATTR_VCT_UNSPEC,
	LOOM_ATTR_VCT_PORT_INDEX,
	LOOM_ATTR_VCT_PORT_DIM,
	LOOM_ATTR_VCT_PORT_DATELINE,

	__LOOM_ATTR_VCT_MAX,
	LOOM_ATTR_VCT_MAX = __LOOM_ATTR_VCT_MAX - 1
};

enum loom_nl_stats_attr {
	LOOM_ATTR_STATS_UNSPEC,
	LOOM_ATTR_STATS_PAD,
	LOOM_ATTR_STATS_PORT,
	LOOM_ATTR_STATS_VC,
	LOOM_ATTR_STATS_TX_PKTS,
	LOOM_ATTR_STATS_TX_BYTES,
	LOOM_ATTR_STATS_RX_PKTS,
	LOOM_ATTR_STATS_CREDIT_STALLS,
	LOOM_ATTR_STATS_ADAPTIVE,
	LOOM_ATTR_STATS_DETERMINISTIC,
	LOOM_ATTR_STATS_DROPS_DISABLED,
	LOOM_ATTR_STATS_DROPS_DEAD,
	LOOM_ATTR_STATS_HOST,
	LOOM_ATTR_STATS_OCCUPANCY,
	LOOM_ATTR_STATS_OCCUPANCY_MAX,
	LOOM_ATTR_STATS_STALL_CYCLES,
	LOOM_ATTR_STATS_CREDIT_STARVED,

	__LOOM_ATTR_STATS_MAX,
	LOOM_ATTR_STATS_MAX = __LOOM_ATTR_STATS_MAX - 1
};

enum loom_nl_perf_port_attr {
	LOOM_ATTR_PERF_PORT_UNSPEC,
	LOOM_ATTR_PERF_PORT_PAD,
	LOOM_ATTR_PERF_PORT_INDEX,
	LOOM_ATTR_PERF_PORT_HOST,
	LOOM_ATTR_PERF_PORT_FLITS_IN,
	LOOM_ATTR_PERF_PORT_FLITS_OUT,
	LOOM_ATTR_PERF_PORT_PKTS_IN,
	LOOM_ATTR_PERF_PORT_PKTS_OUT,

	__LOOM_ATTR_PERF_PORT_MAX,
	LOOM_ATTR_PERF_PORT_MAX = __LOOM_ATTR_PERF_PORT_MAX - 1
};

enum loom_nl_perf_attr {
	LOOM_ATTR_PERF_UNSPEC,
	LOOM_ATTR_PERF_PAD,
	LOOM_ATTR_PERF_CYCLES,
	LOOM_ATTR_PERF_CLOCK_KHZ,
	LOOM_ATTR_PERF_VA_CONFLICTS,
	LOOM_ATTR_PERF_SA_CONFLICTS,

	__LOOM_ATTR_PERF_MAX,
	LOOM_ATTR_PERF_MAX = __LOOM_ATTR_PERF_MAX - 1
};

enum loom_nl_drops_attr {
	LOOM_ATTR_DROPS_UNSPEC,
	LOOM_ATTR_DROPS_PAD,
	LOOM_ATTR_DROPS_KEY,
	LOOM_ATTR_DROPS_BOUNDS,
	LOOM_ATTR_DROPS_NO_CTX,
	LOOM_ATTR_DROPS_NO_ROUTE,
	LOOM_ATTR_DROPS_HOP_LIMIT,
	LOOM_ATTR_DROPS_MALFORMED,
	LOOM_ATTR_DROPS_MAINT_LOST,
	LOOM_ATTR_DROPS_BSU_KEY,	/* barrier packets of another partition */

	__LOOM_ATTR_DROPS_MAX,
	LOOM_ATTR_DROPS_MAX = __LOOM_ATTR_DROPS_MAX - 1
};

enum loom_nl_maint_attr {
	LOOM_ATTR_MAINT_UNSPEC,
	LOOM_ATTR_MAINT_OP,
	LOOM_ATTR_MAINT_ROUTE,
	LOOM_ATTR_MAINT_ADDR,
	LOOM_ATTR_MAINT_VALUE,
	LOOM_ATTR_MAINT_TIMEOUT_MS,
	LOOM_ATTR_MAINT_RETRIES,
	LOOM_ATTR_MAINT_STATUS,
	LOOM_ATTR_MAINT_SEQ,
	LOOM_ATTR_MAINT_NODE,
	LOOM_ATTR_MAINT_ATTEMPTS,

	__LOOM_ATTR_MAINT_MAX,
	LOOM_ATTR_MAINT_MAX = __LOOM_ATTR_MAINT_MAX - 1
};

enum loom_nl_key_attr {
	LOOM_ATTR_KEY_UNSPEC,
	LOOM_ATTR_KEY_VALUE,
	LOOM_ATTR_KEY_UID,
	LOOM_ATTR_KEY_GID,

	__LOOM_ATTR_KEY_MAX,
	LOOM_ATTR_KEY_MAX = __LOOM_ATTR_KEY_MAX - 1
};

/* BSU attributes: defined with the BSU register block (append only) */
enum loom_nl_bsu_attr {
	LOOM_ATTR_BSU_UNSPEC,
	LOOM_ATTR_BSU_INDEX,
	LOOM_ATTR_BSU_PARENT,
	LOOM_ATTR_BSU_CHILDREN,
	LOOM_ATTR_BSU_ARRIVED,
	LOOM_ATTR_BSU_EUREKA,
	LOOM_ATTR_BSU_STATE,
	LOOM_ATTR_BSU_COMPLETIONS,
	LOOM_ATTR_BSU_EUREKAS,
	LOOM_ATTR_BSU_ILLEGAL,
	LOOM_ATTR_BSU_GRANTED,
	LOOM_ATTR_BSU_CTX,

	__LOOM_ATTR_BSU_MAX,
	LOOM_ATTR_BSU_MAX = __LOOM_ATTR_BSU_MAX - 1
};

/* multicast group table entry (LOOM_BLK_MCAST) */
enum loom_nl_mcast_attr {
	LOOM_ATTR_MCAST_UNSPEC,
	LOOM_ATTR_MCAST_GROUP,
	LOOM_ATTR_MCAST_PORTS,
	LOOM_ATTR_MCAST_HOST_CTX,
	LOOM_ATTR_MCAST_MEMBERS,
	LOOM_ATTR_MCAST_VALID,

	__LOOM_ATTR_MCAST_MAX,
	LOOM_ATTR_MCAST_MAX = __LOOM_ATTR_MCAST_MAX - 1
};

#endif /* _UAPI_LINUX_LOOM_NETLINK_H */
