// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side helper of test_unbind.sh: holds a loom context (all regions
 * mapped) and reports how the device's removal reaches it.
 *
 *   hold_ctx MODE [DEVICE]
 *     info    print DEV_INFO and exit 0
 *     ioctl   call DEV_INFO every 20 ms until it fails: "ioctl: EIO"
 *     poll    block in poll() until it returns: "poll: POLLERR POLLHUP"
 *     touch   write the segment every 10 ms until SIGBUS: "touch: SIGBUS"
 *
 * Prints "MODE: ready" once the context exists.  Exits 0 when the result
 * is the expected one, 1 on another result, 2 when nothing happened in
 * 120 s.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/loom.h>

#define HOLD_SECONDS	120

static void on_sigbus(int sig)
{
	static const char msg[] = "touch: SIGBUS\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	_exit(0);
}

static void *map(int fd, size_t len, uint64_t token)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)token);

	return p == MAP_FAILED ? NULL : p;
}

static void nap(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const char *path = argc > 2 ? argv[2] : "/dev/loom0";
	struct loom_dev_info info = { .argsz = sizeof(info) };
	struct loom_ctx_create c = { .argsz = sizeof(c) };
	volatile uint8_t *seg;
	int fd, i;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (strcmp(mode, "info") && strcmp(mode, "ioctl") && strcmp(mode, "poll") &&
	    strcmp(mode, "touch")) {
		fprintf(stderr, "usage: hold_ctx info|ioctl|poll|touch [DEVICE]\n");
		return 2;
	}
	fd = open(path, O_RDWR);
	if (fd < 0) {
		printf("%s: cannot open %s: %s\n", mode, path, strerror(errno));
		return 1;
	}
	if (ioctl(fd, LOOM_IOC_DEV_INFO, &info)) {
		printf("%s: DEV_INFO: %s\n", mode, strerror(errno));
		return 1;
	}
	if (!strcmp(mode, "info")) {
		printf("info: node %u logical %u contexts %u\n", info.node_id,
		       info.logical_id, info.n_contexts);
		return 0;
	}

	c.cmdq_entries = 16;
	c.cq_entries = 16;
	c.seg_size = 64 * 1024;
	if (ioctl(fd, LOOM_IOC_CTX_CREATE, &c)) {
		printf("%s: CTX_CREATE: %s\n", mode, strerror(errno));
		return 1;
	}
	seg = map(fd, c.seg_size, c.seg_token);
	if (!seg || !map(fd, 4096, c.doorbell_token) || !map(fd, 16 * 64, c.cmdq_token) ||
	    !map(fd, 16 * 32, c.cq_token) ||
	    ((c.out_flags & LOOM_CTX_OUT_KICK) && !map(fd, 4096, c.kick_token))) {
		printf("%s: mmap: %s\n", mode, strerror(errno));
		return 1;
	}
	printf("%s: ready (context %u)\n", mode, c.index);

	if (!strcmp(mode, "poll")) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int rc = poll(&pfd, 1, HOLD_SECONDS * 1000);

		if (rc <= 0) {
			printf("poll: %s\n", rc ? strerror(errno) : "timed out");
			return 2;
		}
		printf("poll:%s%s%s\n", pfd.revents & POLLERR ? " POLLERR" : "",
		       pfd.revents & POLLHUP ? " POLLHUP" : "",
		       pfd.revents & POLLIN ? " POLLIN" : "");
		return (pfd.revents & (POLLERR | POLLHUP)) == (POLLERR | POLLHUP) ? 0 : 1;
	}
	if (!strcmp(mode, "touch")) {
		signal(SIGBUS, on_sigbus);
		for (i = 0; i < HOLD_SECONDS * 100; i++) {
			seg[(unsigned int)i % c.seg_size] = (uint8_t)i;
			nap(10);
		}
		printf("touch: no SIGBUS\n");
		return 2;
	}
	for (i = 0; i < HOLD_SECONDS * 50; i++) {
		if (ioctl(fd, LOOM_IOC_DEV_INFO, &info)) {
			int err = errno;

			printf("ioctl: %s\n", err == EIO ? "EIO" : strerror(err));
			return err == EIO ? 0 : 1;
		}
		nap(20);
	}
	printf("ioctl: still working\n");
	return 2;
}
