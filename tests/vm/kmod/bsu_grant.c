// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side helper of test_barrier.sh: the BSU grant rules of
 * LOOM_IOC_CTX_CREATE and the BSU mapping, checked through the raw ABI.
 *
 *   bsu_grant [DEVICE]
 *
 * Prints one "ok - ..." or "FAIL - ..." line per check; exits 0 when all
 * passed, 1 otherwise.  Uses units 20..23 (the test's barriers use others).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/loom.h>
#include <loom_hw/regs.h>

static int failures;
static sigjmp_buf probe_env;

static void check(bool ok, const char *what)
{
	printf("%s - %s\n", ok ? "ok" : "FAIL", what);
	if (!ok)
		failures++;
}

static int ctx_create(int fd, uint32_t mask, struct loom_ctx_create *req)
{
	memset(req, 0, sizeof(*req));
	req->argsz = sizeof(*req);
	req->cmdq_entries = 16;
	req->cq_entries = 16;
	req->seg_size = 4096;
	req->bsu_mask = mask;
	return ioctl(fd, LOOM_IOC_CTX_CREATE, req) < 0 ? -errno : 0;
}

static int ctx_destroy(int fd, uint32_t index)
{
	struct loom_ctx_destroy d = { .argsz = sizeof(d), .index = index };

	return ioctl(fd, LOOM_IOC_CTX_DESTROY, &d) < 0 ? -errno : 0;
}

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(probe_env, 1);
}

/* Read one word; false when the access raised SIGBUS. */
static bool readable(volatile uint32_t *p, uint32_t *v)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	bool ok = false;

	sigaction(SIGBUS, &sa, &old);
	if (!sigsetjmp(probe_env, 1)) {
		*v = *p;
		ok = true;
	}
	sigaction(SIGBUS, &old, NULL);
	return ok;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/loom0";
	struct loom_ctx_create a, b, c, d;
	int fd1 = open(path, O_RDWR), fd2 = open(path, O_RDWR);
	size_t len = 24 * LOOM_BSU_PAGE_SIZE;
	volatile uint32_t *map;
	uint32_t v;
	pid_t pid;
	void *p;
	int st, err;

	if (fd1 < 0 || fd2 < 0) {
		printf("FAIL - open %s: %s\n", path, strerror(errno));
		return 1;
	}
	err = ctx_create(fd1, 1u << 20, &a);
	check(!err && a.bsu_token, "context A is granted BSU 20 and gets a bsu_token");
	err = ctx_create(fd2, 1u << 20, &b);
	check(err == -EBUSY, "a second grant of BSU 20 (another file) is refused with EBUSY");
	err = ctx_create(fd1, 1u << 20 | 1u << 21, &b);
	check(err == -EBUSY, "a grant overlapping BSU 20 (same file) is refused with EBUSY");
	err = ctx_create(fd2, 0, &d);
	check(!err && !d.bsu_token, "a context without bsu_mask gets no bsu_token");

	err = ctx_create(fd2, 1u << 21, &c);
	check(!err && c.bsu_token, "context C is granted BSU 21");
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, (off_t)c.bsu_token);
	check(p != MAP_FAILED, "context C maps its BSU pages");
	if (p != MAP_FAILED) {
		map = p;
		check(readable(map + 21 * LOOM_BSU_PAGE_SIZE / 4 + LOOM_BSUP_STATE / 4, &v) &&
		      v >= LOOM_BSU_S_BAR && v <= LOOM_BSU_S_EUR,
		      "context C reads its unit's STATE (S_BAR, S_ARM or S_EUR)");
		check(!readable(map + 20 * LOOM_BSU_PAGE_SIZE / 4, &v),
		      "context C touching BSU 20's page (granted to A) gets SIGBUS");
		check(!readable(map, &v), "context C touching BSU 0's page (not granted) gets SIGBUS");
		munmap(p, len);
	}
	p = mmap(NULL, 33 * LOOM_BSU_PAGE_SIZE, PROT_READ, MAP_SHARED, fd2, (off_t)c.bsu_token);
	check(p == MAP_FAILED && errno == EINVAL, "a BSU mapping larger than the card's 32 units: EINVAL");
	if (p != MAP_FAILED)
		munmap(p, 33 * LOOM_BSU_PAGE_SIZE);
	p = mmap(NULL, LOOM_BSU_PAGE_SIZE, PROT_READ, MAP_SHARED, fd2, (off_t)a.bsu_token);
	check(p == MAP_FAILED && errno == EINVAL, "A's bsu_token used on another file: EINVAL");
	if (p != MAP_FAILED)
		munmap(p, LOOM_BSU_PAGE_SIZE);

	check(!ctx_destroy(fd1, a.index), "context A destroyed");
	err = ctx_create(fd2, 1u << 20, &b);
	check(!err, "BSU 20 can be granted again once A is gone");
	if (!err)
		ctx_destroy(fd2, b.index);

	pid = fork();
	if (pid == 0) {
		int fd = open(path, O_RDWR);
		struct loom_ctx_create e;

		_exit(fd >= 0 && !ctx_create(fd, 1u << 22, &e) ? 0 : 1);	/* exit closes */
	}
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && !WEXITSTATUS(st),
	      "a child process took BSU 22 and exited without destroying its context");
	err = ctx_create(fd2, 1u << 22, &b);
	check(!err, "BSU 22 is free again after that process exited (file closed)");

	close(fd1);
	close(fd2);
	printf("%d failure(s)\n", failures);
	return failures ? 1 : 0;
}
