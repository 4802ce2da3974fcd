// SPDX-License-Identifier: GPL-2.0
/*
 * loom-lab: teardown.  Everything the lab starts or creates is recorded in
 * DIR before it exists (DIR/pids: role, index, pid and start time; DIR/shm:
 * guest RAM files), so teardown works from those files alone, also after
 * the supervisor crashed.  A pid is only signalled while its start time
 * still matches, so a recycled pid is never hit.
 */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lab.h"
#include "sys.h"

void lab_kill_procs(const struct lab_proc *p, int n, int grace_ms)
{
	int64_t end = now_ms() + grace_ms;
	bool any;

	for (int sig = SIGTERM;; sig = SIGKILL) {
		for (int i = 0; i < n; i++) {
			if (!lab_proc_alive(&p[i]))
				continue;
			kill(-p[i].pid, sig);
			kill(p[i].pid, sig);
		}
		do {
			any = false;
			/* reap our own children; others' zombies go to init */
			while (waitpid(-1, NULL, WNOHANG) > 0)
				;
			for (int i = 0; i < n; i++)
				any |= lab_proc_alive(&p[i]);
			if (any)
				usleep(20000);
		} while (any && now_ms() < end);
		if (!any || sig == SIGKILL)
			break;
		end = now_ms() + 2000;
	}
	/* dead: wait (briefly) until they are reaped too, so that nobody sees
	 * them in the process table after we return */
	end = now_ms() + 2000;
	do {
		any = false;
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		for (int i = 0; i < n; i++)
			any |= !lab_proc_alive(&p[i]) && lab_proc_exists(&p[i]);
		if (any)
			usleep(10000);
	} while (any && now_ms() < end);
	for (int i = 0; i < n; i++)
		if (lab_proc_alive(&p[i]))
			lab_err("%s %d (pid %d) survived SIGKILL", lab_role_name(p[i].role),
				p[i].index, (int)p[i].pid);
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if ((flag == FTW_DP ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT) {
		lab_err("cannot remove %s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

static bool is_empty_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	bool empty = true;

	if (!d)
		return false;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

static void unlink_shm(const char *dir)
{
	char path[LAB_PATH_MAX], line[LAB_PATH_MAX + 2];
	FILE *f;

	if (lab_path(path, dir, "shm") < 0)
		return;
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		/* only ever what the lab itself would have created */
		if (strncmp(line, "/dev/shm/loom-lab-", 18) || strstr(line, "/.."))
			continue;
		if (unlink(line) < 0 && errno != ENOENT)
			lab_err("cannot remove %s: %s", line, strerror(errno));
	}
	fclose(f);
}

static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out, rc = 0;
	ssize_t n;

	if (in < 0)
		return -1;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return -1;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, (size_t)n) < 0) {
			rc = -1;
			break;
		}
	if (n < 0)
		rc = -1;
	close(in);
	if (close(out) < 0)
		rc = -1;
	return rc;
}

static bool is_log(const char *name)
{
	size_t len = strlen(name);

	return (len > 4 && !strcmp(name + len - 4, ".log")) ||
	       !strcmp(name, "lab.conf") || !strcmp(name, "pids");
}

/* Copies DIR's logs into dest (created if needed); 0, or -1 with a message. */
static int save_logs(const char *dir, const char *dest)
{
	char from[LAB_PATH_MAX], to[LAB_PATH_MAX];
	struct dirent *e;
	int rc = 0;
	DIR *d = opendir(dir);

	if (!d)
		return errno == ENOENT ? 0 : -1;	/* nothing to save */
	if (mkdir(dest, 0755) < 0 && errno != EEXIST) {
		lab_err("stop: cannot create the log copy %s: %s", dest, strerror(errno));
		closedir(d);
		return -1;
	}
	while ((e = readdir(d))) {
		if (!is_log(e->d_name))
			continue;
		if (lab_path(from, dir, "%s", e->d_name) < 0 ||
		    lab_path(to, dest, "%s", e->d_name) < 0 || copy_file(from, to) < 0) {
			lab_err("stop: cannot copy %s/%s to %s: %s", dir, e->d_name, dest,
				strerror(errno));
			rc = -1;
		}
	}
	closedir(d);
	return rc;
}

int lab_teardown(const char *dir, const char *save_to)
{
	struct lab_proc procs[4 * LAB_MAX_HOSTS + 8], sel[4 * LAB_MAX_HOSTS + 8];
	char conf[LAB_PATH_MAX], pids[LAB_PATH_MAX];
	static struct lab_config cfg;
	struct stat st;
	int n, k, rc = 0;

	if (stat(dir, &st) < 0)
		return 0;	/* nothing left: stop is idempotent */
	if (!S_ISDIR(st.st_mode)) {
		lab_err("%s is not a directory; not touching it", dir);
		return -1;
	}
	if (lab_path(conf, dir, "lab.conf") < 0 || lab_path(pids, dir, "pids") < 0)
		return -1;
	if (access(conf, F_OK) < 0 && access(pids, F_OK) < 0 && !is_empty_dir(dir)) {
		lab_err("%s is not a loom-lab directory (no lab.conf or pids); "
			"not removing it", dir);
		return -1;
	}
	n = lab_pids_load(dir, procs, (int)(sizeof(procs) / sizeof(procs[0])));
	if (n < 0)
		n = 0;
	/* the supervisor first, so it starts nothing new; it stops its
	 * children itself, whatever is left is killed below */
	static const enum lab_role order[] = { LAB_ROLE_SUPERVISOR, LAB_ROLE_QEMU,
					       LAB_ROLE_CARD, LAB_ROLE_SWITCH };
	for (size_t r = 0; r < sizeof(order) / sizeof(order[0]); r++) {
		k = 0;
		for (int i = 0; i < n; i++)
			if (procs[i].role == order[r])
				sel[k++] = procs[i];
		lab_kill_procs(sel, k, order[r] == LAB_ROLE_SUPERVISOR ? 8000 : 3000);
		if (order[r] == LAB_ROLE_SUPERVISOR) {
			/* it may have recorded more children meanwhile */
			n = lab_pids_load(dir, procs, (int)(sizeof(procs) / sizeof(procs[0])));
			if (n < 0)
				n = 0;
		}
	}
	unlink_shm(dir);
	/* the processes are gone, so the logs are complete; a failure to
	 * save them is reported but does not keep the lab's files around */
	if (save_to && save_logs(dir, save_to) < 0)
		rc = -1;
	if (lab_config_load(dir, &cfg) == 0 && cfg.keep_logs[0] &&
	    save_logs(dir, cfg.keep_logs) < 0)
		rc = -1;
	if (nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS) < 0) {
		lab_err("cannot remove %s completely", dir);
		return -1;
	}
	return rc;
}
