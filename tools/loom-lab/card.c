// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: the card emulators and their cabling.  Ring: port 0 of node i
 * is cabled to port 1 of node (i + 1) mod N (node i listens on its port 0,
 * node i + 1 connects its port 1).  Routes take the shorter way round:
 * clockwise distance c = (d - i) mod N goes out of port 0 when c <= N/2,
 * else out of port 1.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab.h"
#include "sys.h"

void lab_argv_add(struct lab_argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (a->n >= (int)(sizeof(a->v) / sizeof(a->v[0])) - 1)
		abort();
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void lab_argv_free(struct lab_argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
	a->v[0] = NULL;
}

void lab_card_argv(const struct lab_config *cfg, int i, struct lab_argv *a)
{
	char ram[LAB_PATH_MAX];
	int n = cfg->hosts;

	lab_ram_path(cfg, i, ram);
	lab_argv_add(a, "%s", cfg->card);
	lab_argv_add(a, "--node");
	lab_argv_add(a, "%d", i);
	lab_argv_add(a, "--ivshmem");
	lab_argv_add(a, "%s/card%d.ivshmem.sock", cfg->dir, i);
	lab_argv_add(a, "--guest-ram");
	lab_argv_add(a, "%s", ram);
	lab_argv_add(a, "--ports");
	lab_argv_add(a, "2");
	if (n == 1)
		return;
	lab_argv_add(a, "--cable");
	lab_argv_add(a, "0=listen:%s/cable-%d-0.sock", cfg->dir, i);
	lab_argv_add(a, "--cable");
	lab_argv_add(a, "1=connect:%s/cable-%d-0.sock", cfg->dir, (i + n - 1) % n);
	for (int d = 0; d < n; d++) {
		int c = (d - i + n) % n;

		if (d == i)
			continue;
		lab_argv_add(a, "--route");
		lab_argv_add(a, "%d=%d", d, c <= n / 2 ? 0 : 1);
	}
}

/* True when some socket listens on path (from /proc/net/unix, so the
 * emulator does not see a probe connection). */
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

int lab_card_wait_listening(const struct lab_config *cfg, int host, pid_t pid,
			    int timeout_ms)
{
	char path[LAB_PATH_MAX];
	int64_t end = now_ms() + timeout_ms;
	int status;

	if (lab_path(path, cfg->dir, "card%d.ivshmem.sock", host) < 0)
		return -1;
	for (;;) {
		if (listening(path))
			return 0;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			lab_err("card emulator %d (pid %d) exited before listening on %s "
				"(status %d); see %s/card%d.log", host, (int)pid, path,
				WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
				cfg->dir, host);
			return -1;
		}
		if (now_ms() > end) {
			lab_err("card emulator %d (pid %d) did not listen on %s within %d s; "
				"see %s/card%d.log", host, (int)pid, path, timeout_ms / 1000,
				cfg->dir, host);
			return -1;
		}
		usleep(20000);
	}
}
