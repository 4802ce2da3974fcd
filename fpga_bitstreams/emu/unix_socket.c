// SPDX-License-Identifier: GPL-2.0
/*
 * UNIX stream socket helpers.
 */
#include "unix_socket.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int unix_sockaddr(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -1;
	memcpy(sa->sun_path, path, strlen(path) + 1);
	return 0;
}

/* Is somebody accepting connections on @sa? */
static int unix_in_use(const struct sockaddr_un *sa)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	int used;

	if (fd < 0)
		return 1;
	used = connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0 || errno != ECONNREFUSED;
	close(fd);
	return used;
}

int unix_listen(const char *path, int sock_flags, const char *what, char *err, size_t errlen)
{
	struct sockaddr_un sa;
	int fd, e;

	if (unix_sockaddr(path, &sa) < 0) {
		snprintf(err, errlen, "%s socket path %s is longer than %zu bytes", what, path,
			 sizeof(sa.sun_path) - 1);
		return -1;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | sock_flags, 0);
	if (fd < 0) {
		snprintf(err, errlen, "%s socket: %s", what, strerror(errno));
		return -1;
	}
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		if (errno != EADDRINUSE)
			goto fail;
		if (unix_in_use(&sa)) {
			errno = EADDRINUSE;
			goto fail;
		}
		unlink(path);	/* stale: its listener is gone */
		if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			goto fail;
	}
	if (listen(fd, 4) < 0)
		goto fail;
	return fd;
fail:
	e = errno;
	snprintf(err, errlen, "cannot listen on %s socket %s: %s%s", what, path, strerror(e),
		 e == EADDRINUSE ? " (another process listens there: stop it or pick another path)" : "");
	close(fd);
	return -1;
}
