/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Native fabric harness: starts loom-card processes (fork/exec, pids
 * tracked), one fake host per card, and tears everything down at exit,
 * on SIGINT/SIGTERM and on its own watchdog alarm: cards killed, sockets,
 * /dev/shm guest-RAM files and the temporary directory removed.
 */
#ifndef LOOM_TESTS_FABRIC_H
#define LOOM_TESTS_FABRIC_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "fakehost.h"

#define FABRIC_MAX_CARDS	16
#define FABRIC_RAM_SIZE		(64u << 20)	/* guest RAM per card, by default */
#define FABRIC_RAM_SIZE_BIG	(16u << 20)	/* per card in fabrics of more than 8 */

struct fabric {
	unsigned int n;
	uint64_t ram_size;	/* guest RAM of the cards started next */
	bool lax_registers;	/* start cards without --strict-registers (figures) */
	bool sanitized_card;	/* start the card built with ASan/UBSan (bad-input tests) */
	bool tcp_cables;	/* rings cabled over TCP on 127.0.0.1, not UNIX sockets */
	int tcp_port[FABRIC_MAX_CARDS];	/* card i's listening port, with tcp_cables */
	char dir[64];
	pid_t pid[FABRIC_MAX_CARDS];
	char ram[FABRIC_MAX_CARDS][96];
	char sock[FABRIC_MAX_CARDS][128];
	char log[FABRIC_MAX_CARDS][128];
	char ctl[FABRIC_MAX_CARDS][128];	/* control socket, if started with one */
	struct fakehost fh[FABRIC_MAX_CARDS];
};

/*
 * Create the temporary directory, arm cleanup and a watchdog of
 * @watchdog_s seconds (the test fails, and cleans up, if it hangs).
 * Cards get FABRIC_RAM_SIZE of guest RAM unless f->ram_size is changed
 * before they start (16 cards of 64 MiB would fill a small /dev/shm).
 */
int fabric_init(struct fabric *f, unsigned int watchdog_s);
/* Start card @i with @extra (NULL-terminated) after the common options. */
int fabric_start_card(struct fabric *f, unsigned int i, const char *const *extra);
/* Attach fake host @i to card @i; 0 or -1 with a diagnostic printed. */
int fabric_attach(struct fabric *f, unsigned int i);
/*
 * Ring of @n cards as the VM lab cables it: port 0 of node i to port 1 of
 * node i+1, shortest-direction routes, both ports in dimension 0 with the
 * wrap-around channels (node n-1 port 0, node 0 port 1) as datelines;
 * waits until every link is up.
 */
int fabric_start_ring(struct fabric *f, unsigned int n);
/*
 * The same ring, every card also with a control socket (--ctl, path in
 * f->ctl[i]) and the options @extra (NULL-terminated, may be NULL).  With
 * f->tcp_cables, port 0 of card i listens on 127.0.0.1:f->tcp_port[i]
 * (a port free when the ring starts) and port 1 connects there.
 */
int fabric_start_ring_ctl(struct fabric *f, unsigned int n, const char *const *extra);
/*
 * 2-ary n-cube torus of 2^@ndims cards (@ndims 3: the 2x2x2 torus) with
 * 2 * @ndims ports each: port 2d of card i is cabled to port 2d+1 of card
 * i ^ (1 << d) (two cables per dimension, the wrap-around one included).
 * Every card has a control socket (f->ctl[i]) and NO routing table entry
 * but its own: only the maintenance network reaches the other cards.
 * Waits until every link is up.
 */
int fabric_start_torus2(struct fabric *f, unsigned int ndims);
/*
 * Send one command line to card @i's control socket and read the one-line
 * answer (without newline) into @reply.  0, or -1 with a diagnostic.
 */
int fabric_ctl(struct fabric *f, unsigned int i, const char *cmd, char *reply, size_t len);
/* Value of "key=" in a stats answer, or -1 if absent. */
long long fabric_stat(const char *stats, const char *key);
/* Wait until port @port of card @i reports LOOM_PORT_ST_UP. */
int fabric_wait_link(struct fabric *f, unsigned int i, unsigned int port, int timeout_ms);
/* Is card @i still running? */
int fabric_card_alive(struct fabric *f, unsigned int i);
/* Print the tail of card @i's log as TAP diagnostics. */
void fabric_dump_log(struct fabric *f, unsigned int i);
/* Stop everything and remove every file; safe to call twice. */
void fabric_stop(void);
/*
 * The loom-card binary: $LOOM_CARD, else with @sanitized the card built
 * with the sanitizers (loom-card-asan beside the test), else the plain
 * card ($(BUILD)/bin/loom-card, the one users run).  Tests whose point is
 * bad input reaching the card (malformed frames, descriptors, options,
 * control commands) set f->sanitized_card before starting cards; the
 * others run the plain card, which costs a third of the CPU.
 */
void fabric_card_bin(char *out, size_t len, bool sanitized);
/*
 * The program @rel names relative to the test's own directory
 * (build/tests/emu), e.g. "../../bin/loom-sim"; @fallback (a name found
 * on PATH) when the path would not fit @len.
 */
void fabric_tool_bin(char *out, size_t len, const char *rel, const char *fallback);
/* Path of a file in the fabric's directory. */
void fabric_path(struct fabric *f, char *out, size_t len, const char *name);

#endif
