/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loom-lab: the environment commands run with in a guest, the same for
 * `loom-lab exec` (the agent) and for ssh sessions between the guests.
 */
#ifndef LOOM_LAB_GUEST_ENV_H
#define LOOM_LAB_GUEST_ENV_H

#define LAB_GUEST_ENV_MAX 5
#define LAB_GUEST_ENV_LEN 4200

/*
 * Fills env with the NAME=VALUE strings for guest @host (its index as
 * text) working in @tree; returns their count (LAB_GUEST_ENV_MAX).
 */
int lab_guest_env(const char *tree, const char *host,
		  char env[LAB_GUEST_ENV_MAX][LAB_GUEST_ENV_LEN]);

#endif
