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
	std::vector<std::vector<write>> pending;
	std::vector<std::vector<bool>> up;
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

extern "C" void rtl_fabric_port_up(void *opaque, int node, unsigned int port, bool up)
{
	rtl_fabric *f = (rtl_fabric *)opaque;

	if (f->up[node][port] == up)
		return;
	f->up[node][port] = up;
	f->pending[node].push_back({ RTL_BLK_CTL, RTL_CTL_PORT_UP + 4 * port, up });
}

extern "C" void rtl_fabric_cycle(void *opaque, int node, struct router *wires)
{
	rtl_fabric *f = (rtl_fabric *)opaque;
	Vloom_router *t = f->r[node].get();
	const unsigned P = f->P, V = f->V, FB = f->FB;

	t->cfg_we = 0;
	if (!f->pending[node].empty()) {
		const rtl_fabric::write &w = f->pending[node].front();

		t->cfg_we = 1;
		t->cfg_blk = w.blk;
		t->cfg_addr = w.addr;
		t->cfg_wdata = w.data;
		f->pending[node].erase(f->pending[node].begin());
	}
	for (unsigned i = 0; i < P; i++) {
		const flit *in = &router_in(wires, i)->fwd;

		bits_set(t->in_valid, i, 1, in->valid);
		bits_set(t->in_head, i, 1, in->head);
		bits_set(t->in_tail, i, 1, in->tail);
		bits_set(t->in_vc, 3 * i, 3, in->vc);
		for (unsigned k = 0; k < FB; k++)
			bits_set(t->in_data, (i * FB + k) * 8, 8, in->data[k]);
	}
	for (unsigned o = 0; o < P; o++) {
		const chan_back *b = &router_out(wires, o)->back;

		bits_set(t->out_ready, o, 1, b->ready);
		for (unsigned v = 0; v < V; v++)
			bits_set(t->out_credit, (o * V + v) * 8, 8, b->credits[v]);
	}
	edge(t);
	t->cfg_we = 0;
	for (unsigned o = 0; o < P; o++) {
		flit *out = &router_out(wires, o)->fwd;

		out->valid = bits_get(t->out_valid, o, 1);
		out->head = bits_get(t->out_head, o, 1);
		out->tail = bits_get(t->out_tail, o, 1);
		out->vc = (uint8_t)bits_get(t->out_vc, 3 * o, 3);
		for (unsigned k = 0; k < FB; k++)
			out->data[k] = (uint8_t)bits_get(t->out_data, (o * FB + k) * 8, 8);
	}
	for (unsigned i = 0; i < P; i++) {
		chan_back *b = &router_in(wires, i)->back;

		for (unsigned v = 0; v < V; v++)
			b->credits[v] = (uint8_t)bits_get(t->in_credit, (i * V + v) * 8, 8);
		b->ready = true;
	}
}
