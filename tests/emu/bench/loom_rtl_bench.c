// SPDX-License-Identifier: GPL-2.0
/*
 * loom-rtl-bench: cycles per second of the card's router, the C model
 * against the Verilated RTL of loom-card --router rtl.
 *
 *   loom-rtl-bench [--cycles N] [--plugin PATH]
 *
 * One card of 2 network ports (the VM lab's) is made twice, with the model
 * router and with the plugin (PATH, else $LOOM_RTL_PLUGIN, else
 * build/rtl/loom-router-rtl.so beside this program's bin/), its network
 * ports up; each router is clocked through the card's router block
 * (card_router.h) alone, the rest of the card idle, under the same load:
 * the host port and network port 1 send PUT packets of 256 bytes (19
 * flits) back to back, host to node 1 (out on port 0), port 1 to node 0
 * (to the host); every output takes its flits and returns their credits
 * the next cycle.  Prints per router the CPU seconds, the cycles per
 * second of CPU and the flits delivered, then the ratio.  Exit status 1 if
 * a router delivered nothing or the plugin does not load.
 */
#include "card.h"
#include "card_router.h"
#include "router/router.h"
#include "rtl_plugin.h"
#include "../put_source.h"
#include "cpu_clock.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define PKT_PAYLOAD	256

/* Clock @c's router @cycles times under the load; the flits delivered. */
static uint64_t run(struct card *c, uint64_t cycles, double *secs)
{
	unsigned int ports = c->p.router.ports;
	struct put_source src[2];
	uint64_t flits = 0;
	double t0;

	put_source_init(&src[0], c, c->host_port, 1, PKT_PAYLOAD);
	put_source_init(&src[1], c, 1, 0, PKT_PAYLOAD);
	t0 = process_cpu_seconds();
	for (uint64_t t = 0; t < cycles; t++) {
		for (unsigned int i = 0; i < 2; i++)
			put_source_drive(c, &src[i]);
		for (unsigned int p = 0; p < ports; p++) {
			struct chan *out = router_out(c->router, p);

			memset(out->back.credits, 0, sizeof(out->back.credits));
			out->back.ready = true;
			if (out->fwd.valid) {
				out->back.credits[out->fwd.vc]++;
				flits++;
			}
		}
		card_router_cycle(c);
	}
	*secs = process_cpu_seconds() - t0;
	return flits;
}

static bool make_card(struct card *c, uint8_t *regs, const char *plugin, char *err,
		      size_t errlen)
{
	struct card_params p;

	card_params_default(&p, 0, 2);
	p.rtl_plugin = plugin;
	memset(regs, 0, CARD_REGS_MIN);
	if (!card_init(c, regs, CARD_REGS_MIN, &p, NULL, err, errlen))
		return false;
	card_set_route(c, 1, 0);
	card_router_sync(c);
	for (unsigned int k = 0; k < c->n_ports; k++)
		card_router_set_port_up(c, k, true);
	return true;
}

int main(int argc, char **argv)
{
	static struct card c;
	static char plugin[PATH_MAX];
	uint64_t cycles = 200000, flits[2];
	const char *path = getenv("LOOM_RTL_PLUGIN");
	double secs[2];
	uint8_t *regs = malloc(CARD_REGS_MIN);
	char err[1024];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cycles") && i + 1 < argc) {
			cycles = strtoull(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--plugin") && i + 1 < argc) {
			path = argv[++i];
		} else {
			fprintf(stderr, "usage: loom-rtl-bench [--cycles N] [--plugin PATH]\n");
			return 2;
		}
	}
	if (!path || !*path) {
		ssize_t n = readlink("/proc/self/exe", plugin, sizeof(plugin) - 1);
		char *slash;

		plugin[n > 0 ? n : 0] = 0;
		slash = strrchr(plugin, '/');
		if (slash)
			*slash = 0;
		strncat(plugin, "/../rtl/" RTL_PLUGIN_FILE, sizeof(plugin) - strlen(plugin) - 1);
		path = plugin;
	}
	if (!regs)
		return 1;
	for (int k = 0; k < 2; k++) {
		if (!make_card(&c, regs, k ? path : NULL, err, sizeof(err))) {
			fprintf(stderr, "loom-rtl-bench: %s\n", err);
			return 1;
		}
		flits[k] = run(&c, cycles, &secs[k]);
		printf("%-6s %s: %llu cycles in %.3f s of CPU: %.0f cycles/s, %llu flits delivered\n",
		       k ? "rtl" : "model", k ? card_router_rtl_desc(&c) : "C model",
		       (unsigned long long)cycles, secs[k], cycles / secs[k],
		       (unsigned long long)flits[k]);
		card_free(&c);
	}
	printf("model / rtl: %.1f times the cycles per second\n",
	       (cycles / secs[0]) / (cycles / secs[1]));
	free(regs);
	return flits[0] && flits[1] ? 0 : 1;
}
