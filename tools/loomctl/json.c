// SPDX-License-Identifier: GPL-2.0
/*
 * JSON output of loomctl -j: numbers and booleans are printed in place by
 * the objects; strings go through lc_json_str(), which escapes them.
 */
#include "loomctl.h"

/**
 * lc_json_str() - print a JSON string literal
 * @f: where
 * @s: UTF-8 or ASCII text; control characters are escaped
 */
void lc_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}
