// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: starting the lab's processes (emulators, QEMU, the switch)
 * pinned to a CPU, and waiting for their sockets.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab.h"
#include "sys.h"

pid_t lab_spawn(char *const argv[], const char *log_path, int cpu, int stdin_fd)
{
	int report[2], err = 0;
	pid_t pid;

	if (pipe2(report, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int null = stdin_fd >= 0 ? stdin_fd : open("/dev/null", O_RDONLY);
		int log = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
		sigset_t none;

		/* A session of its own, not only a process group: when the
		 * supervisor dies, a group in the supervisor's session with a
		 * stopped member (a frozen VM) would become orphaned and get
		 * SIGHUP, which QEMU takes as a request to quit.  kill(-pid)
		 * still reaches the whole group. */
		setsid();
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		signal(SIGPIPE, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGINT, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		if (cpu >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		if (null < 0 || log < 0 || dup2(null, 0) < 0 || dup2(log, 1) < 0 ||
		    dup2(log, 2) < 0) {
			err = errno;
		} else {
			execv(argv[0], argv);
			err = errno;
		}
		if (write(report[1], &err, sizeof(err)) < 0) {
			/* the parent sees EOF and reports an unknown failure */
		}
		_exit(127);
	}
	close(report[1]);
	if (pid < 0) {
		close(report[0]);
		return -1;
	}
	if (read(report[0], &err, sizeof(err)) == (ssize_t)sizeof(err)) {
		close(report[0]);
		waitpid(pid, NULL, 0);
		errno = err;
		return -1;
	}
	close(report[0]);
	return pid;
}

/* True when some socket listens on path (from /proc/net/unix, so the
 * listener does not see a probe connection). */
static bool listening(const char *path)
{
	char line[LAB_PATH_MAX + 128];
	bool found = false;
	FILE *f = fopen("/proc/net/unix", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long flags = 0;
		char *p, *sock_path;

		line[strcspn(line, "\n")] = 0;
		sock_path = strchr(line, '/');
		if (!sock_path || strcmp(sock_path, path))
			continue;
		/* Num: RefCount Protocol Flags ... ; flag 0x10000 = listening */
		p = strchr(line, ':');
		if (p && sscanf(p + 1, "%*x %*x %lx", &flags) == 1 &&
		    (flags & 0x10000))
			found = true;
	}
	fclose(f);
	return found;
}

int lab_wait_listening(const char *what, const char *path, pid_t pid,
		       const char *log, int timeout_ms)
{
	int64_t end = now_ms() + timeout_ms;
	int status;

	for (;;) {
		if (listening(path))
			return 0;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			lab_err("%s (pid %d) exited before listening on %s (status %d); see %s",
				what, (int)pid, path,
				WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
				log);
			return -1;
		}
		if (now_ms() > end) {
			lab_err("%s (pid %d) did not listen on %s within %d s; see %s",
				what, (int)pid, path, timeout_ms / 1000, log);
			return -1;
		}
		usleep(20000);
	}
}
