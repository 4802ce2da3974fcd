// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab stop: tears a lab down from what DIR records; idempotent.
 * --save-logs DEST first copies the lab's logs (they go with DIR).  A lab
 * started with --on-stop CMD first runs CMD in every guest (all at once),
 * each through `loom-lab exec`, its output into DIR/hN.on-stop.log.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab.h"

/* How long each guest has for the on-stop command (scaled by exec). */
#define ON_STOP_TIMEOUT_S "120"

static void run_on_stop(const struct lab_config *cfg)
{
	char self[LAB_PATH_MAX], log[LAB_PATH_MAX], host[16];
	pid_t pids[LAB_MAX_HOSTS];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0) {
		lab_err("stop: cannot find my own executable to run the on-stop command");
		return;
	}
	self[n] = 0;
	fflush(NULL);
	for (int h = 0; h < cfg->hosts; h++) {
		pids[h] = -1;
		if (lab_path(log, cfg->dir, "h%d.on-stop.log", h) < 0)
			continue;
		snprintf(host, sizeof(host), "%d", h);
		pids[h] = fork();
		if (pids[h] == 0) {
			int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
			execl(self, "loom-lab", "exec", "--dir", cfg->dir, "--timeout",
			      ON_STOP_TIMEOUT_S, host, "--", cfg->on_stop, (char *)NULL);
			_exit(127);
		}
	}
	for (int h = 0; h < cfg->hosts; h++) {
		int status;

		if (pids[h] <= 0)
			continue;
		while (waitpid(pids[h], &status, 0) < 0 && errno == EINTR)
			;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			lab_err("stop: the on-stop command failed on host %d (exit status "
				"%d; its output is h%d.on-stop.log)", h,
				WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
				h);
	}
}

int cmd_stop(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "save-logs", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *dir_arg = NULL, *save = NULL;
	char dir[LAB_PATH_MAX];
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir_arg = optarg; break;
		case 's': save = optarg; break;
		case 'h': lab_help("stop", 0); return 0;
		default: return lab_bad_option("stop", argv, opts);
		}
	}
	if (!dir_arg || optind != argc) {
		lab_err("stop: usage: loom-lab stop --dir DIR [--save-logs DEST]");
		return 2;
	}
	if (lab_abs_dir(dir_arg, dir) < 0) {
		lab_err("stop: cannot make %s absolute", dir_arg);
		return 2;
	}
	{
		static struct lab_config cfg;

		if (lab_config_load(dir, &cfg) == 0 && cfg.on_stop[0])
			run_on_stop(&cfg);
	}
	return lab_teardown(dir, save) < 0 ? 1 : 0;
}
