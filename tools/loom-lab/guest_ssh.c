// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: ssh between the guests, the way a cluster's nodes reach each
 * other and the launch agent of Open MPI's rsh launcher.  Each lab makes
 * its own keys: one host key that every guest's sshd presents and one
 * client key that root in every guest logs in with.  DIR/guest/ssh holds
 *
 *   ssh_host_ed25519_key[.pub]  the guests' host key
 *   id_ed25519[.pub]            root's key, copied into the guest's /root/.ssh
 *   authorized_keys             that key, accepted from the lab's network only
 *   known_hosts                 every host's names and address with the host key
 *   config                      root's ssh client settings (/root/.ssh/config)
 *   sshd_config.hN              host N's sshd: its management address only,
 *                               keys only, the environment of loom-lab exec
 *
 * and each guest's init copies the client files into its own /root/.ssh
 * and starts sshd (initramfs.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "guest_env.h"
#include "lab.h"
#include "sys.h"

#define SSHD_PATH	"/usr/sbin/sshd"
#define SSH_KEYGEN_PATH	"/usr/bin/ssh-keygen"
#define SSH_PATH	"/usr/bin/ssh"

bool lab_ssh_available(void)
{
	return access(SSHD_PATH, X_OK) == 0 && access(SSH_KEYGEN_PATH, X_OK) == 0 &&
	       access(SSH_PATH, X_OK) == 0;
}

/* ssh-keygen -t ed25519 into @path (and @path.pub); 0 or -1. */
static int keygen(const char *path, const char *comment)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
		}
		execl(SSH_KEYGEN_PATH, "ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C",
		      comment, "-f", path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		lab_err("%s -t ed25519 -f %s failed", SSH_KEYGEN_PATH, path);
		return -1;
	}
	return 0;
}

/* The first line of a public key file, without its newline; NULL on error. */
static char *read_pub(const char *dir, const char *name)
{
	char path[LAB_PATH_MAX], *text;

	if (lab_path(path, dir, "%s", name) < 0 || !(text = read_text_file(path, NULL)))
		return NULL;
	text[strcspn(text, "\n")] = 0;
	return text;
}

static FILE *create(const char *dir, const char *name, mode_t mode)
{
	char path[LAB_PATH_MAX];
	int fd;

	if (lab_path(path, dir, "%s", name) < 0)
		return NULL;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	return fd < 0 ? NULL : fdopen(fd, "w");
}

static int write_client_files(const struct lab_config *cfg, const char *dir,
			      const char *host_pub, const char *client_pub)
{
	char addr[32], name[32];
	FILE *f;

	f = create(dir, "authorized_keys", 0600);
	if (!f)
		return -1;
	fprintf(f, "from=\"%s\" %s\n", LAB_MGMT_SUBNET, client_pub);
	if (fclose(f))
		return -1;

	f = create(dir, "known_hosts", 0644);
	if (!f)
		return -1;
	for (int i = 0; i < cfg->hosts; i++) {
		lab_mgmt_addr(i, addr, sizeof(addr));
		lab_mgmt_name(i, name, sizeof(name));
		fprintf(f, "%s,h%d,%s %s\n", name, i, addr, host_pub);
	}
	if (fclose(f))
		return -1;

	f = create(dir, "config", 0644);
	if (!f)
		return -1;
	fprintf(f, "# root's ssh client in a loom lab guest (written by loom-lab)\n"
		"Host *\n"
		"\tUser root\n"
		"\tIdentityFile /root/.ssh/id_ed25519\n"
		"\tIdentitiesOnly yes\n"
		"\tUserKnownHostsFile /root/.ssh/known_hosts\n"
		"\tGlobalKnownHostsFile /dev/null\n"
		"\tStrictHostKeyChecking yes\n"
		"\tBatchMode yes\n"
		"\tGSSAPIAuthentication no\n"
		"\tConnectTimeout 60\n"
		"\tLogLevel ERROR\n");
	return fclose(f) ? -1 : 0;
}

static int write_sshd_config(const struct lab_config *cfg, const char *dir, int host)
{
	char env[LAB_GUEST_ENV_MAX][LAB_GUEST_ENV_LEN], name[32], addr[32], index[16];
	int n;
	FILE *f;

	snprintf(name, sizeof(name), "sshd_config.h%d", host);
	snprintf(index, sizeof(index), "%d", host);
	lab_mgmt_addr(host, addr, sizeof(addr));
	f = create(dir, name, 0644);
	if (!f)
		return -1;
	fprintf(f, "# sshd of loom lab host %d (written by loom-lab)\n"
		"ListenAddress %s:22\n"
		"HostKey /run/loom-lab/ssh/ssh_host_ed25519_key\n"
		"PermitRootLogin prohibit-password\n"
		"PubkeyAuthentication yes\n"
		"AuthorizedKeysFile /root/.ssh/authorized_keys\n"
		"PasswordAuthentication no\n"
		"KbdInteractiveAuthentication no\n"
		"UsePAM no\n"
		"UseDNS no\n"
		"PrintMotd no\n"
		"PrintLastLog no\n"
		"X11Forwarding no\n"
		"PidFile /run/sshd.pid\n"
		/* every orted of a job at once */
		"MaxStartups 64:30:128\n"
		"MaxSessions 64\n"
		"SetEnv", host, addr);
	n = lab_guest_env(cfg->tree, index, env);
	for (int i = 0; i < n; i++)
		fprintf(f, " %s", env[i]);
	fprintf(f, "\n");
	return fclose(f) ? -1 : 0;
}

int lab_guest_ssh_files(const struct lab_config *cfg, const char *guest_dir)
{
	char dir[LAB_PATH_MAX], path[LAB_PATH_MAX];
	char *host_pub = NULL, *client_pub = NULL;
	int rc = -1;

	if (lab_path(dir, guest_dir, "ssh") < 0 || (mkdir(dir, 0700) < 0 && errno != EEXIST)) {
		lab_err("cannot create %s/ssh: %s", guest_dir, strerror(errno));
		return -1;
	}
	if (lab_path(path, dir, "ssh_host_ed25519_key") < 0 ||
	    keygen(path, "loom-lab host key") < 0 ||
	    lab_path(path, dir, "id_ed25519") < 0 || keygen(path, "root@loom-lab") < 0)
		return -1;
	host_pub = read_pub(dir, "ssh_host_ed25519_key.pub");
	client_pub = read_pub(dir, "id_ed25519.pub");
	if (host_pub && client_pub && write_client_files(cfg, dir, host_pub, client_pub) == 0) {
		rc = 0;
		for (int i = 0; i < cfg->hosts && !rc; i++)
			rc = write_sshd_config(cfg, dir, i);
	}
	if (rc < 0)
		lab_err("cannot write the ssh files in %s: %s", dir, strerror(errno));
	free(host_pub);
	free(client_pub);
	return rc;
}
