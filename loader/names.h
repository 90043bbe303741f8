/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What ccctl takes as an argument and as an algorithm's name, and how it
 * shows a name it refuses: whatever the bytes, an error stays one line.
 */
#ifndef __CCCTL_NAMES_H
#define __CCCTL_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#define CA_NAME_MAX	16	/* TCP_CA_NAME_MAX, NUL included */

/*
 * A name becomes a directory under ccctl's pins and a word in the kernel's
 * blank-separated lists of algorithms, and people read it back and type
 * it.  The kernel takes any 15 bytes; ccctl takes what the kernel's own
 * algorithms are named with.  bpffs reserves dots: it refuses to look up,
 * and so to create, any name with one (EPERM) in a directory it made.
 */
#define NAME_RULE	"a name is 1 to 15 printable ASCII characters without blank, '/' or '.'"

/* Which part of NAME_RULE the first CA_NAME_MAX bytes at name break, or NULL. */
const char *name_problem(const char *name);

static inline bool valid_name(const char *name)
{
	return !name_problem(name);
}

/* Which bytes show_bytes() writes as an escape. */
enum show_how {
	SHOW_CONTROLS,		/* control characters (0x01-0x1f, 0x7f) as \xNN */
	SHOW_CONTROLS_BS,	/* those, and '\\' as "\\\\" so that \xNN reads back */
	SHOW_ASCII,		/* all but printable ASCII, and '\\', as \xNN */
};

/*
 * The len bytes at s as a message or a table shows them, on one line
 * whatever they hold, written to dst (no NUL added) or, when dst is NULL,
 * only counted.  Returns the bytes written, at most 4 * len.  The one
 * escaper of ccctl and bictrace's text; JSON has its own (json.c).
 */
size_t show_bytes(char *dst, const char *s, size_t len, enum show_how how);

/*
 * NAME for a message: anything but printable ASCII as \xNN, cut to 15
 * bytes and "..." if longer.  Two buffers: a message can show two names.
 */
const char *name_shown(const char *name);

/*
 * The first control character (0x01-0x1f, 0x7f) in s, or 0.  Every
 * argument is printed back in some message, and getopt echoes bad options
 * as they are: one with a newline or an escape sequence would make that
 * message more than one line, or rewrite the terminal.
 */
int control_char(const char *s);

#endif /* __CCCTL_NAMES_H */
