// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side test of loom.ko's character device: every ioctl with valid
 * and malformed input, mmap by token, CTX_DESTROY while mapped, poll with a
 * NOP completion, and thousands of random ioctls.  Prints TAP.
 *
 *   ioctl_test [DEVICE]      (default /dev/loom0; exit 4 when absent)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <linux/loom.h>
#include <loom_hw/regs.h>
#include <loom_hw/ring.h>
#include <loom_hw/packet.h>

static int n_test, n_failed;

static void check(int cond, const char *what, int err)
{
	n_test++;
	if (cond) {
		printf("ok %d - %s\n", n_test, what);
	} else {
		n_failed++;
		printf("not ok %d - %s\n", n_test, what);
		if (err)
			printf("# errno %d (%s)\n", err, strerror(err));
	}
	fflush(stdout);
}

/* ioctl returning -errno, so one expression can be checked */
static int xioctl(int fd, unsigned long cmd, void *arg)
{
	return ioctl(fd, cmd, arg) < 0 ? -errno : 0;
}

static void ctx_default(struct loom_ctx_create *c)
{
	memset(c, 0, sizeof(*c));
	c->argsz = sizeof(*c);
	c->cmdq_entries = 16;
	c->cq_entries = 16;
	c->seg_size = 4096;
	c->key = 0x1234;
}

static int ctx_destroy(int fd, uint32_t index)
{
	struct loom_ctx_destroy d = { .argsz = sizeof(d), .index = index };

	return xioctl(fd, LOOM_IOC_CTX_DESTROY, &d);
}

static unsigned int read_param(const char *name, unsigned int dflt)
{
	char path[256];
	unsigned int v;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/module/loom/parameters/%s", name);
	f = fopen(path, "r");
	if (!f)
		return dflt;
	if (fscanf(f, "%u", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

static void test_dev_info(int fd, struct loom_dev_info *info)
{
	struct {
		struct loom_dev_info info;
		uint8_t tail[16];
	} big;
	struct loom_dev_info bad;
	int rc;

	memset(info, 0, sizeof(*info));
	info->argsz = sizeof(*info);
	rc = xioctl(fd, LOOM_IOC_DEV_INFO, info);
	check(rc == 0 && info->n_contexts > 0 && info->max_payload == LOOM_PKT_MAX_PAYLOAD,
	      "DEV_INFO answers with contexts and the packet payload size", -rc);
	printf("# node %u logical %u ports %u contexts %u design %#x build %08x hw_flags %#x\n",
	       info->node_id, info->logical_id, info->n_ports, info->n_contexts,
	       info->design_version, info->build_id, info->hw_flags);
	check(info->hw_flags & LOOM_DEV_HW_EMULATED, "DEV_INFO reports the card emulator", 0);

	bad = *info;
	bad.argsz = 8;
	rc = xioctl(fd, LOOM_IOC_DEV_INFO, &bad);
	check(rc == -EINVAL, "DEV_INFO with argsz smaller than the structure: EINVAL", -rc);

	bad = *info;
	bad.argsz = sizeof(bad);
	bad.flags = 1;
	rc = xioctl(fd, LOOM_IOC_DEV_INFO, &bad);
	check(rc == -EINVAL, "DEV_INFO with unknown flags: EINVAL", -rc);

	memset(&big, 0, sizeof(big));
	big.info.argsz = sizeof(big);
	rc = xioctl(fd, LOOM_IOC_DEV_INFO, &big);
	check(rc == 0 && big.info.n_contexts == info->n_contexts &&
	      big.tail[0] == 0 && big.tail[15] == 0,
	      "DEV_INFO with a larger zero-extended argument works and copies back only what it knows",
	      -rc);

	big.info.argsz = sizeof(big);
	big.info.flags = 0;
	big.tail[3] = 1;
	rc = xioctl(fd, LOOM_IOC_DEV_INFO, &big);
	check(rc == -E2BIG, "DEV_INFO with non-zero bytes past the known structure: E2BIG", -rc);

	rc = xioctl(fd, LOOM_IOC_DEV_INFO, (void *)16);
	check(rc == -EFAULT, "DEV_INFO with a bad pointer: EFAULT", -rc);

	rc = xioctl(fd, _IOWR(LOOM_IOC_MAGIC, 0x7f, struct loom_dev_info), info);
	check(rc == -ENOTTY, "unknown ioctl number: ENOTTY", -rc);
}

static int sysfs_read(const char *path, const char *attr, char *buf, size_t len)
{
	char p[256];
	const char *dev = strrchr(path, '/');
	FILE *f;

	snprintf(p, sizeof(p), "/sys/class/loom/%s/%s", dev ? dev + 1 : path, attr);
	f = fopen(p, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

static void test_sysfs(const char *path, const struct loom_dev_info *info)
{
	char node[32], logical[32], ver[32], build[32], emu[32], want[32];
	int ok;

	ok = !sysfs_read(path, "node_id", node, sizeof(node)) &&
	     !sysfs_read(path, "logical_id", logical, sizeof(logical)) &&
	     !sysfs_read(path, "fw_version", ver, sizeof(ver)) &&
	     !sysfs_read(path, "fw_build_id", build, sizeof(build)) &&
	     !sysfs_read(path, "emulated", emu, sizeof(emu));
	check(ok, "sysfs has node_id, logical_id, fw_version, fw_build_id, emulated", errno);
	if (!ok)
		return;
	printf("# sysfs: node_id %s logical_id %s fw_version %s fw_build_id %s emulated %s\n",
	       node, logical, ver, build, emu);
	ok = strtoul(node, NULL, 10) == info->node_id &&
	     strtoul(logical, NULL, 10) == info->logical_id &&
	     strtoul(build, NULL, 16) == info->build_id && !strcmp(emu, "1");
	snprintf(want, sizeof(want), "%u.%u.%u", info->design_version >> 16,
		 (info->design_version >> 8) & 0xff, info->design_version & 0xff);
	ok &= !strcmp(ver, want);
	check(ok, "sysfs attributes agree with DEV_INFO", 0);
}

static void test_create_errors(int fd, const struct loom_dev_info *info)
{
	static const uint32_t bad_entries[] = { 0, 8, 15, 17, 1u << 16, 0x80000000u };
	static const uint64_t bad_seg[] = { 0, 4095, (4u << 20) + 1, 1ull << 40 };
	struct loom_ctx_create c;
	int rc, ok;
	unsigned int i;

	ok = 1;
	for (i = 0; i < sizeof(bad_entries) / sizeof(bad_entries[0]); i++) {
		ctx_default(&c);
		c.cmdq_entries = bad_entries[i];
		rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
		if (rc != -EINVAL) {
			printf("# cmdq_entries %u -> %d\n", bad_entries[i], rc);
			ok = 0;
		}
		ctx_default(&c);
		c.cq_entries = bad_entries[i];
		rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
		if (rc != -EINVAL) {
			printf("# cq_entries %u -> %d\n", bad_entries[i], rc);
			ok = 0;
		}
	}
	check(ok, "CTX_CREATE with ring sizes not a power of two in 16..32768: EINVAL", 0);

	ok = 1;
	for (i = 0; i < sizeof(bad_seg) / sizeof(bad_seg[0]); i++) {
		ctx_default(&c);
		c.seg_size = bad_seg[i];
		rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
		if (rc != -EINVAL) {
			printf("# seg_size %llu -> %d\n", (unsigned long long)bad_seg[i], rc);
			ok = 0;
		}
	}
	check(ok, "CTX_CREATE with a segment outside 4 KiB..4 MiB: EINVAL", 0);

	ctx_default(&c);
	c.flags = 0x80;
	rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
	check(rc == -EINVAL, "CTX_CREATE with unknown flags: EINVAL", -rc);

	ctx_default(&c);
	c.argsz = LOOM_CTX_CREATE_SIZE_V1 - 4;
	rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
	check(rc == -EINVAL, "CTX_CREATE with argsz below the ABI 0.1 size: EINVAL", -rc);

	ctx_default(&c);
	c.flags = LOOM_CTX_F_INDEX;
	c.index = info->n_contexts;
	rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
	check(rc == -EINVAL, "CTX_CREATE with an index beyond the card's contexts: EINVAL", -rc);
}

static void *map(int fd, size_t len, uint64_t token, int flags)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, fd, (off_t)token);

	return p == MAP_FAILED ? NULL : p;
}

/* Post one signalled NOP and expect poll() to report its completion. */
static void test_poll_nop(int fd, const struct loom_ctx_create *c, void *cmdq,
			  void *cq, void *db, void *kick_page)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	volatile struct loom_cqe *cqe = cq;
	struct loom_cmd *cmd = cmdq;
	int rc, ok;

	rc = poll(&pfd, 1, 0);
	check(rc == 0, "poll with an empty completion queue reports nothing", errno);

	memset(cmd, 0, sizeof(*cmd));
	cmd->opcode = LOOM_OP_NOP;
	cmd->flags = LOOM_CMD_F_SIGNAL;
	cmd->tag = 0xfeedbeefcafeull;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	*(volatile uint32_t *)((char *)db + LOOM_DB_CMD_PI) = 1;
	if (kick_page)
		*(volatile uint32_t *)((char *)kick_page + c->kick_offset) = c->kick_value;

	rc = poll(&pfd, 1, 10000);
	check(rc == 1 && (pfd.revents & POLLIN), "poll wakes up for the NOP's completion", errno);
	check((cqe->flags & LOOM_CQE_PHASE) && cqe->tag == 0xfeedbeefcafeull &&
	      cqe->kind == LOOM_CQE_LOCAL && cqe->status == LOOM_CQE_ST_OK,
	      "the completion carries the NOP's tag, LOCAL kind, OK status and phase 1", 0);
	if (!(cqe->flags & LOOM_CQE_PHASE) || cqe->tag != 0xfeedbeefcafeull)
		printf("# cqe flags %#x tag %#llx kind %u status %u\n", cqe->flags,
		       (unsigned long long)cqe->tag, cqe->kind, cqe->status);

	*(volatile uint32_t *)((char *)db + LOOM_DB_CQ_CI) = 1;
	if (kick_page)
		*(volatile uint32_t *)((char *)kick_page + c->kick_offset) = c->kick_value;
	/* CQ_CI is write-only: poll() tests the index the card took */
	for (int t = 0; t < 5000 && *(volatile uint32_t *)((char *)db + LOOM_DB_CQ_CI_SEEN) != 1; t++)
		usleep(1000);
	rc = poll(&pfd, 1, 0);
	check(rc == 0, "poll reports nothing once the completion is consumed", errno);

	/* a second NOP: its entry is at the consumer index the card took */
	memset(cmd + 1, 0, sizeof(*cmd));
	cmd[1].opcode = LOOM_OP_NOP;
	cmd[1].flags = LOOM_CMD_F_SIGNAL;
	cmd[1].tag = 0xfeedbeefcaffull;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	*(volatile uint32_t *)((char *)db + LOOM_DB_CMD_PI) = 2;
	if (kick_page)
		*(volatile uint32_t *)((char *)kick_page + c->kick_offset) = c->kick_value;
	rc = poll(&pfd, 1, 10000);
	ok = rc == 1 && (pfd.revents & POLLIN) && (cqe[1].flags & LOOM_CQE_PHASE) &&
	     cqe[1].tag == 0xfeedbeefcaffull;
	check(ok, "poll wakes up for a second NOP, its entry at the consumer index the card took (1)",
	      rc < 0 ? errno : 0);
	if (!ok)
		printf("# poll %d revents %#x; entry 1: flags %#x tag %#llx; CQ_CI_SEEN %u\n", rc,
		       pfd.revents, cqe[1].flags, (unsigned long long)cqe[1].tag,
		       *(volatile uint32_t *)((char *)db + LOOM_DB_CQ_CI_SEEN));
}

static void test_create_map(int fd, const struct loom_dev_info *info)
{
	struct loom_ctx_create c, c2;
	void *cmdq, *cq, *db, *seg, *kick = NULL;
	uint32_t i;
	int rc, ok, fd2;

	ctx_default(&c);
	c.seg_size = 5000;
	rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
	check(rc == 0 && c.index < info->n_contexts && c.seg_size == 8192,
	      "CTX_CREATE succeeds and rounds the segment up to pages", -rc);
	if (rc)
		return;
	printf("# context %u node %u tokens cmdq %#llx cq %#llx db %#llx seg %#llx kick %#llx/%#x/%#x\n",
	       c.index, c.node_id, (unsigned long long)c.cmdq_token,
	       (unsigned long long)c.cq_token, (unsigned long long)c.doorbell_token,
	       (unsigned long long)c.seg_token, (unsigned long long)c.kick_token,
	       c.kick_offset, c.kick_value);
	check(!(c.cmdq_token & 4095) && !(c.cq_token & 4095) && !(c.doorbell_token & 4095) &&
	      !(c.seg_token & 4095) && c.cmdq_token != c.cq_token &&
	      c.cq_token != c.seg_token && c.seg_token != c.doorbell_token,
	      "tokens are page aligned and distinct", 0);
	check(c.node_id == info->logical_id, "CTX_CREATE reports the card's logical node id", 0);
	check((c.out_flags & LOOM_CTX_OUT_KICK) && c.kick_offset <= 4092 &&
	      c.kick_value == LOOM_KICK_DOORBELL,
	      "lab card: a kick page, offset and value are given", 0);

	cmdq = map(fd, 16 * LOOM_CMD_SIZE, c.cmdq_token, MAP_SHARED);
	cq = map(fd, 16 * LOOM_CQE_SIZE, c.cq_token, MAP_SHARED);
	db = map(fd, 4096, c.doorbell_token, MAP_SHARED);
	seg = map(fd, c.seg_size, c.seg_token, MAP_SHARED);
	if (c.out_flags & LOOM_CTX_OUT_KICK)
		kick = map(fd, 4096, c.kick_token, MAP_SHARED);
	check(cmdq && cq && db && seg && (kick || !(c.out_flags & LOOM_CTX_OUT_KICK)),
	      "every region maps with its token", errno);
	if (!cmdq || !cq || !db || !seg)
		return;

	ok = 1;
	for (i = 0; i < 16 * LOOM_CQE_SIZE; i++)
		ok &= ((uint8_t *)cq)[i] == 0;
	check(ok, "a new completion ring is zeroed", 0);
	for (i = 0; i < c.seg_size; i++)
		((uint8_t *)seg)[i] = (uint8_t)(i * 7);
	ok = 1;
	for (i = 0; i < c.seg_size; i++)
		ok &= ((uint8_t *)seg)[i] == (uint8_t)(i * 7);
	check(ok, "the segment is writable and reads back", 0);

	/* bad mmaps */
	check(!map(fd, 4096, c.seg_token + (1ull << 12) * 0x100, MAP_SHARED) && errno == EINVAL,
	      "mmap with a made-up token: EINVAL", errno);
	check(!map(fd, 4096, 0x1000, MAP_SHARED) && errno == EINVAL,
	      "mmap at offset 0x1000 (not a token): EINVAL", errno);
	check(!map(fd, 3 * 4096, c.seg_token, MAP_SHARED) && errno == EINVAL,
	      "mmap longer than the region: EINVAL", errno);
	check(!map(fd, 8192, c.doorbell_token, MAP_SHARED) && errno == EINVAL,
	      "mmap of two doorbell pages: EINVAL", errno);
	check(!map(fd, 4096, c.seg_token, MAP_PRIVATE) && errno == EINVAL,
	      "private mmap: EINVAL", errno);
	fd2 = open("/dev/loom0", O_RDWR);
	if (fd2 >= 0) {
		check(!map(fd2, 4096, c.seg_token, MAP_SHARED) && errno == EINVAL,
		      "mmap of another file's token: EINVAL", errno);
		ctx_default(&c2);
		c2.flags = LOOM_CTX_F_INDEX;
		c2.index = c.index;
		rc = xioctl(fd2, LOOM_IOC_CTX_CREATE, &c2);
		check(rc == -EBUSY, "CTX_CREATE of an index another file holds: EBUSY", -rc);
		close(fd2);
	}

	test_poll_nop(fd, &c, cmdq, cq, db, kick);

	rc = ctx_destroy(fd, c.index);
	check(rc == -EBUSY, "CTX_DESTROY while regions are mapped: EBUSY", -rc);
	munmap(cmdq, 16 * LOOM_CMD_SIZE);
	munmap(cq, 16 * LOOM_CQE_SIZE);
	munmap(db, 4096);
	rc = ctx_destroy(fd, c.index);
	check(rc == -EBUSY, "CTX_DESTROY while the segment is still mapped: EBUSY", -rc);
	munmap(seg, c.seg_size);
	if (kick)
		munmap(kick, 4096);
	rc = ctx_destroy(fd, c.index);
	check(rc == 0, "CTX_DESTROY after munmap succeeds", -rc);
	rc = ctx_destroy(fd, c.index);
	check(rc == -EINVAL, "CTX_DESTROY of a context the file no longer holds: EINVAL", -rc);
	check(!map(fd, 4096, c.seg_token, MAP_SHARED) && errno == EINVAL,
	      "mmap of a destroyed context's token: EINVAL", errno);
	{
		struct loom_ctx_destroy d = { .argsz = sizeof(d), .flags = 2, .index = 0 };

		rc = xioctl(fd, LOOM_IOC_CTX_DESTROY, &d);
		check(rc == -EINVAL, "CTX_DESTROY with unknown flags: EINVAL", -rc);
	}
}

/* The ABI 0.1 structure and ioctl number, as old binaries were built. */
struct loom_ctx_create_v1 {
	uint8_t bytes[LOOM_CTX_CREATE_SIZE_V1];
};

#define LOOM_IOC_CTX_CREATE_V1	_IOWR(LOOM_IOC_MAGIC, 0x01, struct loom_ctx_create_v1)

static void test_abi_v1(int fd)
{
	union {
		struct loom_ctx_create c;
		uint8_t raw[sizeof(struct loom_ctx_create) + 64];
	} u;
	int rc, ok = 1;

	memset(&u, 0xa5, sizeof(u));
	ctx_default(&u.c);
	memset(u.raw + LOOM_CTX_CREATE_SIZE_V1, 0xa5, sizeof(u) - LOOM_CTX_CREATE_SIZE_V1);
	u.c.argsz = LOOM_CTX_CREATE_SIZE_V1;
	check(LOOM_IOC_CTX_CREATE_V1 != LOOM_IOC_CTX_CREATE,
	      "the ABI 0.1 CTX_CREATE number differs from the current one", 0);
	rc = xioctl(fd, LOOM_IOC_CTX_CREATE_V1, &u);
	check(rc == 0 && u.c.seg_token && u.c.doorbell_token,
	      "CTX_CREATE with the ABI 0.1 number and argsz works", -rc);
	for (size_t i = LOOM_CTX_CREATE_SIZE_V1; i < sizeof(u); i++)
		ok &= u.raw[i] == 0xa5;
	check(ok, "the kernel writes nothing past an ABI 0.1 argsz", 0);
	if (!rc)
		check(ctx_destroy(fd, u.c.index) == 0, "the ABI 0.1 context is destroyed", errno);
	rc = xioctl(fd, _IOWR(LOOM_IOC_MAGIC, 0x01, uint32_t), &u);
	check(rc == -ENOTTY, "CTX_CREATE's number with a size below ABI 0.1: ENOTTY", -rc);
}

static void test_counters(int fd)
{
	struct loom_ctx_create c;
	volatile uint64_t *cnt;
	void *p;
	int rc, ok = 1;

	ctx_default(&c);
	rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
	check(rc == 0 && c.n_counters == LOOM_CTX_COUNTERS && c.counters_token &&
	      !(c.counters_token & 4095) && c.counters_token != c.seg_token,
	      "CTX_CREATE gives a counters page token and n_counters = 512", -rc);
	if (rc)
		return;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)c.counters_token);
	check(p == MAP_FAILED && errno == EPERM, "writable mmap of the counters page: EPERM",
	      errno);
	if (p != MAP_FAILED)
		munmap(p, 4096);
	p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, (off_t)c.counters_token);
	check(p != MAP_FAILED, "read-only mmap of the counters page works", errno);
	if (p == MAP_FAILED) {
		ctx_destroy(fd, c.index);
		return;
	}
	cnt = p;
	for (unsigned int i = 0; i < LOOM_CTX_COUNTERS; i++)
		ok &= cnt[i] == 0;
	check(ok, "every counter of a new context is 0", 0);
	check(mprotect(p, 4096, PROT_READ | PROT_WRITE) != 0 && errno == EACCES,
	      "mprotect cannot make the counters page writable: EACCES", errno);
	check(ctx_destroy(fd, c.index) == -EBUSY, "CTX_DESTROY while the counters page is mapped: EBUSY",
	      errno);
	munmap(p, 4096);
	check(ctx_destroy(fd, c.index) == 0, "CTX_DESTROY after its munmap succeeds", errno);
}

static void test_index_and_limits(int fd, const struct loom_dev_info *info)
{
	unsigned int max = read_param("max_ctx_per_file", 16), i, made = 0;
	uint32_t idx[64];
	struct loom_ctx_create c;
	int rc;

	ctx_default(&c);
	c.flags = LOOM_CTX_F_INDEX;
	c.index = info->n_contexts - 1;
	rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
	check(rc == 0 && c.index == info->n_contexts - 1,
	      "CTX_CREATE with LOOM_CTX_F_INDEX gets that index", -rc);
	ctx_default(&c);
	c.flags = LOOM_CTX_F_INDEX;
	c.index = info->n_contexts - 1;
	rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
	check(rc == -EBUSY, "CTX_CREATE of an index this file holds: EBUSY", -rc);
	ctx_destroy(fd, info->n_contexts - 1);

	if (max > 64 || max >= info->n_contexts) {
		check(1, "too many contexts # SKIP max_ctx_per_file too large to test", 0);
		return;
	}
	for (i = 0; i < max; i++) {
		ctx_default(&c);
		rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
		if (rc)
			break;
		idx[made++] = c.index;
	}
	check(made == max, "a file can hold max_ctx_per_file contexts", -rc);
	ctx_default(&c);
	rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
	check(rc == -EMFILE, "one more context than max_ctx_per_file: EMFILE", -rc);
	rc = 0;
	for (i = 0; i < made; i++)
		rc |= ctx_destroy(fd, idx[i]);
	check(rc == 0, "all of them can be destroyed", -rc);
}

/* Fill every context of the card from several files: one more is EBUSY. */
static void test_card_full(const char *path, const struct loom_dev_info *info)
{
	unsigned int max = read_param("max_ctx_per_file", 16), made = 0, i;
	int fds[64], n_fds = 0, rc = 0;
	struct loom_ctx_create c;

	if (!max || info->n_contexts / max + 2 > 64) {
		check(1, "card full # SKIP needs too many files", 0);
		return;
	}
	while (made < info->n_contexts && n_fds < 64) {
		fds[n_fds] = open(path, O_RDWR);
		if (fds[n_fds] < 0)
			break;
		for (i = 0; i < max && made < info->n_contexts; i++) {
			ctx_default(&c);
			rc = xioctl(fds[n_fds], LOOM_IOC_CTX_CREATE, &c);
			if (rc)
				break;
			made++;
		}
		n_fds++;
		if (rc)
			break;
	}
	check(made == info->n_contexts, "every context of the card can be created", -rc);
	fds[n_fds] = open(path, O_RDWR);
	if (fds[n_fds] >= 0) {
		ctx_default(&c);
		rc = xioctl(fds[n_fds], LOOM_IOC_CTX_CREATE, &c);
		check(rc == -EBUSY, "CTX_CREATE on a full card: EBUSY", -rc);
		n_fds++;
	}
	for (i = 0; i < (unsigned int)n_fds; i++)
		close(fds[i]);
}

/*
 * 100 contexts with 4 MiB segments, freed alternately by CTX_DESTROY and by
 * closing the file: 400 MiB in all, more than the guest has, so a leak of
 * either path ends in ENOMEM.
 */
static void test_no_leak(const char *path)
{
	struct loom_ctx_create c;
	volatile uint8_t *seg;
	int i, fd, rc = 0;

	for (i = 0; i < 100; i++) {
		fd = open(path, O_RDWR);
		if (fd < 0) {
			rc = -errno;
			break;
		}
		ctx_default(&c);
		c.seg_size = 4u << 20;
		rc = xioctl(fd, LOOM_IOC_CTX_CREATE, &c);
		if (!rc) {
			seg = map(fd, c.seg_size, c.seg_token, MAP_SHARED);
			if (seg) {
				seg[0] = 1;
				seg[c.seg_size - 1] = 2;
				munmap((void *)seg, c.seg_size);
			} else {
				rc = -errno;
			}
		}
		if (!rc && i % 2)
			rc = ctx_destroy(fd, c.index);
		close(fd);
		if (rc)
			break;
	}
	if (rc)
		printf("# round %d: %s\n", i, strerror(-rc));
	check(i == 100, "100 contexts with 4 MiB segments, freed by destroy or close: no leak", -rc);
}

/* Random ioctl numbers and arguments must only ever fail cleanly. */
static void test_fuzz(int fd, unsigned int rounds)
{
	/* generic VFS ioctl types (FIFREEZE, FS_IOC_*, FIO*) act on the
	 * file or its file system, not on the driver: leave them out
	 */
	static const unsigned char skip_types[] = { 'X', 'f', 'T', 0x94, 0x12 };
	static const unsigned long ours[] = {
		LOOM_IOC_DEV_INFO, LOOM_IOC_CTX_CREATE, LOOM_IOC_CTX_DESTROY
	};
	unsigned char buf[512];
	unsigned int i, j, created = 0, bad = 0;
	unsigned int seed = (unsigned int)time(NULL);

	printf("# fuzz seed %u\n", seed);
	srand(seed);
	for (i = 0; i < rounds; i++) {
		unsigned long cmd;
		unsigned int type, size, dir;
		int rc;

		for (j = 0; j < sizeof(buf); j++)
			buf[j] = (unsigned char)rand();
		if (i % 8 == 1) {
			/* a valid-looking create or destroy: churn contexts */
			struct loom_ctx_create *c = (void *)buf;
			struct loom_ctx_destroy *d = (void *)buf;

			if (rand() % 2) {
				ctx_default(c);
				c->flags = rand() % 2 ? LOOM_CTX_F_INDEX : 0;
				c->index = (uint32_t)rand() % 80;
				c->seg_size = 4096u << (rand() % 4);
				cmd = LOOM_IOC_CTX_CREATE;
			} else {
				memset(d, 0, sizeof(*d));
				d->argsz = sizeof(*d);
				d->index = (uint32_t)rand() % 80;
				cmd = LOOM_IOC_CTX_DESTROY;
			}
		} else if (i % 2) {
			cmd = ours[(unsigned int)rand() % 3];
			/* plausible argsz most of the time, random otherwise */
			if (rand() % 4)
				*(uint32_t *)buf = (uint32_t)(rand() % 128);
			if (rand() % 2)
				*(uint32_t *)(buf + 4) = 0;
		} else {
			type = rand() % 3 ? LOOM_IOC_MAGIC : (unsigned int)rand() % 256;
			for (j = 0; j < sizeof(skip_types); j++)
				if (type == skip_types[j])
					type = LOOM_IOC_MAGIC;
			size = (unsigned int)rand() % 256;
			dir = (unsigned int)rand() % 4;
			cmd = _IOC(dir, type, (unsigned int)rand() % 256, size);
		}
		rc = xioctl(fd, cmd, buf);
		if (rc == 0 && cmd == LOOM_IOC_CTX_CREATE)
			created++;
		if (rc && rc != -EINVAL && rc != -ENOTTY && rc != -E2BIG &&
		    rc != -EFAULT && rc != -EBUSY && rc != -EMFILE &&
		    rc != -ENOMEM) {
			if (bad++ < 5)
				printf("# ioctl %#lx -> %d (%s)\n", cmd, rc, strerror(-rc));
		}
	}
	printf("# %u random ioctls, %u contexts created\n", rounds, created);
	check(bad == 0, "random ioctl numbers and arguments fail only with the documented errors", 0);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/dev/loom0";
	struct loom_dev_info info;
	int fd;

	fd = open(path, O_RDWR);
	if (fd < 0) {
		printf("1..0 # SKIP cannot open %s: %s\n", path, strerror(errno));
		return 4;
	}
	test_dev_info(fd, &info);
	if (!info.n_contexts) {
		printf("Bail out! DEV_INFO failed\n");
		return 1;
	}
	test_sysfs(path, &info);
	test_create_errors(fd, &info);
	test_create_map(fd, &info);
	test_abi_v1(fd);
	test_counters(fd);
	test_index_and_limits(fd, &info);
	test_card_full(path, &info);
	test_no_leak(path);
	test_fuzz(fd, 5000);
	close(fd);

	/* the file closed cleanly with whatever the fuzzing left behind */
	fd = open(path, O_RDWR);
	check(fd >= 0, "the device opens again after a file with contexts was closed", errno);
	if (fd >= 0)
		close(fd);
	printf("1..%d\n", n_test);
	return n_failed ? 1 : 0;
}
