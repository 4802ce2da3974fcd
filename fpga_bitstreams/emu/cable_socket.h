/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cable endpoints: where a network port listens or connects.  A cable is a
 * stream socket, either a UNIX socket path (cards on one machine) or a TCP
 * address (cards on different machines):
 *
 *   listen:PATH            connect:PATH
 *   tcp-listen:ADDR:PORT   tcp-connect:HOST:PORT
 *
 * ADDR and HOST are an IPv4 address, an IPv6 address in brackets
 * ([::1]:7000) or a host name; PORT is 1..65535.  Names are resolved once,
 * when the endpoint is parsed.
 */
#ifndef LOOM_CARD_CABLE_SOCKET_H
#define LOOM_CARD_CABLE_SOCKET_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/* "tcp-connect:" + a host name (255) + ":65535", and every UNIX path */
#define CABLE_ADDR_TEXT_MAX	288

struct cable_addr {
	bool listen;			/* listen (accept one peer) or connect */
	bool tcp;			/* TCP, else a UNIX socket path */
	char text[CABLE_ADDR_TEXT_MAX];	/* the endpoint as given, for messages */
	const char *where;		/* the PATH or ADDR:PORT part of text */
	struct sockaddr_storage sa;
	socklen_t salen;
};

/*
 * Parse @spec (one of the four forms above) into @a.  Returns 0, or -1
 * with a message in @err that says what is wrong with which part.
 */
int cable_parse(const char *spec, struct cable_addr *a, char *err, size_t errlen);

/*
 * A non-blocking listening socket for @a.  A UNIX socket file left by a
 * dead listener is replaced; a TCP address may be reused at once after a
 * restart.  Returns the fd, or -1 with a message in @err.
 */
int cable_listen(const struct cable_addr *a, char *err, size_t errlen);

/*
 * Start a non-blocking connect to @a.  Returns the fd with *@done true
 * when connected, with *@done false while the connection is in progress
 * (wait for EPOLLOUT, then cable_connect_result()), or -1 with errno set.
 */
int cable_connect(const struct cable_addr *a, bool *done);

/* 0 when the connect in progress on @fd succeeded, else its errno. */
int cable_connect_result(int fd);

/* Settings of a connected cable socket (TCP: no Nagle delay). */
void cable_tune(const struct cable_addr *a, int fd);

#endif
