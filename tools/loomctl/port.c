// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl port: status, peer and counters of a card's network ports
 * (LOOM_CMD_PORT_GET).
 */
#include <errno.h>
#include <inttypes.h>

#include "loomctl.h"

const char lc_port_usage[] =
"NAME\n"
"    loomctl port - network ports of a loom card\n"
"\n"
"SYNOPSIS\n"
"    loomctl [-j] [-d DEV] port show [PORT]\n"
"    loomctl port help\n"
"\n"
"DESCRIPTION\n"
"    For every network port (or PORT): whether a cable is connected\n"
"    (cabled) and the link trained (up), the peer's node and port learnt\n"
"    at training, and the counters of the PORTS register block: frames and\n"
"    bytes sent and received, CRC errors, sequence errors and drops.  The\n"
"    card's counters are 32 bits wide and wrap.\n"
"\n"
"    Text:  port 0: cabled up peer node 1 port 1\n"
"               tx 12 frames 3456 bytes  rx 12 frames 3456 bytes  crc-errors 0 seq-errors 0 drops 0\n"
"    JSON:  an array of objects with the keys dev, port, cabled, up,\n"
"           peer_node, peer_port, tx_frames, rx_frames, tx_bytes, rx_bytes,\n"
"           crc_errors, seq_errors, drops.\n"
"\n"
"EXIT STATUS\n"
"    0 success; 1 the kernel refused (e.g. no such port); 2 usage error\n";

struct lc_port_req {
	uint32_t dev;
	uint32_t port;
	bool with_port;
};

static int lc_port_build(struct nl_msg *msg, void *arg)
{
	const struct lc_port_req *r = arg;
	struct nlattr *nest;

	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, r->dev))
		return -ENOMEM;
	if (!r->with_port)
		return 0;
	nest = nla_nest_start(msg, LOOM_ATTR_PORT);
	if (!nest || nla_put_u32(msg, LOOM_ATTR_PORT_INDEX, r->port))
		return -ENOMEM;
	nla_nest_end(msg, nest);
	return 0;
}

struct lc_port_out {
	const struct lc_opts *o;
	unsigned int n;
};

static uint64_t lc_u64(struct nlattr **tb, int attr)
{
	return tb[attr] ? nla_get_u64(tb[attr]) : 0;
}

static uint32_t lc_u32(struct nlattr **tb, int attr)
{
	return tb[attr] ? nla_get_u32(tb[attr]) : 0;
}

static int lc_port_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct lc_port_out *out = arg;
	struct nlattr *p[LOOM_ATTR_PORT_MAX + 1];
	bool cabled, up;

	if (cmd != LOOM_CMD_PORT_GET)
		return 0;
	if (lc_nl_parse_nest(p, LOOM_ATTR_PORT_MAX, tb[LOOM_ATTR_PORT], lc_port_policy))
		return -EPROTO;
	cabled = p[LOOM_ATTR_PORT_CABLED] != NULL;
	up = p[LOOM_ATTR_PORT_UP] != NULL;
	if (out->o->json) {
		printf("%s{\"dev\":\"loom%u\",\"port\":%u,\"cabled\":%s,\"up\":%s,"
		       "\"peer_node\":%u,\"peer_port\":%u,\"tx_frames\":%" PRIu64
		       ",\"rx_frames\":%" PRIu64 ",\"tx_bytes\":%" PRIu64
		       ",\"rx_bytes\":%" PRIu64 ",\"crc_errors\":%" PRIu64
		       ",\"seq_errors\":%" PRIu64 ",\"drops\":%" PRIu64 "}",
		       out->n ? "," : "", lc_u32(tb, LOOM_ATTR_DEV_INDEX),
		       lc_u32(p, LOOM_ATTR_PORT_INDEX), cabled ? "true" : "false",
		       up ? "true" : "false", lc_u32(p, LOOM_ATTR_PORT_PEER_NODE),
		       lc_u32(p, LOOM_ATTR_PORT_PEER_PORT),
		       lc_u64(p, LOOM_ATTR_PORT_TX_FRAMES), lc_u64(p, LOOM_ATTR_PORT_RX_FRAMES),
		       lc_u64(p, LOOM_ATTR_PORT_TX_BYTES), lc_u64(p, LOOM_ATTR_PORT_RX_BYTES),
		       lc_u64(p, LOOM_ATTR_PORT_CRC_ERRORS),
		       lc_u64(p, LOOM_ATTR_PORT_SEQ_ERRORS), lc_u64(p, LOOM_ATTR_PORT_DROPS));
	} else {
		printf("port %u: %s %s", lc_u32(p, LOOM_ATTR_PORT_INDEX),
		       cabled ? "cabled" : "not-cabled", up ? "up" : "down");
		if (up)
			printf(" peer node %u port %u", lc_u32(p, LOOM_ATTR_PORT_PEER_NODE),
			       lc_u32(p, LOOM_ATTR_PORT_PEER_PORT));
		printf("\n    tx %" PRIu64 " frames %" PRIu64 " bytes  rx %" PRIu64
		       " frames %" PRIu64 " bytes  crc-errors %" PRIu64
		       " seq-errors %" PRIu64 " drops %" PRIu64 "\n",
		       lc_u64(p, LOOM_ATTR_PORT_TX_FRAMES), lc_u64(p, LOOM_ATTR_PORT_TX_BYTES),
		       lc_u64(p, LOOM_ATTR_PORT_RX_FRAMES), lc_u64(p, LOOM_ATTR_PORT_RX_BYTES),
		       lc_u64(p, LOOM_ATTR_PORT_CRC_ERRORS),
		       lc_u64(p, LOOM_ATTR_PORT_SEQ_ERRORS), lc_u64(p, LOOM_ATTR_PORT_DROPS));
	}
	out->n++;
	return 0;
}

int lc_port_run(const struct lc_opts *o, int argc, char **argv)
{
	static const char *const cmds[] = { "show", "list", NULL };
	struct lc_port_req r = { .dev = o->dev };
	struct lc_port_out out = { .o = o, .n = 0 };
	struct lc_nl nl;
	char what[64];
	int err;

	if (argc > 0 && lc_is_help(argv[0])) {
		fputs(lc_port_usage, stdout);
		return LC_EXIT_OK;
	}
	if (argc > 0 && lc_match(argv[0], cmds) < 0)
		return lc_usage_error("port: unknown command \"%s\": commands are show, help",
				      argv[0]);
	if (argc > 2)
		return lc_usage_error("port show: unexpected argument \"%s\": usage: loomctl port show [PORT]",
				      argv[2]);
	if (argc == 2) {
		if (lc_parse_u32(argv[1], &r.port))
			return lc_usage_error("port show: PORT \"%s\" is not a number", argv[1]);
		r.with_port = true;
		snprintf(what, sizeof(what), "port show %u on loom%u", r.port, r.dev);
	} else {
		snprintf(what, sizeof(what), "port show on loom%u", r.dev);
	}
	err = lc_nl_open(&nl);
	if (err)
		return err;
	if (o->json)
		fputs("[", stdout);
	err = lc_nl_request(&nl, LOOM_CMD_PORT_GET, !r.with_port, lc_port_build, &r,
			    lc_port_print, &out);
	if (o->json)
		fputs("]\n", stdout);
	fflush(stdout);
	if (err)
		err = lc_nl_refused(&nl, err, what, NULL);
	lc_nl_close(&nl);
	return err;
}
