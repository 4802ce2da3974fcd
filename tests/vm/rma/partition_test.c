// SPDX-License-Identifier: GPL-2.0
/*
 * Guest program of test_partitions.sh: partitions enforced by the card,
 * through libloom, the raw ABI and loom.ko.
 *
 *   partition_test target STOPFILE
 *       context 20 in partition A and context 21 in partition B; prints
 *       "target ready", serves until STOPFILE exists, then checks that
 *       context A's segment and counters are byte-identical to what they
 *       were (and no arrival came) and that context B got every operation
 *   partition_test source NODE
 *       a context in partition B: PUT, GET, ATOMIC and COUNTED_PUT to
 *       context A of NODE (each must complete with REMOTE_KEY and bring
 *       nothing back), then descriptors whose key field forges A's key,
 *       written straight into the ring of a raw-ABI context (REMOTE_KEY),
 *       then the four operations to context B (OK, data checked)
 *   partition_test barrier UNIT KEY TIMEOUT_MS [GOFILE]
 *       open BSU UNIT in partition KEY, print "open", wait for GOFILE if
 *       given, then one barrier: prints "barrier: ok" or "barrier: ERRNO"
 *
 * One result line per check; exit 0 when every check passed, 1 otherwise,
 * 2 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/loom.h>
#include <loom.h>
#include <loom_hw/regs.h>
#include <loom_hw/ring.h>

#include "result.h"

#define KEY_A		0xa11ceu	/* the target's partition */
#define KEY_B		0x0b0bu		/* the source's */
#define CTX_A		20
#define CTX_B		21
#define SEG		(64u << 10)
#define COUNTER		3
#define PUT_OFF		0x0000u		/* puts land here */
#define PUT_LEN		1000u
#define CNT_OFF		0x4000u		/* counted puts land here */
#define CNT_LEN		600u
#define AMO_OFF		0x8000u		/* the atomic word */
#define GET_OFF		0xc000u		/* the target's data gets read */
#define GET_LEN		1000u
#define LOCAL_GET	0x2000u		/* where the source's gets land */
#define TIMEOUT_MS	20000

static uint8_t pattern(unsigned int id, uint64_t off)
{
	return (uint8_t)((off * 37 + id * 101 + (off >> 7)) & 0xff);
}

static int open_ctx(struct loom_dev *dev, uint32_t index, uint32_t key, struct loom_ctx **ctx)
{
	struct loom_ctx_attr a = {
		.flags = LOOM_CTX_ATTR_INDEX, .index = index, .key = key, .segment_size = SEG,
	};
	int err = loom_ctx_create(dev, &a, ctx);

	if (err)
		fprintf(stderr, "partition_test: context %u (key %#x): %s\n", index, key,
			loom_strerror(err));
	return err;
}

/* ---- target ----------------------------------------------------------- */

static int target(const char *stopfile)
{
	static uint8_t before[SEG];
	struct loom_ctx *a, *b;
	struct loom_dev *dev;
	unsigned int arrivals[2] = { 0, 0 };
	uint64_t cnt_a = 0, cnt_b = 0, word;
	uint8_t *sa, *sb;
	time_t t0 = time(NULL);
	struct stat st;
	size_t i;

	if (loom_dev_open(NULL, &dev) || open_ctx(dev, CTX_A, KEY_A, &a) ||
	    open_ctx(dev, CTX_B, KEY_B, &b))
		return 1;
	sa = loom_ctx_segment(a, NULL);
	sb = loom_ctx_segment(b, NULL);
	for (i = 0; i < SEG; i++)
		sa[i] = pattern(1, i);
	for (i = 0; i < GET_LEN; i++)
		sb[GET_OFF + i] = pattern(2, i);
	memcpy(before, sa, SEG);
	printf("target ready: context %u (partition %#x) and %u (partition %#x) on node %u\n",
	       CTX_A, KEY_A, CTX_B, KEY_B, loom_ctx_node(a));
	fflush(stdout);
	while (stat(stopfile, &st) && time(NULL) - t0 < 120) {
		struct loom_completion c[16];
		struct loom_ctx *x[2] = { a, b };

		for (int k = 0; k < 2; k++) {
			int n = loom_poll(x[k], c, 16);

			for (int j = 0; j < n; j++)
				arrivals[k] += c[j].kind == LOOM_COMPLETION_ARRIVAL;
		}
		usleep(20000);
	}
	loom_counter_read(a, COUNTER, &cnt_a);
	loom_counter_read(b, COUNTER, &cnt_b);
	for (i = 0; i < SEG && sa[i] == before[i]; i++)
		;
	result(i == SEG && cnt_a == 0 && arrivals[0] == 0,
	       "target: partition A's segment byte-identical (%zu of %u bytes same), counter %d = %llu, %u arrivals",
	       i, SEG, COUNTER, (unsigned long long)cnt_a, arrivals[0]);
	for (i = 0; i < PUT_LEN && sb[PUT_OFF + i] == pattern(3, i); i++)
		;
	memcpy(&word, sb + AMO_OFF, sizeof(word));
	{
		size_t j;

		for (j = 0; j < CNT_LEN && sb[CNT_OFF + j] == pattern(4, j); j++)
			;
		result(i == PUT_LEN && j == CNT_LEN && cnt_b == CNT_LEN && word == 5 &&
		       arrivals[1] == 2,
		       "target: partition B got the put (%zu/%u bytes right), the counted put (%zu/%u, counter %llu), the atomic (word %llu, want 5), %u arrivals (want 2)",
		       i, PUT_LEN, j, CNT_LEN, (unsigned long long)cnt_b,
		       (unsigned long long)word, arrivals[1]);
	}
	loom_ctx_destroy(a);
	loom_ctx_destroy(b);
	loom_dev_close(dev);
	return failed;
}

/* ---- source: libloom ---------------------------------------------------- */

/* One operation's LOCAL completion: its status, or -errno. */
static int wait_local(struct loom_ctx *ctx, uint64_t tag, struct loom_completion *c)
{
	int n = loom_wait(ctx, c, 1, TIMEOUT_MS);

	if (n < 0)
		return n;
	if (c->kind != LOOM_COMPLETION_LOCAL || c->tag != tag)
		return -EPROTO;
	return c->status;
}

/* The four operations to @idx of @node; their statuses in @st[4]. */
static void four_ops(struct loom_ctx *ctx, uint32_t node, uint32_t idx, int st[4],
		     uint64_t *fetched)
{
	/* .key is ignored: the card stamps my context's partition */
	const struct loom_remote dst = { .node = node, .ctx = idx, .key = KEY_A };
	struct loom_completion c;
	int err;

	err = loom_put(ctx, &dst, PUT_OFF, 0, PUT_LEN, LOOM_PUT_REMOTE_EVENT, 1);
	st[0] = err ? err : wait_local(ctx, 1, &c);
	err = loom_get(ctx, &dst, GET_OFF, LOCAL_GET, GET_LEN, 0, 2);
	st[1] = err ? err : wait_local(ctx, 2, &c);
	err = loom_atomic(ctx, &dst, AMO_OFF, LOOM_ATOMIC_FETCH_ADD, 5, 0, 3);
	st[2] = err ? err : wait_local(ctx, 3, &c);
	*fetched = c.value;
	err = loom_put_counted(ctx, &dst, CNT_OFF, 0x1000, CNT_LEN, COUNTER,
			       LOOM_PUT_REMOTE_EVENT, 4);
	st[3] = err ? err : wait_local(ctx, 4, &c);
}

static const char *const op_name[4] = { "put", "get", "atomic", "counted put" };

/* ---- source: raw ABI (descriptors written by hand) ---------------------- */

struct raw_ctx {
	int fd;
	struct loom_ctx_create cr;
	struct loom_cmd *cmdq;
	volatile struct loom_cqe *cq;
	volatile uint32_t *db;
	volatile uint32_t *kick;
	uint32_t pi, ci;
};

static void *map(int fd, size_t len, uint64_t token)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)token);

	return p == MAP_FAILED ? NULL : p;
}

static int raw_open(struct raw_ctx *r)
{
	void *kp = NULL;

	memset(r, 0, sizeof(*r));
	r->fd = open("/dev/loom0", O_RDWR | O_CLOEXEC);
	r->cr.argsz = sizeof(r->cr);
	r->cr.key = KEY_B;
	r->cr.cmdq_entries = 16;
	r->cr.cq_entries = 16;
	r->cr.seg_size = 4096;
	if (r->fd < 0 || ioctl(r->fd, LOOM_IOC_CTX_CREATE, &r->cr) < 0)
		return -errno;
	r->cmdq = map(r->fd, 16 * LOOM_CMD_SIZE, r->cr.cmdq_token);
	r->cq = map(r->fd, 16 * LOOM_CQE_SIZE, r->cr.cq_token);
	r->db = map(r->fd, LOOM_DB_PAGE_SIZE, r->cr.doorbell_token);
	if (r->cr.out_flags & LOOM_CTX_OUT_KICK) {
		kp = map(r->fd, LOOM_DB_PAGE_SIZE, r->cr.kick_token);
		if (kp)
			r->kick = (volatile uint32_t *)((char *)kp + r->cr.kick_offset);
	}
	if (!r->cmdq || !r->cq || !r->db || ((r->cr.out_flags & LOOM_CTX_OUT_KICK) && !kp))
		return -ENOMEM;
	return 0;
}

/* Post @d and wait for its completion entry: its status, or -ETIMEDOUT. */
static int raw_op(struct raw_ctx *r, const struct loom_cmd *d)
{
	time_t t0 = time(NULL);
	volatile struct loom_cqe *e;

	memcpy(&r->cmdq[r->pi & 15], d, sizeof(*d));
	r->pi++;
	__atomic_thread_fence(__ATOMIC_RELEASE);
	r->db[LOOM_DB_CMD_PI / 4] = r->pi;	/* written, never read back */
	if (r->kick)
		*r->kick = r->cr.kick_value;
	e = &r->cq[r->ci & 15];
	while ((e->flags & LOOM_CQE_PHASE) != loom_cq_phase(r->ci, 4)) {
		if (time(NULL) - t0 > TIMEOUT_MS / 1000)
			return -ETIMEDOUT;
		usleep(1000);
	}
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	r->ci++;
	r->db[LOOM_DB_CQ_CI / 4] = r->ci;
	return e->tag == d->tag ? e->status : -EPROTO;
}

static int source(uint32_t node)
{
	struct loom_dev *dev;
	struct loom_ctx *ctx;
	struct raw_ctx raw;
	uint64_t fetched = 0;
	uint8_t *seg;
	int st[4], err;
	size_t i;

	if (loom_dev_open(NULL, &dev) || open_ctx(dev, 22, KEY_B, &ctx))
		return 1;
	seg = loom_ctx_segment(ctx, NULL);
	for (i = 0; i < PUT_LEN; i++)
		seg[i] = pattern(3, i);
	for (i = 0; i < CNT_LEN; i++)
		seg[0x1000 + i] = pattern(4, i);

	/* another partition: refused, nothing comes back */
	four_ops(ctx, node, CTX_A, st, &fetched);
	for (int k = 0; k < 4; k++)
		result(st[k] == LOOM_STATUS_REMOTE_KEY,
		       "cross-partition %s to context %u (partition %#x) from partition %#x: status %d (%s), want REMOTE_KEY",
		       op_name[k], CTX_A, KEY_A, KEY_B, st[k], loom_strerror(st[k]));
	for (i = 0; i < GET_LEN && !seg[LOCAL_GET + i]; i++)
		;
	result(i == GET_LEN && fetched == 0,
	       "cross-partition get and atomic brought nothing back (%zu of %u bytes still 0, value %llu)",
	       i, GET_LEN, (unsigned long long)fetched);

	/* the descriptor forges the target's key: the card stamps mine */
	err = raw_open(&raw);
	if (err) {
		result(0, "raw-ABI context: %s", strerror(-err));
	} else {
		struct loom_cmd d = {
			.opcode = LOOM_OP_PUT, .flags = LOOM_CMD_F_SIGNAL | LOOM_CMD_F_REMOTE_CQE,
			.dst_ctx = CTX_A, .dst_node = node, .tag = 11, .local_off = 0,
			.remote_off = PUT_OFF, .length = 1000, .key = KEY_A,
		};
		int s1, s2;

		s1 = raw_op(&raw, &d);
		d = (struct loom_cmd){
			.opcode = LOOM_OP_ATOMIC, .flags = LOOM_CMD_F_SIGNAL, .dst_ctx = CTX_A,
			.dst_node = node, .tag = 12, .remote_off = AMO_OFF, .length = 8,
			.key = KEY_A, .aux = LOOM_AMO_SWAP, .operand = 0x6666666666666666ull,
		};
		s2 = raw_op(&raw, &d);
		result(s1 == LOOM_STATUS_REMOTE_KEY && s2 == LOOM_STATUS_REMOTE_KEY,
		       "descriptors with a forged key (%#x, the target's) written into the ring: put status %d, atomic status %d, want REMOTE_KEY",
		       KEY_A, s1, s2);
	}

	/* my own partition: everything works */
	four_ops(ctx, node, CTX_B, st, &fetched);
	for (i = 0; i < GET_LEN && seg[LOCAL_GET + i] == pattern(2, i); i++)
		;
	result(!st[0] && !st[1] && !st[2] && !st[3] && i == GET_LEN && fetched == 0,
	       "same partition: put %d, get %d (%zu of %u bytes right), atomic %d (fetched %llu), counted put %d: all OK",
	       st[0], st[1], i, GET_LEN, st[2], (unsigned long long)fetched, st[3]);
	loom_ctx_destroy(ctx);
	loom_dev_close(dev);
	return failed;
}

/* ---- barrier ------------------------------------------------------------ */

static int barrier(unsigned int unit, uint32_t key, int timeout_ms, const char *gofile)
{
	struct loom_dev *dev;
	struct loom_bsu *b;
	struct stat st;
	int err;

	err = loom_dev_open(NULL, &dev);
	if (!err)
		err = loom_bsu_open_key(dev, unit, key, &b);
	if (err) {
		printf("barrier: cannot open unit %u in partition %#x: %s\n", unit, key,
		       loom_strerror(err));
		return 1;
	}
	printf("unit %u open in partition %#x\n", unit, key);
	fflush(stdout);
	for (int t = 0; gofile && stat(gofile, &st) && t < 2400; t++)
		usleep(50000);
	err = loom_barrier(b, timeout_ms);
	printf("barrier: %s (%d)\n", err ? loom_strerror(err) : "ok", err);
	loom_bsu_close(b);
	loom_dev_close(dev);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 3 && !strcmp(argv[1], "target"))
		return target(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "source"))
		return source((uint32_t)strtoul(argv[2], NULL, 0));
	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "barrier"))
		return barrier((unsigned int)strtoul(argv[2], NULL, 0),
			       (uint32_t)strtoul(argv[3], NULL, 0), atoi(argv[4]),
			       argc == 6 ? argv[5] : NULL);
	fprintf(stderr, "usage: partition_test target STOPFILE | source NODE | barrier UNIT KEY TIMEOUT_MS [GOFILE]\n");
	return 2;
}
