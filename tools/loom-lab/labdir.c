// SPDX-License-Identifier: GPL-2.0
/* loom-lab: the lab directory's layout and its state files. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"
#include "sys.h"

int lab_path(char *out, const char *dir, const char *fmt, ...)
{
	char name[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(name))
		return -1;
	n = snprintf(out, LAB_PATH_MAX, "%s/%s", dir, name);
	return (n < 0 || n >= LAB_PATH_MAX) ? -1 : 0;
}

int lab_abs_dir(const char *arg, char *out)
{
	char cwd[LAB_PATH_MAX];
	char tmp[LAB_PATH_MAX * 2];
	size_t len;

	if (!*arg)
		return -1;
	if (arg[0] == '/') {
		snprintf(tmp, sizeof(tmp), "%s", arg);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -1;
		snprintf(tmp, sizeof(tmp), "%s/%s", cwd, arg);
	}
	/* drop trailing slashes and "/./"; keep the rest literal */
	len = strlen(tmp);
	while (len > 1 && tmp[len - 1] == '/')
		tmp[--len] = 0;
	if (len >= LAB_PATH_MAX)
		return -1;
	memcpy(out, tmp, len + 1);
	return 0;
}

void lab_ram_path(const struct lab_config *cfg, int host, char *out)
{
	snprintf(out, LAB_PATH_MAX, "/dev/shm/%s-h%d.ram", cfg->uniq, host);
}

int lab_config_save(const struct lab_config *cfg)
{
	char path[LAB_PATH_MAX];
	FILE *f;

	if (lab_path(path, cfg->dir, "lab.conf") < 0)
		return -1;
	f = fopen(path, "we");
	if (!f)
		return -1;
	char shape[TOPO_NAME_MAX];

	topo_name(&cfg->shape, shape, sizeof(shape));
	fprintf(f, "shape=%s\n", shape);
	fprintf(f, "hosts=%d\nmem_mib=%d\ncpus=%d\nboot_timeout_s=%d\nno_card=%d\n"
		"no_routes=%d\n", cfg->hosts, cfg->mem_mib, cfg->cpus,
		cfg->boot_timeout_s, cfg->no_card, cfg->no_routes);
	fprintf(f, "no_net=%d\ncables=%s\nrouter=%s\n", cfg->no_net,
		cfg->tcp_cables ? "tcp" : "unix", cfg->rtl_router ? "rtl" : "model");
	fprintf(f, "tree=%s\nmodule=%s\nkver=%s\nvmlinux=%s\ninitramfs=%s\n",
		cfg->tree, cfg->module, cfg->kver, cfg->vmlinux, cfg->initramfs);
	fprintf(f, "agent=%s\ncard=%s\nuniq=%s\n", cfg->agent, cfg->card,
		cfg->uniq);
	fprintf(f, "modules=%s\nappend=%s\ntimeout_scale=%d\non_stop=%s\n"
		"keep_logs=%s\n", cfg->modules, cfg->append, cfg->timeout_scale,
		cfg->on_stop, cfg->keep_logs);
	return fclose(f) ? -1 : 0;
}

static void set_str(char *dst, size_t len, const char *v)
{
	snprintf(dst, len, "%s", v);
}

int lab_config_load(const char *dir, struct lab_config *cfg)
{
	char path[LAB_PATH_MAX], line[LAB_PATH_MAX + 64];
	char shape[TOPO_NAME_MAX] = "ring";
	FILE *f;

	memset(cfg, 0, sizeof(*cfg));
	set_str(cfg->dir, sizeof(cfg->dir), dir);
	if (lab_path(path, dir, "lab.conf") < 0)
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');
		char *v;

		if (!eq)
			continue;
		*eq = 0;
		v = eq + 1;
		v[strcspn(v, "\n")] = 0;
		if (!strcmp(line, "shape"))
			set_str(shape, sizeof(shape), v);
		else if (!strcmp(line, "hosts"))
			cfg->hosts = atoi(v);
		else if (!strcmp(line, "mem_mib"))
			cfg->mem_mib = atoi(v);
		else if (!strcmp(line, "cpus"))
			cfg->cpus = atoi(v);
		else if (!strcmp(line, "boot_timeout_s"))
			cfg->boot_timeout_s = atoi(v);
		else if (!strcmp(line, "no_card"))
			cfg->no_card = atoi(v);
		else if (!strcmp(line, "no_routes"))
			cfg->no_routes = atoi(v);
		else if (!strcmp(line, "no_net"))
			cfg->no_net = atoi(v);
		else if (!strcmp(line, "cables"))
			cfg->tcp_cables = !strcmp(v, "tcp");
		else if (!strcmp(line, "router"))
			cfg->rtl_router = !strcmp(v, "rtl");
		else if (!strcmp(line, "tree"))
			set_str(cfg->tree, sizeof(cfg->tree), v);
		else if (!strcmp(line, "module"))
			set_str(cfg->module, sizeof(cfg->module), v);
		else if (!strcmp(line, "kver"))
			set_str(cfg->kver, sizeof(cfg->kver), v);
		else if (!strcmp(line, "vmlinux"))
			set_str(cfg->vmlinux, sizeof(cfg->vmlinux), v);
		else if (!strcmp(line, "initramfs"))
			set_str(cfg->initramfs, sizeof(cfg->initramfs), v);
		else if (!strcmp(line, "agent"))
			set_str(cfg->agent, sizeof(cfg->agent), v);
		else if (!strcmp(line, "card"))
			set_str(cfg->card, sizeof(cfg->card), v);
		else if (!strcmp(line, "uniq"))
			set_str(cfg->uniq, sizeof(cfg->uniq), v);
		else if (!strcmp(line, "modules"))
			set_str(cfg->modules, sizeof(cfg->modules), v);
		else if (!strcmp(line, "append"))
			set_str(cfg->append, sizeof(cfg->append), v);
		else if (!strcmp(line, "timeout_scale"))
			cfg->timeout_scale = atoi(v);
		else if (!strcmp(line, "on_stop"))
			set_str(cfg->on_stop, sizeof(cfg->on_stop), v);
		else if (!strcmp(line, "keep_logs"))
			set_str(cfg->keep_logs, sizeof(cfg->keep_logs), v);
	}
	fclose(f);
	if (cfg->timeout_scale < 1)
		cfg->timeout_scale = 1;
	/* labs from before shapes have no shape line: they are rings */
	if (cfg->hosts < 1 || cfg->hosts > LAB_MAX_HOSTS ||
	    topo_parse(shape, cfg->hosts, LAB_MAX_HOSTS, &cfg->shape, NULL, 0) < 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

const char *lab_role_name(enum lab_role role)
{
	switch (role) {
	case LAB_ROLE_SUPERVISOR: return "supervisor";
	case LAB_ROLE_CARD: return "card";
	case LAB_ROLE_QEMU: return "qemu";
	case LAB_ROLE_SWITCH: return "switch";
	}
	return "?";
}

/* Reads state (field 3) and start time (field 22) of /proc/PID/stat. */
static int read_stat(pid_t pid, char *state, unsigned long long *start)
{
	char path[64], buf[1024];
	ssize_t n;
	char *p;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	/* comm may contain spaces and parentheses: fields start after the last ')' */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	p++;
	for (int field = 3; field <= 22; field++) {
		while (*p == ' ')
			p++;
		if (field == 3)
			*state = *p;
		if (field == 22) {
			*start = strtoull(p, NULL, 10);
			return 0;
		}
		while (*p && *p != ' ')
			p++;
	}
	return -1;
}

unsigned long long lab_proc_start_time(pid_t pid)
{
	unsigned long long t;
	char state;

	if (read_stat(pid, &state, &t) < 0 || state == 'Z' || state == 'X')
		return 0;	/* a zombie is as good as gone */
	return t;
}

bool lab_proc_alive(const struct lab_proc *p)
{
	unsigned long long t;

	if (p->pid <= 1)
		return false;
	t = lab_proc_start_time(p->pid);
	return t && t == p->start_time;
}

bool lab_proc_exists(const struct lab_proc *p)
{
	unsigned long long t;
	char state;

	if (p->pid <= 1)
		return false;
	return read_stat(p->pid, &state, &t) == 0 && t == p->start_time;
}

static int append_line(const char *dir, const char *name, const char *line)
{
	char path[LAB_PATH_MAX];
	int fd, rc;

	if (lab_path(path, dir, "%s", name) < 0)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	rc = write_all(fd, line, strlen(line));
	close(fd);
	return rc;
}

int lab_pids_record(const char *dir, enum lab_role role, int index, pid_t pid)
{
	char line[128];

	snprintf(line, sizeof(line), "%s %d %d %llu\n", lab_role_name(role),
		 index, (int)pid, lab_proc_start_time(pid));
	return append_line(dir, "pids", line);
}

int lab_pids_load(const char *dir, struct lab_proc *procs, int max)
{
	char path[LAB_PATH_MAX], line[256], role[32];
	int n = 0;
	FILE *f;

	if (lab_path(path, dir, "pids") < 0)
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof(line), f)) {
		struct lab_proc *p = &procs[n];
		int pid;

		if (sscanf(line, "%31s %d %d %llu", role, &p->index, &pid,
			   &p->start_time) != 4)
			continue;
		p->pid = pid;
		if (!strcmp(role, "supervisor"))
			p->role = LAB_ROLE_SUPERVISOR;
		else if (!strcmp(role, "card"))
			p->role = LAB_ROLE_CARD;
		else if (!strcmp(role, "qemu"))
			p->role = LAB_ROLE_QEMU;
		else if (!strcmp(role, "switch"))
			p->role = LAB_ROLE_SWITCH;
		else
			continue;
		n++;
	}
	fclose(f);
	return n;
}

int lab_shm_record(const char *dir, const char *path)
{
	char line[LAB_PATH_MAX + 2];

	snprintf(line, sizeof(line), "%s\n", path);
	return append_line(dir, "shm", line);
}
