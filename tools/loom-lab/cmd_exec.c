// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab exec: runs one command in one guest through the supervisor
 * (DIR/hN.exec.sock), relays its stdout and stderr separately and exits
 * with its status; 124 on timeout, 125 for a lab error.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "frame.h"
#include "lab.h"
#include "sys.h"

/* How long past the command's timeout we wait for the supervisor itself. */
#define SUPERVISOR_GRACE_MS 30000

static int connect_exec(const char *dir, int host)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char path[LAB_PATH_MAX];
	int fd;

	if (lab_path(path, dir, "h%d.exec.sock", host) < 0 ||
	    strlen(path) >= sizeof(sa.sun_path)) {
		lab_err("exec: socket path for host %d in %s is too long", host, dir);
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		lab_err("exec: cannot reach the lab supervisor at %s: %s (is the lab "
			"running? `loom-lab status --dir %s`)", path, strerror(errno), dir);
		close(fd);
		return -1;
	}
	return fd;
}

static char *join_args(int argc, char **argv)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	for (int i = 0; i < argc; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int cmd_exec(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "timeout", required_argument, NULL, 't' },
		{ "stdin", no_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct lab_config cfg;
	const char *dir_arg = NULL;
	char dir[LAB_PATH_MAX], *cmd, *end;
	double timeout_s = 300;
	bool fwd_stdin = false, stdin_open;
	uint8_t run[LAB_FRAME_MAX_PAYLOAD];
	static struct lab_decoder dec_store;
	struct lab_decoder *dec = &dec_store;
	int64_t give_up;
	long host;
	int c, fd;

	/* GNU getopt permutes: options may come before or after HOST, and it
	 * stops at "--", so the command's own options are never looked at. */
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir_arg = optarg; break;
		case 't':
			errno = 0;
			timeout_s = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(timeout_s) ||
			    timeout_s < 0 || timeout_s > 86400) {
				lab_err("exec: --timeout %s: expected seconds from 0 (none) to 86400",
					optarg);
				return 2;
			}
			break;
		case 'i': fwd_stdin = true; break;
		case 'h': lab_help("exec", 0); return 0;
		default: return lab_bad_option("exec", argv, opts);
		}
	}
	if (!dir_arg) {
		lab_err("exec: --dir DIR is required");
		return 2;
	}
	if (optind >= argc) {
		lab_err("exec: HOST is missing (usage: loom-lab exec --dir DIR HOST -- CMD...)");
		return 2;
	}
	errno = 0;
	host = strtol(argv[optind], &end, 10);
	if (errno || end == argv[optind] || *end || host < 0 || host >= LAB_MAX_HOSTS) {
		lab_err("exec: HOST '%s': expected a host index from 0 to %d",
			argv[optind], LAB_MAX_HOSTS - 1);
		return 2;
	}
	optind++;
	if (optind >= argc) {
		lab_err("exec: no command given (usage: loom-lab exec --dir DIR HOST -- CMD...)");
		return 2;
	}
	if (lab_abs_dir(dir_arg, dir) < 0 || lab_config_load(dir, &cfg) < 0) {
		lab_err("exec: no lab in %s (no readable lab.conf: start one with "
			"`loom-lab start --dir %s`)", dir_arg, dir_arg);
		return LAB_EXIT_LAB_ERROR;
	}
	/* a lab started with --timeout-scale runs a slower kernel; the
	 * supervisor takes milliseconds in 32 bits */
	timeout_s *= cfg.timeout_scale;
	if (timeout_s > 4000000)
		timeout_s = 4000000;
	if (host >= cfg.hosts) {
		lab_err("exec: HOST %ld: the lab in %s has hosts 0 to %d", host, dir,
			cfg.hosts - 1);
		return 2;
	}
	cmd = join_args(argc - optind, argv + optind);
	if (!cmd || strlen(cmd) + 4 > sizeof(run)) {
		lab_err("exec: the command is longer than %zu bytes", sizeof(run) - 4);
		free(cmd);
		return 2;
	}
	lab_put_u32(run, (uint32_t)llround(timeout_s * 1000));
	memcpy(run + 4, cmd, strlen(cmd));

	signal(SIGPIPE, SIG_IGN);
	fd = connect_exec(dir, (int)host);
	if (fd < 0) {
		free(cmd);
		return LAB_EXIT_LAB_ERROR;
	}
	/* RUN (and the end of stdin) in one write.  A quick command may end,
	 * and the supervisor close the connection, before later writes of
	 * ours: a failed write is therefore never fatal, the answer waiting
	 * on the socket decides. */
	{
		static uint8_t req[2 * LAB_FRAME_MAX_SIZE];
		size_t rl = lab_frame_encode(req, LAB_FRAME_RUN, 0, run,
					     (uint32_t)(4 + strlen(cmd)));

		if (!fwd_stdin)
			rl += lab_frame_encode(req + rl, LAB_FRAME_STDIN_EOF, 0, NULL, 0);
		if (write_all(fd, req, rl) < 0)
			fwd_stdin = false;
	}
	free(cmd);
	stdin_open = fwd_stdin;
	lab_decoder_init(dec);
	give_up = timeout_s > 0 ? now_ms() + llround(timeout_s * 1000) +
		  SUPERVISOR_GRACE_MS : 0;

	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = fd, .events = POLLIN },
			{ .fd = stdin_open ? 0 : -1, .events = POLLIN },
		};
		int wait = give_up ? (int)(give_up - now_ms()) : -1;
		struct lab_frame f;
		size_t room;
		uint8_t *space;
		ssize_t n;

		if (give_up && wait <= 0) {
			lab_err("exec: no answer from the supervisor for host %ld %d s after "
				"the timeout", host, SUPERVISOR_GRACE_MS / 1000);
			return LAB_EXIT_LAB_ERROR;
		}
		if (poll(pfd, 2, wait) < 0) {
			if (errno == EINTR)
				continue;
			return LAB_EXIT_LAB_ERROR;
		}
		if (pfd[1].revents) {
			uint8_t buf[LAB_FRAME_MAX_PAYLOAD];

			n = read(0, buf, sizeof(buf));
			if (n > 0) {
				if (write_frame(fd, LAB_FRAME_STDIN, 0, buf, (uint32_t)n) < 0)
					stdin_open = false; /* the command is over */
			} else if (n == 0 || errno != EINTR) {
				write_frame(fd, LAB_FRAME_STDIN_EOF, 0, NULL, 0);
				stdin_open = false;
			}
		}
		if (!pfd[0].revents)
			continue;
		space = lab_decoder_space(dec, &room);
		n = read(fd, space, room);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			lab_err("exec: the supervisor closed the connection before the "
				"command on host %ld ended (lab stopped or crashed? see %s/"
				"supervisor.log)", host, dir);
			return LAB_EXIT_LAB_ERROR;
		}
		lab_decoder_commit(dec, (size_t)n);
		while (lab_decoder_next(dec, &f)) {
			switch (f.type) {
			case LAB_FRAME_STDOUT:
				write_all(1, f.payload, f.len); /* a closed stdout loses only output */
				break;
			case LAB_FRAME_STDERR:
				write_all(2, f.payload, f.len);
				break;
			case LAB_FRAME_EXIT: {
				int32_t st = f.len >= 4 ? (int32_t)lab_get_u32(f.payload) : 125;
				uint32_t why = f.len >= 8 ? lab_get_u32(f.payload + 4) : 0;

				if (why == 1) {
					lab_err("exec: the command on host %ld timed out after %g s "
						"and was killed", host, timeout_s);
					return LAB_EXIT_TIMEOUT;
				}
				return st < 0 || st > 255 ? LAB_EXIT_LAB_ERROR : st;
			}
			case LAB_FRAME_ERROR:
				lab_err("exec: %.*s", (int)f.len, (const char *)f.payload);
				return LAB_EXIT_LAB_ERROR;
			default:
				break;
			}
		}
	}
}
