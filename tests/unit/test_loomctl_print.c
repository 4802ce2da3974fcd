// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl's printer (tools/loomctl/print.c): the same calls give the text
 * form and the JSON form with the same field names; flags, nulls, lists,
 * nested records, continuation lines, pretty JSON and JSON string escaping
 * come out as loomctl(8) describes.  Each case prints once in text, once
 * in JSON, once in pretty JSON, and the outputs are compared whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "../../tools/loomctl/print.h"

TAP_DEFINE;

static char got[4096];

/* run @fn with the printer in @mode (0 text, 1 JSON, 2 pretty), into got[] */
static const char *capture(void (*fn)(void), int mode)
{
	FILE *f = tmpfile();
	int saved;
	size_t n;

	fflush(stdout);
	saved = dup(1);
	dup2(fileno(f), 1);
	lc_print_start(mode > 0, mode > 1);
	fn();
	lc_print_end();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(f);
	n = fread(got, 1, sizeof(got) - 1, f);
	got[n] = '\0';
	fclose(f);
	return got;
}

/* one diagnostic line, its newlines shown as \n */
static void diag_line(const char *label, const char *s)
{
	char buf[8192];
	size_t n = 0;

	for (; *s && n + 3 < sizeof(buf); s++) {
		if (*s == '\n') {
			buf[n++] = '\\';
			buf[n++] = 'n';
		} else {
			buf[n++] = *s;
		}
	}
	buf[n] = '\0';
	tap_diag("%s %s", label, buf);
}

static void same(const char *what, const char *want)
{
	if (!tap_ok(!strcmp(got, want), "%s", what)) {
		diag_line("want:", want);
		diag_line("got: ", got);
	}
}

/* a port-like record: string, number, flags, a null, a continuation line */
static void port(void)
{
	lc_print_open_array(LC_PRINT_JSON, NULL);
	lc_print_open_object(NULL);
	lc_print_str(LC_PRINT_ANY, "dev", "loom0");
	lc_print_uint(LC_PRINT_ANY, "port", 1);
	lc_print_bool(LC_PRINT_ANY, "up", true);
	lc_print_bool(LC_PRINT_ANY, "disabled", false);
	lc_print_null(LC_PRINT_ANY, "peer_node");
	lc_print_nl();
	lc_print_uint(LC_PRINT_ANY, "crc_errors", 7);
	lc_print_hex(LC_PRINT_ANY, "key", 0x5eed);
	lc_print_close_object();
	lc_print_close_array(LC_PRINT_JSON);
}

/* lists of values, an empty one, a string that needs quoting or escaping */
static void lists(void)
{
	lc_print_open_object(NULL);
	lc_print_uint(LC_PRINT_ANY, "bsu", 3);
	lc_print_open_array(LC_PRINT_ANY, "children");
	lc_print_uint(LC_PRINT_ANY, NULL, 0);
	lc_print_uint(LC_PRINT_ANY, NULL, 2);
	lc_print_str(LC_PRINT_ANY, NULL, "host");
	lc_print_close_array(LC_PRINT_ANY);
	lc_print_open_array(LC_PRINT_ANY, "arrived");
	lc_print_close_array(LC_PRINT_ANY);
	lc_print_str(LC_PRINT_ANY, "fw_desc", "loom \"card\"\n");
	lc_print_close_object();
}

/* a record with nested records and fields only one form shows */
static void nested(void)
{
	lc_print_open_object(NULL);
	lc_print_str(LC_PRINT_ANY, "dev", "loom0");
	lc_print_open_array(LC_PRINT_JSON, "start_vc1");
	lc_print_uint(LC_PRINT_JSON, NULL, 5);
	lc_print_uint(LC_PRINT_JSON, NULL, 6);
	lc_print_close_array(LC_PRINT_JSON);
	lc_print_str(LC_PRINT_TEXT, "start_vc1", "5-6");
	lc_print_open_array(LC_PRINT_JSON, "ports");
	for (unsigned int p = 0; p < 2; p++) {
		lc_print_open_object(NULL);
		lc_print_uint(LC_PRINT_ANY, "port", p);
		lc_print_text("(remark)");
		lc_print_close_object();
	}
	lc_print_close_array(LC_PRINT_JSON);
	lc_print_close_object();
}

int main(void)
{
	tap_plan(9);
	capture(port, 0);
	same("text: NAME VALUE, a flag by its name only when true, no null, a continuation line",
	     "dev loom0 port 1 up\n    crc_errors 7 key 0x5eed\n");
	capture(port, 1);
	same("JSON: the same names, false and null kept, hex as a number",
	     "[{\"dev\":\"loom0\",\"port\":1,\"up\":true,\"disabled\":false,\"peer_node\":null,"
	     "\"crc_errors\":7,\"key\":24301}]\n");
	capture(port, 2);
	same("pretty JSON: indented, one member per line",
	     "[\n  {\n    \"dev\": \"loom0\",\n    \"port\": 1,\n    \"up\": true,\n"
	     "    \"disabled\": false,\n    \"peer_node\": null,\n    \"crc_errors\": 7,\n"
	     "    \"key\": 24301\n  }\n]\n");
	capture(lists, 0);
	same("text: a list as NAME a,b,c, an empty one as NAME none, a string with blanks quoted",
	     "bsu 3 children 0,2,host arrived none fw_desc \"loom \\\"card\\\"\\u000a\"\n");
	capture(lists, 1);
	same("JSON: lists as arrays, strings escaped",
	     "{\"bsu\":3,\"children\":[0,2,\"host\"],\"arrived\":[],"
	     "\"fw_desc\":\"loom \\\"card\\\"\\u000a\"}\n");
	capture(nested, 0);
	same("text: nested records indented under their record, text-only words shown",
	     "dev loom0 start_vc1 5-6\n    port 0 (remark)\n    port 1 (remark)\n");
	capture(nested, 1);
	same("JSON: nested records in their array, JSON-only fields shown, text-only ones not",
	     "{\"dev\":\"loom0\",\"start_vc1\":[5,6],\"ports\":[{\"port\":0},{\"port\":1}]}\n");
	capture(nested, 2);
	same("pretty JSON of nested records and arrays",
	     "{\n  \"dev\": \"loom0\",\n  \"start_vc1\": [\n    5,\n    6\n  ],\n"
	     "  \"ports\": [\n    {\n      \"port\": 0\n    },\n    {\n      \"port\": 1\n"
	     "    }\n  ]\n}\n");
	lc_print_start(true, false);
	tap_ok(lc_print_is_json(), "lc_print_is_json() says which form is printed");
	return tap_exit_status();
}
