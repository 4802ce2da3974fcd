// SPDX-License-Identifier: GPL-2.0
/*
 * loom-card: the card emulator program.  Options, the single-threaded
 * epoll event loop, and the wiring of the card to its ivshmem server
 * (register window, kicks, MSI-X) and network ports (cables).
 */
#include "admin.h"
#include "cable_socket.h"
#include "card.h"
#include "card_router.h"
#include "cli.h"
#include "clock.h"
#include "ctl.h"
#include "event.h"
#include "guest_mem.h"
#include "hostile.h"
#include "ivshmem_server.h"
#include "packet_record.h"
#include "port.h"
#include "rtl_plugin.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#define EXIT_USAGE	2
#define STALL_POLL_MS	2
#define OPS_POLL_MS	100
#define LANE_MBPS_MAX	8000	/* --lane-mbps: the clock at one byte per lane and cycle */
#define PARAM_SETS_MAX	32
#define LINK_TIMEOUT_MAX_MS	60000	/* --link-timeout, before the clock's own limit */
#define RUN_STEPS	4096	/* edges between two looks at the sockets */
/*
 * The same with --router rtl, whose Verilated router steps some 60 times
 * slower than the model: the sockets get a look as often in wall time,
 * and a peer's frames are acknowledged before its ack timeout.
 */
#define RUN_STEPS_RTL	64
#define PUBLISH_STEPS	65536	/* edges between two counter publications while busy */
#define COALESCE_CARD	64	/* cycles: a request's answer leaves within them */

struct cable_opt {
	bool set;
	struct cable_addr addr;
};

struct options {
	long node;
	const char *ivshmem;
	const char *guest_ram;
	long ports;
	struct cable_opt cable[LOOM_MAX_PORTS];
	struct { unsigned int dst, port; } route[LOOM_MAX_NODES];
	unsigned int n_routes;
	bool verbose;
	const char *ctl;
	unsigned long long seed;
	long link_timeout_ms;
	long op_timeout_ms;
	long replay_frames;
	long vc_buffers;
	long lane_mbps;
	long clock_mhz;
	struct { const char *name; uint32_t value; bool link; } set[PARAM_SETS_MAX];
	unsigned int n_set;
	struct { bool set; unsigned int dim; bool dateline; } vct[LOOM_MAX_PORTS];
	unsigned int start_vc1[LOOM_MAX_NODES / 32];
	bool strict_registers;
	bool hostile;
	unsigned long long hostile_seed;
	const char *record;	/* --record FILE */
	bool rtl;		/* --router rtl */
};

struct emulator {
	struct options opt;
	struct card card;
	struct guest_mem gm;
	struct ivshmem_server ivs;
	struct port_set ports;
	struct ctl_server ctl;
	struct emu_clock clk;
	struct hostile hostile;
	bool kicked;		/* a doorbell or the control socket: a service round */
	bool guest_kicked;	/* a guest kick since the last strict check */
	int epfd;
	int sigfd;
	bool stop;
	struct ev_handler sig_ev;
	struct ev_handler ivs_listen_ev;
	struct ev_handler ivs_client_ev;
	struct ev_handler kick_ev[LOOM_NUM_VECTORS];
	unsigned int unsent_edges;	/* edges since the first frame not yet written */
};

static struct emulator emu;

static void usage(FILE *f)
{
	fprintf(f,
"Usage: loom-card --node N --ivshmem SOCK --guest-ram FILE [--ports P]\n"
"                 [--cable PORT=listen:PATH | --cable PORT=connect:PATH |\n"
"                  --cable PORT=tcp-listen:ADDR:TCPPORT |\n"
"                  --cable PORT=tcp-connect:HOST:TCPPORT]...\n"
"                 [--route DST=PORT]... [--ctl PATH] [--seed N]\n"
"                 [--link-timeout MS] [--op-timeout MS] [--replay-frames N]\n"
"                 [--vc-buffers N]\n"
"                 [--clock-mhz MHZ | --lane-mbps M]\n"
"                 [--router model | --router rtl]\n"
"                 [--router NAME=VALUE]... [--link NAME=VALUE]...\n"
"                 [--strict-registers] [--hostile SEED] [--record FILE]\n"
"                 [--verbose]\n"
"       loom-card -h | --help | -V | --version\n"
"\n"
"Emulates one loom router card, cycle by cycle.  The card serves a QEMU\n"
"ivshmem-doorbell device on SOCK (its register window is the device's BAR2,\n"
"guest kicks are the device's doorbells, the card raises the guest's MSI-X\n"
"vectors), does DMA into the guest's RAM through FILE, and carries the link\n"
"layer's frames to other cards over cables (UNIX stream sockets on one\n"
"machine, TCP across machines).\n"
"\n"
"Options:\n"
"  --node N          physical node id, also the initial logical id\n"
"                    (0..%d).  Required.\n"
"  --ivshmem SOCK    UNIX socket path to serve the ivshmem-doorbell device\n"
"                    on; QEMU: -chardev socket,id=ivs,path=SOCK\n"
"                    -device ivshmem-doorbell,chardev=ivs,vectors=%d.\n"
"                    Required; created at start, removed at exit.\n"
"  --guest-ram FILE  the file QEMU uses as guest RAM (memory-backend-file,\n"
"                    share=on); mapped shared, its size is the RAM size,\n"
"                    bus address == file offset.  Must exist.  Required.\n"
"  --ports P         network ports, 0..%d (default 2).\n"
"  --cable PORT=listen:PATH\n"
"                    port PORT listens on UNIX socket PATH and accepts one\n"
"                    peer card (accepts again after a disconnect).\n"
"  --cable PORT=connect:PATH\n"
"                    port PORT connects to PATH, retrying every %d ms for\n"
"                    up to %d s while it does not exist.\n"
"  --cable PORT=tcp-listen:ADDR:TCPPORT\n"
"  --cable PORT=tcp-connect:HOST:TCPPORT\n"
"                    the same over TCP, for cards on different machines:\n"
"                    listen on local address ADDR (0.0.0.0: every\n"
"                    interface), or connect to HOST (an address or a name);\n"
"                    IPv6 addresses in brackets ([::1]:7000), TCPPORT\n"
"                    1..65535.  Cables are not authenticated: listen only\n"
"                    where the peer cards alone can reach.\n"
"  --route DST=PORT  routing table entry: packets for logical node DST\n"
"                    (0..%d) leave on port PORT (a number below P) or go to\n"
"                    this card's host with PORT = host.  The entry for the\n"
"                    card's own node defaults to host.  Repeatable.\n"
"  --ctl PATH        control socket (UNIX stream) for run-time fault\n"
"                    injection: one-line commands 'ber PORT RATE',\n"
"                    'drop PORT RATE', 'corrupt PORT RATE', 'cut PORT',\n"
"                    'restore PORT', 'stats PORT', 'kill', 'clock', 'help';\n"
"                    answers 'ok ...' or 'error: ...'.\n"
"  --seed N          seed of the fault injection random streams (default\n"
"                    1); the same seed injects the same faults.\n"
"  --link-timeout MS link-layer ack timeout: unacknowledged frames are\n"
"                    replayed after MS ms without progress (1..%d, and at\n"
"                    most 2^31 cycles at the clock: 8589 ms at 250 MHz;\n"
"                    default %u): the link parameter ACK_TIMEOUT in cycles.\n"
"  --op-timeout MS   an operation none of whose packets was answered for\n"
"                    MS ms fails with LINK (1..%d, default %d).\n"
"  --replay-frames N frames a port keeps for replay until acknowledged\n"
"                    (1..%u, default %u): REPLAY_FRAMES.\n"
"  --vct PORT=DIM[,dateline]\n"
"                    VC table: port PORT belongs to dimension DIM (0..%d);\n"
"                    with ',dateline' packets leaving through it move to\n"
"                    VC1.  Repeatable; unset ports have no dimension.\n"
"  --start-vc1 DST   packets toward logical node DST start on VC1 when\n"
"                    injected or entering a new dimension.  Repeatable.\n"
"  --vc-buffers N    input buffer per port and virtual channel, in packets\n"
"                    of the largest size (default %u): the router's and the\n"
"                    links' BUF_DEPTH is N times the flits of such a packet.\n"
"  --clock-mhz MHZ   the card's nominal clock, 1..%u MHz (default %u):\n"
"                    timers given in ms become cycles at this clock, and an\n"
"                    idle card's cycle counter follows wall time at it.\n"
"  --lane-mbps M     real-time lanes of M Mbit/s each (1..%u): one byte per\n"
"                    lane and cycle (LANE_BYTES 1) at a clock of M/8 MHz, and\n"
"                    the card's cycles never run ahead of wall time, so a\n"
"                    link moves (lanes in use) x M Mbit/s and slows down\n"
"                    when it drops lanes.  Default: not real time.\n"
"  --router model    the card's router is the C model (the default).\n"
"  --router rtl      the card's router is the Verilated RTL\n"
"                    (fpga_bitstreams/rtl/loom_router.sv), loaded from\n"
"                    $LOOM_RTL_PLUGIN or else ../rtl/%s beside this\n"
"                    program (built by '%s').  Refused if the\n"
"                    card's router parameters or routing entries differ\n"
"                    from what that build was made for.\n"
"  --router NAME=VALUE\n"
"                    set a router parameter (Documentation/hw/router-model.rst,\n"
"                    e.g. BUF_DEPTH=40, ARB_SA_OUT=3).  Repeatable.\n"
"  --link NAME=VALUE set a link parameter (Documentation/hw/link.rst, e.g.\n"
"                    COALESCE_DELAY=32).  Repeatable.  FLIT_BYTES, VCS and\n"
"                    BUF_DEPTH follow the router's.\n"
"  --strict-registers\n"
"                    enforce register access types: a write-only register\n"
"                    (a doorbell) is replaced by 0x%08x once the card has\n"
"                    taken it, so software that reads it back sees poison;\n"
"                    a read-only register software overwrote is logged\n"
"                    ('strict-registers: violation: ...'), counted and\n"
"                    restored at the next kick.\n"
"  --hostile SEED    misbehave on purpose, to test software's distrust of its\n"
"                    card: out-of-range and changing register values, bogus\n"
"                    completions, interrupt storms, admin commands ignored or\n"
"                    refused (never answered OK unless executed), stray\n"
"                    maintenance responses and port events.  The same SEED\n"
"                    draws the same sequence of misbehaviours.  Also 'hostile'\n"
"                    on the control socket.\n"
"  --record FILE     write one line per request the host sends into the\n"
"                    router (cycle, destination, type, bytes) to FILE, for\n"
"                    loom-sim --replay; also 'record' on the control socket.\n"
"  --verbose         log admin commands, context changes and drops.\n"
"  -h, --help        print this text and exit.\n"
"  -V, --version     print \"loom-card VERSION\" and exit.\n"
"\n"
"Logs go to stderr, one line per event, prefixed \"loom-card[N]: \": the\n"
"startup summary, client and cable connects, link up/down, context faults.\n"
"SIGTERM or SIGINT stops the card and removes the sockets it created.\n"
"Exit status: 0 after a signal, 1 on a runtime failure, 2 on a bad option.\n",
		LOOM_MAX_NODES - 1, LOOM_NUM_VECTORS, LOOM_MAX_PORTS, PORT_CONNECT_RETRY_MS,
		PORT_CONNECT_TIMEOUT_MS / 1000, LOOM_MAX_NODES - 1, LINK_TIMEOUT_MAX_MS,
		GBN_TIMEOUT_DEFAULT_MS, HIF_OP_TIMEOUT_MAX_MS, HIF_OP_TIMEOUT_MS, GBN_WINDOW_MAX, GBN_WINDOW_DEFAULT,
		LOOM_VCT_PORT_DIM_NONE - 1, CARD_VC_PACKETS, CARD_CLOCK_KHZ_MAX / 1000,
		CARD_CLOCK_KHZ / 1000, LANE_MBPS_MAX, RTL_PLUGIN_FILE, RTL_PLUGIN_TARGET,
		LOOM_REG_POISON);
}

static void __attribute__((noreturn, format(printf, 1, 2))) bad_option(const char *fmt, ...)
{
	va_list ap;

	fputs("loom-card: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'loom-card --help' for the options.\n", stderr);
	exit(EXIT_USAGE);
}

/* Parse a decimal number in [min, max]; -1 if it is not one. */
static long parse_num(const char *s, long min, long max)
{
	char *end;
	long v;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	return v;
}

static void parse_cable(struct options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char num[16], err[512];
	long port;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(num))
		bad_option("--cable '%s': expected PORT=listen:PATH, PORT=connect:PATH, PORT=tcp-listen:ADDR:TCPPORT or PORT=tcp-connect:HOST:TCPPORT",
			   arg);
	memcpy(num, arg, (size_t)(eq - arg));
	num[eq - arg] = 0;
	port = parse_num(num, 0, LOOM_MAX_PORTS - 1);
	if (port < 0)
		bad_option("--cable '%s': port '%s' is not a number in 0..%d", arg, num,
			   LOOM_MAX_PORTS - 1);
	if (o->cable[port].set)
		bad_option("--cable '%s': port %ld is already cabled", arg, port);
	if (cable_parse(eq + 1, &o->cable[port].addr, err, sizeof(err)) < 0)
		bad_option("--cable '%s': %s", arg, err);
	o->cable[port].set = true;
}

static void parse_route(struct options *o, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char num[16];
	long dst, port;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(num))
		bad_option("--route '%s': expected DST=PORT (PORT a number or 'host')", arg);
	memcpy(num, arg, (size_t)(eq - arg));
	num[eq - arg] = 0;
	dst = parse_num(num, 0, LOOM_MAX_NODES - 1);
	if (dst < 0)
		bad_option("--route '%s': destination '%s' is not a node id in 0..%d", arg, num,
			   LOOM_MAX_NODES - 1);
	if (!strcmp(eq + 1, "host"))
		port = LOOM_RT_PORT_HOST;
	else if ((port = parse_num(eq + 1, 0, LOOM_MAX_PORTS - 1)) < 0)
		bad_option("--route '%s': port '%s' is not 'host' or a number in 0..%d", arg,
			   eq + 1, LOOM_MAX_PORTS - 1);
	if (o->n_routes == LOOM_MAX_NODES)
		bad_option("--route '%s': more than %d routes", arg, LOOM_MAX_NODES);
	o->route[o->n_routes].dst = (unsigned int)dst;
	o->route[o->n_routes].port = (unsigned int)port;
	o->n_routes++;
}

static void parse_vct(struct options *o, const char *arg)
{
	const char *eq = strchr(arg, '='), *comma;
	char num[16];
	long port, dim;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(num))
		bad_option("--vct '%s': expected PORT=DIM or PORT=DIM,dateline", arg);
	memcpy(num, arg, (size_t)(eq - arg));
	num[eq - arg] = 0;
	port = parse_num(num, 0, LOOM_MAX_PORTS - 1);
	if (port < 0)
		bad_option("--vct '%s': port '%s' is not a number in 0..%d", arg, num,
			   LOOM_MAX_PORTS - 1);
	comma = strchr(eq + 1, ',');
	if (comma && strcmp(comma, ",dateline"))
		bad_option("--vct '%s': only ',dateline' may follow the dimension", arg);
	if (!comma)
		comma = eq + 1 + strlen(eq + 1);
	if ((size_t)(comma - eq - 1) >= sizeof(num) || comma == eq + 1)
		bad_option("--vct '%s': expected a dimension after '='", arg);
	memcpy(num, eq + 1, (size_t)(comma - eq - 1));
	num[comma - eq - 1] = 0;
	dim = parse_num(num, 0, LOOM_VCT_PORT_DIM_NONE - 1);
	if (dim < 0)
		bad_option("--vct '%s': dimension '%s' is not a number in 0..%d", arg, num,
			   LOOM_VCT_PORT_DIM_NONE - 1);
	o->vct[port].set = true;
	o->vct[port].dim = (unsigned int)dim;
	o->vct[port].dateline = *comma != 0;
}

/* --router NAME=VALUE / --link NAME=VALUE: checked against the tables now. */
static void parse_set(struct options *o, const char *opt, const char *arg, bool link)
{
	const char *eq = strchr(arg, '=');
	char name[32];
	long v;
	struct router_params rp;
	struct link_params lp;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(name))
		bad_option("%s '%s': expected NAME=VALUE (a parameter name and a number)", opt, arg);
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = 0;
	v = parse_num(eq + 1, 0, 0xffffffffl);
	if (v < 0)
		bad_option("%s '%s': value '%s' is not a number in 0..4294967295", opt, arg, eq + 1);
	router_params_default(&rp);
	link_params_default(&lp);
	if (link ? !link_params_set(&lp, name, (uint32_t)v) :
		   router_params_set(&rp, name, (uint32_t)v) < 0)
		bad_option("%s '%s': no %s parameter named %s (see Documentation/hw/%s)", opt, arg,
			   link ? "link" : "router", name, link ? "link.rst" : "router-model.rst");
	if (o->n_set == PARAM_SETS_MAX)
		bad_option("%s '%s': more than %d parameter settings", opt, arg, PARAM_SETS_MAX);
	o->set[o->n_set].name = arg;
	o->set[o->n_set].value = (uint32_t)v;
	o->set[o->n_set].link = link;
	o->n_set++;
}

static void parse_options(struct options *o, int argc, char **argv)
{
	enum { OPT_NODE = 256, OPT_IVSHMEM, OPT_GUEST_RAM, OPT_PORTS, OPT_CABLE, OPT_ROUTE,
	       OPT_VERBOSE, OPT_HELP, OPT_CTL, OPT_SEED, OPT_LINK_TIMEOUT, OPT_OP_TIMEOUT, OPT_REPLAY_FRAMES,
	       OPT_VC_BUFFERS, OPT_VCT, OPT_START_VC1, OPT_LANE_MBPS, OPT_CLOCK_MHZ,
	       OPT_ROUTER, OPT_LINK, OPT_STRICT_REGISTERS, OPT_HOSTILE, OPT_RECORD };
	static const struct option longopts[] = {
		{ "node", required_argument, NULL, OPT_NODE },
		{ "ivshmem", required_argument, NULL, OPT_IVSHMEM },
		{ "guest-ram", required_argument, NULL, OPT_GUEST_RAM },
		{ "ports", required_argument, NULL, OPT_PORTS },
		{ "cable", required_argument, NULL, OPT_CABLE },
		{ "route", required_argument, NULL, OPT_ROUTE },
		{ "verbose", no_argument, NULL, OPT_VERBOSE },
		{ "ctl", required_argument, NULL, OPT_CTL },
		{ "seed", required_argument, NULL, OPT_SEED },
		{ "link-timeout", required_argument, NULL, OPT_LINK_TIMEOUT },
		{ "op-timeout", required_argument, NULL, OPT_OP_TIMEOUT },
		{ "replay-frames", required_argument, NULL, OPT_REPLAY_FRAMES },
		{ "vc-buffers", required_argument, NULL, OPT_VC_BUFFERS },
		{ "lane-mbps", required_argument, NULL, OPT_LANE_MBPS },
		{ "clock-mhz", required_argument, NULL, OPT_CLOCK_MHZ },
		{ "router", required_argument, NULL, OPT_ROUTER },
		{ "link", required_argument, NULL, OPT_LINK },
		{ "vct", required_argument, NULL, OPT_VCT },
		{ "start-vc1", required_argument, NULL, OPT_START_VC1 },
		{ "strict-registers", no_argument, NULL, OPT_STRICT_REGISTERS },
		{ "hostile", required_argument, NULL, OPT_HOSTILE },
		{ "record", required_argument, NULL, OPT_RECORD },
		{ "help", no_argument, NULL, OPT_HELP },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->node = -1;
	o->ports = 2;
	o->seed = 1;
	o->link_timeout_ms = GBN_TIMEOUT_DEFAULT_MS;
	o->op_timeout_ms = HIF_OP_TIMEOUT_MS;
	o->replay_frames = GBN_WINDOW_DEFAULT;
	o->vc_buffers = CARD_VC_PACKETS;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
		switch (c) {
		case OPT_NODE:
			o->node = parse_num(optarg, 0, LOOM_MAX_NODES - 1);
			if (o->node < 0)
				bad_option("--node '%s': expected a node id in 0..%d", optarg,
					   LOOM_MAX_NODES - 1);
			break;
		case OPT_IVSHMEM:
			if (!*optarg || strlen(optarg) >= sizeof(((struct sockaddr_un *)0)->sun_path))
				bad_option("--ivshmem '%s': expected a UNIX socket path of 1..%zu bytes",
					   optarg, sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
			o->ivshmem = optarg;
			break;
		case OPT_GUEST_RAM:
			if (!*optarg)
				bad_option("--guest-ram '': expected the path of the guest RAM file");
			o->guest_ram = optarg;
			break;
		case OPT_PORTS:
			o->ports = parse_num(optarg, 0, LOOM_MAX_PORTS);
			if (o->ports < 0)
				bad_option("--ports '%s': expected a port count in 0..%d", optarg,
					   LOOM_MAX_PORTS);
			break;
		case OPT_CABLE:
			parse_cable(o, optarg);
			break;
		case OPT_ROUTE:
			parse_route(o, optarg);
			break;
		case OPT_VERBOSE:
			o->verbose = true;
			break;
		case OPT_CTL:
			if (!*optarg || strlen(optarg) >= sizeof(((struct sockaddr_un *)0)->sun_path))
				bad_option("--ctl '%s': expected a UNIX socket path of 1..%zu bytes",
					   optarg, sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
			o->ctl = optarg;
			break;
		case OPT_SEED: {
			char *end;

			errno = 0;
			o->seed = strtoull(optarg, &end, 0);
			if (!*optarg || *optarg == '-' || *optarg == ' ' || *end || errno)
				bad_option("--seed '%s': expected an unsigned 64-bit number", optarg);
			break;
		}
		case OPT_LINK_TIMEOUT:
			o->link_timeout_ms = parse_num(optarg, 1, LINK_TIMEOUT_MAX_MS);
			if (o->link_timeout_ms < 0)
				bad_option("--link-timeout '%s': expected milliseconds in 1..%d", optarg,
					   LINK_TIMEOUT_MAX_MS);
			break;
		case OPT_OP_TIMEOUT:
			o->op_timeout_ms = parse_num(optarg, 1, HIF_OP_TIMEOUT_MAX_MS);
			if (o->op_timeout_ms < 0)
				bad_option("--op-timeout '%s': expected milliseconds in 1..%d", optarg,
					   HIF_OP_TIMEOUT_MAX_MS);
			break;
		case OPT_REPLAY_FRAMES:
			o->replay_frames = parse_num(optarg, 1, GBN_WINDOW_MAX);
			if (o->replay_frames < 0)
				bad_option("--replay-frames '%s': expected a frame count in 1..%u", optarg,
					   GBN_WINDOW_MAX);
			break;
		case OPT_VC_BUFFERS:
			o->vc_buffers = parse_num(optarg, 1, 4096);
			if (o->vc_buffers < 0)
				bad_option("--vc-buffers '%s': expected a number of packets in 1..4096 (BUF_DEPTH at most 4096 flits)",
					   optarg);
			break;
		case OPT_LANE_MBPS:
			o->lane_mbps = parse_num(optarg, 1, LANE_MBPS_MAX);
			if (o->lane_mbps < 0)
				bad_option("--lane-mbps '%s': expected a lane rate in Mbit/s, 1..%d",
					   optarg, LANE_MBPS_MAX);
			break;
		case OPT_CLOCK_MHZ:
			o->clock_mhz = parse_num(optarg, 1, CARD_CLOCK_KHZ_MAX / 1000);
			if (o->clock_mhz < 0)
				bad_option("--clock-mhz '%s': expected a clock in MHz, 1..%d", optarg,
					   CARD_CLOCK_KHZ_MAX / 1000);
			break;
		case OPT_ROUTER:
			if (!strcmp(optarg, "rtl") || !strcmp(optarg, "model"))
				o->rtl = !strcmp(optarg, "rtl");
			else
				parse_set(o, "--router", optarg, false);
			break;
		case OPT_LINK:
			parse_set(o, "--link", optarg, true);
			break;
		case OPT_VCT:
			parse_vct(o, optarg);
			break;
		case OPT_STRICT_REGISTERS:
			o->strict_registers = true;
			break;
		case OPT_RECORD:
			if (!*optarg)
				bad_option("--record '': expected the path of the trace file to write");
			o->record = optarg;
			break;
		case OPT_HOSTILE: {
			char *end;

			errno = 0;
			o->hostile_seed = strtoull(optarg, &end, 0);
			if (!*optarg || *optarg == '-' || *optarg == ' ' || *end || errno)
				bad_option("--hostile '%s': expected a seed, an unsigned 64-bit number",
					   optarg);
			o->hostile = true;
			break;
		}
		case OPT_START_VC1: {
			long dst = parse_num(optarg, 0, LOOM_MAX_NODES - 1);

			if (dst < 0)
				bad_option("--start-vc1 '%s': expected a node id in 0..%d", optarg,
					   LOOM_MAX_NODES - 1);
			o->start_vc1[dst / 32] |= 1u << (dst % 32);
			break;
		}
		case 'h':
		case OPT_HELP:
			usage(stdout);
			exit(0);
		case 'V':
			exit(cli_version("loom-card"));
		default: {
			char problem[256];

			cli_option_problem(problem, sizeof(problem), c, argv, longopts);
			bad_option("%s", problem);
		}
		}
	}
	if (optind < argc)
		bad_option("unexpected argument '%s' (every setting is an --option)", argv[optind]);
	if (o->lane_mbps && o->clock_mhz)
		bad_option("--clock-mhz %ld with --lane-mbps %ld: the lane rate sets the clock (M/8 MHz); give one of them",
			   o->clock_mhz, o->lane_mbps);
	if (o->node < 0)
		bad_option("--node is required: the card's node id (0..%d)", LOOM_MAX_NODES - 1);
	if (!o->ivshmem)
		bad_option("--ivshmem is required: the UNIX socket QEMU's ivshmem-doorbell connects to");
	if (!o->guest_ram)
		bad_option("--guest-ram is required: the file QEMU uses as guest RAM");
	for (long p = o->ports; p < LOOM_MAX_PORTS; p++)
		if (o->cable[p].set)
			bad_option("--cable %ld=...: port %ld does not exist with --ports %ld", p, p,
				   o->ports);
	for (long p = o->ports; p < LOOM_MAX_PORTS; p++)
		if (o->vct[p].set)
			bad_option("--vct %ld=...: port %ld does not exist with --ports %ld", p, p,
				   o->ports);
	for (unsigned int i = 0; i < o->n_routes; i++)
		if (o->route[i].port != LOOM_RT_PORT_HOST && o->route[i].port >= o->ports)
			bad_option("--route %u=%u: port %u does not exist with --ports %ld",
				   o->route[i].dst, o->route[i].port, o->route[i].port, o->ports);
}

/* ---- event handlers --------------------------------------------------- */

static void on_signal(struct ev_handler *h, uint32_t events)
{
	struct signalfd_siginfo si;

	(void)h;
	(void)events;
	if (read(emu.sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		card_log(&emu.card, "signal %u: shutting down", si.ssi_signo);
		emu.stop = true;
	}
}

static void on_kick(struct ev_handler *h, uint32_t events)
{
	unsigned int v = (unsigned int)(h - emu.kick_ev);

	(void)events;
	ivs_take_kick(&emu.ivs, v);	/* the service round after the events rescans all */
	emu.kicked = true;
	emu.guest_kicked = true;
}

static void client_gone(void)
{
	for (unsigned int v = 0; v < LOOM_NUM_VECTORS; v++)
		if (emu.ivs.kick_fd[v] >= 0)
			ev_ctl(emu.epfd, EPOLL_CTL_DEL, emu.ivs.kick_fd[v], 0, NULL);
	ev_ctl(emu.epfd, EPOLL_CTL_DEL, emu.ivs.cfd, 0, NULL);
	ivs_drop_client(&emu.ivs);
	card_reset(&emu.card);
	admin_clear(&emu.card);
	maint_clear(&emu.card);
	emu.card.vectors_pending = 0;
	card_log(&emu.card, "ivshmem client disconnected: card reset, waiting for a new one");
}

static void on_client(struct ev_handler *h, uint32_t events)
{
	char buf[64];
	ssize_t n;

	(void)h;
	(void)events;
	n = recv(emu.ivs.cfd, buf, sizeof(buf), MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
		client_gone();
}

static void on_listen(struct ev_handler *h, uint32_t events)
{
	char err[256];
	int fd;

	(void)h;
	(void)events;
	fd = ivs_accept(&emu.ivs, err, sizeof(err));
	if (fd < 0) {
		card_log(&emu.card, "ivshmem: %s", err);
		return;
	}
	ev_ctl(emu.epfd, EPOLL_CTL_ADD, fd, EPOLLIN | EPOLLRDHUP, &emu.ivs_client_ev);
	for (unsigned int v = 0; v < LOOM_NUM_VECTORS; v++)
		ev_ctl(emu.epfd, EPOLL_CTL_ADD, emu.ivs.kick_fd[v], EPOLLIN, &emu.kick_ev[v]);
	card_log(&emu.card, "ivshmem client connected (peer id %d, %d vectors)", IVS_CLIENT_ID,
		 LOOM_NUM_VECTORS);
}

/* ---- setup ------------------------------------------------------------ */

/* Finish a recording still running (--record or the control socket). */
static void record_finish(void)
{
	char err[320];
	uint64_t packets;

	if (!packet_record_active(&emu.card))
		return;
	if (packet_record_stop(&emu.card, &packets, err, sizeof(err)))
		card_log(&emu.card, "recorded %llu requests", (unsigned long long)packets);
	else
		fprintf(stderr, "loom-card[%ld]: %s\n", emu.opt.node, err);
}

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "loom-card[%ld]: %s\n", emu.opt.node, what);
	record_finish();
	ctl_close(&emu.ctl);
	port_set_close(&emu.ports);
	ivs_close(&emu.ivs);
	guest_mem_close(&emu.gm);
	exit(1);
}

/* The card's parameters from the options; a refused combination is a bad option. */
static void build_params(const struct options *o, struct card_params *cp)
{
	bool depth_set = false;
	uint64_t ack;
	char err[512];

	card_params_default(cp, (unsigned int)o->node, (unsigned int)o->ports);
	if (o->lane_mbps) {
		cp->clock_khz = (uint32_t)(o->lane_mbps * 1000 / 8);
		cp->link.lane_bytes = 1;
	} else if (o->clock_mhz) {
		cp->clock_khz = (uint32_t)(o->clock_mhz * 1000);
	}
	cp->link.coalesce_delay = COALESCE_CARD;
	cp->link.replay_frames = (uint32_t)o->replay_frames;
	ack = (uint64_t)o->link_timeout_ms * cp->clock_khz;
	if (ack > 0x7fffffffu)
		bad_option("--link-timeout %ld: %llu cycles at %u kHz exceed ACK_TIMEOUT's maximum 2147483647 (at most %llu ms at this clock)",
			   o->link_timeout_ms, (unsigned long long)ack, cp->clock_khz,
			   (unsigned long long)(0x7fffffffu / cp->clock_khz));
	cp->link.ack_timeout = (uint32_t)ack;
	cp->op_timeout_ms = (uint32_t)o->op_timeout_ms;
	for (unsigned int i = 0; i < o->n_set; i++) {
		char name[32];
		size_t n = strcspn(o->set[i].name, "=");

		snprintf(name, sizeof(name), "%.*s", (int)n, o->set[i].name);
		if (o->set[i].link)
			link_params_set(&cp->link, name, o->set[i].value);
		else
			router_params_set(&cp->router, name, o->set[i].value);
		depth_set = depth_set || (!o->set[i].link && !strcasecmp(name, "BUF_DEPTH"));
	}
	if (!depth_set) {
		uint64_t depth = (uint64_t)o->vc_buffers *
				 router_max_packet_flits(cp->router.flit_bytes);

		if (depth > 4096)
			bad_option("--vc-buffers %ld: %ld packets of %u flits exceed BUF_DEPTH's maximum of 4096 flits",
				   o->vc_buffers, o->vc_buffers,
				   router_max_packet_flits(cp->router.flit_bytes));
		cp->router.buf_depth = (uint32_t)depth;
	}
	if (card_params_check(cp, err, sizeof(err)))
		bad_option("%s", err);
}

/*
 * --router rtl: the plugin named by LOOM_RTL_PLUGIN, or the build tree's
 * beside this program (bin/loom-card, rtl/RTL_PLUGIN_FILE).
 */
static const char *rtl_plugin_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("LOOM_RTL_PLUGIN");
	char exe[PATH_MAX];
	ssize_t n;
	char *slash;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return RTL_PLUGIN_FILE;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	if (snprintf(path, sizeof(path), "%s/../rtl/%s", exe, RTL_PLUGIN_FILE) >= (int)sizeof(path))
		return RTL_PLUGIN_FILE;
	/* bin/../rtl/ as rtl/, where the file exists */
	if (realpath(path, exe))
		memcpy(path, exe, sizeof(path));
	return path;
}

/*
 * The card's forward-progress verdicts against the neighbours' silence in
 * wall time: a neighbour that runs answers the link's credit polls (one
 * per ack timeout), so one heard within PEER_ANSWER_POLLS of them, and at
 * least PEER_ANSWER_MIN_MS, is stuck if the port makes no progress; one
 * silent for longer may be starved of CPU by a loaded host, and is judged
 * only after PEER_GIVE_UP_FP forward-progress timeouts of silence.
 */
#define PEER_ANSWER_POLLS	4
#define PEER_ANSWER_MIN_MS	200
#define PEER_GIVE_UP_FP		10

static bool peer_heard(void *opaque, unsigned int port)
{
	uint64_t answer = (uint64_t)emu.opt.link_timeout_ms * PEER_ANSWER_POLLS;

	(void)opaque;
	if (answer < PEER_ANSWER_MIN_MS)
		answer = PEER_ANSWER_MIN_MS;
	return port_peer_heard(&emu.ports, port, ev_now_ms(), answer,
			       (uint64_t)emu.card.fp_timeout_ms * PEER_GIVE_UP_FP);
}

/* --router rtl refused for this card: a bad option, nothing left behind. */
static void __attribute__((noreturn)) refuse_rtl(const char *err)
{
	ivs_close(&emu.ivs);
	guest_mem_close(&emu.gm);
	bad_option("%s", err);
}

static void setup(void)
{
	struct options *o = &emu.opt;
	struct card_params cp;
	char err[512];
	sigset_t mask;

	build_params(o, &cp);
	if (o->rtl)
		cp.rtl_plugin = rtl_plugin_path();
	emu.ctl.lfd = -1;
	for (unsigned int i = 0; i < CTL_MAX_CLIENTS; i++)
		emu.ctl.client[i].fd = -1;
	emu.ivs.lfd = emu.ivs.cfd = emu.ivs.shm_fd = -1;
	for (unsigned int v = 0; v < LOOM_NUM_VECTORS; v++)
		emu.ivs.kick_fd[v] = emu.ivs.irq_fd[v] = -1;
	/* every card its own fault streams, reproducible from --seed */
	port_set_init(&emu.ports, (unsigned int)o->ports, &emu.card, -1,
		      o->seed ^ (uint64_t)(o->node + 1) * 0xd1b54a32d192ed03ull);
	emu.epfd = epoll_create1(EPOLL_CLOEXEC);
	if (emu.epfd < 0)
		die("epoll_create1 failed");
	for (unsigned int p = 0; p < LOOM_MAX_PORTS; p++)
		emu.ports.port[p].epfd = emu.epfd;
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	signal(SIGPIPE, SIG_IGN);
	emu.sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	emu.sig_ev.fn = on_signal;
	ev_ctl(emu.epfd, EPOLL_CTL_ADD, emu.sigfd, EPOLLIN, &emu.sig_ev);

	if (guest_mem_open(&emu.gm, o->guest_ram, err, sizeof(err)) < 0)
		bad_option("--guest-ram '%s': %s", o->guest_ram, err);
	if (!ivs_open(&emu.ivs, o->ivshmem, LOOM_LAB_SHM_SIZE, err, sizeof(err)))
		die(err);
	if (!card_init(&emu.card, emu.ivs.shm, emu.ivs.shm_size, &cp, &emu.gm, err, sizeof(err))) {
		if (o->rtl && !strncmp(err, "--router rtl", 12))
			refuse_rtl(err);
		die(err);
	}
	emu.card.verbose = o->verbose;
	emu.card.hostile = &emu.hostile;
	emu.card.peer_heard = peer_heard;
	emu.hostile.verbose = o->verbose;
	for (unsigned int i = 0; i < o->n_routes; i++)
		card_set_route(&emu.card, o->route[i].dst, o->route[i].port);
	for (unsigned int p = 0; p < LOOM_MAX_PORTS; p++)
		if (o->vct[p].set)
			card_wr32(&emu.card, CARD_OFF_VCT + LOOM_VCT_PORT_CFG + 4 * p,
				  o->vct[p].dim | (o->vct[p].dateline ? LOOM_VCT_PORT_DATELINE : 0));
	for (unsigned int w = 0; w < LOOM_MAX_NODES / 32; w++)
		card_wr32(&emu.card, CARD_OFF_VCT + LOOM_VCT_START_VC1 + 4 * w, o->start_vc1[w]);
	card_save_boot_config(&emu.card);
	if (!card_router_rtl_fits(&emu.card, err, sizeof(err))) {
		card_free(&emu.card);
		refuse_rtl(err);
	}
	card_router_sync(&emu.card);
	if (o->strict_registers && !strict_regs_enable(&emu.card))
		die("out of memory for the strict register shadow");
	for (unsigned int p = 0; p < (unsigned int)o->ports; p++)
		if (o->cable[p].set &&
		    !port_cable(&emu.ports, p, &o->cable[p].addr, err, sizeof(err)))
			die(err);

	if (o->ctl && !ctl_open(&emu.ctl, o->ctl, emu.epfd, &emu.ports, &emu.card, &emu.clk,
			       err, sizeof(err)))
		die(err);
	if (o->record && !packet_record_start(&emu.card, o->record, err, sizeof(err)))
		die(err);

	emu.ivs_listen_ev.fn = on_listen;
	emu.ivs_client_ev.fn = on_client;
	for (unsigned int v = 0; v < LOOM_NUM_VECTORS; v++)
		emu.kick_ev[v].fn = on_kick;
	ev_ctl(emu.epfd, EPOLL_CTL_ADD, emu.ivs.lfd, EPOLLIN, &emu.ivs_listen_ev);
	emu_clock_init(&emu.clk, cp.clock_khz, o->lane_mbps != 0);

	card_log(&emu.card, "design %u.%u.%u build %08x, node %ld, %ld ports, %u contexts, guest RAM %s (%llu MiB), ivshmem %s",
		 CARD_DESIGN_VERSION >> 16, (CARD_DESIGN_VERSION >> 8) & 0xff,
		 CARD_DESIGN_VERSION & 0xff,
		 card_rd32(&emu.card, CARD_OFF_FWID + LOOM_FWID_BUILD_ID), o->node, o->ports,
		 CARD_N_CTX, o->guest_ram, (unsigned long long)(emu.gm.size >> 20), o->ivshmem);
	for (unsigned int p = 0; p < (unsigned int)o->ports; p++)
		card_log(&emu.card, "port %u: %s%s", p,
			 !o->cable[p].set ? "uncabled" :
			 o->cable[p].addr.listen ? "listen on " : "connect to ",
			 o->cable[p].set ? o->cable[p].addr.text : "");
	for (unsigned int i = 0; i < o->n_routes; i++) {
		if (o->route[i].port == LOOM_RT_PORT_HOST)
			card_log(&emu.card, "route %u -> host", o->route[i].dst);
		else
			card_log(&emu.card, "route %u -> port %u", o->route[i].dst, o->route[i].port);
	}
	card_log(&emu.card, "clock %u kHz%s; router: %u ports, %u VCs, %u-byte flits, %u flits per VC buffer (%ld packets), fault seed %llu%s%s",
		 cp.clock_khz, o->lane_mbps ? " in real time" : " (idle: follows wall time)",
		 cp.router.ports, cp.router.vcs, cp.router.flit_bytes, cp.router.buf_depth,
		 o->vc_buffers, o->seed, o->ctl ? ", control socket " : "", o->ctl ? o->ctl : "");
	card_log(&emu.card, "link layer: %u lanes of %u bytes per cycle (%u Mbit/s each), replay %u frames, ack timeout %ld ms (%u cycles), coalescing %u cycles",
		 cp.link.lanes, cp.link.lane_bytes,
		 (uint32_t)((uint64_t)cp.link.lane_bytes * 8 * cp.clock_khz / 1000),
		 cp.link.replay_frames, o->link_timeout_ms, cp.link.ack_timeout,
		 cp.link.coalesce_delay);
	if (o->rtl)
		card_log(&emu.card, "router: %s", card_router_rtl_desc(&emu.card));
	if (o->strict_registers)
		card_log(&emu.card, "strict registers: write-only registers read back 0x%08x, read-only ones checked at every kick",
			 LOOM_REG_POISON);
	if (o->hostile)
		hostile_start(&emu.hostile, &emu.card, o->hostile_seed, HOSTILE_ALL_KINDS);
	card_log(&emu.card, "ready");
}

static void raise_vectors(void)
{
	for (unsigned int v = 0; v < LOOM_NUM_VECTORS; v++)
		if (emu.card.vectors_pending & (1u << v))
			ivs_raise(&emu.ivs, v);
	emu.card.vectors_pending = 0;
}

/* Write the frames the cables took. */
static void flush_cables(void)
{
	port_set_flush(&emu.ports);
	emu.unsent_edges = 0;
}

/*
 * One edge.  The frames it started are taken off the link units at once,
 * as the cable would take them; they are written to the sockets with the
 * frames of the following edges, one send() per burst (PORT_FLUSH_EDGES),
 * and at once when the card stops being busy.  Interrupts are raised at
 * once.
 */
static void step_once(void)
{
	size_t held;

	card_step(&emu.card);
	held = port_set_take(&emu.ports);
	if (held && (++emu.unsent_edges >= PORT_FLUSH_EDGES || held >= PORT_TX_BUF / 2))
		flush_cables();
	if (emu.card.vectors_pending)
		raise_vectors();
}

/*
 * The cycles that passed while the card waited: every timer that fell due
 * in them fires at its own cycle, then the counter reaches @target.  A
 * timer that gives the card work ends the wait at its cycle: from there
 * the card is busy and steps as fast as it can (the rest of the wait is
 * not owed; stepping through it cycle by cycle would never catch up with
 * wall time, and the sockets would starve).
 */
static void follow_wall_time(uint64_t target)
{
	struct card *c = &emu.card;

	while (c->now < target) {
		uint64_t next = card_next_event(c);

		if (next <= c->now)
			return;
		if (next >= target) {
			card_skip_to(c, target);
			return;
		}
		card_skip_to(c, next);
		step_once();
	}
}

/*
 * Step while the card is busy, at most RUN_STEPS edges (then the sockets
 * get a look); in real time never past @limit.  Returns true if the card
 * is still busy.
 */
static bool run_busy(uint64_t limit)
{
	struct card *c = &emu.card;
	unsigned int steps = c->rtl ? RUN_STEPS_RTL : RUN_STEPS;

	for (unsigned int i = 0; i < steps; i++) {
		uint64_t next = card_next_event(c);	/* it reads the blocks: once per edge */

		if (next > c->now || c->now >= limit)
			return next <= c->now;
		step_once();
		if (!(c->now % PUBLISH_STEPS))
			card_publish(c);
	}
	return true;
}

/* Milliseconds until wall time @ns, rounded up; 0 if it passed. */
static int ms_until(uint64_t ns, uint64_t now)
{
	uint64_t ms;

	if (ns <= now)
		return 0;
	ms = (ns - now + 999999) / 1000000;
	return ms > INT_MAX ? INT_MAX : (int)ms;
}

static int min_timeout(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

static void run(void)
{
	struct card *c = &emu.card;
	struct epoll_event evs[32];
	bool busy = true, jump;
	uint64_t last_service = 0;

	emu_clock_anchor(&emu.clk, emu_now_ns(), c->now);
	while (!emu.stop && !c->killed) {
		int timeout = port_set_timers(&emu.ports, ev_now_ms());
		uint64_t now = emu_now_ns(), next;
		int n;

		/*
		 * In its own time (no --lane-mbps) the card does not wait in
		 * wall time for an event a few cycles ahead (a coalesced
		 * acknowledgement, a credit on its wire, a pipeline stage):
		 * epoll_wait sleeps at least a millisecond, which would add one
		 * to every hop.  Such an event is due at once; only the longer
		 * waits, the timers that stand for a silent peer or a lost
		 * frame, pass in wall time.
		 */
		next = busy && !emu.clk.realtime ? c->now : card_next_event(c);
		jump = !emu.clk.realtime && emu_clock_is_near(&emu.clk, c->now, next);
		if (busy && !emu.clk.realtime) {
			timeout = 0;
		} else if (jump) {
			timeout = 0;	/* look at the sockets, then jump */
			emu.clk.jumps++;
		} else {
			emu_clock_count_wait(&emu.clk, c->now, next);
			/* in real time, the next cycle comes at its wall time */
			if (emu.clk.realtime && next <= c->now)
				next = c->now + 1;
			if (next != UINT64_MAX)
				timeout = min_timeout(timeout, ms_until(emu_clock_ns_at(&emu.clk, next), now));
			if (c->stalled)
				timeout = min_timeout(timeout, STALL_POLL_MS);
			else if (card_ops_busy(c))
				timeout = min_timeout(timeout, OPS_POLL_MS);	/* operation timeouts */
			/* CQ_CI moves without a kick: take it soon, CQ_CI_SEEN follows */
			if (hif_cq_unreturned(c))
				timeout = min_timeout(timeout, STALL_POLL_MS);
			/* hostile mode acts on a clock */
			timeout = min_timeout(timeout, hostile_poll_ms(&emu.hostile));
		}
		n = epoll_wait(emu.epfd, evs, 32, timeout);
		if (n < 0 && errno != EINTR)
			die("epoll_wait failed");
		now = emu_now_ns();
		/* the cycles of the wait pass first, then the inputs arrive */
		if (jump)
			card_skip_to(c, next);
		else if (!busy || emu.clk.realtime)
			follow_wall_time(emu_clock_cycle_at(&emu.clk, now));
		for (int i = 0; i < n; i++) {
			struct ev_handler *h = evs[i].data.ptr;

			h->fn(h, evs[i].events);
		}
		if (emu.kicked || ((c->stalled || hif_cq_unreturned(c)) &&
				    now - last_service >= STALL_POLL_MS * 1000000ull) ||
		    (card_ops_busy(c) && now - last_service >= OPS_POLL_MS * 1000000ull) ||
		    (hostile_poll_ms(&emu.hostile) >= 0 &&
		     now - last_service >= (uint64_t)hostile_poll_ms(&emu.hostile) * 1000000ull)) {
			emu.kicked = false;
			last_service = now;
			/* before the card acts on what the guest wrote */
			if (emu.guest_kicked) {
				strict_regs_check(c);
				emu.guest_kicked = false;
			}
			hostile_before(&emu.hostile, c);
			card_service(c);
			hostile_after(&emu.hostile, c);
		}
		busy = run_busy(emu.clk.realtime ? emu_clock_cycle_at(&emu.clk, emu_now_ns()) :
				UINT64_MAX);
		flush_cables();
		raise_vectors();
		if (!busy) {
			card_publish(c);
			if (!emu.clk.realtime)
				emu_clock_anchor(&emu.clk, emu_now_ns(), c->now);
		}
	}
}

int main(int argc, char **argv)
{
	parse_options(&emu.opt, argc, argv);
	setup();
	run();
	strict_regs_check(&emu.card);
	strict_regs_report(&emu.card);
	strict_regs_disable(&emu.card);
	if (emu.opt.verbose) {
		for (unsigned int p = 0; p < emu.card.n_ports; p++) {
			char stats[2048];

			link_unit_stats(card_port_link(&emu.card, p), stats, sizeof(stats));
			card_log(&emu.card, "port %u at exit: %s", p, stats);
		}
	}
	record_finish();
	ctl_close(&emu.ctl);
	port_set_close(&emu.ports);
	card_free(&emu.card);
	ivs_close(&emu.ivs);
	guest_mem_close(&emu.gm);
	card_log(&emu.card, "stopped");
	return 0;
}
