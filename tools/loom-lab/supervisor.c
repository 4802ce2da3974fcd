// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab supervisor: the daemon `start` leaves behind.  It owns the card
 * emulators and the QEMUs, holds each guest's agent channel (QEMU connects
 * the guest's second serial port to DIR/hN.agent.sock, where we listen),
 * accepts exec clients on DIR/hN.exec.sock and multiplexes their commands
 * over the one serial channel of each guest by channel id.  It enforces
 * exec timeouts (KILL to the agent, exit 124 to the client) and, when a
 * QEMU or an emulator dies, fails the affected execs with 125.  It also
 * runs the management network's vde_switch, whose stdin is a pipe it holds:
 * the switch ends when the supervisor does.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/sockios.h>

#include "frame.h"
#include "lab.h"
#include "sys.h"

#define MAX_CLIENTS 256
#define CARD_LISTEN_TIMEOUT_MS 30000
#define SWITCH_LISTEN_TIMEOUT_MS 30000
#define INSMOD_TIMEOUT_MS 120000
/* The serial line into the guest carries ~20 KB/s.  Stdin data waits in
 * its own queue and enters the channel in small frames only while little
 * is in flight, so a RUN or KILL never queues behind megabytes of stdin. */
#define STDIN_FRAME_MAX 512
#define STDIN_INFLIGHT_MAX 2048
#define STDIN_RETRY_MS 10

struct outq {
	uint8_t *buf;
	size_t len, cap;
};

struct host {
	int idx;
	pid_t qemu, card;
	int agent_listen, agent_fd, exec_listen;
	struct lab_decoder dec;
	struct outq out;	/* to the agent, in order; may hold a partial frame */
	struct outq stdin_q;	/* whole STDIN frames waiting for their turn */
	bool ready, dead;
	int64_t boot_t0;
	uint32_t next_chan;
	char release[128];
	char why_dead[LAB_PATH_MAX + 256];
};

struct client {
	bool used;
	int fd;			/* -1: the supervisor's own command */
	int host;
	uint32_t chan;		/* 0 until RUN was forwarded */
	uint32_t timeout_ms;
	int64_t deadline;
	bool finished;		/* EXIT/ERROR queued: close once flushed */
	struct lab_decoder *dec;
	struct outq out;	/* frames to the client, or captured output */
	int status;		/* own command: exit status, -1 while running */
};

static struct lab_config *cfg;
static struct host hosts[LAB_MAX_HOSTS];
static pid_t switch_pid;
static int switch_stdin = -1;	/* the switch's console: EOF stops it */
static struct client clients[MAX_CLIENTS];
static int sig_pipe[2];
static int status_fd = -1;
static volatile sig_atomic_t term_requested;

static void outq_put(struct outq *q, const void *p, size_t len)
{
	if (q->len + len > q->cap) {
		size_t cap = q->cap ? q->cap : 8192;

		while (cap < q->len + len)
			cap *= 2;
		uint8_t *nb = realloc(q->buf, cap);

		if (!nb) {
			lab_err("out of memory buffering %zu bytes", len);
			return;
		}
		q->buf = nb;
		q->cap = cap;
	}
	memcpy(q->buf + q->len, p, len);
	q->len += len;
}

static void outq_frame(struct outq *q, uint8_t type, uint32_t chan,
		       const void *p, uint32_t len)
{
	uint8_t buf[LAB_FRAME_MAX_SIZE];

	outq_put(q, buf, lab_frame_encode(buf, type, chan, p, len));
}

/* Writes what the fd takes; -1 when the peer is gone. */
static int outq_flush(struct outq *q, int fd)
{
	while (q->len) {
		ssize_t n = write(fd, q->buf, q->len);

		if (n < 0)
			return (errno == EAGAIN || errno == EINTR) ? 0 : -1;
		memmove(q->buf, q->buf + n, q->len - (size_t)n);
		q->len -= (size_t)n;
	}
	return 0;
}

static void outq_free(struct outq *q)
{
	free(q->buf);
	*q = (struct outq){ 0 };
}

/* Bytes written to the agent socket that QEMU has not read yet. */
static int agent_inflight(int fd)
{
	int n = 0;

	if (ioctl(fd, SIOCOUTQ, &n) < 0)
		return 0;
	return n;
}

/* Control frames first; then stdin, one small frame at a time. */
static int host_flush(struct host *h)
{
	if (outq_flush(&h->out, h->agent_fd) < 0)
		return -1;
	while (!h->out.len && h->stdin_q.len &&
	       agent_inflight(h->agent_fd) < STDIN_INFLIGHT_MAX) {
		size_t fl = LAB_FRAME_HDR_SIZE + lab_get_u32(h->stdin_q.buf + 8) +
			    LAB_FRAME_TRAILER_SIZE;

		outq_put(&h->out, h->stdin_q.buf, fl);
		memmove(h->stdin_q.buf, h->stdin_q.buf + fl, h->stdin_q.len - fl);
		h->stdin_q.len -= fl;
		if (outq_flush(&h->out, h->agent_fd) < 0)
			return -1;
	}
	return 0;
}

static void on_signal(int sig)
{
	int saved = errno;
	char c = (char)sig;

	if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP)
		term_requested = 1;
	if (write(sig_pipe[1], &c, 1) < 0) {
		/* a wakeup is pending already */
	}
	errno = saved;
}

static int listen_unix(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		lab_err("socket path %s is too long (max %zu bytes): use a shorter --dir",
			path, sizeof(sa.sun_path) - 1);
		return -1;
	}
	strcpy(sa.sun_path, path);
	unlink(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 64) < 0) {
		lab_err("cannot listen on %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

/* The last @lines lines of host @host's log DIR/h<host>.@name.log. */
static void host_log_tail(const struct lab_config *c, int host, const char *name,
			  int lines)
{
	char path[LAB_PATH_MAX];
	size_t len;
	char *text, *p;
	int seen = 0;

	if (lab_path(path, c->dir, "h%d.%s.log", host, name) < 0)
		return;
	text = read_text_file(path, &len);
	if (!text) {
		lab_err("host %d: no %s log at %s", host, name, path);
		return;
	}
	p = text + len;
	while (p > text && len && p[-1] == '\n')
		*--p = 0;
	while (p > text && seen < lines) {
		p--;
		if (*p == '\n')
			seen++;
	}
	if (*p == '\n')
		p++;
	if (!*p) {
		if (!strcmp(name, "console"))
			lab_err("host %d: its console log %s is empty (the kernel printed nothing)",
				host, path);
		free(text);
		return;
	}
	lab_err("host %d: last lines of its %s log %s:", host, name, path);
	for (char *save = NULL, *l = strtok_r(p, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		l[strcspn(l, "\r")] = 0;
		lab_info("  h%d| %s", host, l);
	}
	free(text);
}

void lab_console_tail(const struct lab_config *c, int host, int lines)
{
	host_log_tail(c, host, "console", lines);
}

static void kill_children(void)
{
	struct lab_proc procs[2 * LAB_MAX_HOSTS + 8];
	int n = lab_pids_load(cfg->dir, procs, (int)(sizeof(procs) / sizeof(procs[0])));

	/* QEMUs first (they hold the emulators' and the switch's sockets),
	 * then the emulators and the switch */
	for (int pass = 0; pass < 2; pass++) {
		struct lab_proc sel[2 * LAB_MAX_HOSTS + 8];
		int k = 0;

		for (int i = 0; i < n; i++)
			if (pass ? procs[i].role == LAB_ROLE_CARD || procs[i].role == LAB_ROLE_SWITCH :
				   procs[i].role == LAB_ROLE_QEMU)
				sel[k++] = procs[i];
		lab_kill_procs(sel, k, 3000);
	}
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
}

static void unlink_ram(void)
{
	char path[LAB_PATH_MAX];

	for (int i = 0; i < cfg->hosts; i++) {
		lab_ram_path(cfg, i, path);
		unlink(path);
	}
}

static void __attribute__((noreturn)) start_failed(void)
{
	kill_children();
	unlink_ram();
	if (status_fd >= 0) {
		write_all(status_fd, "@@FAIL\n", 7);
		close(status_fd);
	}
	exit(1);
}

static struct client *client_alloc(void)
{
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (!clients[i].used) {
			struct client *c = &clients[i];

			*c = (struct client){ .used = true, .fd = -1, .status = -1 };
			return c;
		}
	return NULL;
}

static void client_free(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->dec);
	outq_free(&c->out);
	c->used = false;
}

static void client_error(struct client *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void client_error(struct client *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(msg))
		n = sizeof(msg) - 1;
	if (c->fd < 0) {
		outq_put(&c->out, msg, (size_t)n);
		c->status = LAB_EXIT_LAB_ERROR;
	} else {
		outq_frame(&c->out, LAB_FRAME_ERROR, 0, msg, (uint32_t)n);
	}
	c->finished = true;
}

static void client_exit(struct client *c, int32_t status, uint32_t reason)
{
	uint8_t b[8];

	if (c->fd < 0) {
		c->status = status;
	} else {
		lab_put_u32(b, (uint32_t)status);
		lab_put_u32(b + 4, reason);
		outq_frame(&c->out, LAB_FRAME_EXIT, 0, b, 8);
	}
	c->finished = true;
}

static void host_died(struct host *h, const char *why)
{
	if (h->dead)
		return;
	h->dead = true;
	snprintf(h->why_dead, sizeof(h->why_dead), "%s", why);
	lab_err("host %d: %s", h->idx, why);
	if (h->agent_fd >= 0) {
		close(h->agent_fd);
		h->agent_fd = -1;
	}
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &clients[i];

		if (c->used && c->host == h->idx && !c->finished)
			client_error(c, "host %d is down: %s (see %s/h%d.console.log)",
				     h->idx, why, cfg->dir, h->idx);
	}
}

static void send_run(struct host *h, struct client *c, const uint8_t *p,
		     uint32_t len)
{
	if (h->dead) {
		client_error(c, "host %d is down: %s", h->idx, h->why_dead);
		return;
	}
	if (!h->ready || h->agent_fd < 0) {
		client_error(c, "host %d is not up", h->idx);
		return;
	}
	if (len < 4) {
		client_error(c, "malformed RUN request");
		return;
	}
	c->chan = h->next_chan++;
	c->timeout_ms = lab_get_u32(p);
	c->deadline = c->timeout_ms ? now_ms() + c->timeout_ms : 0;
	outq_frame(&h->out, LAB_FRAME_RUN, c->chan, p, len);
}

static struct client *client_by_chan(int host, uint32_t chan)
{
	if (!chan)
		return NULL;
	for (int i = 0; i < MAX_CLIENTS; i++)
		if (clients[i].used && clients[i].host == host &&
		    clients[i].chan == chan && !clients[i].finished)
			return &clients[i];
	return NULL;
}

static void agent_frame(struct host *h, const struct lab_frame *f)
{
	struct client *c;

	if (f->type == LAB_FRAME_READY) {
		if (!h->ready) {
			snprintf(h->release, sizeof(h->release), "%.*s", (int)f->len,
				 (const char *)f->payload);
			h->ready = true;
			lab_info("host %d up in %.1f s (kernel %s)", h->idx,
				 (double)(now_ms() - h->boot_t0) / 1000.0, h->release);
		} else {
			host_died(h, "the guest agent restarted (guest rebooted?)");
		}
		return;
	}
	c = client_by_chan(h->idx, f->chan);
	if (!c)
		return;	/* a command whose client is gone or timed out */
	switch (f->type) {
	case LAB_FRAME_STDOUT:
	case LAB_FRAME_STDERR:
		if (c->fd < 0)
			outq_put(&c->out, f->payload, f->len);
		else
			outq_frame(&c->out, f->type, 0, f->payload, f->len);
		break;
	case LAB_FRAME_EXIT:
		client_exit(c, f->len >= 4 ? (int32_t)lab_get_u32(f->payload) : 125, 0);
		break;
	default:
		lab_err("host %d: unexpected %s frame from the agent", h->idx,
			lab_frame_type_name(f->type));
	}
}

static void client_frame(struct client *c, const struct lab_frame *f)
{
	struct host *h = &hosts[c->host];

	switch (f->type) {
	case LAB_FRAME_RUN:
		if (c->chan)
			client_error(c, "second RUN on one exec connection");
		else
			send_run(h, c, f->payload, f->len);
		break;
	case LAB_FRAME_STDIN:
		if (!c->chan || h->dead || h->agent_fd < 0)
			break;
		for (uint32_t off = 0; off < f->len; off += STDIN_FRAME_MAX) {
			uint32_t n = f->len - off;

			if (n > STDIN_FRAME_MAX)
				n = STDIN_FRAME_MAX;
			outq_frame(&h->stdin_q, LAB_FRAME_STDIN, c->chan,
				   f->payload + off, n);
		}
		break;
	case LAB_FRAME_STDIN_EOF:
		/* after the data it ends */
		if (c->chan && !h->dead && h->agent_fd >= 0)
			outq_frame(&h->stdin_q, f->type, c->chan, NULL, 0);
		break;
	default:
		client_error(c, "unexpected %s frame from the exec client",
			     lab_frame_type_name(f->type));
	}
}

static void client_gone(struct client *c)
{
	struct host *h = &hosts[c->host];

	if (c->chan && !c->finished && !h->dead && h->agent_fd >= 0)
		outq_frame(&h->out, LAB_FRAME_KILL, c->chan, NULL, 0);
	client_free(c);
}

static void read_client(struct client *c)
{
	size_t room;
	uint8_t *space = lab_decoder_space(c->dec, &room);
	ssize_t n = read(c->fd, space, room);
	struct lab_frame f;

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		client_gone(c);
		return;
	}
	if (n < 0)
		return;
	lab_decoder_commit(c->dec, (size_t)n);
	while (c->used && !c->finished && lab_decoder_next(c->dec, &f))
		client_frame(c, &f);
}

static void read_agent(struct host *h)
{
	size_t room;
	uint8_t *space = lab_decoder_space(&h->dec, &room);
	ssize_t n = read(h->agent_fd, space, room);
	struct lab_frame f;

	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		host_died(h, "QEMU closed the agent channel");
		return;
	}
	if (n < 0)
		return;
	lab_decoder_commit(&h->dec, (size_t)n);
	unsigned long before = h->dec.dropped;

	while (h->agent_fd >= 0 && lab_decoder_next(&h->dec, &f))
		agent_frame(h, &f);
	if (h->dec.dropped != before)
		lab_err("host %d: skipped %lu damaged bytes on the agent channel",
			h->idx, h->dec.dropped - before);
}

static void accept_exec(struct host *h)
{
	int fd = accept4(h->exec_listen, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	struct client *c;

	if (fd < 0)
		return;
	c = client_alloc();
	if (!c) {
		write_frame(fd, LAB_FRAME_ERROR, 0, "too many execs at once", 22);
		close(fd);
		return;
	}
	c->fd = fd;
	c->host = h->idx;
	c->dec = malloc(sizeof(*c->dec));
	if (!c->dec) {
		client_free(c);
		return;
	}
	lab_decoder_init(c->dec);
}

static void reap_children(void)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		char why[LAB_PATH_MAX + 200];
		int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

		if (pid == switch_pid) {
			switch_pid = 0;
			if (!term_requested)
				lab_err("the management network's vde_switch (pid %d) exited with "
					"status %d: the hosts cannot reach each other any more; see "
					"%s/switch.log", (int)pid, code, cfg->dir);
		}
		for (int i = 0; i < cfg->hosts; i++) {
			struct host *h = &hosts[i];

			if (pid == h->qemu) {
				snprintf(why, sizeof(why), "QEMU (pid %d) exited with status %d",
					 (int)pid, code);
				h->qemu = 0;
				if (h->dead && !term_requested)
					lab_err("host %d: %s", i, why);	/* why it went */
				host_died(h, why);
				if (!term_requested)
					lab_console_tail(cfg, i, 15);
			} else if (pid == h->card) {
				snprintf(why, sizeof(why),
					 "card emulator (pid %d) exited with status %d; see %s/card%d.log",
					 (int)pid, code, cfg->dir, i);
				h->card = 0;
				host_died(h, why);
			}
		}
	}
}

static void check_deadlines(int64_t now)
{
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &clients[i];
		struct host *h;

		if (!c->used || c->finished || !c->chan || !c->deadline ||
		    now < c->deadline)
			continue;
		h = &hosts[c->host];
		if (!h->dead && h->agent_fd >= 0)
			outq_frame(&h->out, LAB_FRAME_KILL, c->chan, NULL, 0);
		lab_info("host %d: command on channel %u timed out after %u ms; killed",
			 c->host, c->chan, c->timeout_ms);
		client_exit(c, LAB_EXIT_TIMEOUT, 1);
	}
}

/* One round of the event loop; wait at most max_wait_ms. */
static void loop_once(int max_wait_ms)
{
	struct pollfd pfd[1 + 3 * LAB_MAX_HOSTS + MAX_CLIENTS];
	void *who[1 + 3 * LAB_MAX_HOSTS + MAX_CLIENTS];
	char kind[1 + 3 * LAB_MAX_HOSTS + MAX_CLIENTS];
	int n = 0, timeout = max_wait_ms;
	int64_t now = now_ms();

	pfd[n] = (struct pollfd){ .fd = sig_pipe[0], .events = POLLIN };
	kind[n++] = 's';
	for (int i = 0; i < cfg->hosts; i++) {
		struct host *h = &hosts[i];

		if (h->agent_fd < 0 && h->agent_listen >= 0 && !h->dead) {
			pfd[n] = (struct pollfd){ .fd = h->agent_listen, .events = POLLIN };
			who[n] = h;
			kind[n++] = 'L';
		}
		if (h->agent_fd >= 0) {
			pfd[n] = (struct pollfd){ .fd = h->agent_fd, .events = POLLIN |
						  (h->out.len ? POLLOUT : 0) };
			if (!h->out.len && h->stdin_q.len &&
			    (timeout < 0 || timeout > STDIN_RETRY_MS))
				timeout = STDIN_RETRY_MS;
			who[n] = h;
			kind[n++] = 'A';
		}
		if (h->exec_listen >= 0) {
			pfd[n] = (struct pollfd){ .fd = h->exec_listen, .events = POLLIN };
			who[n] = h;
			kind[n++] = 'E';
		}
	}
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &clients[i];

		if (!c->used || c->fd < 0)
			continue;
		if (c->deadline && !c->finished) {
			int64_t left = c->deadline - now;

			if (left < 0)
				left = 0;
			if (timeout < 0 || left < timeout)
				timeout = (int)left;
		}
		pfd[n] = (struct pollfd){ .fd = c->fd, .events =
					  (c->finished ? 0 : POLLIN) |
					  (c->out.len ? POLLOUT : 0) };
		who[n] = c;
		kind[n++] = 'C';
	}
	if (poll(pfd, (nfds_t)n, timeout) < 0 && errno != EINTR) {
		lab_err("poll failed: %s", strerror(errno));
		return;
	}
	for (int k = 0; k < n; k++) {
		short re = pfd[k].revents;

		if (!re)
			continue;
		if (kind[k] == 's') {
			char drain[64];

			while (read(sig_pipe[0], drain, sizeof(drain)) > 0)
				;
		} else if (kind[k] == 'L') {
			struct host *h = who[k];

			h->agent_fd = accept4(h->agent_listen, NULL, NULL,
					      SOCK_CLOEXEC | SOCK_NONBLOCK);
		} else if (kind[k] == 'A') {
			struct host *h = who[k];

			if (re & POLLOUT && host_flush(h) < 0)
				host_died(h, "cannot write to the agent channel");
			if (h->agent_fd >= 0 && re & (POLLIN | POLLHUP | POLLERR))
				read_agent(h);
		} else if (kind[k] == 'E') {
			accept_exec(who[k]);
		} else if (kind[k] == 'C') {
			struct client *c = who[k];

			if (!c->used || c->fd != pfd[k].fd)
				continue;
			if (re & POLLOUT && outq_flush(&c->out, c->fd) < 0) {
				client_gone(c);
				continue;
			}
			if (!c->finished && re & (POLLIN | POLLHUP | POLLERR))
				read_client(c);
			else if (c->finished && re & (POLLHUP | POLLERR))
				client_gone(c);
		}
	}
	reap_children();
	check_deadlines(now_ms());
	/* push queued frames out right away; poll only waits for the rest */
	for (int i = 0; i < cfg->hosts; i++) {
		struct host *h = &hosts[i];

		if (h->agent_fd >= 0 && (h->out.len || h->stdin_q.len) &&
		    host_flush(h) < 0)
			host_died(h, "cannot write to the agent channel");
		if (h->dead) {
			h->out.len = 0;
			h->stdin_q.len = 0;
		}
	}
	for (int i = 0; i < MAX_CLIENTS; i++) {
		struct client *c = &clients[i];

		if (!c->used || c->fd < 0)
			continue;
		if (c->out.len && outq_flush(&c->out, c->fd) < 0) {
			client_gone(c);
			continue;
		}
		if (c->finished && !c->out.len)
			client_free(c);
	}
}

static void create_ram(void)
{
	for (int i = 0; i < cfg->hosts; i++) {
		char path[LAB_PATH_MAX];
		int fd;

		lab_ram_path(cfg, i, path);
		if (lab_shm_record(cfg->dir, path) < 0) {
			lab_err("cannot record %s in %s/shm: %s", path, cfg->dir,
				strerror(errno));
			start_failed();
		}
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd < 0 || ftruncate(fd, (off_t)cfg->mem_mib << 20) < 0) {
			lab_err("cannot create the guest RAM file %s (%d MiB): %s",
				path, cfg->mem_mib, strerror(errno));
			if (fd >= 0)
				close(fd);
			start_failed();
		}
		close(fd);
	}
}

static pid_t spawn_logged(struct lab_argv *a, enum lab_role role, int i,
			  const char *log)
{
	struct lab_placement place = { .card_cpu = -1, .qemu_cpu = -1 };
	pid_t pid;

	if (role != LAB_ROLE_SWITCH)
		lab_host_placement(cfg, i, &place);
	pid = lab_spawn(a->v, log, role == LAB_ROLE_CARD ? place.card_cpu : place.qemu_cpu,
			role == LAB_ROLE_SWITCH ? switch_stdin : -1);

	if (pid < 0) {
		lab_err("cannot start %s: %s", a->v[0], strerror(errno));
		lab_argv_free(a);
		start_failed();
	}
	lab_pids_record(cfg->dir, role, i, pid);
	lab_argv_free(a);
	return pid;
}

static void start_cards(void)
{
	if (cfg->tcp_cables && lab_card_tcp_ports(cfg) < 0)
		start_failed();
	for (int i = 0; i < cfg->hosts; i++) {
		struct lab_argv a = { .n = 0 };
		char log[LAB_PATH_MAX];

		lab_path(log, cfg->dir, "card%d.log", i);
		lab_card_argv(cfg, i, &a);
		hosts[i].card = spawn_logged(&a, LAB_ROLE_CARD, i, log);
	}
	for (int i = 0; i < cfg->hosts; i++) {
		char what[64], sock[LAB_PATH_MAX], log[LAB_PATH_MAX];

		snprintf(what, sizeof(what), "card emulator %d", i);
		lab_path(sock, cfg->dir, "card%d.ivshmem.sock", i);
		lab_path(log, cfg->dir, "card%d.log", i);
		if (lab_wait_listening(what, sock, hosts[i].card, log,
				       CARD_LISTEN_TIMEOUT_MS) < 0) {
			hosts[i].card = 0;
			start_failed();
		}
	}
}

/*
 * The management network: the guests' files, then the switch with a pipe
 * as its console, which the supervisor keeps open for as long as it runs.
 */
static void start_switch(void)
{
	struct lab_argv a = { .n = 0 };
	char log[LAB_PATH_MAX], ctl[LAB_PATH_MAX];
	int pipefd[2];

	if (lab_guest_files(cfg) < 0)
		start_failed();
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		lab_err("cannot create a pipe for vde_switch: %s", strerror(errno));
		start_failed();
	}
	switch_stdin = pipefd[0];
	lab_path(log, cfg->dir, "switch.log");
	lab_switch_argv(cfg, &a);
	switch_pid = spawn_logged(&a, LAB_ROLE_SWITCH, 0, log);
	close(pipefd[0]);
	switch_stdin = -1;
	lab_switch_dir(cfg, ctl);
	strncat(ctl, "/ctl", sizeof(ctl) - strlen(ctl) - 1);
	if (lab_wait_listening("the management network's vde_switch", ctl, switch_pid, log,
			       SWITCH_LISTEN_TIMEOUT_MS) < 0) {
		switch_pid = 0;
		start_failed();
	}
	lab_info("management network up: %s (hosts loom-h0..loom-h%d)", LAB_MGMT_SUBNET,
		 cfg->hosts - 1);
	/* pipefd[1] stays open, close-on-exec, until the supervisor exits */
}

static void start_qemus(void)
{
	for (int i = 0; i < cfg->hosts; i++) {
		struct host *h = &hosts[i];
		struct lab_argv a = { .n = 0 };
		char path[LAB_PATH_MAX];

		lab_path(path, cfg->dir, "h%d.agent.sock", i);
		h->agent_listen = listen_unix(path);
		if (h->agent_listen < 0)
			start_failed();
		lab_info("booting host %d/%d...", i + 1, cfg->hosts);
		lab_path(path, cfg->dir, "h%d.qemu.log", i);
		lab_qemu_argv(cfg, i, &a);
		h->boot_t0 = now_ms();
		h->qemu = spawn_logged(&a, LAB_ROLE_QEMU, i, path);
	}
}

static void wait_ready(void)
{
	int boot_timeout_s = cfg->boot_timeout_s * cfg->timeout_scale;
	int64_t deadline = now_ms() + (int64_t)boot_timeout_s * 1000;

	for (;;) {
		int up = 0;

		for (int i = 0; i < cfg->hosts; i++) {
			if (hosts[i].dead) {
				/* a moment for its QEMU to exit and say why */
				for (int t = 0; t < 20 && hosts[i].qemu; t++)
					loop_once(100);
				lab_err("host %d failed to boot", i);
				host_log_tail(cfg, i, "qemu", 10);
				start_failed();
			}
			up += hosts[i].ready;
		}
		if (up == cfg->hosts)
			return;
		if (term_requested)
			start_failed();
		if (now_ms() > deadline) {
			for (int i = 0; i < cfg->hosts; i++)
				if (!hosts[i].ready) {
					lab_err("host %d did not come up within %d s "
						"(raise --boot-timeout if the machine is busy)",
						i, boot_timeout_s);
					lab_console_tail(cfg, i, 20);
				}
			start_failed();
		}
		loop_once(500);
	}
}

static void load_module(void)
{
	struct client *own[LAB_MAX_HOSTS];
	char run[8 + LAB_PATH_MAX];
	int n;
	bool failed = false;

	lab_put_u32((uint8_t *)run, INSMOD_TIMEOUT_MS * (uint32_t)cfg->timeout_scale);
	n = snprintf(run + 4, sizeof(run) - 4, "insmod '%s'", cfg->module);
	for (int i = 0; i < cfg->hosts; i++) {
		own[i] = client_alloc();
		if (!own[i])
			start_failed();
		own[i]->host = i;
		send_run(&hosts[i], own[i], (uint8_t *)run, (uint32_t)(4 + n));
	}
	for (;;) {
		int done = 0;

		for (int i = 0; i < cfg->hosts; i++)
			done += own[i]->status >= 0;
		if (done == cfg->hosts)
			break;
		if (term_requested)
			start_failed();
		loop_once(500);
	}
	for (int i = 0; i < cfg->hosts; i++) {
		struct client *c = own[i];

		if (c->status == 0) {
			lab_info("host %d: loaded %s", i, cfg->module);
		} else {
			failed = true;
			lab_err("host %d: insmod %s failed (exit status %d)%s%.*s", i,
				cfg->module, c->status, c->out.len ? ": " : "",
				(int)c->out.len, (const char *)c->out.buf);
			lab_console_tail(cfg, i, 20);
		}
		client_free(c);
	}
	if (failed)
		start_failed();
}

static void open_exec_sockets(void)
{
	for (int i = 0; i < cfg->hosts; i++) {
		char path[LAB_PATH_MAX];

		lab_path(path, cfg->dir, "h%d.exec.sock", i);
		hosts[i].exec_listen = listen_unix(path);
		if (hosts[i].exec_listen < 0)
			start_failed();
	}
}

static void __attribute__((noreturn)) shutdown_and_exit(void)
{
	lab_info("stopping on request: stopping the VMs and emulators");
	kill_children();
	unlink_ram();
	exit(0);
}

void lab_supervise(struct lab_config *c, int fd)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESTART };

	cfg = c;
	status_fd = fd;
	lab_msg_fd = fd;
	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) < 0)
		start_failed();
	sigaction(SIGCHLD, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	for (int i = 0; i < cfg->hosts; i++) {
		struct host *h = &hosts[i];

		*h = (struct host){ .idx = i, .agent_listen = -1, .agent_fd = -1,
				    .exec_listen = -1, .next_chan = 1 };
		lab_decoder_init(&h->dec);
	}
	create_ram();
	if (!cfg->no_net)
		start_switch();
	if (!cfg->no_card)
		start_cards();
	start_qemus();
	wait_ready();
	if (cfg->module[0])
		load_module();
	open_exec_sockets();

	char shape[TOPO_NAME_MAX];

	topo_name(&cfg->shape, shape, sizeof(shape));
	lab_info("lab is up: %d host%s (%s) in %s", cfg->hosts,
		 cfg->hosts > 1 ? "s" : "", shape, cfg->dir);
	write_all(status_fd, "@@OK\n", 5);
	close(status_fd);
	status_fd = -1;
	lab_msg_fd = 2;

	while (!term_requested)
		loop_once(-1);
	shutdown_and_exit();
}
