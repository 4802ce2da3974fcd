// SPDX-License-Identifier: GPL-2.0
/*
 * Cable endpoints: parsing, listening and connecting, for UNIX socket
 * paths and TCP addresses alike.
 */
#include "cable_socket.h"
#include "unix_socket.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CABLE_LISTEN_BACKLOG	4

static const struct {
	const char *prefix;
	bool listen;
	bool tcp;
} cable_forms[] = {
	{ "listen:", true, false },
	{ "connect:", false, false },
	{ "tcp-listen:", true, true },
	{ "tcp-connect:", false, true },
};

static bool only_digits_and_dots(const char *s)
{
	for (; *s; s++)
		if ((*s < '0' || *s > '9') && *s != '.')
			return false;
	return true;
}

/* ADDR:PORT of a tcp-listen: or tcp-connect: endpoint into a->sa. */
static int cable_parse_tcp(struct cable_addr *a, char *err, size_t errlen)
{
	const char *w = a->where, *h_start, *h_end, *colon;
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
	char host[256], *end;
	bool bracketed = *w == '[';
	unsigned long port;
	int rc;

	if (bracketed) {
		h_start = w + 1;
		h_end = strchr(w, ']');
		if (!h_end) {
			snprintf(err, errlen, "'%s': '[' without ']' (an IPv6 address goes in brackets: [::1]:PORT)", w);
			return -1;
		}
		colon = h_end + 1;
		if (*colon != ':') {
			snprintf(err, errlen, "'%s': expected ':PORT' after ']'", w);
			return -1;
		}
	} else {
		colon = strrchr(w, ':');
		if (!colon) {
			snprintf(err, errlen, "'%s': expected ADDR:PORT, e.g. 127.0.0.1:7000", w);
			return -1;
		}
		h_start = w;
		h_end = colon;
		if (memchr(w, ':', (size_t)(colon - w))) {
			snprintf(err, errlen, "'%s': an IPv6 address goes in brackets: [ADDR]:PORT", w);
			return -1;
		}
	}
	if (h_end == h_start) {
		snprintf(err, errlen, a->listen ?
			 "'%s': no address before the port (0.0.0.0 listens on every interface, 127.0.0.1 on this machine only)" :
			 "'%s': no host before the port", w);
		return -1;
	}
	if ((size_t)(h_end - h_start) >= sizeof(host)) {
		snprintf(err, errlen, "'%s': the host is longer than %zu characters", w, sizeof(host) - 1);
		return -1;
	}
	memcpy(host, h_start, (size_t)(h_end - h_start));
	host[h_end - h_start] = 0;

	errno = 0;
	port = strtoul(colon + 1, &end, 10);
	if (colon[1] < '0' || colon[1] > '9' || *end || errno || port < 1 || port > 65535) {
		snprintf(err, errlen, "'%s': port '%s' is not a number from 1 to 65535", w, colon + 1);
		return -1;
	}

	/* a numeric address is checked as one, never looked up as a name */
	if (bracketed) {
		struct in6_addr a6;

		if (inet_pton(AF_INET6, host, &a6) != 1) {
			snprintf(err, errlen, "'%s': '%s' is not an IPv6 address", w, host);
			return -1;
		}
		hints.ai_family = AF_INET6;
		hints.ai_flags |= AI_NUMERICHOST;
	} else if (only_digits_and_dots(host)) {
		struct in_addr a4;

		if (inet_pton(AF_INET, host, &a4) != 1) {
			snprintf(err, errlen, "'%s': '%s' is not an IPv4 address (four numbers 0..255 with dots)",
				 w, host);
			return -1;
		}
		hints.ai_family = AF_INET;
		hints.ai_flags |= AI_NUMERICHOST;
	}
	hints.ai_flags |= AI_NUMERICSERV | (a->listen ? AI_PASSIVE : 0);
	rc = getaddrinfo(host, colon + 1, &hints, &res);
	if (rc) {
		snprintf(err, errlen, "'%s': cannot resolve '%s': %s", w, host,
			 rc == EAI_SYSTEM ? strerror(errno) : gai_strerror(rc));
		return -1;
	}
	memcpy(&a->sa, res->ai_addr, res->ai_addrlen);
	a->salen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int cable_parse(const char *spec, struct cable_addr *a, char *err, size_t errlen)
{
	size_t n = sizeof(cable_forms) / sizeof(cable_forms[0]), i;

	memset(a, 0, sizeof(*a));
	for (i = 0; i < n; i++)
		if (!strncmp(spec, cable_forms[i].prefix, strlen(cable_forms[i].prefix)))
			break;
	if (i == n) {
		snprintf(err, errlen,
			 "'%s' must start with listen: or connect: (a UNIX socket path) or tcp-listen: or tcp-connect: (a TCP address)",
			 spec);
		return -1;
	}
	if (strlen(spec) >= sizeof(a->text)) {
		snprintf(err, errlen, "the endpoint is longer than %zu characters", sizeof(a->text) - 1);
		return -1;
	}
	memcpy(a->text, spec, strlen(spec) + 1);
	a->listen = cable_forms[i].listen;
	a->tcp = cable_forms[i].tcp;
	a->where = a->text + strlen(cable_forms[i].prefix);
	if (!*a->where) {
		snprintf(err, errlen, a->tcp ? "empty TCP address after '%s' (expected ADDR:PORT)" :
			 "empty socket path after '%s'", cable_forms[i].prefix);
		return -1;
	}
	if (a->tcp)
		return cable_parse_tcp(a, err, errlen);
	if (unix_sockaddr(a->where, (struct sockaddr_un *)&a->sa) < 0) {
		snprintf(err, errlen, "socket path longer than %zu bytes",
			 sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
		return -1;
	}
	a->salen = sizeof(struct sockaddr_un);
	return 0;
}

int cable_listen(const struct cable_addr *a, char *err, size_t errlen)
{
	int fd, one = 1, e;

	if (!a->tcp)
		return unix_listen(a->where, SOCK_NONBLOCK, "cable", err, errlen);
	fd = socket(a->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "cable %s: socket: %s", a->text, strerror(errno));
		return -1;
	}
	/* a restarted card takes its port back while old connections linger */
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (const struct sockaddr *)&a->sa, a->salen) == 0 &&
	    listen(fd, CABLE_LISTEN_BACKLOG) == 0)
		return fd;
	e = errno;
	snprintf(err, errlen, "cannot listen on cable %s: %s%s", a->text, strerror(e),
		 e == EADDRINUSE ? " (another process listens there: stop it or pick another port)" :
		 e == EADDRNOTAVAIL ? " (not an address of this machine)" : "");
	close(fd);
	return -1;
}

int cable_connect(const struct cable_addr *a, bool *done)
{
	int fd = socket(a->sa.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), e;

	*done = false;
	if (fd < 0)
		return -1;
	if (connect(fd, (const struct sockaddr *)&a->sa, a->salen) == 0) {
		*done = true;
		return fd;
	}
	if (errno == EINPROGRESS)
		return fd;
	e = errno;
	close(fd);
	errno = e;
	return -1;
}

int cable_connect_result(int fd)
{
	int e = 0;
	socklen_t len = sizeof(e);

	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) < 0)
		return errno;
	return e;
}

void cable_tune(const struct cable_addr *a, int fd)
{
	int one = 1;

	/* frames are small and latency-bound: never hold one back */
	if (a->tcp)
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}
