// SPDX-License-Identifier: GPL-2.0
/*
 * What loomctl accepts from the kernel: attribute types of the replies, so
 * that a short or malformed attribute is refused instead of read past.
 */
#include <netlink/attr.h>

#include "loomctl.h"

struct nla_policy lc_policy[LOOM_ATTR_MAX + 1] = {
	[LOOM_ATTR_DEV_INDEX] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_PCI_NAME] = { .type = NLA_STRING },
	[LOOM_ATTR_DEV_NODE_ID] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_LOGICAL_ID] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_N_PORTS] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_N_CONTEXTS] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_RT_ENTRIES] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_FW_VERSION] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_FW_BUILD_ID] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_FW_BUILD_TIME] = { .type = NLA_U64 },
	[LOOM_ATTR_DEV_FW_DESC] = { .type = NLA_STRING },
	[LOOM_ATTR_DEV_EMULATED] = { .type = NLA_FLAG },
	[LOOM_ATTR_ROUTE] = { .type = NLA_NESTED },
	[LOOM_ATTR_PORT] = { .type = NLA_NESTED },
};

struct nla_policy lc_route_policy[LOOM_ATTR_ROUTE_MAX + 1] = {
	[LOOM_ATTR_ROUTE_DEST] = { .type = NLA_U32 },
	[LOOM_ATTR_ROUTE_PORT] = { .type = NLA_U32 },
	[LOOM_ATTR_ROUTE_PHYS_DEST] = { .type = NLA_U32 },
	[LOOM_ATTR_ROUTE_ADAPTIVE] = { .type = NLA_FLAG },
	[LOOM_ATTR_ROUTE_VALID] = { .type = NLA_FLAG },
};

struct nla_policy lc_port_policy[LOOM_ATTR_PORT_MAX + 1] = {
	[LOOM_ATTR_PORT_INDEX] = { .type = NLA_U32 },
	[LOOM_ATTR_PORT_CABLED] = { .type = NLA_FLAG },
	[LOOM_ATTR_PORT_UP] = { .type = NLA_FLAG },
	[LOOM_ATTR_PORT_PEER_NODE] = { .type = NLA_U32 },
	[LOOM_ATTR_PORT_PEER_PORT] = { .type = NLA_U32 },
	[LOOM_ATTR_PORT_TX_FRAMES] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_RX_FRAMES] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_TX_BYTES] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_RX_BYTES] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_CRC_ERRORS] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_SEQ_ERRORS] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_DROPS] = { .type = NLA_U64 },
};
