// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab-agent: runs inside a lab guest (chrooted into the host's root
 * file system shared over 9p) as its init process.  It speaks the framed
 * protocol of frame.h on a serial port: it announces READY, runs each RUN
 * frame's command with /bin/sh -c in TREE, relays the command's stdout and
 * stderr as they come, reports EXIT with the status and kills a command's
 * process group on KILL.  Any number of commands may run at once.  With
 * --sshd-config it also starts sshd for each ssh connection (agent_sshd.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "agent_sshd.h"
#include "frame.h"
#include "guest_env.h"
#include "lab.h"
#include "sys.h"

#define MAX_JOBS 64
/* After a command's shell exits, how long its pipes must stay empty and
 * quiet (held open by background children) before EXIT is reported anyway. */
#define PIPE_GRACE_MS 1000

struct job {
	bool used;
	uint32_t chan;
	pid_t pid;
	int out_fd, err_fd, in_fd;
	uint8_t *in_buf;	/* stdin bytes the command has not read yet */
	size_t in_len;
	bool in_eof;		/* close in_fd once in_buf is drained */
	bool exited;
	bool exit_sent;		/* output now goes nowhere until EOF */
	int status;
	int64_t exit_ms;
	int64_t out_ms;		/* when output was last relayed */
};

static struct job jobs[MAX_JOBS];
static int serial_fd = -1;
static int sigchld_pipe[2];
static const char *tree = "/";
static const char *host_index = "";

static void send_frame(uint8_t type, uint32_t chan, const void *p, uint32_t len)
{
	if (write_frame(serial_fd, type, chan, p, len) < 0) {
		lab_info("cannot write to the serial channel: %s", strerror(errno));
		exit(1);
	}
}

static void on_sigchld(int sig)
{
	int saved = errno;
	char c = (char)sig;

	if (write(sigchld_pipe[1], &c, 1) < 0) {
		/* pipe full: a wakeup is already pending */
	}
	errno = saved;
}

static int open_serial(const char *dev)
{
	struct termios t;
	int fd = open(dev, O_RDWR | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		lab_info("cannot open serial channel %s: %s", dev, strerror(errno));
		return -1;
	}
	if (tcgetattr(fd, &t) == 0) {
		cfmakeraw(&t);
		t.c_cflag |= CLOCAL | CREAD;
		t.c_cflag &= ~(tcflag_t)CRTSCTS;
		t.c_iflag &= ~(tcflag_t)(IXON | IXOFF | IXANY);
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		cfsetispeed(&t, B115200);
		cfsetospeed(&t, B115200);
		if (tcsetattr(fd, TCSANOW, &t) < 0)
			lab_info("cannot make %s raw: %s", dev, strerror(errno));
		tcflush(fd, TCIOFLUSH);
	} else {
		lab_info("%s is not a terminal (%s); using it as is", dev,
			  strerror(errno));
	}
	return fd;
}

static void child_exec(const char *cmd, int in_fd, int out_fd, int err_fd)
{
	static char env[LAB_GUEST_ENV_MAX][LAB_GUEST_ENV_LEN];
	char *envp[LAB_GUEST_ENV_MAX + 1];
	int n;
	sigset_t none;

	setsid();
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || dup2(err_fd, 2) < 0)
		_exit(125);
	if (chdir(tree) < 0) {
		dprintf(2, "loom-lab-agent: cannot enter the tree %s: %s\n", tree,
			strerror(errno));
		_exit(125);
	}
	n = lab_guest_env(tree, host_index, env);
	for (int i = 0; i < n; i++)
		envp[i] = env[i];
	envp[n] = NULL;
	execle("/bin/sh", "sh", "-c", cmd, (char *)NULL, envp);
	dprintf(2, "loom-lab-agent: cannot run /bin/sh: %s\n", strerror(errno));
	_exit(127);
}

static struct job *find_job(uint32_t chan)
{
	for (int i = 0; i < MAX_JOBS; i++)
		if (jobs[i].used && jobs[i].chan == chan)
			return &jobs[i];
	return NULL;
}

static void fail_run(uint32_t chan, const char *what)
{
	char msg[256];
	int32_t st = 125;
	uint8_t b[4];

	snprintf(msg, sizeof(msg), "loom-lab-agent: cannot start command: %s\n",
		 what);
	send_frame(LAB_FRAME_STDERR, chan, msg, (uint32_t)strlen(msg));
	lab_put_u32(b, (uint32_t)st);
	send_frame(LAB_FRAME_EXIT, chan, b, 4);
}

static void start_job(uint32_t chan, const uint8_t *p, uint32_t len)
{
	int in[2], out[2], err[2];
	struct job *j = NULL;
	char *cmd;

	if (find_job(chan))
		return; /* duplicate RUN: the first one stands */
	for (int i = 0; i < MAX_JOBS; i++)
		if (!jobs[i].used) {
			j = &jobs[i];
			break;
		}
	if (!j) {
		fail_run(chan, "too many commands running at once");
		return;
	}
	if (len < 4) {
		fail_run(chan, "malformed RUN frame");
		return;
	}
	cmd = strndup((const char *)p + 4, len - 4);
	if (!cmd) {
		fail_run(chan, "out of memory");
		return;
	}
	if (pipe2(in, O_CLOEXEC) < 0) {
		fail_run(chan, strerror(errno));
		free(cmd);
		return;
	}
	if (pipe2(out, O_CLOEXEC) < 0) {
		fail_run(chan, strerror(errno));
		close(in[0]);
		close(in[1]);
		free(cmd);
		return;
	}
	if (pipe2(err, O_CLOEXEC) < 0) {
		fail_run(chan, strerror(errno));
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		free(cmd);
		return;
	}
	pid_t pid = fork();

	if (pid == 0)
		child_exec(cmd, in[0], out[1], err[1]);
	free(cmd);
	close(in[0]);
	close(out[1]);
	close(err[1]);
	if (pid < 0) {
		fail_run(chan, strerror(errno));
		close(in[1]);
		close(out[0]);
		close(err[0]);
		return;
	}
	set_nonblock(out[0], 1);
	set_nonblock(err[0], 1);
	set_nonblock(in[1], 1);
	*j = (struct job){ .used = true, .chan = chan, .pid = pid,
			   .in_fd = in[1], .out_fd = out[0], .err_fd = err[0] };
}

static void kill_job(uint32_t chan)
{
	struct job *j = find_job(chan);

	if (!j || j->exit_sent)
		return;
	/* the whole session: background children too, even when the shell
	 * itself has already exited */
	kill(-j->pid, SIGKILL);
	if (!j->exited)
		kill(j->pid, SIGKILL);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void drop_stdin(struct job *j)
{
	close_fd(&j->in_fd);
	free(j->in_buf);
	j->in_buf = NULL;
	j->in_len = 0;
}

/* Writes what the command takes without blocking the agent. */
static void flush_stdin(struct job *j)
{
	while (j->in_fd >= 0 && j->in_len) {
		ssize_t n = write(j->in_fd, j->in_buf, j->in_len);

		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				return;
			drop_stdin(j); /* the command closed its stdin */
			return;
		}
		memmove(j->in_buf, j->in_buf + n, j->in_len - (size_t)n);
		j->in_len -= (size_t)n;
	}
	if (j->in_eof && !j->in_len)
		drop_stdin(j);
}

static void job_stdin(uint32_t chan, const uint8_t *p, uint32_t len, bool eof)
{
	struct job *j = find_job(chan);
	uint8_t *nb;

	if (!j || j->in_fd < 0)
		return;
	if (eof) {
		j->in_eof = true;
	} else if (len) {
		nb = realloc(j->in_buf, j->in_len + len);
		if (!nb) {
			lab_info("out of memory for the stdin of channel %u", chan);
			drop_stdin(j);
			return;
		}
		j->in_buf = nb;
		memcpy(j->in_buf + j->in_len, p, len);
		j->in_len += len;
	}
	flush_stdin(j);
}

static void handle_frame(const struct lab_frame *f)
{
	switch (f->type) {
	case LAB_FRAME_RUN:
		start_job(f->chan, f->payload, f->len);
		break;
	case LAB_FRAME_STDIN:
		job_stdin(f->chan, f->payload, f->len, false);
		break;
	case LAB_FRAME_STDIN_EOF:
		job_stdin(f->chan, NULL, 0, true);
		break;
	case LAB_FRAME_KILL:
		kill_job(f->chan);
		break;
	default:
		lab_info("ignoring unexpected %s frame on channel %u",
			  lab_frame_type_name(f->type), f->chan);
	}
}

static void relay_pipe(struct job *j, int *fd, uint8_t type)
{
	uint8_t buf[LAB_FRAME_MAX_PAYLOAD];
	ssize_t n = read(*fd, buf, sizeof(buf));

	if (n > 0 && !j->exit_sent) {
		send_frame(type, j->chan, buf, (uint32_t)n);
		j->out_ms = now_ms();
	} else if (n == 0 || (errno != EAGAIN && errno != EINTR))
		close_fd(fd);
}

static void reap(void)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		for (int i = 0; i < MAX_JOBS; i++) {
			struct job *j = &jobs[i];

			if (!j->used || j->pid != pid || j->exited)
				continue;
			j->exited = true;
			j->exit_ms = now_ms();
			if (WIFEXITED(status))
				j->status = WEXITSTATUS(status);
			else if (WIFSIGNALED(status))
				j->status = 128 + WTERMSIG(status);
			else
				j->status = 125;
		}
	}
}

/* Bytes waiting in a pipe the agent has not read yet (0 when closed). */
static int pipe_pending(int fd)
{
	int n = 0;

	if (fd < 0 || ioctl(fd, FIONREAD, &n) < 0)
		return 0;
	return n;
}

/*
 * A command is over when its shell has exited and its pipes are closed, or
 * when background children still hold them but they have been empty and
 * quiet for PIPE_GRACE_MS since the exit and the last output: then EXIT is
 * sent and the pipes are drained into the void until those children close
 * them, so they neither block the exec nor die of SIGPIPE.  Output the
 * command wrote before it exited is never dropped, however long relaying it
 * takes (a slow serial line, a starved guest).
 */
static bool pipes_quiet(const struct job *j, int64_t now)
{
	int64_t since = j->out_ms > j->exit_ms ? j->out_ms : j->exit_ms;

	return now - since >= PIPE_GRACE_MS && !pipe_pending(j->out_fd) &&
	       !pipe_pending(j->err_fd);
}

static void finish_jobs(void)
{
	int64_t now = now_ms();

	for (int i = 0; i < MAX_JOBS; i++) {
		struct job *j = &jobs[i];
		bool open = j->out_fd >= 0 || j->err_fd >= 0;
		uint8_t b[4];

		if (!j->used || !j->exited)
			continue;
		if (!j->exit_sent && (!open || pipes_quiet(j, now))) {
			lab_put_u32(b, (uint32_t)j->status);
			send_frame(LAB_FRAME_EXIT, j->chan, b, 4);
			j->exit_sent = true;
			drop_stdin(j);
		}
		if (j->exit_sent && !open)
			j->used = false;
	}
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: loom-lab-agent --serial DEV --tree DIR [--host N]\n"
		"                      [--sshd-config FILE --sshd-addr IPV4]\n"
		"Runs in a loom-lab guest; started by the lab's initramfs.\n"
		"See Documentation/tools/loom-lab.rst.\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "serial", required_argument, NULL, 's' },
		{ "tree", required_argument, NULL, 't' },
		{ "host", required_argument, NULL, 'n' },
		{ "sshd-config", required_argument, NULL, 'c' },
		{ "sshd-addr", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dev = NULL, *sshd_config = NULL, *sshd_addr = NULL;
	struct lab_decoder *dec;
	int sshd_fd = -1;
	struct utsname uts;
	int c;

	lab_prog = "loom-lab-agent";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 's': dev = optarg; break;
		case 't': tree = optarg; break;
		case 'n': host_index = optarg; break;
		case 'c': sshd_config = optarg; break;
		case 'a': sshd_addr = optarg; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (!sshd_config != !sshd_addr) {
		lab_info("--sshd-config and --sshd-addr go together (the init script "
			 "passes both, or neither for a lab without ssh)");
		return 2;
	}
	if (!dev || optind != argc) {
		usage(stderr);
		return 2;
	}
	serial_fd = open_serial(dev);
	if (serial_fd < 0)
		return 1;
	if (pipe2(sigchld_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		return 1;
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa = { .sa_handler = on_sigchld,
				.sa_flags = SA_RESTART | SA_NOCLDSTOP };
	sigaction(SIGCHLD, &sa, NULL);

	dec = malloc(sizeof(*dec));
	if (!dec)
		return 1;
	lab_decoder_init(dec);
	/* listening before READY: ssh works as soon as the lab is up */
	if (sshd_config)
		sshd_fd = agent_sshd_listen(sshd_addr);
	uname(&uts);
	send_frame(LAB_FRAME_READY, 0, uts.release, (uint32_t)strlen(uts.release));
	lab_info("ready on %s, tree %s", dev, tree);

	for (;;) {
		struct pollfd pfd[3 + 3 * MAX_JOBS];
		struct job *owner[3 + 3 * MAX_JOBS];
		int nfd = 0, timeout = -1;

		pfd[nfd++] = (struct pollfd){ .fd = serial_fd, .events = POLLIN };
		pfd[nfd++] = (struct pollfd){ .fd = sigchld_pipe[0], .events = POLLIN };
		/* (poll skips it when there is no sshd socket: fd -1) */
		pfd[nfd++] = (struct pollfd){ .fd = sshd_fd, .events = POLLIN };
		for (int i = 0; i < MAX_JOBS; i++) {
			struct job *j = &jobs[i];

			if (!j->used)
				continue;
			if (j->exited && !j->exit_sent)
				timeout = PIPE_GRACE_MS / 4;
			if (j->out_fd >= 0) {
				owner[nfd] = j;
				pfd[nfd++] = (struct pollfd){ .fd = j->out_fd, .events = POLLIN };
			}
			if (j->err_fd >= 0) {
				owner[nfd] = j;
				pfd[nfd++] = (struct pollfd){ .fd = j->err_fd, .events = POLLIN };
			}
			if (j->in_fd >= 0 && j->in_len) {
				owner[nfd] = j;
				pfd[nfd++] = (struct pollfd){ .fd = j->in_fd, .events = POLLOUT };
			}
		}
		if (poll(pfd, (nfds_t)nfd, timeout) < 0 && errno != EINTR) {
			lab_info("poll failed: %s", strerror(errno));
			return 1;
		}
		if (pfd[1].revents) {
			char drain[64];

			while (read(sigchld_pipe[0], drain, sizeof(drain)) > 0)
				;
		}
		reap();
		if (pfd[2].revents & POLLIN)
			agent_sshd_accept(sshd_fd, sshd_config);
		for (int k = 3; k < nfd; k++) {
			struct job *j = owner[k];

			if (!pfd[k].revents)
				continue;
			if (pfd[k].fd == j->out_fd)
				relay_pipe(j, &j->out_fd, LAB_FRAME_STDOUT);
			else if (pfd[k].fd == j->err_fd)
				relay_pipe(j, &j->err_fd, LAB_FRAME_STDERR);
			else if (pfd[k].fd == j->in_fd)
				flush_stdin(j);
		}
		if (pfd[0].revents & POLLIN) {
			size_t room;
			uint8_t *space = lab_decoder_space(dec, &room);
			ssize_t n = read(serial_fd, space, room);
			struct lab_frame f;

			if (n > 0) {
				unsigned long before = dec->dropped;

				lab_decoder_commit(dec, (size_t)n);
				while (lab_decoder_next(dec, &f))
					handle_frame(&f);
				if (dec->dropped != before)
					lab_info("skipped %lu damaged bytes on the serial channel",
						  dec->dropped - before);
			} else if (n < 0 && errno != EINTR && errno != EAGAIN) {
				lab_info("serial read failed: %s", strerror(errno));
				sleep(1);
			}
		} else if (pfd[0].revents & (POLLERR | POLLHUP | POLLNVAL)) {
			sleep(1);
		}
		finish_jobs();
	}
}
