// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side helper of test_unbind.sh: holds a loom context (all regions
 * mapped) and reports how the device's removal reaches it.
 *
 *   hold_ctx MODE [DEVICE]
 *     info    print DEV_INFO and how long open(), DEV_INFO and a poll()
 *             of the file took together, and exit 0
 *     ioctl   call DEV_INFO every 20 ms until it fails: "ioctl: EIO"
 *     poll    block in poll() until it returns: "poll: POLLERR POLLHUP"
 *     touch   write the segment every 10 ms until SIGBUS: "touch: SIGBUS"
 *     churn   4 threads create, map, write, unmap and destroy contexts in a
 *             loop until the device answers EIO: "churn: EIO" (or
 *             "churn: SIGBUS" when a mapping was zapped under a thread)
 *     hold    write the segment once, then wait (without touching any
 *             mapping) for SIGUSR1, then read the segment, the rings and
 *             the counters page: "hold: SIGBUS" when the first read faults
 *
 * HOLD_SEG_SIZE (environment) sets the segment size (default 64 KiB);
 * HOLD_NO_MAP=1 makes the ioctl mode keep its context unmapped; HOLD_MR=N
 * registers a memory region of N KiB of the process's memory on the
 * context (all access rights) once it exists.
 * Prints "MODE: ready" once the context exists.  Exits 0 when the result
 * is the expected one, 1 on another result, 2 when nothing happened in
 * 120 s.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/loom.h>

#define HOLD_SECONDS	120

static const char *mode = "";

static void on_sigbus(int sig)
{
	static const char touch_msg[] = "touch: SIGBUS\n";
	static const char churn_msg[] = "churn: SIGBUS\n";
	static const char hold_msg[] = "hold: SIGBUS\n";
	const char *msg = !strcmp(mode, "churn") ? churn_msg :
			  !strcmp(mode, "hold") ? hold_msg : touch_msg;

	(void)sig;
	if (write(STDOUT_FILENO, msg, strlen(msg)) < 0)
		_exit(1);
	_exit(0);
}

static void *map(int fd, size_t len, uint64_t token)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)token);

	return p == MAP_FAILED ? NULL : p;
}

static void nap(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

#define CHURN_THREADS	4

struct churn {
	int fd;
	int result;	/* 0 EIO seen, 1 other error, 2 nothing happened */
	int err;
	const char *what;
};

static void *churn_thread(void *arg)
{
	struct churn *ch = arg;
	time_t end = time(NULL) + HOLD_SECONDS;

	ch->result = 2;
	while (time(NULL) < end) {
		struct loom_ctx_create c = { .argsz = sizeof(c) };
		struct loom_ctx_destroy d = { .argsz = sizeof(d) };
		volatile uint8_t *seg;

		c.cmdq_entries = 16;
		c.cq_entries = 16;
		c.seg_size = 16384;
		if (ioctl(ch->fd, LOOM_IOC_CTX_CREATE, &c)) {
			ch->what = "CTX_CREATE";
			goto fail;
		}
		seg = map(ch->fd, c.seg_size, c.seg_token);
		if (!seg) {
			ch->what = "mmap";
			goto fail;
		}
		for (unsigned int i = 0; i < c.seg_size; i += 512)
			seg[i] = (uint8_t)i;
		munmap((void *)seg, c.seg_size);
		d.index = c.index;
		if (ioctl(ch->fd, LOOM_IOC_CTX_DESTROY, &d)) {
			ch->what = "CTX_DESTROY";
			goto fail;
		}
	}
	return NULL;
fail:
	ch->err = errno;
	ch->result = ch->err == EIO ? 0 : 1;
	return NULL;
}

static int churn(int fd)
{
	struct churn ch[CHURN_THREADS];
	pthread_t th[CHURN_THREADS];
	int i, worst = 0;

	printf("churn: ready (%d threads)\n", CHURN_THREADS);
	for (i = 0; i < CHURN_THREADS; i++) {
		memset(&ch[i], 0, sizeof(ch[i]));
		ch[i].fd = fd;
		if (pthread_create(&th[i], NULL, churn_thread, &ch[i])) {
			printf("churn: cannot start a thread\n");
			return 1;
		}
	}
	for (i = 0; i < CHURN_THREADS; i++) {
		pthread_join(th[i], NULL);
		if (ch[i].result > worst)
			worst = ch[i].result;
		if (ch[i].result == 1)
			printf("churn: thread %d: %s: %s\n", i, ch[i].what, strerror(ch[i].err));
	}
	printf("churn: %s\n", worst == 0 ? "EIO" : worst == 1 ? "unexpected error" :
	       "nothing happened");
	return worst;
}

/*
 * The hold mode: the segment, written once, faulted in with the rings; no
 * access until SIGUSR1 (the device is gone by then), then a read of every
 * page the context maps.  A value read is memory the process should no
 * longer reach.
 */
static int hold(int fd, const struct loom_ctx_create *c, volatile uint8_t *seg,
		volatile uint8_t *cmdq, volatile uint8_t *cq)
{
	volatile const uint8_t *counters;
	unsigned int sum = 0;
	sigset_t set;
	int sig;

	counters = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, (off_t)c->counters_token);
	if (counters == MAP_FAILED) {
		printf("hold: mmap of the counters page: %s\n", strerror(errno));
		return 1;
	}
	for (unsigned int i = 0; i < c->seg_size; i += 4096)
		seg[i] = 0xa5;
	sum = cmdq[0] + cq[0] + counters[0];
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	printf("hold: ready (context %u)\n", c->index);
	if (sigwait(&set, &sig)) {
		printf("hold: sigwait failed\n");
		return 1;
	}
	signal(SIGBUS, on_sigbus);
	for (unsigned int i = 0; i < c->seg_size; i += 4096)
		sum += seg[i];
	sum += cmdq[0] + cq[0] + counters[0];
	printf("hold: no SIGBUS: read the segment, the rings and the counters page (sum %u)\n",
	       sum);
	return 1;
}

int main(int argc, char **argv)
{
	const char *path = argc > 2 ? argv[2] : "/dev/loom0";
	struct loom_dev_info info = { .argsz = sizeof(info) };
	struct loom_ctx_create c = { .argsz = sizeof(c) };
	volatile uint8_t *seg = NULL, *cmdq, *cq;
	struct timespec t0, t1;
	int fd, i;

	mode = argc > 1 ? argv[1] : "";
	setvbuf(stdout, NULL, _IONBF, 0);
	if (strcmp(mode, "info") && strcmp(mode, "ioctl") && strcmp(mode, "poll") &&
	    strcmp(mode, "touch") && strcmp(mode, "churn") && strcmp(mode, "hold")) {
		fprintf(stderr, "usage: hold_ctx info|ioctl|poll|touch|churn|hold [DEVICE]\n");
		return 2;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fd = open(path, O_RDWR);
	if (fd < 0) {
		printf("%s: cannot open %s: %s\n", mode, path, strerror(errno));
		return 1;
	}
	if (ioctl(fd, LOOM_IOC_DEV_INFO, &info)) {
		printf("%s: DEV_INFO: %s\n", mode, strerror(errno));
		return 1;
	}
	if (!strcmp(mode, "info")) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		poll(&pfd, 1, 0);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("info: node %u logical %u contexts %u (open, DEV_INFO and poll took %ld ms)\n",
		       info.node_id, info.logical_id, info.n_contexts,
		       (long)((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000));
		return 0;
	}
	if (!strcmp(mode, "churn")) {
		signal(SIGBUS, on_sigbus);
		return churn(fd);
	}

	c.cmdq_entries = 16;
	c.cq_entries = 16;
	c.seg_size = getenv("HOLD_SEG_SIZE") ? strtoull(getenv("HOLD_SEG_SIZE"), NULL, 0) :
		     64 * 1024;
	if (ioctl(fd, LOOM_IOC_CTX_CREATE, &c)) {
		printf("%s: CTX_CREATE: %s\n", mode, strerror(errno));
		return 1;
	}
	if (getenv("HOLD_MR")) {
		struct loom_mr_reg r = { .argsz = sizeof(r), .ctx_index = c.index,
					 .access = LOOM_MR_ACCESS_ALL };
		void *mem;

		r.length = strtoull(getenv("HOLD_MR"), NULL, 0) * 1024;
		mem = mmap(NULL, r.length, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED) {
			printf("%s: mmap of %llu bytes: %s\n", mode,
			       (unsigned long long)r.length, strerror(errno));
			return 1;
		}
		r.addr = (uintptr_t)mem;
		if (ioctl(fd, LOOM_IOC_MR_REG, &r)) {
			printf("%s: MR_REG of %llu bytes: %s\n", mode,
			       (unsigned long long)r.length, strerror(errno));
			return 1;
		}
		printf("%s: region of %llu bytes, key %#x\n", mode,
		       (unsigned long long)r.length, r.lkey);
	}
	if (getenv("HOLD_NO_MAP") && !strcmp(mode, "ioctl"))
		goto mapped;
	seg = map(fd, c.seg_size, c.seg_token);
	cmdq = map(fd, 16 * 64, c.cmdq_token);
	cq = map(fd, 16 * 32, c.cq_token);
	if (!seg || !cmdq || !cq || !map(fd, 4096, c.doorbell_token) ||
	    ((c.out_flags & LOOM_CTX_OUT_KICK) && !map(fd, 4096, c.kick_token))) {
		printf("%s: mmap: %s\n", mode, strerror(errno));
		return 1;
	}
	if (!strcmp(mode, "hold"))
		return hold(fd, &c, seg, cmdq, cq);
mapped:
	printf("%s: ready (context %u)\n", mode, c.index);

	if (!strcmp(mode, "poll")) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int rc = poll(&pfd, 1, HOLD_SECONDS * 1000);

		if (rc <= 0) {
			printf("poll: %s\n", rc ? strerror(errno) : "timed out");
			return 2;
		}
		printf("poll:%s%s%s\n", pfd.revents & POLLERR ? " POLLERR" : "",
		       pfd.revents & POLLHUP ? " POLLHUP" : "",
		       pfd.revents & POLLIN ? " POLLIN" : "");
		return (pfd.revents & (POLLERR | POLLHUP)) == (POLLERR | POLLHUP) ? 0 : 1;
	}
	if (!strcmp(mode, "touch")) {
		signal(SIGBUS, on_sigbus);
		for (i = 0; i < HOLD_SECONDS * 100; i++) {
			seg[(unsigned int)i % c.seg_size] = (uint8_t)i;
			nap(10);
		}
		printf("touch: no SIGBUS\n");
		return 2;
	}
	for (i = 0; i < HOLD_SECONDS * 50; i++) {
		if (ioctl(fd, LOOM_IOC_DEV_INFO, &info)) {
			int err = errno;

			printf("ioctl: %s\n", err == EIO ? "EIO" : strerror(err));
			return err == EIO ? 0 : 1;
		}
		nap(20);
	}
	printf("ioctl: still working\n");
	return 2;
}
