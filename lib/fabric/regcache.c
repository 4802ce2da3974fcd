// SPDX-License-Identifier: LGPL-2.1-or-later OR MIT
/*
 * The loom provider's registration cache: the buffers of rendezvous sends
 * and receives are registered in the domain's RMA context once and kept,
 * so that sending the same buffer again does not pin it again.
 *
 * A registration pins pages, not addresses: once the application unmaps
 * a cached buffer (munmap, free of a large block, madvise(MADV_DONTNEED),
 * mremap) and maps new memory at the same address, the cached region
 * still names the old pages.  The cache therefore watches every range it
 * holds with a userfaultfd in write-protect mode that never protects a
 * page (so no access ever faults) and asks for the unmap, remove and
 * remap events: the kernel reports each of them on the descriptor before
 * the unmapping call returns, a thread of the cache reads them and marks
 * the overlapping entries stale, and a stale entry is never found again
 * (it is deregistered once no operation uses it).  Where no userfaultfd
 * can be had, or a range cannot be watched (memory types the kernel does
 * not support), the registration serves one operation and is dropped at
 * its end.  The cache holds at most LOFI_REGCACHE_ENTRIES entries and
 * LOFI_REGCACHE_BYTES bytes; the least recently used unused entries go
 * first.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "lofi.h"

#define PAGE	4096ull

static int uffd_open(struct lofi_regcache *c)
{
	struct uffdio_api api = {
		.api = UFFD_API,
		.features = UFFD_FEATURE_EVENT_UNMAP | UFFD_FEATURE_EVENT_REMOVE |
			    UFFD_FEATURE_EVENT_REMAP,
	};
	int fd;

	fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY);
	if (fd < 0)
		fd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, UFFDIO_API, &api)) {
		int err = -errno;

		close(fd);
		return err;
	}
	c->uffd = fd;
	return 0;
}

/* mark the entries overlapping [start, end) stale */
static void invalidate(struct lofi_regcache *c, uint64_t start, uint64_t end)
{
	struct lofi_reg *r;

	pthread_mutex_lock(&c->lock);
	for (r = c->head; r; r = r->next) {
		if (r->base < end && start < r->end && !r->stale) {
			r->stale = 1;
			c->invalidated++;
		}
	}
	pthread_mutex_unlock(&c->lock);
}

/* the monitor: reads the descriptor's events until the cache closes */
static void *monitor(void *arg)
{
	struct lofi_regcache *c = arg;
	struct pollfd p[2] = { { .fd = c->uffd, .events = POLLIN },
			       { .fd = c->stop[0], .events = POLLIN } };

	for (;;) {
		struct uffd_msg m[16];
		ssize_t n;
		int i;

		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[1].revents)
			break;
		n = read(c->uffd, m, sizeof(m));
		if (n <= 0)
			continue;
		for (i = 0; i < (int)(n / (ssize_t)sizeof(m[0])); i++) {
			switch (m[i].event) {
			case UFFD_EVENT_UNMAP:
			case UFFD_EVENT_REMOVE:
				invalidate(c, m[i].arg.remove.start, m[i].arg.remove.end);
				break;
			case UFFD_EVENT_REMAP:
				invalidate(c, m[i].arg.remap.from,
					   m[i].arg.remap.from + m[i].arg.remap.len);
				break;
			default:
				break;
			}
		}
	}
	return NULL;
}

/* start watching, on first use; 0 when the cache can cache */
static int cache_start(struct lofi_regcache *c)
{
	int ret;

	if (c->state)
		return c->state > 0 ? 0 : -1;
	c->state = -1;
	ret = uffd_open(c);
	if (ret) {
		LOFI_INFO(FI_LOG_MR, "no userfaultfd (%s): buffers are registered for each rendezvous\n",
			  strerror(-ret));
		return -1;
	}
	if (pipe2(c->stop, O_CLOEXEC)) {
		close(c->uffd);
		return -1;
	}
	if (pthread_create(&c->thread, NULL, monitor, c)) {
		close(c->uffd);
		close(c->stop[0]);
		close(c->stop[1]);
		return -1;
	}
	c->state = 1;
	return 0;
}

static int watch(struct lofi_regcache *c, uint64_t base, uint64_t end)
{
	struct uffdio_register reg = {
		.range = { .start = base, .len = end - base },
		.mode = UFFDIO_REGISTER_MODE_WP,
	};

	return ioctl(c->uffd, UFFDIO_REGISTER, &reg) ? -errno : 0;
}

/* drop @r (unused) from the list and the card; c->lock is held */
static void drop(struct lofi_regcache *c, struct lofi_reg *r)
{
	struct lofi_reg **pp;

	for (pp = &c->head; *pp; pp = &(*pp)->next) {
		if (*pp == r) {
			*pp = r->next;
			break;
		}
	}
	c->entries--;
	c->bytes -= r->end - r->base;
	/*
	 * The range stays watched: another entry may overlap it, an event for
	 * it finds no entry, and closing the descriptor ends every watch.
	 */
	loom_mr_dereg(r->lmr);
	free(r);
}

/* make room for @bytes more: drop stale, then least recently used, unused entries */
static void make_room(struct lofi_regcache *c, uint64_t bytes)
{
	struct lofi_reg *r, *next, *lru;

	for (r = c->head; r; r = next) {
		next = r->next;
		if (r->stale && !r->refs)
			drop(c, r);
	}
	while (c->entries >= LOFI_REGCACHE_ENTRIES || c->bytes + bytes > LOFI_REGCACHE_BYTES) {
		lru = NULL;
		for (r = c->head; r; r = r->next)
			if (!r->refs && (!lru || r->last_use < lru->last_use))
				lru = r;
		if (!lru)
			break;
		drop(c, lru);
	}
}

int lofi_reg_get(struct lofi_rma *rma, struct lofi_regcache *c, const void *buf,
		 size_t len, uint32_t access, struct lofi_reg **out)
{
	uint64_t base = (uintptr_t)buf & ~(PAGE - 1);
	uint64_t end = ((uintptr_t)buf + len + PAGE - 1) & ~(PAGE - 1);
	uint32_t want = access;
	struct lofi_reg *r;
	int ret;

	if (!len || (uintptr_t)buf + len < (uintptr_t)buf)
		return -EINVAL;
	pthread_mutex_lock(&c->lock);
	c->uses++;
	for (r = c->head; r; r = r->next) {
		if (!r->stale && r->base <= base && end <= r->end &&
		    (r->access & want) == want) {
			r->refs++;
			r->last_use = c->uses;
			c->hits++;
			pthread_mutex_unlock(&c->lock);
			*out = r;
			return 0;
		}
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		pthread_mutex_unlock(&c->lock);
		return -ENOMEM;
	}
	r->base = base;
	r->end = end;
	/* both directions at once, so that a buffer sent and received hits */
	r->access = want | LOOM_MR_LOCAL_WRITE | LOOM_MR_REMOTE_READ;
	ret = loom_mr_reg(rma->ctx, (void *)(uintptr_t)base, end - base, r->access, &r->lmr);
	if (ret == -EACCES && !(want & LOOM_MR_LOCAL_WRITE)) {
		r->access = want;
		ret = loom_mr_reg(rma->ctx, (void *)(uintptr_t)base, end - base, r->access,
				  &r->lmr);
	}
	if (ret) {
		pthread_mutex_unlock(&c->lock);
		free(r);
		return ret;
	}
	c->registrations++;
	r->refs = 1;
	r->last_use = c->uses;
	if (!cache_start(c) && !watch(c, base, end)) {
		make_room(c, end - base);
		r->cached = 1;
		r->next = c->head;
		c->head = r;
		c->entries++;
		c->bytes += end - base;
	}
	pthread_mutex_unlock(&c->lock);
	*out = r;
	return 0;
}

void lofi_reg_put(struct lofi_regcache *c, struct lofi_reg *r)
{
	pthread_mutex_lock(&c->lock);
	if (--r->refs == 0) {
		if (!r->cached) {
			loom_mr_dereg(r->lmr);
			free(r);
		} else if (r->stale) {
			drop(c, r);
		}
	}
	pthread_mutex_unlock(&c->lock);
}

void lofi_regcache_init(struct lofi_regcache *c)
{
	memset(c, 0, sizeof(*c));
	pthread_mutex_init(&c->lock, NULL);
	c->uffd = -1;
}

void lofi_regcache_close(struct lofi_regcache *c, const char *domain)
{
	if (c->state > 0) {
		if (write(c->stop[1], "x", 1) != 1)
			LOFI_WARN(FI_LOG_MR, "stopping the registration cache's monitor failed\n");
		pthread_join(c->thread, NULL);
	}
	pthread_mutex_lock(&c->lock);
	while (c->head)
		drop(c, c->head);
	pthread_mutex_unlock(&c->lock);
	if (c->registrations || c->hits)
		LOFI_INFO(FI_LOG_MR, "registration cache of %s: %llu registrations, %llu hits, %llu invalidated\n",
			  domain, (unsigned long long)c->registrations,
			  (unsigned long long)c->hits, (unsigned long long)c->invalidated);
	if (c->state > 0) {
		close(c->uffd);
		close(c->stop[0]);
		close(c->stop[1]);
	}
	pthread_mutex_destroy(&c->lock);
}
