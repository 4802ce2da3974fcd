// SPDX-License-Identifier: GPL-2.0
/*
 * Unit-level equivalence harness: the Verilated units of loom_equiv_units
 * (flit FIFOs, credit counters, arbiters of every policy, the link's
 * CRC-32C at 1, 6 and 16 bytes a cycle, its go-back-N sender and
 * receiver, its credit return, its lane training and degradation, its
 * frame encoder and serialiser, its transmitter's packet assembly, frame
 * builder and replay buffer, its receiver's frame checker and delivery
 * queue) and the C model's units (router/fifo.h,
 * credit.h, arbiter.[ch], link/crc32c.c, link/gbn.c, link/link_credit.c,
 * link/lanes.c, and for the serialisers, the packet assemblers and the
 * frame builders whole link units, link/link_xmit.c, and for the frame
 * checkers and delivery queues link/link_recv.c, under traffic:
 * equiv_xser.h, equiv_xasm.h, equiv_xbld.h, equiv_rcv.h, equiv_rdlv.h) get the same random stimuli every cycle (the
 * lanes' errors from bit errors that link/fault.c injects into frames
 * striped over the lanes, and from failing lanes); every output is
 * compared in every cycle, the serialisers' lanes byte for byte with the
 * bytes the C transmitter's frames put there.
 * At the first difference the run stops and prints the cycle, the unit,
 * the signal and both values, then replays the seed with tracing on and
 * writes a VCD of the cycles before the difference.  Before the run, the
 * drift check compares every generated constant the RTL sees with the C
 * tables this harness is compiled with.
 *
 *   equiv_units [--seed N] [--cycles N] [--vcd PATH] [--regress FILE] [--units NAME]
 *
 * --regress FILE replays every "units SEED CYCLES" line of FILE first.
 * --units NAME compares only the units whose name holds NAME (the mutant
 * build, whose units are all mutated, is checked one unit at a time).
 * Exit status: 0 equal, 1 a difference (or drift), 2 usage.
 * Documented in Documentation/hw/rtl.rst.
 */
#include <chrono>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "Vloom_equiv_units.h"
#include "verilated.h"
#include "verilated_vcd_c.h"

#include "equiv_common.h"

extern "C" {
#include "link/crc32c.h"
#include "link/fault.h"
#include "link/gbn.h"
#include "link/lanes.h"
#include "link/link_credit.h"
#include "router/arbiter.h"
#include "router/credit.h"
#include "router/fifo.h"
#include "router/params.h"
#include "rtl/gen/rtl_consts.h"
}
#include "equiv_rcv.h"
#include "equiv_rdlv.h"
#include "equiv_rxf.h"
#include "equiv_xasm.h"
#include "equiv_xbld.h"
#include "equiv_xser.h"

#ifndef LOOM_RTL_BUILD
#define LOOM_RTL_BUILD "unknown"
#endif
#ifndef LOOM_RTL_VARIANT
#define LOOM_RTL_VARIANT "rtl"
#endif

namespace {

// The parameters of loom_equiv_units (its defaults: the harness builds it unchanged).
constexpr unsigned FA_DEPTH = 4, FA_HIST = 3, FB_DEPTH = 5, FB_HIST = 1;
constexpr unsigned CA_DEPTH = 5, CA_RET_LAT = 1, CB_DEPTH = 10, CB_RET_LAT = 3;
constexpr unsigned RR_N = 5, RRW_N = 64, MX_N = 7, T3_N = 6, IW_N = 9, IW_M = 5;
// the CRC units' LANES and LANE_BYTES
constexpr unsigned CRC_N = 3;
constexpr unsigned CRC_LANES[CRC_N] = { 1, 2, 4 }, CRC_LANE_BYTES[CRC_N] = { 1, 3, 4 };

const char *const CONFIG =
	"fifo A depth 4 hist 3, fifo B depth 5 hist 1, credit A depth 5 ret 1, "
	"credit B depth 10 ret 3 (RTL and iCE40 netlist), arb RR 5, RR 64, MATRIX 7, T3E 6, IWA 9 M 5, "
	"crc32c lanes x lane bytes 1x1, 2x3, 4x4, gbn_tx window 5 timeout 7 first 0, "
	"gbn_tx window 64 timeout 40 first 0xfffffff0, gbn_rx first 0, gbn_rx first 0xfffffff8, "
	"link_credit vcs 3 depth 30 flit 64, link_credit vcs 8 depth 152 flit 16, "
	"lanes 4 threshold 3 window 50, lanes 4 threshold 16 window 4096, "
	"lanes 2 threshold 0 window 1, "
	"link_xmit_serialise lanes x lane bytes 4x4 flit 16 lane threshold 4 (the card's), "
	"4x16 flit 64 lane threshold 0 under a high bit error rate, "
	"link_rx_framer RX_WINDOW 328 RX_FRAMES 1 at 4x16 buffer 1024, "
	"RX_WINDOW 1024 RX_FRAMES 4 at 4x4 buffer 2048, "
	"link_xmit_assemble VCS 3 FLIT_BYTES 16 TX_QUEUE 3, VCS 8 FLIT_BYTES 64 TX_QUEUE 1, "
	"link_xmit_build and link_xmit_replay at 4x4 VCS 8 REPLAY_FRAMES 64 ACK_TIMEOUT 240 "
	"COALESCE_DELAY 32 (the card's link), 2x12 VCS 3 REPLAY_FRAMES 4 ACK_TIMEOUT 80 "
	"COALESCE_DELAY 0, link_recv_deliver at 4x4 FLIT_BYTES 16 RX_QUEUE 4 RX_FRAMES 64 (the "
	"card's link), 4x16 FLIT_BYTES 64 RX_QUEUE 3 RX_FRAMES 2, link_recv at 4x4 VCS 8 "
	"FLIT_BYTES 16 BUF_DEPTH 152 (the card's link), 2x12 VCS 3 FLIT_BYTES 8 BUF_DEPTH 38, "
	"RX_FRAMES 1";
// the go-back-N units' parameters
constexpr unsigned GA_WINDOW = 5, GA_TIMEOUT = 7, GB_WINDOW = 64, GB_TIMEOUT = 40;
constexpr uint32_t GA_FIRST = 0, GB_FIRST = 0xfffffff0u, RA_FIRST = 0, RB_FIRST = 0xfffffff8u;
// the credit units' VCS, BUF_DEPTH, FLIT_BYTES
constexpr unsigned LC_VCS = 3, LC_DEPTH = 30, LC_FLIT = 64, LD_VCS = 8, LD_DEPTH = 152, LD_FLIT = 16;
// the lane units' LANES, LANE_THRESHOLD, LANE_WINDOW; the lane width the stimuli stripe frames with
constexpr unsigned LN_N = 3;
constexpr unsigned LN_LANES[LN_N] = { 4, 4, 2 }, LN_THRESHOLD[LN_N] = { 3, 16, 0 };
constexpr unsigned LN_WINDOW[LN_N] = { 50, 4096, 1 }, LN_LANE_BYTES = 4;
// the serialisers' LANES, LANE_BYTES, the frames they may start a cycle, and their links'
// FLIT_BYTES and LANE_THRESHOLD (the card's link narrows at 4 errors of a lane, so its
// lanes change in a run; the 64-byte one never narrows and sees bit error rates from none
// to many NAKs at the full rate, so often several frames a cycle)
constexpr unsigned XS_N = 2;
constexpr unsigned XS_LANES[XS_N] = { 4, 4 }, XS_LANE_BYTES[XS_N] = { 4, 16 };
constexpr unsigned XS_SLOTS[XS_N] = { 1, 3 }, XS_FLIT_BYTES[XS_N] = { 16, 64 };
constexpr unsigned XS_THRESHOLD[XS_N] = { 4, 0 };
// the receivers' framers: RX_WINDOW, RX_FRAMES, LANES, LANE_BYTES and buffer bytes
// (loom_equiv_units's RFA_ and RFB_ parameters)
constexpr unsigned RF_N = 2;
constexpr unsigned RF_WINDOW[RF_N] = { 328, 1024 }, RF_FRAMES[RF_N] = { 1, 4 };
constexpr unsigned RF_LANES[RF_N] = { 4, 4 }, RF_LANE_BYTES[RF_N] = { 16, 4 };
constexpr unsigned RF_BUF[RF_N] = { 1024, 2048 };
// the packet assemblers' VCS, FLIT_BYTES, TX_QUEUE (loom_equiv_units's XMA_ and XMB_)
constexpr unsigned XM_N = 2;
constexpr unsigned XM_VCS[XM_N] = { 3, 8 }, XM_FLIT_BYTES[XM_N] = { 16, 64 };
constexpr unsigned XM_TX_QUEUE[XM_N] = { 3, 1 };
// the frame builders' links (loom_equiv_units's XBA_ and XBB_): LANES, LANE_BYTES, VCS,
// FLIT_BYTES, REPLAY_FRAMES, ACK_TIMEOUT, COALESCE_DELAY, LANE_THRESHOLD
constexpr unsigned XB_N = 2;
constexpr unsigned XB_LANES[XB_N] = { 4, 2 }, XB_LANE_BYTES[XB_N] = { 4, 12 };
constexpr unsigned XB_VCS[XB_N] = { 8, 3 }, XB_FLIT_BYTES[XB_N] = { 16, 8 };
constexpr unsigned XB_REPLAY[XB_N] = { 64, 4 }, XB_TIMEOUT[XB_N] = { 240, 80 };
constexpr unsigned XB_DELAY[XB_N] = { 32, 0 }, XB_THRESHOLD[XB_N] = { 4, 2 };
// the delivery queues' links (loom_equiv_units's RDA_ and RDB_): LANES, LANE_BYTES,
// FLIT_BYTES, RX_QUEUE, RX_FRAMES, and the frames they accept a cycle at most
constexpr unsigned RD_N = 2;
constexpr unsigned RD_LANES[RD_N] = { 4, 4 }, RD_LANE_BYTES[RD_N] = { 4, 16 };
constexpr unsigned RD_FLIT_BYTES[RD_N] = { 16, 64 }, RD_QUEUE[RD_N] = { 4, 3 };
constexpr unsigned RD_FRAMES[RD_N] = { 64, 2 }, RD_ACC[RD_N] = { 4, 2 };
// the frame checkers' links (loom_equiv_units's RCA_ and RCB_): LANES, LANE_BYTES, VCS,
// FLIT_BYTES, BUF_DEPTH, REPLAY_FRAMES, LANE_THRESHOLD
constexpr unsigned RC_N = 2;
constexpr unsigned RC_LANES[RC_N] = { 4, 2 }, RC_LANE_BYTES[RC_N] = { 4, 12 };
constexpr unsigned RC_VCS[RC_N] = { 8, 3 }, RC_FLIT_BYTES[RC_N] = { 16, 8 };
constexpr unsigned RC_DEPTH[RC_N] = { 152, 38 }, RC_REPLAY[RC_N] = { 64, 4 };
constexpr unsigned RC_THRESHOLD[RC_N] = { 4, 2 };
// cycles ahead the expected lane bytes reach: a longest frame at one lane of one byte
constexpr unsigned XS_AHEAD = 512, XS_STARTED = 16;

using equiv::mismatch;
using equiv::rng;

// --units: the units compared (their names hold it), or all
const char *only_units;

// ---- the C side of each unit ----

struct fifo_model {
	unsigned cap, bytes, hist;
	// the model's representation: flits in pool slots, the FIFO a ring of slot numbers
	std::vector<fifo_meta> meta;
	std::vector<uint8_t> data;
	std::vector<uint32_t> free_slots, ring;
	flit_pool pool;
	flit_fifo q;
	fifo_model(unsigned c, unsigned b, unsigned h) : cap(c), bytes(b), hist(h), meta(c), data(c * b),
		free_slots(c), ring(fifo_ring_size(c))
	{
		pool.meta = meta.data();
		pool.data = data.data();
		pool.free = free_slots.data();
		pool.n_free = 0;
		pool.flit_bytes = b;
		for (unsigned s = c; s--;)
			pool_put(&pool, s);
		fifo_attach(&q, ring.data(), cap);
	}
	// pool slot of the flit @i from the front
	uint32_t slot_at(unsigned i) const
	{
		return q.slot[(q.head + i) & q.mask];
	}
	uint64_t word(unsigned i) const
	{
		uint64_t v = 0;
		const uint8_t *d = pool_data(&pool, slot_at(i));

		for (unsigned k = 0; k < bytes; k++)
			v |= (uint64_t)d[k] << (8 * k);
		return v;
	}
	// bit a-1: the flit @i from the front is visible at stage latency a in cycle @now
	uint64_t ages(unsigned i, uint64_t now) const
	{
		uint64_t m = 0;

		if (q.count <= i)
			return 0;
		for (unsigned a = 1; a <= hist + 1; a++)
			if (pool.meta[slot_at(i)].ready_at + a <= now)
				m |= 1ull << (a - 1);
		return m;
	}
	void edge(bool push, uint64_t v, bool pop, uint64_t now)
	{
		if (pop)
			pool_put(&pool, fifo_pop(&q));
		if (push) {
			uint32_t s = pool_get(&pool);
			uint8_t *d = pool_data(&pool, s);

			pool.meta[s] = fifo_meta{};
			pool.meta[s].ready_at = now;	// the write cycle; ages() adds the latency
			for (unsigned k = 0; k < bytes; k++)
				d[k] = (uint8_t)(v >> (8 * k));
			fifo_push(&q, s);
		}
	}
};

struct credit_model {
	credit c;
	unsigned ret_lat;
	std::vector<bool> line;	// the return pipeline, line[0] newest
	unsigned refused = 0;
	credit_model(unsigned depth, unsigned lat) : ret_lat(lat), line(lat > 1 ? lat - 1 : 0)
	{
		credit_init(&c, depth);
	}
	unsigned in_flight() const
	{
		unsigned n = 0;

		for (bool b : line)
			n += b;
		return n;
	}
	void edge(bool take, bool ret)
	{
		bool back = ret;

		if (!line.empty()) {
			back = line.back();
			for (size_t i = line.size() - 1; i > 0; i--)
				line[i] = line[i - 1];
			line[0] = ret;
		}
		if (take)
			credit_take(&c, 1);
		if (back && !credit_give(&c, 1))
			refused++;
	}
};

struct arb_model {
	const char *name;
	unsigned n;
	std::vector<uint64_t> storage;
	arbiter a;
	arb_model(const char *nm, unsigned kind, unsigned nn, unsigned m) : name(nm), n(nn),
		storage(arb_storage_words(kind, nn) + 1, 0)
	{
		arb_attach(&a, kind, nn, m, storage.data());
	}
	uint64_t all() const { return n >= 64 ? ~0ull : (1ull << n) - 1; }
};

// The C model's CRC-32C continued over a byte stream: crc32c(0, bytes since the last start).
struct crc_model {
	std::string name;
	unsigned lanes, lane_bytes, bytes;
	uint32_t crc = 0;	// of the bytes up to the previous cycle
	crc_model(unsigned l, unsigned lb) : lanes(l), lane_bytes(lb), bytes(l * lb)
	{
		name = "crc32c (LANES " + std::to_string(l) + ", LANE_BYTES " + std::to_string(lb) + ")";
	}
};

// The C model's go-back-N sender and receiver.
struct gtx_model {
	std::string name;
	uint32_t first;
	gbn_tx tx;
	gtx_model(unsigned window, unsigned timeout, uint32_t f) : first(f)
	{
		char b[96];

		snprintf(b, sizeof(b), "gbn_tx (REPLAY_FRAMES %u, ACK_TIMEOUT %u, FIRST 0x%x)", window,
			 timeout, first);
		name = b;
		gbn_tx_init(&tx, first, window, timeout);
	}
};

struct grx_model {
	std::string name;
	uint32_t first;
	gbn_rx rx;
	explicit grx_model(uint32_t f) : first(f)
	{
		char b[64];

		snprintf(b, sizeof(b), "gbn_rx (FIRST 0x%x)", first);
		name = b;
		gbn_rx_init(&rx, first);
	}
};

// A constant of rtl_consts.c by name (the C headers of packet.h are not C++).
uint64_t rtl_const(const char *name)
{
	for (unsigned i = 0; i < rtl_const_count; i++)
		if (!strcmp(rtl_consts[i].name, name))
			return rtl_consts[i].value;
	fprintf(stderr, "equiv_units: no constant %s in rtl_consts.c\n", name);
	exit(2);
}

// The C model's credit return of one end.
struct lcr_model {
	std::string name;
	unsigned vcs;
	uint32_t pkt;
	link_credit c;
	lcr_model(unsigned v, uint32_t depth, unsigned flit_bytes)
		: vcs(v), pkt((uint32_t)((rtl_const("LOOM_PKT_HDR_SIZE") +
					    rtl_const("LOOM_PKT_MAX_PAYLOAD") + flit_bytes - 1) / flit_bytes))
	{
		char b[96];

		snprintf(b, sizeof(b), "link_credit (VCS %u, BUF_DEPTH %u, FLIT_BYTES %u)", v, depth,
			 flit_bytes);
		name = b;
		link_credit_init(&c, v, depth, pkt);
	}
};

// The C model's lanes of one link end, and the bit errors of the frames it receives.
struct lanes_model {
	std::string name;
	unsigned train_n, threshold, window;
	lanes l;
	fault f;
	lanes_model(unsigned n, unsigned thr, unsigned win, uint64_t seed)
		: train_n(n), threshold(thr), window(win)
	{
		char b[96];

		snprintf(b, sizeof(b), "lanes (LANES %u, LANE_THRESHOLD %u, LANE_WINDOW %u)", n, thr,
			 win);
		name = b;
		lanes_reset(&l, 0);	/* link_unit_init */
		fault_init(&f, seed);
	}
};

// The C model's transmitter of link unit a (link/link_xmit.c) with its peer b on a wire
// (equiv_xser.h): the frames a starts, and the bytes they put on a's lanes in each coming cycle.
struct xser_model {
	std::string name;
	unsigned rate_max, lane_bytes;
	xser_pair *x;
	unsigned n = 0;				// frames a started at this cycle's edge
	xser_frame started[XS_STARTED];		// the first of them
	std::vector<uint8_t> lane;		// [cycle % XS_AHEAD][byte]: the bytes expected
	std::vector<uint8_t> used;		// [cycle % XS_AHEAD]: how many
	uint64_t frames = 0, multi = 0;		// frames started; cycles that started several
	uint64_t narrow = 0;			// frames started on fewer lanes
	xser_model(unsigned lanes, unsigned lane_bytes_, unsigned flit_bytes, unsigned threshold,
		   uint64_t seed)
		: rate_max(lanes * lane_bytes_), lane_bytes(lane_bytes_),
		  lane(XS_AHEAD * lanes * lane_bytes_), used(XS_AHEAD)
	{
		char b[256];

		snprintf(b, sizeof(b), "link_xmit_serialise (LANES %u, LANE_BYTES %u, link "
			 "LANE_THRESHOLD %u)", lanes, lane_bytes_, threshold);
		name = b;
		if (xser_frame_max + 2 >= XS_AHEAD) {
			fprintf(stderr, "equiv_units: frames of %u bytes outrun the expectation "
				"ring (XS_AHEAD %u)\n", xser_frame_max, XS_AHEAD);
			exit(1);
		}
		x = xser_pair_new(lanes, lane_bytes_, flit_bytes, threshold, seed, b, sizeof(b));
		if (!x) {
			fprintf(stderr, "equiv_units: %s: %s\n", name.c_str(), b);
			exit(1);
		}
	}
	~xser_model() { xser_pair_free(x); }
	xser_model(const xser_model &) = delete;
	xser_model &operator=(const xser_model &) = delete;
	// the bytes frame @f puts on the lanes, cycle by cycle from its first
	void expect(const xser_frame &f)
	{
		for (unsigned k = 0; k < f.len; k++) {
			uint64_t c = f.first_cycle + (f.phase + k) / f.rate;
			unsigned i = (f.phase + k) % f.rate, at = (unsigned)(c % XS_AHEAD);

			lane[at * rate_max + i] = f.bytes[k];
			if (used[at] < i + 1)
				used[at] = (uint8_t)(i + 1);
		}
	}
};

// The C model's packet assembly of link unit a (equiv_xasm.h) and its cycle.
struct xasm_link {
	std::string name;
	xasm_model *m = nullptr;
	xasm_cycle c{};
};

// The C model's frame builder of link unit a (equiv_xbld.h) and its cycle.
struct xbld_link {
	std::string name, rname;	// the builder's, the replay buffer's behind it
	xbld_model *m = nullptr;
	xbld_cycle c{};
};

// The C model's delivery queue of link unit a (equiv_rdlv.h) and its cycle.
struct rdlv_link {
	std::string name;
	rdlv_model *m = nullptr;
	rdlv_cycle c{};
};

// The C model's frame checker of link unit a (equiv_rcv.h) and its cycle.
struct rcv_link {
	std::string name;
	rcv_model *m = nullptr;
	rcv_cycle c{};
};

// A flipped bit of a frame striped over the lanes: the lane its byte travelled on.
struct lane_hit {
	unsigned phase, rate;
	unsigned mask = 0;
};
void lane_hit_fn(void *ctx, uint64_t bit)
{
	lane_hit *h = static_cast<lane_hit *>(ctx);

	h->mask |= 1u << ((h->phase + bit / 8) % h->rate / LN_LANE_BYTES);
}

// word @v (32 bits) or byte @v of a Verilated port of any width
template <typename T> uint32_t word32(const T &p, unsigned v)
{
	return (uint32_t)((uint64_t)p >> (32 * v));
}
template <std::size_t W> uint32_t word32(const VlWide<W> &p, unsigned v)
{
	return p[v];
}
template <typename T> unsigned byte8(const T &p, unsigned v)
{
	return (unsigned)(((uint64_t)p >> (8 * v)) & 0xff);
}
// byte @v of a Verilated port of any width, wide ones too
template <typename T> unsigned byte8w(const T &p, unsigned v)
{
	return byte8(p, v);
}
template <std::size_t W> unsigned byte8w(const VlWide<W> &p, unsigned v)
{
	return (p[v / 4] >> (8 * (v % 4))) & 0xff;
}

// what a Verilated go-back-N unit shows in a cycle
struct gview {
	uint64_t base, next, resend, base_slot, timer_run, timer_left, held, room, resend_due;
	uint64_t ack_freed, nak_rewound, timer_fired, take_ok, take_resend, take_seq, take_slot;
};
struct rview {
	uint64_t expected, in_recovery, seen_valid, last_seen, nak_due, ack_due, ack_value, verdict;
};

// this cycle's bytes into a Verilated port of any width, byte 0 lowest
inline void put_bytes(CData &port, const uint8_t *b, unsigned) { port = b[0]; }
inline void put_bytes(SData &port, const uint8_t *b, unsigned n)
{
	port = (SData)(b[0] | (n > 1 ? b[1] << 8 : 0));
}
inline void put_bytes(IData &port, const uint8_t *b, unsigned n)
{
	port = 0;
	for (unsigned k = n < 4 ? n : 4; k--;)
		port = (port << 8) | b[k];
}
inline void put_bytes(QData &port, const uint8_t *b, unsigned n)
{
	port = 0;
	for (unsigned k = n; k--;)
		port = (port << 8) | b[k];
}
template <std::size_t W> void put_bytes(VlWide<W> &port, const uint8_t *b, unsigned n)
{
	for (unsigned w = 0; w < W; w++) {
		EData v = 0;

		for (unsigned k = 4; k--;)
			v = (v << 8) | (4 * w + k < n ? b[4 * w + k] : 0);
		port[w] = v;
	}
}

// 32-bit words @w (up to @n of them, word 0 lowest) into a Verilated port of any width
inline void put_words(IData &port, const uint32_t *w, unsigned) { port = w[0]; }
inline void put_words(QData &port, const uint32_t *w, unsigned n)
{
	port = (QData)w[0] | (n > 1 ? (QData)w[1] << 32 : 0);
}
template <std::size_t W> void put_words(VlWide<W> &port, const uint32_t *w, unsigned n)
{
	for (unsigned k = 0; k < W; k++)
		port[k] = k < n ? w[k] : 0;
}

// the sum of four counts over models @ms, each's from @counts(model, its four)
template <typename M, std::size_t N, typename F> void sum4(uint64_t c[4], const M (&ms)[N], F counts)
{
	for (unsigned i = 0; i < 4; i++)
		c[i] = 0;
	for (const M &m : ms) {
		uint64_t one[4];

		counts(m, one);
		for (unsigned i = 0; i < 4; i++)
			c[i] += one[i];
	}
}

// ---- one run ----

class run {
public:
	run(uint64_t seed, const char *vcd, uint64_t trace_from)
		: r(seed), rl(seed ^ 0x6c696e6b00000000ull), ctx(new VerilatedContext), top(new Vloom_equiv_units(ctx.get())),
		  fa(FA_DEPTH, 2, FA_HIST), fb(FB_DEPTH, 1, FB_HIST),
		  ca(CA_DEPTH, CA_RET_LAT), cb(CB_DEPTH, CB_RET_LAT),
		  rr("rr", ARB_RR, RR_N, 0), rrw("rrw", ARB_RR, RRW_N, 0),
		  mx("mx", ARB_MATRIX, MX_N, 0), t3("t3", ARB_T3E, T3_N, 0),
		  iw("iw", ARB_IWA, IW_N, IW_M),
		  crcs{ { CRC_LANES[0], CRC_LANE_BYTES[0] }, { CRC_LANES[1], CRC_LANE_BYTES[1] },
			{ CRC_LANES[2], CRC_LANE_BYTES[2] } },
		  ga(GA_WINDOW, GA_TIMEOUT, GA_FIRST), gb(GB_WINDOW, GB_TIMEOUT, GB_FIRST),
		  ra(RA_FIRST), rb(RB_FIRST), lc(LC_VCS, LC_DEPTH, LC_FLIT), ld(LD_VCS, LD_DEPTH, LD_FLIT),
		  rn(seed ^ 0x6c616e6500000000ull),
		  lns{ { LN_LANES[0], LN_THRESHOLD[0], LN_WINDOW[0], seed * 3 + 0 },
		       { LN_LANES[1], LN_THRESHOLD[1], LN_WINDOW[1], seed * 3 + 1 },
		       { LN_LANES[2], LN_THRESHOLD[2], LN_WINDOW[2], seed * 3 + 2 } },
		  rx(seed ^ 0x7873657200000000ull),
		  rxc(seed ^ 0x7873657243000000ull),
		  xs{ { XS_LANES[0], XS_LANE_BYTES[0], XS_FLIT_BYTES[0], XS_THRESHOLD[0], seed * 2 + 1 },
		      { XS_LANES[1], XS_LANE_BYTES[1], XS_FLIT_BYTES[1], XS_THRESHOLD[1],
			seed * 2 + 0x100000000ull } },
		  trace_from(trace_from)
	{
		// no plusargs: the mutant's switches (loom_mutation.vh) read them, all on
		const char *args[] = { "equiv_units" };

		ctx->commandArgs(1, args);
		for (unsigned k = 0; k < RF_N; k++) {
			rf[k].m = rxf_new(RF_WINDOW[k], RF_FRAMES[k], RF_LANES[k], RF_LANE_BYTES[k],
					  RF_BUF[k], seed * 5 + k + 0x7266000000000000ull);
			if (!rf[k].m)
				throw std::bad_alloc();
			rf[k].name = "link_rx_framer (RX_WINDOW " + std::to_string(RF_WINDOW[k]) +
				     ", RX_FRAMES " + std::to_string(RF_FRAMES[k]) + ", LANES " +
				     std::to_string(RF_LANES[k]) + ", LANE_BYTES " +
				     std::to_string(RF_LANE_BYTES[k]) + ")";
		}
		for (unsigned k = 0; k < XM_N; k++) {
			char b[256];

			xm[k].name = "link_xmit_assemble (VCS " + std::to_string(XM_VCS[k]) +
				     ", FLIT_BYTES " + std::to_string(XM_FLIT_BYTES[k]) + ", TX_QUEUE " +
				     std::to_string(XM_TX_QUEUE[k]) + ")";
			xm[k].m = xasm_new(XM_VCS[k], XM_FLIT_BYTES[k], XM_TX_QUEUE[k],
					   seed * 7 + k + 0x786d000000000000ull, b, sizeof(b));
			if (!xm[k].m) {
				fprintf(stderr, "equiv_units: %s: %s\n", xm[k].name.c_str(), b);
				exit(1);
			}
		}
		for (unsigned k = 0; k < XB_N; k++) {
			char b[256];

			xb[k].name = "link_xmit_build (LANES " + std::to_string(XB_LANES[k]) +
				     ", LANE_BYTES " + std::to_string(XB_LANE_BYTES[k]) + ", VCS " +
				     std::to_string(XB_VCS[k]) + ", REPLAY_FRAMES " +
				     std::to_string(XB_REPLAY[k]) + ", ACK_TIMEOUT " +
				     std::to_string(XB_TIMEOUT[k]) + ", COALESCE_DELAY " +
				     std::to_string(XB_DELAY[k]) + ")";
			xb[k].rname = "link_xmit_replay (REPLAY_FRAMES " + std::to_string(XB_REPLAY[k]) +
				      ", FLIT_BYTES " + std::to_string(XB_FLIT_BYTES[k]) + ", VCS " +
				      std::to_string(XB_VCS[k]) + ")";
			xb[k].m = xbld_new(XB_LANES[k], XB_LANE_BYTES[k], XB_VCS[k], XB_FLIT_BYTES[k],
					   XB_REPLAY[k], XB_TIMEOUT[k], XB_DELAY[k], XB_THRESHOLD[k],
					   seed * 11 + k + 0x7862000000000000ull, b, sizeof(b));
			if (!xb[k].m) {
				fprintf(stderr, "equiv_units: %s: %s\n", xb[k].name.c_str(), b);
				exit(1);
			}
		}
		for (unsigned k = 0; k < RD_N; k++) {
			char b[256];

			rd[k].name = "link_recv_deliver (FLIT_BYTES " + std::to_string(RD_FLIT_BYTES[k]) +
				     ", RX_QUEUE " + std::to_string(RD_QUEUE[k]) + ", RX_FRAMES " +
				     std::to_string(RD_FRAMES[k]) + ")";
			rd[k].m = rdlv_new(RD_LANES[k], RD_LANE_BYTES[k], RD_FLIT_BYTES[k], RD_QUEUE[k],
					   RD_FRAMES[k], seed * 13 + k + 0x7264000000000000ull, b, sizeof(b));
			if (!rd[k].m) {
				fprintf(stderr, "equiv_units: %s: %s\n", rd[k].name.c_str(), b);
				exit(1);
			}
		}
		for (unsigned k = 0; k < RC_N; k++) {
			char b[256];

			rc[k].name = "link_recv (LANES " + std::to_string(RC_LANES[k]) + ", LANE_BYTES " +
				     std::to_string(RC_LANE_BYTES[k]) + ", VCS " + std::to_string(RC_VCS[k]) +
				     ", FLIT_BYTES " + std::to_string(RC_FLIT_BYTES[k]) + ", BUF_DEPTH " +
				     std::to_string(RC_DEPTH[k]) + ")";
			rc[k].m = rcv_new(RC_LANES[k], RC_LANE_BYTES[k], RC_VCS[k], RC_FLIT_BYTES[k],
					  RC_DEPTH[k], RC_REPLAY[k], RC_THRESHOLD[k],
					  seed * 17 + k + 0x7263000000000000ull, b, sizeof(b));
			if (!rc[k].m) {
				fprintf(stderr, "equiv_units: %s: %s\n", rc[k].name.c_str(), b);
				exit(1);
			}
		}
		if (vcd) {
			ctx->traceEverOn(true);
			tfp.reset(new VerilatedVcdC);
			top->trace(tfp.get(), 99);
			tfp->open(vcd);
		}
		top->rst = 1;
		for (int i = 0; i < 2; i++) {
			top->clk = 0;
			top->eval();
			top->clk = 1;
			top->eval();
		}
		top->rst = 0;
	}
	~run()
	{
		if (tfp)
			tfp->close();
		top->final();
		for (rf_model &f : rf)
			rxf_free(f.m);
		for (xasm_link &x : xm)
			xasm_free(x.m);
		for (xbld_link &x : xb)
			xbld_free(x.m);
		for (rdlv_link &x : rd)
			rdlv_free(x.m);
		for (rcv_link &x : rc)
			rcv_free(x.m);
	}

	bool drift(mismatch *m)
	{
		for (unsigned i = 0; i <= rtl_const_count; i++) {
			uint64_t want = i < rtl_const_count ? rtl_consts[i].value : ~0ull;

			top->k_idx = i;
			top->eval();
			if (top->k_const != want) {
				m->unit = "generated constants (loom_hw.vh)";
				m->signal = i < rtl_const_count ? rtl_consts[i].name : "row past the table";
				m->rtl = top->k_const;
				m->model = want;
				return false;
			}
		}
		for (unsigned i = 0; i < router_param_count; i++) {
			const router_param_desc *d = &router_param_table[i];
			const uint32_t want[3] = { d->def, d->min, d->max };
			static const char *const word[3] = { "DEFAULT", "MIN", "MAX" };

			for (unsigned w = 0; w < 3; w++) {
				top->k_idx = i;
				top->k_word = w;
				top->eval();
				if (top->k_param != want[w]) {
					m->unit = "generated parameter table (loom_hw.vh)";
					m->signal = std::string("ROUTER_") + d->name + "_" + word[w];
					m->rtl = top->k_param;
					m->model = want[w];
					return false;
				}
			}
		}
		return true;
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
			if (!compare(m)) {
				m->cycle = now;
				return false;
			}
			edge();
			top->clk = 1;
			top->eval();
			if (tfp && now >= trace_from)
				tfp->dump(2 * now + 1);
		}
		return true;
	}

	// lanes dropped by the lane units' errors in the run so far (the stimuli reach it)
	uint64_t lane_drops() const { return drops_seen; }
	// frames the serialisers started, and cycles in which one started several
	uint64_t xs_frames() const { return xs[0].frames + xs[1].frames; }
	uint64_t xs_multi() const { return xs[0].multi + xs[1].multi; }
	uint64_t xs_narrow() const { return xs[0].narrow + xs[1].narrow; }
	// the packet assemblers' run: packets queued, malformed flits, flits refunded, cable cuts
	void xm_counts(uint64_t c[4]) const
	{
		sum4(c, xm, [](const xasm_link &x, uint64_t one[4]) { xasm_counts(x.m, one); });
	}
	// the frame builders' run (xbld_counts)
	void xb_counts(uint64_t c[XBLD_COUNTS]) const
	{
		for (unsigned i = 0; i < XBLD_COUNTS; i++)
			c[i] = 0;
		for (const xbld_link &x : xb) {
			uint64_t one[XBLD_COUNTS];

			xbld_counts(x.m, one);
			for (unsigned i = 0; i < XBLD_COUNTS; i++)
				c[i] += one[i];
		}
	}
	// the delivery queues' run: packets accepted, flits delivered, cycles not ready
	void rd_counts(uint64_t c[3]) const
	{
		c[0] = c[1] = c[2] = 0;
		for (const rdlv_link &x : rd) {
			uint64_t one[3];

			rdlv_counts(x.m, one);
			for (unsigned i = 0; i < 3; i++)
				c[i] += one[i];
		}
	}
	// the frame checkers' run (rcv_counts)
	void rc_counts(uint64_t c[RCV_COUNTS]) const
	{
		for (unsigned i = 0; i < RCV_COUNTS; i++)
			c[i] = 0;
		for (const rcv_link &x : rc) {
			uint64_t one[RCV_COUNTS];

			rcv_counts(x.m, one);
			for (unsigned i = 0; i < RCV_COUNTS; i++)
				c[i] += one[i];
		}
	}
	// the framers' results: frames, bad magic, bad length, bad CRC
	void rf_counts(uint64_t c[4]) const
	{
		sum4(c, rf, [](const rf_model &f, uint64_t one[4]) { rxf_counts(f.m, one); });
	}

private:
	rng r;
	rng rl;	// the link units' stimuli: a stream of their own, so the router units' stay as they were
	std::unique_ptr<VerilatedContext> ctx;
	std::unique_ptr<Vloom_equiv_units> top;
	std::unique_ptr<VerilatedVcdC> tfp;
	fifo_model fa, fb;
	credit_model ca, cb;
	arb_model rr, rrw, mx, t3, iw;
	crc_model crcs[CRC_N];
	gtx_model ga, gb;
	grx_model ra, rb;
	lcr_model lc, ld;
	rng rn;	// the lane units' stimuli, a stream of their own likewise
	lanes_model lns[LN_N];
	rng rx;	// the card's serialiser's traffic, a stream of its own likewise
	rng rxc;	// the 64-byte serialiser's, one more
	xser_model xs[XS_N];
	// the receivers' framers: the C model (stimuli of their own) and this cycle's
	struct rf_model {
		std::string name;
		rxf_model *m = nullptr;
		uint8_t in[RXF_IN_MAX];
		unsigned in_n, take, held, garbage, n;
		bool fed_ok;
	} rf[RF_N];
	xasm_link xm[XM_N];
	xbld_link xb[XB_N];
	rdlv_link rd[RD_N];
	rcv_link rc[RC_N];
	std::vector<uint8_t> xbody;	// the bodies of the frames offered to a serialiser
	std::vector<uint8_t> rdbody;	// the bodies of the frames a delivery queue accepted
	uint64_t trace_from, now = 0, drops_seen = 0;
	// the load of this phase (percent): full and empty buffers, sparse and dense requests
	unsigned p_push = 50, p_pop = 50, p_take = 50, p_ret = 50, p_req = 50, p_start = 5;
	unsigned p_ack = 20, p_timer = 20, p_send = 50, p_rx = 50;
	// the lanes: frames arriving (percent), a lane that fails (-1: none)
	unsigned p_frame = 50;
	int dead_lane = -1;
	// this cycle's stimuli
	bool fa_push, fa_pop, fb_push, fb_pop, ca_take, ca_ret, cb_take, cb_ret;
	uint64_t fa_v, fb_v;
	struct arb_in {
		uint64_t req;
		int win;
		bool upd, hold, pat;
	} ai[5];
	bool wr_en, wr_pat;
	unsigned wr_idx, wr_w;
	struct crc_in {
		bool start;
		unsigned n;
		uint8_t data[16];
		uint32_t next;	// the model's CRC with this cycle's bytes
	} ci[CRC_N];
	// a go-back-N sender's operations this cycle and the C model's results
	struct gtx_in {
		bool flush, ack, nak, timer, take;
		uint32_t value;
		unsigned freed;
		bool rewound, fired, ok, resend;
		uint32_t seq;
		unsigned slot;
		gbn_tx after;
	} gi[2];
	struct grx_in {
		bool flush, data, error, rep, clr_ack, clr_nak;
		uint32_t seq;
		unsigned verdict;
		gbn_rx after;
	} ri[2];
	// a credit unit's operations this cycle and the C model's results
	struct lcr_in {
		bool train, down, acc_valid, acc_may, rep, to_router;
		bool router_any, ref_valid, sent_valid, sent_has, pick, pick_was, adv, adv_any;
		unsigned acc_vc, ref_vc, sent_vc, pick_vc;
		uint32_t upd_valid, upd_ok, upd_gain;	// VC masks
		uint32_t upd_value[CHAN_VCS_MAX];
		uint32_t acc_flits, ref_flits, sent_flits, pick_value, freed_ok;
		uint8_t freed[CHAN_VCS_MAX], credits[CHAN_VCS_MAX];
		link_credit after;
	} li[2];
	// a lane unit's inputs this cycle and the C model's results
	struct lanes_in {
		bool train, down, crc_err, narrow, dropped, charged;
		unsigned flags, narrow_n, crc_lane;
		uint32_t seq;
		lanes after;
	} ni[LN_N];

	void phase()
	{
		static const unsigned levels[] = { 5, 30, 50, 70, 95 };

		p_push = levels[r.below(5)];
		p_pop = levels[r.below(5)];
		p_take = levels[r.below(5)];
		p_ret = levels[r.below(5)];
		p_req = levels[r.below(5)];
		// frames of a few bytes to a few hundred
		static const unsigned starts[] = { 1, 3, 10, 30, 60 };
		p_start = starts[rl.below(5)];
		// acknowledgements sparse to every cycle, timers, frames taken
		p_ack = levels[rl.below(5)];
		p_timer = levels[rl.below(5)];
		p_send = levels[rl.below(5)];
		p_rx = levels[rl.below(5)];
		// bit error rates from none to one in a hundred bits; now and then a failing lane
		static const double bers[] = { 0, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2 };
		double ber = bers[rn.below(6)];

		for (lanes_model &m : lns)
			fault_set_ber(&m.f, ber);
		p_frame = levels[rn.below(5)];
		dead_lane = rn.percent(30) ? (int)rn.below(4) : -1;
		xser_phase(xs[0], rx, bers_low);
		xser_phase(xs[1], rxc, bers_high);
		for (rf_model &f : rf)
			rxf_phase(f.m);
		for (xasm_link &x : xm)
			xasm_phase(x.m);
		for (xbld_link &x : xb)
			xbld_phase(x.m);
		for (rdlv_link &x : rd)
			rdlv_phase(x.m);
		for (rcv_link &x : rc)
			rcv_phase(x.m);
	}

	// the serialisers' traffic: packets of one size both ways (none, a few, a
	// stream), bit errors that bring NAKs, replays and narrower lanes
	static constexpr double bers_low[5] = { 0, 0, 1e-7, 1e-6, 1e-5 };
	static constexpr double bers_high[5] = { 0, 1e-5, 1e-4, 1e-4, 1e-3 };
	void xser_phase(xser_model &m, rng &g, const double (&bers)[5])
	{
		static const unsigned counts[] = { 0, 1, 4, 30, 1000 };
		uint32_t all = (1u << xser_pair_vcs(m.x)) - 1;

		for (unsigned i = 0; i < 2; i++) {
			unsigned payload = g.percent(30) ? g.below(xser_payload_max + 1) :
				g.percent(50) ? 0 : xser_payload_max;
			uint32_t vcs = (uint32_t)g.next() & all;

			xser_pair_traffic(m.x, i, counts[g.below(5)], (uint16_t)payload,
					  vcs ? vcs : 1, bers[g.below(5)]);
		}
	}

	// the C model's edge of cycle now for both link units: the frames a starts
	void xser_stim(xser_model &m, bool *flush, unsigned *lanes)
	{
		m.n = xser_pair_cycle(m.x, flush, lanes, m.started, XS_STARTED);
		if (*flush)	/* the frame on the lanes was abandoned */
			for (unsigned c = 1; c < XS_AHEAD; c++)
				m.used[(now + c) % XS_AHEAD] = 0;
		for (unsigned j = 0; j < m.n && j < XS_STARTED; j++)
			m.expect(m.started[j]);
		m.frames += m.n;
		m.multi += m.n > 1;
		for (unsigned j = 0; j < m.n && j < XS_STARTED; j++)
			m.narrow += m.started[j].rate < m.rate_max;
	}

// this cycle's frames of serialiser @p, model @i, into its ports (the body: @buf)
#define DRIVE_XSER(p, i, buf) \
	do { \
		xser_model &m_ = xs[i]; \
		constexpr unsigned S_ = XS_SLOTS[i]; \
		const unsigned B_ = xser_body_max; \
		uint8_t ty_[S_] = {}, vc_[S_] = {}, cv_[S_] = {}, fl_[S_] = {}; \
		uint8_t sq_[4 * S_] = {}, ak_[4 * S_] = {}, cr_[4 * S_] = {}, ln_[2 * S_] = {}; \
		unsigned valid_ = 0, lanes_; \
		bool flush_; \
		xser_stim(m_, &flush_, &lanes_); \
		buf.assign(B_ * S_, 0); \
		for (unsigned j_ = 0; j_ < m_.n && j_ < S_; j_++) { \
			const xser_frame &f_ = m_.started[j_]; \
			valid_ |= 1u << j_; \
			ty_[j_] = f_.type; \
			vc_[j_] = f_.vc; \
			cv_[j_] = f_.credit_vc; \
			fl_[j_] = f_.flags; \
			for (unsigned b_ = 0; b_ < 4; b_++) { \
				sq_[4 * j_ + b_] = (uint8_t)(f_.seq >> (8 * b_)); \
				ak_[4 * j_ + b_] = (uint8_t)(f_.ack >> (8 * b_)); \
				cr_[4 * j_ + b_] = (uint8_t)(f_.credit >> (8 * b_)); \
			} \
			ln_[2 * j_] = (uint8_t)f_.body_len; \
			ln_[2 * j_ + 1] = (uint8_t)(f_.body_len >> 8); \
			memcpy(buf.data() + B_ * j_, f_.bytes + xser_hdr_size, f_.body_len); \
		} \
		top->p##_flush = flush_; \
		top->p##_lanes = lanes_; \
		top->p##_frame_valid = valid_; \
		put_bytes(top->p##_frame_type, ty_, S_); \
		put_bytes(top->p##_frame_vc, vc_, S_); \
		put_bytes(top->p##_frame_credit_vc, cv_, S_); \
		put_bytes(top->p##_frame_flags, fl_, S_); \
		put_bytes(top->p##_frame_seq, sq_, 4 * S_); \
		put_bytes(top->p##_frame_ack, ak_, 4 * S_); \
		put_bytes(top->p##_frame_credit, cr_, 4 * S_); \
		put_bytes(top->p##_frame_len, ln_, 2 * S_); \
		put_bytes(top->p##_frame_body, buf.data(), B_ * S_); \
	} while (0)

// this cycle's flit and operations of packet assembler @p, model @i
#define DRIVE_XASM(p, i) \
	do { \
		xasm_cycle &c_ = xm[i].c; \
		xasm_step(xm[i].m, &c_); \
		top->p##_flush = c_.flush; \
		top->p##_up = c_.up; \
		top->p##_flit_valid = c_.flit_valid; \
		top->p##_flit_head = c_.flit_head; \
		top->p##_flit_tail = c_.flit_tail; \
		top->p##_flit_vc = c_.flit_vc; \
		put_bytes(top->p##_flit_data, c_.flit_data, XM_FLIT_BYTES[i]); \
		top->p##_pop = c_.pop; \
		top->p##_q_peer_has = c_.q_peer_has; \
		top->p##_low_any = c_.low_any; \
	} while (0)

// this cycle's inputs of frame builder @p, model @i
#define DRIVE_XBLD(p, i) \
	do { \
		xbld_cycle &c_ = xb[i].c; \
		uint8_t g_[32]; \
		xbld_step(xb[i].m, &c_); \
		for (unsigned v_ = 0; v_ < 8; v_++) \
			for (unsigned b_ = 0; b_ < 4; b_++) \
				g_[4 * v_ + b_] = (uint8_t)(c_.grant[v_] >> (8 * b_)); \
		top->p##_flush = c_.flush; \
		top->p##_carrier = c_.carrier; \
		top->p##_set_train_due = c_.set_train_due; \
		top->p##_set_train_answer = c_.set_train_answer; \
		top->p##_set_poll_answer = c_.set_poll_answer; \
		top->p##_set_lane_notice = c_.set_lane_notice; \
		top->p##_progress = c_.progress; \
		top->p##_maint_wr = c_.maint_wr; \
		top->p##_maint_wr_len = c_.maint_wr_len; \
		if (c_.maint_wr)	/* read only then */ \
			put_bytes(top->p##_maint_wr_body, c_.maint_wr_body, xbld_body_max); \
		top->p##_training = c_.training; \
		top->p##_up = c_.up; \
		top->p##_lanes_n = c_.lanes_n; \
		top->p##_node = c_.node; \
		top->p##_port = c_.port; \
		top->p##_resend_due = c_.resend_due; \
		top->p##_room = c_.room; \
		top->p##_held_any = c_.held_any; \
		top->p##_take_seq = c_.take_seq; \
		top->p##_gbn_next = c_.gbn_next; \
		top->p##_take_slot = c_.take_slot; \
		top->p##_ack_due = c_.ack_due; \
		top->p##_nak_due = c_.nak_due; \
		top->p##_ack_value = c_.ack_value; \
		top->p##_head_valid = c_.head_valid; \
		top->p##_head_has = c_.head_has; \
		top->p##_head_vc = c_.head_vc; \
		top->p##_head_len = c_.head_len; \
		if (c_.head_valid)	/* read only then */ \
			put_bytes(top->p##_head_data, c_.head_bytes, xbld_body_max); \
		top->p##_pending = c_.pending; \
		top->p##_deficit_any = c_.deficit_any; \
		top->p##_pick_vc = c_.pick_vc; \
		top->p##_pick_value = c_.pick_value; \
		top->p##_pick_was_pending = c_.pick_was_pending; \
		put_bytes(top->p##_grant, g_, 32); \
		top->p##_lanes_free = c_.lanes_free; \
	} while (0)

// this cycle's accepted frames and ready of delivery queue @p, model @i
#define DRIVE_RDLV(p, i) \
	do { \
		rdlv_cycle &c_ = rd[i].c; \
		constexpr unsigned A_ = RD_ACC[i]; \
		uint8_t v_[A_] = {}, l_[2 * A_] = {}; \
		rdlv_step(rd[i].m, &c_); \
		uint32_t vv_ = 0; \
		for (unsigned j_ = 0; j_ < c_.acc_n && j_ < A_; j_++) { \
			vv_ |= (uint32_t)c_.acc_vc[j_] << (3 * j_); \
			l_[2 * j_] = (uint8_t)c_.acc_len[j_]; \
			l_[2 * j_ + 1] = (uint8_t)(c_.acc_len[j_] >> 8); \
			memcpy(rdbody.data() + rdlv_body_max * j_, c_.acc_body[j_], rdlv_body_max); \
		} \
		for (unsigned j_ = 0; j_ < A_; j_++) \
			v_[j_] = (uint8_t)(vv_ >> (8 * j_)); \
		top->p##_acc_n = c_.acc_n; \
		put_bytes(top->p##_acc_vc, v_, (3 * A_ + 7) / 8); \
		put_bytes(top->p##_acc_len, l_, 2 * A_); \
		if (c_.acc_n) \
			put_bytes(top->p##_acc_body, rdbody.data(), rdlv_body_max * A_); \
		top->p##_in_ready = c_.in_ready; \
	} while (0)

// this cycle's result and views of frame checker @p, model @i
#define DRIVE_RCV(p, i) \
	do { \
		rcv_cycle &c_ = rc[i].c; \
		uint8_t w_[4][32]; \
		rcv_step(rc[i].m, &c_); \
		const uint32_t *src_[4] = { c_.grant, c_.received, c_.granted, c_.sent }; \
		for (unsigned k_ = 0; k_ < 4; k_++) \
			for (unsigned v_ = 0; v_ < 8; v_++) \
				for (unsigned b_ = 0; b_ < 4; b_++) \
					w_[k_][4 * v_ + b_] = (uint8_t)(src_[k_][v_] >> (8 * b_)); \
		top->p##_flush = c_.flush; \
		top->p##_training = c_.training; \
		top->p##_up = c_.up; \
		top->p##_lane_flags = c_.lane_flags; \
		top->p##_res_valid = c_.res_valid; \
		top->p##_res_status = c_.res_status; \
		if (c_.res_valid)	/* read only then */ \
			put_bytes(top->p##_res_frame, c_.res_frame, rcv_frame_bytes); \
		top->p##_tx_base = c_.tx_base; \
		top->p##_tx_next = c_.tx_next; \
		top->p##_rx_expected = c_.rx_expected; \
		put_bytes(top->p##_grant, w_[0], 32); \
		put_bytes(top->p##_received, w_[1], 32); \
		put_bytes(top->p##_granted, w_[2], 32); \
		put_bytes(top->p##_sent, w_[3], 32); \
		top->p##_maint_pop = c_.maint_pop; \
	} while (0)

	uint64_t reqs(unsigned n)
	{
		uint64_t v = 0;

		for (unsigned i = 0; i < n; i++)
			if (r.percent(p_req))
				v |= 1ull << i;
		return v;
	}

	void fifo_stim(fifo_model &f, bool *push, bool *pop, uint64_t *v, unsigned bits)
	{
		*pop = f.q.count && r.percent(p_pop);
		*push = f.q.count - *pop < f.cap && r.percent(p_push);
		*v = r.next() & ((1ull << bits) - 1);
	}

	void credit_stim(credit_model &c, bool *take, bool *ret)
	{
		unsigned out = (unsigned)(c.c.max - c.c.avail);
		unsigned fl = c.in_flight();

		*take = credit_has(&c.c, 1) && r.percent(p_take);
		// a credit that is out comes back; now and then one that never was (refused)
		*ret = (out > fl && r.percent(p_ret)) || r.percent(2);
	}

	// the bytes a cycle carries: the lanes full at 4, 2 or 1 lanes (degraded), a
	// frame's last bytes (any count), or idle
	void crc_stim(crc_model &c, crc_in &x)
	{
		unsigned k = rl.below(10), lanes = c.lanes >> rl.below(3);

		x.start = rl.percent(p_start);
		if (k < 5)
			x.n = (lanes ? lanes : 1) * c.lane_bytes;
		else if (k < 8)
			x.n = rl.below(c.bytes + 1);
		else
			x.n = 0;
		for (unsigned i = 0; i < c.bytes; i++)
			x.data[i] = (uint8_t)rl.next();
		x.next = crc32c(x.start ? 0 : c.crc, x.data, x.n);
	}

	// an acknowledgement (or NAK) of any kind, the timer, a take; the C
	// model's results on a copy of its state, committed at the edge
	void gtx_stim(const gtx_model &g, gtx_in &x)
	{
		gbn_tx t = g.tx;
		uint32_t held;
		unsigned k = rl.below(10);

		/* the carrier's edge, alone: link_xmit_reset() */
		x = gtx_in{};
		x.flush = rl.percent(1);
		if (x.flush) {
			gbn_tx_init(&t, g.first, t.window, t.timeout);
			x.after = t;
			return;
		}
		held = gbn_tx_held(&t);
		x.ack = rl.percent(p_ack);
		x.nak = rl.percent(15);
		if (k < 5)
			x.value = t.base - 1 + (uint32_t)rl.below(held + 1);	/* base - 1 .. next - 1 */
		else if (k == 5)
			x.value = t.next;	/* one past the last frame sent */
		else if (k == 6)
			x.value = t.base - 2 - (uint32_t)rl.below(4);	/* stale */
		else if (k == 7)
			x.value = (uint32_t)rl.next();
		else
			x.value = t.next - 1;
		x.freed = 0;
		x.rewound = false;
		if (x.ack && x.nak)
			x.rewound = gbn_tx_nak(&t, x.value, now);
		else if (x.ack)
			x.freed = gbn_tx_ack(&t, x.value, now);
		x.timer = rl.percent(p_timer);
		x.fired = x.timer && gbn_tx_timer(&t, now);
		x.ok = gbn_tx_resend_due(&t) || gbn_tx_room(&t);
		x.resend = gbn_tx_resend_due(&t);
		x.seq = t.resend;
		x.slot = x.ok ? gbn_tx_slot(&t, t.resend) : 0;
		x.take = x.ok && rl.percent(p_send);
		if (x.take) {
			uint32_t seq;

			gbn_tx_take(&t, &seq, now + 1);	/* the frame starts next cycle */
		}
		x.after = t;
	}

	void grx_stim(const grx_model &g, grx_in &x)
	{
		gbn_rx t = g.rx;
		unsigned k = rl.below(10);

		/* the carrier's edge, alone: link_recv_reset() */
		x = grx_in{};
		x.flush = rl.percent(1);
		if (x.flush) {
			gbn_rx_init(&t, g.first);
			x.after = t;
			return;
		}
		x.verdict = GBN_RX_ACCEPT;
		if (rl.percent(p_rx)) {
			x.data = k < 8;
			x.error = k == 8;
			if (k < 4)
				x.seq = t.expected;
			else if (k < 6)
				x.seq = t.expected - 1 - (uint32_t)rl.below(4);
			else
				x.seq = t.expected + 1 + (uint32_t)rl.below(4);
		}
		if (x.data)
			x.verdict = gbn_rx_data(&t, x.seq);
		else if (x.error)
			gbn_rx_error(&t);
		/* a NAK, a poll or a TRAIN of a peer still training: acknowledge again */
		x.rep = rl.percent(3);
		if (x.rep)
			t.ack_due = true;
		x.clr_ack = rl.percent(30);
		x.clr_nak = rl.percent(30);
		if (x.clr_ack)
			t.ack_due = false;
		if (x.clr_nak)
			t.nak_due = false;
		x.after = t;
	}

// this cycle's operations of go-back-N sender @g and receiver @r, stimuli @i
#define DRIVE_GBN(g, r, i) \
	do { \
		top->g##_flush = gi[i].flush; \
		top->g##_ack_valid = gi[i].ack; \
		top->g##_ack_nak = gi[i].nak; \
		top->g##_ack_value = gi[i].value; \
		top->g##_timer = gi[i].timer; \
		top->g##_take = gi[i].take; \
		top->r##_flush = ri[i].flush; \
		top->r##_data_valid = ri[i].data; \
		top->r##_data_seq = ri[i].data ? ri[i].seq : 0; \
		top->r##_error = ri[i].error; \
		top->r##_rep = ri[i].rep; \
		top->r##_clr_ack = ri[i].clr_ack; \
		top->r##_clr_nak = ri[i].clr_nak; \
	} while (0)

	// every operation of the link unit on its credits, the C results on a copy
	void lcr_stim(const lcr_model &g, lcr_in &x)
	{
		link_credit t = g.c;
		unsigned k = rl.below(200);

		x = lcr_in{};
		x.train = k == 0;
		x.down = k == 1;
		x.freed_ok = (1u << g.vcs) - 1;
		if (x.train) {
			link_credit_train(&t);
		} else if (x.down) {
			link_credit_down(&t);
		} else {
			/*
			 * grants from the peer: a header's on one VC, now and then an
			 * ACK_CREDIT's on every VC; each VC's value is shown every cycle
			 */
			bool all = rl.percent(10);
			unsigned one = rl.below(g.vcs);

			for (unsigned v = 0; v < g.vcs; v++) {
				uint32_t gtd = t.granted[v], room = t.sent[v] + t.depth - gtd;
				uint32_t bit = 1u << v;

				k = rl.below(10);
				x.upd_value[v] = k < 6 ? gtd + (uint32_t)rl.below(room + 1) :
						 k == 6 ? gtd + room + 1 : k == 7 ? gtd - 1 :
						 k == 8 ? (uint32_t)rl.next() : gtd;
				if (link_credit_valid(&t, v, x.upd_value[v]))
					x.upd_ok |= bit;
				if ((all || v == one) && rl.percent(p_ack))
					x.upd_valid |= bit;
				if ((x.upd_valid & x.upd_ok & bit) &&
				    link_credit_update(&t, v, x.upd_value[v]))
					x.upd_gain |= bit;
			}
			x.acc_vc = rl.below(g.vcs);
			x.acc_flits = 1 + rl.below(g.pkt);
			x.acc_may = link_credit_may_accept(&t, x.acc_vc, x.acc_flits);
			x.acc_valid = x.acc_may && rl.percent(p_rx);
			if (x.acc_valid)
				link_credit_accepted(&t, x.acc_vc, x.acc_flits);
			x.rep = rl.percent(2);
			if (x.rep)
				link_credit_repeat(&t);
			for (unsigned w = 0; w < g.vcs; w++) {
				uint32_t occ = t.occupied[w];

				x.freed[w] = rl.percent(p_timer) ?
					(uint8_t)rl.below(occ + 3 < 256 ? occ + 3 : 256) : 0;
				if (x.freed[w] && !link_credit_freed(&t, w, x.freed[w]))
					x.freed_ok &= ~(1u << w);
			}
			x.to_router = rl.percent(70);
			if (x.to_router)
				x.router_any = link_credit_to_router(&t, x.credits);
			x.ref_valid = rl.percent(3);
			x.ref_vc = rl.below(g.vcs);
			x.ref_flits = rl.below(5);
			if (x.ref_valid)
				link_credit_refund(&t, x.ref_vc, x.ref_flits);
			x.sent_vc = rl.below(g.vcs);
			x.sent_flits = 1 + rl.below(g.pkt);
			x.sent_has = link_credit_peer_has(&t, x.sent_vc, x.sent_flits);
			x.sent_valid = x.sent_has && rl.percent(p_send);
			if (x.sent_valid)
				link_credit_sent(&t, x.sent_vc, x.sent_flits);
			link_credit picked = t;

			x.pick_vc = link_credit_pick(&picked, &x.pick_value, &x.pick_was);
			x.pick = rl.percent(30);
			if (x.pick)
				t = picked;
			x.adv_any = t.pending != 0;
			x.adv = rl.percent(5);
			if (x.adv)
				link_credit_advertise_all(&t);
		}
		x.after = t;
	}

	// A frame of a few dozen to a few hundred bytes arrives, striped over
	// the lanes in use from a random phase, with the bit errors link/fault.c
	// injects: the lanes it hit are flagged; a failing lane is flagged on
	// most frames; a corrupt frame is sometimes flagged on no lane (charged
	// by sequence number).  Now and then the link trains, goes down, or the
	// peer's lane notice narrows it.
	void lanes_stim(lanes_model &g, lanes_in &x)
	{
		lanes t = g.l;
		unsigned k = rn.below(4000);

		x = lanes_in{};
		x.train = (t.n == 0 && rn.percent(2)) || k == 0;
		x.down = !x.train && k == 1;
		x.seq = (uint32_t)rn.next();
		x.narrow_n = 1u << rn.below(3);
		if (x.train) {
			lanes_reset(&t, g.train_n);
		} else if (x.down) {
			lanes_reset(&t, 0);
		} else {
			if (t.n && rn.percent(p_frame)) {
				uint8_t frame[400] = { 0 };
				size_t len = 24 + rn.below(sizeof(frame) - 24);
				lane_hit h{ (unsigned)rn.below(t.n * LN_LANE_BYTES), t.n * LN_LANE_BYTES };
				bool bad = fault_apply_hits(&g.f, frame, len, lane_hit_fn, &h) ==
					   FAULT_CORRUPTED;

				x.flags = h.mask;
				if (dead_lane >= 0 && rn.percent(90)) {
					x.flags |= 1u << dead_lane;
					bad = true;
				}
				if (bad && rn.percent(30)) {
					x.flags = 0;
					x.crc_err = true;
				}
			}
			if (rn.percent(1))
				x.flags |= 1u << rn.below(4);	/* any lane, in use or not */
			x.crc_err |= rn.percent(1);
			x.narrow = rn.percent(1);
			for (unsigned i = 0; i < LANES_MAX; i++)
				if ((x.flags & (1u << i)) && i < t.n)
					x.dropped |= lanes_error_on(&t, i, now, g.threshold, g.window);
			if (x.crc_err && t.n) {
				x.charged = true;
				x.dropped |= lanes_error(&t, x.seq, now, g.threshold, g.window, &x.crc_lane);
			}
			if (x.narrow && x.narrow_n < t.n)
				t.n = x.narrow_n;
		}
		x.after = t;
	}

// this cycle's inputs of lane unit @p, stimuli @i
#define DRIVE_LANES(p, i) \
	do { \
		const lanes_in &x_ = ni[i]; \
		top->p##_train = x_.train; \
		top->p##_down = x_.down; \
		top->p##_flags = x_.flags; \
		top->p##_crc_err = x_.crc_err; \
		top->p##_crc_seq = x_.seq; \
		top->p##_narrow = x_.narrow; \
		top->p##_narrow_n = x_.narrow_n; \
	} while (0)

// this cycle's operations of credit unit @p, stimuli @i
#define DRIVE_LCR(p, i) \
	do { \
		const lcr_in &x_ = li[i]; \
		uint64_t f_ = 0; \
		top->p##_train = x_.train; \
		top->p##_down = x_.down; \
		top->p##_upd_valid = x_.upd_valid; \
		put_words(top->p##_upd_value, x_.upd_value, CHAN_VCS_MAX); \
		top->p##_acc_valid = x_.acc_valid; \
		top->p##_acc_vc = x_.acc_vc; \
		top->p##_acc_flits = x_.acc_flits; \
		top->p##_rep = x_.rep; \
		for (unsigned w_ = 0; w_ < CHAN_VCS_MAX; w_++) \
			f_ |= (uint64_t)x_.freed[w_] << (8 * w_); \
		top->p##_freed = f_; \
		top->p##_to_router = x_.to_router; \
		top->p##_ref_valid = x_.ref_valid; \
		top->p##_ref_vc = x_.ref_vc; \
		top->p##_ref_flits = x_.ref_flits; \
		top->p##_sent_valid = x_.sent_valid; \
		top->p##_sent_vc = x_.sent_vc; \
		top->p##_sent_flits = x_.sent_flits; \
		top->p##_pick = x_.pick; \
		top->p##_adv = x_.adv; \
	} while (0)

	void stimulate()
	{
		fifo_stim(fa, &fa_push, &fa_pop, &fa_v, 16);
		fifo_stim(fb, &fb_push, &fb_pop, &fb_v, 8);
		credit_stim(ca, &ca_take, &ca_ret);
		credit_stim(cb, &cb_take, &cb_ret);
		arb_model *arbs[5] = { &rr, &rrw, &mx, &t3, &iw };
		for (int k = 0; k < 5; k++) {
			arb_in &x = ai[k];

			x.req = reqs(arbs[k]->n);
			x.win = arb_pick(&arbs[k]->a, x.req);
			x.upd = x.win >= 0 && r.percent(80);
			x.hold = r.percent(50);
			x.pat = r.percent(50);
		}
		wr_en = r.percent(5);
		wr_idx = r.below(IW_N + 3);
		wr_pat = r.percent(50);
		wr_w = r.below(256);
		for (unsigned k = 0; k < CRC_N; k++)
			crc_stim(crcs[k], ci[k]);
		gtx_stim(ga, gi[0]);
		gtx_stim(gb, gi[1]);
		grx_stim(ra, ri[0]);
		grx_stim(rb, ri[1]);
		lcr_stim(lc, li[0]);
		lcr_stim(ld, li[1]);
		for (unsigned k = 0; k < LN_N; k++)
			lanes_stim(lns[k], ni[k]);

		top->fa_push = fa_push;
		top->fa_pop = fa_pop;
		top->fa_push_data = (uint16_t)fa_v;
		top->fb_push = fb_push;
		top->fb_pop = fb_pop;
		top->fb_push_data = (uint8_t)fb_v;
		top->ca_take = ca_take;
		top->ca_ret = ca_ret;
		top->cb_take = cb_take;
		top->cb_ret = cb_ret;
		top->rr_req = (uint8_t)ai[0].req;
		top->rr_upd = ai[0].upd;
		top->rr_upd_idx = ai[0].upd ? ai[0].win : 0;
		top->rrw_req = ai[1].req;
		top->rrw_upd = ai[1].upd;
		top->rrw_upd_idx = ai[1].upd ? ai[1].win : 0;
		top->mx_req = (uint8_t)ai[2].req;
		top->mx_upd = ai[2].upd;
		top->mx_upd_idx = ai[2].upd ? ai[2].win : 0;
		top->t3_req = (uint8_t)ai[3].req;
		top->t3_upd = ai[3].upd;
		top->t3_upd_idx = ai[3].upd ? ai[3].win : 0;
		top->t3_upd_hold = ai[3].hold;
		top->iw_req = (uint16_t)ai[4].req;
		top->iw_upd = ai[4].upd;
		top->iw_upd_idx = ai[4].upd ? ai[4].win : 0;
		top->iw_upd_pat = ai[4].pat;
		top->iw_wr_en = wr_en;
		top->iw_wr_idx = wr_idx;
		top->iw_wr_pat = wr_pat;
		top->iw_wr_weight = wr_w;
		top->crca_start = ci[0].start;
		top->crca_n = ci[0].n;
		put_bytes(top->crca_data, ci[0].data, crcs[0].bytes);
		top->crcb_start = ci[1].start;
		top->crcb_n = ci[1].n;
		put_bytes(top->crcb_data, ci[1].data, crcs[1].bytes);
		top->crcc_start = ci[2].start;
		top->crcc_n = ci[2].n;
		put_bytes(top->crcc_data, ci[2].data, crcs[2].bytes);
		DRIVE_GBN(ga, ra, 0);
		DRIVE_GBN(gb, rb, 1);
		DRIVE_LCR(lc, 0);
		DRIVE_LCR(ld, 1);
		DRIVE_LANES(lna, 0);
		DRIVE_LANES(lnb, 1);
		DRIVE_LANES(lnc, 2);
		DRIVE_XSER(xa, 0, xbody);
		DRIVE_XSER(xb, 1, xbody);
		for (rf_model &f : rf)
			f.n = rxf_cycle(f.m, f.in, &f.in_n, &f.take, &f.held, &f.garbage, &f.fed_ok);
		top->rfa_in_n = rf[0].in_n;
		put_bytes(top->rfa_in_data, rf[0].in, RF_LANES[0] * RF_LANE_BYTES[0]);
		top->rfa_take = rf[0].take;
		top->rfb_in_n = rf[1].in_n;
		put_bytes(top->rfb_in_data, rf[1].in, RF_LANES[1] * RF_LANE_BYTES[1]);
		top->rfb_take = rf[1].take;
		DRIVE_XASM(xma, 0);
		DRIVE_XASM(xmb, 1);
		DRIVE_XBLD(xba, 0);
		DRIVE_XBLD(xbb, 1);
		rdbody.assign(rdlv_body_max * RDLV_ACC_MAX, 0);
		DRIVE_RDLV(rda, 0);
		DRIVE_RDLV(rdb, 1);
		DRIVE_RCV(rca, 0);
		DRIVE_RCV(rcb, 1);
	}

	// a framer's results and registers (the model's held and episode: before its edge)
	template <typename S, typename F>
	bool cmp_rxf(mismatch *m, const rf_model &f, uint64_t res_n, const S &status, const F &frame,
		     uint64_t held, uint64_t garbage)
	{
		const char *u = f.name.c_str();
		static const char *const names[5] = { "", "frame", "bad magic", "bad length", "bad CRC" };
		// the signal's name only for a difference: mismatch keeps a copy
		std::string sig;

		if (!f.fed_ok) {
			m->unit = u;
			m->signal = "the C model's buffer refused bytes (a harness error)";
			m->rtl = 0;
			m->model = 1;
			return false;
		}
		if (!same(m, u, "held (bytes buffered)", held, f.held) ||
		    !same(m, u, "garbage (in an error episode)", garbage, f.garbage) ||
		    !same(m, u, "res_n (results this cycle)", res_n, f.n))
			return false;
		for (unsigned k = 0; k < f.n; k++) {
			const struct rxf_result *res = rxf_result(f.m, k);
			unsigned st = (unsigned)((word32(status, 0) >> (3 * k)) & 7);

			if (st != res->status) {
				sig = "res_status of result " + std::to_string(k) + " (1 frame, " +
				      "2 bad magic, 3 bad length, 4 bad CRC; the model's: " +
				      names[res->status < 5 ? res->status : 0] + ")";
				return same(m, u, sig.c_str(), st, res->status);
			}
			for (unsigned j = 0; j < res->len; j++) {
				unsigned b = byte8w(frame, k * rxf_frame_bytes + j);

				if (b != res->bytes[j]) {
					sig = "res_frame byte " + std::to_string(j) + " of result " +
					      std::to_string(k) + " (frame of " +
					      std::to_string(res->len) + " header and body bytes)";
					return same(m, u, sig.c_str(), b, res->bytes[j]);
				}
			}
		}
		return true;
	}

	// the registers before this cycle's flit, then what its edge did
	template <typename T> bool cmp_xasm(mismatch *m, const xasm_link &x, const uint64_t (&o)[17],
					    const T &head_data)
	{
		const xasm_cycle &c = x.c;
		const char *u = x.name.c_str();

		if (c.error && !same(m, u, (std::string("the C model's run: ") + c.error).c_str(), 0, 1))
			return false;
		if (!(same(m, u, "ready (registered)", o[0], c.ready) &&
		      same(m, u, "ready_before", o[1], c.ready_before) &&
		      same(m, u, "assembling (VC mask)", o[2], c.assembling) &&
		      same(m, u, "discarding (VC mask)", o[3], c.discarding) &&
		      same(m, u, "q_count", o[4], c.q_count) &&
		      (!c.q_count || (same(m, u, "q_vc (the queue's head)", o[5], c.q_vc) &&
				      same(m, u, "q_flits (the queue's head)", o[6], c.q_flits))) &&
		      same(m, u, "starved (link_xmit_credit_starved)", o[7], c.starved)))
			return false;
		if (!(same(m, u, "malformed (tx_malformed counted)", o[8], c.malformed) &&
		      same(m, u, "flit_counted (tx_flits counted)", o[9], c.flit_counted) &&
		      same(m, u, "queued (tx_packets counted)", o[10], c.queued) &&
		      same(m, u, "ref_valid (flits refunded to the router)", o[11], c.ref_flits != 0) &&
		      (!c.ref_flits || (same(m, u, "ref_vc", o[12], c.ref_vc) &&
					same(m, u, "ref_flits", o[13], c.ref_flits))) &&
		      same(m, u, "head_valid (the queue's head after the flit)", o[14], c.head_valid)))
			return false;
		if (!c.head_valid)
			return true;
		if (!(same(m, u, "head_vc", o[15] & 0xff, c.head_vc) &&
		      same(m, u, "head_flits", o[15] >> 8 & 0xff, c.head_flits) &&
		      same(m, u, "head_len (header and payload bytes)", o[16], c.head_len)))
			return false;
		for (unsigned i = 0; i < c.head_len; i++)
			if (!same(m, u, ("head_data byte " + std::to_string(i)).c_str(),
				  byte8w(head_data, i), c.head_bytes[i]))
				return false;
		return true;
	}
#define CMP_XASM(p, i) \
	cmp_xasm(m, xm[i], \
		 { top->p##_ready, top->p##_ready_before, top->p##_assembling, top->p##_discarding, \
		   top->p##_q_count, top->p##_q_vc, top->p##_q_flits, top->p##_starved, \
		   top->p##_malformed, top->p##_flit_counted, top->p##_queued, top->p##_ref_valid, \
		   top->p##_ref_vc, top->p##_ref_flits, top->p##_head_valid, \
		   (uint64_t)top->p##_head_vc | (uint64_t)top->p##_head_flits << 8, \
		   top->p##_head_len }, top->p##_head_data)

	// the registers before this cycle's inputs, what the edge asked and counted, and the
	// frame offered when the lanes were free for one
	template <typename T> bool cmp_xbld(mismatch *m, const xbld_link &x, const uint64_t (&o)[17],
					    const T &body)
	{
		static const char *const flag[5] = { "train_due", "train_answer", "lane_notice_due",
						     "poll_answer_due", "maint_full" };
		static const char *const count[10] = {
			"c_replayed (replayed)", "c_data (tx_data_frames)",
			"c_acks_piggybacked", "c_credits_piggybacked", "c_acks_standalone",
			"c_credits_standalone", "c_status (status_frames)", "c_poll (polls_sent)",
			"c_nak (naks_sent)", "c_lane_notice (lane_notices)" };
		const xbld_cycle &c = x.c;
		const char *u = x.name.c_str();
		const bool cf[5] = { c.train_due, c.train_answer, c.lane_notice_due,
				     c.poll_answer_due, c.maint_full };
		xbld_ops ops{ (o[9] & 1) != 0, (o[9] & 2) != 0, (o[9] & 4) != 0,
			      (o[9] & 8) != 0, (o[9] & 16) != 0, (o[9] & 32) != 0 };
		uint64_t rv = 0, mv = 0;
		const char *bad;

		if (c.error && !same(m, u, (std::string("the C model's run: ") + c.error).c_str(), 0, 1))
			return false;
		for (unsigned f = 0; f < 5; f++)
			if (!same(m, u, flag[f], o[11] >> f & 1, cf[f]))
				return false;
		if (!((!c.maint_full || same(m, u, "maint_len", o[12], c.maint_len)) &&
		      same(m, u, "train_left (train_retry - start)", o[13], c.train_left) &&
		      same(m, u, "status_run (status_deadline set)", o[14], c.status_run) &&
		      (!c.status_run ||
		       same(m, u, "status_left (status_deadline - start)", o[15], c.status_left)) &&
		      same(m, u, "progress_age (cycles since credit_progress, at most ACK_TIMEOUT)",
			   o[16], c.progress_age)))
			return false;
		for (unsigned i = 0; i < 10; i++)
			if (!same(m, u, count[i], o[10] >> i & 1, c.counts[i]))
				return false;
		bad = xbld_check_ops(x.m, &ops, &rv, &mv);
		if (bad && !same(m, u, (std::string("ops ") + std::to_string(o[9]) +
					" (take, pop, pick, adv, clr_ack, clr_nak from bit 0): " + bad).c_str(),
				 rv, mv))
			return false;
		if (!c.lanes_free)
			return true;
		if (!same(m, u, "frame_valid (a frame starts)", o[0], c.built))
			return false;
		if (!c.built)
			return true;
		// a DATA frame's VC, length and body are the replay buffer's packet
		static const uint64_t data_type = rtl_const("LOOM_FRAME_DATA");

		if (c.type == data_type)
			u = x.rname.c_str();
		if (!(same(m, x.name.c_str(), "frame_type", o[1], c.type) &&
		      same(m, u, "frame_vc", o[2], c.vc) &&
		      same(m, x.name.c_str(), "frame_credit_vc", o[3], c.credit_vc) &&
		      same(m, x.name.c_str(), "frame_flags", o[4], c.flags) &&
		      same(m, x.name.c_str(), "frame_seq", o[5], c.seq) &&
		      same(m, x.name.c_str(), "frame_ack", o[6], c.ack) &&
		      same(m, x.name.c_str(), "frame_credit", o[7], c.credit) &&
		      same(m, u, "frame_len (body bytes)", o[8], c.body_len)))
			return false;
		if (o[1] != c.type)	/* another unit's difference, not compared now */
			return true;
		for (unsigned i = 0; i < c.body_len; i++)	/* the signal's name only for a difference */
			if (byte8w(body, i) != c.body[i] &&
			    !same(m, u, ("frame_body byte " + std::to_string(i) + " (frame type " +
					 std::to_string(c.type) + ")").c_str(),
				  byte8w(body, i), c.body[i]))
				return false;
		return true;
	}
#define CMP_XBLD(p, i) \
	cmp_xbld(m, xb[i], \
		 { top->p##_frame_valid, top->p##_frame_type, top->p##_frame_vc, \
		   top->p##_frame_credit_vc, top->p##_frame_flags, top->p##_frame_seq, \
		   top->p##_frame_ack, top->p##_frame_credit, top->p##_frame_len, top->p##_ops, \
		   top->p##_counts, top->p##_flags, top->p##_maint_len, top->p##_train_left, \
		   top->p##_status_run, top->p##_status_left, top->p##_progress_age }, \
		 top->p##_frame_body)

	// the registers before this cycle's edge, then what it counted
	template <typename T> bool cmp_rdlv(mismatch *m, const rdlv_link &x, unsigned queue,
					    unsigned fb, const uint64_t (&o)[9], const T &data)
	{
		const rdlv_cycle &c = x.c;
		const char *u = x.name.c_str();

		if (c.error && !same(m, u, (std::string("the C model's run: ") + c.error).c_str(), 0, 1))
			return false;
		if (!(same(m, u, "q_count (packets queued)", o[0], c.q_count) &&
		      same(m, u, "room (RX_QUEUE - q_count)", o[7], queue - c.q_count) &&
		      same(m, u, "flit_idx (the head packet's next flit)", o[1], c.flit_idx) &&
		      same(m, u, "flit_valid", o[2], c.flit_valid) &&
		      same(m, u, "rx_flit (rx_flits counted)", o[8], c.rx_flit)))
			return false;
		if (!c.flit_valid)
			return true;
		if (!(same(m, u, "flit_head", o[3], c.flit_head) &&
		      same(m, u, "flit_tail", o[4], c.flit_tail) && same(m, u, "flit_vc", o[5], c.flit_vc)))
			return false;
		for (unsigned i = 0; i < fb; i++)	/* the signal's name only for a difference */
			if (byte8w(data, i) != c.flit_data[i] &&
			    !same(m, u, ("flit_data byte " + std::to_string(i)).c_str(), byte8w(data, i),
				  c.flit_data[i]))
				return false;
		return true;
	}
#define CMP_RDLV(p, i) \
	cmp_rdlv(m, rd[i], RD_QUEUE[i], RD_FLIT_BYTES[i], \
		 { top->p##_q_count, top->p##_flit_idx, top->p##_flit_valid, top->p##_flit_head, \
		   top->p##_flit_tail, top->p##_flit_vc, 0, top->p##_room, top->p##_rx_flit }, \
		 top->p##_flit_data)

	// the registers before this cycle's edge, what it counted and accepted, and the
	// operations it asked of the other units
	template <typename B, typename U>
	bool cmp_rcv(mismatch *m, const rcv_link &x, const uint64_t (&o)[20], const B &maint,
		     const B &dlv, const U &upd)
	{
		const rcv_cycle &c = x.c;
		const char *u = x.name.c_str();
		rcv_ops ops{};
		uint64_t rv = 0, mv = 0;
		const char *bad;

		if (c.error && !same(m, u, (std::string("the C model's run: ") + c.error).c_str(), 0, 1))
			return false;
		if (!(same(m, u, "peer_node", o[0], c.peer_node) &&
		      same(m, u, "peer_port", o[1], c.peer_port) &&
		      same(m, u, "lane_flagged", o[2], c.lane_flagged) &&
		      same(m, u, "maint_full", o[3], c.maint_full)))
			return false;
		if (c.maint_full) {
			if (!same(m, u, "maint_len", o[4], c.maint_len))
				return false;
			for (unsigned i = 0; i < c.maint_len; i++)
				if (byte8w(maint, i) != c.maint_body[i] &&
				    !same(m, u, ("maint_body byte " + std::to_string(i)).c_str(),
					  byte8w(maint, i), c.maint_body[i]))
					return false;
		}
		for (unsigned i = 0; i < RCV_EVENTS; i++)
			if (!same(m, u, (std::string("c_events bit ") + std::to_string(i) + " (" +
					 rcv_event_names[i] + " counted)").c_str(),
				  o[6] >> i & 1, c.events >> i & 1))
				return false;
		if (!same(m, u, "c_rx_bytes (rx_bytes counted)", o[5], c.rx_bytes) ||
		    !same(m, u, "dlv_valid (a packet accepted)", o[7], c.dlv_valid))
			return false;
		if (c.dlv_valid) {
			if (!(same(m, u, "dlv_vc", o[8], c.dlv_vc) &&
			      same(m, u, "dlv_len", o[9], c.dlv_len)))
				return false;
			for (unsigned i = 0; i < c.dlv_len; i++)
				if (byte8w(dlv, i) != c.dlv_body[i] &&
				    !same(m, u, ("dlv_body byte " + std::to_string(i)).c_str(),
					  byte8w(dlv, i), c.dlv_body[i]))
					return false;
		}
		ops.ln_flags = (unsigned)o[10];
		ops.ln_crc_err = o[11] & 1;
		ops.ln_crc_seq = (uint32_t)(o[11] >> 32);
		ops.ln_narrow = o[12] & 1;
		ops.ln_narrow_n = (unsigned)(o[12] >> 1);
		ops.ack_valid = o[13] & 1;
		ops.ack_nak = o[13] & 2;
		ops.ack_value = (uint32_t)o[14];
		ops.data_valid = o[15] & 1;
		ops.rx_error = o[15] & 2;
		ops.data_seq = (uint32_t)o[16];
		ops.upd_valid = (unsigned)o[17];
		for (unsigned v = 0; v < 8; v++)
			ops.upd_value[v] = word32(upd, v);
		ops.acc_valid = o[18] & 1;
		ops.acc_vc = (unsigned)(o[18] >> 1 & 7);
		ops.acc_flits = (uint32_t)(o[18] >> 32);
		ops.rep = o[19] & 1;
		ops.set_train_due = o[19] & 2;
		ops.set_train_answer = o[19] & 4;
		ops.set_poll_answer = o[19] & 8;
		ops.progress = o[19] & 16;
		ops.came_up = o[19] & 32;
		bad = rcv_check_ops(x.m, &ops, &rv, &mv);
		return !bad || same(m, u, bad, rv, mv);
	}
#define CMP_RCV(p, i) \
	cmp_rcv(m, rc[i], \
		{ top->p##_peer_node, top->p##_peer_port, top->p##_lane_flagged, top->p##_maint_full, \
		  top->p##_maint_len, top->p##_c_rx_bytes, top->p##_c_events, top->p##_dlv_valid, \
		  top->p##_dlv_vc, top->p##_dlv_len, top->p##_ln_flags, \
		  (uint64_t)top->p##_ln_crc_err | (uint64_t)top->p##_ln_crc_seq << 32, \
		  (uint64_t)top->p##_ln_narrow | (uint64_t)top->p##_ln_narrow_n << 1, top->p##_ack, \
		  top->p##_ack_value, (uint64_t)top->p##_data_valid | (uint64_t)top->p##_rx_error << 1, \
		  top->p##_data_seq, top->p##_upd_valid, \
		  (uint64_t)top->p##_acc_valid | (uint64_t)top->p##_acc_vc << 1 | \
			  (uint64_t)top->p##_acc_flits << 32, \
		  top->p##_events }, \
		top->p##_maint_body, top->p##_dlv_body, top->p##_upd_value)

	static bool same(mismatch *m, const char *unit, const char *sig, uint64_t rtl, uint64_t model)
	{
		if (rtl == model || (only_units && !strstr(unit, only_units)))
			return true;
		m->unit = unit;
		m->signal = sig;
		m->rtl = rtl;
		m->model = model;
		return false;
	}

	bool cmp_fifo(mismatch *m, const char *unit, const fifo_model &f, uint64_t count,
		      uint64_t front, uint64_t second, uint64_t age0, uint64_t age1)
	{
		if (!same(m, unit, "count", count, f.q.count))
			return false;
		if (f.q.count >= 1 && !same(m, unit, "front", front, f.word(0)))
			return false;
		if (f.q.count >= 2 && !same(m, unit, "second", second, f.word(1)))
			return false;
		return same(m, unit, "age0 (front visible at latency bit+1)", age0, f.ages(0, now)) &&
		       same(m, unit, "age1 (second visible at latency bit+1)", age1, f.ages(1, now));
	}

	bool cmp_arb(mismatch *m, const char *unit, const arb_in &x, bool valid, uint64_t idx)
	{
		if (!same(m, unit, "gnt_valid", valid, x.win >= 0))
			return false;
		return x.win < 0 || same(m, unit, "gnt_idx", idx, (uint64_t)x.win);
	}

	bool cmp_crc(mismatch *m, unsigned k, uint32_t crc, uint32_t crc_next)
	{
		return same(m, crcs[k].name.c_str(), "crc (the bytes before this cycle)", crc,
			    crcs[k].crc) &&
		       same(m, crcs[k].name.c_str(),
			    ci[k].start ? "crc_next (a new CRC with this cycle's bytes)"
					: "crc_next (with this cycle's bytes)",
			    crc_next, ci[k].next);
	}

	// the registers before this cycle's operations, then their results
	bool cmp_gtx(mismatch *m, const gtx_model &g, const gtx_in &x, const gview &o)
	{
		const gbn_tx &t = g.tx;
		const char *u = g.name.c_str();
		uint64_t left = t.deadline > now ? t.deadline - now : 0;

		if (!(same(m, u, "base", o.base, t.base) && same(m, u, "next", o.next, t.next) &&
		      same(m, u, "resend", o.resend, t.resend) &&
		      same(m, u, "base_slot", o.base_slot, t.base_slot) &&
		      same(m, u, "timer_run (deadline set)", o.timer_run, t.deadline != 0) &&
		      (!t.deadline || same(m, u, "timer_left (deadline - cycle)", o.timer_left, left)) &&
		      same(m, u, "held", o.held, gbn_tx_held(&t)) &&
		      same(m, u, "room", o.room, gbn_tx_room(&t)) &&
		      same(m, u, "resend_due", o.resend_due, gbn_tx_resend_due(&t))))
			return false;
		if (x.flush)
			return true;	/* the carrier's edge: no operation */
		if (!(same(m, u, "ack_freed", o.ack_freed, x.freed) &&
		      same(m, u, "nak_rewound", o.nak_rewound, x.rewound) &&
		      same(m, u, "timer_fired", o.timer_fired, x.fired) &&
		      same(m, u, "take_ok", o.take_ok, x.ok)))
			return false;
		return !x.ok || (same(m, u, "take_resend", o.take_resend, x.resend) &&
				 same(m, u, "take_seq", o.take_seq, x.seq) &&
				 same(m, u, "take_slot", o.take_slot, x.slot));
	}

	bool cmp_grx(mismatch *m, const grx_model &g, const grx_in &x, const rview &o)
	{
		const gbn_rx &t = g.rx;
		const char *u = g.name.c_str();

		return same(m, u, "expected", o.expected, t.expected) &&
		       same(m, u, "in_recovery", o.in_recovery, t.in_recovery) &&
		       same(m, u, "seen_valid", o.seen_valid, t.seen_valid) &&
		       same(m, u, "last_seen", o.last_seen, t.last_seen) &&
		       same(m, u, "nak_due", o.nak_due, t.nak_due) &&
		       same(m, u, "ack_due", o.ack_due, t.ack_due) &&
		       same(m, u, "ack_value", o.ack_value, gbn_rx_ack_value(&t)) &&
		       (!x.data || same(m, u, "verdict", o.verdict, x.verdict));
	}

	// every VC's registers and the masks before this cycle's operations, then the results
#define CMP_LCR(p, g, i) cmp_lcr(m, g, li[i], [&](unsigned f, unsigned v) -> uint64_t { \
		switch (f) { \
		case 0: return word32(top->p##_q_grant, v); \
		case 1: return word32(top->p##_q_advertised, v); \
		case 2: return word32(top->p##_q_received, v); \
		case 3: return word32(top->p##_q_occupied, v); \
		case 4: return word32(top->p##_q_granted, v); \
		case 5: return word32(top->p##_q_sent, v); \
		case 6: return word32(top->p##_q_withheld, v); \
		case 7: return word32(top->p##_q_owed, v); \
		case 8: return top->p##_pending; \
		case 9: return top->p##_owed_mask; \
		case 10: return top->p##_deficit_mask; \
		case 11: return top->p##_low_mask; \
		case 12: return top->p##_rr; \
		case 13: return top->p##_upd_ok; \
		case 14: return top->p##_upd_gain; \
		case 15: return top->p##_acc_may; \
		case 16: return top->p##_freed_ok; \
		case 17: return byte8(top->p##_router_credits, v); \
		case 18: return top->p##_router_any; \
		case 19: return top->p##_sent_has; \
		case 20: return top->p##_pick_vc; \
		case 21: return top->p##_pick_value; \
		case 22: return top->p##_pick_was_pending; \
		default: return top->p##_adv_any; \
		} })

	template <typename F> bool cmp_lcr(mismatch *m, const lcr_model &g, const lcr_in &x, F rtl)
	{
		static const char *const per_vc[8] = { "grant", "advertised", "received", "occupied",
						       "granted", "sent", "withheld", "owed" };
		const link_credit &t = g.c;
		const uint32_t *model[8] = { t.grant, t.advertised, t.received, t.occupied,
					     t.granted, t.sent, t.withheld, t.owed };
		const char *u = g.name.c_str();

		for (unsigned f = 0; f < 8; f++)
			for (unsigned v = 0; v < g.vcs; v++)
				if (!same(m, u, (std::string(per_vc[f]) + " of VC " + std::to_string(v)).c_str(),
					  rtl(f, v), model[f][v]))
					return false;
		if (!(same(m, u, "pending", rtl(8, 0), t.pending) &&
		      same(m, u, "owed_mask", rtl(9, 0), t.owed_mask) &&
		      same(m, u, "deficit_mask", rtl(10, 0), t.deficit_mask) &&
		      same(m, u, "low_mask", rtl(11, 0), t.low_mask) && same(m, u, "rr", rtl(12, 0), t.rr)))
			return false;
		if (x.train || x.down)
			return true;
		for (unsigned v = 0; v < g.vcs; v++) {
			std::string vc = " of VC " + std::to_string(v);

			if (!same(m, u, ("router_credits" + vc).c_str(), rtl(17, v), x.credits[v]) ||
			    !same(m, u, ("upd_ok" + vc + " (link_credit_valid)").c_str(),
				  rtl(13, 0) >> v & 1, x.upd_ok >> v & 1) ||
			    !same(m, u, ("upd_gain" + vc + " (link_credit_update)").c_str(),
				  rtl(14, 0) >> v & 1, x.upd_gain >> v & 1))
				return false;
		}
		return same(m, u, "acc_may (link_credit_may_accept)", rtl(15, 0), x.acc_may) &&
		       same(m, u, "freed_ok (link_credit_freed)", rtl(16, 0), x.freed_ok) &&
		       same(m, u, "router_any", rtl(18, 0), x.router_any) &&
		       same(m, u, "sent_has (link_credit_peer_has)", rtl(19, 0), x.sent_has) &&
		       same(m, u, "pick_vc", rtl(20, 0), x.pick_vc) &&
		       same(m, u, "pick_value", rtl(21, 0), x.pick_value) &&
		       same(m, u, "pick_was_pending", rtl(22, 0), x.pick_was) &&
		       same(m, u, "adv_any", rtl(23, 0), x.adv_any);
	}

	// the registers before this cycle's inputs (a window's age while it is
	// open), then the results
#define CMP_LANES(p, i) cmp_lanes(m, lns[i], ni[i], top->p##_n, top->p##_drops, \
				  [&](unsigned f, unsigned v) -> uint64_t { \
		switch (f) { \
		case 0: return top->p##_errors[v]; \
		case 1: return top->p##_win_count[v]; \
		default: return (uint32_t)(((uint64_t)top->p##_win_age[(31 * v) / 32 + 1] << 32 | \
					    top->p##_win_age[(31 * v) / 32]) >> (31 * v % 32)) & \
				0x7fffffffu; \
		} }, top->p##_dropped, top->p##_crc_lane)

	// the frames started, then the lanes' bytes of this cycle, byte for byte
	template <typename T> bool cmp_xser(mismatch *m, const xser_model &g, uint64_t taken,
					    const T &data, uint64_t used)
	{
		const char *u = g.name.c_str();
		unsigned at = (unsigned)(now % XS_AHEAD);

		if (!same(m, u, "frame_taken (frames that start next cycle)", taken, g.n) ||
		    !same(m, u, "lane_used (bytes on the lanes)", used, g.used[at]))
			return false;
		for (unsigned i = 0; i < g.used[at]; i++)
			if (!same(m, u, ("lane_data byte " + std::to_string(i) + " (lane " +
					 std::to_string(i / g.lane_bytes) + ")").c_str(),
				  byte8w(data, i), g.lane[at * g.rate_max + i]))
				return false;
		return true;
	}

	template <typename F> bool cmp_lanes(mismatch *m, const lanes_model &g, const lanes_in &x,
					     uint64_t n, uint64_t drops, F rtl, uint64_t dropped,
					     uint64_t crc_lane)
	{
		const lanes &t = g.l;
		const char *u = g.name.c_str();

		if (!(same(m, u, "n (lanes in use)", n, t.n) && same(m, u, "drops", drops, t.drops)))
			return false;
		for (unsigned v = 0; v < LANES_MAX; v++) {
			uint64_t age = now - t.win_start[v] < g.window ? now - t.win_start[v] : g.window;

			if (!same(m, u, ("errors of lane " + std::to_string(v)).c_str(), rtl(0, v),
				  t.errors[v]) ||
			    !same(m, u, ("win_count of lane " + std::to_string(v)).c_str(), rtl(1, v),
				  t.win_count[v]) ||
			    (t.win_count[v] &&
			     !same(m, u, ("win_age of lane " + std::to_string(v) +
					  " (cycles since its window opened, at most LANE_WINDOW)").c_str(),
				   rtl(2, v), age)))
				return false;
		}
		if (x.train || x.down)
			return true;
		return same(m, u, "dropped (lanes_error_on)", dropped, x.dropped) &&
		       (!x.charged || same(m, u, "crc_lane (lanes_error)", crc_lane, x.crc_lane));
	}

// the outputs of the Verilated go-back-N sender or receiver of prefix @p
#define GVIEW(p) \
	gview{ top->p##_base, top->p##_next, top->p##_resend, top->p##_base_slot, \
	       top->p##_timer_run, top->p##_timer_left, top->p##_held, top->p##_room, \
	       top->p##_resend_due, top->p##_ack_freed, top->p##_nak_rewound, top->p##_timer_fired, \
	       top->p##_take_ok, top->p##_take_resend, top->p##_take_seq, top->p##_take_slot }
#define RVIEW(p) \
	rview{ top->p##_expected, top->p##_in_recovery, top->p##_seen_valid, top->p##_last_seen, \
	       top->p##_nak_due, top->p##_ack_due, top->p##_ack_value, top->p##_verdict }

	bool compare(mismatch *m)
	{
		return cmp_crc(m, 0, top->crca_crc, top->crca_crc_next) &&
		       cmp_crc(m, 1, top->crcb_crc, top->crcb_crc_next) &&
		       cmp_crc(m, 2, top->crcc_crc, top->crcc_crc_next) &&
		       cmp_gtx(m, ga, gi[0], GVIEW(ga)) && cmp_gtx(m, gb, gi[1], GVIEW(gb)) &&
		       cmp_grx(m, ra, ri[0], RVIEW(ra)) && cmp_grx(m, rb, ri[1], RVIEW(rb)) &&
		       CMP_LCR(lc, lc, 0) && CMP_LCR(ld, ld, 1) && CMP_LANES(lna, 0) &&
		       CMP_LANES(lnb, 1) && CMP_LANES(lnc, 2) &&
		       cmp_xser(m, xs[0], top->xa_frame_taken, top->xa_lane_data, top->xa_lane_used) &&
		       cmp_xser(m, xs[1], top->xb_frame_taken, top->xb_lane_data, top->xb_lane_used) &&
		       cmp_rxf(m, rf[0], top->rfa_res_n, top->rfa_res_status, top->rfa_res_frame,
			       top->rfa_held, top->rfa_garbage) &&
		       cmp_rxf(m, rf[1], top->rfb_res_n, top->rfb_res_status, top->rfb_res_frame,
			       top->rfb_held, top->rfb_garbage) &&
		       CMP_XASM(xma, 0) && CMP_XASM(xmb, 1) && CMP_XBLD(xba, 0) && CMP_XBLD(xbb, 1) &&
		       CMP_RDLV(rda, 0) && CMP_RDLV(rdb, 1) && CMP_RCV(rca, 0) && CMP_RCV(rcb, 1) &&
		       cmp_fifo(m, "flit fifo A (DEPTH 4, HIST 3)", fa, top->fa_count, top->fa_front,
				top->fa_second, top->fa_age0, top->fa_age1) &&
		       cmp_fifo(m, "flit fifo B (DEPTH 5, HIST 1)", fb, top->fb_count, top->fb_front,
				top->fb_second, top->fb_age0, top->fb_age1) &&
		       same(m, "credit counter A (DEPTH 5, RET_LAT 1)", "has", top->ca_has,
			    credit_has(&ca.c, 1)) &&
		       same(m, "credit counter B (DEPTH 10, RET_LAT 3)", "has", top->cb_has,
			    credit_has(&cb.c, 1)) &&
		       same(m, "credit counter B, iCE40 netlist (DEPTH 10, RET_LAT 3)", "has",
			    top->cbn_has, credit_has(&cb.c, 1)) &&
		       cmp_arb(m, "arbiter RR (N 5)", ai[0], top->rr_gnt_valid, top->rr_gnt_idx) &&
		       cmp_arb(m, "arbiter RR (N 64)", ai[1], top->rrw_gnt_valid, top->rrw_gnt_idx) &&
		       cmp_arb(m, "arbiter MATRIX (N 7)", ai[2], top->mx_gnt_valid, top->mx_gnt_idx) &&
		       cmp_arb(m, "arbiter T3E (N 6)", ai[3], top->t3_gnt_valid, top->t3_gnt_idx) &&
		       cmp_arb(m, "arbiter IWA (N 9, M_BITS 5)", ai[4], top->iw_gnt_valid,
			       top->iw_gnt_idx);
	}

	void edge()
	{
		fa.edge(fa_push, fa_v, fa_pop, now);
		fb.edge(fb_push, fb_v, fb_pop, now);
		ca.edge(ca_take, ca_ret);
		cb.edge(cb_take, cb_ret);
		arb_model *arbs[5] = { &rr, &rrw, &mx, &t3, &iw };
		for (int k = 0; k < 5; k++)
			if (ai[k].upd)
				arb_update(&arbs[k]->a, ai[k].win, ai[k].req,
					   (uint64_t)ai[k].pat << ai[k].win, ai[k].hold);
		if (wr_en)
			arb_set_weight(&iw.a, wr_idx, wr_pat, wr_w);
		for (unsigned k = 0; k < CRC_N; k++)
			crcs[k].crc = ci[k].next;
		ga.tx = gi[0].after;
		gb.tx = gi[1].after;
		ra.rx = ri[0].after;
		rb.rx = ri[1].after;
		lc.c = li[0].after;
		ld.c = li[1].after;
		for (unsigned k = 0; k < LN_N; k++) {
			lns[k].l = ni[k].after;
			drops_seen += ni[k].dropped;
		}
		for (xser_model &x : xs)	/* this cycle's bytes are on the wire */
			x.used[now % XS_AHEAD] = 0;
	}
};

const char *prog = "equiv_units";

// One seed: 0 equal, 1 a difference (reported, VCD written).
int one(uint64_t seed, uint64_t cycles, const char *vcd)
{
	mismatch m;
	bool ok;
	uint64_t drops = 0, xsf = 0, xsm = 0, xsn = 0, rfc[4] = { 0, 0, 0, 0 }, xmc[4] = { 0, 0, 0, 0 };
	uint64_t xbc[XBLD_COUNTS] = {}, rdc[3] = { 0, 0, 0 }, rcc[RCV_COUNTS] = {};
	auto t0 = std::chrono::steady_clock::now();
	{
		run rn(seed, nullptr, 0);

		ok = rn.drift(&m);
		if (!ok) {
			printf("DRIFT: %s: %s: RTL %" PRIu64 " (0x%" PRIx64 "), C %" PRIu64
			       " (0x%" PRIx64 "): the generated headers are stale; rebuild them "
			       "(make -C fpga_bitstreams rtl-gen)\n",
			       m.unit.c_str(), m.signal.c_str(), m.rtl, m.rtl, m.model, m.model);
			return 1;
		}
		ok = rn.go(cycles, &m);
		drops = rn.lane_drops();
		xsf = rn.xs_frames();
		xsm = rn.xs_multi();
		xsn = rn.xs_narrow();
		rn.rf_counts(rfc);
		rn.xm_counts(xmc);
		rn.xb_counts(xbc);
		rn.rd_counts(rdc);
		rn.rc_counts(rcc);
	}
	double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
	printf("units seed %" PRIu64 " cycles %" PRIu64 " build %s variant %s model %s: ", seed,
	       ok ? cycles : m.cycle, LOOM_RTL_BUILD, LOOM_RTL_VARIANT, LOOM_VERSION);
	if (ok) {
		printf("equal, %.0f cycles/s, lanes dropped %" PRIu64 " times, %" PRIu64
		       " frames serialised (%" PRIu64 " cycles starting several, %" PRIu64
		       " frames on fewer lanes), %" PRIu64 " frames received (%" PRIu64
		       " bad magic, %" PRIu64 " bad length, %" PRIu64 " bad CRC), %" PRIu64
		       " packets assembled (%" PRIu64 " malformed flits, %" PRIu64
		       " flits refunded, %" PRIu64 " cables cut), %" PRIu64 " frames built (%" PRIu64
		       " DATA replays, %" PRIu64 " NAK, %" PRIu64 " TRAIN, %" PRIu64 " ACK_CREDIT, %" PRIu64
		       " polls, %" PRIu64 " maintenance), %" PRIu64 " packets accepted (%" PRIu64
		       " flits delivered, %" PRIu64 " cycles not ready), %" PRIu64
		       " results checked (%" PRIu64 " framing errors, %" PRIu64 " frames made bad, %" PRIu64
		       " DATA accepted, %" PRIu64 " refused by a check, %" PRIu64 " NAK, %" PRIu64
		       " polls, %" PRIu64 " trainings)\n",
		       s > 0 ? (double)cycles / s : 0.0, drops, xsf, xsm, xsn, rfc[0], rfc[1], rfc[2],
		       rfc[3], xmc[0], xmc[1], xmc[2], xmc[3], xbc[0], xbc[1], xbc[2], xbc[3], xbc[4],
		       xbc[5], xbc[6], rdc[0], rdc[1], rdc[2], rcc[0], rcc[1], rcc[2], rcc[3], rcc[4],
		       rcc[5], rcc[6], rcc[7]);
		return 0;
	}
	std::string replay = prog;

	if (only_units)
		replay = replay + " --units '" + only_units + "'";
	equiv::print_difference(m, false, CONFIG, replay.c_str(), seed, "units", "regress.seeds");
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
	// --units NAME is this harness's own; the rest is the common command line
	std::vector<char *> args{ argv[0] };

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--units")) {
			args.push_back(argv[i]);
			continue;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "%s: --units needs a value\n", prog);
			fprintf(stderr, "usage: %s [--seed N] [--cycles N] [--vcd PATH] [--regress FILE] "
				"[--units NAME]\n", prog);
			return 2;
		}
		only_units = argv[++i];
	}
	rc = equiv::parse_options((int)args.size(), args.data(), prog, "equiv_units.vcd", &o);
	if (rc)
		return rc;
	if (o.regress) {
		rc = equiv::replay_regress(prog, o.regress, "units", [&](uint64_t s, uint64_t c) {
			return one(s, c, o.vcd);
		});
		if (rc)
			return rc;
	}
	return one(o.seed, o.cycles, o.vcd);
}
