// SPDX-License-Identifier: GPL-2.0
/* loom-fm: --help text (Documentation/tools/loom-fm.rst has the long form). */
#include "fm.h"
#include "../common/cli.h"

#include <getopt.h>
#include <stdarg.h>

#include "engine.h"

void fm_usage(FILE *f)
{
	fprintf(f,
"Usage: loom-fm routes (--shape SHAPE | --topology FILE) [--engine ENGINE]\n"
"                      [--fail NODE:PORT]... [--root NODE] [--no-datelines]\n"
"                      [--no-adaptive] [--ties split|plus]\n"
"                      [--vc-assign balanced|crossing] [--deroutes M]\n"
"                      [--groups FILE]\n"
"                      [--check-only] [-j]\n"
"       loom-fm discover [--dev DEV] [--topology FILE]\n"
"                        [--logical identity|compact] [-j] [-v]\n"
"       loom-fm configure [--dev DEV] [--shape SHAPE]\n"
"                         [--topology FILE] [--logical identity|compact]\n"
"                         [--engine ENGINE] [--root NODE] [--no-adaptive]\n"
"                         [--ties split|plus] [--vc-assign balanced|crossing]\n"
"                         [--deroutes M] [--groups FILE] [--force] [-j] [-v]\n"
"       loom-fm watch [configure's options] [--interval MS] [--once]\n"
"                     [--timeout S]\n"
"       loom-fm --help | -V\n"
"\n"
"loom-fm is the fabric manager of loom.  'routes' computes the routing table of\n"
"every card (the output port toward each destination) and its VC table with a\n"
"routing engine, then checks them before anything would be programmed:\n"
"  complete       every pair of nodes is routed, and each route reaches its\n"
"                 destination over cabled ports without looping;\n"
"  deadlock-free  the channel dependency graph (vertices: channel NODE:PORT on\n"
"                 a VC; an edge for every two consecutive hops of a route) has\n"
"                 no cycle; a cycle is printed channel by channel;\n"
"  minimal        hops against the shortest path; the maximum stretch.\n"
"\n"
"Fabric (one of):\n"
"  --shape SHAPE     ring:N, mesh:XxY[x...], torus:XxY[x...], hyperx:S1xS2[x...]\n"
"                    (sizes 2..64, at most 46340 nodes).  Node id x + X*(y + Y*z).\n"
"                    Mesh/torus/ring: port d faces +dimension d, port dims+d\n"
"                    faces -dimension d (as loom-lab).  HyperX: every two nodes\n"
"                    that differ in one coordinate are cabled; dimension d has\n"
"                    S_d - 1 ports after those of lower dimensions, in coordinate\n"
"                    order.\n"
"                    fattree:K:N: a K-ary N-tree folded Clos, K^N terminal nodes\n"
"                    (port 0 to a leaf) then N levels of K^(N-1) switches (ports\n"
"                    0..K-1 down, K..2K-1 up).  dragonfly:A:P:H: A*H+1 groups of\n"
"                    A routers (ports: P terminals, A-1 local, H global), the\n"
"                    terminal nodes first.  Routes are checked to terminals.\n"
"  --topology FILE   one cable per line, 'NODE:PORT NODE:PORT'; '#' comments;\n"
"                    'node NODE logical ID' states a node's logical id.\n"
"  --fail NODE:PORT  remove the cable on that port (both directions); repeatable.\n"
"  --groups FILE     multicast groups, 'group G root NODE member NODE:CTX ...' per\n"
"                    line: each tree is the union of the routes from the root to\n"
"                    the members; its entries are printed (configure: written).\n"
"\n"
"Engines (--engine, default dor for grids and HyperX, updown for fat trees\n"
"and topology files, dragonfly for dragonflies):\n");
	for (int i = 0; fm_engines[i]; i++)
		fprintf(f, "  %-8s %s\n", fm_engines[i]->name, fm_engines[i]->summary);
	fprintf(f,
"\n"
"Options:\n"
"  --root NODE       updown: the root of the spanning tree (default 0).\n"
"  --no-datelines    dor, minhop: no datelines, one VC (deliberately cyclic on\n"
"                    tori).\n"
"  --no-adaptive     minhop, updown on a fat tree: no adaptive entries (up-routes):\n"
"                    every packet takes the deterministic path, so puts to one\n"
"                    destination arrive in order.\n"
"  --ties split      dor: a tie (half way round a ring of 4 or more) goes +\n"
"                    from an odd coordinate, - from an even one, so both\n"
"                    directions carry the same load (default); plus: every\n"
"                    tie goes +.\n"
"  --vc-assign balanced  dor with datelines: every start VC that the dateline\n"
"                    rule leaves free is chosen for VC balance under\n"
"                    all-to-all traffic (default); crossing: all VC0, VC1\n"
"                    only after a dateline (time of crossing).\n"
"  --deroutes M      omniwar: N + M distance classes for N dimensions (M 0..7,\n"
"                    default 1; a packet may deroute while its classes left\n"
"                    exceed its minimal hops), at most 3 on the card's VCs.\n"
"  --check-only      print only the verdict lines, not the tables.\n"
"  -j, --json        one JSON object instead of text.\n"
"  -h, --help        this text.\n"
"  -V, --version     the version.\n"
"\n"
"Output: 'node N: DEST=PORT[/VC][*] ...' per node ('host': deliver locally,\n"
"'-': no route; /VC, with datelines, is the VC a packet takes on entering a\n"
"dimension at this node; * an adaptive entry, minhop), the dateline channels,\n"
"the count of adaptive entries, then the lines 'complete:',\n"
"'deadlock-free:', 'minimal:' and, with VCs, 'vc-balance:' (per channel\n"
"|VC0 routes - VC1 routes| / the most routes on a channel of its dimension,\n"
"under all-to-all traffic: average and maximum; 0 is perfect balance).\n"
"\n"
"Exit status: 0 complete and deadlock-free; 1 the check failed (the lines say\n"
"why: the unreachable pairs or the cycle); 2 bad options or topology.\n"
"\n"
"Example: loom-fm routes --shape torus:4x4 --engine updown --fail 0:0 --fail 5:1\n"
"\n"
"Live mode (root; the module's maintenance network, LOOM_CMD_MAINT):\n"
"  discover   walk the fabric from the local card by directed routes; print it\n"
"             as a topology file (-j: JSON) with each card's logical id; with\n"
"             --topology FILE, list missing and extra cables and exit 1 on a\n"
"             mismatch; with --logical or stated ids, the ids configure would\n"
"             give.\n"
"  configure  discover, give every card its logical id (below), compute routes\n"
"             (--engine; default dor with --shape, updown otherwise), check\n"
"             them, choose a deadlock-free order to reprogram the cards (below),\n"
"             program every card's logical id, routing table (indexed by\n"
"             logical id) and VC table (only registers that differ), read a\n"
"             sample back, print the ids, the order and a summary.  Exit 1,\n"
"             nothing written, if the tables are incomplete or cyclic, an id\n"
"             is duplicated or too large, or no safe order exists.\n"
"  watch      configure, then on port events of the local card and every\n"
"             --interval MS (default 2000) rediscover; when cables or cards\n"
"             changed, print what changed and reprogram (updown if the engine\n"
"             cannot route around it).  --once: exit 0 after the first reroute;\n"
"             --timeout S: give up after S s (exit 1 with --once).\n"
"  --dev DEV  the local card, loomN (or /dev/loomN); default loom0\n"
"  --logical identity   (default) logical id = physical id, so an unchanged\n"
"             fabric keeps its addresses; a card a --topology file states\n"
"             'node N logical L' for gets L.\n"
"  --logical compact    the N cards found get 0..N-1 (T3E style): stated ids\n"
"             first, then each card keeps its current id if below N and free,\n"
"             the rest take the lowest free ids in physical order -- a spare\n"
"             takes a dead card's number.  Two cards with one id, or an id\n"
"             beyond a card's routing table, are refused naming both cards.\n"
"  Reprogramming order: while cards are rewritten one by one, packets follow\n"
"             a mix of old and new tables.  configure takes any order when old\n"
"             and new dependencies together are acyclic; else a greedy order\n"
"             whose every intermediate state is acyclic; else it first\n"
"             invalidates the changing entries card by card (their packets\n"
"             are discarded until the card is programmed), then programs;\n"
"             else it refuses.  --force: program in node order anyway.\n"
"  --maint-timeout MS, --maint-retries N   per maintenance access (module\n"
"             defaults: 100 ms, 3 retries)\n"
"  -v         print every routing entry that changes\n");
}

int fm_usage_error(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "loom-fm: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nTry 'loom-fm --help'.\n");
	return FM_EXIT_USAGE;
}

int fm_bad_option(int c, char **argv, const struct option *longopts)
{
	return cli_bad_option("loom-fm", c, argv, longopts);
}

int fm_bad_command(const char *cmd)
{
	static const char *const cmds[] = { "routes", "discover", "configure", "watch", NULL };
	const char *near = cli_suggest(cmd, cmds);
	char msg[160];

	if (!near)
		return fm_usage_error("unknown command '%s'; commands: routes, discover, configure, "
				      "watch", cmd);
	snprintf(msg, sizeof(msg), "unknown command '%%s': did you mean '%s'? (commands: routes, "
		 "discover, configure, watch)", near);
	return fm_usage_error(msg, cmd);
}
