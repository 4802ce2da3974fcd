// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab topology: prints what `start --shape SHAPE` would build -- the
 * nodes and their coordinates, the cables and every card's routing table --
 * as text or (-j) JSON, without starting anything.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"

static void print_coords(const struct topo_shape *s, int node)
{
	int c[TOPO_MAX_DIMS];

	topo_coords(s, node, c);
	for (int d = 0; d < s->dims; d++)
		printf("%s%d", d ? "," : "", c[d]);
}

static void print_text(const struct topo_shape *s)
{
	struct topo_cable cables[LAB_MAX_HOSTS * TOPO_MAX_DIMS];
	int nodes = topo_nodes(s), ports = topo_ports(s);
	int ncables = topo_cables(s, cables, (int)(sizeof(cables) / sizeof(cables[0])));
	char name[TOPO_NAME_MAX];

	topo_name(s, name, sizeof(name));
	printf("shape %s: %d node%s, %d ports per node (", name, nodes,
	       nodes > 1 ? "s" : "", ports);
	for (int p = 0; p < ports; p++)
		printf("%s%d %s", p ? ", " : "", p, topo_port_name(s, p));
	printf(")\n\nnodes (id: coordinates");
	for (int d = 0; d < s->dims; d++)
		printf("%s%c", d ? "," : " ", "xyz"[d]);
	printf("):\n");
	for (int n = 0; n < nodes; n++) {
		printf("  node %d: (", n);
		print_coords(s, n);
		printf(")\n");
	}
	printf("\ncables (%d):\n", ncables);
	for (int i = 0; i < ncables; i++)
		printf("  node %d port %d (%s) <-> node %d port %d (%s)\n",
		       cables[i].node_a, cables[i].port_a,
		       topo_port_name(s, cables[i].port_a), cables[i].node_b,
		       cables[i].port_b, topo_port_name(s, cables[i].port_b));
	if (!ncables)
		printf("  none\n");
	printf("\nroutes (DESTINATION=PORT of the first hop; the node itself is its "
	       "host):\n");
	for (int n = 0; n < nodes; n++) {
		printf("  node %d:", n);
		for (int d = 0; d < nodes; d++) {
			int port = topo_route(s, n, d);

			if (port == TOPO_ROUTE_HOST)
				printf(" %d=host", d);
			else
				printf(" %d=%d(%s)", d, port, topo_port_name(s, port));
		}
		printf("\n");
	}
}

static void print_json(const struct topo_shape *s)
{
	static const char *const kinds[] = {
		[TOPO_RING] = "ring", [TOPO_MESH] = "mesh", [TOPO_TORUS] = "torus",
	};
	struct topo_cable cables[LAB_MAX_HOSTS * TOPO_MAX_DIMS];
	int nodes = topo_nodes(s), ports = topo_ports(s);
	int ncables = topo_cables(s, cables, (int)(sizeof(cables) / sizeof(cables[0])));
	char name[TOPO_NAME_MAX];

	topo_name(s, name, sizeof(name));
	printf("{\"shape\":\"%s\",\"kind\":\"%s\",\"size\":[", name, kinds[s->kind]);
	for (int d = 0; d < s->dims; d++)
		printf("%s%d", d ? "," : "", s->size[d]);
	printf("],\"node_count\":%d,\"ports\":[", nodes);
	for (int p = 0; p < ports; p++)
		printf("%s\"%s\"", p ? "," : "", topo_port_name(s, p));
	printf("],\"nodes\":[");
	for (int n = 0; n < nodes; n++) {
		printf("%s{\"id\":%d,\"coords\":[", n ? "," : "", n);
		print_coords(s, n);
		printf("],\"routes\":[");
		for (int d = 0, first = 1; d < nodes; d++) {
			int port = topo_route(s, n, d);

			if (port == TOPO_ROUTE_HOST)
				continue;
			printf("%s{\"dst\":%d,\"port\":%d}", first ? "" : ",", d, port);
			first = 0;
		}
		printf("]}");
	}
	printf("],\"cables\":[");
	for (int i = 0; i < ncables; i++)
		printf("%s{\"a\":{\"node\":%d,\"port\":%d},\"b\":{\"node\":%d,\"port\":%d}}",
		       i ? "," : "", cables[i].node_a, cables[i].port_a, cables[i].node_b,
		       cables[i].port_b);
	printf("]}\n");
}

int cmd_topology(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "shape", required_argument, NULL, 's' },
		{ "hosts", required_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *shape_arg = "ring";
	struct topo_shape shape;
	char err[512];
	bool json = false;
	int c, hosts = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "hj", opts, NULL)) != -1) {
		switch (c) {
		case 's': shape_arg = optarg; break;
		case 'n': {
			char *end;
			long v;

			errno = 0;
			v = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 1 || v > LAB_MAX_HOSTS) {
				lab_err("--hosts %s: expected a whole number from 1 to %d",
					optarg, LAB_MAX_HOSTS);
				return 2;
			}
			hosts = (int)v;
			break;
		}
		case 'j': json = true; break;
		case 'h': lab_help("topology", 0); return 0;
		default: return lab_bad_option("topology", argv, opts);
		}
	}
	if (optind != argc) {
		lab_err("topology: unexpected argument '%s'", argv[optind]);
		return 2;
	}
	if (topo_parse(shape_arg, hosts, LAB_MAX_HOSTS, &shape, err, sizeof(err)) < 0) {
		lab_err("topology: %s", err);
		return 2;
	}
	if (json)
		print_json(&shape);
	else
		print_text(&shape);
	return fflush(stdout) ? 1 : 0;
}
