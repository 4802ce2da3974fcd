// SPDX-License-Identifier: GPL-2.0
/* loom-lab: help texts (the manual is Documentation/tools/loom-lab.rst). */
#include <stdio.h>
#include <string.h>

#include "lab.h"
#include "../common/cli.h"

static const char main_help[] =
"usage: loom-lab COMMAND [OPTIONS]\n"
"\n"
"Starts a loom VM lab: one card emulator (loom-card) per host, cabled as a\n"
"ring, mesh or torus, and one QEMU guest (TCG, Debian kernel booted by PVH) per host with\n"
"the host's root file system shared read-only, the loom module loaded and\n"
"an agent that runs commands, on a management network where the hosts\n"
"loom-h0, loom-h1, ... reach each other by ssh; then runs commands in the\n"
"guests and tears everything down.\n"
"\n"
"commands:\n"
"  start      start a lab in a new directory\n"
"  exec       run a command in one guest\n"
"  stop       stop a lab and remove everything it created\n"
"  status     show the lab's processes and whether they are alive\n"
"  check-log  scan the guests' kernel logs for oopses, warnings, leaks\n"
"  topology   print the nodes, cables and routes of a shape\n"
"  cut        cut a cable (link down until restored)\n"
"  restore    restore a cut cable\n"
"  ber        set a port's bit error rate\n"
"  drop       set a port's frame drop rate\n"
"  stats      print a port's link state and counters\n"
"  record     record every card's requests for loom-sim --replay, or stop\n"
"\n"
"`loom-lab COMMAND --help` describes each command; loom-lab -V prints the\n"
"version.  Exit status 2: a usage error (unknown command or option, a\n"
"malformed value).\n"
"Manual: loom-lab(8), Documentation/tools/loom-lab.rst\n";

static const char start_help[] =
"usage: loom-lab start --dir DIR [--hosts N] [--shape SHAPE] [--mem MiB]\n"
"                      [--cpus N]\n"
"                      [--boot-timeout S] [--module PATH | --no-module]\n"
"                      [--tree PATH] [--no-card] [--no-routes]\n"
"                      [--kernel VMLINUX --modules DIR] [--append ARGS]\n"
"                      [--timeout-scale N] [--on-stop CMD] [--keep-logs DEST]\n"
"                      [--cables unix|tcp] [--router model|rtl] [--no-net]\n"
"\n"
"Creates DIR (it must not exist or be empty), starts the card emulators and\n"
"the VMs under a supervisor daemon and returns when every guest is up and\n"
"has loaded the module.  Progress goes to stderr.  On failure it says what\n"
"failed (with the tail of the failing guest's console log), tears the lab\n"
"down and exits 1.\n"
"\n"
"  --dir DIR           the lab's directory: sockets, logs, pids (required;\n"
"                      keep the path short: UNIX socket names live in it)\n"
"  --hosts N           number of hosts, 1 to 16 (default 2 for a ring; a mesh\n"
"                      or torus has its own count, which --hosts must equal)\n"
"  --shape SHAPE       how the cards are cabled and routed: ring (default),\n"
"                      mesh:X[xY[xZ]] or torus:X[xY[xZ]], each dimension 2\n"
"                      to 8, at most 16 nodes (see `loom-lab topology`)\n"
"  --mem MiB           guest RAM per host, 64 to 2048 (default LOOM_LAB_MEM,\n"
"                      else 256, 128 in a lab of more than 8 hosts); start\n"
"                      refuses a lab that does not fit the memory available\n"
"  --cpus N            virtual CPUs per guest, 1 to 4 (default 1); each is a\n"
"                      host thread of QEMU's TCG\n"
"  --boot-timeout S    seconds every guest has to come up (default 180)\n"
"  --module PATH       module to insmod in each guest\n"
"                      (default TREE/kmod/loom.ko)\n"
"  --no-module         do not load any module\n"
"  --tree PATH         the loom source tree the guests work in (default: the\n"
"                      tree this loom-lab was built from)\n"
"  --no-card           no card emulators and no ivshmem devices: VMs only\n"
"  --no-routes         each card starts with only its own route (for the\n"
"                      fabric manager, loom-fm configure, to program)\n"
"  --cables unix|tcp   what the cards' cables are: UNIX sockets in DIR\n"
"                      (default) or TCP connections on 127.0.0.1, as between\n"
"                      machines\n"
"  --router model|rtl  the cards' router: the C model (default) or the\n"
"                      Verilated RTL (loom-card --router rtl; build it with\n"
"                      'make -C fpga_bitstreams rtl-card')\n"
"  --no-net            no management network: no NIC, no /etc/hosts of the\n"
"                      lab's, no sshd in the guests\n"
"\n"
"For another guest kernel (a debug build); each option defaults to the\n"
"environment variable named after it:\n"
"  --kernel VMLINUX    boot this ELF vmlinux (PVH) or bzImage instead of\n"
"                      Debian's kernel (LOOM_LAB_KERNEL)\n"
"  --modules DIR       its module tree, ROOT/lib/modules/RELEASE\n"
"                      (LOOM_LAB_MODULES; goes with --kernel)\n"
"  --append ARGS       more kernel command line (LOOM_LAB_APPEND)\n"
"  --timeout-scale N   multiply the boot, insmod and exec timeouts, 1 to 100\n"
"                      (LOOM_LAB_TIMEOUT_SCALE)\n"
"  --on-stop CMD       `stop` first runs CMD in every guest, output into\n"
"                      DIR/hN.on-stop.log (LOOM_LAB_ON_STOP)\n"
"  --keep-logs DEST    on teardown, keep the logs in DEST/NAME.UNIQ, NAME\n"
"                      being $LOOM_TEST_NAME or lab (LOOM_LAB_KEEP_LOGS)\n"
"\n"
"Files in DIR: hN.console.log (guest kernel console), hN.qemu.log,\n"
"cardN.log (emulator stderr), cardN.ctl (its control socket), supervisor.log,\n"
"switch.log, mgmt.vde (the switch), guest (what the guests see in\n"
"/run/loom-lab: hosts, ssh keys), pids, shm, lab.conf, sockets.\n"
"Host N is loom-hN (alias hN) at 10.77.0.N+1 on the management network;\n"
"in a guest, `ssh loom-h2 CMD` runs CMD on host 2 and Open MPI's mpirun\n"
"launches there (--host loom-h0,loom-h1,...).\n"
"Guest RAM files live in /dev/shm/loom-lab-*.ram while the lab runs.\n"
"\n"
"exit status: 0 lab up, 1 start failed (torn down), 2 bad options\n";

static const char exec_help[] =
"usage: loom-lab exec --dir DIR [--timeout S] [--stdin] HOST -- CMD [ARG...]\n"
"\n"
"Runs `/bin/sh -c \"CMD ARG...\"` (the arguments joined with spaces) in guest\n"
"HOST (0-based) with cwd = TREE and the environment\n"
"  PATH=TREE/build/bin:/usr/sbin:/usr/bin:/sbin:/bin\n"
"  LD_LIBRARY_PATH=TREE/build/lib LOOM_TREE=TREE HOME=/tmp LOOM_LAB_HOST=HOST\n"
"as root.  The command's stdout and stderr are relayed to ours, separately.\n"
"Its stdin is empty unless --stdin is given.  Several execs may run at once,\n"
"on the same host or on different hosts.\n"
"\n"
"  --dir DIR     the lab's directory (required)\n"
"  --timeout S   kill the command after S seconds (default 300; 0 = never)\n"
"  --stdin       forward our stdin to the command (until EOF)\n"
"\n"
"exit status: the command's (128+N if killed by signal N), 124 on timeout\n"
"(the command is killed), 125 for a lab error (message on stderr),\n"
"2 for bad options\n";

static const char stop_help[] =
"usage: loom-lab stop --dir DIR [--save-logs DEST]\n"
"\n"
"Stops the supervisor, the VMs and the emulators recorded in DIR/pids\n"
"(SIGTERM to each process group, SIGKILL after a few seconds; a pid whose\n"
"start time no longer matches is left alone), removes the guest RAM files\n"
"listed in DIR/shm and removes DIR with its sockets and logs.  Idempotent;\n"
"works after a crash of the supervisor.  Refuses to remove a directory\n"
"that is not a lab's.\n"
"\n"
"  --dir DIR           the lab's directory (required)\n"
"  --save-logs DEST    first copy the logs (*.log: guest consoles, QEMU,\n"
"                      emulators, supervisor) and lab.conf and pids into\n"
"                      DEST, created if needed\n"
"\n"
"exit status: 0 all gone, 1 something could not be removed or saved,\n"
"2 bad options\n";

static const char status_help[] =
"usage: loom-lab status --dir DIR\n"
"\n"
"Prints the lab's shape and host count (`shape: torus:2x2, 4 hosts`), then\n"
"one line per process of the lab: the supervisor, the management network's\n"
"switch, each host's QEMU and each card emulator, with its pid and whether\n"
"it is alive.\n"
"\n"
"exit status: 0 all alive, 1 something is dead or no lab in DIR,\n"
"2 bad options\n";

static const char topology_help[] =
"usage: loom-lab topology [--shape SHAPE] [--hosts N] [-j]\n"
"\n"
"Prints what `start --shape SHAPE` builds, without starting anything: each\n"
"node's coordinates, every cable (node, port) <-> (node, port) and every\n"
"card's routing table (destination = output port of the first hop).\n"
"Node id = x + X*(y + Y*z); port d = +dimension d, port dims+d = -dimension\n"
"d (+X +Y +Z -X -Y -Z).  Routes go in dimension order (X, then Y, then Z),\n"
"in a torus the shorter way round (a tie goes +).\n"
"\n"
"  --shape SHAPE   ring (default), mesh:X[xY[xZ]] or torus:X[xY[xZ]], each\n"
"                  dimension 2 to 8, at most 16 nodes\n"
"  --hosts N       nodes of a ring (default 2); for a mesh or torus it must\n"
"                  equal the shape's node count\n"
"  -j, --json      one JSON object instead of text\n"
"\n"
"exit status: 0 printed, 2 bad options or shape\n";

static const char check_log_help[] =
"usage: loom-lab check-log [--before N] [--after N] --dir DIR\n"
"       loom-lab check-log [--before N] [--after N] FILE...\n"
"\n"
"Scans every guest's kernel console log (DIR/hN.console.log), or the logs\n"
"given as FILEs, for kernel reports: oopses, panics, BUG and WARNING,\n"
"KASAN, KFENCE, UBSAN, lockdep and RCU checks, sleeping in atomic context,\n"
"kmemleak's unreferenced objects, refcount_t and list corruption, debug\n"
"objects, hung tasks, soft and hard lockups, RCU stalls, bad pages, call\n"
"traces, the DMA API error count make check-debug writes; and every\n"
"card's log (DIR/cardN.log, or a FILE named cardN.log) for\n"
"\"strict-registers: violation\" (the driver broke a register's access\n"
"rule).  Prints each finding as `host N: FILE:LINE: [CLASS] text` (without\n"
"`host N: ` for FILEs) with the lines around it as `host N: FILE-LINE- text`\n"
"(the report's header before it, its call trace after it; runs of lines\n"
"apart are separated by `--`), then a count per class on stderr.  Run it\n"
"before `stop`, which removes DIR.\n"
"\n"
"  -B, --before N  lines printed before each finding (default 10)\n"
"  -A, --after N   lines printed after each finding (default 30)\n"
"\n"
"exit status: 0 clean, 1 findings (or a log is missing), 2 bad options\n";

static const char record_help[] =
"usage: loom-lab record --dir DIR OUTDIR\n"
"       loom-lab record --dir DIR off\n"
"\n"
"Every card of the lab in DIR records the requests its host sends into\n"
"its router (puts, gets, atomics: cycle, destination, bytes) into\n"
"OUTDIR/cardN.trace (OUTDIR must exist), until `loom-lab record off`,\n"
"which finishes the files and prints how many requests each holds and\n"
"the loom-sim command that replays them on the lab's shape.  The format:\n"
"loom-card(8), Documentation/emulator.rst \"Recording traffic\".\n"
"\n"
"exit status: 0 done, 1 a card refused (its answer is printed), 2 bad\n"
"options, 125 no lab in DIR or a card does not answer\n";

static const char cable_help[] =
"usage: loom-lab cut     --dir DIR NODE:PORT\n"
"       loom-lab restore --dir DIR NODE:PORT\n"
"       loom-lab ber     --dir DIR NODE:PORT RATE\n"
"       loom-lab drop    --dir DIR NODE:PORT RATE\n"
"       loom-lab stats   --dir DIR NODE:PORT\n"
"\n"
"Sends one command to the control socket of card NODE (DIR/cardNODE.ctl)\n"
"about its network port PORT:\n"
"  cut      the link goes down at once and stays down (both ends see it;\n"
"           operations through it fail) until restore\n"
"  restore  the port reconnects and the link trains again\n"
"  ber      flip each transmitted bit with probability RATE (0 = off)\n"
"  drop     drop each transmitted frame with probability RATE (0 = off)\n"
"  stats    print the port's state and counters (key=value words)\n"
"and prints the cable it acted on, e.g.\n"
"  node 0 port 0 (+X) <-> node 1 port 2 (-X): cut (link down until restored)\n"
"\n"
"exit status: 0 done, 1 the card refused (its answer is printed), 2 bad\n"
"options, 125 no lab in DIR or the card does not answer\n";

void lab_help(const char *cmd, int to_stderr)
{
	FILE *f = to_stderr ? stderr : stdout;
	const char *text = main_help;

	if (cmd && !strcmp(cmd, "start"))
		text = start_help;
	else if (cmd && !strcmp(cmd, "exec"))
		text = exec_help;
	else if (cmd && !strcmp(cmd, "stop"))
		text = stop_help;
	else if (cmd && !strcmp(cmd, "status"))
		text = status_help;
	else if (cmd && !strcmp(cmd, "check-log"))
		text = check_log_help;
	else if (cmd && !strcmp(cmd, "topology"))
		text = topology_help;
	else if (cmd && !strcmp(cmd, "record"))
		text = record_help;
	else if (cmd && (!strcmp(cmd, "cut") || !strcmp(cmd, "restore") ||
			 !strcmp(cmd, "ber") || !strcmp(cmd, "drop") ||
			 !strcmp(cmd, "stats")))
		text = cable_help;
	fputs(text, f);
}

int lab_bad_option(const char *cmd, char **argv, const struct option *opts)
{
	const char *typed = argv[optind - 1];
	size_t n = strcspn(typed, "=");
	char msg[256];

	/* (the commands' option strings do not start with ':': a missing value
	 * is a known option that needed one)
	 */
	for (int i = 0; !strncmp(typed, "--", 2) && opts[i].name; i++) {
		if (opts[i].has_arg == required_argument && n == strlen(opts[i].name) + 2 &&
		    !strncmp(typed + 2, opts[i].name, n - 2)) {
			lab_err("%s: option '--%s' needs a value (loom-lab %s --help)", cmd,
				opts[i].name, cmd);
			return 2;
		}
	}
	cli_option_problem(msg, sizeof(msg), '?', argv, opts);
	lab_err("%s: %s (loom-lab %s --help)", cmd, msg, cmd);
	return 2;
}
