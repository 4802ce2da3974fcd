// SPDX-License-Identifier: GPL-2.0
/*
 * The admin mailbox: one command in flight, serialised by a mutex.  The
 * driver writes the arguments and the command, then a new sequence number
 * (and kicks, in the lab); the card executes, writes RESULT and then
 * ACK = SEQ, and raises vector LOOM_VEC_ADMIN.  The waiter sleeps on that
 * interrupt but also re-reads ACK every admin_poll_ms, so a lost or
 * coalesced interrupt costs latency, never correctness.  A RESULT the
 * interface does not define fails the card (loom_hw.c); a failed card gets
 * no command but the RESET of loom_admin_quiesce() at removal.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/pci.h>
#include <linux/wait.h>

#include "loom_drv.h"

static const char *loom_admin_cmd_name(u32 cmd)
{
	switch (cmd) {
	case LOOM_ADMIN_CMD_NOP:
		return "NOP";
	case LOOM_ADMIN_CMD_RESET:
		return "RESET";
	case LOOM_ADMIN_CMD_CTX_ENABLE:
		return "CTX_ENABLE";
	case LOOM_ADMIN_CMD_CTX_DISABLE:
		return "CTX_DISABLE";
	case LOOM_ADMIN_CMD_MR_ENABLE:
		return "MR_ENABLE";
	case LOOM_ADMIN_CMD_MR_DISABLE:
		return "MR_DISABLE";
	default:
		return "?";
	}
}

static int loom_admin_errno(u32 result, const char **why)
{
	switch (result) {
	case LOOM_ADMIN_E_OK:
		*why = "ok";
		return 0;
	case LOOM_ADMIN_E_UNKNOWN_CMD:
		*why = "card does not know the command";
		return -EOPNOTSUPP;
	case LOOM_ADMIN_E_BAD_CTX:
		*why = "context index out of range";
		return -EINVAL;
	case LOOM_ADMIN_E_BAD_RING:
		*why = "ring size or address rejected";
		return -EINVAL;
	case LOOM_ADMIN_E_BAD_SEGMENT:
		*why = "segment address or size rejected";
		return -EINVAL;
	case LOOM_ADMIN_E_BUSY:
		*why = "context already enabled";
		return -EBUSY;
	case LOOM_ADMIN_E_BAD_MR:
		*why = "memory-region record rejected";
		return -EINVAL;
	default:
		*why = "unknown result code";
		return -EPROTO;
	}
}

/*
 * Commands the card may not refuse: CTX_DISABLE of an index below its
 * count, RESET and NOP always succeed.  Anything else means the card may
 * still be running what it was asked to stop.
 */
static bool loom_admin_must_succeed(u32 cmd)
{
	return cmd == LOOM_ADMIN_CMD_NOP || cmd == LOOM_ADMIN_CMD_RESET ||
	       cmd == LOOM_ADMIN_CMD_CTX_DISABLE ||
	       cmd == LOOM_ADMIN_CMD_MR_DISABLE;
}

static bool loom_admin_acked(struct loom_dev *ldev, u32 seq)
{
	return loom_rd(ldev, ldev->blk_admin.off + LOOM_ADMIN_ACK) == seq;
}

/*
 * Issue @cmd and wait: 0 with the card's *result, -ETIMEDOUT, or -ENODEV
 * once loom_admin_stop() ran (nothing is written).  Only admin_lock is
 * held across the wait: callers do not hold ldev->lock here (except
 * removal's loom_ctx_hw_stop_all()).
 */
static int loom_admin_run(struct loom_dev *ldev, u32 cmd, u32 arg0,
			  unsigned int timeout_ms, u32 *result)
{
	u32 base = ldev->blk_admin.off;
	unsigned long deadline, slice;
	u32 seq;

	slice = msecs_to_jiffies(max(loom_admin_poll_ms, 1u));
	mutex_lock(&ldev->admin_lock);
	if (ldev->admin_off) {
		mutex_unlock(&ldev->admin_lock);
		return -ENODEV;
	}
	seq = ++ldev->admin_seq;
	if (!seq)
		seq = ++ldev->admin_seq;

	loom_wr(ldev, base + LOOM_ADMIN_ARG0, arg0);
	loom_wr(ldev, base + LOOM_ADMIN_ARG1, 0);
	loom_wr(ldev, base + LOOM_ADMIN_ARG2, 0);
	loom_wr(ldev, base + LOOM_ADMIN_ARG3, 0);
	loom_wr(ldev, base + LOOM_ADMIN_CMD, cmd);
	/* SEQ publishes the command: everything above must land first */
	wmb();
	loom_wr(ldev, base + LOOM_ADMIN_SEQ, seq);
	ldev->hal->kick(ldev, LOOM_KICK_ADMIN);

	deadline = jiffies + msecs_to_jiffies(timeout_ms);
	while (!loom_admin_acked(ldev, seq)) {
		if (time_after(jiffies, deadline)) {
			mutex_unlock(&ldev->admin_lock);
			dev_err(&ldev->pdev->dev,
				"admin command %s(%u) not acknowledged within %u ms (is the card or its emulator running? raise loom.admin_timeout_ms if it is only slow)\n",
				loom_admin_cmd_name(cmd), arg0, timeout_ms);
			return -ETIMEDOUT;
		}
		wait_event_timeout(ldev->admin_wq, loom_admin_acked(ldev, seq),
				   slice);
	}
	/* RESULT was written before ACK */
	rmb();
	*result = loom_rd(ldev, base + LOOM_ADMIN_RESULT);
	mutex_unlock(&ldev->admin_lock);
	return 0;
}

/**
 * loom_admin_cmd() - run one admin command and wait for the card's answer
 * @ldev: the card (registers mapped)
 * @cmd: LOOM_ADMIN_CMD_*
 * @arg0: first argument (context index for CTX_ENABLE/CTX_DISABLE)
 * @timeout_ms: how long to wait for the acknowledgment
 *
 * Return: 0, -ETIMEDOUT when the card did not acknowledge in time, -ENODEV
 * once loom_admin_stop() ran, the errno the card's result code maps to
 * (-EINVAL, -EBUSY, -EOPNOTSUPP), or -EIO when the card has failed,
 * answers with a result code the interface does not define, or refuses a
 * command it may not refuse (NOP, RESET, CTX_DISABLE, MR_DISABLE: either
 * fails it);
 * failures are logged.
 */
int loom_admin_cmd(struct loom_dev *ldev, u32 cmd, u32 arg0,
		   unsigned int timeout_ms)
{
	const char *why;
	u32 result;
	int err;

	if (loom_hw_failed(ldev))
		return -EIO;
	err = loom_admin_run(ldev, cmd, arg0, timeout_ms, &result);
	if (err)
		return err;
	err = loom_admin_errno(result, &why);
	if (err == -EPROTO) {
		loom_hw_fail(ldev, "ADMIN", "RESULT", -1,
			     ldev->blk_admin.off + LOOM_ADMIN_RESULT, result,
			     "0..%u (LOOM_ADMIN_E_*), the answer to %s(%u)",
			     LOOM_ADMIN_E_BAD_MR, loom_admin_cmd_name(cmd), arg0);
		return -EIO;
	}
	if (err && loom_admin_must_succeed(cmd)) {
		loom_hw_fail(ldev, "ADMIN", "RESULT", -1,
			     ldev->blk_admin.off + LOOM_ADMIN_RESULT, result,
			     "0 (LOOM_ADMIN_E_OK): %s(%u) cannot be refused",
			     loom_admin_cmd_name(cmd), arg0);
		return -EIO;
	}
	if (err)
		dev_err(&ldev->pdev->dev, "admin command %s(%u) failed: %s (result %u)\n",
			loom_admin_cmd_name(cmd), arg0, why, result);
	return err;
}

/**
 * loom_admin_quiesce() - at removal: ask the card to stop every context
 * @ldev: the card (registers mapped), dead, failed or not
 *
 * One RESET with a timeout of at most a second, sent even to a card that
 * failed: it is the last chance to stop its DMA before bus mastering goes
 * off.  Nothing is freed on the strength of its answer.
 *
 * Return: 0 when the card acknowledged the reset as done, else an errno.
 */
int loom_admin_quiesce(struct loom_dev *ldev)
{
	u32 result;
	int err;

	err = loom_admin_run(ldev, LOOM_ADMIN_CMD_RESET, 0,
			     min(loom_admin_timeout_ms, 1000u), &result);
	if (!err && result != LOOM_ADMIN_E_OK)
		err = -EIO;
	return err;
}

/**
 * loom_admin_wait_ready() - wait until the card reports its mailbox ready
 * @ldev: the card (registers mapped)
 *
 * Also synchronises the driver's sequence number with the card's last
 * acknowledgment, so a reloaded driver never reuses an acknowledged one.
 *
 * Return: 0, or -ETIMEDOUT after admin_timeout_ms (logged).
 */
int loom_admin_wait_ready(struct loom_dev *ldev)
{
	u32 base = ldev->blk_admin.off;
	unsigned long deadline = jiffies + msecs_to_jiffies(loom_admin_timeout_ms);

	while (!(loom_rd(ldev, base + LOOM_ADMIN_STATUS) & LOOM_ADMIN_ST_READY)) {
		if (time_after(jiffies, deadline)) {
			dev_err(&ldev->pdev->dev,
				"card not ready after %u ms (admin status %#x): is the card emulator running?\n",
				loom_admin_timeout_ms,
				loom_rd(ldev, base + LOOM_ADMIN_STATUS));
			return -ETIMEDOUT;
		}
		msleep(max(loom_admin_poll_ms, 1u));
	}
	ldev->admin_seq = loom_rd(ldev, base + LOOM_ADMIN_ACK);
	return 0;
}

/**
 * loom_admin_stop() - no admin command goes out any more
 * @ldev: the card, about to lose its registers
 *
 * Waits for the command in flight, if any; every later command answers
 * -ENODEV without touching a register.
 */
void loom_admin_stop(struct loom_dev *ldev)
{
	mutex_lock(&ldev->admin_lock);
	ldev->admin_off = true;
	mutex_unlock(&ldev->admin_lock);
}
