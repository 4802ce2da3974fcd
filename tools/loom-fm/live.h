/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm live mode: discover, configure and watch the fabric through
 * the local card's maintenance network (live.c parses the command line,
 * configure.c computes and programs, watch.c reacts to failures).
 */
#ifndef LOOM_FM_LIVE_H
#define LOOM_FM_LIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"
#include "fabric.h"
#include "logical.h"
#include "maint.h"
#include "program.h"
#include "transition.h"

struct live_opts {
	uint32_t dev;			/* N of /dev/loomN */
	const char *topology;		/* expected cables, or NULL */
	const char *groups;		/* multicast group file, or NULL */
	const char *shape;		/* expected shape (gives dor its coordinates), or NULL */
	const char *engine;		/* NULL: dor with --shape, else updown */
	struct fm_engine_opts eopts;
	bool json, verbose, once;
	enum fm_logical_policy logical;	/* --logical (default identity) */
	bool logical_given;
	bool force;			/* program even without a deadlock-free order */
	int interval_ms;		/* watch: poll every so often */
	int timeout_s;			/* watch: give up after (0 = never) */
	uint32_t maint_timeout_ms, maint_retries;
};

/* What one configuration round did (configure.c). */
struct live_result {
	const char *engine;		/* engine whose tables were programmed */
	int cards, cables, failed_ports;
	long routes_changed, written, reads, verified;
	int cards_changed;
	long ms;
	enum fm_transition_how how;	/* the programming order chosen */
	long states_checked;
	int nsteps;
	struct fm_step order[2 * FM_MAX_NODES];
};

/*
 * Discover, compute, check and program.  fallback: when the engine's
 * tables are incomplete or cyclic on the fabric as it is, use updown
 * instead (watch); else refuse.  log_changes: print each changed entry.
 * The discovered fabric is left in *fab.  Returns 0 programmed, 1 refused
 * (check failed; nothing written), -1 a maintenance or system error (the
 * message is printed).
 */
int live_configure(struct fm_maint *m, const struct live_opts *o, bool fallback,
		   bool log_changes, struct fm_fabric *fab, struct live_result *res);

/* The watch loop (watch.c); an exit status. */
struct fm_nl;
int live_watch(struct fm_nl *nl, const struct live_opts *o);

/* Milliseconds on the monotonic clock. */
long live_now_ms(void);

/* Entry point from main.c: argv[0] is the command (discover, configure, watch). */
int live_main(int argc, char **argv);

#endif
