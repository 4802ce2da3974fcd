// SPDX-License-Identifier: GPL-2.0
/*
 * Cable endpoints (fpga_bitstreams/emu/cable_socket.c): the four forms parse
 * into the right socket addresses; every malformed endpoint is refused
 * with a message that names what is wrong; over TCP on loopback a listener
 * accepts a connect (finished in place or through its in-progress path),
 * bytes cross, the cable has no Nagle delay, a second listener on the same
 * port and an address that is not this machine's are refused, and a
 * connect to a port nobody listens on fails.
 */
#include "cable_socket.h"
#include "tap.h"
#include "tcp_port.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

TAP_DEFINE;

static int port_of(const struct cable_addr *a)
{
	if (a->sa.ss_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)&a->sa)->sin_port);
	if (a->sa.ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)&a->sa)->sin6_port);
	return -1;
}

static bool parses(const char *spec, bool listen, bool tcp, int family, int port)
{
	struct cable_addr a;
	char err[512] = "";

	if (cable_parse(spec, &a, err, sizeof(err)) < 0) {
		tap_diag("'%s' was refused: %s", spec, err);
		return false;
	}
	if (a.listen != listen || a.tcp != tcp || a.sa.ss_family != family ||
	    (tcp && port_of(&a) != port) || strcmp(a.text, spec)) {
		tap_diag("'%s': listen %d tcp %d family %d port %d text '%s', expected %d %d %d %d",
			 spec, a.listen, a.tcp, a.sa.ss_family, port_of(&a), a.text, listen, tcp,
			 family, port);
		return false;
	}
	if (!tcp && strcmp(((struct sockaddr_un *)&a.sa)->sun_path, strchr(spec, ':') + 1)) {
		tap_diag("'%s': socket path '%s'", spec, ((struct sockaddr_un *)&a.sa)->sun_path);
		return false;
	}
	return true;
}

static bool refused(const char *spec, const char *must_say)
{
	struct cable_addr a;
	char err[512] = "";

	if (cable_parse(spec, &a, err, sizeof(err)) == 0) {
		tap_diag("'%s' was accepted", spec);
		return false;
	}
	if (!strstr(err, must_say)) {
		tap_diag("'%s': message '%s' does not say '%s'", spec, err, must_say);
		return false;
	}
	return true;
}

static bool tcp_loopback(void)
{
	char spec[64], err[512] = "";
	struct cable_addr l, c;
	int port = tcp_free_port(), lfd, cfd, afd = -1, nodelay = 0, lfd2;
	socklen_t len = sizeof(nodelay);
	bool done, ok = true;
	char buf[8] = "";

	snprintf(spec, sizeof(spec), "tcp-listen:127.0.0.1:%d", port);
	if (port < 0 || cable_parse(spec, &l, err, sizeof(err)) < 0) {
		tap_diag("%s: %s", spec, err);
		return false;
	}
	snprintf(spec, sizeof(spec), "tcp-connect:127.0.0.1:%d", port);
	cable_parse(spec, &c, err, sizeof(err));
	lfd = cable_listen(&l, err, sizeof(err));
	if (lfd < 0) {
		tap_diag("%s", err);
		return false;
	}
	cfd = cable_connect(&c, &done);
	if (cfd < 0) {
		tap_diag("connect to %s: %s", c.text, strerror(errno));
		close(lfd);
		return false;
	}
	if (!done) {
		struct pollfd p = { .fd = cfd, .events = POLLOUT };
		int e;

		poll(&p, 1, 5000);
		e = cable_connect_result(cfd);
		if (e) {
			tap_diag("connect in progress to %s failed: %s", c.text, strerror(e));
			ok = false;
		}
	}
	for (int i = 0; ok && i < 500 && afd < 0; i++) {
		afd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (afd < 0)
			usleep(10000);
	}
	if (ok && afd < 0) {
		tap_diag("the listener accepted nothing: %s", strerror(errno));
		ok = false;
	}
	if (ok) {
		cable_tune(&c, cfd);
		getsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &nodelay, &len);
		if (!nodelay) {
			tap_diag("TCP_NODELAY is off on the connected cable");
			ok = false;
		}
		if (send(cfd, "frame", 5, MSG_NOSIGNAL) != 5) {
			tap_diag("send: %s", strerror(errno));
			ok = false;
		}
		for (int i = 0; ok && i < 500; i++) {
			ssize_t n = recv(afd, buf, sizeof(buf) - 1, MSG_DONTWAIT);

			if (n > 0) {
				buf[n] = 0;
				break;
			}
			usleep(10000);
		}
		if (ok && strcmp(buf, "frame")) {
			tap_diag("received '%s', sent 'frame'", buf);
			ok = false;
		}
	}
	/* the port is taken: a second listener is refused and says why */
	lfd2 = cable_listen(&l, err, sizeof(err));
	if (lfd2 >= 0 || !strstr(err, "another process listens there")) {
		tap_diag("second listener on %s: fd %d, '%s'", l.text, lfd2, err);
		ok = false;
	}
	if (lfd2 >= 0)
		close(lfd2);
	if (afd >= 0)
		close(afd);
	close(cfd);
	close(lfd);
	return ok;
}

static bool not_local(void)
{
	struct cable_addr a;
	char err[512] = "";
	int fd;

	/* TEST-NET-1 (RFC 5737): never an address of this machine */
	if (cable_parse("tcp-listen:192.0.2.1:7000", &a, err, sizeof(err)) < 0) {
		tap_diag("%s", err);
		return false;
	}
	fd = cable_listen(&a, err, sizeof(err));
	if (fd >= 0) {
		close(fd);
		tap_diag("listening on 192.0.2.1 succeeded");
		return false;
	}
	if (!strstr(err, "cannot listen on cable tcp-listen:192.0.2.1:7000")) {
		tap_diag("message: %s", err);
		return false;
	}
	return true;
}

static bool nobody_listens(void)
{
	char spec[64], err[512] = "";
	struct cable_addr c;
	int port = tcp_free_port(), fd, e;
	bool done;

	snprintf(spec, sizeof(spec), "tcp-connect:127.0.0.1:%d", port);
	if (cable_parse(spec, &c, err, sizeof(err)) < 0)
		return false;
	fd = cable_connect(&c, &done);
	if (fd < 0)
		return errno == ECONNREFUSED || (tap_diag("connect: %s", strerror(errno)), false);
	if (done) {
		tap_diag("connected to %s where nobody listens", spec);
		close(fd);
		return false;
	}
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	poll(&p, 1, 5000);
	e = cable_connect_result(fd);
	close(fd);
	if (e != ECONNREFUSED)
		tap_diag("connect in progress ended with '%s', expected refused", strerror(e));
	return e == ECONNREFUSED;
}

int main(void)
{
	static char longpath[300];
	bool ok;

	tap_plan(6);
	ok = parses("listen:/tmp/c.sock", true, false, AF_UNIX, 0) &
	     parses("connect:/tmp/c.sock", false, false, AF_UNIX, 0);
	tap_ok(ok, "listen:PATH and connect:PATH are UNIX socket endpoints");

	ok = parses("tcp-listen:127.0.0.1:7000", true, true, AF_INET, 7000) &
	     parses("tcp-listen:0.0.0.0:65535", true, true, AF_INET, 65535) &
	     parses("tcp-connect:10.1.2.3:1", false, true, AF_INET, 1) &
	     parses("tcp-connect:[::1]:7001", false, true, AF_INET6, 7001) &
	     parses("tcp-listen:[::]:7002", true, true, AF_INET6, 7002);
	tap_ok(ok, "tcp-listen:ADDR:PORT and tcp-connect:HOST:PORT with IPv4 and bracketed IPv6");

	memset(longpath, 'x', sizeof(longpath) - 1);
	memcpy(longpath, "listen:/", 8);
	ok = refused("dial:/x", "must start with listen: or connect:") &
	     refused("listen:", "empty socket path") &
	     refused(longpath, "longer than") &
	     refused("tcp-listen:", "empty TCP address") &
	     refused("tcp-listen:127.0.0.1", "expected ADDR:PORT") &
	     refused("tcp-listen::7000", "no address before the port (0.0.0.0 listens on every interface") &
	     refused("tcp-connect::7000", "no host before the port") &
	     refused("tcp-connect:127.0.0.1:0", "port '0' is not a number from 1 to 65535") &
	     refused("tcp-connect:127.0.0.1:65536", "port '65536'") &
	     refused("tcp-connect:127.0.0.1:70x", "port '70x'") &
	     refused("tcp-connect:127.0.0.1:", "port ''") &
	     refused("tcp-connect:127.0.0.1: 7", "port ' 7'") &
	     refused("tcp-connect:127.0.0.1:-1", "port '-1'") &
	     refused("tcp-connect:300.1.1.1:7000", "'300.1.1.1' is not an IPv4 address") &
	     refused("tcp-connect:1.2.3:7000", "'1.2.3' is not an IPv4 address") &
	     refused("tcp-connect:::1:7000", "an IPv6 address goes in brackets") &
	     refused("tcp-connect:[::1:7000", "'[' without ']'") &
	     refused("tcp-connect:[::1]7000", "expected ':PORT' after ']'") &
	     refused("tcp-connect:[1.2.3.4]:7000", "'1.2.3.4' is not an IPv6 address");
	tap_ok(ok, "malformed endpoints are refused saying what is wrong");

	tap_ok(tcp_loopback(), "over TCP on 127.0.0.1: connect, accept, bytes cross, TCP_NODELAY, port in use refused");
	tap_ok(not_local(), "listening on an address that is not this machine's fails with a message");
	tap_ok(nobody_listens(), "a connect where nobody listens is refused");
	return tap_exit_status();
}
