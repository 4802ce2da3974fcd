// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32C: the slice-by-8 path and the SSE4.2 path against known vectors
 * (RFC 3720 appendix B.4 and the '123456789' check value) and against a
 * bit-at-a-time reference for every length 0..300 at every alignment 0..7,
 * and crc32c() (whichever path the CPU picks) against both.
 */
#include "crc32c.h"
#include "tap.h"

#include <string.h>

TAP_DEFINE;

typedef uint32_t (*crc_fn)(uint32_t, const void *, size_t);

/* one bit per step, straight from the definition */
static uint32_t crc32c_bitwise(uint32_t crc, const uint8_t *p, size_t len)
{
	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (int bit = 0; bit < 8; bit++)
			crc = (crc & 1) ? (crc >> 1) ^ 0x82f63b78u : crc >> 1;
	}
	return ~crc;
}

struct vector {
	const char *name;
	uint8_t data[32];
	size_t len;
	uint32_t crc;
};

static struct vector vectors[5];

static void make_vectors(void)
{
	vectors[0] = (struct vector){ .name = "'123456789'", .len = 9, .crc = 0xe3069283u };
	memcpy(vectors[0].data, "123456789", 9);
	vectors[1] = (struct vector){ .name = "32 zero bytes", .len = 32, .crc = 0x8a9136aau };
	vectors[2] = (struct vector){ .name = "32 bytes 0xff", .len = 32, .crc = 0x62a8ab43u };
	memset(vectors[2].data, 0xff, 32);
	vectors[3] = (struct vector){ .name = "bytes 0..31", .len = 32, .crc = 0x46dd794eu };
	vectors[4] = (struct vector){ .name = "bytes 31..0", .len = 32, .crc = 0x113fdb5cu };
	for (int i = 0; i < 32; i++) {
		vectors[3].data[i] = (uint8_t)i;
		vectors[4].data[i] = (uint8_t)(31 - i);
	}
}

static void check_path(const char *path, crc_fn fn)
{
	static uint8_t buf[300 + 8];
	int bad = 0;

	for (size_t v = 0; v < sizeof(vectors) / sizeof(vectors[0]); v++) {
		uint32_t got = fn(0, vectors[v].data, vectors[v].len);

		tap_ok(got == vectors[v].crc, "%s: %s -> 0x%08x (got 0x%08x)", path,
		       vectors[v].name, vectors[v].crc, got);
	}
	tap_ok(fn(fn(0, "1234", 4), "56789", 5) == 0xe3069283u,
	       "%s: continuing a CRC over a split buffer gives the whole one", path);
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	for (size_t align = 0; align < 8; align++)
		for (size_t len = 0; len <= 300; len++) {
			uint32_t want = crc32c_bitwise(0x12345678u, buf + align, len);
			uint32_t got = fn(0x12345678u, buf + align, len);

			if (got != want && bad++ < 5)
				tap_diag("%s: length %zu alignment %zu: 0x%08x, reference 0x%08x",
					 path, len, align, got, want);
		}
	tap_ok(!bad, "%s: every length 0..300 at alignments 0..7 matches the bitwise reference (%d mismatches)",
	       path, bad);
}

int main(void)
{
	int per_path = 5 + 1 + 1;

	tap_plan(3 * per_path);
	make_vectors();
	check_path("slice-by-8", crc32c_sw);
	check_path("crc32c()", crc32c);
	if (crc32c_hw_available()) {
		tap_diag("this CPU has SSE4.2: crc32c() uses the CRC32 instruction");
		check_path("SSE4.2", crc32c_hw);
	} else {
		tap_diag("no SSE4.2 on this CPU: crc32c() uses slice-by-8");
		for (int i = 0; i < per_path; i++)
			tap_ok(1, "SSE4.2 path # SKIP the CPU has no CRC32 instruction");
	}
	return tap_exit_status();
}
