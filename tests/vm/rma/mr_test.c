// SPDX-License-Identifier: GPL-2.0
/*
 * Guest program of test_mr.sh: user memory registration through libloom,
 * loom.ko and the card.
 *
 *   mr_test target STOPFILE
 *       context 20 (partition A) registers an anonymous buffer at an odd
 *       address (all rights), a MAP_SHARED file, a hugetlbfs page (2 MiB),
 *       a read-only-rights region and one it deregisters again; context 21
 *       (partition B) registers one more.  Prints "keys K1 .. K6", serves
 *       until STOPFILE exists, then checks every byte of every region:
 *       what the source's puts wrote, and nothing else
 *   mr_test source NODE K1 .. K6
 *       context 5 (partition A) registers an odd-address buffer and puts,
 *       gets, counted-puts and atomics against the target's regions
 *       (data checked), then every bad key: unknown, revoked, another
 *       partition, out of bounds, a missing right (protection statuses)
 *   mr_test reg-errors
 *       unmapped memory (EFAULT), read-only memory with a write right
 *       (EACCES), beyond RLIMIT_MEMLOCK (ENOMEM, run without CAP_IPC_LOCK),
 *       beyond max_pinned_kb_per_user (EDQUOT, run without
 *       CAP_SYS_RESOURCE), bad arguments (EINVAL), the uring_cmd forms
 *   mr_test big MIB
 *       registers MIB MiB of anonymous memory, puts to itself at its end
 *   mr_test inflight NODE K1
 *       a 4 MiB get into a region deregistered while the get runs
 *   mr_test hold
 *       registers regions and sleeps (to be killed)
 *
 * One result line per check ("ok: ..." or "FAILED: ..."); exit 0 when
 * every check passed, 1 otherwise, 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/loom.h>
#include <loom.h>
#include <loom_hw/ring.h>

#include "result.h"

#define KEY_A		0xa11ceu
#define KEY_B		0x0b0bu
#define CTX_T		20
#define CTX_OTHER	21
#define CTX_S		5
#define ANON_LEN	(1u << 20)
#define FILE_LEN	(256u << 10)
#define HUGE_LEN	(2u << 20)
#define SMALL_LEN	(16u << 10)
#define ODD		123		/* regions start at an odd address */
#define TIMEOUT_MS	60000
#define N_REG		6

static uint8_t pattern(unsigned int id, uint64_t off)
{
	return (uint8_t)((off * 37 + id * 101 + (off >> 9)) & 0xff);
}

static void fill(uint8_t *p, size_t len, unsigned int id)
{
	for (size_t i = 0; i < len; i++)
		p[i] = pattern(id, i);
}

static struct loom_ctx *open_ctx(struct loom_dev *dev, uint32_t index, uint32_t key)
{
	struct loom_ctx_attr a = {
		.flags = LOOM_CTX_ATTR_INDEX, .index = index, .key = key, .segment_size = 64u << 10,
	};
	struct loom_ctx *ctx;
	int err = loom_ctx_create(dev, &a, &ctx);

	if (err) {
		fprintf(stderr, "mr_test: context %u: %s\n", index, loom_strerror(err));
		exit(1);
	}
	return ctx;
}

static struct loom_mr *reg(struct loom_ctx *ctx, void *p, size_t len, uint32_t access,
			   const char *what)
{
	struct loom_mr *mr;
	int err = loom_mr_reg(ctx, p, len, access, &mr);

	if (err) {
		result(0, "register %s (%zu bytes at %p): %s", what, len, p, loom_strerror(err));
		exit(1);
	}
	return mr;
}

/* One LOCAL completion with @tag: its status (value in *@value), or -errno. */
static int wait_local(struct loom_ctx *ctx, uint64_t tag, uint64_t *value)
{
	struct loom_completion c;

	for (;;) {
		int n = loom_wait(ctx, &c, 1, TIMEOUT_MS);

		if (n < 0)
			return n;
		if (c.kind != LOOM_COMPLETION_LOCAL)
			continue;
		if (c.tag != tag)
			return -EPROTO;
		if (value)
			*value = c.value;
		return c.status;
	}
}

static void *map_anon(size_t len)
{
	uint8_t *p = mmap(NULL, len + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);

	if (p == MAP_FAILED) {
		perror("mr_test: mmap");
		exit(1);
	}
	return p + ODD;
}

/* ---- target ----------------------------------------------------------- */

/* the target's regions, in the order of "keys" */
enum { R_ANON, R_FILE, R_HUGE, R_RO, R_REVOKED, R_OTHER };

/* what the source writes, and where (offsets in the target's regions) */
#define PUT_ANON_OFF	4000u		/* crosses pages */
#define PUT_ANON_LEN	10000u
#define PUT_FILE_OFF	(FILE_LEN - 5000u)
#define PUT_FILE_LEN	5000u
#define PUT_HUGE_OFF	(HUGE_LEN - 70000u)
#define PUT_HUGE_LEN	65536u
#define CNT_OFF		300000u
#define CNT_LEN		3000u
#define COUNTER		7
#define AMO_OFF		(600000u - ODD)	/* 8-byte aligned in memory */
#define GET_OFF		(ANON_LEN - 9000u)
#define GET_LEN		8000u

static int target(const char *stopfile)
{
	struct loom_mr *mr[N_REG];
	uint8_t *buf[N_REG];
	size_t len[N_REG] = { ANON_LEN, FILE_LEN, HUGE_LEN, SMALL_LEN, SMALL_LEN, SMALL_LEN };
	char path[] = "/tmp/mr_test.XXXXXX";
	struct loom_ctx *t, *o;
	struct loom_dev *dev;
	unsigned int arrivals = 0;
	uint64_t cnt = 0, word;
	time_t t0 = time(NULL);
	struct stat st;
	int fd;

	if (loom_dev_open(NULL, &dev)) {
		result(0, "open the device");
		return 1;
	}
	t = open_ctx(dev, CTX_T, KEY_A);
	o = open_ctx(dev, CTX_OTHER, KEY_B);
	buf[R_ANON] = map_anon(ANON_LEN);
	fd = mkstemp(path);
	if (fd < 0 || ftruncate(fd, FILE_LEN)) {
		perror("mr_test: file");
		return 1;
	}
	unlink(path);
	buf[R_FILE] = mmap(NULL, FILE_LEN, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	buf[R_HUGE] = mmap(NULL, HUGE_LEN, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
	if (buf[R_FILE] == MAP_FAILED || buf[R_HUGE] == MAP_FAILED) {
		result(0, "map the file-backed and the huge-page buffers (%s)", strerror(errno));
		return 1;
	}
	buf[R_RO] = map_anon(SMALL_LEN);
	buf[R_REVOKED] = map_anon(SMALL_LEN);
	buf[R_OTHER] = map_anon(SMALL_LEN);
	for (int i = 0; i < N_REG; i++)
		fill(buf[i], len[i], 10 + i);
	memset(buf[R_ANON] + AMO_OFF, 0, 8);
	buf[R_ANON][AMO_OFF] = 40;
	mr[R_ANON] = reg(t, buf[R_ANON], ANON_LEN, LOOM_MR_LOCAL_WRITE | LOOM_MR_REMOTE_READ |
			 LOOM_MR_REMOTE_WRITE | LOOM_MR_REMOTE_ATOMIC, "anonymous");
	mr[R_FILE] = reg(t, buf[R_FILE], FILE_LEN, LOOM_MR_REMOTE_READ | LOOM_MR_REMOTE_WRITE,
			 "file-backed");
	mr[R_HUGE] = reg(t, buf[R_HUGE], HUGE_LEN, LOOM_MR_REMOTE_READ | LOOM_MR_REMOTE_WRITE,
			 "huge page");
	mr[R_RO] = reg(t, buf[R_RO], SMALL_LEN, LOOM_MR_REMOTE_READ, "remote-read only");
	mr[R_REVOKED] = reg(t, buf[R_REVOKED], SMALL_LEN,
			    LOOM_MR_REMOTE_READ | LOOM_MR_REMOTE_WRITE, "to revoke");
	mr[R_OTHER] = reg(o, buf[R_OTHER], SMALL_LEN, LOOM_MR_REMOTE_READ | LOOM_MR_REMOTE_WRITE,
			  "other partition");
	printf("keys");
	for (int i = 0; i < N_REG; i++)
		printf(" %u", loom_mr_rkey(mr[i]));
	printf("\n");
	result(loom_mr_dereg(mr[R_REVOKED]) == 0, "target: deregistered region 5 at once");
	printf("target ready on node %u\n", loom_ctx_node(t));
	fflush(stdout);
	while (stat(stopfile, &st) && time(NULL) - t0 < 300) {
		struct loom_completion c[16];
		int n = loom_poll(t, c, 16);

		for (int j = 0; j < n; j++)
			arrivals += c[j].kind == LOOM_COMPLETION_ARRIVAL;
		usleep(20000);
	}
	loom_counter_read(t, COUNTER, &cnt);
	/* expected contents: the initial pattern, with the puts laid over it */
	{
		static uint8_t want[HUGE_LEN];
		const struct { int r; uint32_t off, len, src_off; } puts[] = {
			{ R_ANON, PUT_ANON_OFF, PUT_ANON_LEN, 0 },
			{ R_FILE, PUT_FILE_OFF, PUT_FILE_LEN, 20000 },
			{ R_HUGE, PUT_HUGE_OFF, PUT_HUGE_LEN, 40000 },
			{ R_ANON, CNT_OFF, CNT_LEN, 200000 },
		};
		const char *name[N_REG] = { "anonymous", "file-backed", "huge page", "read-only",
					    "revoked", "other partition" };

		for (int i = 0; i < N_REG; i++) {
			size_t bad = len[i];

			fill(want, len[i], 10 + i);
			if (i == R_ANON) {
				memset(want + AMO_OFF, 0, 8);
				want[AMO_OFF] = 42;
			}
			for (size_t k = 0; k < sizeof(puts) / sizeof(puts[0]); k++)
				if (puts[k].r == i)
					for (uint32_t b = 0; b < puts[k].len; b++)
						want[puts[k].off + b] = pattern(1, puts[k].src_off + b);
			for (size_t b = 0; b < len[i]; b++)
				if (buf[i][b] != want[b]) {
					bad = b;
					break;
				}
			result(bad == len[i],
			       "target: %s region: every byte as expected (first difference at %zd: 0x%02x, want 0x%02x)",
			       name[i], bad == len[i] ? (ssize_t)-1 : (ssize_t)bad,
			       bad == len[i] ? 0 : buf[i][bad], bad == len[i] ? 0 : want[bad]);
		}
	}
	memcpy(&word, buf[R_ANON] + AMO_OFF, 8);
	result(cnt == CNT_LEN && arrivals == 1,
	       "target: counter %d = %llu (want %u), %u arrival (want 1), atomic word %llu",
	       COUNTER, (unsigned long long)cnt, CNT_LEN, arrivals, (unsigned long long)word);
	for (int i = 0; i < N_REG; i++)
		if (i != R_REVOKED && loom_mr_dereg(mr[i]))
			result(0, "target: deregister region %d", i);
	loom_ctx_destroy(t);
	loom_ctx_destroy(o);
	loom_dev_close(dev);
	return failed;
}

/* ---- source ----------------------------------------------------------- */

static int source(uint32_t node, const uint32_t *key)
{
	const size_t llen = 1u << 20;
	uint8_t *l = map_anon(llen);
	struct loom_dev *dev;
	struct loom_ctx *s;
	struct loom_mr *lm;
	uint64_t v = 0;
	int st, err;

	if (loom_dev_open(NULL, &dev))
		return 1;
	s = open_ctx(dev, CTX_S, KEY_A);
	fill(l, llen, 1);
	lm = reg(s, l, llen, LOOM_MR_LOCAL_WRITE, "source buffer");

	/* puts into anonymous, file-backed and huge-page memory */
	err = loom_put_mr(s, node, key[R_ANON], PUT_ANON_OFF, lm, 0, PUT_ANON_LEN, 0, 1);
	st = err ? err : wait_local(s, 1, &v);
	result(st == 0 && v == PUT_ANON_LEN, "put %u bytes from an odd address into the anonymous region (status %d)",
	       PUT_ANON_LEN, st);
	err = loom_put_mr(s, node, key[R_FILE], PUT_FILE_OFF, lm, 20000, PUT_FILE_LEN, 0, 2);
	st = err ? err : wait_local(s, 2, NULL);
	result(st == 0, "put into the file-backed region, up to its last byte (status %d)", st);
	err = loom_put_mr(s, node, key[R_HUGE], PUT_HUGE_OFF, lm, 40000, PUT_HUGE_LEN, 0, 3);
	st = err ? err : wait_local(s, 3, NULL);
	result(st == 0, "put 64 KiB into the huge-page region (status %d)", st);
	err = loom_put_counted_mr(s, node, key[R_ANON], CNT_OFF, lm, 200000, CNT_LEN, COUNTER,
				  LOOM_PUT_REMOTE_EVENT, 4);
	st = err ? err : wait_local(s, 4, NULL);
	result(st == 0, "counted put into the anonymous region (status %d)", st);
	err = loom_atomic_mr(s, node, key[R_ANON], AMO_OFF, LOOM_ATOMIC_FETCH_ADD, 2, 0, 5);
	st = err ? err : wait_local(s, 5, &v);
	result(st == 0 && v == 40, "atomic fetch-add on the anonymous region: fetched %llu (want 40), status %d",
	       (unsigned long long)v, st);

	/* gets: back from each kind of memory, into an odd local offset */
	{
		const struct { int r; uint32_t off, len, id; const char *what; } gets[] = {
			{ R_ANON, GET_OFF, GET_LEN, 10, "anonymous" },
			{ R_FILE, 100, 6000, 11, "file-backed" },
			{ R_HUGE, 5000, 50000, 12, "huge page" },
			{ R_RO, 1, SMALL_LEN - 1, 13, "remote-read-only" },
		};

		for (size_t g = 0; g < sizeof(gets) / sizeof(gets[0]); g++) {
			size_t b;

			memset(l + 333, 0, gets[g].len);
			err = loom_get_mr(s, node, key[gets[g].r], gets[g].off, lm, 333, gets[g].len,
					  0, 10 + g);
			st = err ? err : wait_local(s, 10 + g, NULL);
			for (b = 0; b < gets[g].len && l[333 + b] == pattern(gets[g].id, gets[g].off + b);
			     b++)
				;
			result(st == 0 && b == gets[g].len, "get %u bytes from the %s region: status %d, %zu bytes right",
			       gets[g].len, gets[g].what, st, b);
		}
	}
	/*
	 * the same buffer registered a second time for the card to write
	 * (MPI and libfabric do): a get lands through each registration
	 */
	{
		struct loom_mr *lm2 = reg(s, l, llen, LOOM_MR_LOCAL_WRITE, "the source buffer again");
		size_t b1, b2;

		memset(l + 333, 0, 2 * GET_LEN);
		err = loom_get_mr(s, node, key[R_ANON], GET_OFF, lm2, 333, GET_LEN, 0, 14);
		st = err ? err : wait_local(s, 14, NULL);
		err = loom_get_mr(s, node, key[R_ANON], GET_OFF, lm, 333 + GET_LEN, GET_LEN, 0, 15);
		if (!st)
			st = err ? err : wait_local(s, 15, NULL);
		for (b1 = 0; b1 < GET_LEN && l[333 + b1] == pattern(10, GET_OFF + b1); b1++)
			;
		for (b2 = 0; b2 < GET_LEN && l[333 + GET_LEN + b2] == pattern(10, GET_OFF + b2); b2++)
			;
		result(st == 0 && b1 == GET_LEN && b2 == GET_LEN && loom_mr_dereg(lm2) == 0,
		       "the source buffer registered twice for writing: a get through each brings every byte (status %d, %zu and %zu of %u bytes right)",
		       st, b1, b2, GET_LEN);
	}
	fill(l, llen, 1);

	/* every bad key: a protection status, nothing written (the target checks) */
	{
		const struct { uint32_t key; uint64_t off; uint32_t len; int want; const char *what; } bad[] = {
			{ key[R_ANON] ^ 0x80000000u, 0, 64, LOOM_STATUS_MR_KEY, "an unknown key" },
			{ key[R_REVOKED], 0, 64, LOOM_STATUS_MR_KEY, "a revoked key" },
			{ key[R_OTHER], 0, 64, LOOM_STATUS_REMOTE_KEY, "a region of another partition" },
			{ key[R_ANON], ANON_LEN - 32, 64, LOOM_STATUS_MR_BOUNDS, "out of bounds" },
			{ key[R_RO], 0, 64, LOOM_STATUS_MR_ACCESS, "a region without REMOTE_WRITE" },
		};

		for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
			int st2;

			err = loom_put_mr(s, node, bad[k].key, bad[k].off, lm, 0, bad[k].len, 0, 20 + k);
			st = err ? err : wait_local(s, 20 + k, NULL);
			err = loom_atomic_mr(s, node, bad[k].key,
					     bad[k].off + (bad[k].want == LOOM_STATUS_MR_BOUNDS ? 64 : 0),
					     LOOM_ATOMIC_SWAP, 7, 0, 40 + k);
			st2 = err ? err : wait_local(s, 40 + k, NULL);
			result(st == bad[k].want && st2 == bad[k].want,
			       "put and atomic naming %s: status %d and %d (want %d: %s)", bad[k].what,
			       st, st2, bad[k].want, loom_strerror(bad[k].want));
		}
		err = loom_get_mr(s, node, key[R_OTHER], 0, lm, 0, 64, 0, 60);
		st = err ? err : wait_local(s, 60, NULL);
		result(st == LOOM_STATUS_REMOTE_KEY && l[0] == pattern(1, 0) && l[63] == pattern(1, 63),
		       "get from another partition: status %d, nothing landed", st);
		err = loom_get_mr(s, node, key[R_FILE], FILE_LEN - 10, lm, 0, 64, 0, 61);
		st = err ? err : wait_local(s, 61, NULL);
		result(st == LOOM_STATUS_MR_BOUNDS && l[0] == pattern(1, 0),
		       "get past the end of a region: status %d, nothing landed", st);
	}
	result(loom_mr_dereg(lm) == 0, "source: deregistered its buffer");
	loom_ctx_destroy(s);
	loom_dev_close(dev);
	return failed;
}

/* ---- registration errors ------------------------------------------------ */

static int uring_mr(struct io_uring *ring, int fd, uint32_t op, void *arg)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	struct loom_uring_mr m = { .arg = (uintptr_t)arg };
	struct io_uring_cqe *cqe;
	int res;

	/* SQE128: 64 bytes and the 80-byte command area */
	io_uring_prep_rw(IORING_OP_URING_CMD, sqe, fd, NULL, 0, 0);
	memset(sqe->cmd, 0, 80);
	sqe->opcode = IORING_OP_URING_CMD;
	sqe->fd = fd;
	sqe->cmd_op = op;
	memcpy(sqe->cmd, &m, sizeof(m));
	io_uring_submit(ring);
	if (io_uring_wait_cqe(ring, &cqe))
		return -EIO;
	res = cqe->res;
	io_uring_cqe_seen(ring, cqe);
	return res;
}

static int reg_errors(void)
{
	struct loom_dev *dev;
	struct loom_ctx *c;
	struct loom_mr *mr = NULL;
	struct rlimit rl;
	uint8_t *p;
	int err;

	if (loom_dev_open(NULL, &dev))
		return 1;
	c = open_ctx(dev, CTX_S, 0);
	p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap(p + 4096, 4096);
	err = loom_mr_reg(c, p + 10, 3 * 4096 - 20, 0, &mr);
	result(err == -EFAULT, "a range with an unmapped page: %d (want -EFAULT: %s)", err, loom_strerror(err));
	munmap(p, 3 * 4096);
	p = mmap(NULL, 4 * 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	err = loom_mr_reg(c, p, 4 * 4096, LOOM_MR_REMOTE_WRITE, &mr);
	result(err == -EACCES, "read-only memory registered for remote write: %d (want -EACCES: %s)",
	       err, loom_strerror(err));
	err = loom_mr_reg(c, p, 4 * 4096, LOOM_MR_REMOTE_READ, &mr);
	result(err == 0, "the same read-only memory for remote read: %d", err);
	if (!err)
		loom_mr_dereg(mr);
	err = loom_mr_reg(c, p, 0, 0, &mr);
	{
		int e2 = loom_mr_reg(c, p, 4096, 0x100, &mr);
		struct loom_mr_reg r = { .argsz = sizeof(r), .flags = 1, .ctx_index = CTX_S,
					 .addr = (uintptr_t)p, .length = 4096 };
		int e3 = ioctl(loom_ctx_fd(c), LOOM_IOC_MR_REG, &r) ? -errno : 0;

		r.flags = 0;
		r.ctx_index = 63;
		int e4 = ioctl(loom_ctx_fd(c), LOOM_IOC_MR_REG, &r) ? -errno : 0;
		struct loom_mr_dereg d = { .argsz = sizeof(d), .ctx_index = CTX_S, .lkey = 12345 };
		int e5 = ioctl(loom_ctx_fd(c), LOOM_IOC_MR_DEREG, &d) ? -errno : 0;

		result(err == -EINVAL && e2 == -EINVAL && e3 == -EINVAL && e4 == -EINVAL && e5 == -EINVAL,
		       "length 0, unknown rights, unknown flags, a context of no file of mine, an unknown key: %d %d %d %d %d (want -EINVAL)",
		       err, e2, e3, e4, e5);
	}
	munmap(p, 4 * 4096);

	/* the uring_cmd forms */
	{
		struct io_uring ring;
		uint8_t *q = map_anon(100000);
		struct loom_mr_reg r = { .argsz = sizeof(r), .ctx_index = CTX_S,
					 .access = LOOM_MR_REMOTE_READ, .addr = (uintptr_t)q,
					 .length = 100000 };
		struct loom_mr_dereg d = { .argsz = sizeof(d), .ctx_index = CTX_S };
		int r1, r2, r3;

		if (io_uring_queue_init(8, &ring, IORING_SETUP_SQE128)) {
			result(0, "io_uring with SQE128");
		} else {
			r1 = uring_mr(&ring, loom_ctx_fd(c), LOOM_URING_MR_REG, &r);
			d.lkey = r.lkey;
			r2 = uring_mr(&ring, loom_ctx_fd(c), LOOM_URING_MR_DEREG, &d);
			r3 = uring_mr(&ring, loom_ctx_fd(c), LOOM_URING_MR_DEREG, &d);
			result(r1 == 0 && r.lkey && r.rkey == r.lkey && r2 == 0 && r3 == -EINVAL,
			       "LOOM_URING_MR_REG and _DEREG: %d (key %#x), %d, then the same key again %d (want -EINVAL)",
			       r1, r.lkey, r2, r3);
			io_uring_queue_exit(&ring);
		}
	}

	/* RLIMIT_MEMLOCK: the caller runs without CAP_IPC_LOCK */
	getrlimit(RLIMIT_MEMLOCK, &rl);
	{
		size_t len = (size_t)rl.rlim_cur + (1u << 20);
		uint8_t *big = mmap(NULL, len, PROT_READ | PROT_WRITE,
				    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		err = loom_mr_reg(c, big, len, LOOM_MR_REMOTE_WRITE, &mr);
		result(err == -ENOMEM, "%zu KiB, above RLIMIT_MEMLOCK (%llu KiB): %d (want -ENOMEM: %s)",
		       len >> 10, (unsigned long long)rl.rlim_cur >> 10, err, loom_strerror(err));
		munmap(big, len);
	}
	loom_ctx_destroy(c);
	loom_dev_close(dev);
	return failed;
}

/* beyond max_pinned_kb_per_user (the caller sets it to KIB, raises memlock) */
static int quota(unsigned long kib)
{
	size_t len = (kib + 1024) << 10;
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct loom_dev *dev;
	struct loom_ctx *c;
	struct loom_mr *mr;
	int err;

	if (loom_dev_open(NULL, &dev))
		return 1;
	c = open_ctx(dev, CTX_S, 0);
	err = loom_mr_reg(c, p, len, LOOM_MR_REMOTE_WRITE, &mr);
	result(err == -EDQUOT, "%zu KiB, above max_pinned_kb_per_user %lu: %d (want -EDQUOT: %s)",
	       len >> 10, kib, err, loom_strerror(err));
	loom_ctx_destroy(c);
	loom_dev_close(dev);
	return failed;
}

/* ---- a big region --------------------------------------------------------- */

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int big(unsigned long mib)
{
	size_t len = mib << 20;
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct loom_dev *dev;
	struct loom_ctx *c;
	struct loom_mr *mr;
	double t0;
	uint64_t v;
	int err, st;

	if (p == MAP_FAILED || loom_dev_open(NULL, &dev))
		return 1;
	c = open_ctx(dev, CTX_S, 0);
	fill(p + len - 8192, 4096, 3);
	memset(p + len - 4096, 0, 4096);
	t0 = now_ms();
	err = loom_mr_reg(c, p, len, LOOM_MR_LOCAL_WRITE | LOOM_MR_REMOTE_WRITE, &mr);
	result(!err, "registered %lu MiB in %.1f ms: %d", mib, now_ms() - t0, err);
	if (err)
		return 1;
	/* to myself: the last page of the region from the one before */
	err = loom_put_mr(c, loom_ctx_node(c), loom_mr_rkey(mr), len - 4096, mr, len - 8192, 4096,
			  0, 1);
	st = err ? err : wait_local(c, 1, &v);
	result(st == 0 && !memcmp(p + len - 4096, p + len - 8192, 4096),
	       "a put to the last page of the %lu MiB region lands (status %d)", mib, st);
	result(loom_mr_dereg(mr) == 0, "deregistered %lu MiB", mib);
	loom_ctx_destroy(c);
	loom_dev_close(dev);
	return failed;
}

/* ---- deregistration while a get runs -------------------------------------- */

static int inflight(uint32_t node, uint32_t rkey)
{
	const size_t len = 4u << 20;
	uint8_t *p = map_anon(len);
	struct loom_dev *dev;
	struct loom_ctx *c;
	struct loom_mr *mr;
	int err, st;

	if (loom_dev_open(NULL, &dev))
		return 1;
	c = open_ctx(dev, CTX_S, KEY_A);
	memset(p, 0, len);
	mr = reg(c, p, len, LOOM_MR_LOCAL_WRITE, "get target");
	/* 4 MiB from the target's 1 MiB region, four times over its first MiB */
	for (int i = 0; i < 4; i++) {
		err = loom_get_mr(c, node, rkey, 0, mr, (uint64_t)i << 20, 1u << 20, 0, 1 + i);
		if (err)
			result(0, "queue get %d: %d", i, err);
	}
	usleep(1000);
	err = loom_mr_dereg(mr);
	result(err == 0, "deregistered the local region while its gets run: %d", err);
	{
		int statuses[4] = { -1, -1, -1, -1 }, refused = 0;

		/* completions in any order: a refused get may finish first */
		for (int i = 0; i < 4; i++) {
			struct loom_completion comp;

			if (loom_wait(c, &comp, 1, TIMEOUT_MS) != 1 || comp.tag < 1 || comp.tag > 4) {
				refused = -100;
				break;
			}
			st = comp.status;
			statuses[comp.tag - 1] = st;
			refused += st == LOOM_STATUS_MR_KEY;
			if (st != 0 && st != LOOM_STATUS_MR_KEY)
				refused = -100;
		}
		result(refused >= 1, "the gets complete, those running at the deregistration with MR_KEY: %d %d %d %d",
		       statuses[0], statuses[1], statuses[2], statuses[3]);
	}
	loom_ctx_destroy(c);
	loom_dev_close(dev);
	return failed;
}

static int hold(void)
{
	struct loom_dev *dev;
	struct loom_ctx *c;
	struct loom_mr *mr;

	if (loom_dev_open(NULL, &dev))
		return 1;
	c = open_ctx(dev, CTX_S, 0);
	for (int i = 0; i < 3; i++) {
		uint8_t *p = map_anon(8u << 20);

		memset(p, i, 8u << 20);
		mr = reg(c, p, 8u << 20, LOOM_MR_REMOTE_WRITE, "held");
		(void)mr;
	}
	printf("holding\n");
	fflush(stdout);
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	uint32_t key[N_REG];

	if (argc == 3 && !strcmp(argv[1], "target"))
		return target(argv[2]);
	if (argc == 3 + N_REG && !strcmp(argv[1], "source")) {
		for (int i = 0; i < N_REG; i++)
			key[i] = (uint32_t)strtoul(argv[3 + i], NULL, 0);
		return source((uint32_t)strtoul(argv[2], NULL, 0), key);
	}
	if (argc == 2 && !strcmp(argv[1], "reg-errors"))
		return reg_errors();
	if (argc == 3 && !strcmp(argv[1], "quota"))
		return quota(strtoul(argv[2], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "big"))
		return big(strtoul(argv[2], NULL, 0));
	if (argc == 4 && !strcmp(argv[1], "inflight"))
		return inflight((uint32_t)strtoul(argv[2], NULL, 0),
				(uint32_t)strtoul(argv[3], NULL, 0));
	if (argc == 2 && !strcmp(argv[1], "hold"))
		return hold();
	fprintf(stderr, "usage: mr_test target STOPFILE | source NODE K1..K6 | reg-errors | quota KIB | big MIB | inflight NODE KEY | hold\n");
	return 2;
}
