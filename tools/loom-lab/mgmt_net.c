// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: the management network, an Ethernet among the guests that
 * exists only as UNIX sockets: one vde_switch per lab (its sockets in
 * DIR/mgmt.vde, reachable by the lab's user alone), each QEMU plugged in
 * with -netdev vde and a virtio-net NIC.  Host i is loom-h<i> (alias h<i>)
 * at 10.77.0.<i+1>/24; the guests have no default route and no name
 * server, so nothing outside the lab is reachable by address or by name.
 * The files every guest sees under /run/loom-lab (DIR/guest, shared
 * read-only) carry the /etc/hosts the guests use, the ssh setup and where
 * the lab placed each host (placement.c).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "lab.h"

void lab_mgmt_addr(int host, char *out, size_t len)
{
	snprintf(out, len, LAB_MGMT_NET "%d", host + 1);
}

void lab_mgmt_name(int host, char *out, size_t len)
{
	snprintf(out, len, "loom-h%d", host);
}

void lab_mgmt_mac(int host, char *out, size_t len)
{
	/* QEMU's locally administered prefix, then 'L' and the host */
	snprintf(out, len, "52:54:00:4c:00:%02x", host + 1);
}

int lab_switch_dir(const struct lab_config *cfg, char *out)
{
	return lab_path(out, cfg->dir, "mgmt.vde");
}

int lab_guest_dir(const struct lab_config *cfg, char *out)
{
	return lab_path(out, cfg->dir, "guest");
}

/* vde_switch has 32 ports by default, twice LAB_MAX_HOSTS */
void lab_switch_argv(const struct lab_config *cfg, struct lab_argv *a)
{
	char dir[LAB_PATH_MAX];

	lab_switch_dir(cfg, dir);
	lab_argv_add(a, "/usr/bin/vde_switch");
	lab_argv_add(a, "--sock");
	lab_argv_add(a, "%s", dir);
	/* only the lab's user may plug into the switch */
	lab_argv_add(a, "--dirmode");
	lab_argv_add(a, "0700");
	lab_argv_add(a, "--mode");
	lab_argv_add(a, "0600");
}

static int write_hosts(const struct lab_config *cfg, const char *dir)
{
	char path[LAB_PATH_MAX], addr[32], name[32];
	FILE *f;

	if (lab_path(path, dir, "hosts") < 0 || !(f = fopen(path, "we")))
		return -1;
	fprintf(f, "# the loom lab's management network (written by loom-lab)\n"
		"127.0.0.1\tlocalhost\n"
		"::1\tlocalhost ip6-localhost ip6-loopback\n");
	for (int i = 0; i < cfg->hosts; i++) {
		lab_mgmt_addr(i, addr, sizeof(addr));
		lab_mgmt_name(i, name, sizeof(name));
		fprintf(f, "%s\t%s h%d\n", addr, name, i);
	}
	return fclose(f) ? -1 : 0;
}

static int write_resolv_conf(const char *dir)
{
	char path[LAB_PATH_MAX];
	FILE *f;

	if (lab_path(path, dir, "resolv.conf") < 0 || !(f = fopen(path, "we")))
		return -1;
	/* no name server: a lookup beyond /etc/hosts fails at once */
	fprintf(f, "# the loom lab has no name server: names come from /etc/hosts\n"
		"options timeout:1 attempts:1\n");
	return fclose(f) ? -1 : 0;
}

/* where each host's card and VM run, a line per host */
static int write_placement(const struct lab_config *cfg, const char *dir)
{
	char path[LAB_PATH_MAX], line[160];
	int cpus[CPU_SETSIZE], n = lab_allowed_cpus(cpus, CPU_SETSIZE);
	FILE *f;

	if (lab_path(path, dir, "placement") < 0 || !(f = fopen(path, "we")))
		return -1;
	for (int i = 0; i < cfg->hosts; i++) {
		struct lab_placement p;

		lab_place(cpus, n, cfg->hosts, i, &p);
		lab_placement_text(&p, i, n, cfg->hosts, line, sizeof(line));
		fprintf(f, "%s\n", line);
	}
	return fclose(f) ? -1 : 0;
}

int lab_guest_files(const struct lab_config *cfg)
{
	char dir[LAB_PATH_MAX];

	if (lab_guest_dir(cfg, dir) < 0 || (mkdir(dir, 0755) < 0 && errno != EEXIST) ||
	    write_hosts(cfg, dir) < 0 || write_resolv_conf(dir) < 0 ||
	    write_placement(cfg, dir) < 0) {
		lab_err("cannot write the guests' files in %s/guest: %s", cfg->dir,
			strerror(errno));
		return -1;
	}
	if (!lab_ssh_available())
		return 0;
	return lab_guest_ssh_files(cfg, dir);
}
