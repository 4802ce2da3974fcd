// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side test of loom.ko's pinned-memory limits and fork/exit
 * behaviour (run by test_ioctl.sh; deliberately not named test_*).  Prints
 * TAP.  Run as root with debugfs mounted: it drops CAP_IPC_LOCK in child
 * processes to meet RLIMIT_MEMLOCK, and writes the module parameter
 * max_pinned_kb (restored to 0 at the end).
 *
 *   limits_test [ROUNDS [DEVICE]]   default 20 rounds of each race, /dev/loom0
 *
 * What it checks:
 * - a context's memory shows as VmPin of its creator and in the card's
 *   debugfs "pinned" line, and goes back to 0 on CTX_DESTROY and close;
 * - without CAP_IPC_LOCK, CTX_CREATE beyond RLIMIT_MEMLOCK fails with
 *   ENOMEM, exactly at the limit it works, and destroy, close and a killed
 *   process give the charge back; with CAP_IPC_LOCK the limit is ignored;
 * - max_pinned_kb caps the card (ENOSPC);
 * - fork(): the child inherits no mapping, may map the regions again by
 *   token through the shared file, and keeps CTX_DESTROY -EBUSY only
 *   while it has them mapped;
 * - fork/exit races, ROUNDS times each: the parent exits first while the
 *   child uses the file; the child closes it and exits first; both exit
 *   at once while threads race close() against mmap(), CTX_CREATE and
 *   CTX_DESTROY.  Afterwards no context is left, the card's pinned memory
 *   is 0 and the user's RLIMIT_MEMLOCK charge is 0 (a context exactly as
 *   large as the limit can be created).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/loom.h>

#define DEBUGFS_CONTEXTS	"/sys/kernel/debug/loom/loom0/contexts"
#define PARAM_MAX_PINNED	"/sys/module/loom/parameters/max_pinned_kb"
#define SEG_SIZE		(64 * 1024)
#define RACE_SEG_SIZE		(16 * 1024)
#define RACE_CTXS		4
#define RACE_THREADS		3
#define SETTLE_SECONDS		60

static const char *dev_path = "/dev/loom0";

/* TAP counters in shared memory: child processes report too */
static struct tap {
	int n;
	int failed;
} *tap;

static void check(int cond, const char *what, int err)
{
	tap->n++;
	if (cond) {
		printf("ok %d - %s\n", tap->n, what);
	} else {
		tap->failed++;
		printf("not ok %d - %s\n", tap->n, what);
		if (err)
			printf("# errno %d (%s)\n", err, strerror(err));
	}
	fflush(stdout);
}

static void diag(const char *fmt, long a, long b)
{
	printf("# ");
	printf(fmt, a, b);
	printf("\n");
	fflush(stdout);
}

static int open_dev(void)
{
	return open(dev_path, O_RDWR | O_CLOEXEC);
}

static int ctx_create(int fd, uint64_t seg_size, struct loom_ctx_create *c)
{
	memset(c, 0, sizeof(*c));
	c->argsz = sizeof(*c);
	c->cmdq_entries = 16;
	c->cq_entries = 16;
	c->seg_size = seg_size;
	c->key = 0x1234;
	return ioctl(fd, LOOM_IOC_CTX_CREATE, c) ? -errno : 0;
}

static int ctx_destroy(int fd, uint32_t index)
{
	struct loom_ctx_destroy d = { .argsz = sizeof(d), .index = index };

	return ioctl(fd, LOOM_IOC_CTX_DESTROY, &d) ? -errno : 0;
}

/* KiB of the context ctx_create(SEG_SIZE) makes: rings, segment, counters */
static long ctx_kib(uint64_t seg_size)
{
	return (4096 + 4096 + (long)seg_size + 4096) / 1024;
}

/* "VmPin: N kB" of a process, -1 when unreadable */
static long vmpin_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* contexts in use and KiB pinned, from debugfs; -1 when unreadable */
static int card_usage(long *contexts, long *pinned_kib)
{
	char line[512];
	FILE *f = fopen(DEBUGFS_CONTEXTS, "r");

	*contexts = -1;
	*pinned_kib = -1;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		long n;

		if (strstr(line, " in use of ") && sscanf(line, "%ld context", &n) == 1)
			*contexts = n;
		if (sscanf(line, "pinned %ld KiB", &n) == 1)
			*pinned_kib = n;
	}
	fclose(f);
	return *contexts < 0 || *pinned_kib < 0 ? -1 : 0;
}

static int set_max_pinned(long kib)
{
	FILE *f = fopen(PARAM_MAX_PINNED, "w");
	int ok;

	if (!f)
		return -errno;
	ok = fprintf(f, "%ld\n", kib) > 0;
	return fclose(f) == 0 && ok ? 0 : -EIO;
}

static void nap_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Drop CAP_IPC_LOCK from this process (and its future children). */
static int drop_ipc_lock(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	data[CAP_TO_INDEX(CAP_IPC_LOCK)].effective &= ~CAP_TO_MASK(CAP_IPC_LOCK);
	data[CAP_TO_INDEX(CAP_IPC_LOCK)].permitted &= ~CAP_TO_MASK(CAP_IPC_LOCK);
	data[CAP_TO_INDEX(CAP_IPC_LOCK)].inheritable &= ~CAP_TO_MASK(CAP_IPC_LOCK);
	return syscall(SYS_capset, &hdr, data) ? -errno : 0;
}

static int set_memlock(long kib)
{
	struct rlimit r = { .rlim_cur = (rlim_t)kib * 1024, .rlim_max = (rlim_t)kib * 1024 };

	return setrlimit(RLIMIT_MEMLOCK, &r) ? -errno : 0;
}

/* Run @fn in a child without CAP_IPC_LOCK and RLIMIT_MEMLOCK = @kib. */
static void in_limited_child(long kib, void (*fn)(long), const char *what)
{
	pid_t pid = fork();
	int status;

	if (pid == 0) {
		int err = drop_ipc_lock();

		if (!err)
			err = set_memlock(kib);
		if (err) {
			check(0, what, -err);
			_exit(1);
		}
		fn(kib);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		check(0, what, errno);
}

/* ---- accounting ---------------------------------------------------------- */

static void test_vmpin(void)
{
	struct loom_ctx_create c;
	long before = vmpin_kib(getpid()), n, pinned;
	int fd = open_dev(), err;

	err = ctx_create(fd, SEG_SIZE, &c);
	check(!err, "CTX_CREATE with a 64 KiB segment", -err);
	diag("VmPin of the creator: %ld kB (expected %ld)", vmpin_kib(getpid()) - before,
	     ctx_kib(SEG_SIZE));
	check(vmpin_kib(getpid()) - before == ctx_kib(SEG_SIZE),
	      "the context's rings, segment and counters show as VmPin of its creator", 0);
	card_usage(&n, &pinned);
	check(n == 1 && pinned == ctx_kib(SEG_SIZE),
	      "debugfs shows 1 context and its memory as pinned on the card", 0);
	check(ctx_destroy(fd, c.index) == 0 && vmpin_kib(getpid()) == before,
	      "CTX_DESTROY gives the charge back (VmPin)", 0);
	card_usage(&n, &pinned);
	check(n == 0 && pinned == 0, "debugfs: no context, 0 KiB pinned after CTX_DESTROY", 0);
	err = ctx_create(fd, SEG_SIZE, &c);
	close(fd);
	card_usage(&n, &pinned);
	check(!err && vmpin_kib(getpid()) == before && n == 0 && pinned == 0,
	      "close() with a context gives the charge back (VmPin and debugfs)", -err);
}

static void limit_below(long kib)
{
	struct loom_ctx_create c;
	int fd = open_dev();

	(void)kib;
	check(ctx_create(fd, SEG_SIZE, &c) == -ENOMEM,
	      "without CAP_IPC_LOCK, a context 4 KiB above RLIMIT_MEMLOCK: ENOMEM", 0);
	close(fd);
}

static void limit_exact(long kib)
{
	struct loom_ctx_create c, c2;
	int fd = open_dev(), err, i, bad = 0;
	pid_t pid;

	(void)kib;
	err = ctx_create(fd, SEG_SIZE, &c);
	check(!err, "without CAP_IPC_LOCK, a context exactly as large as RLIMIT_MEMLOCK works",
	      -err);
	check(ctx_create(fd, SEG_SIZE, &c2) == -ENOMEM,
	      "a second context beyond RLIMIT_MEMLOCK: ENOMEM", 0);
	for (i = 0; i < 20 && !bad; i++)
		bad = ctx_destroy(fd, c.index) || ctx_create(fd, SEG_SIZE, &c);
	check(!bad, "CTX_DESTROY gives the charge back: destroy + create 20 times at the limit",
	      0);
	close(fd);
	fd = open_dev();
	err = ctx_create(fd, SEG_SIZE, &c);
	check(!err, "close() gives the charge back: a new file gets the whole limit", -err);
	close(fd);

	/* a process killed with its context mapped */
	pid = fork();
	if (pid == 0) {
		int cfd = open_dev();
		struct loom_ctx_create cc;

		if (ctx_create(cfd, SEG_SIZE, &cc) ||
		    mmap(NULL, SEG_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, cfd,
			 (off_t)cc.seg_token) == MAP_FAILED)
			_exit(1);
		raise(SIGKILL);
		_exit(1);
	}
	if (pid > 0) {
		int status;

		waitpid(pid, &status, 0);
		check(WIFSIGNALED(status), "a child creating and mapping a context at the limit then killed", 0);
	}
	fd = open_dev();
	err = ctx_create(fd, SEG_SIZE, &c);
	check(!err, "a killed process gives the charge back", -err);
	close(fd);
}

static void limit_exact_once(long kib)
{
	struct loom_ctx_create c;
	int fd = open_dev(), err;

	(void)kib;
	err = ctx_create(fd, SEG_SIZE, &c);
	check(!err, "fork/exit races: the user's RLIMIT_MEMLOCK charge is back to 0 (a context as large as the limit fits)",
	      -err);
	close(fd);
}

static void test_memlock(void)
{
	struct loom_ctx_create c;
	struct rlimit old;
	int fd, err;

	in_limited_child(ctx_kib(SEG_SIZE) - 4, limit_below, "child without CAP_IPC_LOCK runs");
	in_limited_child(ctx_kib(SEG_SIZE), limit_exact, "child without CAP_IPC_LOCK runs");

	getrlimit(RLIMIT_MEMLOCK, &old);
	set_memlock(0);
	fd = open_dev();
	err = ctx_create(fd, SEG_SIZE, &c);
	check(!err, "with CAP_IPC_LOCK, RLIMIT_MEMLOCK 0 does not stop CTX_CREATE", -err);
	close(fd);
	setrlimit(RLIMIT_MEMLOCK, &old);
}

static void test_device_cap(void)
{
	struct loom_ctx_create c, c2;
	int fd, err;

	err = set_max_pinned(ctx_kib(SEG_SIZE) - 4);
	check(!err, "max_pinned_kb is writable in /sys/module/loom/parameters", -err);
	fd = open_dev();
	check(ctx_create(fd, SEG_SIZE, &c) == -ENOSPC,
	      "a context above max_pinned_kb: ENOSPC (even with CAP_IPC_LOCK)", 0);
	set_max_pinned(ctx_kib(SEG_SIZE));
	err = ctx_create(fd, SEG_SIZE, &c);
	check(!err, "a context exactly at max_pinned_kb works", -err);
	check(ctx_create(fd, SEG_SIZE, &c2) == -ENOSPC, "a second one: ENOSPC", 0);
	close(fd);
	fd = open_dev();
	err = ctx_create(fd, SEG_SIZE, &c);
	check(!err, "close() gives the card's charge back", -err);
	close(fd);
	err = set_max_pinned(0);
	check(!err, "max_pinned_kb back to 0 (no cap)", -err);
}

/* ---- fork semantics ------------------------------------------------------- */

static int maps_mention_loom(void)
{
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "/dev/loom"))
			found = 1;
	fclose(f);
	return found;
}

static void test_fork_semantics(void)
{
	struct loom_ctx_create c;
	volatile uint8_t *seg;
	int fd = open_dev(), err, status, go[2], done[2];
	char b = 0;
	pid_t pid;

	err = ctx_create(fd, SEG_SIZE, &c);
	check(!err, "fork: CTX_CREATE", -err);
	seg = mmap(NULL, SEG_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)c.seg_token);
	check(seg != MAP_FAILED, "fork: segment mapped", errno);
	if (err || seg == MAP_FAILED)
		return;
	seg[0] = 0x5a;
	if (pipe(go) || pipe(done))
		return;
	pid = fork();
	if (pid == 0) {
		volatile uint8_t *s2;
		int ok;

		close(go[1]);
		close(done[0]);
		ok = maps_mention_loom() == 0;
		s2 = mmap(NULL, SEG_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			  (off_t)c.seg_token);
		ok = ok << 1 | (s2 != MAP_FAILED && s2[0] == 0x5a);
		if (s2 != MAP_FAILED)
			s2[1] = 0xa5;
		b = (char)('0' + ok);
		if (write(done[1], &b, 1) != 1 || read(go[0], &b, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	close(done[1]);
	if (read(done[0], &b, 1) != 1)
		b = 0;
	check(b >= '0' && ((b - '0') & 2), "fork: the child inherits no mapping of /dev/loom", 0);
	check(b >= '0' && ((b - '0') & 1),
	      "fork: the child maps the segment again by its token and sees the parent's data", 0);
	check(seg[1] == 0xa5, "fork: the parent sees the child's write", 0);
	munmap((void *)seg, SEG_SIZE);
	check(ctx_destroy(fd, c.index) == -EBUSY,
	      "fork: CTX_DESTROY is EBUSY while the child has the segment mapped", 0);
	close(go[1]);
	waitpid(pid, &status, 0);
	err = ctx_destroy(fd, c.index);
	check(!err, "fork: CTX_DESTROY works once the child has exited", -err);
	close(fd);
	close(done[0]);
}

/* ---- fork/exit races ------------------------------------------------------- */

struct ctxs {
	int fd;
	int n;
	struct loom_ctx_create c[RACE_CTXS];
};

/* Create up to RACE_CTXS contexts and map every region of each. */
static void race_setup(struct ctxs *s)
{
	memset(s, 0, sizeof(*s));
	s->fd = open_dev();
	for (int i = 0; i < RACE_CTXS; i++) {
		struct loom_ctx_create *c = &s->c[s->n];

		if (ctx_create(s->fd, RACE_SEG_SIZE, c))
			continue;
		s->n++;
		mmap(NULL, RACE_SEG_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		     (off_t)c->seg_token);
		mmap(NULL, 16 * 64, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		     (off_t)c->cmdq_token);
		mmap(NULL, 16 * 32, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		     (off_t)c->cq_token);
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
		     (off_t)c->doorbell_token);
		mmap(NULL, 4096, PROT_READ, MAP_SHARED, s->fd, (off_t)c->counters_token);
		if (c->out_flags & LOOM_CTX_OUT_KICK)
			mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd,
			     (off_t)c->kick_token);
	}
}

/* parent exits first; the child maps, writes, destroys and exits */
static void race_parent_first(void)
{
	struct ctxs s;
	pid_t pid;

	race_setup(&s);
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < s.n; i++) {
			volatile uint8_t *p = mmap(NULL, RACE_SEG_SIZE, PROT_READ | PROT_WRITE,
						   MAP_SHARED, s.fd, (off_t)s.c[i].seg_token);

			if (p != MAP_FAILED) {
				p[i] = (uint8_t)i;
				munmap((void *)p, RACE_SEG_SIZE);
			}
		}
		/* the parent's mappings go with its exit: then destroy works */
		for (int t = 0; t < 1000 && s.n && ctx_destroy(s.fd, s.c[0].index) == -EBUSY; t++)
			nap_ms(5);
		_exit(0);
	}
	_exit(0);
}

/* the child uses the file, closes it and exits first */
static void race_child_first(void)
{
	struct loom_dev_info info = { .argsz = sizeof(info) };
	struct ctxs s;
	int status = 0, ok = 1;
	pid_t pid;

	race_setup(&s);
	pid = fork();
	if (pid == 0) {
		int r = ioctl(s.fd, LOOM_IOC_DEV_INFO, &info);

		close(s.fd);
		_exit(r ? 1 : 0);
	}
	waitpid(pid, &status, 0);
	/* the parent's own mappings and contexts still work */
	for (int i = 0; i < s.n; i++) {
		volatile uint8_t *p = mmap(NULL, RACE_SEG_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
					   s.fd, (off_t)s.c[i].seg_token);

		if (p == MAP_FAILED) {
			ok = 0;
			continue;
		}
		p[0] = 1;
		ok &= p[0] == 1;
		munmap((void *)p, RACE_SEG_SIZE);
	}
	_exit(ok && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1);
}

struct racer {
	struct ctxs *s;
	int id;
	unsigned int seed;
};

static void *racer_thread(void *arg)
{
	struct racer *r = arg;
	struct ctxs *s = r->s;

	for (;;) {
		int i = s->n ? (int)(rand_r(&r->seed) % (unsigned int)s->n) : 0;
		struct loom_ctx_create c;

		switch (r->id) {
		case 0: {	/* map and unmap */
			void *p = mmap(NULL, RACE_SEG_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
				       s->fd, (off_t)s->c[i].seg_token);

			if (p != MAP_FAILED)
				munmap(p, RACE_SEG_SIZE);
			break;
		}
		case 1:		/* destroy and create */
			if (s->n)
				ctx_destroy(s->fd, s->c[i].index);
			if (!ctx_create(s->fd, RACE_SEG_SIZE, &c) && s->n)
				s->c[i] = c;
			break;
		default:	/* close the file under the others */
			nap_ms(rand_r(&r->seed) % 20);
			close(s->fd);
			return NULL;
		}
	}
}

/* Both processes race close(), mmap() and CTX_* in threads, then exit. */
static void race_threads(struct ctxs *s, unsigned int seed)
{
	struct racer r[RACE_THREADS];
	pthread_t th;

	for (int i = 0; i < RACE_THREADS; i++) {
		r[i] = (struct racer){ .s = s, .id = i, .seed = seed + (unsigned int)i };
		pthread_create(&th, NULL, racer_thread, &r[i]);
	}
	nap_ms(seed % 40);
	_exit(0);	/* exit_group with the threads running */
}

static void race_concurrent(unsigned int seed)
{
	struct ctxs s;
	pid_t pid;

	race_setup(&s);
	pid = fork();
	race_threads(&s, pid == 0 ? seed * 7 + 1 : seed);
}

static int reap_all(void)
{
	int status, bad = 0;
	pid_t pid;

	while ((pid = wait(&status)) > 0)
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad++;
	return bad;
}

static void test_races(int rounds)
{
	long n = -1, pinned = -1;
	int bad = 0;
	pid_t pid;

	/* orphaned grandchildren come back to us: wait() sees every exit */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	for (int r = 0; r < rounds; r++) {
		void (*scenario[])(void) = { race_parent_first, race_child_first };

		for (int k = 0; k < 3; k++) {
			pid = fork();
			if (pid == 0) {
				if (drop_ipc_lock() || set_memlock(16 * 1024))
					_exit(1);
				if (k < 2)
					scenario[k]();
				race_concurrent((unsigned int)(r * 3 + k));
			}
			if (pid < 0)
				bad++;
			bad += reap_all();
		}
	}
	check(!bad, "fork/exit races: every process ran and exited as expected", 0);
	for (int t = 0; t < SETTLE_SECONDS * 10; t++) {
		if (!card_usage(&n, &pinned) && !n && !pinned)
			break;
		nap_ms(100);
	}
	diag("after the races: %ld contexts, %ld KiB pinned", n, pinned);
	check(n == 0, "fork/exit races: no context left (debugfs)", 0);
	check(pinned == 0, "fork/exit races: the card's pinned memory is back to 0", 0);
	in_limited_child(ctx_kib(SEG_SIZE), limit_exact_once,
			 "child without CAP_IPC_LOCK runs");
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 20;
	int fd;

	if (argc > 2)
		dev_path = argv[2];
	setvbuf(stdout, NULL, _IONBF, 0);
	tap = mmap(NULL, sizeof(*tap), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tap == MAP_FAILED) {
		perror("limits_test: mmap");
		return 1;
	}
	fd = open_dev();
	if (fd < 0) {
		printf("1..0 # SKIP %s: %s\n", dev_path, strerror(errno));
		return 4;
	}
	close(fd);
	test_vmpin();
	test_memlock();
	test_device_cap();
	test_fork_semantics();
	test_races(rounds);
	printf("1..%d\n", tap->n);
	return tap->failed ? 1 : 0;
}
