// SPDX-License-Identifier: GPL-2.0
/*
 * A fabric of Verilated RTL routers for loom-sim's router_ops (see
 * rtl_fabric.h): every cycle each node's loom_router gets the inputs its
 * model router's wires carry, takes one clock edge, and its outputs are
 * written back onto those wires, where loom-sim's links and terminals read
 * them.  The wires and their timing are router/chan.h's, which the RTL's
 * port interface mirrors signal for signal.
 */
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "Vloom_router.h"
#include "verilated.h"

// route.h names a field 'class', a C++ keyword: spelt otherwise here (same layout)
#define class class_
#define _Static_assert static_assert
extern "C" {
#include "router/params.h"
#include "router/router.h"
#include "rtl/rtl_regs.h"
}
#undef class
#undef _Static_assert

#include "rtl_fabric.h"

namespace {

template <typename T> uint32_t word(const T &v, unsigned k)
{
	return (uint32_t)((uint64_t)v >> (32 * k));
}

template <std::size_t N> uint32_t word(const VlWide<N> &v, unsigned k)
{
	return v[k];
}

template <typename T> void put_word(T &v, unsigned k, uint32_t w)
{
	uint64_t m = 0xffffffffull << (32 * k);

	v = (T)(((uint64_t)v & ~m) | ((uint64_t)w << (32 * k) & m));
}

template <std::size_t N> void put_word(VlWide<N> &v, unsigned k, uint32_t w)
{
	v[k] = w;
}

// Bits [lsb, lsb + width) of a Verilated port: an integer, or VlWide's 32-bit words.
template <typename T> uint64_t bits_get(const T &v, unsigned lsb, unsigned width)
{
	uint64_t x = 0;

	for (unsigned i = 0; i < width; i++) {
		unsigned b = lsb + i;

		x |= (uint64_t)(word(v, b / 32) >> (b % 32) & 1) << i;
	}
	return x;
}

// Is any of bits [0, width) of a Verilated port set?
template <typename T> bool bits_any(const T &v, unsigned width)
{
	for (unsigned w = 0; w < (width + 31) / 32; w++)
		if (word(v, w))
			return true;
	return false;
}

template <typename T> void bits_set(T &v, unsigned lsb, unsigned width, uint64_t x)
{
	for (unsigned i = 0; i < width; i++) {
		unsigned b = lsb + i;
		uint32_t bit = 1u << (b % 32), w = word(v, b / 32);

		put_word(v, b / 32, (x >> i) & 1 ? (w | bit) : (w & ~bit));
	}
}

} // namespace

struct rtl_fabric {
	std::unique_ptr<VerilatedContext> ctx;
	std::vector<std::unique_ptr<Vloom_router>> r;
	unsigned P = 0, V = 0, FB = 0, rt_entries = 0, svc1_bits = 0;
	// configuration writes waiting for their node's next edge: (blk, addr, data)
	struct write {
		unsigned blk, addr;
		uint32_t data;
	};
	std::vector<std::deque<write>> pending;
	std::vector<std::vector<bool>> up;
	// per node: drop events not yet taken, port events since the last take,
	// edges since a flit or credit was on a port
	std::vector<std::deque<router_drop>> drops;
	std::vector<uint64_t> events;
	std::vector<unsigned> quiet;
	// per node and (port, VC): skipped cycles it stalled, starved through (rtl_fabric_skip)
	bool vc_counters = false;
	std::vector<std::vector<uint64_t>> skip_stall, skip_starved;
};

namespace {

uint32_t info(Vloom_router *t, unsigned addr)
{
	t->info_addr = addr;
	t->eval();
	return t->info_rdata;
}

void edge(Vloom_router *t)
{
	t->clk = 0;
	t->eval();
	t->clk = 1;
	t->eval();
}

// One configuration write at one edge, nothing on the ports.
void write_now(rtl_fabric *f, int node, unsigned blk, unsigned addr, uint32_t data)
{
	Vloom_router *t = f->r[node].get();

	t->cfg_we = 1;
	t->cfg_blk = blk;
	t->cfg_addr = addr;
	t->cfg_wdata = data;
	edge(t);
	t->cfg_we = 0;
}

} // namespace

extern "C" struct rtl_fabric *rtl_fabric_new(int nodes, const struct router_params *p, char *err,
					     size_t errlen)
{
	std::unique_ptr<rtl_fabric> f(new rtl_fabric);

	f->ctx.reset(new VerilatedContext);
	for (int i = 0; i < nodes; i++) {
		std::string name = "router" + std::to_string(i);
		Vloom_router *t = new Vloom_router(f->ctx.get(), name.c_str());

		f->r.emplace_back(t);
		t->rst = 1;
		edge(t);
		edge(t);
		t->rst = 0;
		t->clk = 0;
		t->eval();
	}
	Vloom_router *t = f->r[0].get();

	for (unsigned i = 0; i < router_param_count; i++) {
		uint32_t rtl = info(t, 4 * i);
		uint32_t mod = *(const uint32_t *)((const char *)p + router_param_table[i].offset);

		if (rtl != mod) {
			snprintf(err, errlen, "the Verilated router was built with %s = %u, the model "
				 "has %u (rebuild it with -G%s=%u)", router_param_table[i].name, rtl,
				 mod, router_param_table[i].name, mod);
			return nullptr;
		}
	}
	if (info(t, RTL_INFO_MAGIC) != RTL_INFO_MAGIC_VALUE) {
		snprintf(err, errlen, "the RTL's INFO block does not read back its magic word");
		return nullptr;
	}
	f->rt_entries = info(t, RTL_INFO_RT_ENTRIES);
	f->svc1_bits = info(t, RTL_INFO_RT_ENTRIES + 4);
	f->P = p->ports;
	f->V = p->vcs;
	f->FB = p->flit_bytes;
	f->pending.assign(nodes, {});
	// out of reset every port is up (the model's routers start so too)
	f->up.assign(nodes, std::vector<bool>(f->P, true));
	f->drops.assign(nodes, {});
	f->events.assign(nodes, 0);
	f->quiet.assign(nodes, 0);
	f->vc_counters = info(t, RTL_INFO_VC_COUNTERS) != 0;
	f->skip_stall.assign(nodes, std::vector<uint64_t>(f->P * f->V, 0));
	f->skip_starved.assign(nodes, std::vector<uint64_t>(f->P * f->V, 0));
	return f.release();
}

extern "C" void rtl_fabric_free(struct rtl_fabric *f)
{
	if (!f)
		return;
	for (auto &t : f->r)
		t->final();
	delete f;
}

extern "C" unsigned int rtl_fabric_rt_entries(const struct rtl_fabric *f)
{
	return f->rt_entries;
}

extern "C" void rtl_fabric_tables(struct rtl_fabric *f, int node, const uint32_t *rt,
				  const uint32_t *port_cfg, const uint32_t *start_vc1)
{
	for (unsigned k = 0; k < 2 * f->rt_entries; k++)
		write_now(f, node, RTL_BLK_ROUTER, LOOM_ROUTER_RT + 4 * k, rt[k]);
	for (unsigned k = 0; k < LOOM_MAX_PORTS; k++)
		write_now(f, node, RTL_BLK_VCT, LOOM_VCT_PORT_CFG + 4 * k, port_cfg[k]);
	for (unsigned k = 0; k < (f->svc1_bits + 31) / 32; k++)
		write_now(f, node, RTL_BLK_VCT, LOOM_VCT_START_VC1 + 4 * k, start_vc1[k]);
}

extern "C" uint32_t rtl_fabric_info(const struct rtl_fabric *f, uint32_t addr)
{
	return info(f->r[0].get(), addr);
}

extern "C" void rtl_fabric_write(struct rtl_fabric *f, int node, unsigned int blk, uint32_t addr,
				 uint32_t data)
{
	f->pending[node].push_back({ blk, addr, data });
}

extern "C" void rtl_fabric_port_up(void *opaque, int node, unsigned int port, bool up)
{
	rtl_fabric *f = (rtl_fabric *)opaque;

	if (f->up[node][port] == up)
		return;
	f->up[node][port] = up;
	rtl_fabric_write(f, node, RTL_BLK_CTL, RTL_CTL_PORT_UP + 4 * port, up);
}

namespace {

// The drop events of the last edge, input side and output side, into the node's queue.
void take_drops(rtl_fabric *f, int node, Vloom_router *t)
{
	const unsigned HB = 8 * LOOM_PKT_HDR_SIZE;

	for (unsigned p = 0; p < f->P; p++) {
		for (int side = 0; side < 2; side++) {
			router_drop d;

			if (!bits_get(side ? t->drop_out_valid : t->drop_in_valid, p, 1))
				continue;
			memset(&d, 0, sizeof(d));
			if (!side) {
				d.reason = (uint8_t)bits_get(t->drop_in_reason, 3 * p, 3);
				d.in_port = (uint8_t)p;
				d.out_port = (uint8_t)bits_get(t->drop_in_out_port, 8 * p, 8);
				d.vc = (uint8_t)bits_get(t->drop_in_vc, 3 * p, 3);
				d.hdr_bytes = (uint8_t)bits_get(t->drop_in_bytes, 7 * p, 7);
			} else {
				d.reason = (uint8_t)bits_get(t->drop_out_reason, 3 * p, 3);
				d.in_port = 0xff;
				d.out_port = (uint8_t)p;
				d.vc = (uint8_t)bits_get(t->drop_out_vc, 3 * p, 3);
				d.hdr_bytes = (uint8_t)bits_get(t->drop_out_bytes, 7 * p, 7);
			}
			if (d.hdr_bytes > LOOM_PKT_HDR_SIZE)
				d.hdr_bytes = LOOM_PKT_HDR_SIZE;
			for (unsigned k = 0; k < LOOM_PKT_HDR_SIZE; k++)
				d.hdr[k] = (uint8_t)(side ? bits_get(t->drop_out_hdr, p * HB + 8 * k, 8) :
							    bits_get(t->drop_in_hdr, p * HB + 8 * k, 8));
			if (f->drops[node].size() < ROUTER_DROP_QUEUE)
				f->drops[node].push_back(d);
		}
		// multicast copies skipped, one source per input VC
		for (unsigned v = 0; v < f->V; v++) {
			unsigned k = p * f->V + v;
			router_drop d;

			if (!bits_get(t->drop_mc_valid, k, 1))
				continue;
			memset(&d, 0, sizeof(d));
			d.reason = (uint8_t)bits_get(t->drop_mc_reason, 3 * k, 3);
			d.in_port = (uint8_t)p;
			d.out_port = (uint8_t)bits_get(t->drop_mc_out_port, 8 * k, 8);
			d.vc = (uint8_t)v;
			d.hdr_bytes = (uint8_t)bits_get(t->drop_mc_bytes, 7 * k, 7);
			if (d.hdr_bytes > LOOM_PKT_HDR_SIZE)
				d.hdr_bytes = LOOM_PKT_HDR_SIZE;
			for (unsigned b = 0; b < LOOM_PKT_HDR_SIZE; b++)
				d.hdr[b] = (uint8_t)bits_get(t->drop_mc_hdr, k * HB + 8 * b, 8);
			if (f->drops[node].size() < ROUTER_DROP_QUEUE)
				f->drops[node].push_back(d);
		}
	}
}

} // namespace

extern "C" void rtl_fabric_step(struct rtl_fabric *f, int node, struct chan *const *inw,
				struct chan *const *outw)
{
	Vloom_router *t = f->r[node].get();
	const unsigned P = f->P, V = f->V, FB = f->FB;
	bool moved = false;

	t->cfg_we = 0;
	if (!f->pending[node].empty()) {
		const rtl_fabric::write &w = f->pending[node].front();

		t->cfg_we = 1;
		t->cfg_blk = w.blk;
		t->cfg_addr = w.addr;
		t->cfg_wdata = w.data;
		f->pending[node].pop_front();
	}
	for (unsigned i = 0; i < P; i++) {
		const flit *in = &inw[i]->fwd;

		moved = moved || in->valid;
		bits_set(t->in_valid, i, 1, in->valid);
		bits_set(t->in_head, i, 1, in->head);
		bits_set(t->in_tail, i, 1, in->tail);
		bits_set(t->in_vc, 3 * i, 3, in->vc);
		for (unsigned k = 0; k < FB; k++)
			bits_set(t->in_data, (i * FB + k) * 8, 8, in->data[k]);
	}
	for (unsigned o = 0; o < P; o++) {
		const chan_back *b = &outw[o]->back;

		bits_set(t->out_ready, o, 1, b->ready);
		for (unsigned v = 0; v < V; v++) {
			moved = moved || b->credits[v];
			bits_set(t->out_credit, (o * V + v) * 8, 8, b->credits[v]);
		}
	}
	edge(t);
	t->cfg_we = 0;
	if (t->drop_in_valid || t->drop_out_valid || bits_any(t->drop_mc_valid, P * V))
		take_drops(f, node, t);
	f->events[node] |= (uint64_t)t->port_event;
	for (unsigned o = 0; o < P; o++) {
		flit *out = &outw[o]->fwd;

		out->valid = bits_get(t->out_valid, o, 1);
		moved = moved || out->valid;
		out->head = bits_get(t->out_head, o, 1);
		out->tail = bits_get(t->out_tail, o, 1);
		out->vc = (uint8_t)bits_get(t->out_vc, 3 * o, 3);
		for (unsigned k = 0; k < FB; k++)
			out->data[k] = (uint8_t)bits_get(t->out_data, (o * FB + k) * 8, 8);
	}
	for (unsigned i = 0; i < P; i++) {
		chan_back *b = &inw[i]->back;

		for (unsigned v = 0; v < V; v++) {
			b->credits[v] = (uint8_t)bits_get(t->in_credit, (i * V + v) * 8, 8);
			moved = moved || b->credits[v];
		}
		b->ready = true;
	}
	f->quiet[node] = moved ? 0 : f->quiet[node] + (f->quiet[node] < RTL_FABRIC_SETTLE);
}

extern "C" bool rtl_fabric_busy(const struct rtl_fabric *f, int node)
{
	const Vloom_router *t = f->r[node].get();

	if (!f->pending[node].empty() || f->quiet[node] < RTL_FABRIC_SETTLE)
		return true;
	for (unsigned k = 0; k < f->P * f->V; k++)
		if (bits_get(t->dbg_fill, 16 * k, 16))
			return true;
	return false;
}

extern "C" bool rtl_fabric_drop_pop(struct rtl_fabric *f, int node, struct router_drop *d)
{
	if (f->drops[node].empty())
		return false;
	*d = f->drops[node].front();
	f->drops[node].pop_front();
	return true;
}

extern "C" uint64_t rtl_fabric_port_dead(const struct rtl_fabric *f, int node)
{
	return (uint64_t)f->r[node]->port_dead;
}

extern "C" uint64_t rtl_fabric_take_port_events(struct rtl_fabric *f, int node)
{
	uint64_t ev = f->events[node];

	f->events[node] = 0;
	return ev;
}

extern "C" void rtl_fabric_counters(const struct rtl_fabric *f, int node, struct router_counters *c,
				    struct router_port_counters *pc)
{
	const Vloom_router *t = f->r[node].get();
	enum { PORT_CNT = 9 };

	for (unsigned o = 0; o < f->P; o++) {
		uint64_t *const field[PORT_CNT] = {
			&pc[o].flits_in, &pc[o].flits_out, &pc[o].pkts_in, &pc[o].pkts_out,
			&pc[o].malformed, &pc[o].credit_errors, &pc[o].adaptive, &pc[o].deterministic,
			&pc[o].credit_stall_cycles,
		};

		for (unsigned k = 0; k < PORT_CNT; k++)
			*field[k] = bits_get(t->cnt_port, (o * PORT_CNT + k) * 64, 64);
	}
	memset(c, 0, sizeof(*c));
	c->cycles = bits_get(t->cnt_glob, 0, 64);
	for (unsigned k = 0; k < ROUTE_DROP_REASONS; k++)
		c->drops[k] = bits_get(t->cnt_glob, (1 + k) * 64, 64);
	c->va_conflicts = bits_get(t->cnt_glob, (1 + ROUTE_DROP_REASONS) * 64, 64);
	c->sa_conflicts = bits_get(t->cnt_glob, (2 + ROUTE_DROP_REASONS) * 64, 64);
}

extern "C" bool rtl_fabric_vc_counters(const struct rtl_fabric *f, int node, unsigned int port,
				       unsigned int vc, struct router_vc_counters *vcc)
{
	const Vloom_router *t = f->r[node].get();
	const unsigned k = port * f->V + vc;
	enum { VC_CNT = 3 };

	memset(vcc, 0, sizeof(*vcc));
	if (!f->vc_counters)
		return false;
	vcc->stall_cycles = bits_get(t->cnt_vc, (k * VC_CNT + 0) * 64, 64) + f->skip_stall[node][k];
	vcc->credit_starved_cycles = bits_get(t->cnt_vc, (k * VC_CNT + 1) * 64, 64) +
				     f->skip_starved[node][k];
	vcc->fill_max = (uint32_t)bits_get(t->cnt_vc, (k * VC_CNT + 2) * 64, 32);
	return true;
}

extern "C" void rtl_fabric_skip(struct rtl_fabric *f, int node, uint64_t cycles)
{
	const Vloom_router *t = f->r[node].get();

	if (!f->vc_counters)
		return;
	for (unsigned k = 0; k < f->P * f->V; k++) {
		uint64_t last = bits_get(t->vc_last, 2 * k, 2);

		f->skip_stall[node][k] += (last & 1) * cycles;
		f->skip_starved[node][k] += (last >> 1) * cycles;
	}
}

extern "C" unsigned int rtl_fabric_in_vc_fill(const struct rtl_fabric *f, int node,
					      unsigned int port, unsigned int vc)
{
	return (unsigned)bits_get(f->r[node]->dbg_fill, (port * f->V + vc) * 16, 16);
}

#ifdef LOOM_RTL_PLUGIN
/*
 * The card emulator's RTL router (loom-card --router rtl): one router of
 * this fabric behind the table of card/rtl_plugin.h, which loom-card loads
 * with dlopen.  Built so by 'make -C fpga_bitstreams rtl-card'.
 */
#include "card/rtl_plugin.h"

namespace {

struct rtl_fabric *plugin_open(const struct router_params *p, char *err, size_t errlen)
{
	return rtl_fabric_new(1, p, err, errlen);
}

} // namespace

extern "C" __attribute__((visibility("default"))) const struct rtl_plugin loom_rtl_plugin = {
	RTL_PLUGIN_ABI,
	sizeof(struct router_params),
	sizeof(struct chan),
	sizeof(struct router_drop),
	LOOM_RTL_BUILD,
	LOOM_RTL_PLUGIN,
	plugin_open,
	rtl_fabric_free,
	rtl_fabric_info,
	rtl_fabric_write,
	rtl_fabric_step,
	rtl_fabric_busy,
	rtl_fabric_drop_pop,
	rtl_fabric_port_dead,
	rtl_fabric_take_port_events,
	rtl_fabric_counters,
	rtl_fabric_in_vc_fill,
	rtl_fabric_vc_counters,
	rtl_fabric_skip,
};
#endif
