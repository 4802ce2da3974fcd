// SPDX-License-Identifier: GPL-2.0
/*
 * ring_hold SECONDS: holds the teardown of an io_uring ring for SECONDS,
 * the way the kernel's own comment in io_ring_exit_work() describes ("a
 * SIGSTOP on a task that needs to finish task_work"), so that
 * test_iface_fuzz.sh can check that ring_watch.sh reports such a ring.
 *
 * The parent sets up a ring and submits a read from an empty pipe (io_uring
 * arms a poll for it), forks, unmaps and closes its copy of the ring and
 * stops itself.
 * The child, once the parent is stopped, closes the last copy: the ring's
 * exit work cancels the read, whose completion is task work of the parent,
 * which a stopped task does not run.  The child continues the parent after
 * SECONDS; the teardown then ends.  Exit status 0 when it went so, 1 when a
 * step failed (the step is printed).
 */
#include <errno.h>
#include <liburing.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int fail(const char *what, int err)
{
	fprintf(stderr, "ring_hold: %s: %s\n", what, strerror(err));
	return 1;
}

/* Is @pid stopped (state T in /proc/PID/stat)? */
static int is_stopped(pid_t pid)
{
	char path[64], buf[256], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'T';
}

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	struct io_uring ring;
	struct io_uring_sqe *sqe;
	int pipefd[2], status, err, i;
	static char buf[8];
	long seconds;
	pid_t parent = getpid(), child;

	if (argc != 2 || (seconds = strtol(argv[1], NULL, 10)) < 1 || seconds > 3600) {
		fprintf(stderr, "usage: ring_hold SECONDS (1 to 3600)\n");
		return 2;
	}
	if (pipe(pipefd))
		return fail("pipe", errno);
	err = io_uring_queue_init(4, &ring, 0);
	if (err)
		return fail("io_uring_queue_init", -err);
	sqe = io_uring_get_sqe(&ring);
	io_uring_prep_read(sqe, pipefd[0], buf, sizeof(buf), 0);
	err = io_uring_submit(&ring);
	if (err != 1)
		return fail("io_uring_submit of the read", err < 0 ? -err : EIO);
	child = fork();
	if (child < 0)
		return fail("fork", errno);
	if (child == 0) {
		for (i = 0; i < 1000 && !is_stopped(parent); i++)
			nap_ms(10);
		if (!is_stopped(parent)) {
			fprintf(stderr, "ring_hold: the parent did not stop within 10 s\n");
			kill(parent, SIGCONT);
			_exit(1);
		}
		io_uring_queue_exit(&ring);
		printf("ring_hold: ring closed, its teardown held for %ld s\n", seconds);
		fflush(stdout);
		sleep((unsigned int)seconds);
		kill(parent, SIGCONT);
		_exit(0);
	}
	/* the child's copy (file and mappings) is the last: its exit tears the ring down */
	io_uring_queue_exit(&ring);
	raise(SIGSTOP);
	if (waitpid(child, &status, 0) != child)
		return fail("waitpid", errno);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}
