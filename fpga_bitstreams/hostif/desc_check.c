// SPDX-License-Identifier: GPL-2.0
/*
 * Command descriptor validation (design 0.2: NOP, PUT, GET, PUT_COUNTED,
 * ATOMIC, COUNTER_WAIT).
 */
#include "desc_check.h"

#include <loom_hw/regs.h>

/* Checks common to the operations that move bytes from or to my segment. */
static uint8_t desc_check_transfer(const struct loom_cmd *cmd, uint64_t seg_size)
{
	/* a multicast group is checked against the group table when the op starts */
	if (cmd->length == 0 ||
	    (cmd->dst_node >= LOOM_MAX_NODES && !(cmd->flags & LOOM_CMD_F_MCAST)))
		return LOOM_CQE_ST_BAD_DESC;
	/* a local region is checked against the MR table when the op starts */
	if (cmd->flags & LOOM_CMD_F_LOCAL_MR)
		return cmd->compare >> 32 ? LOOM_CQE_ST_BAD_DESC : LOOM_CQE_ST_OK;
	if (cmd->local_off > seg_size || cmd->length > seg_size - cmd->local_off)
		return LOOM_CQE_ST_LOCAL_BOUNDS;
	return LOOM_CQE_ST_OK;
}

uint8_t desc_check(const struct loom_cmd *cmd, uint64_t seg_size)
{
	if (cmd->flags & ~DESC_FLAGS_KNOWN)
		return LOOM_CQE_ST_BAD_DESC;
	/* regions name memory of transfers and atomics only; atomics no local one */
	if (cmd->flags & (LOOM_CMD_F_LOCAL_MR | LOOM_CMD_F_REMOTE_MR) &&
	    (cmd->opcode == LOOM_OP_NOP || cmd->opcode == LOOM_OP_COUNTER_WAIT ||
	     (cmd->opcode == LOOM_OP_ATOMIC && cmd->flags & LOOM_CMD_F_LOCAL_MR)))
		return LOOM_CQE_ST_BAD_DESC;
	/* multicast: PUTs only, each member's context from its card's group entry */
	if (cmd->flags & LOOM_CMD_F_MCAST &&
	    (cmd->opcode != LOOM_OP_PUT || cmd->dst_ctx || cmd->flags & LOOM_CMD_F_REMOTE_MR))
		return LOOM_CQE_ST_BAD_DESC;
	switch (cmd->opcode) {
	case LOOM_OP_NOP:
		return LOOM_CQE_ST_OK;
	case LOOM_OP_PUT:
	case LOOM_OP_GET:
		return desc_check_transfer(cmd, seg_size);
	case LOOM_OP_PUT_COUNTED:
		/* the counter id and remote offset share the packet's aux */
		if (cmd->aux > DESC_COUNTER_ID_MAX || cmd->remote_off > DESC_COUNTED_OFF_MAX)
			return LOOM_CQE_ST_BAD_DESC;
		return desc_check_transfer(cmd, seg_size);
	case LOOM_OP_ATOMIC:
		/* in a region, alignment is the memory's: the target checks it */
		if (cmd->length != 8 || (cmd->remote_off % 8 && !(cmd->flags & LOOM_CMD_F_REMOTE_MR)) ||
		    cmd->dst_node >= LOOM_MAX_NODES ||
		    cmd->aux < LOOM_AMO_FETCH_ADD || cmd->aux > LOOM_AMO_CSWAP)
			return LOOM_CQE_ST_BAD_DESC;
		return LOOM_CQE_ST_OK;
	case LOOM_OP_COUNTER_WAIT:
		return cmd->aux < LOOM_CTX_COUNTERS ? LOOM_CQE_ST_OK : LOOM_CQE_ST_COUNTER;
	case LOOM_OP_BARRIER:
		return LOOM_CQE_ST_UNSUPPORTED;
	default:
		return LOOM_CQE_ST_BAD_DESC;
	}
}
