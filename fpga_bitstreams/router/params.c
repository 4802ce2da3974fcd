// SPDX-License-Identifier: GPL-2.0
/*
 * The parameter table, its validation and the presets.
 */
#include "params.h"

#include <loom_hw/packet.h>

#include <stdio.h>
#include <string.h>
#include <strings.h>

const struct router_param_desc router_param_table[] = {
#define ROUTER_PARAM_ROW(NAME, field, def, min, max, desc) \
	{ #NAME, offsetof(struct router_params, field), def, min, max, desc },
	ROUTER_PARAMS(ROUTER_PARAM_ROW)
#undef ROUTER_PARAM_ROW
};

const unsigned int router_param_count =
	sizeof(router_param_table) / sizeof(router_param_table[0]);

static uint32_t *param_ptr(struct router_params *p, const struct router_param_desc *d)
{
	return (uint32_t *)(void *)((char *)p + d->offset);
}

static uint32_t param_val(const struct router_params *p, const struct router_param_desc *d)
{
	uint32_t v;

	memcpy(&v, (const char *)p + d->offset, sizeof(v));
	return v;
}

void router_params_default(struct router_params *p)
{
	for (unsigned int i = 0; i < router_param_count; i++)
		*param_ptr(p, &router_param_table[i]) = router_param_table[i].def;
}

unsigned int router_packet_flits(unsigned int flit_bytes, unsigned int payload)
{
	return (LOOM_PKT_HDR_SIZE + payload + flit_bytes - 1) / flit_bytes;
}

unsigned int router_max_packet_flits(unsigned int flit_bytes)
{
	return router_packet_flits(flit_bytes, LOOM_PKT_MAX_PAYLOAD);
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int router_params_check(const struct router_params *p, char *err, size_t errlen)
{
	unsigned int max_pkt;

	for (unsigned int i = 0; i < router_param_count; i++) {
		const struct router_param_desc *d = &router_param_table[i];
		uint32_t v = param_val(p, d);

		if (v < d->min)
			FAIL("%s = %u is below its minimum %u (%s)", d->name, v, d->min, d->desc);
		if (v > d->max)
			FAIL("%s = %u is above its maximum %u (%s)", d->name, v, d->max, d->desc);
	}
	if (p->fp_timer_bits < 32 && p->fp_timeout >> p->fp_timer_bits)
		FAIL("FP_TIMEOUT = %u does not fit the timer of FP_TIMER_BITS = %u bits (at most %u)",
		     p->fp_timeout, p->fp_timer_bits, (1u << p->fp_timer_bits) - 1);
	if (p->credit_bits < 16 && p->buf_depth >> p->credit_bits)
		FAIL("BUF_DEPTH = %u does not fit the credit counts of CREDIT_BITS = %u bits (at most %u)",
		     p->buf_depth, p->credit_bits, (1u << p->credit_bits) - 1);
	if (p->flit_bytes % 8)
		FAIL("FLIT_BYTES = %u is not a multiple of 8 (the routed header fields are its first 8 bytes)",
		     p->flit_bytes);
	if (p->host_ports >= p->ports)
		FAIL("PORTS = %u leaves no network port beside HOST_PORTS = %u", p->ports,
		     p->host_ports);
	if (p->vc_model == 1 && p->vcs != LOOM_VC_MAINT)
		FAIL("VCS = %u: VC_MODEL 1 (the card's VCs) needs exactly %u VCs (LOOM_VC_REQ0 .. LOOM_VC_BARRIER)",
		     p->vcs, LOOM_VC_MAINT);
	if (p->wormhole_vcs >> p->vcs)
		FAIL("WORMHOLE_VCS = 0x%x names VCs beyond VCS = %u", p->wormhole_vcs, p->vcs);
	max_pkt = router_max_packet_flits(p->flit_bytes);
	for (unsigned int v = 0; v < p->vcs; v++)
		if (!(p->wormhole_vcs & (1u << v)) && p->buf_depth < max_pkt)
			FAIL("BUF_DEPTH = %u is smaller than the largest packet (%u flits of %u bytes), which virtual cut-through on VC %u needs (set WORMHOLE_VCS bit %u or BUF_DEPTH >= %u)",
			     p->buf_depth, max_pkt, p->flit_bytes, v, v, max_pkt);
	if (p->org == ROUTER_ORG_TILED) {
		if (p->rows * p->cols < p->ports)
			FAIL("PORTS = %u is more than the ROWS x COLS = %u x %u tile grid holds (%u)",
			     p->ports, p->rows, p->cols, p->rows * p->cols);
		if (p->cols * p->vcs > 64)
			FAIL("COLS x VCS = %u x %u exceeds 64, the widest subswitch arbiter",
			     p->cols, p->vcs);
		if (p->rows * p->vcs > 64)
			FAIL("ROWS x VCS = %u x %u exceeds 64, the widest output mux arbiter",
			     p->rows, p->vcs);
	}
	return 0;
}

int router_params_set(struct router_params *p, const char *name, uint32_t value)
{
	for (unsigned int i = 0; i < router_param_count; i++) {
		if (!strcasecmp(router_param_table[i].name, name)) {
			*param_ptr(p, &router_param_table[i]) = value;
			return 0;
		}
	}
	return -1;
}

int64_t router_params_get(const struct router_params *p, const char *name)
{
	for (unsigned int i = 0; i < router_param_count; i++)
		if (!strcasecmp(router_param_table[i].name, name))
			return param_val(p, &router_param_table[i]);
	return -1;
}

/* The smallest square-ish grid that holds @ports tiles. */
static void grid_for(struct router_params *p, unsigned int ports)
{
	unsigned int c = 1;

	while (c * c < ports)
		c++;
	p->cols = c;
	p->rows = (ports + c - 1) / c;
}

void router_preset_card(struct router_params *p, unsigned int network_ports)
{
	router_params_default(p);
	p->ports = network_ports + 1;
	p->host_ports = 1;
	grid_for(p, p->ports);
}

void router_preset_yarc(struct router_params *p)
{
	router_params_default(p);
	p->ports = 64;
	p->host_ports = 0;
	p->rows = 8;
	p->cols = 8;
	p->vcs = 2;		/* request v=0, response v=1 */
	p->vc_model = 0;
	p->buf_depth = 256;	/* input buffer, phits = flits */
	p->row_depth = 16;
	p->col_depth = 10;
}

void router_preset_xbar(struct router_params *p, unsigned int ports, unsigned int vcs)
{
	router_params_default(p);
	p->org = ROUTER_ORG_XBAR;
	p->ports = ports;
	p->host_ports = 0;
	p->vcs = vcs;
	p->vc_model = 0;
	grid_for(p, ports);
}

void router_preset_fbx(struct router_params *p, unsigned int ports, unsigned int vcs)
{
	router_params_default(p);
	p->ports = ports;
	p->host_ports = 0;
	p->vcs = vcs;
	p->vc_model = 0;
	p->rows = 1;
	p->cols = ports;
	p->row_depth = 4;	/* crosspoint buffers, 4 flits per VC */
}

int router_preset(struct router_params *p, const char *name)
{
	if (!strcmp(name, "card"))
		router_preset_card(p, 8);
	else if (!strcmp(name, "yarc"))
		router_preset_yarc(p);
	else if (!strcmp(name, "xbar"))
		router_preset_xbar(p, 8, 4);
	else if (!strcmp(name, "fbx"))
		router_preset_fbx(p, 8, 4);
	else
		return -1;
	return 0;
}

const char *router_arb_name(unsigned int kind)
{
	static const char *const names[ARB_KINDS] = { "rr", "matrix", "t3e", "iwa" };

	return kind < ARB_KINDS ? names[kind] : "?";
}
