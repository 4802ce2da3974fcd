// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl port: status, peer and counters of a card's network ports
 * (LOOM_CMD_PORT_GET) and their fault mask (LOOM_CMD_PORT_SET).
 */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "loomctl.h"

static const char lc_port_usage[] =
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
"    (stats: drops_disabled) and their senders told DISCARDED.  \"up\" and\n"
"    \"fault off\" enable it again.  The link itself stays trained: \"up\"\n"
"    in port show is the link's state, \"disabled\" the mask's.  Every\n"
"    change is announced to \"loomctl monitor\".\n"
"\n"
"FIELDS (text and JSON)\n"
"    dev port cabled up disabled dead lanes peer_node peer_port\n"
"    tx_frames tx_bytes rx_frames rx_bytes crc_errors seq_errors drops\n"
"    retries naks_sent replayed ack_timeouts\n"
"    (peer_node and peer_port are null in JSON while the link is down)\n"
"\n"
"    Text:  dev loom0 port 0 cabled up lanes 4 peer_node 1 peer_port 1\n"
"               tx_frames 12 tx_bytes 3456 rx_frames 12 rx_bytes 3456 ...\n"
"\n"
"EXAMPLES\n"
"    loomctl port show\n"
"    loomctl -j port show dev loom0 1\n"
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

/**
 * lc_port_print_entry() - print one port as loomctl shows it
 * @dev: the card's index
 * @port: the LOOM_ATTR_PORT nest
 * @event: the event's name, the record's first field (monitor), or NULL
 *
 * Return: 0 or -EPROTO.
 */
int lc_port_print_entry(uint32_t dev, struct nlattr *port, const char *event)
{
	static const struct {
		int attr;
		const char *key;
	} counters[] = {
		{ LOOM_ATTR_PORT_TX_FRAMES, "tx_frames" },
		{ LOOM_ATTR_PORT_TX_BYTES, "tx_bytes" },
		{ LOOM_ATTR_PORT_RX_FRAMES, "rx_frames" },
		{ LOOM_ATTR_PORT_RX_BYTES, "rx_bytes" },
		{ LOOM_ATTR_PORT_CRC_ERRORS, "crc_errors" },
		{ LOOM_ATTR_PORT_SEQ_ERRORS, "seq_errors" },
		{ LOOM_ATTR_PORT_DROPS, "drops" },
		{ LOOM_ATTR_PORT_RETRIES, "retries" },
		{ LOOM_ATTR_PORT_NAKS_SENT, "naks_sent" },
		{ LOOM_ATTR_PORT_REPLAYED, "replayed" },
		{ LOOM_ATTR_PORT_ACK_TIMEOUTS, "ack_timeouts" },
	};
	struct nlattr *p[LOOM_ATTR_PORT_MAX + 1];
	char name[24];
	bool up;

	if (lc_nl_parse_nest(p, LOOM_ATTR_PORT_MAX, port, lc_port_policy))
		return -EPROTO;
	up = p[LOOM_ATTR_PORT_UP] != NULL;
	snprintf(name, sizeof(name), "loom%u", dev);
	lc_print_open_object(NULL);
	if (event)
		lc_print_str(LC_PRINT_ANY, "event", event);
	lc_print_str(LC_PRINT_ANY, "dev", name);
	lc_print_uint(LC_PRINT_ANY, "port", lc_get_u32(p, LOOM_ATTR_PORT_INDEX));
	lc_print_bool(LC_PRINT_ANY, "cabled", p[LOOM_ATTR_PORT_CABLED] != NULL);
	lc_print_bool(LC_PRINT_ANY, "up", up);
	lc_print_bool(LC_PRINT_ANY, "disabled", p[LOOM_ATTR_PORT_DISABLED] != NULL);
	lc_print_bool(LC_PRINT_ANY, "dead", p[LOOM_ATTR_PORT_DEAD] != NULL);
	lc_print_uint(LC_PRINT_ANY, "lanes", lc_get_u32(p, LOOM_ATTR_PORT_LANES));
	if (up) {
		lc_print_uint(LC_PRINT_ANY, "peer_node", lc_get_u32(p, LOOM_ATTR_PORT_PEER_NODE));
		lc_print_uint(LC_PRINT_ANY, "peer_port", lc_get_u32(p, LOOM_ATTR_PORT_PEER_PORT));
	} else {
		lc_print_null(LC_PRINT_ANY, "peer_node");
		lc_print_null(LC_PRINT_ANY, "peer_port");
	}
	for (size_t i = 0; !event && i < sizeof(counters) / sizeof(counters[0]); i++) {
		if (i == 0 || i == 7)
			lc_print_nl();
		lc_print_uint(LC_PRINT_ANY, counters[i].key, lc_get_u64(p, counters[i].attr));
	}
	lc_print_close_object();
	return 0;
}

static int lc_port_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	(void)arg;
	if (cmd != LOOM_CMD_PORT_GET)
		return 0;
	return lc_port_print_entry(lc_get_u32(tb, LOOM_ATTR_DEV_INDEX), tb[LOOM_ATTR_PORT],
				   NULL);
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
	switch (lc_keyword("port set", argv[1], states)) {
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
		return LC_EXIT_USAGE;
	}
	if (argc > 2)
		return lc_usage_error("port set: unexpected argument \"%s\": %s",
				      argv[2], usage);
	r->with_port = true;
	r->set = true;
	return 0;
}

static int lc_port_do(struct lc_opts *o, struct lc_port_req *r)
{
	struct lc_nl nl;
	char what[64];
	int err;

	err = lc_nl_open(&nl, o);
	if (err)
		return err;
	r->dev = o->dev;
	if (r->set) {
		snprintf(what, sizeof(what), "port set %u on loom%u", r->port, r->dev);
		err = lc_nl_request(&nl, LOOM_CMD_PORT_SET, false, lc_port_build, r,
				    NULL, NULL);
	} else {
		if (r->with_port)
			snprintf(what, sizeof(what), "port show %u on loom%u", r->port, r->dev);
		else
			snprintf(what, sizeof(what), "port show on loom%u", r->dev);
		err = lc_nl_request_list(&nl, LOOM_CMD_PORT_GET, !r->with_port,
					 lc_port_build, r, lc_port_print, NULL);
	}
	return lc_nl_finish(&nl, err, what, lc_perm_hint);
}

static int lc_port_show(struct lc_opts *o, int argc, char **argv)
{
	struct lc_port_req r = { .dev = 0 };

	if (argc > 1)
		return lc_usage_error("port show: unexpected argument \"%s\": usage: loomctl port show [dev DEV] [PORT]",
				      argv[1]);
	if (argc == 1) {
		if (lc_parse_u32(argv[0], &r.port))
			return lc_usage_error("port show: PORT \"%s\" is not a number", argv[0]);
		r.with_port = true;
	}
	return lc_port_do(o, &r);
}

static int lc_port_set(struct lc_opts *o, int argc, char **argv)
{
	struct lc_port_req r = { .dev = 0 };
	int err = lc_port_parse_set(argc, argv, &r);

	return err ? err : lc_port_do(o, &r);
}

static const char *const lc_port_set_words[] = { "up", "down", "fault", "on", "off", NULL };

static const struct lc_cmd lc_port_cmds[] = {
	{ "show", lc_port_show, "[PORT]",
	  "status, peer and counters of the network ports", NULL, false },
	{ "set", lc_port_set, "PORT up|down|fault on|off",
	  "disable or enable a port (its fault mask; needs CAP_NET_ADMIN)",
	  lc_port_set_words, false },
	{ NULL },
};

const struct lc_object lc_obj_port = {
	.name = "port",
	.summary = "network ports of a card: link state, peer, counters, fault mask",
	.usage = lc_port_usage,
	.cmds = lc_port_cmds,
};
