// SPDX-License-Identifier: GPL-2.0
/* ccctl's rules for arguments and names (names.h). */
#include <stdio.h>
#include <string.h>
#include "names.h"

const char *name_problem(const char *name)
{
	size_t len = strnlen(name, CA_NAME_MAX), i;
	unsigned char c;

	if (!len)
		return "it is empty";
	if (len == CA_NAME_MAX)
		return "it is longer than 15 bytes";
	for (i = 0; i < len; i++) {
		c = name[i];
		if (c == ' ')
			return "it has a blank";
		if (c < 0x20 || c == 0x7f)
			return "it has a control character";
		if (c > 0x7e)
			return "it has a byte outside ASCII";
		if (c == '/')
			return "it has a '/'";
		if (c == '.')
			return "it has a '.'";
	}
	return NULL;
}

size_t show_bytes(char *dst, const char *s, size_t len, enum show_how how)
{
	size_t i, n = 0, k;
	char esc[5];
	const char *out;
	unsigned char c;

	for (i = 0; i < len; i++) {
		c = s[i];
		out = &s[i];
		k = 1;
		if (c < 0x20 || c == 0x7f || (how == SHOW_ASCII && (c > 0x7e || c == '\\'))) {
			snprintf(esc, sizeof(esc), "\\x%02x", c);
			out = esc;
			k = 4;
		} else if (c == '\\' && how == SHOW_CONTROLS_BS) {
			out = "\\\\";
			k = 2;
		}
		if (dst)
			memcpy(dst + n, out, k);
		n += k;
	}
	return n;
}

const char *name_shown(const char *name)
{
	static char bufs[2][(CA_NAME_MAX - 1) * 4 + sizeof("...")];
	static int next;
	char *buf = bufs[next++ & 1], *p = buf;
	size_t len = strnlen(name, CA_NAME_MAX);

	p += show_bytes(p, name, len < CA_NAME_MAX ? len : CA_NAME_MAX - 1, SHOW_ASCII);
	strcpy(p, len == CA_NAME_MAX ? "..." : "");
	return buf;
}

int control_char(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return *p;
	return 0;
}
