/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-fm: routing engines behind one interface.  An engine fills the
 * routing table (output port per node and destination) and the VC model
 * (start VCs, datelines, port dimensions) of a struct fm_routes.
 */
#ifndef LOOM_FM_ENGINE_H
#define LOOM_FM_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "graph.h"
#include "routes.h"

struct fm_engine_opts {
	bool datelines;		/* dor: one dateline per torus ring (default on) */
	int root;		/* updown: root of the spanning tree (default 0) */
	bool adaptive;		/* minhop: adaptive entries where several minimal
				 * ports exist; updown on a fat tree: adaptive
				 * up-routes (default on; off: in-order delivery)
				 */
	bool tie_split;		/* dor: a half-way tie on a ring of 4 or more goes +
				 * from odd coordinates, - from even ones (default
				 * on; off: every tie goes +)
				 */
	bool vc_balance;	/* dor with datelines: start VCs chosen for VC
				 * balance (default on; off: all VC0, time of
				 * crossing)
				 */
	int deroutes;		/* omniwar: M, the deroutes a packet may take
				 * (default 1): N + M distance classes
				 */
	int generic_vcs;	/* omniwar: the routers' generic VCs (VC k carries
				 * distance class k); 0 (default): the card's VC
				 * model, LOOM_RT_OMNI_CARD_CLASSES classes
				 */
};

struct fm_engine {
	const char *name;
	const char *summary;
	/* 0, or -1 with a message in err when the engine cannot route g at all */
	int (*compute)(const struct fm_graph *g, const struct fm_engine_opts *o,
		       struct fm_routes *r, char *err, size_t errlen);
	/*
	 * Whether compute() fills any block of the tables (routes_new_block())
	 * with exactly the entries it gives that block in the whole tables
	 * (each entry depends only on the graph, the options and its node
	 * and destination); NULL: the whole tables only.
	 */
	bool (*blocks)(const struct fm_graph *g, const struct fm_engine_opts *o);
};

extern const struct fm_engine fm_engine_dor;
extern const struct fm_engine fm_engine_minhop;
extern const struct fm_engine fm_engine_updown;
extern const struct fm_engine fm_engine_dimwar;
extern const struct fm_engine fm_engine_omniwar;
extern const struct fm_engine fm_engine_dragonfly;
extern const struct fm_engine fm_engine_valiant;
extern const struct fm_engine fm_engine_ugal;

/* NULL-terminated list of all engines, in the order --help shows them. */
extern const struct fm_engine *const fm_engines[];

const struct fm_engine *engine_find(const char *name);
/* "dor, minhop, ...": every engine's name, in fm_engines' order. */
const char *engine_names(void);
/*
 * The dor engine's port dimensions and, on a torus with datelines, its
 * dateline bits and uses_vcs; minhop's escape paths use the same.
 */
void engine_dor_model(const struct fm_graph *g, const struct fm_engine_opts *o,
		      struct fm_routes *r);
void engine_default_opts(struct fm_engine_opts *o);
/*
 * The engines of HyperX shapes (dimwar, omniwar): 0 if @g is one with at
 * most LOOM_MAX_PORTS network ports (the VC table's port entries name the
 * deroutes' dimensions), else -1 with the reason in @err.
 */
int engine_hyperx_only(const char *engine, const struct fm_graph *g, char *err, size_t errlen);
/* The minimal hops of every pair of a HyperX shape into r->hops_left. */
void engine_hyperx_hops(const struct fm_graph *g, struct fm_routes *r);
/* --ties split|plus and --vc-assign balanced|crossing: 0, or -1 for another value */
int engine_parse_ties(const char *v, struct fm_engine_opts *o);
int engine_parse_vc_assign(const char *v, struct fm_engine_opts *o);
/* The engine for @g when none is named: dor on grids and HyperX, dragonfly, else updown. */
const char *engine_default_name(const struct fm_graph *g);

/* Allocate tables and run the engine; NULL with a message in err. */
struct fm_routes *engine_run(const struct fm_engine *e, const struct fm_graph *g,
			     const struct fm_engine_opts *o, char *err, size_t errlen);
/* Whether engine_run_block() can run @e on @g with @o. */
bool engine_can_block(const struct fm_engine *e, const struct fm_graph *g,
		      const struct fm_engine_opts *o);
/*
 * The block of the tables of nodes [row_lo, row_hi) toward destinations
 * [dest_lo, dest_hi), as engine_run() gives those entries; NULL with a
 * message in err (an engine that computes only whole tables, ENOMEM).
 */
struct fm_routes *engine_run_block(const struct fm_engine *e, const struct fm_graph *g,
				   const struct fm_engine_opts *o, int row_lo, int row_hi,
				   int dest_lo, int dest_hi, char *err, size_t errlen);

#endif
