/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-sim: a network simulator that steps the card's own cycle-level
 * router (fpga_bitstreams/router) in a fabric built from a loom-fm graph,
 * programmed with the tables loom-fm's engines compute, as they would be
 * written to the cards.  Documented in Documentation/sim/loom-sim.rst.
 *
 * One struct sim holds a run: the routers (one per graph node, network
 * ports as in the graph, the host port last where the node has a
 * terminal), a channel line per directed cable, a terminal per node that
 * has one (a Bernoulli source and a sink on the host port), the traffic
 * pattern and the statistics of the measurement window.
 */
#ifndef LOOM_SIM_SIM_H
#define LOOM_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "link/link_params.h"
#include "link/link_unit.h"
#include "link/link_wire.h"
#include "router/chan_line.h"
#include "router/router.h"

#include "engine.h"
#include "fabric.h"
#include "graph.h"
#include "routes.h"

#include "partition.h"
#include "replay.h"
#include "rng.h"
#include "tables.h"
#include "traffic.h"

#define SIM_HIST_BINS	65536	/* exact latency histogram, cycles 0..65535 */
#define SIM_MAX_HOPS	LOOM_PKT_MAX_HOPS
#define SIM_PROGRESS_CYCLES	1024

struct sim;
struct sim_dist;

/* What a run is: everything the command line sets. */
#define SIM_MAX_SIZES	8	/* sizes of a --packet-flits distribution */

struct sim_config {
	const char *topology;		/* a shape (torus:4x4) or a topology file */
	const char *engine;		/* loom-fm engine; NULL: dor for shapes, updown for files */
	struct fm_engine_opts engine_opts;
	bool allow_deadlock;		/* run a routing whose CDG has a cycle */
	const char *router;		/* preset: card, xbar, fbx */
	const char *params[32];		/* NAME=VALUE overrides, applied in order */
	int nparams;
	unsigned int link_latency;	/* cycles per channel line */
	/*
	 * The cables as the card has them (NULL: channel lines of
	 * link_latency cycles): a link unit (link/link_unit.h) with these
	 * parameters at each end of an in-process wire (link/link_wire.h),
	 * FLIT_BYTES, VCS and BUF_DEPTH taken from the router, wired to the
	 * router's ports and clocked as the card clocks them (card_step).
	 * The links train from cycle 0; a router's port is up once its link
	 * is.  Scheduled runs only (sim_inject_set), on one rank.
	 */
	const struct link_params *card_links;
	/*
	 * Routing entries of the simulated cards (ROUTER RT_ENTRIES), at
	 * least the fabric's nodes (each a logical id); 0: the nodes rounded
	 * up to FM_RT_SPAN, the table loom-fm manages.
	 */
	unsigned int rt_entries;
	const char *pattern;
	double load;			/* offered flits per node per cycle */
	/*
	 * On/off (bursty) injection: mean cycles on and off, both 0 for
	 * Bernoulli.  Each terminal alternates geometric on and off periods
	 * and creates packets only while on, at the rate that makes the
	 * average load.
	 */
	double burst_on, burst_off;
	unsigned int packet_flits;	/* 0: the smallest packet the flit width allows */
	/* a size distribution instead (n_sizes >= 2): flits and relative weights */
	unsigned int n_sizes;
	unsigned int sizes[SIM_MAX_SIZES], size_weight[SIM_MAX_SIZES];
	uint64_t seed;
	uint64_t warmup, measure, drain_max;
	uint64_t deadlock_cycles;	/* no delivery this long with packets inside: deadlock */
	/*
	 * Request/response traffic (requests.c): SIM_PUT sends one-way PUTs;
	 * SIM_GET and SIM_AMO send small requests that every destination
	 * answers with a response of response_flits flits, each terminal with
	 * at most outstanding requests in flight and a response queue of
	 * resp_queue packets; merged: responses travel in the request class.
	 */
	enum sim_requests { SIM_PUT, SIM_GET, SIM_AMO } requests;
	unsigned int response_flits;	/* 0: the smallest packet */
	unsigned int outstanding;
	unsigned int resp_queue;
	bool merged_classes;
	bool no_skip;			/* clock every router every cycle (checks the active set) */
	bool own_tables;		/* every router's tables in their own memory (tables.h) */
	FILE *trace;			/* a line per delivered packet, or NULL */
	/*
	 * Recorded traces to replay instead of the pattern (replay.h); with
	 * measure 0 the measurement lasts until the last recorded request.
	 */
	const char *replay[SIM_MAX_REPLAY];
	int nreplay;
	/*
	 * A run spread over ranks (dist.c, the MPI variant): this process
	 * steps the nodes the partition (partition.h) gives rank @rank of
	 * @ranks; NULL dist: one process, every node (a process of ranks > 1
	 * without dist builds one rank's share, as the unit tests do).
	 */
	const struct sim_dist *dist;
	int rank, ranks;
	enum sim_partition_kind partition;
	/*
	 * Scheduled injection (sim_inject_set): called for every packet whose
	 * head is on the host input wires of @node in cycle @cycle (@ejected
	 * false), and whose tail is on the host output wires of @node in
	 * cycle @cycle (@ejected true), with the header as it was sent and
	 * as it arrived.
	 */
	void (*packet_fn)(void *opaque, int node, const uint8_t *hdr, uint64_t cycle,
			  bool ejected);
	void *packet_opaque;
	/*
	 * Scheduled packets carry their scheduled cycle in header bytes
	 * 32..39, as generated ones their creation (--inject-schedule,
	 * schedule.h): their latency, hops, flits and --trace lines are
	 * measured as a generated packet's.
	 */
	bool inject_measured;
	/*
	 * Scheduled runs: another implementation of the router clocked instead
	 * of the model (the Verilated RTL), or NULL.  The model's routers then
	 * only hold the wires: cycle() reads router @node's inputs of this
	 * cycle there (router_in()->fwd, router_out()->back) and drives its
	 * outputs of the next (router_out()->fwd, router_in()->back), one
	 * clock edge; port_up() follows a link that trained or went down.
	 * Idle cycles are not skipped.
	 */
	const struct sim_router_ops *router_ops;
	void *router_opaque;
	/* called every SIM_PROGRESS_CYCLES cycles and at the end (done), or NULL */
	void (*progress)(const struct sim *s, bool done);
};

void sim_config_default(struct sim_config *c);

struct sim_pkt {
	uint64_t created;
	uint64_t req_created;		/* a response: its request's creation */
	uint32_t dst;
	uint16_t flits;
	uint8_t type;			/* enum loom_pkt_type */
	uint8_t resp_flits;		/* a replayed request: its answer's size; 0: the default */
};

/* A ring of packets: the source queue (grows) or the response queue (fixed). */
struct sim_queue {
	struct sim_pkt *q;
	uint32_t cap, head, len;
};

/* Flits the sink holds on one VC (not yet credited to the router), a ring. */
struct sim_eject {
	struct flit *f;			/* [BUF_DEPTH] */
	uint32_t head, len;
};

struct sim_router_ops {
	void (*cycle)(void *opaque, int node, struct router *wires);
	void (*port_up)(void *opaque, int node, unsigned int port, bool up);
};

/*
 * A packet of a scheduled injection: its header (the payload is zeros of
 * the length the header gives) is to be on the host input wires of router
 * @node from cycle @cycle on.
 */
struct sim_inject {
	uint64_t cycle;
	int node;
	uint8_t hdr[LOOM_PKT_HDR_SIZE];
};

/*
 * A terminal of a scheduled injection, registered as the card's host
 * port is (card/hostport.c): its outputs of cycle t + 1 are set at the
 * edge of cycle t from the router's host wires of cycle t.
 */
struct sim_injector {
	size_t next, end;		/* its packets: s->inj_order[next..end) */
	bool sending;
	unsigned int flit, flits;	/* of the packet on the wire */
	struct flit out;		/* to the router's host input, next cycle */
	struct chan_back back;		/* to the router's host output, next cycle */
};

struct sim_term {
	struct sim_rng rng;
	struct chan *in, *out;		/* its router's host port: router_in(), router_out() */
	uint64_t next_gen;		/* the cycle of the next packet's creation */
	uint64_t on_end;		/* on/off: first cycle after the current on period */
	struct sim_queue src;		/* requests (or PUTs) created, not yet sent */
	struct sim_queue resp;		/* responses to send */
	struct sim_queue *sending;	/* the queue whose head packet is going out */
	unsigned int flit;		/* next flit of that packet */
	unsigned int outstanding;	/* requests sent, their response not yet back */
	unsigned int credits[CHAN_VCS_MAX];	/* of the router's host input */
	uint8_t rx_hdr[CHAN_VCS_MAX][LOOM_PKT_HDR_SIZE];
	unsigned int rx_flits[CHAN_VCS_MAX];	/* flits of the open packet per VC */
	struct sim_eject ej[CHAN_VCS_MAX];	/* request/response runs: held flits */
	struct sim_injector inj;		/* scheduled injection */
};

/* A directed channel; its chan_line lives apart, so the stepper's walks
 * over the channels stay in few cache lines.  A cut channel joins nodes of
 * two ranks: its chan_line is not used, each side moves its own half. */
struct sim_line {
	int a, pa, b, pb;		/* (a, pa) sends to (b, pb) */
	bool cut;
	uint64_t stamp;			/* last cycle stepped + 1 */
	struct chan_line *line;
	struct chan *tx, *rx;		/* not cut: router_out(a, pa), router_in(b, pb) */
};

struct sim_latency {
	uint64_t packets, sum, min, max;
};

struct sim_stats {
	uint64_t created, created_flits;	/* in the window */
	uint64_t delivered_flits;		/* ejected in the window */
	uint64_t measured_done;			/* window packets delivered */
	uint64_t hops_sum;
	struct sim_latency all;
	struct sim_latency by_hops[SIM_MAX_HOPS + 1];
	uint64_t *hist;				/* [SIM_HIST_BINS]; the last bin: beyond */
	uint64_t total_created, total_delivered, misdelivered;
	uint64_t drops[ROUTE_DROP_REASONS];
	uint64_t *chan_flits;			/* [node * ports + port] in the window */
	uint64_t requests;			/* window requests sent or queued */
	struct sim_latency rtt;			/* round trips of the window requests */
	uint64_t *rtt_hist;			/* [SIM_HIST_BINS], request runs only */
};

/* What crosses a cut channel in one step: a flit forward or credits back. */
struct sim_msg {
	uint32_t line;			/* index in sim.lines */
	uint8_t credits;		/* 1: back (credits), 0: forward (a flit) */
	uint64_t at;			/* the step it leaves the line: entry + latency */
	struct flit f;			/* forward: the flit; back: f.data[0..VCS) the credits */
};

/* A run over ranks: exchange and reduction between the ranks (dist.c). */
struct sim_dist {
	/*
	 * At a step boundary (a multiple of the link latency): send every
	 * rank what its side of the cut channels needs (s->out[rank]) and
	 * receive into s->in, sorted by step.  0 or -1 with @err.
	 */
	int (*exchange)(struct sim *s, char *err, size_t errlen);
	/* Sum @sum[0..nsum) and take the maximum of @max over the ranks, in place. */
	void (*allreduce)(int64_t *sum, int nsum, uint64_t *max);
	/* OR @bits[0..nbits) and @bytes[0..nbytes) over the ranks, in place. */
	void (*or_bits)(uint64_t *bits, size_t nbits, unsigned char *bytes, size_t nbytes);
	/* After the run: every rank's statistics and trace lines into rank 0's. */
	int (*gather)(struct sim *s, char *err, size_t errlen);
};

/* The MPI variant (dist.c). */
extern const struct sim_dist sim_mpi_dist;
/*
 * Every rank's trace lines (@buf, @len) to rank 0, written to @out in the
 * order one process writes them; 0 or -1.  Collective.
 */
int sim_mpi_trace(const char *buf, size_t len, FILE *out);

struct sim_msgs {
	struct sim_msg *m;
	size_t n, cap;
};

struct sim {
	struct sim_config cfg;
	struct fm_graph *g;
	struct fm_routes *routes;
	const char *engine_name;
	/*
	 * sim_build() failed the same way on every rank (a bad configuration,
	 * a refusal the ranks reached together); otherwise a failure may be
	 * this rank's alone (memory, a table block) and the others wait
	 */
	bool refused_alike;
	/*
	 * The routers: a terminal's (params) has its network ports and the
	 * host port, the last; a switch's (switch_params: a node without a
	 * terminal, e.g. a fat tree's) the graph's network ports and no host
	 * port, so that a switch may have all 64 ports a router takes.  The
	 * common parameters (VCs, flits, buffers, stages) are the same.
	 */
	struct router_params params, switch_params;
	int nodes, ports;			/* the graph's network ports per node */
	/*
	 * The network ports of a terminal's router: the graph's, or, beside
	 * switches, the ports the terminals' cables use (a fat tree's card: 1)
	 */
	int term_ports;
	int terminals;				/* nodes 0..terminals - 1 send and receive */
	unsigned int packet_flits, payload;	/* one size: its flits and payload bytes */
	double mean_flits;			/* of the size distribution */
	uint64_t size_cum[SIM_MAX_SIZES];	/* cumulative weights, n_sizes >= 2 */
	unsigned int inject_vc;			/* requests and PUTs */
	unsigned int resp_vc;			/* responses */
	unsigned int response_flits;
	struct sim_traffic traffic;
	struct sim_replay *replay;		/* [terminals] with --replay, else NULL */
	uint64_t replay_end;			/* the cycle after the last replayed request */
	/*
	 * The tables of this process's routers (row row[node], in the order
	 * of mine[]), as loom-fm's plan writes them (tables.h); the cards the
	 * plan describes, while building.
	 */
	struct sim_tables tables;
	unsigned int rt_entries;
	struct route_view *views;
	struct fm_card *cards;
	struct router **r;
	struct sim_term *term;
	struct sim_line *lines;			/* [node * ports + port], a < 0: uncabled */
	struct chan_line *line_store;		/* their chan_lines, same index */
	/* card links: a unit per cabled (node, port), a wire per cable */
	struct link_unit *lu;			/* [node * ports + port] */
	bool *lu_up;				/* as the router was last told */
	struct link_wire *wires;
	int nwires;
	/* scheduled injection: the packets (sim_inject_set) by node, in order */
	const struct sim_inject *inj;
	size_t *inj_order, n_inj;
	/* the partition: every node's rank, this process's nodes (ascending) and their rows */
	int *owner;				/* [node] */
	int *mine, nmine;
	int *row;				/* [node]: its row here, or -1 */
	char partition_how[64];			/* "torus boxes 1x2x2", "blocks of ids" */
	struct sim_partition_quality part;
	int *cuts, ncuts;			/* cut lines with an end here */
	struct sim_msgs *out;			/* [ranks]: to send at the next boundary */
	struct sim_msgs in;			/* received, by step */
	size_t in_next;
	/* the active set */
	uint64_t now;
	int *act, nact, *act_next, nact_next;
	uint64_t *listed;			/* [node]: cycle + 1 it is listed for */
	int *pending, npending;			/* routers waiting for a stage or timer */
	bool *in_pending;
	uint64_t *wake;
	int *busy, nbusy, *busy_next, nbusy_next;
	uint64_t router_cycles;			/* router edges clocked */
	/*
	 * Per rank, after the run: the least and most router edges a rank
	 * clocked and CPU seconds it spent in sim_run(), and the CPU
	 * seconds of all (one process: its own)
	 */
	struct sim_rank_spread {
		uint64_t cycles_min, cycles_max;
		double cpu_min, cpu_max, cpu_sum;
	} spread;
	/* progress */
	int64_t in_network;			/* injected (head sent), not yet delivered;
						 * per rank, may be negative */
	uint64_t last_delivery;
	uint64_t window;			/* cycles of the window run so far */
	bool deadlocked;
	char deadlock_cycle[1024];		/* the waits that close, or "" */
	struct sim_stats st;
};

/* The rank that steps @node. */
static inline int sim_rank_of(const struct sim *s, int node)
{
	return s->owner[node];
}

/* Has @node a terminal (a source and a sink on its router's host port)? */
static inline bool sim_has_terminal(const struct sim *s, int node)
{
	return node < s->terminals;
}

/* The network ports of @node's router (ports 0..n-1 of the graph's). */
static inline int sim_router_ports(const struct sim *s, int node)
{
	return sim_has_terminal(s, node) ? s->term_ports : s->ports;
}

/* The router port of @node's host, or -1: a switch has none. */
static inline int sim_host_port(const struct sim *s, int node)
{
	return sim_has_terminal(s, node) ? s->term_ports : -1;
}

/* The mask of @node's network ports (a router has at most 64 ports). */
static inline uint64_t sim_net_mask(const struct sim *s, int node)
{
	int n = sim_router_ports(s, node);

	return n >= 64 ? ~0ull : (1ull << n) - 1;
}

/* Does this process step @node? */
static inline bool sim_here(const struct sim *s, int node)
{
	return s->row[node] >= 0;
}

/*
 * Build the fabric of @c: topology, routes, checks (every destination
 * reachable; no channel dependency cycle unless allowed), tables, routers,
 * lines, terminals.  0, or -1 with a message in @err (the bad input named).
 */
int sim_build(struct sim *s, const struct sim_config *c, char *err, size_t errlen);
void sim_free(struct sim *s);
/*
 * Replace the traffic of the built run @s by @n packets @v (kept by the
 * caller until the run ends), each injected at its node from its cycle
 * on, in order per node, as the card's host port injects (the whole
 * packet once its VC has credits for all of it, one flit per cycle);
 * the VC is the card's for the header's class (any other router: VC 0).
 * Nothing is answered; each packet's events go to cfg.packet_fn.  The
 * run lasts until every packet is delivered (or the drain or deadlock
 * limits); every router, link and terminal is clocked in every cycle in
 * which anything can change.  Needs card_links.  0, or -1 with @err (no
 * card links, a node out of range, cycles out of order within a node, a
 * bad header length).
 */
int sim_inject_set(struct sim *s, const struct sim_inject *v, size_t n, char *err,
		   size_t errlen);

/* Step cycles until the run is over (see sim_run in step.c); 0 or -1 with @err. */
int sim_run(struct sim *s, char *err, size_t errlen);

/* CPU seconds this process has spent. */
double sim_cpu_seconds(void);

/* Latency percentile @q (0..1) of the measured packets, from the histogram. */
uint64_t sim_percentile(const struct sim *s, double q);
/* The same over the round trips of the measured requests. */
uint64_t sim_rtt_percentile(const struct sim *s, double q);

/* Request/response runs (requests.c). */
const char *sim_requests_name(enum sim_requests r);
/* Is @type a request its destination answers? */
bool sim_is_request(uint8_t type);
/* Is @type a response, going back to its requester? */
bool sim_is_response(uint8_t type);
/*
 * Fill the LOOM_PKT_HDR_SIZE bytes of @h with a packet header of this
 * simulator: @type, traffic class @cls, @payload bytes, from terminal
 * @src to @dst, created at cycle @created (in 'offset', where the
 * simulator reads it back at delivery); every other byte zero.
 */
void sim_header(uint8_t *h, uint8_t type, uint8_t cls, unsigned int payload, unsigned int dst,
		unsigned int src, uint64_t created);
/* The response type answering request @type. */
uint8_t sim_response_type(uint8_t type);
/* Whether terminals answer requests: --requests get or amo, or a replay. */
bool sim_answers(const struct sim *s);
/* Check the request options and set the VCs and sizes; 0 or -1 with @err. */
int sim_requests_build(struct sim *s, char *err, size_t errlen);

/*
 * After a deadlock (deadlock.c): follow what each full input buffer waits
 * for (the downstream buffer of the output VC it holds or wants, or the
 * terminal behind its host output, which waits for its own host input)
 * until a wait repeats; the cycle goes to s->deadlock_cycle as
 * "NODE:PORT/vcN -> ... -> term N (...) -> ..." ("" if no cycle closes).
 */
void sim_find_wait_cycle(struct sim *s);

/* The results: text, CSV (a header and one row) or JSON. */
enum sim_format { SIM_TEXT, SIM_CSV, SIM_JSON };
void sim_report(FILE *out, const struct sim *s, enum sim_format f, const char *cmdline,
		double seconds, bool channels);
/* @v as a JSON string, quoted and escaped. */
void sim_json_string(FILE *out, const char *v);

/*
 * Saturation throughput by bisection over the load (saturation.c): the
 * probes and the result on @out; with @plot (a file prefix, or NULL) the
 * probes' latency-throughput curve too; 0, or -1 with @err.
 */
int sim_saturation(const struct sim_config *c, FILE *out, enum sim_format f,
		   const char *cmdline, const char *plot, char *err, size_t errlen);

/*
 * Figures by gnuplot (plot.c), each PREFIX-NAME.png and PREFIX-NAME.svg;
 * 0, or -1 with @err (gnuplot missing or failing, a bad prefix).
 * channels: the utilisation of every channel of the window, a heat map of
 * routers by output ports.  latency: average latency and accepted load
 * against the offered load, one point per run, in order of load.
 */
struct sim_curve_point {
	double offered, accepted, latency;
};

/* Before a run: the prefix is usable and gnuplot is there; 0 or -1 with @err. */
int sim_plot_ready(const char *prefix, char *err, size_t errlen);
int sim_plot_channels(const struct sim *s, const char *prefix, const char *title, char *err,
		      size_t errlen);
int sim_plot_curve(const struct sim_curve_point *pt, int n, const char *prefix,
		   const char *title, char *err, size_t errlen);

/*
 * The seeds' figures rerun (validate.c): a table per experiment on @out,
 * one line per row with the paper's value, loom's and the verdict (or
 * CSV, JSON); @quick: the small subset.  Returns the rows that failed.
 */
int sim_validate(FILE *out, enum sim_format f, bool quick);

#endif
