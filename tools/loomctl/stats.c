// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl stats: the card's per (port, VC) counters and its drops by cause
 * (a LOOM_CMD_STATS_GET dump).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "loomctl.h"

const char lc_stats_usage[] =
"NAME\n"
"    loomctl stats - traffic counters of a loom card\n"
"\n"
"SYNOPSIS\n"
"    loomctl [-j] [-d DEV] stats [show] [-a|--all]\n"
"    loomctl stats help\n"
"\n"
"DESCRIPTION\n"
"    One row per (port, output VC) of the COUNTERS register block:\n"
"    packets and bytes sent, packets received, credit stalls (a packet\n"
"    waited for a credit), adaptive and deterministic routing choices,\n"
"    packets discarded because the port was disabled (fault mask) or\n"
"    dead/down.  Rows whose counters are all zero are left out unless -a\n"
"    is given.  Then the card-wide drops by cause: requests of another\n"
"    partition (key), outside the segment, no running context, no route,\n"
"    hop limit, malformed, maintenance packets lost, and barrier packets\n"
"    of another partition (bsu-key).  The card's counters are 32 bits\n"
"    wide and wrap.  VC numbers are the LOOM_VC_* of <loom_hw/packet.h>.\n"
"\n"
"    Text:  PORT VC  TX-PKTS  TX-BYTES  RX-PKTS  STALLS  ADAPTIVE  DETERM  DROP-DIS  DROP-DEAD\n"
"              0  0       12      3456       12       0         0      12         0          0\n"
"           drops: key 0 bounds 0 no-ctx 0 no-route 0 hop-limit 0 malformed 0 maint-lost 0 bsu-key 0\n"
"    JSON:  an object with the keys dev, counters (an array of objects\n"
"           with port, vc, tx_pkts, tx_bytes, rx_pkts, credit_stalls,\n"
"           adaptive, deterministic, drops_disabled, drops_dead) and drops\n"
"           (an object with key, bounds, no_ctx, no_route, hop_limit,\n"
"           malformed, maint_lost, bsu_key).\n"
"\n"
"EXIT STATUS\n"
"    0 success; 1 the kernel refused (e.g. no COUNTERS block); 2 usage\n"
"    error\n";

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
	const char *text;
	const char *json;
} lc_drops_cols[] = {
	{ LOOM_ATTR_DROPS_KEY, "key", "key" },
	{ LOOM_ATTR_DROPS_BOUNDS, "bounds", "bounds" },
	{ LOOM_ATTR_DROPS_NO_CTX, "no-ctx", "no_ctx" },
	{ LOOM_ATTR_DROPS_NO_ROUTE, "no-route", "no_route" },
	{ LOOM_ATTR_DROPS_HOP_LIMIT, "hop-limit", "hop_limit" },
	{ LOOM_ATTR_DROPS_MALFORMED, "malformed", "malformed" },
	{ LOOM_ATTR_DROPS_MAINT_LOST, "maint-lost", "maint_lost" },
	{ LOOM_ATTR_DROPS_BSU_KEY, "bsu-key", "bsu_key" },
};

struct lc_stats_out {
	const struct lc_opts *o;
	bool all;
	unsigned int rows;
	bool header;
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
	if (out->o->json) {
		printf("%s{\"port\":%u,\"vc\":%u", out->rows ? "," : "",
		       lc_get_u32(s, LOOM_ATTR_STATS_PORT), lc_get_u32(s, LOOM_ATTR_STATS_VC));
		for (i = 0; i < sizeof(lc_stats_cols) / sizeof(lc_stats_cols[0]); i++)
			printf(",\"%s\":%" PRIu64, lc_stats_cols[i].json,
			       lc_get_u64(s, lc_stats_cols[i].attr));
		putchar('}');
	} else {
		if (!out->header) {
			printf("PORT VC %10s %12s %10s %8s %9s %9s %9s %9s\n", "TX-PKTS",
			       "TX-BYTES", "RX-PKTS", "STALLS", "ADAPTIVE", "DETERM",
			       "DROP-DIS", "DROP-DEAD");
			out->header = true;
		}
		printf("%4u %2u %10" PRIu64 " %12" PRIu64 " %10" PRIu64 " %8" PRIu64
		       " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 " %9" PRIu64 "\n",
		       lc_get_u32(s, LOOM_ATTR_STATS_PORT), lc_get_u32(s, LOOM_ATTR_STATS_VC),
		       lc_get_u64(s, LOOM_ATTR_STATS_TX_PKTS),
		       lc_get_u64(s, LOOM_ATTR_STATS_TX_BYTES),
		       lc_get_u64(s, LOOM_ATTR_STATS_RX_PKTS),
		       lc_get_u64(s, LOOM_ATTR_STATS_CREDIT_STALLS),
		       lc_get_u64(s, LOOM_ATTR_STATS_ADAPTIVE),
		       lc_get_u64(s, LOOM_ATTR_STATS_DETERMINISTIC),
		       lc_get_u64(s, LOOM_ATTR_STATS_DROPS_DISABLED),
		       lc_get_u64(s, LOOM_ATTR_STATS_DROPS_DEAD));
	}
	out->rows++;
	return 0;
}

static int lc_stats_drops(struct lc_stats_out *out, struct nlattr *nest)
{
	struct nlattr *d[LOOM_ATTR_DROPS_MAX + 1];
	size_t i;

	if (lc_nl_parse_nest(d, LOOM_ATTR_DROPS_MAX, nest, lc_drops_policy))
		return -EPROTO;
	if (out->o->json) {
		fputs("],\"drops\":{", stdout);
		for (i = 0; i < sizeof(lc_drops_cols) / sizeof(lc_drops_cols[0]); i++)
			printf("%s\"%s\":%" PRIu64, i ? "," : "", lc_drops_cols[i].json,
			       lc_get_u64(d, lc_drops_cols[i].attr));
		putchar('}');
	} else {
		if (!out->rows)
			puts("no traffic counted (stats -a shows the zero rows)");
		fputs("drops:", stdout);
		for (i = 0; i < sizeof(lc_drops_cols) / sizeof(lc_drops_cols[0]); i++)
			printf(" %s %" PRIu64, lc_drops_cols[i].text,
			       lc_get_u64(d, lc_drops_cols[i].attr));
		putchar('\n');
	}
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

int lc_stats_run(const struct lc_opts *o, int argc, char **argv)
{
	static const char *const cmds[] = { "show", "list", NULL };
	struct lc_stats_out out = { .o = o };
	struct lc_nl nl;
	char what[48];
	int err;

	if (argc > 0 && lc_is_help(argv[0])) {
		fputs(lc_stats_usage, stdout);
		return LC_EXIT_OK;
	}
	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-a") || !strcmp(argv[i], "--all"))
			out.all = true;
		else if (i > 0 || lc_match(argv[i], cmds) < 0)
			return lc_usage_error("stats: unexpected \"%s\": usage: loomctl [-j] [-d DEV] stats [show] [-a|--all]",
					      argv[i]);
	}
	snprintf(what, sizeof(what), "stats on loom%u", o->dev);
	err = lc_nl_open(&nl);
	if (err)
		return err;
	if (o->json)
		printf("{\"dev\":\"loom%u\",\"counters\":[", o->dev);
	err = lc_nl_request(&nl, LOOM_CMD_STATS_GET, true, lc_stats_build, (void *)o,
			    lc_stats_print, &out);
	if (o->json) {
		if (!out.drops)
			fputs("],\"drops\":null", stdout);
		fputs("}\n", stdout);
	}
	return lc_nl_finish(&nl, err, what, NULL);
}
