// SPDX-License-Identifier: GPL-2.0
/*
 * Host-port equivalence harness: the Verilated loom_host_port and the C
 * model's host port (card/hostport.c, one hostport_step() per clock edge,
 * through equiv_hostport_model.c) get the same stimuli every cycle:
 *   - packets of every class the host port carries and of every size (0 to
 *     LOOM_PKT_MAX_PAYLOAD payload bytes), written a word a cycle or with
 *     gaps, mostly while their class has room, now and then without it
 *     (the last word then held, in half of the phases, for the edge at
 *     which the full queue sends a packet's last flit), of the
 *     maintenance class or another, or with a payload too long (which
 *     both must refuse); the C model's hostport_send() is called at the
 *     edge of the last word;
 *   - the credits of the router's host input, each flit's returned after
 *     a random delay (a few cycles, tens, or long enough that every queue
 *     fills), now and then on a VC the host port does not send on;
 *   - flits from the router's host output: packets of 1 to the most flits
 *     the ejection buffer takes, interleaved over the VCs the host port
 *     sinks, under the credits it returns; now and then a flit on another
 *     VC, a head inside a packet or a body flit outside one, or flits
 *     beyond the credits, and from cycle 98,304 on an overlong packet
 *     (after which the C model's sink of its VC refuses every flit);
 * and after every edge every output is compared: the flit toward the
 * router (valid, head, tail, VC, every byte), the credits freed per VC,
 * ready, room of every class, busy, a refused packet, each delivered
 * packet (VC, flits, every byte), the counters, and each level's credits,
 * queued packets and complete packets in its ejection buffer.  The phase
 * (load, gaps, credit delays, faults) changes every 1024 cycles.  At the
 * first difference the run stops, prints the cycle, unit, signal, both
 * values and the seed, and replays the seed with tracing on to write a
 * VCD of the cycles before it.
 *
 * The configuration is the Verilated build's: HP_FLIT_BYTES, HP_BUF_DEPTH
 * and HP_DEPTH are the -G flags it was built with (rtl.mk).
 *
 *   equiv_hostport [--seed N] [--cycles N] [--vcd PATH] [--regress FILE]
 *
 * Exit status: 0 equal, 1 a difference, 2 usage.  Documented in
 * Documentation/hw/rtl.rst.
 */
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Vloom_host_port.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

#include "equiv_common.h"
#include "equiv_hostport_model.h"

#ifndef LOOM_RTL_BUILD
#define LOOM_RTL_BUILD "unknown"
#endif
#ifndef LOOM_RTL_VARIANT
#define LOOM_RTL_VARIANT "rtl"
#endif

namespace {

constexpr unsigned FB = HP_FLIT_BYTES;
constexpr unsigned BUF_DEPTH = HP_BUF_DEPTH;
constexpr unsigned DEPTH = HP_DEPTH;
// the cycle from which an overlong packet may be ejected (the last phases of 10^5 cycles)
constexpr uint64_t OVERLONG_FROM = 96 * 1024;

// ---- the bytes of a Verilated port (an integer up to 64 bits, VlWide beyond) ----

template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
uint8_t byte_of(const T &v, unsigned i)
{
	return (uint8_t)((uint64_t)v >> (8 * i));
}

template <std::size_t N>
uint8_t byte_of(const VlWide<N> &w, unsigned i)
{
	return (uint8_t)(w[i / 4] >> (8 * (i % 4)));
}

template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
void put_bytes(T &v, const uint8_t *b, unsigned n)
{
	uint64_t x = 0;

	for (unsigned i = 0; i < n; i++)
		x |= (uint64_t)b[i] << (8 * i);
	v = (T)x;
}

template <std::size_t N>
void put_bytes(VlWide<N> &w, const uint8_t *b, unsigned n)
{
	for (unsigned i = 0; i < N; i++)
		w[i] = 0;
	for (unsigned i = 0; i < n; i++)
		w[i / 4] |= (uint32_t)b[i] << (8 * (i % 4));
}

using equiv::mismatch;
using equiv::rng;

// The phase: how the producer, the router's input and its output behave.
struct phase {
	unsigned send_pct;	// a packet starts in an idle cycle
	unsigned gap_pct;	// a word of it waits a cycle
	unsigned no_room_pct;	// a packet starts although its class has no room
	bool aim;		// such a packet's last word waits for its queue's pop
	unsigned bad_pct;	// a packet of another class or too long
	unsigned len_kind;	// 0 any, 1 short, 2 long, 3 the extremes
	unsigned cred_min, cred_span;	// the router's input returns a credit after this
	unsigned eject_pct;	// the router's output sends a flit
	unsigned fault_pml;	// a malformed flit, per mille
	unsigned flood_pct;	// flits beyond the credits (when faulting)
};

class run {
public:
	run(uint64_t seed, const char *vcd, uint64_t trace_from)
		: r(seed), ctx(new VerilatedContext), top(new Vloom_host_port(ctx.get())),
		  trace_from(trace_from)
	{
		if (vcd) {
			ctx->traceEverOn(true);
			tfp.reset(new VerilatedVcdC);
			top->trace(tfp.get(), 99);
			tfp->open(vcd);
		}
		model = hpm_new(FB, BUF_DEPTH, DEPTH);
		maxf = hpm_pkt_bytes / FB;
		for (unsigned l = 0; l < HPM_LEVELS; l++)
			ej_cred[l] = DEPTH;
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
		hpm_free(model);
		if (tfp)
			tfp->close();
		top->final();
	}
	bool ok() const { return model != nullptr; }

	// Steps @cycles cycles; false with *m filled at the first difference.
	bool go(uint64_t cycles, mismatch *m)
	{
		for (now = 0; now < cycles; now++) {
			if (now % 1024 == 0)
				new_phase();
			stimulate();
			top->clk = 0;
			top->eval();
			if (tfp && now >= trace_from)
				tfp->dump(2 * now);
			hpm_step(model, &in, credits);
			if (commit)
				sent_ok = hpm_send(model, pkt.data());
			top->clk = 1;
			top->eval();
			if (tfp && now >= trace_from)
				tfp->dump(2 * now + 1);
			hpm_state(model, &st);
			if (!compare(m)) {
				m->cycle = now;
				return false;
			}
			after_edge();
		}
		return true;
	}

	uint64_t n_sent = 0, n_refused = 0, n_delivered = 0, n_malformed = 0, n_full = 0;
	uint64_t n_full_commit = 0;	// queued at the edge that freed a slot of a full queue

private:
	rng r;
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vloom_host_port> top;
	std::unique_ptr<VerilatedVcdC> tfp;
	uint64_t trace_from, now = 0;
	struct hpm *model = nullptr;
	struct hpm_state st = {};
	unsigned maxf = 0;
	phase ph = {};

	// the producer: the packet being written and its next word
	std::vector<uint8_t> pkt;
	unsigned words = 0, word = 0, level = 0, held = 0;
	bool writing = false, commit = false, sent_ok = false, full_commit = false;

	// the router's host input: credits coming back (cycle due, VC)
	std::deque<std::pair<uint64_t, unsigned>> returns;
	uint8_t credits[HPM_VCS] = {};

	// the router's host output: per level its credits and the packet it sends
	struct hpm_flit in = {};
	int ej_cred[HPM_LEVELS] = {};
	unsigned ej_left[HPM_LEVELS] = {}, ej_done[HPM_LEVELS] = {};

	void new_phase()
	{
		static const unsigned send[] = { 2, 20, 60, 100 };
		static const unsigned cred_min[] = { 1, 1, 4, 30, 3000 };
		static const unsigned cred_span[] = { 1, 8, 40, 200, 2000 };
		unsigned c = r.below(5);

		ph.send_pct = send[r.below(4)];
		ph.gap_pct = r.percent(50) ? 0 : r.below(60);
		ph.no_room_pct = r.percent(70) ? 0 : r.below(30);
		ph.aim = r.percent(50);
		ph.bad_pct = r.percent(70) ? 0 : 1 + r.below(10);
		ph.len_kind = r.below(4);
		ph.cred_min = cred_min[c];
		ph.cred_span = cred_span[c];
		ph.eject_pct = r.percent(20) ? 100 : r.below(101);
		ph.fault_pml = r.percent(60) ? 0 : 1 + r.below(40);
		ph.flood_pct = r.percent(50) ? 0 : r.below(30);
	}

	unsigned draw_len()
	{
		switch (ph.len_kind) {
		case 1:
			return r.below(33);
		case 2:
			return hpm_payload_max - r.below(64);
		case 3:
			return r.percent(50) ? 0 : hpm_payload_max;
		}
		return r.below(hpm_payload_max + 1);
	}

	// A new packet: its class, length, header and payload bytes.
	void new_packet()
	{
		unsigned l = r.below(HPM_LEVELS), len = draw_len();
		uint8_t cls = hpm_level_class[l];

		if (!r.percent(ph.no_room_pct) && !((top->room >> cls) & 1))
			return;
		level = l;
		held = 0;
		if (r.percent(ph.bad_pct)) {
			switch (r.below(3)) {
			case 0:
				cls = hpm_class_maint;
				break;
			case 1:
				cls = (uint8_t)(4 + r.below(252));
				break;
			default:
				len = hpm_payload_max + 1 + r.below(8);
			}
		}
		// the payload: len bytes (the words' bytes past them are garbage)
		words = (hpm_hdr_size + (len > hpm_payload_max ? hpm_payload_max : len) + FB - 1) / FB;
		pkt.assign((size_t)words * FB + hpm_payload_max + 16, 0);
		for (auto &b : pkt)
			b = (uint8_t)r.next();
		pkt[1] = cls;
		pkt[2] = (uint8_t)len;
		pkt[3] = (uint8_t)(len >> 8);
		word = 0;
		writing = true;
	}

	void drive_producer()
	{
		commit = false;
		top->pkt_valid = 0;
		top->pkt_last = 0;
		if (!writing && r.percent(ph.send_pct))
			new_packet();
		if (!writing || r.percent(ph.gap_pct))
			return;
		// a packet written without room: its commit aimed at the edge
		// that frees a slot (for a while; then it is refused)
		if (ph.aim && word + 1 == words && !((top->room >> hpm_level_class[level]) & 1) &&
		    !st.pop_next[level] && ++held < 2000)
			return;
		top->pkt_valid = 1;
		top->pkt_last = word + 1 == words;
		put_bytes(top->pkt_data, &pkt[(size_t)word * FB], FB);
		commit = top->pkt_last;
		full_commit = commit && !((top->room >> hpm_level_class[level]) & 1);
	}

	void drive_credits()
	{
		memset(credits, 0, sizeof(credits));
		for (auto &e : returns)
			if (e.first <= now && credits[e.second] < 255)
				credits[e.second]++;
		for (auto it = returns.begin(); it != returns.end();) {
			if (it->first <= now) {
				it = returns.erase(it);
			} else {
				++it;
			}
		}
		// now and then a credit on a VC the host port does not send on
		if (r.permille(ph.fault_pml)) {
			unsigned v = r.below(HPM_VCS);
			bool used = false;

			for (unsigned l = 0; l < HPM_LEVELS; l++)
				used |= hpm_level_vc[l] == v;
			if (!used)
				credits[v]++;
		}
		uint64_t w = 0;
		for (unsigned v = 0; v < HPM_VCS; v++)
			w |= (uint64_t)credits[v] << (8 * v);
		top->out_credit = w;
	}

	// The router's host output: a flit of one of the levels' packets, or a malformed one.
	void drive_eject()
	{
		uint8_t data[HPM_FLIT_MAX];

		in = {};
		for (unsigned i = 0; i < FB; i++)
			data[i] = (uint8_t)r.next();
		if (r.permille(ph.fault_pml)) {
			in.valid = true;
			in.head = r.percent(50);
			in.tail = r.percent(50);
			in.vc = (uint8_t)r.below(HPM_VCS);
			n_malformed++;
		} else if (r.percent(ph.eject_pct)) {
			unsigned l = r.below(HPM_LEVELS);
			bool flood = ph.fault_pml && r.percent(ph.flood_pct);

			if (ej_cred[l] <= 0 && !flood)
				goto drive;
			if (!ej_left[l]) {
				// at most the flits of the largest packet: with a
				// malformed flit before it, a packet still fits
				unsigned most = (hpm_hdr_size + hpm_payload_max + FB - 1) / FB;

				most = most < DEPTH ? most : DEPTH;
				// mostly at least a header's flits
				unsigned lo = (hpm_hdr_size + FB - 1) / FB;

				lo = lo < most ? lo : most;
				unsigned n = r.percent(70) ? lo + r.below(most - lo + 1) : 1 + r.below(most);

				// late in a run now and then a packet longer than the
				// ejection buffer takes: its VC's sink refuses every
				// flit from then on, in both
				if (now >= OVERLONG_FROM && r.permille(2))
					n = maxf + 1 + r.below(4);

				ej_left[l] = n;
				ej_done[l] = 0;
			}
			in.valid = true;
			in.vc = hpm_level_vc[l];
			in.head = ej_done[l] == 0;
			in.tail = ej_left[l] == 1;
			ej_done[l]++;
			ej_left[l]--;
			ej_cred[l]--;
		}
drive:
		memcpy(in.data, data, sizeof(in.data));
		top->in_valid = in.valid;
		top->in_head = in.head;
		top->in_tail = in.tail;
		top->in_vc = in.vc;
		put_bytes(top->in_data, data, FB);
	}

	void stimulate()
	{
		drive_producer();
		drive_credits();
		drive_eject();
	}

	void after_edge()
	{
		if (top->pkt_valid) {
			if (commit) {
				writing = false;
				n_sent += sent_ok;
				n_refused += !sent_ok;
				n_full_commit += full_commit && sent_ok;
			} else {
				word++;
			}
		}
		// the flit sent takes a buffer of the router's input, freed later
		if (st.out.valid)
			returns.emplace_back(now + ph.cred_min + r.below(ph.cred_span), st.out.vc);
		for (unsigned l = 0; l < HPM_LEVELS; l++)
			ej_cred[l] += st.back_credits[hpm_level_vc[l]];
		n_delivered += st.dlv;
		for (unsigned l = 0; l < HPM_LEVELS; l++)
			n_full += st.queued[l] == 0 ? 0 : !st.room[hpm_level_class[l]];
	}

	bool same(mismatch *m, const char *unit, const std::string &signal, uint64_t rtl,
		  uint64_t c)
	{
		if (rtl == c)
			return true;
		m->unit = unit;
		m->signal = signal;
		m->rtl = rtl;
		m->model = c;
		return false;
	}

	bool cmp_source(mismatch *m)
	{
		const char *u = "source (host port -> router)";

		if (!same(m, u, "out_valid", top->out_valid, st.out.valid))
			return false;
		if (st.out.valid) {
			if (!same(m, u, "out_head", top->out_head, st.out.head) ||
			    !same(m, u, "out_tail", top->out_tail, st.out.tail) ||
			    !same(m, u, "out_vc", top->out_vc, st.out.vc))
				return false;
			for (unsigned i = 0; i < FB; i++)
				if (!same(m, u, "out_data byte " + std::to_string(i),
					  byte_of(top->out_data, i), st.out.data[i]))
					return false;
		}
		for (unsigned l = 0; l < HPM_LEVELS; l++) {
			const std::string lv = " of level " + std::to_string(l);

			if (!same(m, u, "credits" + lv, top->dbg_credits[l], st.credits[l]) ||
			    !same(m, u, "packets queued" + lv, (top->dbg_queued >> (16 * l)) & 0xffff,
				  st.queued[l]))
				return false;
		}
		for (unsigned c = 0; c < 4; c++)
			if (!same(m, u, "room of class " + std::to_string(c), (top->room >> c) & 1,
				  st.room[c]))
				return false;
		if (!same(m, u, "pkt_refused", top->pkt_refused, commit && !sent_ok))
			return false;
		return same(m, u, "injected", top->injected, st.injected);
	}

	bool cmp_sink(mismatch *m)
	{
		const char *u = "sink (router -> host port)";

		for (unsigned v = 0; v < HPM_VCS; v++)
			if (!same(m, u, "in_credit of VC " + std::to_string(v),
				  (top->in_credit >> (8 * v)) & 0xff, st.back_credits[v]))
				return false;
		if (!same(m, u, "in_ready", top->in_ready, st.ready))
			return false;
		for (unsigned l = 0; l < HPM_LEVELS; l++)
			if (!same(m, u, "complete packets of level " + std::to_string(l),
				  (top->dbg_done >> (16 * l)) & 0xffff, st.done[l]))
				return false;
		if (!same(m, u, "malformed", top->malformed, st.malformed) ||
		    !same(m, u, "delivered", top->delivered, st.delivered) ||
		    !same(m, u, "dlv_valid", top->dlv_valid, st.dlv))
			return false;
		if (!st.dlv)
			return true;
		if (!same(m, u, "dlv_vc", top->dlv_vc, st.dlv_vc) ||
		    !same(m, u, "dlv_flits", top->dlv_flits, st.dlv_flits))
			return false;
		for (unsigned i = 0; i < st.dlv_flits * FB; i++)
			if (!same(m, u, "dlv_data byte " + std::to_string(i), byte_of(top->dlv_data, i),
				  st.dlv_bytes[i]))
				return false;
		return true;
	}

	bool compare(mismatch *m)
	{
		return cmp_source(m) && cmp_sink(m) &&
		       same(m, "host port", "busy", top->busy, st.busy);
	}
};

const char *prog = "equiv_hostport";

std::string describe()
{
	char b[128];

	snprintf(b, sizeof(b), "FLIT_BYTES=%u BUF_DEPTH=%u DEPTH=%u", FB, BUF_DEPTH, DEPTH);
	return b;
}

// One seed: 0 equal, 1 a difference (reported, VCD written).
int one(uint64_t seed, uint64_t cycles, const char *vcd)
{
	mismatch m;
	bool ok;
	uint64_t sent, refused, delivered, malformed, full, full_commit;
	auto t0 = std::chrono::steady_clock::now();
	{
		run rn(seed, nullptr, 0);

		if (!rn.ok()) {
			fprintf(stderr, "%s: no memory for the C host port\n", prog);
			return 2;
		}
		ok = rn.go(cycles, &m);
		sent = rn.n_sent;
		refused = rn.n_refused;
		delivered = rn.n_delivered;
		malformed = rn.n_malformed;
		full = rn.n_full;
		full_commit = rn.n_full_commit;
	}
	double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	printf("hostport %s seed %" PRIu64 " cycles %" PRIu64 " build %s model %s: ",
	       LOOM_RTL_VARIANT, seed, ok ? cycles : m.cycle, LOOM_RTL_BUILD, LOOM_VERSION);
	if (ok) {
		printf("equal, %.0f cycles/s, %" PRIu64 " packets queued (%" PRIu64
		       " as their full queue sent one), %" PRIu64 " refused, %" PRIu64
		       " delivered, %" PRIu64 " malformed flits offered, %" PRIu64
		       " level-cycles full\n",
		       s > 0 ? (double)cycles / s : 0.0, sent, full_commit, refused, delivered,
		       malformed, full);
		return 0;
	}
	m.unit = "loom_host_port " + m.unit;
	equiv::print_difference(m, false, describe(), prog, seed, "hostport",
				"regress-hostport.seeds");
	if (vcd) {
		mismatch again;
		uint64_t from = equiv::vcd_from(m.cycle);
		run rn(seed, vcd, from);

		rn.go(m.cycle + 1, &again);
		printf("  VCD of cycles %" PRIu64 "..%" PRIu64 ": %s\n", from, m.cycle, vcd);
	}
	return 1;
}

} // namespace

int main(int argc, char **argv)
{
	equiv::options o;
	int rc;

	prog = equiv::prog_name(argv[0]);
	rc = equiv::parse_options(argc, argv, prog, "equiv_hostport.vcd", &o);
	if (rc)
		return rc;
	if (o.regress) {
		rc = equiv::replay_regress(prog, o.regress, "hostport",
					   [&](uint64_t s, uint64_t c) { return one(s, c, o.vcd); });
		if (rc)
			return rc;
	}
	return one(o.seed, o.cycles, o.vcd);
}
