/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A TCP port on 127.0.0.1 that nobody listens on right now, for tests
 * that cable cards over TCP on loopback.  Free when returned: another
 * process may take it before the test binds it, which the test then sees
 * as a port in use.
 */
#ifndef LOOM_TESTS_TCP_PORT_H
#define LOOM_TESTS_TCP_PORT_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

/* The port, or -1 if none could be found. */
static inline int tcp_free_port(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port = -1;

	if (fd >= 0 && bind(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 &&
	    getsockname(fd, (struct sockaddr *)&sa, &len) == 0)
		port = ntohs(sa.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

#endif
