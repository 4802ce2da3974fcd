// SPDX-License-Identifier: GPL-2.0
/*
 * ivshmem-doorbell server protocol, card side.
 */
#include "ivshmem_server.h"
#include "unix_socket.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

bool ivs_open(struct ivshmem_server *s, const char *path, size_t shm_size,
	      char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->lfd = s->cfd = s->shm_fd = -1;
	for (unsigned int v = 0; v < LOOM_NUM_VECTORS; v++)
		s->kick_fd[v] = s->irq_fd[v] = -1;
	s->shm_fd = memfd_create("loom-card-regs", MFD_CLOEXEC);
	if (s->shm_fd < 0 || ftruncate(s->shm_fd, (off_t)shm_size) < 0) {
		snprintf(err, errlen, "cannot create the %zu-byte register window (memfd): %s",
			 shm_size, strerror(errno));
		goto fail;
	}
	s->shm = mmap(NULL, shm_size, PROT_READ | PROT_WRITE, MAP_SHARED, s->shm_fd, 0);
	if (s->shm == MAP_FAILED) {
		s->shm = NULL;
		snprintf(err, errlen, "cannot map the register window: %s", strerror(errno));
		goto fail;
	}
	s->shm_size = shm_size;
	s->lfd = unix_listen(path, SOCK_NONBLOCK, "ivshmem", err, errlen);
	if (s->lfd < 0)
		goto fail;
	memcpy(s->path, path, strlen(path) + 1);
	return true;
fail:
	ivs_close(s);
	return false;
}

static int ivs_send(int fd, int64_t value, int passfd)
{
	struct iovec iov = { .iov_base = &value, .iov_len = sizeof(value) };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (passfd >= 0) {
		struct cmsghdr *cm;

		memset(&u, 0, sizeof(u));
		msg.msg_control = u.buf;
		msg.msg_controllen = sizeof(u.buf);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &passfd, sizeof(int));
	}
	return sendmsg(fd, &msg, MSG_NOSIGNAL) == (ssize_t)sizeof(value) ? 0 : -1;
}

int ivs_accept(struct ivshmem_server *s, char *err, size_t errlen)
{
	int fd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
	int ok;

	if (fd < 0) {
		snprintf(err, errlen, "accept on %s: %s", s->path, strerror(errno));
		return -1;
	}
	if (s->cfd >= 0) {
		snprintf(err, errlen, "refused a second ivshmem client on %s (one VM per card)",
			 s->path);
		close(fd);
		return -1;
	}
	for (unsigned int v = 0; v < LOOM_NUM_VECTORS; v++) {
		s->kick_fd[v] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		s->irq_fd[v] = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		if (s->kick_fd[v] < 0 || s->irq_fd[v] < 0) {
			snprintf(err, errlen, "eventfd: %s", strerror(errno));
			s->cfd = fd;
			ivs_drop_client(s);
			return -1;
		}
	}
	/* the client's socket stays blocking while we send: messages are tiny */
	ok = ivs_send(fd, 0, -1) == 0 &&
	     ivs_send(fd, IVS_CLIENT_ID, -1) == 0 &&
	     ivs_send(fd, -1, s->shm_fd) == 0;
	for (unsigned int v = 0; ok && v < LOOM_NUM_VECTORS; v++)
		ok = ivs_send(fd, IVS_CARD_PEER_ID, s->kick_fd[v]) == 0;
	for (unsigned int v = 0; ok && v < LOOM_NUM_VECTORS; v++)
		ok = ivs_send(fd, IVS_CLIENT_ID, s->irq_fd[v]) == 0;
	s->cfd = fd;
	if (!ok) {
		snprintf(err, errlen, "sending the ivshmem protocol to the client failed: %s",
			 strerror(errno));
		ivs_drop_client(s);
		return -1;
	}
	return fd;
}

void ivs_drop_client(struct ivshmem_server *s)
{
	if (s->cfd >= 0)
		close(s->cfd);
	s->cfd = -1;
	for (unsigned int v = 0; v < LOOM_NUM_VECTORS; v++) {
		if (s->kick_fd[v] >= 0)
			close(s->kick_fd[v]);
		if (s->irq_fd[v] >= 0)
			close(s->irq_fd[v]);
		s->kick_fd[v] = s->irq_fd[v] = -1;
	}
}

void ivs_raise(struct ivshmem_server *s, unsigned int v)
{
	uint64_t one = 1;

	if (v < LOOM_NUM_VECTORS && s->irq_fd[v] >= 0 &&
	    write(s->irq_fd[v], &one, sizeof(one)) < 0) {
		/* counter saturated: an interrupt is pending anyway */
	}
}

bool ivs_take_kick(struct ivshmem_server *s, unsigned int v)
{
	uint64_t n;

	return s->kick_fd[v] >= 0 && read(s->kick_fd[v], &n, sizeof(n)) == (ssize_t)sizeof(n);
}

void ivs_close(struct ivshmem_server *s)
{
	ivs_drop_client(s);
	if (s->lfd >= 0) {
		close(s->lfd);
		s->lfd = -1;
		if (s->path[0])
			unlink(s->path);
	}
	if (s->shm)
		munmap(s->shm, s->shm_size);
	s->shm = NULL;
	if (s->shm_fd >= 0)
		close(s->shm_fd);
	s->shm_fd = -1;
}
