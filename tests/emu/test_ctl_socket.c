// SPDX-License-Identifier: GPL-2.0
/*
 * Native test of the card's control socket (--ctl): every command, the
 * answers to bad commands and to garbage, pipelined lines, too many
 * clients, and what cut and restore do to a live cable (link down, puts
 * fail with LINK, stays down, comes back on restore) on a ring of 2.
 */
#include "card.h"
#include "fabric.h"
#include "tap.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

TAP_DEFINE;

#define CTX	1
#define KEY		0xc0de0000u	/* one partition: every context */
#define CTL_MAX	8	/* clients a card serves (ctl.h CTL_MAX_CLIENTS) */

static struct fabric f;

static int ctl_connect(unsigned int card)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memcpy(sa.sun_path, f.ctl[card], strlen(f.ctl[card]) + 1);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* Read @n lines (up to 5 s) into @buf; returns the number of lines read. */
static int read_lines(int fd, char *buf, size_t len, int n)
{
	size_t got = 0;
	int lines = 0;

	while (lines < n && got + 1 < len) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		if (poll(&p, 1, 5000) != 1)
			break;
		r = recv(fd, buf + got, len - got - 1, 0);
		if (r <= 0)
			break;
		for (ssize_t i = 0; i < r; i++)
			lines += buf[got + (size_t)i] == '\n';
		got += (size_t)r;
	}
	buf[got] = 0;
	return lines;
}

static bool answer_is(const char *cmd, const char *prefix)
{
	char reply[1024];

	if (fabric_ctl(&f, 0, cmd, reply, sizeof(reply)) ||
	    strncmp(reply, prefix, strlen(prefix))) {
		tap_diag("'%s' answered '%s', expected '%s...'", cmd, reply, prefix);
		return false;
	}
	return true;
}

static bool port_up(unsigned int card, unsigned int port)
{
	return fh_rd32(&f.fh[card], fh_port_reg(&f.fh[card], port, LOOM_PORT_STATUS)) & LOOM_PORT_ST_UP;
}

static int put_status(struct fh_ctx *c, unsigned int dst, uint64_t tag)
{
	struct loom_cmd cmd = {
		.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX, .dst_node = dst,
		.tag = tag, .length = 8192,
	};
	struct loom_cqe e;

	if (!fh_submit(c, &cmd) || fh_wait_cqe(c, &e, 10000) != 1 || e.tag != tag)
		return -1;
	return e.status;
}

static bool wait_up(unsigned int card, unsigned int port, bool up, int ms)
{
	uint64_t deadline = fh_now_ms() + (uint64_t)ms;

	while (port_up(card, port) != up && fh_now_ms() < deadline)
		usleep(10000);
	return port_up(card, port) == up;
}

int main(void)
{
	static const char *const bad[][2] = {
		{ "", "error: empty command" },
		{ "   ", "error: empty command" },
		{ "bogus", "error: unknown command 'bogus'" },
		{ "BER 0 1e-5", "error: unknown command 'BER'" },
		{ "ber", "error: ber: expected 'ber PORT RATE'" },
		{ "ber 0", "error: ber: expected 'ber PORT RATE'" },
		{ "ber 0 1e-5 7", "error: ber: expected 'ber PORT RATE'" },
		{ "ber 2 1e-5", "error: ber: port '2' is not a port of this card (0..1)" },
		{ "ber -1 0", "error: ber: port '-1' is not a port" },
		{ "ber x 0", "error: ber: port 'x' is not a port" },
		{ "ber 99999999999999999999 0", "error: ber: port '99999999999999999999' is not" },
		{ "ber 0 2", "error: ber: rate '2' is not a probability" },
		{ "ber 0 -0.1", "error: ber: rate '-0.1' is not a probability" },
		{ "ber 0 nan", "error: ber: rate 'nan' is not a probability" },
		{ "ber 0 inf", "error: ber: rate 'inf' is not a probability" },
		{ "ber 0 1e-5x", "error: ber: rate '1e-5x' is not a probability" },
		{ "drop 0", "error: drop: expected 'drop PORT RATE'" },
		{ "drop 1 1.5", "error: drop: rate '1.5' is not a probability" },
		{ "cut", "error: cut: expected 'cut PORT'" },
		{ "cut 2", "error: cut: port '2' is not a port" },
		{ "restore 0 1", "error: restore: expected 'restore PORT'" },
		{ "stats", "error: stats: expected 'stats PORT'" },
		{ "stats 8", "error: stats: port '8' is not a port" },
		{ "help me", "error: help takes no argument" },
		{ "kill 1", "error: kill takes no argument" },
		{ "clock now", "error: clock takes no argument" },
		{ "corrupt 0", "error: corrupt: expected 'corrupt PORT RATE'" },
		{ "corrupt 0 2", "error: corrupt: rate '2' is not a probability" },
		{ "a b c d e f", "error: too many words" },
		{ "ber\x01 0 0", "error: control character 0x01" },
		{ "ber \xff 0", "error: byte 0xff" },
		{ "reg", "error: reg: expected 'reg OFF' or 'reg OFF VALUE'" },
		{ "reg 6", "error: reg: '6' is not a 4-byte aligned offset below 0x100000" },
		{ "reg 0x100000", "error: reg: '0x100000' is not a 4-byte aligned offset" },
		{ "reg -4", "error: reg: '-4' is not a 4-byte aligned offset" },
		{ "reg 4 0x100000000", "error: reg: value '0x100000000' is not a 32-bit number" },
	};
	static const char *const keys[] = { "port", "up", "cut", "peer_node", "tx_frames",
		"rx_frames", "crc_errors", "seq_errors", "drops", "retries", "naks_sent",
		"injected", "replayed", "ack_timeouts", "ber", "drop" };
	struct fh_ctx c0, c1;
	char reply[2048];
	static char buf[65536];
	bool ok = true;
	int fd, fds[CTL_MAX];

	tap_plan(16);
	if (fabric_init(&f, 90))
		return 1;
	/* garbage and bad commands reach the card: the card built with the sanitizers */
	f.sanitized_card = true;
	ok = fabric_start_ring_ctl(&f, 2, (const char *const[]){ "--seed", "7", NULL }) == 0 &&
	     fh_ctx_create(&f.fh[0], &c0, CTX, KEY, 5, 6, 1 << 20) == LOOM_ADMIN_E_OK &&
	     fh_ctx_create(&f.fh[1], &c1, CTX, KEY, 5, 6, 1 << 20) == LOOM_ADMIN_E_OK;
	if (!tap_ok(ok, "ring of 2 with control sockets, contexts enabled"))
		return 1;

	ok = fabric_ctl(&f, 0, "help", reply, sizeof(reply)) == 0 && !strncmp(reply, "ok ", 3);
	for (const char *w = "ber\0drop\0corrupt\0cut\0restore\0stats\0kill\0reg\0clock\0record\0help\0"; *w && ok; w += strlen(w) + 1)
		ok = strstr(reply, w) != NULL;
	tap_ok(ok, "help lists every command: %s", reply);

	ok = answer_is("ber 0 1e-5", "ok port 0 ber 1e-05") && answer_is("ber 0 0", "ok port 0 ber 0") &&
	     answer_is("drop 1 0.5", "ok port 1 drop 0.5") && answer_is("drop 1 0", "ok port 1 drop 0") &&
	     answer_is("  ber\t1   1E-3 ", "ok port 1 ber 0.001") && answer_is("ber 1 0", "ok port 1 ber 0");
	tap_ok(ok, "ber and drop set and clear rates (words split on blanks and tabs)");

	ok = fabric_ctl(&f, 0, "stats 0", reply, sizeof(reply)) == 0 && !strncmp(reply, "ok ", 3);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]) && ok; k++)
		ok = fabric_stat(reply, keys[k]) >= 0 || !strcmp(keys[k], "ber") || !strcmp(keys[k], "drop");
	ok = ok && fabric_stat(reply, "port") == 0 && fabric_stat(reply, "up") == 1 &&
	     fabric_stat(reply, "peer_node") == 1 && strstr(reply, " ber=0 ") && strstr(reply, " drop=0 ");
	tap_ok(ok, "stats gives the counters as key=value: %s", reply);

	ok = true;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ok &= answer_is(bad[i][0], bad[i][1]);
	tap_ok(ok, "%zu bad commands answered with 'error: <what and why>'", sizeof(bad) / sizeof(bad[0]));

	/* the card writes a read-only counter itself: --strict-registers keeps it */
	{
		uint32_t off = CARD_OFF_COUNTERS + LOOM_CNT_DROP_MALFORMED;
		char cmd[64], want[64];

		snprintf(cmd, sizeof(cmd), "reg %#x 77", off);
		snprintf(want, sizeof(want), "ok reg %#x = 0x4d", off);
		ok = answer_is(cmd, want);
		fh_kick(&f.fh[0], LOOM_KICK_ADMIN);	/* a strict check */
		usleep(100000);
		snprintf(cmd, sizeof(cmd), "reg %#x", off);
		ok = ok && answer_is(cmd, want) && fh_rd32(&f.fh[0], off) == 77;
		tap_ok(ok, "reg writes a read-only register as the card's own write: it stays (%u) after a kick",
		       fh_rd32(&f.fh[0], off));
	}

	/* pipelined lines, an overlong one, and a line split over writes */
	fd = ctl_connect(0);
	ok = fd >= 0;
	if (ok) {
		char line[400];

		memset(line, 'x', sizeof(line));
		ok = send(fd, "help\nstats 1\nbogus\n", 19, MSG_NOSIGNAL) == 19 &&
		     send(fd, line, sizeof(line), MSG_NOSIGNAL) == (ssize_t)sizeof(line) &&
		     send(fd, "\nsta", 4, MSG_NOSIGNAL) == 4 && usleep(50000) == 0 &&
		     send(fd, "ts 0\n", 5, MSG_NOSIGNAL) == 5 &&
		     read_lines(fd, buf, sizeof(buf), 5) == 5;
		ok = ok && !strncmp(buf, "ok commands:", 12) && strstr(buf, "\nok port=1 ") &&
		     strstr(buf, "\nerror: unknown command 'bogus'") &&
		     strstr(buf, "\nerror: command line longer than 255 bytes; ignored\nok port=0 ");
		if (!ok)
			tap_diag("answers: %s", buf);
		close(fd);
	}
	tap_ok(ok, "pipelined commands answered in order, an overlong line refused, a split line joined");

	/* garbage: random bytes with newlines; every line answered, nothing applied */
	{
		uint64_t x = 0x9e3779b97f4a7c15ull;
		unsigned int lines = 0;
		char junk[4096];

		for (size_t i = 0; i < sizeof(junk); i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			junk[i] = (char)(x % 11 == 0 ? '\n' : x >> 24);
			lines += junk[i] == '\n';
		}
		fd = ctl_connect(0);
		ok = fd >= 0 && send(fd, junk, sizeof(junk), MSG_NOSIGNAL) == (ssize_t)sizeof(junk) &&
		     send(fd, "\nstats 0\n", 9, MSG_NOSIGNAL) == 9;	/* ends the last junk line */
		ok = ok && read_lines(fd, buf, sizeof(buf), (int)lines + 2) == (int)lines + 2;
		if (ok) {
			char *last = strstr(buf, "ok port=0 ");

			ok = last && fabric_stat(last, "injected") == 0 && strstr(last, " ber=0 ") &&
			     strstr(last, " drop=0 ") && fabric_stat(last, "cut") == 0;
			if (!ok)
				tap_diag("last answer: %.300s (%zu bytes in all)", last ? last : "(none)", strlen(buf));
			for (char *l = buf; ok && *l; l = strchr(l, '\n') + 1) {
				ok = !strncmp(l, "error: ", 7) || l == last;
				if (!ok)
					tap_diag("answer not an error: %.80s", l);
			}
		} else {
			tap_diag("%zu bytes of answers, ending: %s", strlen(buf), buf + (strlen(buf) > 300 ? strlen(buf) - 300 : 0));
		}
		if (fd >= 0)
			close(fd);
		tap_ok(ok, "%u lines of random bytes: each answered with an error, nothing applied", lines + 1);
	}

	/* a client that sends much and reads late: nothing lost, nobody dropped */
	{
		static char flood[100000];
		size_t sent = 0, got_lines = 0, want = sizeof(flood) / 8;
		uint64_t deadline = fh_now_ms() + 20000;

		for (size_t i = 0; i < sizeof(flood); i += 8)
			memcpy(flood + i, "stats 0\n", 8);
		bool slept = false;

		fd = ctl_connect(0);
		ok = fd >= 0;
		while (ok && got_lines < want && fh_now_ms() < deadline) {
			struct pollfd p = { .fd = fd, .events = POLLIN | (sent < sizeof(flood) ? POLLOUT : 0) };
			ssize_t n;

			if (poll(&p, 1, 1000) <= 0)
				continue;
			if ((p.revents & POLLOUT) && sent < sizeof(flood)) {
				n = send(fd, flood + sent, sizeof(flood) - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
				if (n > 0)
					sent += (size_t)n;
				if (sent < 64 * 1024)
					continue;	/* read late: after 64 KiB of commands */
			}
			if (!slept) {
				slept = true;	/* let the answers pile up past the socket buffer */
				usleep(300000);
				continue;
			}
			if (p.revents & (POLLHUP | POLLERR))
				ok = false;
			if (p.revents & POLLIN) {
				n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
				if (n == 0)
					ok = false;
				for (ssize_t i = 0; i < n; i++)
					got_lines += buf[i] == '\n';
			}
		}
		if (fd >= 0)
			close(fd);
		tap_ok(ok && got_lines == want, "a client reading late: %zu of %zu answers to 100 kB of commands, none lost",
		       got_lines, want);
	}

	/* more clients than the card serves: the extra one is told, the others work */
	for (int i = 0; i < CTL_MAX; i++)
		fds[i] = ctl_connect(0);
	fd = ctl_connect(0);
	ok = fd >= 0 && read_lines(fd, buf, sizeof(buf), 1) == 1 &&
	     !strcmp(buf, "error: too many control clients; try again later\n");
	if (fd >= 0)
		close(fd);
	ok = ok && send(fds[0], "help\n", 5, MSG_NOSIGNAL) == 5 &&
	     read_lines(fds[0], buf, sizeof(buf), 1) == 1 && !strncmp(buf, "ok ", 3);
	for (int i = 0; i < CTL_MAX; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	tap_ok(ok, "a client beyond %d is refused with a message; the others are served", CTL_MAX);

	/* cut the listening end of the cable to node 1 (card 0 port 0) */
	ok = put_status(&c0, 1, 1) == LOOM_CQE_ST_OK && answer_is("cut 0", "ok port 0 cut") &&
	     wait_up(0, 0, false, 2000) && wait_up(1, 1, false, 2000);
	ok = ok && put_status(&c0, 1, 2) == LOOM_CQE_ST_LINK;
	usleep(500000);
	ok = ok && !port_up(0, 0) && !port_up(1, 1) && answer_is("cut 0", "ok port 0 cut") &&
	     fabric_ctl(&f, 0, "stats 0", reply, sizeof(reply)) == 0 &&
	     fabric_stat(reply, "up") == 0 && fabric_stat(reply, "cut") == 1;
	tap_ok(ok, "cut: both ends down, a put to the far node fails with LINK, the peer cannot reconnect");
	ok = answer_is("restore 0", "ok port 0 restored") && wait_up(0, 0, true, 5000) &&
	     wait_up(1, 1, true, 5000) && put_status(&c0, 1, 3) == LOOM_CQE_ST_OK &&
	     answer_is("restore 0", "ok port 0 restored");
	tap_ok(ok, "restore: the link trains again and puts flow");

	/* the connecting end (card 0 port 1 to card 1 port 0) */
	ok = answer_is("cut 1", "ok port 1 cut") && wait_up(0, 1, false, 2000) &&
	     wait_up(1, 0, false, 2000);
	usleep(300000);
	ok = ok && !port_up(0, 1) && answer_is("restore 1", "ok port 1 restored") &&
	     wait_up(0, 1, true, 5000) && wait_up(1, 0, true, 5000) &&
	     put_status(&c1, 0, 4) == LOOM_CQE_ST_OK;
	tap_ok(ok, "cut and restore of a connecting port: down, no reconnect, back up on restore");

	/* corrupt: one bit flipped in about a third of the frames; the link layer repairs it */
	ok = answer_is("corrupt 0 0.3", "ok port 0 corrupt 0.3");
	for (unsigned int i = 0; i < 4 && ok; i++)
		ok = put_status(&c0, 1, 10 + i) == LOOM_CQE_ST_OK;
	ok = ok && fabric_ctl(&f, 0, "stats 0", reply, sizeof(reply)) == 0 &&
	     strstr(reply, " corrupt=0.3 ") && fabric_stat(reply, "corrupted_frames") > 0 &&
	     fabric_stat(reply, "injected") > 0;
	if (!ok)
		tap_diag("stats 0: %s", reply);
	ok = ok && answer_is("corrupt 0 0", "ok port 0 corrupt 0");
	tap_ok(ok, "corrupt: frames get a flipped bit, every put still completes OK, corrupted_frames counts them");

	tap_ok(fabric_card_alive(&f, 0) && fabric_card_alive(&f, 1), "both cards still running");

	/* kill: card 1 answers, then dies: its process exits, both links drop at card 0 */
	{
		uint64_t deadline = fh_now_ms() + 5000;
		bool gone = false;

		ok = fabric_ctl(&f, 1, "kill", reply, sizeof(reply)) == 0 &&
		     !strncmp(reply, "ok card killed", 14);
		if (!ok)
			tap_diag("'kill' answered '%s'", reply);
		while (ok && !gone && fh_now_ms() < deadline) {
			gone = !fabric_card_alive(&f, 1);
			if (!gone)
				usleep(10000);
		}
		if (gone)
			f.pid[1] = 0;	/* reaped: fabric_stop must not signal it */
		ok = ok && gone && wait_up(0, 0, false, 5000) && wait_up(0, 1, false, 5000);
		if (ok) {
			int st = put_status(&c0, 1, 20);

			ok = st > 0;
			if (!ok)
				tap_diag("a put to the killed card ended with %d", st);
		}
		tap_ok(ok && fabric_card_alive(&f, 0),
		       "kill: the card answers and exits, card 0 sees both links down, a put to it fails with an error");
	}
	if (tap.failed) {
		fabric_dump_log(&f, 0);
		fabric_dump_log(&f, 1);
	}
	fabric_stop();
	return tap_exit_status();
}
