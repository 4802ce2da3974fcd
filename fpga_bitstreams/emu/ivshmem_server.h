/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QEMU ivshmem-doorbell server, with the card as peer 0.
 *
 * Protocol (UNIX stream socket; each message one little-endian int64,
 * optionally with one fd as SCM_RIGHTS): version 0; the client's id (1);
 * -1 with the shared memory fd; peer 0's id once per vector with the
 * eventfd that vector rings on the card; the client's id once per vector
 * with the eventfd the client is interrupted on.  The card reads its own
 * eventfds (guest kicks) and writes the client's (MSI-X vectors).  One
 * client at a time.
 */
#ifndef LOOM_CARD_IVSHMEM_SERVER_H
#define LOOM_CARD_IVSHMEM_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/un.h>

#include <loom_hw/regs.h>

#define IVS_CARD_PEER_ID	0
#define IVS_CLIENT_ID		1

struct ivshmem_server {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int lfd;		/* listening socket */
	int cfd;		/* the client (QEMU), -1 if none */
	int shm_fd;		/* memfd: the register window */
	uint8_t *shm;
	size_t shm_size;
	int kick_fd[LOOM_NUM_VECTORS];	/* peer 0's: the guest rings these */
	int irq_fd[LOOM_NUM_VECTORS];	/* the client's: we ring these */
};

/* Create the shared memory and listen on @path; false with @err set. */
bool ivs_open(struct ivshmem_server *s, const char *path, size_t shm_size,
	      char *err, size_t errlen);
/* Accept a pending client and send it the protocol; returns its fd or -1. */
int ivs_accept(struct ivshmem_server *s, char *err, size_t errlen);
/* Forget the client: close its socket and the eventfds. */
void ivs_drop_client(struct ivshmem_server *s);
/* Raise the client's vector @v (MSI-X in the guest). */
void ivs_raise(struct ivshmem_server *s, unsigned int v);
/* Consume pending kicks on vector @v; returns true if there were any. */
bool ivs_take_kick(struct ivshmem_server *s, unsigned int v);
/* Close everything and unlink the socket path. */
void ivs_close(struct ivshmem_server *s);

#endif
