// SPDX-License-Identifier: GPL-2.0
/*
 * Guest program of test_uring.sh: every loom io_uring command completes
 * exactly once on every path io_uring can issue it on, and a process with
 * commands outstanding can always be killed.  Against /dev/loom0; prints
 * TAP.
 *
 * For each kind of ring (plain, IORING_SETUP_SQPOLL, IORING_SETUP_
 * DEFER_TASKRUN) and each way of issuing (inline, IOSQE_ASYNC so that an
 * io-wq worker issues it, linked behind an IOSQE_ASYNC NOP so that io-wq
 * issues it as the next link), a child process submits three waits of 20 s
 * (user_id 7), one wait of 300 ms, then a LOOM_URING_CANCEL of user_id 7
 * and a LOOM_URING_SUBMIT of a NOP, all issued that way, and reaps: the
 * cancel completes with 3, the three waits with -ECANCELED, the short wait
 * with -ETIME, the submit with 0, each exactly once, nothing else within
 * 300 ms more, and the child exits.  A child that does not exit within
 * 10 s is killed; one that cannot be killed either is reported with its
 * /proc state (the lost completion of a cancel issued from io-wq leaves
 * exactly that behind: a process stuck in its exit).
 *
 * Then: IORING_OP_ASYNC_CANCEL and IORING_OP_LINK_TIMEOUT aimed at a wait
 * do not complete it twice or lose it; a process killed with SIGKILL,
 * one calling exit() and one calling execve() (single-threaded, and in a
 * second thread) while 60-second waits are outstanding on every kind of ring
 * (inline and from io-wq) is gone, or runs its new program, within 3 s:
 * io_uring makes exit and execve() wait for the requests the driver holds;
 * a ring of each kind closed with 60-second waits outstanding while its
 * process lives on lets go of the file and its context within 3 s.
 *
 *   uring_paths_test [DEVICE]      default /dev/loom0
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <liburing.h>

#include <linux/loom.h>
#include <loom_hw/ring.h>

#include "uring_util.h"
#include "../proc_state.h"

#define UD_CANCEL	100
#define UD_SHORT	101
#define UD_SUBMIT	102
#define UD_NOP		103
#define UD_LONG		1	/* 1, 2, 3: the three long waits */
#define LONG_USER_ID	7
#define MAX_UD		128

static const char *dev_path = "/dev/loom0";

enum ring_kind { RING_PLAIN, RING_SQPOLL, RING_DEFER, RING_KINDS };
enum issue_way { WAY_INLINE, WAY_ASYNC, WAY_LINKED, WAY_COUNT };

static const char *const ring_name[] = { "plain", "SQPOLL", "DEFER_TASKRUN" };
static const char *const way_name[] = {
	"inline", "IOSQE_ASYNC (io-wq)", "linked behind an IOSQE_ASYNC NOP",
};

static int ring_open(struct io_uring *ring, enum ring_kind kind)
{
	struct io_uring_params p = { .flags = IORING_SETUP_SQE128 };

	if (kind == RING_SQPOLL) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = 1000;
	} else if (kind == RING_DEFER) {
		p.flags |= IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	}
	return io_uring_queue_init_params(32, ring, &p);
}

/* A context of 16-entry rings on a new open file: its index, or -errno. */
static int ctx_open(int *fd)
{
	struct loom_ctx_create cr = {
		.argsz = sizeof(cr), .key = 0x5a7e, .cmdq_entries = 16,
		.cq_entries = 16, .seg_size = 4096,
	};

	*fd = open(dev_path, O_RDWR | O_CLOEXEC);
	if (*fd < 0)
		return -errno;
	if (ioctl(*fd, LOOM_IOC_CTX_CREATE, &cr) < 0)
		return -errno;
	return (int)cr.index;
}

/* Issue the SQE @way: flags on it, or a NOP in front of it. */
static struct io_uring_sqe *get_sqe(struct io_uring *ring, enum issue_way way)
{
	struct io_uring_sqe *sqe;

	if (way == WAY_LINKED) {
		sqe = io_uring_get_sqe(ring);
		if (!sqe)
			return NULL;
		io_uring_prep_nop(sqe);
		sqe->flags = IOSQE_ASYNC | IOSQE_IO_LINK;
		sqe->user_data = UD_NOP;
	}
	sqe = io_uring_get_sqe(ring);
	if (!sqe)
		return NULL;
	memset(sqe, 0, 128);
	sqe->opcode = IORING_OP_URING_CMD;
	if (way == WAY_ASYNC)
		sqe->flags = IOSQE_ASYNC;
	return sqe;
}

static struct io_uring_sqe *prep_wait(struct io_uring *ring, enum issue_way way, int fd,
				      uint32_t idx, uint64_t timeout_ns, uint64_t user_id,
				      uint64_t ud)
{
	struct io_uring_sqe *sqe = get_sqe(ring, way);
	struct loom_uring_wait *w;

	if (!sqe)
		return NULL;
	sqe->fd = fd;
	sqe->cmd_op = LOOM_URING_WAIT_CQ;
	sqe->user_data = ud;
	w = (struct loom_uring_wait *)(void *)sqe->cmd;
	w->ctx_index = idx;
	w->timeout_ns = timeout_ns;
	w->user_id = user_id;
	return sqe;
}

static int prep_cancel(struct io_uring *ring, enum issue_way way, int fd, uint64_t user_id,
		       uint64_t ud)
{
	struct io_uring_sqe *sqe = get_sqe(ring, way);

	if (!sqe)
		return -1;
	sqe->fd = fd;
	sqe->cmd_op = LOOM_URING_CANCEL;
	sqe->user_data = ud;
	((struct loom_uring_cancel *)(void *)sqe->cmd)->user_id = user_id;
	return 0;
}

static int prep_submit_nop(struct io_uring *ring, enum issue_way way, int fd, uint32_t idx,
			   uint64_t ud)
{
	struct io_uring_sqe *sqe = get_sqe(ring, way);
	struct loom_uring_submit *s;
	struct loom_cmd d = { .opcode = LOOM_OP_NOP, .tag = 77 };

	if (!sqe)
		return -1;
	sqe->fd = fd;
	sqe->cmd_op = LOOM_URING_SUBMIT;
	sqe->user_data = ud;
	s = (struct loom_uring_submit *)(void *)sqe->cmd;
	s->ctx_index = idx;
	memcpy(s->desc, &d, sizeof(d));
	return 0;
}

/* Every CQE within @window_s of the last one (at most @total_s): counts per ud. */
struct reaped {
	int count[MAX_UD];
	int res[MAX_UD];
	int other;
};

static void reap_until_quiet(struct io_uring *ring, struct reaped *r, int want,
			     double total_s, double window_s)
{
	double t0 = now_s();
	int got = 0;

	while (now_s() - t0 < total_s) {
		uint64_t ud;
		int res;

		if (uring_reap(ring, got >= want ? window_s : total_s, &res, &ud))
			break;
		got++;
		if (ud < MAX_UD) {
			r->count[ud]++;
			r->res[ud] = res;
		} else {
			r->other++;
		}
	}
}

/*
 * The child of one case: 0 when every command completed exactly once with
 * the result it should have; else 1, with what it saw on stdout.
 */
static int case_child(enum ring_kind kind, enum issue_way way)
{
	struct reaped r = { 0 };
	struct io_uring ring;
	int fd, idx, err, bad = 0, i;

	idx = ctx_open(&fd);
	if (idx < 0) {
		printf("# cannot create a context on %s: %s\n", dev_path, strerror(-idx));
		return 1;
	}
	err = ring_open(&ring, kind);
	if (err) {
		printf("# io_uring_queue_init(%s): %s\n", ring_name[kind], strerror(-err));
		return 1;
	}
	for (i = 0; i < 3; i++)
		prep_wait(&ring, way, fd, (uint32_t)idx, 20000000000ull, LONG_USER_ID,
			  UD_LONG + (uint64_t)i);
	prep_wait(&ring, way, fd, (uint32_t)idx, 300000000ull, 8, UD_SHORT);
	io_uring_submit(&ring);
	/* the waits are on the file's list before the cancel looks */
	usleep(100000);
	prep_cancel(&ring, way, fd, LONG_USER_ID, UD_CANCEL);
	prep_submit_nop(&ring, way, fd, (uint32_t)idx, UD_SUBMIT);
	io_uring_submit(&ring);
	reap_until_quiet(&ring, &r, way == WAY_LINKED ? 12 : 6, 5, 0.3);

	for (i = 0; i < 3; i++)
		if (r.count[UD_LONG + i] != 1 || r.res[UD_LONG + i] != -ECANCELED)
			bad = 1;
	if (r.count[UD_CANCEL] != 1 || r.res[UD_CANCEL] != 3 || r.count[UD_SHORT] != 1 ||
	    r.res[UD_SHORT] != -ETIME || r.count[UD_SUBMIT] != 1 || r.res[UD_SUBMIT] != 0 ||
	    r.other || (way == WAY_LINKED && r.count[UD_NOP] != 6))
		bad = 1;
	if (bad) {
		printf("# seen (completions x result): cancel %dx%d, waits %dx%d %dx%d %dx%d, short wait %dx%d, submit %dx%d, NOPs %d, other %d\n",
		       r.count[UD_CANCEL], r.res[UD_CANCEL], r.count[1], r.res[1], r.count[2],
		       r.res[2], r.count[3], r.res[3], r.count[UD_SHORT], r.res[UD_SHORT],
		       r.count[UD_SUBMIT], r.res[UD_SUBMIT], r.count[UD_NOP], r.other);
		printf("# expected: cancel 1x3, waits 1x%d each, short wait 1x%d, submit 1x0, NOPs %d\n",
		       -ECANCELED, -ETIME, way == WAY_LINKED ? 6 : 0);
	}
	fflush(stdout);
	/* leave the ring, the context and the file to exit() */
	return bad;
}

/*
 * Wait up to @grace_s for @pid, then SIGKILL it and wait 5 s more.
 * Returns its wait status, or -1 (with its state in @state) when it is
 * still there: it cannot be killed.
 */
static int reap_child(pid_t pid, double grace_s, int *killed, char *state, size_t len)
{
	double t0 = now_s();
	int status;

	*killed = 0;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0)
			return -1;
		if (!*killed && now_s() - t0 > grace_s) {
			kill(pid, SIGKILL);
			*killed = 1;
			t0 = now_s();
			grace_s = 5;
		} else if (*killed && now_s() - t0 > grace_s) {
			proc_state(pid, state, len);
			return -1;
		}
		usleep(20000);
	}
}

static void run_case(enum ring_kind kind, enum issue_way way)
{
	char state[64] = "";
	int status, killed;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid == 0)
		_exit(case_child(kind, way));
	status = pid < 0 ? -1 : reap_child(pid, 10, &killed, state, sizeof(state));
	if (status == -1) {
		check(0, "%s ring, commands issued %s: the child cannot be killed: still there 5 s after SIGKILL (state %s)",
		      ring_name[kind], way_name[way], state);
		return;
	}
	check(!killed && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	      "%s ring, commands issued %s: CANCEL completes once with 3, its waits once with -ECANCELED, a short wait once with -ETIME, SUBMIT once with 0, and the process exits%s",
	      ring_name[kind], way_name[way], killed ? " (it had to be killed)" : "");
}

/* IORING_OP_ASYNC_CANCEL and IORING_OP_LINK_TIMEOUT aimed at loom waits */
static void test_io_uring_cancels(void)
{
	struct __kernel_timespec lt = { .tv_nsec = 100000000 };
	struct reaped r = { 0 };
	struct io_uring_sqe *sqe;
	struct io_uring ring;
	int fd, idx;

	idx = ctx_open(&fd);
	if (idx < 0 || ring_open(&ring, RING_PLAIN)) {
		check(0, "IORING_OP_ASYNC_CANCEL of a wait: set up (%s)", strerror(-idx));
		check(0, "IORING_OP_LINK_TIMEOUT on a wait: set up");
		return;
	}
	prep_wait(&ring, WAY_INLINE, fd, (uint32_t)idx, 500000000ull, 1, 1);
	io_uring_submit(&ring);
	usleep(100000);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_cancel64(sqe, 1, 0);
	sqe->user_data = 2;
	io_uring_submit(&ring);
	reap_until_quiet(&ring, &r, 2, 5, 0.3);
	check(r.count[1] == 1 && r.res[1] == -ETIME && r.count[2] == 1 && r.other == 0,
	      "IORING_OP_ASYNC_CANCEL cannot take a wait the driver holds (%d): the wait completes once, at its timeout (%d x %d)",
	      r.res[2], r.count[1], r.res[1]);

	memset(&r, 0, sizeof(r));
	sqe = prep_wait(&ring, WAY_INLINE, fd, (uint32_t)idx, 500000000ull, 1, 3);
	sqe->flags |= IOSQE_IO_LINK;
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_link_timeout(sqe, &lt, 0);
	sqe->user_data = 4;
	io_uring_submit(&ring);
	reap_until_quiet(&ring, &r, 2, 5, 0.3);
	check(r.count[3] == 1 && r.res[3] == -ETIME && r.count[4] == 1 && r.other == 0,
	      "IORING_OP_LINK_TIMEOUT on a wait (%d): the wait completes once, at its own timeout (%d x %d)",
	      r.res[4], r.count[3], r.res[3]);
	io_uring_queue_exit(&ring);
	close(fd);
}

/* How the child of test_exit_with_waits() leaves once its waits are armed. */
enum exit_how {
	EXIT_CALL,		/* exit() */
	EXIT_KILLED,		/* killed with SIGKILL */
	EXIT_EXEC,		/* execve() of /bin/true, single-threaded */
	EXIT_EXEC_THREAD,	/* execve() of /bin/true in a second thread */
};

static const char *const exit_how_name[] = {
	"calling exit()", "killed with SIGKILL", "calling execve()",
	"calling execve() in a second thread",
};

/*
 * The waiter: 60-second waits on each kind of ring in @kinds (a bit per
 * enum ring_kind), inline and, with @async, from io-wq; "armed" into
 * @pipe_w, then it leaves @how.  The rings and the file are close-on-exec.
 */
static void wait_and_leave(int pipe_w, enum exit_how how, unsigned int kinds, int async)
{
	struct io_uring ring[RING_KINDS];
	int fd, idx, k;

	idx = ctx_open(&fd);
	if (idx < 0)
		_exit(2);
	for (k = 0; k < RING_KINDS; k++) {
		if (!(kinds & (1u << k)))
			continue;
		if (ring_open(&ring[k], (enum ring_kind)k))
			_exit(3);
		prep_wait(&ring[k], WAY_INLINE, fd, (uint32_t)idx, LOOM_URING_MAX_TIMEOUT_NS, 1, 1);
		if (async)
			prep_wait(&ring[k], WAY_ASYNC, fd, (uint32_t)idx,
				  LOOM_URING_MAX_TIMEOUT_NS, 1, 2);
		if (io_uring_submit(&ring[k]) != 1 + async)
			_exit(4);
	}
	/* the waits are on the file's list */
	usleep(200000);
	if (write(pipe_w, "armed", 5) != 5)
		_exit(5);
	switch (how) {
	case EXIT_CALL:
		exit(0);
	case EXIT_EXEC:
	case EXIT_EXEC_THREAD:
		execl("/bin/true", "true", (char *)NULL);
		_exit(7);
	default:
		for (;;)
			pause();
	}
}

static int exec_pipe_w;

static void *exec_thread(void *arg)
{
	(void)arg;
	wait_and_leave(exec_pipe_w, EXIT_EXEC_THREAD, 1u << RING_PLAIN | 1u << RING_DEFER, 1);
	return NULL;
}

/*
 * The child of test_exit_with_waits().  EXIT_EXEC stays single-threaded:
 * no SQPOLL thread, no io-wq worker (inline waits only), so execve() kills
 * no other thread.  In EXIT_EXEC_THREAD a second thread submits the waits
 * and calls execve(): it takes the leader's place and the leader is
 * killed; no SQPOLL ring either, whose thread's exit would wait for its
 * own waits and so draw out the killing of the other threads.
 */
static void exiting_child(int pipe_w, enum exit_how how)
{
	pthread_t thread;

	if (how == EXIT_EXEC)
		wait_and_leave(pipe_w, how, 1u << RING_PLAIN | 1u << RING_DEFER, 0);
	if (how != EXIT_EXEC_THREAD)
		wait_and_leave(pipe_w, how, (1u << RING_KINDS) - 1, 1);
	exec_pipe_w = pipe_w;
	if (pthread_create(&thread, NULL, exec_thread, NULL))
		_exit(6);
	for (;;)
		pause();
}

static void test_exit_with_waits(enum exit_how how)
{
	const char *what = exit_how_name[how];
	char buf[8] = "", state[64] = "";
	int p[2], status, killed, ok;
	double t0, dt;
	pid_t pid;

	if (pipe(p)) {
		check(0, "a process %s with 60 s waits outstanding: pipe: %s", what,
		      strerror(errno));
		return;
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		exiting_child(p[1], how);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], buf, 5) != 5) {
		close(p[0]);
		check(0, "a process %s with 60 s waits outstanding: the child armed its waits", what);
		if (pid > 0)
			waitpid(pid, &status, 0);
		return;
	}
	close(p[0]);
	t0 = now_s();
	if (how == EXIT_KILLED)
		kill(pid, SIGKILL);
	status = reap_child(pid, 30, &killed, state, sizeof(state));
	dt = now_s() - t0;
	if (status == -1) {
		check(0, "a process %s with 60 s waits outstanding: still there 35 s later, after SIGKILL too (state %s)",
		      what, state);
		return;
	}
	/* exit() and /bin/true exit with 0 */
	ok = how == EXIT_KILLED ? WIFSIGNALED(status) :
	     WIFEXITED(status) && WEXITSTATUS(status) == 0;
	check(dt < 3 && ok && !killed,
	      "a process %s with 60 s waits outstanding on %s is gone in %.2f s (under 3 s%s; wait status %#x)",
	      what, how == EXIT_EXEC ? "plain and DEFER_TASKRUN rings (inline)" :
	      how == EXIT_EXEC_THREAD ? "plain and DEFER_TASKRUN rings (inline and io-wq)" :
	      "plain, SQPOLL and DEFER_TASKRUN rings (inline and io-wq)",
	      dt, killed ? ", had to be killed" : "", status);
}

/*
 * A ring of @kind closed, and the file closed, while 60-second waits are
 * outstanding on it (inline and from io-wq) and the process lives on:
 * the waits end and the file with its context goes within 3 s, which
 * shows as the context's card index being free for another file.
 */
static void test_ring_closed_under_waits(enum ring_kind kind)
{
	struct loom_ctx_create cr = {
		.argsz = sizeof(cr), .flags = LOOM_CTX_F_INDEX, .key = 0x5a7e,
		.cmdq_entries = 16, .cq_entries = 16, .seg_size = 4096,
	};
	struct io_uring ring;
	int fd, fd2, idx, err = 0;
	double t0, dt = 0;

	idx = ctx_open(&fd);
	if (idx < 0 || ring_open(&ring, kind)) {
		check(0, "%s ring closed under 60 s waits: set up (%s)", ring_name[kind],
		      idx < 0 ? strerror(-idx) : "io_uring_queue_init");
		return;
	}
	prep_wait(&ring, WAY_INLINE, fd, (uint32_t)idx, LOOM_URING_MAX_TIMEOUT_NS, 1, 1);
	prep_wait(&ring, WAY_ASYNC, fd, (uint32_t)idx, LOOM_URING_MAX_TIMEOUT_NS, 1, 2);
	io_uring_submit(&ring);
	/* the waits are on the file's list */
	usleep(200000);
	io_uring_queue_exit(&ring);
	close(fd);
	fd2 = open(dev_path, O_RDWR | O_CLOEXEC);
	t0 = now_s();
	while (fd2 >= 0 && (dt = now_s() - t0) < 10) {
		cr.index = (uint32_t)idx;
		if (!ioctl(fd2, LOOM_IOC_CTX_CREATE, &cr)) {
			err = 0;
			break;
		}
		err = errno;
		usleep(20000);
	}
	check(fd2 >= 0 && !err && dt < 3,
	      "a %s ring and its file closed under 60 s waits (inline and io-wq) while the process lives: the file's context %d is free again in %.2f s (under 3 s; last CTX_CREATE of that index: %s)",
	      ring_name[kind], idx, dt, err ? strerror(err) : "ok");
	if (fd2 >= 0)
		close(fd2);
}

int main(int argc, char **argv)
{
	int k, w;

	if (argc > 1)
		dev_path = argv[1];
	printf("1..%d\n", RING_KINDS * WAY_COUNT + 6 + RING_KINDS);
	for (k = 0; k < RING_KINDS; k++)
		for (w = 0; w < WAY_COUNT; w++)
			run_case((enum ring_kind)k, (enum issue_way)w);
	test_io_uring_cancels();
	test_exit_with_waits(EXIT_KILLED);
	test_exit_with_waits(EXIT_CALL);
	test_exit_with_waits(EXIT_EXEC);
	test_exit_with_waits(EXIT_EXEC_THREAD);
	for (k = 0; k < RING_KINDS; k++)
		test_ring_closed_under_waits((enum ring_kind)k);
	return test_failed ? 1 : 0;
}
