// SPDX-License-Identifier: GPL-2.0
/*
 * Route computation inside the cycle-level router, with the card's VCs:
 * barrier packets go hop by hop (network port -> host port, host port ->
 * the network port named in dst_node) without touching hops; adaptive
 * packets take the adaptive VC of the least loaded minimal port with room
 * for the whole packet and are marked ADAPTIVE, ORDERED ones never adapt;
 * a packet leaving through a dateline port is marked VC1 and counted on
 * VC1.
 */
#include "router_fabric.h"
#include "tap.h"

TAP_DEFINE;

/* Host + 2 network ports: node 0 on port 0, node 1 on port 1, node 2 the host. */
static struct fab *card3(void)
{
	static const unsigned int nodes[] = { 0, 1, 2 };
	struct router_params p;

	router_preset_card(&p, 2);
	return fab_single(&p, nodes);
}

static void barrier(void)
{
	struct fab *f = card3();
	int in, out;

	/* from the network: to the host port whatever dst_node says */
	in = fab_send(f, 0, 2, LOOM_VC_BARRIER, LOOM_CLASS_BARRIER, 0, 0);
	/* from the host: out of the port in dst_node (0) */
	out = fab_send(f, 2, 0, LOOM_VC_BARRIER, LOOM_CLASS_BARRIER, 0, 0);
	fab_run(f, 100);
	tap_ok(f->pkts[in].delivered && f->pkts[out].delivered && f->pkts[in].hops == 0 &&
	       f->pkts[out].hops == 0 && !f->errors,
	       "barrier packets hop by hop: network -> host port %s, host -> port 0 %s, hops kept (%d, %d)%s%s",
	       f->pkts[in].delivered ? "delivered" : "lost",
	       f->pkts[out].delivered ? "delivered" : "lost", f->pkts[in].hops, f->pkts[out].hops,
	       f->errors ? ": " : "", f->err);
	fab_free(f);
}

static void adaptive(void)
{
	struct fab *f = card3();
	const struct router_port_counters *c0, *c1;
	struct loom_pkt_hdr h;
	unsigned int adaptive_on_1 = 0, ordered_on_1 = 0;

	/* node 0: table port 0, adaptive over ports 0 and 1 */
	f->rt[0][0] |= LOOM_RT_W0_ADAPTIVE;
	f->rt[0][1] |= 0x3u << LOOM_RT_W1_ADAPT_PORTS_SHIFT;
	router_out(f->r[0], 0)->back.ready = false;	/* port 0 is stuck */
	for (unsigned int i = 0; i < 6; i++) {
		int id = fab_send(f, 2, 0, LOOM_VC_REQ0, LOOM_CLASS_REQ, 64, 40 * i);

		if (i >= 3)
			f->pkts[id].bytes[6] = LOOM_PKT_F_ORDERED;
	}
	for (unsigned int c = 0; c < 300; c++) {
		struct flit *fl;

		fab_step(f);
		fl = &router_out(f->r[0], 1)->fwd;
		if (fl->valid && fl->head) {
			memcpy(&h, fl->data, 8);
			adaptive_on_1 += fl->vc == LOOM_VC_REQ_ADAPT && (h.flags & LOOM_PKT_F_ADAPTIVE);
			ordered_on_1 += (h.flags & LOOM_PKT_F_ORDERED) != 0;
		}
	}
	c0 = router_port_counters(f->r[0], 0);
	c1 = router_port_counters(f->r[0], 1);
	tap_ok(adaptive_on_1 == 2 && !ordered_on_1 && c1->adaptive == 2 && c0->adaptive == 1 &&
	       !f->pkts[3].delivered && !f->pkts[4].delivered && !f->pkts[5].delivered,
	       "adaptive: with port 0 stuck, %u of 3 packets leave port 1 on the adaptive VC marked ADAPTIVE (the first ties to the table port), %u ordered ones do (want 0); adaptive grants port 0 %llu, port 1 %llu",
	       adaptive_on_1, ordered_on_1, (unsigned long long)c0->adaptive,
	       (unsigned long long)c1->adaptive);
	fab_free(f);
}

static void dateline(void)
{
	struct fab *f = card3();
	int vc = -1, flags = -1, id;

	f->port_cfg[0][1] = 0 | LOOM_VCT_PORT_DATELINE;
	id = fab_send(f, 2, 1, LOOM_VC_REQ0, LOOM_CLASS_REQ, 0, 0);
	for (unsigned int c = 0; c < 100; c++) {
		const struct flit *fl;

		fab_step(f);
		fl = &router_out(f->r[0], 1)->fwd;
		if (fl->valid && fl->head) {
			vc = fl->vc;
			flags = fl->data[6];
		}
	}
	tap_ok(f->pkts[id].delivered && vc == LOOM_VC_REQ1 && (flags & LOOM_PKT_F_VC1),
	       "dateline: a request leaving through a dateline port goes on VC %d (want %d), flags 0x%x (VC1 0x%x)",
	       vc, LOOM_VC_REQ1, flags, LOOM_PKT_F_VC1);
	fab_free(f);
}

int main(void)
{
	tap_plan(3);
	barrier();
	adaptive();
	dateline();
	return tap_exit_status();
}
