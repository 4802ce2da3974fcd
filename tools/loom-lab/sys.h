/* SPDX-License-Identifier: GPL-2.0 */
/* loom-lab: small system-call helpers shared by the tool and its agent. */
#ifndef LOOM_LAB_SYS_H
#define LOOM_LAB_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Writes all of buf, waiting in poll() when fd is non-blocking; 0 or -1. */
int write_all(int fd, const void *buf, size_t len);
/* Writes one frame to fd with write_all(); 0 or -1. */
int write_frame(int fd, uint8_t type, uint32_t chan, const void *p,
		uint32_t len);
int set_nonblock(int fd, int on);
/* Monotonic clock in milliseconds. */
int64_t now_ms(void);
/* Reads a whole (small) file into a NUL-terminated malloc'd buffer. */
char *read_text_file(const char *path, size_t *len);

#endif
