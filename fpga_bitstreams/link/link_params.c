// SPDX-License-Identifier: GPL-2.0
/*
 * The link unit's parameter table, defaults and validation.
 */
#include "link_params.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

const struct link_param_desc link_param_table[] = {
#define LINK_PARAM_DESC(NAME, field, def, min, max, desc) \
	{ #NAME, offsetof(struct link_params, field), def, min, max, desc },
	LINK_PARAMS(LINK_PARAM_DESC)
#undef LINK_PARAM_DESC
};

const unsigned int link_param_count = sizeof(link_param_table) / sizeof(link_param_table[0]);

static uint32_t *link_param_ptr(struct link_params *p, const struct link_param_desc *pi)
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
		if (strcasecmp(name, link_param_table[i].name))
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
		const struct link_param_desc *pi = &link_param_table[i];
		uint32_t v = *link_param_ptr(&copy, pi);

		if (v < pi->min || v > pi->max) {
			snprintf(err, len, "link parameter %s = %u is %s its %s %u (%s)", pi->name, v,
				 v < pi->min ? "below" : "above", v < pi->min ? "minimum" : "maximum",
				 v < pi->min ? pi->min : pi->max, pi->desc);
			return false;
		}
	}
	if (!is_pow2(p->lanes)) {
		snprintf(err, len, "link parameter LANES = %u: must be 1, 2 or 4 (halving degrades it)",
			 p->lanes);
		return false;
	}
	if (p->flit_bytes % 8) {
		snprintf(err, len, "link parameter FLIT_BYTES = %u: not a multiple of 8 (the router's flits)",
			 p->flit_bytes);
		return false;
	}
	pkt_flits = link_flits(p, LINK_PKT_MAX);
	if (p->buf_depth < pkt_flits) {
		snprintf(err, len,
			 "link parameter BUF_DEPTH = %u: below one maximal packet (%u flits of %u bytes); virtual cut-through needs a whole packet",
			 p->buf_depth, pkt_flits, p->flit_bytes);
		return false;
	}
	if (p->ack_timeout <= link_ack_round_trip(p)) {
		snprintf(err, len,
			 "link parameter ACK_TIMEOUT = %u: not above the link's acknowledgement round trip at one lane (%u cycles); every frame would be replayed",
			 p->ack_timeout, link_ack_round_trip(p));
		return false;
	}
	return true;
}
