// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab start: checks the options, prepares the guest kernel and
 * initramfs, creates DIR and forks the supervisor daemon, then relays the
 * daemon's progress to stderr until every guest is up (exit 0) or start
 * failed (the lab is torn down, exit 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "lab.h"
#include "sys.h"

#ifndef LOOM_TREE
#define LOOM_TREE ""
#endif

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	interrupted = sig;
}

static int parse_int(const char *opt, const char *s, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		lab_err("%s %s: expected a whole number from %d to %d", opt, s, lo, hi);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* Paths go into QEMU options and the kernel command line unquoted. */
static int check_plain_path(const char *what, const char *p)
{
	if (strpbrk(p, " \t\n,'\"\\=")) {
		lab_err("%s %s contains a space, comma, quote, backslash or '=': "
			"the lab cannot pass it to QEMU and the guest; use a plainer path",
			what, p);
		return -1;
	}
	return 0;
}

static bool path_under(const char *p, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(p, dir, n) && (p[n] == '/' || !p[n]);
}

/*
 * Where the guest must see it.  The guests mount their own /dev, /proc and
 * /sys, and their own /tmp, /run and /root, in which the init script binds
 * the tree (and only the tree) back in place.  @tree is NULL when checking
 * the tree itself.
 */
static int check_guest_visible(const char *what, const char *p, const char *tree)
{
	static const char *const guest_own[] = { "/dev", "/proc", "/sys" };
	static const char *const shadowed[] = { "/tmp", "/run", "/root" };

	for (size_t i = 0; i < sizeof(guest_own) / sizeof(guest_own[0]); i++)
		if (path_under(p, guest_own[i])) {
			lab_err("%s %s is under %s, which the guests replace with their "
				"own file system: put it elsewhere", what, p, guest_own[i]);
			return -1;
		}
	if (!tree || path_under(p, tree))
		return 0;
	for (size_t i = 0; i < sizeof(shadowed) / sizeof(shadowed[0]); i++)
		if (path_under(p, shadowed[i])) {
			lab_err("%s %s is under %s but outside the tree %s: the guests "
				"only see the tree there; put it inside the tree or elsewhere",
				what, p, shadowed[i], tree);
			return -1;
		}
	return 0;
}

/* A text that goes into lab.conf (one line) and on a command line. */
static int check_one_line(const char *opt, const char *v, size_t max)
{
	if (strlen(v) >= max || strpbrk(v, "\n\r")) {
		lab_err("%s: at most %zu characters on one line", opt, max - 1);
		return -1;
	}
	return 0;
}

/*
 * The options that adapt a lab to a debug kernel, each defaulting to its
 * LOOM_LAB_* environment variable so that a whole test suite can be pointed
 * at another kernel: --kernel/--modules, --append, --timeout-scale,
 * --on-stop, --keep-logs (this one is finished by keep_logs_dir()).
 */
static int debug_options(struct lab_config *cfg, const char *kernel, const char *modules,
			 const char *append, const char *scale, const char *on_stop,
			 const char *keep_logs)
{
	bool has_kernel = kernel && *kernel, has_modules = modules && *modules;

	if (has_kernel != has_modules) {
		lab_err("start: --kernel and --modules (LOOM_LAB_KERNEL, LOOM_LAB_MODULES) "
			"go together: the guest kernel and its module tree");
		return -1;
	}
	if (has_kernel && (check_plain_path("--kernel", kernel) < 0 ||
			   check_plain_path("--modules", modules) < 0))
		return -1;
	cfg->timeout_scale = 1;
	if (scale && *scale &&
	    parse_int("--timeout-scale (LOOM_LAB_TIMEOUT_SCALE)", scale, 1, 100,
		      &cfg->timeout_scale) < 0)
		return -1;
	if (append && (check_one_line("--append", append, sizeof(cfg->append)) < 0))
		return -1;
	if (on_stop && check_one_line("--on-stop", on_stop, sizeof(cfg->on_stop)) < 0)
		return -1;
	snprintf(cfg->append, sizeof(cfg->append), "%s", append ? append : "");
	snprintf(cfg->on_stop, sizeof(cfg->on_stop), "%s", on_stop ? on_stop : "");
	if (keep_logs && *keep_logs && check_one_line("--keep-logs", keep_logs, 1024) < 0)
		return -1;
	return 0;
}

/*
 * --keep-logs DEST: teardown saves the logs into DEST/NAME.UNIQ, NAME being
 * the test that started the lab (LOOM_TEST_NAME, set by tests/run-tests)
 * or "lab".  DEST is created now, so that a bad one fails the start.
 */
static int keep_logs_dir(struct lab_config *cfg, const char *dest)
{
	const char *test = getenv("LOOM_TEST_NAME");
	char abs[LAB_PATH_MAX], name[128];
	size_t i;

	snprintf(name, sizeof(name), "%s", test && *test ? test : "lab");
	for (i = 0; name[i]; i++)
		if (name[i] == '/' || name[i] == ' ')
			name[i] = '_';
	if (lab_abs_dir(dest, abs) < 0 ||
	    lab_path(cfg->keep_logs, abs, "%s.%s", name, cfg->uniq) < 0) {
		lab_err("start: --keep-logs %s: the path is too long", dest);
		return -1;
	}
	if (mkdir(abs, 0755) < 0 && errno != EEXIST) {
		lab_err("start: --keep-logs %s: cannot create it: %s", abs, strerror(errno));
		return -1;
	}
	return 0;
}

/* A field of /proc/meminfo in KiB, -1 if absent. */
static long long meminfo_kib(const char *field)
{
	char line[256];
	long long v = -1;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, strlen(field))) {
			v = strtoll(line + strlen(field), NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

/*
 * The lab must fit this machine: every guest's RAM (a /dev/shm file that
 * fills as the guest runs), its TCG translation cache and QEMU's own
 * memory, against what the kernel says is available now.
 */
static int check_memory(const struct lab_config *cfg)
{
	long long per_host = cfg->mem_mib + LAB_TCG_TB_MIB + LAB_QEMU_OVERHEAD_MIB;
	long long need = cfg->hosts * per_host, avail = meminfo_kib("MemAvailable:");
	struct statvfs sv;

	if (avail >= 0 && need > avail / 1024) {
		lab_err("start: %d host%s need about %lld MiB (each %d MiB guest RAM, %d MiB "
			"TCG cache, %d MiB QEMU) but only %lld MiB are available: lower --mem "
			"or the number of hosts, or wait for other labs to stop", cfg->hosts,
			cfg->hosts > 1 ? "s" : "", need, cfg->mem_mib, LAB_TCG_TB_MIB,
			LAB_QEMU_OVERHEAD_MIB, avail / 1024);
		return -1;
	}
	if (statvfs("/dev/shm", &sv) == 0 &&
	    (long long)cfg->hosts * cfg->mem_mib >
	    (long long)(sv.f_bavail * sv.f_frsize >> 20)) {
		lab_err("start: the guests' RAM files need up to %lld MiB in /dev/shm, which "
			"has %llu MiB free: lower --mem or the number of hosts",
			(long long)cfg->hosts * cfg->mem_mib,
			(unsigned long long)(sv.f_bavail * sv.f_frsize >> 20));
		return -1;
	}
	return 0;
}

static int self_dir(char *out)
{
	char exe[LAB_PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	if (n <= 0)
		return -1;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = 0;
	snprintf(out, LAB_PATH_MAX, "%s", exe);
	return 0;
}

static int prepare_dir(const char *dir)
{
	struct stat st;
	struct sockaddr_un sa;
	/* the longest socket name in DIR: a QEMU's datagram socket in the
	 * management switch's directory (".PID-NNNNN") */
	static const char longest_name[] = "/mgmt.vde/.4194304-00000";
	size_t longest = strlen(dir) + strlen(longest_name);

	if (longest >= sizeof(sa.sun_path)) {
		lab_err("--dir %s is too long for UNIX socket names (keep it under %zu "
			"characters)", dir, sizeof(sa.sun_path) - strlen(longest_name));
		return -1;
	}
	if (stat(dir, &st) == 0) {
		char probe[LAB_PATH_MAX];
		int empty;

		if (!S_ISDIR(st.st_mode)) {
			lab_err("--dir %s exists and is not a directory", dir);
			return -1;
		}
		snprintf(probe, sizeof(probe), "%s", dir);
		empty = rmdir(probe) == 0; /* succeeds only when empty */
		if (!empty) {
			lab_err("--dir %s exists and is not empty (a lab running there? "
				"`loom-lab stop --dir %s` first)", dir, dir);
			return -1;
		}
	}
	if (mkdir(dir, 0755) < 0) {
		lab_err("cannot create --dir %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

static void daemon_child(struct lab_config *cfg, int status_fd)
{
	char log[LAB_PATH_MAX];
	int fd;

	setsid();
	lab_pids_record(cfg->dir, LAB_ROLE_SUPERVISOR, 0, getpid());
	lab_path(log, cfg->dir, "supervisor.log");
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0) {
		dup2(fd, 0);
		close(fd);
	}
	fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
		close(fd);
	}
	/* keep nothing of the caller's (pipes of a test runner, say) */
	if (status_fd > 3)
		close_range(3, (unsigned int)status_fd - 1, 0);
	close_range((unsigned int)status_fd + 1, ~0u, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	lab_prog = "loom-lab supervisor";
	lab_supervise(cfg, status_fd);
}

/* Relays the daemon's progress; 0 when it reported success. */
static int relay_progress(int fd)
{
	char buf[4096];
	size_t fill = 0;
	int ok = 0;

	for (;;) {
		ssize_t n = read(fd, buf + fill, sizeof(buf) - fill - 1);
		char *nl, *line;

		if (n < 0 && errno == EINTR) {
			if (interrupted)
				return -1;
			continue;
		}
		if (n <= 0)
			break;
		fill += (size_t)n;
		buf[fill] = 0;
		line = buf;
		while ((nl = strchr(line, '\n'))) {
			*nl = 0;
			if (!strcmp(line, "@@OK"))
				ok = 1;
			else if (strcmp(line, "@@FAIL"))
				fprintf(stderr, "%s\n", line);
			line = nl + 1;
		}
		fill -= (size_t)(line - buf);
		memmove(buf, line, fill);
		if (fill == sizeof(buf) - 1) {
			fprintf(stderr, "%s\n", buf);
			fill = 0;
		}
	}
	return ok ? 0 : -1;
}

int cmd_start(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "hosts", required_argument, NULL, 'n' },
		{ "shape", required_argument, NULL, 's' },
		{ "mem", required_argument, NULL, 'm' },
		{ "cpus", required_argument, NULL, 'u' },
		{ "boot-timeout", required_argument, NULL, 'b' },
		{ "module", required_argument, NULL, 'k' },
		{ "no-module", no_argument, NULL, 'K' },
		{ "tree", required_argument, NULL, 't' },
		{ "no-card", no_argument, NULL, 'C' },
		{ "no-routes", no_argument, NULL, 'R' },
		{ "kernel", required_argument, NULL, 'V' },
		{ "modules", required_argument, NULL, 'M' },
		{ "append", required_argument, NULL, 'A' },
		{ "timeout-scale", required_argument, NULL, 'T' },
		{ "on-stop", required_argument, NULL, 'S' },
		{ "keep-logs", required_argument, NULL, 'L' },
		{ "no-net", no_argument, NULL, 'N' },
		{ "cables", required_argument, NULL, 'c' },
		{ "router", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static struct lab_config cfg;
	const char *dir = NULL, *tree = LOOM_TREE, *module = NULL;
	const char *kernel = getenv("LOOM_LAB_KERNEL"), *modules = getenv("LOOM_LAB_MODULES");
	const char *append = getenv("LOOM_LAB_APPEND"), *on_stop = getenv("LOOM_LAB_ON_STOP");
	const char *keep_logs = getenv("LOOM_LAB_KEEP_LOGS");
	const char *scale = getenv("LOOM_LAB_TIMEOUT_SCALE");
	const char *mem = getenv("LOOM_LAB_MEM");
	const char *shape = "ring";
	char shape_err[512];
	bool no_module = false, hosts_given = false;
	char self[LAB_PATH_MAX];
	int c, pipefd[2];
	pid_t pid;

	memset(&cfg, 0, sizeof(cfg));
	cfg.hosts = 2;
	cfg.mem_mib = 0;	/* the default depends on the number of hosts */
	cfg.cpus = 1;
	cfg.boot_timeout_s = 180;
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir = optarg; break;
		case 'n':
			if (parse_int("--hosts", optarg, 1, LAB_MAX_HOSTS, &cfg.hosts) < 0)
				return 2;
			hosts_given = true;
			break;
		case 's': shape = optarg; break;
		case 'm':
			if (parse_int("--mem", optarg, 64, 2048, &cfg.mem_mib) < 0)
				return 2;
			break;
		case 'u':
			if (parse_int("--cpus", optarg, 1, LAB_MAX_CPUS, &cfg.cpus) < 0)
				return 2;
			break;
		case 'b':
			if (parse_int("--boot-timeout", optarg, 1, 3600,
				      &cfg.boot_timeout_s) < 0)
				return 2;
			break;
		case 'k': module = optarg; break;
		case 'K': no_module = true; break;
		case 't': tree = optarg; break;
		case 'C': cfg.no_card = true; break;
		case 'R': cfg.no_routes = true; break;
		case 'V': kernel = optarg; break;
		case 'M': modules = optarg; break;
		case 'A': append = optarg; break;
		case 'T': scale = optarg; break;
		case 'S': on_stop = optarg; break;
		case 'L': keep_logs = optarg; break;
		case 'N': cfg.no_net = true; break;
		case 'c':
			if (!strcmp(optarg, "tcp")) {
				cfg.tcp_cables = true;
			} else if (strcmp(optarg, "unix")) {
				lab_err("start: --cables %s: expected unix (UNIX sockets, the "
					"default) or tcp (TCP on 127.0.0.1)", optarg);
				return 2;
			}
			break;
		case 'r':
			if (!strcmp(optarg, "rtl") || !strcmp(optarg, "model")) {
				cfg.rtl_router = !strcmp(optarg, "rtl");
			} else {
				lab_err("start: --router %s: expected model (the cards' C model "
					"router, the default) or rtl (the Verilated router, "
					"loom-card --router rtl)", optarg);
				return 2;
			}
			break;
		case 'h': lab_help("start", 0); return 0;
		default: return lab_bad_option("start", argv, opts);
		}
	}
	if (optind != argc) {
		lab_err("start: unexpected argument '%s'", argv[optind]);
		return 2;
	}
	if (topo_parse(shape, hosts_given ? cfg.hosts : 0, LAB_MAX_HOSTS, &cfg.shape,
		       shape_err, sizeof(shape_err)) < 0) {
		lab_err("start: %s", shape_err);
		return 2;
	}
	cfg.hosts = topo_nodes(&cfg.shape);
	/* a debug kernel needs more RAM: LOOM_LAB_MEM, unless --mem is given */
	if (!cfg.mem_mib && mem && *mem &&
	    parse_int("--mem (LOOM_LAB_MEM)", mem, 64, 2048, &cfg.mem_mib) < 0)
		return 2;
	if (!cfg.mem_mib)
		cfg.mem_mib = cfg.hosts > LAB_BIG_HOSTS ? LAB_MEM_BIG_MIB : LAB_MEM_DEFAULT_MIB;
	if (!dir) {
		lab_err("start: --dir DIR is required");
		return 2;
	}
	if (cfg.no_routes && cfg.no_card) {
		lab_err("start: --no-routes and --no-card exclude each other (no card, "
			"no routes to leave out)");
		return 2;
	}
	if (cfg.rtl_router && cfg.no_card) {
		lab_err("start: --router rtl and --no-card exclude each other (no card, "
			"no router)");
		return 2;
	}
	if (cfg.tcp_cables && cfg.no_card) {
		lab_err("start: --cables tcp and --no-card exclude each other (no card, "
			"no cables)");
		return 2;
	}
	if (module && no_module) {
		lab_err("start: --module and --no-module exclude each other");
		return 2;
	}
	if (debug_options(&cfg, kernel, modules, append, scale, on_stop, keep_logs) < 0)
		return 2;
	if (!*tree) {
		lab_err("start: no source tree compiled in: pass --tree PATH");
		return 2;
	}
	if (lab_abs_dir(dir, cfg.dir) < 0 || lab_abs_dir(tree, cfg.tree) < 0) {
		lab_err("start: cannot make --dir or --tree absolute");
		return 2;
	}
	if (check_plain_path("--dir", cfg.dir) < 0 ||
	    check_plain_path("--tree", cfg.tree) < 0 ||
	    check_guest_visible("--tree", cfg.tree, NULL) < 0)
		return 2;
	if (!no_module) {
		if (module) {
			if (lab_abs_dir(module, cfg.module) < 0)
				return 2;
		} else {
			if (lab_path(cfg.module, cfg.tree, "kmod/loom.ko") < 0)
				return 2;
		}
		if (check_plain_path("--module", cfg.module) < 0 ||
		    check_guest_visible("--module", cfg.module, cfg.tree) < 0)
			return 2;
		if (access(cfg.module, R_OK) < 0) {
			lab_err("start: module %s: %s (build it with `make -C kmod`, name "
				"another with --module, or boot without it: --no-module)",
				cfg.module, strerror(errno));
			return 2;
		}
	}
	if (self_dir(self) < 0) {
		lab_err("start: cannot find my own executable in /proc/self/exe");
		return 1;
	}
	if (lab_path(cfg.agent, self, "loom-lab-agent") < 0 ||
	    lab_path(cfg.card, self, "loom-card") < 0) {
		lab_err("start: my own directory %s is too long", self);
		return 1;
	}
	if (access(cfg.agent, X_OK) < 0) {
		lab_err("start: the guest agent %s is missing (%s): build tools/loom-lab",
			cfg.agent, strerror(errno));
		return 1;
	}
	if (check_plain_path("agent", cfg.agent) < 0 ||
	    check_guest_visible("agent", cfg.agent, cfg.tree) < 0)
		return 1;
	if (!cfg.no_card && access(cfg.card, X_OK) < 0) {
		lab_err("start: the card emulator %s is missing (%s): build "
			"fpga_bitstreams, or start the VMs without cards: --no-card",
			cfg.card, strerror(errno));
		return 1;
	}
	if (!cfg.no_net && access("/usr/bin/vde_switch", X_OK) < 0) {
		lab_err("start: /usr/bin/vde_switch is missing: install vde-switch "
			"(tools/deps/install-deps), or start without the management "
			"network: --no-net");
		return 1;
	}
	if (!cfg.no_net && !lab_ssh_available())
		lab_info("no sshd, ssh or ssh-keygen on this machine: the hosts cannot "
			 "ssh to each other (install openssh-server and openssh-client: "
			 "tools/deps/install-deps)");
	if (check_memory(&cfg) < 0)
		return 1;
	if (access("/usr/bin/qemu-system-x86_64", X_OK) < 0) {
		lab_err("start: /usr/bin/qemu-system-x86_64 is missing: install "
			"qemu-system-x86 (tools/deps/install-deps)");
		return 1;
	}
	if (kernel && *kernel) {
		if (lab_use_kernel(kernel, modules, &cfg) < 0)
			return 2;
	} else if (lab_guest_kver(cfg.tree, cfg.kver, sizeof(cfg.kver)) < 0 ||
		   lab_prepare_vmlinux(cfg.tree, cfg.kver, cfg.vmlinux) < 0) {
		return 1;
	} else {
		snprintf(cfg.modules, sizeof(cfg.modules), "/lib/modules/%s", cfg.kver);
	}
	if (lab_prepare_initramfs(cfg.tree, cfg.modules, cfg.kver, cfg.initramfs) < 0)
		return 1;
	if (check_plain_path("cache", cfg.vmlinux) < 0)
		return 1;
	srand((unsigned int)(time(NULL) ^ getpid()));
	snprintf(cfg.uniq, sizeof(cfg.uniq), "loom-lab-%d-%04x", (int)getpid(),
		 (unsigned int)rand() & 0xffff);
	if (keep_logs && *keep_logs && keep_logs_dir(&cfg, keep_logs) < 0)
		return 1;

	if (prepare_dir(cfg.dir) < 0)
		return 1;
	if (lab_config_save(&cfg) < 0) {
		lab_err("cannot write %s/lab.conf: %s", cfg.dir, strerror(errno));
		lab_teardown(cfg.dir, NULL);
		return 1;
	}
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		lab_err("cannot create a pipe: %s", strerror(errno));
		lab_teardown(cfg.dir, NULL);
		return 1;
	}
	struct sigaction sa = { .sa_handler = on_interrupt };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		lab_err("cannot fork the supervisor: %s", strerror(errno));
		lab_teardown(cfg.dir, NULL);
		return 1;
	}
	if (pid == 0) {
		close(pipefd[0]);
		daemon_child(&cfg, pipefd[1]);
	}
	close(pipefd[1]);
	lab_pids_record(cfg.dir, LAB_ROLE_SUPERVISOR, 0, pid);
	if (relay_progress(pipefd[0]) == 0) {
		close(pipefd[0]);
		return 0;
	}
	close(pipefd[0]);
	if (interrupted)
		lab_err("start interrupted by signal %d: tearing the lab down",
			(int)interrupted);
	else
		lab_err("start failed: tearing the lab down (logs were in %s)", cfg.dir);
	lab_teardown(cfg.dir, NULL);
	return 1;
}
