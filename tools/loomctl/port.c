// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl port: status, peer and counters of a card's network ports
 * (LOOM_CMD_PORT_GET) and their fault mask (LOOM_CMD_PORT_SET).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "loomctl.h"

const char lc_port_usage[] =
"NAME\n"
"    loomctl port - network ports of a loom card\n"
"\n"
"SYNOPSIS\n"
"    loomctl [-j] [-d DEV] port show [PORT]\n"
"    loomctl [-d DEV] port set PORT up|down\n"
"    loomctl [-d DEV] port set PORT fault on|off\n"
"    loomctl port help\n"
"\n"
"DESCRIPTION\n"
"    show: for every network port (or PORT): whether a cable is connected\n"
"    (cabled) and the link trained (up), whether the port is disabled by\n"
"    the fault mask (disabled) or declared dead by the forward-progress\n"
"    timer (dead), the lanes in use, the peer's node and port learnt at\n"
"    training, and the counters of the PORTS register block: frames and\n"
"    bytes sent and received, CRC errors, sequence errors, drops, link\n"
"    retries (go-back-N replays), NAKs sent, frames replayed and ack\n"
"    timeouts.  The card's counters are 32 bits wide and wrap.\n"
"\n"
"    set: the port's fault mask (needs CAP_NET_ADMIN).  \"down\" and\n"
"    \"fault on\" are the same request: the port is disabled, carries\n"
"    nothing, and packets routed to it are discarded and counted\n"
"    (stats: drops-disabled) and their senders told DISCARDED.  \"up\" and\n"
"    \"fault off\" enable it again.  The link itself stays trained: \"up\"\n"
"    in port show is the link's state, \"disabled\" the mask's.  Every\n"
"    change is announced to \"loomctl monitor\".\n"
"\n"
"    Text:  port 0: cabled up peer node 1 port 1 [disabled] [dead]\n"
"               tx 12 frames 3456 bytes  rx 12 frames 3456 bytes  crc-errors 0 seq-errors 0 drops 0\n"
"               lanes 4 retries 0 naks-sent 0 replayed 0 ack-timeouts 0\n"
"    JSON:  an array of objects with the keys dev, port, cabled, up,\n"
"           disabled, dead, lanes, peer_node, peer_port, tx_frames,\n"
"           rx_frames, tx_bytes, rx_bytes, crc_errors, seq_errors, drops,\n"
"           retries, naks_sent, replayed, ack_timeouts.\n"
"\n"
"EXIT STATUS\n"
"    0 success; 1 the kernel refused (e.g. no such port, no permission);\n"
"    2 usage error\n"
"\n"
"EXAMPLES\n"
"    loomctl port show\n"
"    loomctl port set 1 down\n"
"    loomctl port set 1 fault off\n";

static const char lc_perm_hint[] =
	"changing a port needs CAP_NET_ADMIN (run it as root)";

struct lc_port_req {
	uint32_t dev;
	uint32_t port;
	bool with_port;
	bool set;
	bool enable;
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
	if (!nest || nla_put_u32(msg, LOOM_ATTR_PORT_INDEX, r->port) ||
	    (r->set && nla_put_u8(msg, LOOM_ATTR_PORT_ENABLED, r->enable)))
		return -ENOMEM;
	nla_nest_end(msg, nest);
	return 0;
}

struct lc_port_out {
	const struct lc_opts *o;
	unsigned int n;
};

/**
 * lc_port_print_entry() - print one port as loomctl shows it
 * @json: JSON object instead of text
 * @dev: the card's index
 * @port: the LOOM_ATTR_PORT nest
 * @prefix: text before it (text mode), or JSON before the object
 * @brief: text mode: only the status line, not the counters
 *
 * Return: 0 or -EPROTO.
 */
int lc_port_print_entry(bool json, uint32_t dev, struct nlattr *port,
			const char *prefix, bool brief)
{
	struct nlattr *p[LOOM_ATTR_PORT_MAX + 1];
	bool cabled, up, disabled, dead;

	if (lc_nl_parse_nest(p, LOOM_ATTR_PORT_MAX, port, lc_port_policy))
		return -EPROTO;
	cabled = p[LOOM_ATTR_PORT_CABLED] != NULL;
	up = p[LOOM_ATTR_PORT_UP] != NULL;
	disabled = p[LOOM_ATTR_PORT_DISABLED] != NULL;
	dead = p[LOOM_ATTR_PORT_DEAD] != NULL;
	if (json) {
		printf("%s{\"dev\":\"loom%u\",\"port\":%u,\"cabled\":%s,\"up\":%s,"
		       "\"disabled\":%s,\"dead\":%s,\"lanes\":%u,"
		       "\"peer_node\":%u,\"peer_port\":%u,\"tx_frames\":%" PRIu64
		       ",\"rx_frames\":%" PRIu64 ",\"tx_bytes\":%" PRIu64
		       ",\"rx_bytes\":%" PRIu64 ",\"crc_errors\":%" PRIu64
		       ",\"seq_errors\":%" PRIu64 ",\"drops\":%" PRIu64
		       ",\"retries\":%" PRIu64 ",\"naks_sent\":%" PRIu64
		       ",\"replayed\":%" PRIu64 ",\"ack_timeouts\":%" PRIu64 "}",
		       prefix, dev, lc_get_u32(p, LOOM_ATTR_PORT_INDEX),
		       cabled ? "true" : "false", up ? "true" : "false",
		       disabled ? "true" : "false", dead ? "true" : "false",
		       lc_get_u32(p, LOOM_ATTR_PORT_LANES),
		       lc_get_u32(p, LOOM_ATTR_PORT_PEER_NODE),
		       lc_get_u32(p, LOOM_ATTR_PORT_PEER_PORT),
		       lc_get_u64(p, LOOM_ATTR_PORT_TX_FRAMES),
		       lc_get_u64(p, LOOM_ATTR_PORT_RX_FRAMES),
		       lc_get_u64(p, LOOM_ATTR_PORT_TX_BYTES),
		       lc_get_u64(p, LOOM_ATTR_PORT_RX_BYTES),
		       lc_get_u64(p, LOOM_ATTR_PORT_CRC_ERRORS),
		       lc_get_u64(p, LOOM_ATTR_PORT_SEQ_ERRORS),
		       lc_get_u64(p, LOOM_ATTR_PORT_DROPS),
		       lc_get_u64(p, LOOM_ATTR_PORT_RETRIES),
		       lc_get_u64(p, LOOM_ATTR_PORT_NAKS_SENT),
		       lc_get_u64(p, LOOM_ATTR_PORT_REPLAYED),
		       lc_get_u64(p, LOOM_ATTR_PORT_ACK_TIMEOUTS));
		return 0;
	}
	printf("%sport %u: %s %s", prefix, lc_get_u32(p, LOOM_ATTR_PORT_INDEX),
	       cabled ? "cabled" : "not-cabled", up ? "up" : "down");
	if (up)
		printf(" peer node %u port %u",
		       lc_get_u32(p, LOOM_ATTR_PORT_PEER_NODE),
		       lc_get_u32(p, LOOM_ATTR_PORT_PEER_PORT));
	printf("%s%s\n", disabled ? " disabled" : "", dead ? " dead" : "");
	if (brief)
		return 0;
	printf("    tx %" PRIu64 " frames %" PRIu64 " bytes  rx %" PRIu64
	       " frames %" PRIu64 " bytes  crc-errors %" PRIu64
	       " seq-errors %" PRIu64 " drops %" PRIu64 "\n",
	       lc_get_u64(p, LOOM_ATTR_PORT_TX_FRAMES),
	       lc_get_u64(p, LOOM_ATTR_PORT_TX_BYTES),
	       lc_get_u64(p, LOOM_ATTR_PORT_RX_FRAMES),
	       lc_get_u64(p, LOOM_ATTR_PORT_RX_BYTES),
	       lc_get_u64(p, LOOM_ATTR_PORT_CRC_ERRORS),
	       lc_get_u64(p, LOOM_ATTR_PORT_SEQ_ERRORS),
	       lc_get_u64(p, LOOM_ATTR_PORT_DROPS));
	printf("    lanes %u retries %" PRIu64 " naks-sent %" PRIu64
	       " replayed %" PRIu64 " ack-timeouts %" PRIu64 "\n",
	       lc_get_u32(p, LOOM_ATTR_PORT_LANES),
	       lc_get_u64(p, LOOM_ATTR_PORT_RETRIES),
	       lc_get_u64(p, LOOM_ATTR_PORT_NAKS_SENT),
	       lc_get_u64(p, LOOM_ATTR_PORT_REPLAYED),
	       lc_get_u64(p, LOOM_ATTR_PORT_ACK_TIMEOUTS));
	return 0;
}

static int lc_port_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct lc_port_out *out = arg;
	int err;

	if (cmd != LOOM_CMD_PORT_GET)
		return 0;
	err = lc_port_print_entry(out->o->json, lc_get_u32(tb, LOOM_ATTR_DEV_INDEX),
				  tb[LOOM_ATTR_PORT],
				  out->o->json && out->n ? "," : "", false);
	out->n++;
	return err;
}

static int lc_port_parse_set(int argc, char **argv, struct lc_port_req *r)
{
	static const char *const states[] = { "up", "down", "fault", NULL };
	static const char *const onoff[] = { "on", "off", NULL };
	static const char usage[] =
		"usage: loomctl port set PORT up|down, or loomctl port set PORT fault on|off";

	if (argc < 2)
		return lc_usage_error("port set: missing PORT and state: %s", usage);
	if (lc_parse_u32(argv[0], &r->port))
		return lc_usage_error("port set: PORT \"%s\" is not a number", argv[0]);
	switch (lc_match(argv[1], states)) {
	case 0:
		r->enable = true;
		break;
	case 1:
		r->enable = false;
		break;
	case 2:
		if (argc < 3)
			return lc_usage_error("port set: \"fault\" needs on or off: %s", usage);
		switch (lc_match(argv[2], onoff)) {
		case 0:
			r->enable = false;
			break;
		case 1:
			r->enable = true;
			break;
		default:
			return lc_usage_error("port set: fault \"%s\" is neither on nor off",
					      argv[2]);
		}
		argc--;
		break;
	default:
		return lc_usage_error("port set: unknown state \"%s\": %s", argv[1], usage);
	}
	if (argc > 2)
		return lc_usage_error("port set: unexpected argument \"%s\": %s",
				      argv[2], usage);
	r->with_port = true;
	r->set = true;
	return 0;
}

int lc_port_run(const struct lc_opts *o, int argc, char **argv)
{
	static const char *const cmds[] = { "show", "list", "set", NULL };
	struct lc_port_req r = { .dev = o->dev };
	struct lc_port_out out = { .o = o, .n = 0 };
	struct lc_nl nl;
	char what[64];
	int cmd = 0, err;

	err = lc_subcommand("port", argc, argv, cmds, "show, set, help", lc_port_usage,
			    &cmd);
	if (err || cmd < 0)
		return err;
	if (cmd == 2) {
		err = lc_port_parse_set(argc - 1, argv + 1, &r);
		if (err)
			return err;
		snprintf(what, sizeof(what), "port set %u on loom%u", r.port, r.dev);
	} else if (argc > 2) {
		return lc_usage_error("port show: unexpected argument \"%s\": usage: loomctl port show [PORT]",
				      argv[2]);
	} else if (argc == 2) {
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
	if (r.set) {
		err = lc_nl_request(&nl, LOOM_CMD_PORT_SET, false, lc_port_build, &r,
				    NULL, NULL);
	} else {
		err = lc_nl_request_list(&nl, o->json, LOOM_CMD_PORT_GET, !r.with_port,
					 lc_port_build, &r, lc_port_print, &out);
	}
	return lc_nl_finish(&nl, err, what, lc_perm_hint);
}
