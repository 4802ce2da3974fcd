// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl dev: identity and settings of the cards (LOOM_CMD_DEV_GET) and
 * changes of the settings (LOOM_CMD_DEV_SET).
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "loomctl.h"

const char lc_dev_usage[] =
"NAME\n"
"    loomctl dev - identity of loom cards\n"
"\n"
"SYNOPSIS\n"
"    loomctl [-j] [-d DEV] dev [show]\n"
"    loomctl [-d DEV] dev set [logical-id N] [fp-timeout MS] [lane-threshold N]\n"
"    loomctl dev help\n"
"\n"
"DESCRIPTION\n"
"    Prints, for the card DEV (or every card when -d is not given): its\n"
"    device name, PCI address, bound driver, physical node id, logical\n"
"    node id, number of network ports, contexts and routing-table entries,\n"
"    and the firmware's design version, build id, build time and\n"
"    description; \"emulated\" marks the VM lab's card emulator.  A third\n"
"    line shows the settings dev set changes, when the card has them.\n"
"\n"
"    Without -d, the cards are those found on the PCI bus (libpci): the\n"
"    real card (10ee:4c4d) and the lab's ivshmem device (1af4:1110) with\n"
"    the loom signature.  A card not bound to loom.ko is listed as \"-\"\n"
"    with its driver (\"none\"), PCI id and kind (card, lab, or\n"
"    ivshmem-unchecked when its signature cannot be read: that needs\n"
"    root); its firmware and node ids are unknown, since only the driver\n"
"    reads them.\n"
"\n"
"    set (needs CAP_NET_ADMIN) changes one or more settings at once; a\n"
"    refused request changes none of them:\n"
"        logical-id N        the card's logical node id (0..routes-1): the\n"
"                            source node of its packets\n"
"        fp-timeout MS       forward-progress timer: a VC that holds\n"
"                            packets with no credit back for MS ms\n"
"                            declares its port dead (0 = off, at most\n"
"                            3600000)\n"
"        lane-threshold N    CRC errors on one lane within the lane window\n"
"                            that drop the lane (1..65535)\n"
"\n"
"    Text:  loom0: pci 0000:00:03.0 driver loom node 0 logical 0 ports 2 contexts 64 routes 1024\n"
"               firmware \"loom-card-emu\" version 0.1.0 build dc8972b3 built 2026-11-22 20:53:16 UTC emulated\n"
"               settings fp-timeout 1000 ms lane-threshold 16\n"
"           -: pci 0000:00:04.0 driver none id 1af4:1110 lab\n"
"    JSON:  an array of objects with the keys dev, index, pci, driver,\n"
"           pci_id, kind, node_id, logical_id, n_ports, n_contexts,\n"
"           rt_entries, fw_version, fw_build_id, fw_build_time, fw_desc,\n"
"           emulated, and fp_timeout_ms and lane_threshold when the card\n"
"           has them; a card not bound to loom.ko has dev, index,\n"
"           node_id, logical_id and fw_version null.\n"
"\n"
"EXIT STATUS\n"
"    0 success, 1 no such card, loom.ko not loaded (the cards on the PCI\n"
"    bus are still listed) or the kernel refused the change (its\n"
"    explanation is printed), 2 usage error\n"
"\n"
"EXAMPLES\n"
"    loomctl dev\n"
"    loomctl dev set fp-timeout 500 lane-threshold 8\n"
"    loomctl -d loom1 dev set logical-id 3\n";

struct lc_dev_out {
	const struct lc_opts *o;
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
static void lc_dev_print_pci(struct lc_dev_out *out, const struct lc_pci_card *c)
{
	if (out->o->json) {
		printf("%s{\"dev\":null,\"index\":null,\"pci\":", out->n ? "," : "");
		lc_json_str(stdout, c->addr);
		fputs(",\"driver\":", stdout);
		if (c->driver[0])
			lc_json_str(stdout, c->driver);
		else
			fputs("null", stdout);
		printf(",\"pci_id\":\"%04x:%04x\",\"kind\":\"%s\",\"node_id\":null,"
		       "\"logical_id\":null,\"fw_version\":null}",
		       c->vendor, c->device, lc_pci_kind(c));
	} else {
		printf("-: pci %s driver %s id %04x:%04x %s\n", c->addr,
		       c->driver[0] ? c->driver : "none", c->vendor, c->device,
		       lc_pci_kind(c));
		printf("    firmware, node and logical id unknown: only loom.ko reads them (bind the card to loom)\n");
	}
	out->n++;
}

static uint32_t lc_u32(struct nlattr **tb, int attr)
{
	return tb[attr] ? nla_get_u32(tb[attr]) : 0;
}

static const char *lc_str(struct nlattr **tb, int attr)
{
	return tb[attr] ? nla_get_string(tb[attr]) : "";
}

static int lc_dev_print(struct nlattr **tb, uint8_t cmd, void *arg)
{
	struct lc_dev_out *out = arg;
	uint32_t v = lc_u32(tb, LOOM_ATTR_DEV_FW_VERSION);
	time_t built = tb[LOOM_ATTR_DEV_FW_BUILD_TIME] ?
		       (time_t)nla_get_u64(tb[LOOM_ATTR_DEV_FW_BUILD_TIME]) : 0;
	bool emulated = tb[LOOM_ATTR_DEV_EMULATED] != NULL;
	char when[32] = "?";
	struct tm tm;

	const char *drv;
	uint32_t pci_id;

	if (cmd != LOOM_CMD_DEV_GET || !tb[LOOM_ATTR_DEV_INDEX])
		return 0;
	drv = lc_dev_driver(out, lc_str(tb, LOOM_ATTR_DEV_PCI_NAME));
	pci_id = emulated ? 0x1af41110u :
		 (uint32_t)LOOM_PCI_VENDOR_ID << 16 | LOOM_PCI_DEVICE_ID;
	if (gmtime_r(&built, &tm))
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	if (out->o->json) {
		printf("%s{\"dev\":\"loom%u\",\"index\":%u,\"pci\":", out->n ? "," : "",
		       lc_u32(tb, LOOM_ATTR_DEV_INDEX), lc_u32(tb, LOOM_ATTR_DEV_INDEX));
		lc_json_str(stdout, lc_str(tb, LOOM_ATTR_DEV_PCI_NAME));
		fputs(",\"driver\":", stdout);
		lc_json_str(stdout, drv);
		printf(",\"pci_id\":\"%04x:%04x\",\"kind\":\"%s\"", pci_id >> 16, pci_id & 0xffff,
		       emulated ? "lab" : "card");
		printf(",\"node_id\":%u,\"logical_id\":%u,\"n_ports\":%u,\"n_contexts\":%u,"
		       "\"rt_entries\":%u,\"fw_version\":\"%u.%u.%u\",\"fw_build_id\":\"%08x\","
		       "\"fw_build_time\":%lld,\"fw_desc\":",
		       lc_u32(tb, LOOM_ATTR_DEV_NODE_ID), lc_u32(tb, LOOM_ATTR_DEV_LOGICAL_ID),
		       lc_u32(tb, LOOM_ATTR_DEV_N_PORTS), lc_u32(tb, LOOM_ATTR_DEV_N_CONTEXTS),
		       lc_u32(tb, LOOM_ATTR_DEV_RT_ENTRIES), v >> 16, (v >> 8) & 0xff, v & 0xff,
		       lc_u32(tb, LOOM_ATTR_DEV_FW_BUILD_ID), (long long)built);
		lc_json_str(stdout, lc_str(tb, LOOM_ATTR_DEV_FW_DESC));
		printf(",\"emulated\":%s", emulated ? "true" : "false");
		if (tb[LOOM_ATTR_DEV_FP_TIMEOUT_MS])
			printf(",\"fp_timeout_ms\":%u",
			       lc_u32(tb, LOOM_ATTR_DEV_FP_TIMEOUT_MS));
		if (tb[LOOM_ATTR_DEV_LANE_THRESHOLD])
			printf(",\"lane_threshold\":%u",
			       lc_u32(tb, LOOM_ATTR_DEV_LANE_THRESHOLD));
		putchar('}');
	} else {
		printf("loom%u: pci %s driver %s node %u logical %u ports %u contexts %u routes %u\n",
		       lc_u32(tb, LOOM_ATTR_DEV_INDEX), lc_str(tb, LOOM_ATTR_DEV_PCI_NAME), drv,
		       lc_u32(tb, LOOM_ATTR_DEV_NODE_ID), lc_u32(tb, LOOM_ATTR_DEV_LOGICAL_ID),
		       lc_u32(tb, LOOM_ATTR_DEV_N_PORTS), lc_u32(tb, LOOM_ATTR_DEV_N_CONTEXTS),
		       lc_u32(tb, LOOM_ATTR_DEV_RT_ENTRIES));
		printf("    firmware \"%s\" version %u.%u.%u build %08x built %s%s\n",
		       lc_str(tb, LOOM_ATTR_DEV_FW_DESC), v >> 16, (v >> 8) & 0xff, v & 0xff,
		       lc_u32(tb, LOOM_ATTR_DEV_FW_BUILD_ID), when,
		       emulated ? " emulated" : "");
		if (tb[LOOM_ATTR_DEV_FP_TIMEOUT_MS] || tb[LOOM_ATTR_DEV_LANE_THRESHOLD]) {
			fputs("    settings", stdout);
			if (tb[LOOM_ATTR_DEV_FP_TIMEOUT_MS])
				printf(" fp-timeout %u ms", lc_u32(tb, LOOM_ATTR_DEV_FP_TIMEOUT_MS));
			if (tb[LOOM_ATTR_DEV_LANE_THRESHOLD])
				printf(" lane-threshold %u",
				       lc_u32(tb, LOOM_ATTR_DEV_LANE_THRESHOLD));
			putchar('\n');
		}
	}
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

static int lc_dev_set(const struct lc_opts *o, int argc, char **argv)
{
	static const char *const words[] = { "logical-id", "fp-timeout",
					     "lane-threshold", NULL };
	static const char usage[] =
		"usage: loomctl dev set [logical-id N] [fp-timeout MS] [lane-threshold N]";
	struct lc_dev_set r = { .dev = o->dev == UINT32_MAX ? 0 : o->dev };
	struct lc_nl nl;
	char what[48];
	int err;

	if (!argc)
		return lc_usage_error("dev set: nothing to set: %s", usage);
	for (int i = 0; i < argc; i++) {
		int w = lc_match(argv[i], words);

		if (w < 0)
			return lc_usage_error("dev set: unknown setting \"%s\": %s", argv[i], usage);
		if (++i >= argc)
			return lc_usage_error("dev set: \"%s\" needs a number", words[w]);
		if (lc_parse_u32(argv[i], &r.val[w]))
			return lc_usage_error("dev set: %s \"%s\" is not a number",
					      words[w], argv[i]);
		r.given[w] = true;
	}
	snprintf(what, sizeof(what), "dev set on loom%u", r.dev);
	err = lc_nl_open(&nl);
	if (err)
		return err;
	err = lc_nl_request(&nl, LOOM_CMD_DEV_SET, false, lc_dev_set_build, &r,
			    NULL, NULL);
	if (err)
		err = lc_nl_refused(&nl, err, what,
				    "changing a card's settings needs CAP_NET_ADMIN (run it as root)");
	lc_nl_close(&nl);
	return err;
}

int lc_dev_run(const struct lc_opts *o, int argc, char **argv)
{
	static const char *const cmds[] = { "show", "list", "set", NULL };
	static struct lc_dev_out out;
	bool all = o->dev == UINT32_MAX;
	unsigned int bound = 0;
	struct lc_nl nl;
	char what[32];
	int err;

	out.o = o;

	if (argc > 0 && lc_is_help(argv[0])) {
		fputs(lc_dev_usage, stdout);
		return LC_EXIT_OK;
	}
	if (argc > 0 && lc_match(argv[0], cmds) < 0)
		return lc_usage_error("dev: unknown command \"%s\": commands are show, set, help",
				      argv[0]);
	if (argc > 0 && lc_match(argv[0], cmds) == 2)
		return lc_dev_set(o, argc - 1, argv + 1);
	if (argc > 1)
		return lc_usage_error("dev show: unexpected argument \"%s\": usage: loomctl [-j] [-d DEV] dev [show]",
				      argv[1]);
	/* every card: the module's view merged, by PCI address, with the bus's,
	 * so a card bound to another driver or to none is listed too
	 */
	if (all && !lc_pci_scan(out.cards, LC_PCI_MAX_CARDS, &out.n_cards))
		out.scanned = true;
	if (o->json)
		fputs("[", stdout);
	err = lc_nl_open(&nl);
	if (!err) {
		err = lc_nl_request(&nl, LOOM_CMD_DEV_GET, all,
				    all ? NULL : lc_dev_build, (void *)o, lc_dev_print, &out);
		bound = out.n;
	}
	for (unsigned int i = 0; i < out.n_cards; i++)
		if (!out.cards[i].seen)
			lc_dev_print_pci(&out, &out.cards[i]);
	if (o->json)
		fputs("]\n", stdout);
	fflush(stdout);
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
			out.n ? " (the cards above are on the PCI bus)" :
			out.scanned ? " and no card is on the PCI bus" : "");
	}
	lc_nl_close(&nl);
	return err;
}
