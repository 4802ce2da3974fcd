/* SPDX-License-Identifier: GPL-2.0 */
/*
 * CRC-32C (Castagnoli), the link layer's frame check sequence.
 */
#ifndef LOOM_CARD_CRC32C_H
#define LOOM_CARD_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/*
 * Continue a CRC-32C over @len bytes.  Start with crc = 0; the pre- and
 * post-inversion are done inside, so crc32c(crc32c(0, a), b) == crc32c(0, ab).
 */
uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

#endif
