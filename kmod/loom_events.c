// SPDX-License-Identifier: GPL-2.0
/*
 * Port events: the card counts every change of a port's STATUS in
 * PORTS_EVENTS and raises LOOM_VEC_EVENT.  The interrupt handler only
 * calls loom_port_event(), which queues a work item; the work compares
 * every port's STATUS with the copy it announced last and multicasts one
 * LOOM_EVENT_PORT_CHANGED (DEV_INDEX, PORT{...}) per port that changed.
 *
 * Interrupts coalesce and an emulator may miss one, so the same work also
 * runs from a one-second poll: one register read per port and second is
 * nothing, and a change is then announced at most a second late.  The
 * comparison does not rely on PORTS_EVENTS (a card that forgets to count
 * still gets its changes announced, and the count is not read at all); a
 * change undone before the work runs is not announced, as nothing is left
 * to report.  The ports' registers are read through loom_hw_ports.c.
 */
#include <linux/kernel.h>
#include <linux/workqueue.h>

#include "loom_drv.h"
#include "loom_genl.h"

#define LOOM_EVENTS_POLL	HZ

/*
 * Compare, and collect one message per changed port; ldev->lock held.
 * At most LOOM_MAX_PORTS ports: loom_hw_router_probe() refused more.
 */
static unsigned int loom_events_collect(struct loom_dev *ldev,
					struct sk_buff **msgs)
{
	struct loom_events *ev = &ldev->events;
	bool listening = genl_has_listeners(&loom_genl_family, &init_net,
					    LOOM_GENL_MCGRP_EVENTS_ID);
	u32 port, n = min_t(u32, loom_hw_ports_count(ldev), LOOM_MAX_PORTS);
	unsigned int n_msgs = 0;
	u32 status;

	for (port = 0; port < n; port++) {
		struct sk_buff *msg;
		void *hdr;

		if (loom_hw_port_status(ldev, port, &status))
			break;
		if (status == ev->status[port])
			continue;
		ev->status[port] = status;
		if (!listening)
			continue;
		msg = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
		if (!msg)
			continue;
		hdr = genlmsg_put(msg, 0, 0, &loom_genl_family, 0,
				  LOOM_EVENT_PORT_CHANGED);
		if (!hdr || loom_genl_fill_port(msg, ldev, port, status)) {
			nlmsg_free(msg);
			continue;
		}
		genlmsg_end(msg, hdr);
		msgs[n_msgs++] = msg;
	}
	return n_msgs;
}

static void loom_events_work(struct work_struct *work)
{
	struct loom_dev *ldev = container_of(work, struct loom_dev,
					     events.work);
	struct sk_buff *msgs[LOOM_MAX_PORTS];
	unsigned int i, n = 0;

	mutex_lock(&ldev->events.lock);
	mutex_lock(&ldev->lock);
	if (!ldev->dead)
		n = loom_events_collect(ldev, msgs);
	mutex_unlock(&ldev->lock);
	for (i = 0; i < n; i++)
		genlmsg_multicast(&loom_genl_family, msgs[i], 0,
				  LOOM_GENL_MCGRP_EVENTS_ID, GFP_KERNEL);
	mutex_unlock(&ldev->events.lock);
}

static void loom_events_poll(struct work_struct *work)
{
	struct loom_dev *ldev = container_of(to_delayed_work(work),
					     struct loom_dev, events.poll);

	if (!READ_ONCE(ldev->events.running))
		return;
	queue_work(system_wq, &ldev->events.work);
	queue_delayed_work(system_wq, &ldev->events.poll, LOOM_EVENTS_POLL);
}

/**
 * loom_port_event() - the card signalled an event (LOOM_VEC_EVENT): look at
 *	the ports soon
 * @ldev: the card
 *
 * Callable from hard-interrupt context; does nothing before
 * loom_events_start() or after loom_events_stop().
 */
void loom_port_event(struct loom_dev *ldev)
{
	if (READ_ONCE(ldev->events.running))
		queue_work(system_wq, &ldev->events.work);
}

/**
 * loom_events_start() - remember the ports' status and start watching
 * @ldev: the card, registered (its minor known)
 *
 * The status at start is not announced: listeners read it with PORT_GET.
 */
void loom_events_start(struct loom_dev *ldev)
{
	struct loom_events *ev = &ldev->events;
	u32 port, n;

	mutex_init(&ev->lock);
	INIT_WORK(&ev->work, loom_events_work);
	INIT_DELAYED_WORK(&ev->poll, loom_events_poll);
	if (!ldev->blk_ports.size)
		return;
	mutex_lock(&ldev->lock);
	n = min_t(u32, loom_hw_ports_count(ldev), LOOM_MAX_PORTS);
	for (port = 0; port < n; port++)
		if (loom_hw_port_status(ldev, port, &ev->status[port]))
			break;
	mutex_unlock(&ldev->lock);
	WRITE_ONCE(ev->running, true);
	queue_delayed_work(system_wq, &ev->poll, LOOM_EVENTS_POLL);
}

/**
 * loom_events_stop() - stop watching; nothing of it runs afterwards
 * @ldev: the card; its interrupts are already freed, so nothing can queue
 *	the work again
 */
void loom_events_stop(struct loom_dev *ldev)
{
	struct loom_events *ev = &ldev->events;

	if (!ev->work.func)
		return;
	WRITE_ONCE(ev->running, false);
	cancel_delayed_work_sync(&ev->poll);
	cancel_work_sync(&ev->work);
}
