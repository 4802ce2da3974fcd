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
	[LOOM_ATTR_DEV_FP_TIMEOUT_MS] = { .type = NLA_U32 },
	[LOOM_ATTR_DEV_LANE_THRESHOLD] = { .type = NLA_U32 },
	[LOOM_ATTR_ROUTE_TABLE] = { .type = NLA_NESTED },
	[LOOM_ATTR_VCT_PORT] = { .type = NLA_NESTED },
	[LOOM_ATTR_VCT_START_VC1] = { .minlen = LOOM_MAX_NODES / 8 },
	[LOOM_ATTR_VCT_DEST] = { .type = NLA_U32 },
	[LOOM_ATTR_VCT_VC] = { .type = NLA_U32 },
	[LOOM_ATTR_STATS] = { .type = NLA_NESTED },
	[LOOM_ATTR_DROPS] = { .type = NLA_NESTED },
	[LOOM_ATTR_KEY] = { .type = NLA_NESTED },
	[LOOM_ATTR_PERF_PORT] = { .type = NLA_NESTED },
	[LOOM_ATTR_PERF] = { .type = NLA_NESTED },
	[LOOM_ATTR_MCAST] = { .type = NLA_NESTED },
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
	[LOOM_ATTR_PORT_ENABLED] = { .type = NLA_U8 },
	[LOOM_ATTR_PORT_DEAD] = { .type = NLA_FLAG },
	[LOOM_ATTR_PORT_DISABLED] = { .type = NLA_FLAG },
	[LOOM_ATTR_PORT_LANES] = { .type = NLA_U32 },
	[LOOM_ATTR_PORT_RETRIES] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_NAKS_SENT] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_REPLAYED] = { .type = NLA_U64 },
	[LOOM_ATTR_PORT_ACK_TIMEOUTS] = { .type = NLA_U64 },
};

struct nla_policy lc_vct_policy[LOOM_ATTR_VCT_MAX + 1] = {
	[LOOM_ATTR_VCT_PORT_INDEX] = { .type = NLA_U32 },
	[LOOM_ATTR_VCT_PORT_DIM] = { .type = NLA_U32 },
	[LOOM_ATTR_VCT_PORT_DATELINE] = { .type = NLA_U8 },
};

struct nla_policy lc_stats_policy[LOOM_ATTR_STATS_MAX + 1] = {
	[LOOM_ATTR_STATS_PORT] = { .type = NLA_U32 },
	[LOOM_ATTR_STATS_VC] = { .type = NLA_U32 },
	[LOOM_ATTR_STATS_TX_PKTS] = { .type = NLA_U64 },
	[LOOM_ATTR_STATS_TX_BYTES] = { .type = NLA_U64 },
	[LOOM_ATTR_STATS_RX_PKTS] = { .type = NLA_U64 },
	[LOOM_ATTR_STATS_CREDIT_STALLS] = { .type = NLA_U64 },
	[LOOM_ATTR_STATS_ADAPTIVE] = { .type = NLA_U64 },
	[LOOM_ATTR_STATS_DETERMINISTIC] = { .type = NLA_U64 },
	[LOOM_ATTR_STATS_DROPS_DISABLED] = { .type = NLA_U64 },
	[LOOM_ATTR_STATS_DROPS_DEAD] = { .type = NLA_U64 },
	[LOOM_ATTR_STATS_HOST] = { .type = NLA_FLAG },
	[LOOM_ATTR_STATS_OCCUPANCY] = { .type = NLA_U32 },
	[LOOM_ATTR_STATS_OCCUPANCY_MAX] = { .type = NLA_U32 },
	[LOOM_ATTR_STATS_STALL_CYCLES] = { .type = NLA_U64 },
	[LOOM_ATTR_STATS_CREDIT_STARVED] = { .type = NLA_U64 },
};

struct nla_policy lc_perf_port_policy[LOOM_ATTR_PERF_PORT_MAX + 1] = {
	[LOOM_ATTR_PERF_PORT_INDEX] = { .type = NLA_U32 },
	[LOOM_ATTR_PERF_PORT_HOST] = { .type = NLA_FLAG },
	[LOOM_ATTR_PERF_PORT_FLITS_IN] = { .type = NLA_U64 },
	[LOOM_ATTR_PERF_PORT_FLITS_OUT] = { .type = NLA_U64 },
	[LOOM_ATTR_PERF_PORT_PKTS_IN] = { .type = NLA_U64 },
	[LOOM_ATTR_PERF_PORT_PKTS_OUT] = { .type = NLA_U64 },
};

struct nla_policy lc_perf_policy[LOOM_ATTR_PERF_MAX + 1] = {
	[LOOM_ATTR_PERF_CYCLES] = { .type = NLA_U64 },
	[LOOM_ATTR_PERF_CLOCK_KHZ] = { .type = NLA_U32 },
	[LOOM_ATTR_PERF_VA_CONFLICTS] = { .type = NLA_U64 },
	[LOOM_ATTR_PERF_SA_CONFLICTS] = { .type = NLA_U64 },
};

struct nla_policy lc_drops_policy[LOOM_ATTR_DROPS_MAX + 1] = {
	[LOOM_ATTR_DROPS_KEY] = { .type = NLA_U64 },
	[LOOM_ATTR_DROPS_BOUNDS] = { .type = NLA_U64 },
	[LOOM_ATTR_DROPS_NO_CTX] = { .type = NLA_U64 },
	[LOOM_ATTR_DROPS_NO_ROUTE] = { .type = NLA_U64 },
	[LOOM_ATTR_DROPS_HOP_LIMIT] = { .type = NLA_U64 },
	[LOOM_ATTR_DROPS_MALFORMED] = { .type = NLA_U64 },
	[LOOM_ATTR_DROPS_MAINT_LOST] = { .type = NLA_U64 },
	[LOOM_ATTR_DROPS_BSU_KEY] = { .type = NLA_U64 },
};

struct nla_policy lc_key_policy[LOOM_ATTR_KEY_MAX + 1] = {
	[LOOM_ATTR_KEY_VALUE] = { .type = NLA_U32 },
	[LOOM_ATTR_KEY_UID] = { .type = NLA_U32 },
	[LOOM_ATTR_KEY_GID] = { .type = NLA_U32 },
};
