// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab-agent: sshd on demand (agent_sshd.h).  sshd in inetd mode does
 * per connection what the daemon does for each connection anyway (it
 * re-executes itself for every client), so a session costs what it did;
 * what is saved is the daemon's start in every guest, about a fifth of a
 * TCG guest's boot.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent_sshd.h"
#include "lab.h"

int agent_sshd_listen(const char *addr)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(22) };
	int one = 1, fd;

	if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1) {
		lab_info("sshd: %s is not an IPv4 address: no ssh into this guest", addr);
		return -1;
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		lab_info("sshd: cannot create a socket: %s: no ssh into this guest",
			 strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(fd, 128) < 0) {
		lab_info("sshd: cannot listen on %s:22: %s: no ssh into this guest", addr,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static void sshd_child(int conn, const char *config)
{
	sigset_t none;
	int null = open("/dev/null", O_WRONLY);

	setsid();
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	if (null < 0 || dup2(conn, 0) < 0 || dup2(conn, 1) < 0 || dup2(null, 2) < 0)
		_exit(125);
	execl(AGENT_SSHD_PATH, "sshd", "-i", "-f", config, "-E", AGENT_SSHD_LOG,
	      (char *)NULL);
	_exit(127);
}

void agent_sshd_accept(int lfd, const char *config)
{
	for (;;) {
		int conn = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		pid_t pid;

		if (conn < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
			    errno != ECONNABORTED)
				lab_info("sshd: accept failed: %s", strerror(errno));
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return;
		}
		pid = fork();
		if (pid == 0)
			sshd_child(conn, config);
		if (pid < 0)
			lab_info("sshd: cannot start sshd for a connection: %s",
				 strerror(errno));
		close(conn);
	}
}
