/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The emulator's control socket (--ctl PATH): a UNIX stream socket taking
 * one-line text commands for run-time fault injection and statistics, and
 * answering each with one line, "ok ..." or "error: ...".  Documented in
 * Documentation/emulator.rst.
 */
#ifndef LOOM_CARD_CTL_H
#define LOOM_CARD_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "clock.h"
#include "event.h"
#include "port.h"

#define CTL_LINE_MAX	256	/* longest command line, newline included */
#define CTL_REPLY_MAX	2048
#define CTL_MAX_CLIENTS	8
#define CTL_READ_CHUNK	256	/* input bytes taken per read */
#define CTL_OUT_MAX	(64 * 1024)	/* answers waiting for a slow client */
#define CTL_OUT_PER_BYTE 64	/* answer bytes one input byte can cause, at most */

struct ctl_client {
	int fd;
	struct ev_handler ev;
	struct ctl_server *srv;
	char line[CTL_LINE_MAX];
	size_t len;
	bool overlong;		/* discarding the rest of a too long line */
	char out[CTL_OUT_MAX];	/* answers not yet taken by the client */
	size_t out_len;
	uint32_t armed;		/* epoll events requested */
};

struct ctl_server {
	int lfd;
	int epfd;
	char path[108];
	struct port_set *ports;
	struct card *card;
	const struct emu_clock *clk;
	struct ev_handler lev;
	struct ctl_client client[CTL_MAX_CLIENTS];
};

/*
 * Execute one command line (no newline) against @ps and the emulator's
 * clock @clk (NULL outside a running emulator: "clock" is refused);
 * writes the one-line answer, without newline, to @out.  Never fails: bad
 * commands get "error: ...".
 */
void ctl_execute(struct port_set *ps, const struct emu_clock *clk, const char *line,
		 char *out, size_t len);

/* Listen on @path; false with a message in @err. */
bool ctl_open(struct ctl_server *s, const char *path, int epfd, struct port_set *ps,
	      struct card *c, const struct emu_clock *clk, char *err, size_t errlen);
/* Close every client and the socket; remove the socket file. */
void ctl_close(struct ctl_server *s);

#endif
