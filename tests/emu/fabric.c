// SPDX-License-Identifier: GPL-2.0
/*
 * Native fabric harness: card processes and their cleanup.
 */
#include "fabric.h"
#include "tap.h"
#include "tcp_port.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static struct fabric *live;

void fabric_tool_bin(char *out, size_t len, const char *rel, const char *fallback)
{
	char dir[PATH_MAX];
	ssize_t n;
	char *slash;

	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	dir[n > 0 ? n : 0] = 0;
	slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	if (strlen(dir) + 1 + strlen(rel) + 1 > len) {
		snprintf(out, len, "%s", fallback);
		return;
	}
	snprintf(out, len, "%s/%s", dir, rel);
}

void fabric_card_bin(char *out, size_t len, bool sanitized)
{
	const char *env = getenv("LOOM_CARD");

	if (env && *env) {
		snprintf(out, len, "%s", env);
		return;
	}
	/* both are built by 'make tests': loom-card-asan beside the tests */
	fabric_tool_bin(out, len, sanitized ? "loom-card-asan" : "../../bin/loom-card",
			"loom-card");
}

void fabric_path(struct fabric *f, char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", f->dir, name);
}

/*
 * Print card @i's strict-register violations and the harness's reads of
 * write-only registers as diagnostics; returns how many.
 */
static unsigned long fabric_strict_findings(struct fabric *f, unsigned int i)
{
	unsigned long n = f->fh[i].wo_reads;
	char line[512];
	FILE *fp;

	if (n)
		tap_diag("fake host %u read write-only registers %lu times", i, n);
	fp = f->log[i][0] ? fopen(f->log[i], "r") : NULL;
	if (!fp)
		return n;
	while (fgets(line, sizeof(line), fp)) {
		if (!strstr(line, "strict-registers: violation"))
			continue;
		line[strcspn(line, "\n")] = 0;
		tap_diag("%s", line);
		n++;
	}
	fclose(fp);
	return n;
}

void fabric_stop(void)
{
	struct fabric *f = live;
	unsigned long strict = 0;

	if (!f)
		return;
	live = NULL;
	for (unsigned int i = 0; i < FABRIC_MAX_CARDS; i++) {
		fh_detach(&f->fh[i]);
		if (f->pid[i] > 0)
			kill(f->pid[i], SIGTERM);
	}
	for (unsigned int i = 0; i < FABRIC_MAX_CARDS; i++) {
		if (f->pid[i] <= 0)
			continue;
		for (int t = 0; t < 100 && waitpid(f->pid[i], NULL, WNOHANG) == 0; t++)
			usleep(20000);
		if (waitpid(f->pid[i], NULL, WNOHANG) == 0) {
			kill(f->pid[i], SIGKILL);
			waitpid(f->pid[i], NULL, 0);
		}
		f->pid[i] = 0;
	}
	/* the cards have logged their last check by now */
	for (unsigned int i = 0; i < FABRIC_MAX_CARDS; i++)
		strict += fabric_strict_findings(f, i);
	for (unsigned int i = 0; i < FABRIC_MAX_CARDS; i++) {
		if (f->ram[i][0])
			unlink(f->ram[i]);
		if (f->sock[i][0])
			unlink(f->sock[i]);
		if (f->log[i][0] && !getenv("LOOM_KEEP_LOGS"))
			unlink(f->log[i]);
	}
	/* cable sockets the cards did not remove (they do on SIGTERM) */
	if (f->dir[0]) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", f->dir);
		if (!getenv("LOOM_KEEP_LOGS") && system(cmd) != 0)
			tap_diag("could not remove %s", f->dir);
	}
	if (strict) {
		printf("not ok - strict registers: %lu register access violations (above)\n", strict);
		fflush(stdout);
		_exit(1);
	}
}

static void fabric_on_signal(int sig)
{
	if (sig == SIGALRM)
		printf("not ok - watchdog: the test did not finish in time\n");
	fabric_stop();
	_exit(1);
}

int fabric_init(struct fabric *f, unsigned int watchdog_s)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "/tmp/loom-emu-XXXXXX");
	if (!mkdtemp(f->dir)) {
		tap_diag("mkdtemp: %s", strerror(errno));
		f->dir[0] = 0;
		return -1;
	}
	for (unsigned int i = 0; i < FABRIC_MAX_CARDS; i++) {
		f->fh[i].sock = -1;
		for (int v = 0; v < LOOM_NUM_VECTORS; v++)
			f->fh[i].kick_fd[v] = f->fh[i].irq_fd[v] = -1;
	}
	f->ram_size = FABRIC_RAM_SIZE;
	live = f;
	atexit(fabric_stop);
	signal(SIGINT, fabric_on_signal);
	signal(SIGTERM, fabric_on_signal);
	signal(SIGALRM, fabric_on_signal);
	signal(SIGPIPE, SIG_IGN);
	alarm(watchdog_s);
	return 0;
}

int fabric_start_card(struct fabric *f, unsigned int i, const char *const *extra)
{
	char bin[PATH_MAX], node[16];
	const char *argv[64];
	int argc = 0, err;
	pid_t pid;

	fabric_card_bin(bin, sizeof(bin), f->sanitized_card);
	if (access(bin, X_OK) != 0) {
		tap_diag("card emulator %s not found (build it, or set LOOM_CARD)", bin);
		return -1;
	}
	if (i == 0)
		tap_diag("card emulator: %s", bin);
	snprintf(f->ram[i], sizeof(f->ram[i]), "/dev/shm/loom-emu-%d-%u.ram", (int)getpid(), i);
	snprintf(f->sock[i], sizeof(f->sock[i]), "%s/card%u.ivshmem.sock", f->dir, i);
	snprintf(f->log[i], sizeof(f->log[i]), "%s/card%u.log", f->dir, i);
	err = fh_create_ram(f->ram[i], f->ram_size);
	if (err) {
		tap_diag("cannot create %s: %s", f->ram[i], strerror(-err));
		return -1;
	}
	snprintf(node, sizeof(node), "%u", i);
	argv[argc++] = bin;
	argv[argc++] = "--node";
	argv[argc++] = node;
	argv[argc++] = "--ivshmem";
	argv[argc++] = f->sock[i];
	argv[argc++] = "--guest-ram";
	argv[argc++] = f->ram[i];
	/* every test checks the register contract on the way */
	if (!f->lax_registers)
		argv[argc++] = "--strict-registers";
	for (int k = 0; extra && extra[k] && argc < 62; k++)
		argv[argc++] = extra[k];
	argv[argc] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		tap_diag("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int fd = open(f->log[i], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fd >= 0) {
			dup2(fd, 2);
			dup2(fd, 1);
		}
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	f->pid[i] = pid;
	if (i >= f->n)
		f->n = i + 1;
	return 0;
}

/* Does card @i's process have the AddressSanitizer runtime mapped? */
static bool fabric_card_has_asan(struct fabric *f, unsigned int i)
{
	char path[64], line[512];
	bool asan = false;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)f->pid[i]);
	fp = fopen(path, "r");
	if (!fp)
		return false;
	while (!asan && fgets(line, sizeof(line), fp))
		asan = strstr(line, "/libasan") != NULL;
	fclose(fp);
	return asan;
}

int fabric_attach(struct fabric *f, unsigned int i)
{
	const char *env = getenv("LOOM_CARD");
	char err[256];
	bool asan;

	if (fh_attach(&f->fh[i], f->sock[i], f->ram[i], 10000, err, sizeof(err))) {
		tap_diag("card %u: %s", i, err);
		fabric_dump_log(f, i);
		return -1;
	}
	/* the card answers on its socket: its runtime is loaded */
	asan = fabric_card_has_asan(f, i);
	if (!(env && *env) && asan != f->sanitized_card) {
		tap_diag("card %u (pid %d) runs %s the sanitizers, the test asked for the %s card",
			 i, (int)f->pid[i], asan ? "with" : "without",
			 f->sanitized_card ? "sanitized" : "plain");
		return -1;
	}
	return 0;
}

int fabric_wait_link(struct fabric *f, unsigned int i, unsigned int port, int timeout_ms)
{
	uint64_t deadline = fh_now_ms() + (uint64_t)timeout_ms;
	struct fakehost *fh = &f->fh[i];

	while (!(fh_rd32(fh, fh_port_reg(fh, port, LOOM_PORT_STATUS)) & LOOM_PORT_ST_UP)) {
		if (fh_now_ms() > deadline) {
			tap_diag("card %u port %u did not come up", i, port);
			fabric_dump_log(f, i);
			return -1;
		}
		usleep(10000);
	}
	return 0;
}

int fabric_start_ring(struct fabric *f, unsigned int n)
{
	return fabric_start_ring_ctl(f, n, NULL);
}

int fabric_start_ring_ctl(struct fabric *f, unsigned int n, const char *const *more)
{
	for (unsigned int i = 0; f->tcp_cables && i < n; i++) {
		f->tcp_port[i] = tcp_free_port();
		if (f->tcp_port[i] < 0) {
			tap_diag("no free TCP port on 127.0.0.1");
			return -1;
		}
	}
	for (unsigned int i = 0; i < n; i++) {
		char args[32][128];
		const char *extra[64];
		int k = 0, a = 0;

		if (more) {
			snprintf(f->ctl[i], sizeof(f->ctl[i]), "%s/card%u.ctl.sock", f->dir, i);
			extra[k++] = "--ctl";
			extra[k++] = f->ctl[i];
			for (int m = 0; more[m] && k < 40; m++)
				extra[k++] = more[m];
		}
		if (n > 1 && f->tcp_cables) {
			extra[k++] = "--cable";
			snprintf(args[a], sizeof(args[a]), "0=tcp-listen:127.0.0.1:%d", f->tcp_port[i]);
			extra[k++] = args[a++];
			extra[k++] = "--cable";
			snprintf(args[a], sizeof(args[a]), "1=tcp-connect:127.0.0.1:%d",
				 f->tcp_port[(i + n - 1) % n]);
			extra[k++] = args[a++];
		} else if (n > 1) {
			extra[k++] = "--cable";
			snprintf(args[a], sizeof(args[a]), "0=listen:%s/cable-%u-0.sock", f->dir, i);
			extra[k++] = args[a++];
			extra[k++] = "--cable";
			snprintf(args[a], sizeof(args[a]), "1=connect:%s/cable-%u-0.sock", f->dir,
				 (i + n - 1) % n);
			extra[k++] = args[a++];
		}
		if (n > 1) {
			/* one dimension; the wrap-around channels are datelines */
			extra[k++] = "--vct";
			extra[k++] = i == n - 1 ? "0=0,dateline" : "0=0";
			extra[k++] = "--vct";
			extra[k++] = i == 0 ? "1=0,dateline" : "1=0";
		}
		for (unsigned int d = 0; d < n; d++) {
			unsigned int cw = (d + n - i) % n;

			if (d == i)
				continue;
			extra[k++] = "--route";
			snprintf(args[a], sizeof(args[a]), "%u=%u", d, cw <= n / 2 ? 0 : 1);
			extra[k++] = args[a++];
		}
		extra[k] = NULL;
		if (fabric_start_card(f, i, extra))
			return -1;
	}
	for (unsigned int i = 0; i < n; i++)
		if (fabric_attach(f, i))
			return -1;
	for (unsigned int i = 0; n > 1 && i < n; i++)
		for (unsigned int p = 0; p < 2; p++)
			if (fabric_wait_link(f, i, p, 10000))
				return -1;
	return 0;
}

int fabric_start_torus2(struct fabric *f, unsigned int ndims)
{
	unsigned int n = 1u << ndims;
	char ports[8];

	if (ndims < 1 || 2 * ndims > LOOM_MAX_PORTS || n > FABRIC_MAX_CARDS)
		return -1;
	snprintf(ports, sizeof(ports), "%u", 2 * ndims);
	for (unsigned int i = 0; i < n; i++) {
		char args[2 * LOOM_MAX_PORTS][128];
		const char *extra[8 + 4 * LOOM_MAX_PORTS];
		int k = 0;

		snprintf(f->ctl[i], sizeof(f->ctl[i]), "%s/card%u.ctl.sock", f->dir, i);
		extra[k++] = "--ctl";
		extra[k++] = f->ctl[i];
		extra[k++] = "--ports";
		extra[k++] = ports;
		for (unsigned int d = 0; d < ndims; d++) {
			snprintf(args[2 * d], sizeof(args[0]), "%u=listen:%s/cable-%u-%u.sock",
				 2 * d, f->dir, i, 2 * d);
			snprintf(args[2 * d + 1], sizeof(args[0]), "%u=connect:%s/cable-%u-%u.sock",
				 2 * d + 1, f->dir, i ^ (1u << d), 2 * d);
			extra[k++] = "--cable";
			extra[k++] = args[2 * d];
			extra[k++] = "--cable";
			extra[k++] = args[2 * d + 1];
		}
		extra[k] = NULL;
		if (fabric_start_card(f, i, extra))
			return -1;
	}
	for (unsigned int i = 0; i < n; i++)
		if (fabric_attach(f, i))
			return -1;
	for (unsigned int i = 0; i < n; i++)
		for (unsigned int p = 0; p < 2 * ndims; p++)
			if (fabric_wait_link(f, i, p, 20000))
				return -1;
	return 0;
}

int fabric_ctl(struct fabric *f, unsigned int i, const char *cmd, char *reply, size_t len)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 5 };
	size_t got = 0;
	int fd;

	reply[0] = 0;
	if (!f->ctl[i][0] || strlen(f->ctl[i]) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, f->ctl[i], strlen(f->ctl[i]) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		tap_diag("card %u: cannot connect to control socket %s: %s", i, f->ctl[i],
			 strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(fd, cmd, strlen(cmd), MSG_NOSIGNAL) != (ssize_t)strlen(cmd) ||
	    send(fd, "\n", 1, MSG_NOSIGNAL) != 1) {
		close(fd);
		return -1;
	}
	while (got + 1 < len) {
		ssize_t n = recv(fd, reply + got, 1, 0);

		if (n <= 0)
			break;
		if (reply[got] == '\n')
			break;
		got++;
	}
	reply[got] = 0;
	close(fd);
	return got ? 0 : -1;
}

long long fabric_stat(const char *stats, const char *key)
{
	size_t kl = strlen(key);

	for (const char *s = stats; (s = strstr(s, key)); s += kl)
		if ((s == stats || s[-1] == ' ') && s[kl] == '=')
			return strtoll(s + kl + 1, NULL, 10);
	return -1;
}

int fabric_card_alive(struct fabric *f, unsigned int i)
{
	return f->pid[i] > 0 && waitpid(f->pid[i], NULL, WNOHANG) == 0;
}

void fabric_dump_log(struct fabric *f, unsigned int i)
{
	char line[512];
	FILE *fp = fopen(f->log[i], "r");

	if (!fp)
		return;
	tap_diag("--- card %u log (%s) ---", i, f->log[i]);
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = 0;
		tap_diag("%s", line);
	}
	fclose(fp);
}
