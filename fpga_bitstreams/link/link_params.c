// SPDX-License-Identifier: GPL-2.0
/*
 * The link unit's parameter table, defaults and validation.
 */
#include "link_params.h"

#include <stdio.h>
#include <string.h>

const struct link_param_info link_param_table[] = {
#define LINK_PARAM_INFO(f, N, d, lo, hi, desc) \
	{ #f, #N, d, lo, hi, desc, offsetof(struct link_params, f) },
	LINK_PARAMS(LINK_PARAM_INFO)
#undef LINK_PARAM_INFO
};

const unsigned int link_param_count = sizeof(link_param_table) / sizeof(link_param_table[0]);

static uint32_t *link_param_ptr(struct link_params *p, const struct link_param_info *pi)
{
	return (uint32_t *)(void *)((char *)p + pi->offset);
}

void link_params_default(struct link_params *p)
{
	for (unsigned int i = 0; i < link_param_count; i++)
		*link_param_ptr(p, &link_param_table[i]) = link_param_table[i].def;
}

bool link_params_set(struct link_params *p, const char *name, uint32_t value)
{
	for (unsigned int i = 0; i < link_param_count; i++) {
		if (strcmp(name, link_param_table[i].name))
			continue;
		*link_param_ptr(p, &link_param_table[i]) = value;
		return true;
	}
	return false;
}

static unsigned int link_ser_cycles(unsigned int bytes, unsigned int rate)
{
	return (bytes + rate - 1) / rate;
}

unsigned int link_ack_round_trip(const struct link_params *p)
{
	unsigned int one_lane = link_rate(p, 1);

	return 2 * link_ser_cycles(LOOM_FRAME_MAX, one_lane) + 2 * (p->wire_latency + 1) +
	       p->coalesce_delay + link_ser_cycles(LINK_STATUS_FRAME, one_lane);
}

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

bool link_params_check(const struct link_params *p, char *err, size_t len)
{
	struct link_params copy = *p;
	unsigned int pkt_flits;

	for (unsigned int i = 0; i < link_param_count; i++) {
		const struct link_param_info *pi = &link_param_table[i];
		uint32_t v = *link_param_ptr(&copy, pi);

		if (v < pi->min || v > pi->max) {
			snprintf(err, len, "link parameter %s = %u is outside %u..%u (%s)",
				 pi->name, v, pi->min, pi->max, pi->desc);
			return false;
		}
	}
	if (!is_pow2(p->lanes)) {
		snprintf(err, len, "link parameter lanes = %u: must be 1, 2 or 4 (halving degrades it)",
			 p->lanes);
		return false;
	}
	if (!is_pow2(p->flit_bytes)) {
		snprintf(err, len, "link parameter flit_bytes = %u: must be a power of two (8..64)",
			 p->flit_bytes);
		return false;
	}
	pkt_flits = link_flits(p, LINK_PKT_MAX);
	if (p->vc_buf_flits < pkt_flits) {
		snprintf(err, len,
			 "link parameter vc_buf_flits = %u: below one maximal packet (%u flits of %u bytes); virtual cut-through needs a whole packet",
			 p->vc_buf_flits, pkt_flits, p->flit_bytes);
		return false;
	}
	if (p->ack_timeout <= link_ack_round_trip(p)) {
		snprintf(err, len,
			 "link parameter ack_timeout = %u: not above the link's acknowledgement round trip at one lane (%u cycles); every frame would be replayed",
			 p->ack_timeout, link_ack_round_trip(p));
		return false;
	}
	return true;
}
