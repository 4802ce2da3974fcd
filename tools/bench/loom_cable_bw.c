// SPDX-License-Identifier: GPL-2.0
/*
 * loom_cable_bw: the cable floor.  The raw stream throughput of the kind of
 * socket the lab's cables are, between two processes: the card emulator's
 * own cable code makes the socket (cable_listen/cable_connect/cable_tune on
 * a UNIX socket path, as `loom-lab start` cables its cards),
 * the sender writes batches as large as a port's transmit batch with
 * non-blocking sends and the receiver reads into a buffer as large as a
 * link's receive buffer, each waiting in poll() for readiness as a card
 * waits in epoll.  No framing, no CRC, no card: what a cable could carry at
 * best, the figure that loom_put_bw's bandwidth is a fraction of.
 *
 *   loom_cable_bw [-t SECONDS] [--cpus A,B] [-j]
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cable_socket.h"
#include "link.h"
#include "port.h"
#include "../common/cli.h"
#include "../common/parse_num.h"

#define PROG "loom_cable_bw"

struct cable_bw_opts {
	double seconds;
	bool json;
	int cpu[2];		/* sender, receiver; -1: not pinned */
};

static void usage(FILE *f)
{
	fprintf(f,
"Usage: loom_cable_bw [OPTIONS]\n"
"\n"
"The cable floor: raw stream throughput between two processes over the kind\n"
"of socket the lab's cables are (made by the card emulator's cable code), with\n"
"the card's batch sizes: writes of %u bytes (a port's transmit batch), reads\n"
"of %u bytes (a link's receive buffer), non-blocking, waiting in poll().\n"
"MB is 10^6 bytes.  Runs on the host, not in a guest.\n"
"\n"
"  -t, --time SECONDS   how long the sender sends (default 2; 0.1 .. 600)\n"
"      --cpus A,B       pin the sender to CPU A and the receiver to CPU B\n"
"                       (default: not pinned)\n"
"  -j, --json           one JSON object instead of the text\n"
"  -h, --help           this text\n"
"  -V, --version        the version\n"
"\n"
"Exit status: 0 success, 1 the transfer failed, 2 usage error.\n",
		(unsigned int)PORT_TX_BUF, (unsigned int)LINK_RX_BUF);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die_usage(const char *opt, const char *val, const char *expected)
{
	fprintf(stderr, PROG ": invalid %s '%s': expected %s\n", opt, val, expected);
	exit(CLI_EXIT_USAGE);
}

static int cpu_arg(const char *s, const char *all)
{
	uint64_t v;
	cpu_set_t set;

	if (!parse_num(s, &v, false) || v >= CPU_SETSIZE)
		die_usage("--cpus", all, "two CPU numbers A,B");
	if (sched_getaffinity(0, sizeof(set), &set) == 0 && !CPU_ISSET((int)v, &set)) {
		fprintf(stderr, PROG ": --cpus %s: CPU %" PRIu64 " is not one this process may use (see nproc, taskset -p $$)\n",
			all, v);
		exit(CLI_EXIT_USAGE);
	}
	return (int)v;
}

static void parse_args(int argc, char **argv, struct cable_bw_opts *o)
{
	static const struct option longopts[] = {
		{ "time", required_argument, NULL, 't' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ 0 }
	};
	char *end, a[32];
	int opt;

	*o = (struct cable_bw_opts){ .seconds = 2, .cpu = { -1, -1 } };
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":t:jhV", longopts, NULL)) != -1) {
		switch (opt) {
		case 't':
			errno = 0;
			o->seconds = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(o->seconds >= 0.1 && o->seconds <= 600))
				die_usage("--time", optarg, "0.1 .. 600 seconds");
			break;
		case 'c': {
			const char *comma = strchr(optarg, ',');

			if (!comma || (size_t)(comma - optarg) >= sizeof(a))
				die_usage("--cpus", optarg, "two CPU numbers A,B");
			memcpy(a, optarg, (size_t)(comma - optarg));
			a[comma - optarg] = 0;
			o->cpu[0] = cpu_arg(a, optarg);
			o->cpu[1] = cpu_arg(comma + 1, optarg);
			break;
		}
		case 'j': o->json = true; break;
		case 'h': usage(stdout); exit(0);
		case 'V': exit(cli_version(PROG));
		default:
			exit(cli_bad_option(PROG, opt, argv, longopts));
		}
	}
	if (optind < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s' (see --help)\n", argv[optind]);
		exit(CLI_EXIT_USAGE);
	}
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		fprintf(stderr, PROG ": cannot pin to CPU %d: %s (measuring unpinned)\n", cpu,
			strerror(errno));
}

/* Waits until @fd is ready for @events, at most 1 s; -1 on a socket error. */
static int wait_ready(int fd, short events)
{
	struct pollfd p = { .fd = fd, .events = events };

	if (poll(&p, 1, 1000) < 0 && errno != EINTR)
		return -1;
	return p.revents & (POLLERR | POLLNVAL) ? -1 : 0;
}

/* The receiver: reads until EOF; reports bytes and seconds from the first byte. */
static int receive(const struct cable_addr *addr, int report_fd)
{
	static uint8_t buf[LINK_RX_BUF];
	uint64_t total = 0;
	double t0 = 0, t1 = 0, result[2];
	bool done;
	int fd = cable_connect(addr, &done);

	if (fd < 0) {
		fprintf(stderr, PROG ": receiver: cannot connect to %s: %s\n", addr->text,
			strerror(errno));
		return 1;
	}
	while (!done) {
		if (wait_ready(fd, POLLOUT) < 0 || cable_connect_result(fd)) {
			fprintf(stderr, PROG ": receiver: connect to %s failed\n", addr->text);
			return 1;
		}
		done = true;
	}
	cable_tune(addr, fd);
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n > 0) {
			if (!total)
				t0 = now_s();
			total += (uint64_t)n;
			t1 = now_s();
			continue;
		}
		if (n == 0)
			break;
		if (errno == EAGAIN || errno == EINTR) {
			if (wait_ready(fd, POLLIN) < 0)
				break;
			continue;
		}
		fprintf(stderr, PROG ": receiver: read: %s\n", strerror(errno));
		return 1;
	}
	result[0] = (double)total;
	result[1] = t1 - t0;
	return write(report_fd, result, sizeof(result)) == (ssize_t)sizeof(result) ? 0 : 1;
}

/* The sender: accepts the receiver and writes batches for @seconds. */
static int send_for(int listen_fd, double seconds, uint64_t *sent)
{
	static uint8_t batch[PORT_TX_BUF];
	int fd = -1;
	double end;

	memset(batch, 0x5a, sizeof(batch));
	for (int tries = 0; fd < 0 && tries < 10; tries++) {
		fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno != EAGAIN || wait_ready(listen_fd, POLLIN) < 0))
			break;
	}
	if (fd < 0) {
		fprintf(stderr, PROG ": sender: no receiver connected: %s\n", strerror(errno));
		return 1;
	}
	*sent = 0;
	end = now_s() + seconds;
	while (now_s() < end) {
		ssize_t n = send(fd, batch, sizeof(batch), MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n > 0) {
			*sent += (uint64_t)n;
		} else if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (wait_ready(fd, POLLOUT) < 0)
				break;
		} else {
			fprintf(stderr, PROG ": sender: send: %s\n", n < 0 ? strerror(errno) : "closed");
			close(fd);
			return 1;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct cable_bw_opts o;
	struct cable_addr addr;
	char dir[] = "/tmp/loom-cable-bw.XXXXXX", spec[CABLE_ADDR_TEXT_MAX], err[256];
	int report[2], listen_fd, status, rc = 1;
	uint64_t sent = 0;
	double result[2] = { 0, 0 };
	pid_t child;

	parse_args(argc, argv, &o);
	if (!mkdtemp(dir)) {
		fprintf(stderr, PROG ": cannot create a directory for the socket: %s\n",
			strerror(errno));
		return 1;
	}
	snprintf(spec, sizeof(spec), "listen:%s/cable.sock", dir);
	if (cable_parse(spec, &addr, err, sizeof(err)) ||
	    (listen_fd = cable_listen(&addr, err, sizeof(err))) < 0) {
		fprintf(stderr, PROG ": %s\n", err);
		goto out_dir;
	}
	addr.listen = false;
	if (pipe(report) < 0) {
		fprintf(stderr, PROG ": pipe: %s\n", strerror(errno));
		goto out_listen;
	}
	child = fork();
	if (child < 0) {
		fprintf(stderr, PROG ": fork: %s\n", strerror(errno));
		goto out_pipe;
	}
	if (child == 0) {
		close(listen_fd);
		close(report[0]);
		pin(o.cpu[1]);
		_exit(receive(&addr, report[1]));
	}
	close(report[1]);
	report[1] = -1;
	pin(o.cpu[0]);
	rc = send_for(listen_fd, o.seconds, &sent);
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    read(report[0], result, sizeof(result)) != (ssize_t)sizeof(result))
		rc = 1;
	if (!rc && (result[0] != (double)sent || result[1] <= 0)) {
		fprintf(stderr, PROG ": the receiver got %.0f of %" PRIu64 " bytes sent\n",
			result[0], sent);
		rc = 1;
	}
	if (!rc) {
		double mbps = result[0] / result[1] / 1e6;

		if (o.json)
			printf("{\"bytes\": %" PRIu64 ", \"seconds\": %.3f, \"bw\": %.2f, "
			       "\"write_size\": %u, \"read_size\": %u}\n",
			       sent, result[1], mbps, (unsigned int)PORT_TX_BUF,
			       (unsigned int)LINK_RX_BUF);
		else
			printf("cable floor: %.2f MB/sec (%" PRIu64 " bytes in %.3f s over a UNIX "
			       "stream socket, writes of %u bytes, reads of %u bytes)\n", mbps,
			       sent, result[1], (unsigned int)PORT_TX_BUF,
			       (unsigned int)LINK_RX_BUF);
	} else {
		fprintf(stderr, PROG ": the measurement failed\n");
	}
out_pipe:
	close(report[0]);
	if (report[1] >= 0)
		close(report[1]);
out_listen:
	close(listen_fd);
out_dir:
	snprintf(spec, sizeof(spec), "%s/cable.sock", dir);
	unlink(spec);
	rmdir(dir);
	return rc;
}
