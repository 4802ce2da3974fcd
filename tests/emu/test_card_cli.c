// SPDX-License-Identifier: GPL-2.0
/*
 * loom-card as a program: every bad option exits 2 with a message naming
 * the option and the bad value; --help exits 0; SIGTERM exits 0 and
 * removes the sockets the card created; an ivshmem client that goes away
 * resets the card (contexts disabled) and a new client can attach.
 */
#include "fabric.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

TAP_DEFINE;

static struct fabric f;

/* Run loom-card with @args; returns its exit status, its stderr in @err. */
static int run_card(const char *const *args, char *err, size_t errlen)
{
	char bin[4096], path[160];
	const char *argv[32];
	int argc = 0, status, fd;
	pid_t pid;
	ssize_t n;

	fabric_card_bin(bin, sizeof(bin), f.sanitized_card);
	fabric_path(&f, path, sizeof(path), "stderr.txt");
	argv[argc++] = bin;
	for (int i = 0; args[i] && argc < 31; i++)
		argv[argc++] = args[i];
	argv[argc] = NULL;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		dup2(fd, 1);
		execv(bin, (char *const *)argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	fd = open(path, O_RDONLY);
	n = fd >= 0 ? read(fd, err, errlen - 1) : 0;
	err[n > 0 ? n : 0] = 0;
	if (fd >= 0)
		close(fd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

struct bad_case {
	const char *args[12];
	const char *must_say;	/* substring the message must contain */
};

int main(void)
{
	char sock[160], cable[200], err[4096];
	static const char *const help[] = { "--help", NULL };
	struct bad_case bad[] = {
		{ { NULL }, "--node is required" },
		{ { "--node", "x", NULL }, "--node 'x'" },
		{ { "--node", "1024", NULL }, "--node '1024'" },
		{ { "--node", NULL }, "'--node' needs a value" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "/nonexistent/ram", NULL }, "--guest-ram '/nonexistent/ram'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--ports", "9", NULL }, "--ports '9'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--cable", "2=listen:/x", NULL }, "port 2 does not exist" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--cable", "0=dial:/x", NULL }, "listen: or connect:" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--cable", "0=listen:/a", "--cable", "0=listen:/b", NULL }, "already cabled" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--cable", "0=tcp-connect:300.1.1.1:7000", NULL }, "--cable '0=tcp-connect:300.1.1.1:7000': '300.1.1.1:7000': '300.1.1.1' is not an IPv4 address" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--cable", "0=tcp-listen::7000", NULL }, "no address before the port" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--cable", "0=tcp-listen:127.0.0.1:99999", NULL }, "port '99999' is not a number from 1 to 65535" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--route", "1024=0", NULL }, "--route '1024=0'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--route", "3=north", NULL }, "port 'north'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--frobnicate", NULL }, "unknown option '--frobnicate'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "stray", NULL }, "unexpected argument 'stray'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--seed", "-1", NULL }, "--seed '-1'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--seed", "12x", NULL }, "--seed '12x'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--link-timeout", "0", NULL }, "--link-timeout '0': expected milliseconds in 1..60000" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--link-timeout", "60001", NULL }, "--link-timeout '60001'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--op-timeout", "0", NULL }, "--op-timeout '0': expected milliseconds in 1..600000" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--op-timeout", "600001", NULL }, "--op-timeout '600001'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--replay-frames", "0", NULL }, "--replay-frames '0': expected a frame count in 1..4096" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--replay-frames", "4097", NULL }, "--replay-frames '4097'" },
		{ { "--node", "1", "--ivshmem", "s", "--guest-ram", "r", "--ctl", "", NULL }, "--ctl '': expected a UNIX socket path" },
	};
	unsigned int nbad = sizeof(bad) / sizeof(bad[0]), good = 0;
	struct fh_ctx ctx;
	int ok, status;

	tap_plan(7);
	if (fabric_init(&f, 60))
		return 1;
	/* bad options reach the card: the card built with the sanitizers */
	f.sanitized_card = true;
	for (unsigned int i = 0; i < nbad; i++) {
		int rc = run_card(bad[i].args, err, sizeof(err));

		if (rc == 2 && strstr(err, bad[i].must_say) && strstr(err, "loom-card"))
			good++;
		else
			tap_diag("case %u: exit %d, wanted 2 and '%s' in: %s", i, rc, bad[i].must_say, err);
	}
	tap_ok(good == nbad, "%u bad command lines: exit 2 with a message naming option and value (%u)",
	       nbad, good);
	ok = run_card(help, err, sizeof(err)) == 0;
	tap_ok(ok && strstr(err, "Usage: loom-card") && strstr(err, "--cable PORT=listen:PATH") &&
	       strstr(err, "--cable PORT=tcp-listen:ADDR:TCPPORT") &&
	       strstr(err, "--cable PORT=tcp-connect:HOST:TCPPORT") &&
	       strstr(err, "--route DST=PORT") && strstr(err, "--ctl PATH") && strstr(err, "--seed N") &&
	       strstr(err, "--link-timeout MS") && strstr(err, "--op-timeout MS") &&
	       strstr(err, "--replay-frames N"),
	       "--help: exit 0 with the usage text");

	/* a stale socket file at the ivshmem path (its process was killed) */
	{
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);

		fabric_path(&f, sock, sizeof(sock), "card0.ivshmem.sock");
		memcpy(sa.sun_path, sock, strlen(sock) + 1);
		if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
			tap_diag("could not create the stale socket %s", sock);
		close(fd);
	}
	/* a running card: attach, enable, detach, re-attach */
	{
		const char *extra[] = { "--cable", NULL, NULL };

		fabric_path(&f, cable, sizeof(cable), "c0.sock");
		memmove(cable + 9, cable, strlen(cable) + 1);
		memcpy(cable, "0=listen:", 9);
		extra[1] = cable;
		ok = fabric_start_card(&f, 0, extra) == 0 && fabric_attach(&f, 0) == 0 &&
		     fh_ctx_create(&f.fh[0], &ctx, 4, 1, 4, 4, 4096) == LOOM_ADMIN_E_OK;
	}
	tap_ok(ok, "card started over a stale ivshmem socket file, fake host attached, context 4 enabled");
	{
		const char *second[] = { "--node", "9", "--ivshmem", f.sock[0], "--guest-ram", f.ram[0], NULL };
		int rc = run_card(second, err, sizeof(err));

		tap_ok(rc == 1 && strstr(err, "another process listens there"),
		       "a second card on the same ivshmem socket exits 1 and says why (exit %d)", rc);
	}
	fh_detach(&f.fh[0]);
	usleep(200000);
	ok = fabric_attach(&f, 0) == 0 &&
	     fh_rd32(&f.fh[0], fh_ctx_reg(&f.fh[0], 4, LOOM_CTXR_STATE)) == LOOM_CTX_ST_DISABLED &&
	     fh_admin(&f.fh[0], LOOM_ADMIN_CMD_NOP, 0, 5000) == LOOM_ADMIN_E_OK;
	tap_ok(ok, "after the client left, a new one attaches; the card was reset (context disabled)");

	snprintf(sock, sizeof(sock), "%s", f.sock[0]);
	fabric_path(&f, cable, sizeof(cable), "c0.sock");
	kill(f.pid[0], SIGTERM);
	ok = waitpid(f.pid[0], &status, 0) == f.pid[0];
	f.pid[0] = 0;
	tap_ok(ok && WIFEXITED(status) && WEXITSTATUS(status) == 0, "SIGTERM: clean exit 0");
	tap_ok(access(sock, F_OK) != 0 && errno == ENOENT && access(cable, F_OK) != 0,
	       "the ivshmem socket and the listening cable socket are removed");
	if (tap.failed)
		fabric_dump_log(&f, 0);
	fabric_stop();
	return tap_exit_status();
}
