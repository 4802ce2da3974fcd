// SPDX-License-Identifier: GPL-2.0
/*
 * loom-fm watch: configure, then keep the fabric routed.  Wakes up on a
 * port event of the local card (the module's events group) or every
 * interval (remote cards' events are not visible here), reads every known
 * port's STATUS (fabric_changed()); on an event or a difference it
 * rediscovers the fabric, and when its usable cables or cards
 * changed, says what changed and reprograms (falling back to updown when
 * the configured engine cannot route around the failure).
 */
#include "live.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "fm_nl.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* A usable cable by physical ids, lower end first. */
struct cable {
	uint32_t a, pa, b, pb;
};

static int cables_of(const struct fm_fabric *fab, struct cable *out, int max)
{
	struct fm_graph *g = fabric_graph(fab);
	int n = 0;

	if (!g)
		return -1;
	for (int i = 0; i < g->nodes; i++)
		for (int p = 0; p < g->ports && n < max; p++) {
			const struct fm_port_end *e = graph_peer(g, i, p);

			if (e->node == FM_NO_PEER || e->node < i || (e->node == i && e->port < p))
				continue;
			out[n++] = (struct cable){ fab->card[i].node, (uint32_t)p,
						   fab->card[e->node].node, (uint32_t)e->port };
		}
	graph_free(g);
	return n;
}

static bool has_cable(const struct cable *set, int n, const struct cable *c)
{
	for (int k = 0; k < n; k++)
		if (!memcmp(&set[k], c, sizeof(*c)))
			return true;
	return false;
}

/* The state of a port as the newer fabric saw it, for the message. */
static const char *port_state(const struct fm_fabric *fab, uint32_t node, uint32_t port)
{
	int i = fabric_find(fab, node);

	if (i < 0)
		return "unreachable";
	if (port >= fab->card[i].n_ports)
		return "gone";
	return fabric_port_state(fab->card[i].port[port].status);
}

/* Print what changed between two discoveries; the number of changes. */
static int report_changes(const struct fm_fabric *old, const struct fm_fabric *now)
{
	enum { MAX_CABLES = FM_MAX_CARDS * LOOM_MAX_PORTS / 2 };
	static struct cable a[MAX_CABLES], b[MAX_CABLES];
	int na = cables_of(old, a, MAX_CABLES), nb = cables_of(now, b, MAX_CABLES);
	int changes = 0;

	for (int i = 0; i < old->ncards; i++)
		if (fabric_find(now, old->card[i].node) < 0) {
			printf("node %u lost (no answer over the maintenance network)\n",
			       old->card[i].node);
			changes++;
		}
	for (int i = 0; i < now->ncards; i++)
		if (fabric_find(old, now->card[i].node) < 0) {
			printf("node %u found\n", now->card[i].node);
			changes++;
		}
	for (int k = 0; k < na; k++)
		if (!has_cable(b, nb, &a[k])) {
			const char *sa = port_state(now, a[k].a, a[k].pa);
			const char *sb = port_state(now, a[k].b, a[k].pb);

			const char *why = strcmp(sa, "up") ? sa : sb;

			/* a cut cable's socket is gone: that end reads uncabled */
			printf("cable %u:%u-%u:%u %s\n", a[k].a, a[k].pa, a[k].b, a[k].pb,
			       strcmp(why, "uncabled") ? why : "down (disconnected)");
			changes++;
		}
	for (int k = 0; k < nb; k++)
		if (!has_cable(a, na, &b[k])) {
			printf("cable %u:%u-%u:%u up\n", b[k].a, b[k].pa, b[k].b, b[k].pb);
			changes++;
		}
	fflush(stdout);
	return changes;
}

int live_watch(struct fm_nl *nl, const struct live_opts *o)
{
	struct fm_maint *m = fm_nl_maint(nl);
	struct fm_fabric *known = malloc(sizeof(*known)), *now = malloc(sizeof(*now));
	long start = live_now_ms();
	struct live_result res;
	struct sigaction sa;
	char err[512];
	int status = 1, rc;
	bool stale = false;	/* the last configure failed half-way: look again */

	if (!known || !now) {
		fprintf(stderr, "loom-fm: out of memory\n");
		goto out;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (fm_nl_events(nl, err, sizeof(err)))
		fprintf(stderr, "loom-fm: warning: %s; polling every %d ms only\n", err,
			o->interval_ms);
	rc = live_configure(m, o, true, o->verbose, known, &res);
	if (rc)
		goto out;
	printf("configured %d cards, %d cables (%d failed port%s), engine %s: %ld routing entries "
	       "changed on %d cards in %ld ms; watching (every %d ms and on port events)\n",
	       res.cards, res.cables, res.failed_ports, res.failed_ports == 1 ? "" : "s",
	       res.engine, res.routes_changed, res.cards_changed, res.ms, o->interval_ms);
	fflush(stdout);
	while (!stop) {
		long t;

		if (o->timeout_s && live_now_ms() - start > o->timeout_s * 1000L) {
			fprintf(stderr, "loom-fm: watch: nothing changed within %d s\n", o->timeout_s);
			status = o->once ? 1 : 0;
			goto out;
		}
		rc = fm_nl_wait_port_event(nl, o->interval_ms, err, sizeof(err));
		if (rc < 0) {
			fprintf(stderr, "loom-fm: watch: %s\n", err);
			goto out;
		}
		if (stop)
			break;
		if (rc > 0 && o->verbose)
			printf("port event on the local card\n");
		t = live_now_ms();
		if (!rc && !stale && !fabric_changed(m, known))
			continue;
		if (fabric_discover(m, now, o->verbose ? stderr : NULL, err, sizeof(err))) {
			fprintf(stderr, "loom-fm: watch: %s; retrying\n", err);
			continue;
		}
		if (!stale && !report_changes(known, now))
			continue;
		rc = live_configure(m, o, true, true, known, &res);
		stale = rc < 0;
		if (rc < 0)
			continue;	/* a card went away while programming: next round */
		if (rc > 0) {
			printf("could not reroute: the fabric as it is has no complete deadlock-free "
			       "tables, or no deadlock-free order to program them (above); tables "
			       "left as they were\n");
			fflush(stdout);
			continue;
		}
		printf("rerouted %ld destination%s on %d card%s with engine %s (%ld registers "
		       "written, %ld ms after detection)\n", res.routes_changed,
		       res.routes_changed == 1 ? "" : "s", res.cards_changed,
		       res.cards_changed == 1 ? "" : "s", res.engine, res.written,
		       live_now_ms() - t);
		fflush(stdout);
		if (o->once) {
			status = 0;
			goto out;
		}
	}
	status = 0;
out:
	free(known);
	free(now);
	return status;
}
