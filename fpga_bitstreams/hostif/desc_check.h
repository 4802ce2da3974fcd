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
			  LOOM_CMD_F_ORDERED | LOOM_CMD_F_REMOTE_CQE | \
			  LOOM_CMD_F_LOCAL_MR | LOOM_CMD_F_REMOTE_MR | \
			  LOOM_CMD_F_MCAST)

/* PUT_COUNTED: the packet's aux carries counter id [63:48], offset [47:0] */
#define DESC_COUNTER_ID_MAX	0xffffu
#define DESC_COUNTED_OFF_MAX	((1ull << 48) - 1)

/*
 * Returns LOOM_CQE_ST_OK when the card can execute @cmd, else the status
 * of the error completion it posts instead:
 *  BAD_DESC      unknown opcode, unknown flag, PUT/GET/PUT_COUNTED of 0
 *                bytes, dst_node beyond the routing table (LOOM_MAX_NODES),
 *                PUT_COUNTED counter id > 0xffff or remote_off >= 2^48,
 *                ATOMIC with length != 8, remote_off not 8-aligned or an
 *                unknown LOOM_AMO_* in aux
 *  COUNTER       COUNTER_WAIT on a counter id >= LOOM_CTX_COUNTERS
 *  UNSUPPORTED   BARRIER (not in this design)
 *  LOCAL_BOUNDS  [local_off, local_off + length) outside the segment
 *                (PUT, GET, PUT_COUNTED; an ATOMIC's local_off is unused)
 * A PUT_COUNTED counter id the target does not have is the target's to
 * refuse (status COUNTER from there).
 */
uint8_t desc_check(const struct loom_cmd *cmd, uint64_t seg_size);

#endif
