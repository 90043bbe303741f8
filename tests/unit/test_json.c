// SPDX-License-Identifier: GPL-2.0
/*
 * ccctl's one writer (loader/json.c) on the host: what every class of byte
 * in a name becomes in JSON and in a plain table.  Cgroup paths are bytes
 * from the kernel, anything but '/' and NUL; JSON text must be UTF-8.  So:
 * ASCII as it is, '"' and '\\' escaped, control characters as \u00XX, valid
 * UTF-8 of each length as it is, and each byte that is not part of valid
 * UTF-8 (a stray continuation, an overlong form, a surrogate, past
 * U+10FFFF, a sequence cut short by the end or by another byte, 0xc0,
 * 0xc1, 0xf5-0xff) as \udcXX.  Then every single byte 0x01-0xff alone, and
 * the plain table's cell: one line whatever the name holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "json.h"
#include "unit.h"

static void expect(const char *what, const char *got, const char *want)
{
	unit_check(!strcmp(got, want), "%s: got %s, expected %s", what, got, want);
}

/* What jw_string() writes of s. */
static const char *json_of(const char *s)
{
	static char buf[1024];
	struct json_writer w;
	FILE *f;

	f = fmemopen(buf, sizeof(buf), "w");
	if (!f)
		exit(1);
	jw_init(&w, f);
	jw_string(&w, s);
	fclose(f);
	return buf;
}

/* What a plain table with one left-aligned column of width 8, then a last one, writes. */
static const char *plain_of(const char *s)
{
	static const struct field f[] = {
		{ "a", "A", -8, FIELD_STR },
		{ "b", "B", 0, FIELD_STR },
	};
	static char buf[1024];
	struct value v[2] = { { .s = s }, { .s = s } };
	struct table t;
	FILE *f2;

	f2 = fmemopen(buf, sizeof(buf), "w");
	if (!f2)
		exit(1);
	table_begin(&t, f2, f, 2, false);
	table_row(&t, v);
	table_end(&t);
	fclose(f2);
	return buf;
}

static const struct {
	const char *what, *in, *json;
} cases[] = {
	{ "ASCII", "/sys/fs/cgroup/a b", "\"/sys/fs/cgroup/a b\"" },
	{ "quote and backslash", "a\"b\\c", "\"a\\\"b\\\\c\"" },
	{ "newline, tab, escape, DEL", "a\nb\tc\x1b\x7f", "\"a\\u000ab\\u0009c\\u001b\\u007f\"" },
	{ "2-byte UTF-8", "caf\xc3\xa9", "\"caf\xc3\xa9\"" },
	{ "3-byte UTF-8", "\xe2\x82\xac", "\"\xe2\x82\xac\"" },
	{ "3-byte UTF-8 after E0", "\xe0\xa4\x85", "\"\xe0\xa4\x85\"" },
	{ "4-byte UTF-8", "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"" },
	{ "U+10FFFF", "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"" },
	{ "Latin-1 byte", "caf\xe9", "\"caf\\udce9\"" },
	{ "stray continuation", "\x80x\xbf", "\"\\udc80x\\udcbf\"" },
	{ "overlong 2-byte", "\xc0\xaf", "\"\\udcc0\\udcaf\"" },
	{ "overlong 2-byte C1", "\xc1\xbf", "\"\\udcc1\\udcbf\"" },
	{ "overlong 3-byte", "\xe0\x80\xaf", "\"\\udce0\\udc80\\udcaf\"" },
	{ "overlong 4-byte", "\xf0\x8f\xbf\xbf", "\"\\udcf0\\udc8f\\udcbf\\udcbf\"" },
	{ "surrogate", "\xed\xa0\x80", "\"\\udced\\udca0\\udc80\"" },
	{ "past U+10FFFF", "\xf4\x90\x80\x80", "\"\\udcf4\\udc90\\udc80\\udc80\"" },
	{ "F5-FF", "\xf5\xff", "\"\\udcf5\\udcff\"" },
	{ "cut short by the end", "a\xe2\x82", "\"a\\udce2\\udc82\"" },
	{ "cut short by ASCII", "\xe2x\xf0\x9f\x98y", "\"\\udce2x\\udcf0\\udc9f\\udc98y\"" },
	{ "cut short by a lead byte", "\xc3\xc3\xa9", "\"\\udcc3\xc3\xa9\"" },
};

int main(void)
{
	char in[2], want[16];
	unsigned int i;
	int b;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect(cases[i].what, json_of(cases[i].in), cases[i].json);

	/* Each byte alone: none starts a whole sequence. */
	for (b = 1; b < 0x100; b++) {
		in[0] = b;
		in[1] = '\0';
		if (b == '"' || b == '\\')
			snprintf(want, sizeof(want), "\"\\%c\"", b);
		else if (b < 0x20 || b == 0x7f)
			snprintf(want, sizeof(want), "\"\\u%04x\"", b);
		else if (b >= 0x80)
			snprintf(want, sizeof(want), "\"\\udc%02x\"", b);
		else
			snprintf(want, sizeof(want), "\"%c\"", b);
		expect("one byte", json_of(in), want);
	}

	/* The plain table: padding counts what is shown, one line a row. */
	expect("plain ASCII", plain_of("ab"), "A        B\nab       ab\n");
	expect("plain control", plain_of("a\nb"), "A        B\na\\x0ab   a\\x0ab\n");
	expect("plain backslash", plain_of("a\\b"), "A        B\na\\\\b     a\\\\b\n");
	/* Padding counts bytes, as printf's %-8s did before. */
	expect("plain high bytes as they are", plain_of("\xe9t\xc3\xa9"),
	       "A        B\n\xe9t\xc3\xa9     \xe9t\xc3\xa9\n");
	expect("plain wider than the column", plain_of("abcdefghij"),
	       "A        B\nabcdefghij abcdefghij\n");

	return unit_done();
}
