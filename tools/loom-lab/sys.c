// SPDX-License-Identifier: GPL-2.0
/* loom-lab: small system-call helpers shared by the tool and its agent. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "frame.h"
#include "sys.h"

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				struct pollfd pfd = { .fd = fd, .events = POLLOUT };

				poll(&pfd, 1, 1000);
				continue;
			}
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_frame(int fd, uint8_t type, uint32_t chan, const void *p,
		uint32_t len)
{
	uint8_t buf[LAB_FRAME_MAX_SIZE];

	return write_all(fd, buf, lab_frame_encode(buf, type, chan, p, len));
}

int set_nonblock(int fd, int on)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -1;
	fl = on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK;
	return fcntl(fd, F_SETFL, fl);
}

int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

char *read_text_file(const char *path, size_t *lenp)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0;

	if (!f)
		return NULL;
	for (;;) {
		size_t n;

		if (cap - len < 4096) {
			char *nb = realloc(buf, cap + 65536);

			if (!nb) {
				free(buf);
				fclose(f);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
		if (n == 0)
			break;
	}
	fclose(f);
	buf[len] = 0;
	if (lenp)
		*lenp = len;
	return buf;
}
