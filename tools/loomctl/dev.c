// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl dev: identity and settings of the cards (LOOM_CMD_DEV_GET) and
 * changes of the settings (LOOM_CMD_DEV_SET).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "loomctl.h"

static const char lc_dev_usage[] =
"DESCRIPTION\n"
"    show prints, for the card DEV (or every card when none is named): its\n"
"    device name, PCI address, bound driver, PCI id and kind, physical\n"
"    node id, logical node id, number of network ports, contexts and\n"
"    routing-table entries, the firmware's description, design version,\n"
"    build id and build time; \"emulated\" marks the VM lab's card\n"
"    emulator.  A last line shows the settings dev set changes, when the\n"
"    card has them.\n"
"\n"
"    Without a DEV, the cards are also those found on the PCI bus\n"
"    (libpci): the real card (10ee:4c4d) and the lab's ivshmem device\n"
"    (1af4:1110) with the loom signature.  A card not bound to loom.ko is\n"
"    listed with its driver (\"none\"), PCI id and kind (card, lab, or\n"
"    ivshmem-unchecked when its signature cannot be read: that needs\n"
"    root); its firmware and node ids are unknown, since only the driver\n"
"    reads them.\n"
"\n"
"    set (needs CAP_NET_ADMIN) changes one or more settings at once; a\n"
"    refused request changes none of them:\n"
"        logical_id N        the card's logical node id (0..routes-1): the\n"
"                            source node of its packets\n"
"        fp_timeout_ms MS    forward-progress timer: a VC that holds\n"
"                            packets with no credit back for MS ms\n"
"                            declares its port dead (0 = off, at most\n"
"                            3600000)\n"
"        lane_threshold N    CRC errors on one lane within the lane window\n"
"                            that drop the lane (1..65535)\n"
"\n"
"FIELDS (text and JSON)\n"
"    dev index pci driver pci_id kind node_id logical_id n_ports\n"
"    n_contexts rt_entries fw_desc fw_version fw_build_id fw_build_time\n"
"    emulated fp_timeout_ms lane_threshold\n"
"    (fw_build_time is seconds since 1970, text adds the date; the last\n"
"    two only when the card has them; a card not bound to loom.ko has\n"
"    dev, index, node_id, logical_id and fw_version null in JSON)\n"
"\n"
"    Text:  dev loom0 index 0 pci 0000:00:03.0 driver loom pci_id 1af4:1110 kind lab\n"
"               node_id 0 logical_id 0 n_ports 2 n_contexts 64 rt_entries 1024\n"
"               fw_desc loom-card-emu fw_version 0.1.0 fw_build_id dc8972b3 ...\n"
"               fp_timeout_ms 1000 lane_threshold 16\n"
"\n"
"EXAMPLES\n"
"    loomctl dev\n"
"    loomctl dev set fp_timeout_ms 500 lane_threshold 8\n"
"    loomctl dev set dev loom1 logical_id 3\n";

struct lc_dev_out {
	unsigned int n;
	struct lc_pci_card cards[LC_PCI_MAX_CARDS];
	unsigned int n_cards;
	bool scanned;		/* cards[] holds the PCI scan */
};

/* the driver bound to the card at @pci, from the scan ("loom" when the scan
 * did not see it: the module just reported it)
 */
static const char *lc_dev_driver(struct lc_dev_out *out, const char *pci)
{
	for (unsigned int i = 0; i < out->n_cards; i++) {
		if (!strcmp(out->cards[i].addr, pci)) {
			out->cards[i].seen = true;
			return out->cards[i].driver[0] ? out->cards[i].driver : "none";
		}
	}
	return "loom";
}

/* a card on the bus that the module did not report: its ids and driver */
static void lc_dev_print_pci(const struct lc_pci_card *c)
{
	char id[16];

	snprintf(id, sizeof(id), "%04x:%04x", c->vendor, c->device);
	lc_print_open_object(NULL);
	lc_print_null(LC_PRINT_ANY, "dev");
	lc_print_null(LC_PRINT_ANY, "index");
	lc_print_str(LC_PRINT_ANY, "pci", c->addr);
	if (c->driver[0]) {
		lc_print_str(LC_PRINT_ANY, "driver", c->driver);
	} else {
		lc_print_null(LC_PRINT_JSON, "driver");
		lc_print_str(LC_PRINT_TEXT, "driver", "none");
	}
	lc_print_str(LC_PRINT_ANY, "pci_id", id);
	lc_print_str(LC_PRINT_ANY, "kind", lc_pci_kind(c));
	lc_print_null(LC_PRINT_ANY, "node_id");
	lc_print_null(LC_PRINT_ANY, "logical_id");
	lc_print_null(LC_PRINT_ANY, "fw_version");
	lc_print_nl();
	lc_print_text("(firmware, node and logical id unknown: only loom.ko reads them; bind the card to loom)");
	lc_print_close_object();
}

static const char *lc_str(struct nlattr **tb, int attr)
{
	return tb[attr] ? nla_get_string(tb[attr]) : "";
}

static int lc_dev_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct lc_dev_out *out = arg;
	uint32_t v = lc_get_u32(tb, LOOM_ATTR_DEV_FW_VERSION);
	time_t built = (time_t)lc_get_u64(tb, LOOM_ATTR_DEV_FW_BUILD_TIME);
	bool emulated = tb[LOOM_ATTR_DEV_EMULATED] != NULL;
	char when[40] = "?", name[24], text[32];
	uint32_t pci_id, index;
	struct tm tm;

	if (cmd != LOOM_CMD_DEV_GET || !tb[LOOM_ATTR_DEV_INDEX])
		return 0;
	index = lc_get_u32(tb, LOOM_ATTR_DEV_INDEX);
	pci_id = emulated ? 0x1af41110u :
		 (uint32_t)LOOM_PCI_VENDOR_ID << 16 | LOOM_PCI_DEVICE_ID;
	if (gmtime_r(&built, &tm))
		strftime(when, sizeof(when), "(%Y-%m-%d %H:%M:%S UTC)", &tm);
	snprintf(name, sizeof(name), "loom%u", index);
	lc_print_open_object(NULL);
	lc_print_str(LC_PRINT_ANY, "dev", name);
	lc_print_uint(LC_PRINT_ANY, "index", index);
	lc_print_str(LC_PRINT_ANY, "pci", lc_str(tb, LOOM_ATTR_DEV_PCI_NAME));
	lc_print_str(LC_PRINT_ANY, "driver",
		     lc_dev_driver(out, lc_str(tb, LOOM_ATTR_DEV_PCI_NAME)));
	snprintf(text, sizeof(text), "%04x:%04x", pci_id >> 16, pci_id & 0xffff);
	lc_print_str(LC_PRINT_ANY, "pci_id", text);
	lc_print_str(LC_PRINT_ANY, "kind", emulated ? "lab" : "card");
	lc_print_nl();
	lc_print_uint(LC_PRINT_ANY, "node_id", lc_get_u32(tb, LOOM_ATTR_DEV_NODE_ID));
	lc_print_uint(LC_PRINT_ANY, "logical_id", lc_get_u32(tb, LOOM_ATTR_DEV_LOGICAL_ID));
	lc_print_uint(LC_PRINT_ANY, "n_ports", lc_get_u32(tb, LOOM_ATTR_DEV_N_PORTS));
	lc_print_uint(LC_PRINT_ANY, "n_contexts", lc_get_u32(tb, LOOM_ATTR_DEV_N_CONTEXTS));
	lc_print_uint(LC_PRINT_ANY, "rt_entries", lc_get_u32(tb, LOOM_ATTR_DEV_RT_ENTRIES));
	lc_print_nl();
	lc_print_str(LC_PRINT_ANY, "fw_desc", lc_str(tb, LOOM_ATTR_DEV_FW_DESC));
	snprintf(text, sizeof(text), "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
	lc_print_str(LC_PRINT_ANY, "fw_version", text);
	snprintf(text, sizeof(text), "%08x", lc_get_u32(tb, LOOM_ATTR_DEV_FW_BUILD_ID));
	lc_print_str(LC_PRINT_ANY, "fw_build_id", text);
	lc_print_uint(LC_PRINT_ANY, "fw_build_time", (uint64_t)built);
	lc_print_text("%s", when);
	lc_print_bool(LC_PRINT_ANY, "emulated", emulated);
	if (tb[LOOM_ATTR_DEV_FP_TIMEOUT_MS] || tb[LOOM_ATTR_DEV_LANE_THRESHOLD])
		lc_print_nl();
	if (tb[LOOM_ATTR_DEV_FP_TIMEOUT_MS])
		lc_print_uint(LC_PRINT_ANY, "fp_timeout_ms",
			      lc_get_u32(tb, LOOM_ATTR_DEV_FP_TIMEOUT_MS));
	if (tb[LOOM_ATTR_DEV_LANE_THRESHOLD])
		lc_print_uint(LC_PRINT_ANY, "lane_threshold",
			      lc_get_u32(tb, LOOM_ATTR_DEV_LANE_THRESHOLD));
	lc_print_close_object();
	out->n++;
	return 0;
}

static int lc_dev_build(struct nl_msg *msg, void *arg)
{
	const struct lc_opts *o = arg;

	return nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, o->dev) ? -ENOMEM : 0;
}

struct lc_dev_set {
	uint32_t dev;
	uint32_t val[3];	/* logical-id, fp-timeout, lane-threshold */
	bool given[3];
};

static const int lc_dev_set_attrs[3] = {
	LOOM_ATTR_DEV_LOGICAL_ID, LOOM_ATTR_DEV_FP_TIMEOUT_MS,
	LOOM_ATTR_DEV_LANE_THRESHOLD,
};

static int lc_dev_set_build(struct nl_msg *msg, void *arg)
{
	const struct lc_dev_set *r = arg;

	if (nla_put_u32(msg, LOOM_ATTR_DEV_INDEX, r->dev))
		return -ENOMEM;
	for (int i = 0; i < 3; i++)
		if (r->given[i] && nla_put_u32(msg, lc_dev_set_attrs[i], r->val[i]))
			return -ENOMEM;
	return 0;
}

static const char *const lc_dev_set_words[] = { "logical_id", "fp_timeout_ms",
						"lane_threshold", NULL };

static int lc_dev_set(struct lc_opts *o, int argc, char **argv)
{
	static const char usage[] =
		"usage: loomctl dev set [dev DEV] [logical_id N] [fp_timeout_ms MS] [lane_threshold N]";
	const char *const *words = lc_dev_set_words;
	struct lc_dev_set r = { .dev = 0 };
	struct lc_nl nl;
	char what[48];
	int err;

	if (!argc)
		return lc_usage_error("dev set: nothing to set: %s", usage);
	for (int i = 0; i < argc; i++) {
		int w = lc_keyword("dev set", argv[i], words);

		if (w < 0)
			return LC_EXIT_USAGE;
		if (++i >= argc)
			return lc_usage_error("dev set: \"%s\" needs a number", words[w]);
		if (lc_parse_u32(argv[i], &r.val[w]))
			return lc_usage_error("dev set: %s \"%s\" is not a number",
					      words[w], argv[i]);
		r.given[w] = true;
	}
	err = lc_nl_open(&nl, o);
	if (err)
		return err;
	r.dev = o->dev;
	snprintf(what, sizeof(what), "dev set on loom%u", r.dev);
	err = lc_nl_request(&nl, LOOM_CMD_DEV_SET, false, lc_dev_set_build, &r,
			    NULL, NULL);
	return lc_nl_finish(&nl, err, what,
			    "changing a card's settings needs CAP_NET_ADMIN (run it as root)");
}

static int lc_dev_show(struct lc_opts *o, int argc, char **argv)
{
	static struct lc_dev_out out;
	bool all = !o->dev_given;
	unsigned int bound = 0;
	struct lc_nl nl;
	char what[32];
	int err;

	if (argc > 0)
		return lc_usage_error("dev show: unexpected argument \"%s\": usage: loomctl [-j] dev show [dev DEV]",
				      argv[0]);
	/* every card: the module's view merged, by PCI address, with the bus's,
	 * so a card bound to another driver or to none is listed too
	 */
	if (all && !lc_pci_scan(out.cards, LC_PCI_MAX_CARDS, &out.n_cards))
		out.scanned = true;
	lc_print_open_array(LC_PRINT_JSON, NULL);
	err = lc_nl_open(&nl, o);
	if (!err) {
		err = lc_nl_request(&nl, LOOM_CMD_DEV_GET, all,
				    all ? NULL : lc_dev_build, o, lc_dev_print, &out);
		bound = out.n;
	}
	for (unsigned int i = 0; i < out.n_cards; i++)
		if (!out.cards[i].seen)
			lc_dev_print_pci(&out.cards[i]);
	lc_print_close_array(LC_PRINT_JSON);
	lc_print_end();
	if (!nl.sk)
		return err;	/* lc_nl_open() said why */
	if (err) {
		if (all)
			snprintf(what, sizeof(what), "dev show");
		else
			snprintf(what, sizeof(what), "dev show loom%u", o->dev);
		err = lc_nl_refused(&nl, err, what, NULL);
	} else if (all && !bound && !o->json) {
		fprintf(stderr, "loomctl: loom.ko is loaded but has no card bound%s\n",
			out.n_cards ? " (the cards above are on the PCI bus)" :
			out.scanned ? " and no card is on the PCI bus" : "");
	}
	lc_nl_close(&nl);
	return err;
}

static const struct lc_cmd lc_dev_cmds[] = {
	{ "show", lc_dev_show, "",
	  "identity of the cards: PCI address, driver, node ids, ports, firmware", NULL, true },
	{ "set", lc_dev_set, "[logical_id N] [fp_timeout_ms MS] [lane_threshold N]",
	  "change a card's settings (needs CAP_NET_ADMIN)", lc_dev_set_words, false },
	{ NULL },
};

const struct lc_object lc_obj_dev = {
	.name = "dev",
	.summary = "the cards: identity, firmware and settings",
	.usage = lc_dev_usage,
	.cmds = lc_dev_cmds,
};
