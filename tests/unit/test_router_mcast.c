// SPDX-License-Identifier: GPL-2.0
/*
 * Multicast replication at one router (Documentation/hw/router-model.rst):
 * a PUT of group 5 arriving on network port 1 leaves as copies on network
 * ports 0 and 2 and on the host port, one after the other in that order,
 * each byte for byte the packet (hops + 1 on the network copies); the
 * input buffer's credits go upstream once, as the last copy's flits
 * leave; a copy whose port is down is skipped with a drop; a packet that
 * cannot fit the input buffer, a group with no valid entry and a
 * multicast packet that is not a PUT request are dropped whole.  The
 * tiled card router and the crossbar organisation both.
 */
#include "router/router.h"
#include "tap.h"

#include <string.h>

TAP_DEFINE;

#define NET		3
#define HOST		NET
#define GROUP		5
#define GROUPS		16
#define PKT_MAX		(LOOM_PKT_HDR_SIZE + LOOM_PKT_MAX_PAYLOAD)

struct copy {
	uint8_t bytes[PKT_MAX];
	unsigned int n;
	uint64_t head_at, tail_at;
	int vc;
	bool done;
};

struct run {
	struct router *r;
	uint32_t rt[64 * 2];
	uint32_t mc[GROUPS * 2];
	uint32_t port_cfg[LOOM_MAX_PORTS];
	uint32_t start_vc1[2];
	struct copy out[NET + 1];
	unsigned int order[8], n_done;
	uint64_t credits_back;		/* credits port 1 returned upstream */
	uint64_t first_credit_at;
	uint64_t credits_mid;		/* returned when the second copy's head left */
	unsigned int fill_mid;		/* port 1's buffer then */
	unsigned int fb;
};

static bool run_init_cfg(struct run *x, const struct router_params *p, bool dims)
{
	char err[256];
	struct route_view v;

	memset(x, 0, sizeof(*x));
	/* dims: port 1 -> port 0 continues dimension 0 through a dateline, port 2 is dimension 1 */
	for (unsigned int k = 0; k < LOOM_MAX_PORTS; k++)
		x->port_cfg[k] = LOOM_VCT_PORT_DIM_NONE;
	x->port_cfg[0] = 0 | LOOM_VCT_PORT_DATELINE;
	x->port_cfg[1] = 0;
	x->port_cfg[2] = 1;
	x->start_vc1[0] = 1u << GROUP;	/* a node's bit: not the group's */
	x->mc[2 * GROUP] = LOOM_MCAST_W0_VALID | LOOM_MCAST_W0_HOST | 1u << 0 | 1u << 2;
	x->mc[2 * GROUP + 1] = 7;	/* HOST_CTX */
	x->mc[2 * 6] = 1u << 2;		/* group 6: not valid */
	x->mc[2 * 7] = LOOM_MCAST_W0_VALID | 1u << 9;	/* group 7: a port the router lacks */
	v = (struct route_view){ .rt = x->rt, .rt_entries = 64, .mc = x->mc,
				 .mc_entries = GROUPS };
	if (dims) {
		v.port_cfg = x->port_cfg;
		v.start_vc1 = x->start_vc1;
		v.start_vc1_bits = 64;
	}
	x->r = router_new(p, &v, err, sizeof(err));
	if (!x->r)
		tap_diag("router_new: %s", err);
	x->fb = p->flit_bytes;
	x->first_credit_at = UINT64_MAX;
	return x->r != NULL;
}

static bool run_init(struct run *x, const struct router_params *p)
{
	return run_init_cfg(x, p, false);
}

/* A packet's bytes: header then a pattern. */
static unsigned int make_pkt(uint8_t *b, unsigned int type, unsigned int class, unsigned int dst,
			     unsigned int len)
{
	struct loom_pkt_hdr h = {
		.type = (uint8_t)type, .class = (uint8_t)class, .len = (uint16_t)len,
		.dst_node = (uint16_t)dst, .flags = LOOM_PKT_F_MCAST, .hops = 3,
		.src_node = 9, .op_id = 0x1234, .offset = 4096, .op_len = len,
	};

	memcpy(b, &h, sizeof(h));
	for (unsigned int i = 0; i < len; i++)
		b[LOOM_PKT_HDR_SIZE + i] = (uint8_t)(i * 13 + 1);
	return LOOM_PKT_HDR_SIZE + len;
}

/*
 * Send @pkt (@n bytes) into port 1 on @vc under credits, run @cycles,
 * collect every output and the credits port 1 returns.
 */
static void run_packet(struct run *x, const uint8_t *pkt, unsigned int n, unsigned int vc,
		       unsigned int depth, unsigned int cycles)
{
	unsigned int flits = (n + x->fb - 1) / x->fb, sent = 0, credits = depth;
	uint8_t back[NET + 1][CHAN_VCS_MAX];

	memset(back, 0, sizeof(back));
	for (unsigned int c = 0; c < cycles; c++) {
		struct chan *in = router_in(x->r, 1);
		uint64_t now = router_now(x->r);

		for (unsigned int o = 0; o <= NET; o++)
			for (unsigned int v = 0; v < CHAN_VCS_MAX; v++) {
				router_out(x->r, o)->back.credits[v] = back[o][v];
				back[o][v] = 0;
			}
		if (sent < flits && credits) {
			in->fwd.valid = true;
			in->fwd.head = sent == 0;
			in->fwd.tail = sent == flits - 1;
			in->fwd.vc = (uint8_t)vc;
			memset(in->fwd.data, 0, sizeof(in->fwd.data));
			memcpy(in->fwd.data, pkt + sent * x->fb,
			       n - sent * x->fb < x->fb ? n - sent * x->fb : x->fb);
			sent++;
			credits--;
		}
		router_cycle(x->r);
		credits += in->back.credits[vc];
		if (in->back.credits[vc]) {
			if (x->first_credit_at == UINT64_MAX)
				x->first_credit_at = now;
			x->credits_back += in->back.credits[vc];
		}
		for (unsigned int o = 0; o <= NET; o++) {
			struct chan *w = router_out(x->r, o);
			struct copy *k = &x->out[o];

			if (!w->fwd.valid)
				continue;
			back[o][w->fwd.vc]++;
			if (w->fwd.head) {
				k->head_at = now;
				k->vc = w->fwd.vc;
				k->n = 0;
				if (x->n_done == 1) {	/* the second copy's head */
					x->credits_mid = x->credits_back;
					x->fill_mid = router_in_vc_fill(x->r, 1, vc);
				}
			}
			if (k->n + x->fb <= PKT_MAX)
				memcpy(k->bytes + k->n, w->fwd.data, x->fb);
			k->n += x->fb;
			if (w->fwd.tail) {
				k->tail_at = now;
				k->done = true;
				if (x->n_done < 8)
					x->order[x->n_done] = o;
				x->n_done++;
			}
		}
	}
}

/* Does copy @k carry @pkt with hops @hops (and no flag but MCAST)? */
static bool copy_is(const struct copy *k, const uint8_t *pkt, unsigned int n, unsigned int hops)
{
	uint8_t want[PKT_MAX];

	memcpy(want, pkt, n);
	want[7] = (uint8_t)hops;
	if (!k->done || k->n < n || memcmp(k->bytes, want, n)) {
		tap_diag("copy: %u bytes (done %d), hops %u flags 0x%x; want %u bytes, hops %u flags 0x%x; first difference at byte %d",
			 k->n, k->done, k->bytes[7], k->bytes[6], n, hops, want[6], ({
				 int d = -1;
				 for (unsigned int i = 0; i < n && i < k->n; i++)
					 if (k->bytes[i] != want[i]) {
						 d = (int)i;
						 break;
					 }
				 d;
			 }));
		return false;
	}
	return true;
}

static void replication(const char *name, const struct router_params *p)
{
	struct run x;
	uint8_t pkt[PKT_MAX];
	unsigned int n = make_pkt(pkt, LOOM_PKT_PUT, LOOM_CLASS_REQ, GROUP, 200);
	unsigned int flits = (n + p->flit_bytes - 1) / p->flit_bytes;
	const struct router_counters *c;

	if (!run_init(&x, p)) {
		tap_ok(0, "%s: router built", name);
		tap_ok(0, "%s: order", name);
		tap_ok(0, "%s: credits", name);
		return;
	}
	run_packet(&x, pkt, n, LOOM_VC_REQ0, p->buf_depth, 400);
	c = router_counters(x.r);
	tap_ok(copy_is(&x.out[0], pkt, n, 4) && copy_is(&x.out[2], pkt, n, 4) &&
	       copy_is(&x.out[HOST], pkt, n, 3) && !x.out[1].done &&
	       x.out[0].vc == LOOM_VC_REQ0 && x.out[2].vc == LOOM_VC_REQ0 &&
	       x.out[HOST].vc == LOOM_VC_REQ0,
	       "%s: group 5 from port 1: copies on ports 0, 2 and the host, byte for byte (VCs %d %d %d, port 1 got %s)",
	       name, x.out[0].vc, x.out[2].vc, x.out[HOST].vc, x.out[1].done ? "one" : "none");
	tap_ok(x.n_done == 3 && x.order[0] == 0 && x.order[1] == 2 && x.order[2] == HOST &&
	       x.out[0].tail_at < x.out[2].head_at && x.out[2].tail_at < x.out[HOST].head_at,
	       "%s: one copy after the other: port 0 %llu..%llu, port 2 %llu..%llu, host %llu..%llu (%u copies)",
	       name, (unsigned long long)x.out[0].head_at, (unsigned long long)x.out[0].tail_at,
	       (unsigned long long)x.out[2].head_at, (unsigned long long)x.out[2].tail_at,
	       (unsigned long long)x.out[HOST].head_at, (unsigned long long)x.out[HOST].tail_at,
	       x.n_done);
	tap_ok(x.credits_back == flits && x.credits_mid == 0 && x.fill_mid == flits &&
	       x.first_credit_at > x.out[2].head_at && !c->drops[ROUTE_DROP_MALFORMED],
	       "%s: %llu credits of %u flits returned upstream; as the second copy left: %llu returned, %u flits held; the first at %llu (second copy's head at %llu)",
	       name, (unsigned long long)x.credits_back, flits, (unsigned long long)x.credits_mid,
	       x.fill_mid, (unsigned long long)x.first_credit_at,
	       (unsigned long long)x.out[2].head_at);
	router_free(x.r);
}

static void down_port(const struct router_params *p)
{
	struct run x;
	uint8_t pkt[PKT_MAX];
	unsigned int n = make_pkt(pkt, LOOM_PKT_PUT, LOOM_CLASS_REQ, GROUP, 64);
	struct router_drop d = { 0 };
	bool got;

	if (!run_init(&x, p)) {
		tap_ok(0, "router built");
		return;
	}
	router_set_port_up(x.r, 2, false);
	run_packet(&x, pkt, n, LOOM_VC_REQ0, p->buf_depth, 300);
	got = router_drop_pop(x.r, &d);
	tap_ok(copy_is(&x.out[0], pkt, n, 4) && copy_is(&x.out[HOST], pkt, n, 3) &&
	       !x.out[2].done && got && d.reason == ROUTE_DROP_DOWN && d.out_port == 2 &&
	       x.credits_back == (n + p->flit_bytes - 1) / p->flit_bytes,
	       "port 2 down: copies on port 0 and the host, port 2's skipped with a drop (%s, port %u), %llu credits back",
	       got ? route_drop_name((enum route_drop)d.reason) : "no drop", got ? d.out_port : 0u,
	       (unsigned long long)x.credits_back);
	router_free(x.r);
}

/*
 * VCs: from port 1 (dimension 0), the copy on port 0 continues its
 * dimension through a dateline: VC1 (REQ1, flag VC1); the copy on port 2
 * enters dimension 1 and the host copy leaves the network: VC0, though
 * START_VC1 has the bit of node 5 set (it is a node's bit, not a group's).
 */
static void datelines(const struct router_params *p)
{
	struct run x;
	uint8_t pkt[PKT_MAX];
	unsigned int n = make_pkt(pkt, LOOM_PKT_PUT, LOOM_CLASS_REQ, GROUP, 64);

	if (!run_init_cfg(&x, p, true)) {
		tap_ok(0, "router built");
		return;
	}
	run_packet(&x, pkt, n, LOOM_VC_REQ0, p->buf_depth, 300);
	pkt[6] |= LOOM_PKT_F_VC1;
	tap_ok(x.out[0].vc == LOOM_VC_REQ1 && copy_is(&x.out[0], pkt, n, 4) &&
	       x.out[2].vc == LOOM_VC_REQ0 && x.out[HOST].vc == LOOM_VC_REQ0 &&
	       !(x.out[2].bytes[6] & LOOM_PKT_F_VC1),
	       "datelines: the copy through the dateline on VC %d (want %d, flag VC1), into dimension 1 on VC %d, to the host on VC %d (want %d)",
	       x.out[0].vc, LOOM_VC_REQ1, x.out[2].vc, x.out[HOST].vc, LOOM_VC_REQ0);
	router_free(x.r);
}

/* A multicast packet dropped whole: @why, nothing out, every credit back. */
static void dropped(const struct router_params *p, const char *what, unsigned int type,
		    unsigned int class, unsigned int vc, unsigned int group, unsigned int len,
		    enum route_drop why)
{
	struct run x;
	uint8_t pkt[PKT_MAX];
	unsigned int n = make_pkt(pkt, type, class, group, len);
	unsigned int flits = (n + p->flit_bytes - 1) / p->flit_bytes;
	struct router_drop d = { 0 };
	bool got;

	if (!run_init(&x, p)) {
		tap_ok(0, "router built");
		return;
	}
	run_packet(&x, pkt, n, vc, p->buf_depth, 300);
	got = router_drop_pop(x.r, &d);
	tap_ok(got && d.reason == why && x.n_done == 0 && x.credits_back == flits,
	       "%s: dropped (%s, want %s), %u copies out, %llu of %u credits back", what,
	       got ? route_drop_name((enum route_drop)d.reason) : "no drop", route_drop_name(why),
	       x.n_done, (unsigned long long)x.credits_back, flits);
	router_free(x.r);
}

int main(void)
{
	struct router_params p;
	char err[256];

	tap_plan(15);
	router_preset_card(&p, NET);
	replication("tiled card router", &p);
	down_port(&p);
	datelines(&p);
	dropped(&p, "group 6 (entry not valid)", LOOM_PKT_PUT, LOOM_CLASS_REQ, LOOM_VC_REQ0, 6, 64,
		ROUTE_DROP_NO_ROUTE);
	dropped(&p, "group 7 (names port 9 of a 3-port router)", LOOM_PKT_PUT, LOOM_CLASS_REQ,
		LOOM_VC_REQ0, 7, 64, ROUTE_DROP_NO_ROUTE);
	dropped(&p, "group 20 (beyond the table)", LOOM_PKT_PUT, LOOM_CLASS_REQ, LOOM_VC_REQ0, 20,
		64, ROUTE_DROP_NO_ROUTE);
	dropped(&p, "a multicast GET request", LOOM_PKT_GET_REQ, LOOM_CLASS_REQ, LOOM_VC_REQ0,
		GROUP, 0, ROUTE_DROP_MALFORMED);
	dropped(&p, "a multicast response", LOOM_PKT_PUT_ACK, LOOM_CLASS_RESP, LOOM_VC_RESP0, GROUP,
		0, ROUTE_DROP_MALFORMED);
	/* 8-flit input buffers: a 19-flit packet cannot be re-read for every copy */
	p.buf_depth = 8;
	p.wormhole_vcs = 0x7f;
	if (router_params_check(&p, err, sizeof(err)))
		tap_diag("params: %s", err);
	dropped(&p, "a packet longer than the input buffer (8 flits)", LOOM_PKT_PUT,
		LOOM_CLASS_REQ, LOOM_VC_REQ0, GROUP, 256, ROUTE_DROP_MALFORMED);
	router_preset_card(&p, NET);
	p.org = ROUTER_ORG_XBAR;
	if (router_params_check(&p, err, sizeof(err)))
		tap_diag("params: %s", err);
	replication("crossbar", &p);
	down_port(&p);
	return tap_exit_status();
}
