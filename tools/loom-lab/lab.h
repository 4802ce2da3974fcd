/* SPDX-License-Identifier: GPL-2.0 */
/* loom-lab: what the parts of the lab tool share (see loom-lab.rst). */
#ifndef LOOM_LAB_H
#define LOOM_LAB_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "topology.h"

#define LAB_MAX_HOSTS 16
#define LAB_MAX_CPUS 4		/* vCPUs per guest (--cpus) */
/* Guest RAM by default; labs of more than LAB_BIG_HOSTS get the smaller. */
#define LAB_MEM_DEFAULT_MIB 256
#define LAB_MEM_BIG_MIB 128
#define LAB_BIG_HOSTS 8
/* Each QEMU's TCG translation cache, and what else it costs beyond guest
 * RAM (measured: Documentation/tools/loom-lab.rst, "Memory per host"). */
#define LAB_TCG_TB_MIB 64
#define LAB_QEMU_OVERHEAD_MIB 32
/*
 * The guests of a big lab wait for the CPU for tens of seconds at a time
 * (16 TCG guests on two cores), which their kernels would report as soft
 * lockups, RCU stalls, hung tasks and failed crypto self-tests (a 60 s
 * wait for the algorithm under test): they wait longer before calling it
 * that (a real lockup still shows), and skip the boot-time crypto tests.
 */
#define LAB_BIG_LAB_KERNEL_ARGS "watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=300 " \
	"sysctl.kernel.hung_task_timeout_secs=600"
#define LAB_PATH_MAX 4096

/* Exit codes of loom-lab exec beyond the command's own status */
#define LAB_EXIT_TIMEOUT 124
#define LAB_EXIT_LAB_ERROR 125

/* Everything `start` decided; saved in DIR/lab.conf for the other commands. */
struct lab_config {
	char dir[LAB_PATH_MAX];		/* absolute */
	char tree[LAB_PATH_MAX];	/* absolute */
	char module[LAB_PATH_MAX];	/* loom.ko to insmod, "" = none */
	char kver[128];			/* guest kernel release */
	char vmlinux[LAB_PATH_MAX];
	char modules[LAB_PATH_MAX];	/* its module tree, .../lib/modules/<kver> */
	char append[1024];		/* more kernel command line, "" = none */
	char initramfs[LAB_PATH_MAX];
	char agent[LAB_PATH_MAX];	/* loom-lab-agent binary */
	char card[LAB_PATH_MAX];	/* loom-card binary */
	char uniq[64];			/* prefix of the /dev/shm names */
	int hosts;			/* = topo_nodes(&shape) */
	struct topo_shape shape;	/* how the cards are cabled and routed */
	int mem_mib;
	int cpus;			/* vCPUs per guest */
	int boot_timeout_s;		/* as given; the supervisor scales it */
	int timeout_scale;		/* multiplies boot, insmod and exec timeouts */
	char on_stop[1024];		/* run in every guest by stop, "" = nothing */
	char keep_logs[LAB_PATH_MAX];	/* teardown saves the logs here, "" = no */
	bool no_card;
	bool no_routes;			/* cards start with only their own route */
	bool no_net;			/* no management network (and no sshd) */
	bool tcp_cables;		/* cards cabled over TCP on 127.0.0.1 */
	bool rtl_router;		/* cards run the Verilated router (--router rtl) */
	/* with tcp_cables: the port the +d port of node i listens on
	 * (chosen by the supervisor when it starts the cards, not saved) */
	int tcp_port[LAB_MAX_HOSTS][TOPO_MAX_DIMS];
};

/* ---- messages (msg.c) */
extern const char *lab_prog;
void lab_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lab_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Where lab_info/lab_err write: stderr by default, or this fd. */
extern int lab_msg_fd;

/* ---- lab directory layout and state files (labdir.c) */
/* Formats DIR/<name> into out (LAB_PATH_MAX); -1 if it does not fit. */
int lab_path(char *out, const char *dir, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int lab_config_save(const struct lab_config *cfg);
int lab_config_load(const char *dir, struct lab_config *cfg);
/* Absolute, normalised form of a directory argument that may not exist. */
int lab_abs_dir(const char *arg, char *out);
/* /dev/shm/<uniq>-h<i>.ram */
void lab_ram_path(const struct lab_config *cfg, int host, char *out);

enum lab_role { LAB_ROLE_SUPERVISOR, LAB_ROLE_CARD, LAB_ROLE_QEMU, LAB_ROLE_SWITCH };
struct lab_proc {
	enum lab_role role;
	int index;
	pid_t pid;
	unsigned long long start_time;	/* /proc/PID/stat field 22 */
};
const char *lab_role_name(enum lab_role role);
/* Appends a line to DIR/pids: recorded before anybody can need it. */
int lab_pids_record(const char *dir, enum lab_role role, int index, pid_t pid);
/* Reads DIR/pids; returns the count (up to max) or -1. */
int lab_pids_load(const char *dir, struct lab_proc *procs, int max);
/* The start time of a live pid, 0 if it does not exist. */
unsigned long long lab_proc_start_time(pid_t pid);
/* True if pid still is the process that was recorded (zombies are not). */
bool lab_proc_alive(const struct lab_proc *p);
/* True while the recorded process has not been reaped, zombie or not. */
bool lab_proc_exists(const struct lab_proc *p);
/* Appends a /dev/shm path to DIR/shm before the file is created. */
int lab_shm_record(const char *dir, const char *path);

/* ---- cached guest boot files (kernel_image.c, initramfs.c) */
int lab_guest_kver(const char *tree, char *out, size_t len);
/* Creates and names TREE/.lab-cache/<kver> */
int lab_cache_dir(const char *tree, const char *kver, char *out);
int lab_prepare_vmlinux(const char *tree, const char *kver, char *out);
/* Another guest kernel than Debian's: an ELF vmlinux and its module tree
 * ROOT/lib/modules/KVER (as `make modules_install INSTALL_MOD_PATH=ROOT`
 * leaves it); sets cfg->vmlinux, cfg->modules and cfg->kver.  0 or -1 with
 * a message. */
int lab_use_kernel(const char *vmlinux, const char *modules, struct lab_config *cfg);
/* The initramfs for kernel kver whose modules are in the tree modules. */
int lab_prepare_initramfs(const char *tree, const char *modules, const char *kver,
			  char *out);

/* ---- processes (spawn.c) */
/* Forks and execs argv with stdout+stderr appended to log_path, in its own
 * process group, pinned to cpu (-1: not pinned), stdin from stdin_fd (-1:
 * /dev/null).  Returns the pid or -1. */
pid_t lab_spawn(char *const argv[], const char *log_path, int cpu, int stdin_fd);

/* ---- placement (placement.c) */
struct lab_placement {
	int card_cpu, qemu_cpu;	/* -1: not pinned */
	bool apart;		/* a CPU each, else one shared */
};

/*
 * Where host @host of @hosts runs, given the @ncpus CPUs @cpus the lab may
 * use: a CPU each for card and QEMU when there are two per host, else CPU
 * @host mod @ncpus for both.
 */
void lab_place(const int *cpus, int ncpus, int hosts, int host, struct lab_placement *p);
/* lab_place() over the CPUs this process may use. */
void lab_host_placement(const struct lab_config *cfg, int host, struct lab_placement *p);
/* One line that says where host @host runs, e.g. "host 0: card on CPU 0, VM on CPU 1". */
void lab_placement_text(const struct lab_placement *p, int host, int ncpus, int hosts,
			char *out, size_t len);
/* The CPUs this process may use, in order, at most @max; how many. */
int lab_allowed_cpus(int *cpus, int max);
/* Waits until somebody listens on the UNIX socket path (seen in
 * /proc/net/unix, so the listener never sees a probe); 0, or -1 with a
 * message naming what (e.g. "card emulator 3") and its log when the
 * process pid exits first or timeout_ms pass. */
int lab_wait_listening(const char *what, const char *path, pid_t pid,
		       const char *log, int timeout_ms);

/* ---- emulator and VM command lines (card.c, qemu.c) */
struct lab_argv {
	char *v[96];
	int n;
};
void lab_argv_add(struct lab_argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void lab_argv_free(struct lab_argv *a);
void lab_card_argv(const struct lab_config *cfg, int host, struct lab_argv *a);
/* Picks the free 127.0.0.1 ports of cfg->tcp_port; 0 or -1 (message said). */
int lab_card_tcp_ports(struct lab_config *cfg);
void lab_qemu_argv(const struct lab_config *cfg, int host, struct lab_argv *a);

/* ---- the management network (mgmt_net.c) */
#define LAB_MGMT_NET "10.77.0."	/* host i is LAB_MGMT_NET (i + 1) */
#define LAB_MGMT_SUBNET LAB_MGMT_NET "0/24"
#define LAB_MGMT_PREFIX_LEN 24
/* Host i's address "10.77.0.<i+1>" and name "loom-h<i>" (alias "h<i>"). */
void lab_mgmt_addr(int host, char *out, size_t len);
void lab_mgmt_name(int host, char *out, size_t len);
/* Host i's MAC address on the management network. */
void lab_mgmt_mac(int host, char *out, size_t len);
/* DIR/mgmt.vde: the switch's socket directory; DIR/guest: the files every
 * guest sees read-only under /run/loom-lab. */
int lab_switch_dir(const struct lab_config *cfg, char *out);
int lab_guest_dir(const struct lab_config *cfg, char *out);
void lab_switch_argv(const struct lab_config *cfg, struct lab_argv *a);
/* Creates DIR/guest with hosts and resolv.conf, and the ssh files of
 * guest_ssh.c; 0, or -1 with a message. */
int lab_guest_files(const struct lab_config *cfg);

/* ---- ssh between the guests (guest_ssh.c) */
/* True when this machine has sshd and ssh-keygen (openssh-server). */
bool lab_ssh_available(void);
/* Writes DIR/guest/ssh: keys, known_hosts, ssh_config, sshd_config.hN. */
int lab_guest_ssh_files(const struct lab_config *cfg, const char *guest_dir);


/* ---- teardown (teardown.c) */
/* Kills every recorded process, removes the shm files and DIR, after
 * copying DIR's logs to save_to when it is not NULL.  Quiet when there is
 * nothing to do; returns 0 when everything is gone (and saved). */
int lab_teardown(const char *dir, const char *save_to);
/* Sends SIGTERM to each live process (and its process group), waits up to
 * grace_ms for all of them, then SIGKILLs the rest. */
void lab_kill_procs(const struct lab_proc *p, int n, int grace_ms);

/* ---- the supervisor daemon (supervisor.c) */
/* Runs the lab described by cfg; reports progress on status_fd and closes
 * it when start is complete (first byte '0' = success).  Never returns. */
void lab_supervise(struct lab_config *cfg, int status_fd)
	__attribute__((noreturn));
/* Prints the last lines of a guest's console log through lab_err. */
void lab_console_tail(const struct lab_config *cfg, int host, int lines);

/* ---- commands (cmd_*.c) */
int cmd_start(int argc, char **argv);
int cmd_exec(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_check_log(int argc, char **argv);
int cmd_topology(int argc, char **argv);
/* cut, restore, ber, drop, stats: one control-socket command (cmd_cable.c) */
int cmd_cable(int argc, char **argv);
/*
 * Send @line (with its newline) to the card control socket at @path and
 * read its one answer line, without the newline, into @ans; 0, or -1 with
 * the reason in @why (cmd_cable.c).
 */
int lab_ctl_ask(const char *path, const char *line, char *ans, size_t len, char *why,
		size_t whylen);
/* record: every card of the lab records its requests, or stops (cmd_record.c) */
int cmd_record(int argc, char **argv);

/* ---- help texts (help.c) */
/* a usage error for the option getopt_long() just rejected in command @cmd
 * (optind): "needs an argument", or unknown with the closest of @opts;
 * returns the exit status 2
 */
int lab_bad_option(const char *cmd, char **argv, const struct option *opts);
void lab_help(const char *cmd, int to_stderr);

#endif
