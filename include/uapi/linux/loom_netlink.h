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
 * Multicast group LOOM_GENL_MCGRP_EVENTS carries LOOM_EVENT_ROUTE_CHANGED
 * (DEV_INDEX, ROUTE{...} as it now is) after each ROUTE_SET/ROUTE_DEL.
 */
#ifndef _UAPI_LINUX_LOOM_NETLINK_H
#define _UAPI_LINUX_LOOM_NETLINK_H

#define LOOM_GENL_NAME		"loom"
#define LOOM_GENL_VERSION	1
#define LOOM_GENL_MCGRP_EVENTS	"events"

#define LOOM_ROUTE_PORT_HOST	15	/* deliver to the local host */

enum loom_nl_cmd {
	LOOM_CMD_UNSPEC,
	LOOM_CMD_DEV_GET,
	LOOM_CMD_ROUTE_GET,
	LOOM_CMD_ROUTE_SET,
	LOOM_CMD_ROUTE_DEL,
	LOOM_CMD_PORT_GET,
	LOOM_EVENT_ROUTE_CHANGED,	/* multicast only */

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

	__LOOM_ATTR_PORT_MAX,
	LOOM_ATTR_PORT_MAX = __LOOM_ATTR_PORT_MAX - 1
};

#endif /* _UAPI_LINUX_LOOM_NETLINK_H */
