/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the Verilated equivalence harnesses (equiv_units.cpp, the units;
 * equiv_router.cpp, the router top) share: the stimulus generator, the
 * record of a difference and its report, the command line and the
 * regression-seed file.
 *
 *   HARNESS [--seed N] [--cycles N] [--vcd PATH] [--regress FILE]
 *
 * A regression-seed file holds lines "WORD SEED CYCLES" ('#' starts a
 * comment); a harness replays the lines whose WORD is its own ("units"
 * for the unit harness, the configuration for a router-top build) and
 * skips the others.  Documented in Documentation/hw/rtl.rst.
 */
#ifndef LOOM_RTL_EQUIV_COMMON_H
#define LOOM_RTL_EQUIV_COMMON_H

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

namespace equiv {

/* Cycles before a difference that the VCD of its replay covers. */
constexpr unsigned VCD_WINDOW = 64;

/* xorshift64: the same seed gives the same stimuli on every machine. */
struct rng {
	uint64_t s;
	explicit rng(uint64_t seed) : s(seed * 0x9e3779b97f4a7c15ull + 1) {}
	uint64_t next()
	{
		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		return s;
	}
	bool percent(unsigned p) { return next() % 100 < p; }
	bool permille(unsigned p) { return next() % 1000 < p; }
	unsigned below(unsigned n) { return n ? (unsigned)(next() % n) : 0; }
};

/* The first difference: where, which signal, both values. */
struct mismatch {
	uint64_t cycle = 0;
	std::string unit, signal;
	int port = -1, vc = -1;
	uint64_t rtl = 0, model = 0;
};

struct options {
	uint64_t seed = 1, cycles = 100000;
	const char *vcd = nullptr, *regress = nullptr;
};

/* The harness's name as it was run, for messages and replay lines. */
inline const char *prog_name(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	return slash ? slash + 1 : argv0;
}

inline void usage(const char *prog)
{
	fprintf(stderr, "usage: %s [--seed N] [--cycles N] [--vcd PATH] [--regress FILE]\n", prog);
}

/* A whole decimal or 0x number, or false (with a message naming @opt). */
inline bool parse_u64(const char *prog, const char *opt, const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (!*s || *end || errno || *s == '-') {
		fprintf(stderr, "%s: %s: '%s' is not a non-negative number\n", prog, opt, s);
		return false;
	}
	return true;
}

/* The command line into @o (vcd defaulting to @default_vcd): 0, or 2 after usage. */
inline int parse_options(int argc, char **argv, const char *prog, const char *default_vcd,
			 options *o)
{
	static const char *const known[] = { "--seed", "--cycles", "--vcd", "--regress" };

	o->vcd = default_vcd;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool is_known = false;

		for (const char *k : known)
			is_known |= !strcmp(a, k);
		if (!is_known) {
			fprintf(stderr, "%s: unknown option '%s'\n", prog, a);
			usage(prog);
			return 2;
		}
		if (i + 1 >= argc) {
			fprintf(stderr, "%s: %s needs a value\n", prog, a);
			usage(prog);
			return 2;
		}
		if (!strcmp(a, "--seed")) {
			if (!parse_u64(prog, a, argv[++i], &o->seed))
				return 2;
		} else if (!strcmp(a, "--cycles")) {
			if (!parse_u64(prog, a, argv[++i], &o->cycles))
				return 2;
		} else if (!strcmp(a, "--vcd")) {
			o->vcd = argv[++i];
		} else {
			o->regress = argv[++i];
		}
	}
	return 0;
}

/*
 * Replays every "@word SEED CYCLES" line of @file through @one (which
 * returns 0 for equal).  0 when all were equal, 1 when one differed, 2
 * when the file cannot be read or a line is not WORD SEED CYCLES.
 */
inline int replay_regress(const char *prog, const char *file, const char *word,
			  const std::function<int(uint64_t seed, uint64_t cycles)> &one)
{
	FILE *f = fopen(file, "r");
	char line[256], w[64];
	unsigned lineno = 0;
	int bad = 0;

	if (!f) {
		fprintf(stderr, "%s: cannot read %s: %s\n", prog, file, strerror(errno));
		return 2;
	}
	while (fgets(line, sizeof(line), f)) {
		uint64_t s, c;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		if (sscanf(line, "%63s %" SCNu64 " %" SCNu64, w, &s, &c) != 3) {
			fprintf(stderr, "%s: %s:%u: not 'WORD SEED CYCLES': %s", prog, file, lineno,
				line);
			fclose(f);
			return 2;
		}
		if (!strcmp(w, word) && one(s, c))
			bad = 1;
	}
	fclose(f);
	return bad;
}

/*
 * The report of a difference: the cycle, unit (port and VC where the
 * harness has them), signal and both values, the configuration, how to
 * replay it and the line that keeps it as a regression seed in @seeds_file.
 */
inline void print_difference(const mismatch &m, bool with_port_vc, const std::string &config,
			     const char *prog, uint64_t seed, const char *word,
			     const char *seeds_file)
{
	printf("DIFFERENCE\n");
	printf("  cycle %" PRIu64 ": unit %s, ", m.cycle, m.unit.c_str());
	if (with_port_vc)
		printf("port %d, VC %d, ", m.port, m.vc);
	printf("signal %s: RTL %" PRIu64 " (0x%" PRIx64 "), C model %" PRIu64 " (0x%" PRIx64 ")\n",
	       m.signal.c_str(), m.rtl, m.rtl, m.model, m.model);
	printf("  configuration: %s\n", config.c_str());
	printf("  replay: %s --seed %" PRIu64 " --cycles %" PRIu64 "\n", prog, seed, m.cycle + 1);
	printf("  keep it: add '%s %" PRIu64 " %" PRIu64 "' to fpga_bitstreams/rtl/harness/%s\n",
	       word, seed, m.cycle + 1, seeds_file);
}

/* The first cycle the VCD of a difference at @cycle covers. */
inline uint64_t vcd_from(uint64_t cycle)
{
	return cycle > VCD_WINDOW ? cycle - VCD_WINDOW : 0;
}

} // namespace equiv

#endif
