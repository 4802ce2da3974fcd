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
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	for (int port = 0; port < ports; port++) {
		int peer, peer_port;

		if (!topo_peer(s, i, port, &peer, &peer_port))
			continue;
		lab_argv_add(a, "--cable");
		if (port < s->dims)
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

/* True when some socket listens on path (from /proc/net/unix, so the
 * emulator does not see a probe connection). */
static bool listening(const char *path)
{
	char line[LAB_PATH_MAX + 128];
	bool found = false;
	FILE *f = fopen("/proc/net/unix", "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long flags = 0;
		char *p, *sock_path;

		line[strcspn(line, "\n")] = 0;
		sock_path = strchr(line, '/');
		if (!sock_path || strcmp(sock_path, path))
			continue;
		/* Num: RefCount Protocol Flags ... ; flag 0x10000 = listening */
		p = strchr(line, ':');
		if (p && sscanf(p + 1, "%*x %*x %lx", &flags) == 1 &&
		    (flags & 0x10000))
			found = true;
	}
	fclose(f);
	return found;
}

int lab_card_wait_listening(const struct lab_config *cfg, int host, pid_t pid,
			    int timeout_ms)
{
	char path[LAB_PATH_MAX];
	int64_t end = now_ms() + timeout_ms;
	int status;

	if (lab_path(path, cfg->dir, "card%d.ivshmem.sock", host) < 0)
		return -1;
	for (;;) {
		if (listening(path))
			return 0;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			lab_err("card emulator %d (pid %d) exited before listening on %s "
				"(status %d); see %s/card%d.log", host, (int)pid, path,
				WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
				cfg->dir, host);
			return -1;
		}
		if (now_ms() > end) {
			lab_err("card emulator %d (pid %d) did not listen on %s within %d s; "
				"see %s/card%d.log", host, (int)pid, path, timeout_ms / 1000,
				cfg->dir, host);
			return -1;
		}
		usleep(20000);
	}
}
