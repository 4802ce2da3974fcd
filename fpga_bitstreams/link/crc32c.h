/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CRC-32C (Castagnoli), the link layer's frame check sequence.
 *
 * crc32c() uses the CPU's CRC32 instruction (SSE4.2) when the processor
 * has it, checked once at run time, and a portable slice-by-8 table
 * otherwise.  Both paths are exported so the unit test can check each
 * against known vectors on any machine that has them.
 */
#ifndef LOOM_CARD_CRC32C_H
#define LOOM_CARD_CRC32C_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The generator polynomial 0x1edc6f41, bit-reversed (LSB-first shift register). */
#define CRC32C_POLY_REFLECTED	0x82f63b78u

/*
 * Continue a CRC-32C over @len bytes.  Start with crc = 0; the pre- and
 * post-inversion are done inside, so crc32c(crc32c(0, a), b) == crc32c(0, ab).
 */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

/* The portable path: slice-by-8 tables, same contract as crc32c(). */
uint32_t crc32c_sw(uint32_t crc, const void *buf, size_t len);
/* True when this CPU has the CRC32 instruction crc32c_hw() needs. */
bool crc32c_hw_available(void);
/* The SSE4.2 path; only call it when crc32c_hw_available(). */
uint32_t crc32c_hw(uint32_t crc, const void *buf, size_t len);

#endif
