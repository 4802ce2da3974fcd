// SPDX-License-Identifier: GPL-2.0
/*
 * iface_fuzz: loom.ko's user interfaces hammered all at once (guest side
 * of test_iface_fuzz.sh and of 'make fuzz'; deliberately not named
 * test_*).  Run as root; it plays an unprivileged user too.
 *
 *   iface_fuzz -n CALLS -s SEED [-p PROCS] [-t THREADS] [-u UID -g GID]
 *              [-U MS] [-T SECONDS] [-o OPS] [-r RINGS] [-d DEVICE] [-N NL_FUZZ]
 *
 * -o and -r narrow a failure down: OPS are the letters of the kinds of
 * calls the workers make (c create, d destroy, i ioctl, m mmap, u
 * io_uring, t ring teardown, f fork, r close+reopen, x cross-file
 * checks, n netlink checks; default all of them), RINGS the kinds of
 * rings (p plain, s SQPOLL, d DEFER_TASKRUN; default all).
 *
 * PROCS worker processes (default 4) of THREADS threads (default 3) each;
 * with -u, every other process runs as UID with the supplementary group
 * GID (the group udev gives /dev/loomN to) and no capability.  Every
 * thread draws its operations from its own generator, seeded from SEED and
 * its place, so a run replays the same operations (their interleaving is
 * up to the scheduler):
 *
 * - ioctl: CTX_CREATE with mostly valid and sometimes wrong sizes, flags,
 *   indices and BSU masks, CTX_DESTROY of own and random indices,
 *   DEV_INFO, BSU_WAIT with short deadlines, random numbers and sizes;
 * - mmap: regions of own contexts by token (sometimes a mangled token,
 *   a wrong length or MAP_PRIVATE), a touch, a partial munmap (a split
 *   vma), munmap; SIGBUS after the card is unbound is expected;
 * - io_uring: each thread has a ring, plain, IORING_SETUP_SQPOLL or
 *   IORING_SETUP_DEFER_TASKRUN; batches of WAIT_CQ, WAIT_BSU,
 *   WAIT_COUNTER, CANCEL, SUBMIT and garbage commands, issued inline,
 *   with IOSQE_ASYNC, and linked; the ring is sometimes torn down with
 *   commands outstanding, two waits with a 10 s timeout among them
 *   (the module ends those within 100 ms); every completion is matched
 *   to its submission:
 *   one seen twice, or for nothing submitted, is a violation;
 * - fork (the child works on the inherited files and exits), close() and
 *   reopen of a file other threads are using;
 * - as the unprivileged user: mmap of another process's tokens and waits
 *   on another process's context indices must fail, privileged netlink
 *   commands and the "maint" multicast group must answer EPERM.  The
 *   mmap and the waits go through a file of this process that never
 *   holds a context (card indices are reused at once, and a file keeps
 *   its contexts while a command on it is outstanding, even after
 *   close(): through a file with contexts, an index another process
 *   published may well be this file's own by now).
 *
 * Meanwhile the parent SIGKILLs a random worker now and then (teardown
 * with commands pending) and starts a new one, runs NL_FUZZ (the
 * generic netlink fuzzer, default: nl_fuzz beside this program) in
 * batches, as root and as UID, and with -U unbinds and rebinds the device
 * every MS milliseconds.  Once CALLS calls are made, the workers drain:
 * they cancel what they have outstanding and reap it; a submission never
 * completed is a lost completion.  A worker that does not exit within 60 s
 * is killed; one that cannot be killed is reported with its state.
 *
 * Prints what it did and "iface_fuzz: N calls in T s, seed S, V
 * violations, L lost completions, K unkillable, W workers killed"; exits
 * 0 when the three counts are 0 and the CALLS were made within SECONDS
 * (default 900; then it stops anyway).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include <linux/loom.h>
#include <linux/loom_netlink.h>
#include <loom_hw/regs.h>
#include <loom_hw/ring.h>

#include "../proc_state.h"

#define MAX_PROCS	16
#define MAX_THREADS	8
#define SLOTS		2	/* open files per process */
#define SLOT_CTXS	3	/* contexts remembered per file */
#define PUBLISHED	64	/* tokens and indices shown to other workers */
#define UD_SLOTS	256	/* outstanding io_uring commands per thread */
#define RING_ENTRIES	64
#define MAX_MSGS	16
#define MAX_ERRNO	134
#define PAGE		4096

enum op {
	OP_IOCTL, OP_CREATE, OP_DESTROY, OP_MMAP, OP_URING, OP_FORK, OP_REOPEN,
	OP_CROSS, OP_NETLINK, OP_TEARDOWN, OP_KILL, OP_UNBIND, OP_COUNT
};

static const char *const op_name[OP_COUNT] = {
	"ioctl", "ctx create", "ctx destroy", "mmap", "io_uring sqe", "fork",
	"close+reopen", "cross-file check", "netlink", "ring teardown",
	"worker killed", "unbind+bind",
};

/* Shared by every process (MAP_SHARED before the first fork). */
struct shared {
	atomic_long calls;
	long target;
	atomic_int stop;
	atomic_long violations;
	atomic_long lost;
	atomic_long ops[OP_COUNT];
	atomic_long failed[OP_COUNT];
	atomic_long err[OP_COUNT][MAX_ERRNO];
	struct {
		atomic_ullong token;	/* a token of some worker's context */
		atomic_int index;	/* a card index some worker's file holds */
		atomic_int pid;
	} pub[PUBLISHED];
	atomic_int n_msgs;
	char msg[MAX_MSGS][320];
};

static struct shared *sh;
static const char *dev_path = "/dev/loom0";
static unsigned long seed = 1;
static int n_procs = 4, n_threads = 3;
static uid_t fuzz_uid;
static gid_t fuzz_gid;
static int unbind_ms;
static int max_seconds = 900;
static const char *ops = "cdimutfrxn";
static const char *rings = "psd";

static int op_on(char letter)
{
	return strchr(ops, letter) != NULL;
}

/* the @n-th ring kind allowed by -r, cycling */
static int ring_pick(unsigned int n)
{
	static const char letters[] = "psd";
	int allowed[3], k = 0;

	for (int i = 0; i < 3; i++)
		if (strchr(rings, letters[i]))
			allowed[k++] = i;
	return k ? allowed[n % (unsigned int)k] : 0;
}
static char nl_fuzz_path[512];

/* ---- bookkeeping -------------------------------------------------------- */

static void count(enum op op, long n)
{
	atomic_fetch_add(&sh->ops[op], n);
	atomic_fetch_add(&sh->calls, n);
}

static void violation(const char *fmt, ...)
{
	int i = atomic_fetch_add(&sh->n_msgs, 1);
	va_list ap;

	atomic_fetch_add(&sh->violations, 1);
	if (i >= MAX_MSGS)
		return;
	va_start(ap, fmt);
	vsnprintf(sh->msg[i], sizeof(sh->msg[i]), fmt, ap);
	va_end(ap);
}

static void refused(enum op op, int err)
{
	atomic_fetch_add(&sh->failed[op], 1);
	atomic_fetch_add(&sh->err[op][err > 0 && err < MAX_ERRNO ? err : 0], 1);
}

static int done(void)
{
	return atomic_load(&sh->stop) || atomic_load(&sh->calls) >= sh->target;
}

struct rng {
	uint64_t s;
};

static uint32_t rnd(struct rng *r)
{
	/* xorshift64*: reproducible from the seed */
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return (uint32_t)((r->s * 0x2545f4914f6cdd1dull) >> 32);
}

static uint32_t below(struct rng *r, uint32_t n)
{
	return n ? rnd(r) % n : 0;
}

static void nap_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- a worker process's files and contexts ------------------------------- */

struct ctx_rec {
	uint32_t index;		/* UINT32_MAX: none */
	uint64_t seg_size;
	uint64_t token[8];	/* by enum of the ABI: cmdq cq db seg kick cnt bsu */
};

struct slot {
	atomic_int fd;
	pthread_mutex_t lock;	/* ctx[] */
	struct ctx_rec ctx[SLOT_CTXS];
};

static struct slot slots[SLOTS];
static int unprivileged;
/* cross-file checks: a file of this process that never holds a context */
static atomic_int probe_fd = -1;
static atomic_int probe_stale;
static pthread_mutex_t probe_lock = PTHREAD_MUTEX_INITIALIZER;

static int slot_fd(struct rng *r, int *which)
{
	*which = (int)below(r, SLOTS);
	return atomic_load(&slots[*which].fd);
}

/*
 * A new probe file after the card was unbound (the old one answers EIO
 * for good); dup2() replaces it under the same number, so no thread ever
 * uses that number for a file with contexts.
 */
static void probe_reopen(void)
{
	int fd = open(dev_path, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		return;
	pthread_mutex_lock(&probe_lock);
	if (atomic_load(&probe_fd) < 0)
		atomic_store(&probe_fd, fd);
	else if (dup2(fd, atomic_load(&probe_fd)) >= 0)
		close(fd);
	pthread_mutex_unlock(&probe_lock);
}

static void publish(struct rng *r, const struct ctx_rec *c)
{
	int i = (int)below(r, PUBLISHED);

	atomic_store(&sh->pub[i].token, c->token[below(r, 4)]);
	atomic_store(&sh->pub[i].index, (int)c->index);
	atomic_store(&sh->pub[i].pid, (int)getpid());
}

static void reopen(int s)
{
	int fd = atomic_exchange(&slots[s].fd, -1), c;

	pthread_mutex_lock(&slots[s].lock);
	for (c = 0; c < SLOT_CTXS; c++)
		slots[s].ctx[c].index = UINT32_MAX;
	pthread_mutex_unlock(&slots[s].lock);
	if (fd >= 0)
		close(fd);
	atomic_store(&slots[s].fd, open(dev_path, O_RDWR | O_CLOEXEC));
}

/* ---- ioctl ---------------------------------------------------------------- */

static void op_create(struct rng *r)
{
	static const uint32_t entries[] = { 16, 16, 32, 64, 0, 15, 1u << 20 };
	static const uint64_t segs[] = { 4096, 8192, 65536, 4096, 0, 4095, 1ull << 30 };
	struct loom_ctx_create c = { .argsz = sizeof(c) };
	struct ctx_rec rec;
	int s, fd = slot_fd(r, &s), k;

	c.cmdq_entries = entries[below(r, 7)];
	c.cq_entries = entries[below(r, 4)];
	c.seg_size = segs[below(r, 7)];
	c.key = below(r, 8) ? 0x5eed : rnd(r);
	if (!below(r, 4))
		c.bsu_mask = 1u << below(r, 32);
	if (!below(r, 8)) {
		c.flags = LOOM_CTX_F_INDEX;
		c.index = below(r, 80);
	}
	if (!below(r, 32))
		c.flags |= rnd(r);
	if (!below(r, 32))
		c.argsz = below(r, 2 * sizeof(c));
	count(OP_CREATE, 1);
	if (ioctl(fd, LOOM_IOC_CTX_CREATE, &c)) {
		refused(OP_CREATE, errno);
		return;
	}
	if (unprivileged && c.key != 0x5eed)
		violation("uid %u created a context with key %#x it was not granted",
			  (unsigned int)getuid(), c.key);
	rec.index = c.index;
	rec.seg_size = c.seg_size;
	memset(rec.token, 0, sizeof(rec.token));
	rec.token[0] = c.cmdq_token;
	rec.token[1] = c.cq_token;
	rec.token[2] = c.doorbell_token;
	rec.token[3] = c.seg_token;
	rec.token[4] = c.kick_token;
	rec.token[5] = c.counters_token;
	rec.token[6] = c.bsu_token;
	pthread_mutex_lock(&slots[s].lock);
	k = (int)below(r, SLOT_CTXS);
	slots[s].ctx[k] = rec;
	pthread_mutex_unlock(&slots[s].lock);
	publish(r, &rec);
}

static void op_destroy(struct rng *r)
{
	struct loom_ctx_destroy d = { .argsz = sizeof(d) };
	int s, fd = slot_fd(r, &s), k = (int)below(r, SLOT_CTXS);

	pthread_mutex_lock(&slots[s].lock);
	d.index = below(r, 8) ? slots[s].ctx[k].index : below(r, 80);
	pthread_mutex_unlock(&slots[s].lock);
	count(OP_DESTROY, 1);
	if (ioctl(fd, LOOM_IOC_CTX_DESTROY, &d))
		refused(OP_DESTROY, errno);
}

static void op_ioctl(struct rng *r)
{
	union {
		struct loom_dev_info info;
		struct loom_bsu_wait bw;
		struct loom_mr_reg mr;
		struct loom_mr_dereg md;
		uint8_t raw[512];
	} u;
	static uint8_t mr_buf[3 * 4096];
	int s, fd = slot_fd(r, &s);
	unsigned long cmd;

	memset(&u, 0, sizeof(u));
	switch (below(r, 6)) {
	case 0:
		u.info.argsz = sizeof(u.info);
		cmd = LOOM_IOC_DEV_INFO;
		break;
	case 1: {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		u.bw.argsz = sizeof(u.bw);
		u.bw.ctx_index = below(r, 70);
		u.bw.unit = below(r, 40);
		u.bw.cond = below(r, 5);
		u.bw.value = below(r, 3);
		u.bw.deadline_ns = (uint64_t)ts.tv_sec * 1000000000ull +
				   (uint64_t)ts.tv_nsec + below(r, 20000000);
		cmd = LOOM_IOC_BSU_WAIT;
		break;
	}
	case 2:
		/* a region of this process's memory, or of any address */
		u.mr.argsz = sizeof(u.mr);
		u.mr.ctx_index = below(r, 70);
		u.mr.access = below(r, 4) ? (uint32_t)below(r, 16) : (uint32_t)rnd(r);
		u.mr.addr = below(r, 4) ? (uintptr_t)mr_buf + below(r, 4096) : rnd(r);
		u.mr.length = below(r, 4) ? 1 + below(r, 8192) : rnd(r);
		cmd = LOOM_IOC_MR_REG;
		break;
	case 3:
		u.md.argsz = sizeof(u.md);
		u.md.ctx_index = below(r, 70);
		u.md.lkey = below(r, 2) ? (uint32_t)below(r, 1024) : (uint32_t)rnd(r);
		cmd = LOOM_IOC_MR_DEREG;
		break;
	default:
		for (size_t i = 0; i < sizeof(u.raw); i++)
			u.raw[i] = below(r, 4) ? 0 : (uint8_t)rnd(r);
		*(uint32_t *)(void *)u.raw = below(r, 600);
		cmd = _IOC(below(r, 4), below(r, 4) ? LOOM_IOC_MAGIC : below(r, 256),
			   below(r, 8), below(r, 512));
		break;
	}
	count(OP_IOCTL, 1);
	if (ioctl(fd, cmd, below(r, 16) ? (void *)&u : (void *)(uintptr_t)rnd(r)))
		refused(OP_IOCTL, errno);
}

/* ---- mmap ----------------------------------------------------------------- */

static __thread sigjmp_buf bus_jmp;
static __thread volatile int bus_armed;

static void on_sigbus(int sig)
{
	(void)sig;
	if (bus_armed)
		siglongjmp(bus_jmp, 1);
	_exit(3);
}

/* Touch @p (read, and write when @w); 1 when a SIGBUS was raised. */
static int touch(volatile uint8_t *p, int w)
{
	if (sigsetjmp(bus_jmp, 1)) {
		bus_armed = 0;
		return 1;
	}
	bus_armed = 1;
	if (w)
		p[0] = p[0];
	else
		(void)p[0];
	bus_armed = 0;
	return 0;
}

static void op_mmap(struct rng *r)
{
	int s, fd = slot_fd(r, &s), region = (int)below(r, 7), prot, flags;
	uint64_t token;
	size_t len;
	uint8_t *p;

	pthread_mutex_lock(&slots[s].lock);
	token = slots[s].ctx[below(r, SLOT_CTXS)].token[region];
	pthread_mutex_unlock(&slots[s].lock);
	if (!below(r, 10))
		token ^= 1ull << below(r, 48);
	len = PAGE * (1 + below(r, 3));
	if (!below(r, 10))
		len = below(r, 1 << 20);
	prot = PROT_READ | (region == 5 ? 0 : PROT_WRITE);
	if (!below(r, 10))
		prot = PROT_READ | PROT_WRITE;
	flags = below(r, 10) ? MAP_SHARED : MAP_PRIVATE;
	count(OP_MMAP, 1);
	p = mmap(NULL, len, prot, flags, fd, (off_t)token);
	if (p == MAP_FAILED) {
		refused(OP_MMAP, errno);
		return;
	}
	/* the card's doorbell and kick pages take writes of the real kind only */
	if (region < 2 || region == 3)
		touch(p, prot & PROT_WRITE);
	else
		touch(p, 0);
	count(OP_MMAP, 1);
	if (len >= 2 * PAGE && below(r, 2))
		munmap(p + PAGE, PAGE);	/* splits the vma */
	munmap(p, len);
}

/* ---- io_uring --------------------------------------------------------------- */

struct ud_state {
	uint32_t gen;		/* what the next submission in this slot carries */
	uint8_t busy;		/* submitted, not completed */
	uint8_t cross;		/* a wait on another file's context index */
	uint8_t sqe_flags;	/* IOSQE_* it was submitted with */
	uint32_t index;		/* that index */
	uint32_t cmd_op;	/* what it was */
	uint8_t pos, len;
	double when;		/* when it was submitted */
};

struct uring {
	struct io_uring ring;
	int kind;		/* 0 plain, 1 SQPOLL, 2 DEFER_TASKRUN */
	int up;
	struct ud_state ud[UD_SLOTS];
	int outstanding;
};

static const char *const ring_kind[] = { "plain", "SQPOLL", "DEFER_TASKRUN" };

static int uring_open(struct uring *u, int kind)
{
	/* room for every command one thread may have outstanding */
	struct io_uring_params p = { .flags = IORING_SETUP_SQE128 | IORING_SETUP_CQSIZE,
				     .cq_entries = 4 * UD_SLOTS };

	if (kind == 1) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 200;
	} else if (kind == 2) {
		p.flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	}
	u->kind = kind;
	u->outstanding = 0;
	for (int i = 0; i < UD_SLOTS; i++) {
		u->ud[i].busy = 0;
		/* user_data 0 marks what is not tracked (NOPs, the drain's cancels) */
		if (!u->ud[i].gen)
			u->ud[i].gen = 1;
	}
	u->up = !io_uring_queue_init_params(RING_ENTRIES, &u->ring, &p);
	return u->up ? 0 : -1;
}

static void uring_handle(struct uring *u, uint64_t data, int res)
{
	uint32_t slot = (uint32_t)(data & 0xffff), gen = (uint32_t)(data >> 16);
	struct ud_state *st;

	if (data == 0)		/* a NOP in front of a linked command */
		return;
	if (slot >= UD_SLOTS || !u->ud[slot].busy || u->ud[slot].gen != gen) {
		violation("a completion (user_data %#llx, res %d) for nothing outstanding: completed twice?",
			  (unsigned long long)data, res);
		return;
	}
	st = &u->ud[slot];
	st->busy = 0;
	st->gen = st->gen + 1 ? st->gen + 1 : 1;
	u->outstanding--;
	/* through the probe file, which has no context at all */
	if (st->cross && res != -EINVAL && res != -EIO && res != -EBADF)
		violation("a wait on card index %u of another process's file answered %d, not EINVAL",
			  st->index, res);
	if (st->cross && res == -EIO)
		atomic_store(&probe_stale, 1);
}

/* Reap what is there; with @wait_s > 0 wait that long for the first one. */
static void uring_reap(struct uring *u, double wait_s)
{
	struct __kernel_timespec ts = {
		.tv_sec = (long long)wait_s,
		.tv_nsec = (long long)((wait_s - (double)(long long)wait_s) * 1e9),
	};
	struct io_uring_cqe *cqe;

	if (!u->up)
		return;
	/*
	 * On a DEFER_TASKRUN ring, io_uring posts what drivers complete
	 * through task work (io_uring_cmd_complete_in_task()) and issues the
	 * next request of a link only when the submitter enters the kernel
	 * with IORING_ENTER_GETEVENTS; io_uring_wait_cqe_timeout() does not
	 * enter while a completion is already there, and peeking never does:
	 * enter here, so that what is done is posted.
	 */
	if (u->kind == 2)
		io_uring_get_events(&u->ring);
	/*
	 * The wait runs the task work that posts the completions; it fails
	 * (-EBUSY) while the completion ring is full: empty it anyway.
	 */
	io_uring_wait_cqe_timeout(&u->ring, &cqe, &ts);
	while (!io_uring_peek_cqe(&u->ring, &cqe)) {
		uring_handle(u, cqe->user_data, cqe->res);
		io_uring_cqe_seen(&u->ring, cqe);
	}
}

static struct io_uring_sqe *uring_sqe(struct uring *u, struct rng *r, int fd, uint64_t *data,
				      int *slot_out)
{
	struct io_uring_sqe *sqe;
	int slot = -1;

	for (int i = 0; i < UD_SLOTS; i++) {
		int t = (int)((below(r, UD_SLOTS) + (uint32_t)i) % UD_SLOTS);

		if (!u->ud[t].busy) {
			slot = t;
			break;
		}
	}
	if (slot < 0 || io_uring_sq_space_left(&u->ring) < 2)
		return NULL;
	sqe = io_uring_get_sqe(&u->ring);
	if (!sqe)
		return NULL;
	memset(sqe, 0, 128);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	*data = (uint64_t)u->ud[slot].gen << 16 | (uint64_t)slot;
	sqe->user_data = *data;
	u->ud[slot].busy = 1;
	u->ud[slot].cross = 0;
	u->outstanding++;
	*slot_out = slot;
	return sqe;
}

/* One random loom command into @sqe. */
static void fill_cmd(struct rng *r, struct io_uring_sqe *sqe, uint32_t index)
{
	uint64_t timeout = below(r, 4) ? below(r, 300000000) : below(r, 2000000000);

	switch (below(r, 7)) {
	case 0: {
		struct loom_uring_wait_bsu *w = (void *)sqe->cmd;

		sqe->cmd_op = LOOM_URING_WAIT_BSU;
		w->ctx_index = index;
		w->timeout_ns = timeout;
		w->user_id = below(r, 8);
		w->unit = below(r, 34);
		w->cond = below(r, 5);
		break;
	}
	case 1: {
		struct loom_uring_wait_counter *w = (void *)sqe->cmd;

		sqe->cmd_op = LOOM_URING_WAIT_COUNTER;
		w->ctx_index = index;
		w->timeout_ns = timeout;
		w->user_id = below(r, 8);
		w->counter = below(r, 520);
		w->value = below(r, 3);
		break;
	}
	case 2: {
		struct loom_uring_cancel *c = (void *)sqe->cmd;

		sqe->cmd_op = LOOM_URING_CANCEL;
		c->user_id = below(r, 8);
		break;
	}
	case 3: {
		struct loom_uring_submit *s = (void *)sqe->cmd;
		struct loom_cmd d = { .opcode = (uint8_t)below(r, 10), .tag = rnd(r) };

		if (below(r, 2))
			d.opcode = LOOM_OP_NOP;
		d.length = below(r, 3) ? 64 : rnd(r);
		d.local_off = below(r, 3) ? 0 : rnd(r);
		d.remote_off = below(r, 8);
		d.flags = below(r, 4) ? LOOM_CMD_F_SIGNAL : (uint8_t)rnd(r);
		sqe->cmd_op = LOOM_URING_SUBMIT;
		s->ctx_index = index;
		memcpy(s->desc, &d, sizeof(d));
		break;
	}
	case 4:
		sqe->cmd_op = below(r, 2) ? rnd(r) : LOOM_URING_WAIT_CQ + below(r, 8);
		for (int i = 0; i < 80; i++)
			sqe->cmd[i] = below(r, 3) ? 0 : (uint8_t)rnd(r);
		/* a wait it makes ends within 2 s, and a drain can cancel it */
		memcpy(sqe->cmd + 8, &timeout, 8);
		sqe->cmd[16] &= 7;
		memset(sqe->cmd + 17, 0, 7);
		break;
	default: {
		struct loom_uring_wait *w = (void *)sqe->cmd;

		sqe->cmd_op = LOOM_URING_WAIT_CQ;
		w->ctx_index = index;
		w->timeout_ns = timeout;
		w->user_id = below(r, 8);
		if (!below(r, 32))
			w->flags = rnd(r);
		break;
	}
	}
}

static void op_uring(struct rng *r, struct uring *u)
{
	int s, fd = slot_fd(r, &s), n = 1 + (int)below(r, 4), i, slot;
	struct io_uring_sqe *sqe;
	uint64_t data;
	uint32_t index;

	if (!u->up)
		return;
	for (i = 0; i < n; i++) {
		int way = (int)below(r, 4);

		pthread_mutex_lock(&slots[s].lock);
		index = slots[s].ctx[below(r, SLOT_CTXS)].index;
		pthread_mutex_unlock(&slots[s].lock);
		if (!below(r, 8))
			index = below(r, 70);
		if (way == 3 && io_uring_sq_space_left(&u->ring) >= 3) {
			/* linked behind an io-wq NOP */
			sqe = io_uring_get_sqe(&u->ring);
			io_uring_prep_nop(sqe);
			sqe->flags = IOSQE_ASYNC | IOSQE_IO_LINK;
			sqe->user_data = 0;
		}
		sqe = uring_sqe(u, r, fd, &data, &slot);
		if (!sqe)
			break;
		fill_cmd(r, sqe, index);
		if (way == 1)
			sqe->flags |= IOSQE_ASYNC;
		if (way == 2 && i + 1 < n)
			sqe->flags |= IOSQE_IO_LINK;
		u->ud[slot].cmd_op = sqe->cmd_op;
		u->ud[slot].pos = (uint8_t)i;
		u->ud[slot].len = (uint8_t)n;
		u->ud[slot].sqe_flags = sqe->flags;
		u->ud[slot].index = index;
		u->ud[slot].when = now_s();
		count(OP_URING, 1);
	}
	io_uring_submit(&u->ring);
	uring_reap(u, below(r, 4) ? 0 : 0.05);
}

/*
 * Before a ring is torn down: two waits that nothing will meet soon (a
 * counter reaching 2^64 - 1, a CQ entry) with a long timeout, untracked
 * (user_data 0), with a user_id no LOOM_URING_CANCEL of the fuzz selects.
 * The module must end them within 100 ms of the teardown; one that
 * lingers shows in its debugfs uring file for up to TEARDOWN_WAIT_NS (or
 * until its process exits or the card is unbound), which ring_watch.sh
 * reports.
 */
#define TEARDOWN_WAIT_NS	10000000000ull
#define TEARDOWN_WAIT_USER_ID	0x7eadull

static void uring_hold_for_teardown(struct rng *r, struct uring *u)
{
	uint64_t timeout = TEARDOWN_WAIT_NS;
	struct io_uring_sqe *sqe;
	uint32_t index;
	int s, fd = slot_fd(r, &s);

	if (io_uring_sq_space_left(&u->ring) < 2)
		return;
	pthread_mutex_lock(&slots[s].lock);
	index = slots[s].ctx[below(r, SLOT_CTXS)].index;
	pthread_mutex_unlock(&slots[s].lock);
	for (int i = 0; i < 2; i++) {
		sqe = io_uring_get_sqe(&u->ring);
		if (!sqe)
			break;
		memset(sqe, 0, 128);
		sqe->opcode = IORING_OP_URING_CMD;
		sqe->fd = fd;
		sqe->user_data = 0;
		if (i == 0) {
			struct loom_uring_wait_counter *w = (void *)sqe->cmd;

			sqe->cmd_op = LOOM_URING_WAIT_COUNTER;
			w->ctx_index = index;
			w->timeout_ns = timeout;
			w->user_id = TEARDOWN_WAIT_USER_ID;
			w->value = UINT64_MAX;
		} else {
			struct loom_uring_wait *w = (void *)sqe->cmd;

			sqe->cmd_op = LOOM_URING_WAIT_CQ;
			w->ctx_index = index;
			w->timeout_ns = timeout;
			w->user_id = TEARDOWN_WAIT_USER_ID;
		}
	}
	io_uring_submit(&u->ring);
}

/*
 * Cancel everything outstanding and reap it: what never comes is lost.
 * Waits on a file closed meanwhile cannot be cancelled: they end at their
 * timeout (at most 2 s).
 */
static void uring_drain(struct uring *u)
{
	double t0 = now_s();

	if (!u->up)
		return;
	while (u->outstanding && now_s() - t0 < 10) {
		for (uint64_t id = 0; id < 8 * SLOTS; id++) {
			struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

			if (!sqe)
				break;
			memset(sqe, 0, 128);
			sqe->opcode = IORING_OP_URING_CMD;
			sqe->fd = atomic_load(&slots[id / 8].fd);
			sqe->cmd_op = LOOM_URING_CANCEL;
			((struct loom_uring_cancel *)(void *)sqe->cmd)->user_id = id % 8;
			sqe->user_data = 0;
		}
		io_uring_submit(&u->ring);
		uring_reap(u, 0.2);
		nap_ms(50);
	}
	if (u->outstanding) {
		for (int i = 0; i < UD_SLOTS; i++) {
			struct ud_state *st = &u->ud[i];

			if (st->busy)
				violation("pid %d, %s ring: command %#x (IOSQE flags %#x, card index %u, %d of a batch of %d) submitted %.1f s ago never completed",
					  (int)getpid(), ring_kind[u->kind], st->cmd_op, st->sqe_flags,
					  st->index, st->pos + 1, st->len, now_s() - st->when);
		}
		atomic_fetch_add(&sh->lost, u->outstanding);
	}
	io_uring_queue_exit(&u->ring);
	u->up = 0;
}

/* ---- netlink (unprivileged checks) ---------------------------------------- */

static int nl_request(int sk, uint16_t family, uint8_t cmd, const void *attrs, size_t alen)
{
	char buf[8192];
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
		char a[256];
	} m;
	ssize_t n;

	memset(&m, 0, sizeof(m));
	m.h.nlmsg_len = (uint32_t)(NLMSG_LENGTH(GENL_HDRLEN) + alen);
	m.h.nlmsg_type = family;
	m.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	m.h.nlmsg_seq = 1;
	m.g.cmd = cmd;
	m.g.version = LOOM_GENL_VERSION;
	memcpy(m.a, attrs, alen);
	if (send(sk, &m, m.h.nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		n = recv(sk, buf, sizeof(buf), 0);
		if (n < 0)
			return -errno;
		for (struct nlmsghdr *h = (void *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n))
			if (h->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(h))->error;
	}
}

static size_t nl_attr(char *p, uint16_t type, const void *data, uint16_t len)
{
	struct nlattr *a = (struct nlattr *)(void *)p;

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	memcpy(p + NLA_HDRLEN, data, len);
	return NLA_ALIGN(a->nla_len);
}

/* walking attributes: the uapi headers have no NLA_OK/NLA_NEXT */
static int attr_ok(const struct nlattr *a, int len)
{
	return len >= (int)sizeof(*a) && a->nla_len >= sizeof(*a) && a->nla_len <= len;
}

static struct nlattr *attr_next(const struct nlattr *a, int *len)
{
	*len -= NLA_ALIGN(a->nla_len);
	return (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len));
}

/* The loom family's id and its "maint" group, through nlctrl. */
static int nl_resolve(int sk, uint16_t *family, uint32_t *maint_grp)
{
	char attrs[64], buf[8192];
	struct {
		struct nlmsghdr h;
		struct genlmsghdr g;
		char a[64];
	} m;
	size_t alen = nl_attr(attrs, CTRL_ATTR_FAMILY_NAME, LOOM_GENL_NAME,
			      sizeof(LOOM_GENL_NAME));
	ssize_t n;

	memset(&m, 0, sizeof(m));
	m.h.nlmsg_len = (uint32_t)(NLMSG_LENGTH(GENL_HDRLEN) + alen);
	m.h.nlmsg_type = GENL_ID_CTRL;
	m.h.nlmsg_flags = NLM_F_REQUEST;
	m.g.cmd = CTRL_CMD_GETFAMILY;
	m.g.version = 1;
	memcpy(m.a, attrs, alen);
	*family = 0;
	*maint_grp = 0;
	if (send(sk, &m, m.h.nlmsg_len, 0) < 0)
		return -errno;
	n = recv(sk, buf, sizeof(buf), 0);
	if (n < 0)
		return -errno;
	for (struct nlmsghdr *h = (void *)buf; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
		struct nlattr *a;
		int len;

		if (h->nlmsg_type != GENL_ID_CTRL)
			continue;
		a = (struct nlattr *)((char *)NLMSG_DATA(h) + GENL_HDRLEN);
		len = (int)h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);
		for (; attr_ok(a, len); a = attr_next(a, &len)) {
			if (a->nla_type == CTRL_ATTR_FAMILY_ID)
				memcpy(family, (char *)a + NLA_HDRLEN, 2);
			if ((a->nla_type & NLA_TYPE_MASK) != CTRL_ATTR_MCAST_GROUPS)
				continue;
			struct nlattr *g = (struct nlattr *)((char *)a + NLA_HDRLEN);
			int glen = a->nla_len - NLA_HDRLEN;

			for (; attr_ok(g, glen); g = attr_next(g, &glen)) {
				struct nlattr *f = (struct nlattr *)((char *)g + NLA_HDRLEN);
				int flen = g->nla_len - NLA_HDRLEN, is_maint = 0;
				uint32_t id = 0;

				for (; attr_ok(f, flen); f = attr_next(f, &flen)) {
					if (f->nla_type == CTRL_ATTR_MCAST_GRP_NAME)
						is_maint = !strcmp((char *)f + NLA_HDRLEN,
								   LOOM_GENL_MCGRP_MAINT);
					if (f->nla_type == CTRL_ATTR_MCAST_GRP_ID)
						memcpy(&id, (char *)f + NLA_HDRLEN, 4);
				}
				if (is_maint)
					*maint_grp = id;
			}
		}
	}
	return *family ? 0 : -ENOENT;
}

/* As the unprivileged user: every privileged request and join is refused. */
static void op_netlink_unprivileged(struct rng *r)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	struct timeval tv = { .tv_sec = 30 };
	char attrs[128], nest[64];
	uint32_t dev = 0, grp, v;
	uint16_t family;
	size_t alen, nlen;
	uint8_t op = 1;
	int sk, err;

	sk = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (sk < 0)
		return;
	setsockopt(sk, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(sk, (struct sockaddr *)&sa, sizeof(sa)) || nl_resolve(sk, &family, &grp)) {
		close(sk);
		return;
	}
	count(OP_NETLINK, 2);
	alen = nl_attr(attrs, LOOM_ATTR_DEV_INDEX, &dev, 4);
	switch (below(r, 3)) {
	case 0:
		nlen = nl_attr(nest, LOOM_ATTR_MAINT_OP, &op, 1);
		nlen += nl_attr(nest + nlen, LOOM_ATTR_MAINT_ROUTE, "", 0);
		v = LOOM_ROUTER_NODE_ID;
		nlen += nl_attr(nest + nlen, LOOM_ATTR_MAINT_ADDR, &v, 4);
		alen += nl_attr(attrs + alen, LOOM_ATTR_MAINT | NLA_F_NESTED, nest, (uint16_t)nlen);
		err = nl_request(sk, family, LOOM_CMD_MAINT, attrs, alen);
		break;
	case 1:
		v = 0x5eed;
		nlen = nl_attr(nest, LOOM_ATTR_KEY_VALUE, &v, 4);
		v = (uint32_t)getuid();
		nlen += nl_attr(nest + nlen, LOOM_ATTR_KEY_UID, &v, 4);
		alen += nl_attr(attrs + alen, LOOM_ATTR_KEY | NLA_F_NESTED, nest, (uint16_t)nlen);
		err = nl_request(sk, family, below(r, 2) ? LOOM_CMD_KEY_GRANT :
				 LOOM_CMD_KEY_REVOKE, attrs, alen);
		break;
	default:
		v = below(r, 4);
		nlen = nl_attr(nest, LOOM_ATTR_ROUTE_DEST, &v, 4);
		v = LOOM_ROUTE_PORT_HOST;
		nlen += nl_attr(nest + nlen, LOOM_ATTR_ROUTE_PORT, &v, 4);
		alen += nl_attr(attrs + alen, LOOM_ATTR_ROUTE | NLA_F_NESTED, nest, (uint16_t)nlen);
		err = nl_request(sk, family, LOOM_CMD_ROUTE_SET, attrs, alen);
		break;
	}
	if (err != -EPERM)
		violation("uid %u: a privileged netlink command answered %d, not EPERM",
			  (unsigned int)getuid(), err);
	if (grp && !setsockopt(sk, SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, &grp, sizeof(grp)))
		violation("uid %u joined the \"maint\" multicast group", (unsigned int)getuid());
	close(sk);
}

/*
 * As the unprivileged user: another process's tokens map nothing and its
 * contexts take no wait, through this process's probe file.
 */
static void op_cross(struct rng *r, struct uring *u)
{
	int i = (int)below(r, PUBLISHED), fd, slot;
	uint64_t token = atomic_load(&sh->pub[i].token), data;
	uint32_t index = (uint32_t)atomic_load(&sh->pub[i].index);
	struct io_uring_sqe *sqe;
	void *p;

	if (!token || atomic_load(&sh->pub[i].pid) == getpid())
		return;
	if (atomic_exchange(&probe_stale, 0) || atomic_load(&probe_fd) < 0)
		probe_reopen();
	fd = atomic_load(&probe_fd);
	count(OP_CROSS, 1);
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)token);
	if (p != MAP_FAILED) {
		munmap(p, PAGE);
		violation("pid %d mapped token %#llx of pid %d through its own file",
			  (int)getpid(), (unsigned long long)token, atomic_load(&sh->pub[i].pid));
	}
	if (!u->up)
		return;
	sqe = uring_sqe(u, r, fd, &data, &slot);
	if (!sqe)
		return;
	sqe->cmd_op = LOOM_URING_WAIT_CQ;
	((struct loom_uring_wait *)(void *)sqe->cmd)->ctx_index = index;
	u->ud[slot].cross = 1;
	u->ud[slot].index = index;
	count(OP_URING, 1);
	io_uring_submit(&u->ring);
}

/* ---- fork ----------------------------------------------------------------- */

static void op_fork(struct rng *r)
{
	int s, fd = slot_fd(r, &s), status;
	struct loom_ctx_destroy d = { .argsz = sizeof(d) };
	struct loom_dev_info info = { .argsz = sizeof(info) };
	uint64_t token;
	pid_t pid;

	pthread_mutex_lock(&slots[s].lock);
	d.index = slots[s].ctx[0].index;
	token = slots[s].ctx[0].token[3];
	pthread_mutex_unlock(&slots[s].lock);
	count(OP_FORK, 1);
	pid = fork();
	if (pid == 0) {
		/* async-signal-safe calls only: the parent has threads */
		void *p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, (off_t)token);

		if (p != MAP_FAILED)
			munmap(p, PAGE);
		ioctl(fd, LOOM_IOC_DEV_INFO, &info);
		if (d.index & 1)
			ioctl(fd, LOOM_IOC_CTX_DESTROY, &d);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
}

/* ---- a worker ------------------------------------------------------------- */

struct thread_arg {
	int proc, thread;
};

static void *worker_thread(void *arg)
{
	struct thread_arg *a = arg;
	struct rng r = { .s = (seed * 0x9e3779b97f4a7c15ull) ^
			      ((uint64_t)a->proc << 32 | (uint64_t)a->thread << 8) ^ 1 };
	struct uring *u = calloc(1, sizeof(*u));
	int kind = ring_pick((unsigned int)(a->proc + a->thread));

	if (!u)
		return NULL;
	uring_open(u, kind);
	while (!done()) {
		uint32_t x = below(&r, 100);

		if (x < 12) {
			if (op_on('c'))
				op_create(&r);
		} else if (x < 20) {
			if (op_on('d'))
				op_destroy(&r);
		} else if (x < 32) {
			if (op_on('i'))
				op_ioctl(&r);
		} else if (x < 47) {
			if (op_on('m'))
				op_mmap(&r);
		} else if (x < 88) {
			if (op_on('u'))
				op_uring(&r, u);
		} else if (x < 90) {
			/* torn down with whatever is outstanding */
			if (op_on('t')) {
				if (u->up) {
					count(OP_TEARDOWN, 1);
					uring_hold_for_teardown(&r, u);
					io_uring_queue_exit(&u->ring);
				}
				uring_open(u, ring_pick(below(&r, 3)));
			}
		} else if (x < 92) {
			if (op_on('f'))
				op_fork(&r);
		} else if (x < 94) {
			if (op_on('r')) {
				count(OP_REOPEN, 1);
				reopen((int)below(&r, SLOTS));
			}
		} else if (unprivileged && x < 97) {
			if (op_on('x'))
				op_cross(&r, u);
		} else if (unprivileged && !below(&r, 4) && op_on('n')) {
			op_netlink_unprivileged(&r);
		}
		if (atomic_load(&slots[0].fd) < 0 && atomic_load(&slots[1].fd) < 0) {
			/* the card is unbound: try again in a while */
			nap_ms(20);
			reopen((int)below(&r, SLOTS));
		}
	}
	uring_drain(u);
	free(u);
	return NULL;
}

static int become_unprivileged(void)
{
	gid_t groups[1] = { fuzz_gid };

	if (setgroups(1, groups) || setresgid(fuzz_uid, fuzz_uid, fuzz_uid) ||
	    setresuid(fuzz_uid, fuzz_uid, fuzz_uid))
		return -errno;
	/* no capability is left once every uid is non-zero */
	return 0;
}

static void worker(int proc)
{
	struct sigaction sa = { .sa_handler = on_sigbus };
	pthread_t th[MAX_THREADS];
	struct thread_arg args[MAX_THREADS];
	int t;

	sigaction(SIGBUS, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	unprivileged = fuzz_uid && (proc & 1);
	if (unprivileged && become_unprivileged()) {
		violation("worker %d cannot become uid %u: %s", proc, (unsigned int)fuzz_uid,
			  strerror(errno));
		_exit(1);
	}
	for (int s = 0; s < SLOTS; s++) {
		pthread_mutex_init(&slots[s].lock, NULL);
		for (int c = 0; c < SLOT_CTXS; c++)
			slots[s].ctx[c].index = UINT32_MAX;
		atomic_store(&slots[s].fd, open(dev_path, O_RDWR | O_CLOEXEC));
	}
	if (unprivileged)
		probe_reopen();
	for (t = 0; t < n_threads; t++) {
		args[t].proc = proc;
		args[t].thread = t;
		pthread_create(&th[t], NULL, worker_thread, &args[t]);
	}
	for (t = 0; t < n_threads; t++)
		pthread_join(th[t], NULL);
	_exit(0);
}

/* ---- the parent ------------------------------------------------------------ */

static pid_t spawn_worker(int proc)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		worker(proc);
	return pid;
}

/* nl_fuzz in a child, as root or as the unprivileged user */
static pid_t spawn_nl_fuzz(int as_user, unsigned long count_msgs, unsigned long nl_seed,
			   const char *out)
{
	char n[32], s[32];
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (as_user && become_unprivileged())
			_exit(2);
		snprintf(n, sizeof(n), "%lu", count_msgs);
		snprintf(s, sizeof(s), "%lu", nl_seed);
		execl(nl_fuzz_path, "nl_fuzz", n, s, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/* the answer line of a finished nl_fuzz: messages sent, -1 when unanswered */
static long nl_fuzz_result(const char *out, int status)
{
	char line[256];
	unsigned long msgs = 0, s, lost = 1;
	FILE *f = fopen(out, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "nl_fuzz: %lu messages, seed %lu, %lu unanswered", &msgs, &s, &lost);
		if (strstr(line, "privileged commands succeeded without") &&
		    !strstr(line, ": 0 privileged"))
			violation("%.150s", line);
	}
	fclose(f);
	if (!WIFEXITED(status) || lost)
		return -1;
	return (long)msgs;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, s, strlen(s)) == (ssize_t)strlen(s);
	close(fd);
	return ok ? 0 : -1;
}

/* unbind or bind the device; the PCI address is read once, while bound */
static void unbind_step(int bind)
{
	static char bdf[64];
	char link[512];
	ssize_t n;

	if (!bdf[0]) {
		n = readlink("/sys/class/loom/loom0/device", link, sizeof(link) - 1);
		if (n <= 0)
			return;
		link[n] = 0;
		snprintf(bdf, sizeof(bdf), "%.63s", strrchr(link, '/') ? strrchr(link, '/') + 1 : link);
	}
	count(OP_UNBIND, bind ? 0 : 1);
	write_file(bind ? "/sys/bus/pci/drivers/loom/bind" : "/sys/bus/pci/drivers/loom/unbind",
		   bdf);
}

static void usage(void)
{
	fprintf(stderr, "usage: iface_fuzz -n CALLS -s SEED [-p PROCS] [-t THREADS] [-u UID -g GID] [-U MS] [-T SECONDS] [-o OPS] [-r RINGS] [-d DEVICE] [-N NL_FUZZ]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	pid_t workers[MAX_PROCS], nl_pid[2] = { 0, 0 };
	char nl_out[2][64], state[64];
	unsigned long nl_round = 0;
	long target = 20000, unkillable = 0, killed = 0;
	struct rng r;
	double t0, next_kill, next_unbind, started;
	int unbinds = 0;
	int opt, bound = 1, i;

	while ((opt = getopt(argc, argv, "n:s:p:t:u:g:U:T:o:r:d:N:")) != -1) {
		switch (opt) {
		case 'n': target = strtol(optarg, NULL, 0); break;
		case 's': seed = strtoul(optarg, NULL, 0); break;
		case 'p': n_procs = atoi(optarg); break;
		case 't': n_threads = atoi(optarg); break;
		case 'u': fuzz_uid = (uid_t)strtoul(optarg, NULL, 0); break;
		case 'g': fuzz_gid = (gid_t)strtoul(optarg, NULL, 0); break;
		case 'U': unbind_ms = atoi(optarg); break;
		case 'T': max_seconds = atoi(optarg); break;
		case 'o': ops = optarg; break;
		case 'r': rings = optarg; break;
		case 'd': dev_path = optarg; break;
		case 'N': snprintf(nl_fuzz_path, sizeof(nl_fuzz_path), "%s", optarg); break;
		default: usage();
		}
	}
	if (target <= 0 || n_procs < 1 || n_procs > MAX_PROCS || n_threads < 1 ||
	    n_threads > MAX_THREADS || (fuzz_uid && !fuzz_gid))
		usage();
	if (!nl_fuzz_path[0]) {
		const char *slash = strrchr(argv[0], '/');

		snprintf(nl_fuzz_path, sizeof(nl_fuzz_path), "%.*snl_fuzz",
			 slash ? (int)(slash - argv[0] + 1) : 0, argv[0]);
	}
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		perror("iface_fuzz: mmap");
		return 1;
	}
	memset(sh, 0, sizeof(*sh));
	sh->target = target;
	r.s = seed * 0x2545f4914f6cdd1dull + 7;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("iface_fuzz: seed %lu, %ld calls, %d processes x %d threads%s%s\n", seed, target,
	       n_procs, n_threads, fuzz_uid ? ", every other one unprivileged" : "",
	       unbind_ms ? ", unbind racing" : "");

	for (i = 0; i < n_procs; i++)
		workers[i] = spawn_worker(i);
	started = t0 = now_s();
	next_kill = t0 + 1 + below(&r, 3);
	next_unbind = t0 + unbind_ms / 1000.0;
	while (!done()) {
		double t = now_s();

		if (t - started > max_seconds)
			break;

		/* a worker killed under load: its rings torn down with commands pending */
		if (t >= next_kill) {
			i = (int)below(&r, (uint32_t)n_procs);
			kill(workers[i], SIGKILL);
			count(OP_KILL, 1);
			killed++;
			next_kill = t + 1 + below(&r, 4);
		}
		/* by time, and at the latest once a third of the calls are made,
		 * so that a fast machine unbinds too */
		if (unbind_ms && (t >= next_unbind ||
				  (!unbinds && atomic_load(&sh->calls) >= sh->target / 3))) {
			unbinds += bound;
			unbind_step(!bound);
			bound = !bound;
			next_unbind = t + (bound ? unbind_ms : unbind_ms / 4 + 50) / 1000.0;
		}
		for (i = 0; i < n_procs; i++) {
			int status;

			if (waitpid(workers[i], &status, WNOHANG) == workers[i]) {
				if (WIFEXITED(status) && WEXITSTATUS(status))
					violation("worker %d exited with status %d", i,
						  WEXITSTATUS(status));
				workers[i] = spawn_worker(i);
			}
		}
		for (i = 0; i < 2 && nl_fuzz_path[0] && access(nl_fuzz_path, X_OK) == 0; i++) {
			int status;

			if (!nl_pid[i]) {
				snprintf(nl_out[i], sizeof(nl_out[i]), "/tmp/iface_fuzz.nl%d.%d", i,
					 (int)getpid());
				nl_pid[i] = spawn_nl_fuzz(i == 1 && fuzz_uid, 200,
							  seed * 1000 + nl_round++, nl_out[i]);
			} else if (waitpid(nl_pid[i], &status, WNOHANG) == nl_pid[i]) {
				long msgs = nl_fuzz_result(nl_out[i], status);

				if (msgs < 0) {
					violation("nl_fuzz (%s) left messages unanswered or failed: see %s",
						  i ? "unprivileged" : "root", nl_out[i]);
				} else {
					count(OP_NETLINK, msgs);
					unlink(nl_out[i]);
				}
				nl_pid[i] = 0;
			}
		}
		nap_ms(20);
	}
	atomic_store(&sh->stop, 1);
	if (!bound)
		unbind_step(1);

	/* drain: every worker exits within 60 s, or is killed */
	for (i = 0; i < n_procs; i++) {
		int status, k = 0;

		t0 = now_s();
		for (;;) {
			pid_t w = waitpid(workers[i], &status, WNOHANG);

			if (w == workers[i] || w < 0) {
				if (w > 0 && WIFEXITED(status) && WEXITSTATUS(status))
					violation("worker %d exited with status %d", i,
						  WEXITSTATUS(status));
				break;
			}
			if (!k && now_s() - t0 > 60) {
				violation("worker %d did not finish within 60 s of the stop", i);
				kill(workers[i], SIGKILL);
				k = 1;
				t0 = now_s();
			} else if (k && now_s() - t0 > 10) {
				proc_state(workers[i], state, sizeof(state));
				violation("worker %d (pid %d) cannot be killed: state %s", i,
					  (int)workers[i], state);
				unkillable++;
				break;
			}
			nap_ms(20);
		}
	}
	for (i = 0; i < 2; i++) {
		int status;

		if (nl_pid[i] && waitpid(nl_pid[i], &status, 0) == nl_pid[i]) {
			long msgs = nl_fuzz_result(nl_out[i], status);

			if (msgs >= 0) {
				count(OP_NETLINK, msgs);
				unlink(nl_out[i]);
			} else {
				violation("nl_fuzz (%s) left messages unanswered or failed: see %s",
					  i ? "unprivileged" : "root", nl_out[i]);
			}
		}
	}

	for (i = 0; i < OP_COUNT; i++) {
		const char *sep = ":";

		printf("  %-18s %8ld  (%ld refused", op_name[i], atomic_load(&sh->ops[i]),
		       atomic_load(&sh->failed[i]));
		for (int e = 0; e < MAX_ERRNO; e++) {
			if (!atomic_load(&sh->err[i][e]))
				continue;
			printf("%s %s %ld", sep, e ? strerror(e) : "other",
			       atomic_load(&sh->err[i][e]));
			sep = ",";
		}
		printf(")\n");
	}
	for (i = 0; i < atomic_load(&sh->n_msgs) && i < MAX_MSGS; i++)
		printf("iface_fuzz: VIOLATION: %s\n", sh->msg[i]);
	printf("iface_fuzz: %ld calls in %.0f s, seed %lu, %ld violations, %ld lost completions, %ld unkillable, %ld workers killed\n",
	       atomic_load(&sh->calls), now_s() - started, seed, atomic_load(&sh->violations),
	       atomic_load(&sh->lost), unkillable, killed);
	if (atomic_load(&sh->calls) < target)
		printf("iface_fuzz: fell short: %ld of %ld calls in %d s\n", atomic_load(&sh->calls),
		       target, max_seconds);
	return atomic_load(&sh->violations) || atomic_load(&sh->lost) || unkillable ||
	       atomic_load(&sh->calls) < target ? 1 : 0;
}
