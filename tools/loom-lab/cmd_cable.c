// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab cut | restore | ber | drop | stats: one command to the control
 * socket of the card emulator that owns NODE:PORT (DIR/cardN.ctl, see
 * Documentation/emulator.rst, "The control socket").  The card answers one
 * line, "ok ..." or "error: ..."; we print what happened to which cable.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "lab.h"
#include "sys.h"

#define CTL_ANSWER_TIMEOUT_MS 5000

struct cable_cmd {
	const char *name;	/* loom-lab command = control-socket command */
	bool takes_rate;
	const char *done;	/* what happened, for the report line */
};

static const struct cable_cmd cable_cmds[] = {
	{ "cut", false, "cut (link down until restored)" },
	{ "restore", false, "restored (the link trains again)" },
	{ "ber", true, "bit error rate set" },
	{ "drop", true, "frame drop rate set" },
	{ "stats", false, NULL },
};

static int parse_end(const char *s, int *node, int *port)
{
	char *end;
	long n, p;

	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end != ':' || n < 0 || n >= LAB_MAX_HOSTS)
		return -1;
	s = end + 1;
	p = strtol(s, &end, 10);
	if (errno || end == s || *end || p < 0 || p >= TOPO_MAX_PORTS)
		return -1;
	*node = (int)n;
	*port = (int)p;
	return 0;
}

/* A rate goes into the control line verbatim: only number characters. */
static bool plain_rate(const char *s)
{
	return *s && strlen(s) < 32 && strspn(s, "0123456789.eE+-") == strlen(s);
}

int lab_ctl_ask(const char *path, const char *line, char *ans, size_t len, char *why,
		size_t whylen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int64_t end = now_ms() + CTL_ANSWER_TIMEOUT_MS;
	size_t fill = 0;
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		snprintf(why, whylen, "socket path %s is too long", path);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		snprintf(why, whylen, "cannot connect to %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (write_all(fd, line, strlen(line)) < 0) {
		snprintf(why, whylen, "cannot send to %s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int64_t left = end - now_ms();
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) == 0) {
			snprintf(why, whylen, "no answer from %s within %d s", path,
				 CTL_ANSWER_TIMEOUT_MS / 1000);
			break;
		}
		n = read(fd, ans + fill, len - 1 - fill);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(why, whylen, "%s closed without a full answer line", path);
			break;
		}
		fill += (size_t)n;
		ans[fill] = 0;
		if (strchr(ans, '\n')) {
			ans[strcspn(ans, "\n")] = 0;
			close(fd);
			return 0;
		}
		if (fill == len - 1) {
			snprintf(why, whylen, "answer from %s longer than %zu bytes", path,
				 len - 1);
			break;
		}
	}
	close(fd);
	return -1;
}

int cmd_cable(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "dir", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const struct cable_cmd *cmd = NULL;
	const char *dir_arg = NULL, *rate = NULL;
	char dir[LAB_PATH_MAX], path[LAB_PATH_MAX], line[128], ans[4096], why[LAB_PATH_MAX + 128];
	struct lab_config cfg;
	int c, node, port, peer, peer_port;

	for (size_t i = 0; i < sizeof(cable_cmds) / sizeof(cable_cmds[0]); i++)
		if (!strcmp(argv[0], cable_cmds[i].name))
			cmd = &cable_cmds[i];
	if (!cmd)
		abort();
	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd': dir_arg = optarg; break;
		case 'h': lab_help(cmd->name, 0); return 0;
		default: return lab_bad_option(cmd->name, argv, opts);
		}
	}
	if (!dir_arg || optind + 1 + cmd->takes_rate != argc) {
		lab_err("%s: usage: loom-lab %s --dir DIR NODE:PORT%s", cmd->name, cmd->name,
			cmd->takes_rate ? " RATE" : "");
		return 2;
	}
	if (parse_end(argv[optind], &node, &port) < 0) {
		lab_err("%s: '%s': expected NODE:PORT, e.g. 0:1 (node 0..%d, port 0..%d)",
			cmd->name, argv[optind], LAB_MAX_HOSTS - 1, TOPO_MAX_PORTS - 1);
		return 2;
	}
	if (cmd->takes_rate) {
		rate = argv[optind + 1];
		if (!plain_rate(rate)) {
			lab_err("%s: RATE '%s': expected a probability from 0 to 1, e.g. 1e-5",
				cmd->name, rate);
			return 2;
		}
	}
	if (lab_abs_dir(dir_arg, dir) < 0 || lab_config_load(dir, &cfg) < 0) {
		lab_err("%s: no lab in %s (start one with `loom-lab start`)", cmd->name,
			dir_arg);
		return LAB_EXIT_LAB_ERROR;
	}
	if (cfg.no_card) {
		lab_err("%s: the lab in %s runs without cards (--no-card): no cables",
			cmd->name, dir_arg);
		return LAB_EXIT_LAB_ERROR;
	}
	if (node >= cfg.hosts || port >= topo_ports(&cfg.shape)) {
		char shape[TOPO_NAME_MAX];

		topo_name(&cfg.shape, shape, sizeof(shape));
		lab_err("%s: %d:%d: the lab (%s) has nodes 0..%d with ports 0..%d",
			cmd->name, node, port, shape, cfg.hosts - 1, topo_ports(&cfg.shape) - 1);
		return 2;
	}
	if (lab_path(path, dir, "card%d.ctl", node) < 0) {
		lab_err("%s: lab directory %s is too long", cmd->name, dir);
		return LAB_EXIT_LAB_ERROR;
	}
	snprintf(line, sizeof(line), "%s %d%s%s\n", cmd->name, port, rate ? " " : "",
		 rate ? rate : "");
	if (lab_ctl_ask(path, line, ans, sizeof(ans), why, sizeof(why)) < 0) {
		lab_err("%s %d:%d: %s (is the lab running? `loom-lab status --dir %s`; "
			"see %s/card%d.log)", cmd->name, node, port, why, dir_arg, dir_arg, node);
		return LAB_EXIT_LAB_ERROR;
	}
	if (strncmp(ans, "ok", 2) || (ans[2] && ans[2] != ' ')) {
		lab_err("%s %d:%d: card %d refused: %s", cmd->name, node, port, node, ans);
		return 1;
	}
	if (!cmd->done) {
		/* stats: the card's key=value words as they are */
		printf("node %d %s\n", node, ans[2] ? ans + 3 : "");
		return 0;
	}
	if (topo_peer(&cfg.shape, node, port, &peer, &peer_port))
		printf("node %d port %d (%s) <-> node %d port %d (%s): %s%s%s\n", node, port,
		       topo_port_name(&cfg.shape, port), peer, peer_port,
		       topo_port_name(&cfg.shape, peer_port), cmd->done, rate ? " to " : "",
		       rate ? rate : "");
	else
		printf("node %d port %d (%s, uncabled): %s%s%s\n", node, port,
		       topo_port_name(&cfg.shape, port), cmd->done, rate ? " to " : "",
		       rate ? rate : "");
	return 0;
}
