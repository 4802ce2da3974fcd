// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side load of test_hostile.sh: every user interface of a loom
 * device busy at once, for a while, against a card that misbehaves.
 *
 *   hostile_load DEVICE SECONDS SEED
 *
 * Three threads, each looping until SECONDS have passed:
 *  - raw: open, DEV_INFO, CTX_CREATE (some with BSU units), mmap of every
 *    region, a NOP through the mapped ring and doorbell, poll(), a
 *    LOOM_IOC_BSU_WAIT, munmap, CTX_DESTROY (or close with contexts left);
 *  - libloom: contexts (some in io_uring completion mode), puts and NOPs to
 *    the context itself, loom_wait(), loom_quiet(), loom_counter_wait();
 *  - uring: LOOM_URING_WAIT_CQ/WAIT_BSU/WAIT_COUNTER with short timeouts,
 *    LOOM_URING_SUBMIT of NOPs, LOOM_URING_CANCEL, files closed with waits
 *    outstanding.
 * Any error is an expected answer of a card that misbehaves; a SIGBUS on
 * a mapping zapped after the card failed is caught.  What is not expected
 * is a call that does not return: every thread must finish within SECONDS
 * + 60, or the program prints "hang: THREAD" and exits 3.  It prints one
 * summary line per thread (calls, errors by errno) and exits 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>
#include <linux/loom.h>
#include <loom.h>
#include <loom_hw/regs.h>
#include <loom_hw/ring.h>

#define HANG_GRACE_S	60
#define N_ERRNO		140

struct worker {
	const char *name;
	void *(*fn)(void *);
	pthread_t tid;
	unsigned int seed;
	unsigned long calls;
	unsigned long errs[N_ERRNO];	/* by errno; [0] counts successes */
	unsigned long sigbus;
	atomic_bool done;
};

static const char *dev_path;
static double until;
static __thread sigjmp_buf bus_env;
static __thread volatile sig_atomic_t bus_armed;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned int rnd(struct worker *w, unsigned int n)
{
	return (unsigned int)rand_r(&w->seed) % n;
}

/* count one call's result: 0 or -errno */
static int note(struct worker *w, int r)
{
	unsigned int e = r < 0 ? (unsigned int)-r : 0;

	w->calls++;
	w->errs[e < N_ERRNO ? e : N_ERRNO - 1]++;
	return r;
}

static void on_sigbus(int sig)
{
	(void)sig;
	if (bus_armed)
		siglongjmp(bus_env, 1);
	signal(SIGBUS, SIG_DFL);
	raise(SIGBUS);
}

/* ---- raw ABI ------------------------------------------------------------ */

struct mapped {
	void *p;
	size_t len;
};

static void map_token(int fd, uint64_t token, size_t len, int prot, struct mapped *m)
{
	void *p;

	if (!token)
		return;
	p = mmap(NULL, len, prot, MAP_SHARED, fd, (off_t)token);
	if (p == MAP_FAILED)
		return;
	m->p = p;
	m->len = len;
}

/* Store into the mapped pages; false when a zapped mapping raised SIGBUS. */
static bool raw_touch(struct worker *w, const struct loom_ctx_create *c,
		      struct loom_cmd *cmdq, volatile uint32_t *db, volatile uint32_t *kick,
		      volatile uint32_t *bsu_page, unsigned char *seg)
{
	bool join = rnd(w, 4) == 0;

	bus_armed = 1;
	if (sigsetjmp(bus_env, 1)) {
		bus_armed = 0;
		return false;
	}
	if (seg)
		memset(seg, 0x5a, 256);
	if (cmdq && db) {
		memset(&cmdq[0], 0, sizeof(cmdq[0]));
		cmdq[0].opcode = LOOM_OP_NOP;
		cmdq[0].flags = LOOM_CMD_F_SIGNAL;
		__atomic_thread_fence(__ATOMIC_RELEASE);
		db[LOOM_DB_CMD_PI / 4] = 1;
		if (kick)
			kick[c->kick_offset / 4] = c->kick_value;
	}
	if (bsu_page && join)
		bsu_page[LOOM_BSUP_OP / 4] = LOOM_BSU_OP_BAR;
	bus_armed = 0;
	return true;
}

/* one context: map, NOP through the ring, poll, BSU wait, unmap */
static void raw_use(struct worker *w, int fd, const struct loom_ctx_create *c, uint32_t bsu)
{
	struct mapped m[8] = { { 0 } };
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	unsigned int i;

	map_token(fd, c->cmdq_token, (size_t)LOOM_CMD_SIZE * c->cmdq_entries,
		  PROT_READ | PROT_WRITE, &m[0]);
	map_token(fd, c->cq_token, (size_t)LOOM_CQE_SIZE * c->cq_entries, PROT_READ, &m[1]);
	map_token(fd, c->doorbell_token, 4096, PROT_READ | PROT_WRITE, &m[2]);
	map_token(fd, c->seg_token, c->seg_size, PROT_READ | PROT_WRITE, &m[3]);
	map_token(fd, c->counters_token, 4096, PROT_READ, &m[4]);
	if (bsu)
		map_token(fd, c->bsu_token, 4096, PROT_READ | PROT_WRITE, &m[5]);
	if (c->out_flags & LOOM_CTX_OUT_KICK)
		map_token(fd, c->kick_token, 4096, PROT_READ | PROT_WRITE, &m[6]);
	if (!raw_touch(w, c, m[0].p, m[2].p, m[6].p, m[5].p, m[3].p))
		w->sigbus++;
	note(w, poll(&pfd, 1, 5) < 0 ? -errno : 0);
	if (bsu) {
		struct loom_bsu_wait bw = {
			.argsz = sizeof(bw), .ctx_index = c->index,
			.unit = (uint32_t)__builtin_ctz(bsu),
			.cond = LOOM_BSU_COND_COMPLETIONS_NE, .value = 0,
		};
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		bw.deadline_ns = (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec + 2000000;
		note(w, ioctl(fd, LOOM_IOC_BSU_WAIT, &bw) ? -errno : 0);
	}
	/* now and then a mapping is left for close() to find */
	for (i = 0; i < 8; i++)
		if (m[i].p && rnd(w, 8))
			munmap(m[i].p, m[i].len);
}

static void *raw_thread(void *arg)
{
	struct worker *w = arg;

	while (now_s() < until) {
		struct loom_dev_info info = { .argsz = sizeof(info) };
		int fd = open(dev_path, O_RDWR), n, k;

		if (note(w, fd < 0 ? -errno : 0) < 0) {
			usleep(20000);
			continue;
		}
		note(w, ioctl(fd, LOOM_IOC_DEV_INFO, &info) ? -errno : 0);
		n = 1 + rnd(w, 3);
		for (k = 0; k < n; k++) {
			struct loom_ctx_create c = {
				.argsz = sizeof(c),
				.cmdq_entries = 16u << rnd(w, 4),
				.cq_entries = 16u << rnd(w, 6),
				.seg_size = 4096u << rnd(w, 4),
			};
			struct loom_ctx_destroy d = { .argsz = sizeof(d) };

			if (rnd(w, 3) == 0)
				c.bsu_mask = 1u << rnd(w, 8);
			if (note(w, ioctl(fd, LOOM_IOC_CTX_CREATE, &c) ? -errno : 0) < 0)
				continue;
			raw_use(w, fd, &c, c.bsu_mask);
			d.index = c.index;
			if (rnd(w, 4))
				note(w, ioctl(fd, LOOM_IOC_CTX_DESTROY, &d) ? -errno : 0);
		}
		close(fd);
	}
	atomic_store(&w->done, true);
	return NULL;
}

/* ---- libloom ------------------------------------------------------------ */

/* Puts and NOPs to the context itself, and waits; false on SIGBUS. */
static bool lib_round(struct worker *w, struct loom_ctx *ctx)
{
	struct loom_remote dst = { .node = loom_ctx_node(ctx), .ctx = loom_ctx_index(ctx) };
	struct loom_completion comp[16];
	int i;

	bus_armed = 1;
	if (sigsetjmp(bus_env, 1)) {
		bus_armed = 0;
		return false;
	}
	for (i = 0; i < 16; i++) {
		if (rnd(w, 2))
			note(w, loom_put(ctx, &dst, 4096 * (unsigned int)(i % 8), 0, 4096, 0,
					 (uint64_t)i));
		else
			note(w, loom_nop(ctx, (uint64_t)i));
	}
	for (i = 0; i < 4; i++) {
		int r = loom_wait(ctx, comp, 16, 10);

		note(w, r < 0 ? r : 0);
	}
	note(w, loom_quiet(ctx, 20));
	if (loom_ctx_counters(ctx))
		note(w, loom_counter_wait(ctx, rnd(w, loom_ctx_counters(ctx)), 1, 5));
	bus_armed = 0;
	return true;
}

static void *lib_thread(void *arg)
{
	struct worker *w = arg;

	while (now_s() < until) {
		struct loom_ctx_attr attr = { .segment_size = 65536, .cmdq_entries = 64,
					      .cq_entries = 256 };
		struct loom_dev *d;
		struct loom_ctx *ctx;

		if (note(w, loom_dev_open(dev_path, &d)) < 0) {
			usleep(20000);
			continue;
		}
		if (rnd(w, 2))
			attr.flags |= LOOM_CTX_ATTR_URING;
		if (note(w, loom_ctx_create(d, &attr, &ctx)) < 0) {
			loom_dev_close(d);
			usleep(5000);
			continue;
		}
		if (!lib_round(w, ctx)) {
			/* the card went away under the library: leave it be */
			w->sigbus++;
			break;
		}
		loom_ctx_destroy(ctx);
		loom_dev_close(d);
	}
	atomic_store(&w->done, true);
	return NULL;
}

/* ---- io_uring ----------------------------------------------------------- */

static struct io_uring_sqe *cmd_sqe(struct io_uring *ring, int fd, uint32_t op, uint64_t data)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

	if (!sqe)
		return NULL;
	memset(sqe, 0, 2 * sizeof(*sqe));
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	sqe->user_data = data;
	return sqe;
}

/* reap what comes within @ms; how many */
static int reap(struct worker *w, struct io_uring *ring, int ms)
{
	struct __kernel_timespec ts = { .tv_nsec = (long long)ms * 1000000 };
	struct io_uring_cqe *cqe;
	int n = 0;

	while (!io_uring_wait_cqe_timeout(ring, &cqe, &ts)) {
		note(w, cqe->res < 0 ? cqe->res : 0);
		io_uring_cqe_seen(ring, cqe);
		n++;
	}
	return n;
}

static void *uring_thread(void *arg)
{
	struct worker *w = arg;
	struct io_uring_params p = { .flags = IORING_SETUP_SQE128 };
	struct io_uring ring;
	uint64_t id = 0;
	int outstanding = 0;

	if (note(w, io_uring_queue_init_params(64, &ring, &p)) < 0) {
		atomic_store(&w->done, true);
		return NULL;
	}
	while (now_s() < until) {
		struct loom_ctx_create c = { .argsz = sizeof(c), .cmdq_entries = 64,
					     .cq_entries = 64, .seg_size = 4096 };
		int fd = open(dev_path, O_RDWR), k;

		if (note(w, fd < 0 ? -errno : 0) < 0) {
			usleep(20000);
			outstanding -= reap(w, &ring, 1);
			continue;
		}
		c.bsu_mask = 1u << (16 + rnd(w, 8));
		if (note(w, ioctl(fd, LOOM_IOC_CTX_CREATE, &c) ? -errno : 0) < 0) {
			close(fd);
			outstanding -= reap(w, &ring, 5);
			continue;
		}
		for (k = 0; k < 8; k++) {
			struct io_uring_sqe *sqe;
			uint32_t op;

			switch (rnd(w, 5)) {
			case 0: {
				struct loom_uring_wait q = { .ctx_index = c.index, .user_id = id % 4,
							     .timeout_ns = 1000000 * (1 + rnd(w, 20)) };

				op = LOOM_URING_WAIT_CQ;
				sqe = cmd_sqe(&ring, fd, op, ++id);
				if (sqe)
					memcpy(sqe->cmd, &q, sizeof(q));
				break;
			}
			case 1: {
				struct loom_uring_wait_bsu q = {
					.ctx_index = c.index, .user_id = id % 4,
					.timeout_ns = 1000000 * (1 + rnd(w, 20)),
					.unit = (uint32_t)__builtin_ctz(c.bsu_mask),
					.cond = LOOM_BSU_COND_STATE_NE, .value = LOOM_BSU_S_BAR,
				};

				op = LOOM_URING_WAIT_BSU;
				sqe = cmd_sqe(&ring, fd, op, ++id);
				if (sqe)
					memcpy(sqe->cmd, &q, sizeof(q));
				break;
			}
			case 2: {
				struct loom_uring_wait_counter q = {
					.ctx_index = c.index, .user_id = id % 4,
					.timeout_ns = 1000000 * (1 + rnd(w, 20)),
					.counter = rnd(w, 512), .value = 1,
				};

				op = LOOM_URING_WAIT_COUNTER;
				sqe = cmd_sqe(&ring, fd, op, ++id);
				if (sqe)
					memcpy(sqe->cmd, &q, sizeof(q));
				break;
			}
			case 3: {
				struct loom_uring_submit q = { .ctx_index = c.index };
				struct loom_cmd nop = { .opcode = LOOM_OP_NOP,
							.flags = LOOM_CMD_F_SIGNAL, .tag = id };

				memcpy(q.desc, &nop, sizeof(nop));
				op = LOOM_URING_SUBMIT;
				sqe = cmd_sqe(&ring, fd, op, ++id);
				if (sqe)
					memcpy(sqe->cmd, &q, sizeof(q));
				break;
			}
			default: {
				struct loom_uring_cancel q = { .user_id = rnd(w, 4) };

				op = LOOM_URING_CANCEL;
				sqe = cmd_sqe(&ring, fd, op, ++id);
				if (sqe)
					memcpy(sqe->cmd, &q, sizeof(q));
				break;
			}
			}
			if (sqe)
				outstanding++;
		}
		note(w, io_uring_submit(&ring) < 0 ? -EIO : 0);
		/* close with waits outstanding (they hold the file), or destroy first */
		if (rnd(w, 2)) {
			struct loom_ctx_destroy d = { .argsz = sizeof(d), .index = c.index };

			outstanding -= reap(w, &ring, 30);
			note(w, ioctl(fd, LOOM_IOC_CTX_DESTROY, &d) ? -errno : 0);
		}
		close(fd);
		outstanding -= reap(w, &ring, 30);
	}
	/* every command completes: the longest wait was 20 ms */
	while (outstanding > 0 && now_s() < until + HANG_GRACE_S / 2) {
		int n = reap(w, &ring, 100);

		outstanding -= n;
	}
	if (outstanding > 0)
		fprintf(stderr, "uring: %d commands never completed\n", outstanding);
	io_uring_queue_exit(&ring);
	atomic_store(&w->done, true);
	return NULL;
}

/* ---- main --------------------------------------------------------------- */

static struct worker workers[] = {
	{ .name = "raw", .fn = raw_thread },
	{ .name = "libloom", .fn = lib_thread },
	{ .name = "uring", .fn = uring_thread },
};

#define N_WORKERS (sizeof(workers) / sizeof(workers[0]))

static void summary(const struct worker *w)
{
	char line[1024];
	int n = snprintf(line, sizeof(line), "%s: %lu calls, %lu ok, %lu SIGBUS", w->name,
			 w->calls, w->errs[0], w->sigbus);

	for (unsigned int e = 1; e < N_ERRNO && n > 0 && (size_t)n < sizeof(line); e++)
		if (w->errs[e])
			n += snprintf(line + n, sizeof(line) - (size_t)n, ", %s %lu",
				      strerror((int)e), w->errs[e]);
	printf("%s\n", line);
}

int main(int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_sigbus };
	unsigned int seed;
	int hung = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: hostile_load DEVICE SECONDS SEED\n");
		return 2;
	}
	dev_path = argv[1];
	until = now_s() + atof(argv[2]);
	seed = (unsigned int)strtoul(argv[3], NULL, 0);
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGBUS, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	for (unsigned int i = 0; i < N_WORKERS; i++) {
		workers[i].seed = seed * 7919u + i;
		if (pthread_create(&workers[i].tid, NULL, workers[i].fn, &workers[i])) {
			fprintf(stderr, "hostile_load: cannot start thread %s\n", workers[i].name);
			return 1;
		}
	}
	while (now_s() < until + HANG_GRACE_S) {
		bool all = true;

		for (unsigned int i = 0; i < N_WORKERS; i++)
			all &= atomic_load(&workers[i].done);
		if (all)
			break;
		usleep(100000);
	}
	for (unsigned int i = 0; i < N_WORKERS; i++) {
		if (!atomic_load(&workers[i].done)) {
			printf("hang: %s did not finish within %d s of its end\n", workers[i].name,
			       HANG_GRACE_S);
			hung = 1;
			continue;
		}
		pthread_join(workers[i].tid, NULL);
		summary(&workers[i]);
	}
	fflush(stdout);
	if (hung)
		_exit(3);
	return 0;
}
