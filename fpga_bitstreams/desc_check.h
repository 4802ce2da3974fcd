/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command descriptor validation: a pure function from a descriptor and
 * the issuing context's segment size to a completion status.
 */
#ifndef LOOM_CARD_DESC_CHECK_H
#define LOOM_CARD_DESC_CHECK_H

#include <stdint.h>

#include <loom_hw/ring.h>

#define DESC_FLAGS_KNOWN (LOOM_CMD_F_SIGNAL | LOOM_CMD_F_FENCE | \
			  LOOM_CMD_F_ORDERED | LOOM_CMD_F_REMOTE_CQE)

/*
 * Returns LOOM_CQE_ST_OK when the card can execute @cmd, else the status
 * of the error completion it posts instead:
 *  BAD_DESC      unknown opcode, unknown flag, PUT of 0 bytes,
 *                dst_node beyond the routing table (LOOM_MAX_NODES)
 *  UNSUPPORTED   GET, PUT_COUNTED, ATOMIC, BARRIER (not in design 0.1)
 *  LOCAL_BOUNDS  [local_off, local_off + length) outside the segment
 */
uint8_t desc_check(const struct loom_cmd *cmd, uint64_t seg_size);

#endif
