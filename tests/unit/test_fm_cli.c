// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm command line: exit status 0 (complete and acyclic), 1 (check
 * failed, with the reason on stdout), 2 (usage or topology errors, with
 * the reason on stderr); --help; JSON output; the live commands' option
 * errors (exit 2 before any netlink traffic).  Runs build/bin/loom-fm,
 * found beside this test's build directory.
 */
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tap.h"

TAP_DEFINE;

extern char **environ;

static char tool[PATH_MAX + 32];
static char out_path[64] = "", err_path[64] = "", topo_path[64] = "";
static char out[65536], errtext[8192];

static void cleanup(void)
{
	if (out_path[0])
		unlink(out_path);
	if (err_path[0])
		unlink(err_path);
	if (topo_path[0])
		unlink(topo_path);
}

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = '\0';
	if (f)
		fclose(f);
}

/* Run loom-fm with args (NULL-terminated); its exit status, -1 if it did not exit. */
static int run(const char *const *args)
{
	posix_spawn_file_actions_t fa;
	char *argv[32];
	int i = 0, status;
	pid_t pid;

	argv[i++] = tool;
	for (; *args && i < 31; args++)
		argv[i++] = (char *)*args;
	argv[i] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_TRUNC, 0);
	posix_spawn_file_actions_addopen(&fa, 2, err_path, O_WRONLY | O_TRUNC, 0);
	if (posix_spawn(&pid, tool, &fa, NULL, argv, environ)) {
		posix_spawn_file_actions_destroy(&fa);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	slurp(out_path, out, sizeof(out));
	slurp(err_path, errtext, sizeof(errtext));
	return WEXITSTATUS(status);
}

#define RUN(...) run((const char *const[]){ __VA_ARGS__, NULL })

static int make_temp(char *path, size_t len, const char *tag)
{
	int fd;

	snprintf(path, len, "/tmp/test_fm_cli.%s.XXXXXX", tag);
	fd = mkstemp(path);
	if (fd < 0) {
		path[0] = '\0';
		return -1;
	}
	close(fd);
	return 0;
}

int main(void)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	FILE *f;
	int rc;

	atexit(cleanup);
	if (n <= 0)
		tap_skip_all("cannot read /proc/self/exe");
	self[n] = '\0';
	*strrchr(self, '/') = '\0';
	/* BUILD/tests/unit/test_fm_cli -> BUILD/bin/loom-fm */
	snprintf(tool, sizeof(tool), "%s/../../bin/loom-fm", self);
	if (access(tool, X_OK))
		tap_skip_all("build/bin/loom-fm not built");
	if (make_temp(out_path, sizeof(out_path), "out") ||
	    make_temp(err_path, sizeof(err_path), "err") ||
	    make_temp(topo_path, sizeof(topo_path), "topo"))
		tap_skip_all("cannot create temp files in /tmp");

	tap_plan(32);
	rc = RUN("routes", "--shape", "torus:4x4");
	tap_ok(rc == 0 && strstr(out, "node 15: 0=0/") && strstr(out, "complete: yes (240 routes)") &&
	       strstr(out, "deadlock-free: yes") && strstr(out, "minimal: yes"),
	       "torus:4x4 dor: tables and three passing verdicts, exit 0 (%d)", rc);
	rc = RUN("routes", "--shape", "ring:4", "--no-datelines", "--ties", "plus", "--check-only");
	tap_ok(rc == 1 && strstr(out, "deadlock-free: no") &&
	       strstr(out, "0:0/0 -> 1:0/0 -> 2:0/0 -> 3:0/0 -> 0:0/0") && !strstr(out, "node 0:"),
	       "ring:4 without datelines: exit 1 naming the cycle (%d)", rc);
	rc = RUN("routes", "--shape", "ring:5", "--engine", "minhop", "--no-datelines",
		 "--check-only");
	tap_ok(rc == 1 && strstr(out, "cycle of 5 channels"),
	       "minhop ring:5 --no-datelines: exit 1, cyclic (%d)", rc);
	rc = RUN("routes", "--shape", "torus:4x4", "--engine", "updown", "--fail", "0:0", "--fail",
		 "5:1", "--check-only");
	tap_ok(rc == 0 && strstr(out, "30 cables") && strstr(out, "max stretch"),
	       "updown around 2 failed cables: exit 0, stretch reported (%d)", rc);

	f = fopen(topo_path, "w");
	if (f) {
		fputs("0:0 1:0\n1:1 2:0\n# part two\n3:0 4:0\n", f);
		fclose(f);
	}
	rc = RUN("routes", "--topology", topo_path, "--check-only");
	tap_ok(rc == 1 && strstr(out, "complete: no, 12 of 20 pairs unreachable: 0->3"),
	       "a disconnected topology: exit 1 naming the pairs (%d)", rc);
	rc = RUN("routes", "--topology", topo_path, "--engine", "dor");
	tap_ok(rc == 2 && strstr(errtext, "dor needs coordinates"),
	       "dor on a topology file: exit 2 (%d): %s", rc, strtok(errtext, "\n"));
	f = fopen(topo_path, "w");
	if (f) {
		fputs("0:0 1:0\n\n0:0 2:0\n", f);
		fclose(f);
	}
	rc = RUN("routes", "--topology", topo_path);
	tap_ok(rc == 2 && strstr(errtext, ":3: duplicate port: 0:0 is already cabled at line 1"),
	       "a duplicate port: exit 2 with its line (%d)", rc);

	rc = RUN("routes", "--shape", "torus:9x");
	tap_ok(rc == 2 && strstr(errtext, "torus:9x"), "a bad shape: exit 2 (%d)", rc);
	rc = RUN("routes", "--shape", "ring:4", "--fail", "0:5");
	tap_ok(rc == 2 && strstr(errtext, "no port 5"), "a bad --fail: exit 2 (%d)", rc);
	rc = RUN("routes", "--shape", "ring:4", "--topology", topo_path);
	tap_ok(rc == 2 && strstr(errtext, "exactly one"), "--shape and --topology: exit 2 (%d)", rc);
	rc = RUN("--help");
	tap_ok(rc == 0 && strstr(out, "Exit status") && strstr(out, "updown"),
	       "--help: exit 0, names engines and exit status (%d)", rc);
	rc = RUN("routes", "--shape", "ring:3", "-j");
	tap_ok(rc == 0 && out[0] == '{' && strstr(out, "\"deadlock_free\":true") &&
	       strstr(out, "\"complete\":true") && strstr(out, "{\"dest\":0,\"port\":\"host\",\"vc\":0}"),
	       "-j: one JSON object (%d)", rc);

	/* live mode: option errors exit 2 before anything touches the kernel */
	rc = RUN("configure", "--engine", "dor");
	tap_ok(rc == 2 && strstr(errtext, "give --shape"), "configure --engine dor without --shape: "
	       "exit 2 (%d)", rc);
	rc = RUN("discover", "--dev", "/dev/sda");
	tap_ok(rc == 2 && strstr(errtext, "expected a card name, loomN"), "discover --dev /dev/sda: "
	       "exit 2 (%d)", rc);
	rc = RUN("discover", "--index", "1");
	tap_ok(rc == 2 && strstr(errtext, "unknown option '--index'"),
	       "discover --index: exit 2, the card is named with --dev only (%d)", rc);
	rc = RUN("-V");
	tap_ok(rc == 0 && !strncmp(out, "loom-fm ", 8) && strchr(out, '.'),
	       "-V: exit 0, 'loom-fm VERSION' (%d)", rc);
	rc = RUN("cofigure", "--shape", "ring:4");
	tap_ok(rc == 2 && strstr(errtext, "unknown command 'cofigure': did you mean 'configure'?"),
	       "a misspelt command: exit 2, the right spelling named (%d)", rc);
	rc = RUN("routes", "--shpe", "ring:4");
	tap_ok(rc == 2 && strstr(errtext, "unknown option '--shpe': did you mean '--shape'?"),
	       "a misspelt option: exit 2, the right spelling named (%d)", rc);
	rc = RUN("watch", "--interval");
	tap_ok(rc == 2 && strstr(errtext, "option '--interval' needs a value"),
	       "an option without its value: exit 2, said so (%d)", rc);
	rc = RUN("discover", "--colour");
	tap_ok(rc == 2 && strstr(errtext, "unknown option '--colour'") && !strstr(errtext, "did you"),
	       "an unknown option with no close spelling: exit 2, no suggestion (%d)", rc);
	rc = RUN("configure", "--once");
	tap_ok(rc == 2 && strstr(errtext, "options of watch"), "configure --once: exit 2 (%d)", rc);
	rc = RUN("watch", "--interval", "5", "--shape", "torus:2x2");
	tap_ok(rc == 2 && strstr(errtext, "--interval '5'"), "watch --interval 5: exit 2 (%d)", rc);
	rc = RUN("configure", "--logical", "sideways");
	tap_ok(rc == 2 && strstr(errtext, "--logical 'sideways': expected identity or compact"),
	       "configure --logical sideways: exit 2 (%d)", rc);
	rc = RUN("discover", "--force");
	tap_ok(rc == 2 && strstr(errtext, "discover takes"), "discover --force: exit 2 (%d)", rc);
	rc = RUN("discover", "--vc-assign", "crossing");
	tap_ok(rc == 2 && strstr(errtext, "discover takes"),
	       "discover --vc-assign: exit 2, an engine option (%d)", rc);
	rc = RUN("routes", "--shape", "ring:8", "--ties", "minus");
	tap_ok(rc == 2 && strstr(errtext, "--ties 'minus': expected split or plus"),
	       "routes --ties minus: exit 2 (%d)", rc);
	rc = RUN("configure", "--vc-assign", "optimal");
	tap_ok(rc == 2 && strstr(errtext, "--vc-assign 'optimal': expected balanced or crossing"),
	       "configure --vc-assign optimal: exit 2 (%d)", rc);
	rc = RUN("routes", "--shape", "torus:4x4", "--check-only");
	tap_ok(rc == 0 && strstr(out, "vc-balance: average 0.000, max 0.000 over 64 channels"),
	       "routes torus:4x4: the VC balance line, perfectly balanced (%d)", rc);
	rc = RUN("routes", "--shape", "torus:4x4", "--check-only", "--vc-assign", "crossing", "-j");
	tap_ok(rc == 0 && strstr(out, "\"vc_balance\":{\"average\":1.0000,\"max\":1.0000"),
	       "routes torus:4x4 --vc-assign crossing -j: vc_balance in the JSON (%d)", rc);
	rc = RUN("routes", "--shape", "ring:4", "--root", "46340");
	tap_ok(rc == 2 && strstr(errtext, "--root '46340': not a node id (0..46339)"),
	       "routes --root 46340: exit 2 (%d)", rc);
	rc = RUN("configure", "--root", "-1");
	tap_ok(rc == 2 && strstr(errtext, "--root '-1': not a node id (0..46339)"),
	       "configure --root -1: the same message (%d)", rc);
	f = fopen(topo_path, "w");
	if (f) {
		fputs("0:0 1:0\n1:1 2:0\nnode 2 logical 0\nnode 0 logical 2\n", f);
		fclose(f);
	}
	rc = RUN("routes", "--topology", topo_path, "--check-only");
	tap_ok(rc == 0 && strstr(out, "complete: yes"), "routes on a topology file stating logical "
	       "ids: exit 0 (%d)", rc);
	return tap_exit_status();
}
