/* SPDX-License-Identifier: GPL-2.0 */
/*
 * loomctl's one printer: every command prints its records through these
 * calls, and the same call writes the text form or the JSON form (-j), so a
 * field has one name in both.  In text a field is "KEY VALUE" (a boolean
 * is its KEY when true and nothing when false, a null is nothing); fields
 * are separated by one space, lc_print_nl() continues a record on an
 * indented line, and closing a record ends its line.  In JSON a record is
 * an object, a list an array, and -p indents them.
 *
 * The first argument says where a field appears: LC_PRINT_ANY in both
 * forms (the rule), LC_PRINT_JSON only in JSON (a value the text shows in
 * a friendlier field of its own), LC_PRINT_TEXT only in text.
 */
#ifndef LOOMCTL_PRINT_H
#define LOOMCTL_PRINT_H

#include <stdbool.h>
#include <stdint.h>

enum lc_print_kind {
	LC_PRINT_ANY,
	LC_PRINT_JSON,
	LC_PRINT_TEXT,
};

void lc_print_start(bool json, bool pretty);
bool lc_print_is_json(void);

void lc_print_open_object(const char *key);
void lc_print_close_object(void);
void lc_print_open_array(enum lc_print_kind kind, const char *key);
void lc_print_close_array(enum lc_print_kind kind);

void lc_print_uint(enum lc_print_kind kind, const char *key, uint64_t v);
void lc_print_hex(enum lc_print_kind kind, const char *key, uint64_t v);
void lc_print_str(enum lc_print_kind kind, const char *key, const char *s);
void lc_print_bool(enum lc_print_kind kind, const char *key, bool v);
void lc_print_null(enum lc_print_kind kind, const char *key);
void lc_print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void lc_print_nl(void);
void lc_print_end(void);

#endif /* LOOMCTL_PRINT_H */
