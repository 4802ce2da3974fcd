/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fake host for native tests: attaches to a loom-card's ivshmem socket
 * exactly as QEMU does (receives the register window memfd and the
 * eventfds), owns the guest-RAM file the card DMAs into, allocates rings
 * and segments in it with a bump allocator, drives the admin mailbox and
 * rings kicks.  Test scaffolding only: the real driver is kmod/.
 */
#ifndef LOOM_TESTS_FAKEHOST_H
#define LOOM_TESTS_FAKEHOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <loom_hw/regs.h>
#include <loom_hw/ring.h>

struct fakehost {
	int sock;
	uint8_t *regs;
	size_t regs_size;
	int kick_fd[LOOM_NUM_VECTORS];	/* the card's: we write to kick it */
	int irq_fd[LOOM_NUM_VECTORS];	/* ours: the card raises them */
	int64_t own_id;
	uint8_t *ram;
	uint64_t ram_size;
	uint64_t bump;
	uint32_t off_admin, off_router, off_ports, off_ctx, db_area;
	uint32_t seq;
	/* in-process card (fh_attach_local): doorbells and waits are calls */
	bool local;
	void (*kick_fn)(void *opaque, unsigned int vector);
	/* let the card run until vector @vector fires or about @ms pass */
	void (*wait_fn)(void *opaque, unsigned int vector, int ms);
	void *opaque;
	unsigned long wo_reads;	/* reads of write-only registers (a bug) */
};

struct fh_ctx {
	struct fakehost *fh;
	unsigned int idx;
	uint64_t cmdq, cq, seg, seg_size;
	unsigned int cmdq_log2, cq_log2;
	uint32_t key;
	uint32_t vector;
	uint32_t pi;		/* commands produced */
	uint32_t ci;		/* completions consumed */
	uint8_t *segp;		/* segment as the host sees it */
};

/* Create (or truncate) a guest-RAM file of @size bytes; 0 or -errno. */
int fh_create_ram(const char *path, uint64_t size);
/*
 * Attach to the card serving @sock (retry up to @timeout_ms while it is not
 * listening yet), map @ram_path.  Returns 0, or -1 with a message in @err.
 */
int fh_attach(struct fakehost *fh, const char *sock, const char *ram_path, int timeout_ms,
	      char *err, size_t errlen);
void fh_detach(struct fakehost *fh);
/*
 * Drive a card in this process: its register window @regs and host memory
 * @ram are the caller's; kicks call @kick_fn, waits call @wait_fn.
 */
int fh_attach_local(struct fakehost *fh, uint8_t *regs, size_t regs_size, uint8_t *ram,
		    uint64_t ram_size, void (*kick_fn)(void *, unsigned int),
		    void (*wait_fn)(void *, unsigned int, int), void *opaque, char *err,
		    size_t errlen);

/*
 * Read a register.  Reading a write-only one (a doorbell) is a bug of the
 * harness or the test, as it would be of a driver: it is logged and
 * counted in fh->wo_reads, and the fabric's teardown fails on it.
 */
uint32_t fh_rd32(struct fakehost *fh, uint32_t off);
void fh_wr32(struct fakehost *fh, uint32_t off, uint32_t v);
void fh_kick(struct fakehost *fh, unsigned int vector);
uint32_t fh_port_reg(const struct fakehost *fh, unsigned int port, uint32_t field);
uint32_t fh_ctx_reg(const struct fakehost *fh, unsigned int idx, uint32_t field);
/* Bump-allocate @size bytes of guest RAM aligned to @align; 0 when full. */
uint64_t fh_alloc(struct fakehost *fh, uint64_t size, uint64_t align);

/* Run an admin command; returns LOOM_ADMIN_E_* or -1 on timeout. */
int fh_admin(struct fakehost *fh, uint32_t cmd, uint32_t arg0, int timeout_ms);
/* Allocate rings and segment, fill the record, enable; admin result or -1. */
int fh_ctx_create(struct fakehost *fh, struct fh_ctx *ctx, unsigned int idx, uint32_t key,
		  unsigned int cmdq_log2, unsigned int cq_log2, uint64_t seg_size);
/* Write one descriptor, publish it and kick; false if the ring is full. */
bool fh_submit(struct fh_ctx *ctx, const struct loom_cmd *cmd);
/* The next completion if there is one now: 1 with *out filled, else 0. */
int fh_poll_cqe(struct fh_ctx *ctx, struct loom_cqe *out);
/* Next completion within @timeout_ms: 1 with *out filled, 0 on timeout. */
int fh_wait_cqe(struct fh_ctx *ctx, struct loom_cqe *out, int timeout_ms);

/* Milliseconds on the monotonic clock. */
uint64_t fh_now_ms(void);

#endif
