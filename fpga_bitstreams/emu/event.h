/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Event loop plumbing: every epoll registration carries a handler.
 */
#ifndef LOOM_CARD_EVENT_H
#define LOOM_CARD_EVENT_H

#include <stdint.h>
#include <sys/epoll.h>
#include <time.h>

struct ev_handler {
	void (*fn)(struct ev_handler *h, uint32_t events);
};

static inline int ev_ctl(int epfd, int op, int fd, uint32_t events, struct ev_handler *h)
{
	struct epoll_event ev = { .events = events, .data.ptr = h };

	return epoll_ctl(epfd, op, fd, &ev);
}

static inline uint64_t ev_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

#endif
