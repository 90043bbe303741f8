// SPDX-License-Identifier: GPL-2.0
/*
 * ccctl's rules for arguments and names (loader/names.c), byte by byte on
 * the host: every byte 0x01-0xff inside a name gets exactly the refusal the
 * rule gives it (or none), lengths 0, 15 and 16, and what a refused name
 * looks like in a message (one line, printable, at most 15 bytes shown),
 * and the other two ways show_bytes() shows any byte: a message's (control
 * characters escaped) and a table's (those, and '\' doubled).
 * The guest's t_52_ccctl_bytes drives the real binary with the same bytes.
 */
#include <stdio.h>
#include <string.h>
#include "names.h"
#include "unit.h"

static void expect_str(const char *actual, const char *expected, const char *what, int b)
{
	unit_check((!actual && !expected) || (actual && expected && !strcmp(actual, expected)),
		   "%s (byte 0x%02x): got '%s', expected '%s'", what, b,
		   actual ?: "(none)", expected ?: "(none)");
}

/* What the rule says of a name with byte b in it, independently of names.c. */
static const char *rule_for(int b)
{
	if (b == ' ')
		return "it has a blank";
	if (b < 0x20 || b == 0x7f)
		return "it has a control character";
	if (b >= 0x80)
		return "it has a byte outside ASCII";
	if (b == '/')
		return "it has a '/'";
	if (b == '.')
		return "it has a '.'";
	return NULL;
}

int main(void)
{
	char name[4], shown[8], arg[4], got[16];
	int b;

	for (b = 1; b < 256; b++) {
		snprintf(name, sizeof(name), "a%cc", b);
		expect_str(name_problem(name), rule_for(b), "name_problem(a?c)", b);

		/* Shown: the byte itself if printable ASCII other than '\', else \xNN. */
		if (b >= 0x20 && b <= 0x7e && b != '\\')
			snprintf(shown, sizeof(shown), "a%cc", b);
		else
			snprintf(shown, sizeof(shown), "a\\x%02xc", b);
		expect_str(name_shown(name), shown, "name_shown(a?c)", b);

		/* A message: only control characters escaped. */
		if (b < 0x20 || b == 0x7f)
			snprintf(shown, sizeof(shown), "a\\x%02xc", b);
		else
			snprintf(shown, sizeof(shown), "a%cc", b);
		got[show_bytes(got, name, 3, SHOW_CONTROLS)] = '\0';
		expect_str(got, shown, "show_bytes(a?c, SHOW_CONTROLS)", b);
		expect_str(show_bytes(NULL, name, 3, SHOW_CONTROLS) == strlen(shown) ? "" : "wrong",
			   "", "show_bytes(NULL, a?c, SHOW_CONTROLS) counts", b);

		/* A table: and '\' doubled, so that \xNN reads back. */
		if (b == '\\')
			snprintf(shown, sizeof(shown), "a\\\\c");
		got[show_bytes(got, name, 3, SHOW_CONTROLS_BS)] = '\0';
		expect_str(got, shown, "show_bytes(a?c, SHOW_CONTROLS_BS)", b);

		snprintf(arg, sizeof(arg), "-%c-", b);
		expect_str(control_char(arg) ? "control" : NULL,
			   b < 0x20 || b == 0x7f ? "control" : NULL, "control_char(-?-)", b);
	}

	expect_str(name_problem(""), "it is empty", "empty name", 0);
	expect_str(name_problem("0123456789abcde"), NULL, "15 bytes", 0);
	expect_str(name_problem("0123456789abcdef"), "it is longer than 15 bytes", "16 bytes", 0);
	expect_str(name_shown("0123456789abcdef0123"), "0123456789abcde...", "shown, 20 bytes", 0);
	expect_str(name_shown("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10"),
		   "\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08\\x09\\x0a\\x0b\\x0c\\x0d\\x0e\\x0f...",
		   "shown, 16 control bytes", 0);
	expect_str(name_problem("bpf_bic"), NULL, "bpf_bic", 0);
	expect_str(name_problem("bpf_bic_2611"), NULL, "bpf_bic_2611", 0);

	return unit_done();
}
