// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric test: a ring of 4 cards cabled over TCP on 127.0.0.1
 * (--cable P=tcp-listen:127.0.0.1:PORT / tcp-connect:127.0.0.1:PORT), as
 * cards on different machines would be.  Every card's connecting port came
 * up although its peer started after it; every card puts 256 KiB to every
 * card (itself included) and gets it back, every byte checked; the links
 * counted no CRC, sequence or drop errors; a cable cut by the control
 * socket goes down on both ends, is re-established over TCP by restore,
 * and carries verified puts again; a card whose TCP port is taken exits 1
 * saying so.  Nothing leaves 127.0.0.1.
 */
#include "alltoall.h"
#include "fabric.h"
#include "tap.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

TAP_DEFINE;

#define RING		4
#define PUT_LEN		(256u << 10)

/* Does card @i's log contain @text? */
static bool log_says(struct fabric *f, unsigned int i, const char *text)
{
	char buf[65536];
	int fd = open(f->log[i], O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return false;
	buf[n] = 0;
	return strstr(buf, text) != NULL;
}

static bool errors_counted(struct fabric *f)
{
	bool clean = true;

	for (unsigned int i = 0; i < RING; i++) {
		for (unsigned int p = 0; p < 2; p++) {
			uint32_t crc = fh_rd32(&f->fh[i], fh_port_reg(&f->fh[i], p, LOOM_PORT_CRC_ERRORS));
			uint32_t seq = fh_rd32(&f->fh[i], fh_port_reg(&f->fh[i], p, LOOM_PORT_SEQ_ERRORS));
			uint32_t drops = fh_rd32(&f->fh[i], fh_port_reg(&f->fh[i], p, LOOM_PORT_DROPS));

			if (crc || seq || drops) {
				tap_diag("card %u port %u: crc %u seq %u drops %u", i, p, crc, seq, drops);
				clean = false;
			}
		}
	}
	return !clean;
}

/* The up state of card @i port @p, as its control socket reports it. */
static long long port_up(struct fabric *f, unsigned int i, unsigned int p)
{
	char cmd[32], reply[2048];

	snprintf(cmd, sizeof(cmd), "stats %u", p);
	if (fabric_ctl(f, i, cmd, reply, sizeof(reply)))
		return -1;
	return fabric_stat(reply, "up");
}

static bool wait_up(struct fabric *f, unsigned int i, unsigned int p, long long want)
{
	long long up = -1;

	for (int t = 0; t < 200; t++) {
		up = port_up(f, i, p);
		if (up == want)
			return true;
		usleep(50000);
	}
	tap_diag("card %u port %u: up=%lld, expected %lld", i, p, up, want);
	return false;
}

static bool workload(struct fabric *f, const char *what)
{
	const struct alltoall_cfg cfg = { .len = PUT_LEN, .rounds = 1, .gets = true,
					  .timeout_ms = 60000 };
	struct alltoall r;

	if (alltoall_run_cfg(f, RING, &cfg, &r) < 0)
		return false;
	tap_diag("%s: %u puts (%llu bytes) and %u gets in %llu ms", what, r.puts,
		 (unsigned long long)r.put_bytes, r.gets, (unsigned long long)r.elapsed_ms);
	return alltoall_perfect(&r, RING);
}

/* A card whose tcp-listen port is taken: exit status and log. */
static bool port_taken(struct fabric *f)
{
	char cable[64];
	const char *extra[] = { "--cable", cable, NULL };
	int status = 0;
	pid_t pid;

	snprintf(cable, sizeof(cable), "0=tcp-listen:127.0.0.1:%d", f->tcp_port[0]);
	if (fabric_start_card(f, RING, extra))
		return false;
	pid = f->pid[RING];
	for (int t = 0; t < 200 && waitpid(pid, &status, WNOHANG) == 0; t++)
		usleep(50000);
	if (kill(pid, 0) == 0) {
		tap_diag("the card on a taken port is still running");
		return false;
	}
	f->pid[RING] = 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 1 ||
	    !log_says(f, RING, "another process listens there")) {
		tap_diag("status 0x%x", status);
		fabric_dump_log(f, RING);
		return false;
	}
	return true;
}

int main(void)
{
	static struct fabric f;
	const char *const no_extra[] = { NULL };
	bool ok, logs = true;
	char cmd[64], reply[256];

	tap_plan(7);
	if (fabric_init(&f, 240))
		return 1;
	f.tcp_cables = true;
	ok = fabric_start_ring_ctl(&f, RING, no_extra) == 0;
	for (unsigned int i = 0; ok && i < RING; i++) {
		char want[96];

		snprintf(want, sizeof(want), "connected to tcp-connect:127.0.0.1:%d",
			 f.tcp_port[(i + RING - 1) % RING]);
		if (!log_says(&f, i, want)) {
			tap_diag("card %u's log lacks '%s'", i, want);
			logs = false;
		}
	}
	if (!tap_ok(ok && logs, "ring of %d cards cabled over TCP on 127.0.0.1: every link up", RING)) {
		for (unsigned int i = 0; i < RING; i++)
			fabric_dump_log(&f, i);
		fabric_stop();
		return 1;
	}
	tap_ok(workload(&f, "all to all"),
	       "every card puts 256 KiB to every card and gets it back over TCP, byte-exact");
	tap_ok(!errors_counted(&f), "no CRC, sequence or drop counts on TCP cables");

	snprintf(cmd, sizeof(cmd), "cut 0");
	ok = fabric_ctl(&f, 1, cmd, reply, sizeof(reply)) == 0 && !strncmp(reply, "ok", 2) &&
	     wait_up(&f, 1, 0, 0) && wait_up(&f, 2, 1, 0);
	tap_ok(ok, "cut: card 1 port 0 and card 2 port 1 go down (%s)", reply);
	snprintf(cmd, sizeof(cmd), "restore 0");
	ok = fabric_ctl(&f, 1, cmd, reply, sizeof(reply)) == 0 && !strncmp(reply, "ok", 2) &&
	     wait_up(&f, 1, 0, 1) && wait_up(&f, 2, 1, 1);
	tap_ok(ok, "restore: card 2 connects again over TCP and the link trains (%s)", reply);
	tap_ok(ok && workload(&f, "after restore"), "after restore every put and get is byte-exact again");
	tap_ok(port_taken(&f), "a card whose TCP port is taken exits 1 and says another process listens there");
	if (tap.failed)
		for (unsigned int i = 0; i < RING; i++)
			fabric_dump_log(&f, i);
	fabric_stop();
	return tap_exit_status();
}
