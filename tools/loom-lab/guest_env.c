// SPDX-License-Identifier: GPL-2.0
/* loom-lab: the environment of commands in a guest (guest_env.h). */
#include <stdio.h>

#include "guest_env.h"

int lab_guest_env(const char *tree, const char *host,
		  char env[LAB_GUEST_ENV_MAX][LAB_GUEST_ENV_LEN])
{
	int n = 0;

	snprintf(env[n++], LAB_GUEST_ENV_LEN,
		 "PATH=%s/build/bin:/usr/sbin:/usr/bin:/sbin:/bin", tree);
	snprintf(env[n++], LAB_GUEST_ENV_LEN, "LD_LIBRARY_PATH=%s/build/lib", tree);
	snprintf(env[n++], LAB_GUEST_ENV_LEN, "LOOM_TREE=%s", tree);
	snprintf(env[n++], LAB_GUEST_ENV_LEN, "HOME=/tmp");
	snprintf(env[n++], LAB_GUEST_ENV_LEN, "LOOM_LAB_HOST=%s", host);
	return n;
}
