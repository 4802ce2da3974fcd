// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side test of loom.ko's per-user caps and memory-cgroup charging
 * (run as root by test_quota.sh; deliberately not named test_*).  Prints
 * TAP.  It writes the module parameters max_ctx_per_user,
 * max_bsu_per_user, max_pinned_kb_per_user and open_partition and puts
 * them back at the end.
 *
 * Unprivileged users are played by children that open their files as root
 * and then become uid 65534 or 65533 (setresuid drops every capability):
 *
 * - with max_ctx_per_user 3, uid 65534 creates 3 contexts on 3 different
 *   files and the 4th, on a 4th file, fails with EDQUOT; uid 65533 still
 *   creates one; root (CAP_SYS_RESOURCE) goes past the cap;
 * - with max_bsu_per_user 2, a context asking for 3 units fails with
 *   EDQUOT, one with 2 works and a second one with 1 more fails;
 * - with max_pinned_kb_per_user 200, two contexts of 76 KiB work and a
 *   third fails with EDQUOT;
 * - once the files are closed the user holds nothing (debugfs) and can
 *   create its 3 contexts again;
 * - a context's memory (its rings and segment included) is charged to the
 *   creator's memory cgroup: memory.current grows by at least the 4 MiB
 *   segment, and shrinks again when the context is destroyed (skipped on
 *   a kernel without the memory controller).
 *
 *   quota_test [DEVICE]    default /dev/loom0
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/loom.h>

#define PARAM_DIR	"/sys/module/loom/parameters/"
#define DEBUGFS_CONTEXTS "/sys/kernel/debug/loom/loom0/contexts"
#define CGROUP_ROOT	"/sys/fs/cgroup"
#define CGROUP		CGROUP_ROOT "/loom-quota-test"
#define KEY		0x4242
#define SEG_64K		(64 * 1024)
#define SEG_4M		(4 * 1024 * 1024)

static const char *dev_path = "/dev/loom0";

/* TAP: children report their results through pipes, the parent checks */
static int test_n, test_failed;

static void check(int ok, const char *what, const char *detail)
{
	printf("%s %d - %s\n", ok ? "ok" : "not ok", ++test_n, what);
	if (!ok) {
		test_failed++;
		if (detail && *detail)
			printf("# %s\n", detail);
	}
	fflush(stdout);
}

static int param_write(const char *name, const char *value)
{
	char path[128];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), PARAM_DIR "%s", name);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	ok = fputs(value, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -EIO;
}

static int ctx_create(int fd, uint64_t seg_size, uint32_t bsu_mask, uint32_t *index)
{
	struct loom_ctx_create c = {
		.argsz = sizeof(c), .cmdq_entries = 16, .cq_entries = 16,
		.seg_size = seg_size, .key = KEY, .bsu_mask = bsu_mask,
	};

	if (ioctl(fd, LOOM_IOC_CTX_CREATE, &c))
		return -errno;
	if (index)
		*index = c.index;
	return 0;
}

static int ctx_destroy(int fd, uint32_t index)
{
	struct loom_ctx_destroy d = { .argsz = sizeof(d), .index = index };

	return ioctl(fd, LOOM_IOC_CTX_DESTROY, &d) ? -errno : 0;
}

static int become(uid_t uid)
{
	return setresgid(uid, uid, uid) || setresuid(uid, uid, uid) ? -errno : 0;
}

/*
 * Open @nfiles files as root, become @uid, create one context per file
 * with @seg bytes and the BSUs of @masks[i] (or none): writes the results
 * into @res and returns 0, or -1 when the child could not run.
 */
static int as_user(uid_t uid, int nfiles, uint64_t seg, const uint32_t *masks, int *res)
{
	int p[2], status;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		int fds[16], i, r[16], err;

		for (i = 0; i < nfiles; i++)
			fds[i] = open(dev_path, O_RDWR);
		err = become(uid);
		for (i = 0; i < nfiles; i++)
			r[i] = err ? err : fds[i] < 0 ? -EBADF :
			       ctx_create(fds[i], seg, masks ? masks[i] : 0, NULL);
		if (write(p[1], r, sizeof(int) * (size_t)nfiles) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], res, sizeof(int) * (size_t)nfiles) !=
	    (ssize_t)(sizeof(int) * (size_t)nfiles)) {
		close(p[0]);
		return -1;
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	return 0;
}

static void fmt_results(char *buf, size_t len, const int *res, int n)
{
	size_t off = (size_t)snprintf(buf, len, "results:");

	for (int i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, " %s",
					res[i] ? strerror(-res[i]) : "ok");
}

/* Does debugfs list anything held by uid @uid? 1 yes, 0 no, -1 unreadable */
static int debugfs_holds(uid_t uid)
{
	char line[256], want[32];
	FILE *f = fopen(DEBUGFS_CONTEXTS, "r");
	int found = 0;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "uid %u:", (unsigned int)uid);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, want, strlen(want)))
			found = 1;
	fclose(f);
	return found;
}

static void test_ctx_cap(void)
{
	char detail[256];
	int res[4], r2[1], ok;

	param_write("max_ctx_per_user", "3");
	ok = !as_user(65534, 4, SEG_64K, NULL, res);
	fmt_results(detail, sizeof(detail), res, 4);
	check(ok && !res[0] && !res[1] && !res[2] && res[3] == -EDQUOT,
	      "max_ctx_per_user 3: uid 65534 creates 3 contexts on 3 files, the 4th (4th file) fails with EDQUOT",
	      detail);

	/* the files of that child are closed: it holds nothing now */
	ok = debugfs_holds(65534) == 0;
	check(ok, "once its files are closed, uid 65534 holds nothing (debugfs contexts)", "");

	{
		int fds[4], i, nb = 0, held[3];

		/* uid 65534 keeps 3 contexts open while the others try */
		int p[2];
		pid_t holder;

		if (pipe(p))
			return;
		holder = fork();
		if (holder == 0) {
			for (i = 0; i < 3; i++)
				fds[i] = open(dev_path, O_RDWR);
			if (become(65534))
				_exit(1);
			for (i = 0; i < 3; i++)
				held[i] = ctx_create(fds[i], SEG_64K, 0, NULL);
			if (write(p[1], held, sizeof(held)) < 0)
				_exit(1);
			pause();
			_exit(0);
		}
		close(p[1]);
		if (read(p[0], held, sizeof(held)) != sizeof(held))
			held[0] = -EIO;
		close(p[0]);
		as_user(65533, 1, SEG_64K, NULL, r2);
		fds[0] = open(dev_path, O_RDWR);
		for (i = 0; i < 4; i++)
			nb += !ctx_create(fds[0], SEG_64K, 0, NULL);
		close(fds[0]);
		snprintf(detail, sizeof(detail), "holder: %d %d %d; uid 65533: %s; root: %d of 4",
			 held[0], held[1], held[2], r2[0] ? strerror(-r2[0]) : "ok", nb);
		check(!held[0] && !held[1] && !held[2] && !r2[0] && nb == 4,
		      "while uid 65534 holds its 3, uid 65533 still creates a context and root (CAP_SYS_RESOURCE) creates 4 more",
		      detail);
		kill(holder, SIGKILL);
		waitpid(holder, NULL, 0);
	}
	ok = !as_user(65534, 3, SEG_64K, NULL, res);
	fmt_results(detail, sizeof(detail), res, 3);
	check(ok && !res[0] && !res[1] && !res[2],
	      "after its holder was killed, uid 65534 creates its 3 contexts again", detail);
	param_write("max_ctx_per_user", "32");
}

static void test_bsu_cap(void)
{
	const uint32_t m3[] = { 0x7 };
	const uint32_t m21[] = { 0x3, 0x4 };
	char detail[256];
	int a[1], b[2];

	param_write("max_bsu_per_user", "2");
	as_user(65534, 1, SEG_64K, m3, a);
	as_user(65534, 2, SEG_64K, m21, b);
	snprintf(detail, sizeof(detail), "3 units: %s; 2 units: %s; then 1 more: %s",
		 a[0] ? strerror(-a[0]) : "ok", b[0] ? strerror(-b[0]) : "ok",
		 b[1] ? strerror(-b[1]) : "ok");
	check(a[0] == -EDQUOT && !b[0] && b[1] == -EDQUOT,
	      "max_bsu_per_user 2: 3 units fail with EDQUOT; 2 work, then 1 more fails with EDQUOT",
	      detail);
	param_write("max_bsu_per_user", "16");
}

static void test_pinned_cap(void)
{
	char detail[256];
	int res[3];

	/* a context of 16-entry rings and a 64 KiB segment pins 76 KiB */
	param_write("max_pinned_kb_per_user", "200");
	as_user(65534, 3, SEG_64K, NULL, res);
	fmt_results(detail, sizeof(detail), res, 3);
	check(!res[0] && !res[1] && res[2] == -EDQUOT,
	      "max_pinned_kb_per_user 200: two contexts of 76 KiB work, a third fails with EDQUOT",
	      detail);
	param_write("max_pinned_kb_per_user", "262144");
}

static long cg_read(const char *file)
{
	char path[128];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), CGROUP "/%s", file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

static int cg_write(const char *path, const char *value)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -errno;
	ok = fputs(value, f) >= 0;
	return fclose(f) == 0 && ok ? 0 : -errno;
}

/* Does the kernel have the cgroup v2 memory controller (CONFIG_MEMCG)? */
static int kernel_has_memcg(void)
{
	char line[256], *tok, *save;
	FILE *f = fopen(CGROUP_ROOT "/cgroup.controllers", "r");
	int found = 0;

	if (!f)
		return 0;
	if (fgets(line, sizeof(line), f))
		for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
			found |= !strcmp(tok, "memory");
	fclose(f);
	return found;
}

static void test_memcg(void)
{
	long before, during, after;
	char detail[256], pid[16];
	int p[2], err;
	long vals[3];
	pid_t child;

	if (access(CGROUP_ROOT "/cgroup.controllers", F_OK))
		mount("cgroup2", CGROUP_ROOT, "cgroup2", 0, NULL);
	if (!kernel_has_memcg()) {
		/* e.g. the debug-kernel campaign's minimal kernel */
		printf("ok %d - a context's memory is charged to the creator's memory cgroup # SKIP the kernel has no memory controller (" CGROUP_ROOT "/cgroup.controllers)\n",
		       ++test_n);
		fflush(stdout);
		return;
	}
	cg_write(CGROUP_ROOT "/cgroup.subtree_control", "+memory");
	mkdir(CGROUP, 0755);
	if (access(CGROUP "/memory.current", F_OK)) {
		check(0, "a context's memory is charged to the creator's memory cgroup",
		      "no memory controller in " CGROUP);
		return;
	}
	if (pipe(p))
		return;
	child = fork();
	if (child == 0) {
		uint32_t index;
		int fd;

		snprintf(pid, sizeof(pid), "%d", (int)getpid());
		if (cg_write(CGROUP "/cgroup.procs", pid))
			_exit(1);
		fd = open(dev_path, O_RDWR);
		vals[0] = cg_read("memory.current");
		err = ctx_create(fd, SEG_4M, 0, &index);
		vals[1] = err ? err : cg_read("memory.current");
		ctx_destroy(fd, index);
		vals[2] = cg_read("memory.current");
		if (write(p[1], vals, sizeof(vals)) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], vals, sizeof(vals)) != sizeof(vals))
		vals[0] = vals[1] = vals[2] = -1;
	close(p[0]);
	waitpid(child, NULL, 0);
	before = vals[0];
	during = vals[1];
	after = vals[2];
	snprintf(detail, sizeof(detail), "memory.current: %ld before, %ld with the context, %ld after",
		 before, during, after);
	check(before >= 0 && during - before >= SEG_4M && during - after >= SEG_4M,
	      "a context's memory (4 MiB segment and rings) is charged to the creator's memory cgroup and uncharged at CTX_DESTROY",
	      detail);
	rmdir(CGROUP);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		dev_path = argv[1];
	printf("1..7\n");
	if (param_write("open_partition", "1") ||
	    param_write("max_ctx_per_user", "32")) {
		printf("Bail out! cannot write " PARAM_DIR "{open_partition,max_ctx_per_user}: %s\n",
		       strerror(errno));
		return 1;
	}
	test_ctx_cap();
	test_bsu_cap();
	test_pinned_cap();
	test_memcg();
	param_write("open_partition", "0");
	return test_failed ? 1 : 0;
}
