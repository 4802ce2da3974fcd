/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-lab-agent: sshd on demand.  The agent listens on port 22 of the
 * guest's management address and starts one `sshd -i` (inetd mode) for
 * each connection, so that a guest nobody logs into never pays for an sshd.
 */
#ifndef LOOM_LAB_AGENT_SSHD_H
#define LOOM_LAB_AGENT_SSHD_H

#define AGENT_SSHD_PATH "/usr/sbin/sshd"
#define AGENT_SSHD_LOG "/run/sshd.log"

/* A non-blocking listening socket on ADDR:22 (IPv4), or -1 (said why). */
int agent_sshd_listen(const char *addr);
/*
 * Accepts the connections waiting on @lfd and starts `sshd -i -f CONFIG
 * -E AGENT_SSHD_LOG` on each, the connection its stdin and stdout, in a
 * session of its own.  The agent reaps it like any other child.
 */
void agent_sshd_accept(int lfd, const char *config);

#endif
