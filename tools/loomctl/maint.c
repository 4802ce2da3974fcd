// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl maint: read or write one register of any card of the fabric
 * over the maintenance network (LOOM_CMD_MAINT): a directed route of
 * output ports from this card, no routing table needed.  Symbolic register
 * names are resolved by walking the target card's block chain over the
 * same route, so they hold whatever the target's layout.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loomctl.h"

#define LC_MAINT_ROUTE_MAX	64	/* longer than the card takes: the kernel says so */

static const char lc_maint_usage[] =
"DESCRIPTION\n"
"    A maintenance packet follows a directed route: the output port to\n"
"    take at each card, starting at DEV's card.  It needs no routing table\n"
"    and works through a misconfigured data network, but it is not flow\n"
"    controlled: a packet that meets a busy, down or nonexistent port is\n"
"    lost (counted in the MAINT_LOST counter of the card where it died),\n"
"    and the kernel retries with a new sequence id after each timeout.\n"
"    Needs CAP_NET_ADMIN, reads included.\n"
"\n"
"    route ROUTE     output ports, comma separated (\"0,2,1\": port 0 of\n"
"                    this card, then port 2 of the next one, ...); at\n"
"                    most 16 hops.  \"local\" or \"\" (the default) is this\n"
"                    card itself.\n"
"    timeout MS      wait per attempt, 1..10000 (default 100)\n"
"    retries N       attempts after the first, 0..100 (default 3)\n"
"\n"
"    REG is a register offset (0x90) or a name:\n"
"        node_id logical_id n_ports rt_entries     router block\n"
"        rtD  rtD.w1                              routing entry D, word 0 / 1\n"
"        fp_timeout port_events                   ports block\n"
"        portN.status portN.peer_node portN.peer_port portN.ctrl\n"
"        portN.tx_frames portN.rx_frames portN.tx_bytes portN.rx_bytes\n"
"        portN.crc_errors portN.seq_errors portN.drops portN.retries\n"
"        portN.naks_sent portN.injected portN.replayed portN.ack_timeouts\n"
"        maint_lost                               counters block\n"
"    Names are looked up in the target card's block chain, over the\n"
"    same route, before the access.  Writes are taken only in the\n"
"    configuration blocks (routing table, logical id, port control,\n"
"    VC table, counters, link thresholds, BSU); elsewhere the card\n"
"    answers READ_ONLY.\n"
"\n"
"FIELDS (text and JSON)\n"
"    dev op route reg addr value status node seq attempts\n"
"    (route is a list of ports, \"local\" in text when empty; status is\n"
"    ok, bad_addr, read_only or bad_op)\n"
"\n"
"    Text:  dev loom0 op read route 0 reg node_id addr 0x90 value 1 status ok\n"
"               node 1 seq 7 attempts 1\n"
"\n"
"    The exit status is 1 when the card answered another status than ok\n"
"    or nothing answered after every attempt.\n"
"\n"
"EXAMPLES\n"
"    loomctl maint read node_id\n"
"    loomctl maint read route 0 port1.peer_node\n"
"    loomctl maint write route 0,1 rt5 0x80000001\n"
"    loomctl -j maint read route 1 timeout 500 retries 10 0x2100\n";

static const char lc_maint_perm_hint[] =
	"maintenance access needs CAP_NET_ADMIN, reads included (run it as root)";

struct lc_maint_req {
	uint32_t dev;
	uint8_t op;
	uint8_t route[LC_MAINT_ROUTE_MAX];
	unsigned int route_len;
	uint32_t addr;
	uint32_t value;
	bool with_value;
	uint32_t timeout_ms;
	bool with_timeout;
	uint32_t retries;
	bool with_retries;
};

struct lc_maint_resp {
	bool got;
	uint32_t status, value, seq, node, attempts;
};

static struct nla_policy lc_maint_policy[LOOM_ATTR_MAINT_MAX + 1] = {
	[LOOM_ATTR_MAINT_OP] = { .type = NLA_U8 },
	[LOOM_ATTR_MAINT_ADDR] = { .type = NLA_U32 },
	[LOOM_ATTR_MAINT_VALUE] = { .type = NLA_U32 },
	[LOOM_ATTR_MAINT_STATUS] = { .type = NLA_U32 },
	[LOOM_ATTR_MAINT_SEQ] = { .type = NLA_U32 },
	[LOOM_ATTR_MAINT_NODE] = { .type = NLA_U32 },
	[LOOM_ATTR_MAINT_ATTEMPTS] = { .type = NLA_U32 },
};

static const char *lc_maint_status_name(uint32_t st)
{
	switch (st) {
	case LOOM_MAINT_ST_OK:
		return "ok";
	case LOOM_MAINT_ST_BAD_ADDR:
		return "bad_addr";
	case LOOM_MAINT_ST_READ_ONLY:
		return "read_only";
	case LOOM_MAINT_ST_BAD_OP:
		return "bad_op";
	default:
		return "unknown";
	}
}

static const char *lc_maint_status_why(uint32_t st)
{
	switch (st) {
	case LOOM_MAINT_ST_BAD_ADDR:
		return "the address is unaligned or outside the card's register space";
	case LOOM_MAINT_ST_READ_ONLY:
		return "the register cannot be written over the maintenance network (only routing, logical id, port control, VC table, counters, link thresholds and BSU can)";
	case LOOM_MAINT_ST_BAD_OP:
		return "the card refused the operation or the route";
	default:
		return "unknown status";
	}
}

/* ---- one access --------------------------------------------------------- */

static int lc_maint_build(struct nl_msg *msg, void *arg)
{
	const struct lc_maint_req *r = arg;
	struct nlattr *nest;

	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, r->dev))
		return -ENOMEM;
	nest = nla_nest_start(msg, LOOM_ATTR_MAINT);
	if (!nest || nla_put_u8(msg, LOOM_ATTR_MAINT_OP, r->op) ||
	    nla_put(msg, LOOM_ATTR_MAINT_ROUTE, (int)r->route_len, r->route) ||
	    nla_put_u32(msg, LOOM_ATTR_MAINT_ADDR, r->addr) ||
	    (r->with_value && nla_put_u32(msg, LOOM_ATTR_MAINT_VALUE, r->value)) ||
	    (r->with_timeout && nla_put_u32(msg, LOOM_ATTR_MAINT_TIMEOUT_MS, r->timeout_ms)) ||
	    (r->with_retries && nla_put_u32(msg, LOOM_ATTR_MAINT_RETRIES, r->retries)))
		return -ENOMEM;
	nla_nest_end(msg, nest);
	return 0;
}

static int lc_maint_reply(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct lc_maint_resp *out = arg;
	struct nlattr *m[LOOM_ATTR_MAINT_MAX + 1];

	if (cmd != LOOM_CMD_MAINT)
		return 0;
	if (lc_nl_parse_nest(m, LOOM_ATTR_MAINT_MAX, tb[LOOM_ATTR_MAINT], lc_maint_policy))
		return -EPROTO;
	if (!m[LOOM_ATTR_MAINT_STATUS] || !m[LOOM_ATTR_MAINT_VALUE]) {
		fprintf(stderr, "loomctl: the kernel's maintenance reply lacks STATUS or VALUE\n");
		return -EPROTO;
	}
	out->got = true;
	out->status = lc_get_u32(m, LOOM_ATTR_MAINT_STATUS);
	out->value = lc_get_u32(m, LOOM_ATTR_MAINT_VALUE);
	out->seq = lc_get_u32(m, LOOM_ATTR_MAINT_SEQ);
	out->node = lc_get_u32(m, LOOM_ATTR_MAINT_NODE);
	out->attempts = lc_get_u32(m, LOOM_ATTR_MAINT_ATTEMPTS);
	return 0;
}

static void lc_maint_route_text(const struct lc_maint_req *r, char *out, size_t len)
{
	size_t used = 0;

	if (!r->route_len) {
		snprintf(out, len, "local");
		return;
	}
	out[0] = 0;
	for (unsigned int i = 0; i < r->route_len && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%u", i ? "," : "",
					 r->route[i]);
}

/*
 * Run one access; on failure print why (@what names it) and return an exit
 * code.  A card status other than OK is returned in @resp, not an error.
 */
static int lc_maint_access(struct lc_nl *nl, const struct lc_maint_req *r,
			   struct lc_maint_resp *resp, const char *what)
{
	int err;

	memset(resp, 0, sizeof(*resp));
	err = lc_nl_request(nl, LOOM_CMD_MAINT, false, lc_maint_build, (void *)r,
			    lc_maint_reply, resp);
	if (err == -ETIMEDOUT) {
		char route[3 * LC_MAINT_ROUTE_MAX + 8];

		lc_maint_route_text(r, route, sizeof(route));
		fprintf(stderr, "loomctl: %s: timed out after %u attempts of %u ms: no response over route %s: the route crosses a down or nonexistent port or a card that is not running (check each hop with \"maint read route ... portN.status\"; raise timeout or retries if the fabric is only slow)\n",
			what, (r->with_retries ? r->retries : 3) + 1,
			r->with_timeout ? r->timeout_ms : 100, route);
		return LC_EXIT_KERNEL;
	}
	if (err)
		return lc_nl_refused(nl, err, what, lc_maint_perm_hint);
	if (!resp->got) {
		fprintf(stderr, "loomctl: %s: the kernel sent no maintenance reply\n", what);
		return LC_EXIT_KERNEL;
	}
	return 0;
}

/* ---- register names ------------------------------------------------------ */

struct lc_maint_field {
	const char *name;
	uint32_t block;		/* LOOM_BLK_* the offset is relative to */
	uint32_t off;
};

static const struct lc_maint_field lc_maint_fields[] = {
	{ "node_id", LOOM_BLK_ROUTER, LOOM_ROUTER_NODE_ID },
	{ "logical_id", LOOM_BLK_ROUTER, LOOM_ROUTER_LOGICAL_ID },
	{ "n_ports", LOOM_BLK_ROUTER, LOOM_ROUTER_N_PORTS },
	{ "rt_entries", LOOM_BLK_ROUTER, LOOM_ROUTER_RT_ENTRIES },
	{ "fp_timeout", LOOM_BLK_PORTS, LOOM_PORTS_FP_TIMEOUT_MS },
	{ "port_events", LOOM_BLK_PORTS, LOOM_PORTS_EVENTS },
	{ "maint_lost", LOOM_BLK_COUNTERS, LOOM_CNT_MAINT_LOST },
};

static const struct lc_maint_field lc_maint_port_fields[] = {
	{ "status", LOOM_BLK_PORTS, LOOM_PORT_STATUS },
	{ "peer_node", LOOM_BLK_PORTS, LOOM_PORT_PEER_NODE },
	{ "peer_port", LOOM_BLK_PORTS, LOOM_PORT_PEER_PORT },
	{ "tx_frames", LOOM_BLK_PORTS, LOOM_PORT_TX_FRAMES },
	{ "rx_frames", LOOM_BLK_PORTS, LOOM_PORT_RX_FRAMES },
	{ "tx_bytes", LOOM_BLK_PORTS, LOOM_PORT_TX_BYTES },
	{ "rx_bytes", LOOM_BLK_PORTS, LOOM_PORT_RX_BYTES },
	{ "crc_errors", LOOM_BLK_PORTS, LOOM_PORT_CRC_ERRORS },
	{ "seq_errors", LOOM_BLK_PORTS, LOOM_PORT_SEQ_ERRORS },
	{ "drops", LOOM_BLK_PORTS, LOOM_PORT_DROPS },
	{ "retries", LOOM_BLK_PORTS, LOOM_PORT_RETRIES },
	{ "naks_sent", LOOM_BLK_PORTS, LOOM_PORT_NAKS_SENT },
	{ "injected", LOOM_BLK_PORTS, LOOM_PORT_INJECTED },
	{ "replayed", LOOM_BLK_PORTS, LOOM_PORT_REPLAYED },
	{ "ack_timeouts", LOOM_BLK_PORTS, LOOM_PORT_ACK_TIMEOUTS },
	{ "ctrl", LOOM_BLK_PORTS, LOOM_PORT_CTRL },
};

/* A decimal index right after @prefix, ending at @end; -1 if none. */
static long lc_maint_index(const char *s, const char *prefix, const char **end, long max)
{
	size_t n = strlen(prefix);
	char *e;
	long v;

	if (strncmp(s, prefix, n) || s[n] < '0' || s[n] > '9')
		return -1;
	errno = 0;
	v = strtol(s + n, &e, 10);
	if (errno || v > max)
		return -1;
	*end = e;
	return v;
}

/*
 * What REG names: a block type and an offset inside it, or (block 0) an
 * absolute offset.  0, or a usage exit code.
 */
static int lc_maint_parse_reg(const char *s, uint32_t *block, uint32_t *off)
{
	const char *end;
	long i;

	*block = 0;
	if (*s >= '0' && *s <= '9') {
		if (lc_parse_u32(s, off))
			return lc_usage_error("maint: register \"%s\" is not a number that fits 32 bits",
					      s);
		return 0;
	}
	for (size_t k = 0; k < sizeof(lc_maint_fields) / sizeof(lc_maint_fields[0]); k++) {
		if (!strcmp(s, lc_maint_fields[k].name)) {
			*block = lc_maint_fields[k].block;
			*off = lc_maint_fields[k].off;
			return 0;
		}
	}
	i = lc_maint_index(s, "rt", &end, LOOM_MAX_NODES - 1);
	if (i >= 0 && (!*end || !strcmp(end, ".w1"))) {
		*block = LOOM_BLK_ROUTER;
		*off = LOOM_ROUTER_RT + (uint32_t)i * LOOM_ROUTER_RT_ENTRY_SIZE + (*end ? 4 : 0);
		return 0;
	}
	i = lc_maint_index(s, "port", &end, LOOM_MAX_PORTS - 1);
	if (i >= 0 && *end == '.') {
		for (size_t k = 0;
		     k < sizeof(lc_maint_port_fields) / sizeof(lc_maint_port_fields[0]); k++) {
			if (!strcmp(end + 1, lc_maint_port_fields[k].name)) {
				*block = LOOM_BLK_PORTS;
				*off = LOOM_PORTS_BASE + (uint32_t)i * LOOM_PORT_REC_SIZE +
				       lc_maint_port_fields[k].off;
				return 0;
			}
		}
	}
	return lc_usage_error("maint: unknown register \"%s\": give an offset (0x90) or a name such as node_id, logical_id, n_ports, rt5, rt5.w1, port0.status, port0.peer_node, port0.peer_port, maint_lost (see \"loomctl maint help\")",
			      s);
}

/* Find block @type in the target's chain by maintenance reads. */
static int lc_maint_find_block(struct lc_nl *nl, const struct lc_maint_req *base,
			       uint32_t type, uint32_t *at, const char *what)
{
	struct lc_maint_req r = *base;
	struct lc_maint_resp resp;
	uint32_t off = 0;
	int err;

	r.op = LOOM_MAINT_OP_READ;
	r.with_value = false;
	for (int n = 0; n < LOOM_BLK_MAX_CHAIN; n++) {
		r.addr = off + LOOM_BLK_TYPE;
		err = lc_maint_access(nl, &r, &resp, what);
		if (err)
			return err;
		if (resp.status != LOOM_MAINT_ST_OK)
			break;
		if (resp.value == type) {
			*at = off;
			return 0;
		}
		r.addr = off + LOOM_BLK_NEXT;
		err = lc_maint_access(nl, &r, &resp, what);
		if (err)
			return err;
		if (resp.status != LOOM_MAINT_ST_OK || !resp.value)
			break;
		off = resp.value;
	}
	fprintf(stderr, "loomctl: %s: the target card has no register block of type %#x: give the register as an offset\n",
		what, type);
	return LC_EXIT_KERNEL;
}

/* ---- the command ----------------------------------------------------------- */

static int lc_maint_parse_route(const char *s, struct lc_maint_req *r)
{
	const char *p = s;

	r->route_len = 0;
	if (!*s || !strcmp(s, "local"))
		return 0;
	for (;;) {
		char *end;
		unsigned long v;

		if (*p < '0' || *p > '9')
			return lc_usage_error("maint: route \"%s\": expected output port numbers separated by commas (e.g. 0,2,1) or \"local\"",
					      s);
		errno = 0;
		v = strtoul(p, &end, 10);
		if (errno || v > 255)
			return lc_usage_error("maint: route \"%s\": port %.*s out of range (ports are 0..%d)",
					      s, (int)(end - p), p, LOOM_MAX_PORTS - 1);
		if (r->route_len == LC_MAINT_ROUTE_MAX)
			return lc_usage_error("maint: route \"%s\": more than %d hops (a card takes %d)",
					      s, LC_MAINT_ROUTE_MAX, LOOM_MAINT_MAX_HOPS);
		r->route[r->route_len++] = (uint8_t)v;
		if (!*end)
			return 0;
		if (*end != ',')
			return lc_usage_error("maint: route \"%s\": expected a comma after %.*s",
					      s, (int)(end - p), p);
		p = end + 1;
	}
}

static void lc_maint_print_route(const uint8_t *route, unsigned int n)
{
	lc_print_open_array(LC_PRINT_JSON, "route");
	for (unsigned int i = 0; i < n; i++)
		lc_print_uint(LC_PRINT_JSON, NULL, route[i]);
	lc_print_close_array(LC_PRINT_JSON);
	if (!lc_print_is_json()) {
		char text[4 * LC_MAINT_ROUTE_MAX + 8] = "local";
		size_t used = 0;

		for (unsigned int i = 0; i < n && used < sizeof(text); i++)
			used += (size_t)snprintf(text + used, sizeof(text) - used, "%s%u",
						 i ? "," : "", route[i]);
		lc_print_str(LC_PRINT_TEXT, "route", text);
	}
}

static void lc_maint_print(const struct lc_maint_req *r, const char *reg,
			   const struct lc_maint_resp *resp)
{
	char name[24];

	snprintf(name, sizeof(name), "loom%u", r->dev);
	lc_print_open_object(NULL);
	lc_print_str(LC_PRINT_ANY, "dev", name);
	lc_print_str(LC_PRINT_ANY, "op", r->op == LOOM_MAINT_OP_WRITE ? "write" : "read");
	lc_maint_print_route(r->route, r->route_len);
	lc_print_str(LC_PRINT_ANY, "reg", reg);
	lc_print_hex(LC_PRINT_ANY, "addr", r->addr);
	lc_print_uint(LC_PRINT_ANY, "value", resp->value);
	lc_print_str(LC_PRINT_ANY, "status", lc_maint_status_name(resp->status));
	lc_print_nl();
	lc_print_uint(LC_PRINT_ANY, "node", resp->node);
	lc_print_uint(LC_PRINT_ANY, "seq", resp->seq);
	lc_print_uint(LC_PRINT_ANY, "attempts", resp->attempts);
	lc_print_close_object();
	lc_print_end();
}

static const char *const lc_maint_words[] = { "route", "timeout", "retries", NULL };

static int lc_maint_run(struct lc_opts *o, int argc, char **argv, uint8_t op)
{
	const char *cmd = op == LOOM_MAINT_OP_READ ? "read" : "write";
	struct lc_maint_req r = { .op = op };
	struct lc_maint_resp resp;
	const char *reg = NULL, *val = NULL;
	uint32_t block, off, at = 0;
	char what[128];
	struct lc_nl nl;
	int err;

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int w = -1;

		/* the keywords come before REG, and are never abbreviated: a
		 * register name may start like one
		 */
		for (int k = 0; !reg && lc_maint_words[k]; k++)
			if (!strcmp(a, lc_maint_words[k]))
				w = k;
		if (w >= 0) {
			if (++i >= argc)
				return lc_usage_error("maint %s: \"%s\" needs a value", cmd, a);
			if (w == 0) {
				err = lc_maint_parse_route(argv[i], &r);
			} else if (w == 1) {
				err = lc_parse_u32(argv[i], &r.timeout_ms) ?
				      lc_usage_error("maint %s: timeout \"%s\" is not a number of milliseconds",
						     cmd, argv[i]) : 0;
				r.with_timeout = true;
			} else {
				err = lc_parse_u32(argv[i], &r.retries) ?
				      lc_usage_error("maint %s: retries \"%s\" is not a number",
						     cmd, argv[i]) : 0;
				r.with_retries = true;
			}
			if (err)
				return err;
		} else if (a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9')) {
			const char *near = lc_suggest(a + strspn(a, "-"), lc_maint_words);

			if (near)
				return lc_usage_error("maint %s: unknown option \"%s\": did you mean the keyword \"%s\"? (keywords are route, timeout, retries)",
						      cmd, a, near);
			return lc_usage_error("maint %s: unknown option \"%s\": keywords are route, timeout, retries",
					      cmd, a);
		} else if (!reg) {
			reg = a;
		} else if (op == LOOM_MAINT_OP_WRITE && !val) {
			val = a;
		} else {
			return lc_usage_error("maint %s: unexpected argument \"%s\": usage: loomctl maint %s [dev DEV] [route ROUTE] [timeout MS] [retries N] REG%s",
					      cmd, a, cmd, op == LOOM_MAINT_OP_WRITE ? " VALUE" : "");
		}
	}
	if (!reg)
		return lc_usage_error("maint %s: missing REG (an offset such as 0x90, or a name such as node_id)",
				      cmd);
	if (op == LOOM_MAINT_OP_WRITE) {
		if (!val)
			return lc_usage_error("maint write: missing VALUE: usage: loomctl maint write [dev DEV] [route ROUTE] REG VALUE");
		if (lc_parse_u32(val, &r.value))
			return lc_usage_error("maint write: VALUE \"%s\" is not a number that fits 32 bits",
					      val);
		r.with_value = true;
	}
	err = lc_maint_parse_reg(reg, &block, &off);
	if (err)
		return err;

	err = lc_nl_open(&nl, o);
	if (err)
		return err;
	r.dev = o->dev;
	snprintf(what, sizeof(what), "maint %s %s on loom%u", cmd, reg, r.dev);
	if (block)
		err = lc_maint_find_block(&nl, &r, block, &at, what);
	if (!err) {
		r.addr = at + off;
		err = lc_maint_access(&nl, &r, &resp, what);
	}
	lc_nl_close(&nl);
	if (err)
		return err;
	lc_maint_print(&r, reg, &resp);
	if (resp.status != LOOM_MAINT_ST_OK) {
		fprintf(stderr, "loomctl: %s: node %u answered %s: %s\n", what, resp.node,
			lc_maint_status_name(resp.status), lc_maint_status_why(resp.status));
		return LC_EXIT_KERNEL;
	}
	return LC_EXIT_OK;
}

static int lc_maint_read(struct lc_opts *o, int argc, char **argv)
{
	return lc_maint_run(o, argc, argv, LOOM_MAINT_OP_READ);
}

static int lc_maint_write(struct lc_opts *o, int argc, char **argv)
{
	return lc_maint_run(o, argc, argv, LOOM_MAINT_OP_WRITE);
}

static const struct lc_cmd lc_maint_cmds[] = {
	{ "read", lc_maint_read, "[route ROUTE] [timeout MS] [retries N] REG",
	  "read a register of any card over the maintenance network (needs CAP_NET_ADMIN)",
	  lc_maint_words, false },
	{ "write", lc_maint_write, "[route ROUTE] [timeout MS] [retries N] REG VALUE",
	  "write a register of any card over the maintenance network (needs CAP_NET_ADMIN)",
	  lc_maint_words, false },
	{ NULL },
};

const struct lc_object lc_obj_maint = {
	.name = "maint",
	.summary = "registers of any card, over the maintenance network",
	.usage = lc_maint_usage,
	.cmds = lc_maint_cmds,
};

/**
 * lc_maint_print_event() - print one LOOM_EVENT_MAINT_RESP for monitor
 * @dev: the card's index
 * @maint: the LOOM_ATTR_MAINT nest
 *
 * Return: 0 or -EPROTO.
 */
int lc_maint_print_event(uint32_t dev, struct nlattr *maint)
{
	struct nlattr *m[LOOM_ATTR_MAINT_MAX + 1];
	char name[24];

	if (lc_nl_parse_nest(m, LOOM_ATTR_MAINT_MAX, maint, lc_maint_policy))
		return -EPROTO;
	snprintf(name, sizeof(name), "loom%u", dev);
	lc_print_open_object(NULL);
	lc_print_str(LC_PRINT_ANY, "event", "maint_resp");
	lc_print_str(LC_PRINT_ANY, "dev", name);
	lc_print_uint(LC_PRINT_ANY, "seq", lc_get_u32(m, LOOM_ATTR_MAINT_SEQ));
	lc_print_uint(LC_PRINT_ANY, "node", lc_get_u32(m, LOOM_ATTR_MAINT_NODE));
	lc_print_str(LC_PRINT_ANY, "status",
		     lc_maint_status_name(lc_get_u32(m, LOOM_ATTR_MAINT_STATUS)));
	lc_print_uint(LC_PRINT_ANY, "value", lc_get_u32(m, LOOM_ATTR_MAINT_VALUE));
	/* the request is known when the response was the one awaited */
	if (m[LOOM_ATTR_MAINT_OP] && m[LOOM_ATTR_MAINT_ADDR]) {
		lc_print_str(LC_PRINT_ANY, "op",
			     nla_get_u8(m[LOOM_ATTR_MAINT_OP]) == LOOM_MAINT_OP_WRITE ?
			     "write" : "read");
		lc_print_hex(LC_PRINT_ANY, "addr", nla_get_u32(m[LOOM_ATTR_MAINT_ADDR]));
		lc_maint_print_route(m[LOOM_ATTR_MAINT_ROUTE] ?
				     nla_data(m[LOOM_ATTR_MAINT_ROUTE]) : NULL,
				     m[LOOM_ATTR_MAINT_ROUTE] ?
				     (unsigned int)nla_len(m[LOOM_ATTR_MAINT_ROUTE]) : 0);
	} else {
		lc_print_text("(late or not awaited)");
	}
	lc_print_close_object();
	lc_print_end();
	return 0;
}
