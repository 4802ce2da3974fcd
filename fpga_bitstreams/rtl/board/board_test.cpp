// SPDX-License-Identifier: GPL-2.0
//
// The board top (loom_board_hx8k) in Verilator, driven on its pins only:
// a host on the UART (the bridge's protocol, loom_uart_bridge.sv) and a
// far end on network ports 0 and 1 (the link protocol, loom_board_link.sv).
// It reads the INFO block, writes routing-table entries, sends a packet
// in through the bridge that the router delivers back to the host port,
// one that leaves on port 0's pins, and one that arrives on port 1's
// pins for the host; it checks the bridge's error answers.  TAP output;
// each failure prints what was seen and what was wanted.
//
// Built with a short bit time (-GCLKS_PER_BIT=4) by rtl/rtl.mk.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "Vloom_board_hx8k.h"
#include "verilated.h"

// packet.h names a field 'class', a C++ keyword: spelt otherwise here (same layout)
#define class class_
#define _Static_assert static_assert
extern "C" {
#include <loom_hw/packet.h>
#include <loom_hw/regs.h>
#include "rtl/rtl_regs.h"
}
#undef class

namespace {

constexpr unsigned CPB = 4;		// CLKS_PER_BIT of the build
constexpr unsigned FB = 8;		// FLIT_BYTES
constexpr unsigned LB = 2;		// LINK_BITS
constexpr unsigned PORTS = 5;		// PORTS of the build: 4 network ports and the host port
constexpr unsigned VCS = 2;
constexpr unsigned DEPTH = 2;		// BUF_DEPTH
constexpr unsigned BEATS = (8 * FB + 5 + LB - 1) / LB;
constexpr unsigned HOST = 0xf;		// LOOM_RT_PORT_HOST

struct flit {
	bool head = false, tail = false;
	unsigned vc = 0;
	uint8_t data[FB] = {};
};

struct bench {
	Vloom_board_hx8k *top;
	uint64_t now = 0;
	int tap = 0, failed = 0;

	// host -> FPGA UART
	std::deque<uint8_t> to_fpga;
	unsigned tx_bit = 0, tx_cnt = 0;	// bit 0: idle; 1 start, 2..9 data, 10 stop
	uint8_t tx_byte = 0;
	// FPGA -> host UART
	std::deque<uint8_t> from_fpga;
	bool rx_busy = false;
	unsigned rx_cnt = 0, rx_bit = 0;
	uint8_t rx_byte = 0;
	unsigned framing_errors = 0;
	// what the host made of it: answers, and the flits of 'P' messages
	std::deque<std::vector<uint8_t>> answers;
	std::vector<flit> host_flits;

	// port 0's pins: flits out of the router
	std::vector<flit> port0_out;
	unsigned p0_beats = 0;
	uint8_t p0_word[(8 * FB + 5 + 7) / 8 + 1] = {};
	unsigned p0_credit_vc = 0;
	bool p0_credit = false;
	// port 1's pins: flits into the router
	std::deque<flit> port1_in;
	unsigned p1_cred[VCS];
	unsigned p1_beat = 0;
	flit p1_cur;
	bool p1_busy = false;

	bench()
	{
		top = new Vloom_board_hx8k;
		for (unsigned v = 0; v < VCS; v++)
			p1_cred[v] = DEPTH;
		top->uart_rx = 1;
		top->clk = 0;
		top->eval();
	}
	~bench() { top->final(); delete top; }

	void drive()
	{
		// host UART transmitter
		if (tx_bit == 0 && !to_fpga.empty()) {
			tx_byte = to_fpga.front();
			to_fpga.pop_front();
			tx_bit = 1;
			tx_cnt = CPB;
		}
		top->uart_rx = tx_bit == 0 ? 1 : tx_bit == 1 ? 0 : tx_bit == 10 ? 1 :
			(tx_byte >> (tx_bit - 2)) & 1;
		if (tx_bit && --tx_cnt == 0) {
			tx_cnt = CPB;
			tx_bit = tx_bit == 10 ? 0 : tx_bit + 1;
		}
		// port 0: one credit back for each flit taken
		top->link_cr_in = p0_credit ? (uint8_t)(1u << p0_credit_vc) : 0;
		p0_credit = false;
		// port 1: the next flit, LB bits a cycle, while a credit is held
		if (!p1_busy && !port1_in.empty() && p1_cred[port1_in.front().vc]) {
			p1_cur = port1_in.front();
			port1_in.pop_front();
			p1_cred[p1_cur.vc]--;
			p1_busy = true;
			p1_beat = 0;
		}
		unsigned frame = 0, d = 0;
		if (p1_busy) {
			frame = 1;
			for (unsigned b = 0; b < LB; b++)
				d |= word_bit(p1_cur, p1_beat * LB + b) << b;
			if (++p1_beat == BEATS)
				p1_busy = false;
		}
		top->link_rx_frame = (uint8_t)(frame << 1);
		top->link_rx_d = (uint8_t)(d << LB);
	}

	static unsigned word_bit(const flit &f, unsigned i)
	{
		if (i == 0)
			return f.head;
		if (i == 1)
			return f.tail;
		if (i < 5)
			return (f.vc >> (i - 2)) & 1;
		if (i < 5 + 8 * FB)
			return (f.data[(i - 5) / 8] >> ((i - 5) % 8)) & 1;
		return 0;
	}

	void sample()
	{
		// FPGA UART transmitter, sampled in the middle of each bit
		unsigned line = top->uart_tx;
		if (!rx_busy) {
			if (!line) {
				rx_busy = true;
				rx_cnt = CPB / 2;
				rx_bit = 0;
			}
		} else if (--rx_cnt == 0) {
			rx_cnt = CPB;
			if (rx_bit == 0 && line) {
				rx_busy = false;
			} else if (rx_bit >= 1 && rx_bit <= 8) {
				rx_byte = (uint8_t)(rx_byte >> 1 | line << 7);
			} else if (rx_bit == 9) {
				rx_busy = false;
				if (line)
					from_fpga.push_back(rx_byte);
				else
					framing_errors++;
			}
			rx_bit++;
		}
		// port 0's transmitter
		if (top->link_tx_frame & 1) {
			unsigned d = top->link_tx_d & ((1u << LB) - 1);
			for (unsigned b = 0; b < LB; b++) {
				unsigned i = p0_beats * LB + b;
				if (d >> b & 1)
					p0_word[i / 8] |= (uint8_t)(1u << (i % 8));
			}
			if (++p0_beats == BEATS) {
				flit f;
				f.head = p0_word[0] & 1;
				f.tail = p0_word[0] >> 1 & 1;
				f.vc = p0_word[0] >> 2 & 7;
				for (unsigned i = 0; i < 8 * FB; i++)
					if (p0_word[(i + 5) / 8] >> ((i + 5) % 8) & 1)
						f.data[i / 8] |= (uint8_t)(1u << (i % 8));
				port0_out.push_back(f);
				p0_credit = true;
				p0_credit_vc = f.vc;
				p0_beats = 0;
				memset(p0_word, 0, sizeof(p0_word));
			}
		} else if (p0_beats) {
			printf("# port 0: a frame cut short after %u of %u beats at cycle %llu\n",
			       p0_beats, BEATS, (unsigned long long)now);
			p0_beats = 0;
			memset(p0_word, 0, sizeof(p0_word));
		}
		// port 1's credits
		for (unsigned v = 0; v < VCS; v++)
			if (top->link_cr_out >> (VCS + v) & 1)
				p1_cred[v]++;
	}

	void cycle()
	{
		drive();
		top->clk = 1;
		top->eval();
		top->clk = 0;
		top->eval();
		now++;
		sample();
		parse();
	}

	void parse()
	{
		while (!from_fpga.empty()) {
			uint8_t c = from_fpga.front();
			size_t n = c == 'P' ? 2 + FB : c == 'r' ? 5 : c == 'E' ? 2 : 1;
			if (from_fpga.size() < n)
				return;
			std::vector<uint8_t> m(from_fpga.begin(), from_fpga.begin() + (long)n);
			from_fpga.erase(from_fpga.begin(), from_fpga.begin() + (long)n);
			if (c != 'P') {
				answers.push_back(m);
				continue;
			}
			flit f;
			f.head = m[1] & 1;
			f.tail = m[1] >> 1 & 1;
			f.vc = m[1] >> 2 & 7;
			memcpy(f.data, &m[2], FB);
			host_flits.push_back(f);
		}
	}

	// run until @n flits reached the host or @limit cycles passed
	bool await_flits(size_t n, uint64_t limit)
	{
		uint64_t end = now + limit;
		while (host_flits.size() < n && now < end)
			cycle();
		return host_flits.size() >= n;
	}

	std::string hex(const std::vector<uint8_t> &v)
	{
		std::string s;
		char b[4];
		for (uint8_t x : v) {
			snprintf(b, sizeof(b), "%02x ", x);
			s += b;
		}
		return s.empty() ? "(nothing)" : s;
	}

	// send @cmd, expect the answer @want ('P' messages may come first)
	bool exchange(const std::vector<uint8_t> &cmd, const std::vector<uint8_t> &want)
	{
		to_fpga.insert(to_fpga.end(), cmd.begin(), cmd.end());
		uint64_t end = now + 64 * CPB * 10 * (cmd.size() + want.size() + 4);
		while (answers.empty() && now < end)
			cycle();
		std::vector<uint8_t> g;
		if (!answers.empty()) {
			g = answers.front();
			answers.pop_front();
		}
		if (g == want)
			return true;
		printf("# sent %s\n#   got  %s\n#   want %s\n", hex(cmd).c_str(), hex(g).c_str(),
		       hex(want).c_str());
		return false;
	}

	void result(bool ok, const std::string &what)
	{
		tap++;
		if (!ok)
			failed++;
		printf("%s %d - %s\n", ok ? "ok" : "not ok", tap, what.c_str());
		fflush(stdout);
	}

	static std::vector<uint8_t> be32(uint32_t v)
	{
		return { (uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v };
	}

	bool write(unsigned blk, unsigned addr, uint32_t data)
	{
		std::vector<uint8_t> c = { 'W', (uint8_t)blk, (uint8_t)(addr >> 8), (uint8_t)addr };
		auto d = be32(data);
		c.insert(c.end(), d.begin(), d.end());
		return exchange(c, { 'w' });
	}

	bool read(unsigned addr, uint32_t want)
	{
		auto w = be32(want);
		w.insert(w.begin(), 'r');
		return exchange({ 'R', (uint8_t)(addr >> 8), (uint8_t)addr }, w);
	}

	bool route(unsigned dst, unsigned port)
	{
		return write(RTL_BLK_ROUTER, LOOM_ROUTER_RT + 8 * dst, LOOM_RT_W0_VALID | port) &&
		       write(RTL_BLK_ROUTER, LOOM_ROUTER_RT + 8 * dst + 4, 0);
	}

	// a header-only packet to @dst: LOOM_PKT_HDR_SIZE / FB flits
	static std::vector<flit> packet(unsigned dst, unsigned vc, uint8_t seed)
	{
		std::vector<flit> p(LOOM_PKT_HDR_SIZE / FB);
		for (size_t i = 0; i < p.size(); i++) {
			p[i].vc = vc;
			p[i].head = i == 0;
			p[i].tail = i + 1 == p.size();
			for (unsigned k = 0; k < FB; k++)
				p[i].data[k] = (uint8_t)(seed + 16 * i + k);
		}
		p[0].data[0] = 1;		// type
		p[0].data[1] = 0;		// class 0
		p[0].data[2] = p[0].data[3] = 0;	// no payload
		p[0].data[4] = (uint8_t)dst;
		p[0].data[5] = (uint8_t)(dst >> 8);
		p[0].data[6] = 0;		// flags
		p[0].data[7] = 2;		// hops
		return p;
	}

	static std::vector<uint8_t> ctl_bytes(const flit &f)
	{
		std::vector<uint8_t> b = { (uint8_t)(f.head | f.tail << 1 | f.vc << 2) };
		b.insert(b.end(), f.data, f.data + FB);
		return b;
	}

	// a flit as the router passes it on, on any VC: a head forwarded to a
	// network port counts one hop more, the host port gets it as it came
	static bool same_forwarded(const flit &got, const flit &sent, bool hop)
	{
		flit w = sent;
		if (hop && w.head)
			w.data[7]++;
		return got.head == w.head && got.tail == w.tail && !memcmp(got.data, w.data, FB);
	}

	static std::string show(const flit &f)
	{
		char b[128];
		int n = snprintf(b, sizeof(b), "head %d tail %d vc %u data", f.head, f.tail, f.vc);
		for (unsigned k = 0; k < FB; k++)
			n += snprintf(b + n, sizeof(b) - n, " %02x", f.data[k]);
		return b;
	}
};

} // namespace

int main(int argc, char **argv)
{
	Verilated::commandArgs(argc, argv);
	bench t;
	printf("1..8\n");
	for (int i = 0; i < 300; i++)	// the power-on reset
		t.cycle();

	// 1: the INFO block through the bridge
	t.result(t.read(RTL_INFO_MAGIC, RTL_INFO_MAGIC_VALUE) && t.read(0, PORTS),
		 "'R' reads the INFO block: the magic word and PORTS");

	// 2: register writes: routes to the host port, port 0
	t.result(t.route(3, HOST) && t.route(4, 0),
		 "'W' writes routing-table words, answered 'w'");

	// 3: a packet in through the bridge, back out through the bridge
	{
		auto p = bench::packet(3, 0, 0x40);
		bool ok = true;
		for (auto &f : p) {
			auto c = bench::ctl_bytes(f);
			c.insert(c.begin(), 'F');
			ok = t.exchange(c, { 'f' }) && ok;
		}
		if (!t.await_flits(p.size(), 200000)) {
			printf("# %zu flits reached the host, want %zu\n", t.host_flits.size(), p.size());
			ok = false;
		}
		for (size_t i = 0; ok && i < p.size(); i++)
			if (!bench::same_forwarded(t.host_flits[i], p[i], false)) {
				printf("# flit %zu back: %s\n#   sent: %s\n",
				       i, bench::show(t.host_flits[i]).c_str(), bench::show(p[i]).c_str());
				ok = false;
			}
		t.host_flits.clear();
		t.result(ok, "a packet injected with 'F' comes back as 'P' flits");
	}

	// 4: a packet out on port 0's pins
	{
		auto p = bench::packet(4, 1, 0x80);
		bool ok = true;
		for (auto &f : p) {
			auto c = bench::ctl_bytes(f);
			c.insert(c.begin(), 'F');
			ok = ok && t.exchange(c, { 'f' });
		}
		for (int i = 0; i < 4000 && t.port0_out.size() < p.size(); i++)
			t.cycle();
		if (t.port0_out.size() != p.size()) {
			printf("# %zu flits on port 0's pins, want %zu\n", t.port0_out.size(), p.size());
			ok = false;
		}
		for (size_t i = 0; ok && i < p.size(); i++)
			if (!bench::same_forwarded(t.port0_out[i], p[i], true)) {
				printf("# flit %zu on port 0: %s\n#   sent: %s\n", i,
				       bench::show(t.port0_out[i]).c_str(), bench::show(p[i]).c_str());
				ok = false;
			}
		t.result(ok, "a packet routed to port 0 leaves on its pins, LINK_BITS a cycle, its hop counted");
	}

	// 5: a packet into port 1's pins, out through the bridge
	{
		auto p = bench::packet(3, 1, 0xc0);
		t.port1_in.insert(t.port1_in.end(), p.begin(), p.end());
		bool ok = t.await_flits(p.size(), 200000);
		if (!ok)
			printf("# %zu flits reached the host, want %zu\n", t.host_flits.size(), p.size());
		for (size_t i = 0; ok && i < p.size(); i++)
			if (!bench::same_forwarded(t.host_flits[i], p[i], false)) {
				printf("# flit %zu at the host: %s\n#   sent on port 1: %s\n", i,
				       bench::show(t.host_flits[i]).c_str(), bench::show(p[i]).c_str());
				ok = false;
			}
		t.host_flits.clear();
		for (int i = 0; i < 200; i++)
			t.cycle();
		bool cred = t.p1_cred[0] == DEPTH && t.p1_cred[1] == DEPTH;
		if (!cred)
			printf("# port 1 credits after the packet: VC0 %u VC1 %u, want %u each\n",
			       t.p1_cred[0], t.p1_cred[1], DEPTH);
		t.result(ok && cred, "a packet into port 1's pins reaches the host as 'P' flits, "
			 "every credit returned on cr_out");
	}

	// 6-8: bad input answered with 'E' and a code
	t.result(t.exchange({ 'Z' }, { 'E', 1 }), "an unknown command: 'E' 1");
	{
		flit f;
		f.vc = 5;
		auto c = bench::ctl_bytes(f);
		c.insert(c.begin(), 'F');
		t.result(t.exchange(c, { 'E', 2 }), "a flit on VC 5 of 2: 'E' 2, and no flit");
	}
	bool stray = !t.host_flits.empty() || !t.answers.empty();
	if (stray || t.framing_errors)
		printf("# %zu stray flits, %zu stray answers, %u framing errors\n",
		       t.host_flits.size(), t.answers.size(), t.framing_errors);
	t.result(!stray && t.framing_errors == 0 && t.read(RTL_INFO_MAGIC, RTL_INFO_MAGIC_VALUE),
		 "nothing stray; after the errors the bridge still answers");
	return t.failed ? 1 : 0;
}
