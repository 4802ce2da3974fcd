// SPDX-License-Identifier: GPL-2.0
/*
 * loomctl's printer (print.h): one set of calls writes text or JSON, so a
 * field's name is the same in both.  Output goes to stdout.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "print.h"

#define LC_PRINT_DEPTH	8

struct lc_level {
	bool array;		/* an array, else an object */
	bool text;		/* shown in text (scalar arrays print "KEY a,b") */
	unsigned int n;		/* members printed so far */
};

static struct {
	bool json, pretty;
	int depth;
	struct lc_level lv[LC_PRINT_DEPTH];
	bool line;		/* text: the current line holds fields */
	bool cont;		/* text: the line continues a record */
	bool dirty;		/* JSON printed since lc_print_end() */
	int records;		/* text: open objects (indentation) */
} pr;

/**
 * lc_print_start() - choose the form of everything printed from now on
 * @json: JSON (-j) instead of text
 * @pretty: indent the JSON (-p)
 */
void lc_print_start(bool json, bool pretty)
{
	memset(&pr, 0, sizeof(pr));
	pr.json = json;
	pr.pretty = pretty;
}

/**
 * lc_print_is_json() - does the printer write JSON
 *
 * Return: true for -j.
 */
bool lc_print_is_json(void)
{
	return pr.json;
}

static bool lc_shown(enum lc_print_kind kind)
{
	return kind == LC_PRINT_ANY || (kind == LC_PRINT_JSON) == pr.json;
}

static void lc_json_indent(void)
{
	if (!pr.pretty)
		return;
	putchar('\n');
	for (int i = 0; i < pr.depth; i++)
		fputs("  ", stdout);
}

static void lc_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

/* JSON: the separator and the key of the next member of the open level */
static void lc_json_member(const char *key)
{
	struct lc_level *l = pr.depth ? &pr.lv[pr.depth - 1] : NULL;

	pr.dirty = true;
	if (l && l->n++)
		putchar(',');
	if (l)
		lc_json_indent();
	if (key && l && !l->array) {
		lc_json_string(key);
		fputs(pr.pretty ? ": " : ":", stdout);
	}
}

static void lc_text_end_line(void)
{
	if (pr.line)
		putchar('\n');
	pr.line = false;
	pr.cont = false;
}

/* text: the separator before the next field, indenting a new line */
static void lc_text_sep(void)
{
	struct lc_level *l = pr.depth ? &pr.lv[pr.depth - 1] : NULL;

	if (l && l->array && l->text) {
		if (l->n++)
			putchar(',');
		return;
	}
	if (pr.line) {
		putchar(' ');
		return;
	}
	for (int i = pr.cont ? 0 : 1; i < pr.records; i++)
		fputs("    ", stdout);
	pr.line = true;
}

static void lc_push(bool array, bool text)
{
	if (pr.depth < LC_PRINT_DEPTH)
		pr.lv[pr.depth] = (struct lc_level){ .array = array, .text = text };
	pr.depth++;
}

/**
 * lc_print_open_object() - start a record
 * @key: its name inside an enclosing object, NULL in an array or at the top
 *
 * Text: a record starts on a new line, indented under its enclosing record.
 */
void lc_print_open_object(const char *key)
{
	if (pr.json) {
		lc_json_member(key);
		putchar('{');
	} else {
		lc_text_end_line();
		pr.records++;
	}
	lc_push(false, false);
}

/**
 * lc_print_close_object() - end the record lc_print_open_object() started
 */
void lc_print_close_object(void)
{
	pr.depth--;
	if (pr.json) {
		if (pr.depth < LC_PRINT_DEPTH && pr.lv[pr.depth].n)
			lc_json_indent();
		putchar('}');
	} else {
		lc_text_end_line();
		pr.records--;
	}
}

/**
 * lc_print_open_array() - start a list
 * @kind: LC_PRINT_ANY for a list of values that text shows as "KEY a,b,c"
 *	  (or "KEY none"); LC_PRINT_JSON for a list of records, which text
 *	  shows as the records alone
 * @key: its name inside an object, NULL at the top
 */
void lc_print_open_array(enum lc_print_kind kind, const char *key)
{
	bool text = kind == LC_PRINT_ANY && key;

	if (pr.json) {
		lc_json_member(key);
		putchar('[');
	} else if (text) {
		lc_text_sep();
		printf("%s ", key);
	}
	lc_push(true, text);
}

/**
 * lc_print_close_array() - end the list lc_print_open_array() started
 * @kind: as given to lc_print_open_array()
 */
void lc_print_close_array(enum lc_print_kind kind)
{
	struct lc_level *l;

	pr.depth--;
	l = pr.depth < LC_PRINT_DEPTH ? &pr.lv[pr.depth] : NULL;
	if (pr.json) {
		if (l && l->n)
			lc_json_indent();
		putchar(']');
	} else if (l && l->text && !l->n) {
		fputs("none", stdout);
	}
	(void)kind;
}

/* the start of a scalar field; false when this form does not show it */
static bool lc_field(enum lc_print_kind kind, const char *key)
{
	struct lc_level *l = pr.depth ? &pr.lv[pr.depth - 1] : NULL;

	if (!lc_shown(kind))
		return false;
	if (pr.json) {
		lc_json_member(key);
		return true;
	}
	lc_text_sep();
	if (key && !(l && l->array))
		printf("%s ", key);
	return true;
}

/**
 * lc_print_uint() - an unsigned number
 * @kind: which forms show it
 * @key: its name (ignored inside a list)
 * @v: the value
 */
void lc_print_uint(enum lc_print_kind kind, const char *key, uint64_t v)
{
	if (lc_field(kind, key))
		printf("%" PRIu64, v);
}

/**
 * lc_print_hex() - a number text shows in hexadecimal (JSON: a number)
 * @kind: which forms show it
 * @key: its name
 * @v: the value
 */
void lc_print_hex(enum lc_print_kind kind, const char *key, uint64_t v)
{
	if (lc_field(kind, key))
		printf(pr.json ? "%" PRIu64 : "0x%" PRIx64, v);
}

/**
 * lc_print_str() - a string (text quotes it when it is empty or has blanks)
 * @kind: which forms show it
 * @key: its name
 * @s: the value
 */
void lc_print_str(enum lc_print_kind kind, const char *key, const char *s)
{
	if (!lc_field(kind, key))
		return;
	if (pr.json || !*s || strpbrk(s, " \t\n\""))
		lc_json_string(s);
	else
		fputs(s, stdout);
}

/**
 * lc_print_bool() - a flag: JSON true/false, text its KEY when true
 * @kind: which forms show it
 * @key: its name
 * @v: the value
 */
void lc_print_bool(enum lc_print_kind kind, const char *key, bool v)
{
	if (!lc_shown(kind))
		return;
	if (pr.json) {
		lc_json_member(key);
		fputs(v ? "true" : "false", stdout);
	} else if (v) {
		lc_text_sep();
		fputs(key, stdout);
	}
}

/**
 * lc_print_null() - a field without a value: JSON null, nothing in text
 * @kind: which forms show it
 * @key: its name
 */
void lc_print_null(enum lc_print_kind kind, const char *key)
{
	if (!lc_shown(kind) || !pr.json)
		return;
	lc_json_member(key);
	fputs("null", stdout);
}

/**
 * lc_print_text() - words only the text form shows (a remark, a unit)
 * @fmt: printf format
 */
void lc_print_text(const char *fmt, ...)
{
	va_list ap;

	if (pr.json)
		return;
	lc_text_sep();
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

/**
 * lc_print_nl() - text: continue the record on a new, indented line
 */
void lc_print_nl(void)
{
	if (pr.json || !pr.line)
		return;
	putchar('\n');
	pr.line = false;
	pr.cont = true;
}

/**
 * lc_print_end() - end the output: the JSON document's newline (once)
 */
void lc_print_end(void)
{
	if (pr.json && pr.dirty)
		putchar('\n');
	else if (!pr.json)
		lc_text_end_line();
	pr.dirty = false;
	fflush(stdout);
}
