// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl stats: the card's per (port, VC) counters and its drops by cause
 * (a LOOM_CMD_STATS_GET dump).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "loomctl.h"

static const char lc_stats_usage[] =
"DESCRIPTION\n"
"    One row per (port, VC) of the COUNTERS register block: packets and\n"
"    bytes sent on the output VC, packets received, credit stalls\n"
"    (cycles a packet at the output waited for a credit: the port's\n"
"    total, in the row of VC 0), adaptive and deterministic routing\n"
"    choices, packets discarded because the port was disabled (fault\n"
"    mask) or dead/down; these counters are 32 bits wide and wrap.  On a\n"
"    card with performance counters (the PERF register block, read as one\n"
"    snapshot taken at a single clock edge, 64 bits wide) each row also\n"
"    has the input buffer's occupancy now and its high-water mark in\n"
"    flits, the cycles the input VC's ready head or flits could not move\n"
"    (stall_cycles), and the cycles a packet waited only for the output\n"
"    VC's credits (credit_starved); the host port's VCs get rows of their\n"
"    own (host).  Rows whose values are all zero are left out unless\n"
"    \"all\" is given; \"port PORT\" (or \"port host\") shows one port.\n"
"    Then, with performance counters, one row per router port: flits and\n"
"    packets received and sent; and the router line: clock cycles since\n"
"    reset, the clock in kHz, VC-allocation conflicts (requests that lost)\n"
"    and switch-allocation conflicts (arbitrations with more than one\n"
"    requester).  Last, the card-wide drops by cause: requests of another\n"
"    partition (key), outside the segment, no running context, no route,\n"
"    hop limit, malformed, maintenance packets lost, and barrier packets\n"
"    of another partition (bsu_key).  VC numbers are the LOOM_VC_* of\n"
"    <loom_hw/packet.h>.\n"
"\n"
"FIELDS (text and JSON)\n"
"    dev; per row (JSON: the array counters): port vc host tx_pkts\n"
"    tx_bytes rx_pkts credit_stalls adaptive deterministic drops_disabled\n"
"    drops_dead occupancy occupancy_max stall_cycles credit_starved;\n"
"    per port (JSON: the array ports): port host flits_in flits_out\n"
"    pkts_in pkts_out; the router (JSON: the object router, null without\n"
"    performance counters): cycles clock_khz va_conflicts sa_conflicts;\n"
"    the drops by cause (JSON: the object drops): key bounds no_ctx\n"
"    no_route hop_limit malformed maint_lost bsu_key\n"
"\n"
"    Text:  dev loom0\n"
"               port 0 vc 0 tx_pkts 12 tx_bytes 3456 rx_pkts 12 ...\n"
"               port 2 vc 0 host occupancy 0 occupancy_max 19 ...\n"
"               port 0 flits_in 228 flits_out 228 pkts_in 12 pkts_out 12\n"
"               router: cycles 123456 clock_khz 250000 va_conflicts 0 ...\n"
"               drops: key 0 bounds 0 no_ctx 0 no_route 0 ...\n";

struct lc_stats_col {
	int attr;
	const char *json;
	bool wide;	/* u64 (else u32) */
};

static const struct lc_stats_col lc_stats_cols[] = {
	{ LOOM_ATTR_STATS_TX_PKTS, "tx_pkts", true },
	{ LOOM_ATTR_STATS_TX_BYTES, "tx_bytes", true },
	{ LOOM_ATTR_STATS_RX_PKTS, "rx_pkts", true },
	{ LOOM_ATTR_STATS_CREDIT_STALLS, "credit_stalls", true },
	{ LOOM_ATTR_STATS_ADAPTIVE, "adaptive", true },
	{ LOOM_ATTR_STATS_DETERMINISTIC, "deterministic", true },
	{ LOOM_ATTR_STATS_DROPS_DISABLED, "drops_disabled", true },
	{ LOOM_ATTR_STATS_DROPS_DEAD, "drops_dead", true },
	{ LOOM_ATTR_STATS_OCCUPANCY, "occupancy", false },
	{ LOOM_ATTR_STATS_OCCUPANCY_MAX, "occupancy_max", false },
	{ LOOM_ATTR_STATS_STALL_CYCLES, "stall_cycles", true },
	{ LOOM_ATTR_STATS_CREDIT_STARVED, "credit_starved", true },
};

static const struct lc_stats_col lc_perf_port_cols[] = {
	{ LOOM_ATTR_PERF_PORT_FLITS_IN, "flits_in", true },
	{ LOOM_ATTR_PERF_PORT_FLITS_OUT, "flits_out", true },
	{ LOOM_ATTR_PERF_PORT_PKTS_IN, "pkts_in", true },
	{ LOOM_ATTR_PERF_PORT_PKTS_OUT, "pkts_out", true },
};

static const struct lc_stats_col lc_perf_cols[] = {
	{ LOOM_ATTR_PERF_CYCLES, "cycles", true },
	{ LOOM_ATTR_PERF_CLOCK_KHZ, "clock_khz", false },
	{ LOOM_ATTR_PERF_VA_CONFLICTS, "va_conflicts", true },
	{ LOOM_ATTR_PERF_SA_CONFLICTS, "sa_conflicts", true },
};

#define LC_N(a) (sizeof(a) / sizeof((a)[0]))

/* Print the columns of @cols present in @tb (a card without PERF has fewer). */
static void lc_stats_print_cols(struct nlattr **tb, const struct lc_stats_col *cols, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!tb[cols[i].attr])
			continue;
		lc_print_uint(LC_PRINT_ANY, cols[i].json,
			      cols[i].wide ? lc_get_u64(tb, cols[i].attr) :
					     lc_get_u32(tb, cols[i].attr));
	}
}

/* Are all columns of @cols in @tb zero (or absent)? */
static bool lc_stats_zero(struct nlattr **tb, const struct lc_stats_col *cols, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (tb[cols[i].attr] && (cols[i].wide ? lc_get_u64(tb, cols[i].attr) :
					 lc_get_u32(tb, cols[i].attr)))
			return false;
	return true;
}

static const struct {
	int attr;
	const char *json;
} lc_drops_cols[] = {
	{ LOOM_ATTR_DROPS_KEY, "key" },
	{ LOOM_ATTR_DROPS_BOUNDS, "bounds" },
	{ LOOM_ATTR_DROPS_NO_CTX, "no_ctx" },
	{ LOOM_ATTR_DROPS_NO_ROUTE, "no_route" },
	{ LOOM_ATTR_DROPS_HOP_LIMIT, "hop_limit" },
	{ LOOM_ATTR_DROPS_MALFORMED, "malformed" },
	{ LOOM_ATTR_DROPS_MAINT_LOST, "maint_lost" },
	{ LOOM_ATTR_DROPS_BSU_KEY, "bsu_key" },
};

/* Where the dump is: which JSON list is open. */
enum lc_stats_part {
	LC_STATS_ROWS,		/* the array counters */
	LC_STATS_PORTS,		/* the array ports */
	LC_STATS_ROUTER,	/* both closed, router printed */
	LC_STATS_DONE,		/* drops printed */
};

struct lc_stats_out {
	bool all;
	bool one_port;		/* only port @port (or the host port: @host) */
	bool host;
	uint32_t port;
	unsigned int rows;
	enum lc_stats_part part;
};

/* Does the filter keep the record of @port (@host: the host port's)? */
static bool lc_stats_keep(const struct lc_stats_out *out, uint32_t port, bool host)
{
	if (!out->one_port)
		return true;
	return out->host ? host : !host && port == out->port;
}

/* Move the JSON lists to @part: close the array counters, open/close ports. */
static void lc_stats_enter(struct lc_stats_out *out, enum lc_stats_part part)
{
	if (out->part == LC_STATS_ROWS && part > LC_STATS_ROWS) {
		lc_print_close_array(LC_PRINT_JSON);
		if (!out->rows)
			lc_print_text("no traffic counted (stats show all shows the zero rows)");
		lc_print_open_array(LC_PRINT_JSON, "ports");
		out->part = LC_STATS_PORTS;
	}
	if (out->part == LC_STATS_PORTS && part > LC_STATS_PORTS) {
		lc_print_close_array(LC_PRINT_JSON);
		out->part = LC_STATS_ROUTER;
	}
}

static int lc_stats_row(struct lc_stats_out *out, struct nlattr *nest)
{
	struct nlattr *s[LOOM_ATTR_STATS_MAX + 1];
	uint32_t port;
	bool host;

	if (lc_nl_parse_nest(s, LOOM_ATTR_STATS_MAX, nest, lc_stats_policy))
		return -EPROTO;
	port = lc_get_u32(s, LOOM_ATTR_STATS_PORT);
	host = s[LOOM_ATTR_STATS_HOST] != NULL;
	if (out->part != LC_STATS_ROWS)
		return -EPROTO;	/* a row after the ports: not the documented order */
	if (!lc_stats_keep(out, port, host) ||
	    (lc_stats_zero(s, lc_stats_cols, LC_N(lc_stats_cols)) && !out->all))
		return 0;
	lc_print_open_object(NULL);
	lc_print_uint(LC_PRINT_ANY, "port", port);
	lc_print_uint(LC_PRINT_ANY, "vc", lc_get_u32(s, LOOM_ATTR_STATS_VC));
	lc_print_bool(LC_PRINT_ANY, "host", host);
	lc_stats_print_cols(s, lc_stats_cols, LC_N(lc_stats_cols));
	lc_print_close_object();
	out->rows++;
	return 0;
}

static int lc_stats_perf_port(struct lc_stats_out *out, struct nlattr *nest)
{
	struct nlattr *p[LOOM_ATTR_PERF_PORT_MAX + 1];
	uint32_t port;
	bool host;

	if (lc_nl_parse_nest(p, LOOM_ATTR_PERF_PORT_MAX, nest, lc_perf_port_policy))
		return -EPROTO;
	if (out->part > LC_STATS_PORTS)
		return -EPROTO;
	lc_stats_enter(out, LC_STATS_PORTS);
	port = lc_get_u32(p, LOOM_ATTR_PERF_PORT_INDEX);
	host = p[LOOM_ATTR_PERF_PORT_HOST] != NULL;
	if (!lc_stats_keep(out, port, host))
		return 0;
	lc_print_open_object(NULL);
	lc_print_uint(LC_PRINT_ANY, "port", port);
	lc_print_bool(LC_PRINT_ANY, "host", host);
	lc_stats_print_cols(p, lc_perf_port_cols, LC_N(lc_perf_port_cols));
	lc_print_close_object();
	return 0;
}

static int lc_stats_perf(struct lc_stats_out *out, struct nlattr *nest)
{
	struct nlattr *r[LOOM_ATTR_PERF_MAX + 1];

	if (lc_nl_parse_nest(r, LOOM_ATTR_PERF_MAX, nest, lc_perf_policy))
		return -EPROTO;
	if (out->part > LC_STATS_PORTS)
		return -EPROTO;
	lc_stats_enter(out, LC_STATS_ROUTER);
	lc_print_open_object("router");
	lc_print_text("router:");
	lc_stats_print_cols(r, lc_perf_cols, LC_N(lc_perf_cols));
	lc_print_close_object();
	return 0;
}

static int lc_stats_drops(struct lc_stats_out *out, struct nlattr *nest)
{
	struct nlattr *d[LOOM_ATTR_DROPS_MAX + 1];
	size_t i;

	if (lc_nl_parse_nest(d, LOOM_ATTR_DROPS_MAX, nest, lc_drops_policy))
		return -EPROTO;
	if (out->part == LC_STATS_DONE)
		return -EPROTO;
	if (out->part != LC_STATS_ROUTER) {
		/* a card without performance counters */
		lc_stats_enter(out, LC_STATS_ROUTER);
		lc_print_null(LC_PRINT_JSON, "router");
	}
	lc_print_open_object("drops");
	lc_print_text("drops:");
	for (i = 0; i < LC_N(lc_drops_cols); i++)
		lc_print_uint(LC_PRINT_ANY, lc_drops_cols[i].json,
			      lc_get_u64(d, lc_drops_cols[i].attr));
	lc_print_close_object();
	out->part = LC_STATS_DONE;
	return 0;
}

static int lc_stats_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct lc_stats_out *out = arg;

	if (cmd != LOOM_CMD_STATS_GET)
		return 0;
	if (tb[LOOM_ATTR_STATS])
		return lc_stats_row(out, tb[LOOM_ATTR_STATS]);
	if (tb[LOOM_ATTR_PERF_PORT])
		return lc_stats_perf_port(out, tb[LOOM_ATTR_PERF_PORT]);
	if (tb[LOOM_ATTR_PERF])
		return lc_stats_perf(out, tb[LOOM_ATTR_PERF]);
	if (tb[LOOM_ATTR_DROPS])
		return lc_stats_drops(out, tb[LOOM_ATTR_DROPS]);
	return 0;
}

static int lc_stats_build(struct nl_msg *msg, void *arg)
{
	const struct lc_opts *o = arg;

	return nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, o->dev) ? -ENOMEM : 0;
}

static const char *const lc_stats_words[] = { "all", "port", NULL };

static const char lc_stats_show_args[] = "[all] [port PORT|host]";

static int lc_stats_parse(struct lc_stats_out *out, int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		switch (lc_keyword("stats show", argv[i], lc_stats_words)) {
		case 0:
			out->all = true;
			break;
		case 1:
			if (out->one_port)
				return lc_usage_error("stats show: port given twice: usage: loomctl stats show [dev DEV] %s",
						      lc_stats_show_args);
			if (++i >= argc)
				return lc_usage_error("stats show: \"port\" needs a port number or host: usage: loomctl stats show [dev DEV] %s",
						      lc_stats_show_args);
			out->one_port = true;
			if (!strcmp(argv[i], "host"))
				out->host = true;
			else if (lc_parse_u32(argv[i], &out->port) || out->port >= LOOM_MAX_PORTS)
				return lc_usage_error("stats show: port \"%s\" is neither a network port 0..%d nor host",
						      argv[i], LOOM_MAX_PORTS - 1);
			break;
		default:
			return LC_EXIT_USAGE;
		}
	}
	return 0;
}

static int lc_stats_show(struct lc_opts *o, int argc, char **argv)
{
	struct lc_stats_out out = { .all = false };
	struct lc_nl nl;
	char what[48], name[24];
	int err;

	err = lc_stats_parse(&out, argc, argv);
	if (err)
		return err;
	err = lc_nl_open(&nl, o);
	if (err)
		return err;
	snprintf(what, sizeof(what), "stats show on loom%u", o->dev);
	snprintf(name, sizeof(name), "loom%u", o->dev);
	lc_print_open_object(NULL);
	lc_print_str(LC_PRINT_ANY, "dev", name);
	lc_print_open_array(LC_PRINT_JSON, "counters");
	err = lc_nl_request(&nl, LOOM_CMD_STATS_GET, true, lc_stats_build, o,
			    lc_stats_print, &out);
	if (out.part != LC_STATS_DONE) {
		/* the dump failed before its end: the missing parts are null */
		if (out.part != LC_STATS_ROUTER) {
			lc_stats_enter(&out, LC_STATS_ROUTER);
			lc_print_null(LC_PRINT_JSON, "router");
		}
		lc_print_null(LC_PRINT_JSON, "drops");
	}
	lc_print_close_object();
	return lc_nl_finish(&nl, err, what, NULL);
}

static const struct lc_cmd lc_stats_cmds[] = {
	{ "show", lc_stats_show, lc_stats_show_args,
	  "per port and VC traffic and performance counters (all: the zero rows too; port: one port), per port flits and packets, the router's cycles and conflicts, drops by cause",
	  lc_stats_words, false },
	{ NULL },
};

const struct lc_object lc_obj_stats = {
	.name = "stats",
	.summary = "traffic and performance counters of a card: per port and VC, per port, router, drops by cause",
	.usage = lc_stats_usage,
	.cmds = lc_stats_cmds,
};
