// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side helper of test_distrust.sh: one operation on a loom device,
 * its outcome printed as "key=value" words for the script to check.
 *
 *   distrust_ops info DEVICE        DEV_INFO: "info=0 node=N logical=L" or
 *                                   "info=-ERRNO"
 *   distrust_ops create DEVICE      CTX_CREATE: "create=0 index=I" or
 *                                   "create=-ERRNO"
 *   distrust_ops destroy DEVICE     CTX_CREATE, then CTX_DESTROY, then close:
 *                                   "create=0 index=I destroy=0|-ERRNO"
 *   distrust_ops bsu-page DEVICE    CTX_CREATE with BSU unit 0, mmap of its
 *                                   page: "state=S word10=0xW" (STATE and the
 *                                   word at offset 0x10 of the mapped page)
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <linux/loom.h>
#include <loom_hw/regs.h>

static int ctx_create(int fd, uint32_t bsu_mask, struct loom_ctx_create *req)
{
	memset(req, 0, sizeof(*req));
	req->argsz = sizeof(*req);
	req->cmdq_entries = 16;
	req->cq_entries = 16;
	req->seg_size = 4096;
	req->bsu_mask = bsu_mask;
	return ioctl(fd, LOOM_IOC_CTX_CREATE, req) ? -errno : 0;
}

int main(int argc, char **argv)
{
	struct loom_ctx_create req;
	int fd, err;

	if (argc != 3) {
		fprintf(stderr, "usage: distrust_ops info|create|destroy|bsu-page DEVICE\n");
		return 2;
	}
	fd = open(argv[2], O_RDWR);
	if (fd < 0) {
		printf("open=-%d\n", errno);
		return 0;
	}
	if (!strcmp(argv[1], "info")) {
		struct loom_dev_info info = { .argsz = sizeof(info) };

		if (ioctl(fd, LOOM_IOC_DEV_INFO, &info))
			printf("info=-%d\n", errno);
		else
			printf("info=0 node=%u logical=%u\n", info.node_id, info.logical_id);
	} else if (!strcmp(argv[1], "create")) {
		err = ctx_create(fd, 0, &req);
		printf("create=%d index=%u\n", err, err ? 0 : req.index);
	} else if (!strcmp(argv[1], "destroy")) {
		struct loom_ctx_destroy d = { .argsz = sizeof(d) };

		err = ctx_create(fd, 0, &req);
		printf("create=%d index=%u", err, err ? 0 : req.index);
		if (!err) {
			d.index = req.index;
			printf(" destroy=%d", ioctl(fd, LOOM_IOC_CTX_DESTROY, &d) ? -errno : 0);
		}
		printf("\n");
	} else if (!strcmp(argv[1], "bsu-page")) {
		volatile uint32_t *page;

		err = ctx_create(fd, 1, &req);
		if (err) {
			printf("create=%d\n", err);
			return 0;
		}
		page = mmap(NULL, LOOM_BSU_PAGE_SIZE, PROT_READ, MAP_SHARED, fd,
			    (off_t)req.bsu_token);
		if (page == MAP_FAILED) {
			printf("mmap=-%d\n", errno);
			return 0;
		}
		printf("state=%u word10=%#x\n", page[LOOM_BSUP_STATE / 4], page[0x10 / 4]);
	} else {
		fprintf(stderr, "distrust_ops: unknown operation '%s'\n", argv[1]);
		return 2;
	}
	return 0;
}
