// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: the card emulators and their cabling, as the lab's shape
 * (topology.c) says.  Each cable belongs to its + side: the +d port of
 * node i listens on DIR/cable-i-d.sock and the -d port of its + neighbour
 * connects there.  Every card gets the route of every other node (the
 * first hop of the dimension-order path), unless the lab was started with
 * --no-routes: then each card has only its own route and the fabric
 * manager programs the rest.  In a ring (the 1-D torus) this is port 0 of
 * node i cabled to port 1 of node (i + 1) mod N.  Each card also opens its
 * control socket DIR/cardN.ctl (cut, restore, ber, drop, stats).
 * With --cables tcp the same cables run over TCP on 127.0.0.1: the +d port
 * of node i listens on a port the supervisor found free just before.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab.h"
#include "sys.h"

void lab_argv_add(struct lab_argv *a, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (a->n >= (int)(sizeof(a->v) / sizeof(a->v[0])) - 1)
		abort();
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void lab_argv_free(struct lab_argv *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->v[i]);
	a->n = 0;
	a->v[0] = NULL;
}

/*
 * The VC table that goes with the dimension-order routes (the T3E model,
 * Documentation/hw/routing.rst): every port belongs to its dimension, and
 * the wrap-around channels of a torus or ring are datelines, so that no
 * ring of channels on one VC closes.  Packets start on VC0.
 */
static void card_add_vc_table(struct lab_argv *a, const struct topo_shape *s, int node)
{
	int coord[TOPO_MAX_DIMS];

	topo_coords(s, node, coord);
	for (int port = 0; port < topo_ports(s); port++) {
		int dim = port % s->dims, peer, peer_port;
		bool plus = port < s->dims;
		bool wraps = s->kind != TOPO_MESH &&
			     (plus ? coord[dim] == s->size[dim] - 1 : coord[dim] == 0);

		if (!topo_peer(s, node, port, &peer, &peer_port))
			continue;
		lab_argv_add(a, "--vct");
		lab_argv_add(a, "%d=%d%s", port, dim, wraps ? ",dateline" : "");
	}
}

void lab_card_argv(const struct lab_config *cfg, int i, struct lab_argv *a)
{
	const struct topo_shape *s = &cfg->shape;
	char ram[LAB_PATH_MAX];
	int ports = topo_ports(s);

	lab_ram_path(cfg, i, ram);
	lab_argv_add(a, "%s", cfg->card);
	lab_argv_add(a, "--node");
	lab_argv_add(a, "%d", i);
	lab_argv_add(a, "--ivshmem");
	lab_argv_add(a, "%s/card%d.ivshmem.sock", cfg->dir, i);
	lab_argv_add(a, "--guest-ram");
	lab_argv_add(a, "%s", ram);
	lab_argv_add(a, "--ports");
	lab_argv_add(a, "%d", ports);
	lab_argv_add(a, "--ctl");
	lab_argv_add(a, "%s/card%d.ctl", cfg->dir, i);
	/* a driver that reads back a write-only register, or writes a
	 * read-only one, shows in the card's log (check-log fails on it)
	 */
	lab_argv_add(a, "--strict-registers");
	if (cfg->rtl_router) {
		lab_argv_add(a, "--router");
		lab_argv_add(a, "rtl");
	}
	for (int port = 0; port < ports; port++) {
		int peer, peer_port;

		if (!topo_peer(s, i, port, &peer, &peer_port))
			continue;
		lab_argv_add(a, "--cable");
		if (cfg->tcp_cables && port < s->dims)
			lab_argv_add(a, "%d=tcp-listen:127.0.0.1:%d", port,
				     cfg->tcp_port[i][port]);
		else if (cfg->tcp_cables)
			lab_argv_add(a, "%d=tcp-connect:127.0.0.1:%d", port,
				     cfg->tcp_port[peer][peer_port]);
		else if (port < s->dims)
			lab_argv_add(a, "%d=listen:%s/cable-%d-%d.sock", port, cfg->dir,
				     i, port);
		else
			lab_argv_add(a, "%d=connect:%s/cable-%d-%d.sock", port, cfg->dir,
				     peer, peer_port);
	}
	for (int d = 0; d < topo_nodes(s) && !cfg->no_routes; d++) {
		if (d == i)
			continue;
		lab_argv_add(a, "--route");
		lab_argv_add(a, "%d=%d", d, topo_route(s, i, d));
	}
	if (!cfg->no_routes)
		card_add_vc_table(a, s, i);
}

/*
 * A port on 127.0.0.1 per listening (+d) end: each found free by binding
 * port 0, all held until every one is chosen so that they differ, then
 * released for the cards to bind a moment later.
 */
int lab_card_tcp_ports(struct lab_config *cfg)
{
	int fds[LAB_MAX_HOSTS * TOPO_MAX_DIMS], n = 0, rc = 0;
	const struct topo_shape *s = &cfg->shape;

	for (int i = 0; i < cfg->hosts && !rc; i++) {
		for (int d = 0; d < s->dims && !rc; d++) {
			struct sockaddr_in sa = { .sin_family = AF_INET,
						  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
			socklen_t len = sizeof(sa);
			int peer, peer_port, fd;

			cfg->tcp_port[i][d] = 0;
			if (!topo_peer(s, i, d, &peer, &peer_port))
				continue;
			fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
			    getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
				lab_err("cannot find a free TCP port on 127.0.0.1 for the cable of "
					"node %d port %d: %s", i, d, strerror(errno));
				if (fd >= 0)
					close(fd);
				rc = -1;
				break;
			}
			fds[n++] = fd;
			cfg->tcp_port[i][d] = ntohs(sa.sin_port);
		}
	}
	while (n)
		close(fds[--n]);
	return rc;
}
