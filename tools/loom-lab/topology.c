// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: fabric shapes (see topology.h for the conventions).  No I/O:
 * the lab builds the emulators' --cable and --route options from these
 * functions, `loom-lab topology` prints them and the unit test walks them.
 */
#include <stdio.h>
#include <string.h>

#include "topology.h"

static const char *const kind_names[] = {
	[TOPO_RING] = "ring", [TOPO_MESH] = "mesh", [TOPO_TORUS] = "torus",
};

static void set_err(char *err, size_t errlen, const char *text, const char *why,
		    int max_nodes)
{
	if (!err || !errlen)
		return;
	snprintf(err, errlen,
		 "--shape %s: %s; accepted: ring (nodes from --hosts), "
		 "mesh:X[xY[xZ]] or torus:X[xY[xZ]] with each dimension %d to %d "
		 "and at most %d nodes in all (e.g. torus:2x2, mesh:2x2x2)",
		 text, why, TOPO_MIN_SIZE, TOPO_MAX_SIZE, max_nodes);
}

/* Reads a run of decimal digits (at most 3); -1 if there is none. */
static int read_number(const char **p)
{
	int v = 0, digits = 0;

	while (**p >= '0' && **p <= '9') {
		if (++digits > 3)
			return 1000; /* out of range whatever it is */
		v = v * 10 + (**p - '0');
		(*p)++;
	}
	return digits ? v : -1;
}

int topo_parse(const char *text, int hosts, int max_nodes,
	       struct topo_shape *out, char *err, size_t errlen)
{
	struct topo_shape s = { .kind = TOPO_RING, .dims = 1, .size = { 1, 1, 1 } };
	const char *p;
	char why[96];
	int nodes = 1;

	if (max_nodes < 1 || max_nodes > TOPO_MAX_NODES)
		max_nodes = TOPO_MAX_NODES;
	if (!strcmp(text, "ring")) {
		if (hosts == 0)
			hosts = TOPO_RING_DEFAULT_NODES;
		if (hosts < 1 || hosts > max_nodes) {
			snprintf(why, sizeof(why), "a ring of %d nodes is not possible",
				 hosts);
			set_err(err, errlen, text, why, max_nodes);
			return -1;
		}
		s.size[0] = hosts;
		*out = s;
		return 0;
	}
	if (!strncmp(text, "mesh:", 5)) {
		s.kind = TOPO_MESH;
		p = text + 5;
	} else if (!strncmp(text, "torus:", 6)) {
		s.kind = TOPO_TORUS;
		p = text + 6;
	} else {
		set_err(err, errlen, text, "unknown shape", max_nodes);
		return -1;
	}
	for (s.dims = 0;; ) {
		int v = read_number(&p);

		if (v < 0) {
			set_err(err, errlen, text,
				s.dims ? "a dimension is missing after 'x'"
				       : "the dimensions are missing", max_nodes);
			return -1;
		}
		if (s.dims == TOPO_MAX_DIMS) {
			set_err(err, errlen, text, "more than 3 dimensions", max_nodes);
			return -1;
		}
		if (v < TOPO_MIN_SIZE || v > TOPO_MAX_SIZE) {
			if (v >= 1000)
				snprintf(why, sizeof(why), "dimension %d is far too large",
					 s.dims + 1);
			else
				snprintf(why, sizeof(why), "dimension %d has %d nodes",
					 s.dims + 1, v);
			set_err(err, errlen, text, why, max_nodes);
			return -1;
		}
		s.size[s.dims++] = v;
		nodes *= v;
		if (*p == 0)
			break;
		if (*p != 'x') {
			snprintf(why, sizeof(why), "unexpected '%c' (dimensions are "
				 "separated by 'x')", *p);
			set_err(err, errlen, text, why, max_nodes);
			return -1;
		}
		p++;
	}
	if (nodes > max_nodes) {
		snprintf(why, sizeof(why), "%d nodes are too many", nodes);
		set_err(err, errlen, text, why, max_nodes);
		return -1;
	}
	if (hosts != 0 && hosts != nodes) {
		if (err && errlen)
			snprintf(err, errlen, "--hosts %d does not match --shape %s, "
				 "which has %d nodes: leave --hosts out or make it %d",
				 hosts, text, nodes, nodes);
		return -1;
	}
	*out = s;
	return 0;
}

void topo_name(const struct topo_shape *s, char *out, size_t len)
{
	size_t n;

	if (!len)
		return;
	n = (size_t)snprintf(out, len, "%s", kind_names[s->kind]);
	if (s->kind == TOPO_RING)
		return;
	for (int d = 0; d < s->dims && n < len; d++)
		n += (size_t)snprintf(out + n, len - n, "%s%d", d ? "x" : ":",
				      s->size[d]);
}

int topo_nodes(const struct topo_shape *s)
{
	int n = 1;

	for (int d = 0; d < s->dims; d++)
		n *= s->size[d];
	return n;
}

int topo_ports(const struct topo_shape *s)
{
	return 2 * s->dims;
}

const char *topo_port_name(const struct topo_shape *s, int port)
{
	static const char *const names[] = { "+X", "+Y", "+Z", "-X", "-Y", "-Z" };

	if (port < 0 || port >= topo_ports(s))
		return "?";
	return port < s->dims ? names[port] : names[TOPO_MAX_DIMS + port - s->dims];
}

void topo_coords(const struct topo_shape *s, int node, int coord[TOPO_MAX_DIMS])
{
	for (int d = 0; d < TOPO_MAX_DIMS; d++) {
		int size = d < s->dims ? s->size[d] : 1;

		coord[d] = node % size;
		node /= size;
	}
}

int topo_node_at(const struct topo_shape *s, const int coord[TOPO_MAX_DIMS])
{
	int node = 0;

	for (int d = s->dims - 1; d >= 0; d--)
		node = node * s->size[d] + coord[d];
	return node;
}

static bool wraps(const struct topo_shape *s)
{
	return s->kind != TOPO_MESH;
}

bool topo_peer(const struct topo_shape *s, int node, int port,
	       int *peer_node, int *peer_port)
{
	int c[TOPO_MAX_DIMS], d, size;
	bool plus;

	if (node < 0 || node >= topo_nodes(s) || port < 0 || port >= topo_ports(s))
		return false;
	plus = port < s->dims;
	d = plus ? port : port - s->dims;
	size = s->size[d];
	if (size < 2)
		return false;	/* a ring of one node has no cables */
	topo_coords(s, node, c);
	c[d] += plus ? 1 : -1;
	if (c[d] < 0 || c[d] >= size) {
		if (!wraps(s))
			return false;
		c[d] = (c[d] + size) % size;
	}
	*peer_node = topo_node_at(s, c);
	*peer_port = plus ? port + s->dims : port - s->dims;
	return true;
}

int topo_cables(const struct topo_shape *s, struct topo_cable *out, int max)
{
	int n = 0;

	for (int node = 0; node < topo_nodes(s); node++)
		for (int port = 0; port < s->dims; port++) {
			struct topo_cable c = { .node_a = node, .port_a = port };

			if (!topo_peer(s, node, port, &c.node_b, &c.port_b))
				continue;
			if (n < max)
				out[n] = c;
			n++;
		}
	return n;
}

int topo_route(const struct topo_shape *s, int node, int dst)
{
	int c[TOPO_MAX_DIMS], t[TOPO_MAX_DIMS];

	topo_coords(s, node, c);
	topo_coords(s, dst, t);
	for (int d = 0; d < s->dims; d++) {
		int size = s->size[d], ahead;

		if (c[d] == t[d])
			continue;
		if (!wraps(s))
			return t[d] > c[d] ? d : s->dims + d;
		/* hops going +; going - takes size - ahead; a tie goes + */
		ahead = (t[d] - c[d] + size) % size;
		return ahead <= size - ahead ? d : s->dims + d;
	}
	return TOPO_ROUTE_HOST;
}

int topo_distance(const struct topo_shape *s, int a, int b)
{
	int ca[TOPO_MAX_DIMS], cb[TOPO_MAX_DIMS], hops = 0;

	topo_coords(s, a, ca);
	topo_coords(s, b, cb);
	for (int d = 0; d < s->dims; d++) {
		int diff = cb[d] > ca[d] ? cb[d] - ca[d] : ca[d] - cb[d];

		if (wraps(s) && s->size[d] - diff < diff)
			diff = s->size[d] - diff;
		hops += diff;
	}
	return hops;
}
