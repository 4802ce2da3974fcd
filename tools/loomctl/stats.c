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
"    One row per (port, output VC) of the COUNTERS register block:\n"
"    packets and bytes sent, packets received, credit stalls (a packet\n"
"    waited for a credit), adaptive and deterministic routing choices,\n"
"    packets discarded because the port was disabled (fault mask) or\n"
"    dead/down.  Rows whose counters are all zero are left out unless\n"
"    \"all\" is given.  Then the card-wide drops by cause: requests of\n"
"    another partition (key), outside the segment, no running context, no\n"
"    route, hop limit, malformed, maintenance packets lost, and barrier\n"
"    packets of another partition (bsu_key).  The card's counters are 32\n"
"    bits wide and wrap.  VC numbers are the LOOM_VC_* of\n"
"    <loom_hw/packet.h>.\n"
"\n"
"FIELDS (text and JSON)\n"
"    dev; per row (JSON: the array counters): port vc tx_pkts tx_bytes\n"
"    rx_pkts credit_stalls adaptive deterministic drops_disabled\n"
"    drops_dead; the drops by cause (JSON: the object drops): key bounds\n"
"    no_ctx no_route hop_limit malformed maint_lost bsu_key\n"
"\n"
"    Text:  dev loom0\n"
"               port 0 vc 0 tx_pkts 12 tx_bytes 3456 rx_pkts 12 ...\n"
"               drops: key 0 bounds 0 no_ctx 0 no_route 0 ...\n";

static const struct {
	int attr;
	const char *json;
} lc_stats_cols[] = {
	{ LOOM_ATTR_STATS_TX_PKTS, "tx_pkts" },
	{ LOOM_ATTR_STATS_TX_BYTES, "tx_bytes" },
	{ LOOM_ATTR_STATS_RX_PKTS, "rx_pkts" },
	{ LOOM_ATTR_STATS_CREDIT_STALLS, "credit_stalls" },
	{ LOOM_ATTR_STATS_ADAPTIVE, "adaptive" },
	{ LOOM_ATTR_STATS_DETERMINISTIC, "deterministic" },
	{ LOOM_ATTR_STATS_DROPS_DISABLED, "drops_disabled" },
	{ LOOM_ATTR_STATS_DROPS_DEAD, "drops_dead" },
};

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

struct lc_stats_out {
	bool all;
	unsigned int rows;
	bool drops;
};

static int lc_stats_row(struct lc_stats_out *out, struct nlattr *nest)
{
	struct nlattr *s[LOOM_ATTR_STATS_MAX + 1];
	bool zero = true;
	size_t i;

	if (lc_nl_parse_nest(s, LOOM_ATTR_STATS_MAX, nest, lc_stats_policy))
		return -EPROTO;
	for (i = 0; i < sizeof(lc_stats_cols) / sizeof(lc_stats_cols[0]); i++)
		if (lc_get_u64(s, lc_stats_cols[i].attr))
			zero = false;
	if (zero && !out->all)
		return 0;
	lc_print_open_object(NULL);
	lc_print_uint(LC_PRINT_ANY, "port", lc_get_u32(s, LOOM_ATTR_STATS_PORT));
	lc_print_uint(LC_PRINT_ANY, "vc", lc_get_u32(s, LOOM_ATTR_STATS_VC));
	for (i = 0; i < sizeof(lc_stats_cols) / sizeof(lc_stats_cols[0]); i++)
		lc_print_uint(LC_PRINT_ANY, lc_stats_cols[i].json,
			      lc_get_u64(s, lc_stats_cols[i].attr));
	lc_print_close_object();
	out->rows++;
	return 0;
}

static int lc_stats_drops(struct lc_stats_out *out, struct nlattr *nest)
{
	struct nlattr *d[LOOM_ATTR_DROPS_MAX + 1];
	size_t i;

	if (lc_nl_parse_nest(d, LOOM_ATTR_DROPS_MAX, nest, lc_drops_policy))
		return -EPROTO;
	lc_print_close_array(LC_PRINT_JSON);
	if (!out->rows)
		lc_print_text("no traffic counted (stats show all shows the zero rows)");
	lc_print_open_object("drops");
	lc_print_text("drops:");
	for (i = 0; i < sizeof(lc_drops_cols) / sizeof(lc_drops_cols[0]); i++)
		lc_print_uint(LC_PRINT_ANY, lc_drops_cols[i].json,
			      lc_get_u64(d, lc_drops_cols[i].attr));
	lc_print_close_object();
	out->drops = true;
	return 0;
}

static int lc_stats_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct lc_stats_out *out = arg;

	if (cmd != LOOM_CMD_STATS_GET)
		return 0;
	if (tb[LOOM_ATTR_STATS])
		return lc_stats_row(out, tb[LOOM_ATTR_STATS]);
	if (tb[LOOM_ATTR_DROPS])
		return lc_stats_drops(out, tb[LOOM_ATTR_DROPS]);
	return 0;
}

static int lc_stats_build(struct nl_msg *msg, void *arg)
{
	const struct lc_opts *o = arg;

	return nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, o->dev) ? -ENOMEM : 0;
}

static const char *const lc_stats_words[] = { "all", NULL };

static int lc_stats_show(struct lc_opts *o, int argc, char **argv)
{
	struct lc_stats_out out = { .all = false };
	struct lc_nl nl;
	char what[48], name[24];
	int err;

	for (int i = 0; i < argc; i++) {
		if (lc_keyword("stats show", argv[i], lc_stats_words) < 0)
			return LC_EXIT_USAGE;
		out.all = true;
	}
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
	if (!out.drops) {
		lc_print_close_array(LC_PRINT_JSON);
		lc_print_null(LC_PRINT_JSON, "drops");
	}
	lc_print_close_object();
	return lc_nl_finish(&nl, err, what, NULL);
}

static const struct lc_cmd lc_stats_cmds[] = {
	{ "show", lc_stats_show, "[all]",
	  "per port and VC traffic counters (all: the zero rows too), drops by cause",
	  lc_stats_words, false },
	{ NULL },
};

const struct lc_object lc_obj_stats = {
	.name = "stats",
	.summary = "traffic counters of a card: per port and VC, drops by cause",
	.usage = lc_stats_usage,
	.cmds = lc_stats_cmds,
};
