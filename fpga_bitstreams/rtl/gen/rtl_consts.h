/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The constants the RTL takes from the C sources (wire formats, register
 * offsets, the router's enums, the RTL's configuration port), as one
 * table: rtl_gen prints each row as a Verilog `define, and the
 * equivalence harness compares every row with the value the Verilated
 * RTL sees (the drift check).  Documented in Documentation/hw/rtl.rst.
 */
#ifndef LOOM_RTL_CONSTS_H
#define LOOM_RTL_CONSTS_H

#include <stdint.h>

struct rtl_const {
	const char *name;	/* the `define's name */
	uint64_t value;
	unsigned char hex;	/* print as 32'hXXXXXXXX */
	const char *group;	/* a comment line before the row, or NULL */
};

extern const struct rtl_const rtl_consts[];
extern const unsigned int rtl_const_count;

#endif
