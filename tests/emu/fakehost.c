// SPDX-License-Identifier: GPL-2.0
/*
 * Fake host: the QEMU side of the ivshmem-doorbell protocol plus a tiny
 * driver for the admin mailbox and context rings.
 */
#include "fakehost.h"
#include "strict_regs.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define FH_RAM_FIRST	(1u << 20)	/* leave the first MiB alone, as a BIOS would */

uint64_t fh_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int fh_create_ram(const char *path, uint64_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)size) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return 0;
}

uint32_t fh_rd32(struct fakehost *fh, uint32_t off)
{
	if (strict_regs_access(off) == STRICT_WO) {
		char name[48];

		strict_regs_name(off, name, sizeof(name));
		if (fh->wo_reads++ < 8)
			printf("# fakehost: read of write-only register 0x%05x (%s)\n", off, name);
	}
	return __atomic_load_n((const uint32_t *)(const void *)(fh->regs + off), __ATOMIC_ACQUIRE);
}

void fh_wr32(struct fakehost *fh, uint32_t off, uint32_t v)
{
	__atomic_store_n((uint32_t *)(void *)(fh->regs + off), v, __ATOMIC_RELEASE);
}

void fh_kick(struct fakehost *fh, unsigned int vector)
{
	uint64_t one = 1;

	if (fh->local) {
		fh->kick_fn(fh->opaque, vector);
		return;
	}

	if (write(fh->kick_fd[vector], &one, sizeof(one)) < 0) {
		/* saturated counter: a kick is pending anyway */
	}
}

uint32_t fh_port_reg(const struct fakehost *fh, unsigned int port, uint32_t field)
{
	return fh->off_ports + LOOM_PORTS_BASE + port * LOOM_PORT_REC_SIZE + field;
}

uint32_t fh_ctx_reg(const struct fakehost *fh, unsigned int idx, uint32_t field)
{
	return fh->off_ctx + LOOM_CTX_BASE + idx * LOOM_CTX_REC_SIZE + field;
}

uint64_t fh_alloc(struct fakehost *fh, uint64_t size, uint64_t align)
{
	uint64_t a = (fh->bump + align - 1) & ~(align - 1);

	if (a > fh->ram_size || size > fh->ram_size - a)
		return 0;
	fh->bump = a + size;
	return a;
}

/* Receive one int64 message and at most one fd (-1 if none). */
static int fh_recv(int sock, int64_t *val, int *fd)
{
	struct iovec iov = { .iov_base = val, .iov_len = sizeof(*val) };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct cmsghdr *cm;

	*fd = -1;
	if (recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != (ssize_t)sizeof(*val))
		return -1;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm))
		if (cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(cm), sizeof(int));
	return 0;
}

static int fh_walk_chain(struct fakehost *fh, char *err, size_t errlen)
{
	uint32_t off = 0;

	if (fh_rd32(fh, LOOM_FWID_MAGIC) != LOOM_MAGIC ||
	    !(fh_rd32(fh, LOOM_FWID_FLAGS) & LOOM_FWID_F_EMULATED)) {
		snprintf(err, errlen, "no loom lab signature at offset 0 of the register window");
		return -1;
	}
	for (int n = 0; n < LOOM_BLK_MAX_CHAIN; n++) {
		uint32_t type = fh_rd32(fh, off + LOOM_BLK_TYPE);

		if (type == LOOM_BLK_ADMIN)
			fh->off_admin = off;
		else if (type == LOOM_BLK_ROUTER)
			fh->off_router = off;
		else if (type == LOOM_BLK_PORTS)
			fh->off_ports = off;
		else if (type == LOOM_BLK_CTX)
			fh->off_ctx = off;
		else if (type == LOOM_BLK_DOORBELL)
			fh->db_area = fh_rd32(fh, off + LOOM_DOORBELL_AREA);
		off = fh_rd32(fh, off + LOOM_BLK_NEXT);
		if (!off)
			break;
		if (off >= fh->regs_size) {
			snprintf(err, errlen, "block chain points outside the window (0x%x)", off);
			return -1;
		}
	}
	if (!fh->off_admin || !fh->off_router || !fh->off_ports || !fh->off_ctx || !fh->db_area) {
		snprintf(err, errlen, "block chain lacks a required block");
		return -1;
	}
	return 0;
}

int fh_attach(struct fakehost *fh, const char *sock, const char *ram_path, int timeout_ms,
	      char *err, size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	uint64_t deadline = fh_now_ms() + (uint64_t)timeout_ms;
	int64_t val;
	int fd, shm_fd = -1, ram_fd;
	struct stat st;

	memset(fh, 0, sizeof(*fh));
	fh->sock = -1;
	for (int v = 0; v < LOOM_NUM_VECTORS; v++)
		fh->kick_fd[v] = fh->irq_fd[v] = -1;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock);
	for (;;) {
		fh->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (connect(fh->sock, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		close(fh->sock);
		fh->sock = -1;
		if (fh_now_ms() > deadline) {
			snprintf(err, errlen, "cannot connect to ivshmem socket %s: %s", sock,
				 strerror(errno));
			return -1;
		}
		usleep(20000);
	}
	/* version, own id, shm */
	if (fh_recv(fh->sock, &val, &fd) || val != 0 || fd >= 0)
		goto proto;
	if (fh_recv(fh->sock, &val, &fd) || val < 0 || fd >= 0)
		goto proto;
	fh->own_id = val;
	if (fh_recv(fh->sock, &val, &shm_fd) || val != -1 || shm_fd < 0)
		goto proto;
	for (int v = 0; v < LOOM_NUM_VECTORS; v++)
		if (fh_recv(fh->sock, &val, &fh->kick_fd[v]) || val != 0 || fh->kick_fd[v] < 0)
			goto proto;
	for (int v = 0; v < LOOM_NUM_VECTORS; v++)
		if (fh_recv(fh->sock, &val, &fh->irq_fd[v]) || val != fh->own_id || fh->irq_fd[v] < 0)
			goto proto;
	if (fstat(shm_fd, &st) < 0)
		goto proto;
	fh->regs_size = (size_t)st.st_size;
	fh->regs = mmap(NULL, fh->regs_size, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
	close(shm_fd);
	if (fh->regs == MAP_FAILED) {
		fh->regs = NULL;
		snprintf(err, errlen, "cannot map the register window: %s", strerror(errno));
		fh_detach(fh);
		return -1;
	}
	ram_fd = open(ram_path, O_RDWR | O_CLOEXEC);
	if (ram_fd < 0 || fstat(ram_fd, &st) < 0) {
		snprintf(err, errlen, "cannot open guest RAM %s: %s", ram_path, strerror(errno));
		if (ram_fd >= 0)
			close(ram_fd);
		fh_detach(fh);
		return -1;
	}
	fh->ram_size = (uint64_t)st.st_size;
	fh->ram = mmap(NULL, (size_t)fh->ram_size, PROT_READ | PROT_WRITE, MAP_SHARED, ram_fd, 0);
	close(ram_fd);
	if (fh->ram == MAP_FAILED) {
		fh->ram = NULL;
		snprintf(err, errlen, "cannot map guest RAM %s", ram_path);
		fh_detach(fh);
		return -1;
	}
	fh->bump = FH_RAM_FIRST;
	if (fh_walk_chain(fh, err, errlen)) {
		fh_detach(fh);
		return -1;
	}
	fh->seq = fh_rd32(fh, fh->off_admin + LOOM_ADMIN_ACK);
	return 0;
proto:
	snprintf(err, errlen, "ivshmem protocol from %s not as expected (value %lld)", sock,
		 (long long)val);
	if (fd >= 0)
		close(fd);
	if (shm_fd >= 0)
		close(shm_fd);
	fh_detach(fh);
	return -1;
}

int fh_attach_local(struct fakehost *fh, uint8_t *regs, size_t regs_size, uint8_t *ram,
		    uint64_t ram_size, void (*kick_fn)(void *, unsigned int),
		    void (*wait_fn)(void *, unsigned int, int), void *opaque, char *err,
		    size_t errlen)
{
	memset(fh, 0, sizeof(*fh));
	fh->sock = -1;
	for (int v = 0; v < LOOM_NUM_VECTORS; v++)
		fh->kick_fd[v] = fh->irq_fd[v] = -1;
	fh->local = true;
	fh->regs = regs;
	fh->regs_size = regs_size;
	fh->ram = ram;
	fh->ram_size = ram_size;
	fh->kick_fn = kick_fn;
	fh->wait_fn = wait_fn;
	fh->opaque = opaque;
	fh->bump = FH_RAM_FIRST;
	if (fh_walk_chain(fh, err, errlen))
		return -1;
	fh->seq = fh_rd32(fh, fh->off_admin + LOOM_ADMIN_ACK);
	return 0;
}

void fh_detach(struct fakehost *fh)
{
	if (fh->local) {	/* the caller owns the memory */
		fh->regs = NULL;
		fh->ram = NULL;
		return;
	}
	if (fh->sock >= 0)
		close(fh->sock);
	for (int v = 0; v < LOOM_NUM_VECTORS; v++) {
		if (fh->kick_fd[v] >= 0)
			close(fh->kick_fd[v]);
		if (fh->irq_fd[v] >= 0)
			close(fh->irq_fd[v]);
		fh->kick_fd[v] = fh->irq_fd[v] = -1;
	}
	if (fh->regs)
		munmap(fh->regs, fh->regs_size);
	if (fh->ram)
		munmap(fh->ram, (size_t)fh->ram_size);
	fh->regs = NULL;
	fh->ram = NULL;
	fh->sock = -1;
}

/* Wait for vector @v to fire or @ms to pass; drains the eventfd. */
static void fh_wait_irq(struct fakehost *fh, unsigned int v, int ms)
{
	struct pollfd pfd = { .fd = fh->irq_fd[v], .events = POLLIN };
	uint64_t n;

	if (fh->local) {
		fh->wait_fn(fh->opaque, v, ms);
		return;
	}
	if (poll(&pfd, 1, ms) > 0 && read(fh->irq_fd[v], &n, sizeof(n)) < 0) {
		/* nothing to drain */
	}
}

int fh_admin(struct fakehost *fh, uint32_t cmd, uint32_t arg0, int timeout_ms)
{
	uint64_t deadline = fh_now_ms() + (uint64_t)timeout_ms;
	uint32_t seq = ++fh->seq;

	fh_wr32(fh, fh->off_admin + LOOM_ADMIN_CMD, cmd);
	fh_wr32(fh, fh->off_admin + LOOM_ADMIN_ARG0, arg0);
	fh_wr32(fh, fh->off_admin + LOOM_ADMIN_SEQ, seq);
	fh_kick(fh, LOOM_KICK_ADMIN);
	while (fh_rd32(fh, fh->off_admin + LOOM_ADMIN_ACK) != seq) {
		if (fh_now_ms() > deadline)
			return -1;
		fh_wait_irq(fh, LOOM_VEC_ADMIN, 50);
	}
	return (int)fh_rd32(fh, fh->off_admin + LOOM_ADMIN_RESULT);
}

int fh_ctx_create(struct fakehost *fh, struct fh_ctx *ctx, unsigned int idx, uint32_t key,
		  unsigned int cmdq_log2, unsigned int cq_log2, uint64_t seg_size)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->fh = fh;
	ctx->idx = idx;
	ctx->key = key;
	ctx->cmdq_log2 = cmdq_log2;
	ctx->cq_log2 = cq_log2;
	ctx->seg_size = seg_size;
	ctx->vector = LOOM_VEC_CQ;
	ctx->cmdq = fh_alloc(fh, (uint64_t)LOOM_CMD_SIZE << cmdq_log2, 4096);
	ctx->cq = fh_alloc(fh, (uint64_t)LOOM_CQE_SIZE << cq_log2, 4096);
	ctx->seg = fh_alloc(fh, seg_size, 4096);
	if (!ctx->cmdq || !ctx->cq || !ctx->seg)
		return -1;
	memset(fh->ram + ctx->cq, 0, (size_t)LOOM_CQE_SIZE << cq_log2);
	ctx->segp = fh->ram + ctx->seg;
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_CMDQ_LO), (uint32_t)ctx->cmdq);
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_CMDQ_HI), (uint32_t)(ctx->cmdq >> 32));
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_CQ_LO), (uint32_t)ctx->cq);
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_CQ_HI), (uint32_t)(ctx->cq >> 32));
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_SEG_LO), (uint32_t)ctx->seg);
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_SEG_HI), (uint32_t)(ctx->seg >> 32));
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_SEG_SIZE_LO), (uint32_t)seg_size);
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_SEG_SIZE_HI), (uint32_t)(seg_size >> 32));
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_RINGS), cmdq_log2 | cq_log2 << 8);
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_KEY), key);
	fh_wr32(fh, fh_ctx_reg(fh, idx, LOOM_CTXR_VECTOR), ctx->vector);
	return fh_admin(fh, LOOM_ADMIN_CMD_CTX_ENABLE, idx, 5000);
}

bool fh_submit(struct fh_ctx *ctx, const struct loom_cmd *cmd)
{
	struct fakehost *fh = ctx->fh;
	uint32_t entries = 1u << ctx->cmdq_log2;
	uint32_t consumed = fh_rd32(fh, fh_ctx_reg(fh, ctx->idx, LOOM_CTXR_CMD_CI));

	if (ctx->pi - consumed >= entries)
		return false;
	memcpy(fh->ram + ctx->cmdq + (uint64_t)(ctx->pi & (entries - 1)) * LOOM_CMD_SIZE, cmd,
	       sizeof(*cmd));
	ctx->pi++;
	fh_wr32(fh, fh->db_area + ctx->idx * LOOM_DB_PAGE_SIZE + LOOM_DB_CMD_PI, ctx->pi);
	fh_kick(fh, LOOM_KICK_DOORBELL);
	return true;
}

int fh_poll_cqe(struct fh_ctx *ctx, struct loom_cqe *out)
{
	struct fakehost *fh = ctx->fh;
	uint32_t entries = 1u << ctx->cq_log2;
	uint8_t *slot = fh->ram + ctx->cq + (uint64_t)(ctx->ci & (entries - 1)) * LOOM_CQE_SIZE;
	uint32_t flags = __atomic_load_n((uint32_t *)(void *)(slot + offsetof(struct loom_cqe, flags)),
					 __ATOMIC_ACQUIRE);

	if ((flags & LOOM_CQE_PHASE) != loom_cq_phase(ctx->ci, ctx->cq_log2))
		return 0;
	memcpy(out, slot, sizeof(*out));
	ctx->ci++;
	fh_wr32(fh, fh->db_area + ctx->idx * LOOM_DB_PAGE_SIZE + LOOM_DB_CQ_CI, ctx->ci);
	fh_kick(fh, LOOM_KICK_DOORBELL);
	return 1;
}

int fh_wait_cqe(struct fh_ctx *ctx, struct loom_cqe *out, int timeout_ms)
{
	uint64_t deadline = fh_now_ms() + (uint64_t)timeout_ms;

	for (;;) {
		if (fh_poll_cqe(ctx, out))
			return 1;
		if (fh_now_ms() > deadline)
			return 0;
		fh_wait_irq(ctx->fh, ctx->vector, 20);
	}
}
