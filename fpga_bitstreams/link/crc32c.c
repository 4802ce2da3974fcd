// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32C (reflected polynomial 0x82f63b78): SSE4.2 CRC32 instruction when
 * the CPU has it, slice-by-8 tables otherwise (eight bytes per step, one
 * lookup in each of eight tables).  The tables are built on first use.
 */
#include "crc32c.h"

#include <string.h>

static uint32_t crc32c_table[8][256];
static bool crc32c_table_ready;

static void crc32c_build_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int bit = 0; bit < 8; bit++)
			c = (c & 1) ? (c >> 1) ^ CRC32C_POLY_REFLECTED : c >> 1;
		crc32c_table[0][i] = c;
	}
	/* table k: the CRC of byte i followed by k zero bytes */
	for (uint32_t i = 0; i < 256; i++)
		for (int k = 1; k < 8; k++)
			crc32c_table[k][i] = (crc32c_table[k - 1][i] >> 8) ^
					     crc32c_table[0][crc32c_table[k - 1][i] & 0xff];
	crc32c_table_ready = true;
}

static inline uint64_t crc32c_load_le64(const uint8_t *p)
{
	uint64_t v = 0;

	/* byte by byte: endian independent; compilers make it one load */
	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!crc32c_table_ready)
		crc32c_build_table();
	crc = ~crc;
	while (len >= 8) {
		uint64_t v = crc32c_load_le64(p) ^ crc;

		crc = crc32c_table[7][v & 0xff] ^
		      crc32c_table[6][(v >> 8) & 0xff] ^
		      crc32c_table[5][(v >> 16) & 0xff] ^
		      crc32c_table[4][(v >> 24) & 0xff] ^
		      crc32c_table[3][(v >> 32) & 0xff] ^
		      crc32c_table[2][(v >> 40) & 0xff] ^
		      crc32c_table[1][(v >> 48) & 0xff] ^
		      crc32c_table[0][v >> 56];
		p += 8;
		len -= 8;
	}
	while (len--)
		crc = crc32c_table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))

bool crc32c_hw_available(void)
{
	return __builtin_cpu_supports("sse4.2");
}

__attribute__((target("sse4.2")))
uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint64_t c = ~crc;

	while (len >= 8) {
		uint64_t v;

		memcpy(&v, p, sizeof(v));
		c = __builtin_ia32_crc32di(c, v);
		p += 8;
		len -= 8;
	}
	while (len--)
		c = __builtin_ia32_crc32qi((uint32_t)c, *p++);
	return ~(uint32_t)c;
}

#else

bool crc32c_hw_available(void)
{
	return false;
}

uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len)
{
	return crc32c_sw(crc, buf, len);
}

#endif

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	static int use_hw = -1;

	if (use_hw < 0)
		use_hw = crc32c_hw_available();
	return use_hw ? crc32c_hw(crc, buf, len) : crc32c_sw(crc, buf, len);
}
