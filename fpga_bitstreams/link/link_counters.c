// SPDX-License-Identifier: GPL-2.0
/*
 * The link unit's counter table.
 */
#include "link_counters.h"

#include <stddef.h>

const struct link_counter_info link_counter_table[] = {
#define LINK_COUNTER_INFO(f, desc) { #f, desc, offsetof(struct link_counters, f) },
	LINK_COUNTERS(LINK_COUNTER_INFO)
#undef LINK_COUNTER_INFO
};

const unsigned int link_counter_count = sizeof(link_counter_table) / sizeof(link_counter_table[0]);
