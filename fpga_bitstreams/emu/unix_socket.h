/* SPDX-License-Identifier: GPL-2.0 */
/*
 * UNIX stream socket helpers shared by the ivshmem server and the cables.
 */
#ifndef LOOM_CARD_UNIX_SOCKET_H
#define LOOM_CARD_UNIX_SOCKET_H

#include <stddef.h>
#include <sys/un.h>

/* Fill @sa for @path; -1 if the path does not fit. */
int unix_sockaddr(const char *path, struct sockaddr_un *sa);

/*
 * Listen on @path (socket type flags @sock_flags, e.g. SOCK_NONBLOCK).  A
 * socket file nobody listens on any more (left by a killed process) is
 * replaced; one somebody listens on is an error.  Returns the fd, or -1
 * with a message naming @what and @path in @err.
 */
int unix_listen(const char *path, int sock_flags, const char *what, char *err, size_t errlen);

#endif
