// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32C, software, one table lookup per byte (reflected polynomial
 * 0x82f63b78).  The table is built on first use.
 */
#include "crc32c.h"

#include <stdbool.h>

#define CRC32C_POLY_REFLECTED 0x82f63b78u

static uint32_t crc32c_table[256];
static bool crc32c_table_ready;

static void crc32c_build_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int bit = 0; bit < 8; bit++)
			c = (c & 1) ? (c >> 1) ^ CRC32C_POLY_REFLECTED : c >> 1;
		crc32c_table[i] = c;
	}
	crc32c_table_ready = true;
}

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!crc32c_table_ready)
		crc32c_build_table();
	crc = ~crc;
	while (len--)
		crc = crc32c_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
