// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab-agent relays every byte a command wrote, however slowly its
 * serial line drains: the agent runs here on a pseudo-terminal whose other
 * end this test reads slowly (as a starved guest or a loaded host would),
 * runs a command that writes more than a pipe holds and exits at once, and
 * counts the STDOUT bytes that arrive before EXIT.  A command whose shell
 * exits while a background child holds its stdout still ends (EXIT arrives)
 * once the pipe has been quiet for a while.
 *
 *   test_lab_agent_relay [PATH-TO-loom-lab-agent]
 *   (default: loom-lab-agent next to this test's build tree, bin/)
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "frame.h"
#include "tap.h"

TAP_DEFINE;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct run {
	long out_bytes;		/* STDOUT payload before EXIT */
	int status;		/* EXIT's status, -1 when none came */
	double secs;		/* from RUN to EXIT */
	char text[64];		/* the first STDOUT bytes, as text */
	char why[160];		/* what went wrong reading the line */
};

/*
 * Read frames from @fd until EXIT on channel 1 or @limit_s seconds; at most
 * @chunk bytes per read, then a pause of @pause_ms, to drain slowly.
 */
static void collect(int fd, struct lab_decoder *dec, struct run *r, size_t chunk,
		    int pause_ms, double limit_s)
{
	double t0 = now_s();

	r->out_bytes = 0;
	r->text[0] = 0;
	r->status = -1;
	r->why[0] = 0;
	while (now_s() - t0 < limit_s) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		size_t room;
		uint8_t *space;
		struct lab_frame f;
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		space = lab_decoder_space(dec, &room);
		n = read(fd, space, room < chunk ? room : chunk);
		if (n <= 0) {
			snprintf(r->why, sizeof(r->why), "the agent's line closed: %s",
				 n < 0 ? strerror(errno) : "EOF");
			return;
		}
		lab_decoder_commit(dec, (size_t)n);
		while (lab_decoder_next(dec, &f)) {
			if (f.chan != 1)
				continue;
			if (f.type == LAB_FRAME_STDOUT) {
				size_t have = strlen(r->text);
				size_t take = sizeof(r->text) - 1 - have;

				if (take > f.len)
					take = f.len;
				memcpy(r->text + have, f.payload, take);
				r->text[have + take] = 0;
				r->out_bytes += f.len;
			}
			if (f.type == LAB_FRAME_EXIT && f.len == 4) {
				r->status = (int)lab_get_u32(f.payload);
				r->secs = now_s() - t0;
				return;
			}
		}
		if (pause_ms)
			usleep((useconds_t)pause_ms * 1000);
	}
	snprintf(r->why, sizeof(r->why), "no EXIT within %.0f s", limit_s);
}

static int send_run(int fd, const char *cmd)
{
	uint8_t payload[512], frame[LAB_FRAME_MAX_SIZE];
	size_t len = strlen(cmd), n;

	lab_put_u32(payload, 0);	/* no timeout */
	memcpy(payload + 4, cmd, len);
	n = lab_frame_encode(frame, LAB_FRAME_RUN, 1, payload, (uint32_t)(4 + len));
	return write(fd, frame, n) == (ssize_t)n ? 0 : -1;
}

int main(int argc, char **argv)
{
	char agent[PATH_MAX + 32], *slave;
	struct lab_decoder *dec = calloc(1, sizeof(*dec));
	struct lab_frame f;
	struct run r;
	int master, ready = 0;
	pid_t pid;

	if (argc > 1) {
		snprintf(agent, sizeof(agent), "%s", argv[1]);
	} else {
		/* build/tests/lab/test_lab_agent_relay -> build/bin/loom-lab-agent */
		char self[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

		self[n > 0 ? n : 0] = 0;
		*strrchr(self, '/') = 0;
		snprintf(agent, sizeof(agent), "%s/../../bin/loom-lab-agent", self);
	}
	if (!dec || access(agent, X_OK) < 0)
		tap_skip_all("loom-lab-agent is not built (make -C tools/loom-lab)");
	tap_plan(3);
	master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (master < 0 || grantpt(master) < 0 || unlockpt(master) < 0 ||
	    !(slave = ptsname(master))) {
		printf("Bail out! cannot make a pseudo-terminal: %s\n", strerror(errno));
		return 1;
	}
	lab_decoder_init(dec);
	pid = fork();
	if (pid == 0) {
		execl(agent, agent, "--serial", slave, "--tree", "/", (char *)NULL);
		_exit(127);
	}

	/* READY first */
	for (double t0 = now_s(); !ready && now_s() - t0 < 20;) {
		struct pollfd p = { .fd = master, .events = POLLIN };
		size_t room;
		uint8_t *space;
		ssize_t n;

		if (poll(&p, 1, 200) <= 0)
			continue;
		space = lab_decoder_space(dec, &room);
		n = read(master, space, room);
		if (n <= 0)
			break;
		lab_decoder_commit(dec, (size_t)n);
		while (lab_decoder_next(dec, &f))
			ready |= f.type == LAB_FRAME_READY;
	}
	tap_ok(ready, "the agent announces READY on its line");
	if (!ready)
		goto out;

	/*
	 * 200000 bytes through a 64 KiB pipe: the command exits with up to a
	 * pipe's worth not yet relayed, and the line drains at about 40 KB/s,
	 * so relaying the rest takes longer than the agent's grace period.
	 */
	send_run(master, "head -c 200000 /dev/zero");
	collect(master, dec, &r, 2048, 50, 60);
	tap_ok(r.out_bytes == 200000 && r.status == 0,
	       "a slow line gets every byte of a command that exited: %ld of 200000 bytes, exit %d%s%s",
	       r.out_bytes, r.status, r.why[0] ? ", " : "", r.why);

	/* a background child holds stdout open, silent: EXIT still comes */
	send_run(master, "sleep 30 & echo $!");
	collect(master, dec, &r, 4096, 0, 20);
	if (atoi(r.text) > 0)
		kill(atoi(r.text), SIGKILL);	/* the child it left */
	tap_ok(r.status == 0 && r.secs < 10,
	       "a silent background child holding stdout does not hold EXIT: exit %d after %.1f s%s%s",
	       r.status, r.secs, r.why[0] ? ", " : "", r.why);
out:
	kill(-pid, SIGKILL);	/* the agent's jobs are their own sessions */
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(master);
	free(dec);
	return tap_exit_status();
}
