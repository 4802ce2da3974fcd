// SPDX-License-Identifier: GPL-2.0
/* loom-fm: --help text (Documentation/tools/loom-fm.rst has the long form). */
#include "fm.h"

#include "engine.h"

void fm_usage(FILE *f)
{
	fprintf(f,
"Usage: loom-fm routes (--shape SHAPE | --topology FILE) [--engine ENGINE]\n"
"                      [--fail NODE:PORT]... [--root NODE] [--no-datelines]\n"
"                      [--check-only] [-j]\n"
"       loom-fm --help\n"
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
"  --shape SHAPE     ring:N, mesh:XxY[xZ], torus:XxY[xZ], hyperx:S1xS2[xS3]\n"
"                    (sizes 2..64, at most 512 nodes).  Node id x + X*(y + Y*z).\n"
"                    Mesh/torus/ring: port d faces +dimension d, port dims+d\n"
"                    faces -dimension d (as loom-lab).  HyperX: every two nodes\n"
"                    that differ in one coordinate are cabled; dimension d has\n"
"                    S_d - 1 ports after those of lower dimensions, in coordinate\n"
"                    order.\n"
"  --topology FILE   one cable per line, 'NODE:PORT NODE:PORT'; '#' comments.\n"
"  --fail NODE:PORT  remove the cable on that port (both directions); repeatable.\n"
"\n"
"Engines (--engine, default dor for shapes, updown for topology files):\n");
	for (int i = 0; fm_engines[i]; i++)
		fprintf(f, "  %-8s %s\n", fm_engines[i]->name, fm_engines[i]->summary);
	fprintf(f,
"\n"
"Options:\n"
"  --root NODE       updown: the root of the spanning tree (default 0).\n"
"  --no-datelines    dor: no datelines, one VC (deliberately cyclic on tori).\n"
"  --check-only      print only the verdict lines, not the tables.\n"
"  -j, --json        one JSON object instead of text.\n"
"  -h, --help        this text.\n"
"\n"
"Output: 'node N: DEST=PORT[/VC] ...' per node ('host': deliver locally, '-':\n"
"no route; /VC, with datelines, is the VC a packet takes on entering a\n"
"dimension at this node), the dateline channels, then the lines 'complete:',\n"
"'deadlock-free:' and 'minimal:'.\n"
"\n"
"Exit status: 0 complete and deadlock-free; 1 the check failed (the lines say\n"
"why: the unreachable pairs or the cycle); 2 bad options or topology.\n"
"\n"
"Example: loom-fm routes --shape torus:4x4 --engine updown --fail 0:0 --fail 5:1\n");
}
