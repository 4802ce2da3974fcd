// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side program of test_unbind.sh's race: maps, touches and unmaps
 * every region of a context from several threads at once, without pause,
 * while the test unbinds and binds the card again and again, so that the
 * driver's zap of a removed card's mappings runs at the same time as
 * munmap() and page faults.
 *
 *   map_race SECONDS [DEVICE]
 *
 * Until SIGTERM or SIGINT, or at most SECONDS: open DEVICE (default
 * /dev/loom0; while it is missing, try again every 20 ms), create a context
 * and start 4 threads that each map the command ring, the completion ring,
 * the segment, the counters page, the doorbell page and the kick page (when
 * the card has one), read or write one word of every page (the doorbell
 * page: its readable CQ_CI_SEEN register), and unmap them all, in a loop
 * with a 1 ms pause between rounds (so that the test's unbind gets the
 * CPU).  A SIGBUS (a page zapped under a thread) is caught and counted, and
 * the thread goes on unmapping; the card must be gone then: an mmap that
 * succeeds on the same file after it is unexpected.  When the card is gone
 * (mmap or CTX_CREATE answers EIO or ENODEV) the threads stop, the file is
 * closed and the next round starts.
 *
 * Prints "map_race: ready" once the first context exists, and at the end
 * one line: rounds (contexts), maps, SIGBUS caught, removals seen.  Exits
 * 0 when at least one removal was seen and nothing unexpected happened
 * (any other error is printed with what failed), 1 otherwise, 2 on bad
 * arguments.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/loom.h>
#include <loom_hw/regs.h>
#include <loom_hw/ring.h>

#define RACE_THREADS	4
#define RACE_SEG_SIZE	(64 * 1024)
#define RACE_ENTRIES	64

enum race_region { R_CMDQ, R_CQ, R_SEG, R_COUNTERS, R_DOORBELL, R_KICK, R_COUNT };

static const char *const region_name[R_COUNT] = {
	"cmdq", "cq", "segment", "counters", "doorbell", "kick"
};

struct race_ctx {
	int fd;
	struct loom_ctx_create c;
	atomic_bool gone;		/* the card answered EIO/ENODEV */
	atomic_bool stop;		/* time is up, or something unexpected */
};

static atomic_ulong n_maps, n_sigbus, n_unexpected;
static volatile sig_atomic_t terminated;
static __thread sigjmp_buf *thread_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	if (!thread_jmp)
		_exit(3);
	siglongjmp(*thread_jmp, 1);
}

static void on_term(int sig)
{
	(void)sig;
	terminated = 1;
}

static int card_gone(int err)
{
	return err == EIO || err == ENODEV;
}

static void unexpected(const char *what, int err)
{
	atomic_fetch_add(&n_unexpected, 1);
	printf("map_race: %s: %s\n", what, strerror(err));
}

static void region_of(const struct loom_ctx_create *c, enum race_region r,
		      uint64_t *token, size_t *len, int *prot)
{
	*prot = PROT_READ | PROT_WRITE;
	switch (r) {
	case R_CMDQ:
		*token = c->cmdq_token;
		*len = (size_t)RACE_ENTRIES * LOOM_CMD_SIZE;
		break;
	case R_CQ:
		*token = c->cq_token;
		*len = (size_t)RACE_ENTRIES * LOOM_CQE_SIZE;
		break;
	case R_SEG:
		*token = c->seg_token;
		*len = RACE_SEG_SIZE;
		break;
	case R_COUNTERS:
		*token = c->counters_token;
		*len = 4096;
		*prot = PROT_READ;
		break;
	case R_DOORBELL:
		*token = c->doorbell_token;
		*len = 4096;
		break;
	default:
		*token = c->kick_token;
		*len = 4096;
		break;
	}
}

/* Read or write one word of every page of region @r mapped at @p. */
static void touch(enum race_region r, volatile uint8_t *p, size_t len)
{
	volatile uint32_t sink;

	for (size_t off = 0; off < len; off += 4096) {
		switch (r) {
		case R_DOORBELL:
			sink = *(volatile uint32_t *)(p + LOOM_DB_CQ_CI_SEEN);
			break;
		case R_CMDQ:
		case R_SEG:
			*(volatile uint32_t *)(p + off) = (uint32_t)off;
			break;
		default:	/* cq, counters, kick: read only */
			sink = *(volatile uint32_t *)(p + off);
			break;
		}
	}
	(void)sink;
}

static void *race_thread(void *arg)
{
	struct race_ctx *rc = arg;
	bool kick = rc->c.out_flags & LOOM_CTX_OUT_KICK;
	/* volatile: what they hold must survive the siglongjmp() */
	volatile uint8_t *volatile map[R_COUNT];
	volatile size_t len[R_COUNT];
	volatile int r;
	volatile bool sigbus = false;
	sigjmp_buf jmp;

	thread_jmp = &jmp;
	while (!atomic_load(&rc->gone) && !atomic_load(&rc->stop)) {
		for (r = 0; r < R_COUNT; r++)
			map[r] = NULL;
		if (sigsetjmp(jmp, 1)) {
			atomic_fetch_add(&n_sigbus, 1);
			sigbus = true;
			goto unmap;
		}
		for (r = 0; r < R_COUNT; r++) {
			uint64_t token;
			size_t size;
			int prot;
			void *p;

			if (r == R_KICK && !kick)
				continue;
			region_of(&rc->c, r, &token, &size, &prot);
			len[r] = size;
			p = mmap(NULL, size, prot, MAP_SHARED, rc->fd, (off_t)token);
			if (p == MAP_FAILED) {
				int err = errno;

				if (card_gone(err))
					atomic_store(&rc->gone, true);
				else
					unexpected(region_name[r], err);
				goto unmap;
			}
			map[r] = p;
			atomic_fetch_add(&n_maps, 1);
			if (sigbus) {
				unexpected("SIGBUS while the card was there (mmap worked after it)",
					   EFAULT);
				goto unmap;
			}
			touch(r, map[r], size);
		}
unmap:
		for (r = 0; r < R_COUNT; r++) {
			if (map[r] && munmap((void *)map[r], len[r]))
				unexpected("munmap", errno);
		}
		if (atomic_load(&n_unexpected))
			atomic_store(&rc->stop, true);
		usleep(1000);
	}
	thread_jmp = NULL;
	return NULL;
}

/* One context on one open file, raced until the card goes or @end. */
static int race_round(int fd, time_t end, bool *removed)
{
	struct race_ctx rc = { .fd = fd };
	pthread_t th[RACE_THREADS];
	int i, n = 0;

	rc.c.argsz = sizeof(rc.c);
	rc.c.cmdq_entries = RACE_ENTRIES;
	rc.c.cq_entries = RACE_ENTRIES;
	rc.c.seg_size = RACE_SEG_SIZE;
	if (ioctl(fd, LOOM_IOC_CTX_CREATE, &rc.c)) {
		if (card_gone(errno)) {
			*removed = true;
			return 0;
		}
		unexpected("CTX_CREATE", errno);
		return -1;
	}
	for (i = 0; i < RACE_THREADS; i++) {
		if (pthread_create(&th[i], NULL, race_thread, &rc))
			break;
		n++;
	}
	if (n < RACE_THREADS)
		unexpected("pthread_create", EAGAIN);
	while (n == RACE_THREADS && !atomic_load(&rc.gone) && !atomic_load(&rc.stop) &&
	       time(NULL) < end && !terminated)
		usleep(10000);
	atomic_store(&rc.stop, true);	/* the threads stop at their next round */
	for (i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	*removed = atomic_load(&rc.gone);
	return atomic_load(&n_unexpected) ? -1 : 0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 2 ? argv[2] : "/dev/loom0";
	unsigned long rounds = 0, removals = 0;
	struct sigaction sa;
	bool ready = false;
	time_t end;
	long secs;

	secs = argc > 1 ? strtol(argv[1], NULL, 10) : 0;
	if (secs <= 0 || argc > 3) {
		fprintf(stderr, "usage: map_race SECONDS [DEVICE]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	end = time(NULL) + secs;
	while (time(NULL) < end && !terminated) {
		bool removed = false;
		int fd = open(path, O_RDWR);

		if (fd < 0) {
			if (errno != ENOENT && errno != ENODEV && errno != ENXIO) {
				unexpected(path, errno);
				break;
			}
			usleep(20000);
			continue;
		}
		if (!ready) {
			printf("map_race: ready\n");
			ready = true;
		}
		if (race_round(fd, end, &removed) < 0) {
			close(fd);
			break;
		}
		rounds++;
		removals += removed;
		close(fd);
	}
	printf("map_race: %lu rounds, %lu maps, %lu SIGBUS caught, %lu removals seen, %lu unexpected\n",
	       rounds, atomic_load(&n_maps), atomic_load(&n_sigbus), removals,
	       atomic_load(&n_unexpected));
	return removals && !atomic_load(&n_unexpected) ? 0 : 1;
}
