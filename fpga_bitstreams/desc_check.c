// SPDX-License-Identifier: GPL-2.0
/*
 * Command descriptor validation (design 0.1: NOP and PUT).
 */
#include "desc_check.h"

#include <loom_hw/regs.h>

uint8_t desc_check(const struct loom_cmd *cmd, uint64_t seg_size)
{
	if (cmd->flags & ~DESC_FLAGS_KNOWN)
		return LOOM_CQE_ST_BAD_DESC;
	switch (cmd->opcode) {
	case LOOM_OP_NOP:
		return LOOM_CQE_ST_OK;
	case LOOM_OP_PUT:
		break;
	case LOOM_OP_GET:
	case LOOM_OP_PUT_COUNTED:
	case LOOM_OP_ATOMIC:
	case LOOM_OP_BARRIER:
		return LOOM_CQE_ST_UNSUPPORTED;
	default:
		return LOOM_CQE_ST_BAD_DESC;
	}
	if (cmd->length == 0 || cmd->dst_node >= LOOM_MAX_NODES)
		return LOOM_CQE_ST_BAD_DESC;
	if (cmd->local_off > seg_size || cmd->length > seg_size - cmd->local_off)
		return LOOM_CQE_ST_LOCAL_BOUNDS;
	return LOOM_CQE_ST_OK;
}
