// SPDX-License-Identifier: GPL-2.0
/*
 * Router-top equivalence harness: the Verilated loom_router and the C
 * model's router (router/router.h, one router_cycle() per clock edge) get
 * the same stimuli every cycle - flits on every input port and VC (whole
 * packets, now and then a malformed one), credits and ready from a
 * downstream model on every output, and configuration writes (routing
 * table, with Valiant, UGAL, DimWAR and OmniWAR entries where the build
 * has them, PORT_CFG, START_VC1, port up/down, fault masks, forward-progress
 * timeout, clear-dead, arbiter weights, and with CREDIT_BITS below 16
 * downstream depths up to twice what the credit counts hold) - and after
 * every edge every output
 * flit, returned credit, drop event, dead flag, port event, counter and
 * input VC state is compared.  At the first difference the run stops,
 * prints the cycle, unit, port, VC, signal and both values, and replays the
 * seed with tracing on to write a VCD of the cycles before it.
 *
 * The configuration is the one the Verilated model was built with: the
 * harness reads the parameters back from the RTL's INFO block and builds
 * the C router from them, so one source (the build's -G flags) sets both.
 *
 *   equiv_router [--seed N] [--cycles N] [--vcd PATH] [--regress FILE] [--mutate NAME]
 *
 * --mutate NAME runs a mutant build (CONFIG-mutate, whose mutations are
 * switched at run time: loom_mutation.vh) with the mutation NAME alone on,
 * or with none on (NAME none); its variant is then CONFIG-mutate-NAME.
 * --regress FILE replays every "CONFIG SEED CYCLES" line of FILE whose
 * CONFIG is this build's configuration first.
 * Exit status: 0 equal, 1 a difference, 2 usage or a configuration the C
 * model refuses.  Documented in Documentation/hw/rtl.rst.
 */
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Vloom_router.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#else
class VerilatedVcdC	// a build without --trace (the netlist's) writes no VCD
{
public:
	void dump(uint64_t) {}
	void close() {}
};
#endif

#include "equiv_common.h"

// route.h names a field 'class', a C++ keyword: spelt otherwise here (same layout)
#define class class_
#define _Static_assert static_assert
extern "C" {
#include "router/params.h"
#include "router/route.h"
#include "router/router.h"
#include "rtl/rtl_regs.h"
}
#undef class
#undef _Static_assert

#ifndef LOOM_RTL_BUILD
#define LOOM_RTL_BUILD "unknown"
#endif
#ifndef LOOM_RTL_VARIANT
#define LOOM_RTL_VARIANT "rtl"
#endif
// the mutations a mutant build holds, switched at run time: "NAME,NAME..."
#ifndef LOOM_RTL_MUTATIONS
#define LOOM_RTL_MUTATIONS ""
#endif

namespace {

// --mutate's plusarg for the RTL ("+loom_mutate=NAME"), empty without it
std::string mutate_plusarg;
// the build's variant, and with --mutate NAME that variant's NAME
std::string variant = LOOM_RTL_VARIANT;

constexpr unsigned PORT_CNT = 9;	// loom_router_counters: counters per port
constexpr unsigned VC_CNT = 3;		// loom_router_counters: counters per (port, VC)
constexpr unsigned INFO_EXTRA = RTL_INFO_RT_ENTRIES / 4;

// ---- bit fields of Verilated ports (integers up to 64 bits, VlWide beyond) ----

template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
uint64_t getb(const T &v, unsigned lsb, unsigned width)
{
	uint64_t x = (uint64_t)v >> lsb;

	return width >= 64 ? x : x & ((1ull << width) - 1);
}

template <std::size_t N>
uint64_t getb(const VlWide<N> &w, unsigned lsb, unsigned width)
{
	uint64_t x = 0;

	for (unsigned i = 0; i < width; i++) {
		unsigned b = lsb + i;

		x |= (uint64_t)((w[b / 32] >> (b % 32)) & 1) << i;
	}
	return x;
}

template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
void setb(T &v, unsigned lsb, unsigned width, uint64_t x)
{
	uint64_t m = (width >= 64 ? ~0ull : (1ull << width) - 1) << lsb;

	v = (T)(((uint64_t)v & ~m) | ((x << lsb) & m));
}

template <std::size_t N>
void setb(VlWide<N> &w, unsigned lsb, unsigned width, uint64_t x)
{
	for (unsigned i = 0; i < width; i++) {
		unsigned b = lsb + i;
		uint32_t bit = 1u << (b % 32);

		w[b / 32] = (x >> i) & 1 ? (w[b / 32] | bit) : (w[b / 32] & ~bit);
	}
}

using equiv::mismatch;
using equiv::rng;

// One drop event as both sides report it.
struct drop_ev {
	unsigned reason, in_port, out_port, vc, bytes;
	std::vector<uint8_t> hdr;
	bool operator<(const drop_ev &o) const
	{
		return std::tie(in_port, out_port, vc, reason) <
		       std::tie(o.in_port, o.out_port, o.vc, o.reason);
	}
};

const char *const PORT_COUNTER[PORT_CNT] = {
	"flits_in", "flits_out", "pkts_in", "pkts_out", "malformed", "credit_errors",
	"adaptive", "deterministic", "credit_stall_cycles",
};

const char *const VC_COUNTER[VC_CNT] = { "stall_cycles", "credit_starved_cycles", "fill_max" };

// A configuration write of this cycle (the RTL's cfg port; the C call after the edge).
struct cfg_write {
	bool en = false;
	unsigned blk = 0, addr = 0;
	uint32_t data = 0;
};

// ---- one run ----

class run {
public:
	run(uint64_t seed, const char *vcd, uint64_t trace_from)
		: r(seed), rv(seed ^ 0x56414c49414e54ull), rw(seed ^ 0x48595045525857ull),
		  ru(seed ^ 0x5550524f555445ull), rm(seed ^ 0x4d554c5449434153ull), ctx(new VerilatedContext), top(new Vloom_router(ctx.get())),
		  trace_from(trace_from)
	{
		if (!mutate_plusarg.empty()) {
			const char *args[] = { "equiv_router", mutate_plusarg.c_str() };

			ctx->commandArgs(2, args);
		}
#if VM_TRACE
		if (vcd) {
			ctx->traceEverOn(true);
			tfp.reset(new VerilatedVcdC);
			top->trace(tfp.get(), 99);
			tfp->open(vcd);
		}
#else
		(void)vcd;
#endif
		top->rst = 1;
		for (int i = 0; i < 2; i++) {
			top->clk = 0;
			top->eval();
			top->clk = 1;
			top->eval();
		}
		top->rst = 0;
		top->clk = 0;
		top->eval();
	}
	~run()
	{
		if (model)
			router_free(model);
		if (tfp)
			tfp->close();
		top->final();
	}

	// The parameters of the Verilated build; false with @err if the C model refuses them.
	bool configure(std::string *err)
	{
		char msg[256];

		router_params_default(&p);
		for (unsigned i = 0; i < router_param_count; i++)
			*(uint32_t *)((char *)&p + router_param_table[i].offset) = info(i);
		rt_entries = info(INFO_EXTRA);
		svc1_bits = info(INFO_EXTRA + 1);
		wide = info(INFO_EXTRA + 2);
		valiant = info(RTL_INFO_VALIANT / 4);
		vc_counters = info(RTL_INFO_VC_COUNTERS / 4);
		war = info(RTL_INFO_WAR / 4);
		uproute = info(RTL_INFO_UPROUTE / 4);
		mcast = info(RTL_INFO_MCAST / 4);
		mc_groups = info(RTL_INFO_MC_GROUPS / 4);
		if (info(INFO_EXTRA + 3) != RTL_INFO_MAGIC_VALUE) {
			*err = "the RTL's INFO block does not read back its magic word";
			return false;
		}
		if (router_params_check(&p, msg, sizeof(msg))) {
			*err = msg;
			return false;
		}
		rt.assign(2 * rt_entries, 0);
		pcfg.assign(LOOM_MAX_PORTS, LOOM_VCT_PORT_DIM_NONE);
		svc1.assign((svc1_bits + 31) / 32, 0);
		mc.assign(2 * mc_groups, 0);
		route_view v = {};
		if (mcast) {	// a router with a group table (else it ignores LOOM_PKT_F_MCAST)
			v.mc = mc.data();
			v.mc_entries = mc_groups;
		}
		v.rt = rt.data();
		v.rt_entries = rt_entries;
		v.port_cfg = pcfg.data();
		v.start_vc1 = svc1.data();
		v.start_vc1_bits = svc1_bits;
		v.wide_ports = wide;
		model = router_new(&p, &v, msg, sizeof(msg));
		if (!model) {
			*err = msg;
			return false;
		}
		P = p.ports;
		V = p.vcs;
		FB = p.flit_bytes;
		n_net = P - p.host_ports;
		host = p.host_ports ? (int)P - 1 : -1;
		src.assign(P, source{});
		snk.assign(P, sink{});
		for (auto &s : src)
			s.cred.assign(V, p.buf_depth), s.left.assign(V, 0);
		for (auto &s : snk)
			s.held.assign(V, 0);
		weights = p.arb_sa_in == ARB_IWA || p.arb_sa_out == ARB_IWA || p.arb_out == ARB_IWA ||
			  p.arb_va_in == ARB_IWA || p.arb_va_out == ARB_IWA;
		return true;
	}

	std::string describe() const
	{
		std::string s;
		char b[128];

		for (unsigned i = 0; i < router_param_count; i++) {
			snprintf(b, sizeof(b), "%s%s=%u", s.empty() ? "" : " ", router_param_table[i].name,
				 *(const uint32_t *)((const char *)&p + router_param_table[i].offset));
			s += b;
		}
		snprintf(b, sizeof(b), " RT_ENTRIES=%u START_VC1_BITS=%u WIDE_PORTS=%u VALIANT=%u VC_COUNTERS=%u WAR=%u"
			 " UPROUTE=%u MCAST=%u MC_GROUPS=%u", rt_entries, svc1_bits, wide, valiant, vc_counters,
			 war, uproute, mcast, mc_groups);
		return s + b;
	}

	// Steps @cycles cycles; false with *m filled at the first difference.
	bool go(uint64_t cycles, mismatch *m)
	{
		for (now = 0; now < cycles; now++) {
			if (now % 1024 == 0)
				phase();
			stimulate();
			top->clk = 0;
			top->eval();
			if (tfp && now >= trace_from)
				tfp->dump(2 * now);
			router_cycle(model);
			top->clk = 1;
			top->eval();
			if (tfp && now >= trace_from)
				tfp->dump(2 * now + 1);
			// the write of this cycle reaches the C registers now, as the RTL's at the edge
			after_edge();
			if (!compare(m)) {
				m->cycle = now;
				return false;
			}
		}
		return true;
	}

	// multicast: the copies' heads that left, the copies skipped (both sides equal)
	uint64_t mc_out = 0, mc_skipped = 0;
	bool has_mcast() const
	{
		return mcast;
	}

	uint64_t flits_out() const
	{
		uint64_t n = 0;

		for (unsigned o = 0; o < P; o++)
			n += router_port_counters(model, o)->flits_out;
		return n;
	}

private:
	rng r;
	rng rv;	// the Valiant stimuli: a stream of their own, r's is that of the seeds before them
	rng rw;	// the DimWAR and OmniWAR stimuli: another
	rng ru;	// the adaptive up-route stimuli: another
	rng rm;	// the multicast stimuli (group writes, multicast heads): another
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vloom_router> top;
	std::unique_ptr<VerilatedVcdC> tfp;
	uint64_t trace_from, now = 0;
	struct router_params p = {};
	struct router *model = nullptr;
	unsigned P = 0, V = 0, FB = 0, n_net = 0, rt_entries = 0, svc1_bits = 0, wide = 0;
	int host = -1;
	bool weights = false;
	std::vector<uint32_t> rt, pcfg, svc1, mc;

	// the upstream of each input: its credits, the flits left of the packet open per VC
	struct source {
		std::vector<unsigned> cred, left;
	};
	// the downstream of each output: flits in its buffers per VC
	struct sink {
		std::vector<unsigned> held;
		bool ready = true;
	};
	std::vector<source> src;
	std::vector<sink> snk;
	cfg_write cw;
	std::vector<unsigned> up_after;	// ports whose up write lands at this edge

	// the load of this phase (per mille)
	unsigned p_inj = 500, p_drain = 500, p_ready = 1000, p_cfg = 5, p_bad = 5;
	unsigned dst_span = 0;
	unsigned p_val = 0;	// Valiant entries and phase 0 heads (per mille)
	bool valiant = true;	// the RTL's VALIANT parameter
	unsigned vc_counters = 0;	// the RTL's VC_COUNTERS parameter
	unsigned p_war = 0;	// DimWAR and OmniWAR entries (per mille)
	bool war = true;	// the RTL's WAR parameter
	unsigned p_up = 0;	// adaptive up-route entries (per mille)
	bool uproute = true;	// the RTL's UPROUTE parameter
	unsigned p_mc = 0;	// multicast heads (per mille)
	bool mcast = false;	// the RTL's MCAST parameter
	unsigned mc_groups = 0;	// and its MC_GROUPS

	void phase()
	{
		static const unsigned inj[] = { 20, 200, 500, 800, 1000 };
		static const unsigned drain[] = { 30, 300, 700, 1000 };
		static const unsigned ready[] = { 500, 900, 1000, 1000 };

		p_inj = inj[r.below(5)];
		p_drain = drain[r.below(4)];
		p_ready = ready[r.below(4)];
		p_cfg = r.permille(300) ? 30 : 3;
		p_bad = r.permille(200) ? 20 : 0;
		// destinations: mostly ones the table holds, some beyond it
		dst_span = rt_entries + (r.permille(500) ? 8 : 0);
		{
			static const unsigned val[] = { 0, 100, 300, 600 };

			// (none where the RTL has no Valiant routing: it routes them plain)
			p_val = valiant ? val[rv.below(4)] : 0;
		}
		{
			static const unsigned wars[] = { 0, 100, 300, 600 };

			// (none where the RTL has no DimWAR and OmniWAR: it routes them plain)
			p_war = war ? wars[rw.below(4)] : 0;
		}
		{
			static const unsigned ups[] = { 0, 200, 500, 900 };

			// (none where the RTL has no adaptive up-routes: it routes them plain)
			p_up = uproute ? ups[ru.below(4)] : 0;
		}
		{
			static const unsigned mcs[] = { 0, 50, 200, 500 };

			// (none where the RTL has no multicast: it routes them unicast)
			p_mc = mcast ? mcs[rm.below(4)] : 0;
		}
		if (now == 0)
			init_tables();
	}

	uint32_t info(unsigned word)
	{
		top->info_addr = word * 4;
		top->eval();
		return top->info_rdata;
	}

	// The tables start written, in RTL and model alike (the card's driver does so first).
	void init_tables()
	{
		for (unsigned i = 0; i < rt.size(); i++)
			queue_write(RTL_BLK_ROUTER, LOOM_ROUTER_RT + 4 * i, rt_word(i));
		for (unsigned i = 0; i < n_net && i < LOOM_MAX_PORTS; i++)
			queue_write(RTL_BLK_VCT, LOOM_VCT_PORT_CFG + 4 * i, pcfg_word());
		for (unsigned i = 0; i < svc1.size(); i++)
			queue_write(RTL_BLK_VCT, LOOM_VCT_START_VC1 + 4 * i, (uint32_t)r.next());
	}

	uint32_t rt_word(unsigned i)
	{
		uint32_t port = r.below(n_net + 1);

		if (i % 2) {	// W1: the adaptive ports (minimal ports of the destination)
			uint32_t mask = (uint32_t)r.next() & ((1u << std::min(n_net, 8u)) - 1);
			// Valiant's last intermediate: mostly entries of the table
			uint32_t last = rv.permille(700) ? rv.below(rt_entries) : rv.below(256);

			uint32_t w1 = (uint32_t)r.below(1 << 16) | (r.permille(600) ? mask << 24 : 0) |
				      (p_val ? last << LOOM_RT_W1_VAL_LAST_SHIFT : 0);

			return p_up && ru.permille(800) ? up_first(w1) : w1;
		}
		if (r.permille(100))
			return (uint32_t)r.next() & ~LOOM_RT_W0_VALID & ~LOOM_RT_W0_DIMWAR;
		if (port == n_net)
			port = wide ? LOOM_RT_WIDE_PORT_HOST : LOOM_RT_PORT_HOST;
		if (r.permille(20))	// a port the router does not have
			port = n_net + r.below(3);
		uint32_t w = wide ? router_entry_w0_wide(port) : router_entry_w0(port);

		if (r.permille(400))
			w |= LOOM_RT_W0_ADAPTIVE;
		// Valiant entries, some of them each phase on its dateline pair,
		// some UGAL (weighing the minimal hops left, W0 HOPS)
		if (rv.permille(p_val))
			w |= LOOM_RT_W0_VALIANT | (rv.permille(300) ? LOOM_RT_W0_VAL_DATELINES : 0) |
			     (rv.permille(400) ? LOOM_RT_W0_UGAL : 0);
		if (p_val)
			w |= rv.below(16) << LOOM_RT_W0_HOPS_SHIFT;
		if (p_war && rw.permille(p_war))
			w = war_entry(w);
		if (p_up && ru.permille(p_up))
			w |= LOOM_RT_W0_UPROUTE;
		return w | (r.below(7) << LOOM_RT_W0_INIT_DIR_SHIFT);
	}

	/*
	 * Word 1 @w1 with an up-route's first up port: mostly one of the
	 * network ports past port 0 (fewer up ports than network ports: the
	 * counts whose round robin is not the network ports'), now and then
	 * port 0 (all of them) or none beyond them (the entry routes by its W0
	 * port alone).
	 */
	uint32_t up_first(uint32_t w1)
	{
		unsigned k = ru.below(10);
		uint32_t first = k < 8 && n_net > 1 ? 1 + ru.below(n_net - 1) :
				 k < 9 ? 0 : n_net + ru.below(3);

		return (w1 & ~LOOM_RT_W1_UP_FIRST_MASK) | first << LOOM_RT_W1_UP_FIRST_SHIFT;
	}

	/*
	 * A DimWAR or OmniWAR entry from word 0 @w (sometimes both bits: OmniWAR
	 * routes it): minimal hops left mostly few, so that deroutes are
	 * allowed, and OmniWAR's distance classes mostly up to one more than
	 * the VCs carry, so that some packets run out of them.
	 */
	uint32_t war_entry(uint32_t w)
	{
		w &= ~LOOM_RT_W0_HOPS_MASK;
		w |= (rw.permille(700) ? rw.below(4) : rw.below(16)) << LOOM_RT_W0_HOPS_SHIFT;
		if (rw.permille(450))
			return w | LOOM_RT_W0_DIMWAR;
		w |= LOOM_RT_W0_OMNIWAR | (rw.permille(100) ? LOOM_RT_W0_DIMWAR : 0);
		return w | (rw.permille(850) ? rw.below(6) : rw.below(16)) << LOOM_RT_W0_CLASSES_SHIFT;
	}

	uint32_t pcfg_word()
	{
		return r.permille(200) ? LOOM_VCT_PORT_DIM_NONE :
		       r.below(3) | (r.permille(300) ? LOOM_VCT_PORT_DATELINE : 0);
	}

	std::vector<cfg_write> pending;	// writes queued for the next cycles

	void queue_write(unsigned blk, unsigned addr, uint32_t data)
	{
		cfg_write w;

		w.en = true;
		w.blk = blk;
		w.addr = addr;
		w.data = data;
		pending.push_back(w);
	}

	/*
	 * A multicast group write (word 0, now and then word 1, which the
	 * router ignores): mostly valid, copies on some network ports and the
	 * host, now and then none or a port the router does not have.
	 */
	cfg_write mc_write()
	{
		unsigned g = rm.below(mc_groups);
		cfg_write w;
		uint32_t ports = (uint32_t)rm.next() & ((1u << std::min(n_net, 16u)) - 1);

		if (rm.permille(300))	// few copies: one or two ports
			ports &= (uint32_t)rm.next() & (uint32_t)rm.next();
		if (n_net < 16 && rm.permille(30))
			ports |= 1u << (n_net + rm.below(16 - n_net));
		w.en = true;
		w.blk = RTL_BLK_CTL;
		w.addr = RTL_CTL_MCAST + LOOM_MCAST_ENTRY_SIZE * g;
		w.data = (rm.permille(850) ? LOOM_MCAST_W0_VALID : 0) |
			 (rm.permille(500) ? LOOM_MCAST_W0_HOST : 0) | ports;
		if (rm.permille(100)) {
			w.addr += 4;
			w.data = (uint32_t)rm.next();
		}
		return w;
	}

	void random_write()
	{
		unsigned k = r.below(100);

		if (k < 40) {
			unsigned i = r.below((unsigned)rt.size());

			queue_write(RTL_BLK_ROUTER, LOOM_ROUTER_RT + 4 * i, rt_word(i));
		} else if (k < 50) {
			queue_write(RTL_BLK_VCT, LOOM_VCT_PORT_CFG + 4 * r.below(LOOM_MAX_PORTS), pcfg_word());
		} else if (k < 55) {
			queue_write(RTL_BLK_VCT, LOOM_VCT_START_VC1 + 4 * r.below((unsigned)svc1.size()),
				    (uint32_t)r.next());
		} else if (k < 65) {
			queue_write(RTL_BLK_CTL, RTL_CTL_PORT_UP + 4 * r.below(P), r.permille(700));
		} else if (k < 72) {
			queue_write(RTL_BLK_CTL, RTL_CTL_PORT_DISABLE + 4 * r.below(P), r.permille(300));
		} else if (k < 77) {
			static const uint32_t t[] = { 0, 0, 64, 200, 1000 };

			queue_write(RTL_BLK_CTL, RTL_CTL_FP_TIMEOUT, t[r.below(5)]);
		} else if (k < 82) {
			queue_write(RTL_BLK_CTL, RTL_CTL_CLEAR_DEAD, 1);
		} else if (k < 87 && p.credit_bits < 16) {
			// a downstream depth, up to twice what the credit counts hold
			queue_write(RTL_BLK_CTL, RTL_CTL_OUT_DEPTH + 4 * (r.below(P) * 8 + r.below(V)),
				    1 + r.below(2u << p.credit_bits));
		} else if (weights) {
			unsigned unit = r.below(5), idx = r.below(P * V + 2);

			queue_write(RTL_BLK_CTL, RTL_CTL_ARB_WEIGHT + 4 * idx,
				    unit << RTL_ARBW_UNIT_SHIFT | r.below(66) << RTL_ARBW_REQ_SHIFT |
				    r.below(2) << RTL_ARBW_PATTERN_SHIFT | r.below(256));
		}
	}

	// What the C model's control calls do with the write of this cycle (after the edge).
	void apply_write(const cfg_write &w)
	{
		if (w.blk == RTL_BLK_CTL && w.addr >= RTL_CTL_MCAST) {
			mc[(w.addr - RTL_CTL_MCAST) / 4] = w.data;
		} else if (w.blk == RTL_BLK_ROUTER) {
			rt[(w.addr - LOOM_ROUTER_RT) / 4] = w.data;
		} else if (w.blk == RTL_BLK_VCT) {
			if (w.addr >= LOOM_VCT_START_VC1)
				svc1[(w.addr - LOOM_VCT_START_VC1) / 4] = w.data;
			else
				pcfg[(w.addr - LOOM_VCT_PORT_CFG) / 4] = w.data;
		} else if (w.addr < RTL_CTL_PORT_DISABLE) {
			unsigned port = (w.addr - RTL_CTL_PORT_UP) / 4;
			bool was = port < n_net && !router_port_up_now(port);

			router_set_port_up(model, port, w.data & 1);
			// coming up: the peer's buffers are empty after training
			if (was && (w.data & 1))
				std::fill(snk[port].held.begin(), snk[port].held.end(), 0);
		} else if (w.addr < RTL_CTL_CLEAR_DEAD) {
			router_set_port_disabled(model, (w.addr - RTL_CTL_PORT_DISABLE) / 4, w.data & 1);
		} else if (w.addr == RTL_CTL_CLEAR_DEAD) {
			router_clear_dead(model);
		} else if (w.addr == RTL_CTL_FP_TIMEOUT) {
			router_set_fp_timeout(model, w.data);
		} else if (w.addr >= RTL_CTL_OUT_DEPTH && w.addr < RTL_CTL_ARB_WEIGHT) {
			unsigned i = (w.addr - RTL_CTL_OUT_DEPTH) / 4;

			router_set_out_depth(model, i / 8, i % 8, w.data);
		} else if (w.addr >= RTL_CTL_ARB_WEIGHT) {
			router_set_arb_weight(model, (enum router_arb_unit)(w.data >> RTL_ARBW_UNIT_SHIFT),
					      (w.addr - RTL_CTL_ARB_WEIGHT) / 4,
					      (w.data & RTL_ARBW_REQ_MASK) >> RTL_ARBW_REQ_SHIFT,
					      (w.data >> RTL_ARBW_PATTERN_SHIFT) & 1,
					      w.data & RTL_ARBW_WEIGHT_MASK);
		}
	}

	// the harness's own record of the up registers
	std::vector<bool> down;
	bool router_port_up_now(unsigned port)
	{
		if (down.size() != P)
			down.assign(P, false);
		return !down[port];
	}

	// A flit for input @i this cycle, into the C wire and the RTL's inputs.
	void source_flit(unsigned i)
	{
		source &s = src[i];
		flit *f = &router_in(model, i)->fwd;
		bool bad = p_bad && r.permille(p_bad);
		unsigned vc = r.below(V);

		if (!bad && !s.cred[vc])
			return;
		memset(f, 0, sizeof(*f));
		f->valid = true;
		f->vc = (uint8_t)vc;
		for (unsigned k = 0; k < FB; k++)
			f->data[k] = (uint8_t)r.next();
		if (bad && r.permille(300)) {
			// a flit of no packet, or a head inside one: refused as malformed
			f->head = r.permille(500);
			f->tail = r.permille(500);
		} else if (s.left[vc]) {
			s.left[vc]--;
			f->tail = s.left[vc] == 0;
		} else {
			head_flit(i, vc, f, bad);
			s.left[vc] = router_packet_flits(FB, (unsigned)(f->data[2] | f->data[3] << 8)) - 1;
			if (s.left[vc] > 64)	// a length beyond the largest packet: one flit
				s.left[vc] = 0;
			f->head = true;
			f->tail = s.left[vc] == 0;
		}
		if (s.cred[vc])
			s.cred[vc]--;
	}

	void head_flit(unsigned i, unsigned vc, flit *f, bool bad)
	{
		int cls = p.vc_model ? route_class_of_vc(vc) : (int)r.below(2);
		unsigned len = r.permille(300) ? 0 : r.below(LOOM_PKT_MAX_PAYLOAD + 1);
		unsigned dst = r.below(dst_span ? dst_span : 1);
		unsigned hops = r.permille(20) ? LOOM_PKT_MAX_HOPS - r.below(2) : r.below(8);

		if (cls == LOOM_CLASS_BARRIER) {
			len = 0;
			dst = (int)i == host ? r.below(n_net + 2) : dst;
		}
		if (bad) {
			if (r.permille(500))
				cls = (int)r.below(4);
			else
				len = LOOM_PKT_MAX_PAYLOAD + 1 + r.below(100);
		}
		f->data[0] = (uint8_t)r.below(16);
		f->data[1] = (uint8_t)(cls < 0 ? LOOM_CLASS_MAINT : cls);
		f->data[2] = (uint8_t)len;
		f->data[3] = (uint8_t)(len >> 8);
		f->data[4] = (uint8_t)dst;
		f->data[5] = (uint8_t)(dst >> 8);
		f->data[6] = (uint8_t)(r.next() & (LOOM_PKT_F_ORDERED | LOOM_PKT_F_VC1 |
						   LOOM_PKT_F_ADAPTIVE));
		if (rv.permille(p_val / 2)) {
			// Valiant phase 0: the intermediate in dst_node bits 15:8
			f->data[5] = (uint8_t)rv.below(dst_span ? dst_span : 1);
			f->data[6] |= LOOM_PKT_F_VAL_PHASE;
		}
		f->data[7] = (uint8_t)hops;
		if (p_mc && rm.permille(p_mc) && !bad)
			mcast_head(f);
	}

	/*
	 * Head @f made a multicast PUT to a group (some beyond the table), most
	 * short enough for the input buffer, most of the request class (with
	 * the card's VCs the VC decides it); now and then another type.
	 */
	void mcast_head(flit *f)
	{
		unsigned g = rm.below(mc_groups + 2), room = p.buf_depth * FB;
		// a buffer smaller than the header holds no multicast packet:
		// any length is as malformed there as another
		unsigned most = room > LOOM_PKT_HDR_SIZE ? room - LOOM_PKT_HDR_SIZE : LOOM_PKT_MAX_PAYLOAD;

		f->data[6] |= LOOM_PKT_F_MCAST;
		f->data[0] = rm.permille(900) ? LOOM_PKT_PUT : (uint8_t)rm.below(16);
		if (!p.vc_model && rm.permille(900))
			f->data[1] = LOOM_CLASS_REQ;
		f->data[4] = (uint8_t)g;
		f->data[5] = (uint8_t)(g >> 8);
		if (rm.permille(900)) {
			unsigned len = rm.below(std::min(most, (unsigned)LOOM_PKT_MAX_PAYLOAD) + 1);

			f->data[2] = (uint8_t)len;
			f->data[3] = (uint8_t)(len >> 8);
		}
	}

	void stimulate()
	{
		// configuration: at most one write a cycle, queued ones first
		cw = cfg_write{};
		if (pending.empty() && now > rt.size() + 16 && r.permille(p_cfg))
			random_write();
		if (!pending.empty()) {
			cw = pending.front();
			pending.erase(pending.begin());
		}
		// a group write in a cycle the other writes leave free (their timing unchanged)
		if (!cw.en && mcast && mc_groups && rm.permille(p_mc ? 40 : 4))
			cw = mc_write();
		top->cfg_we = cw.en;
		top->cfg_blk = cw.blk;
		top->cfg_addr = cw.addr;
		top->cfg_wdata = cw.data;
		bool up_write = cw.en && cw.blk == RTL_BLK_CTL && cw.addr < RTL_CTL_PORT_DISABLE;

		for (unsigned i = 0; i < P; i++) {
			flit *f = &router_in(model, i)->fwd;

			f->valid = false;
			if (now > rt.size() + 16 && r.permille(p_inj))
				source_flit(i);
			setb(top->in_valid, i, 1, f->valid);
			setb(top->in_head, i, 1, f->head);
			setb(top->in_tail, i, 1, f->tail);
			setb(top->in_vc, 3 * i, 3, f->vc);
			for (unsigned k = 0; k < FB; k += 8) {
				uint64_t w = 0;

				for (unsigned b = 0; b < 8; b++)
					w |= (uint64_t)f->data[k + b] << (8 * b);
				setb(top->in_data, i * FB * 8 + k * 8, 64, w);
			}
		}
		for (unsigned o = 0; o < P; o++) {
			chan_back *b = &router_out(model, o)->back;
			sink &s = snk[o];
			bool coming_up = up_write && (cw.addr - RTL_CTL_PORT_UP) / 4 == o;

			s.ready = r.permille(p_ready);
			b->ready = s.ready;
			setb(top->out_ready, o, 1, s.ready);
			for (unsigned v = 0; v < V; v++) {
				unsigned c = 0;

				if (s.held[v] && !coming_up && r.permille(p_drain)) {
					c = 1 + r.below(std::min(s.held[v], 3u));
					s.held[v] -= c;
				}
				if (p_bad && r.permille(p_bad / 4))	// a credit nobody took
					c++;
				b->credits[v] = (uint8_t)c;
				setb(top->out_credit, (o * V + v) * 8, 8, c);
			}
		}
	}

	void after_edge()
	{
		for (unsigned i = 0; i < P; i++) {
			const chan *c = router_in(model, i);

			for (unsigned v = 0; v < V; v++)
				src[i].cred[v] = std::min<unsigned>(src[i].cred[v] + c->back.credits[v],
								    p.buf_depth);
		}
		for (unsigned o = 0; o < P; o++) {
			const flit *f = &router_out(model, o)->fwd;

			if (f->valid)
				snk[o].held[f->vc]++;
		}
		if (cw.en) {
			if (cw.blk == RTL_BLK_CTL && cw.addr < RTL_CTL_PORT_DISABLE) {
				unsigned port = (cw.addr - RTL_CTL_PORT_UP) / 4;

				apply_write(cw);
				if (port < n_net)
					down[port] = !(cw.data & 1);
			} else {
				apply_write(cw);
			}
		}
	}

	static bool same(mismatch *m, const std::string &unit, const std::string &sig, int port,
			 int vc, uint64_t rtl, uint64_t mod)
	{
		if (rtl == mod)
			return true;
		m->unit = unit;
		m->signal = sig;
		m->port = port;
		m->vc = vc;
		m->rtl = rtl;
		m->model = mod;
		return false;
	}

	bool cmp_outputs(mismatch *m)
	{
		for (unsigned o = 0; o < P; o++) {
			const flit *f = &router_out(model, o)->fwd;
			const std::string u = "output unit";

			if (!same(m, u, "out_valid", (int)o, -1, getb(top->out_valid, o, 1), f->valid))
				return false;
			if (!f->valid)
				continue;
			mc_out += f->head && (f->data[6] & LOOM_PKT_F_MCAST);
			if (!same(m, u, "out_vc", (int)o, f->vc, getb(top->out_vc, 3 * o, 3), f->vc) ||
			    !same(m, u, "out_head", (int)o, f->vc, getb(top->out_head, o, 1), f->head) ||
			    !same(m, u, "out_tail", (int)o, f->vc, getb(top->out_tail, o, 1), f->tail))
				return false;
			for (unsigned k = 0; k < FB; k += 8) {
				uint64_t w = 0;

				for (unsigned b = 0; b < 8; b++)
					w |= (uint64_t)f->data[k + b] << (8 * b);
				if (!same(m, u, "out_data bytes " + std::to_string(k) + ".." +
					  std::to_string(k + 7), (int)o, f->vc,
					  getb(top->out_data, o * FB * 8 + k * 8, 64), w))
					return false;
			}
		}
		for (unsigned i = 0; i < P; i++) {
			const chan *c = router_in(model, i);

			for (unsigned v = 0; v < V; v++)
				if (!same(m, "input unit", "in_credit", (int)i, (int)v,
					  getb(top->in_credit, (i * V + v) * 8, 8), c->back.credits[v]))
					return false;
		}
		return true;
	}

	bool cmp_drops(mismatch *m)
	{
		std::vector<drop_ev> rd, cd;
		struct router_drop d;
		const unsigned HB = 8 * LOOM_PKT_HDR_SIZE;

		for (unsigned p_ = 0; p_ < P; p_++) {
			if (getb(top->drop_in_valid, p_, 1)) {
				drop_ev e;

				e.reason = (unsigned)getb(top->drop_in_reason, 3 * p_, 3);
				e.in_port = p_;
				e.out_port = (unsigned)getb(top->drop_in_out_port, 8 * p_, 8);
				e.vc = (unsigned)getb(top->drop_in_vc, 3 * p_, 3);
				e.bytes = (unsigned)getb(top->drop_in_bytes, 7 * p_, 7);
				for (unsigned k = 0; k < LOOM_PKT_HDR_SIZE; k++)
					e.hdr.push_back((uint8_t)getb(top->drop_in_hdr, p_ * HB + 8 * k, 8));
				rd.push_back(e);
			}
			if (getb(top->drop_out_valid, p_, 1)) {
				drop_ev e;

				e.reason = (unsigned)getb(top->drop_out_reason, 3 * p_, 3);
				e.in_port = 0xff;
				e.out_port = p_;
				e.vc = (unsigned)getb(top->drop_out_vc, 3 * p_, 3);
				e.bytes = (unsigned)getb(top->drop_out_bytes, 7 * p_, 7);
				for (unsigned k = 0; k < LOOM_PKT_HDR_SIZE; k++)
					e.hdr.push_back((uint8_t)getb(top->drop_out_hdr, p_ * HB + 8 * k, 8));
				rd.push_back(e);
			}
			for (unsigned v = 0; v < V; v++) {
				unsigned k = p_ * V + v;

				if (!getb(top->drop_mc_valid, k, 1))
					continue;
				drop_ev e;

				e.reason = (unsigned)getb(top->drop_mc_reason, 3 * k, 3);
				e.in_port = p_;
				e.out_port = (unsigned)getb(top->drop_mc_out_port, 8 * k, 8);
				e.vc = v;
				e.bytes = (unsigned)getb(top->drop_mc_bytes, 7 * k, 7);
				for (unsigned b = 0; b < LOOM_PKT_HDR_SIZE; b++)
					e.hdr.push_back((uint8_t)getb(top->drop_mc_hdr, k * HB + 8 * b, 8));
				rd.push_back(e);
				mc_skipped++;
			}
		}
		while (router_drop_pop(model, &d)) {
			drop_ev e;

			e.reason = d.reason;
			e.in_port = d.in_port;
			e.out_port = d.out_port;
			e.vc = d.vc;
			e.bytes = d.hdr_bytes;
			e.hdr.assign(d.hdr, d.hdr + LOOM_PKT_HDR_SIZE);
			cd.push_back(e);
		}
		std::sort(rd.begin(), rd.end());
		std::sort(cd.begin(), cd.end());
		const std::string u = "drop interface";
		if (!same(m, u, "drop events this edge", -1, -1, rd.size(), cd.size())) {
			if (!rd.empty() || !cd.empty()) {
				const drop_ev &e = rd.size() > cd.size() ? rd[0] : cd[0];

				m->port = (int)(e.in_port == 0xff ? e.out_port : e.in_port);
				m->vc = (int)e.vc;
				m->signal += rd.size() > cd.size() ? " (first RTL event shown: port, vc)" :
					     " (first C event shown: port, vc)";
			}
			return false;
		}
		for (size_t k = 0; k < rd.size(); k++) {
			const drop_ev &a = rd[k], &b = cd[k];
			int port = (int)(b.in_port == 0xff ? b.out_port : b.in_port);

			if (!same(m, u, "in_port", port, (int)b.vc, a.in_port, b.in_port) ||
			    !same(m, u, "out_port", port, (int)b.vc, a.out_port, b.out_port) ||
			    !same(m, u, "vc", port, (int)b.vc, a.vc, b.vc) ||
			    !same(m, u, "reason", port, (int)b.vc, a.reason, b.reason) ||
			    !same(m, u, "hdr_bytes", port, (int)b.vc, a.bytes, b.bytes))
				return false;
			for (unsigned i = 0; i < b.bytes; i++)
				if (!same(m, u, "hdr byte " + std::to_string(i), port, (int)b.vc,
					  a.hdr[i], b.hdr[i]))
					return false;
		}
		return true;
	}

	bool cmp_state(mismatch *m)
	{
		uint64_t ev = router_take_port_events(model);

		for (unsigned o = 0; o < P; o++) {
			if (!same(m, "output unit", "port_dead", (int)o, -1, getb(top->port_dead, o, 1),
				  router_port_dead(model, o)) ||
			    !same(m, "output unit", "port_event", (int)o, -1, getb(top->port_event, o, 1),
				  (ev >> o) & 1))
				return false;
		}
		for (unsigned i = 0; i < P; i++)
			for (unsigned v = 0; v < V; v++) {
				if (!same(m, "input unit", "buffer fill", (int)i, (int)v,
					  getb(top->dbg_fill, (i * V + v) * 16, 16),
					  router_in_vc_fill(model, i, v)) ||
				    !same(m, "input unit", "VC state (0 idle 1 routing 2 VC wait 3 active 4 dropping)",
					  (int)i, (int)v, getb(top->dbg_state, (i * V + v) * 3, 3),
					  router_in_vc_state(model, i, v)))
					return false;
			}
		return true;
	}

	bool cmp_counters(mismatch *m)
	{
		const struct router_counters *c = router_counters(model);
		const std::string u = "counters";

		for (unsigned o = 0; o < P; o++) {
			const struct router_port_counters *pc = router_port_counters(model, o);
			const uint64_t want[PORT_CNT] = {
				pc->flits_in, pc->flits_out, pc->pkts_in, pc->pkts_out, pc->malformed,
				pc->credit_errors, pc->adaptive, pc->deterministic, pc->credit_stall_cycles,
			};

			for (unsigned k = 0; k < PORT_CNT; k++)
				if (!same(m, u, PORT_COUNTER[k], (int)o, -1,
					  getb(top->cnt_port, (o * PORT_CNT + k) * 64, 64), want[k]))
					return false;
		}
		for (unsigned o = 0; o < P && vc_counters; o++)
			for (unsigned v = 0; v < V; v++) {
				const struct router_vc_counters *vc = router_vc_counters(model, o, v);
				const uint64_t want[VC_CNT] = {
					vc->stall_cycles, vc->credit_starved_cycles, vc->fill_max,
				};

				for (unsigned k = 0; k < VC_CNT; k++)
					if (!same(m, u, VC_COUNTER[k], (int)o, (int)v,
						  getb(top->cnt_vc, ((o * V + v) * VC_CNT + k) * 64, 64),
						  want[k]))
						return false;
			}
		if (!same(m, u, "cycles", -1, -1, getb(top->cnt_glob, 0, 64), c->cycles))
			return false;
		for (unsigned k = 0; k < ROUTE_DROP_REASONS; k++)
			if (!same(m, u, std::string("drops[") + route_drop_name((route_drop)k) + "]", -1, -1,
				  getb(top->cnt_glob, (1 + k) * 64, 64), c->drops[k]))
				return false;
		return same(m, u, "va_conflicts", -1, -1,
			    getb(top->cnt_glob, (1 + ROUTE_DROP_REASONS) * 64, 64), c->va_conflicts) &&
		       same(m, u, "sa_conflicts", -1, -1,
			    getb(top->cnt_glob, (2 + ROUTE_DROP_REASONS) * 64, 64), c->sa_conflicts);
	}

	bool compare(mismatch *m)
	{
		return cmp_outputs(m) && cmp_drops(m) && cmp_state(m) && cmp_counters(m);
	}
};

const char *prog = "equiv_router";
// the command that replays a seed: the program, with --mutate NAME
std::string replay = prog;

// One seed: 0 equal, 1 a difference (reported, VCD written), 2 a configuration refused.
int one(uint64_t seed, uint64_t cycles, const char *vcd)
{
	mismatch m;
	bool ok;
	std::string err, config;
	uint64_t flits = 0, mc_out = 0, mc_skipped = 0;
	bool mcast = false;
	auto t0 = std::chrono::steady_clock::now();
	{
		run rn(seed, nullptr, 0);

		if (!rn.configure(&err)) {
			printf("%s: the C model refuses the RTL's configuration: %s\n", prog, err.c_str());
			return 2;
		}
		config = rn.describe();
		ok = rn.go(cycles, &m);
		flits = rn.flits_out();
		mcast = rn.has_mcast();
		mc_out = rn.mc_out;
		mc_skipped = rn.mc_skipped;
	}
	double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	printf("router %s seed %" PRIu64 " cycles %" PRIu64 " build %s model %s: ", variant.c_str(),
	       seed, ok ? cycles : m.cycle, LOOM_RTL_BUILD, LOOM_VERSION);
	if (ok) {
		printf("equal, %" PRIu64 " flits out", flits);
		if (mcast)
			printf(" (%" PRIu64 " multicast copies, %" PRIu64 " skipped)", mc_out,
			       mc_skipped);
		printf(", %.0f cycles/s\n", s > 0 ? (double)cycles / s : 0.0);
		return 0;
	}
	equiv::print_difference(m, true, config, replay.c_str(), seed, variant.c_str(),
				"regress-router.seeds");
	if (vcd && !VM_TRACE) {
		printf("  no VCD: this build (%s) is not traced; replay the seed on a traced "
		       "build of the RTL at the same configuration\n", variant.c_str());
	} else if (vcd) {
		mismatch again;
		uint64_t from = equiv::vcd_from(m.cycle);
		run rn(seed, vcd, from);

		if (rn.configure(&err))
			rn.go(m.cycle + 1, &again);
		printf("  VCD of cycles %" PRIu64 "..%" PRIu64 ": %s\n", from, m.cycle, vcd);
	}
	return 1;
}

/*
 * --mutate @name: one of the build's mutations (LOOM_RTL_MUTATIONS) or none;
 * false after a message naming what the build holds.
 */
bool set_mutation(const char *name)
{
	std::string list = std::string(",") + LOOM_RTL_MUTATIONS + ",";

	if (!*LOOM_RTL_MUTATIONS) {
		fprintf(stderr, "%s: --mutate %s: this build (%s) holds no mutations switched at "
			"run time; run a CONFIG-mutate build (make -C fpga_bitstreams "
			"rtl-equiv-router)\n", prog, name, LOOM_RTL_VARIANT);
		return false;
	}
	if (strcmp(name, "none") && (!*name || strchr(name, ',') ||
				     list.find(std::string(",") + name + ",") == std::string::npos)) {
		fprintf(stderr, "%s: --mutate '%s': this build (%s) holds the mutations %s; name "
			"one of them or none\n", prog, name, LOOM_RTL_VARIANT, LOOM_RTL_MUTATIONS);
		return false;
	}
	mutate_plusarg = std::string("+loom_mutate=") + name;
	variant = std::string(LOOM_RTL_VARIANT) + "-" + name;
	replay = std::string(prog) + " --mutate " + name;
	return true;
}

} // namespace

int main(int argc, char **argv)
{
	equiv::options o;
	int rc;

	prog = equiv::prog_name(argv[0]);
	replay = prog;
	// --mutate NAME is this harness's own; the rest is the common command line
	std::vector<char *> args{ argv[0] };

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--mutate")) {
			args.push_back(argv[i]);
			continue;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "%s: --mutate needs a value\n", prog);
			fprintf(stderr, "usage: %s [--seed N] [--cycles N] [--vcd PATH] [--regress FILE] "
				"[--mutate NAME]\n", prog);
			return 2;
		}
		if (!set_mutation(argv[++i]))
			return 2;
	}
	rc = equiv::parse_options((int)args.size(), args.data(), prog, "equiv_router.vcd", &o);
	if (rc)
		return rc;
	if (o.regress) {
		rc = equiv::replay_regress(prog, o.regress, variant.c_str(),
					   [&](uint64_t s, uint64_t c) { return one(s, c, o.vcd); });
		if (rc)
			return rc;
	}
	return one(o.seed, o.cycles, o.vcd);
}
