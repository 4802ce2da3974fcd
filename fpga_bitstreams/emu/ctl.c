// SPDX-License-Identifier: GPL-2.0
/*
 * Control socket: command language and the line-oriented socket server.
 */
#include "ctl.h"
#include "card.h"
#include "hostile.h"
#include "packet_record.h"
#include "unix_socket.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define container_of(p, type, member) \
	((type *)(void *)((char *)(p) - offsetof(type, member)))

#define CTL_MAX_WORDS	4

static const char ctl_help[] =
	"ok commands: ber PORT RATE (flip each transmitted bit with probability RATE, 0 = off); "
	"drop PORT RATE (drop each transmitted frame with probability RATE); "
	"corrupt PORT RATE (flip one bit of each transmitted frame with probability RATE); "
	"cut PORT (cable down until restore); restore PORT; "
	"stats PORT (counters as key=value); "
	"kill (the card dies: every link drops, the emulator exits); "
	"hostile SEED (misbehave on purpose, see --hostile); hostile off; hostile (status); "
	"hostile refuse CMD RESULT | hostile lie CMD RESULT | hostile ignore CMD (the next "
	"admin command CMD, nop/reset/ctx_enable/ctx_disable, is refused with RESULT without "
	"being executed, executed and answered RESULT, or ignored; once); "
	"reg OFF (read a register) | reg OFF VALUE (the card writes it, as its own logic "
	"would: --strict-registers takes it as the card's, not software's); "
	"clock (the card's cycle, nominal clock in kHz, real-time mode, and how it waited "
	"for its events: jumps to near ones, wall-time waits for near and far ones); "
	"record FILE | record off | record (a trace of the host's requests, for loom-sim "
	"--replay); help";

/* Split @line into at most CTL_MAX_WORDS words in @buf; -1 if more. */
static int ctl_split(const char *line, char *buf, size_t len, char **w)
{
	int n = 0;
	char *s, *save = NULL;

	snprintf(buf, len, "%s", line);
	for (s = strtok_r(buf, " \t\r", &save); s; s = strtok_r(NULL, " \t\r", &save)) {
		if (n == CTL_MAX_WORDS)
			return -1;
		w[n++] = s;
	}
	return n;
}

/* A port number of this card, or -1 with the error written to @out. */
static long ctl_port(struct port_set *ps, const char *cmd, const char *s, char *out, size_t len)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (*s < '0' || *s > '9' || *end || errno || v < 0 || v >= (long)ps->n) {
		if (ps->n)
			snprintf(out, len, "error: %s: port '%.32s' is not a port of this card (0..%u)",
				 cmd, s, ps->n - 1);
		else
			snprintf(out, len, "error: %s: port '%.32s': this card has no network ports",
				 cmd, s);
		return -1;
	}
	return v;
}

/* A probability in [0, 1], or -1 with the error written to @out. */
static double ctl_rate(const char *cmd, const char *s, char *out, size_t len)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(v) || v < 0 || v > 1) {
		snprintf(out, len,
			 "error: %s: rate '%.32s' is not a probability between 0 and 1 (e.g. 1e-5; 0 = off)",
			 cmd, s);
		return -1;
	}
	return v;
}

/* An admin command by name or number, or -1 with the error in @out. */
static long ctl_admin_cmd(const char *s, char *out, size_t len)
{
	static const char *const names[] = { "nop", "reset", "ctx_enable", "ctx_disable" };
	char *end;
	long v;

	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return i;
	errno = 0;
	v = strtol(s, &end, 0);
	if (*s < '0' || *s > '9' || *end || errno || v < 0 || v > UINT32_MAX) {
		snprintf(out, len,
			 "error: hostile: '%.32s' is not an admin command (nop, reset, ctx_enable, ctx_disable or a number)",
			 s);
		return -1;
	}
	return v;
}

/* 'reg OFF' reads a register, 'reg OFF VALUE' writes it as the card's own write */
static void ctl_reg(struct card *c, int n, char **w, char *out, size_t len)
{
	unsigned long long off, v = 0;
	char *end;

	if (n != 2 && n != 3) {
		snprintf(out, len, "error: reg: expected 'reg OFF' or 'reg OFF VALUE'");
		return;
	}
	errno = 0;
	off = strtoull(w[1], &end, 0);
	if (errno || *end || *w[1] == '-' || off % 4 || off + 4 > c->regs_size) {
		snprintf(out, len,
			 "error: reg: '%.32s' is not a 4-byte aligned offset below %#zx (the register window)",
			 w[1], c->regs_size);
		return;
	}
	if (n == 3) {
		v = strtoull(w[2], &end, 0);
		if (errno || *end || *w[2] == '-' || v > UINT32_MAX) {
			snprintf(out, len, "error: reg: value '%.32s' is not a 32-bit number", w[2]);
			return;
		}
		card_wr32(c, (uint32_t)off, (uint32_t)v);
	}
	snprintf(out, len, "ok reg %#llx = %#x", off, card_rd32(c, (uint32_t)off));
}

/* 'hostile SEED', 'hostile off', 'hostile', 'hostile refuse|lie|ignore CMD [RESULT]' */
static void ctl_record(struct card *c, int n, char **w, char *out, size_t len)
{
	char err[CTL_REPLY_MAX / 2];
	uint64_t packets;

	if (n == 1) {
		snprintf(out, len, "ok record %s", packet_record_active(c) ? "on" : "off");
	} else if (n != 2) {
		snprintf(out, len, "error: record: expected 'record FILE', 'record off' or 'record'");
	} else if (!strcmp(w[1], "off")) {
		if (packet_record_stop(c, &packets, err, sizeof(err)))
			snprintf(out, len, "ok record off packets %llu", (unsigned long long)packets);
		else
			snprintf(out, len, "error: %s", err);
	} else if (packet_record_start(c, w[1], err, sizeof(err))) {
		card_log(c, "recording requests into %s (control socket)", w[1]);
		snprintf(out, len, "ok record on %s", w[1]);
	} else {
		snprintf(out, len, "error: %s", err);
	}
}

static void ctl_hostile(struct card *c, int n, char **w, char *out, size_t len)
{
	unsigned long long v;
	long cmd;
	char *end;

	if (!c->hostile) {
		snprintf(out, len, "error: hostile: this card has no hostile mode");
		return;
	}
	if (n == 1) {
		out[0] = 0;
		snprintf(out, len, "ok ");
		hostile_describe(c->hostile, out + 3, len - 3);
		return;
	}
	if (n == 2 && !strcmp(w[1], "off")) {
		hostile_stop(c->hostile, c);
		snprintf(out, len, "ok hostile off");
		return;
	}
	if ((n == 4 && (!strcmp(w[1], "refuse") || !strcmp(w[1], "lie"))) ||
	    (n == 3 && !strcmp(w[1], "ignore"))) {
		enum hostile_admin what = n == 3 ? HOSTILE_ADMIN_IGNORE :
					  w[1][0] == 'r' ? HOSTILE_ADMIN_REFUSE : HOSTILE_ADMIN_LIE;
		const char *done = n == 3 ? "ignored" : w[1][0] == 'r' ? "refused" :
				   "executed and answered with an error";

		cmd = ctl_admin_cmd(w[2], out, len);
		if (cmd < 0)
			return;
		v = 0;
		if (n == 4) {
			errno = 0;
			v = strtoull(w[3], &end, 0);
			if (*w[3] < '0' || *w[3] > '9' || *end || errno || v > UINT32_MAX) {
				snprintf(out, len, "error: hostile %s: result '%.32s' is not a 32-bit number",
					 w[1], w[3]);
				return;
			}
		}
		hostile_admin_once(c->hostile, (uint32_t)cmd, what, (uint32_t)v);
		card_log(c, "hostile: the next admin command %ld will be %s (control socket)", cmd,
			 done);
		snprintf(out, len, "ok next admin command %ld %s", cmd, done);
		return;
	}
	if (n == 2) {
		errno = 0;
		v = strtoull(w[1], &end, 0);
		if (*w[1] >= '0' && *w[1] <= '9' && !*end && !errno) {
			hostile_start(c->hostile, c, v, HOSTILE_ALL_KINDS);
			snprintf(out, len, "ok hostile on seed %llu", v);
			return;
		}
	}
	snprintf(out, len,
		 "error: hostile: expected 'hostile SEED', 'hostile off', 'hostile', 'hostile refuse|lie CMD RESULT' or 'hostile ignore CMD'");
}

void ctl_execute(struct port_set *ps, const struct emu_clock *clk, const char *line,
		 char *out, size_t len)
{
	char buf[CTL_LINE_MAX], *w[CTL_MAX_WORDS];
	int n = ctl_split(line, buf, sizeof(buf), w);
	long port;
	double rate;

	for (const char *c = line; *c; c++) {
		if ((unsigned char)*c < 0x20 && *c != '\t' && *c != '\r') {
			snprintf(out, len, "error: control character 0x%02x in the command (text lines only)",
				 (unsigned char)*c);
			return;
		}
		if ((unsigned char)*c >= 0x7f) {
			snprintf(out, len, "error: byte 0x%02x in the command (ASCII text lines only)",
				 (unsigned char)*c);
			return;
		}
	}
	if (n == 0) {
		snprintf(out, len, "error: empty command (try help)");
		return;
	}
	if (n < 0) {
		snprintf(out, len, "error: too many words (a command has at most %d; try help)",
			 CTL_MAX_WORDS - 1);
		return;
	}
	if (!strcmp(w[0], "help")) {
		if (n != 1)
			snprintf(out, len, "error: help takes no argument");
		else
			snprintf(out, len, "%s", ctl_help);
		return;
	}
	if (!strcmp(w[0], "clock")) {
		char desc[CTL_REPLY_MAX];

		if (n != 1) {
			snprintf(out, len, "error: clock takes no argument");
		} else if (!clk) {
			snprintf(out, len, "error: clock: no emulator clock here (only a running loom-card has one)");
		} else {
			emu_clock_describe(clk, ps->card->now, desc, sizeof(desc));
			snprintf(out, len, "ok %s", desc);
		}
		return;
	}
	if (!strcmp(w[0], "kill")) {
		if (n != 1) {
			snprintf(out, len, "error: kill takes no argument");
			return;
		}
		ps->card->killed = true;
		card_log(ps->card, "killed through the control socket");
		snprintf(out, len, "ok card killed");
		return;
	}
	if (!strcmp(w[0], "ber") || !strcmp(w[0], "drop") || !strcmp(w[0], "corrupt")) {
		if (n != 3) {
			snprintf(out, len, "error: %s: expected '%s PORT RATE'", w[0], w[0]);
			return;
		}
		port = ctl_port(ps, w[0], w[1], out, len);
		if (port < 0)
			return;
		rate = ctl_rate(w[0], w[2], out, len);
		if (rate < 0)
			return;
		if (w[0][0] == 'b')
			fault_set_ber(&ps->port[port].fault, rate);
		else if (w[0][0] == 'd')
			fault_set_drop(&ps->port[port].fault, rate);
		else
			fault_set_corrupt(&ps->port[port].fault, rate);
		card_log(ps->card, "port %ld: %s rate %g (control socket)", port,
			 w[0][0] == 'b' ? "bit error" : w[0][0] == 'd' ? "frame drop" :
			 "frame corruption", rate);
		snprintf(out, len, "ok port %ld %s %g", port, w[0], rate);
		return;
	}
	if (!strcmp(w[0], "cut") || !strcmp(w[0], "restore") || !strcmp(w[0], "stats")) {
		if (n != 2) {
			snprintf(out, len, "error: %s: expected '%s PORT'", w[0], w[0]);
			return;
		}
		port = ctl_port(ps, w[0], w[1], out, len);
		if (port < 0)
			return;
		if (w[0][0] == 'c') {
			port_cut(ps, (unsigned int)port);
			snprintf(out, len, "ok port %ld cut", port);
		} else if (w[0][0] == 'r') {
			port_restore(ps, (unsigned int)port);
			snprintf(out, len, "ok port %ld restored", port);
		} else {
			char stats[CTL_REPLY_MAX];

			port_stats(ps, (unsigned int)port, stats, sizeof(stats));
			snprintf(out, len, "ok %s", stats);
		}
		return;
	}
	if (!strcmp(w[0], "hostile")) {
		ctl_hostile(ps->port[0].card, n, w, out, len);
		return;
	}
	if (!strcmp(w[0], "reg")) {
		ctl_reg(ps->port[0].card, n, w, out, len);
		return;
	}
	if (!strcmp(w[0], "record")) {
		ctl_record(ps->card, n, w, out, len);
		return;
	}
	snprintf(out, len, "error: unknown command '%.32s' (try help)", w[0]);
}

/* ---- socket server ---------------------------------------------------- */

static void ctl_drop_client(struct ctl_client *cl)
{
	ev_ctl(cl->srv->epfd, EPOLL_CTL_DEL, cl->fd, 0, NULL);
	close(cl->fd);
	cl->fd = -1;
}

/*
 * Queue one answer line.  Input is read in small chunks and only while
 * the queue has room for a chunk's worth of answers, so this always fits.
 */
static void ctl_queue(struct ctl_client *cl, const char *text)
{
	size_t room = sizeof(cl->out) - cl->out_len;
	int n = snprintf(cl->out + cl->out_len, room, "%s\n", text);

	if (n < 0)
		return;
	if ((size_t)n >= room) {	/* cannot happen; still keep lines whole */
		n = (int)room - 1;
		cl->out[cl->out_len + (size_t)n - 1] = '\n';
	}
	cl->out_len += (size_t)n;
}

/* Events to wait for: input while answers have room, output while queued. */
static void ctl_arm(struct ctl_client *cl)
{
	uint32_t ev = EPOLLRDHUP;

	if (cl->out_len + CTL_READ_CHUNK * CTL_OUT_PER_BYTE <= sizeof(cl->out))
		ev |= EPOLLIN;
	if (cl->out_len)
		ev |= EPOLLOUT;
	if (ev != cl->armed) {
		cl->armed = ev;
		ev_ctl(cl->srv->epfd, EPOLL_CTL_MOD, cl->fd, ev, &cl->ev);
	}
}

/* Send queued answers; false if the client is gone. */
static bool ctl_flush(struct ctl_client *cl)
{
	while (cl->out_len) {
		ssize_t n = send(cl->fd, cl->out, cl->out_len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0)
			return false;
		memmove(cl->out, cl->out + n, cl->out_len - (size_t)n);
		cl->out_len -= (size_t)n;
	}
	return true;
}

static void ctl_take_input(struct ctl_client *cl, const char *buf, size_t n)
{
	char reply[CTL_REPLY_MAX];

	for (size_t i = 0; i < n; i++) {
		if (buf[i] != '\n') {
			if (cl->len < sizeof(cl->line) - 1)
				cl->line[cl->len++] = buf[i];
			else
				cl->overlong = true;
			continue;
		}
		if (cl->overlong) {
			snprintf(reply, sizeof(reply), "error: command line longer than %d bytes; ignored",
				 CTL_LINE_MAX - 1);
		} else {
			cl->line[cl->len] = 0;
			ctl_execute(cl->srv->ports, cl->srv->clk, cl->line, reply, sizeof(reply));
		}
		cl->len = 0;
		cl->overlong = false;
		ctl_queue(cl, reply);
	}
}

static void ctl_client_event(struct ev_handler *h, uint32_t events)
{
	struct ctl_client *cl = container_of(h, struct ctl_client, ev);
	char buf[CTL_READ_CHUNK];
	ssize_t n = 0;

	if ((events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) && (cl->armed & EPOLLIN)) {
		n = recv(cl->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
			ctl_drop_client(cl);
			return;
		}
		if (n > 0)
			ctl_take_input(cl, buf, (size_t)n);
	}
	if (!ctl_flush(cl)) {
		ctl_drop_client(cl);
		return;
	}
	ctl_arm(cl);
}

static void ctl_listen_event(struct ev_handler *h, uint32_t events)
{
	struct ctl_server *s = container_of(h, struct ctl_server, lev);
	int fd = accept4(s->lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

	(void)events;
	if (fd < 0)
		return;
	for (unsigned int i = 0; i < CTL_MAX_CLIENTS; i++) {
		struct ctl_client *cl = &s->client[i];

		if (cl->fd >= 0)
			continue;
		cl->fd = fd;
		cl->len = 0;
		cl->overlong = false;
		cl->out_len = 0;
		cl->armed = EPOLLIN | EPOLLRDHUP;
		ev_ctl(s->epfd, EPOLL_CTL_ADD, fd, cl->armed, &cl->ev);
		return;
	}
	{
		static const char busy[] = "error: too many control clients; try again later\n";

		if (send(fd, busy, sizeof(busy) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
			card_log(s->card, "control socket: could not refuse a client: %s", strerror(errno));
		close(fd);
	}
}

bool ctl_open(struct ctl_server *s, const char *path, int epfd, struct port_set *ps,
	      struct card *c, const struct emu_clock *clk, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->lfd = -1;
	s->epfd = epfd;
	s->ports = ps;
	s->card = c;
	s->clk = clk;
	for (unsigned int i = 0; i < CTL_MAX_CLIENTS; i++) {
		s->client[i].fd = -1;
		s->client[i].srv = s;
		s->client[i].ev.fn = ctl_client_event;
	}
	if (strlen(path) >= sizeof(s->path)) {
		snprintf(err, errlen, "--ctl '%s': socket path longer than %zu bytes", path,
			 sizeof(s->path) - 1);
		return false;
	}
	memcpy(s->path, path, strlen(path) + 1);
	s->lfd = unix_listen(path, SOCK_NONBLOCK, "control", err, errlen);
	if (s->lfd < 0)
		return false;
	s->lev.fn = ctl_listen_event;
	ev_ctl(epfd, EPOLL_CTL_ADD, s->lfd, EPOLLIN, &s->lev);
	return true;
}

void ctl_close(struct ctl_server *s)
{
	for (unsigned int i = 0; i < CTL_MAX_CLIENTS; i++)
		if (s->client[i].fd >= 0) {
			close(s->client[i].fd);
			s->client[i].fd = -1;
		}
	if (s->lfd >= 0) {
		close(s->lfd);
		unlink(s->path);
		s->lfd = -1;
	}
}
