// SPDX-License-Identifier: GPL-2.0
/*
 * The performance counters block: a snapshot of the router's counters on
 * request.  Software writes SNAP_SEQ; at the next service round (between
 * two clock edges) every register of the block is written from the model,
 * then SNAP_ACK = SNAP_SEQ.  The cycle counter is the card's clock, which
 * counts the cycles it skipped while idle; the router counts skipped
 * cycles of its stall and starvation counters the same way.
 */
#include "card.h"
#include "card_router.h"
#include "perf.h"
#include "router/router.h"

_Static_assert(CARD_OFF_MR + CARD_MR_SIZE <= CARD_OFF_PERF &&
	       CARD_OFF_PERF + CARD_PERF_SIZE(LOOM_MAX_PORTS) <= CARD_DB_AREA,
	       "the PERF block overlaps its neighbours in the register window");

static void perf_wr64(struct card *c, uint32_t off, uint64_t v)
{
	card_wr32(c, off, (uint32_t)v);
	card_wr32(c, off + 4, (uint32_t)(v >> 32));
}

static uint32_t perf_port_reg(unsigned int port, uint32_t field)
{
	return CARD_OFF_PERF + LOOM_PERF_PORT_BASE + port * LOOM_PERF_PORT_REC_SIZE + field;
}

static uint32_t perf_vc_reg(unsigned int port, unsigned int vc, uint32_t field)
{
	return perf_port_reg(port, LOOM_PERFP_VC_BASE + vc * LOOM_PERF_VC_REC_SIZE + field);
}

void perf_init(struct card *c, uint32_t off, uint32_t next)
{
	card_wr32(c, off + LOOM_BLK_TYPE, LOOM_BLK_PERF);
	card_wr32(c, off + LOOM_BLK_VERSION, LOOM_PERF_VERSION);
	card_wr32(c, off + LOOM_BLK_NEXT, next);
	card_wr32(c, off + LOOM_BLK_SIZE, CARD_PERF_SIZE(c->p.n_ports));
	card_wr32(c, off + LOOM_PERF_N_PORTS, c->p.n_ports + 1);
	card_wr32(c, off + LOOM_PERF_N_VCS, c->p.router.vcs);
	card_wr32(c, off + LOOM_PERF_PORT_STRIDE, LOOM_PERF_PORT_REC_SIZE);
	card_wr32(c, off + LOOM_PERF_HOST_PORT, c->p.n_ports);
	card_wr32(c, off + LOOM_PERF_CLOCK_KHZ, c->p.clock_khz);
}

static void perf_snapshot(struct card *c)
{
	const struct router_counters *rc = card_router_counters(c);
	const unsigned int ports = c->p.router.ports, vcs = c->p.router.vcs;

	perf_wr64(c, CARD_OFF_PERF + LOOM_PERF_CYCLES, c->now);
	perf_wr64(c, CARD_OFF_PERF + LOOM_PERF_VA_CONFLICTS, rc->va_conflicts);
	perf_wr64(c, CARD_OFF_PERF + LOOM_PERF_SA_CONFLICTS, rc->sa_conflicts);
	for (unsigned int p = 0; p < ports; p++) {
		const struct router_port_counters *pc = card_router_port_counters(c, p);

		perf_wr64(c, perf_port_reg(p, LOOM_PERFP_FLITS_IN), pc->flits_in);
		perf_wr64(c, perf_port_reg(p, LOOM_PERFP_FLITS_OUT), pc->flits_out);
		perf_wr64(c, perf_port_reg(p, LOOM_PERFP_PKTS_IN), pc->pkts_in);
		perf_wr64(c, perf_port_reg(p, LOOM_PERFP_PKTS_OUT), pc->pkts_out);
		for (unsigned int v = 0; v < vcs; v++) {
			const struct router_vc_counters *vc = card_router_vc_counters(c, p, v);

			card_wr32(c, perf_vc_reg(p, v, LOOM_PERFV_OCCUPANCY),
				  card_router_in_vc_fill(c, p, v));
			card_wr32(c, perf_vc_reg(p, v, LOOM_PERFV_OCCUPANCY_MAX), vc->fill_max);
			perf_wr64(c, perf_vc_reg(p, v, LOOM_PERFV_STALL_CYCLES), vc->stall_cycles);
			perf_wr64(c, perf_vc_reg(p, v, LOOM_PERFV_CREDIT_STARVED),
				  vc->credit_starved_cycles);
		}
	}
}

void perf_poll(struct card *c)
{
	uint32_t seq = card_rd32(c, CARD_OFF_PERF + LOOM_PERF_SNAP_SEQ);

	if (seq == card_rd32(c, CARD_OFF_PERF + LOOM_PERF_SNAP_ACK))
		return;
	perf_snapshot(c);
	card_wr32(c, CARD_OFF_PERF + LOOM_PERF_SNAP_ACK, seq);
}
